" civdsl rule files (*.civ): keywords as in grammar/civdsl.lark (tests/test_lsp_editors.py checks them).
if exists("b:current_syntax") | finish | endif

syntax keyword civDeclaration game import extends overrides param counter var zone visible die table track map kind ref phase order when step sequence turns phases procedure setup victory heuristic decision headline invariant option view replace modify
syntax keyword civKeyword let if elif else then for in where repeat times while return break continue log add remove from to move shuffle skip fail end chooses subset of by inverse
syntax keyword civOperator and or not
syntax keyword civConstant true false none
syntax keyword civBuiltin player players option round
syntax match civNumber "\<[0-9]\+\(\.[0-9]\+\)\?\>"
syntax region civString start=+"+ skip=+\\.+ end=+"+ oneline
syntax match civComment "#.*$" contains=@Spell

highlight default link civDeclaration Structure
highlight default link civKeyword Keyword
highlight default link civOperator Operator
highlight default link civConstant Constant
highlight default link civBuiltin Identifier
highlight default link civNumber Number
highlight default link civString String
highlight default link civComment Comment

let b:current_syntax = "civdsl"
