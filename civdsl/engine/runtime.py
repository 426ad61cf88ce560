"""What compiled rules call at run time: the language's operators, reads and writes of the generic
state, calls, and Python errors turned into the rule's diagnostics.

Generated code (see `civdsl.compiler`) reaches these through its private namespace; nothing here
knows a game. Every function takes plain runtime values (players, zones, records, lists, texts,
numbers) and raises ordinary Python errors that the calling rule turns into diagnostics at its
statement's span.
"""
from __future__ import annotations

import operator
import re

from ..language.diagnostics import Span
from .budget import (
    ITEMS_PER_UNIT,
    MAX_INT_BITS,
    MAX_SIZE,
    NESTED,
    OutOfWork,
    TooLarge,
    charge,
    check_int,
    check_size,
    check_walk,
    out_of_work,
    walked,
)
from .builtins import fmt, type_name
from .overlay_sources import name_overlay_sources
from .state import Player, ZoneRef
from .values import Builtin, Callable_, Die, EntityObj, RuleError, TableValue, field_value

MAX_CALL_DEPTH = 64
MAX_LOOP = 100_000
PLAYER_BUILTIN_FIELDS = ("seat", "name", "index")
LOCAL_PREFIX = "v_"  # rule locals are Python locals with this prefix (never clashes with generated names)
UNSET = object()


class EndOfGame(Exception):
    """Raised by `end game`."""


PY_ERRORS = (TypeError, ValueError, KeyError, IndexError, ZeroDivisionError, AttributeError, OverflowError,
             RecursionError, NameError, MemoryError, OutOfWork)

_PY_TYPES = {"'int'": "a number", "'float'": "a number", "'str'": "a text", "'list'": "a list",
             "'dict'": "a record", "'NoneType'": "none", "'bool'": "a boolean", "'Player'": "a player",
             "'ZoneRef'": "a zone", "'tuple'": "a list"}


def py_error(exc: Exception) -> str:
    """A Python error's message in the words of the rule language."""
    if isinstance(exc, TypeError):
        text = str(exc)
        text = text.replace("unsupported operand type(s) for", "cannot apply")
        text = re.sub(r"'[A-Za-z_]+'", lambda m: _PY_TYPES.get(m.group(0), m.group(0)), text)
        return text.replace("instances of", "")
    if isinstance(exc, ZeroDivisionError):
        return "division by zero"
    if isinstance(exc, KeyError):
        return f"no entry {exc.args[0]!r}"
    if isinstance(exc, IndexError):
        return "position out of range"
    if isinstance(exc, RecursionError):
        return "rules nest too deeply"
    return str(exc) or type(exc).__name__


def rule_error(exc: Exception, span: Span | None, c=None) -> RuleError:
    """A Python error inside a rule as its diagnostic: RUN002 for a local read before it has a value,
    RUN014 for a value grown past its bound, RUN015 for memory run out. Given the running context `c`,
    it also names the overlay lines that gave the values the rule read (`overlay_sources`)."""
    err = _rule_error(exc, span)
    if c is not None:
        name_overlay_sources(c.game.program.ruleset, err)
    return err


def _rule_error(exc: Exception, span: Span | None) -> RuleError:
    if isinstance(exc, OutOfWork):
        return RuleError(exc.code, exc.message, span, exc.hint)
    if isinstance(exc, TooLarge):
        return RuleError("RUN014", f"{exc}: values built by rules are bounded", span,
                         "check what grows (a number multiplied by itself, a list joined to itself...)")
    if isinstance(exc, MemoryError):
        return RuleError("RUN015", "the game ran out of memory", span,
                         "check what grows; the CLI's `--memory-limit` sets the cap")
    if isinstance(exc, NameError):
        name = getattr(exc, "name", None) or ""  # UnboundLocalError has no name before Python 3.12
        found = re.search(rf"'({LOCAL_PREFIX}\w+)'", str(exc)) if not name else None
        name = found.group(1) if found else name
        if name.startswith(LOCAL_PREFIX):
            return RuleError("RUN002", f"`{name[len(LOCAL_PREFIX):]}` is used before it is given a value", span)
        return RuleError("RUN001", f"internal error: {exc}", span)
    return RuleError("RUN001", py_error(exc), span)


def error_at(exc: Exception, spans: dict[int, Span], c) -> RuleError:
    """The diagnostic of a Python error caught in a generated function: the statement is the one whose
    generated line the error passed through (the traceback's first entry is the catching frame), and the
    overlay lines that gave the values it read (`overlay_sources`)."""
    tb = exc.__traceback__
    return rule_error(exc, spans.get(tb.tb_lineno) if tb is not None else None, c)


def loop_overflow(span: Span) -> RuleError:
    return RuleError("RUN011", f"loop ran more than {MAX_LOOP} times", span,
                     "make sure the loop's condition becomes false")


def too_deep(name: str, site: Span | None) -> RuleError:
    return RuleError("RUN012", f"calls nest deeper than {MAX_CALL_DEPTH} (`{name}`)", site,
                     "a procedure probably calls itself without end")


# ---- operators (each draws on the work budget in proportion to what it goes through) --------------------
def range_(c, lo, hi) -> list:
    """`lo..hi`: both ends included, at most MAX_LOOP items (a unit per 16 built)."""
    return list(numbers(c, lo, hi))


def numbers(c, lo, hi) -> range:
    """`for x in lo..hi`: the numbers, at most MAX_LOOP of them, without making the list (a unit per 16:
    the loop's statements pay for themselves)."""
    if hi - lo >= MAX_LOOP:
        raise TooLarge(f"the range {lo}..{hi} of {hi - lo + 1:,} numbers (more than {MAX_LOOP:,})")
    if hi - lo >= ITEMS_PER_UNIT:
        charge(c, (hi - lo) // ITEMS_PER_UNIT)
    return range(lo, hi + 1)


def loop_items(c, v) -> list:
    """What a `for` goes through (see `iterable`): a unit per 16 items (its statements pay for
    themselves)."""
    items = v if type(v) is list else iterable(v)
    if len(items) >= ITEMS_PER_UNIT:
        c.steps += len(items) // ITEMS_PER_UNIT
        if c.steps > c.budget:
            raise out_of_work(c)
    return items


def each(c, v) -> list:
    """What a comprehension goes through: a unit per item, as each item's expression is worked out."""
    items = v if type(v) is list else iterable(v)
    c.steps += len(items)  # (inline: the hottest charge)
    if c.steps > c.budget:
        raise out_of_work(c)
    return items


def iterable(v) -> list:
    """What `for` and comprehensions loop over. A list is a value no rule changes in place, so it is
    looped over as it is; a zone's items and a record's keys are copied, so that the loop is not
    disturbed by changes the loop's body makes."""
    if type(v) is list:
        return v
    if type(v) is ZoneRef:
        return list(v.items)
    if isinstance(v, tuple):
        return list(v)
    if isinstance(v, dict):
        return list(v.keys())
    raise TypeError(f"cannot loop over {type_name(v)}")


def repeat_count(c, n) -> int:
    if not isinstance(n, int):
        raise ValueError(f"repeat count must be a whole number, got {fmt(n)}")
    if n > MAX_LOOP:
        raise TooLarge(f"a repeat count of {n:,} (more than {MAX_LOOP:,})")
    if n >= ITEMS_PER_UNIT:
        charge(c, n // ITEMS_PER_UNIT)
    return n


def add(c, a, b):
    """`+`: numbers, texts, lists and zones (read as lists); a text and another value join as texts.
    (Whole numbers small enough are added inline by the generated code; this is everything else.)"""
    ta, tb = type(a), type(b)
    if ta is ZoneRef:
        a, ta = a.items, list  # (read, not changed: `+` makes a new list)
    if tb is ZoneRef:
        b, tb = b.items, list
    if ta is int and tb is int:
        return check_int(a + b)
    if (ta is str) != (tb is str):
        a, b, ta, tb = fmt(a), fmt(b), str, str
    if ta is tb and (ta is list or ta is str):  # paid for inline (this is `_built`)
        n = len(a) + len(b)
        if n >= ITEMS_PER_UNIT:
            if n > MAX_SIZE:
                check_size(n)
            c.steps += n // ITEMS_PER_UNIT
            if c.steps > c.budget:
                raise out_of_work(c)
    return a + b


def sub(c, a, b):
    """`-` of what the generated code does not subtract inline (large whole numbers, other values)."""
    r = a - b
    return check_int(r) if type(r) is int else r


def mul(c, a, b):
    """`*`: numbers, and a text or list repeated a number of times, bounded."""
    if type(a) is int and type(b) is int:
        if a.bit_length() + b.bit_length() > MAX_INT_BITS + 1:  # (refused before it is computed)
            raise TooLarge(f"a whole number of about {a.bit_length() + b.bit_length():,} bits "
                           f"(more than {MAX_INT_BITS:,})")
        return check_int(a * b)
    for seq, n in ((a, b), (b, a)):
        if isinstance(seq, (str, list)) and type(n) is int:
            _built(c, len(seq) * max(n, 0))
    return a * b


def _built(c, size: int) -> None:
    """A list or text of `size` items is about to be built: within the bound, and paid for."""
    check_size(size)
    if size >= ITEMS_PER_UNIT:
        charge(c, size // ITEMS_PER_UNIT)


def div(a, b):
    q = a / b
    return int(q) if isinstance(q, float) and q.is_integer() else q


def pow_(a, b):
    """`a ** b`: a number to a whole power. A whole number to a power of 0 or more is a whole number,
    refused before it is computed when it would pass `MAX_INT_BITS`; a negative power divides (`2 ** -1`
    is 0.5, a whole result a whole number, like `/`)."""
    if type(b) is not int:
        raise TypeError(f"a power must be a whole number, not {type_name(b)}" if type(b) is not float else
                        f"a power must be a whole number, not {fmt(b)}")
    if type(a) is int and b >= 0:
        if a not in (0, 1, -1) and (a.bit_length() - 1) * b >= MAX_INT_BITS:  # (|a| >= 2 ** (bits - 1))
            raise TooLarge(f"a whole number of at least {(a.bit_length() - 1) * b:,} bits "
                           f"(more than {MAX_INT_BITS:,})")
        return check_int(a ** b)
    if type(a) not in (int, float):
        raise TypeError(f"cannot raise {type_name(a)} to a power")
    try:
        r = float(a) ** b
    except OverflowError:
        raise TooLarge(f"a number too large to compute ({fmt(a)} ** {b})") from None
    return int(r) if r.is_integer() else r


def combine(c, op: str, old, new):
    """The value an augmented assignment (`+=`, `-=`, `=`) stores."""
    if op == "+=":
        return add(c, old, new)
    if op == "-=":
        return sub(c, old, new)
    return new


_COMPARE = {"==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le, ">": operator.gt,
            ">=": operator.ge}


def _flat(v) -> bool:
    """Whether a list or record holds no lists or records."""
    return NESTED.isdisjoint(map(type, v.values() if type(v) is dict else v))


def compare(c, op: str, a, b) -> bool:
    """`a op b` for two lists or records (the compiled code compares other values inline). Comparing
    walks both in step, so it meets at most the values of the smaller one: refused when both are
    too large to walk (`budget.walked`), paid for otherwise."""
    if _flat(a) or _flat(b):  # (the usual case: then no more pairs than the flat one's items)
        n = min(len(a), len(b))
    else:
        n = min(walked(a), walked(b))
        if n > MAX_SIZE:
            raise TooLarge(f"two values of more than {MAX_SIZE:,} values each, to be compared")
    if n >= ITEMS_PER_UNIT:
        charge(c, n // ITEMS_PER_UNIT)
    return _COMPARE[op](a, b)


def in_(c, a, b) -> bool:
    """`a in b`: an item of a list or zone, a key of a record, a part of a text (paid for by length;
    a list or record looked for is paid for as many times as it is compared)."""
    tb = type(b)
    if tb is list or tb is ZoneRef or tb is str:
        if tb is str and type(a) is not str:
            return False
        n = len(b)
        if type(a) in NESTED:
            n *= check_walk(c, a, "a value looked for")
        if n >= ITEMS_PER_UNIT:  # (`charge`, inline: membership is tested often)
            c.steps += n // ITEMS_PER_UNIT
            if c.steps > c.budget:
                raise out_of_work(c)
    return a in b


# ---- reading values -----------------------------------------------------------------------------------
def get_attr(prog, o, name: str):
    """`o.name` for any runtime value (players' declared fields and records have faster paths)."""
    t = type(o)
    if t is dict:
        return o[name]
    if t is str:
        ent = prog.entities.get(o)
        if ent is not None:
            v = ent.fields.get(name, UNSET)
            if type(v) is tuple:
                return v[0]
            if v is not UNSET:
                return field_value(v)
    if isinstance(o, Player):
        if name in o.counters:
            return o.counters[name]
        if name in o.vars:
            return o.vars[name]
        if name in o.zones:
            return ZoneRef(o, name, o.zones[name])
        if name in PLAYER_BUILTIN_FIELDS:
            return getattr(o, name)
        raise KeyError(f"player has no counter, variable or zone `{name}`")
    if isinstance(o, str):
        ent = prog.entities.get(o)
        if ent is None:
            raise ValueError(f"\"{o}\" is not a declared thing, so it has no `{name}`")
        return entity_field(ent, name)
    if isinstance(o, EntityObj):
        return entity_field(o, name)
    if isinstance(o, dict):
        if name not in o:
            raise KeyError(name)
        return o[name]
    if isinstance(o, Die) and name == "faces":
        return list(o.faces)
    if isinstance(o, ZoneRef) and name == "owner":
        return o.owner
    if o is None:
        raise TypeError(f"none has no `{name}`")
    raise TypeError(f"{type_name(o)} has no `{name}`")


def entity_field(ent: EntityObj, name: str):
    if name in ent.fields:
        return field_value(ent.fields[name])
    if name == "name":
        return ent.name
    if name == "kind":
        return ent.kind
    raise KeyError(f"{ent.kind} `{ent.name}` has no field `{name}`")


def get_index(o, key, prog=None):
    """`o[key]`: a record's key, a player's field by name, a table row, a list position (from 1)."""
    t = type(o)
    if t is dict:
        return o[key]
    if t is Player and type(key) is str:
        counters = o.counters
        return counters[key] if key in counters else get_attr(prog, o, key)
    if isinstance(o, TableValue):
        return o.lookup(key)
    if isinstance(o, dict):
        return o[key]
    if isinstance(o, (list, ZoneRef)):
        items = o.items if isinstance(o, ZoneRef) else o
        if not isinstance(key, int) or key < 1:
            raise IndexError(key)
        return items[key - 1]
    raise TypeError(f"{type_name(o)} cannot be indexed")


def record_get(c, r, k, default):
    """`get(r, k, d)`: a record's key or a thing's field read here (the common cases); anything else
    (a table's row) by the builtin."""
    t = type(r)
    if t is dict:
        return r.get(k, default)
    if t is str:
        ent = c.game.program.entities.get(r)
        if ent is not None:
            v = ent.fields.get(k, UNSET)
            if v is UNSET:
                return default
            return v[0] if type(v) is tuple else field_value(v)
    return _GET(c, r, k, default)


# ---- calls --------------------------------------------------------------------------------------------
def call_callable(c, f: Callable_, args: list, span: Span | None):
    """Call a procedure or a thing's block held as a value (`d.effect(p)`, builtins' callbacks)."""
    if len(args) != len(f.params):
        raise TypeError(f"`{f.name}` takes {len(f.params)} arguments, got {len(args)}")
    if f.fn is None:
        return None
    return f.fn(c, span, *args)


def call_value(c, f, args: list, span: Span, optional: bool):
    """`f(args)` where `f` is computed: a procedure, a thing's block or a builtin. `optional`: the
    callee is a thing's field, and a block the thing does not define is called as nothing."""
    if isinstance(f, Callable_):
        return call_callable(c, f, args, span)
    if isinstance(f, Builtin):
        return f.fn(c, *args)
    if f is None and optional:
        return None
    raise TypeError(f"{type_name(f)} cannot be called")


def fresh(value):
    """A remembered result as a caller may use it: a record is copied, so that a caller that changes
    it does not change what the next caller gets (a list is a value no rule changes in place)."""
    return dict(value) if type(value) is dict else value


def choose(c, who, tag: str, options, span: Span):
    """`who chooses "tag" from options`: the player's agent picks one of the options."""
    if type(who) is not Player:
        raise TypeError(f"only a player can choose, not {type_name(who)}")
    return c.game.decide(who, tag, options if type(options) is list else iterable(options), span)


def choose_subset(c, who, tag: str, lo, hi, exact: bool, items, span: Span) -> list:
    """`who chooses subset "tag" [lo..hi] of items`: the player's agent picks some of the items (`lo` None:
    0; `hi` None: all of them; `exact`: exactly `lo`); the chosen items, in their order."""
    if type(who) is not Player:
        raise TypeError(f"only a player can choose, not {type_name(who)}")
    if type(items) is not list and not isinstance(items, (ZoneRef, dict, tuple)):
        raise TypeError(f"a subset is chosen of a list, a zone or a record's keys, not {type_name(items)}")
    items = items if type(items) is list else iterable(items)
    lo = 0 if lo is None else lo
    hi = lo if exact else len(items) if hi is None else hi
    return c.game.decide_subset(who, tag, items, lo, hi, span)


# ---- writing values -----------------------------------------------------------------------------------
def set_field(c, target, name: str, op: str, value) -> None:
    """`target.name op= value` for a player's declared counter or variable."""
    if type(target) is not Player:
        raise TypeError(f"cannot set `{name}` on {type_name(target)}")
    c.game.set_player(target, name, op, value)


def set_index(c, target, key, op: str, value) -> None:
    """`target[key] op= value`: a record's key, or a player's counter or variable named by a text."""
    if isinstance(target, dict):  # a record: logged and undone on failure like any change
        c.game.set_record(target, key, op, value)
        return
    if not isinstance(target, Player):
        raise TypeError(f"only a player's counters or a record's keys can be set by name, "
                        f"not {type_name(target)}'s")
    if not isinstance(key, str):
        raise TypeError(f"a counter name must be a text, got {type_name(key)}")
    c.game.set_player(target, key, op, value)


def as_zone(v, op: str, role: str) -> ZoneRef:
    if not isinstance(v, ZoneRef):
        raise TypeError(f"the {role} of `{op}` must be a zone, got {type_name(v)}")
    return v


def _builtin_get():
    from .builtins import REGISTRY
    return REGISTRY["get"].fn


_GET = _builtin_get()
