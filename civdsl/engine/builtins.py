"""Functions every ruleset can call. All are generic: arithmetic helpers, collections, dice and
randomness (from the game's one seeded stream), players, entities and map queries.

Each takes the runtime context `c` first; randomness and map changes are logged with the calling
rule's location.
"""
from __future__ import annotations

import math
from typing import Any

from .budget import ITEMS_PER_UNIT, MAX_SIZE, NESTED, TooLarge, charge, check_int, check_size, check_walk
from .state import NEUTRAL, NEUTRAL_NAME, Player, ZoneRef, to_jsonable
from .values import Builtin, Die, EntityObj, RuleError, TableValue, field_value

MAX_DICE = 100_000  # dice rolled at once

REGISTRY: dict[str, Builtin] = {}
_MISSING = object()


def builtin(name: str, lo: int, hi: int | None = None, doc: str = ""):
    def deco(fn):
        REGISTRY[name] = Builtin(name, fn, (lo, lo if hi is None else hi), doc or (fn.__doc__ or "").strip())
        return fn
    return deco


def _paid(c, x) -> list:
    """`_items(x)`, paid for: a builtin that goes through a list draws a unit per 16 of its items."""
    items = _items(x)
    if len(items) >= ITEMS_PER_UNIT:
        charge(c, len(items) // ITEMS_PER_UNIT)
    return items


def _compared(c, x) -> list:
    """`_paid(x)`, for a builtin that compares its items (C code, where no budget reaches): items that
    are lists or records are walked first (`budget.check_walk`), so shared lists cannot make it endless."""
    items = _paid(c, x)
    if not NESTED.isdisjoint(map(type, items)):
        check_walk(c, items, "a list")
    return items


def _items(x) -> list:
    """The items of a list-like value, to read (lists are values no rule can change in place, so a list
    is handed back as it is; a builtin that changes the items copies them first)."""
    if type(x) is list:
        return x
    if isinstance(x, ZoneRef):
        return list(x.items)
    if isinstance(x, (list, tuple)):
        return list(x)
    if isinstance(x, dict):
        return list(x.keys())
    if isinstance(x, str):
        raise TypeError(f"expected a list, got the text \"{x}\"")
    raise TypeError(f"expected a list, got {type_name(x)}")


def type_name(x) -> str:
    if x is None:
        return "none"
    if isinstance(x, bool):
        return "a boolean"
    if isinstance(x, (int, float)):
        return "a number"
    if isinstance(x, str):
        return "a text"
    if isinstance(x, Player):
        return "a player"
    if isinstance(x, (list, ZoneRef)):
        return "a list"
    if isinstance(x, dict):
        return "a record"
    return type(x).__name__.lower()


# ---- numbers and collections ----------------------------------------------------------------------
@builtin("len", 1, doc="Number of items in a list or zone.")
def _len(c, xs):
    if isinstance(xs, ZoneRef):
        return len(xs.items)
    return len(xs) if isinstance(xs, (list, tuple, dict)) else len(_items(xs))


@builtin("count", 1, 2, doc="Number of items in a list or zone (as `len`); with a value, how many items equal it.")
def _count_items(c, xs, value=_MISSING):
    if value is _MISSING:
        return _len(c, xs)
    items = _paid(c, xs)
    if type(value) in NESTED:  # each item may be compared with the whole value
        charge(c, len(items) * check_walk(c, value, "a value counted") // ITEMS_PER_UNIT)
    return sum(1 for x in items if x == value)


@builtin("sum", 1, doc="Sum of a list of numbers (0 when empty).")
def _sum(c, xs):
    total = sum(_paid(c, xs))
    return check_int(total) if type(total) is int else total


@builtin("min", 1, 9, doc="Smallest of a list, or of several arguments.")
def _min(c, *xs):
    items = _compared(c, xs[0] if len(xs) == 1 else list(xs))
    if not items:
        raise ValueError("min() of an empty list")
    return min(items)


@builtin("max", 1, 9, doc="Largest of a list, or of several arguments.")
def _max(c, *xs):
    items = _compared(c, xs[0] if len(xs) == 1 else list(xs))
    if not items:
        raise ValueError("max() of an empty list")
    return max(items)


@builtin("any", 1, doc="True if any item is true.")
def _any(c, xs):
    return any(_paid(c, xs))


@builtin("all", 1, doc="True if every item is true (also for an empty list).")
def _all(c, xs):
    return all(_paid(c, xs))


@builtin("abs", 1, doc="Absolute value.")
def _abs(c, x):
    return abs(x)


@builtin("floor", 1, doc="Round down to a whole number.")
def _floor(c, x):
    return math.floor(x)


@builtin("ceil", 1, doc="Round up to a whole number.")
def _ceil(c, x):
    return math.ceil(x)


@builtin("sorted", 1, doc="The items in ascending order.")
def _sorted(c, xs):
    return sorted(_compared(c, xs))


@builtin("reversed", 1, doc="The items in reverse order.")
def _reversed(c, xs):
    return list(reversed(_paid(c, xs)))


@builtin("first", 1, doc="The first item (the top of a deck); none when empty.")
def _first(c, xs):
    items = _items(xs)
    return items[0] if items else None


@builtin("last", 1, doc="The last item (the bottom of a deck); none when empty.")
def _last(c, xs):
    items = _items(xs)
    return items[-1] if items else None


@builtin("top", 2, doc="The first n items of a list or deck.")
def _top(c, xs, n):
    return _paid(c, xs)[: max(0, int(n))]


@builtin("unique", 1, doc="The items without repeats, first occurrence kept.")
def _unique(c, xs):
    out: list = []
    seen: set = set()
    unhashable: list = []  # records and lists: compared one by one (there are few)
    for x in _compared(c, xs):
        try:
            if x in seen:
                continue
            seen.add(x)
        except TypeError:
            if x in unhashable:
                continue
            unhashable.append(x)
        out.append(x)
    return out


@builtin("range", 2, doc="The whole numbers from a to b, both included.")
def _range(c, a, b):
    if b - a > 100_000:
        raise ValueError("range() longer than 100000")
    if b >= a:
        charge(c, int(b) - int(a) + 1)
    return list(range(int(a), int(b) + 1))


@builtin("measure", 1, 2, doc="Record a measurement for statistics over many games (`civdsl simulate`): "
         "a name and a record of values, e.g. `measure(\"calamity\", {player: p, calamity: c.name, loss: n})`.")
def _measure(c, name, fields=None):
    if not isinstance(name, str) or not name:
        raise TypeError(f"measure() needs a name (a text), got {type_name(name)}")
    fields = {} if fields is None else fields
    if not isinstance(fields, dict):
        raise TypeError(f"measure() records a record of values, got {type_name(fields)}")
    if len(c.game.measures) >= MAX_SIZE:
        raise TooLarge(f"more than {MAX_SIZE:,} measurements in one game")
    c.game.measure(name, to_jsonable(fields, c), fields)
    return None


@builtin("str", 1, doc="A value as text.")
def _str(c, x):
    return fmt(x)


@builtin("int", 1, doc="A number or numeric text as a whole number.")
def _int(c, x):
    return check_int(int(x))


@builtin("join", 2, doc="Texts of the items joined with a separator.")
def _join(c, xs, sep):
    sep = fmt(sep)
    parts = [fmt(x) for x in _paid(c, xs)]
    check_size(sum(map(len, parts)) + len(sep) * max(len(parts) - 1, 0), "a text")
    return sep.join(parts)


@builtin("index_of", 2, doc="1-based position of an item in a list, 0 if absent.")
def _index_of(c, xs, x):
    items = _paid(c, xs)
    if type(x) in NESTED:
        charge(c, len(items) * check_walk(c, x, "a value looked for") // ITEMS_PER_UNIT)
    return items.index(x) + 1 if x in items else 0


@builtin("keys", 1, doc="The keys of a record.")
def _keys(c, r):
    return list(r.keys())


@builtin("get", 3, doc="A record's, table's or thing's value for a key or field, or a default.")
def _get(c, r, k, default):
    if isinstance(r, dict):
        return r.get(k, default)
    if isinstance(r, str) and r in c.game.program.entities:
        v = c.game.program.entities[r].fields.get(k, _MISSING)
        return default if v is _MISSING else field_value(v)
    if isinstance(r, TableValue):
        try:
            return r.lookup(k)
        except KeyError:
            return default
    raise TypeError(f"get() needs a record or table, got {type_name(r)}")


# ---- dice and randomness ----------------------------------------------------------------------------
def roll_die(c, die: Die):
    g = c.game
    state = g.state
    if state.forced_dice and not g.no_random:  # (where no die may be rolled, `g.rng()` says so below)
        if g.journal is not None:
            g.journal.append((state.forced_dice, None, list(state.forced_dice)))
        face = state.forced_dice.pop(0)
        if face not in die.faces:
            raise RuleError("RUN020", f"fixed die result {face!r} is not a face of {die.name}", c.span,
                            f"faces of {die.name}: {die.faces}")
        return face
    rng = state.rng if (g.journal is None or g._rng_saved) and not g.no_random else g.rng()
    faces = die.faces
    if type(faces) is not list:  # a parameter rolls it while the game evaluates its constants
        faces = g._die_faces(die)
    return faces[rng.below(len(faces))]


def roll_one(c, die: Die):
    """`roll(d)` of a declared die (the compiler knows it is a die): one face."""
    face = roll_die(c, die)
    if c.game.logging:
        c.game.emit("roll", die=die.name, faces=[face])
    return face


@builtin("roll", 1, 2, doc="Roll a die (n times, summed), or roll a table's die and return its row.")
def _roll(c, what, n=1):
    if isinstance(what, TableValue):
        if what.die is None:
            raise TypeError(f"table {what.name} has no die to roll")
        face = roll_die(c, what.die)
        value = what.lookup(face)
        c.game.emit("roll", die=what.die.name, faces=[face], table=what.name)
        return value
    if not isinstance(what, Die):
        raise TypeError(f"roll() needs a die or a table, got {type_name(what)}")
    if n == 1:  # the common case: one die, no list
        face = roll_die(c, what)
        if c.game.logging:
            c.game.emit("roll", die=what.name, faces=[face])
        return face
    faces = [roll_die(c, what) for _ in range(_dice(c, n))]
    if c.game.logging:
        c.game.emit("roll", die=what.name, faces=faces)
    return faces[0] if n == 1 else sum(faces)


def _dice(c, n) -> int:
    """How many dice a rule rolls at once: a whole number, at most `MAX_DICE`, each paid for."""
    n = int(n)
    if n > MAX_DICE:
        raise TooLarge(f"{n:,} dice rolled at once (more than {MAX_DICE:,})")
    charge(c, max(n, 0))
    return n


@builtin("rolls", 2, doc="Roll a die n times and return the list of faces.")
def _rolls(c, die, n):
    if not isinstance(die, Die):
        raise TypeError(f"rolls() needs a die, got {type_name(die)}")
    faces = [roll_die(c, die) for _ in range(_dice(c, n))]
    c.game.emit("roll", die=die.name, faces=faces)
    return faces


@builtin("random_pick", 1, doc="One item chosen at random (none from an empty list).")
def _random_pick(c, xs):
    items = _items(xs)
    if not items:
        return None
    pick = items[c.game.rng().randrange(len(items))]
    c.game.emit("random", picked=pick, among=len(items))
    return pick


@builtin("shuffled", 1, doc="The items in a random order.")
def _shuffled(c, xs):
    items = list(_paid(c, xs))
    c.game.rng().shuffle(items)
    return items


# ---- players and entities ---------------------------------------------------------------------------
@builtin("others", 1, doc="Every player but the given one, in seat order.")
def _others(c, p):
    return [q for q in c.game.state.players if q is not p]


@builtin("player_at", 1, doc="The player in a seat (1-based).")
def _player_at(c, seat):
    return c.game.state.players[int(seat) - 1]


@builtin("entities", 1, doc="Names of every declared thing of a kind, in declaration order.")
def _entities(c, kind):
    names = c.game.program.by_kind.get(kind)
    if names is None:
        raise ValueError(f"no kind `{kind}` is declared")
    return list(names)


@builtin("kind_of", 1, doc="The kind of a declared thing, or none.")
def _kind_of(c, name):
    e = c.game.program.entities.get(name) if isinstance(name, str) else None
    return e.kind if e else None


@builtin("zone", 1, doc="The global zone with the name held in a text (like `p[\"hand\"]` for a player's).")
def _zone(c, name):
    zones = c.game.state.zones
    if not isinstance(name, str) or name not in zones:
        from ..language.names import suggest
        guess = suggest(str(name), list(zones))
        raise ValueError(f"no global zone `{fmt(name)}`" + (f" (did you mean `{guess}`?)" if guess else ""))
    return ZoneRef(None, name, zones[name])


# ---- maps ---------------------------------------------------------------------------------------------
def _map(c, name):
    m = c.game.state.maps.get(name)
    if m is None:
        raise ValueError(f"no map `{name}`")
    return m


def area_attr(c, m, a, name):
    """`area(m, a).name`, without copying the area's record (the compiler writes this for that form)."""
    return _map(c, m).areas[a][name]


def area_get(c, m, a, key, default):
    """`get(area(m, a), key, default)`, without copying the area's record."""
    return _map(c, m).areas[a].get(key, default)


@builtin("areas", 1, doc="Names of every area of a map.")
def _areas(c, m):
    return list(_map(c, m).areas)


@builtin("area", 2, doc="An area's attributes as a record.")
def _area(c, m, a):
    return dict(_map(c, m).areas[a])


@builtin("neighbours", 2, 3, doc="Areas across a border (optionally only `land` or `water` borders).")
def _neighbours(c, m, a, kind=None):
    return _map(c, m).neighbours(a, kind)


def _owner_index(owner) -> int:
    """A player's index; `none` is the neutral owner (pieces of no player)."""
    if isinstance(owner, Player):
        return owner.index
    if owner is None:
        return NEUTRAL
    raise TypeError(f"a piece's owner is a player or none (neutral), not {type_name(owner)}")


def _board_area(c, area) -> str:
    """An area name that some loaded map knows (pieces are kept by area name)."""
    maps = c.game.state.maps
    if not isinstance(area, str):
        raise TypeError(f"an area is named by a text, not {type_name(area)}")
    if maps and not any(area in m.areas for m in maps.values()):
        from ..language.names import suggest
        guess = suggest(area, [a for m in maps.values() for a in m.areas])
        raise ValueError(f"no map has an area \"{area}\"" + (f" (did you mean \"{guess}\"?)" if guess else ""))
    return area


def _count(n) -> int:
    if isinstance(n, bool) or not isinstance(n, (int, float)) or n != int(n) or n < 0:
        raise ValueError(f"a number of pieces is a whole number of at least 0, not {fmt(n)}")
    return int(n)


@builtin("pieces", 1, 3, doc="How many pieces are on an area (optionally of one player — none: any — and of one kind).")
def _pieces(c, area, owner=None, kind=None):
    if kind is not None and type(owner) is Player:  # the common question, answered without a scan
        here = c.game.state.pieces.by_area.get(area)
        return here.get((owner.index, kind), 0) if here else 0
    return c.game.state.pieces.at(area, None if owner is None else _owner_index(owner), kind)


@builtin("place", 4, doc="Put n pieces of a kind belonging to a player (none: neutral) on an area.")
def _place(c, area, owner, kind, n):
    key = (_board_area(c, area), _owner_index(owner), kind)
    n = _count(n)
    st = c.game.state
    c.game.save_pieces(key)
    st.pieces[key] = st.pieces.get(key) + n
    if c.game.logging:
        c.game.emit("place", area=area, owner=_owner_label(owner), kind=kind, n=n)
    return None


@builtin("take", 4, doc="Remove n pieces of a kind belonging to a player (none: neutral) from an area.")
def _take(c, area, owner, kind, n):
    key = (_board_area(c, area), _owner_index(owner), kind)
    n = _count(n)
    st = c.game.state
    have = st.pieces.get(key)
    if have < n:
        raise ValueError(f"{fmt(owner)} has only {have} {kind} on {area}, cannot take {n}")
    c.game.save_pieces(key)
    st.pieces[key] = have - n
    if c.game.logging:
        c.game.emit("take", area=area, owner=_owner_label(owner), kind=kind, n=n)
    return None


@builtin("areas_of", 1, 2, doc="The areas where a player (none: neutral) has pieces (of one kind), in name order.")
def _areas_of(c, owner, kind=None):
    return c.game.state.pieces.areas_of(_owner_index(owner), kind)


@builtin("owners_at", 1, 2, doc="The players with pieces (of one kind) on an area, in seat order (neutral pieces not included).")
def _owners_at(c, area, kind=None):
    players = c.game.state.players
    return [players[i] for i in c.game.state.pieces.owners_at(area, kind) if i != NEUTRAL]


@builtin("occupied", 0, 1, doc="Every area holding pieces (of one kind), in name order.")
def _occupied(c, kind=None):
    return c.game.state.pieces.occupied(kind)


@builtin("total_pieces", 1, 2, doc="How many pieces (of one kind) a player (none: neutral) has on the whole board.")
def _total_pieces(c, owner, kind=None):
    return c.game.state.pieces.total(_owner_index(owner), kind)


def _owner_label(owner) -> str:
    return NEUTRAL_NAME if owner is None else fmt(owner)


def fmt(x: Any) -> str:
    """How values read in logs and prompts."""
    t = type(x)
    if t is str:
        return x
    if t is int:
        return str(x)
    if x is None:
        return "none"
    if isinstance(x, bool):
        return "true" if x else "false"
    if isinstance(x, float) and x.is_integer():
        return str(int(x))
    if isinstance(x, (Player, Die, TableValue)):
        return x.name
    if isinstance(x, EntityObj):
        return x.name
    if isinstance(x, ZoneRef):
        return _joined("[", (fmt(i) for i in x.items), "]")
    if isinstance(x, list):
        return _joined("[", (fmt(i) for i in x), "]")
    if isinstance(x, dict):
        if "label" in x:
            return fmt(x["label"])
        return _joined("{", (f"{k}: {fmt(v)}" for k, v in x.items()), "}")
    return str(x)


def _joined(opening: str, parts, closing: str) -> str:
    """Parts joined with commas, refused when the text would exceed `MAX_SIZE` characters."""
    out, size = [], 2
    for part in parts:
        size += len(part) + 2
        if size > MAX_SIZE:
            raise TooLarge(f"a text of more than {MAX_SIZE:,} characters")
        out.append(part)
    return opening + ", ".join(out) + closing
