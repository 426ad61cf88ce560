"""`python -m civdsl.interfaces.lsp`: the language server, as `civdsl lsp` runs it."""
from . import serve

serve()
