"""`civdsl fmt`: canonical, idempotent, comment-keeping, meaning-preserving, and line-keeping.

The invariants are checked on every shipped rule file, on adversarial inputs written here, on the same
files re-spaced at random (tabs, no spaces, extra spaces, CRLF, trailing spaces, extra blank lines: the
formatter must give back exactly the canonical text), and on a seeded sample of the mutation corpus.
Tokens and comments are listed by the grammar's own lexer (`lark_parser().lex`), not by the formatter.
"""
from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from civdsl.interfaces.cli import main
from civdsl.language import formatter
from civdsl.language.diagnostics import CivError
from civdsl.language.formatter import format_file_text, format_text
from civdsl.language.limits import MAX_NESTING
from civdsl.language.parser import lark_parser

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = sorted((ROOT / "rulesets").rglob("*.civ")) + sorted((ROOT / "examples").rglob("*.civ"))
FILES = SHIPPED + sorted((ROOT / "tests" / "data").rglob("*.civ"))


def _id(p: Path) -> str:
    return str(p.relative_to(ROOT))


def lexed(text: str) -> list[tuple[str, str, int, int]]:
    """Every token and comment: (type, text without trailing blanks, line, column), by the grammar's lexer."""
    return [(t.type, str(t).rstrip(), t.line, t.column)
            for t in lark_parser().lex(text, dont_ignore=True) if t.type != "WS"]


def check_invariants(text: str, out: str) -> None:
    """`out` (formatted `text`) is a fixed point, keeps every token and comment in order, and moves none
    to another line except by dropping blank lines."""
    assert format_file_text(out, "x.civ") == out
    before, after = lexed(text), lexed(out)
    assert [t[:2] for t in before] == [t[:2] for t in after]
    lines = text.split("\n")
    for (_, _, l0, _), (_, _, l1, _), (_, _, m0, _), (_, _, m1, _) in zip(before, before[1:], after, after[1:]):
        blank_between = sum(1 for x in lines[l0:l1 - 1] if not x.strip())
        assert (l1 - l0) - blank_between <= m1 - m0 <= l1 - l0
    assert not re.search(r"[ \t]$", out, re.M) and "\r" not in out
    assert out == "" or (out.endswith("\n") and not out.endswith("\n\n") and not out.startswith("\n"))


# ---- every shipped file ------------------------------------------------------------------------------------
@pytest.mark.parametrize("path", FILES, ids=_id)
def test_shipped_files_keep_tokens_comments_and_line_numbers(path):
    text = path.read_text(encoding="utf-8")
    out = format_file_text(text, str(path))
    check_invariants(text, out)
    assert [t[:3] for t in lexed(text)] == [t[:3] for t in lexed(out)]   # the very same line for every token
    assert out.count("\n") == text.count("\n")


def test_shipped_rulesets_and_examples_are_formatted(capsys):
    assert main(["fmt", "--check", str(ROOT / "rulesets"), str(ROOT / "examples")]) == 0


# ---- the canonical rules, one by one ----------------------------------------------------------------------------
CANON = [
    # records and blocks: one space inside braces, after `:` and `,`; none inside ( ) and [ ]
    ("param a={value:5}\n", "param a = { value: 5 }\n"),
    ("param b  =  [ 1,2 , 3 ]\nparam e = {}\nparam f = f( )\n", "param b = [1, 2, 3]\nparam e = {}\nparam f = f()\n"),
    ('param r = {a:{b:[1,{c:2}]},"d e":[x for x in[1,2]where x>1]}\n',
     'param r = { a: { b: [1, { c: 2 }] }, "d e": [x for x in [1, 2] where x > 1] }\n'),
    # operators, signs, `not`, calls, indexes, attributes, ranges
    ("param x = - 1\nparam y = a-  -b\nparam z = not(a)\nparam w = 2**3\nparam v = x [1] . y\nparam q = f (1)\n",
     "param x = -1\nparam y = a - -b\nparam z = not (a)\nparam w = 2 ** 3\nparam v = x[1].y\nparam q = f(1)\n"),
    ("param s = 1 .. 6\nparam t = a//b%c\nparam u = a<=b and not c in d or e not in f\n",
     "param s = 1..6\nparam t = a // b % c\nparam u = a <= b and not c in d or e not in f\n"),
    # the grammar's type annotations and ranges
    ("param x:int in 0 ..=4\nplayer var x :list of text=[]\nkind k{cost:int in 0..  size:int in 1..( m )}\n"
     "procedure f( p:player,n ){\nreturn p.x[ n ]\n}\n",
     "param x: int in 0.. = 4\nplayer var x: list of text = []\nkind k { cost: int in 0..  size: int in 1..(m) }\n"
     "procedure f(p: player, n) {\n  return p.x[n]\n}\n"),
    # units on one line: two spaces between them
    ("kind k { a: int b: text }\nsequence { turns: seat phases: a, b }\ntable t die d6 { 1: \"a\" 2..3: \"b\" }\n",
     "kind k { a: int  b: text }\nsequence { turns: seat  phases: a, b }\ntable t die d6 { 1: \"a\"  2..3: \"b\" }\n"),
    ("phase p {\n\tif x>0{log \"a\"}else{ x=-1 }\n\tfor i in 1..3 { x+=i  y-=1 }\n}\n",
     "phase p {\n  if x > 0 { log \"a\" } else { x = -1 }\n  for i in 1..3 { x += i  y -= 1 }\n}\n"),
    # every other kind of declaration and statement
    ('extends   "base.civ"\noverrides "o.civ"\nmap board   from "m.yaml"\ntrack   ast{ spaces:16 }\n'
     'headline "x"when a>1="y"\nview v "T"of p{counters "Goods":{a:1}  label : p.name}\n'
     'decision "pick"{question:"Which?"}\noption opt "O"{param z=1}\n'
     'phase p "P"{\norder:inverse   by a.b,c\nwhen :x>0\n'
     'step s "S"{repeat 3   times{shuffle deck}while x<3{x+=1 break}}\n}\n'
     'procedure g(p){\nlet k=p chooses subset "keep"[1..3]of p.dice\nlet c=p chooses "c"from[1,2]\n'
     'move x from a to b\nadd x to y\nremove x from y\nskip p2\nif x{fail "no"}elif y{end game}else{continue}\n'
     'return-k\n}\n',
     'extends "base.civ"\noverrides "o.civ"\nmap board from "m.yaml"\ntrack ast { spaces: 16 }\n'
     'headline "x" when a > 1 = "y"\nview v "T" of p { counters "Goods": { a: 1 }  label: p.name }\n'
     'decision "pick" { question: "Which?" }\noption opt "O" { param z = 1 }\n'
     'phase p "P" {\n  order: inverse by a.b, c\n  when: x > 0\n'
     '  step s "S" { repeat 3 times { shuffle deck }  while x < 3 { x += 1  break } }\n}\n'
     'procedure g(p) {\n  let k = p chooses subset "keep" [1..3] of p.dice\n  let c = p chooses "c" from [1, 2]\n'
     '  move x from a to b\n  add x to y\n  remove x from y\n  skip p2\n'
     '  if x { fail "no" } elif y { end game } else { continue }\n  return -k\n}\n'),
    # indentation: brackets opened on one line count once; continuation lines one level more
    ('invariant "x" = all([\nfoo(p) for p in players])\n', 'invariant "x" = all([\n  foo(p) for p in players])\n'),
    ("param x = if a then b\nelif c then d\nelse e\n", "param x = if a then b\n  elif c then d\n  else e\n"),
    ("phase p {\nif a\nand b {\nx = 1\n}\nelse {\nx = 2\n}\n}\n",
     "phase p {\n  if a\n    and b {\n    x = 1\n  }\n  else {\n    x = 2\n  }\n}\n"),
    ("procedure f(p)\n{\nreturn [\n{a: 1,\nb: 2},\n]\n}\n",
     "procedure f(p)\n{\n  return [\n    { a: 1,\n      b: 2 },\n  ]\n}\n"),
    # comments: end-of-line ones keep their column, or go two spaces after the code; own-line ones are
    # indented like the next line (like the inside of a bracket before its `}`)
    ('game "g" { # after brace\n players: 1..2 # trailing\n        # before close\n}\n',
     'game "g" {  # after brace\n  players: 1..2  # trailing\n  # before close\n}\n'),
    ("param a = 1        # aligned\nparam bb = {x:1}   # aligned\nparam c = 3 # tight\n",
     "param a = 1          # aligned\nparam bb = { x: 1 }  # aligned\nparam c = 3  # tight\n"),
    ('param s = "# not {a comment}"   # real\n', 'param s = "# not {a comment}"   # real\n'),
    ('param u = "héllo ✓"# ünïcode ✓ \t\n', 'param u = "héllo ✓"  # ünïcode ✓\n'),
    # blank lines: at most one in a row, none at the start or end, none just inside a bracket
    ("\n\n# top\n\n\n\nparam a = 1\n\n\n", "# top\n\nparam a = 1\n"),
    ("phase p {\n\n  x = 1\n\n  y = 2\n\n}\nparam l = [\n\n1\n\n]\n",
     "phase p {\n  x = 1\n\n  y = 2\n}\nparam l = [\n  1\n]\n"),
    # CRLF, tabs and trailing spaces
    ("phase a {\r\n\tlet x = 1   \r\n}\r\n", "phase a {\n  let x = 1\n}\n"),
    ("", ""),
    ("# only a comment", "# only a comment\n"),
]


@pytest.mark.parametrize("text,expected", CANON, ids=[str(i) for i in range(len(CANON))])
def test_canonical_layout(text, expected):
    out = format_file_text(text, "x.civ")
    assert out == expected
    check_invariants(text, out)


# ---- the shipped files, re-spaced at random, come back exactly -------------------------------------------------
_WORD = re.compile(r"\w")


def respace(canonical: str, rng: random.Random) -> str:
    """`canonical` with the same tokens on the same lines but random white space: indentation of tabs and
    spaces, no or extra spaces between tokens (none only where no two tokens could merge), trailing blanks,
    extra blank lines where the formatter drops them, CRLF. End-of-line comments keep their column relative
    to their line's indentation (their column is the author's), moved alike on consecutive commented lines."""
    toks = lexed(canonical)
    lines = canonical.split("\n")
    by_line: dict[int, list[tuple]] = {}
    for t in toks:
        by_line.setdefault(t[2], []).append(t)
    commented = {n for n, ts in by_line.items() if ts[-1][0] == "COMMENT" and len(ts) > 1}
    delta: dict[int, int] = {}
    for n in sorted(commented):           # one shift of indentation per block of consecutive commented lines
        if n - 1 in delta:
            delta[n] = delta[n - 1]
        else:
            block = [n]
            while block[-1] + 1 in commented:
                block.append(block[-1] + 1)
            lowest = min(len(lines[m - 1]) - len(lines[m - 1].lstrip(" ")) for m in block)
            delta[n] = rng.randint(-lowest, 6)
    out: list[str] = []
    for n, line in enumerate(lines, 1):
        ts = by_line.get(n)
        if not ts:
            out.append(rng.choice(["", "", " ", "\t", "  \t "]))
            if rng.random() < 0.2 and n < len(lines):
                out.append(rng.choice(["", "\t"]))    # a second blank line
            continue
        if rng.random() < 0.15 and ts[0][1] in ")]}":
            out.append(" ")                          # a blank line just inside a bracket
        code = [t for t in ts if t[0] != "COMMENT"]
        comment = ts[-1] if ts[-1][0] == "COMMENT" else None
        indent = len(line) - len(line.lstrip(" "))
        if n in commented:
            pad = " " * (indent + delta[n])
            text = pad + _spaced(code, rng, tabs=False)
            col = comment[3] - 1 + delta[n]          # the comment's column, moved with the indentation
            if len(text) + 2 > col:
                text = pad + line[indent:comment[3] - 1].rstrip()
            out.append(text + " " * (col - len(text)) + comment[1] + rng.choice(["", " ", "\t"]))
        else:
            pad = rng.choice(["", " ", "\t", "\t\t  ", " " * rng.randint(0, 12)])
            out.append(pad + (_spaced(code, rng, tabs=True) if code else comment[1]) + rng.choice(["", " ", "\t "]))
        if code and code[-1][1] in "([{" and rng.random() < 0.15:
            out.append("")                           # a blank line at the start of a bracket
    text = "\n".join(out)
    if rng.random() < 0.3:
        text = "\n\n" + text + "\n\n"
    if rng.random() < 0.3:
        text = text.replace("\n", "\r\n")
    assert [t[:2] for t in lexed(text)] == [t[:2] for t in toks]   # the same tokens: none merged
    return text


def _spaced(code: list[tuple], rng: random.Random, tabs: bool) -> str:
    parts = [code[0][1]]
    for a, b in zip(code, code[1:]):
        may_touch = not (_WORD.search(a[1][-1]) and _WORD.search(b[1][0])) and not (a[0] == b[0] == "STRING")
        choices = [" ", " ", "  ", "   "] + (["\t", " \t"] if tabs else []) + (["", "", ""] if may_touch else [])
        parts.append(rng.choice(choices))
        parts.append(b[1])
    return "".join(parts)


@pytest.fixture(scope="module")
def canonical():
    return {p: format_file_text(p.read_text(encoding="utf-8"), str(p)) for p in FILES}


@pytest.mark.parametrize("path", FILES, ids=_id)
def test_respaced_file_comes_back_canonical(path, canonical):
    for seed in range(2):
        messy = respace(canonical[path], random.Random(f"{_id(path)}:{seed}"))
        assert format_file_text(messy, str(path)) == canonical[path]


# ---- the mutation corpus ------------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def corpus():
    mutation_corpus = pytest.importorskip("mutation_corpus")
    return mutation_corpus.mutants(seed=29, count=24)


def test_mutants_format_like_their_files(corpus, canonical):
    """A mutant (one edit of a shipped file) formats to a fixed point with its tokens and comments on their
    lines; its code differs from its formatted file only on the edited lines; re-spaced, it comes back."""
    assert len(corpus) >= 20
    for i, m in enumerate(corpus):
        out = format_file_text(m.text, m.path)
        check_invariants(m.text, out)
        assert [t[:3] for t in lexed(m.text)] == [t[:3] for t in lexed(out)]
        edited = range(m.line, m.line + m.after.count("\n") + 1)
        original = canonical[ROOT / m.path]
        code = [re.sub(r"\s*#.*", "", x) for x in out.split("\n")]
        code_before = [re.sub(r"\s*#.*", "", x) for x in original.split("\n")]
        assert [x for n, x in enumerate(code, 1) if n not in edited] == \
               [x for n, x in enumerate(code_before, 1) if n not in edited], m.where
        assert format_file_text(respace(out, random.Random(i)), m.path) == out, m.where


# ---- hostile input ---------------------------------------------------------------------------------------------------
def test_deep_nesting_is_a_diagnostic_and_legal_depth_is_formatted():
    with pytest.raises(CivError) as exc:
        format_file_text("param x = " + "[" * (MAX_NESTING + 1) + "]" * (MAX_NESTING + 1) + "\n", "deep.civ")
    assert exc.value.diagnostics[0].code == "SYN009"
    deep = "param x = " + "[\n" * (MAX_NESTING - 1) + "1" + "]" * (MAX_NESTING - 1) + "\n"
    out = format_file_text(deep, "deep.civ")
    assert out.split("\n")[MAX_NESTING - 1] == "  " * (MAX_NESTING - 1) + "1" + "]" * (MAX_NESTING - 1)
    check_invariants(deep, out)


def test_a_long_file_and_a_long_expression():
    text = "".join(f"param p{i} = {{a:{i}}}  # {i}\n" for i in range(3000))
    text += "param sum = " + " + ".join(["1"] * 900) + "\n"
    out = format_file_text(text, "long.civ")
    assert out.split("\n")[2999] == "param p2999 = { a: 2999 }  # 2999"
    assert format_text(out) == out


def test_fmt_on_a_broken_file_is_a_diagnostic(tmp_path, capsys):
    f = tmp_path / "x.civ"
    f.write_text("phase p {\n", encoding="utf-8")
    assert main(["fmt", str(f)]) == 1
    assert "SYN001" in capsys.readouterr().err
    assert f.read_text(encoding="utf-8") == "phase p {\n"


def test_a_fragment_that_does_not_parse_gets_its_layout_only():
    """`civdsl explain` shows fragments of files; without a syntax tree only indentation is canonical."""
    assert format_text("step s {\n\t\tx  =  1   # c\n\n\n}\n") == "step s {\n  x  =  1   # c\n\n}\n"


def test_a_change_of_meaning_is_refused(monkeypatch):
    monkeypatch.setattr(formatter, "render", lambda src: "param a = 2\n")
    with pytest.raises(CivError) as exc:
        format_file_text("param a = 1\n", "x.civ")
    assert exc.value.diagnostics[0].code == "FMT001"


# ---- the command ----------------------------------------------------------------------------------------------------
def test_check_mode_reports_and_does_not_write(tmp_path, capsys):
    f = tmp_path / "x.civ"
    f.write_text("param a={value:5}   \n", encoding="utf-8")
    assert main(["fmt", "--check", str(f)]) == 1
    assert f.read_text(encoding="utf-8") == "param a={value:5}   \n"
    assert main(["fmt", str(f)]) == 0
    assert f.read_text(encoding="utf-8") == "param a = { value: 5 }\n"
    assert main(["fmt", "--check", str(f)]) == 0


def test_crlf_line_ends_become_lf(tmp_path, capsys):
    f = tmp_path / "x.civ"
    f.write_bytes(b"param a = 1\r\nparam b = 2\r\n")
    assert main(["fmt", "--check", str(f)]) == 1
    assert main(["fmt", str(f)]) == 0
    assert f.read_bytes() == b"param a = 1\nparam b = 2\n"


def test_diff_mode_prints_and_does_not_write(tmp_path, capsys):
    f = tmp_path / "x.civ"
    f.write_text("param a = 1   \n", encoding="utf-8")
    assert main(["fmt", "--diff", str(f)]) == 0
    out = capsys.readouterr().out
    assert "-param a = 1   \n+param a = 1\n" in out
    assert "would reformat" in out
    assert f.read_text(encoding="utf-8") == "param a = 1   \n"
    assert main(["fmt", "--diff", "--check", str(f)]) == 1
