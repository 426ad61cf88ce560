"""Helpers of the web app's tests: an in-process client, starting games through the forms, playing a seat
through its pages, and a real `civdsl serve` process on a free localhost port."""
from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import time
import warnings
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent
SEAT_LINK = re.compile(r'href="/seat/([\w-]+)"')


def artifacts(name: str) -> Path:
    """Where a test keeps its screenshots: $CIVDSL_TEST_ARTIFACTS/NAME, else build/test-artifacts/NAME."""
    base = Path(os.environ.get("CIVDSL_TEST_ARTIFACTS") or ROOT / "build" / "test-artifacts")
    folder = base / name
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def test_client(app):
    """starlette's TestClient (its note about httpx's successor is not this project's concern)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient
    return TestClient(app)


test_client.__test__ = False  # (a helper, not a test)


def seat_form(edition: str, seats: list[str], seed: int = 1, **extra) -> dict:
    form = {"edition": edition, "players": str(len(seats)), "seed": str(seed)}
    form.update({f"seat{i}": kind for i, kind in enumerate(seats)})
    form.update({k: str(v) for k, v in extra.items()})
    return form


def start(client, edition: str, seats: list[str], seed: int = 1, **extra) -> tuple[str, list[str]]:
    """Start a game through the form; the host page's path and the human seats' tokens, in seat order."""
    r = client.post("/games", data=seat_form(edition, seats, seed, **extra), follow_redirects=False)
    assert r.status_code == 303, r.text
    host = r.headers["location"]
    page = client.get(host)
    assert page.status_code == 200
    return host, SEAT_LINK.findall(page.text)


def wait_state(client, token: str, timeout: float = 60.0) -> dict:
    """The seat's API state once the game waits for a person or is over."""
    deadline = time.monotonic() + timeout
    while True:
        state = client.get(f"/api/seat/{token}").json()
        if state["status"] in ("waiting", "finished", "failed"):
            return state
        assert time.monotonic() < deadline, f"the game did not stop moving: {state['status']}"
        time.sleep(0.02)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """`civdsl serve` in its own process on a free port, with its data folder."""

    def __init__(self, data: Path, port: int | None = None):
        self.data = data
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.proc: subprocess.Popen | None = None

    def start(self, timeout: float = 60.0) -> "Server":
        env = dict(os.environ, PYTHONUNBUFFERED="1")
        self.data.mkdir(parents=True, exist_ok=True)
        with open(self.data / "server.out", "a", encoding="utf-8") as out:
            self.proc = subprocess.Popen([sys.executable, "-m", "civdsl.interfaces.serve_cli", "--port",
                                          str(self.port), "--data", str(self.data)], cwd=str(ROOT), env=env,
                                         stdout=out, stderr=subprocess.STDOUT, text=True)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise AssertionError(f"the server exited: {self.output()}")
            try:
                if httpx.get(self.url + "/", timeout=2).status_code == 200:
                    return self
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        self.kill()
        raise AssertionError("the server did not answer in time")

    def stop(self) -> None:
        """Stop as Ctrl-C does."""
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.kill()

    def kill(self) -> None:
        """Stop as a crash does: no shutdown at all."""
        if self.proc and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(15)

    def output(self) -> str:
        """What the server printed (all its runs in this data folder)."""
        path = self.data / "server.out"
        return path.read_text(encoding="utf-8") if path.exists() else ""
