"""Parse each rule file once: in memory for the process, and on disk across processes.

An edition, each of its options and every house rule load the same import tree; `civdsl check` loads
dozens of them, and a language server re-checks on every keystroke. Parsing is the dearest part of a
load, so a file's syntax tree is kept:

* **in memory**, by path, while the file's content is unchanged (its SHA-256 is compared on every
  read, so an edit is seen even when the file's size and modification time stay the same);
* **on disk**, under the user cache folder (`$CIVDSL_CACHE_DIR`, else `$XDG_CACHE_HOME/civdsl`, else
  `~/.cache/civdsl`), one file per (path, content, grammar, civdsl version). An entry is plain JSON
  naming only the syntax tree's own node types, with a SHA-256 of its body: an entry that is
  corrupt, truncated, foreign or from another version is ignored (and replaced) without a word to
  the user. Deleting the folder is always safe. The folder is pruned to `MAX_CACHE_BYTES`.

Files with syntax errors are never cached: their diagnostics come from a fresh parse every time.
`set_enabled(False)` (the CLI's `--no-cache`) turns both layers off for the process.
"""
from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import tempfile
from pathlib import Path

from .. import __version__
from . import ast as A
from .diagnostics import Span, error
from .limits import room_to_recurse
from .parser import grammar_text, parse_text

FORMAT = "civdsl-parse-cache/2"
MAX_CACHE_BYTES = 20_000_000
_enabled = os.environ.get("CIVDSL_NO_CACHE", "") in ("", "0")
_memory: dict[str, tuple[str, A.RuleFile]] = {}  # path -> (content hash, tree)
_grammar_digest: str | None = None
_NODE_TYPES = {cls.__name__: cls for cls in vars(A).values()
               if isinstance(cls, type) and dataclasses.is_dataclass(cls) and cls.__module__ == A.__name__}
_NODE_FIELDS = {name: len(dataclasses.fields(cls)) for name, cls in _NODE_TYPES.items()}
stats = {"parsed": 0, "memory": 0, "disk": 0}  # where trees came from in this process (tests, benchmarks)


def set_enabled(on: bool) -> None:
    """Turn the caches on or off for this process (`--no-cache`); off also forgets what is in memory."""
    global _enabled
    _enabled = on
    if not on:
        _memory.clear()


def forget() -> None:
    """Forget the trees kept in memory (the disk cache stays): for tests, and for a long-running
    process that wants to start over."""
    _memory.clear()


def cache_dir() -> Path:
    explicit = os.environ.get("CIVDSL_CACHE_DIR")
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_CACHE_HOME") or (os.environ.get("LOCALAPPDATA") if os.name == "nt" else None)
    return (Path(base) if base else Path.home() / ".cache") / "civdsl"


def parse_file(path: str | Path) -> A.RuleFile:
    """The syntax tree of a rule file, from a cache when the file is unchanged. Raises `CivError`
    like `parser.parse_file` (unreadable file, not UTF-8, bad syntax)."""
    name = str(path)
    try:
        with open(name, "rb") as fh:
            raw = fh.read()
        text = raw.decode("utf-8").replace("\r\n", "\n").replace("\r", "\n")  # as `read_text` reads it
    except UnicodeDecodeError:
        raise error("SYN010", "rule file is not valid UTF-8 text", Span(name, 1, 1)) from None
    except OSError as exc:
        raise error("LOAD001", f"cannot read rule file: {exc.strerror or exc}", Span(name, 1, 1)) from None
    if not _enabled:
        stats["parsed"] += 1
        return parse_text(text, name)
    content = hashlib.sha256(raw).hexdigest()
    hit = _memory.get(name)
    if hit is not None and hit[0] == content:
        stats["memory"] += 1
        return hit[1]
    key = _key(name, content)
    tree = _read_entry(key, name)
    if tree is None:
        tree = parse_text(text, name)
        stats["parsed"] += 1
        _write_entry(key, tree)
    else:
        stats["disk"] += 1
    _memory[name] = (content, tree)
    return tree


def _key(path: str, content: str) -> str:
    global _grammar_digest
    if _grammar_digest is None:
        _grammar_digest = hashlib.sha256(grammar_text().encode("utf-8")).hexdigest()
    h = hashlib.sha256()
    for part in (FORMAT, __version__, _grammar_digest, path, content):
        h.update(part.encode("utf-8"))
        h.update(b"\0")
    return h.hexdigest()


def _entry_path(key: str) -> Path:
    return cache_dir() / key[:2] / f"{key}.json"


def _read_entry(key: str, path: str) -> A.RuleFile | None:
    """The cached tree, or None for a missing, corrupt or foreign entry (never an error)."""
    try:
        data = _entry_path(key).read_bytes()
        head, _, body = data.partition(b"\n")
        meta = json.loads(head)
        if (meta.get("format") != FORMAT or meta.get("key") != key
                or meta.get("sha256") != hashlib.sha256(body).hexdigest()):
            return None
        with room_to_recurse():
            items = _decode(json.loads(body), path)
        if not isinstance(items, list) or not all(isinstance(i, A.Decl) for i in items):
            return None
        return A.RuleFile(path, items)
    except (OSError, ValueError, TypeError, KeyError, IndexError, AttributeError, RecursionError):
        return None


def _write_entry(key: str, tree: A.RuleFile) -> None:
    """Best effort: a cache that cannot be written (read-only home, full disk) is simply not used."""
    try:
        with room_to_recurse():
            body = json.dumps(_encode(tree.items), separators=(",", ":")).encode("utf-8")
        head = json.dumps({"format": FORMAT, "key": key, "sha256": hashlib.sha256(body).hexdigest()})
        target = _entry_path(key)
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=".tmp-")
        try:
            with os.fdopen(fd, "wb") as fh:
                fh.write(head.encode("utf-8") + b"\n" + body)
            os.replace(tmp, target)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
        _prune(target.parent.parent)
    except (OSError, ValueError, TypeError, RecursionError):
        pass


def _prune(root: Path) -> None:
    """Keep the cache under MAX_CACHE_BYTES: the least recently written entries go first."""
    entries = []
    for sub in root.iterdir():
        if sub.is_dir():
            for f in sub.glob("*.json"):
                st = f.stat()
                entries.append((st.st_mtime_ns, st.st_size, f))
    total = sum(size for _, size, _ in entries)
    for _, size, f in sorted(entries):
        if total <= MAX_CACHE_BYTES:
            break
        f.unlink(missing_ok=True)
        total -= size


# ---- the syntax tree as JSON: every list is tagged, so no text can pass for a node -------------------
def _encode(v):
    t = type(v)
    if v is None or t in (bool, int, float, str):
        return v
    if t is list:
        return ["L", *[_encode(x) for x in v]]
    if t is tuple:
        return ["T", *[_encode(x) for x in v]]
    if t is Span:
        return ["S", v.line, v.col, v.end_line, v.end_col]
    if t.__name__ in _NODE_TYPES and _NODE_TYPES[t.__name__] is t:
        return [t.__name__, *[_encode(getattr(v, f.name)) for f in dataclasses.fields(v)]]
    raise TypeError(f"cannot cache a {t.__name__}")


def _decode(v, path: str):
    if not isinstance(v, list):
        if v is None or type(v) in (bool, int, float, str):
            return v
        raise TypeError("not a syntax tree value")
    tag, rest = v[0], v[1:]
    if tag == "L":
        return [_decode(x, path) for x in rest]
    if tag == "T":
        return tuple(_decode(x, path) for x in rest)
    if tag == "S":
        if len(rest) != 4 or not all(type(x) is int for x in rest):
            raise ValueError("bad span")
        return Span(path, *rest)
    cls = _NODE_TYPES[tag]  # KeyError for anything that is not a node type
    if len(rest) != _NODE_FIELDS[tag]:
        raise ValueError("wrong number of fields")
    return cls(*[_decode(x, path) for x in rest])
