"""The canonical printer behind `civdsl fmt`, gofmt-style: a rule file is parsed with the grammar
(`grammar/civdsl.lark`, the single source of the syntax) and printed again from its tokens, their
places in the parse tree and the comments the grammar ignores.

`tokens` reads a file into tokens that know their grammar rule, `spacing` decides the spaces between
two tokens on a line, `layout` decides each line's indentation, blank lines and comment placement.
The public entry points stay in `civdsl.language.formatter`.
"""
