"""The balance lab's commands: `simulate` (play and store many games), `stats` (measure a stored run)
and `compare` (two configs on the same seeds). See docs/lab.md."""
from __future__ import annotations

import argparse
import json
import os
import shlex
import sys

from ..language.diagnostics import error
from .config_args import add_config_args, config_from_args

EXIT_OK, EXIT_FINDINGS = 0, 1
DEFAULT_DB = "results.duckdb"


def _positive(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if n < 1:
        raise argparse.ArgumentTypeError(f"expected at least 1, got {n}")
    return n


def add_parsers(sub) -> None:
    s = sub.add_parser("simulate", help="play many seeded games of a config and store the results",
                       description="Play games seed, seed+1, ... of a config in parallel and store one row per "
                       "game, per player and per measurement in a DuckDB file. Games already stored for the "
                       "same config and rules are not played again, so an interrupted run resumes.")
    add_config_args(s, seed_help="seed of the first game (default: the config's, else 0)")
    s.add_argument("--games", type=_positive, required=True, metavar="N", help="how many games (seeds)")
    s.add_argument("--jobs", type=_positive, metavar="K", help="processes or Ray CPUs (default: all cores)")
    s.add_argument("--backend", choices=("local", "ray"), default="local",
                   help="local processes (default) or Ray (`pip install 'civdsl[ray]'`)")
    s.add_argument("--address", help="a Ray cluster's address (default: start a local Ray instance)")
    s.add_argument("--out", default=DEFAULT_DB, metavar="FILE", help=f"the results file (default {DEFAULT_DB})")
    s.add_argument("--quiet", "-q", action="store_true", help="no progress bar")

    st = sub.add_parser("stats", help="statistics of stored games",
                        description="Win rates (with Wilson 95%% intervals), game length, margins, round-cap "
                        "share, measurements and summary metrics of the games stored in a results file.")
    st.add_argument("db", metavar="RESULTS", help="a results file written by `civdsl simulate`")
    st.add_argument("--run", help="the run to show (an id or its first characters; default: the only one)")
    st.add_argument("--config", metavar="FILE", help="show the run of this config (under its current rules)")
    st.add_argument("--format", choices=("text", "markdown", "json"), default="text")
    st.add_argument("--html", metavar="FILE", help="also write a self-contained HTML report with figures")
    st.add_argument("--plots", metavar="DIR", help="also write the figures as PNG and SVG files")

    c = sub.add_parser("compare", help="two configs on the same seeds, metric by metric",
                       description="Simulate (or read) two configs on the same seeds and compare each metric: "
                       "the difference, its 95%% interval and whether it is significant after a Holm-Bonferroni "
                       "correction. Configs already simulated in the results file are not played again. "
                       "With --runs, compare two runs stored in the results file instead.")
    c.add_argument("a", metavar="A.yaml", nargs="?", help="the first config (e.g. an edition)")
    c.add_argument("b", metavar="B.yaml", nargs="?", help="the second config (e.g. the edition with a house rule)")
    c.add_argument("--runs", nargs=2, metavar=("RUN_A", "RUN_B"),
                   help="compare two stored runs of --out (ids or their first characters) instead of configs")
    c.add_argument("--games", type=_positive, metavar="N", help="games a side (needed with configs)")
    c.add_argument("--seed", type=int, help="seed of the first game (default: each config's, else 0)")
    c.add_argument("--jobs", type=_positive, metavar="K")
    c.add_argument("--backend", choices=("local", "ray"), default="local")
    c.add_argument("--address")
    c.add_argument("--out", default=DEFAULT_DB, metavar="FILE")
    c.add_argument("--allow-mixed", action="store_true", help="compare configs of different editions")
    c.add_argument("--format", choices=("text", "markdown", "json"), default="text")
    c.add_argument("--quiet", "-q", action="store_true")


# ---- simulate -------------------------------------------------------------------------------------------

def _progress(quiet: bool):
    """A rich progress bar on a terminal (not in CI or when piped); else nothing."""
    if quiet or not sys.stderr.isatty() or os.environ.get("CI"):
        return None, None
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
    bar = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                   TextColumn("{task.fields[rate]}"), TimeRemainingColumn(), transient=True)
    task = None

    def update(done: int, total: int) -> None:
        nonlocal task
        if task is None:
            task = bar.add_task("games", total=total, rate="")
        speed = bar.tasks[0].speed
        bar.update(task, completed=done, rate=f"{speed:.0f} games/s" if speed else "")
    return bar, update


def _run(cfg, config_path, games, args):
    from ..tools.lab.runner import default_jobs
    from ..tools.lab.simulation import simulate
    if args.backend == "ray":
        try:
            import ray  # noqa: F401
        except ImportError:
            raise error("LAB002", "the Ray backend needs Ray, which is not installed", None,
                        "pip install 'civdsl[ray]' (or use --backend local)") from None
    bar, update = _progress(args.quiet)
    jobs = args.jobs or default_jobs()
    if bar is None:
        return simulate(cfg, config_path, games, args.out, jobs, args.backend, args.address)
    with bar:
        return simulate(cfg, config_path, games, args.out, jobs, args.backend, args.address, update)


def _report(out, config_path: str | None, args) -> None:
    rate = out.played / out.seconds if out.seconds else 0.0
    print(f"{out.edition}: run {out.run_id} — {out.played} game(s) played in {out.seconds:.1f} s "
          f"({rate:.0f} games/s), {out.already} already stored, into {args.out}"
          + (f"; Ray started in {out.startup:.1f} s" if out.startup else ""))
    if out.interrupted:
        print("Interrupted: every finished game is stored; run the same command again to play the rest.")
    if out.failed:
        print(f"{len(out.failed)} game(s) failed:")
        for g in out.failed[:20]:
            where = f" at {g['error_rule']}" if g["error_rule"] else ""
            print(f"  seed {g['seed']}: {g['error_code']}: {g['error_message']}{where}")
            print(f"    replay: {_replay_command(config_path, args, g['seed'])}")
        if len(out.failed) > 20:
            print(f"  ... and {len(out.failed) - 20} more (in {args.out}: "
                  "SELECT * FROM games WHERE error_code IS NOT NULL)")


def _replay_command(config_path: str | None, args, seed: int) -> str:
    parts = ["civdsl", "play"] + ([config_path] if config_path else [])
    for flag, value in (("--edition", getattr(args, "edition", None)), ("--players", getattr(args, "players", None)),
                        ("--agents", getattr(args, "agents", None)),
                        ("--max-rounds", getattr(args, "max_rounds", None))):
        if value is not None:
            parts += [flag, str(value)]
    for o in getattr(args, "options", None) or []:
        parts += ["--option", o]
    for h in getattr(args, "house_rules", None) or []:
        parts += ["--house-rule", h]
    parts += ["--seed", str(seed), "--log", f"failed-{seed}.jsonl"]
    return shlex.join(parts)


def cmd_simulate(args) -> int:
    cfg = config_from_args(args)
    if not cfg.edition:
        raise error("CFG014", "no edition given", None, "pass a config, or --edition NAME")
    config_path = args.config_opt or args.config
    out = _run(cfg, config_path, args.games, args)
    _report(out, config_path, args)
    return EXIT_FINDINGS if out.failed or out.interrupted else EXIT_OK


# ---- stats and compare ----------------------------------------------------------------------------------

def _pick_run(store, wanted: str | None) -> dict:
    runs = store.runs()
    if not runs:
        raise error("LAB011", f"`{store.path}` holds no runs", None, "run `civdsl simulate` first")
    if wanted:
        matches = [r for r in runs if r["run_id"].startswith(wanted)]
    else:
        matches = runs if len(runs) == 1 else []
    if len(matches) != 1:
        listing = "; ".join(f"{r['run_id']} ({r['edition']}, {r['games']} games, {r['config_path'] or 'flags'})"
                            for r in runs)
        raise error("LAB011", ("no run " + repr(wanted) if wanted and not matches else
                               "several runs match" if wanted else "the file holds several runs"), None,
                    f"pick one with --run: {listing}")
    return matches[0]


def cmd_stats(args) -> int:
    from ..tools.lab import stats
    from ..tools.lab.store import Store
    if not os.path.exists(args.db):
        raise error("LAB010", f"no results file `{args.db}`", None, "run `civdsl simulate CONFIG --games N` first")
    wanted = _run_of_config(args.config) if args.config else args.run
    store = Store(args.db)
    try:
        run = _pick_run(store, wanted)
        games, players, measures = store.load(run["run_id"])
    finally:
        store.close()
    summary = stats.summarize(games, players, measures)
    summary["run"] = {k: run[k] for k in ("run_id", "edition", "config_path", "ruleset_hash", "players", "created")}
    _print(summary, args.format, stats)
    if args.html or args.plots:
        from ..tools.lab.figures import write_figures
        write_figures(summary, games, players, measures, html=args.html, plots_dir=args.plots)
    return EXIT_OK


def _run_of_config(path: str) -> str:
    """The id of the run a config makes under its current rules (what `simulate` stored it under)."""
    from ..language.config import load_config
    from ..tools.lab.runner import config_hash
    from ..tools.lab.simulation import prepare
    spec, players, ruleset_hash, _ = prepare(load_config(path))
    return config_hash(spec, ruleset_hash, players)


def cmd_compare(args) -> int:
    from ..tools.lab import compare
    if args.runs:
        sides, labels = _stored_sides(args)
    elif args.a and args.b and args.games:
        sides, labels = _simulated_sides(args)
    else:
        raise error("LAB013", "compare needs two configs and --games N, or --runs RUN_A RUN_B", None,
                    "civdsl compare A.yaml B.yaml --games 200, or civdsl compare --runs 1dca 9fe5 --out results.duckdb")
    try:
        result = compare.compare(sides[0], sides[1], labels=tuple(labels), allow_mixed=args.allow_mixed)
    except ValueError as exc:
        raise error("LAB012", str(exc), None, "pass --allow-mixed to compare configs of different editions") from None
    _print(result, args.format, compare)
    return EXIT_OK


def _simulated_sides(args):
    """Both configs simulated on the same seeds (what is stored already is not played again)."""
    from ..language.config import load_config
    from ..tools.lab.store import Store
    sides, labels = [], []
    for path in (args.a, args.b):
        cfg = load_config(path)
        if args.seed is not None:
            cfg.seed = args.seed
        out = _run(cfg, path, args.games, args)
        _report(out, path, args)
        store = Store(args.out)
        try:
            games, players, measures = store.load(out.run_id)
        finally:
            store.close()
        wanted = set(range(cfg.seed, cfg.seed + args.games))
        sides.append(_only(wanted, games, players, measures))
        labels.append(os.path.basename(path))
    return sides, labels


def _stored_sides(args):
    """Two runs of the results file, on the seeds both have when they share some (else all of each)."""
    from ..tools.lab.store import Store
    if not os.path.exists(args.out):
        raise error("LAB010", f"no results file `{args.out}`", None, "name it with --out")
    store = Store(args.out)
    try:
        runs = [_pick_run(store, wanted) for wanted in args.runs]
        loaded = [store.load(r["run_id"]) for r in runs]
    finally:
        store.close()
    seeds = [{g["seed"] for g in games} for games, _, _ in loaded]
    common = seeds[0] & seeds[1]
    sides = [_only(common or seen, *rows) for seen, rows in zip(seeds, loaded)]
    return sides, [f"{r['run_id'][:8]} ({r['config_path'] or r['edition']})" for r in runs]


def _only(seeds: set, games: list, players: list, measures: list) -> tuple:
    return ([g for g in games if g["seed"] in seeds], [p for p in players if p["seed"] in seeds],
            [m for m in measures if m["seed"] in seeds])


def _print(result: dict, form: str, module) -> None:
    """A summary or a comparison as JSON, or as the module's Markdown or text tables."""
    if form == "json":
        print(json.dumps(result, indent=2, sort_keys=True))
    else:
        print(module.format_markdown(result) if form == "markdown" else module.format_text(result))


COMMANDS = {"simulate": cmd_simulate, "stats": cmd_stats, "compare": cmd_compare}
