"""Bounded work: how much a game's rules may compute, build and keep.

Rule files may come from strangers, so no rule may run or grow without end. Work is counted in units
drawn from two budgets: one per step (or set-up, or evaluation of the constants), and one for the whole
game. A statement costs a unit, and so does each item a comprehension works out; a loop, a range, a
membership test or a builtin costs a unit for each 16 items it goes through, and building a list or a
text a unit for each 16 items or characters. Values have bounds too: a whole
number at most `MAX_INT_BITS` bits, a list, record or text at most `MAX_SIZE` items or characters.
Exceeding any of them stops the game with a diagnostic at the rule that did it (RUN010, RUN013,
RUN014), and what the failing step did is undone. The defaults are far above anything the shipped
editions do (see docs/security.md); `Game(step_budget=..., game_budget=...)` and the CLI's
`--game-budget` change them. A process may also cap its memory (`limit_memory`).
"""
from __future__ import annotations

from .values import RuleError

STEP_BUDGET = 2_000_000        # units per step
GAME_BUDGET = 400_000_000      # units per game (the largest shipped game uses ~20M: docs/security.md)
MAX_SIZE = 1_000_000           # items of a list or record, characters of a text
MAX_INT_BITS = 4_096           # bits of a whole number (about 1,230 digits)
INLINE_INT = 1 << (MAX_INT_BITS // 2)  # numbers below this are added, subtracted, multiplied inline
INLINE_LOW = -INLINE_INT               # (made once: negating it is itself work)
ITEMS_PER_UNIT = 16            # items of a list or text built per unit of work
DEFAULT_MEMORY_MB = 4_096      # the CLI's cap on its process's memory (`--memory-limit`)


class OutOfWork(Exception):
    """A budget ran out inside a rule; the rule it happens in reports it (RUN010 or RUN013)."""

    def __init__(self, code: str, message: str, hint: str):
        super().__init__(message)
        self.code, self.message, self.hint = code, message, hint


def out_of_work(c) -> OutOfWork:
    """The step's or the game's budget ran out (whichever `c.budget` came from)."""
    if c.budget < c.game.step_budget:
        return OutOfWork("RUN013", f"the game's work budget of {c.game.game_budget} units is used up",
                         "the rules loop too long over the game; check the game's end condition, or raise the "
                         "budget (`--game-budget`)")
    return OutOfWork("RUN010", f"step budget of {c.budget} statements exceeded",
                     "a rule loops too long; check loop conditions")


def over_budget(c, span) -> RuleError:
    """`out_of_work` as the diagnostic of the statement at `span`."""
    w = out_of_work(c)
    return RuleError(w.code, w.message, span, w.hint)


def charge(c, units: int) -> None:
    """Draw `units` of work; raise when the budget is used up."""
    c.steps += units
    if c.steps > c.budget:
        raise out_of_work(c)


class TooLarge(ValueError):
    """A value would grow past its bound; the rule it happens in reports it as RUN014."""


def check_int(n: int) -> int:
    """A whole number within the bound (called where one may grow past it)."""
    if n.bit_length() > MAX_INT_BITS:
        raise TooLarge(f"a whole number of {n.bit_length():,} bits (more than {MAX_INT_BITS:,})")
    return n


def check_size(size: int, what: str = "a list or text") -> None:
    if size > MAX_SIZE:
        raise TooLarge(f"{what} of {size:,} items (more than {MAX_SIZE:,})")


NESTED = frozenset((list, dict, tuple))  # values that hold values


def walked(value, cap: int = MAX_SIZE) -> int:
    """How many values a walk through `value` meets, as a comparison or a search walks it (a list held
    twice counted twice), stopping past `cap`. Lists that share lists cost little to build and may be
    astronomically large to walk (`l = [l, l]`, forty times, is a trillion values); the walk below
    counts each shared list once, so it costs what the value costs to keep."""
    sizes: dict[int, int] = {}

    def size(v) -> int:
        known = sizes.get(id(v))
        if known is not None:
            return known
        items = v.values() if type(v) is dict else v
        n = len(items)
        if not NESTED.isdisjoint(map(type, items)):
            for x in items:
                if type(x) in NESTED:
                    n += size(x)
                    if n > cap:
                        break
        sizes[id(v)] = n = min(n, cap + 1)
        return n
    return size(value) if type(value) in NESTED else 1


def check_walk(c, value, what: str = "a value") -> int:
    """Before `value` is walked where neither budget nor alarm reaches (a comparison, a sort, a search,
    all in C): refuse one of more than `MAX_SIZE` values in all (`walked`), and pay for the walk."""
    n = walked(value)
    if n > MAX_SIZE:
        raise TooLarge(f"{what} of more than {MAX_SIZE:,} values in all, to be compared")
    if n >= ITEMS_PER_UNIT:
        charge(c, n // ITEMS_PER_UNIT)
    return n


def limit_memory(megabytes: int) -> bool:
    """Cap this process's memory (address space) where the platform allows; False where it does not.
    A rule that needs more stops with RUN015 instead of taking the machine down."""
    try:
        import resource
    except ImportError:  # not on this platform
        return False
    limit = megabytes * 1024 * 1024
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    if hard != resource.RLIM_INFINITY and limit > hard:
        limit = hard
    try:
        resource.setrlimit(resource.RLIMIT_AS, (limit, hard))
    except (ValueError, OSError):
        return False
    return True
