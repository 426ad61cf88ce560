"""The static type checker (`civdsl/compiler/typecheck/`): every code it reports is triggered by a rule
that is wrong and stays silent on the same rule written right; the issue's three examples; overlays that
keep types; hostile files that end in a diagnostic, never a hang or a traceback."""
from __future__ import annotations

from pathlib import Path

import pytest

from civdsl.compiler.compiler import compile_ruleset
from civdsl.compiler.typecheck.check import check_types
from civdsl.compiler.typecheck.signatures import SIGNATURES
from civdsl.engine.builtins import REGISTRY
from civdsl.language import ast as A
from civdsl.language.diagnostics import Span
from civdsl.language.loader import load_ruleset
from civdsl.tools.checker import check_paths
from tests.one_file import one_file_edition

ROOT = Path(__file__).resolve().parent.parent

BASE = '''game "T" { edition: "t" players: 1..2 }
player counter food in 0..15 = 3
player zone hand
param goal = 10
kind card { cost: int in 0..  points: int = 0  effect: block }
card "One" { cost: 1 effect(p) { p.food += 1 } }
card "Two" { cost: 2 effect(p) { p.food += 2 } }
'''
TAIL = '''
sequence { phases: main }
victory { rank: [player.food] max_rounds: 1 }
'''


def diagnostics(tmp_path: Path, text: str, strict: bool = True):
    """Every type diagnostic of a one-file edition made of BASE, `text` and a phase `main` (unless given)."""
    body = BASE + text + ("" if "phase main" in text else '\nphase main { let c = "One" c.effect(player) }\n') + TAIL
    entry = one_file_edition(tmp_path, body)
    rs = load_ruleset(entry, root=entry.parent.parent)
    prog, diags = compile_ruleset(rs)
    assert not [d for d in diags if d.severity == "error"], [d.headline() for d in diags]
    return check_types(rs, prog, incremental=False)


def codes(tmp_path, text):
    return [d.code for d in diagnostics(tmp_path, text)]


# ---- each code fires on wrong rules and not on right ones ---------------------------------------------------
BOX = "kind box { needs: list of ref card = [] }  "
CASES = {
    # code: (wrong, right)
    "TYP001": ("param x: integer = 4  procedure f(a) { return x + a }  setup { f(1) }",
               "param x: int = 4  procedure f(a) { return x + a }  setup { f(1) }"),
    "TYP010": ("invariant \"x\" = all([p.fod >= 0 for p in players])",
               "invariant \"x\" = all([p.food >= 0 for p in players])"),
    "TYP011": ("param loss = \"four\"  setup { for p in players { p.food = 9 - loss } }",
               "param loss = 4  setup { for p in players { p.food = 9 - loss } }"),
    "TYP012": ("setup { let n = len(goal) let k = entities(\"crad\") }",
               "setup { let n = len([goal]) let k = entities(\"card\") }"),
    "TYP013": ("procedure f(c) { return (if c then 1 else \"held\") - 1 }  setup { f(true) }",
               "procedure f(c) { return if c then 1 else \"held\" }  setup { f(true) }"),
    "TYP014": ("param lots: int in 0..5 = 7  setup { log \"{lots}\" }",
               "param lots: int in 0..5 = 5  setup { log \"{lots}\" }"),
    "TYP015": ("player counter gold in 0..5 = 9  setup { for p in players { p.gold += 1 } }",
               "player counter gold in 0..5 = 2  setup { for p in players { p.gold += 1 } }"),
    "TYP016": ("player var leader: player = none  setup { for p in players { p.leader = \"x\" } }",
               "player var leader: player = none  setup { for p in players { p.leader = p } }"),
    "TYP017": ("procedure f(xs: " + "list of " * 50 + "int) { return xs }  setup { f([]) }",
               "procedure f(xs: list of list of int) { return xs }  setup { f([]) }"),
    "TYP018": ("setup { let c = \"One\" for p in players { c.cost(p) } }",
               "setup { let c = \"One\" for p in players { c.effect(p) } }"),
    "REF002": ("setup { let xs = [\"One\", \"Twoo\"] log \"{xs}\" }",
               "setup { let xs = [\"One\", \"Two\", \"none\"] log \"{xs}\" }"),
    "REF001": (BOX + 'box "B" { needs: ["Onee"] }  setup { log "{entities(\\"box\\")}" }',
               BOX + 'box "B" { needs: ["One"] }  setup { log "{entities(\\"box\\")}" }'),
    "ARG001": ("setup { let c = \"One\" for p in players { c.effect(p, p) } }",
               "setup { let c = \"One\" for p in players { c.effect(p) } }"),
}


@pytest.mark.parametrize("code", sorted(CASES))
def test_each_code_fires_on_wrong_rules(tmp_path, code):
    assert code in codes(tmp_path, CASES[code][0])


@pytest.mark.parametrize("code", sorted(CASES))
def test_each_code_is_silent_on_right_rules(tmp_path, code):
    assert codes(tmp_path, CASES[code][1]) == []


def test_unknown_type_name_says_what_was_meant(tmp_path):
    d = diagnostics(tmp_path, CASES["TYP001"][0])
    assert d[0].code == "TYP001" and "`integer`" in d[0].message and d[0].hint == "did you mean `int`?"


def test_the_first_example_misspelt_field_is_found_with_did_you_mean(tmp_path):
    d = diagnostics(tmp_path, CASES["TYP010"][0])
    assert [(x.code, x.span.line, x.hint) for x in d] == [("TYP010", 8, "did you mean `food`?")]


def test_a_text_where_the_rules_compute_with_numbers(tmp_path):
    d = diagnostics(tmp_path, CASES["TYP011"][0])
    assert [(x.code, x.span.line) for x in d] == [("TYP011", 8)] and "a text" in d[0].message


def test_field_of_a_thing_of_known_kind_is_checked_but_a_name_held_in_a_text_is_not(tmp_path):
    bad = diagnostics(tmp_path, 'setup { for t in entities("card") { for p in players { p[t.csot] += 1 } } }')
    assert [(x.code, x.hint) for x in bad] == [("TYP010", "did you mean `cost`?")]
    assert "things of kind `card`" in bad[0].message
    assert codes(tmp_path, 'player counter One = 0  player counter Two = 0\n'
                           'setup { for t in entities("card") { for p in players { p[t] += t.cost } } }') == []


def test_text_that_names_no_thing_has_no_fields(tmp_path):
    d = diagnostics(tmp_path, 'setup { log "{\\"Onee\\".cost}" }')
    assert [(x.code, x.hint) for x in d] == [("TYP010", 'did you mean "One"?')]


def test_record_keys_are_checked_and_keys_added_by_rules_are_known(tmp_path):
    assert codes(tmp_path, 'procedure f() { let r = {a: 1, b: 2} return r.c }  setup { f() }') == ["TYP010"]
    assert codes(tmp_path, 'procedure f() { let r = {a: 1} r["c"] = 3 return r.c }  setup { f() }') == []


def test_a_key_misspelt_where_one_of_the_records_is_made_is_found_where_it_is_read(tmp_path):
    made = 'setup {{ for o in [{{n: 1, other: true}}, {{n: 2, {} : false}}] {{ if o.other {{ log "x" }} }} }}'
    d = diagnostics(tmp_path, made.format("otheer"))
    assert [(x.code, x.span.line) for x in d] == [("TYP010", 8)] and "`otheer`" in d[0].message
    # a key only some records have, read where the rules know it is there: fine
    assert codes(tmp_path, 'setup { for o in [{n: 0}, {n: 1, card: "One"}] { if o.n > 0 { log "{o.card}" } } }') == []


def test_procedure_parameters_are_inferred_from_the_callers(tmp_path):
    d = diagnostics(tmp_path, 'procedure feed(p, n) { return p.fod + n }  setup { for q in players { feed(q, 2) } }')
    assert [(x.code, x.hint) for x in d] == [("TYP010", "did you mean `food`?")]


def test_declared_parameter_type_is_checked_at_each_call(tmp_path):
    d = diagnostics(tmp_path, 'procedure feed(p: player, n: int) { p.food += n }  setup { feed(first(players), "2") }')
    assert [x.code for x in d] == ["TYP012"] and d[0].related


def test_mutually_recursive_procedures_settle(tmp_path):
    text = ('procedure even(n) { if n == 0 { return true } return odd(n - 1) }\n'
            'procedure odd(n) { if n == 0 { return false } return even(n - 1) }\n'
            'procedure loop(a) { return loop(a) }\n'
            'setup { let x = even(4) let y = loop("a") - 1 }')
    assert codes(tmp_path, text) == []
    assert codes(tmp_path, text.replace("odd(n - 1)", 'odd(n - "1")')) == ["TYP011"]


# ---- the examples: overlays keep types -----------------------------------------------------------
def _house(tmp_path: Path, text: str) -> list:
    house = tmp_path / "house" / "house.civ"
    house.parent.mkdir(parents=True, exist_ok=True)
    house.write_text(text, encoding="utf-8")
    found, _ = check_paths([str(house)])
    return [d for d in found if d.severity == "error"]


def test_a_house_rule_giving_a_number_param_a_text_is_an_error_at_its_line(tmp_path):
    found = _house(tmp_path, 'extends "avalon-hill-1981"\nmodify param famine_loss { value: "four" }\n')
    assert [(d.code, Path(d.span.file).name, d.span.line) for d in found] == [("OVL006", "house.civ", 2)]
    (where, note), = found[0].related
    assert Path(where.file).name == "calamities.civ" and "declared here" in note
    assert "a whole number" in found[0].message


def test_a_house_rule_giving_a_number_param_another_number_is_fine(tmp_path):
    assert _house(tmp_path, 'extends "avalon-hill-1981"\nmodify param famine_loss { value: 4 }\n') == []


def test_a_card_cost_outside_the_kind_range_is_an_error_at_the_overlay(tmp_path):
    found = _house(tmp_path, 'extends "avalon-hill-1981"\nmodify civ_card "Pottery" { cost: -5 }\n')
    assert [(d.code, Path(d.span.file).name, d.span.line) for d in found] == [("TYP014", "house.civ", 2)]
    first, second = found[0].related
    assert Path(first.file if isinstance(first, Span) else first[0].file).name == "cards.civ"
    assert "0.." in second[1]
    assert _house(tmp_path, 'extends "avalon-hill-1981"\nmodify civ_card "Pottery" { cost: 5 }\n') == []


def test_an_overlay_changing_a_field_type_or_a_procedure_is_an_error_with_the_original(tmp_path):
    base = BASE + 'procedure gain(p, n) { p.food += n return n }\nphase main { gain(player, 1) }' + TAIL
    entry = one_file_edition(tmp_path, base)
    (entry.parent / "house.civ").write_text(
        'extends "game.civ"\nmodify card "Two" { cost: "two" }\n'
        'replace procedure gain(p, n) { return "x" }\n', encoding="utf-8")
    found, _ = check_paths([str(entry.parent / "house.civ")])
    got = sorted((d.code, d.span.line) for d in found if d.severity == "error")
    assert got == [("OVL006", 2), ("OVL006", 3)]
    assert all(Path(d.related[0][0].file).name == "game.civ" for d in found if d.code == "OVL006")


def test_an_option_that_changes_a_param_type_is_reported(tmp_path):
    entry = one_file_edition(tmp_path, BASE + 'option fast { modify param goal { value: "ten" } }\n'
                             'phase main { player.food += goal }' + TAIL)
    found, _ = check_paths([str(entry)])
    assert [d.code for d in found if d.severity == "error"] == ["OVL006"]


# ---- hostile files: a diagnostic, never a hang or a traceback -----------------------------------------------
def test_a_type_nested_ten_thousand_deep_is_one_diagnostic(tmp_path):
    d = diagnostics(tmp_path, "param x: " + "list of " * 10_000 + "int = []  setup { log \"{x}\" }")
    assert [x.code for x in d] == ["TYP017"]


def test_an_expression_nested_ten_thousand_deep_is_refused_by_the_parser(tmp_path):
    entry = one_file_edition(tmp_path, BASE + "param x = " + "[" * 10_000 + "]" * 10_000 + TAIL)
    found, _ = check_paths([str(entry)])
    assert [d.code for d in found] == ["SYN009"]


def test_a_record_of_a_hundred_thousand_keys_is_checked(tmp_path):
    entry = one_file_edition(tmp_path, BASE + 'param big = {}\nsetup { log "{big.k99999x}" }\n'
                             'phase main { player.food += 1 }' + TAIL)
    rs = load_ruleset(entry, root=entry.parent.parent)
    big = next(d for d in rs.decls.values() if isinstance(d, A.Param) and d.name == "big")
    big.value = A.RecordLit([f"k{i}" for i in range(100_000)], [A.Literal(i, big.span) for i in range(100_000)],
                            big.span)
    prog, _ = compile_ruleset(rs)
    assert [d.code for d in check_types(rs, prog, incremental=False)] == ["TYP010"]


# ---- the tables and the shipped rules ------------------------------------------------------------------
def test_every_builtin_has_a_signature():
    assert sorted(set(REGISTRY) - set(SIGNATURES)) == []


def test_shipped_rulesets_and_examples_have_no_type_diagnostic():
    found, _ = check_paths([str(ROOT / "rulesets"), str(ROOT / "examples")])
    assert [d.headline() for d in found] == []


# ---- fixes for mutants of the shipped rules (issue 22) -----------------------------------------------------
def test_a_check_after_a_changed_file_does_not_keep_the_old_texts_findings(tmp_path):
    """A process that checks a file, then the file changed (a mutant then the original; an editor's
    edits): the second check does not start from what the first learnt of the old text (the files it
    shares with the first, most of the rules here, are the same)."""
    from civdsl.compiler.typecheck import check as typecheck
    shared = "".join(f"param p{i} = {i}\n" for i in range(40))
    made = ('procedure opts() {{ return [{{n: 1, other: true}}, {{n: 2, {}: false}}] }}\n'
            'procedure use(o) {{ if o.other {{ log "x" }} }}\n'
            'setup {{ for o in opts() {{ use(o) }} }}\n')

    def check(key):
        body = BASE + 'import "shared.civ"\nimport "changed.civ"\n' \
            + '\nphase main { let c = "One" c.effect(player) }\n' + TAIL
        entry = one_file_edition(tmp_path, body)
        (entry.parent / "shared.civ").write_text(shared, encoding="utf-8")
        (entry.parent / "changed.civ").write_text(made.format(key), encoding="utf-8")
        rs = load_ruleset(entry, root=entry.parent.parent)
        prog, _ = compile_ruleset(rs)
        return [d.code for d in check_types(rs, prog)]   # (incremental, as `civdsl check` runs it)

    typecheck.clear_caches()
    try:
        assert check("otheer") == ["TYP010"]
        assert check("other") == []
        assert check("otheer") == ["TYP010"]
    finally:
        typecheck.clear_caches()


def test_adding_to_a_records_key_adds_no_key(tmp_path):
    """`r[k] += 1` changes a key the record has (a missing one stops the game): the record stays closed,
    so a key misspelt where it is made is found where the right one is read."""
    made = ('procedure f() {{ let r = {{a: 0, {}: 0}}  r[str(1)] += 1  r["a"] += 1  return r }}\n'
            'setup {{ let x = f() let y = {{a: 1, b: 2}} y = x log "{{y.b}}" }}')
    d = diagnostics(tmp_path, made.format("bb"))
    assert [x.code for x in d] == ["TYP010"] and "`bb`" in d[0].message
    assert codes(tmp_path, made.format("b")) == []


def test_adding_a_text_to_a_record_of_numbers_is_an_error(tmp_path):
    made = 'procedure f(k) {{ let r = {{a: 0, b: 0}}  r[k] += {}  return r.a - 1 }}  setup {{ f("a") }}'
    assert codes(tmp_path, made.format('"one"')) == ["TYP011"]
    assert codes(tmp_path, made.format("1")) == []


def test_a_text_added_to_counters_named_by_a_list_param_is_an_error(tmp_path):
    made = ('player counter wood = 0  player counter stone = 0  param goods = ["wood", "stone"]\n'
            'setup {{ for p in players {{ for i in 1..2 {{ p[goods[i]] += {} }} }} }}')
    assert codes(tmp_path, made.format('"one"')) == ["TYP016"]
    assert codes(tmp_path, made.format("1")) == []


def test_a_record_variable_that_starts_empty_still_has_its_keys_checked(tmp_path):
    """`player var plan = {}`, then whole records: a key read that none of them has is misspelt."""
    made = ('player var plan = {{}}\n'
            'setup {{ for p in players {{ p.plan = {{from: 1, {}: 2}}  log "{{p.plan.left}}" }} }}')
    d = diagnostics(tmp_path, made.format("lefft"))
    assert [x.code for x in d] == ["TYP010"] and "`left`" in d[0].message
    assert codes(tmp_path, made.format("left")) == []
    # filled in key by key: any key the rules have
    assert codes(tmp_path, 'player var seen = {}  setup { for p in players { p.seen[str(1)] = 1 '
                           'log "{p.seen.cost}" } }') == []


def test_a_things_text_one_slip_from_a_thing_or_area_name_is_an_error(tmp_path):
    made = 'kind nation {{ start: list of text  title: text = "" }}  nation "Carthage" {{ start: [{}] }}\n'
    d = diagnostics(tmp_path, made.format('"Cartage"'))
    assert [x.code for x in d] == ["REF002"] and '"Carthage"' in d[0].message
    assert codes(tmp_path, made.format('"Carthage"')) == []
    assert codes(tmp_path, made.format('"carthage"')) == []   # (a capital changed: a title, taken as meant)
    assert codes(tmp_path, made.format('"Rome"')) == []       # (far from every name: taken as meant)


@pytest.mark.parametrize("code", sorted(CASES))
def test_findings_do_not_depend_on_the_order_the_rules_are_walked_in(tmp_path, code):
    """The same findings with the declarations walked in the reverse order (the worklist's order)."""
    body = BASE + CASES[code][0] + '\nphase main { let c = "One" c.effect(player) }\n' + TAIL
    entry = one_file_edition(tmp_path, body)
    rs = load_ruleset(entry, root=entry.parent.parent)
    prog, _ = compile_ruleset(rs)
    forward = check_types(rs, prog, incremental=False)
    rs.decls = dict(reversed(list(rs.decls.items())))
    backward = check_types(rs, prog, incremental=False)
    assert [d.headline() for d in backward] == [d.headline() for d in forward] != []


@pytest.mark.parametrize("callers", [
    # the misspelt caller first, walked before any caller has given the procedure a thing, and last
    ('procedure early(q) {{ return held(q, "{}") }}', 'procedure late(q) {{ return held(q, "One") }}'),
    ('procedure early(q) {{ return held(q, "One") }}', 'procedure late(q) {{ return held(q, "{}") }}'),
])
def test_a_text_one_slip_from_a_thing_another_caller_gives_is_found_in_any_order(tmp_path, callers):
    """A procedure that other rules call with things: a text one slip from a thing's name is found
    whichever caller the checker walks first (found in mutants of the shipped rules: it used to depend
    on the order)."""
    made = ('procedure held(p, card) {{ return card in p.hand }}\n' + "\n".join(callers) + '\n'
            'setup {{ for p in players {{ log "{{early(p)}} {{late(p)}}" }} }}')
    d = diagnostics(tmp_path, made.format("Onne"))
    assert [x.code for x in d] == ["REF002"] and '"Onne"' in d[0].message and d[0].hint == 'did you mean "One"?'
    assert codes(tmp_path, made.format("One")) == []


@pytest.mark.parametrize("wrong, right", [
    # a record of numbers read with a text default, then subtracted from
    ('setup { let r = { a: 1 } for p in players { p.food = get(r, "b", "none") - 1 } }',
     'setup { let r = { a: 1 } for p in players { p.food = get(r, "b", 0) - 1 } }'),
    # values not known (a procedure's parameter): a text default is no number either
    ('procedure short(req) { return get(req, "advances", "zero") - 1 }  setup { for r in [] { short(r) } }',
     'procedure short(req) { return get(req, "advances", 0) - 1 }  setup { for r in [] { short(r) } }'),
])
def test_get_with_a_text_default_where_a_number_is_needed(tmp_path, wrong, right):
    assert "TYP013" in codes(tmp_path / "wrong", wrong)
    assert codes(tmp_path / "right", right) == []
