"""The YAML game config: read it safely, check it against the shipped JSON Schema, merge command-line values.

`config.schema.json` (draft-07, the draft yaml-language-server supports) is the single source of what a
config may say. This module reads plain YAML only (`SafeLoader`, bounded size and alias expansion) and
turns every schema finding into a `Diagnostic` that names the key path (`agents[1]`) and points at the
YAML line, so a config mistake reads like a rule-file mistake.

Codes: CFG001 the file is not valid YAML (also: a key given twice); CFG002 a value breaks the schema
(also: an integer of more than 18 digits); CFG003 the file cannot be read; CFG004 a house-rule file it
names does not exist; CFG018 a house rule the path policy refuses (`paths.py`: a `.civ` file inside
the config's folder or a rulesets root, or a shipped variant's name); CFG019 an edition path it refuses.
Every problem of a file is found in one run (`read_config`), as a rule file's are: a user fixing a
config should not meet its mistakes one class at a time.
"""
from __future__ import annotations

import json
import os
from dataclasses import dataclass, field, fields, replace
from importlib import resources
from pathlib import Path
from typing import Any

from .agentspec import agent_problem
from .diagnostics import CivError, Diagnostic, Span
from .paths import config_home, config_log, edition_entry, house_rule_file
from .yamlfile import fmt_path, locate, node_span, parse_yaml, read_text, schema_problems, strict_validator


def config_schema() -> dict:
    """The config JSON Schema, read from the installed package so the wheel, the docs and `civdsl schema` agree."""
    text = resources.files("civdsl").joinpath("config.schema.json").read_text(encoding="utf-8")
    return json.loads(text)


CONFIG_SCHEMA: dict = config_schema()
_VALIDATOR = strict_validator(CONFIG_SCHEMA)


def schema_text() -> str:
    """The schema pretty-printed as JSON, for `civdsl schema > civdsl.schema.json`."""
    return json.dumps(CONFIG_SCHEMA, indent=2, ensure_ascii=False)


@dataclass
class GameConfig:
    """Everything needed to start a game, from a config file, the command line, or both."""

    edition: str | None = None
    players: int | None = None
    seed: int = 0
    agents: list[str] = field(default_factory=list)  # empty: every player is random
    options: list[str] = field(default_factory=list)
    house_rules: list[str] = field(default_factory=list)  # absolute paths
    max_rounds: int | None = None
    log: str | None = None
    choices: dict[str, list] = field(default_factory=dict)  # decision tag → one fixed answer per seat
    source: str | None = None  # the config file's path, as given
    yaml_root: Any = field(default=None, repr=False, compare=False)  # for spans of later findings
    dropped: tuple[str, ...] = ()  # keys of the file left out because of a problem (`read_config`; "*": all)

    def span(self, *where) -> Span | None:
        """Where a key (`"options", 1`) is in the config file; None for command-line values."""
        if self.source is None or self.yaml_root is None:
            return None
        return node_span(self.source, locate(self.yaml_root, list(where)))


def load_config(path: str) -> GameConfig:
    """Read, validate and resolve one config file; every problem is a `CivError` with spans into the file
    (all of them at once: see `read_config`)."""
    cfg, problems = read_config(path)
    if problems:
        raise CivError(problems)
    return cfg


def read_config(path: str) -> tuple[GameConfig, list[Diagnostic]]:
    """Read one config file and find every problem of the file in one pass: schema findings (CFG002, and
    the agents' CFG020), house rules that are missing or refused (CFG004, CFG018), an edition path that
    is refused (CFG019), a log path that leaves the folder (LOG006). The config returned leaves out each
    value that has a problem (its key is in `GameConfig.dropped`), so the checks that need a game
    (`api.check_config`) can go on with the rest. A file that cannot be read or is not YAML (CFG003,
    CFG001) has nothing else to check: that raises `CivError`."""
    text = read_text(path)
    root, data = parse_yaml(text, path)
    if data is None:  # an empty file is a config with every default
        data = {}
    found = config_problems(data)
    problems = [Diagnostic(code, f"{fmt_path(where)}: {what}", node_span(path, locate(root, where)), hint=hint)
                for where, code, what, hint in found]
    if not isinstance(data, dict) or any(not where for where, *_ in found):
        return GameConfig(source=path, yaml_root=root, dropped=("*",)), sorted(problems, key=Diagnostic.sort_key)
    bad = {tuple(where[:2]) for where, *_ in found} | {(where[0],) for where, *_ in found}
    dropped = {key for key, *_ in bad if key in data}

    def clean(key: str, default: Any = None) -> Any:
        return default if key in dropped else data.get(key, default)

    base = Path(path).absolute().parent
    house_rules: list[str] = []
    listed = data.get("house_rules")
    for i, raw in enumerate(listed if isinstance(listed, list) else []):
        if ("house_rules", i) in bad or not isinstance(raw, str):
            continue
        hr = house_rule_file(raw, base, config_home(path))
        if hr.path is None:
            dropped.add("house_rules")
            problems.append(Diagnostic("CFG018" if hr.refused else "CFG004", f"house_rules[{i}]: {hr.problem}",
                                       node_span(path, locate(root, ["house_rules", i])),
                                       hint=HOUSE_RULE_HINT if hr.refused else
                                       "house-rule paths are relative to the folder of the config file; "
                                       "`civdsl list` shows the shipped variants"))
        else:
            house_rules.append(hr.path)
    edition = clean("edition")
    if edition is not None:
        named = edition_entry(edition, base, config_home(path))
        if named.path is None:
            dropped.add("edition")
            problems.append(Diagnostic(
                "CFG019", f"edition: {named.problem}", node_span(path, locate(root, ["edition"])),
                hint="a config names an edition by its name (`civdsl list`) or by a path to a `.civ` file or an "
                     "edition folder inside the config's folder; `--edition` on the command line takes any"))
        edition = named.path
    log = clean("log")
    if log is not None:  # relative to the config's folder (its real place: no `..` left in the path shown)
        try:
            log = config_log(log, config_home(path), config_home(path), node_span(path, locate(root, ["log"])))
        except CivError as exc:
            dropped.add("log")
            problems.extend(exc.diagnostics)
            log = None

    agents = clean("agents", [])
    choices = clean("choices", {})
    players = _int_or_none(clean("players"))
    if players is None and choices:
        players = max(len(v) for v in choices.values())
    cfg = GameConfig(
        edition=edition,
        players=players,
        seed=int(clean("seed", 0)),
        agents=[agents] if isinstance(agents, str) else list(agents),
        options=list(clean("options", [])),
        house_rules=house_rules,
        max_rounds=_int_or_none(clean("max_rounds")),
        log=log,
        choices=choices,
        source=path,
        yaml_root=root,
        dropped=tuple(sorted(dropped)),
    )
    return cfg, sorted(problems, key=Diagnostic.sort_key)


def merge_cli(config: GameConfig, **overrides: Any) -> GameConfig:
    """Command-line values win over the file's; `None` means "not given on the command line".

    The values are checked against the same schema as the file (CFG002, no span: they have no file),
    so `--players 40` fails the same way `players: 40` does.
    """
    unknown = set(overrides) - {f.name for f in fields(GameConfig)}
    if unknown:
        raise TypeError(f"merge_cli() got unknown settings: {', '.join(sorted(unknown))}")
    given = {k: v for k, v in overrides.items() if v is not None}
    if isinstance(given.get("agents"), str):
        given["agents"] = [given["agents"]]
    checked = {k: v for k, v in given.items() if k in CONFIG_SCHEMA["properties"]}
    problems = [Diagnostic(code, f"--{str(where[0]).replace('_', '-')}{fmt_path(where[1:], '')}: {what}",
                           hint=hint)
                for where, code, what, hint in config_problems(checked)]
    if problems:
        raise CivError(problems)
    if "house_rules" in given:  # command-line paths are the user's own: relative to the working directory, anywhere
        resolved = []
        for raw in given["house_rules"]:
            hr = house_rule_file(raw, Path.cwd(), None)
            if hr.refused:
                raise CivError(Diagnostic("CFG018", f"--house-rule: {hr.problem}",
                                          hint="a house rule is a `.civ` file or the name of a shipped variant "
                                               "(`civdsl list`)"))
            resolved.append(hr.path or os.path.abspath(raw))  # a missing file: LOAD001 when it is loaded
        given["house_rules"] = resolved
    return replace(config, **given)


def config_problems(data: Any) -> list[tuple[list, str, str, str | None]]:
    """Every finding of the schema, as (key path, code, message, hint); an agent given as text is checked by
    `agentspec` instead (the schema's pattern only says its shape), which knows each agent's options."""
    agents = data.get("agents") if isinstance(data, dict) else None
    texts = {(): agents} if isinstance(agents, str) else \
        {(i,): a for i, a in enumerate(agents) if isinstance(a, str)} if isinstance(agents, list) else {}
    found = [(where, "CFG002", what, hint) for where, what, hint in schema_problems(_VALIDATOR, data)
             if not (where and where[0] == "agents" and tuple(where[1:]) in texts)]
    for sub, text in texts.items():
        problem = agent_problem(text)
        if problem is not None:
            found.append((["agents", *sub], problem.code, problem.message, problem.hint))
    return found


HOUSE_RULE_HINT = ("a config names a house rule by a shipped variant's name (`civdsl list`) or by a path to a "
                   "`.civ` file inside the config's folder (symbolic links are followed); see "
                   "docs/config.md, Paths and files")


def _int_or_none(value: Any) -> int | None:
    return None if value is None else int(value)
