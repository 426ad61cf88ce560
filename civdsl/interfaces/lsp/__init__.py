"""`civdsl lsp`: a language server for `.civ` rule files and scenario files (see docs/editor.md).

`analysis` checks open documents and the editions they belong to, `index` answers what a name is and
where it is defined and used, `scenarios` runs scenario files on save, `server` speaks the protocol
(pygls) over stdio, and `probe` is a small client for tests, benchmarks and the docs' screenshot.
"""


def serve() -> None:
    from .server import serve as run
    run()
