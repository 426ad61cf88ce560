"""Natural first guesses at the syntax — forms from other languages, or from another part of this one — are
syntax errors (SYN001) whose message names what was written and whose hint shows the right form, at the
place of the mistake. The guesses come from the forms the docs teach (language reference, house-rule
tutorial, variants, writing your own game): each case below is one, and docs/diagnostics.md lists them."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from civdsl.language.diagnostics import CivError
from civdsl.language.first_guesses import name_hint
from civdsl.language.parser import parse_text

DOCS = Path(__file__).resolve().parent.parent / "docs" / "diagnostics.md"

# id: (rule text, (line, col) of the mistake, message, hint)
CASES = {
    "modify-param-equals": (
        "param goal = 8\nmodify param goal = 5\n", (2, 19),
        "unexpected `=`: `modify` gives the changed fields in braces",
        "write `modify param goal { value: 5 }` (or `replace param goal = 5`)"),
    "modify-without-braces": (
        "modify param goal value: 5\n", (1, 19),
        "unexpected `value`: `modify` gives the changed fields in braces",
        "write `modify param goal { value: VALUE }` (or `replace param goal = VALUE`)"),
    "modify-a-thing-without-braces": (
        'modify advance "Pottery" cost: 40\n', (1, 26),
        "unexpected `cost`: `modify` gives the changed fields in braces",
        'write `modify advance "Pottery" { field: value }`; to swap the whole rule, `replace` it'),
    "modify-a-counter": (
        "modify player counter wood { value: 3 }\n", (1, 23),
        "unexpected `wood`: a counter cannot be modified",
        "replace it: `replace player counter wood = ...`"),
    "replace-counter-without-scope": (
        "replace counter wood = 2\n", (1, 9),
        "`counter wood` needs `player` or `global` before it",
        "write `replace player counter wood = 2` (one for each player) or "
        "`replace global counter wood = 2` (one for the game)"),
    "var-without-scope": (
        "var ready = false\n", (1, 1),
        "`var ready` needs `player` or `global` before it",
        "write `player var ready = false` (one for each player) or `global var ready = false` (one for the game)"),
    "zone-without-scope": (
        "zone hand\nphase p { }\n", (1, 1),
        "`zone hand` needs `player` or `global` before it",
        "write `player zone hand` (one for each player) or `global zone hand` (one for the game)"),
    "global-param": (
        "global param goal = 8\n", (1, 1),
        "a parameter has no `global`",
        "write `param goal = ...`: a parameter is one value for the game; a value per player is a "
        "`player counter` or `player var`"),
    "counter-without-value": (
        "player counter wood\n", (1, 16),
        "unexpected end of file: a counter needs a start value",
        "write `player counter wood = 0`"),
    "param-without-equals": (
        "param goal 8\n", (1, 12),
        "unexpected `8`: `param goal` needs a value",
        "write `param goal = 8`"),
    "walrus-param": (
        "param goal := 8\n", (1, 12),
        "unexpected `:=`", "write `=`: `param goal = ...`"),
    "walrus-let": (
        "phase p {\n  let x := 1\n}\n", (2, 9),
        "unexpected `:=`", "write `=`: `let x = ...`"),
    "let-plus-equals": (
        "phase p {\n  let x += 1\n}\n", (2, 9),
        "unexpected `+=`: `let` makes a new local and gives it its first value",
        "write `let x = ...` the first time, then `x += ...`"),
    "else-if": (
        'phase p {\n  if x { log "a" } else if y { log "b" }\n}\n', (2, 20),
        "`else if` is written `elif`", "write `} elif CONDITION { ... }`"),
    "elseif": (
        'phase p {\n  if x { log "a" } elseif y { log "b" }\n}\n', (2, 20),
        "`elseif` is written `elif`", "write `} elif CONDITION { ... }`"),
    "and-and": (
        'phase p {\n  if x == 1 && y { log "a" }\n}\n', (2, 13),
        "unexpected `&&`: the rule language writes `and`", "write `a and b`"),
    "or-or": (
        'phase p {\n  if x || y { log "a" }\n}\n', (2, 8),
        "unexpected `||`: the rule language writes `or`", "write `a or b`"),
    "bang": (
        'phase p {\n  if !x { log "a" }\n}\n', (2, 6),
        "unexpected `!`: the rule language writes `not`", "write `not x`"),
    "triple-equals": (
        'phase p {\n  if x === 1 { log "a" }\n}\n', (2, 8),
        "unexpected `===`", "write `==`: values compare the same way whatever their type"),
    "assign-in-condition": (
        'phase p {\n  if x = 1 { log "a" }\n}\n', (2, 8),
        "unexpected `=`: a condition compares with `==`", "write `if a == b { ... }`"),
    "ternary": (
        "phase p {\n  let x = y ? 1 : 2\n}\n", (2, 13),
        "unexpected `?`: the rule language has no `? :`", "write `if CONDITION then A else B`"),
    "function": (
        "function gain(p, n) {\n  p.food += n\n}\n", (1, 1),
        "unexpected `(`: a function is a `procedure`",
        "write `procedure gain(a, b) { ... }` (and `return VALUE` to give a value)"),
    "def": (
        "def gain(p, n) {\n  p.food += n\n}\n", (1, 1),
        "unexpected `(`: a function is a `procedure`",
        "write `procedure gain(a, b) { ... }` (and `return VALUE` to give a value)"),
    "procedure-without-brackets": (
        'procedure tidy {\n  log "x"\n}\n', (1, 16),
        "unexpected `{`: a procedure lists its parameters in brackets, even none",
        "write `procedure tidy() { ... }`"),
    "phase-with-parameters": (
        'phase harvest(p) {\n  log "x"\n}\n', (1, 14),
        "unexpected `(`: a phase has no parameters",
        "write `phase harvest { ... }`: inside it, `player` is the player whose turn it is"),
    "for-of": (
        'phase p {\n  for q of players { log "a" }\n}\n', (2, 9),
        "unexpected `of`", "write `for q in LIST { ... }`"),
    "for-brackets": (
        'phase p {\n  for (q in players) { log "a" }\n}\n', (2, 7),
        "unexpected `(`: a `for` loop has no brackets", "write `for x in LIST { ... }`"),
    "colon-block": (
        'phase p {\n  if x:\n    log "a"\n}\n', (2, 7),
        "unexpected `:`: the body of `if` is a block in braces, not after a colon",
        "write `if CONDITION { ... }`"),
    "body-without-braces": (
        'phase p {\n  if (x) log "a"\n}\n', (2, 10),
        "unexpected `log`: the body of `if` is a block in braces", "write `if CONDITION { ... }`"),
    "repeat-without-times": (
        'phase p {\n  repeat 3 { log "a" }\n}\n', (2, 12),
        "unexpected `{`: `repeat` counts in `times`", "write `repeat N times { ... }`"),
    "single-quotes": (
        "phase p {\n  log 'hello'\n}\n", (2, 7),
        "unexpected `'`: texts are written in double quotes", 'write `"hello"`'),
    "f-string": (
        'phase p {\n  log f"food: {player.food}"\n}\n', (2, 7),
        "unexpected `f` before a text",
        "leave out the `f`: every `log` and `fail` text fills in its `{expression}` parts"),
    "log-without-text": (
        "phase p {\n  log player.food\n}\n", (2, 7),
        "unexpected `player`: `log` takes a text", 'put values in braces in the text: `log "{player.food}"`'),
    "text-not-closed": (
        'phase p {\n  log "food: {player.food}\n}\n', (2, 7),
        'unexpected `"`: a text ends on the line it starts on',
        'close the text with `"` on the same line (`\\n` in a text starts a new line)'),
    "let-without-value": (
        'phase p {\n  let total\n  log "a"\n}\n', (3, 3),
        "unexpected `log`: `let total` needs a value", "write `let total = VALUE`"),
    "slash-comment": (
        'phase p {\n  // the harvest\n  log "a"\n}\n', (2, 3),
        "unexpected `//`: comments start with `#`",
        "write `# ...`: everything from `#` to the end of the line is a comment"),
    "semicolon": (
        'phase p {\n  let x = 1; log "a"\n}\n', (2, 12),
        "unexpected `;`: statements need no separator",
        "leave the `;` out; put the next statement on a new line"),
    "plus-plus": (
        "phase p {\n  player.food++\n}\n", (2, 14),
        "unexpected `++`", "write `x += 1`"),
    "times-equals": (
        "phase p {\n  player.food *= 2\n}\n", (2, 15),
        "unexpected `*=`: only `=`, `+=` and `-=` assign", "write `x = x * y`"),
    "bare-return": (
        "procedure f() {\n  return\n}\n", (3, 1),
        "unexpected `}`: `return` needs a value", "write `return none` to end a procedure that gives no value"),
    "table-row-equals": (
        "table t {\n  7 = 48\n}\n", (2, 5),
        "unexpected `=`: a table row is `KEY: VALUE`", "write `7: 48`"),
    "phases-in-brackets": (
        "sequence { phases: [a, b] }\n", (1, 20),
        "unexpected `[`: `phases` lists names without brackets", "write `phases: a, b, c`"),
    "extends-without-quotes": (
        "extends avalon-hill-1981\n", (1, 9),
        "unexpected `avalon`: the path is a text", 'write `extends "avalon-hill-1981"`'),
}


def _error(text: str):
    with pytest.raises(CivError) as exc:
        parse_text(text, "house.civ")
    return exc.value.diagnostics[0]


@pytest.mark.parametrize("case", sorted(CASES))
def test_first_guess_has_a_hint_with_the_right_form(case):
    text, (line, col), message, hint = CASES[case]
    d = _error(text)
    assert (d.code, d.severity) == ("SYN001", "error")
    assert (d.span.file, d.span.line, d.span.col) == ("house.civ", line, col)
    assert d.message == message
    assert d.hint == hint


def test_the_right_forms_parse():
    """The forms the hints show are rule text that parses (with placeholders filled in)."""
    parse_text('param goal = 8\nmodify param goal { value: 5 }\nreplace player counter wood = 2\n'
               'global var ready = false\nplayer zone hand\n'
               'procedure gain(a, b) { return none }\nprocedure tidy() { log "x" }\n'
               'table t { 7: 48 }\nsequence { phases: a, b, c }\nextends "avalon-hill-1981"\n'
               'phase p {\n  let x = 1\n  x += 1\n  if x == 1 and not x or x { log "a" } elif x { log "b" }\n'
               '  for q in players { log "hello" }\n  repeat 3 times { log "food: {player.food}" }\n'
               '  let y = if x == 1 then 1 else 2  # a comment\n  player.food += 1\n'
               '  player.food = player.food * 2\n}\n', "right.civ")


def test_a_mistake_that_is_no_guess_keeps_the_general_message():
    d = _error("param bonus = 3 @ 4")
    assert d.message.startswith("unexpected character `@`; expected")
    d = _error("phase p {\n  if x {\n    log \"a\"\n")
    assert "end of file" in d.message and "line 2" in d.hint


def test_the_guess_span_covers_the_operator():
    d = _error('phase p {\n  if x == 1 && y { log "a" }\n}\n')
    assert (d.span.col, d.span.end_col) == (13, 15)
    d = _error("param goal := 8\n")
    assert (d.span.col, d.span.end_col) == (12, 14)


def test_the_docs_list_every_guess():
    """docs/diagnostics.md shows each wrong form (its first line) in the table of first guesses."""
    page = DOCS.read_text(encoding="utf-8")
    section = page[page.index('<a id="first-guesses">'):]
    section = section[:section.index("\n## ")]
    for case, (text, _, _, hint) in CASES.items():
        wrong = next(line.strip() for line in text.splitlines() if line.strip() and not line.startswith(
            ("param goal = 8", "phase p {", "procedure f() {", "table t {")))
        assert f"`{wrong}`" in section, (case, wrong)


@pytest.mark.parametrize("name, right", [("True", "true"), ("False", "false"), ("None", "none"), ("null", "none"),
                                         ("nil", "none"), ("undefined", "none"), ("self", "this")])
def test_names_of_other_languages(name, right):
    assert name_hint(name) == f"the rule language writes `{right}`"


def test_print_is_log_and_other_names_have_no_hint():
    assert name_hint("print") == 'to tell what happens, write `log "text with {values}"`'
    assert name_hint("harvst") is None and name_hint("true") is None
    assert not re.search(r"\bsize\b|\blength\b", str(name_hint("size")))


def test_check_tells_the_rule_language_spelling_of_a_name_from_another_language(tmp_path, capsys):
    """`True`, `None` and `print` are unknown names; `civdsl check` says how the rule language spells them
    instead of guessing a near name (`None` is not `zone`)."""
    from tests.cli_run import run
    from tests.one_file import one_file_edition
    entry = one_file_edition(tmp_path, 'game "G" { edition: "t" players: 1..2 }\n'
                                       'player var flag = None\n'
                                       'phase p { player.flag = True }\n'
                                       'sequence { phases: p }\n')
    code, out = run(capsys, "check", entry)
    assert code == 1
    assert "game.civ:2:19: error[UNK001]: unknown name `None`" in out and "`none`" in out
    assert "game.civ:3:25: error[UNK001]: unknown name `True`" in out and "`true`" in out
    assert "did you mean `zone`" not in out
