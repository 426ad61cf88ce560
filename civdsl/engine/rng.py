"""The game's one random stream, with a bookmark that costs nothing to take.

A step that fails is undone, its dice included: the stream must go back to where the step began.
Saving Python's Mersenne Twister state (`getstate`, 625 numbers) at every step that rolls would cost
more than the step itself, so this stream counts the 32-bit words it draws instead. A bookmark is
(state at the last base, words drawn since); going back to it restores the base and draws the words
again. The numbers drawn are exactly those of `random.Random(seed)`: games and logs are unchanged.
"""
from __future__ import annotations

import random

_getrandbits = random.Random.getrandbits
_random = random.Random.random
_setstate = random.Random.setstate
REBASE_WORDS = 50_000  # a new base after this many words keeps a rewind below a few milliseconds


class GameRandom(random.Random):
    """`random.Random` that knows how far it has drawn since its base state."""

    def seed(self, a=None, version=2):
        super().seed(a, version)
        self._base = (a, version) if isinstance(a, (int, str)) else self.getstate()  # a seed: no state copied
        self.words = 0

    def rebase(self) -> None:
        """Make the current state the base bookmarks count from."""
        self._base = self.getstate()
        self.words = 0

    def getrandbits(self, k: int) -> int:
        if k > 0:
            self.words += (k + 31) >> 5  # one 32-bit word per 32 bits asked for (CPython's `getrandbits`)
        return _getrandbits(self, k)

    def below(self, n: int) -> int:
        """`randrange(n)` for n >= 1, drawing exactly what it draws (CPython's `_randbelow`), faster."""
        k = n.bit_length()
        words = (k + 31) >> 5
        self.words += words
        r = _getrandbits(self, k)
        while r >= n:
            self.words += words
            r = _getrandbits(self, k)
        return r

    def random(self) -> float:
        self.words += 2  # two words make one float
        return _random(self)

    def setstate(self, state) -> None:
        _setstate(self, state)
        self._base = state
        self.words = 0

    def bookmark(self) -> tuple:
        return self._base, self.words

    def rewind(self, mark: tuple) -> None:
        """Go back to a bookmark: its base state, then the same words drawn again."""
        base, words = mark
        if len(base) == 2:  # (seed, version): the state right after seeding
            random.Random.seed(self, *base)
        else:
            _setstate(self, base)
        for _ in range(words):
            _getrandbits(self, 32)
        self._base, self.words = base, words

    def copy(self) -> "GameRandom":
        twin = GameRandom.__new__(GameRandom)
        _setstate(twin, self.getstate())
        twin._base, twin.words = self._base, self.words
        return twin
