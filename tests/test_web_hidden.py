"""No response a seat receives shows another seat's hidden cards. Two people (hot-seat) and an agent play
Avalon Hill 1981 into its trade rounds (hands, offers and bids are `visible to owner`, the trade-card
stacks `visible to hidden`); every page, JSON state, status and answer response of each person's seat is
read while the game is paused and searched for the name of any card that seat cannot know about.

"Cannot know about" is worked out from the library, not from the page: the names held in zones the seat
may not see, less every name that appears anywhere the seat may legitimately read (its masked
observation, its masked log, a spectator's view of the table, its own options), so a card named in
public narration or printed on the board is not counted as a leak."""
from __future__ import annotations

import functools
import json
import re
import time

from web_fixtures import start, test_client

from civdsl.engine.agents import HeuristicAgent
from civdsl.engine.builtins import fmt
from civdsl.engine.views import seat_view
from civdsl.interfaces.web.app import make_app
from civdsl.language.diagnostics import CivError

AH = "avalon-hill-1981"
SEED = 3
ROUNDS = 8  # trade begins in round 7 with these players


def secrets_of(game, seat: int) -> set[str]:
    """Names of the items the player at `seat` may not see: other players' hidden zones, the hidden global
    zones, and their own zones hidden even from them."""
    sight, players = game.sight, game.state.players
    viewer = players[seat]
    items = [i for name in sight.global_zones for i in game.state.zones.get(name, [])]
    for p in players:
        for name in sight.hidden_zones(p, viewer):
            items += p.zones.get(name, [])
    return {fmt(i) for i in items if i is not None}


def known_to(game, live, seat: int, seen: list[str]) -> str:
    """Everything the seat may read, as one text (`seen`: its masked log so far, extended here)."""
    names = [p.name for p in game.state.players]
    player = game.state.players[seat]
    if len(seen) > len(game.events):  # (cannot happen at a pause; start again if it did)
        seen.clear()
    seen += [json.dumps(ev) for ev in game.sight.seat_events(game.events[len(seen):], names[seat], names)]
    parts = [json.dumps(game.observation(player)), "\n".join(seen), view_text(game, None)]
    if live.pending is not None and live.pending.seat == seat:
        parts.append(json.dumps(live.pending.labels))
    return "\n".join(parts)


def view_text(game, seat: int | None, reveal: bool = False) -> str:
    """A seat's views as text; empty where a view's rule fails at this moment (the page then shows none)."""
    try:
        return json.dumps(seat_view(game, seat, reveal))
    except CivError:
        return ""


@functools.lru_cache(maxsize=None)
def _word(name: str) -> re.Pattern:
    return re.compile(r"(?<![\w-])" + re.escape(name) + r"(?![\w-])")


def named(name: str, text: str) -> bool:
    """Whether `text` names `name` as a word (not inside a longer one)."""
    return name in text and _word(name).search(text) is not None


class Checker:
    """Reads every response of every person's seat, each against what that seat may know at that moment."""

    def __init__(self, live):
        self.live = live
        self.responses = 0
        self.with_secrets = 0  # responses checked while the seat had unknowable cards to leak
        self.revealed_would_leak = 0  # a page built from the unmasked view would have leaked (the check works)
        self.cache: dict = {}  # (version, events, seat) -> forbidden names: the game is paused between them
        self.seen: dict[int, list[str]] = {}
        self.controls: dict = {}

    def forbidden(self, seat: int) -> set[str]:
        with self.live.paused() as game:
            moment = (self.live.version, len(game.events), seat)
            if moment not in self.cache:
                known = known_to(game, self.live, seat, self.seen.setdefault(seat, []))
                self.cache = {k: v for k, v in self.cache.items() if k[:2] == moment[:2]}
                self.cache[moment] = {n for n in secrets_of(game, seat) if not named(n, known)}
            return self.cache[moment]

    def check(self, seat: int, response) -> None:
        assert response.status_code in (200, 303), response.text[:500]
        text = response.text
        bad = self.forbidden(seat)
        self.responses += 1
        if bad:
            self.with_secrets += 1
            leaked = sorted(n for n in bad if named(n, text))
            assert not leaked, f"P{seat + 1} was sent {leaked}, which it may not see: {response.url}"
            moment = (self.live.version, seat)
            if moment not in self.controls:  # (once a moment: what an unmasked view would have shown)
                with self.live.paused() as game:
                    revealed = view_text(game, seat, reveal=True)
                self.controls[moment] = any(named(n, revealed) for n in bad)
                self.revealed_would_leak += self.controls[moment]


def heuristic_choice(live, seat: int) -> int:
    """What the heuristic agent would answer (the people of this test play sensibly, to reach the trade)."""
    with live.paused() as game:
        return HeuristicAgent(SEED, seat + 1).choose(game._deciding)


def test_no_response_shows_another_seats_hidden_cards(tmp_path):
    app = make_app(str(tmp_path / "data"))
    with test_client(app) as client:
        _, tokens = start(client, AH, ["human", "human", "heuristic"], seed=SEED, max_rounds=ROUNDS)
        live = next(iter(app.state.games.live.values()))
        checker = Checker(live)
        trade_tags = set()
        cycles = 0
        while True:
            states = []
            for seat, token in enumerate(tokens):
                r = client.get(f"/api/seat/{token}")
                checker.check(seat, r)
                states.append(r.json())
                checker.check(seat, client.get(f"/seat/{token}/status"))
            if states[0]["status"] in ("moving", "starting"):
                time.sleep(0.02)
                continue
            if states[0]["status"] != "waiting":
                break
            seat = next(i for i, s in enumerate(states) if s["decision"])
            decision = states[seat]["decision"]
            if decision["tag"] in ("make offer", "answer offer", "offer card", "accept counter-offer"):
                trade_tags.add(decision["tag"])
            if cycles % 3 == 0 or decision["tag"] in trade_tags:  # the full page (the board is the slow part)
                for other, token in enumerate(tokens):
                    checker.check(other, client.get(f"/seat/{token}"))
            r = client.post(f"/seat/{tokens[seat]}/answer", data={"n": decision["n"],
                                                                  "choice": heuristic_choice(live, seat)},
                            follow_redirects=False)
            checker.check(seat, r)
            checker.check(seat, client.get(r.headers["location"]))
            cycles += 1
        assert states[0]["status"] == "finished", states[0]["error"]
        for seat, token in enumerate(tokens):
            checker.check(seat, client.get(f"/seat/{token}"))
    assert trade_tags >= {"make offer", "answer offer"}, "the people never traded: the test lost its point"
    assert checker.with_secrets > 200 and checker.revealed_would_leak > 20, vars(checker)
