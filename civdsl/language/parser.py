"""Parse rule files: text → Lark tree → typed AST (`civdsl.ast`).

The grammar is loaded from the installed package (`civdsl/_grammar`, placed there by the wheel) or,
in a source checkout, from the top-level `grammar/` folder. The LALR parser is built once per process
and cached on disk by Lark. Syntax errors become diagnostics that say what was expected and which
block is open.
"""
from __future__ import annotations

import re
from functools import lru_cache
from importlib import resources
from math import isfinite
from pathlib import Path

from lark import Lark, Token, v_args
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken, VisitError
from lark.visitors import Transformer_NonRecursive

from . import ast as A
from .diagnostics import CivError, Diagnostic, Span, error
from .first_guesses import Guess, guess
from .limits import MAX_EXPRESSION_DEPTH, MAX_NESTING, MAX_NUMBER_DIGITS, MAX_SOURCE_BYTES


def grammar_text() -> str:
    """The grammar, from the installed package or the source checkout."""
    packaged = resources.files("civdsl").joinpath("_grammar").joinpath("civdsl.lark")
    if packaged.is_file():
        return packaged.read_text(encoding="utf-8")
    return (Path(__file__).resolve().parents[2] / "grammar" / "civdsl.lark").read_text(encoding="utf-8")


@lru_cache(maxsize=1)
def lark_parser() -> Lark:
    return Lark(grammar_text(), parser="lalr", propagate_positions=True, maybe_placeholders=True,
                start=["start", "expr"], cache=True)


def _span(path: str, meta) -> Span:
    if getattr(meta, "empty", False):
        return Span(path, 1, 1)
    return Span(path, meta.line, meta.column, meta.end_line, meta.end_column)


def _tok_span(path: str, tok: Token) -> Span:
    return Span(path, tok.line or 1, tok.column or 1, tok.end_line or tok.line or 1,
                tok.end_column or tok.column or 1)


def _unquote(tok: Token | str) -> str:
    s = str(tok)[1:-1]
    return re.sub(r"\\(.)", lambda m: {"n": "\n", "t": "\t"}.get(m.group(1), m.group(1)), s)


_BINOPS = {"+", "-", "*", "/", "//", "%", "**"}


@v_args(meta=True)
class _ToAst(Transformer_NonRecursive):  # (no recursion: a long chain of operators is a deep tree)
    """Builds AST nodes; every node gets the span of its Lark subtree."""

    def __init__(self, path: str):
        super().__init__()
        self.path = path

    def s(self, meta) -> Span:
        return _span(self.path, meta)

    # -- file ------------------------------------------------------------------------------------
    def start(self, meta, items):
        return [i for i in items if i is not None]

    def game_decl(self, meta, c):
        return A.GameDecl(_unquote(c[0]), c[1:], self.s(meta))

    def field(self, meta, c):
        return A.Field(str(c[0]), c[1], self.s(meta))

    def import_decl(self, meta, c):
        return A.Import(_unquote(c[0]), self.s(meta))

    def extends_decl(self, meta, c):
        return A.Extends(_unquote(c[0]), self.s(meta))

    def overrides_decl(self, meta, c):
        return A.Overrides(_unquote(c[0]), self.s(meta))

    # -- schema ----------------------------------------------------------------------------------
    def _scope(self, tok: Token) -> str:
        if str(tok) not in ("player", "global"):
            raise error("SYN002", f"expected `player` or `global` before this declaration, found `{tok}`",
                        _tok_span(self.path, tok), "write e.g. `player counter food = 0`")
        return str(tok)

    def param_decl(self, meta, c):
        type_, (lo, hi) = c[1] if c[1] is not None else (None, (None, None))
        return A.Param(str(c[0]), c[2], self.s(meta), type_, lo, hi)

    def annotation(self, meta, c):
        return (c[0], c[1] if c[1] is not None else (None, None))

    def bounds(self, meta, c):
        return (c[0], c[1])

    field_bounds = bounds

    def counter_decl(self, meta, c):
        scope = self._scope(c[0])
        lo, hi = c[2] if c[2] is not None else (None, None)
        return A.Counter(scope, str(c[1]), lo, hi, c[4], self.s(meta), c[3] or "all")

    def var_decl(self, meta, c):
        return A.Var(self._scope(c[0]), str(c[1]), c[4], self.s(meta), c[3] or "all", c[2])

    def visibility(self, meta, c):
        v = str(c[0])
        if v not in ("all", "owner", "hidden"):
            raise error("SYN003", f"unknown visibility `{v}`", _tok_span(self.path, c[0]),
                        "visibility is one of: all, owner, hidden")
        return v

    def zone_decl(self, meta, c):
        return A.Zone(self._scope(c[0]), str(c[1]), c[2] or "all", self.s(meta))

    def die_decl(self, meta, c):
        return A.Die(str(c[0]), c[1], self.s(meta))

    def key_int(self, meta, c):
        return (int(c[0]), int(c[0]))

    def key_range(self, meta, c):
        return (int(c[0]), int(c[1]))

    def key_str(self, meta, c):
        k = _unquote(c[0])
        return (k, k)

    def table_row(self, meta, c):
        lo, hi = c[0]
        return A.TableRow(lo, hi, c[1], self.s(meta))

    def table_decl(self, meta, c):
        return A.Table(str(c[0]), str(c[1]) if c[1] is not None else None, c[2:], self.s(meta))

    def track_decl(self, meta, c):
        return A.Track(str(c[0]), c[1:], self.s(meta))

    def map_decl(self, meta, c):
        return A.MapDecl(str(c[0]), _unquote(c[1]), self.s(meta))

    # -- kinds and entities ----------------------------------------------------------------------
    def type_name(self, meta, c):
        return (str(c[0]),)

    def type_of(self, meta, c):
        return (str(c[0]), c[1])

    def type_ref(self, meta, c):
        return ("ref", str(c[0]))

    def kind_field(self, meta, c):
        lo, hi = c[2] if c[2] is not None else (None, None)
        return A.KindField(str(c[0]), c[1], c[3], self.s(meta), lo, hi)

    def kind_decl(self, meta, c):
        title = _unquote(c[1]) if c[1] is not None else None
        return A.Kind(str(c[0]), c[2:], self.s(meta), title)

    def params(self, meta, c):
        """Names and their declared types (None where not declared)."""
        return [x for x in c if x is not None]

    def typed_name(self, meta, c):
        return (str(c[0]), c[1])

    def block(self, meta, c):
        return list(c)

    def block_member(self, meta, c):
        name, params, body = c
        params = params or []
        return A.Block(str(name), [n for n, _ in params], body, self.s(meta), [t for _, t in params])

    def entity_decl(self, meta, c):
        kind, name, *members = c
        name = _unquote(name) if name.type == "STRING" else str(name)
        fields = [m for m in members if isinstance(m, A.Field)]
        blocks = [m for m in members if isinstance(m, A.Block)]
        return A.Entity(str(kind), name, fields, blocks, self.s(meta))

    # -- turn structure ----------------------------------------------------------------------------
    def order_named(self, meta, c):
        mode = str(c[0])
        if mode not in ("seat", "once", "simultaneous", "turn"):
            raise error("SYN004", f"unknown order `{mode}`", _tok_span(self.path, c[0]),
                        "order is one of: seat, once, simultaneous, turn, `by KEY, ...`, `inverse by KEY, ...`")
        return A.Order(mode, [], self.s(meta))

    def order_by(self, meta, c):
        return A.Order("by", list(c), self.s(meta))

    def order_inverse(self, meta, c):
        return A.Order("inverse", list(c), self.s(meta))

    def phase_order(self, meta, c):
        return ("order", c[0])

    def phase_when(self, meta, c):
        return ("when", c[0])

    def step(self, meta, c):
        return A.Step(str(c[0]), _unquote(c[1]) if c[1] is not None else None, c[2], self.s(meta))

    def phase_decl(self, meta, c):
        name, title, *members = c
        order = when = None
        steps: list[A.Step] = []
        loose: list[A.Stmt] = []
        for m in members:
            if isinstance(m, tuple) and m[0] == "order":
                order = m[1]
            elif isinstance(m, tuple) and m[0] == "when":
                when = m[1]
            elif isinstance(m, A.Step):
                steps.append(m)
            else:
                loose.append(m)
        if loose:
            first = loose[0].span
            steps.insert(0, A.Step(str(name), None, loose, first))
        return A.Phase(str(name), _unquote(title) if title is not None else None, order, when, steps, self.s(meta))

    def round_turns(self, meta, c):
        return ("turns", c[0])

    def round_phases(self, meta, c):
        return ("phases", [(str(t), _tok_span(self.path, t)) for t in c])

    def round_decl(self, meta, c):
        turns = None
        phases: list = []
        for kind, value in c:
            if kind == "turns":
                turns = value
            else:
                phases.extend(value)
        return A.Sequence(turns, phases, self.s(meta))

    def proc_decl(self, meta, c):
        params = c[1] or []
        return A.Procedure(str(c[0]), [n for n, _ in params], c[2], self.s(meta), [t for _, t in params])

    def setup_decl(self, meta, c):
        return A.Setup(c[0], self.s(meta))

    def victory_decl(self, meta, c):
        return A.Victory(list(c), self.s(meta))

    def heuristic_decl(self, meta, c):
        return A.Heuristic(_unquote(c[0]), c[1], self.s(meta))

    def decision_decl(self, meta, c):
        return A.DecisionText(_unquote(c[0]), list(c[1:]), self.s(meta))

    def headline_decl(self, meta, c):
        name, when, text = c
        return A.Headline(_unquote(name), when, parse_template(_unquote(text), _tok_span(self.path, text)),
                          self.s(meta))

    def view_decl(self, meta, c):
        name, title, of, *items = c
        return A.View(str(name), _unquote(title) if title is not None else None,
                      str(of) if of is not None else None, items, self.s(meta))

    def view_kind(self, meta, c):
        return str(c[0])

    def view_item(self, meta, c):
        kind, title, expr = c
        return A.ViewItem(str(kind), _unquote(title) if title is not None else None, expr, self.s(meta))

    def invariant_decl(self, meta, c):
        return A.Invariant(_unquote(c[0]), c[1], self.s(meta))

    def option_decl(self, meta, c):
        name, title, *items = c
        return A.Option(str(name), _unquote(title) if title is not None else None, items, self.s(meta))

    def replace_decl(self, meta, c):
        return A.Replace(c[0], self.s(meta))

    def modify_decl(self, meta, c):
        kind, name, *fields = c
        name = _unquote(name) if name.type == "STRING" else str(name)
        return A.Modify(str(kind), name, fields, self.s(meta))

    def modify_table_decl(self, meta, c):
        name, *rows = c
        return A.Modify("table", str(name), rows, self.s(meta))

    def remove_decl(self, meta, c):
        kind, name = c
        name = _unquote(name) if name.type == "STRING" else str(name)
        return A.Remove(str(kind), name, self.s(meta))

    # -- statements ------------------------------------------------------------------------------
    def _postfix(self, meta, name_tok, trailers):
        node: A.Expr = A.Name(str(name_tok), _tok_span(self.path, name_tok))
        for kind, payload, span in trailers:
            node = self._apply_trailer(node, kind, payload, span)
        return node

    def _apply_trailer(self, node, kind, payload, span):
        full = Span(span.file, node.span.line, node.span.col, span.end_line, span.end_col)
        if kind == "attr":
            return A.Attr(node, payload, full)
        if kind == "index":
            return A.Index(node, payload, full)
        return A.Call(node, payload, full)

    def let_stmt(self, meta, c):
        return A.Let(str(c[0]), c[1], self.s(meta))

    def assign_stmt(self, meta, c):
        name, *trailers, op, value = c
        target = self._postfix(meta, name, trailers)
        if not isinstance(target, (A.Name, A.Attr, A.Index)):
            raise error("SYN005", "only a name, `player.field` or `player[field]` can be assigned", target.span,
                        "assign to a counter or variable, e.g. `player.food += 3`")
        return A.Assign(target, str(op), value, self.s(meta))

    def assign_op(self, meta, c):
        return str(c[0])

    def expr_stmt(self, meta, c):
        name, *trailers = c
        node = self._postfix(meta, name, trailers)
        if not isinstance(node, A.Call):
            raise error("SYN006", "this statement has no effect", node.span,
                        "a statement that is not a keyword must be a call, e.g. `lose_population(player, 3)`, "
                        "or an assignment `x = ...` (use `let x = ...` for a new local)")
        return A.ExprStmt(node, self.s(meta))

    def elif_clause(self, meta, c):
        return (c[0], c[1])

    def else_clause(self, meta, c):
        return c[0]

    def if_stmt(self, meta, c):
        cond, body, *rest = c
        branches = [(cond, body)]
        orelse: list = []
        for r in rest:
            if isinstance(r, tuple):
                branches.append(r)
            elif r is not None:
                orelse = r
        return A.If(branches, orelse, self.s(meta))

    def for_stmt(self, meta, c):
        return A.For(str(c[0]), c[1], c[2], self.s(meta))

    def repeat_stmt(self, meta, c):
        return A.Repeat(c[0], c[1], self.s(meta))

    def while_stmt(self, meta, c):
        return A.While(c[0], c[1], self.s(meta))

    def return_stmt(self, meta, c):
        return A.Return(c[0], self.s(meta))

    def break_stmt(self, meta, c):
        return A.Break(self.s(meta))

    def continue_stmt(self, meta, c):
        return A.Continue(self.s(meta))

    def log_stmt(self, meta, c):
        span = self.s(meta)
        return A.Log(parse_template(_unquote(c[0]), _tok_span(self.path, c[0])), span)

    def add_stmt(self, meta, c):
        return A.ZoneOp("add", c[0], None, c[1], self.s(meta))

    def remove_stmt(self, meta, c):
        return A.ZoneOp("remove", c[0], c[1], None, self.s(meta))

    def move_stmt(self, meta, c):
        return A.ZoneOp("move", c[0], c[1], c[2], self.s(meta))

    def shuffle_stmt(self, meta, c):
        return A.ZoneOp("shuffle", None, c[0], None, self.s(meta))

    def skip_stmt(self, meta, c):
        return A.Skip(str(c[0]), self.s(meta))

    def fail_stmt(self, meta, c):
        text = _unquote(c[0])
        return A.Fail(text, self.s(meta), parse_template(text, _tok_span(self.path, c[0])))

    def end_stmt(self, meta, c):
        return A.EndGame(self.s(meta))

    # -- expressions -------------------------------------------------------------------------------
    def choose_expr(self, meta, c):
        return A.Choose(c[0], _unquote(c[1]), c[2], self.s(meta))

    def choose_subset(self, meta, c):
        who, tag, size, items = c
        lo, hi, exact = size if size is not None else (None, None, False)
        return A.ChooseSubset(who, _unquote(tag), lo, hi, exact, items, self.s(meta))

    def size_exact(self, meta, c):
        return (c[0], None, True)

    def size_range(self, meta, c):
        return (c[0], c[1], False)

    def if_expr(self, meta, c):
        node = c[-1]
        pairs = list(zip(c[0:-1:2], c[1:-1:2]))
        for cond, then in reversed(pairs):
            node = A.IfExpr(cond, then, node, self.s(meta))
        return node

    def or_op(self, meta, c):
        return A.BoolOp("or", c[0], c[1], self.s(meta))

    def and_op(self, meta, c):
        return A.BoolOp("and", c[0], c[1], self.s(meta))

    def not_op(self, meta, c):
        return A.Not(c[0], self.s(meta))

    def comp_op(self, meta, c):
        return " ".join(str(t) for t in c)

    def comparison(self, meta, c):
        return A.Compare(list(c[1::2]), list(c[0::2]), self.s(meta))

    def range_expr(self, meta, c):
        return A.BinOp("..", c[0], c[1], self.s(meta))

    def _fold(self, meta, c):
        node = c[0]
        for op, rhs in zip(c[1::2], c[2::2]):
            node = A.BinOp(op, node, rhs, Span(self.path, node.span.line, node.span.col,
                                                 rhs.span.end_line, rhs.span.end_col))
        return node

    def sum(self, meta, c):
        return self._fold(meta, c)

    def product(self, meta, c):
        return self._fold(meta, c)

    def add_op(self, meta, c):
        return str(c[0])

    def mul_op(self, meta, c):
        return str(c[0])

    def neg(self, meta, c):
        return A.Neg(c[0], self.s(meta))

    def pow_op(self, meta, c):
        return A.BinOp("**", c[0], c[1], self.s(meta))

    def attr(self, meta, c):
        return ("attr", str(c[0]), self.s(meta))

    def index(self, meta, c):
        return ("index", c[0], self.s(meta))

    def call(self, meta, c):
        return ("call", [x for x in c if x is not None], self.s(meta))

    def postfix(self, meta, c):
        node, *trailers = c
        for kind, payload, span in trailers:
            node = self._apply_trailer(node, kind, payload, span)
        return node

    def int_lit(self, meta, c):
        if len(c[0]) > MAX_NUMBER_DIGITS:
            raise error("SYN011", f"number with {len(c[0])} digits is too long", self.s(meta),
                        f"numbers in rule files have at most {MAX_NUMBER_DIGITS} digits")
        return A.Literal(int(c[0]), self.s(meta))

    def dec_lit(self, meta, c):
        value = float(c[0])
        if len(c[0]) > MAX_NUMBER_DIGITS + 1 or not isfinite(value):
            raise error("SYN011", f"number with {len(c[0]) - 1} digits is too long", self.s(meta),
                        f"numbers in rule files have at most {MAX_NUMBER_DIGITS} digits")
        return A.Literal(value, self.s(meta))

    def str_lit(self, meta, c):
        return A.Literal(_unquote(c[0]), self.s(meta))

    def true_lit(self, meta, c):
        return A.Literal(True, self.s(meta))

    def false_lit(self, meta, c):
        return A.Literal(False, self.s(meta))

    def none_lit(self, meta, c):
        return A.Literal(None, self.s(meta))

    def name(self, meta, c):
        return A.Name(str(c[0]), self.s(meta))

    def list_lit(self, meta, c):
        return A.ListLit([x for x in c if x is not None], self.s(meta))

    def comprehension(self, meta, c):
        return A.Comprehension(c[0], str(c[1]), c[2], c[3], self.s(meta))

    def record_item(self, meta, c):
        key = c[0]
        return (_unquote(key) if key.type == "STRING" else str(key), c[1])

    def record_lit(self, meta, c):
        items = [x for x in c if x is not None]
        return A.RecordLit([k for k, _ in items], [v for _, v in items], self.s(meta))


_TEMPLATE = re.compile(r"\{([^{}]+)\}")


def parse_template(text: str, span: Span) -> list:
    """Split a log template into literal text and `{expression}` parts."""
    parts: list = []
    pos = 0
    for m in _TEMPLATE.finditer(text):
        if m.start() > pos:
            parts.append(text[pos:m.start()])
        parts.append(parse_expr(m.group(1), span))
        pos = m.end()
    if pos < len(text):
        parts.append(text[pos:])
    return parts


def parse_expr(text: str, span: Span) -> A.Expr:
    """Parse a lone expression (log templates, command-line queries); errors point at `span`."""
    try:
        tree = lark_parser().parse(text, start="expr")
        node = _ToAst(span.file).transform(tree)
    except VisitError as exc:
        if isinstance(exc.orig_exc, CivError):
            raise exc.orig_exc from None
        raise error("SYN007", f"bad expression `{{{text}}}` in text", span) from None
    except (UnexpectedInput, RecursionError) as exc:
        raise error("SYN007", f"bad expression `{{{text}}}` in text", span,
                    "only expressions may stand between braces in a log text") from exc
    _check_depth([node], span.file)
    _respan(node, span)
    return node


def _respan(node, span: Span) -> None:
    """Expressions parsed from a template get the template's position."""
    stack = [node]
    while stack:
        node = stack.pop()
        if hasattr(node, "span"):
            node.span = span
        for name in getattr(node, "__slots__", ()):
            value = getattr(node, name, None)
            stack.extend(child for child in (value if isinstance(value, list) else [value])
                         if isinstance(child, A.Expr))


_EXPECT_NAMES = {
    "RBRACE": "`}`", "LBRACE": "`{`", "RPAR": "`)`", "LPAR": "`(`", "RSQB": "`]`", "LSQB": "`[`",
    "COLON": "`:`", "EQUAL": "`=`", "COMMA": "`,`", "NAME": "a name", "STRING": "a string", "INT": "a number",
    "DOT": "`.`", "$END": "end of file", "MINUS": "`-`", "DECIMAL": "a number",
}


def _describe(expected: set[str], open_brackets: str = "") -> str:
    """The expected tokens in words: closers first (only for brackets that are open), then keywords."""
    closers = {"RBRACE": "{", "RPAR": "(", "RSQB": "["}
    names: list[str] = []
    for e in expected:
        if e in closers and closers[e] not in open_brackets:
            continue
        if e in _EXPECT_NAMES:
            names.append(_EXPECT_NAMES[e])
            continue
        try:
            pattern = lark_parser().get_terminal(e).pattern
            literal = getattr(pattern, "value", None)
        except (KeyError, AttributeError):
            literal = None
        if literal is not None and type(pattern).__name__ == "PatternStr":
            names.append(f"`{literal}`")
        elif not e.startswith("__"):
            names.append(f"`{e.lower()}`")
    order = {"`}`": 0, "`)`": 1, "`]`": 2}
    names = sorted(set(names), key=lambda n: (order.get(n, 3), n))
    if len(names) > 10:
        names = names[:10] + ["..."]
    return ", ".join(names) or "something else"


def _open_positions(text: str, pos: int) -> list[tuple[str, int]]:
    """The brackets still open before `pos` with their offsets, innermost last (strings, comments skipped)."""
    stack: list[tuple[str, int]] = []
    in_str = False
    i = 0
    while i < min(pos, len(text)):
        ch = text[i]
        if in_str:
            if ch == "\\":
                i += 1
            elif ch == '"':
                in_str = False
        elif ch == '"':
            in_str = True
        elif ch == "#":
            while i < len(text) and text[i] != "\n":
                i += 1
        elif ch in "{[(":
            stack.append((ch, i))
        elif ch in "}])" and stack:
            stack.pop()
        i += 1
    return stack


def _open_brackets(text: str, pos: int) -> str:
    return "".join(ch for ch, _ in _open_positions(text, pos))


def _open_block(text: str, pos: int) -> str | None:
    """The innermost unclosed `{` before `pos`, as `line L: <text>`, for syntax errors."""
    braces = [i for ch, i in _open_positions(text, pos) if ch == "{"]
    if not braces:
        return None
    start = braces[-1]
    line = text.count("\n", 0, start) + 1
    line_text = text[text.rfind("\n", 0, start) + 1: text.find("\n", start) if "\n" in text[start:] else None]
    return f"line {line}: `{line_text.strip()}`"


def _nesting_depth(text: str) -> int:
    depth = best = 0
    for ch in text:
        if ch in "{[(":
            depth += 1
            best = max(best, depth)
        elif ch in "}])":
            depth -= 1
    return best


def parse_text(text: str, path: str) -> A.RuleFile:
    """Parse a rule file's text; raises `CivError` with `SYN...` diagnostics on bad syntax."""
    if len(text.encode("utf-8", errors="replace")) > MAX_SOURCE_BYTES:
        raise error("SYN008", f"rule file is larger than {MAX_SOURCE_BYTES} bytes", Span(path, 1, 1),
                    "split the ruleset into several files joined with `import`")
    if _nesting_depth(text) > MAX_NESTING:
        raise error("SYN009", f"brackets nest deeper than {MAX_NESTING} levels", Span(path, 1, 1),
                    "flatten the rule with procedures")
    try:
        tree = lark_parser().parse(text, start="start")
    except UnexpectedInput as exc:
        raise CivError(_syntax_diagnostic(exc, text, path)) from None
    except RecursionError:
        raise _too_deep(Span(path, 1, 1)) from None
    try:
        items = _ToAst(path).transform(tree)
    except VisitError as exc:
        if isinstance(exc.orig_exc, CivError):
            raise exc.orig_exc from None
        if isinstance(exc.orig_exc, RecursionError):
            raise _too_deep(Span(path, 1, 1)) from None
        raise
    except RecursionError:
        raise _too_deep(Span(path, 1, 1)) from None
    _check_depth(items, path)
    return A.RuleFile(path, items)


def _check_depth(items: list, path: str) -> None:
    """Refuse a syntax tree deeper than MAX_EXPRESSION_DEPTH, so that every later stage can walk it."""
    stack: list[tuple[object, int]] = [(items, 0)]
    while stack:
        node, depth = stack.pop()
        if isinstance(node, (list, tuple)):
            stack.extend((x, depth) for x in node)
        elif isinstance(node, (A.Expr, A.Stmt, A.Decl, A.Field, A.TableRow, A.KindField, A.Block, A.Step,
                               A.Order)):
            if depth > MAX_EXPRESSION_DEPTH:
                raise _too_deep(getattr(node, "span", None) or Span(path, 1, 1))
            stack.extend((getattr(node, f), depth + 1) for f in node.__slots__ if f != "span")


def _too_deep(span: Span) -> CivError:
    return error("SYN009", f"an expression nests more than {MAX_EXPRESSION_DEPTH} deep (too many operators in a "
                 "row, or brackets in brackets)", span, "split the expression with `let`")


def _syntax_diagnostic(exc: UnexpectedInput, text: str, path: str) -> Diagnostic:
    line, col = getattr(exc, "line", 1) or 1, getattr(exc, "column", 1) or 1
    pos = getattr(exc, "pos_in_stream", None)
    if pos is None:
        pos = len(text)
    related_hint = _open_block(text, pos)
    if isinstance(exc, UnexpectedToken):
        tok = exc.token
        found = "end of file" if tok.type == "$END" else f"`{tok}`"
        msg = f"unexpected {found}; expected {_describe(exc.expected, _open_brackets(text, pos))}"
        end = (tok.end_column or col) if tok.type != "$END" else col
        span = Span(path, line, col, line, end)
    elif isinstance(exc, UnexpectedCharacters):
        ch = text[pos] if pos < len(text) else "?"
        msg = f"unexpected character `{ch}`" if ch.isprintable() else f"unexpected character {ch!r}"
        if exc.allowed:
            msg += f"; expected {_describe(set(exc.allowed), _open_brackets(text, pos))}"
        span = Span(path, line, col, line, col + 1)
    else:
        msg = "unexpected end of file"
        lines = text.splitlines() or [""]
        span = Span(path, len(lines), len(lines[-1]) + 1)
    hint = f"the block opened at {related_hint} is still open" if related_hint else None
    at_end = isinstance(exc, UnexpectedEOF) or (isinstance(exc, UnexpectedToken) and exc.token.type == "$END")
    if at_end:
        hint = (hint + "; a `}` may be missing") if hint else "the file ends in the middle of a declaration"
    gpos = len(text) if at_end else min(pos, len(text))   # (at the end, Lark's offset is the last token's)
    better = _first_guess(exc, text, gpos, at_end)
    if better is not None:
        msg, hint = better.message, better.hint
        if better.shift or better.width is not None:
            span = _guess_span(text, gpos + better.shift, better.width or 1, span)
    return Diagnostic("SYN001", msg, span, "error", hint)


def _first_guess(exc: UnexpectedInput, text: str, pos: int, at_end: bool) -> Guess | None:
    """A form from another language, or a natural first guess at this one (`first_guesses`)."""
    if at_end:
        found, expected = "", set(getattr(exc, "expected", None) or ())
    elif isinstance(exc, UnexpectedToken):
        found, expected = str(exc.token), set(exc.expected)
    elif isinstance(exc, UnexpectedCharacters):
        found, expected = (text[pos] if pos < len(text) else ""), set(exc.allowed or ())
    else:
        return None
    return guess(text, pos, found, expected)


def _guess_span(text: str, start: int, width: int, span: Span) -> Span:
    """`width` characters from offset `start`: the part of the line a guess is about."""
    start = max(0, min(start, len(text)))
    line = text.count("\n", 0, start) + 1
    col = start - (text.rfind("\n", 0, start) + 1) + 1
    return Span(span.file, line, col, line, col + width)


def parse_file(path: str | Path) -> A.RuleFile:
    """Read and parse a rule file; unreadable files are diagnostics too."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise error("SYN010", "rule file is not valid UTF-8 text", Span(str(path), 1, 1)) from None
    except OSError as exc:
        raise error("LOAD001", f"cannot read rule file: {exc.strerror or exc}", Span(str(path), 1, 1)) from None
    return parse_text(text, str(path))
