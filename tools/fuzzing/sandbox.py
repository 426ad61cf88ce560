"""The sandbox an input runs in: a working folder with hostile fixtures, canary files and secrets
outside it, and snapshots that show what an input changed outside it."""
from __future__ import annotations

import contextlib
import hashlib
import io
import json
import os
import shutil
from pathlib import Path
from typing import TYPE_CHECKING

from . import ROOT

if TYPE_CHECKING:
    from .core import Case


class Box:
    """One worker's folders. `sandbox/` is the working folder where inputs are written; `outside/`
    holds canary files with a secret token; `cache/` is the parse cache. Showing a secret, or changing
    anything outside `sandbox/` and `cache/`, is an escape."""

    def __init__(self, root: Path, token: str):
        self.root, self.token = Path(root), token
        self.sandbox, self.outside, self.cache = self.root / "sandbox", self.root / "outside", self.root / "cache"
        for d in (self.sandbox, self.cache):
            d.mkdir(parents=True, exist_ok=True)
        self.clear_root()
        self.plant_canaries()
        self.folders = {name: self.sandbox / rel for name, rel in NAMING_FOLDERS.items()}
        for folder in self.folders.values():
            plant_fixtures(folder, self.outside)
        (self.sandbox / "private.civ").write_text(f"password = {token}\n")  # outside every allowed home
        shutil.copytree(ROOT / "rulesets", self.sandbox / "rulesets", dirs_exist_ok=True)
        shutil.copytree(ROOT / "examples", self.sandbox / "examples", dirs_exist_ok=True)
        self.secrets = secrets(token)
        self.base_log = self.write_base_log()
        self.before = self.snapshot()

    def plant_canaries(self) -> None:
        """Files outside the sandbox that give their token away in a diagnostic if civdsl reads them."""
        shutil.rmtree(self.outside, ignore_errors=True)
        (self.outside / "edition").mkdir(parents=True)
        for name, text in canaries(self.token).items():
            (self.outside / name).write_text(text, encoding="utf-8")

    def write_base_log(self) -> list[str]:
        """A real log, written by `civdsl play --log`, for the log generators to tamper with (kept
        when a fresh worker takes over the box)."""
        from civdsl.interfaces.cli import main
        path = self.folders["logs"] / "base.jsonl"
        if path.is_file() and path.stat().st_size:
            return path.read_text(encoding="utf-8").splitlines()
        with contextlib.redirect_stdout(io.StringIO()), in_folder(self.sandbox):
            code = main(["play", "--edition", "warp-spawn-solitaire", "--players", "2", "--seed", "1",
                         "--max-rounds", "3", "--log", str(path), "-q"])
        assert code == 0, "could not write the base log"
        return path.read_text(encoding="utf-8").splitlines()

    def snapshot(self) -> dict:
        """Every entry below the box but the sandbox and cache: kind, size, mtime and content hash."""
        found = {}
        for here, dirs, names in os.walk(self.root):
            if Path(here) == self.root:
                dirs[:] = [d for d in dirs if d not in ("sandbox", "cache")]
            for name in dirs + names:
                p = Path(here) / name
                st = p.lstat()
                digest = hashlib.sha256(p.read_bytes()).hexdigest() if p.is_file() and not p.is_symlink() else ""
                found[str(p.relative_to(self.root))] = (st.st_mode, st.st_size, st.st_mtime_ns, digest)
        return found

    def changes(self) -> list[str]:
        """Entries outside the sandbox that appeared, vanished or changed since the last snapshot."""
        now = self.snapshot()
        return sorted(k for k in set(now) | set(self.before) if now.get(k) != self.before.get(k))

    def restore(self) -> None:
        """Put the canaries back after an escape, so the next input starts clean."""
        self.clear_root()
        self.plant_canaries()
        self.before = self.snapshot()

    def clear_root(self) -> None:
        """Remove what an escape left beside the sandbox, cache and canaries."""
        for entry in self.root.iterdir():
            if entry.name not in ("sandbox", "cache", "outside"):
                shutil.rmtree(entry) if entry.is_dir() and not entry.is_symlink() else entry.unlink()

    def write(self, case: Case, path: Path, data: str | bytes) -> Path:
        """Write an input file in the sandbox and keep it in the case (for a saved failure)."""
        path.parent.mkdir(parents=True, exist_ok=True)
        raw = data.encode("utf-8", errors="surrogateescape") if isinstance(data, str) else data
        path.write_bytes(raw)
        case.files[str(path.relative_to(self.sandbox))] = raw
        return path


NAMING_FOLDERS = {  # folders where an input names a path, each with the same fixtures
    "cwd": ".", "rules": "rulesets/e", "house": "conf/house", "conf": "conf", "scenarios": "proj/scenarios",
    "proj": "proj", "logs": "logs",
}


def canaries(token: str) -> dict[str, str]:
    """Canary files: read as what they pretend to be, each shows `token` in a diagnostic."""
    header = {"type": "header", "format": "civdsl-log/1", "edition": token, "ruleset_hash": token,
              "players": 1, "seed": 0, "agents": ["random"]}
    return {
        "secret.civ": f"password = {token}\n",           # a syntax error at line 1: quoted
        "secret.json": json.dumps({"areas": {token: 1}}),  # MAP004 names the area
        "secret.yaml": f"{token}: 1\n",                    # CFG002 names the key
        "secret-log.jsonl": json.dumps(header) + "\n",     # a civdsl log (CFG013 names the edition)
        "notes.txt": f"{token}\n",
        "edition/game.civ": f"password = {token}\n",       # an edition folder
    }


def secrets(token: str) -> list[str]:
    """Texts that must never appear in civdsl's output: the token, /etc/passwd's first line, the
    environment's PATH entry (what /proc/self/environ would show)."""
    found = [token]
    with contextlib.suppress(OSError, IndexError):
        found.append(Path("/etc/passwd").read_text().splitlines()[0])
    if os.environ.get("PATH"):
        found.append("PATH=" + os.environ["PATH"])
    return found


def plant_fixtures(folder: Path, outside: Path) -> None:
    """Symbolic links out, a link loop, FIFOs and folders with file names, where inputs name paths."""
    folder.mkdir(parents=True, exist_ok=True)
    links = {"link.civ": outside / "secret.civ", "link.json": outside / "secret.json",
             "link.yaml": outside / "secret.yaml", "link.jsonl": outside / "secret-log.jsonl",
             "linkdir": outside, "linkedition": outside / "edition", "loop.civ": folder / "loop.civ",
             "dangling.civ": outside / "missing.civ"}
    for name, target in links.items():
        if not os.path.lexists(folder / name):
            os.symlink(target, folder / name)
    for name in ("pipe.civ", "pipe.json", "pipe.jsonl", "pipe.yaml"):
        if not os.path.lexists(folder / name):
            os.mkfifo(folder / name)
    for name in ("sub", "sub.civ", "sub.json", "sub.jsonl"):
        (folder / name).mkdir(exist_ok=True)


@contextlib.contextmanager
def in_folder(folder: Path):
    here = os.getcwd()
    os.chdir(folder)
    try:
        yield
    finally:
        os.chdir(here)


def token_for(seed: int) -> str:
    return "CANARY-" + hashlib.sha256(f"civdsl-fuzz:{seed}".encode()).hexdigest()[:24]
