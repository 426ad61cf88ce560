"""Environments for learning agents: `CivEnv`, a PettingZoo AEC environment for any edition (`aec`), and
an OpenSpiel game (`openspiel`, when `open_spiel` is installed). `civdsl.env` is the public name."""
from .aec import CivEnv, env, place_rewards, raw_env

__all__ = ["CivEnv", "env", "raw_env", "place_rewards"]
