"""A seat's observation as a vector of numbers with a fixed layout, for learning agents.

The layout comes from the ruleset's declarations and the number of players, and is fixed when the
environment is made: the round, the phase (one-hot), whether the seat is the one to answer and how many
options it has; the table's counters, variables and zones; then every player's, the observing player
first and the others in seat order after it (so one policy can play any seat); then, on each map, the
observing player's pieces, the other players' and the neutral ones on every area.

Numbers are read from the game as the seat may see it (`Visibility.observe`): a hidden counter or
variable reads 0, a hidden zone gives its size only. A variable gives one number when it holds a number
or a truth value, one per key when it holds a record of them (as it starts the game), its length when it
holds a list, and when it holds a thing's name, that thing's place in the ruleset's list of things (from
1; 0 for none). A zone gives its size and how many of each declared thing it holds. Parameters
(constants) are left out. `Layout.names` says what each number is.
"""
from __future__ import annotations

import numpy as np

from ...engine.agents import RandomAgent
from ...engine.interpreter import Game

LIMIT = 1e9  # numbers are clipped to ±LIMIT (the observation space's bounds)


class Layout:
    """Where each number goes (see the module)."""

    def __init__(self, program, players: int):
        probe = Game(program, players, 0, [RandomAgent(0, i + 1) for i in range(players)], logging=False)
        probe.init()  # the declarations' starting values (no set-up played): the shapes of the variables
        st = probe.state
        params = {name for name, _fn, _span in program.params}
        self.players = players
        self.things = {name: i + 1 for i, name in enumerate(sorted(program.entities))}
        self.phases = list(program.phases)
        self.global_counters = sorted(n for s, n in program.counters if s == "global")
        self.player_counters = sorted(n for s, n in program.counters if s == "player")
        self.global_vars = [(n, _shape(st.vars.get(n))) for s, n in sorted(program.vars, key=lambda k: k[1])
                            if s == "global" and n not in params]
        self.player_vars = [(n, _shape(st.players[0].vars.get(n))) for s, n in sorted(program.vars, key=lambda k: k[1])
                            if s == "player"]
        self.global_zones = sorted(n for s, n in program.zones if s == "global")
        self.player_zones = sorted(n for s, n in program.zones if s == "player")
        self.areas = [(m, a) for m in sorted(st.maps) for a in sorted(st.maps[m].areas)]
        self.area_index = {a: i for i, (_m, a) in enumerate(self.areas)}
        names = ["round", "deciding", "options"] + [f"phase={p}" for p in self.phases]
        names += _part_names("", self.global_counters, self.global_vars, self.global_zones, self.things)
        for k in range(players):
            names += _part_names(f"p{k}.", self.player_counters, self.player_vars, self.player_zones, self.things)
        for m, a in self.areas:
            names += [f"{m}/{a}:mine", f"{m}/{a}:others", f"{m}/{a}:neutral"]
        self.names = names
        self.size = len(names)

    def at(self, stepper, seat: int) -> tuple[np.ndarray, int]:
        """The vector of the seat at a stepper's moment (`stepper.Stepper`), and how many options it has
        to choose from (0 when another seat is to answer, or the game is over)."""
        game, waiting = stepper.game, stepper.waiting
        options = len(waiting.decision.options) if waiting is not None and waiting.seat == seat else 0
        obs = game.sight.observe(game.state, game.state.players[seat])
        return self.encode(obs, seat, options > 0, options), options

    def encode(self, obs: dict, seat: int, deciding: bool, options: int) -> np.ndarray:
        """The vector of one seat's observation (`Visibility.observe`'s JSON for that seat)."""
        out: list[float] = [obs.get("round", 0), float(deciding), options]
        out += [1.0 if obs.get("phase") == p else 0.0 for p in self.phases]
        self._part(out, obs, self.global_counters, self.global_vars, self.global_zones)
        players = obs["players"]
        n = len(players)
        for k in range(n):
            self._part(out, players[(seat + k) % n], self.player_counters, self.player_vars, self.player_zones)
        if self.areas:
            pieces = np.zeros((len(self.areas), 3))
            for area, owner, _kind, count in obs.get("pieces", []):
                i = self.area_index.get(area)
                if i is not None:
                    pieces[i, 0 if owner == seat else 2 if owner is None or owner < 0 else 1] += count
            out += pieces.ravel().tolist()
        return np.clip(np.asarray(out, dtype=np.float32), -LIMIT, LIMIT)

    def _part(self, out: list, data: dict, counters: list, variables: list, zones: list) -> None:
        values = data.get("counters", {})
        out += [_number(values.get(n)) for n in counters]
        held = data.get("vars", {})
        for name, shape in variables:
            v = held.get(name)
            if isinstance(shape, tuple):
                rec = v if isinstance(v, dict) and not v.get("hidden") else {}
                out += [_number(rec.get(k)) for k in shape]
            elif shape == "list":
                out.append(float(len(v)) if isinstance(v, list) else 0.0)
            else:
                out.append(self.things.get(v, 0.0) if isinstance(v, str) else _number(v))
        things = self.things
        for name in zones:
            z = data.get("zones", {}).get(name)
            counts = [0.0] * len(things)
            if isinstance(z, dict):  # hidden: its size only
                out.append(float(z.get("count", 0)))
            else:
                z = z or []
                out.append(float(len(z)))
                for item in z:
                    i = things.get(item) if isinstance(item, str) else None
                    if i:
                        counts[i - 1] += 1
            out += counts


def _shape(value) -> str | tuple:
    """How a variable is counted: by the keys of a record of numbers, as a list's length, or as one value."""
    if isinstance(value, dict):
        return tuple(sorted(str(k) for k, v in value.items() if isinstance(v, (int, float, bool))))
    if isinstance(value, list):
        return "list"
    return "value"


def _part_names(prefix: str, counters: list, variables: list, zones: list, things: dict) -> list[str]:
    names = [f"{prefix}counter:{n}" for n in counters]
    for name, shape in variables:
        if isinstance(shape, tuple):
            names += [f"{prefix}var:{name}.{k}" for k in shape]
        else:
            names.append(f"{prefix}var:{name}" + ("#len" if shape == "list" else ""))
    for name in zones:
        names.append(f"{prefix}zone:{name}#size")
        names += [f"{prefix}zone:{name}:{t}" for t in things]
    return names


def _number(v) -> float:
    if isinstance(v, bool):
        return float(v)
    if isinstance(v, (int, float)):
        return float(v)
    return 0.0
