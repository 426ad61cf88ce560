"""The generic state model every ruleset runs on.

Players with counters, variables and zones; global counters, variables and zones; a map graph with
pieces on areas; one seeded random stream. Nothing here knows a game: a ruleset's declarations say
which counters and zones exist. The whole state serializes to JSON (`engine/visibility.py` cuts out
what one player may not see).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterator

from .budget import ITEMS_PER_UNIT, MAX_SIZE, TooLarge, charge
from .rng import GameRandom


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
    """Areas with attributes and typed borders (`land`, `water`, or both). A map does not change
    during a game, so the neighbours of an area are worked out once (a list no rule changes)."""

    areas: dict[str, dict] = field(default_factory=dict)
    borders: dict[str, dict[str, str]] = field(default_factory=dict)
    geometry: dict | None = field(default=None, repr=False, compare=False)
    """How the map is drawn (the map file's `geometry`: shapes or points per area); rules never read it."""
    _near: dict = field(default_factory=dict, repr=False, compare=False)

    def neighbours(self, area: str, kind: str | None = None) -> list[str]:
        found = self._near.get((area, kind))
        if found is None:
            out = self.borders.get(area, {})
            found = self._near[(area, kind)] = [a for a, k in out.items() if kind is None or k == kind or k == "both"]
        return found


NEUTRAL = -1
"""The owner index of pieces that belong to no player (a neutral party on the board); rules write `none`."""
NEUTRAL_NAME = "neutral"                 # how that owner reads in logs and scenario files


def owner_name(players: list, owner: int) -> str:
    """How a piece's owner reads in logs and scenario differences."""
    return NEUTRAL_NAME if owner == NEUTRAL else players[owner].name


class Pieces:
    """Counts of pieces on map areas by (area, owner, kind), indexed both ways so that the questions
    rules ask most — how many here, where are mine, whose are here, how many in all — cost no scan.

    `owner` is a player's index. Reads and writes go through `[key]` with
    key `(area, owner, kind)`, so the interpreter's undo journal restores a count like any other value.
    """

    __slots__ = ("by_area", "by_owner", "totals")

    def __init__(self, counts: dict | None = None):
        self.by_area: dict[str, dict[tuple[int, str], int]] = {}
        self.by_owner: dict[tuple[int, str], dict[str, int]] = {}
        self.totals: dict[tuple[int, str], int] = {}
        for key, n in (counts or {}).items():
            self[key] = n

    def get(self, key, default: int = 0) -> int:
        area, owner, kind = key
        return self.by_area.get(area, {}).get((owner, kind), default)

    def __getitem__(self, key) -> int:
        return self.get(key)

    def __setitem__(self, key, n: int) -> None:
        area, owner, kind = key
        ok = (owner, kind)
        here = self.by_area.setdefault(area, {})
        old = here.get(ok, 0)
        if n:
            here[ok] = n
            self.by_owner.setdefault(ok, {})[area] = n
        else:
            here.pop(ok, None)
            if not here:
                del self.by_area[area]
            mine = self.by_owner.get(ok)
            if mine is not None:
                mine.pop(area, None)
        self.totals[ok] = self.totals.get(ok, 0) + n - old

    def update(self, counts: dict) -> None:
        for key, n in counts.items():
            self[key] = n

    def clear(self) -> None:
        self.by_area.clear()
        self.by_owner.clear()
        self.totals.clear()

    def at(self, area: str, owner: int | None = None, kind: str | None = None) -> int:
        here = self.by_area.get(area)
        if not here:
            return 0
        if owner is not None and kind is not None:
            return here.get((owner, kind), 0)
        total = 0
        for (o, k), n in here.items():
            if (owner is None or o == owner) and (kind is None or k == kind):
                total += n
        return total

    def areas_of(self, owner: int, kind: str | None = None) -> list[str]:
        """Areas where the owner has pieces (of the kind), in name order."""
        if kind is not None:
            return sorted(self.by_owner.get((owner, kind), ()))
        found: set[str] = set()
        for (o, _k), areas in self.by_owner.items():
            if o == owner:
                found.update(areas)
        return sorted(found)

    def owners_at(self, area: str, kind: str | None = None) -> list[int]:
        """Owners with pieces (of the kind) on the area, in seat order."""
        return sorted({o for (o, k) in self.by_area.get(area, ()) if kind is None or k == kind})

    def occupied(self, kind: str | None = None) -> list[str]:
        """Areas holding any pieces (of the kind), in name order."""
        if kind is None:
            return sorted(self.by_area)
        return sorted(a for a, here in self.by_area.items() if any(k == kind for (_o, k) in here))

    def total(self, owner: int, kind: str | None = None) -> int:
        if kind is not None:
            return self.totals.get((owner, kind), 0)
        return sum(n for (o, _k), n in self.totals.items() if o == owner)

    def items(self) -> list[tuple[tuple[str, int, str], int]]:
        """Every non-zero count as ((area, owner, kind), n), sorted."""
        return sorted(((a, o, k), n) for a, here in self.by_area.items() for (o, k), n in here.items())


@dataclass
class GameState:
    """Everything that changes during a game."""

    players: list[Player]
    counters: dict[str, int] = field(default_factory=dict)
    vars: dict[str, Any] = field(default_factory=dict)
    zones: dict[str, list] = field(default_factory=dict)
    maps: dict[str, MapGraph] = field(default_factory=dict)
    pieces: Pieces = field(default_factory=Pieces)
    rng: GameRandom = field(default_factory=GameRandom)
    round: int = 0
    phase: str = ""
    step: str = ""
    current: Player | None = None
    skips: set = field(default_factory=set)
    forced_dice: list = field(default_factory=list)
    ended: bool = False

    # -- serialization ---------------------------------------------------------------------------
    def to_json(self) -> dict:
        return {
            "round": self.round,
            "phase": self.phase,
            "counters": dict(self.counters),
            "vars": {k: to_jsonable(v) for k, v in self.vars.items()},
            "zones": {k: to_jsonable(v) for k, v in self.zones.items()},
            "pieces": [[a, o, k, n] for (a, o, k), n in self.pieces.items()],
            "players": [
                {"seat": p.seat, "name": p.name, "counters": dict(p.counters),
                 "vars": {k: to_jsonable(v) for k, v in p.vars.items()},
                 "zones": {k: to_jsonable(v) for k, v in p.zones.items()}}
                for p in self.players
            ],
        }


def to_jsonable(value: Any, c=None) -> Any:
    """Convert runtime values (players, zones, records) into plain JSON values for logs.

    A value is written out in full, and lists may hold the same list many times over (`l = [l, l]`,
    twenty times, is a million values): past `MAX_SIZE` values it is refused (`TooLarge`) instead of
    expanded without end. With a rule's context `c`, the values written are paid for (see `budget`)."""
    t = type(value)
    if t is int or t is str or t is bool or value is None:
        return value
    left = [MAX_SIZE]
    out = _jsonable(value, left)
    if c is not None and MAX_SIZE - left[0] >= ITEMS_PER_UNIT:
        charge(c, (MAX_SIZE - left[0]) // ITEMS_PER_UNIT)
    return out


def _jsonable(value: Any, left: list) -> Any:
    left[0] -= 1
    if left[0] < 0:
        raise TooLarge(f"a value of more than {MAX_SIZE:,} values in all, to be written out")
    if isinstance(value, Player):
        return value.name
    if isinstance(value, ZoneRef):
        return [_jsonable(v, left) for v in value.items]
    if isinstance(value, (list, tuple)):
        return [_jsonable(v, left) for v in value]
    if isinstance(value, dict):
        return {str(k): _jsonable(v, left) for k, v in value.items()}
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if value is None or isinstance(value, (int, float, str, bool)):
        return value
    return str(value)
