"""An agent that is an outside program, speaking JSON Lines on its standard input and output, so that a
player can be written in any language.

civdsl writes one JSON object per line to the program's standard input and reads one line back for each
decision (protocol 1, see docs/agents.md):

- `{"type": "start", "protocol": 1, "player": "P2", "seat": 2, "players": 3, "edition": "..."}`, once,
  before the first decision;
- `{"type": "decision", "player", "seat", "round", "phase", "tag", "question", "options", "labels",
  "observation"}` — the options as JSON values, their words, and the game as this seat may see it (the
  observation every agent gets: hidden zones as their size, hidden values as `{"hidden": true}`) —
  answered by one line: `{"choice": i}` (i counts from 0) or just `i`;
- `{"type": "end"}` when the agent is closed; then its input ends.

Only the command line (`--agent-cmd SEAT "command"`) or the Python API (`ExternalCommand`,
`ExternalAgent`) starts a program; no config, scenario, log or upload can, since they hold only agent
names. The command is split like a shell would split it but run without a shell.

A program that misbehaves stops the game with a diagnostic, and the step it was asked in is undone as a
step that fails is (see `engine.changes`): AGT004 it cannot be started, AGT005 it exited or closed its
output, AGT006 it did not answer in time (it is stopped), AGT007 its answer is not a choice, AGT008 the
choice is not one of the options. The program is stopped in every case.
"""
from __future__ import annotations

import json
import queue
import shlex
import subprocess
import threading
import weakref
from collections import deque
from dataclasses import dataclass

from ..language.diagnostics import error
from .state import to_jsonable

PROTOCOL = 1
DEFAULT_TIMEOUT = 10.0   # seconds a program may take to answer one decision
MAX_LINE = 1_000_000     # characters of one answer
STDERR_LINES = 20        # lines of the program's standard error kept for a diagnostic
_EOF = object()


@dataclass(frozen=True)
class ExternalCommand:
    """A seat (1-based) given to an outside program: what `--agent-cmd SEAT "command"` makes. Put one
    among the names given to `make_agents` (or a config's `agents`, in a program): it takes its seat."""

    seat: int
    command: str | tuple
    timeout: float = DEFAULT_TIMEOUT


class ExternalAgent:
    """Plays a seat by asking an outside program (see the module). `command`: a text split like a shell
    would (no shell runs it) or a list of arguments; `timeout`: seconds per decision. The program starts
    at the first decision and is stopped by `close()`, or when the agent is collected or Python exits."""

    name = "external"

    def __init__(self, command: str | list | tuple, timeout: float = DEFAULT_TIMEOUT):
        self.args = shlex.split(command) if isinstance(command, str) else [str(a) for a in command]
        self.command = command if isinstance(command, str) else shlex.join(self.args)
        self.timeout = float(timeout)
        self.proc = None
        self.lines: queue.Queue = queue.Queue()
        self.stderr: deque = deque(maxlen=STDERR_LINES)
        self._finalizer = None

    def fork(self):
        return self  # one program: a forked game asks it too

    def choose(self, decision) -> int:
        game, p = decision.game, decision.player
        if self.proc is None:
            self._start()
            self._send({"type": "start", "protocol": PROTOCOL, "player": p.name, "seat": p.seat,
                        "players": len(game.state.players), "edition": game.rs.edition()}, p.name)
        n = len(decision.options)
        self._send({"type": "decision", "player": p.name, "seat": p.seat, "round": game.state.round,
                    "phase": game.state.phase, "tag": decision.tag, "question": decision.question,
                    "options": [to_jsonable(o) for o in decision.options], "labels": decision.labels,
                    "observation": decision.observation()}, p.name)
        line = self._answer(p.name, decision.tag)
        choice = _choice(line)
        if choice is None:
            self.close()
            shown = line.strip()
            shown = shown if len(shown) <= 80 else shown[:77] + "..."
            raise error("AGT007", f"the program playing {p.name} (`{self.command}`) answered {shown!r} to "
                        f"\"{decision.tag}\", which is not a choice", None,
                        'answer each decision with one line: {"choice": i} or just i, counting options from 0')
        if not 0 <= choice < n:
            self.close()
            raise error("AGT008", f"the program playing {p.name} (`{self.command}`) chose {choice} for "
                        f"\"{decision.tag}\", which has {n} options (0 to {n - 1})", None,
                        "choose an index into the decision's `options`, counting from 0")
        return choice

    # -- the process ----------------------------------------------------------------------------------------
    def _start(self) -> None:
        try:
            self.proc = subprocess.Popen(self.args, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         stderr=subprocess.PIPE, text=True, encoding="utf-8", errors="replace",
                                         bufsize=1)
        except (OSError, ValueError) as exc:
            raise error("AGT004", f"the agent program `{self.command}` cannot be started: {exc}", None,
                        "check the command: it is run without a shell, from the working folder") from None
        self._finalizer = weakref.finalize(self, _stop, self.proc)
        threading.Thread(target=_pump, args=(self.proc.stdout, self.lines, MAX_LINE), daemon=True).start()
        threading.Thread(target=_pump, args=(self.proc.stderr, self.stderr, MAX_LINE), daemon=True).start()

    def _send(self, message: dict, who: str) -> None:
        try:
            self.proc.stdin.write(json.dumps(message, ensure_ascii=False) + "\n")
            self.proc.stdin.flush()
        except (OSError, ValueError):
            self._died(who)

    def _answer(self, who: str, tag: str) -> str:
        try:
            line = self.lines.get(timeout=self.timeout)
        except queue.Empty:
            self.close()
            raise error("AGT006", f"the program playing {who} (`{self.command}`) did not answer \"{tag}\" within "
                        f"{self.timeout:g} s; it was stopped", None,
                        "answer every decision with one line, and flush standard output after writing it") from None
        if line is _EOF:
            self._died(who)
        return line

    def _died(self, who: str):
        code = self.proc.poll() if self.proc is not None else None
        if code is None and self.proc is not None:
            try:
                code = self.proc.wait(timeout=1)
            except subprocess.TimeoutExpired:
                code = None
        self.close()
        said = " | ".join(line.rstrip() for line in list(self.stderr)[-5:] if line.strip())
        raise error("AGT005", f"the program playing {who} (`{self.command}`) "
                    + (f"exited with code {code}" if code is not None else "closed its output") + " before answering",
                    None, f"its last words on standard error: {said}" if said else
                    "run the program by hand and give it a decision line to see what goes wrong")

    def close(self) -> None:
        """Tell the program the game is over, close its input and stop it (at once if it lingers)."""
        if self.proc is None:
            return
        if self.proc.poll() is None:
            try:
                self.proc.stdin.write(json.dumps({"type": "end"}) + "\n")
                self.proc.stdin.flush()
            except (OSError, ValueError):
                pass
        if self._finalizer is not None:
            self._finalizer()

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def _pump(stream, sink, limit: int) -> None:
    """Read lines of a program's output into `sink` (a queue, or a deque of the last lines) until it ends."""
    put = sink.put if isinstance(sink, queue.Queue) else sink.append
    try:
        while True:
            line = stream.readline(limit + 1)
            if not line:
                break
            put(line)
    except (OSError, ValueError):
        pass
    if isinstance(sink, queue.Queue):
        sink.put(_EOF)


def _stop(proc) -> None:
    """Close a program's input and wait a moment for it to leave; kill it if it does not."""
    try:
        proc.stdin.close()
    except (OSError, ValueError):
        pass
    try:
        proc.wait(timeout=1)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def _choice(line: str) -> int | None:
    """The index an answer line gives (`{"choice": 2}` or `2`), or None."""
    if len(line) > MAX_LINE:
        return None
    try:
        value = json.loads(line)
    except ValueError:
        return None
    if isinstance(value, dict):
        value = value.get("choice")
    if isinstance(value, bool) or not isinstance(value, int):
        return None
    return value
