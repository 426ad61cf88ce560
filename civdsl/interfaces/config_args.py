"""The command-line flags that make a game config (`play`, `simulate`): one place, so both read a
config and its overrides the same way. `play` also takes `--agent-cmd SEAT "command"` (an outside
program plays a seat: the command line is the only place that may start one, see `engine.external`)."""
from __future__ import annotations

import argparse


def add_config_args(p: argparse.ArgumentParser, seed_help: str) -> None:
    p.add_argument("config", nargs="?", help="a YAML game config (optional)")
    p.add_argument("--config", dest="config_opt", metavar="FILE", help="a YAML game config")
    p.add_argument("--edition", help="edition name (see `civdsl list`), folder, or .civ file")
    p.add_argument("--players", type=int, help="number of players")
    p.add_argument("--seed", type=int, help=seed_help)
    p.add_argument("--agents", help="agent per player, comma-separated, or one for all: random, heuristic "
                                    "(plays by the ruleset's heuristics; `greedy` is an older name), human, "
                                    "mcts (searches; options in parentheses: `mcts(iterations=400)`)")
    p.add_argument("--option", action="append", dest="options", metavar="NAME", help="enable an edition option")
    p.add_argument("--house-rule", action="append", dest="house_rules", metavar="FILE", help="apply a house rule")
    p.add_argument("--max-rounds", type=int, help="stop after this many rounds")


def add_agent_cmd_args(p: argparse.ArgumentParser) -> None:
    """`--agent-cmd SEAT "command"` (repeatable) and `--agent-timeout SECONDS`, for `play`."""
    p.add_argument("--agent-cmd", nargs=2, action="append", dest="agent_cmds", metavar=("SEAT", "COMMAND"),
                   help="an outside program plays this seat (1-based, or P2): it reads each decision as a JSON "
                        "line on its input and answers with the index of its choice (see docs/agents.md)")
    p.add_argument("--agent-timeout", type=_seconds, default=None, metavar="SECONDS",
                   help="how long a program of --agent-cmd may take to answer one decision (default 10)")


def config_from_args(args, log: str | None = None):
    """The config file named (if any) with the flags given on top."""
    from ..language.config import GameConfig, load_config, merge_cli
    path = args.config_opt or args.config
    cfg = load_config(path) if path else GameConfig()
    agents = split_agents(args.agents) if args.agents else None
    cfg = merge_cli(cfg, edition=args.edition, players=args.players, seed=args.seed, agents=agents,
                    options=args.options, house_rules=args.house_rules, max_rounds=args.max_rounds, log=log)
    commands = agent_commands(getattr(args, "agent_cmds", None), getattr(args, "agent_timeout", None))
    if commands:  # (after the schema's check: the agents a file may name are names only)
        cfg.agents = list(cfg.agents) + commands
    return cfg


def split_agents(text: str) -> list[str]:
    """`--agents mcts(iterations=50, c=1),heuristic` → the two specs: commas inside parentheses stay."""
    out, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth = max(0, depth - 1)
        elif ch == "," and depth == 0:
            out.append(text[start:i].strip())
            start = i + 1
    out.append(text[start:].strip())
    return out


def agent_commands(given: list | None, timeout: float | None) -> list:
    """The `ExternalCommand`s of `--agent-cmd SEAT COMMAND` pairs (CFG021 for a seat that is not one)."""
    from ..engine.external import DEFAULT_TIMEOUT, ExternalCommand
    from ..language.diagnostics import error
    commands, seats = [], set()
    for seat_text, command in given or []:
        text = seat_text[1:] if seat_text[:1] in "Pp" else seat_text
        if not text.isdigit() or not 1 <= int(text) <= 99:
            raise error("CFG021", f"--agent-cmd: `{seat_text}` is not a seat", None,
                        'name the seat by its number or its name: --agent-cmd 2 "python my_agent.py"')
        if int(text) in seats:
            raise error("CFG021", f"--agent-cmd: seat {int(text)} is given twice", None, "give each seat one program")
        if not command.strip():
            raise error("CFG021", f"--agent-cmd: the command for seat {int(text)} is empty", None,
                        'give the program to run: --agent-cmd 2 "python my_agent.py"')
        seats.add(int(text))
        commands.append(ExternalCommand(int(text), command, DEFAULT_TIMEOUT if timeout is None else timeout))
    return commands


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds, got {text!r}") from None
    if not 0 < value <= 86400:
        raise argparse.ArgumentTypeError(f"expected a number of seconds from 0 to 86400, got {text}")
    return value
