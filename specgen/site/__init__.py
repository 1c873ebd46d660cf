"""`specgen report`: the operator catalogue and the review report as static HTML pages.

`pages` turns models (and what codegen and lint make of them) into the frozen views of
`views`; `render` prints them through autoescaping Jinja2 templates (`templates/site/`);
`build` chooses the documents, works in parallel and writes the site through one writer.
Document text is untrusted: it reaches a page only through autoescape, never as markup or
as a link.
"""
