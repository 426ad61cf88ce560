"""Forking a game: an independent copy that continues from the same point, for search agents that
play out possible futures.

A copy holds its own state, random stream, log and agents; the program is shared (it does not change
during a game). A game can be forked between rounds, or while one of its players decides (from
inside an agent's `choose`): the step being played is then undone in the copy — state, dice and log
back to where the step began, as if it had failed — and the copy re-runs it from its start, giving the
answers already given and asking the pending question again, of its own agent. Forked games diverge
only by the decisions given to them: with the same answers they play the same game, byte for byte.
"""
from __future__ import annotations

import copy

from ..language.diagnostics import error
from .changes import RNG_MARK, SKIPS_MARK, undo
from .state import GameState, Pieces, Player, ZoneRef

_ATOMS = (int, str, float, bool, type(None))


class Forking:
    """`Game.fork` (a mixin of `Game`)."""

    def fork(self, agents: list | None = None, *, logging: bool | None = None):
        """An independent copy of this game that continues from here (see the module docstring).

        `agents`: the copy's agents (default: copies of this game's agents, their random streams
        included, so that the copy plays as this game would). `logging`: whether the copy keeps a
        log (default: as this game); a copy starts with this game's log so far."""
        deciding = self._deciding is not None
        mid_step = deciding and self._in_round and self.journal is not None
        if self._blanked or self.no_random or ((deciding or self._in_round) and not mid_step):
            raise error("FRK001", "a game can be forked only between rounds or while a player decides in a "
                        "round", None, "fork from an agent's `choose` during play (not during the set-up), or "
                        "between calls of `play_round`")
        memo: dict[int, object] = {}
        twin = object.__new__(type(self))
        twin.__dict__.update(self.__dict__)  # settings and program-level caches; the rest is replaced below
        twin.state = copy_state(self.state, memo)
        twin.c = type(self.c)(twin, min(self.step_budget, self.game_budget))
        twin.agents = list(agents) if agents is not None else [fork_agent(a) for a in self.agents]
        twin.logging = self.logging if logging is None else logging
        twin.echo = None
        twin.on_round = None
        twin.cursor = self.cursor.copy(memo)
        twin.journal, twin._open, twin._rng_saved, twin._zones_saved = None, [], False, set()
        twin._deciding, twin._blanked, twin._in_round = None, 0, False
        twin._step_choices = []
        twin._resume, twin._replay = mid_step, []
        keep = self._open[0][1] if mid_step else len(self.events)
        twin.events = self.events[:keep] if twin.logging else []
        twin.measures = copy.deepcopy(self.measures[:self._open[0][2]] if mid_step else self.measures)
        if mid_step:  # back to the start of the step, then re-run it with the answers given so far
            for journal, *_ in reversed(self._open):
                undo(twin.state, [_copied_entry(entry, memo) for entry in journal if _in_copy(entry, memo)])
            twin._replay = list(reversed(self._step_choices))
        return twin


def fork_agent(agent):
    """A copy of an agent for a forked game: its own `fork()` when it has one, else a deep copy."""
    own = getattr(agent, "fork", None)
    return own() if callable(own) else copy.deepcopy(agent)


def copy_state(st: GameState, memo: dict) -> GameState:
    """A deep copy of the state; `memo` maps the id of every copied container (and player) to its copy,
    so that undo records of the original can be applied to the copy."""
    players = []
    for p in st.players:
        q = Player.__new__(Player)
        q.index, q.name, q.agent = p.index, p.name, p.agent
        memo[id(p)] = q
        players.append(q)
    for p, q in zip(st.players, players):
        q.counters = _registered(p.counters, dict(p.counters), memo)
        q.zones = {name: _copy_list(items, memo) for name, items in p.zones.items()}
    twin = GameState.__new__(GameState)
    twin.players = players
    twin.counters = _registered(st.counters, dict(st.counters), memo)
    twin.zones = {name: _copy_list(items, memo) for name, items in st.zones.items()}
    twin.forced_dice = _copy_list(st.forced_dice, memo)
    for p, q in zip(st.players, players):  # variables last: they may hold zones (their lists are copied)
        q.vars = _registered(p.vars, _copy_values(p.vars, memo), memo)
    twin.vars = _registered(st.vars, _copy_values(st.vars, memo), memo)
    twin.maps = dict(st.maps)  # map graphs do not change during a game
    twin.pieces = _registered(st.pieces, _copy_pieces(st.pieces), memo)
    twin.rng = st.rng.copy()
    twin.round, twin.phase, twin.step, twin.ended = st.round, st.phase, st.step, st.ended
    twin.current = memo.get(id(st.current)) if st.current is not None else None
    twin.skips = set(st.skips)
    return twin


def copy_value(v, memo: dict):
    """A runtime value for the copy: records copied (sharing kept), players and zones mapped to the
    copy's, everything else (numbers, texts, dice, tables, things) shared. A list is a value no rule
    changes in place, so a list of plain values is shared too."""
    t = type(v)
    if t in _ATOMS:
        return v
    hit = memo.get(id(v))
    if hit is not None:
        return hit
    if t is list:
        for x in v:
            if type(x) not in _ATOMS:
                return _copy_list(v, memo)
        return v
    if t is dict:
        new: dict = {}
        memo[id(v)] = new
        for k, x in v.items():
            new[k if type(k) in _ATOMS else copy_value(k, memo)] = x if type(x) in _ATOMS else copy_value(x, memo)
        return new
    if t is ZoneRef:
        return ZoneRef(memo.get(id(v.owner), v.owner), v.name, _copy_list(v.items, memo))
    if t is tuple:
        return tuple(copy_value(x, memo) for x in v)
    return v


def _copy_list(items: list, memo: dict) -> list:
    """A list copied (a zone's items, or a list holding records or players)."""
    hit = memo.get(id(items))
    if hit is not None:
        return hit
    new = [x if type(x) in _ATOMS else copy_value(x, memo) for x in items]
    memo[id(items)] = new
    return new


def _copy_values(store: dict, memo: dict) -> dict:
    return {k: v if type(v) in _ATOMS else copy_value(v, memo) for k, v in store.items()}


def _registered(original, copied, memo: dict):
    memo[id(original)] = copied
    return copied


def _copy_pieces(pieces: Pieces) -> Pieces:
    twin = Pieces.__new__(Pieces)
    twin.by_area = {area: dict(here) for area, here in pieces.by_area.items()}
    twin.by_owner = {key: dict(areas) for key, areas in pieces.by_owner.items()}
    twin.totals = dict(pieces.totals)
    return twin


def _in_copy(entry: tuple, memo: dict) -> bool:
    """Whether an undo record concerns the copied state (not a record the step made and dropped)."""
    store = entry[0]
    return store is RNG_MARK or entry[1] is SKIPS_MARK or id(store) in memo


def _copied_entry(entry: tuple, memo: dict) -> tuple:
    store, key, old = entry
    if store is RNG_MARK:
        return entry
    if key is SKIPS_MARK:
        return None, key, set(old)
    return memo[id(store)], copy_value(key, memo), copy_value(old, memo)
