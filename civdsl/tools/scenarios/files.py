"""Scenario files: finding them, reading them against the schema, and their parts.

A scenario is format 1 (one `run` and its `expect`) or format 2 (`format: 2`, or a list of `steps`,
each an action followed by its own `expect`). Format 2 also reads a plain YAML `none` as the rule
language's none (format 1 keeps it the text "none", as it always did); a quoted "none" is text in both.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

import yaml

from ...language.diagnostics import CivError, Diagnostic, Span, error
from ...language.paths import files_under
from ...language.yamlfile import fmt_path, locate, node_span, parse_yaml, read_text, schema_problems, strict_validator

ACTIONS = ("phase", "call", "rounds", "game")   # what a step (or format 1's `run`) does: exactly one


def scenario_schema() -> dict:
    text = resources.files("civdsl").joinpath("scenario.schema.json").read_text(encoding="utf-8")
    return json.loads(text)


_VALIDATOR = strict_validator(scenario_schema())


@dataclass
class Step:
    """One action of a scenario and what must hold after it: format 1's `run` + `expect`, or one item
    of format 2's `steps` (`where` is its key path in the file)."""

    number: int          # 1-based
    action: dict         # phase (player, step), call, rounds or game; times
    expect: dict | None
    where: tuple         # ("run",) or ("steps", i)
    expect_where: tuple  # ("expect",) or ("steps", i, "expect")

    @property
    def label(self) -> str:
        a = self.action
        if "call" in a:
            what = f"call {a['call']}"
        elif "phase" in a:
            what = f"phase {a['phase']}" + (f" step {a['step']}" if "step" in a else "") + \
                (f" for {a['player']}" if "player" in a else "")
        elif "rounds" in a:
            what = f"{a['rounds']} round(s)"
        else:
            what = "the whole game"
        title = a.get("title")
        return f"step {self.number} ({title or what})"


@dataclass
class Scenario:
    """A loaded, schema-valid scenario and where its parts are in the file."""

    path: str
    data: dict
    root: yaml.Node | None

    @property
    def title(self) -> str:
        return self.data["scenario"]

    @property
    def format(self) -> int:
        return 2 if self.data.get("format") == 2 or "steps" in self.data else 1

    def span(self, *where) -> Span:
        return node_span(self.path, locate(self.root, list(where)))

    def steps(self) -> list[Step]:
        """The actions in order. Format 1 is one step; format 2's top-level `expect`, if any, is checked
        after the last step (see `runner`)."""
        if "steps" not in self.data:
            return [Step(1, self.data["run"], self.data.get("expect"), ("run",), ("expect",))]
        return [Step(i + 1, s, s.get("expect"), ("steps", i), ("steps", i, "expect"))
                for i, s in enumerate(self.data["steps"])]


def is_scenario_file(path: Path) -> bool:
    """A YAML file whose top level has a `scenario:` key (configs and other YAML are skipped)."""
    try:
        head = path.read_text(encoding="utf-8", errors="replace")[:4000]
    except OSError:
        return False
    return any(line.startswith("scenario:") for line in head.splitlines())


def find_scenarios(paths: list[str], notes: list[Diagnostic] | None = None) -> list[Path]:
    """The scenario files named, and those under the folders named (not following a symbolic link out
    of a folder: LOAD007, added to `notes`)."""
    out: list[Path] = []
    for raw in paths:
        p = Path(raw)
        if p.is_dir():
            found, skipped = files_under(p, (".yaml", ".yml"))
            out.extend(f for f in found if is_scenario_file(f))
            if notes is not None:
                notes.extend(skipped)
        elif p.is_file():
            out.append(p)
        else:
            raise error("SCN003", f"no such file or folder `{raw}`")
    return out


def load_scenario(path: str, text: str | None = None) -> Scenario:
    """Read and validate a scenario (`text`: its content as an editor holds it, instead of the file's)."""
    if text is None:
        text = read_text(path, "SCN", "scenario")
    root, data = parse_yaml(text, path, "SCN")
    if data is None:
        data = {}
    problems = [Diagnostic("SCN002", f"{fmt_path(where)}: {what}", node_span(path, locate(root, where)), hint=hint)
                for where, what, hint in schema_problems(_VALIDATOR, data)]
    if problems:
        raise CivError(sorted(problems, key=Diagnostic.sort_key))
    sc = Scenario(path, data, root)
    if sc.format == 2:
        _check_format_2(sc)
        for key in ("state", "expect", "steps"):
            if key in data:
                data[key] = plain_nones(_value_node(root, key), data[key])
    return sc


def _check_format_2(sc: Scenario) -> None:
    d = sc.data
    if "run" in d:
        raise error("SCN008", "a scenario has either `run` (format 1) or `steps` (format 2), not both",
                    sc.span("run"), "move the action into the list of `steps`")
    if "steps" not in d:
        raise error("SCN008", "a format 2 scenario lists its actions under `steps`", sc.span("format"),
                    "add `steps:`, each with one of: phase (with optional player and step), call, rounds, game")


def _value_node(root: yaml.Node | None, key: str) -> yaml.Node | None:
    if isinstance(root, yaml.MappingNode):
        for k, v in root.value:
            if isinstance(k, yaml.ScalarNode) and k.value == key:
                return v
    return None


_STR = "tag:yaml.org,2002:str"


def plain_nones(node: yaml.Node | None, value: Any) -> Any:
    """`value` with every plain (unquoted) YAML scalar `none` read as none (Python None)."""
    if node is None:
        return value
    if isinstance(node, yaml.ScalarNode):
        return None if node.tag == _STR and node.style is None and node.value == "none" else value
    if isinstance(node, yaml.SequenceNode) and isinstance(value, list) and len(node.value) == len(value):
        return [plain_nones(n, v) for n, v in zip(node.value, value)]
    if isinstance(node, yaml.MappingNode) and isinstance(value, dict) and len(node.value) == len(value) \
            and not any(k.tag == "tag:yaml.org,2002:merge" for k, _ in node.value):
        return {k: plain_nones(vn, v) for (_, vn), (k, v) in zip(node.value, value.items())}
    return value


def action_where(step: Step, *key) -> tuple:
    """The key path of a part of a step's action (`run.phase`, `steps[2].phase`)."""
    return step.where + key
