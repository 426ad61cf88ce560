"""Generator `paths`: hostile paths in every place a path is named, aimed at the canaries outside the
sandbox."""
from __future__ import annotations

import contextlib
import io
import json
import os
import random
from pathlib import Path

from civdsl.api import compile_entry
from civdsl.language.config import load_config
from civdsl.tools.gamelog import replay
from civdsl.tools.scenario import load_scenario, run_scenario

from .core import Case, Seen
from .playing import check_clean, play, play_config
from .sandbox import Box

# @OUT@ is the canary folder (absolute); @UP@ leads from the naming folder to the box's root.
READ_TARGETS = [
    "@OUT@/secret.civ", "@OUT@/secret.json", "@OUT@/secret.yaml", "@OUT@/secret-log.jsonl", "@OUT@/notes.txt",
    "@OUT@/edition", "@OUT@/edition/game.civ", "@OUT@", "@UP@outside/secret.civ", "@UP@outside/secret.json",
    "@UP@outside/edition/game.civ", "@UP@outside/edition", "@UP@sandbox/private.civ", "../private.civ",
    "../../private.civ", "../" * 30 + "etc/passwd", "/etc/passwd", "/proc/self/environ", "/dev/zero", "/dev/stdin",
    "link.civ", "link.json", "link.yaml", "linkdir/secret.civ", "linkdir/secret.json", "linkdir/edition/game.civ",
    "linkedition", "linkedition/game.civ", "loop.civ", "dangling.civ", "pipe.civ", "pipe.json", "pipe.yaml", ".", "..",
    "sub", "sub.civ", "sub.json", "sub/", "a\0b.civ", "secret.civ\0.txt", "x" * 300 + ".civ", "a/" * 3000 + "x.civ",
    "~/secret.civ", "file://@OUT@/secret.civ", "C:\\secret.civ", "..\\..\\..\\outside\\secret.civ",
    "//@OUT@/secret.civ", "@OUT@/./secret.civ", "@OUT@/../outside/secret.civ", "game.civ", "", " ", "sécret.civ",
    "secret.civ\n", "@OUT@/secret.civ/.", "\\\\server\\share\\x.civ", "-rf.civ", "gentle-calamities",
    "warp-spawn-solitaire", "../warp-spawn-solitaire/game.civ", "../../rulesets/warp-spawn-solitaire/game.civ",
]
LOG_TARGETS = [
    "@OUT@/new.jsonl", "@UP@outside/new.jsonl", "@OUT@/secret.civ", "@OUT@/notes.txt", "@OUT@/secret-log.jsonl",
    "@OUT@", "@OUT@/edition", "@OUT@/missing/x.jsonl", "link.jsonl", "linkdir/new.jsonl", "linkdir/secret-log.jsonl",
    "pipe.jsonl", "sub.jsonl", "/dev/null", "a\0b.jsonl", "x" * 300 + ".jsonl", ".", "", "ok.jsonl",
]
PATH_PLACES = {  # place: (naming folder, targets)
    "import": ("rules", READ_TARGETS), "extends": ("rules", READ_TARGETS), "map": ("rules", READ_TARGETS),
    "house-import": ("house", READ_TARGETS), "config-house": ("conf", READ_TARGETS),
    "config-edition": ("conf", READ_TARGETS), "config-log": ("conf", LOG_TARGETS),
    "scenario-house": ("scenarios", READ_TARGETS), "scenario-edition": ("scenarios", READ_TARGETS),
    "log-house": ("logs", READ_TARGETS), "log-entry": ("logs", READ_TARGETS), "log-edition": ("logs", READ_TARGETS),
}


def paths_case(rng: random.Random, index: int) -> Case:
    place = rng.choice(list(PATH_PLACES))
    target = rng.choice(PATH_PLACES[place][1])
    if rng.random() < 0.2 and target and "\0" not in target:  # a decoration that must not change the verdict
        target = rng.choice(["./", ".//", "sub/../"]) + target if not target.startswith(("/", "@OUT@")) else \
            target.replace("/", rng.choice(["//", "/./"]), 1)
    return Case(index, "paths", f"paths/{place}", {"place": place, "target": target})


def resolve_target(target: str, box: Box, folder: Path) -> str:
    up = os.path.relpath(box.root, folder) + "/"
    return target.replace("@OUT@", str(box.outside)).replace("@UP@", up)


def judge_paths(case: Case, box: Box, seen: Seen) -> None:
    place = case.params["place"]
    folder = box.folders[PATH_PLACES[place][0]]
    base = box.sandbox if place == "config-log" else folder  # a config's `log:` is relative to the working folder
    target = resolve_target(case.params["target"], box, base)
    PATH_JUDGES[place](case, box, seen, target)


def yaml_text(value: str) -> str:
    """A YAML double-quoted scalar (JSON strings are valid YAML, NUL included as \\u0000)."""
    return json.dumps(value)


def rule_file_with(line: str) -> str:
    return f'{line}\ngame "E" {{ edition: "e" players: 1 }}\nphase p {{ }}\nsequence {{ phases: p }}\n'


def judge_rule_path(case: Case, box: Box, seen: Seen, target: str) -> None:
    """`import`, `extends` or `map` in an edition in the sandbox: check it, play it if it checks."""
    line = {"import": f"import {yaml_text(target)}", "extends": f"extends {yaml_text(target)}",
            "map": f"map m from {yaml_text(target)}"}[case.params["place"]]
    if case.params["place"] == "extends":
        text = f"{line}\nreplace game \"E\" {{ edition: \"e\" players: 1 }}\n"
    else:
        text = rule_file_with(line)
    entry = box.write(case, box.folders["rules"] / "game.civ", text)
    if check_clean([str(entry.parent)], seen):
        play(compile_entry(entry), seen)


def judge_house_import(case: Case, box: Box, seen: Seen, target: str) -> None:
    """A house rule (named by a config) whose `import` names the path."""
    box.write(case, box.folders["house"] / "rule.civ", f"import {yaml_text(target)}\n")
    cfg = box.write(case, box.folders["conf"] / "game.yaml",
                    "edition: warp-spawn-solitaire\nplayers: 1\nhouse_rules: [house/rule.civ]\n")
    play_config(load_config(str(cfg)), seen)


def judge_config_path(case: Case, box: Box, seen: Seen, target: str) -> None:
    key = {"config-house": "house_rules", "config-edition": "edition"}[case.params["place"]]
    value = f"[{yaml_text(target)}]" if key == "house_rules" else yaml_text(target)
    head = "" if key == "edition" else "edition: warp-spawn-solitaire\n"
    cfg = box.write(case, box.folders["conf"] / "game.yaml", f"{head}players: 1\n{key}: {value}\n")
    play_config(load_config(str(cfg)), seen)


def judge_config_log(case: Case, box: Box, seen: Seen, target: str) -> None:
    """`log:` in a config, played with the CLI (without --force) from the sandbox."""
    from civdsl.interfaces.cli import main
    cfg = box.write(case, box.folders["conf"] / "game.yaml",
                    f"edition: warp-spawn-solitaire\nplayers: 1\nmax_rounds: 1\nlog: {yaml_text(target)}\n")
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        main(["play", str(cfg), "-q"])
    seen.output(out.getvalue())
    for name in ("ok.jsonl", "a"):  # logs written inside the sandbox are fine; clear them for the next input
        (box.sandbox / name).unlink(missing_ok=True)


SCENARIO = "scenario: s\nsource: fuzz\nrun: {rounds: 1}\nexpect: {}\n"


def judge_scenario_path(case: Case, box: Box, seen: Seen, target: str) -> None:
    if case.params["place"] == "scenario-house":
        text = SCENARIO + f"edition: warp-spawn-solitaire\nhouse_rules: [{yaml_text(target)}]\n"
    else:
        text = SCENARIO + f"edition: {yaml_text(target)}\n"
    path = box.write(case, box.folders["scenarios"] / "s.yaml", text)
    run_scenario(load_scenario(str(path)))


def judge_log_path(case: Case, box: Box, seen: Seen, target: str) -> None:
    """A real log whose header names the path, replayed."""
    head = json.loads(box.base_log[0])
    place = case.params["place"]
    if place == "log-house":
        head["house_rules"] = [target]
    elif place == "log-entry":
        head["edition"], head["edition_entry"] = "no-such-edition", target
    else:
        head["edition"] = target
    lines = [json.dumps(head)] + box.base_log[1:]
    path = box.write(case, box.folders["logs"] / "t.jsonl", "\n".join(lines) + "\n")
    ok, message = replay(str(path))
    seen.output(message)


PATH_JUDGES = {
    "import": judge_rule_path, "extends": judge_rule_path, "map": judge_rule_path,
    "house-import": judge_house_import, "config-house": judge_config_path, "config-edition": judge_config_path,
    "config-log": judge_config_log, "scenario-house": judge_scenario_path, "scenario-edition": judge_scenario_path,
    "log-house": judge_log_path, "log-entry": judge_log_path, "log-edition": judge_log_path,
}
