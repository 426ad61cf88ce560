"""`civdsl lsp`: the language server for editors (see docs/editor.md)."""
from __future__ import annotations

EXIT_OK = 0


def add_parsers(sub) -> None:
    sub.add_parser("lsp", help="run the language server (for editors) on stdin and stdout",
                   description="Serve the Language Server Protocol on stdin/stdout for one editor session: "
                   "diagnostics as you type, hover, go to definition, references, completion, outline and "
                   "formatting for .civ files, and `civdsl test` diagnostics for scenario files on save. "
                   "Editors start it themselves; see docs/editor.md.")


def cmd_lsp(args) -> int:
    from .lsp import serve
    serve()
    return EXIT_OK


COMMANDS = {"lsp": cmd_lsp}
