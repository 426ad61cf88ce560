"""The OpenSpiel game `civdsl`: any edition as a `pyspiel` Python game (needs `open_spiel`).

    import pyspiel
    from civdsl.env import register_openspiel
    register_openspiel()
    game = pyspiel.load_game("civdsl", {"edition": EDITION, "players": 2, "seed": 7})

Parameters: `edition` (required: a name `civdsl list` shows, a folder or a `.civ` file), `players`,
`seed`, `options` and `house_rules` (comma-separated), `max_rounds` (0: the ruleset's), `max_actions`
(the number of distinct actions). A state waits for one player's decision; its legal actions are the
indexes of the options. Chance is sampled inside the game from its seed (`SAMPLED_STOCHASTIC`): a
cloned state rolls the same dice, so a search over clones knows the future dice (civdsl's own `mcts`
draws them again for every simulated game). Returns at the end are the places of the
ruleset's victory ranking, from -1 to +1 (as in the PettingZoo environment). Observations (string and
tensor) are the seat's view as the environment's layout encodes it (`encode.Layout`).
"""
from __future__ import annotations

import json

import numpy as np
import pyspiel

from ...api import allowed_players, load_program
from ...engine.interpreter import Game
from ...engine.state import to_jsonable
from ...language.diagnostics import error
from .aec import DEFAULT_MAX_ACTIONS, place_rewards
from .encode import Layout
from .stepper import Stepper, check_actions

SHORT_NAME = "civdsl"
MAX_PLAYERS = 18
PARAMETERS = {"edition": "", "players": 2, "seed": 0, "options": "", "house_rules": "",
              "max_rounds": 0, "max_actions": DEFAULT_MAX_ACTIONS}

_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME, long_name="civdsl: any Civilization-family ruleset",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=MAX_PLAYERS, min_num_players=1,
    provides_information_state_string=False, provides_information_state_tensor=False,
    provides_observation_string=True, provides_observation_tensor=True,
    parameter_specification=PARAMETERS)


def register() -> str:
    """Register the game with pyspiel (once per process); its short name."""
    if SHORT_NAME not in pyspiel.registered_names():
        pyspiel.register_game(_TYPE, CivGame)
    return SHORT_NAME


class CivGame(pyspiel.Game):
    def __init__(self, params=None):
        p = dict(PARAMETERS) | dict(params or {})
        split = (lambda text: [x.strip() for x in str(text).split(",") if x.strip()])
        if not p["edition"]:
            raise error("CFG014", "no edition given", None, 'load the game with {"edition": NAME, ...}')
        self.program = load_program(p["edition"], split(p["options"]), split(p["house_rules"]))
        allowed = allowed_players(self.program.ruleset)
        n = int(p["players"])
        if allowed and n not in allowed:
            raise error("CFG015", f"edition `{self.program.ruleset.edition()}` is played by {allowed[0]}–"
                        f"{allowed[-1]} players, not {n}", None, "change `players`")
        self.seats, self.seed = n, int(p["seed"])
        self.max_rounds = int(p["max_rounds"]) or None
        self.max_actions = int(p["max_actions"])
        self.layout = Layout(self.program, n)
        super().__init__(_TYPE, pyspiel.GameInfo(
            num_distinct_actions=self.max_actions, max_chance_outcomes=0, num_players=n, min_utility=-1.0,
            max_utility=1.0, utility_sum=None, max_game_length=1_000_000), p)

    def new_initial_state(self):
        return CivState(self)

    def make_py_observer(self, iig_obs_type=None, params=None):
        return CivObserver(self)


class _Core:
    """The stepper of a state; a state's copy (`clone`) gets its own (`Stepper.copy`)."""

    def __init__(self, stepper: Stepper):
        self.stepper = stepper

    def __deepcopy__(self, memo):
        return _Core(self.stepper.copy())


class CivState(pyspiel.State):
    def __init__(self, game: CivGame):
        super().__init__(game)
        n, seed, rounds = game.seats, game.seed, game.max_rounds
        self.core = _Core(Stepper(
            lambda driver: Game(game.program, n, seed, [driver] * n, logging=False, max_rounds=rounds),
            lambda: [None] * n))
        self.max_actions = game.max_actions
        self._check()

    @property
    def stepper(self) -> Stepper:
        return self.core.stepper

    def _check(self) -> None:
        check_actions(self.stepper.waiting, self.max_actions, "load the game")

    def current_player(self):
        w = self.stepper.waiting
        return pyspiel.PlayerId.TERMINAL if w is None else w.seat

    def _legal_actions(self, player):
        w = self.stepper.waiting
        if w is None or player != w.seat:
            return []
        return list(range(len(w.decision.options)))

    def _apply_action(self, action):
        self.stepper.answer(int(action))
        self._check()

    def _action_to_string(self, player, action):
        w = self.stepper.waiting
        if w is None or not 0 <= action < len(w.decision.options):
            return f"action {action}"
        return f"{w.decision.tag}: {w.decision.labels[action]}"

    def is_terminal(self):
        return self.stepper.over

    def returns(self):
        st = self.stepper
        return place_rewards(st.result, len(st.game.state.players)) if st.over else [0.0] * len(st.game.state.players)

    def __str__(self):
        st = self.stepper
        if st.over:
            return f"game over after {st.result.rounds} round(s): {', '.join(st.result.winners) or 'no winner'}"
        d = st.waiting.decision
        return f"round {st.game.state.round}, {d.player.name} to answer \"{d.tag}\" ({len(d.options)} options)"


class CivObserver:
    """A seat's view: the layout's vector as the tensor, the observation's JSON as the string."""

    def __init__(self, game: CivGame):
        self.layout = game.layout
        self.tensor = np.zeros(self.layout.size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: CivState, player: int):
        self.tensor[:] = self.layout.at(state.stepper, player)[0]

    def string_from(self, state: CivState, player: int):
        game = state.stepper.game
        return json.dumps(to_jsonable(game.sight.observe(game.state, game.state.players[player])), sort_keys=True)
