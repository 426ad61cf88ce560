"""What each seat may see: the one place that masks the game by the rules' declared visibility.

Zones, counters and variables are declared `visible to all` (the default), `visible to owner` (the
player who holds it; a global one then has no owner and is seen by nobody) or `visible to hidden`
(nobody). Every surface a seat is shown is built here, so that they cannot disagree:

- the observation an agent (or the terminal's `?`) gets: a hidden zone shows its size only, a hidden
  counter or variable `{"hidden": true}`;
- the view a heuristic scores in (`blank`/`restore`): a hidden zone's items read as `none` (the list keeps
  its length), a hidden counter reads as 0, a hidden variable as `none` (or, when it holds a record
  or a list, an empty one, so that rules that look things up in it still run);
- the log a seat may read (`seat_events`): items moved into or out of zones it cannot see, values of
  counters and variables it cannot see, other players' answers, and — in a game that hides anything —
  what `random_pick` picked (the log does not say where from: it may be a hidden hand) are blanked.

Narration (`log "..."`) is public: a rule that narrates must not name what a seat may not see.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .state import GameState, Player

HIDDEN = {"hidden": True}
_MOVES = ("add", "remove", "move")


@dataclass
class Visibility:
    """The declared visibility of a program's stateful declarations, by kind: (scope, name) -> level
    for the zones, and for the counters and variables that are not visible to all."""

    zones: dict[tuple[str, str], str]
    values: dict[tuple[str, str], str] = field(default_factory=dict)

    def __post_init__(self):
        def names(table: dict, scope: str, levels: tuple) -> frozenset:
            return frozenset(n for (s, n), v in table.items() if s == scope and v in levels)

        both = ("owner", "hidden")
        self.global_zones = names(self.zones, "global", both)      # seen by nobody
        self.own_zones = names(self.zones, "player", ("hidden",))  # not even by their owner
        self.other_zones = names(self.zones, "player", both)       # not by other players
        self.global_values = names(self.values, "global", both)
        self.own_values = names(self.values, "player", ("hidden",))
        self.other_values = names(self.values, "player", both)

    @property
    def hides_anything(self) -> bool:
        return bool(self.global_zones or self.other_zones or self.global_values or self.other_values)

    def hidden_zones(self, owner: Player | None, viewer: Player | None) -> frozenset:
        """The zones of `owner` (None: the global ones) that `viewer` may not see."""
        if owner is None:
            return self.global_zones
        return self.own_zones if owner is viewer else self.other_zones

    def hidden_values(self, owner: Player | None, viewer: Player | None) -> frozenset:
        """The counters and variables of `owner` (None: the global ones) that `viewer` may not see."""
        if owner is None:
            return self.global_values
        return self.own_values if owner is viewer else self.other_values

    # -- the observation ------------------------------------------------------------------------------------
    def observe(self, state: GameState, viewer: Player | None) -> dict:
        """The game as `viewer` may see it (None: a spectator, who sees what every player may), as JSON
        (no random state)."""
        data = state.to_json()
        _mask(data, None, self, viewer, state.zones)
        for p, pdata in zip(state.players, data["players"]):
            _mask(pdata, p, self, viewer, p.zones)
        data["you"] = viewer.seat if viewer is not None else None
        return data

    # -- the heuristic's view ---------------------------------------------------------------------------------
    def blank(self, state: GameState, viewer: Player) -> list:
        """Blank in place what `viewer` may not see; what was there, for `restore`. Zones keep their
        list (every view of a zone agrees) with its items as `none`. (Run for every decision a
        heuristic scores: kept tight.)"""
        saved: list = []
        players = state.players
        for zones, names in [(state.zones, self.global_zones)] + [
                (p.zones, self.own_zones if p is viewer else self.other_zones) for p in players]:
            for name in names:
                items = zones.get(name)
                if items:
                    saved.append((items, None, items[:]))
                    items[:] = [None] * len(items)
        if self.global_values or self.other_values:
            for owner, counters, values in [(None, state.counters, state.vars)] + [
                    (p, p.counters, p.vars) for p in players]:
                for name in self.hidden_values(owner, viewer):
                    for store in (counters, values):
                        if name in store:
                            saved.append((store, name, store[name]))
                            store[name] = _unknown(store[name], store is counters)
        return saved

    @staticmethod
    def restore(saved: list) -> None:
        for store, key, old in reversed(saved):
            if key is None:
                store[:] = old
            else:
                store[key] = old

    # -- the log ------------------------------------------------------------------------------------------------
    def seat_events(self, events: list[dict], viewer: str, players: list[str]) -> list[dict]:
        """The events of a game log as the player called `viewer` may read them (see the module)."""
        return [self.seat_event(ev, viewer, players) for ev in events]

    def seat_event(self, ev: dict, viewer: str, players: list[str]) -> dict:
        kind = ev.get("type")
        if kind in _MOVES:
            places = [ev[k] for k in ("zone", "source", "to") if isinstance(ev.get(k), str)]
            if places and not any(self._sees(place, viewer, players, zone=True) for place in places):
                return ev | {"item": None}
        elif kind == "set" and isinstance(ev.get("target"), str):
            target = ev["target"]
            if target.startswith("[") and (self.global_values or self.other_values):
                return ev | {"value": None, "was": None, "target": "[...]"}  # a record: whose is unknown
            if not self._sees(target, viewer, players, zone=False):
                return ev | {"value": None, "was": None}
        elif kind == "decision" and ev.get("player") != viewer:
            return ev | {"choice": None, "value": None}
        elif kind == "random" and self.hides_anything:
            return ev | {"picked": None}  # (where it was picked from is not logged: it may be a hidden hand)
        return ev

    def _sees(self, label: str, viewer: str, players: list[str], zone: bool) -> bool:
        """Whether `viewer` may see the zone or value labelled `label` (`P2.hand`, `stack1`)."""
        owner, _, name = label.rpartition(".")
        if owner and owner not in players:
            owner, name = "", label
        if not owner:
            hidden = self.global_zones if zone else self.global_values
        elif owner == viewer:
            hidden = self.own_zones if zone else self.own_values
        else:
            hidden = self.other_zones if zone else self.other_values
        return name not in hidden


def visibility_of(program) -> Visibility:
    """The program's `Visibility`, made once."""
    sight = program.sight
    if sight is None:
        sight = program.sight = Visibility(dict(program.zones), dict(program.secrets))
    return sight


def _mask(data: dict, owner: Player | None, sight: Visibility, viewer: Player, zones: dict) -> None:
    for name in sight.hidden_zones(owner, viewer):
        if name in data["zones"]:
            data["zones"][name] = {"hidden": True, "count": len(zones[name])}
    for name in sight.hidden_values(owner, viewer):
        for part in ("counters", "vars"):
            if name in data[part]:
                data[part][name] = dict(HIDDEN)


def _unknown(value: Any, counter: bool) -> Any:
    """What a hidden counter or variable reads as in a heuristic's view."""
    if counter:
        return 0
    if isinstance(value, dict):
        return {}
    if isinstance(value, list):
        return []
    return None
