"""Avalon Hill 1981, the trade phase (16, 15.5, 19.3, 19.4, 22.2.2): offers of at least 3 secret cards
announced truly (number, set value, one commodity), counter-offers, deals between two players, brown
calamities passed on in trade, and no card ever seen by another player or lost."""
from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

from civdsl.api import load_program
from civdsl.engine.agents import HeuristicAgent, RandomAgent
from civdsl.engine.interpreter import Game
from civdsl.engine.values import field_value
from civdsl.tools.scenario import _run, build_game, load_scenario

ROOT = Path(__file__).resolve().parent.parent
SCENARIOS = ROOT / "rulesets" / "avalon-hill-1981" / "scenarios"
TRADE_TAGS = {"make offer", "offer card", "name commodity", "answer offer", "accept counter-offer"}
SECRET_ZONES = ("hand", "offer", "bid")        # a player's trade cards: shown to others as sizes only
CARD_ZONES = ("hand", "offer", "bid", "calamities")
STACKS = [f"stack{s}" for s in range(1, 10)]

OFFER = re.compile(r"^trade round \d+: (P\d+) offers (\d+) cards worth (\d+) including (.+)$")
ANSWER = re.compile(r"^(P\d+) answers (P\d+) with (\d+) cards worth (\d+) including (.+)$")
ACCEPT = re.compile(r"^(P\d+) accepts the counter-offer of (P\d+): (\d+) cards for (\d+)$")
RECEIVES = re.compile(r"^(P\d+) receives (.+) in trade from (P\d+)$")


@pytest.fixture(scope="module")
def prog():
    program = load_program("avalon-hill-1981")
    Game(program, 7, 0, [RandomAgent(0, i) for i in range(1, 8)]).init()   # evaluates the things' fields
    return program


def entity(prog, name):
    return prog.entities[name]


def field(prog, name, key):
    return field_value(entity(prog, name).fields[key])


def set_value(prog, cards) -> int:
    """17.4: n cards of one commodity are worth n × n × its value; calamities nothing (16.6)."""
    total = 0
    for card, n in Counter(cards).items():
        ent = entity(prog, card)
        if ent.kind == "commodity":
            total += n * n * field(prog, card, "value")
    return total


def full_deck(prog) -> Counter:
    deck = Counter()
    for name, ent in prog.entities.items():
        if ent.kind == "commodity":
            deck[name] += field(prog, name, "count")
        elif ent.kind == "calamity":
            deck[name] += 1
    return deck


def cards_in_play(game) -> Counter:
    st = game.state
    seen = Counter()
    for s in STACKS:
        seen.update(st.zones[s])
    for p in st.players:
        for z in CARD_ZONES:
            seen.update(p.zones[z])
    return seen


def owner(zone: str) -> str:
    return zone.split(".")[0]


class Inspector(RandomAgent):
    """A random agent that checks, at every trade decision, what its player is shown and that no trade
    card was created or lost."""

    def __init__(self, seed, seat, prog, record):
        super().__init__(seed, seat)
        self.prog = prog
        self.deck = full_deck(prog)
        self.record = record

    def choose(self, decision):
        if decision.tag in TRADE_TAGS:
            self.record["decisions"] += 1
            obs = decision.observation()
            me = decision.player
            assert obs["you"] == me.seat
            for pdata in obs["players"]:
                for z in SECRET_ZONES:
                    zone = pdata["zones"][z]
                    if pdata["seat"] == me.seat:
                        assert zone == list(me.zones[z])
                    else:
                        assert isinstance(zone, dict) and zone == {"hidden": True, "count": zone.get("count")}, \
                            f"{me.name} sees P{pdata['seat']}'s {z}: {zone}"
            # the announcements show numbers and the named commodity, never the cards
            for a in ([obs["vars"]["open_offer"]] if obs["vars"]["open_offer"] else []) + obs["vars"]["counter_offers"]:
                assert set(a) == {"label", "who", "answers", "cards", "value", "names"}
                assert entity(self.prog, a["names"]).kind == "commodity"
            assert cards_in_play(decision.game) == self.deck
        return super().choose(decision)


def play(prog, seed, rounds, agent_class=None):
    record = {"decisions": 0}
    agents = [Inspector(seed, i, prog, record) if agent_class is None else agent_class(seed, i) for i in range(1, 8)]
    game = Game(prog, 7, seed, agents, max_rounds=rounds, check_invariants=True)
    game.run()
    return game, record


@pytest.fixture(scope="module")
def inspected(prog):
    return play(prog, 3, 40)


# ---- (a) hidden information --------------------------------------------------------------------------------
def test_trade_decisions_show_only_own_cards_and_announcements(inspected):
    game, record = inspected
    assert record["decisions"] > 100   # the checks really ran, on many trade decisions
    assert any(e["type"] == "log" and ACCEPT.match(e["text"]) for e in game.events)


def test_log_narration_never_names_hidden_cards(inspected, prog):
    game, _ = inspected
    for e in game.events:
        if e["type"] == "log" and e.get("rule", "").startswith("civ-core/trade.civ"):
            text = e["text"]
            m = OFFER.match(text) or ANSWER.match(text)
            if m:
                continue   # the one commodity named is a true public statement (16.3)
            if RECEIVES.match(text):
                continue   # a calamity passed in trade is revealed, face up (22.2.2)
            assert ACCEPT.match(text) or text.endswith("refuses every counter-offer"), text


# ---- (b) deals: at least 3 cards each way, announced truly ---------------------------------------------------
def deals(game):
    """Each accepted deal: (offerer, answerer, offer announcement, answer announcement, cards the offerer
    gave, cards the answerer gave), from the log and the moves that follow the acceptance."""
    out = []
    offer = {}
    answer = {}
    events = game.events
    for i, e in enumerate(events):
        if e["type"] != "log":
            continue
        if m := OFFER.match(e["text"]):
            offer[m[1]] = (int(m[2]), int(m[3]), m[4])
        elif m := ANSWER.match(e["text"]):
            answer[(m[1], m[2])] = (int(m[3]), int(m[4]), m[5])
        elif m := ACCEPT.match(e["text"]):
            p, q = m[1], m[2]
            gave = {p: [], q: []}
            for f in events[i + 1:]:
                if f["type"] in ("decision", "phase") or (f["type"] == "log" and not RECEIVES.match(f["text"])):
                    break
                if f["type"] == "move" and owner(f["source"]) != owner(f["to"]):
                    assert f["source"] in (f"{p}.offer", f"{q}.bid")
                    gave[owner(f["source"])].append(f["item"])
            out.append((p, q, offer[p], answer[(q, p)], gave[p], gave[q]))
    return out


def test_every_deal_moves_the_announced_cards(inspected, prog):
    game, _ = inspected
    found = deals(game)
    assert found
    for p, q, (n, v, named), (m, w, named2), from_p, from_q in found:
        assert len(from_p) == n >= 3 and len(from_q) == m >= 3
        assert set_value(prog, from_p) == v and set_value(prog, from_q) == w
        assert named in from_p and named2 in from_q
        assert entity(prog, named).kind == entity(prog, named2).kind == "commodity"


def test_cards_change_hands_only_in_accepted_deals(inspected):
    game, _ = inspected
    phase = None
    dealt = sum(len(d[4]) + len(d[5]) for d in deals(game))
    crossing = 0
    for e in game.events:
        if e["type"] == "phase":
            phase = e["phase"]
        elif e["type"] == "move" and phase == "trade":
            src, dst = e["source"], e["to"]
            if "." in src and "." in dst and owner(src) != owner(dst):
                crossing += 1
    assert crossing == dealt


# ---- (c) brown calamities ----------------------------------------------------------------------------------
def test_scenario_epidemic_lands_in_front_of_the_receiver(prog):
    sc = load_scenario(str(SCENARIOS / "trade-epidemic-passed.yaml"))
    game = build_game(sc)
    _run(game, sc)
    p1, p2 = game.state.players[:2]
    assert list(p2.zones["calamities"]) == ["Epidemic"]
    assert p2.vars["traded_by"] == {"Epidemic": p1}
    assert all("Epidemic" not in p.zones[z] for p in game.state.players for z in ("hand", "offer", "bid"))


def deal_from_stacks(game, seat, cards):
    """Give a player cards taken from the stacks, so that no card is created."""
    p = game.state.players[seat - 1]
    for c in cards:
        stack = next(s for s in STACKS if c in game.state.zones[s])
        game.state.zones[stack].remove(c)
        p.zones["hand"].append(c)


@pytest.mark.parametrize("agent_class", [HeuristicAgent, RandomAgent], ids=["heuristic", "random"])
def test_brown_calamity_passed_in_trade_strikes_the_receiver(prog, agent_class):
    passed = 0
    for seed in range(6):
        game = Game(prog, 7, seed, [agent_class(seed, i) for i in range(1, 8)], check_invariants=True)
        game.start()
        for p in game.state.players:
            p.zones["hand"].clear()
        deal_from_stacks(game, 1, ["Epidemic", "Ochre", "Hides", "Salt", "Salt"])
        deal_from_stacks(game, 2, ["Ochre", "Ochre", "Hides", "Iron"])
        deal_from_stacks(game, 3, ["Grain", "Cloth", "Papyrus", "Iron"])
        deal_from_stacks(game, 4, ["Piracy", "Hides", "Salt"])
        deck = cards_in_play(game)
        game.events.clear()
        game.run_phase("trade", None)
        assert cards_in_play(game) == deck
        for e in game.events:
            if e["type"] == "log" and (m := RECEIVES.match(e["text"])):
                receiver, card, giver = m[1], m[2], m[3]
                r = next(p for p in game.state.players if p.name == receiver)
                assert card in r.zones["calamities"] and r.vars["traded_by"][card].name == giver
                passed += 1
        for p in game.state.players:
            for c in p.zones["calamities"]:
                # 19.3: a calamity received is never traded on: it stays in front of its receiver
                assert p.vars["traded_by"][c].name != p.name
            assert not p.zones["offer"] and not p.zones["bid"]
            assert all(entity(prog, c).kind == "commodity" or field(prog, c, "tradeable")
                       for c in p.zones["hand"])
    assert passed > 0


# ---- (d) conservation ----------------------------------------------------------------------------------------
def test_trade_cards_are_conserved_in_heuristic_games(prog):
    deck = full_deck(prog)
    game = Game(prog, 7, 3, [HeuristicAgent(3, i) for i in range(1, 8)], max_rounds=40, check_invariants=True)
    original = game.run_phase
    checked = []

    def run_phase(name, only):
        original(name, only)
        if name == "trade":
            assert cards_in_play(game) == deck
            assert all(not p.zones["offer"] and not p.zones["bid"] for p in game.state.players)
            checked.append(game.state.round)

    game.run_phase = run_phase
    game.run()
    assert len(checked) >= 10
    assert any(e["type"] == "log" and ACCEPT.match(e["text"]) for e in game.events)   # heuristics do trade


def test_a_player_with_two_cards_is_never_asked(prog):
    sc = load_scenario(str(SCENARIOS / "trade-too-few-cards.yaml"))
    game = build_game(sc)
    _run(game, sc)
    asked = {e["player"] for e in game.events if e["type"] == "decision"}
    assert "P1" not in asked and {"P2", "P3"} <= asked
