"""The parser: every declaration, statement and expression form becomes the right AST node, with spans."""
from __future__ import annotations

from pathlib import Path

import pytest
from lark import Lark

from civdsl.language import ast as A
from civdsl.language.diagnostics import CivError, Span
from civdsl.language.parser import grammar_text, parse_expr, parse_text

GRAMMAR = Path(__file__).resolve().parent.parent / "grammar" / "civdsl.lark"


def parse(src: str) -> list[A.Decl]:
    return parse_text(src, "t.civ").items


def one(src: str) -> A.Decl:
    items = parse(src)
    assert len(items) == 1, items
    return items[0]


def expr(src: str) -> A.Expr:
    """The expression `src`, parsed in the value position of a `param`."""
    decl = one(f"param x = {src}")
    assert isinstance(decl, A.Param)
    return decl.value


def body(src: str) -> list[A.Stmt]:
    """The statements of a procedure body."""
    decl = one("procedure p() {\n" + src + "\n}")
    assert isinstance(decl, A.Procedure)
    return decl.body


def stmt(src: str) -> A.Stmt:
    stmts = body(src)
    assert len(stmts) == 1, stmts
    return stmts[0]


def lit(node) -> object:
    assert isinstance(node, A.Literal), node
    return node.value


def name(node) -> str:
    assert isinstance(node, A.Name), node
    return node.id


def syntax_error(src: str):
    with pytest.raises(CivError) as caught:
        parse_text(src, "t.civ")
    return caught.value.diagnostics[0]


# ---- the grammar itself ---------------------------------------------------------------------------------
def test_grammar_is_conflict_free_lalr():
    """`strict=True` turns every shift/reduce or reduce/reduce conflict and terminal collision into an error."""
    parser = Lark(GRAMMAR.read_text(encoding="utf-8"), parser="lalr", strict=True, start=["start", "expr"])
    assert parser.parse("param x = 1", start="start").data == "start"


def test_parser_uses_the_checkout_grammar():
    assert grammar_text() == GRAMMAR.read_text(encoding="utf-8")


def test_empty_file_and_comments_parse_to_nothing():
    assert parse("") == []
    assert parse("# only a comment\n   \n# another\n") == []


# ---- metadata and files ---------------------------------------------------------------------------------
def test_game_block():
    g = one('game "Tiny race" { edition: "tiny" players: 1..4 }')
    assert isinstance(g, A.GameDecl)
    assert g.title == "Tiny race"
    assert [f.name for f in g.fields] == ["edition", "players"]
    assert lit(g.fields[0].value) == "tiny"
    players = g.fields[1].value
    assert isinstance(players, A.BinOp) and players.op == ".."
    assert (lit(players.left), lit(players.right)) == (1, 4)
    assert g.key() == ("game", "")


def test_import_and_extends():
    imp, ext = parse('import "common/cards.civ"\nextends "../base/game.civ"')
    assert isinstance(imp, A.Import) and imp.path == "common/cards.civ"
    assert isinstance(ext, A.Extends) and ext.path == "../base/game.civ"


def test_param():
    p = one("param goal = 10")
    assert isinstance(p, A.Param) and p.name == "goal" and lit(p.value) == 10
    assert p.key() == ("param", "goal")


# ---- state schema ---------------------------------------------------------------------------------------
def test_player_counter_with_closed_bounds():
    c = one("player counter food in 0..15 = 3")
    assert isinstance(c, A.Counter)
    assert (c.scope, c.name) == ("player", "food")
    assert (lit(c.lo), lit(c.hi), lit(c.init)) == (0, 15, 3)


def test_global_counter_with_open_upper_bound():
    c = one("global counter pool in 0.. = 7")
    assert isinstance(c, A.Counter)
    assert c.scope == "global" and lit(c.lo) == 0 and c.hi is None and lit(c.init) == 7


def test_counter_without_bounds_and_with_expression_bounds():
    c = one("player counter score = 0")
    assert c.lo is None and c.hi is None
    c = one("player counter food in 1 - 1..cap * 2 = 3")
    assert isinstance(c.lo, A.BinOp) and c.lo.op == "-"
    assert isinstance(c.hi, A.BinOp) and c.hi.op == "*" and name(c.hi.left) == "cap"


def test_counter_scope_must_be_player_or_global():
    d = syntax_error("players counter food = 3")
    assert d.code == "SYN002"
    assert "players" in d.message
    assert (d.span.line, d.span.col) == (1, 1)


def test_vars():
    pv, gv = parse('player var culture = none\nglobal var era = "stone"')
    assert isinstance(pv, A.Var) and (pv.scope, pv.name) == ("player", "culture") and lit(pv.init) is None
    assert isinstance(gv, A.Var) and (gv.scope, gv.name) == ("global", "era") and lit(gv.init) == "stone"


@pytest.mark.parametrize("text, scope, visibility", [
    ("player zone hand visible to owner", "player", "owner"),
    ("global zone deck visible to hidden", "global", "hidden"),
    ("global zone market visible to all", "global", "all"),
    ("player zone tableau", "player", "all"),
])
def test_zones_and_visibility(text, scope, visibility):
    z = one(text)
    assert isinstance(z, A.Zone)
    assert (z.scope, z.visibility) == (scope, visibility)


def test_unknown_visibility_is_a_syntax_diagnostic():
    d = syntax_error("player zone hand visible to friends")
    assert d.code == "SYN003"
    assert "friends" in d.message
    assert (d.span.line, d.span.col) == (1, 29)
    assert "owner" in d.hint


def test_die():
    d = one("die d6 = 1..6")
    assert isinstance(d, A.Die) and d.name == "d6"
    assert isinstance(d.faces, A.BinOp) and d.faces.op == ".."
    d = one('die colour = ["red", "green"]')
    assert [lit(i) for i in d.faces.items] == ["red", "green"]


def test_table_with_die_and_int_range_and_string_keys():
    t = one('table events die d20 {\n 1: "famine"\n 2..17: none\n 18..20: "flood"\n "special": 4\n}')
    assert isinstance(t, A.Table)
    assert (t.name, t.die) == ("events", "d20")
    assert [(r.lo, r.hi) for r in t.rows] == [(1, 1), (2, 17), (18, 20), ("special", "special")]
    assert [lit(r.value) for r in t.rows] == ["famine", None, "flood", 4]
    assert t.rows[2].span.line == 4


def test_table_without_die():
    t = one('table prices { "wheat": 2 }')
    assert t.die is None and t.rows[0].lo == "wheat"


def test_track_and_map():
    tr, mp = parse('track ast { spaces: ["a", "b"] start: 0 }\nmap board from "maps/board.json"')
    assert isinstance(tr, A.Track) and tr.name == "ast" and [f.name for f in tr.fields] == ["spaces", "start"]
    assert isinstance(mp, A.MapDecl) and (mp.name, mp.path) == ("board", "maps/board.json")


# ---- kinds and entities ---------------------------------------------------------------------------------
def test_kind_fields_types_and_defaults():
    k = one("kind advance {\n cost: int\n credits: int = 5\n requires: list of ref advance = []\n"
            " grid: list of list of int\n effect: block\n target: ref nation\n}")
    assert isinstance(k, A.Kind) and k.name == "advance"
    types = {f.name: f.type for f in k.fields}
    assert types == {
        "cost": ("int",),
        "credits": ("int",),
        "requires": ("list", ("ref", "advance")),
        "grid": ("list", ("list", ("int",))),
        "effect": ("block",),
        "target": ("ref", "nation"),
    }
    defaults = {f.name: f.default for f in k.fields}
    assert defaults["cost"] is None and lit(defaults["credits"]) == 5
    assert isinstance(defaults["requires"], A.ListLit) and defaults["requires"].items == []


def test_entity_with_fields_and_blocks_with_params():
    e = one('advance "Pottery" {\n cost: 10\n effect(p, n) { p.food += n }\n on_buy { log "bought" }\n}')
    assert isinstance(e, A.Entity)
    assert (e.kind, e.name) == ("advance", "Pottery")
    assert [f.name for f in e.fields] == ["cost"] and lit(e.fields[0].value) == 10
    assert [(b.name, b.params) for b in e.blocks] == [("effect", ["p", "n"]), ("on_buy", [])]
    assert isinstance(e.blocks[0].body[0], A.Assign)
    assert isinstance(e.blocks[1].body[0], A.Log)
    assert e.key() == ("advance", "Pottery")


def test_entity_name_may_be_a_bare_name():
    e = one("wonder Colossus { cost: 3 }")
    assert (e.kind, e.name) == ("wonder", "Colossus")


# ---- turn structure -------------------------------------------------------------------------------------
@pytest.mark.parametrize("mode", ["seat", "once", "simultaneous"])
def test_named_orders(mode):
    ph = one(f"phase p {{ order: {mode} }}")
    assert isinstance(ph, A.Phase)
    assert ph.order.mode == mode and ph.order.keys == []


def test_order_by_several_keys():
    ph = one("phase p { order: by -player.score, player.seat }")
    assert ph.order.mode == "by"
    assert len(ph.order.keys) == 2
    assert isinstance(ph.order.keys[0], A.Neg)
    assert isinstance(ph.order.keys[1], A.Attr) and ph.order.keys[1].name == "seat"


def test_order_inverse_by():
    ph = one("phase p { order: inverse by player.food }")
    assert ph.order.mode == "inverse"
    assert isinstance(ph.order.keys[0], A.Attr) and ph.order.keys[0].name == "food"


def test_unknown_order_is_a_syntax_diagnostic():
    d = syntax_error("phase p {\n  order: sideways\n}")
    assert d.code == "SYN004"
    assert "sideways" in d.message
    assert (d.span.line, d.span.col) == (2, 10)


def test_phase_with_title_when_and_steps():
    ph = one('phase trade "Trade" {\n order: seat\n when: player.cards > 2\n'
             ' step offer "Make offers" { log "offer" }\n step settle { log "settle" }\n}')
    assert ph.name == "trade" and ph.title == "Trade"
    assert isinstance(ph.when, A.Compare) and ph.when.ops == [">"]
    assert [(s.name, s.title) for s in ph.steps] == [("offer", "Make offers"), ("settle", None)]
    assert isinstance(ph.steps[0].body[0], A.Log)


def test_phase_loose_statements_become_a_step_named_after_the_phase():
    ph = one("phase harvest {\n order: once\n let x = 1\n x += 2\n}")
    assert ph.title is None and ph.when is None
    assert len(ph.steps) == 1
    step = ph.steps[0]
    assert step.name == "harvest" and step.title is None
    assert [type(s) for s in step.body] == [A.Let, A.Assign]
    assert step.span.line == 3


def test_phase_loose_statements_come_before_named_steps():
    ph = one("phase p {\n step later { log \"b\" }\n log \"a\"\n}")
    assert [s.name for s in ph.steps] == ["p", "later"]


def test_sequence_with_turns_and_phases():
    s = one("sequence {\n turns: seat\n phases: a, b, c\n}")
    assert isinstance(s, A.Sequence)
    assert s.turns.mode == "seat"
    assert [n for n, _ in s.phases] == ["a", "b", "c"]
    assert [(sp.line, sp.col) for _, sp in s.phases] == [(3, 10), (3, 13), (3, 16)]
    assert s.key() == ("sequence", "")


def test_sequence_turns_by_and_without_turns():
    s = one("sequence { turns: inverse by player.seat phases: a }")
    assert s.turns.mode == "inverse" and len(s.turns.keys) == 1
    s = one("sequence { phases: a, b }")
    assert s.turns is None and [n for n, _ in s.phases] == ["a", "b"]


def test_procedure():
    p = one("procedure gain(who, n) { who.food += n }")
    assert isinstance(p, A.Procedure) and p.name == "gain" and p.params == ["who", "n"]
    p = one("procedure nothing() { }")
    assert p.params == [] and p.body == []


def test_setup_victory_heuristic_invariant():
    st, v, h, i = parse('setup { shuffle deck }\nvictory { winner: player.score >= 10  max_rounds: 30 }\n'
                        'heuristic "how" = if option == "run" then 1 else 0\ninvariant "sane" = pool >= 0')
    assert isinstance(st, A.Setup) and isinstance(st.body[0], A.ZoneOp)
    assert isinstance(v, A.Victory) and [f.name for f in v.fields] == ["winner", "max_rounds"]
    assert isinstance(h, A.Heuristic) and h.name == "how" and isinstance(h.expr, A.IfExpr)
    assert isinstance(i, A.Invariant) and i.name == "sane" and isinstance(i.expr, A.Compare)


def test_option_holds_declarations():
    o = one('option short "Short game" {\n param goal = 5\n replace phase p { log "x" }\n}')
    assert isinstance(o, A.Option) and o.name == "short" and o.title == "Short game"
    assert [type(i) for i in o.items] == [A.Param, A.Replace]
    o = one("option bare { }")
    assert o.title is None and o.items == []


def test_overlays_replace_modify_remove():
    r, m, rm, rm2 = parse('replace param goal = 3\nmodify advance "Pottery" { cost: 4 }\n'
                          'remove advance "Pottery"\nremove phase trade')
    assert isinstance(r, A.Replace) and isinstance(r.item, A.Param) and r.key() == ("param", "goal")
    assert isinstance(m, A.Modify) and (m.kind, m.name) == ("advance", "Pottery")
    assert [f.name for f in m.fields] == ["cost"] and lit(m.fields[0].value) == 4
    assert isinstance(rm, A.Remove) and rm.key() == ("advance", "Pottery")
    assert rm2.key() == ("phase", "trade")


# ---- statements -----------------------------------------------------------------------------------------
def test_let():
    s = stmt("let x = 1 + 2")
    assert isinstance(s, A.Let) and s.name == "x" and isinstance(s.value, A.BinOp)


@pytest.mark.parametrize("op", ["=", "+=", "-="])
def test_assign_ops_on_names_and_fields(op):
    s = stmt(f"x {op} 3")
    assert isinstance(s, A.Assign) and s.op == op and name(s.target) == "x" and lit(s.value) == 3
    s = stmt(f"player.food {op} 3")
    assert isinstance(s.target, A.Attr) and s.target.name == "food" and name(s.target.obj) == "player"


def test_assign_through_a_call_target():
    s = stmt("player_at(1).wealth = 5")
    assert isinstance(s.target, A.Attr)
    assert isinstance(s.target.obj, A.Call) and name(s.target.obj.func) == "player_at"


def test_assign_to_a_call_is_refused():
    d = syntax_error("procedure p() {\n  f(1) = 2\n}")
    assert d.code == "SYN005"
    assert (d.span.line, d.span.col) == (2, 3)


def test_statement_without_effect_is_refused():
    d = syntax_error("procedure p() {\n  player.food\n}")
    assert d.code == "SYN006"
    assert "no effect" in d.message


def test_call_statement():
    s = stmt("gain(player, 3)")
    assert isinstance(s, A.ExprStmt)
    assert isinstance(s.expr, A.Call) and name(s.expr.func) == "gain" and len(s.expr.args) == 2


def test_if_elif_else():
    s = stmt('if a { log "a" } elif b { log "b" } elif c { log "c" } else { log "d" }')
    assert isinstance(s, A.If)
    assert [name(c) for c, _ in s.branches] == ["a", "b", "c"]
    assert [b[0].parts for _, b in s.branches] == [["a"], ["b"], ["c"]]
    assert s.orelse[0].parts == ["d"]


def test_if_without_else():
    s = stmt("if a { break }")
    assert len(s.branches) == 1 and s.orelse == []


def test_loops_and_jumps():
    f, r, w = body("for x in xs { break }\nrepeat 3 times { continue }\nwhile n < 3 { return n }")
    assert isinstance(f, A.For) and f.var == "x" and name(f.iterable) == "xs" and isinstance(f.body[0], A.Break)
    assert isinstance(r, A.Repeat) and lit(r.count) == 3 and isinstance(r.body[0], A.Continue)
    assert isinstance(w, A.While) and isinstance(w.cond, A.Compare)
    assert isinstance(w.body[0], A.Return) and name(w.body[0].value) == "n"


def test_log_template_splits_text_and_expressions():
    s = stmt('log "{player.name} has {1 + 2} food!"')
    assert isinstance(s, A.Log)
    assert len(s.parts) == 4
    assert isinstance(s.parts[0], A.Attr) and s.parts[0].name == "name"
    assert s.parts[1] == " has "
    assert isinstance(s.parts[2], A.BinOp) and s.parts[2].op == "+"
    assert s.parts[3] == " food!"


def test_log_template_expressions_point_at_the_string():
    s = body('\n  log "x = {x}"')[0]
    assert (s.parts[1].span.line, s.parts[1].span.col) == (3, 7)


def test_log_template_with_a_bad_expression():
    d = syntax_error('procedure p() {\n  log "total {1 +}"\n}')
    assert d.code == "SYN007"
    assert (d.span.line, d.span.col) == (2, 7)


def test_string_escapes():
    s = stmt(r'log "say \"hi\"\tnow"')
    assert s.parts == ['say "hi"\tnow']


def test_zone_statements():
    add, rem, mov, shu = body("add card to player.hand\nremove card from deck\n"
                              "move first(deck) from deck to player.hand\nshuffle deck")
    assert isinstance(add, A.ZoneOp) and add.op == "add"
    assert name(add.item) == "card" and add.source is None and isinstance(add.dest, A.Attr)
    assert rem.op == "remove" and name(rem.item) == "card" and name(rem.source) == "deck" and rem.dest is None
    assert mov.op == "move" and isinstance(mov.item, A.Call) and name(mov.source) == "deck"
    assert isinstance(mov.dest, A.Attr) and mov.dest.name == "hand"
    assert shu.op == "shuffle" and shu.item is None and name(shu.source) == "deck"


def test_skip_fail_end():
    sk, fa, en = body('skip trade\nfail "not allowed"\nend game')
    assert isinstance(sk, A.Skip) and sk.phase == "trade"
    assert isinstance(fa, A.Fail) and fa.message == "not allowed"
    assert isinstance(en, A.EndGame)


# ---- expressions ----------------------------------------------------------------------------------------
def test_literals():
    assert lit(expr("42")) == 42
    assert lit(expr("1.5")) == 1.5
    assert lit(expr('"text"')) == "text"
    assert lit(expr("true")) is True
    assert lit(expr("false")) is False
    assert lit(expr("none")) is None


def test_multiplication_binds_tighter_than_addition():
    e = expr("1 + 2 * 3")
    assert isinstance(e, A.BinOp) and e.op == "+"
    assert lit(e.left) == 1
    assert isinstance(e.right, A.BinOp) and e.right.op == "*"


def test_parentheses_override_precedence():
    e = expr("(1 + 2) * 3")
    assert e.op == "*" and isinstance(e.left, A.BinOp) and e.left.op == "+"


def test_arithmetic_is_left_associative():
    e = expr("10 - 3 - 2")
    assert e.op == "-" and isinstance(e.left, A.BinOp) and e.left.op == "-" and lit(e.right) == 2
    e = expr("7 // 2 % 3 / 1")
    assert e.op == "/" and e.left.op == "%" and e.left.left.op == "//"


def test_unary_minus():
    e = expr("-x - 2")
    assert e.op == "-" and isinstance(e.left, A.Neg) and name(e.left.operand) == "x"


def test_not_binds_tighter_than_and():
    e = expr("not a and b")
    assert isinstance(e, A.BoolOp) and e.op == "and"
    assert isinstance(e.left, A.Not) and name(e.left.operand) == "a"
    assert name(e.right) == "b"


def test_and_binds_tighter_than_or():
    e = expr("a or b and c")
    assert e.op == "or" and name(e.left) == "a"
    assert isinstance(e.right, A.BoolOp) and e.right.op == "and"


def test_not_applies_to_a_whole_comparison():
    e = expr("not a == b")
    assert isinstance(e, A.Not) and isinstance(e.operand, A.Compare)


def test_comparison_chain():
    e = expr("1 < x <= 3")
    assert isinstance(e, A.Compare)
    assert e.ops == ["<", "<="]
    assert [type(o) for o in e.operands] == [A.Literal, A.Name, A.Literal]


@pytest.mark.parametrize("op", ["==", "!=", "<", ">", "<=", ">=", "in", "not in"])
def test_each_comparison_operator(op):
    e = expr(f"a {op} b")
    assert isinstance(e, A.Compare) and e.ops == [op]
    assert [name(o) for o in e.operands] == ["a", "b"]


def test_range_binds_looser_than_arithmetic_and_tighter_than_in():
    e = expr("x in 1..n + 1")
    assert e.ops == ["in"]
    rng = e.operands[1]
    assert isinstance(rng, A.BinOp) and rng.op == ".."
    assert lit(rng.left) == 1 and isinstance(rng.right, A.BinOp) and rng.right.op == "+"


def test_list_and_record_literals_allow_a_trailing_comma():
    e = expr("[1, 2,]")
    assert isinstance(e, A.ListLit) and [lit(i) for i in e.items] == [1, 2]
    assert expr("[]").items == []
    r = expr('{name: "Ur", "two words": 2,}')
    assert isinstance(r, A.RecordLit)
    assert r.keys == ["name", "two words"] and [lit(v) for v in r.values] == ["Ur", 2]
    assert expr("{}").keys == []


def test_comprehension_with_and_without_where():
    c = expr("[c.points for c in player.hand where c.points > 1]")
    assert isinstance(c, A.Comprehension)
    assert c.var == "c" and isinstance(c.expr, A.Attr) and isinstance(c.iterable, A.Attr)
    assert isinstance(c.cond, A.Compare)
    c = expr("[x * 2 for x in xs]")
    assert c.cond is None


def test_if_expression():
    e = expr("if a > 1 then 10 else 20")
    assert isinstance(e, A.IfExpr)
    assert isinstance(e.cond, A.Compare) and lit(e.then) == 10 and lit(e.orelse) == 20


def test_choose_expression():
    e = expr('player chooses "which card" from [c for c in player.hand]')
    assert isinstance(e, A.Choose)
    assert name(e.who) == "player" and e.tag == "which card"
    assert isinstance(e.options, A.Comprehension)


def test_calls_attributes_and_indexes_chain_left_to_right():
    e = expr("f(1, 2).x[3]")
    assert isinstance(e, A.Index) and lit(e.key) == 3
    assert isinstance(e.obj, A.Attr) and e.obj.name == "x"
    call = e.obj.obj
    assert isinstance(call, A.Call) and name(call.func) == "f" and [lit(a) for a in call.args] == [1, 2]
    assert expr("g()").args == []


def test_method_style_call_on_a_string():
    e = expr('"Pottery".effect(player)')
    assert isinstance(e, A.Call)
    assert isinstance(e.func, A.Attr) and e.func.name == "effect" and lit(e.func.obj) == "Pottery"


def test_parse_expr_helper():
    e = parse_expr("1 + 2", Span("x.civ", 4, 2))
    assert isinstance(e, A.BinOp) and e.span.line == 4


# ---- spans ------------------------------------------------------------------------------------------------
def test_spans_are_one_based_lines_and_columns():
    items = parse('# comment\ngame "G" { edition: "g" }\n\n  param goal = 10\nphase p {\n  let x = goal + 1\n}\n')
    game, param, phase = items
    assert game.span == Span("t.civ", 2, 1, 2, 26)
    assert (param.span.line, param.span.col) == (4, 3)
    assert (param.value.span.line, param.value.span.col) == (4, 16)
    let = phase.steps[0].body[0]
    assert (let.span.line, let.span.col) == (6, 3)
    assert (let.value.span.line, let.value.span.col, let.value.span.end_col) == (6, 11, 19)
    assert (let.value.right.span.line, let.value.right.span.col) == (6, 18)
    assert (phase.span.line, phase.span.end_line) == (5, 7)


def test_attribute_spans_cover_the_whole_chain():
    s = stmt("  player.hand.size += 1")
    assert (s.target.span.line, s.target.span.col) == (2, 3)
    assert s.target.span.end_col == 19


def test_span_file_is_the_given_path():
    assert one("param x = 1").span.file == "t.civ"


# ---- syntax errors ----------------------------------------------------------------------------------------
def test_syntax_error_names_the_unexpected_token_and_position():
    d = syntax_error("param x = 1\nparam y = = 2")
    assert d.code == "SYN001" and d.severity == "error"
    assert "unexpected `=`" in d.message
    assert (d.span.line, d.span.col) == (2, 11)


def test_syntax_error_names_the_open_block():
    d = syntax_error("phase p {\n  if x {\n    log \"a\"\n")
    assert d.code == "SYN001"
    assert "end of file" in d.message
    assert "line 2" in d.hint and "if x {" in d.hint


def test_unexpected_character():
    d = syntax_error("param x = 3 @ 4")
    assert d.code == "SYN001"
    assert "unexpected character `@`" in d.message
    assert (d.span.line, d.span.col) == (1, 13)


def test_deep_bracket_nesting_is_refused_without_recursion():
    d = syntax_error("param x = " + "(" * 5000 + "1" + ")" * 5000)
    assert d.code == "SYN009"


def test_oversized_source_is_refused():
    from civdsl.language.limits import MAX_SOURCE_BYTES
    d = syntax_error("# " + "x" * (MAX_SOURCE_BYTES - 1))
    assert d.code == "SYN008" and f"larger than {MAX_SOURCE_BYTES} bytes" in d.message


def test_missing_brace_before_next_declaration_mentions_the_brace():
    d = syntax_error('phase main {\n  if x > 3 {\n    log "a"\n  }\n\nsequence { phases: main }\n')
    assert "`}`" in d.message + " " + (d.hint or "")


def test_huge_number_literal_is_a_diagnostic():
    with pytest.raises(CivError):
        parse_text("param x = " + "9" * 5000, "t.civ")


DEEP = {"not": lambda n: "not " * n + "true", "minus": lambda n: "- " * n + "1",
        "or": lambda n: " or ".join(["a"] * n), "plus": lambda n: " + ".join(["1"] * n),
        "attr": lambda n: "a" + ".b" * n, "index": lambda n: "a" + "[1]" * n}


@pytest.mark.parametrize("kind", sorted(DEEP))
def test_long_chains_parse_and_deeper_ones_are_a_diagnostic(kind):
    assert parse_text("param x = " + DEEP[kind](600), "t.civ").items  # (a 600-operator line is a rule)
    with pytest.raises(CivError) as exc:
        parse_text("param x = " + DEEP[kind](1_100), "t.civ")
    assert exc.value.diagnostics[0].code == "SYN009"


def test_a_decimal_too_long_for_a_number_is_a_diagnostic():
    with pytest.raises(CivError) as exc:
        parse_text("param x = 1" + "0" * 400 + ".5", "t.civ")
    assert exc.value.diagnostics[0].code == "SYN011"


def test_expected_list_is_never_empty():
    d = syntax_error("player counter x in 0 = 3")
    assert d.code == "SYN001"
    assert not d.message.rstrip().endswith("expected")
    assert "`..`" in d.message


def test_expected_list_offers_no_closing_bracket_that_is_not_open():
    d = syntax_error("param bonus = 3 @ 4")
    assert "`)`" not in d.message and "`]`" not in d.message
