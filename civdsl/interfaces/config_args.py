"""The command-line flags that make a game config (`play`, `simulate`): one place, so both read a
config and its overrides the same way."""
from __future__ import annotations

import argparse


def add_config_args(p: argparse.ArgumentParser, seed_help: str) -> None:
    p.add_argument("config", nargs="?", help="a YAML game config (optional)")
    p.add_argument("--config", dest="config_opt", metavar="FILE", help="a YAML game config")
    p.add_argument("--edition", help="edition name (see `civdsl list`), folder, or .civ file")
    p.add_argument("--players", type=int, help="number of players")
    p.add_argument("--seed", type=int, help=seed_help)
    p.add_argument("--agents", help="agent per player, comma-separated, or one for all: random, heuristic "
                                    "(plays by the ruleset's heuristics; `greedy` is an older name), human")
    p.add_argument("--option", action="append", dest="options", metavar="NAME", help="enable an edition option")
    p.add_argument("--house-rule", action="append", dest="house_rules", metavar="FILE", help="apply a house rule")
    p.add_argument("--max-rounds", type=int, help="stop after this many rounds")


def config_from_args(args, log: str | None = None):
    """The config file named (if any) with the flags given on top."""
    from ..language.config import GameConfig, load_config, merge_cli
    path = args.config_opt or args.config
    cfg = load_config(path) if path else GameConfig()
    agents = args.agents.split(",") if args.agents else None
    return merge_cli(cfg, edition=args.edition, players=args.players, seed=args.seed, agents=agents,
                     options=args.options, house_rules=args.house_rules, max_rounds=args.max_rounds, log=log)
