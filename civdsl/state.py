"""The generic state model every ruleset runs on.

Players with counters, variables and zones; global counters, variables and zones; a map graph with
pieces on areas; one seeded random stream. Nothing here knows a game: a ruleset's declarations say
which counters and zones exist. The whole state serializes to JSON, and `observation()` cuts out
what one player may not see.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Iterator


class Player:
    """One seat at the table. Counters are integers with bounds; vars hold any value."""

    __slots__ = ("index", "name", "counters", "vars", "zones", "agent")

    def __init__(self, index: int, name: str):
        self.index = index
        self.name = name
        self.counters: dict[str, int] = {}
        self.vars: dict[str, Any] = {}
        self.zones: dict[str, list] = {}
        self.agent = ""

    @property
    def seat(self) -> int:
        return self.index + 1

    def __repr__(self) -> str:
        return self.name

    def __lt__(self, other: "Player") -> bool:
        return self.index < other.index


class ZoneRef:
    """A live view of one zone: reads like a list, and names the zone for moves and logs."""

    __slots__ = ("owner", "name", "items")

    def __init__(self, owner: Player | None, name: str, items: list):
        self.owner = owner
        self.name = name
        self.items = items

    def __iter__(self) -> Iterator:
        return iter(list(self.items))

    def __len__(self) -> int:
        return len(self.items)

    def __contains__(self, x) -> bool:
        return x in self.items

    def __eq__(self, other) -> bool:
        if isinstance(other, ZoneRef):
            return self.owner is other.owner and self.name == other.name
        return list(self.items) == other

    def __hash__(self):
        return hash((id(self.owner), self.name))

    def label(self) -> str:
        return f"{self.owner.name}.{self.name}" if self.owner else self.name

    def __repr__(self) -> str:
        return self.label()


@dataclass
class MapGraph:
    """Areas with attributes and typed borders (`land`, `water`, or both)."""

    areas: dict[str, dict] = field(default_factory=dict)
    borders: dict[str, dict[str, str]] = field(default_factory=dict)

    def neighbours(self, area: str, kind: str | None = None) -> list[str]:
        out = self.borders.get(area, {})
        return [a for a, k in out.items() if kind is None or k == kind or k == "both"]


@dataclass
class GameState:
    """Everything that changes during a game."""

    players: list[Player]
    counters: dict[str, int] = field(default_factory=dict)
    vars: dict[str, Any] = field(default_factory=dict)
    zones: dict[str, list] = field(default_factory=dict)
    maps: dict[str, MapGraph] = field(default_factory=dict)
    pieces: dict[tuple[str, int, str], int] = field(default_factory=dict)
    rng: random.Random = field(default_factory=random.Random)
    round: int = 0
    phase: str = ""
    step: str = ""
    current: Player | None = None
    skips: set = field(default_factory=set)
    forced_dice: list = field(default_factory=list)
    ended: bool = False

    def pieces_at(self, area: str, owner: int | None = None, kind: str | None = None) -> int:
        return sum(n for (a, o, k), n in self.pieces.items()
                   if a == area and (owner is None or o == owner) and (kind is None or k == kind))

    # -- serialization ---------------------------------------------------------------------------
    def to_json(self) -> dict:
        return {
            "round": self.round,
            "phase": self.phase,
            "counters": dict(self.counters),
            "vars": {k: to_jsonable(v) for k, v in self.vars.items()},
            "zones": {k: to_jsonable(v) for k, v in self.zones.items()},
            "pieces": [[a, o, k, n] for (a, o, k), n in sorted(self.pieces.items()) if n],
            "players": [
                {"seat": p.seat, "name": p.name, "counters": dict(p.counters),
                 "vars": {k: to_jsonable(v) for k, v in p.vars.items()},
                 "zones": {k: to_jsonable(v) for k, v in p.zones.items()}}
                for p in self.players
            ],
        }

    def observation(self, viewer: Player, visibility: dict[tuple[str, str], str]) -> dict:
        """What `viewer` may see: hidden zones of others show only their size; no RNG state.

        `visibility` maps (scope, zone name) to `all`, `owner` or `hidden`.
        """
        data = self.to_json()
        for name in list(data["zones"]):
            if visibility.get(("global", name), "all") != "all":
                data["zones"][name] = {"hidden": True, "count": len(self.zones[name])}
        for p, pdata in zip(self.players, data["players"]):
            for name in list(pdata["zones"]):
                vis = visibility.get(("player", name), "all")
                if vis == "hidden" or (vis == "owner" and p is not viewer):
                    pdata["zones"][name] = {"hidden": True, "count": len(p.zones[name])}
        data["you"] = viewer.seat
        return data


def to_jsonable(value: Any) -> Any:
    """Convert runtime values (players, zones, records) into plain JSON values for logs."""
    if isinstance(value, Player):
        return value.name
    if isinstance(value, ZoneRef):
        return [to_jsonable(v) for v in value.items]
    if isinstance(value, (list, tuple)):
        return [to_jsonable(v) for v in value]
    if isinstance(value, dict):
        return {str(k): to_jsonable(v) for k, v in value.items()}
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if value is None or isinstance(value, (int, float, str, bool)):
        return value
    return str(value)
