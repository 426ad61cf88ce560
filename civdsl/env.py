"""Agent environments: `civdsl.env.env(edition=..., players=...)` is a PettingZoo AEC environment for any
edition, options and house rules (see docs/agents.md); `civdsl.env.register_openspiel()` registers the
OpenSpiel game `civdsl` when `open_spiel` is installed. (The implementation is in
`civdsl.interfaces.env`.)"""
from .interfaces.env import CivEnv, env, place_rewards, raw_env


def register_openspiel() -> str:
    """Register the OpenSpiel game `civdsl` (`pyspiel.load_game("civdsl", {...})`); its short name."""
    from .interfaces.env.openspiel import register
    return register()


__all__ = ["CivEnv", "env", "raw_env", "place_rewards", "register_openspiel"]
