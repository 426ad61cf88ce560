"""`civdsl.env`: a PettingZoo AEC environment for any edition, options and house rules.

Agents are the seats the environment plays (`player_0` is P1); the other seats, if any, are played in the
game by the agents named for them (`agents=[None, "heuristic"]`: a learner against the heuristic). Each
step answers the pending decision of `agent_selection` with the index of an option. Observations are
`{"observation": vector, "action_mask": mask}`: the seat's view as numbers (`encode.Layout`, names in
`feature_names()`) and which of the `max_actions` actions are options now. `infos[agent]` names the
decision (`tag`, number of `options`); `decision()` gives its question and options in words, and
`view(agent)` the seat's views as the ruleset draws them (JSON, as the terminal and the web app show
them). At the end every seat's reward is its place by the ruleset's victory ranking: the share of the
other players it ranks above (ties count half), from -1 (last) to +1 (first); alone at the table, +1 for a
won game and -1 otherwise. A game stopped by a round cap is truncated, one that ends is terminated.

Codes: ENV001 a decision has more options than the action space, ENV002 an action that is not one of
the options, ENV003 a table without a seat for the environment, ENV004 a step before `reset`.
"""
from __future__ import annotations

import io
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from ...api import allowed_players, load_program
from ...engine.agents import make_agents
from ...engine.interpreter import Game
from ...engine.search.mcts import place_shares
from ...engine.state import to_jsonable
from ...engine.views import seat_view
from ...language.config import GameConfig, load_config
from ...language.diagnostics import error
from .encode import LIMIT, Layout
from .stepper import Stepper, check_actions

DEFAULT_MAX_ACTIONS = 256


def place_rewards(result, players: int) -> list[float]:
    """Each seat's reward from a finished game's ranking (see the module)."""
    if players == 1:
        return [1.0 if result.reason != "round cap" and result.ranking[0]["winner_condition"] else -1.0]
    return [2 * share - 1 for share in place_shares(result.ranking, players)]


class CivEnv(AECEnv):
    """The environment (see the module). `edition`, `players`, `options`, `house_rules`, `max_rounds` as
    a config gives them, or `config`: a config file (or a `GameConfig`); `agents`: per seat, None for a
    seat the environment plays or an agent name (`heuristic`, `mcts(iterations=50)`) for one it does not
    (default: it plays every seat); `seed`: the first game's seed (each `reset()` without a seed plays the
    next one); `max_actions`: the size of the action space; `render_mode`: "ansi" (the acting seat's
    views as text), "human" (printed) or "rgb_array" (the table drawn, as `civdsl render` draws it)."""

    metadata = {"render_modes": ["ansi", "human", "rgb_array"], "name": "civdsl_v0", "is_parallelizable": False}

    def __init__(self, edition: str | None = None, players: int | None = None, *, agents: list | None = None,
                 seed: int = 0, options: list[str] | None = None, house_rules: list[str] | None = None,
                 max_rounds: int | None = None, config: str | GameConfig | None = None,
                 max_actions: int = DEFAULT_MAX_ACTIONS, render_mode: str | None = None):
        super().__init__()
        cfg = load_config(config) if isinstance(config, str) else (config or GameConfig())
        self.cfg = GameConfig(edition=edition or cfg.edition, players=players or cfg.players, seed=seed,
                              options=list(options if options is not None else cfg.options),
                              house_rules=list(house_rules if house_rules is not None else cfg.house_rules),
                              max_rounds=max_rounds if max_rounds is not None else cfg.max_rounds)
        if not self.cfg.edition:
            raise error("CFG014", "no edition given", None, "pass edition=NAME or a config that names one")
        self.program = load_program(self.cfg.edition, self.cfg.options, self.cfg.house_rules)
        allowed = allowed_players(self.program.ruleset)
        n = self.cfg.players or (allowed[0] if allowed else 1)
        if allowed and n not in allowed:
            raise error("CFG015", f"edition `{self.program.ruleset.edition()}` is played by {allowed[0]}–"
                        f"{allowed[-1]} players, not {n}", None, "change `players`")
        self.num_seats = n
        seats = list(agents) if agents is not None else [None] * n
        if len(seats) != n:
            raise error("CFG011", f"{len(seats)} agents given for {n} players", None,
                        "give one entry per seat: None for a seat the environment plays, or an agent name")
        make_agents([s for s in seats if s is not None] or ["random"], max(1, sum(s is not None for s in seats)), 0)
        self.seat_agents = seats  # (names checked above: a bad one is CFG012 / CFG020 now, not at reset)
        self.possible_agents = [f"player_{i}" for i, s in enumerate(seats) if s is None]
        if not self.possible_agents:
            raise error("ENV003", "every seat is given to an agent: the environment has no seat to play", None,
                        "give None for the seats the environment plays: agents=[None, \"heuristic\"]")
        self.max_actions = int(max_actions)
        self.render_mode = render_mode
        self.layout = Layout(self.program, n)
        box = spaces.Box(-LIMIT, LIMIT, (self.layout.size,), np.float32)
        mask = spaces.Box(0, 1, (self.max_actions,), np.int8)
        self.observation_spaces = {a: spaces.Dict({"observation": box, "action_mask": mask})
                                   for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(self.max_actions) for a in self.possible_agents}
        self.stepper: Stepper | None = None
        self.games_played = 0
        self.result = None

    # -- spaces ---------------------------------------------------------------------------------------------
    def observation_space(self, agent: str):
        return self.observation_spaces[agent]

    def action_space(self, agent: str):
        return self.action_spaces[agent]

    def feature_names(self) -> list[str]:
        """What each number of the observation vector is (`p0.` is the observing player, `p1.` the next)."""
        return list(self.layout.names)

    # -- the game ----------------------------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """A new game: with `seed`, or the next seed after the last game's."""
        if seed is not None:
            self.cfg.seed = int(seed)
        elif self.stepper is not None:
            self.cfg.seed += 1
        cfg, n = self.cfg, self.num_seats
        self.stepper = Stepper(
            lambda driver: Game(self.program, n, cfg.seed, [driver] * n, logging=False, max_rounds=cfg.max_rounds),
            self._inner)
        self.result = None
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self._settle()

    def _inner(self) -> list:
        """Fresh agents for the seats the environment does not play (seeded from the game's seed)."""
        n, seed = self.num_seats, self.cfg.seed
        return [None if name is None else _seat_agent(name, n, seed, i) for i, name in enumerate(self.seat_agents)]

    def step(self, action) -> None:
        if self.stepper is None:
            raise error("ENV004", "step() before reset()", None, "call env.reset() first")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        w = self.stepper.waiting
        n = len(w.decision.options)
        try:
            choice = int(action)
        except (TypeError, ValueError):
            choice = -1
        if choice != action or not 0 <= choice < n:
            raise error("ENV002", f"{agent} answered {action!r} to \"{w.decision.tag}\", which has {n} options "
                        f"(0 to {n - 1})", None, "choose an action the observation's action_mask allows")
        self._cumulative_rewards[agent] = 0.0
        self.stepper.answer(choice)
        self._clear_rewards()
        self._settle()

    def _settle(self) -> None:
        """After the game moved on: whose turn it is, or the end and its rewards."""
        st = self.stepper
        if st.over:
            self.result = st.result
            rewards = place_rewards(st.result, self.num_seats)
            cut = st.result.reason == "round cap"
            for a in self.agents:
                self.rewards[a] = rewards[_seat(a)]
                self.terminations[a], self.truncations[a] = not cut, cut
                self.infos[a] = {"reason": st.result.reason, "rounds": st.result.rounds}
            self._accumulate_rewards()
            self.agent_selection = self.agents[0]
            return
        check_actions(st.waiting, self.max_actions, "make the environment")
        d = st.waiting.decision
        self.agent_selection = f"player_{d.player.index}"
        for a in self.agents:
            self.infos[a] = {}
        self.infos[self.agent_selection] = {"tag": d.tag, "options": len(d.options), "round": st.game.state.round}

    def observe(self, agent: str) -> dict:
        vector, n = self.layout.at(self.stepper, _seat(agent))
        mask = np.zeros(self.max_actions, np.int8)
        mask[:n] = 1
        return {"observation": vector, "action_mask": mask}

    def decision(self) -> dict | None:
        """The pending decision in words: who, its tag and question, the options as values and labels."""
        w = self.stepper.waiting if self.stepper else None
        if w is None:
            return None
        d = w.decision
        return {"agent": f"player_{d.player.index}", "player": d.player.name, "tag": d.tag,
                "question": d.question, "options": [to_jsonable(o) for o in d.options], "labels": d.labels}

    def view(self, agent: str | None = None) -> dict:
        """The views of the game for `agent`'s seat (None: a spectator), as `civdsl` draws them (JSON)."""
        return seat_view(self.stepper.game, None if agent is None else _seat(agent))

    def render(self) -> Any:
        if self.stepper is None or self.render_mode is None:
            return None
        seat = None if self.stepper.waiting is None else self.stepper.waiting.seat
        if self.render_mode == "rgb_array":
            from matplotlib import image

            from ...tools.scene import scene_of
            from ..render import render_png
            picture = image.imread(io.BytesIO(render_png(scene_of(self.stepper.game, seat))), format="png")
            return (np.clip(picture[..., :3], 0, 1) * 255).round().astype(np.uint8)  # (height, width, RGB)
        from ..terminal import make_look
        from ..terminal.panels import render_seat
        out = io.StringIO()
        look = make_look(out, plain=True, width=100)
        for part in render_seat(seat_view(self.stepper.game, seat), look):
            look.console.print(part)
        text = out.getvalue()
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        self.stepper = None

    def __str__(self) -> str:
        return f"civdsl_v0[{self.program.ruleset.edition()}]"


def _seat(agent: str) -> int:
    return int(agent.rsplit("_", 1)[1])


def _seat_agent(name: str, players: int, seed: int, index: int):
    """The agent `make_agents` would seat at `index` for `name`."""
    names = ["random"] * players
    names[index] = name
    return make_agents(names, players, seed)[index]


def env(**kwargs) -> CivEnv:
    """A `CivEnv` (PettingZoo's convention: `env()` makes the environment)."""
    return CivEnv(**kwargs)


raw_env = CivEnv
