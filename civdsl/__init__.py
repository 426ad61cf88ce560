"""civdsl: a declarative rules language and interpreter for the Civilization family of board games."""

__version__ = "0.1.0"
