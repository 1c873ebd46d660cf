"""Reviewing documents: diff between versions, lint, coverage, reports."""
