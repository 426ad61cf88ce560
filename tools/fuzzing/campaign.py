"""The campaign: inputs judged on worker processes, each in a sandbox of its own, with a watchdog for
what the alarm cannot stop; failing inputs saved for `--only`."""
from __future__ import annotations

import contextlib
import multiprocessing
import multiprocessing.connection
import os
import re
import tempfile
import time
from pathlib import Path

from civdsl.engine.budget import limit_memory

from .core import Case, Verdict, make_case, run_case, signature
from .sandbox import Box, token_for

KILL_SECONDS = 30      # a worker stuck where the alarm cannot reach (inside C code) is killed after this
MEMORY_MB = 3072       # each campaign process is capped (RUN015 instead of a machine out of memory)


def save_failure(out: Path, case: Case, verdict: Verdict, seed: int) -> None:
    """The input's files, its parameters and the traceback, in `out/<status>-<index>/`."""
    folder = out / f"{verdict.status}-{case.index:05d}-{case.kind}"
    folder.mkdir(parents=True, exist_ok=True)
    for name, raw in case.files.items():
        target = folder / "files" / name.replace("\0", "NUL")
        with contextlib.suppress(OSError):
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(raw)
    params = {k: (v if not isinstance(v, (str, bytes)) or len(v) < 2000 else f"<{len(v)} characters>")
              for k, v in case.params.items()}
    (folder / "README.txt").write_text(
        f"{verdict.status}: input {case.index} ({case.label}), {verdict.seconds} s\n"
        f"reproduce: python tools/fuzz.py --seed {seed} --only {case.index}\n"
        f"class: {signature(verdict)}\nparams: {params!r}\n\n{verdict.detail}\n", encoding="utf-8", errors="replace")


def worker(conn, seed: int, kinds: tuple, indices: list[int], root: str, out: str) -> None:
    """Judge `indices` in a sandbox of its own, reporting each start and verdict to the parent. After an
    input that may have left the process worn (out of memory, interrupted anywhere by the alarm, a
    large heap), it asks for a fresh process, so that no input is judged in another's aftermath."""
    limit_memory(MEMORY_MB)
    os.environ["CIVDSL_CACHE_DIR"] = str(Path(root) / "cache")
    box = Box(Path(root), token_for(seed))
    for i in indices:
        conn.send(("start", i))
        case = make_case(seed, i, kinds)
        verdict = run_case(case, box)
        if verdict.failed:
            save_failure(Path(out), case, verdict, seed)
        conn.send(("done", verdict))
        if worn(verdict):
            conn.send(("recycle", None))
            return
    conn.send(("end", None))


def worn(v: Verdict) -> bool:
    """Whether the process should be replaced after this verdict."""
    return v.failed or "RUN015" in v.codes or memory_mb() > MEMORY_MB // 3


def memory_mb() -> int:
    """This process's address space (what the memory cap counts), in MB; 0 where unknown."""
    with contextlib.suppress(OSError, AttributeError):
        found = re.search(r"VmSize:\s+(\d+) kB", Path("/proc/self/status").read_text())
        return int(found.group(1)) // 1024 if found else 0
    return 0


class Slot:
    """One worker process and the inputs it has still to judge."""

    def __init__(self, ctx, seed, kinds, todo, tmp, out):
        self.ctx, self.seed, self.kinds, self.out = ctx, seed, kinds, out
        self.todo, self.current, self.started, self.proc, self.conn = list(todo), None, 0.0, None, None
        self.root = tempfile.mkdtemp(prefix="box-", dir=tmp)  # kept by the processes that take over
        self.spawn()

    def spawn(self) -> None:
        parent, child = self.ctx.Pipe()
        self.proc = self.ctx.Process(target=worker, args=(child, self.seed, self.kinds, self.todo, self.root, self.out),
                                     daemon=True)
        self.proc.start()
        child.close()
        self.conn, self.current = parent, None

    def receive(self, verdicts: dict) -> bool:
        """Handle one message; False when the worker is done."""
        try:
            what, value = self.conn.recv()
        except EOFError:  # died (killed by the system?): what it was judging counts as a crash
            return self.died(verdicts, "the worker process died")
        if what == "start":
            self.current, self.started = value, time.monotonic()
        elif what == "done":
            verdicts[value.index] = value
            self.todo.remove(value.index)
            self.current = None
        elif what == "recycle":
            self.proc.join()
            if not self.todo:
                return False
            self.spawn()
        return what != "end"

    def died(self, verdicts: dict, why: str, status: str = "traceback") -> bool:
        if self.current is None:
            return False
        case = make_case(self.seed, self.current, self.kinds)
        v = Verdict(self.current, case.kind, case.label, status, [], round(time.monotonic() - self.started, 1),
                    f"{why} (exit code {self.proc.exitcode}) while judging this input")
        save_failure(Path(self.out), case, v, self.seed)
        verdicts[v.index] = v
        self.todo.remove(v.index)
        if not self.todo:
            return False
        self.spawn()
        return True

    def overdue(self) -> bool:
        return self.current is not None and time.monotonic() - self.started > KILL_SECONDS

    def kill(self, verdicts: dict) -> bool:
        """The alarm could not stop the input (stuck inside C code): kill the worker, count a hang."""
        self.proc.kill()
        self.proc.join()
        return self.died(verdicts, f"killed after {KILL_SECONDS} s: stuck where the alarm cannot reach", "hang")


def campaign(seed: int, n: int, kinds: tuple, jobs: int, out: Path, progress: bool = True) -> list[Verdict]:
    """Judge inputs 0..n-1 on `jobs` workers (input i on worker i % jobs); a verdict per input."""
    ctx = multiprocessing.get_context("fork")
    verdicts: dict[int, Verdict] = {}
    start, shown = time.monotonic(), 0
    with tempfile.TemporaryDirectory(prefix="civdsl-fuzz-") as tmp:
        slots = [Slot(ctx, seed, kinds, range(j, n, jobs), tmp, str(out)) for j in range(jobs) if j < n]
        live = {s.conn: s for s in slots}
        while live:
            for conn in multiprocessing.connection.wait(list(live), timeout=1.0):
                slot = live.pop(conn)
                if slot.receive(verdicts):
                    live[slot.conn] = slot
            for conn, slot in list(live.items()):
                if slot.overdue():
                    del live[conn]
                    if slot.kill(verdicts):
                        live[slot.conn] = slot
            if progress and len(verdicts) // 500 > shown:
                shown = len(verdicts) // 500
                failed = sum(v.failed for v in verdicts.values())
                print(f"{len(verdicts)} inputs, {failed} failures, {time.monotonic() - start:.0f} s", flush=True)
        for slot in slots:
            slot.proc.join(timeout=5)
    return [verdicts[i] for i in sorted(verdicts)]


def import_everything() -> None:
    """Import every civdsl module now: the workers, forked from this process, then all judge the code
    as it was when the campaign started, even if files change while it runs."""
    import importlib
    import pkgutil

    import civdsl
    for mod in pkgutil.walk_packages(civdsl.__path__, "civdsl."):
        if mod.name.endswith("__main__"):
            continue
        with contextlib.suppress(Exception):
            importlib.import_module(mod.name)
