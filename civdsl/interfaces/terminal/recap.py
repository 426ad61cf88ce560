"""What a human seat is told before each decision: what happened since its last one — the headlines
first, then the other players' narration phase by phase, every change to the seat's own counters and
zones (`disasters 0 → 2`), and every decision answered for it because it had a single option. Read from
the game's log as the seat may read it (`Visibility.seat_events`), so it never tells a secret."""
from __future__ import annotations

from ...engine.builtins import fmt

MAX_LINES_PER_PHASE = 6  # narration lines shown for one phase; the rest are counted


class Recap:
    """Follows one seat through a game's log; `since(game)` gives the lines since the last call."""

    def __init__(self, seat: str):
        self.seat = seat
        self.events = 0
        self.measures = 0

    def since(self, game) -> list[str]:
        events = game.events[self.events:]
        measures = game.measures[self.measures:]
        self.events, self.measures = len(game.events), len(game.measures)
        names = [p.name for p in game.state.players]
        seen = game.sight.seat_events(events, self.seat, names)
        lines = [f"• {m['headline']}" for m in measures if m.get("headline")]
        lines += self.others(seen) + self.mine(seen)
        return lines

    def others(self, events: list[dict]) -> list[str]:
        """The narration of the phases since the last decision, a few lines a phase."""
        out: list[str] = []
        phase, told, more = None, 0, 0

        def close():
            if more:
                out.append(f"    … and {more} more")
        for ev in events:
            kind = ev.get("type")
            if kind in ("phase", "round"):
                close()
                phase = f"round {ev['n']}" if kind == "round" else ev.get("phase")
                told = more = 0
                continue
            if kind != "log":
                continue
            if told == 0 and phase:
                out.append(f"  {phase}:")
            if told < MAX_LINES_PER_PHASE:
                out.append(f"    {ev.get('text')}")
                told += 1
            else:
                more += 1
        close()
        return out

    def mine(self, events: list[dict]) -> list[str]:
        """The seat's own changes (first value → last value), its zones' comings and goings, and the
        decisions answered for it."""
        me = self.seat + "."
        first: dict[str, object] = {}
        last: dict[str, object] = {}
        moves: list[str] = []
        auto: list[str] = []
        for ev in events:
            kind = ev.get("type")
            target = ev.get("target")
            if kind == "set" and isinstance(target, str) and target.startswith(me):
                name = target[len(me):]
                first.setdefault(name, ev.get("was"))
                last[name] = ev.get("value")
            elif kind in ("add", "remove", "move") and ev.get("item") is not None:
                into = ev.get("zone") if kind == "add" else ev.get("to")
                out_of = ev.get("zone") if kind == "remove" else ev.get("source")
                if isinstance(into, str) and into.startswith(me):
                    moves.append(f"{fmt(ev['item'])} → your {into[len(me):]}")
                elif isinstance(out_of, str) and out_of.startswith(me):
                    moves.append(f"{fmt(ev['item'])} leaves your {out_of[len(me):]}")
            elif kind == "decision" and ev.get("player") == self.seat and ev.get("options") == 1:
                auto.append(f"{ev.get('tag')}: {fmt(ev.get('value'))} (the only option)")
        changes = [_change(name, first[name], value) for name, value in last.items() if first[name] != value]
        out = []
        if changes:
            out.append("  yours: " + ", ".join(changes))
        out += [f"  {m}" for m in moves]
        out += [f"  answered for you — {a}" for a in auto]
        return out


def _change(name: str, old, new) -> str:
    """`food 9 → 6`; a record by the keys that changed: `dice: skull 0 → 2, food 1 → 0`."""
    if isinstance(old, dict) and isinstance(new, dict):
        keys = [k for k in dict.fromkeys([*old, *new]) if old.get(k) != new.get(k)]
        return f"{name}: " + ", ".join(f"{k} {_short(old.get(k))} → {_short(new.get(k))}" for k in keys)
    return f"{name} {_short(old)} → {_short(new)}"


def _short(value) -> str:
    """A value in a line: records and lists by their size when long."""
    text = fmt(value)
    if len(text) <= 40:
        return text
    if isinstance(value, (list, dict)):
        return f"{len(value)} item(s)"
    return text[:39] + "…"
