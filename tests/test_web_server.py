"""A real `civdsl serve` process on a free localhost port: a game in progress survives the server being
stopped (Ctrl-C) and being killed outright, and carries on from the same decision with the same view."""
from __future__ import annotations

import re

import httpx
from web_fixtures import SEAT_LINK, Server, seat_form

from civdsl.tools.gamelog import replay

RTTA = "roll-through-the-ages"


def state(client: httpx.Client, token: str) -> dict:
    for _ in range(300):
        s = client.get(f"/api/seat/{token}").json()
        if s["status"] in ("waiting", "finished", "failed"):
            return s
    raise AssertionError(f"the game does not stop moving: {s['status']}")


def play(client: httpx.Client, token: str, answers: int) -> dict:
    """Answer `answers` decisions (the last option each time); the state after them."""
    for _ in range(answers):
        s = state(client, token)
        if s["status"] != "waiting":
            return s
        d = s["decision"]
        r = client.post(f"/seat/{token}/answer", data={"n": d["n"], "choice": len(d["labels"]) - 1},
                        follow_redirects=False)
        assert r.status_code == 303, r.text
    return state(client, token)


def comparable(s: dict) -> dict:
    """What must be the same after a restart (the version counter starts again)."""
    return {k: v for k, v in s.items() if k != "version"}


def test_games_in_progress_survive_stop_and_kill(tmp_path):
    data = tmp_path / "data"
    server = Server(data).start()
    try:
        with httpx.Client(base_url=server.url, timeout=30, follow_redirects=True) as c:
            r = c.post("/games", data=seat_form(RTTA, ["human", "heuristic", "random"], seed=11))
            assert r.status_code == 200 and "/host/" in str(r.url)
            host = str(r.url.path)
            (token,) = SEAT_LINK.findall(r.text)
            before = play(c, token, 6)
            assert before["status"] == "waiting"
            page_before = c.get(f"/seat/{token}").text

        server.stop()  # Ctrl-C: a graceful stop
        assert server.proc.returncode is not None
        server.start()
        with httpx.Client(base_url=server.url, timeout=30, follow_redirects=True) as c:
            after = state(c, token)
            assert comparable(after) == comparable(before)
            page_after = c.get(f"/seat/{token}").text
            strip = re.compile(r'data-version="-?\d+"')
            assert strip.sub("", page_after) == strip.sub("", page_before)
            assert c.get(host).status_code == 200
            before = play(c, token, 5)
            assert before["decision"]["n"] > after["decision"]["n"]

        server.kill()  # a crash: no shutdown at all; every answer was committed before it was applied
        server.start()
        with httpx.Client(base_url=server.url, timeout=30, follow_redirects=True) as c:
            after = state(c, token)
            assert comparable(after) == comparable(before)
            end = play(c, token, 500)
            assert end["status"] == "finished", end["error"]
            log = c.get(f"/replay/game/{end['game']}/log.jsonl").text
        saved = tmp_path / "played.jsonl"
        saved.write_text(log, encoding="utf-8")
        ok, message = replay(str(saved))
        assert ok, message
    finally:
        server.kill()
    assert "Traceback" not in server.output()
