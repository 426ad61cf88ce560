"""Outside programs as agents (JSON Lines on stdin/stdout): they play a seat when named on the command line
(`--agent-cmd`) or through the Python API — never from a file — and a program that crashes, hangs,
answers garbage or an option that does not exist stops the game with a diagnostic, its step undone."""
from __future__ import annotations

import json
import sys
import time

import pytest

from civdsl.api import load_program
from civdsl.engine.agents import HeuristicAgent, make_agents
from civdsl.engine.external import ExternalAgent, ExternalCommand
from civdsl.engine.interpreter import Game
from civdsl.interfaces.cli import main
from civdsl.language.config import GameConfig, load_config, merge_cli
from civdsl.language.diagnostics import CivError

PLAYER = """
import json, sys
seen = []
for line in sys.stdin:
    msg = json.loads(line)
    seen.append(msg["type"])
    if msg["type"] == "decision":
        assert msg["observation"]["you"] == msg["seat"] and len(msg["labels"]) == len(msg["options"])
        print(json.dumps({"choice": len(msg["options"]) - 1}), flush=True)
    elif msg["type"] == "end":
        break
open(sys.argv[1], "w").write(json.dumps(seen))
"""


@pytest.fixture(scope="module")
def rtta():
    return load_program("roll-through-the-ages")


def program_file(tmp_path, body: str) -> str:
    path = tmp_path / "agent.py"
    path.write_text(body, encoding="utf-8")
    return str(path)


def test_a_program_plays_a_seat_through_the_python_api(tmp_path, rtta):
    seen = tmp_path / "seen.json"
    command = f"{sys.executable} {program_file(tmp_path, PLAYER)} {seen}"
    agents = make_agents(["heuristic", ExternalCommand(2, command)], 2, 4)
    assert isinstance(agents[1], ExternalAgent) and agents[0].name == "heuristic"
    game = Game(rtta, 2, 4, agents, max_rounds=3)
    game.run()
    agents[1].close()
    answers = [e for e in game.events if e["type"] == "decision" and e["player"] == "P2" and e["options"] > 1]
    assert answers and all(e["choice"] == e["options"] - 1 for e in answers)
    kinds = json.loads(seen.read_text())
    assert kinds[0] == "start" and kinds[-1] == "end" and kinds.count("decision") == len(answers)
    assert game.state.players[1].agent == "external"


def test_the_command_line_names_a_program_for_a_seat(tmp_path, capsys):
    seen = tmp_path / "seen.json"
    command = f"{sys.executable} {program_file(tmp_path, PLAYER)} {seen}"
    code = main(["play", "--edition", "roll-through-the-ages", "--players", "2", "--agents", "heuristic",
                 "--agent-cmd", "P2", command, "--max-rounds", "2", "--seed", "3", "-q"])
    assert code == 0
    assert "external" in capsys.readouterr().out
    code = main(["play", "--edition", "roll-through-the-ages", "--players", "2", "--agent-cmd", "3", command])
    assert code == 2 and "CFG021" in capsys.readouterr().err


def test_no_file_can_start_a_program(tmp_path):
    path = tmp_path / "game.yaml"
    path.write_text("edition: roll-through-the-ages\nagents: [\"python evil.py\", external]\n", encoding="utf-8")
    with pytest.raises(CivError) as caught:
        load_config(str(path))
    assert [d.code for d in caught.value.diagnostics] == ["CFG002", "CFG002"]
    with pytest.raises(CivError):
        merge_cli(GameConfig(), agents=["external"])
    with pytest.raises(CivError) as caught:
        make_agents(["external", "random"], 2, 0)  # (what a log's header says of such a seat)
    assert caught.value.diagnostics[0].code == "CFG012"


MISBEHAVING = [
    ("AGT005", "import sys\nsys.stdin.readline(); sys.stdin.readline()\nsys.stderr.write('boom\\n'); sys.exit(3)\n",
     "exited with code 3"),
    ("AGT007", "import sys\nfor line in sys.stdin:\n    print('left', flush=True)\n", "which is not a choice"),
    ("AGT008", "import sys\nfor line in sys.stdin:\n    print(99, flush=True)\n", "which has"),
    ("AGT006", "import sys, time\nsys.stdin.readline(); sys.stdin.readline(); time.sleep(30)\n", "within 0.5 s"),
]


@pytest.mark.parametrize("code, body, words", MISBEHAVING, ids=[m[0] for m in MISBEHAVING])
def test_a_misbehaving_program_stops_the_game_with_a_diagnostic_and_its_step_undone(tmp_path, rtta, code, body,
                                                                                     words):
    agent = ExternalAgent([sys.executable, program_file(tmp_path, body)], timeout=0.5)
    before = {}

    class Watch:
        """Keeps the state at the start of the step the program is asked in (a fork taken while deciding
        is the game as it was when the step began), then asks the program."""
        name = "external"

        def choose(self, decision):
            before["state"] = decision.game.fork(logging=False).state.to_json()
            return agent.choose(decision)

    game = Game(rtta, 2, 1, [HeuristicAgent(1, 1), Watch()], logging=False)
    start = time.perf_counter()
    with pytest.raises(CivError) as caught:
        game.run()
    [d] = caught.value.diagnostics
    assert d.code == code and words in d.message, d.message
    assert time.perf_counter() - start < 10
    assert agent.proc.poll() is not None  # stopped
    assert game.state.to_json() == before["state"]  # the step is undone: no half-played turn
    assert game.journal is None
    if code == "AGT005":
        assert "boom" in d.hint


def test_a_program_that_cannot_start_is_a_diagnostic(rtta):
    agents = make_agents([ExternalCommand(1, "no-such-program-for-civdsl --x"), "random"], 2, 0)
    with pytest.raises(CivError) as caught:
        Game(rtta, 2, 0, agents, logging=False).run()
    assert caught.value.diagnostics[0].code == "AGT004"
