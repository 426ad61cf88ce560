"""Search agents: `mcts`, information-set Monte Carlo tree search over forks of the game (see `mcts`)."""
from .mcts import MctsAgent

__all__ = ["MctsAgent"]
