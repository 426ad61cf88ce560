"""The options of a subset decision (`who chooses subset "tag" [lo..hi] of items`), listed without
being built.

A subset decision asks for some of a list's items, between `lo` and `hi` of them. Agents answer every
decision the same way, with the index of one of its options (`Decision.options`); for a subset decision
the options are the legal subsets, in a fixed order: by size, smallest first, and within a size in the
order of their positions (`itertools.combinations`: {1, 2} before {1, 3} before {2, 3}). Items are told
apart by position, so two equal items (two dice showing 6) make two options with equal values. The
options are worked out one at a time, on demand: a decision over five dice has 32 of them, one over 16
cards 65,536 (the most a decision may have: `MAX_SUBSETS`).

Index, positions and bit mask convert into each other (`positions`, `index`, `mask`, `index_of_mask`),
so an agent may think in items (toggles, checkboxes, a bit mask over the positions) and still answer
with an index: see docs/language.md, "Choosing a subset".
"""
from __future__ import annotations

from itertools import combinations
from math import comb

from .budget import TooLarge
from .builtins import fmt, type_name

MAX_SUBSETS = 65_536  # options of one subset decision (every subset of 16 items)


class Subsets:
    """The legal subsets of `items` of `lo` to `hi` items, as a read-only sequence of lists."""

    __slots__ = ("items", "lo", "hi", "_asked", "_sizes", "_count")

    def __init__(self, items: list, lo, hi):
        n = len(items)
        for what, v in (("least", lo), ("most", hi)):
            if type(v) is not int:
                given = fmt(v) if type(v) is float else type_name(v)
                raise TypeError(f"the {what} number of items to choose must be a whole number, not {given}")
        if lo < 0:
            raise ValueError(f"cannot choose {lo} items: the number of items to choose is at least 0")
        self.items = items
        self.lo, self.hi, self._asked = lo, min(hi, n), hi
        self._sizes = [(k, comb(n, k)) for k in range(self.lo, self.hi + 1)]
        self._count = sum(c for _, c in self._sizes)
        if self._count > MAX_SUBSETS:
            raise TooLarge(f"a choice among {self._count:,} subsets of {n} items (more than {MAX_SUBSETS:,}; "
                           f"choose from fewer items, or bound how many)")

    def __len__(self) -> int:
        return self._count

    def __getitem__(self, index: int) -> list:
        return [self.items[i] for i in self.positions(index)]

    def __iter__(self):
        items, n = self.items, len(self.items)
        for k, _ in self._sizes:
            for chosen in combinations(range(n), k):
                yield [items[i] for i in chosen]

    def positions(self, index: int) -> tuple[int, ...]:
        """The 0-based positions of the items of option `index`, in ascending order."""
        if type(index) is not int or not 0 <= index < self._count:
            raise IndexError(f"option {index!r} of {self._count}")
        n = len(self.items)
        for k, count in self._sizes:
            if index < count:
                break
            index -= count
        chosen, x = [], 0
        for i in range(k):  # the `index`-th combination of k positions, in lexicographic order
            while True:
                below = comb(n - x - 1, k - i - 1)
                if index < below:
                    chosen.append(x)
                    x += 1
                    break
                index -= below
                x += 1
        return tuple(chosen)

    def index(self, positions) -> int:
        """The option holding the items at these 0-based positions (any order); ValueError when they are
        not a legal subset (a position out of range or repeated, or too few or too many)."""
        chosen = sorted(positions)
        n, k = len(self.items), len(chosen)
        if any(type(x) is not int for x in chosen) or len(set(chosen)) != k or (chosen and not 0 <= chosen[0]
                                                                                  <= chosen[-1] < n):
            raise ValueError(f"positions {list(positions)!r} are not distinct positions of {n} items")
        if not self.lo <= k <= self.hi:
            raise ValueError(f"{k} items chosen, but the choice is of {self.describe_size()}")
        index = sum(count for size, count in self._sizes if size < k)
        previous = -1
        for i, x in enumerate(chosen):
            for skipped in range(previous + 1, x):
                index += comb(n - skipped - 1, k - i - 1)
            previous = x
        return index

    def mask(self, index: int) -> int:
        """Option `index` as a bit mask: bit i is set when the item at position i is chosen."""
        return sum(1 << i for i in self.positions(index))

    def index_of_mask(self, mask: int) -> int:
        """The option of a bit mask (bit i: the item at position i); ValueError when it is not legal."""
        if type(mask) is not int or mask < 0 or mask >> len(self.items):
            raise ValueError(f"{mask!r} is not a bit mask over {len(self.items)} items")
        return self.index([i for i in range(len(self.items)) if mask >> i & 1])

    def index_of_values(self, values: list) -> int | None:
        """The option whose items are these values, in any order (a value matches an item equal to it or
        written the same way, `fmt`); equal items are taken from the first positions. None when the values
        are not among the items, or are too few or too many."""
        taken: list[int] = []
        for v in values:
            at = next((i for i, item in enumerate(self.items) if i not in taken and (item == v or fmt(item) == v)),
                      None)
            if at is None:
                return None
            taken.append(at)
        try:
            return self.index(taken)
        except ValueError:
            return None

    def describe_size(self) -> str:
        """How many items may be chosen, as asked: `exactly 2 items`, `1 to 3 items`, `at least 3 items`,
        `any number of the 5 items`."""
        n, lo, hi = len(self.items), self.lo, self._asked
        if lo == hi:
            return f"exactly {lo} item{'s' if lo != 1 else ''}"
        if hi >= n:
            return f"any number of the {n} items" if lo == 0 else f"at least {lo} item{'s' if lo != 1 else ''}"
        return f"{lo} to {hi} items"
