"""No observation given to a player shows another player's hidden cards or the random stream, and no
heuristic reads more than its player may see."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from one_file import one_file_edition

from civdsl.api import allowed_players, compile_entry
from civdsl.engine.agents import HeuristicAgent, RandomAgent, ScriptedAgent
from civdsl.engine.interpreter import Game
from civdsl.engine.visibility import visibility_of
from civdsl.language.diagnostics import CivError
from civdsl.language.editions import list_editions

ROOT = Path(__file__).resolve().parent.parent
ENTRIES = sorted(list_editions().values()) + [ROOT / "tests" / "data" / "rulesets" / "tiny" / "game.civ"]


class Spy(RandomAgent):
    """A random agent that keeps every observation it is given."""

    def __init__(self, seed, seat, seen):
        super().__init__(seed, seat)
        self.seen = seen

    def choose(self, decision):
        self.seen.append((decision.player, decision.observation()))
        return super().choose(decision)


@pytest.mark.parametrize("entry", ENTRIES, ids=lambda p: p.parent.name)
def test_observations_hide_what_others_hold(entry):
    prog = compile_entry(entry)
    counts = allowed_players(prog.ruleset) or [1]
    players = max(counts[:3])
    hidden = {name for (scope, name), vis in prog.zones.items() if scope == "player" and vis != "all"}
    global_hidden = {name for (scope, name), vis in prog.zones.items() if scope == "global" and vis != "all"}
    for seed in range(3):
        seen: list = []
        game = Game(prog, players, seed, [Spy(seed, i, seen) for i in range(1, players + 1)], max_rounds=8)
        game.run()
        for viewer, obs in seen:
            text = json.dumps(obs)
            assert '"rng' not in text and '"seed"' not in text
            for name in global_hidden:
                assert obs["zones"][name].get("hidden") is True
            for pdata in obs["players"]:
                for name in hidden:
                    zone = pdata["zones"][name]
                    if pdata["seat"] == viewer.seat and prog.zones[("player", name)] == "owner":
                        assert isinstance(zone, list)
                    else:
                        assert zone == {"hidden": True, "count": zone["count"]}


def test_tiny_game_really_has_hidden_cards_to_hide():
    prog = compile_entry(ROOT / "tests" / "data" / "rulesets" / "tiny" / "game.civ")
    assert prog.zones[("player", "hand")] == "owner"


# ---- the heuristic agent sees what its player sees -----------------------------------------------------
PEEK = ROOT / "tests" / "data" / "agents" / "peek" / "game.civ"


def peek_game(agents=None, options=None, seed: int = 0) -> Game:
    """P1 holds Wood, P2 three Stone, P3 the only Gold (hands `visible to owner`); the deck (`visible to
    hidden`) is Gem, Gold from the top."""
    from civdsl.compiler.compiler import compile_ruleset
    from civdsl.language.loader import load_ruleset
    if options:
        prog, diags = compile_ruleset(load_ruleset(PEEK, root=PEEK.parent.parent, options=options))
        assert not [d for d in diags if d.severity == "error"], diags
    else:
        prog = compile_entry(PEEK)
    agents = agents if agents is not None else [HeuristicAgent(seed, i) for i in range(1, 4)]
    return Game(prog, 3, seed, agents)


def hands(game: Game) -> list[list]:
    return [list(p.zones["hand"]) for p in game.state.players]


def test_heuristic_scores_read_sizes_not_cards_of_other_hands():
    game = peek_game()
    game.start()
    p1, p2, p3 = game.state.players
    # Read as the rules are, the heuristic would rob P3 for the Gold: 10 * 1 + 1 against P2's 3 Stone.
    assert [game.score_option(p1, "steal from", o) for o in (p2, p3)] == [3, 11]
    # In P1's view the Gold is not there, but the hand sizes are: 3 against 1.
    assert game.score_options(p1, "steal from", [p2, p3]) == [3, 1]
    # The hidden deck's top card is not readable either (Gem on top would make drawing worth 1) ...
    assert game.score_option(p1, "draw?", "draw") == 1
    assert game.score_options(p1, "draw?", ["pass", "draw"]) == [0, 0]
    # ... while the deciding player's own hand is: P1 holds one Wood, P3 one Gold.
    assert game.score_options(p1, "keep", ["Wood", "Gold"]) == [1, 0]
    assert game.score_options(p3, "keep", ["Wood", "Gold"]) == [0, 1]
    assert hands(game) == [["Wood"], ["Stone"] * 3, ["Gold"]]
    assert game.state.zones["deck"] == ["Gem", "Gold"]


def test_scoring_view_blanks_hidden_zones_and_restores_the_same_lists():
    game = peek_game()
    game.start()
    p1, p2, p3 = game.state.players
    lists = [p.zones["hand"] for p in game.state.players] + [game.state.zones["deck"]]
    with game.scoring_view(p1):
        assert p1.zones["hand"] == ["Wood"]            # own `owner` zone: as it is
        assert p2.zones["hand"] == [None, None, None]  # others': the size only
        assert p3.zones["hand"] == [None]
        assert game.state.zones["deck"] == [None, None]  # `hidden`: nobody sees it
        # what the observation of the same player shows, no more and no less
        obs = game.observation(p1)
        assert obs["players"][1]["zones"]["hand"] == {"hidden": True, "count": 3}
    assert hands(game) == [["Wood"], ["Stone"] * 3, ["Gold"]]
    assert game.state.zones["deck"] == ["Gem", "Gold"]
    now = [p.zones["hand"] for p in game.state.players] + [game.state.zones["deck"]]
    assert all(a is b for a, b in zip(lists, now))  # the very same list objects, refilled
    with pytest.raises(RuntimeError):  # a failure inside the view still restores everything
        with game.scoring_view(p2):
            assert p2.zones["hand"] == ["Stone"] * 3 and p1.zones["hand"] == [None]
            raise RuntimeError("boom")
    assert hands(game) == [["Wood"], ["Stone"] * 3, ["Gold"]]
    assert game.state.zones["deck"] == ["Gem", "Gold"]


def test_heuristic_agent_plays_without_peeking():
    game = peek_game()
    result = game.run()
    decisions = {e["tag"]: e["value"] for e in game.events if e["type"] == "decision"}
    # sizes only: rob the bigger hand (P2), do not draw blind, keep the Stone P1 now holds
    assert decisions == {"steal from": "P2", "draw?": "pass", "keep": "Stone"}
    assert hands(game) == [["Wood", "Stone"], ["Stone", "Stone"], ["Gold"]]
    assert game.state.zones["deck"] == ["Gem", "Gold"]
    assert game.state.vars["stolen"] == "Stone"
    assert result.rounds == 1


def test_heuristic_games_replay_identically_and_log_no_masking():
    first = peek_game()
    first.run()
    again = peek_game()
    again.run()
    assert first.events == again.events
    # the same decisions given by a script: the very same log, so scoring left no trace in the game
    answers = {}
    for e in first.events:
        if e["type"] == "decision" and e["options"] > 1:
            answers.setdefault(e["player"], []).append({"index": e["choice"]})
    scripted = peek_game(agents=[ScriptedAgent(answers.get(f"P{i}", [])) for i in range(1, 4)])
    scripted.run()
    assert scripted.events == first.events
    assert "null" not in json.dumps([e for e in first.events if e["type"] in ("add", "move", "remove")])


def test_a_failing_heuristic_is_a_diagnostic_and_leaves_the_hands_intact():
    game = peek_game(options=["nosy"])  # `len(option.hand[1])`: the victim's first card reads as none
    with pytest.raises(CivError) as caught:
        game.run()
    [d] = caught.value.diagnostics
    assert d.code == "RUN001"
    assert 'heuristic "steal from" failed for option P2' in d.message
    assert d.span.line == PEEK.read_text(encoding="utf-8").splitlines().index(
        '  replace heuristic "steal from" = len(option.hand[1])') + 1
    assert "read as none" in d.hint
    assert hands(game) == [["Wood"], ["Stone"] * 3, ["Gold"]]
    assert game.state.zones["deck"] == ["Gem", "Gold"]


def test_observations_never_show_another_players_hand():
    seen: list = []

    class Watcher(HeuristicAgent):
        def choose(self, decision):
            seen.append((decision.player, decision.observation()))
            return super().choose(decision)

    game = peek_game(agents=[Watcher(0, i) for i in range(1, 4)])
    game.run()
    assert seen and all(viewer.seat == 1 for viewer, _ in seen)
    for viewer, obs in seen:
        text = json.dumps(obs)
        assert "Gold" not in text and "Gem" not in text  # P3's card and the deck's cards
        assert obs["players"][2]["zones"]["hand"] == {"hidden": True, "count": 1}
        assert obs["zones"]["deck"] == {"hidden": True, "count": 2}
        assert "Wood" in json.dumps(obs["players"][0]["zones"]["hand"])  # P1's own hand is shown


def test_a_random_pick_from_a_hidden_hand_is_blanked_in_every_seat_log(tmp_path):
    """`random_pick` logs what it picked but not where from: in a game that hides anything, a seat's log
    never shows it (it may be another player's hidden card)."""
    text = (ROOT / "tests" / "data" / "rulesets" / "tiny" / "game.civ").read_text() + '''
phase steal "Steal" {
  let victims = [q for q in players where q != player and len(q.hand) > 0]
  if len(victims) > 0 {
    let card = random_pick(first(victims).hand)
    move card from first(victims).hand to player.hand
  }
}
sequence { phases: race, steal }
'''
    prog = compile_entry(one_file_edition(tmp_path, text.replace("sequence { phases: race }\n", "")))
    game = Game(prog, 3, 4, [RandomAgent(4, i) for i in range(1, 4)], max_rounds=30)
    game.run()
    picks = [ev for ev in game.events if ev["type"] == "random"]
    assert picks and all(ev["picked"] in ("One", "Two") for ev in picks)
    names = [p.name for p in game.state.players]
    for seat in names:
        for ev in visibility_of(prog).seat_events(picks, seat, names):
            assert ev["picked"] is None and ev["among"] >= 1
