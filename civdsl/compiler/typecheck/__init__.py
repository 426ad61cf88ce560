"""Static type checking of a compiled ruleset: a separate pass over the effective rules, after
`compile_ruleset` has resolved every name, so that `civdsl check` (and the language server) reports a
misspelt field, a text where the rules compute with numbers or an overlay that changes a rule's type
before any game is played.

The entry is `check.check_types` (and `check.clear_caches`). Modules: `types` (the types and how they join), `annotations` (the vocabulary of declared types),
`signatures` (the built-in functions'), `env` (what the ruleset declares), `infer` (the walk's rounds),
with `facts` (what the rounds learn) and the walk's parts: `decls`, `statements`, `expressions`,
`fields` (field and key reads), `calls`, `shared` (variables, zones, params); `ranges` (declared ranges,
for constants), `overlays` (overlays keep types).
"""
