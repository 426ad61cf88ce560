"""The limits of the language, in one place: how big a rule file, a number or an expression may be.

Rule files may come from strangers, so every stage that walks a syntax tree must be safe on the
deepest tree the parser accepts: the parser refuses an expression nested deeper than
`MAX_EXPRESSION_DEPTH` (a chain `1 + 1 + ... + 1` of that many operators is fine), and the stages that
walk trees recursively (compiling, formatting, caching, comparing) run with `room_to_recurse()`.
The engine's limits on work while a game runs are in `engine/budget.py`.
"""
from __future__ import annotations

import sys
import threading
from contextlib import contextmanager

MAX_SOURCE_BYTES = 500_000     # a rule file (the largest shipped one is 22 KB)
MAX_NESTING = 200              # brackets `{ [ (` nested in a file
MAX_NUMBER_DIGITS = 30         # digits of a number literal
MAX_EXPRESSION_DEPTH = 1_000   # an expression's syntax tree, e.g. operators in a row
_FRAMES_PER_LEVEL = 8          # Python frames a recursive walk may take per level of a tree
_ROOM = MAX_EXPRESSION_DEPTH * _FRAMES_PER_LEVEL + 2_000
_lock = threading.Lock()
_users = 0
_saved_limit = 0


def deep(fn):
    """`fn` runs with `room_to_recurse()` (for functions that walk syntax trees recursively)."""
    import functools

    @functools.wraps(fn)
    def run(*args, **kwargs):
        with room_to_recurse():
            return fn(*args, **kwargs)
    return run


@contextmanager
def room_to_recurse():
    """Let the current thread recurse deep enough for any tree the parser accepts, and no deeper."""
    global _users, _saved_limit
    with _lock:
        if _users == 0:
            _saved_limit = sys.getrecursionlimit()
            if _saved_limit < _ROOM:
                sys.setrecursionlimit(_ROOM)
        _users += 1
    try:
        yield
    finally:
        with _lock:
            _users -= 1
            if _users == 0 and sys.getrecursionlimit() == _ROOM and _saved_limit < _ROOM:
                sys.setrecursionlimit(_saved_limit)


_collector_users = 0
_collector_was_on = True


@contextmanager
def collector_paused():
    """Put off Python's cyclic garbage collector while rule files are parsed and compiled: they make
    many objects and free few, and its passes over them made a large (legal) rule file take minutes.
    Memory stays bounded by the size of the rule files; the collector runs again afterwards."""
    import gc
    global _collector_users, _collector_was_on
    with _lock:
        if _collector_users == 0:
            _collector_was_on = gc.isenabled()
            gc.disable()
        _collector_users += 1
    try:
        yield
    finally:
        with _lock:
            _collector_users -= 1
            if _collector_users == 0 and _collector_was_on:
                gc.enable()
