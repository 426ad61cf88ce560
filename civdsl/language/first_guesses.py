"""Syntax errors that are natural first guesses: forms from other languages (`&&`, `else if`, `function`,
`'text'`, `// comment`) or from other parts of this one (`modify param x = 5`), each told with the form the
rule language uses.

The parser (`parser._syntax_diagnostic`) asks `guess()` about every syntax error; when one of the
patterns below fits the place of the error, the diagnostic (still `SYN001`) gets a message that names
what was written and a hint that shows the right form. Each guess is a small function of the error's
context: the token (or character) found, what the grammar expected, and the tokens just before it
(a light tokenizer; comments skipped as the grammar does). The list is in
docs/diagnostics.md (SYN001) and every guess is tested in tests/test_first_guesses.py.

`name_hint()` does the same for names that parse but are unknown (`True`, `null`, `print`), for the
compiler's UNK001.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

_TOKEN = re.compile(r'"(?:[^"\\\n]|\\.)*"|#[^\n]*|[A-Za-z_][A-Za-z0-9_]*|[0-9]+(?:\.[0-9]+)?'
                    r"|==|!=|<=|>=|\+=|-=|\*\*|//|\.\.|:=|&&|\|\||\S")
_LOOKBACK_LINES = 30
_LOOKBACK_CHARS = 4000
_BLOCK_KEYWORDS = ("if", "elif", "else", "while", "for", "repeat")
_STATEMENT_KEYWORDS = _BLOCK_KEYWORDS + ("let", "return", "log", "add", "remove", "move", "shuffle", "skip",
                                          "fail", "end")
_FUNCTION_WORDS = ("function", "def", "func", "fn", "fun", "proc", "sub", "method", "void")
_SCOPED = ("counter", "var", "zone")
_KEYWORDS = frozenset(_STATEMENT_KEYWORDS + (
    "param", "modify", "replace", "phase", "procedure", "kind", "player", "global", "game", "import", "extends",
    "option", "view", "table", "track", "die", "map", "setup", "victory", "sequence", "heuristic", "decision",
    "headline", "invariant", "overrides", "break", "continue"))


@dataclass
class Context:
    """Where a syntax error happened."""

    text: str
    pos: int                   # offset of the token or character found
    found: str                 # its text; "" at the end of the file
    expected: frozenset[str]   # the grammar's terminal names
    before: list[tuple[str, int]]   # the tokens before it (text, offset), nearest last

    def prev(self, n: int = 1) -> str:
        """The n-th token before the error ("" when there is none)."""
        return self.before[-n][0] if len(self.before) >= n else ""

    def at(self, k: int) -> str:
        """The text from the error's offset + k (a few characters)."""
        return self.text[self.pos + k:self.pos + k + 3] if self.pos + k >= 0 else ""

    def rest_of_line(self, start: int | None = None) -> str:
        start = self.pos if start is None else start
        end = self.text.find("\n", start)
        return self.text[start:end if end >= 0 else len(self.text)].split("#")[0].strip()

    def statement_keyword(self) -> str | None:
        """The keyword that starts the statement the error is in, if the statement started with one."""
        for tok, _ in reversed(self.before):
            if tok in ("{", "}"):
                return None
            if tok in _STATEMENT_KEYWORDS:
                return tok
        return None

    def line_is_blank_before(self) -> bool:
        start = self.text.rfind("\n", 0, self.pos) + 1
        return not self.text[start:self.pos].strip()


@dataclass
class Guess:
    """A better message and hint for the error; the span starts `shift` characters from the error's offset
    (negative: before it) and is `width` characters wide."""

    message: str
    hint: str
    shift: int = 0
    width: int | None = None


def _name(tok: str) -> bool:
    return bool(re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", tok))


def _found(c: Context) -> str:
    return f"`{c.found}`" if c.found else "end of file"


def _value(c: Context) -> str:
    """What follows `=` on the line (for `modify param x = 5`), or a placeholder."""
    rest = c.rest_of_line().split("}")[0]
    return (rest.lstrip("=").strip() or "VALUE") if rest.startswith("=") else "VALUE"


# ---- each guess: a function of the context, None when it does not fit ------------------------------

def _walrus(c: Context) -> Guess | None:
    if c.found == ":" and c.at(1).startswith("="):
        return Guess("unexpected `:=`", f"write `=`: `{_decl_before(c)} = ...`", 0, 2)
    if c.found == "=" and c.text[c.pos - 1:c.pos] == ":":
        return Guess("unexpected `:=`", f"write `=`: `{_decl_before(c)} = ...`", -1, 2)
    return None


def _decl_before(c: Context) -> str:
    words = [t for t, _ in c.before[-4:] if _name(t)]
    for i, w in enumerate(words):
        if w in ("let", "param") and i + 1 < len(words):
            return f"{w} {words[i + 1]}"
    return "name"


def _modify_body(c: Context) -> Guess | None:
    """`modify param x = 5`, `modify param x value: 5`, `modify player counter wood { .. }`."""
    if c.prev(3) == "modify" and c.prev(2) in ("player", "global") and c.prev(1) in _SCOPED:
        scope, kind = c.prev(2), c.prev(1)
        return Guess(f"unexpected {_found(c)}: a {'variable' if kind == 'var' else kind} cannot be modified",
                     f"replace it: `replace {scope} {kind} {c.found or 'NAME'} = ...`")
    if c.prev(3) != "modify" or c.prev(2) == "table" or c.found == "{":
        return None
    kind, name = c.prev(2), c.prev(1)
    if kind in _SCOPED:
        return None   # (`modify counter x`: see _scope_missing)
    if kind == "param":
        value = _value(c) if c.found == "=" else "VALUE"
        return Guess(f"unexpected {_found(c)}: `modify` gives the changed fields in braces",
                     f"write `modify param {name} {{ value: {value} }}` (or `replace param {name} = {value}`)")
    return Guess(f"unexpected {_found(c)}: `modify` gives the changed fields in braces",
                 f"write `modify {kind} {name} {{ field: value }}`; to swap the whole rule, `replace` it")


def _scope_missing(c: Context) -> Guess | None:
    """`counter wood = 0`, `replace counter wood = 0`, `var x = 1`, `zone hand`: no `player`/`global`."""
    if c.prev(2) not in _SCOPED or not _name(c.prev(1)) or c.found == "{":
        return None
    if c.prev(3) in ("player", "global"):
        return None
    kind, name = c.prev(2), c.prev(1)
    lead = "replace " if c.prev(3) == "replace" else ("modify " if c.prev(3) == "modify" else "")
    if lead == "modify ":
        return Guess(f"unexpected {_found(c)}: a {kind} cannot be modified",
                     f"replace it: `replace player {kind} {name} = ...` (or `global {kind}`)")
    value = "" if kind == "zone" else (" = " + (_value(c) if c.found == "=" else "0"))
    start = c.before[-2][1] - c.pos
    return Guess(f"`{kind} {name}` needs `player` or `global` before it",
                 f"write `{lead}player {kind} {name}{value}` (one for each player) or "
                 f"`{lead}global {kind} {name}{value}` (one for the game)", start, len(kind))


def _scope_on_param(c: Context) -> Guess | None:
    if c.prev(1) == "param" and c.prev(2) in ("player", "global"):
        start = c.before[-2][1] - c.pos
        return Guess(f"a parameter has no `{c.prev(2)}`", f"write `param {c.found or 'name'} = ...`: a parameter "
                     "is one value for the game; a value per player is a `player counter` or `player var`",
                     start, len(c.prev(2)))
    return None


def _no_value(c: Context) -> Guess | None:
    """`player counter wood`, `param goal 5`, `let x` with no `= value`."""
    if c.found in ("=", ":", "in", "visible") or c.found.startswith(("+", "-")):
        return None
    if c.prev(3) in ("player", "global") and c.prev(2) in ("counter", "var") and _name(c.prev(1)):
        return Guess(f"unexpected {_found(c)}: a {'variable' if c.prev(2) == 'var' else 'counter'} needs a start "
                     "value",
                     f"write `{c.prev(3)} {c.prev(2)} {c.prev(1)} = 0`")
    if c.prev(2) in ("param", "let") and _name(c.prev(1)) and "EQUAL" in c.expected:
        same_line = c.found and "\n" not in c.text[c.before[-1][1]:c.pos]
        if same_line and not re.match(r'[A-Za-z0-9_"\[{(-]', c.found):
            return None   # (`let a, b = ..`: not a missing value)
        value = c.rest_of_line() if same_line and c.found not in _KEYWORDS else ""
        return Guess(f"unexpected {_found(c)}: `{c.prev(2)} {c.prev(1)}` needs a value",
                     f"write `{c.prev(2)} {c.prev(1)} = {value or 'VALUE'}`")
    return None


def _let_update(c: Context) -> Guess | None:
    if c.prev(2) == "let" and c.found in ("+=", "-="):
        return Guess(f"unexpected {_found(c)}: `let` makes a new local and gives it its first value",
                     f"write `let {c.prev(1)} = ...` the first time, then `{c.prev(1)} {c.found} ...`")
    return None


def _else_if(c: Context) -> Guess | None:
    if c.found == "if" and c.prev() == "else":
        start = c.before[-1][1] - c.pos
        return Guess("`else if` is written `elif`", "write `} elif CONDITION { ... }`", start, 2 - start)
    for tok, off in reversed(c.before[-3:]):
        if tok in ("elseif", "elsif", "else_if", "elsf"):
            return Guess(f"`{tok}` is written `elif`", "write `} elif CONDITION { ... }`", off - c.pos, len(tok))
    return None


def _operators(c: Context) -> Guess | None:
    two = c.text[c.pos:c.pos + 2]
    if c.found == "&":
        return Guess(f"unexpected `{'&&' if two == '&&' else '&'}`: the rule language writes `and`",
                     "write `a and b`", 0, 2 if two == "&&" else 1)
    if c.found == "|":
        return Guess(f"unexpected `{'||' if two == '||' else '|'}`: the rule language writes `or`",
                     "write `a or b`", 0, 2 if two == "||" else 1)
    if c.found == "!" and two != "!=":
        return Guess("unexpected `!`: the rule language writes `not`", "write `not x`", 0, 1)
    if c.found == "=" and c.text[c.pos - 2:c.pos + 1] in ("===", "!=="):
        op = c.text[c.pos - 2:c.pos + 1]
        return Guess(f"unexpected `{op}`", f"write `{op[:2]}`: values compare the same way whatever their type",
                     -2, 3)
    if c.found == "?":
        return Guess("unexpected `?`: the rule language has no `? :`",
                     "write `if CONDITION then A else B`", 0, 1)
    if c.found == ";":
        return Guess("unexpected `;`: statements need no separator",
                     "leave the `;` out; put the next statement on a new line", 0, 1)
    if c.found == "+" and two == "++":
        return Guess("unexpected `++`", "write `x += 1`", 0, 2)
    if c.found == "-" and two == "--" and not c.line_is_blank_before():
        return Guess("unexpected `--`", "write `x -= 1`", 0, 2)
    if c.found in ("*", "/", "//", "%", "**") and c.text[c.pos + len(c.found):c.pos + len(c.found) + 1] == "=":
        op = c.found
        return Guess(f"unexpected `{op}=`: only `=`, `+=` and `-=` assign",
                     f"write `x = x {op} y`", 0, len(op) + 1)
    return None


def _comment(c: Context) -> Guess | None:
    two = c.text[c.pos:c.pos + 2]
    if two in ("//", "/*", "--") and c.line_is_blank_before():
        return Guess(f"unexpected `{two}`: comments start with `#`",
                     "write `# ...`: everything from `#` to the end of the line is a comment", 0, 2)
    return None


def _single_quotes(c: Context) -> Guess | None:
    if c.found != "'":
        return None
    end = c.text.find("'", c.pos + 1)
    line_end = c.text.find("\n", c.pos)
    inner = c.text[c.pos + 1:end] if end > 0 and (line_end < 0 or end < line_end) else "..."
    return Guess("unexpected `'`: texts are written in double quotes", f'write `"{inner}"`', 0, 1)


def _f_string(c: Context) -> Guess | None:
    if c.found in ("f", "F") and c.text[c.pos + 1:c.pos + 2] == '"':
        return Guess("unexpected `f` before a text",
                     'leave out the `f`: every `log` and `fail` text fills in its `{expression}` parts', 0, 1)
    return None


def _function(c: Context) -> Guess | None:
    if c.found == "(" and c.prev(2) in _FUNCTION_WORDS and _name(c.prev(1)):
        start = c.before[-2][1] - c.pos
        return Guess("unexpected `(`: a function is a `procedure`",
                     f"write `procedure {c.prev(1)}(a, b) {{ ... }}` (and `return VALUE` to give a value)",
                     start, len(c.prev(2)))
    if c.found == "{" and c.prev(2) == "procedure":
        return Guess("unexpected `{`: a procedure lists its parameters in brackets, even none",
                     f"write `procedure {c.prev(1)}() {{ ... }}`")
    if c.found == "(" and c.prev(2) == "phase":
        return Guess("unexpected `(`: a phase has no parameters",
                     f"write `phase {c.prev(1)} {{ ... }}`: inside it, `player` is the player whose turn it is")
    return None


def _blocks(c: Context) -> Guess | None:
    """`if x: ...`, `if (x) log ..`, `for p of players`, `for (p in ..)`, `if x = 1`, `repeat 3 { }`."""
    kw = c.statement_keyword()
    if c.found == "of" and c.prev(2) == "for":
        return Guess("unexpected `of`", f"write `for {c.prev(1)} in LIST {{ ... }}`")
    if c.found == "(" and c.prev() == "for":
        return Guess("unexpected `(`: a `for` loop has no brackets", "write `for x in LIST { ... }`", 0, 1)
    if kw == "repeat" and c.found == "{" and "TIMES" in c.expected:
        return Guess("unexpected `{`: `repeat` counts in `times`", "write `repeat N times { ... }`")
    if kw not in _BLOCK_KEYWORDS:
        return None
    form = f"{kw}{_HEADS[kw]} {{ ... }}"
    if c.found == ":":
        return Guess(f"unexpected `:`: the body of `{kw}` is a block in braces, not after a colon",
                     f"write `{form}`", 0, 1)
    if c.found == "=" and kw in ("if", "elif", "while") and c.text[c.pos + 1:c.pos + 2] != "=":
        return Guess("unexpected `=`: a condition compares with `==`", f"write `{kw} a == b {{ ... }}`", 0, 1)
    if c.expected <= {"LBRACE", "THEN"} and "LBRACE" in c.expected and c.found in _BODY_STARTS:
        return Guess(f"unexpected {_found(c)}: the body of `{kw}` is a block in braces", f"write `{form}`")
    return None


_BODY_STARTS = _STATEMENT_KEYWORDS + ("break", "continue")
_HEADS = {"if": " CONDITION", "elif": " CONDITION", "while": " CONDITION", "else": "", "for": " x in LIST",
          "repeat": " N times"}


def _statements(c: Context) -> Guess | None:
    if c.prev() == "return" and c.found in ("}", ""):
        return Guess(f"unexpected {_found(c)}: `return` needs a value",
                     "write `return none` to end a procedure that gives no value")
    if c.found == '"':
        return Guess('unexpected `"`: a text ends on the line it starts on',
                     'close the text with `"` on the same line (`\\n` in a text starts a new line)', 0, 1)
    if c.prev() == "log" and "STRING" in c.expected and c.found not in ("'", "f", "F"):
        value = c.rest_of_line().split("}")[0].strip() or "x"
        return Guess(f"unexpected {_found(c)}: `log` takes a text",
                     f"put values in braces in the text: `log \"{{{value}}}\"`")
    if c.prev() in ("extends", "import", "overrides") and "STRING" in c.expected and _name(c.found):
        return Guess(f"unexpected {_found(c)}: the {'name' if c.prev() == 'overrides' else 'path'} is a text",
                     f'write `{c.prev()} "{c.rest_of_line()}"`')
    if c.found == "=" and "COLON" in c.expected and re.fullmatch(r'[0-9]+|"[^"]*"', c.prev()):
        return Guess("unexpected `=`: a table row is `KEY: VALUE`", f"write `{c.prev()}: {_value(c)}`", 0, 1)
    if c.found == "[" and c.prev() == ":" and c.prev(2) == "phases":
        return Guess("unexpected `[`: `phases` lists names without brackets", "write `phases: a, b, c`", 0, 1)
    return None


_GUESSES = (_walrus, _modify_body, _scope_on_param, _scope_missing, _let_update, _no_value, _else_if, _comment,
            _operators, _single_quotes, _f_string, _function, _blocks, _statements)


def guess(text: str, pos: int, found: str, expected: set[str] | frozenset[str]) -> Guess | None:
    """The first guess that fits a syntax error at offset `pos` (`found`: the token or character there,
    "" at the end of the file)."""
    start = pos
    for _ in range(_LOOKBACK_LINES):
        start = text.rfind("\n", 0, start)
        if start <= 0:
            start = 0
            break
    if pos - start > _LOOKBACK_CHARS:   # (a long line: its last few thousand characters are enough)
        start = pos - _LOOKBACK_CHARS
    before = [(m.group(), start + m.start()) for m in _TOKEN.finditer(text, start, pos)
              if not m.group().startswith("#")]
    c = Context(text, pos, found, frozenset(expected), before)
    for rule in _GUESSES:
        g = rule(c)
        if g is not None:
            return g
    return None


# ---- names that parse, but are another language's ----------------------------------------------------

_NAMES = {
    "True": "true", "TRUE": "true", "False": "false", "FALSE": "false",
    "None": "none", "null": "none", "nil": "none", "NULL": "none", "undefined": "none", "Nothing": "none",
    "self": "this",
}
_PRINTS = ("print", "println", "printf", "puts", "echo", "console")


def name_hint(name: str) -> str | None:
    """A hint for an unknown name that another language spells so (`True` → `true`), or None."""
    if name in _NAMES:
        return f"the rule language writes `{_NAMES[name]}`"
    if name in _PRINTS:
        return 'to tell what happens, write `log "text with {values}"`'
    return None
