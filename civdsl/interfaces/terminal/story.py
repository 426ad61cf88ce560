"""The story of a game at the terminal: after each round a table of the players — by their names in the
game (a nation, a civilization) — with the round's changes, and the round's headlines under it (the
ruleset's `headline` lines for the measurements its rules took); at the end one sentence that says who won
and why, citing the victory rule. The rows come from the ruleset's `victory { summary: }`, the names from
its views (`label:`), the reasons from `victory { why: }`: nothing here knows a game."""
from __future__ import annotations

from rich.table import Table
from rich.text import Text

from ...engine.views import seat_view
from .look import Look, show

MAX_HEADLINES = 12  # lines under one round's table; the rest are counted ("… and 5 more")


class Story:
    """Told round by round (`round`, the game's `on_round`), then `ending(result)`."""

    def __init__(self, game, look: Look):
        self.game = game
        self.look = look
        self.before: dict[str, dict] = {}  # each player's summary row at the end of the last round
        self.told = 0  # measurements already looked at for headlines
        self.labels: dict[str, str | None] = {}

    def names(self) -> dict[str, str | None]:
        """Each player's name in the game (its views' `label`), looked up again while they may change."""
        if not self.labels or any(v is None for v in self.labels.values()):
            self.labels = {p["name"]: p["label"] for p in seat_view(self.game, None)["players"]}
        return self.labels

    def who(self, player: str) -> str:
        label = self.names().get(player)
        return f"{label} ({player})" if label and label != player else player

    def headlines(self) -> list[str]:
        """The headlines of the measurements taken since the last call."""
        measures = self.game.measures
        lines = [m["headline"] for m in measures[self.told:] if m.get("headline")]
        self.told = len(measures)
        return lines

    def round(self, n: int, rows: list[dict]) -> None:
        look = self.look
        if not rows:  # a ruleset without a round summary: the headlines alone
            lines = self.headlines()
            if lines:
                look.print(Text(f"round {n}", style=look.style("bold")))
                self._headlines(lines)
            return
        labels = self.names()
        fields = [k for k in rows[0] if k != "player"] if rows else []
        fields = [f for f in fields if not all(r.get(f) == labels.get(r["player"]) for r in rows)]  # the name again
        table = Table(box=None if look.plain else look.box, show_edge=not look.plain, pad_edge=False,
                      header_style=look.style("bold"), title=None)
        table.add_column(f"round {n}")
        for f in fields:
            numeric = all(isinstance(r.get(f), (int, float)) and not isinstance(r.get(f), bool) for r in rows)
            table.add_column(f.replace("_", " "), justify="right" if numeric else "left")
        for r in rows:
            old = self.before.get(r["player"], {})
            table.add_row(Text(self.who(r["player"])), *[Text(_with_change(r.get(f), old.get(f))) for f in fields])
        look.print(table)
        self._headlines(self.headlines())
        self.before = {r["player"]: r for r in rows}

    def _headlines(self, lines: list[str]) -> None:
        for line in lines[:MAX_HEADLINES]:
            self.look.print(Text(f"  • {line}"))
        if len(lines) > MAX_HEADLINES:
            self.look.print(Text(f"  … and {len(lines) - MAX_HEADLINES} more"))

    def quietly(self, rows: list[dict]) -> None:
        """A round played again (a resumed or undone game) before the moment to go on from: nothing is
        told, but the next round's changes are counted from it."""
        self.headlines()
        self.before = {r["player"]: r for r in rows}

    def ending(self, result) -> None:
        """One sentence: who won, in which round, why (the ruleset's `why`), and the victory rule."""
        self.look.print(Text(ending_sentence(self.game, result, self.who), style=self.look.style("bold")))


def ending_sentence(game, result, who=None) -> str:
    """`Winner: the North (P2), in round 26: first to the end of the track (rule 33) — game.civ:37`."""
    labels = result.labels or {}
    who = who or (lambda name: f"{labels[name]} ({name})" if labels.get(name) not in (None, "", name) else name)
    if not result.winners:
        return "No winner."
    names = " and ".join(who(w) for w in result.winners)
    reasons = sorted({result.why[w] for w in result.winners if result.why.get(w)})
    why = f": {'; '.join(reasons)}" if reasons else ""
    span = game._victory_span("winner") or game._victory_span("game_over") or game._victory_span("rank")
    rule = f" — {game.where(span)}" if span is not None else ""
    return f"Winner: {names}, in round {result.rounds}{why}{rule}"


def _with_change(value, old) -> str:
    """`5 (+2)`: a number with its change since the last round; anything else as it reads."""
    if isinstance(value, (int, float)) and not isinstance(value, bool) and isinstance(old, (int, float)) \
            and not isinstance(old, bool) and value != old:
        return f"{show(value)} ({value - old:+g})"
    return show(value)
