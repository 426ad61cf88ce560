"""The interpreter, through small purpose-written rulesets in `tests/data/rulesets/<name>/game.civ`.

Each ruleset records what happened in global variables (often a `trace` list appended in play order), so
the tests can assert outcomes and orders exactly. Variants of a ruleset are its `option`s.
"""
from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from civdsl.compiler.compiler import compile_ruleset
from civdsl.engine.agents import GreedyAgent, RandomAgent, ScriptedAgent
from civdsl.engine.interpreter import Game
from civdsl.engine.values import IllegalAction, RuleError
from civdsl.language.diagnostics import CivError, render_text
from civdsl.language.loader import load_ruleset

RULESETS = Path(__file__).resolve().parent / "data" / "rulesets"


# ---- helpers ------------------------------------------------------------------------------------------
def program(name: str, options=()):
    rs = load_ruleset(RULESETS / name / "game.civ", options=list(options))
    prog, diags = compile_ruleset(rs)
    errors = [d for d in diags if d.severity == "error"]
    assert not errors, render_text(errors)
    return prog


def new_game(name: str, players: int = 2, *, options=(), seed: int = 0, agents=None, forced=None, **kw) -> Game:
    prog = program(name, options)
    if agents is None:
        agents = [RandomAgent(seed, i) for i in range(players)]
    game = Game(prog, players, seed, agents, **kw)
    if forced is not None:
        game.state.forced_dice = list(forced)
    return game


def play(name: str, players: int = 2, **kw):
    game = new_game(name, players, **kw)
    return game, game.run()


def failure(name: str, players: int = 2, exc=RuleError, **kw):
    game = new_game(name, players, **kw)
    with pytest.raises(exc) as caught:
        game.run()
    return game, caught.value


def line_of(name: str, text: str, nth: int = 1) -> int:
    """The 1-based line of the nth occurrence of `text` in a test ruleset (so tests survive edits)."""
    lines = (RULESETS / name / "game.civ").read_text(encoding="utf-8").splitlines()
    hits = [i for i, line in enumerate(lines, 1) if text in line]
    assert len(hits) >= nth, f"{text!r} not in {name}"
    return hits[nth - 1]


def players_of(game: Game):
    return {p.name: p for p in game.state.players}


def events(game: Game, kind: str) -> list[dict]:
    return [e for e in game.events if e["type"] == kind]


def diag(err: CivError):
    (d,) = err.diagnostics
    return d


# ---- counters -----------------------------------------------------------------------------------------
def test_player_counters_clamp_at_their_bounds():
    game, _ = play("counters")
    for p in game.state.players:
        assert p.counters["food"] == 15      # 3 + 20, capped at `cap`
        assert p.counters["gold"] == 1000    # 0 - 5 clamps at 0, then +1000 with no upper bound
        assert p.counters["capped"] == 5     # the initial value 99 is clamped too


def test_global_counter_clamps_both_ways():
    game, _ = play("counters")
    assert game.state.counters["pool"] == 0
    # 5 -> 8 -> 11 clamped to 10 -> -90 clamped to 0
    assert [e["value"] for e in events(game, "set") if e["target"] == "pool"] == [8, 10, 0]


@pytest.mark.parametrize("players", [1, 2, 4])
def test_plus_equals_on_globals_and_player_vars(players):
    game, _ = play("counters", players)
    seats = sum(range(1, players + 1))
    assert game.state.vars["total"] == seats - 1     # += seat per player, then -= 1 once
    assert game.state.vars["names"] == [f"P{i}" for i in range(1, players + 1)]
    assert [p.vars["title"] for p in game.state.players] == [f"Chief P{i}" for i in range(1, players + 1)]


def test_changes_are_logged_with_their_rule():
    game, _ = play("counters")
    (food,) = [e for e in events(game, "set") if e["target"] == "P1.food"]
    assert (food["value"], food["was"]) == (15, 3)
    assert food["rule"] == f"counters/game.civ:{line_of('counters', 'player.food += 20')}"
    assert food["round"] == 1


def test_invariants_are_checked_after_phases():
    game, _ = play("counters", check_invariants=True)      # holds: nothing raised
    assert game.state.round == 1
    _, err = failure("counters", options=["broken"], check_invariants=True)
    assert err.code == "INV001"
    assert '"never"' in str(err)
    # unchecked runs do not evaluate invariants
    play("counters", options=["broken"])


# ---- zones ----------------------------------------------------------------------------------------------
def test_zone_add_remove_move_first_last():
    game, _ = play("zones")
    st = game.state
    assert st.vars["seen"] == [1, 5, 3, 1, 1]
    assert st.zones["deck"] == [4]
    assert st.zones["discard"] == [1]
    p = players_of(game)
    assert p["P1"].zones["hand"] == [2] and p["P2"].zones["hand"] == [3]
    assert p["P1"].zones["table"] == [100] and p["P2"].zones["table"] == [200]


def test_zone_moves_are_logged():
    game, _ = play("zones")
    moves = events(game, "move")
    assert [(m["item"], m["source"], m["to"]) for m in moves] == [
        (1, "deck", "discard"), (2, "deck", "P1.hand"), (3, "deck", "P2.hand")]
    assert [e["zone"] for e in events(game, "shuffle")] == ["big"]


def test_shuffle_is_a_seeded_permutation():
    a, _ = play("zones", seed=1)
    b, _ = play("zones", seed=1)
    c, _ = play("zones", seed=2)
    big = a.state.zones["big"]
    assert sorted(big) == list(range(1, 31))
    assert big != list(range(1, 31))
    assert big == b.state.zones["big"]
    assert big != c.state.zones["big"]


def test_removing_what_is_not_in_a_zone_is_a_rule_error():
    _, err = failure("zones", options=["missing"])
    d = diag(err)
    assert d.code == "RUN001"
    assert d.message == "42 is not in P1.hand"
    assert (d.span.line, d.span.col) == (line_of("zones", "remove 42 from player.hand"), 5)


def test_observation_hides_other_players_owner_zones():
    game, _ = play("zones")
    p1, p2 = game.state.players
    seen_by_p1 = game.observation(p1)
    assert seen_by_p1["you"] == 1
    mine, theirs = seen_by_p1["players"]
    assert mine["zones"]["hand"] == [2]
    assert theirs["zones"]["hand"] == {"hidden": True, "count": 1}
    assert theirs["zones"]["table"] == [200]                       # visible to all
    assert seen_by_p1["zones"]["deck"] == {"hidden": True, "count": 1}
    assert seen_by_p1["zones"]["discard"] == [1]
    seen_by_p2 = game.observation(p2)
    assert seen_by_p2["players"][0]["zones"]["hand"] == {"hidden": True, "count": 1}
    assert seen_by_p2["players"][1]["zones"]["hand"] == [3]
    assert "2" not in json.dumps(seen_by_p2["players"][0]["zones"]["hand"])


# ---- loops, comprehensions, procedures --------------------------------------------------------------------
def test_loops_comprehensions_and_builtins():
    game, _ = play("loops", 1)
    v = game.state.vars
    assert v["evens"] == [20, 40, 60]
    assert v["total"] == 120
    assert v["how_many"] == 3
    assert v["fact"] == 120
    assert v["walked"] == [1, 2, 4, 5]      # `continue` skips 3, `break` stops after 5
    assert v["n"] == 10                     # repeat 4 times, then while += 2 up to 10
    assert v["misc"] == ["negative", "zero", "positive", 3, 3.5, 3, 1, -2, True, True, True, True, "big",
                         1, 9, [1, 2, 3], [3, 2, 1], [1, 2], True, True]
    assert v["records"] == ["Ur", 3, ["name", "size"], [5]]


def test_log_narration_reaches_the_log_and_echo():
    lines: list[str] = []
    game, _ = play("loops", 1, echo=lines.append)
    assert lines == ["round 1"]
    assert [e["text"] for e in events(game, "log")] == ["round 1"]


def test_recursion_within_the_limit_works():
    game, _ = play("runaway", 1)
    assert game.state.vars["depth_ok"] == "done"


def test_endless_recursion_stops_with_run012():
    _, err = failure("runaway", 1, options=["recurse"])
    d = diag(err)
    assert d.code == "RUN012"
    assert "forever" in d.message
    assert d.span.line == line_of("runaway", "return forever(k + 1)")


def test_endless_while_loop_stops():
    start = time.monotonic()
    _, err = failure("runaway", 1, options=["spin"])
    assert err.code in ("RUN010", "RUN011")
    assert diag(err).span.line == line_of("runaway", "while true")
    assert time.monotonic() - start < 20


def test_step_budget():
    game, _ = play("runaway", 1, options=["busy"])          # 5000 statements fit the default budget
    assert game.state.round == 1
    _, err = failure("runaway", 1, options=["busy"], budget=1000)
    d = diag(err)
    assert d.code == "RUN010"
    assert "1000" in d.message
    assert d.span.line == line_of("runaway", "let y = 1")


# ---- orders -------------------------------------------------------------------------------------------------
def test_phase_orders():
    game, _ = play("orders", 3)
    assert game.state.vars["trace"] == [
        "seat1", "seat2", "seat3",
        "by3", "by1", "by2",                 # wealth 1, 5, 9
        "inverse2", "inverse1", "inverse3",  # wealth 9, 5, 1
        "keys3", "keys2", "keys1",           # first key ties (all odd), second key -seat
        "once:none",                         # once: no player
        "sim1", "sim2", "sim3",
    ]


def test_phase_events_record_the_order():
    game, _ = play("orders", 3)
    orders = {e["phase"]: e["order"] for e in events(game, "phase")}
    assert orders == {
        "by_seat": ["P1", "P2", "P3"], "by_wealth": ["P3", "P1", "P2"], "richest_first": ["P2", "P1", "P3"],
        "two_keys": ["P3", "P2", "P1"], "bank": [], "together": ["P1", "P2", "P3"],
    }


def test_turns_play_every_phase_for_one_player_before_the_next():
    game, result = play("turns", 3)
    one_round = ["a1", "b1", "b'1", "a2", "b2", "b'2", "a3", "b3", "b'3"]
    assert game.state.vars["trace"] == one_round * 2
    assert [e["player"] for e in events(game, "turn")] == ["P1", "P2", "P3"] * 2
    assert [e["round"] for e in events(game, "turn")] == [1, 1, 1, 2, 2, 2]
    assert result.rounds == 2


def test_turns_inverse_by():
    game, _ = play("turns", 3, options=["backwards"])
    assert game.state.vars["trace"][:9] == ["a3", "b3", "b'3", "a2", "b2", "b'2", "a1", "b1", "b'1"]
    assert [e["player"] for e in events(game, "turn")][:3] == ["P3", "P2", "P1"]


def test_turn_events_point_at_the_sequence():
    game, _ = play("turns", 2)
    seq = f"turns/game.civ:{line_of('turns', 'sequence { turns: seat')}"
    assert [e["rule"] for e in events(game, "turn")] == [seq] * 4


# ---- skip and when ---------------------------------------------------------------------------------------
def test_skip_and_when_in_rounds():
    game, _ = play("skipping", 3)
    one_round = ["first1", "first2", "first3", "second2", "second3", "rich2"]
    assert game.state.vars["trace"] == one_round * 2     # skips last only for the round
    skips = events(game, "skip")
    assert [(e["player"], e["phase"], e["round"]) for e in skips] == [("P1", "second", 1), ("P1", "second", 2)]


def test_skip_and_when_in_turns():
    game, _ = play("skipping", 3, options=["in_turns"])
    one_round = ["first1", "first2", "second2", "rich2", "first3", "second3"]
    assert game.state.vars["trace"] == one_round * 2


# ---- victory ---------------------------------------------------------------------------------------------
def test_winner_checked_after_each_turn_ends_the_game_at_once():
    game, result = play("race")
    assert result.reason == "victory"
    assert result.winners == ["P1"]
    assert result.rounds == 2
    assert game.state.vars["trace"] == ["P1@1", "P2@1", "P1@2"]      # P2 never plays round 2
    assert [(r["player"], r["place"], r["keys"]) for r in result.ranking] == [("P1", 1, [4, -1]), ("P2", 2, [1, -2])]
    (end,) = events(game, "end")
    assert end["winners"] == ["P1"] and end["reason"] == "victory"


def test_finish_round_lets_the_round_complete():
    game, result = play("race", options=["finish_round"])
    assert game.state.vars["trace"] == ["P1@1", "P2@1", "P1@2", "P2@2"]
    assert result.winners == ["P1"] and result.rounds == 2 and result.reason == "victory"


def test_round_cap_from_victory_has_no_winner():
    game, result = play("race", options=["no_winner"])
    assert result.reason == "round cap"
    assert result.rounds == 3
    assert result.winners == []
    assert [r["player"] for r in result.ranking] == ["P1", "P2"]


def test_max_rounds_given_to_the_game_wins_over_the_rules():
    _, result = play("race", max_rounds=1)
    assert (result.reason, result.rounds, result.winners) == ("round cap", 1, [])


def test_game_over_then_rank_decides():
    game, result = play("race", options=["over"])
    assert result.reason == "victory" and result.rounds == 3
    assert [p.counters["score"] for p in game.state.players] == [6, 3]
    assert result.winners == ["P1"]
    assert [r["keys"] for r in result.ranking] == [[6], [3]]


def test_equal_ranks_share_the_win():
    _, result = play("race", options=["tie"])
    assert result.winners == ["P1", "P2"]


def test_end_game_statement():
    game, result = play("race", options=["stop"])
    assert result.reason == "ended by rule"
    assert result.rounds == 2
    assert game.state.vars["trace"] == ["P1@1", "P2@1", "P1@2"]


# ---- failures ----------------------------------------------------------------------------------------------
def test_fail_raises_illegal_action_with_its_span():
    game, err = failure("failing", exc=IllegalAction)
    assert isinstance(err, RuleError) and isinstance(err, CivError)
    d = diag(err)
    assert d.code == err.code == "RUN030"
    assert d.message == "you cannot act in round two"
    assert (d.span.line, d.span.col) == (line_of("failing", 'fail "you cannot'), 5)
    assert game.state.vars["ok"] is True and game.state.round == 2


@pytest.mark.parametrize("option, text, message", [
    ("bad_type", 'let y = x - "two"', None),
    ("bad_counter", 'player.score += "lots"', "counter `score` holds whole numbers, not a text"),
    ("divide", "return a / b", "division by zero"),
])
def test_runtime_errors_become_rule_errors_at_the_statement(option, text, message):
    _, err = failure("failing", options=[option])
    d = diag(err)
    assert d.code == "RUN001"
    assert (d.span.line, d.span.col) == (line_of("failing", text), 5)
    assert Path(d.span.file).parent.name == "failing"
    if message:
        assert d.message == message


def test_local_used_before_it_has_a_value():
    _, err = failure("failing", options=["unset"])
    d = diag(err)
    assert d.code == "RUN002" and "`later`" in d.message


@pytest.mark.parametrize("option", ["bad_when", "bad_order", "bad_winner", "bad_rank", "bad_invariant"])
def test_runtime_errors_outside_statements_are_rule_errors(option):
    game = new_game("failing", options=[option], check_invariants=True)
    with pytest.raises(RuleError) as caught:
        game.run()
    assert caught.value.code == "RUN001"


# ---- dice and tables ---------------------------------------------------------------------------------------
def test_forced_dice_and_table_lookups():
    game, _ = play("dice", 1, forced=[3, 4, 5, "green", 6])
    v = game.state.vars
    assert v["results"] == [3, 9, "green"]
    assert v["events_seen"] == ["boom", "calm", "famine", "nothing"]
    assert v["lookups"] == [9, 0, [1, 2, 3, 4, 5, 6]]
    assert game.state.forced_dice == []
    rolls = [(e["die"], e["faces"], e.get("table")) for e in events(game, "roll")]
    assert rolls == [("d6", [3], None), ("d6", [4, 5], None), ("colour", ["green"], None), ("d6", [6], "events")]


def test_forced_die_result_must_be_a_face():
    _, err = failure("dice", 1, forced=["blue"])
    d = diag(err)
    assert d.code == "RUN020"
    assert "blue" in d.message and "d6" in d.message


def test_seeded_rolls_repeat():
    a, _ = play("dice", 1, options=["many"], seed=5)
    b, _ = play("dice", 1, options=["many"], seed=5)
    assert a.state.vars["results"] == b.state.vars["results"]
    assert len(a.state.vars["results"]) == 3 and set(a.state.vars["results"]) <= set(range(1, 7))
    forced, _ = play("dice", 1, options=["many"], forced=[6, 1, 6])
    assert forced.state.vars["results"] == [6, 1, 6]


# ---- kinds and entities --------------------------------------------------------------------------------------
def test_entity_fields_and_kind_defaults():
    game, _ = play("things")
    assert game.state.vars["facts"] == [
        7, 5, [], "Pottery", 2, ["Pottery", "Writing"], "advance", None, "Pottery", "advance"]


def test_entity_blocks_with_this_and_return_values():
    game, _ = play("things")
    assert [p.counters["food"] for p in game.state.players] == [10, 10]     # Pottery.effect: this.cost
    assert game.state.vars["scores"] == [21, 22]                              # Writing.score: food * 2 + seat


# ---- maps -----------------------------------------------------------------------------------------------
def test_map_from_json_file():
    game, _ = play("mapped", options=["explore_only"])
    assert game.state.vars["facts"] == [["B", "C"], ["A"], ["B", "A"], ["A", "B", "C"], 2]
    assert set(game.state.maps) == {"board"}


def test_place_take_and_pieces():
    game, _ = play("mapped")
    assert game.state.vars["facts"][5:] == [3, 2, 1, 0, 0]
    assert [(e["type"], e["n"]) for e in game.events if e["type"] in ("place", "take")] == [
        ("place", 3), ("place", 1), ("take", 1)]


def test_pieces_counts_by_area_owner_and_kind():
    game = new_game("mapped", options=["count_only"])
    game.state.pieces.update({("A", 0, "token"): 2, ("A", 1, "ship"): 1, ("B", 1, "token"): 0})
    game.run()
    assert game.state.vars["facts"][5:] == [3, 2, 1, 0, 0]


def test_neutral_pieces_belong_to_no_player():
    game, _ = play("mapped", options=["neutral"])
    p1 = game.state.players[0]
    assert game.state.vars["facts"][5:] == [5, 3, [p1], [], ["A"], 3, 2]
    assert [(e["type"], e["owner"], e["n"]) for e in game.events if e["type"] in ("place", "take")] == [
        ("place", "P1", 2), ("place", "neutral", 3), ("place", "neutral", 1), ("take", "neutral", 1)]


def test_taking_more_pieces_than_there_are():
    _, err = failure("mapped", options=["overdraw"])
    d = diag(err)
    assert d.code == "RUN001"
    assert "only 0" in d.message
    assert d.span.line == line_of("mapped", 'take("B"')


def _map_ruleset(tmp_path, board_text: str | None) -> Path:
    folder = tmp_path / "rules" / "m"
    folder.mkdir(parents=True)
    (folder / "game.civ").write_text('game "M" { players: 1 }\nmap board from "board.json"\n'
                                     'phase p { log "x" }\nsequence { phases: p }\n', encoding="utf-8")
    if board_text is not None:
        (folder / "board.json").write_text(board_text, encoding="utf-8")
    return folder / "game.civ"


@pytest.mark.parametrize("board, code", [
    (None, "MAP001"),
    ("{not json", "MAP003"),
    ('{"areas": []}', "MAP004"),
    ('{"areas": {"A": {}}, "borders": [["A", "B", "land"]]}', "MAP006"),
    ('{"areas": {"A": {}, "B": {}}, "borders": [["A", "B", "air"]]}', "MAP005"),
])
def test_bad_map_files_are_diagnostics_at_the_map_declaration(tmp_path, board, code):
    entry = _map_ruleset(tmp_path, board)
    _, diags = compile_ruleset(load_ruleset(entry))
    assert [d.code for d in diags] == [code]
    assert diags[0].span.line == 2


# ---- decisions and agents --------------------------------------------------------------------------------
def test_scripted_agents_answer_by_value_or_index():
    game, _ = play("choices", agents=[ScriptedAgent(["blue"]), ScriptedAgent([{"index": 0}])])
    assert game.state.vars["picks"] == ["blue", "solo", "red", "solo"]
    decisions = [(e["player"], e["tag"], e["options"], e["choice"]) for e in events(game, "decision")]
    assert decisions == [("P1", "colour", 3, 2), ("P1", "only", 1, 0), ("P2", "colour", 3, 0), ("P2", "only", 1, 0)]


def test_greedy_agent_follows_the_heuristic():
    game, _ = play("choices", agents=[GreedyAgent(0, 1), GreedyAgent(0, 2)])
    assert game.state.vars["picks"] == ["green", "solo", "green", "solo"]


def test_random_agents_are_seeded():
    a, _ = play("choices", seed=11)
    b, _ = play("choices", seed=11)
    assert a.state.vars["picks"] == b.state.vars["picks"]
    assert set(a.state.vars["picks"][::2]) <= {"red", "green", "blue"}


def test_choice_without_options_is_a_rule_error():
    _, err = failure("choices", options=["nothing"])
    d = diag(err)
    assert d.code == "RUN021"
    assert d.span.line == line_of("choices", 'chooses "empty"')


def test_script_that_runs_out_of_answers():
    _, err = failure("choices", exc=CivError, agents=[ScriptedAgent([]), ScriptedAgent([])])
    assert [d.code for d in err.diagnostics] == ["AGT001"]


def test_script_answer_that_is_not_an_option():
    _, err = failure("choices", exc=CivError, agents=[ScriptedAgent(["purple"]), ScriptedAgent([])])
    assert [d.code for d in err.diagnostics] == ["AGT003"]


# ---- overlays: options, house rules, extends; tracks --------------------------------------------------------
def play_ruleset(rs, players: int = 2):
    prog, diags = compile_ruleset(rs)
    assert not [d for d in diags if d.severity == "error"], render_text(diags)
    game = Game(prog, players, 0, [RandomAgent(0, i) for i in range(players)])
    game.run()
    return game


def test_track_positions_clamp_to_its_spaces():
    game, _ = play("overlays")
    assert [p.counters["ages"] for p in game.state.players] == [2, 2]     # start 1, +5, capped at the last space
    assert game.state.vars["seen"][:4] == [2, "iron", 2, "iron"]


def test_base_option_house_rule_and_extending_edition():
    base = load_ruleset(RULESETS / "overlays" / "game.civ")
    assert play_ruleset(base).state.vars["seen"][4:] == [10, [11, 4]]
    short = load_ruleset(RULESETS / "overlays" / "game.civ", options=["short"])
    assert play_ruleset(short).state.vars["seen"][4:] == [5, [11, 4]]
    house = load_ruleset(RULESETS / "overlays" / "game.civ", house_rules=[str(RULESETS / "overlays" / "house.civ")])
    assert play_ruleset(house).state.vars["seen"][4:] == [3, [1, 4]]
    plus = load_ruleset(RULESETS / "overlays-plus" / "game.civ")
    assert play_ruleset(plus).state.vars["seen"][4:] == [20, [11, 3]]
    assert plus.edition() == "overlays"


def test_overlays_keep_provenance():
    rs = load_ruleset(RULESETS / "overlays-plus" / "game.civ")
    assert [(rs.display(span.file), span.line, what) for span, what in rs.history[("param", "goal")]] == [
        ("overlays/game.civ", line_of("overlays", "param goal = 10"), "defined"),
        ("overlays-plus/game.civ", line_of("overlays-plus", "replace param goal"), "replaced"),
    ]
    assert [what for _, what in rs.history[("card", "King")]] == ["defined", "removed"]
    assert ("card", "King") not in rs.decls


def test_unknown_option_suggests_the_closest():
    with pytest.raises(CivError) as caught:
        load_ruleset(RULESETS / "overlays" / "game.civ", options=["shrt"])
    (d,) = caught.value.diagnostics
    assert d.code == "CFG010" and "did you mean `short`?" in d.hint


def test_ruleset_digest_changes_with_the_rules():
    base = load_ruleset(RULESETS / "overlays" / "game.civ")
    again = load_ruleset(RULESETS / "overlays" / "game.civ")
    house = load_ruleset(RULESETS / "overlays" / "game.civ", house_rules=[str(RULESETS / "overlays" / "house.civ")])
    assert base.digest() == again.digest()
    assert base.digest() != house.digest()


def test_missing_sequence_names_the_file(tmp_path):
    from civdsl.tools.checker import check_paths
    for name in ("one", "two"):
        (tmp_path / name).mkdir()
        (tmp_path / name / "game.civ").write_text('game "G" { players: 1 }\nphase p { log "x" }\n',
                                                  encoding="utf-8")
    diags, _ = check_paths([str(tmp_path)])
    seq = [d for d in diags if d.code == "SEQ001"]
    assert len(seq) == 2
    assert all(d.span is not None and d.span.file.endswith("game.civ") for d in seq)


# ---- whole games ----------------------------------------------------------------------------------------------
def test_tiny_games_are_deterministic():
    a, ra = play("tiny", seed=3)
    b, rb = play("tiny", seed=3)
    assert a.events == b.events
    assert ra.to_json() == rb.to_json()
    assert ra.reason in ("victory", "round cap")


def test_every_test_ruleset_checks_clean():
    """All but `failing`, whose options hold the run-time errors other tests play: the type check finds
    each of those before a game starts, inside its option."""
    from civdsl.tools.checker import check_paths
    diags, nfiles = check_paths([str(RULESETS)])
    errors = [d for d in diags if d.severity == "error"]
    assert [d for d in errors if Path(d.span.file).parent.name != "failing"] == []
    assert nfiles >= 17
    lines = (RULESETS / "failing" / "game.civ").read_text().splitlines()
    options = [(i + 1, line.split()[1]) for i, line in enumerate(lines) if line.startswith("option ")]
    with_error = {next(name for at, name in reversed(options) if at < d.span.line) for d in errors}
    typed = {name for at, name in options if "type error" in lines[at - 1] or "A text" in lines[at - 1]}
    assert with_error == typed and len(typed) == 7
    assert {d.code for d in errors} <= {"TYP011", "TYP016"}


def test_piece_indexes_follow_every_change():
    from civdsl.engine.state import Pieces
    pc = Pieces({("A", 0, "token"): 2, ("B", 0, "token"): 1, ("B", 1, "city"): 1})
    assert pc.areas_of(0, "token") == ["A", "B"] and pc.areas_of(1) == ["B"]
    assert pc.owners_at("B") == [0, 1] and pc.owners_at("B", "city") == [1]
    assert pc.occupied() == ["A", "B"] and pc.occupied("city") == ["B"]
    assert pc.total(0, "token") == 3 and pc.total(1) == 1
    pc[("B", 0, "token")] = 0
    assert pc.areas_of(0, "token") == ["A"] and pc.owners_at("B") == [1] and pc.total(0) == 2
    pc[("B", 1, "city")] = 0
    assert pc.occupied() == ["A"] and pc.at("B") == 0
    assert pc.items() == [(("A", 0, "token"), 2)]


def _program_of(tmp_path, rules: str, files: dict[str, str] | None = None):
    """Compile a one-file ruleset `rules` (with data `files` beside it) written under tmp_path."""
    from civdsl.api import compile_entry
    folder = tmp_path / "rules" / "g"
    folder.mkdir(parents=True)
    for name, text in (files or {}).items():
        (folder / name).write_text(text, encoding="utf-8")
    (folder / "game.civ").write_text(rules, encoding="utf-8")
    return compile_entry(folder / "game.civ")


def test_placing_on_an_area_no_map_has_is_an_error(tmp_path):
    prog = _program_of(tmp_path, 'game "M" { players: 1 }\nmap board from "board.json"\n'
                       'phase p { order: once  place("Thebez", player_at(1), "token", 1) }\n'
                       'sequence { phases: p }\nvictory { max_rounds: 1 }\n',
                       {"board.json": '{"areas": {"Thebes": {}, "Memphis": {}}}'})
    game = Game(prog, 1, 0, [RandomAgent(0, 1)])
    with pytest.raises(CivError) as exc:
        game.run()
    assert "no map has an area \"Thebez\"" in exc.value.diagnostics[0].message
    assert "did you mean \"Thebes\"" in exc.value.diagnostics[0].message


def test_constants_follow_the_number_of_players_when_a_program_is_reused(tmp_path):
    """Dice, tables, things' fields and counter bounds may use parameters that use `num_players`: a
    program reused for games of other sizes evaluates them again (never the first game's values)."""
    prog = _program_of(tmp_path,
        'game "G" { players: 1..4 }\nparam seats = num_players * 10\n'
        'table by_seats { 10: "one"  20: "two"  30: "three"  40: "four" }\ndie spread = 1..num_players\n'
        'kind thing { size: int }\nthing "T" { size: seats + 1 }\nplayer counter gold in 0..seats = 999\n'
        'global var seen = []\n'
        'phase p { order: once  seen = ["T".size, by_seats[seats], spread.faces, player_at(1).gold] }\n'
        'sequence { phases: p }\nvictory { max_rounds: 1 }\n')
    seen = []
    for n in (2, 3, 2):
        game = Game(prog, n, 0, [RandomAgent(0, i) for i in range(n)])
        game.run()
        seen.append(game.state.vars["seen"])
    assert seen == [[21, "two", [1, 2], 20], [31, "three", [1, 2, 3], 30], [21, "two", [1, 2], 20]]
