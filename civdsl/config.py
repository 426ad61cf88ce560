"""The YAML game config: read it safely, check it against the shipped JSON Schema, merge command-line values.

`config.schema.json` (draft-07, the draft yaml-language-server supports) is the single source of what a
config may say. This module reads plain YAML only (`SafeLoader`, bounded size and alias expansion) and
turns every schema finding into a `Diagnostic` that names the key path (`agents[1]`) and points at the
YAML line, so a config mistake reads like a rule-file mistake.

Codes: CFG001 the file is not valid YAML; CFG002 a value breaks the schema; CFG003 the file cannot be
read; CFG004 a house-rule file it names does not exist.
"""
from __future__ import annotations

import difflib
import json
import os
import re
from dataclasses import dataclass, field, fields, replace
from importlib import resources
from pathlib import Path
from typing import Any, Iterator

import yaml
from jsonschema import Draft7Validator
from jsonschema.exceptions import ValidationError

from .diagnostics import CivError, Diagnostic, Span, error

MAX_CONFIG_BYTES = 1 << 20
"""Configs are a screenful; anything near this size is a mistake or an attack."""
MAX_YAML_VALUES = 100_000
"""Bound on values after alias expansion, so `&a [*a, *a, ...]` chains cannot exhaust memory or time."""


def config_schema() -> dict:
    """The config JSON Schema, read from the installed package so the wheel, the docs and `civdsl schema` agree."""
    text = resources.files(__package__).joinpath("config.schema.json").read_text(encoding="utf-8")
    return json.loads(text)


CONFIG_SCHEMA: dict = config_schema()
_VALIDATOR = Draft7Validator(CONFIG_SCHEMA)


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
    source: str | None = None  # the config file's path, as given


def load_config(path: str) -> GameConfig:
    """Read, validate and resolve one config file; every problem is a `CivError` with spans into the file."""
    text = _read(path)
    root, data = _parse_yaml(text, path)
    if data is None:  # an empty file is a config with every default
        data = {}
    problems = [Diagnostic("CFG002", f"{_fmt_path(where)}: {what}", _node_span(path, _locate(root, where)),
                           hint=hint)
                for where, what, hint in _schema_problems(data)]
    if problems:
        raise CivError(sorted(problems, key=Diagnostic.sort_key))

    base = Path(path).absolute().parent
    house_rules = [os.path.normpath(base / p) for p in data.get("house_rules", [])]
    missing = [Diagnostic("CFG004", f"house_rules[{i}]: no such file {raw!r} (looked for {full})",
                          _node_span(path, _locate(root, ["house_rules", i])),
                          hint="house-rule paths are relative to the folder of the config file")
               for i, (raw, full) in enumerate(zip(data.get("house_rules", []), house_rules))
               if not os.path.isfile(full)]
    if missing:
        raise CivError(missing)

    agents = data.get("agents", [])
    return GameConfig(
        edition=data.get("edition"),
        players=_int_or_none(data.get("players")),
        seed=int(data.get("seed", 0)),
        agents=[agents] if isinstance(agents, str) else list(agents),
        options=list(data.get("options", [])),
        house_rules=house_rules,
        max_rounds=_int_or_none(data.get("max_rounds")),
        log=data.get("log"),
        source=path,
    )


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
    problems = [Diagnostic("CFG002", f"--{str(where[0]).replace('_', '-')}{_fmt_path(where[1:], '')}: {what}",
                           hint=hint)
                for where, what, hint in _schema_problems(checked)]
    if problems:
        raise CivError(problems)
    if "house_rules" in given:  # command-line paths are relative to the working directory
        given["house_rules"] = [os.path.abspath(p) for p in given["house_rules"]]
    return replace(config, **given)


# --- reading -------------------------------------------------------------------------------------

def _read(path: str) -> str:
    """The file's text, refusing what cannot be a config (missing, a folder, huge, not UTF-8)."""
    try:
        with open(path, "rb") as f:
            raw = f.read(MAX_CONFIG_BYTES + 1)
    except FileNotFoundError:
        raise error("CFG003", f"config file not found: {path}") from None
    except IsADirectoryError:
        raise error("CFG003", f"config path is a folder, not a file: {path}") from None
    except OSError as e:
        raise error("CFG003", f"cannot read config file {path}: {e.strerror or e}") from None
    if len(raw) > MAX_CONFIG_BYTES:
        raise error("CFG003", f"config file is larger than {MAX_CONFIG_BYTES >> 20} MiB: {path}")
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        line, col = _line_col(raw[:e.start].decode("utf-8", errors="replace"), e.start)
        raise error("CFG001", "config file is not UTF-8 text", Span(path, line, col)) from None


def _parse_yaml(text: str, path: str) -> tuple[yaml.Node | None, Any]:
    """Compose then construct with `SafeLoader`, keeping the node tree for error positions."""
    loader = None
    try:
        loader = yaml.SafeLoader(text)  # checks for unprintable characters already
        root = loader.get_single_node()
        if root is None:
            return None, None
        _check_expansion(root, path)
        return root, loader.construct_document(root)
    except yaml.MarkedYAMLError as e:
        mark = e.problem_mark or e.context_mark
        span = Span(path, mark.line + 1, mark.column + 1) if mark else Span(path, 1, 1)
        message = e.problem or e.context or "invalid YAML"
        if e.context and e.problem:
            where = f" (line {e.context_mark.line + 1})" if e.context_mark else ""
            message = f"{e.problem}, {e.context}{where}"
        hint = None
        if isinstance(e, yaml.constructor.ConstructorError):
            hint = "configs are plain YAML: tags that build program objects (!!python/...) are refused"
        raise error("CFG001", f"invalid YAML: {message}", span, hint) from None
    except yaml.reader.ReaderError as e:
        line, col = _line_col(text, e.position)
        char = f"#x{e.character:04x}" if isinstance(e.character, int) else repr(e.character)
        raise error("CFG001", f"invalid YAML: unacceptable character {char}: {e.reason}", Span(path, line, col)) from None
    except yaml.YAMLError as e:
        raise error("CFG001", f"invalid YAML: {e}", Span(path, 1, 1)) from None
    except RecursionError:
        raise error("CFG001", "invalid YAML: values nested too deeply", Span(path, 1, 1)) from None
    finally:
        if loader is not None:
            loader.dispose()


def _check_expansion(root: yaml.Node, path: str) -> None:
    """Refuse self-containing aliases and documents that aliases blow up past `MAX_YAML_VALUES`."""
    sizes: dict[int, int] = {}
    open_nodes: set[int] = set()

    def size(node: yaml.Node) -> int:
        key = id(node)
        if key in sizes:
            return sizes[key]
        if key in open_nodes:
            raise error("CFG001", "invalid YAML: an alias makes a value contain itself", _node_span(path, node))
        open_nodes.add(key)
        if isinstance(node, yaml.MappingNode):
            total = 1 + sum(size(k) + size(v) for k, v in node.value)
        elif isinstance(node, yaml.SequenceNode):
            total = 1 + sum(size(item) for item in node.value)
        else:
            total = 1
        open_nodes.discard(key)
        if total > MAX_YAML_VALUES:
            raise error("CFG001", f"invalid YAML: more than {MAX_YAML_VALUES} values once aliases are expanded",
                        _node_span(path, node))
        sizes[key] = total
        return total

    size(root)


def _line_col(text: str, offset: int) -> tuple[int, int]:
    before = text[:offset]
    return before.count("\n") + 1, offset - (before.rfind("\n") + 1) + 1


# --- schema findings -----------------------------------------------------------------------------

Problem = tuple[list, str, "str | None"]  # (key path, what is wrong, hint)


def _schema_problems(data: Any) -> list[Problem]:
    """Every schema violation in `data`, as key path + message + hint."""
    problems: list[Problem] = []
    for err in _VALIDATOR.iter_errors(data):
        for leaf in _leaves(err):
            problems.extend(_explain(leaf))
    return problems


def _leaves(err: ValidationError) -> Iterator[ValidationError]:
    """Descend into `oneOf`/`anyOf` to the one branch whose type fits, so `[random, gredy]` blames `agents[1]`."""
    if err.validator in ("oneOf", "anyOf") and err.context:
        branches: dict[Any, list[ValidationError]] = {}
        for sub in err.context:
            branches.setdefault(sub.relative_schema_path[0], []).append(sub)
        fitting = [subs for subs in branches.values()
                   if not any(s.validator == "type" and not s.relative_path for s in subs)]
        if len(fitting) == 1:
            for sub in fitting[0]:
                yield from _leaves(sub)
            return
    yield err


def _explain(err: ValidationError) -> list[Problem]:
    """Turn one jsonschema error into user words: what was expected and what was found."""
    where = list(err.absolute_path)
    value, schema, kind = err.instance, err.schema, err.validator
    if kind == "additionalProperties":
        allowed = list(schema.get("properties", {}))
        problems = []
        for key in value:
            if key in allowed:
                continue
            close = difflib.get_close_matches(str(key), allowed, n=1)
            hint = f"did you mean '{close[0]}'?" if close else f"allowed keys: {', '.join(allowed)}"
            problems.append((where + [key], "unknown key", hint))
        return problems
    if kind == "uniqueItems":
        seen: list = []
        for i, item in enumerate(value):
            if item in seen:
                return [(where + [i], f"expected each item once, {item!r} is repeated", None)]
            seen.append(item)
    if kind == "type":
        what = f"expected {_type_phrase(err.validator_value)}, got {_describe(value)}"
    elif kind in ("minimum", "maximum"):
        noun = "an integer" if schema.get("type") == "integer" else "a number"
        low, high = schema.get("minimum"), schema.get("maximum")
        if low is not None and high is not None:
            what = f"expected {noun} from {low} to {high}, got {value}"
        elif low is not None:
            what = f"expected {noun} of at least {low}, got {value}"
        else:
            what = f"expected {noun} of at most {high}, got {value}"
    elif kind == "pattern":  # `^(a|b|c)$` is a list of names: say them, and guess the one meant
        choices = re.fullmatch(r"\^\(([\w|-]+)\)\$", err.validator_value)
        if choices:
            names = choices.group(1).split("|")
            close = difflib.get_close_matches(value, names, n=1)
            what = f"expected one of {', '.join(names)}, got {value!r}"
            return [(where, what, f"did you mean '{close[0]}'?" if close else None)]
        what = f"expected a string matching {err.validator_value}, got {value!r}"
    elif kind == "enum":
        what = f"expected one of {', '.join(map(str, err.validator_value))}, got {_describe(value)}"
    elif kind == "minLength":
        what = "expected a non-empty string" if err.validator_value == 1 else err.message
    elif kind in ("oneOf", "anyOf"):
        types = [s.validator_value for s in err.context if s.validator == "type" and not s.relative_path]
        what = (f"expected {' or '.join(_type_phrase(t) for t in types)}, got {_describe(value)}"
                if types else err.message)
    else:
        what = err.message
    return [(where, what, None)]


_TYPE_PHRASES = {"object": "a mapping", "array": "a list", "string": "a string", "integer": "an integer",
                 "number": "a number", "boolean": "true or false", "null": "nothing"}


def _type_phrase(types: str | list[str]) -> str:
    types = [types] if isinstance(types, str) else types
    return " or ".join(_TYPE_PHRASES.get(t, t) for t in types)


def _describe(value: Any) -> str:
    """The YAML reader's view of a value, e.g. `string 'three'`, so users see why it was rejected."""
    if value is None:
        return "nothing (null)"
    if isinstance(value, bool):
        return f"boolean {str(value).lower()}"
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, str):
        return f"string {value!r}"
    names = {int: "integer", float: "number"}
    return f"{names.get(type(value), type(value).__name__)} {value}"


def _fmt_path(where: list, top: str = "(top level)") -> str:
    """`['agents', 2]` → `agents[2]`; `['a', 'b']` → `a.b`."""
    out = ""
    for part in where:
        out += f"[{part}]" if type(part) is int else (f".{part}" if out else str(part))
    return out or top


# --- positions -----------------------------------------------------------------------------------

def _locate(root: yaml.Node | None, where: list) -> yaml.Node | None:
    """The YAML node a key path names: the key of a mapping entry, the item of a list entry.

    Stops at the deepest node it can find, so an error always points somewhere near its cause.
    """
    node = anchor = root
    for part in where:
        if isinstance(node, yaml.MappingNode):
            matches = [(k, v) for k, v in node.value if isinstance(k, yaml.ScalarNode) and k.value == str(part)]
            if not matches:
                break
            anchor, node = matches[-1]  # YAML keeps the last of duplicate keys
        elif isinstance(node, yaml.SequenceNode) and type(part) is int and 0 <= part < len(node.value):
            anchor = node = node.value[part]
        else:
            break
    return anchor


def _node_span(path: str, node: yaml.Node | None) -> Span:
    if node is None:
        return Span(path, 1, 1)
    start, end = node.start_mark, node.end_mark
    return Span(path, start.line + 1, start.column + 1, end.line + 1, end.column + 1)


def _int_or_none(value: Any) -> int | None:
    return None if value is None else int(value)
