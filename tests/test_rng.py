"""The game's random stream: exactly Python's `random.Random(seed)`, with bookmarks that cost nothing
to take, so that a step that fails is undone with its dice; and parameters kept per number of players
only when evaluating them drew no dice."""
from __future__ import annotations

import random

from one_file import one_file_edition

from civdsl.api import compile_entry
from civdsl.engine.agents import make_agents
from civdsl.engine.interpreter import Game
from civdsl.engine.rng import GameRandom
from civdsl.language.diagnostics import CivError


def test_the_stream_is_pythons_own():
    ours, theirs = GameRandom(11), random.Random(11)
    for i in range(500):
        n = i % 37 + 1
        assert ours.below(n) == theirs.randrange(n)
        assert ours.randrange(n) == theirs.randrange(n)
        assert ours.random() == theirs.random()
        a, b = list(range(i % 9)), list(range(i % 9))
        ours.shuffle(a)
        theirs.shuffle(b)
        assert a == b
        assert ours.getrandbits(70) == theirs.getrandbits(70)


def test_a_bookmark_rewinds_exactly_also_across_a_new_base():
    rng = GameRandom(3)
    for _ in range(50):
        rng.randrange(6)
    mark = rng.bookmark()
    drawn = [rng.randrange(1000) for _ in range(200)] + [rng.random() for _ in range(5)]
    rng.rebase()
    drawn += [rng.randrange(1000) for _ in range(10)]
    rng.rewind(mark)
    again = [rng.randrange(1000) for _ in range(200)] + [rng.random() for _ in range(5)]
    again += [rng.randrange(1000) for _ in range(10)]
    assert again == drawn
    twin = rng.copy()
    assert [twin.random() for _ in range(5)] == [rng.random() for _ in range(5)]


def test_a_failed_step_gives_its_dice_back(tmp_path):
    program = compile_entry(one_file_edition(tmp_path, (
        'game "t" { edition: "t" players: 1 }\n'
        'die d100 = 1..100\nglobal var rolled = []\nparam tries = 1\n'
        'phase main {\n  rolled = rolled + [roll(d100)]\n  if tries == 1 { fail "no" }\n}\n'
        'sequence { phases: main }\n')))
    game = Game(program, 1, 5, make_agents([], 1, 5))
    game.start()
    words = game.state.rng.words
    try:
        game.play_round()
    except CivError as exc:
        assert exc.diagnostics[0].code == "RUN030"
    assert game.state.vars["rolled"] == [] and game.state.rng.words == words
    assert not [e for e in game.events if e["type"] == "roll"]
    first = random.Random(5).randrange(100) + 1
    game.state.vars["tries"] = 2
    game.play_round()
    assert game.state.vars["rolled"] == [first]  # the same die again: the stream was rewound


def test_parameters_are_kept_only_when_they_drew_no_dice(tmp_path):
    pure = one_file_edition(tmp_path, (
        'game "t" { edition: "t" players: 1..2 }\n'
        'die d1000 = 1..1000\nparam fixed = num_players * 10\nparam lucky = roll(d1000)\n'
        'global var seen = 0\nphase main {\n  seen = fixed + lucky\n}\nsequence { phases: main }\n'))
    program = compile_entry(pure)
    values = set()
    for seed in range(5):
        game = Game(program, 2, seed, make_agents([], 2, seed), max_rounds=1)
        game.run()
        values.add(game.state.vars["lucky"])
        assert game.state.vars["fixed"] == 20
    assert len(values) > 1 and program.param_values == {}  # a parameter rolls: nothing kept
    pure.write_text(pure.read_text(encoding="utf-8").replace("roll(d1000)", "7"), encoding="utf-8")
    program = compile_entry(pure)
    for players in (1, 2, 2):
        game = Game(program, players, 1, make_agents([], players, 1), max_rounds=1)
        game.run()
        assert game.state.vars["fixed"] == 10 * players
    assert sorted(program.param_values) == [1, 2]
