"""Work spread over processes, in order, with a progress bar on a terminal."""

from __future__ import annotations

import gc
import multiprocessing
import multiprocessing.pool
import os
import sys
import time
from collections.abc import Callable, Sequence
from typing import TypeVar

T = TypeVar("T")
R = TypeVar("R")

# Below this many items a pool costs more than it saves.
MIN_ITEMS_PER_WORKER = 16


def default_jobs() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def run(
    function: Callable[[T], R],
    items: Sequence[T],
    *,
    jobs: int | None = None,
    label: str = "",
    cost: Callable[[T], int] | None = None,
) -> list[R]:
    """`[function(item) for item in items]`, on up to `jobs` processes, results in order.

    `function` must be a module-level function (it is sent to the workers by name).
    """
    with Workers(jobs) as workers:
        return workers.run(function, items, label=label, cost=cost)


class Workers:
    """Worker processes for several rounds of work: started by the first round large enough
    to pay for them, and reused by the later ones. Started early, while this process is
    still small, they do not carry copies of what it holds later (a forked worker counts the
    memory it inherits)."""

    def __init__(self, jobs: int | None = None) -> None:
        self.jobs = jobs or default_jobs()
        self._pool: multiprocessing.pool.Pool | None = None

    def __enter__(self) -> Workers:
        return self

    def __exit__(self, kind: object, *_: object) -> None:
        if kind is not None and self._pool is not None:  # an error: the work left is not done
            self._pool.terminate()
            self._pool.join()
            self._pool = None
        self.close()

    def close(self) -> None:
        """Let the workers finish and end (a later round starts new ones)."""
        if self._pool is not None:
            self._pool.close()
            self._pool.join()
            self._pool = None

    def run(
        self,
        function: Callable[[T], R],
        items: Sequence[T],
        *,
        label: str = "",
        cost: Callable[[T], int] | None = None,
    ) -> list[R]:
        """`[function(item) for item in items]`, results in order. With `cost` (an estimate
        of each item's work), the costliest items are handed out first and a few at a time,
        so that no worker is left with a long item while the others idle at the end."""
        jobs = min(self.jobs, max(1, len(items) // MIN_ITEMS_PER_WORKER))
        progress = Progress(label, len(items))
        results: list = [None] * len(items)
        if jobs <= 1:
            for i, item in enumerate(items):
                results[i] = function(item)
                progress.step()
        else:
            order = sorted(range(len(items)), key=lambda i: -cost(items[i])) if cost else range(len(items))
            calls = [(function, i, items[i]) for i in order]
            chunk = max(1, len(items) // (jobs * (32 if cost else 8)))
            for i, result in self._started().imap_unordered(_indexed, calls, chunksize=chunk):
                results[i] = result
                progress.step()
        progress.done()
        return results

    def _started(self) -> multiprocessing.pool.Pool:
        if self._pool is None:
            context = multiprocessing.get_context("fork" if sys.platform.startswith("linux") else "spawn")
            # Objects alive now are the workers' too; frozen, the workers' garbage collector
            # never walks them, which would touch (and so copy) every page they are on.
            gc.freeze()
            try:
                self._pool = context.Pool(self.jobs)
            finally:
                gc.unfreeze()
        return self._pool


def _indexed(call: tuple[Callable[[T], R], int, T]) -> tuple[int, R]:
    function, i, item = call
    return i, function(item)


class Progress:
    """A one-line progress bar on stderr when it is a terminal; silent otherwise (pipes, CI)."""

    def __init__(self, label: str, total: int, stream=None) -> None:
        self.stream = stream or sys.stderr
        self.enabled = bool(label) and total >= 50 and self.stream.isatty()
        self.label, self.total, self.count = label, total, 0
        self.last = 0.0

    def step(self) -> None:
        self.count += 1
        now = time.monotonic()
        if self.enabled and (now - self.last > 0.1 or self.count == self.total):
            self.last = now
            filled = int(30 * self.count / self.total)
            self.stream.write(f"\r{self.label} [{'#' * filled}{'.' * (30 - filled)}] {self.count}/{self.total}")
            self.stream.flush()

    def done(self) -> None:
        if self.enabled:
            self.stream.write("\r" + " " * (len(self.label) + 50) + "\r")
            self.stream.flush()
