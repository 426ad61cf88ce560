"""Determinization: one possible world the deciding player cannot tell from the true one.

A search agent may use only what its player may see (`engine.visibility`). Before each simulated game
the copy of the game is changed, in place, into a world sampled from the player's information:

- every zone the player may not see keeps its size (a player sees how many cards a hand or a deck
  holds), and the items of all those zones are pooled and dealt back among them at random: which
  hidden place holds which unseen item, and in which order, is what the player does not know;
- a counter or variable the player may not see reads as it does for a heuristic (a counter 0, a
  variable `none`, or an empty record or list);
- the random stream is replaced by one of the agent's own: the game's future dice are hidden too.

The pool is sorted into a canonical order before it is dealt, so the sampled worlds depend only on
what the player may see (and the agent's own random stream): two games that differ only in what the
player cannot know give the agent the same worlds, and so the same decisions (tests hold this).

What a rule keeps in a step's local variables while it asks is replayed as the game played it (a
fork re-runs the step): a rule that draws a hidden card into a local and then asks would show it.
"""
from __future__ import annotations

import random

from ..builtins import fmt
from ..rng import GameRandom
from ..state import GameState, Player, ZoneRef
from ..values import EntityObj


def determinize(game, viewer: Player, rng: random.Random) -> None:
    """Change `game` (a copy, never the game being played) into a world sampled from what `viewer` may see."""
    state: GameState = game.state
    sight = game.sight
    places = hidden_places(state, sight, viewer)
    pool = [item for items in places for item in items]
    if sight.hides_anything:
        sight.blank(state, viewer)  # hidden values as a heuristic reads them (zones are dealt again below)
    if pool:
        pool.sort(key=canonical)
        rng.shuffle(pool)
        at = 0
        for items in places:
            n = len(items)
            items[:] = pool[at:at + n]
            at += n
    state.rng = GameRandom(rng.getrandbits(64))
    state.forced_dice[:] = []  # dice fixed in advance (by a test) are the future too


def hidden_places(state: GameState, sight, viewer: Player) -> list[list]:
    """The item lists of every zone `viewer` may not see, in a fixed order (global zones by name, then
    each player's by seat and name)."""
    places = [state.zones[name] for name in sorted(sight.hidden_zones(None, viewer)) if name in state.zones]
    for p in state.players:
        places += [p.zones[name] for name in sorted(sight.hidden_zones(p, viewer)) if name in p.zones]
    return places


def canonical(x) -> str:
    """A text that orders values the same way in every process (no hashes, no ids); equal values give
    equal texts."""
    t = type(x)
    if t is str:
        return "s" + x
    if t is int or t is float or t is bool or x is None:
        return f"n{t.__name__}:{x!r}"
    if t is EntityObj:
        return f"e{x.kind}:{x.name}"
    if t is Player:
        return f"p{x.index:04d}"
    if t is ZoneRef:
        return f"z{x.label()}"
    if t is list or t is tuple:
        return "l[" + ",".join(canonical(i) for i in x) + "]"
    if t is dict:
        pairs = sorted((canonical(k), canonical(v)) for k, v in x.items())
        return "r{" + ",".join(f"{k}:{v}" for k, v in pairs) + "}"
    return f"o{t.__name__}:{fmt(x)}"
