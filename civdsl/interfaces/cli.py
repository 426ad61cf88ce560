"""The `civdsl` command: a thin layer over the library.

Exit codes: 0 clean, 1 findings (diagnostics, failed replay, failed scenarios), 2 usage, config or
internal error. No input produces a Python traceback unless `--debug` is given.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import traceback

from .. import __version__
from ..engine.budget import DEFAULT_MEMORY_MB, GAME_BUDGET, limit_memory
from ..language import ast as A
from ..language import parse_cache
from ..language.diagnostics import CivError, Diagnostic, render_text
from ..tools.coverage import cli as coverage_cli
from . import lab_cli, lsp_cli, render_cli, serve_cli
from .config_args import add_agent_cmd_args, add_config_args
from .report import FORMATS, render

EXIT_OK, EXIT_FINDINGS, EXIT_USAGE = 0, 1, 2


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # usage errors exit 2 with a one-line message, like argparse, no traceback
        self.print_usage(sys.stderr)
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message}\n")


GAME_BUDGET_HELP = (f"units of work the whole game may use (default {GAME_BUDGET:,}; the largest shipped game uses "
                    "about 20,000,000): a bound on rules that never end")
REPLAY_EDITION_HELP = ("where the log's edition is (a folder or .civ file), when the header's path does not lead "
                       "there: a log names an edition outside its folder, which is not followed")
NO_CACHE_HELP = ("parse every rule file afresh: neither read nor write the parse cache "
                 "(also CIVDSL_NO_CACHE=1; the cache is safe to delete)")


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(prog="civdsl", description="Rules language and interpreter for Civilization-family board games.")
    p.add_argument("--version", action="version", version=f"civdsl {__version__}")
    p.add_argument("--debug", action="store_true", help="show Python tracebacks of internal errors")
    p.add_argument("--no-cache", action="store_true", help=NO_CACHE_HELP)
    p.add_argument("--memory-limit", type=_megabytes, default=DEFAULT_MEMORY_MB, metavar="MB",
                   help=f"cap this process's memory (default {DEFAULT_MEMORY_MB}; 0: no cap)")
    sub = p.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    c = sub.add_parser("check", help="check rule files (and configs) for errors",
                       description="Check .civ files and folders: syntax, names, kinds, references, phases. "
                                   "YAML files are checked as game configs.")
    c.add_argument("paths", nargs="+", metavar="PATH", help="rule files, folders of rule files, or game configs")
    c.add_argument("--format", choices=FORMATS, default="text", help="output format (default: text)")
    c.add_argument("--strict", action="store_true", help="treat warnings as errors")
    c.add_argument("--simulate", type=int, metavar="N", default=0,
                   help="also play N seeded games per edition with random agents, checking invariants")
    c.add_argument("--seed", type=int, default=1, help="root seed of the simulated games (default 1)")
    c.add_argument("--jobs", type=int, metavar="N", help="processes for simulated games (default: all cores)")
    c.add_argument("--log-dir", default="civdsl-sim-logs", help="where replay logs of failed simulated games go")
    c.add_argument("--option", action="append", default=[], metavar="NAME",
                   help="simulate the games with this option of the edition switched on (repeatable)")
    c.add_argument("--no-cache", action="store_true", default=argparse.SUPPRESS, help=NO_CACHE_HELP)
    coverage_cli.add_arguments(c)

    pl = sub.add_parser("play", help="play a game", description="Play a game with agents and print the result.")
    add_config_args(pl, seed_help="random seed (default 0)")
    add_agent_cmd_args(pl)
    pl.add_argument("--log", metavar="FILE", help="write the JSON Lines game log here (a new file, or over an "
                                                  "older civdsl log)")
    pl.add_argument("--force", action="store_true",
                    help="let --log (or the config's `log:`) overwrite a file that is not a civdsl log")
    pl.add_argument("--game-budget", type=_units, default=GAME_BUDGET, metavar="UNITS", help=GAME_BUDGET_HELP)
    pl.add_argument("--verbose", "-v", action="store_true", help="print the rules' narration as the game goes")
    pl.add_argument("--quiet", "-q", action="store_true",
                    help="print only the result: no story of the rounds (their table and headlines)")
    pl.add_argument("--format", choices=("text", "json"), default="text",
                    help="json: print only the result, as one JSON object")
    pl.add_argument("--resume", metavar="LOG", help="go on with a game saved by Ctrl-C or `save` (its log); the log "
                    "names the edition, players, agents and seed")
    pl.add_argument("--check-invariants", action="store_true",
                    help="check the ruleset's invariants after every phase (slower)")

    t = sub.add_parser("test", help="run scenario files (worked examples) and report",
                       description="Run every scenario (*.yaml with a `scenario:` key) under the paths; "
                                   "print the differences of failing ones and a summary line.")
    t.add_argument("paths", nargs="+", metavar="PATH", help="scenario files or folders")
    t.add_argument("--format", choices=FORMATS, default="text", help="output format (default: text)")
    t.add_argument("-q", "--quiet", action="store_true", help="print only failures and the summary")
    t.add_argument("--trace", action="store_true",
                   help="print every decision of each run: those asked (with their options) and those answered "
                        "automatically because they had a single option")
    t.add_argument("--edition", metavar="NAME",
                   help="run the scenarios under this edition instead of the one each names (to see which "
                        "outcomes differ between editions)")
    t.add_argument("--no-cache", action="store_true", default=argparse.SUPPRESS, help=NO_CACHE_HELP)
    coverage_cli.add_arguments(t)

    f = sub.add_parser("fmt", help="format rule files canonically",
                       description="Rewrite .civ files in the canonical layout (indentation, blank lines, "
                                   "trailing spaces); comments are kept. With --check or --diff, only report.")
    f.add_argument("paths", nargs="+", metavar="PATH", help="rule files or folders")
    f.add_argument("--check", action="store_true", help="do not write; exit 1 if a file would change")
    f.add_argument("--diff", action="store_true", help="do not write; print a unified diff of the changes")

    e = sub.add_parser("explain", help="show a rule as it runs and the files that shaped it",
                       description="Show the effective definition of a rule (after options and house rules) "
                                   "and the chain of places that defined, replaced or modified it.")
    e.add_argument("target", help="edition name, folder, .civ file, or a YAML game config")
    e.add_argument("rule", nargs="?", help="a rule name: `harvest`, `phase harvest`, `param city_gold`, `card Example`")
    e.add_argument("--decisions", action="store_true",
                   help="instead of one rule, list every decision tag of the edition: where it is asked, who "
                        "answers it, its options and their labels")
    e.add_argument("--markdown", action="store_true", help="with --decisions: as Markdown (the edition pages)")

    d = sub.add_parser("diff", help="rule-level differences between two editions, overlays or configs",
                       description="List the rules added, removed and changed from A to B, grouped by kind: "
                                   "parameters with old → new values, changed blocks as unified diffs.")
    d.add_argument("a", help="edition name, folder, .civ file, or YAML game config")
    d.add_argument("b", help="edition name, folder, .civ file, or YAML game config")
    d.add_argument("--format", choices=["text", "markdown", "json"], default="text", help="output format")
    d.add_argument("--summary", action="store_true",
                   help="one line per changed rule and lists of the added and removed rules, per group")
    d.add_argument("--option", action="append", dest="options", metavar="NAME",
                   help="switch on an option of B (repeat for several): `diff E E --option NAME` shows what it changes")

    r = sub.add_parser("replay", help="re-run a game log and verify it", description="Re-run a JSON Lines game "
                       "log with its recorded decisions and check that every line comes out the same.")
    r.add_argument("log", help="a log written by `civdsl play --log`")
    r.add_argument("--game-budget", type=_units, default=GAME_BUDGET, metavar="UNITS", help=GAME_BUDGET_HELP)
    r.add_argument("--edition", help=REPLAY_EDITION_HELP)
    v = sub.add_parser("view", help="show the log one seat may read",
                       description="Print a game log as one player may read it: the items of zones, and the "
                       "values of counters and variables, that the player may not see are blanked, as are "
                       "the other players' answers.")
    v.add_argument("log", help="a log written by `civdsl play --log`")
    v.add_argument("--seat", required=True, metavar="P1", help="the player whose view to show")
    v.add_argument("--edition", help=REPLAY_EDITION_HELP)

    lab_cli.add_parsers(sub)
    render_cli.add_parsers(sub)
    serve_cli.add_parsers(sub)
    lsp_cli.add_parsers(sub)
    sub.add_parser("schema", help="print the JSON Schema of game configs",
                   description="Print the config JSON Schema (draft-07).")
    sub.add_parser("list", help="list the shipped editions", description="List the editions civdsl can play.")
    return p


def _whole(text: str, least: int) -> int:
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if not least <= n < 10 ** 18:
        raise argparse.ArgumentTypeError(f"expected a whole number from {least} to 10**18 - 1, got {text}")
    return n


def _units(text: str) -> int:
    return _whole(text, 1)


def _megabytes(text: str) -> int:
    return _whole(text, 0)


def main(argv: list[str] | None = None) -> int:
    """The command line. Run as a program (`argv` None), it first caps its own memory (`--memory-limit`):
    a process that embeds civdsl keeps its own limits."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if not args.command:
        parser.print_help()
        return EXIT_USAGE
    if args.no_cache:
        parse_cache.set_enabled(False)
    if argv is None and args.memory_limit:
        limit_memory(args.memory_limit)
    try:
        return COMMANDS[args.command](args)
    except CivError as exc:
        print(render_text(exc.diagnostics), file=sys.stderr)
        return EXIT_USAGE if _is_usage(exc.diagnostics) else EXIT_FINDINGS
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return EXIT_USAGE
    except BrokenPipeError:  # output piped into `head` and the like
        sys.stderr.close()
        return EXIT_OK
    except MemoryError:  # outside a rule (inside one it is RUN015)
        print(f"civdsl: out of memory (the cap is {args.memory_limit} MB; raise it with --memory-limit)",
              file=sys.stderr)
        return EXIT_FINDINGS
    except Exception as exc:  # an internal bug: short message, traceback only on request
        if args.debug:
            traceback.print_exc()
        print(f"civdsl: internal error: {type(exc).__name__}: {exc}\n"
              "This is a bug in civdsl; please report it with the command you ran (add --debug for details).",
              file=sys.stderr)
        return EXIT_USAGE


def _is_usage(diags: list[Diagnostic]) -> bool:
    return any(d.code.startswith(("CFG", "AGT", "LOG", "EXP", "LAB", "RES")) for d in diags)


def cmd_check(args) -> int:
    from pathlib import Path

    from ..language.config import read_config
    from ..tools.checker import check_paths, entries
    missing = [p for p in args.paths if not Path(p).exists()]
    if missing:
        print(f"civdsl check: no such file or folder: {', '.join(missing)}", file=sys.stderr)
        return EXIT_USAGE
    civ = [p for p in args.paths if not p.endswith((".yaml", ".yml"))]
    diags, nfiles = check_paths(civ) if civ else ([], 0)
    configs = [p for p in args.paths if p.endswith((".yaml", ".yml"))]
    for path in configs:  # every problem of a config in one run: its own (read_config), then the game's
        try:
            from ..api import check_config
            cfg, found = read_config(path)
            diags.extend(sorted(found + check_config(cfg), key=Diagnostic.sort_key))
        except CivError as exc:  # the file cannot be read, or is not YAML
            diags.extend(exc.diagnostics)
    simulated = []
    try:
        coverage = coverage_cli.session(args, simulated=True)
    except coverage_cli.CoverageError as exc:
        print(f"civdsl check: {exc}", file=sys.stderr)
        return EXIT_USAGE
    if args.simulate and not any(d.severity == "error" for d in diags):
        from pathlib import Path

        from ..tools.simulate import simulate
        for entry in entries(civ):
            with coverage:
                try:
                    found, ok, edition = simulate(entry, args.simulate, args.seed, Path(args.log_dir), args.jobs,
                                                  args.option)
                except CivError as exc:  # (an option the edition does not have)
                    diags.extend(exc.diagnostics)
                    continue
            diags.extend(found)
            name = edition if entry.name == "game.civ" else f"{entry} (on {edition})"
            name += "".join(f" --option {o}" for o in args.option)
            simulated.append(f"{name}: {ok}/{args.simulate} simulated games ended cleanly (seed {args.seed})")
    if args.strict:
        for d in diags:
            d.severity = "error"
    errors = [d for d in diags if d.severity == "error"]
    nread = nfiles + len(configs)
    usage = any(d.code.startswith("CFG") for d in errors)
    if args.format == "text":
        if diags:
            print(render_text(diags))
        for line in simulated:
            print(line)
        print(f"checked {nread} file(s): {len(errors)} error(s), {len(diags) - len(errors)} warning(s)")
    else:
        print(render(diags, args.format, files=nread) if args.format == "json" else render(diags, args.format))
    if not coverage.report(args.format == "text"):
        return EXIT_USAGE
    return EXIT_USAGE if usage else (EXIT_FINDINGS if errors else EXIT_OK)


def cmd_play(args) -> int:
    from .playing import play_command
    return play_command(args)


def cmd_test(args) -> int:
    from ..tools.scenario import run_paths
    from ..tools.scenarios.report import outcome_json, outcome_lines, summary, warning_diagnostics
    try:
        coverage = coverage_cli.session(args)
    except coverage_cli.CoverageError as exc:
        print(f"civdsl test: {exc}", file=sys.stderr)
        return EXIT_USAGE
    with coverage:
        outcomes, diags = run_paths(args.paths, args.edition)
    failed = [o for o in outcomes if not o.passed]
    errors = [d for d in diags if d.severity == "error"]  # (a symbolic link not followed is a warning)
    if args.format in ("github", "sarif"):
        print(render(diags + [_failure_diagnostic(o) for o in failed] + warning_diagnostics(outcomes), args.format))
    elif args.format == "json":
        print(json.dumps({
            "passed": len(outcomes) - len(failed), "failed": len(failed), "errors": len(errors),
            "scenarios": [outcome_json(o, args.trace) for o in outcomes],
            "diagnostics": [d.to_json() for d in diags]}, indent=2))
    else:
        for o in outcomes:
            for line in outcome_lines(o, args.quiet, args.trace):
                print(line)
        if diags:
            print(render_text(diags))
        print(summary(outcomes, len(errors)))
    if not coverage.report(args.format == "text"):
        return EXIT_USAGE
    return EXIT_FINDINGS if failed or errors else EXIT_OK


def _failure_diagnostic(outcome) -> Diagnostic:
    """A failed scenario as a diagnostic at its `expect:` block, for CI annotations."""
    sc = outcome.scenario
    return Diagnostic("TST001", f"scenario \"{sc.title}\" failed: " + "; ".join(outcome.problems), sc.span("expect"))


def cmd_fmt(args) -> int:
    import difflib
    from pathlib import Path

    from ..language.formatter import format_file_text
    from ..tools.checker import civ_files
    files, diags = civ_files(args.paths)
    changed = []
    for f in files:
        try:
            raw = f.read_bytes().decode("utf-8")
            text = raw.replace("\r\n", "\n").replace("\r", "\n")  # line ends as the loader reads them
            new = format_file_text(text, str(f))
        except CivError as exc:
            diags.extend(exc.diagnostics)
            continue
        except (OSError, UnicodeDecodeError) as exc:
            diags.append(Diagnostic("LOAD001", f"cannot read `{f}`: {exc}", None))
            continue
        if new != raw:  # (CRLF line ends become LF)
            changed.append(f)
            if args.diff:
                sys.stdout.writelines(difflib.unified_diff(text.splitlines(True), new.splitlines(True),
                                                           str(f), str(f) + " (formatted)"))
            if not (args.check or args.diff):
                Path(f).write_text(new, encoding="utf-8")
    if diags:
        print(render_text(diags), file=sys.stderr)
    verb = "would reformat" if args.check or args.diff else "reformatted"
    for f in changed:
        print(f"{verb} {f}")
    print(f"{len(changed)} file(s) {verb}, {len(files) - len(changed)} already formatted")
    if any(d.severity == "error" for d in diags):  # a symbolic link left out (LOAD007) is only a warning
        return EXIT_FINDINGS
    return EXIT_FINDINGS if args.check and changed else EXIT_OK


def cmd_explain(args) -> int:
    if args.decisions:
        from ..tools.catalogue import decision_catalogue, render_catalogue
        from ..tools.ruleview import load_target as rules_of
        rs = rules_of(args.target)
        print(render_catalogue(decision_catalogue(rs), rs.edition(), args.markdown), end="")
        return EXIT_OK
    if args.rule is None:
        print("civdsl explain: name a rule, or give --decisions", file=sys.stderr)
        return EXIT_USAGE
    from ..tools.ruleview import explain, load_target
    from .terminal.look import is_terminal
    color = is_terminal(sys.stdout) and not os.environ.get("NO_COLOR")
    print(explain(load_target(args.target), args.rule, color=color), end="")
    return EXIT_OK


def cmd_diff(args) -> int:
    from ..tools.ruleview import diff, load_target, render_diff
    a, b = load_target(args.a), load_target(args.b, args.options)
    names = (args.a, args.b + "".join(f" --option {o}" for o in args.options or []))
    print(render_diff(a, b, diff(a, b), args.format, names, args.summary), end="")
    return EXIT_OK


def cmd_view(args) -> int:
    from ..tools.gamelog import seat_log
    for line in seat_log(args.log, args.seat, args.edition):
        print(line)
    return EXIT_OK


def cmd_replay(args) -> int:
    from ..tools.gamelog import replay
    ok, message = replay(args.log, args.game_budget, args.edition)
    print(("OK: " if ok else "MISMATCH: ") + message)
    return EXIT_OK if ok else EXIT_FINDINGS


def cmd_schema(args) -> int:
    from ..language.config import schema_text
    print(schema_text())
    return EXIT_OK


def _options_line(options: dict) -> str:
    """` (options: expert, short; readings: reading_...)`: the options whose title says they choose a
    reading of the rulebook (`"Reading: ..."`) apart from the others."""
    readings = sorted(n for n, o in options.items() if (getattr(o, "title", None) or "").startswith("Reading"))
    others = sorted(n for n in options if n not in readings)
    parts = ([f"options: {', '.join(others)}"] if others else []) + (
        [f"readings: {', '.join(readings)}"] if readings else [])
    return f" ({'; '.join(parts)})" if parts else ""


def cmd_list(args) -> int:
    from ..language.editions import list_editions, list_variants
    from ..language.loader import load_ruleset
    from ..language.parse_cache import parse_file
    print("editions:")
    for name, entry in sorted(list_editions().items()):
        try:
            rs = load_ruleset(entry)
            title = rs.game.title if rs.game else ""
            opts = _options_line(rs.options)
        except CivError:
            title, opts = "(does not load: run `civdsl check`)", ""
        print(f"  {name:28} {title}{opts}")
    variants = list_variants()
    if variants:
        print("house-rule variants (config `house_rules: [NAME]`, or `--house-rule NAME`):")
    for name, path in sorted(variants.items()):
        try:
            base = next((i.path for i in parse_file(str(path)).items if isinstance(i, A.Extends)), "?")
        except CivError:
            base = "(does not load: run `civdsl check`)"
        print(f"  {name:28} for {base}")
    return EXIT_OK


COMMANDS = {"check": cmd_check, "play": cmd_play, "test": cmd_test, "fmt": cmd_fmt, "explain": cmd_explain,
            "diff": cmd_diff, "replay": cmd_replay, "view": cmd_view, "schema": cmd_schema, "list": cmd_list,
            **lab_cli.COMMANDS, **render_cli.COMMANDS, **serve_cli.COMMANDS, **lsp_cli.COMMANDS}


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
