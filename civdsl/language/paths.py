"""The path policy: which files civdsl reads and writes, in one place.

Rule files, configs, scenarios and game logs may come from strangers, so no path written in them is
trusted. Every path is resolved with its symbolic links followed, and the result must lie inside the
folder that the policy allows (docs/config.md, "Paths and files"):

- **Rule files** (`import`, `extends "file.civ"`, `map ... from`) reach only inside the rulesets root of
  the entry they were loaded from — the folder above the edition's folder, for shipped editions
  `rulesets/` — or of an edition named by `extends "name"`. A house rule's imports stay in its own
  folder. Imports and extends name `.civ` files, maps `.json` files. `extends` without `.civ` is an
  edition name, never a folder path.
- **House rules named in a config, a scenario or a log header** are a shipped variant's name, or a
  `.civ` file inside that file's *home*: the folder holding the config or log, the folder above a
  scenario's folder (scenarios are kept in a `scenarios/` folder beside the rules they test), or a
  rulesets root (`rulesets/`, the `CIVDSL_RULESETS` folders). `--house-rule` on the command line is
  the user's own choice and may name any `.civ` file.
- **Game logs** (`log:`, `--log`) are written only as new files or over existing civdsl logs, unless
  `--force`; never over a folder, a symbolic link or another kind of file.
- **Folders given to `check` and `fmt`** are searched without following symbolic links out of them.

A path that is refused is named in the diagnostic, never quoted: a file is read (and so may appear in
a diagnostic) only after it passed the policy.
"""
from __future__ import annotations

import json
import os
import stat
from dataclasses import dataclass
from pathlib import Path

from .diagnostics import Diagnostic, Span, display_path, error

LOG_FORMAT = "civdsl-log/1"
RULE_SUFFIX = ".civ"
MAP_SUFFIX = ".json"
SUFFIXES = {"import": RULE_SUFFIX, "extends": RULE_SUFFIX, "map": MAP_SUFFIX}
MAX_LOG_HEADER_BYTES = 1 << 20  # the first line of an existing file, read to see whether it is a log


# --- resolving -----------------------------------------------------------------------------------

def real(path: str | Path) -> Path | None:
    """`path` made absolute with every symbolic link followed; None if it cannot be (a link loop, a
    NUL byte, a name too long)."""
    try:
        return Path(path).resolve()
    except (OSError, RuntimeError, ValueError):
        return None


def inside(path: str | Path, root: str | Path) -> bool:
    """Whether `path`, symbolic links followed, is `root` or lies below it (also resolved)."""
    p, r = real(path), real(root)
    return p is not None and r is not None and p.is_relative_to(r)


def is_name(text: str) -> bool:
    """A plain name (an edition or variant), not a path: no folder separator, not `.`/`..`-led."""
    return bool(text) and not any(c in text for c in "/\\:\0") and not text.startswith(".")


# --- rule files ----------------------------------------------------------------------------------

def rules_root(entry: str | Path, given: str | Path | None = None) -> Path:
    """The rulesets root of an edition entry: `given`, else the folder above the entry's folder (for a
    shipped edition, `rulesets/`). A root that is the top of the file system or the home folder is
    narrowed to the entry's own folder, so a lone `game.civ` in `/tmp` or `~/Downloads` reaches only
    its folder."""
    entry_real = real(entry) or Path(os.path.abspath(entry))
    root = real(given) if given is not None else entry_real.parent.parent
    root = root or entry_real.parent
    broad = {Path(root.anchor)}
    home = _home()
    if home is not None:
        broad.add(home)
    return entry_real.parent if root in broad else root


def _home() -> Path | None:
    try:
        return real(Path.home())
    except (KeyError, RuntimeError):  # no home folder for this user
        return None


def resolve_rule_path(base_file: str, rel: str, root: Path, span: Span | None, what: str) -> Path:
    """A path written in a rule file (`import`, `extends`, `map`), relative to the file's folder and
    resolved with symbolic links followed; it must stay inside `root` and name the right kind of file.

    LOAD002 absolute, LOAD003 outside the root, LOAD006 not a `.civ` (`.json` for a map) file."""
    if Path(rel).is_absolute() or rel.startswith(("/", "\\")) or ":" in rel[:3]:
        raise error("LOAD002", f"{what} path `{rel}` is absolute", span,
                    "paths in rule files are relative to the file that names them")
    target = real(Path(base_file).resolve().parent / rel) if "\0" not in rel else None
    if target is None:
        raise error("LOAD006", f"{what} path `{rel}` is not a usable file name", span,
                    "write a relative path to a file inside the rulesets folder")
    if not target.is_relative_to(root):
        raise error("LOAD003", f"{what} path `{rel}` leaves the rulesets folder", span,
                    f"keep files inside {root}" + (" (symbolic links are followed)" if _has_link(base_file, rel) else ""))
    suffix = SUFFIXES.get(what)
    if suffix and target.suffix != suffix:
        kind = "map file" if what == "map" else "rule file"
        raise error("LOAD006", f"{what} path `{rel}` does not name a `{suffix}` {kind}", span,
                    f"{what} reads only `{suffix}` files" +
                    ("; `extends` without `.civ` names an edition by its name (`civdsl list` shows them)"
                     if what == "extends" else ""))
    return target


def _has_link(base_file: str, rel: str) -> bool:
    """Whether the unresolved path goes through a symbolic link (to say so in the hint)."""
    p = Path(os.path.abspath(base_file)).parent
    for part in Path(rel).parts:
        p = p / part
        if part not in ("..", ".") and p.is_symlink():
            return True
    return False


def extends_target(text: str, span: Span | None) -> None:
    """`extends "X"`: X ends with `.civ` (a path, see `resolve_rule_path`) or is an edition's name."""
    if text.endswith(RULE_SUFFIX) or is_name(text):
        return
    raise error("LOAD006", f"`extends \"{text}\"` names neither an edition nor a `.civ` file", span,
                "write an edition name as `civdsl list` shows it, or a relative path to the entry file "
                "(`extends \"../base/game.civ\"`)")


# --- folders given to check and fmt --------------------------------------------------------------

def files_under(folder: Path, suffixes: tuple[str, ...] = (RULE_SUFFIX,)) -> tuple[list[Path], list[Diagnostic]]:
    """Every file under `folder` whose name ends with one of `suffixes` (rule files by default), sorted,
    without leaving the folder: a symbolic link whose target is
    outside the folder is skipped with a warning (LOAD007); a link whose target is inside adds nothing
    the search does not find anyway (a linked file is listed once, under its real name when the
    search meets it too)."""
    top = real(folder)
    if top is None:
        return [], []
    plain: dict[Path, Path] = {}
    linked: list[tuple[Path, Path]] = []
    notes: list[Diagnostic] = []
    for here, dirs, names in os.walk(folder, followlinks=False):
        for name in dirs:
            p = Path(here) / name
            if p.is_symlink() and not inside(p, top):
                notes.append(_outward_link(p, folder))
        for name in names:
            if not name.endswith(suffixes):
                continue
            p = Path(here) / name
            target = real(p)
            if target is None or not target.is_relative_to(top):
                notes.append(_outward_link(p, folder))
            elif target.is_file():
                (linked.append((p, target)) if p.is_symlink() else plain.setdefault(target, p))
    for p, target in sorted(linked):
        plain.setdefault(target, p)
    return sorted(plain.values()), sorted(notes, key=lambda d: d.message)


def _outward_link(p: Path, folder: Path) -> Diagnostic:
    return Diagnostic("LOAD007", f"`{p}` is a symbolic link that leads out of `{folder}`: not followed",
                      None, "warning", "name the file it points to on the command line to include it")


# --- house rules named by configs, scenarios and logs --------------------------------------------

@dataclass
class Resolved:
    """Where a house rule or an edition named in a config, scenario or log led: `path` (what to load),
    or why not (`problem`); `refused` tells a path the policy forbids from one that names nothing."""

    path: str | None
    problem: str | None = None
    refused: bool = False


def _is_file(p: Path) -> bool:
    try:
        return p.is_file()
    except (OSError, ValueError):  # a name too long, a NUL byte...
        return False


def _outside(target: Path, home: Path) -> bool:
    """Whether `target` lies outside `home` and every rulesets root."""
    from .editions import rulesets_roots
    return not target.is_relative_to(home) and not any(target.is_relative_to(r) for r in rulesets_roots())


def _leads_out(raw: str, candidate: Path, home: Path) -> str:
    lexical = Path(os.path.normpath(os.path.abspath(candidate)))
    link = " through a symbolic link" if lexical.is_relative_to(home) else ""
    return f"`{raw}` leads{link} out of {display_path(str(home))}"


def edition_entry(raw: str, base: Path, home: Path) -> Resolved:
    """An `edition` named in a config, scenario or log header: a shipped edition's name (left as it is:
    the editions list reports an unknown one), or a path relative to `base` that, symbolic links
    followed, is a `.civ` file or a folder holding `game.civ` inside `home` or a rulesets root."""
    from .editions import ENTRY_FILE
    if not isinstance(raw, str) or not raw or "\0" in raw:
        return Resolved(None, f"{raw!r} is not an edition name or path", refused=True)
    candidate = Path(base) / raw
    if is_name(raw) and not os.path.lexists(candidate):
        return Resolved(raw)
    target = real(candidate)
    if target is None:
        return Resolved(None, f"`{raw}` cannot be resolved to a file", refused=True)
    home = real(home) or Path(os.path.abspath(home))
    if _outside(target, home):
        return Resolved(None, _leads_out(raw, candidate, home), refused=True)
    entry = target / ENTRY_FILE if not target.suffix == RULE_SUFFIX else target
    if not _is_file(entry):
        return Resolved(None, f"`{raw}` is neither a `.civ` file nor a folder holding `{ENTRY_FILE}`")
    return Resolved(str(entry))


def house_rule_file(raw: str, base: Path, home: Path | None) -> Resolved:
    """A `house_rules` entry as a file: a path relative to `base` (the folder of the config, scenario
    or log) that, symbolic links followed, is a `.civ` file inside `home` or a rulesets root, or else a
    shipped variant's name (as `civdsl list` shows it). `home` None: any `.civ` file (a command-line path)."""
    from .editions import list_variants
    if not isinstance(raw, str) or not raw or "\0" in raw:
        return Resolved(None, f"{raw!r} is not a file name", refused=True)
    candidate = Path(base) / raw
    if not os.path.lexists(candidate) and is_name(raw):
        variant = list_variants().get(raw.removesuffix(RULE_SUFFIX))
        if variant is not None:
            return Resolved(str(variant))
    target = real(candidate)
    if target is None:
        return Resolved(None, f"`{raw}` cannot be resolved to a file", refused=True)
    home = (real(home) or Path(os.path.abspath(home))) if home is not None else None  # fail closed
    if target.suffix != RULE_SUFFIX:
        what = "a symbolic link to a file that is not" if os.path.islink(candidate) else "not"
        return Resolved(None, f"`{raw}` is {what} a `.civ` rule file", refused=True)
    if home is not None and _outside(target, home):
        return Resolved(None, _leads_out(raw, candidate, home), refused=True)
    if not _is_file(target):
        return Resolved(None, f"no file `{raw}` (looked for {os.path.normpath(candidate)}) and no shipped "
                        "variant of that name")
    return Resolved(str(target))


def config_home(config_path: str) -> Path:
    """The folder a config's (or a log's) house rules must lie in: the folder holding it."""
    return real(Path(os.path.abspath(config_path)).parent) or Path(os.path.abspath(config_path)).parent


def scenario_home(scenario_path: str) -> Path:
    """The folder a scenario's house rules must lie in: the folder above the scenario's folder."""
    folder = config_home(scenario_path)
    return folder.parent


def house_rule_name(path: str, log_folder: Path) -> str:
    """How a log header names a house rule file: a shipped variant by its name, a file inside the
    log's folder by its path relative to it, anything else by its absolute path (which a replay
    refuses: see `house_rule_file`)."""
    from .editions import list_variants
    target = real(path)
    if target is None:
        return path
    variant = list_variants().get(target.stem)
    if variant is not None and real(variant) == target:
        return target.stem
    folder = real(log_folder)
    if folder is not None and target.is_relative_to(folder):
        return target.relative_to(folder).as_posix()
    return str(target)


def edition_name(edition: str, log_folder: Path) -> str:
    """How a log header names the edition: a name as it is, a path by its path relative to the log's
    folder when it lies inside, else by its absolute path (which a replay refuses: see `edition_entry`)."""
    if is_name(edition):
        return edition
    target = real(edition)
    folder = real(log_folder)
    if target is None:
        return edition
    if folder is not None and target.is_relative_to(folder):
        return target.relative_to(folder).as_posix() or "."
    return str(target)


# --- game logs -----------------------------------------------------------------------------------

def config_log(raw: str, base: Path, home: Path, span: Span | None) -> str:
    """The log a config names (`log:`): a path relative to the config's folder (`base`) that stays,
    symbolic links followed, inside `home`; the path to write. Refusals are LOG006."""
    if not isinstance(raw, str) or not raw or "\0" in raw:
        raise error("LOG006", f"the log path {raw!r} is not a valid file name", span,
                    "give a file name without NUL characters")
    candidate = Path(base) / raw
    home = real(home) or Path(os.path.abspath(home))
    target = real(candidate)
    if target is None or not target.is_relative_to(home):
        raise error("LOG006", f"the log `{raw}` leads out of {display_path(str(home))}", span,
                    "a config writes its log inside its own folder; `--log` on the command line takes any path")
    return str(candidate)


def writable_log(path: str, force: bool = False, span: Span | None = None) -> bool:
    """Whether a game log may be written at `path`, checked before the game is played: a new file in
    an existing folder, or an existing civdsl log (overwritten); with `force`, any file that is not a
    folder. True when the file exists. Refusals are LOG006 (LOG003 when the folder is missing)."""
    hint = "write the log to a new file, or pass --force to overwrite this one"
    if not isinstance(path, str) or not path or "\0" in path:
        raise error("LOG006", f"the log path {path!r} is not a valid file name", span,
                    "give a file name without NUL characters")
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        parent = os.path.dirname(os.path.abspath(path))
        if not os.path.isdir(parent):
            raise error("LOG003", f"cannot write log `{path}`: the folder {parent} does not exist", span,
                        "create the folder first, or write the log elsewhere") from None
        return False
    except (OSError, ValueError) as exc:
        raise error("LOG003", f"cannot write log `{path}`: {getattr(exc, 'strerror', None) or exc}", span) from None
    if os.path.isdir(path):
        raise error("LOG006", f"the log path `{path}` is a folder", span, "give a file name for the log")
    if force:
        return True
    if stat.S_ISLNK(st.st_mode):
        raise error("LOG006", f"the log path `{path}` is a symbolic link; civdsl does not write through it",
                    span, hint)
    if not stat.S_ISREG(st.st_mode):
        raise error("LOG006", f"the log path `{path}` exists and is not a regular file", span, hint)
    if not is_civdsl_log(path):
        raise error("LOG006", f"`{path}` exists and is not a civdsl game log; it would be overwritten", span, hint)
    return True


def is_civdsl_log(path: str) -> bool:
    """Whether the file's first line is a civdsl game-log header (the file is not otherwise read)."""
    try:
        with open(path, "rb") as f:
            first = f.readline(MAX_LOG_HEADER_BYTES)
        head = json.loads(first.decode("utf-8"))
    except (OSError, ValueError, RecursionError):
        return False
    return isinstance(head, dict) and head.get("type") == "header" and head.get("format") == LOG_FORMAT
