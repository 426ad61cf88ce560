"""Map data files: areas with attributes and typed borders, in JSON, inside a ruleset's folder.

The format is `civdsl/map.schema.json` (JSON Schema draft-07, shipped in the package):
`{"sources": "...", "areas": {"Name": {attr: value, ...}}, "borders": [["A", "B", "land"], ...]}` where a
border's type is `land`, `water` or `both`. Borders are symmetric by construction. Area attributes are
the ruleset's data: any JSON value, read by rules with `area(board, a)`.

A map file is input like any other, and may be hostile: whatever it holds, reading it gives a
`MapGraph` or diagnostics at the `map` declaration that names it, each with the path to the offending
element (`borders[3][1]`, `areas["Aegean Sea"].limit`), never an exception. Codes:

    MAP001 missing or unreadable       MAP006 a border names an area the map does not have
    MAP002 too large                   MAP007 any other break of the schema (a wrong type, a key
    MAP003 not JSON                           unknown or given twice)
    MAP004 no `areas` object, or an    MAP008 arrays and objects nested too deeply
           area not an object          MAP009 a border of an area with itself, or a pair given twice
    MAP005 a border not                MAP010 a list of area names (coastlines, uncertain or rejected
           [area, area, type]                 borders) names an unknown area, or an area's provenance
                                              list names an attribute it does not have
                                       MAP011 the `geometry` names an unknown area, or has no shape
                                              for an area of the map
                                       MAP012 a `geometry` point off the board (its width and height),
                                              or an area's shape with neither polygons nor a point

Checking costs little for a good map: a quick check compiled from the schema passes it in a few
milliseconds; only a map the quick check refuses is handed to `jsonschema`, the authority, which says
what is wrong. A map is read and checked once per process while its file is unchanged.
"""
from __future__ import annotations

import json
import re
from importlib import resources
from itertools import accumulate, islice
from pathlib import Path
from typing import Any, Callable

from ..language.diagnostics import CivError, Diagnostic, Span, error
from ..language.names import suggest
from ..language.yamlfile import schema_leaves
from .state import MapGraph

MAX_MAP_BYTES = 5_000_000
MAX_MAP_DEPTH = 32
"""Arrays and objects nested in a map file (the shipped maps nest 7 deep); deeper is refused unread."""
MAX_MAP_PROBLEMS = 20
"""Problems reported for one map file; the last one reported says when the file has more."""

_LOADED: dict[str, tuple[tuple[int, int], MapGraph]] = {}  # path -> (mtime and size, graph)

Where = tuple  # a path into the JSON document: keys and indexes
Problem = tuple  # (code, where, what is wrong, hint): the hint a text, None, or a function that makes it


def load_map(path: Path, span: Span) -> MapGraph:
    """Read and validate a map file; every problem is a diagnostic at the `map` declaration. A map is
    read once per process while the file is unchanged (map graphs never change during a game)."""
    try:
        if not path.is_file():
            what = "is not a file" if path.exists() else "not found"
            raise error("MAP001", f"map file `{_show_name(path)}` {what}", span,
                        "the path is relative to the rule file")
        st = path.stat()
    except OSError as exc:
        raise error("MAP001", f"cannot read map file `{_show_name(path)}`: {exc.strerror or exc}", span) from None
    hit = _LOADED.get(str(path))
    if hit is not None and hit[0] == (st.st_mtime_ns, st.st_size):
        return hit[1]
    graph = _read_map(path, span, st.st_size)
    _LOADED[str(path)] = ((st.st_mtime_ns, st.st_size), graph)
    return graph


def _show_name(path: Path) -> str:
    """The file's name for a message: unprintable characters escaped, a long name cut short."""
    name = "".join(c if c.isprintable() else f"\\u{ord(c):04x}" for c in path.name)
    return name if len(name) <= 80 else name[:60] + "..." + name[-16:]


def _read_map(path: Path, span: Span, size: int) -> MapGraph:
    name = _show_name(path)
    too_large = error("MAP002", f"map file `{name}` is larger than {MAX_MAP_BYTES} bytes", span)
    if size > MAX_MAP_BYTES:
        raise too_large
    try:
        with path.open("rb") as fh:
            raw = fh.read(MAX_MAP_BYTES + 1)
    except OSError as exc:
        raise error("MAP001", f"cannot read map file `{name}`: {exc.strerror or exc}", span) from None
    if len(raw) > MAX_MAP_BYTES:
        raise too_large
    data, repeats = _parse(raw, name, span)
    problems = (_repeated_keys(data) if repeats else []) or schema_problems(data)
    if not problems:
        graph, problems = _build(data)
        if not problems:
            return graph
    raise CivError(_diagnostics(problems, name, span))


# ---- reading the JSON text ---------------------------------------------------------------------------------

_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"?', re.S)  # a JSON string (or an unterminated one, to the end)
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
_DEPTH_STEPS = bytes.maketrans(b"[{]}", b"\x01\x01\xff\xff")
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")


class _Repeated(dict):
    """A JSON object that gives a key more than once (JSON keeps the last silently; a map may not)."""
    repeated: list


def _objects_noting_repeats(noted: list) -> Callable[[list], dict]:
    """The JSON reader's object maker: a `_Repeated` for an object that gives a key twice, noted."""
    def make(pairs: list) -> dict:
        obj = dict(pairs)
        if len(obj) != len(pairs):
            seen: set = set()
            obj = _Repeated(obj)
            obj.repeated = [k for k, _ in pairs if k in seen or seen.add(k)]
            noted.append(obj)
        return obj
    return make


def _no_constant(word: str):
    raise ValueError(f"{word} is not a JSON number")


def _finite(text: str) -> float:
    value = float(text)
    if value in (float("inf"), float("-inf")):
        raise ValueError(f"the number {text[:40]} is too large")
    return value


def nesting_depth(text: str) -> int:
    """How deep arrays and objects nest in a JSON text, found without parsing it (so that a file of
    100,000 `[` is refused before the JSON reader recurses). Brackets inside strings do not count; the
    JSON reader never goes deeper than this, even in a text it then finds invalid."""
    brackets = _NOT_BRACKET.sub("", _STRING.sub("", text)).encode("ascii").translate(_DEPTH_STEPS)
    return max(accumulate(memoryview(brackets).cast("b")), default=0)


def _parse(raw: bytes, name: str, span: Span) -> tuple[Any, bool]:
    """The JSON value, and whether an object in it gives a key twice."""
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise error("MAP003", f"map file `{name}` is not UTF-8 text (byte {exc.start})", span) from None
    depth = nesting_depth(text)
    if depth > MAX_MAP_DEPTH:
        raise error("MAP008", f"map file `{name}` nests arrays and objects {depth} levels deep; at most "
                    f"{MAX_MAP_DEPTH} are allowed", span, "a map is areas with attributes and a list of borders")
    try:
        repeats: list = []
        data = json.loads(text, object_pairs_hook=_objects_noting_repeats(repeats), parse_constant=_no_constant,
                          parse_float=_finite)
    except RecursionError:  # not expected after the depth check; never a traceback all the same
        raise error("MAP008", f"map file `{name}` nests arrays and objects too deeply", span) from None
    except ValueError as exc:
        why = "a number has too many digits" if "integer string conversion" in str(exc) else str(exc)
        raise error("MAP003", f"map file `{name}` is not valid JSON: {why}", span,
                    "fix the JSON at the position given") from None
    if _SURROGATE_ESCAPE.search(text) and _has_lone_surrogate(data):
        raise error("MAP003", f"map file `{name}` is not valid JSON: a string holds an unpaired surrogate "
                    "escape (\\ud800-\\udfff), which is no character", span)
    return data, bool(repeats)


def _has_lone_surrogate(data: Any) -> bool:
    todo = [data]
    while todo:
        value = todo.pop()
        if isinstance(value, dict):
            todo.extend(value)
            todo.extend(value.values())
        elif isinstance(value, list):
            todo.extend(value)
        elif isinstance(value, str):
            try:
                value.encode("utf-8")
            except UnicodeEncodeError:
                return True
    return False


def _repeated_keys(data: Any, where: Where = ()) -> list[Problem]:
    """Objects that give a key twice (MAP007). Recursive: the depth is bounded by MAX_MAP_DEPTH."""
    found: list[Problem] = []
    if isinstance(data, dict):
        if type(data) is _Repeated:
            for key in data.repeated:
                found.append(("MAP007", where, f"gives the key {_show(key)} more than once",
                              "a JSON reader keeps only the last: give each key once"))
        for key, value in data.items():
            if isinstance(value, (dict, list)):
                found.extend(_repeated_keys(value, where + (key,)))
    elif isinstance(data, list):
        for i, value in enumerate(data):
            if isinstance(value, (dict, list)):
                found.extend(_repeated_keys(value, where + (i,)))
    return found


# ---- the schema ---------------------------------------------------------------------------------------------

def map_schema() -> dict:
    """The map JSON Schema, read from the installed package."""
    return json.loads(resources.files("civdsl").joinpath("map.schema.json").read_text(encoding="utf-8"))


MAP_SCHEMA: dict = map_schema()
BORDER_TYPES: tuple[str, ...] = tuple(MAP_SCHEMA["definitions"]["border_type"]["enum"])  # land, water, both
_validator = None


def _jsonschema_validator():
    global _validator
    if _validator is None:
        from jsonschema import Draft7Validator  # only for a map the quick check refuses
        _validator = Draft7Validator(MAP_SCHEMA)
    return _validator


_TYPES: dict[str, Callable[[Any], bool]] = {
    "object": lambda x: isinstance(x, dict),
    "array": lambda x: type(x) is list,
    "string": lambda x: type(x) is str,
    "boolean": lambda x: type(x) is bool,
    "null": lambda x: x is None,
    "number": lambda x: type(x) in (int, float),
    "integer": lambda x: type(x) is int or (type(x) is float and x.is_integer()),
}
_IGNORED = {"$schema", "title", "description", "definitions", "default", "examples"}


def _never(_value) -> bool:
    return False


def _compile(schema: Any, defs: dict, refs: dict) -> Callable[[Any], bool]:
    """A quick test of a value against a (sub)schema, for the keywords the map schema uses. It may say
    False where the schema holds (for a keyword it does not know), never True where it does not."""
    if schema is True or schema == {}:
        return lambda _value: True
    if schema is False or not isinstance(schema, dict) or set(schema) - set(_KEYWORDS) - _IGNORED:
        return _never
    if "$ref" in schema:  # draft-07: the keywords beside `$ref` are ignored
        return _k_ref(schema["$ref"], schema, defs, refs)
    tests: list[Callable[[Any], bool]] = []
    for key, arg in schema.items():
        if key not in _IGNORED:
            test = _KEYWORDS[key](arg, schema, defs, refs)
            if test is not None:
                tests.append(test)
    if len(tests) == 1:
        return tests[0]
    return lambda value: all(test(value) for test in tests)


def _k_type(arg, schema, defs, refs):
    kinds = [arg] if isinstance(arg, str) else arg
    if any(k not in _TYPES for k in kinds):
        return _never
    checks = [_TYPES[k] for k in kinds]
    return checks[0] if len(checks) == 1 else (lambda value: any(c(value) for c in checks))


def _k_enum(arg, schema, defs, refs):
    if not all(type(e) is str for e in arg):
        return _never
    words = frozenset(arg)
    return lambda value: type(value) is str and value in words


def _k_ref(arg, schema, defs, refs):
    name = arg.removeprefix("#/definitions/")
    if name == arg or name not in defs:
        return _never
    if name not in refs:
        cell: list = []
        refs[name] = lambda value: cell[0](value)
        cell.append(_compile(defs[name], defs, refs))
    return refs[name]


def _k_properties(arg, schema, defs, refs):
    props = {k: _compile(v, defs, refs) for k, v in arg.items()}
    return lambda value: not isinstance(value, dict) or all(t(value[k]) for k, t in props.items() if k in value)


def _k_additional_properties(arg, schema, defs, refs):
    if arg is True:
        return None
    known = set(schema.get("properties", {}))
    rest = _compile(arg, defs, refs)
    return lambda value: not isinstance(value, dict) or all(rest(v) for k, v in value.items() if k not in known)


def _k_property_names(arg, schema, defs, refs):
    key = _compile(arg, defs, refs)
    return lambda value: not isinstance(value, dict) or all(key(k) for k in value)


def _k_required(arg, schema, defs, refs):
    return lambda value: not isinstance(value, dict) or all(k in value for k in arg)


def _k_items(arg, schema, defs, refs):
    if isinstance(arg, list):
        each = [_compile(s, defs, refs) for s in arg]
        extra = _compile(schema.get("additionalItems", True), defs, refs)
        n = len(each)
        return lambda value: type(value) is not list or (
            all(t(v) for t, v in zip(each, value)) and all(extra(v) for v in value[n:]))
    item = _compile(arg, defs, refs)
    return lambda value: type(value) is not list or all(item(v) for v in value)


def _k_additional_items(arg, schema, defs, refs):
    return None  # applied by `items` when it is a list; ignored otherwise


def _k_min_items(arg, schema, defs, refs):
    return lambda value: type(value) is not list or len(value) >= arg


def _k_min_length(arg, schema, defs, refs):
    return lambda value: type(value) is not str or len(value) >= arg


def _k_minimum(arg, schema, defs, refs):
    return lambda value: type(value) not in (int, float) or value >= arg


def _k_pattern(arg, schema, defs, refs):
    rx = re.compile(arg)
    return lambda value: type(value) is not str or rx.search(value) is not None


def _k_any_of(arg, schema, defs, refs):
    tests = [_compile(sub, defs, refs) for sub in arg]
    return lambda value: any(t(value) for t in tests)


_KEYWORDS: dict[str, Callable] = {
    "type": _k_type, "enum": _k_enum, "$ref": _k_ref, "properties": _k_properties,
    "additionalProperties": _k_additional_properties, "propertyNames": _k_property_names, "required": _k_required,
    "items": _k_items, "additionalItems": _k_additional_items, "minItems": _k_min_items,
    "minLength": _k_min_length, "minimum": _k_minimum, "pattern": _k_pattern, "anyOf": _k_any_of,
}

quick_check: Callable[[Any], bool] = _compile(MAP_SCHEMA, MAP_SCHEMA.get("definitions", {}), {})
"""True when a parsed map file certainly follows the map schema (`jsonschema` decides the rest)."""


def schema_problems(data: Any) -> list[Problem]:
    """Every way `data` breaks the map schema (at most a few hundred), each with its code and path."""
    if quick_check(data):
        return []
    problems: list[Problem] = []
    for err in islice(_jsonschema_validator().iter_errors(data), 10 * MAX_MAP_PROBLEMS):
        for leaf in schema_leaves(err):
            problems.extend(_explain(leaf))
    return problems


_PHRASES = {"object": "an object", "array": "an array", "string": "a string", "integer": "an integer",
            "number": "a number", "boolean": "true or false", "null": "null"}


def _explain(err) -> list[Problem]:
    where = tuple(err.absolute_path)
    value, schema, kind = err.instance, err.schema, err.validator
    if "propertyNames" in err.absolute_schema_path:  # the error is about a key of the object at `where`
        rule = "must not be empty" if kind == "minLength" else f"must match {err.validator_value}"
        return [(_code(where, kind), where, f"has the key {_show(value)}, and keys here {rule}", None)]
    if kind == "additionalProperties":
        allowed = list(schema.get("properties", {}))
        found = []
        for key in value:
            if key not in allowed:
                close = suggest(key, allowed)
                hint = f"did you mean `{close}`?" if close else f"the keys are: {', '.join(allowed)}"
                found.append((_code(where + (key,), kind), where + (key,), "is not a key allowed here", hint))
                if len(found) >= MAX_MAP_PROBLEMS:
                    break
        return found
    if kind == "required":
        missing = [k for k in err.validator_value if isinstance(value, dict) and k not in value]
        return [(_code(where, kind), where, f"needs the key {_show(k)}", None) for k in missing]
    if kind == "type":
        what = f"must be {_types(_as_list(err.validator_value))}, not {_describe(value)}"
    elif kind == "enum":
        what = f"must be one of {', '.join(map(str, err.validator_value))}, not {_describe(value)}"
    elif kind == "minimum":
        what = f"must be at least {err.validator_value}, not {_describe(value)}"
    elif kind == "minLength":
        what = "must not be an empty string"
    elif kind in ("minItems", "additionalItems"):
        what = f"has {len(value)} items"
    elif kind == "anyOf":
        types = [s.validator_value for s in err.context if s.validator == "type" and not s.relative_path]
        what = f"must be {_types(types)}, not {_describe(value)}" if types else err.message[:200]
    else:
        what = err.message[:200]
    return [(_code(where, kind), where, what, _hint(where, schema))]


def _types(names: list) -> str:
    return " or ".join(_PHRASES.get(t, t) for t in names)


def _as_list(x) -> list:
    return [x] if isinstance(x, str) else list(x)


def _code(where: Where, kind: str) -> str:
    """The old codes keep their meaning: MAP004 the areas object, MAP005 the borders; MAP007 the rest."""
    if not where:
        return "MAP004" if kind in ("type", "required") else "MAP007"
    if where[0] == "areas" and (len(where) == 1 or (len(where) == 2 and kind == "type")):
        return "MAP004"
    if where[0] == "borders":
        return "MAP005"
    return "MAP007"


def _hint(where: Where, schema: dict) -> str | None:
    if where[:1] == ("borders",):
        return "a border is [area, area, type] with a type land, water or both"
    if not where or (where[:1] == ("areas",) and len(where) <= 2):
        return 'write {"areas": {"Name": {attribute: value, ...}}, "borders": [...]}'
    return None if "description" not in schema else f"expected: {schema['description'][:160]}"


# ---- what the schema cannot say -----------------------------------------------------------------------------

def _build(data: dict) -> tuple[MapGraph, list[Problem]]:
    """The graph, and the names that must be areas (or attributes) and are not. "Did you mean" hints are
    worked out only for the problems reported, so a file of 100,000 bad names costs no 100,000 searches."""
    areas = data["areas"]
    problems: list[Problem] = []
    graph = MapGraph(geometry=data.get("geometry"))
    for name, attrs in areas.items():
        graph.areas[name] = dict(attrs)
        graph.borders[name] = {}
    first: dict[tuple, int] = {}
    for i, (a, b, kind) in enumerate(data.get("borders", [])):
        unknown = [(j, end) for j, end in enumerate((a, b)) if end not in areas]
        for j, end in unknown:
            problems.append(("MAP006", ("borders", i, j), f"names {_show(end)}, which is not an area of the map",
                             lambda end=end: _did_you_mean(end, areas)))
        if unknown:
            continue
        if a == b:
            problems.append(("MAP009", ("borders", i), f"is a border of {_show(a)} with itself", None))
            continue
        pair = (a, b) if a < b else (b, a)
        if pair in first:
            problems.append(("MAP009", ("borders", i), f"gives the border of {_show(a)} and {_show(b)} again "
                             f"(first as borders[{first[pair]}])", "a border goes both ways: list it once"))
            continue
        first[pair] = i
        graph.borders[a][b] = kind
        graph.borders[b][a] = kind
    for name, attrs in areas.items():
        for c, coast in enumerate(attrs.get("coastlines", [])):
            for j, other in enumerate(coast):
                if other not in areas:
                    problems.append(("MAP010", ("areas", name, "coastlines", c, j),
                                     f"names {_show(other)}, which is not an area of the map",
                                     lambda other=other: _did_you_mean(other, areas)))
        for field in ("reconstructed", "uncertain"):
            for j, attr in enumerate(attrs.get(field, [])):
                if attr not in attrs:
                    problems.append(("MAP010", ("areas", name, field, j),
                                     f"names the attribute {_show(attr)}, which the area does not have",
                                     lambda attr=attr, attrs=attrs, field=field: _did_you_mean(
                                         attr, [k for k in attrs if k != field])))
    for field in ("uncertain_borders", "rejected_borders"):
        for i, entry in enumerate(data.get(field, [])):
            for j, end in enumerate(entry["areas"]):
                if end not in areas:
                    problems.append(("MAP010", (field, i, "areas", j),
                                     f"names {_show(end)}, which is not an area of the map",
                                     lambda end=end: _did_you_mean(end, areas)))
    if graph.geometry is not None:
        problems.extend(_geometry_problems(graph.geometry, areas))
    return graph, problems


def _geometry_problems(geometry: dict, areas: dict) -> list[Problem]:
    """Shapes for exactly the map's areas, every point on the board (the schema has checked the types).
    At most one point off the board is reported per area, so a hostile file costs no million problems."""
    problems: list[Problem] = []
    shapes = geometry["areas"]
    width, height = geometry["width"], geometry["height"]
    for name, shape in shapes.items():
        where = ("geometry", "areas", name)
        if name not in areas:
            problems.append(("MAP011", where, "is not an area of the map",
                             lambda name=name: _did_you_mean(name, areas)))
            continue
        if "polygons" not in shape and "at" not in shape:
            problems.append(("MAP012", where, "has neither `polygons` nor a point `at`", "give the area a shape"))
        points = [(("label",), shape["label"])] if "label" in shape else []
        points += [(("at",), shape["at"])] if "at" in shape else []
        points += [(("polygons", i, j), pt) for i, poly in enumerate(shape.get("polygons", ()))
                   for j, pt in enumerate(poly)]
        for tail, (x, y) in points:
            if not (0 <= x <= width and 0 <= y <= height):
                problems.append(("MAP012", where + tail, f"is [{_show(x, 20)}, {_show(y, 20)}], off the board "
                                 f"(width {_show(width, 20)}, height {_show(height, 20)})",
                                 "points lie between 0 and the geometry's width and height"))
                break
    missing = [name for name in areas if name not in shapes]
    for name in missing[:MAX_MAP_PROBLEMS]:
        problems.append(("MAP011", ("geometry", "areas"), f"gives no shape for the area {_show(name)}",
                         "every area of the map needs `polygons` or a point `at`"))
    return problems


def _did_you_mean(name: str, known) -> str | None:
    close = suggest(name, known) if len(name) <= 200 else None
    return f"did you mean {_show(close)}?" if close else None


# ---- words --------------------------------------------------------------------------------------------------

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def _show(text: Any, limit: int = 60) -> str:
    """A key or name as JSON shows it (quotes, escapes), cut short if long."""
    shown = json.dumps(text, ensure_ascii=False)
    return shown if len(shown) <= limit else shown[: limit - 4] + '..."'


def _describe(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, list):
        return "an array"
    if isinstance(value, str):
        return f"the string {_show(value, 40)}"
    return f"the number {_show(value, 40)}"


def fmt_where(where: Where) -> str:
    """`("borders", 3, 1)` → `borders[3][1]`; `("areas", "Aegean Sea", "limit")` → `areas["Aegean Sea"].limit`."""
    out = ""
    for part in where:
        if type(part) is int:
            out += f"[{part}]"
        elif _NAME.fullmatch(part):
            out += f".{part}" if out else part
        else:
            out += f"[{_show(part)}]"
    return out


def _order(problem: Problem) -> tuple:
    return tuple((0, p, "") if type(p) is int else (1, 0, p) for p in problem[1])


def _diagnostics(problems: list[Problem], name: str, span: Span) -> list[Diagnostic]:
    problems = sorted(problems, key=_order)
    out = []
    for code, where, what, hint in problems[:MAX_MAP_PROBLEMS]:
        place = fmt_where(where)
        message = f"map file `{name}`: {place} {what}" if place else f"map file `{name}` {what}"
        out.append(Diagnostic(code, message, span, "error", hint() if callable(hint) else hint))
    if len(problems) > MAX_MAP_PROBLEMS:
        out[-1].message += f" (the first {MAX_MAP_PROBLEMS} problems are shown; the file has more)"
    return out
