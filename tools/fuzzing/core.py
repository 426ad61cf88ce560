"""One input, judged: what an input and a verdict are, the alarm that bounds an input's time, and
how a run is classified (ok, traceback, hang, escape, tool-error)."""
from __future__ import annotations

import contextlib
import dataclasses
import io
import random
import re
import signal
import time
import traceback
from typing import Callable

from civdsl.language.diagnostics import CivError, render_text

from .sandbox import Box, in_folder

KINDS = ("syntax", "resource", "paths", "yaml", "logs")
WEIGHTS = {"syntax": 26, "resource": 26, "paths": 20, "yaml": 18, "logs": 10}  # shares of a campaign
HANG_SECONDS = 10      # one input may take this long
CODE = re.compile(r"\b(?:error|warning)\[([A-Z]+[0-9]{3})\]")


# === failures ========================================================================================

class Hang(BaseException):
    """Raised by the alarm: a BaseException, so that no `except Exception` in civdsl swallows it."""


class Internal(Exception):
    """civdsl reported an internal error as a diagnostic or a CLI message: a traceback in disguise."""


_armed = False


def _on_alarm(signum, frame):
    if _armed:
        raise Hang(f"more than {HANG_SECONDS} s")


@contextlib.contextmanager
def alarm(seconds: float):
    """Raise `Hang` in this (main) thread after `seconds`, and again every second until disarmed, so a
    hang inside a `finally` (an undo) cannot outlast it."""
    global _armed
    previous = signal.signal(signal.SIGALRM, _on_alarm)
    _armed = True
    signal.setitimer(signal.ITIMER_REAL, seconds, 1.0)
    try:
        yield
    finally:
        _armed = False
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


# === inputs and verdicts =============================================================================

@dataclasses.dataclass
class Case:
    """One input: its generator (`kind`), what shape it is (`label`), the generator's choices
    (`params`) and the files the judge wrote for it (`files`, filled in by the judge, for the report)."""

    index: int
    kind: str
    label: str
    params: dict
    files: dict = dataclasses.field(default_factory=dict)


@dataclasses.dataclass
class Verdict:
    """What one input led to: `status` ok, traceback, hang, escape (or tool-error: a bug of this tool);
    the diagnostic codes seen."""

    index: int
    kind: str
    label: str
    status: str
    codes: list
    seconds: float
    detail: str = ""

    @property
    def failed(self) -> bool:
        return self.status != "ok"


class Seen:
    """Everything an input made civdsl say: the codes of its diagnostics and every text shown (which
    the escape check searches for secrets)."""

    def __init__(self):
        self.codes: list[str] = []
        self.texts: list[str] = []

    def diagnostics(self, diags) -> None:
        for d in diags:
            if not d.code:
                raise Internal(f"a diagnostic without a code: {d.message}")
            if d.message.startswith("internal error"):
                raise Internal(f"[{d.code}] {d.message}")
            self.codes.append(d.code)
        self.texts.append(render_text(list(diags)))

    def output(self, text: str) -> None:
        self.texts.append(text)
        self.codes.extend(CODE.findall(text))
        if "internal error" in text:
            raise Internal(text.strip()[-2000:])


@contextlib.contextmanager
def captured(seen: Seen):
    """Capture what civdsl prints (stdout and stderr) into `seen`."""
    out, err = io.StringIO(), io.StringIO()
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            yield
    finally:
        seen.texts.append(out.getvalue() + err.getvalue())


# === running inputs ==================================================================================

# Filled in by fuzzing.kinds (which the package imports): one generator and one judge per kind.
GENERATORS: dict[str, Callable[[random.Random, int], Case]] = {}
JUDGES: dict[str, Callable[[Case, Box, Seen], None]] = {}


def kind_of(seed: int, index: int, kinds: tuple[str, ...]) -> str:
    """The generator of input `index`: drawn by weight, independently of every other input."""
    return random.Random(f"{seed}:{index}:kind").choices(kinds, [WEIGHTS[k] for k in kinds])[0]


def make_case(seed: int, index: int, kinds: tuple[str, ...] = KINDS, **options) -> Case:
    """Input `index` of a campaign: the same for a seed whatever the job count or number of inputs."""
    kind = kind_of(seed, index, kinds)
    return GENERATORS[kind](random.Random(f"{seed}:{index}"), index, **options)


def judge(case: Case, box: Box, seen: Seen) -> None:
    """Run the input's judge; a `CivError` is a fine ending (its diagnostics rendered in the sandbox,
    where their relative paths resolve)."""
    try:
        JUDGES[case.kind](case, box, seen)
    except CivError as exc:
        seen.diagnostics(exc.diagnostics)


def run_case(case: Case, box: Box, hang_seconds: float = HANG_SECONDS) -> Verdict:
    """Judge one input in the sandbox, bounded in time; classify what happened."""
    seen, status, detail = Seen(), "ok", ""
    start = time.monotonic()
    try:
        with in_folder(box.sandbox), captured(seen), alarm(hang_seconds):
            judge(case, box, seen)
    except Hang:
        status, detail = "hang", traceback.format_exc()
    except Internal:
        status, detail = "traceback", traceback.format_exc()
    except BaseException as exc:  # noqa: B036 - a crash: anything that is not a diagnostic
        if isinstance(exc, KeyboardInterrupt):
            raise
        status, detail = "traceback", traceback.format_exc()
        if not re.search(r'File "[^"]*/civdsl/', detail):
            status = "tool-error"  # a bug of this tool, not of civdsl: fix the generator or judge
    seconds = time.monotonic() - start
    leak = escape(box, seen)
    if leak:
        status, detail = "escape", leak + ("\n\n" + detail if detail else "")
    return Verdict(case.index, case.kind, case.label, status, sorted(set(seen.codes)), round(seconds, 3), detail)


def escape(box: Box, seen: Seen) -> str | None:
    """Why the input escaped the sandbox, or None: a secret shown, or a file outside it changed."""
    shown = "\n".join(seen.texts)
    found = [s for s in box.secrets if s in shown]
    changed = box.changes()
    if changed:
        box.restore()
    if not found and not changed:
        return None
    reasons = [f"secret shown: {s[:60]!r}" for s in found] + [f"outside the sandbox: {c} changed or appeared" for c in changed]
    context = ""
    if found:
        at = shown.find(found[0])
        context = "\n--- output around the secret ---\n" + shown[max(0, at - 600): at + 200]
    return "ESCAPE: " + "; ".join(reasons) + context


def signature(v: Verdict) -> str:
    """A failure's class: its status, the input's generator and the innermost civdsl frame it was in."""
    frames = re.findall(r'File "[^"]*?/(civdsl/[^"]+)", line \d+, in (\w+)', v.detail)
    last = v.detail.strip().splitlines()[-1] if v.detail.strip() else ""
    last = re.sub(r"'[^']*'|`[^`]*`", "'…'", last)[:100]  # paths and names vary; the class does not
    where = f"{frames[-1][0]}:{frames[-1][1]}" if frames else ""
    if v.status == "escape":
        what = "secret shown" if "secret shown" in v.detail.split("\n")[0] else "a file outside the sandbox written"
        return f"escape {v.label}: {what}"
    if v.status == "hang":
        return f"hang {v.kind} at {where or last}"
    return f"{v.status} {v.kind}: {last} ({where})"
