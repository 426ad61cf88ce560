"""Reading YAML input files safely and explaining schema violations by key path and line.

Shared by game configs and scenario files: plain YAML only (`SafeLoader`), bounded size and alias
expansion, and every JSON Schema finding turned into words (`agents[1]: expected one of ...`) with the
position of the offending key. Diagnostic codes take the caller's prefix: PREFIX001 bad YAML (also a
key given twice in one mapping: YAML would silently keep the last), PREFIX002 schema violation (also an
integer of more than `MAX_INT_DIGITS` digits anywhere in the file), PREFIX003 unreadable file.
"""
from __future__ import annotations

import difflib
import re
from typing import Any, Iterator

import yaml
from jsonschema import Draft7Validator, validators
from jsonschema.exceptions import ValidationError

from .diagnostics import CivError, Diagnostic, Span, error

MAX_CONFIG_BYTES = 1 << 20
"""Input files are a screenful or a few; anything near this size is a mistake or an attack."""
MAX_YAML_VALUES = 100_000
"""Bound on values after alias expansion, so `&a [*a, *a, ...]` chains cannot exhaust memory or time."""
MAX_INT_DIGITS = 18
"""Integers in input files (seeds, counts, values) are below 10**18: a longer number is a mistake or an
attack (a 5,000-digit seed once ended in an internal error)."""
INT_LIMIT = 10 ** MAX_INT_DIGITS
_INT_TAG = "tag:yaml.org,2002:int"
_STR_TAG = "tag:yaml.org,2002:str"
_MERGE_TAG = "tag:yaml.org,2002:merge"


# --- reading -------------------------------------------------------------------------------------

def read_text(path: str, prefix: str = "CFG", what: str = "config") -> str:
    """The file's text, refusing what cannot be YAML input (missing, a folder, huge, not UTF-8)."""
    try:
        with open(path, "rb") as f:
            raw = f.read(MAX_CONFIG_BYTES + 1)
    except FileNotFoundError:
        raise error(f"{prefix}003", f"{what} file not found: {path}") from None
    except IsADirectoryError:
        raise error(f"{prefix}003", f"{what} path is a folder, not a file: {path}") from None
    except OSError as e:
        raise error(f"{prefix}003", f"cannot read {what} file {path}: {e.strerror or e}") from None
    if len(raw) > MAX_CONFIG_BYTES:
        raise error(f"{prefix}003", f"{what} file is larger than {MAX_CONFIG_BYTES >> 20} MiB: {path}")
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        line, col = _line_col(raw[:e.start].decode("utf-8", errors="replace"), e.start)
        raise error(f"{prefix}001", f"{what} file is not UTF-8 text", Span(path, line, col)) from None


def parse_yaml(text: str, path: str, prefix: str = "CFG") -> tuple[yaml.Node | None, Any]:
    """Compose then construct with `SafeLoader`, keeping the node tree for error positions."""
    loader = None
    try:
        loader = yaml.SafeLoader(text)  # checks for unprintable characters already
        root = loader.get_single_node()
        if root is None:
            return None, None
        _check_expansion(root, path, prefix)
        _check_keys_and_numbers(root, path, prefix, loader)
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
            hint = "only plain YAML: tags that build program objects (!!python/...) are refused"
        raise error(f"{prefix}001", f"invalid YAML: {message}", span, hint) from None
    except yaml.reader.ReaderError as e:
        line, col = _line_col(text, e.position)
        char = f"#x{e.character:04x}" if isinstance(e.character, int) else repr(e.character)
        raise error(f"{prefix}001", f"invalid YAML: unacceptable character {char}: {e.reason}", Span(path, line, col)) from None
    except yaml.YAMLError as e:
        raise error(f"{prefix}001", f"invalid YAML: {e}", Span(path, 1, 1)) from None
    except RecursionError:
        raise error(f"{prefix}001", "invalid YAML: values nested too deeply", Span(path, 1, 1)) from None
    finally:
        if loader is not None:
            loader.dispose()


def _check_expansion(root: yaml.Node, path: str, prefix: str) -> None:
    """Refuse self-containing aliases and documents that aliases blow up past `MAX_YAML_VALUES`."""
    sizes: dict[int, int] = {}
    open_nodes: set[int] = set()

    def size(node: yaml.Node) -> int:
        key = id(node)
        if key in sizes:
            return sizes[key]
        if key in open_nodes:
            raise error(f"{prefix}001", "invalid YAML: an alias makes a value contain itself", node_span(path, node))
        open_nodes.add(key)
        if isinstance(node, yaml.MappingNode):
            total = 1 + sum(size(k) + size(v) for k, v in node.value)
        elif isinstance(node, yaml.SequenceNode):
            total = 1 + sum(size(item) for item in node.value)
        else:
            total = 1
        open_nodes.discard(key)
        if total > MAX_YAML_VALUES:
            raise error(f"{prefix}001", f"invalid YAML: more than {MAX_YAML_VALUES} values once aliases are expanded",
                        node_span(path, node))
        sizes[key] = total
        return total

    size(root)


def _check_keys_and_numbers(root: yaml.Node, path: str, prefix: str, loader: yaml.SafeLoader) -> None:
    """Refuse a key given twice in one mapping (both places named) and integers of 10**18 or more,
    before anything is built from the nodes; every such problem in the file is reported."""
    problems: list[Diagnostic] = []
    seen: set[int] = set()

    def walk(node: yaml.Node, where: list) -> None:
        if id(node) in seen:
            return
        seen.add(id(node))
        if isinstance(node, yaml.ScalarNode):
            if node.tag == _INT_TAG:
                _check_int(node, path, prefix, where, loader, problems)
            return
        if isinstance(node, yaml.SequenceNode):
            for i, item in enumerate(node.value):
                walk(item, where + [i])
            return
        if not isinstance(node, yaml.MappingNode):
            return
        first: dict[Any, yaml.Node] = {}
        for key, value in node.value:
            walk(key, where)
            if isinstance(key, yaml.ScalarNode) and key.tag != _MERGE_TAG:
                ident = _key_identity(key, loader)
                if ident in first:
                    problems.append(Diagnostic(
                        f"{prefix}001", f"invalid YAML: the key `{fmt_path(where + [key.value], '')}` is given twice",
                        node_span(path, key), "error", "keep one of them: YAML would silently use the last",
                        [(node_span(path, first[ident]), "first given here")]))
                else:
                    first[ident] = key
            walk(value, where + [key.value if isinstance(key, yaml.ScalarNode) else "?"])

    walk(root, [])
    if problems:
        raise CivError(sorted(problems, key=Diagnostic.sort_key))


def _key_identity(key: yaml.ScalarNode, loader: yaml.SafeLoader) -> Any:
    """What a scalar key becomes in the mapping (`true` and `yes` are one key in YAML 1.1)."""
    if key.tag == _STR_TAG:
        return ("str", key.value)
    if key.tag == _INT_TAG and len(key.value) > 2 * MAX_INT_DIGITS + 8:
        return (key.tag, key.value)
    try:
        value = loader.construct_object(key)
        hash(value)
        return (type(value).__name__, value)
    except (yaml.YAMLError, ValueError, TypeError):  # an odd key: the constructor says what is wrong with it
        return (key.tag, key.value)


def _check_int(node: yaml.ScalarNode, path: str, prefix: str, where: list, loader: yaml.SafeLoader,
               problems: list[Diagnostic]) -> None:
    text = node.value.replace("_", "")
    too_big = len(text) > 2 * MAX_INT_DIGITS + 8  # never convert a huge literal (Python refuses > 4,300 digits)
    if not too_big:
        try:
            too_big = abs(loader.construct_yaml_int(node)) >= INT_LIMIT
        except ValueError:
            too_big = True
    if too_big:
        digits = sum(c.isdigit() for c in text)
        problems.append(Diagnostic(
            f"{prefix}002", f"{fmt_path(where)}: expected an integer of at most {MAX_INT_DIGITS} digits, got "
            f"{digits} digits", node_span(path, node), "error", "integers in civdsl files are below 10**18"))


def _line_col(text: str, offset: int) -> tuple[int, int]:
    before = text[:offset]
    return before.count("\n") + 1, offset - (before.rfind("\n") + 1) + 1


# --- schema findings -----------------------------------------------------------------------------

Problem = tuple[list, str, "str | None"]  # (key path, what is wrong, hint)


def strict_validator(schema: dict) -> Draft7Validator:
    """A draft-07 validator for `schema` whose `integer` is a whole number as written: `3`, not `3.0`
    (JSON Schema counts 3.0 as an integer, which the code after the schema does not)."""
    checker = Draft7Validator.TYPE_CHECKER.redefine(
        "integer", lambda _checker, value: isinstance(value, int) and not isinstance(value, bool))
    return validators.extend(Draft7Validator, type_checker=checker)(schema)


def schema_problems(validator: Draft7Validator, data: Any) -> list[Problem]:
    """Every schema violation in `data`, as key path + message + hint."""
    problems: list[Problem] = []
    for err in validator.iter_errors(data):
        for leaf in schema_leaves(err):
            problems.extend(_explain(leaf))
    return problems


def schema_leaves(err: ValidationError) -> Iterator[ValidationError]:
    """Descend into `oneOf`/`anyOf` to the one branch whose type fits, so `[random, gredy]` blames `agents[1]`."""
    if err.validator in ("oneOf", "anyOf") and err.context:
        branches: dict[Any, list[ValidationError]] = {}
        for sub in err.context:
            branches.setdefault(sub.relative_schema_path[0], []).append(sub)
        fitting = [subs for subs in branches.values()
                   if not any(s.validator == "type" and not s.relative_path for s in subs)]
        if len(fitting) == 1:
            for sub in fitting[0]:
                yield from schema_leaves(sub)
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


def fmt_path(where: list, top: str = "(top level)") -> str:
    """`['agents', 2]` → `agents[2]`; `['a', 'b']` → `a.b`."""
    out = ""
    for part in where:
        out += f"[{part}]" if type(part) is int else (f".{part}" if out else str(part))
    return out or top


# --- positions -----------------------------------------------------------------------------------

def locate(root: yaml.Node | None, where: list) -> yaml.Node | None:
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


def node_span(path: str, node: yaml.Node | None) -> Span:
    if node is None:
        return Span(path, 1, 1)
    start, end = node.start_mark, node.end_mark
    return Span(path, start.line + 1, start.column + 1, end.line + 1, end.column + 1)


