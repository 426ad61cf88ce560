"""A small Language Server Protocol client over stdio: it starts `civdsl lsp` (or any server command)
as a child process and talks JSON-RPC to it as an editor would. The tests drive the server end to end
with it, `benchmarks/lsp_bench.py` times diagnostics with it, and the editor page's screenshot shows
what it received.

    with Probe() as lsp:
        lsp.initialize("/path/to/workspace")
        lsp.open("rulesets/tiny/game.civ")
        diags = lsp.diagnostics("rulesets/tiny/game.civ")
"""
from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any, Callable


class LspError(Exception):
    """An error response: `code` and `message` as the server sent them."""

    def __init__(self, error: dict):
        super().__init__(f"{error.get('code')}: {error.get('message')}")
        self.code = error.get("code")
        self.message = error.get("message")


def server_command() -> list[str]:
    return [sys.executable, "-m", "civdsl.interfaces.lsp"]


class Probe:
    """One server process and its messages. Every method waits at most `timeout` seconds."""

    def __init__(self, command: list[str] | None = None, cwd: str | None = None, env: dict | None = None,
                 timeout: float = 60.0):
        self.timeout = timeout
        self.proc = subprocess.Popen(command or server_command(), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, cwd=cwd, env=env or dict(os.environ))
        self.next_id = 0
        self.responses: dict[int, "queue.Queue[dict]"] = {}
        self.notes: list[tuple[float, dict]] = []   # (arrival time, notification)
        self.lock = threading.Condition()
        self.stderr: list[bytes] = []
        self.versions: dict[str, int] = {}
        threading.Thread(target=self._read, daemon=True).start()
        threading.Thread(target=self._drain_stderr, daemon=True).start()

    # ---- the wire ------------------------------------------------------------------------------------
    def _send(self, message: dict) -> None:
        body = json.dumps(message).encode("utf-8")
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.proc.stdin.flush()

    def send_raw(self, data: bytes) -> None:
        """Bytes as they are (for tests of what a broken client might send)."""
        self.proc.stdin.write(data)
        self.proc.stdin.flush()

    def _read(self) -> None:
        out = self.proc.stdout
        while True:
            length = None
            while True:
                line = out.readline()
                if not line:
                    return
                line = line.strip()
                if not line:
                    break
                if line.lower().startswith(b"content-length:"):
                    length = int(line.split(b":")[1])
            if length is None:
                continue
            message = json.loads(out.read(length))
            if "id" in message and ("result" in message or "error" in message):
                with self.lock:
                    self.responses.setdefault(message["id"], queue.Queue()).put(message)
            elif "id" in message:  # a request of the server (configuration, capabilities): answer null
                self._send({"jsonrpc": "2.0", "id": message["id"], "result": None})
            else:
                with self.lock:
                    self.notes.append((time.perf_counter(), message))
                    self.lock.notify_all()

    def _drain_stderr(self) -> None:
        for line in self.proc.stderr:
            self.stderr.append(line)

    def request(self, method: str, params: Any = None, timeout: float | None = None) -> Any:
        with self.lock:
            self.next_id += 1
            rid = self.next_id
            box = self.responses.setdefault(rid, queue.Queue())
        self._send({"jsonrpc": "2.0", "id": rid, "method": method, "params": params})
        message = box.get(timeout=timeout or self.timeout)
        if "error" in message and message["error"] is not None:
            raise LspError(message["error"])
        return message.get("result")

    def notify(self, method: str, params: Any = None) -> None:
        self._send({"jsonrpc": "2.0", "method": method, "params": params})

    def wait(self, check: Callable[[dict], bool], since: int = 0, timeout: float | None = None) -> tuple[float, dict]:
        """The first notification from index `since` on that passes `check`, and when it arrived."""
        deadline = time.perf_counter() + (timeout or self.timeout)
        with self.lock:
            while True:
                for at, note in self.notes[since:]:
                    if check(note):
                        return at, note
                left = deadline - time.perf_counter()
                if left <= 0:
                    raise TimeoutError("no such notification from the server")
                self.lock.wait(left)

    def mark(self) -> int:
        with self.lock:
            return len(self.notes)

    # ---- an editor's moves ---------------------------------------------------------------------------
    @staticmethod
    def uri(path: str | Path) -> str:
        return Path(path).absolute().as_uri()

    def initialize(self, root: str | Path | None = None, options: dict | None = None) -> dict:
        folders = [{"uri": self.uri(root), "name": Path(root).name}] if root else None
        result = self.request("initialize", {
            "processId": os.getpid(), "rootUri": self.uri(root) if root else None,
            "workspaceFolders": folders, "initializationOptions": options or {},
            "capabilities": {"textDocument": {"hover": {"contentFormat": ["markdown", "plaintext"]},
                                              "publishDiagnostics": {"relatedInformation": True}}}})
        self.notify("initialized", {})
        return result

    def open(self, path: str | Path, text: str | None = None, language: str = "civdsl") -> int:
        """Open a document (its text from the file unless given); the index of the next notification."""
        since = self.mark()
        if text is None:
            text = Path(path).read_text(encoding="utf-8")
        uri = self.uri(path)
        self.versions[uri] = 1
        self.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": language, "version": 1,
                                                              "text": text}})
        return since

    def change(self, path: str | Path, text: str | None = None, edit: tuple | None = None) -> int:
        """A whole new text, or one edit `((line, char), (line, char), new text)`."""
        since = self.mark()
        uri = self.uri(path)
        self.versions[uri] = self.versions.get(uri, 1) + 1
        if edit is not None:
            (l1, c1), (l2, c2), new = edit
            change = {"range": {"start": {"line": l1, "character": c1}, "end": {"line": l2, "character": c2}},
                      "text": new}
        else:
            change = {"text": text}
        self.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": self.versions[uri]},
                                               "contentChanges": [change]})
        return since

    def save(self, path: str | Path) -> int:
        since = self.mark()
        self.notify("textDocument/didSave", {"textDocument": {"uri": self.uri(path)}})
        return since

    def close_document(self, path: str | Path) -> None:
        self.notify("textDocument/didClose", {"textDocument": {"uri": self.uri(path)}})

    def diagnostics(self, path: str | Path, since: int = 0, timeout: float | None = None,
                    version: int | None = None) -> list[dict]:
        """The first diagnostics published for the file after notification `since` (of `version`)."""
        uri = self.uri(path)
        _, note = self.wait(lambda n: n.get("method") == "textDocument/publishDiagnostics"
                            and n["params"]["uri"] == uri
                            and (version is None or n["params"].get("version") == version), since, timeout)
        return note["params"]["diagnostics"]

    def at(self, method: str, path: str | Path, line: int, character: int, **extra) -> Any:
        """A request about a position (0-based line and character, as the protocol counts)."""
        return self.request(method, {"textDocument": {"uri": self.uri(path)},
                                     "position": {"line": line, "character": character}, **extra})

    def hover(self, path, line, character):
        return self.at("textDocument/hover", path, line, character)

    def definition(self, path, line, character):
        return self.at("textDocument/definition", path, line, character)

    def references(self, path, line, character):
        return self.at("textDocument/references", path, line, character, context={"includeDeclaration": True})

    def completion(self, path, line, character):
        return self.at("textDocument/completion", path, line, character)

    def symbols(self, path):
        return self.request("textDocument/documentSymbol", {"textDocument": {"uri": self.uri(path)}})

    def formatting(self, path):
        return self.request("textDocument/formatting", {"textDocument": {"uri": self.uri(path)},
                                                         "options": {"tabSize": 2, "insertSpaces": True}})

    def shutdown(self) -> int | None:
        """Shut the server down as an editor does; its exit code."""
        try:
            self.request("shutdown", None, timeout=10)
            self.notify("exit", None)
            return self.proc.wait(timeout=10)
        except (OSError, TimeoutError, queue.Empty, subprocess.TimeoutExpired, LspError):
            self.proc.kill()
            return self.proc.wait(timeout=10)

    def __enter__(self) -> "Probe":
        return self

    def __exit__(self, *exc) -> None:
        if self.proc.poll() is None:
            self.shutdown()
