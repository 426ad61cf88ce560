"""Playing at the terminal: the human seat drawn with rich (views, questions and options in words, the
`?`, `m` and `h` commands, bad input) and the standings table at the end of every game."""
from __future__ import annotations

import io
import re
from pathlib import Path

import pytest

from civdsl.api import compile_entry
from civdsl.engine.agents import HeuristicAgent, HumanAgent, human_agents, make_agents
from civdsl.engine.interpreter import Game
from civdsl.interfaces import cli
from civdsl.interfaces.terminal import TerminalAgent, make_look, print_standings, render_seat
from civdsl.language.diagnostics import CivError

ANSI = re.compile(r"\x1b\[")

DICE_GAME = '''game "Dice sheet" { edition: "dice-sheet" players: 1..2 }

param faces = ["food", "good", "skull"]
die face_die = faces
player var dice = []
player counter food in 0.. = 0
player zone hand visible to owner
kind card { points: int }
card "Grain" { points: 1 }

setup {
  for p in players { add "Grain" to p.hand }
}

phase turn "Turn" {
  player.dice = [roll(face_die), roll(face_die), roll(face_die)]
  let n = player chooses "re-roll" from [0, 1, 2]
  let k = player chooses "keep going" from ["yes", "no"]
  player.food += len([f for f in player.dice where f == "food"])
}

sequence { phases: turn }

decision "re-roll" {
  question: "Re-roll how many of your " + str(len(player.dice)) + " dice?"
  label: if option == 0 then "keep them all" else "re-roll " + str(option)
}

view sheet "Sheet" of p {
  label: "Tribe " + p.name
  counters "Stock": {Food: p.food}
  dice "Dice": p.dice
  list "Hand": p.hand
}

victory {
  rank: [player.food]
  score: player.food
  breakdown: {food_eaten: player.food, cards_held: len(player.hand)}
  label: "Tribe " + player.name
  max_rounds: 2
}
'''

VIEW = {
    "round": 3, "seat": "P1",
    "players": [{"name": "P1", "label": "Egypt", "colour": "#b03a2e"},
                {"name": "P2", "label": "Crete", "colour": "#2471a3"}],
    "views": [
        {"name": "sheet", "title": "Score sheet", "player": "P1", "label": "Egypt", "panels": [
            {"kind": "counters", "title": "Goods", "items": [["Wood", 2], ["Stone", 1], ["Food", 5]]},
            {"kind": "dice", "title": "Dice", "items": ["food", "3 workers", "skull", None]},
            {"kind": "list", "title": "Hand", "items": ["Grain", "Bronze"], "hidden": 0},
            {"kind": "table", "title": "Monuments", "columns": ["Monument", "Points"],
             "rows": [["Step Pyramid", 1], ["Obelisk", None]]},
            {"kind": "text", "title": "Note", "text": "[bold]not markup[/bold]"},
            {"kind": "hologram", "title": "Future"}]},
        {"name": "sheet", "title": "Score sheet", "player": "P2", "label": "Crete", "panels": [
            {"kind": "list", "title": "Hand", "items": [], "hidden": 4}]},
        {"name": "table", "title": "Table", "player": None, "label": None, "panels": [
            {"kind": "track", "title": "A.S.T.", "length": 16,
             "at": [["Egypt", 3, "P1"], ["Crete", 8, "P2"], ["Etruria", 3, None]], "marks": [["Late Bronze", 6]]},
            {"kind": "map", "title": "Board", "map": "board", "layers": [], "pieces": [], "shade": [],
             "highlight": []}]}]}


@pytest.fixture(autouse=True)
def terminal_env(monkeypatch):
    """The same drawing wherever the tests run: a colour terminal unless told otherwise, no width set."""
    monkeypatch.setenv("TERM", "xterm-256color")
    for name in ("NO_COLOR", "FORCE_COLOR", "COLUMNS", "LINES", "TTY_COMPATIBLE", "TTY_INTERACTIVE"):
        monkeypatch.delenv(name, raising=False)


def render(view: dict, plain: bool = True, others: bool = True) -> str:
    out = io.StringIO()
    look = make_look(out, plain=plain, width=90)
    for r in render_seat(view, look, others=others, map_lines=lambda panel: [f"pieces on {panel['map']}"]):
        look.print(r)
    return out.getvalue()


# ---- panels, from a view written by hand --------------------------------------------------------------------
def test_every_panel_kind_is_drawn_plainly_without_colour_codes():
    text = render(VIEW)
    assert not ANSI.search(text)
    assert "+- Score sheet — P1 (Egypt)" in text and "+- Score sheet — P2 (Crete)" in text and "+- Table" in text
    assert "Wood 2   Stone 1   Food 5" in text                                     # counters: a compact table
    assert "| food | | 3 workers | | skull | | ? |" in text                       # dice: one box per face
    assert "Hand: Grain, Bronze" in text and "Hand: 4 hidden" in text             # lists, and what is hidden
    assert "Monument      Points" in text and "Obelisk       —" in text            # a table; none as a dash
    assert "Note: [bold]not markup[/bold]" in text                                # ruleset text is never markup
    assert "(a hologram panel: not drawn at the terminal)" in text
    assert "0 ...+..|.C........ 16" in text                                       # a track: a line of spaces
    assert "E Egypt 3 · C Crete 8 · T Etruria 3 · | Late Bronze 6" in text        # + where two tokens share one
    assert "pieces on board" in text                                              # the map: the caller's listing


def test_small_panels_stand_side_by_side():
    lines = render(VIEW).splitlines()
    assert any("Goods" in line and "Dice" in line for line in lines)
    assert any("A.S.T." in line and "Board" in line for line in lines)
    assert all(len(line) <= 90 for line in lines)


def test_before_a_decision_other_players_views_are_left_out():
    text = render(VIEW, others=False)
    assert "P1 (Egypt)" in text and "Table" in text and "P2 (Crete)" not in text


def test_at_a_terminal_views_are_boxed_round_and_coloured():
    text = render(VIEW, plain=False)
    assert ANSI.search(text) and "╭─" in text and "│ food │" in text
    assert "[bold]not markup[/bold]" in text


# ---- the human agent in real games --------------------------------------------------------------------------
@pytest.fixture(scope="module")
def dice_program(tmp_path_factory):
    folder = tmp_path_factory.mktemp("dice-sheet")
    (folder / "game.civ").write_text(DICE_GAME, encoding="utf-8")
    return compile_entry(folder / "game.civ")


def dice_game(program, answers: str):
    out = io.StringIO()
    human = TerminalAgent(stdin=io.StringIO(answers), stdout=out)
    game = Game(program, 2, 0, [human, HeuristicAgent(0, 2)])
    return game, out


def test_the_human_sees_the_dice_then_the_question_and_the_options_in_words(dice_program):
    game, out = dice_game(dice_program, "1\n1\n" * 2)
    game.run()
    text = out.getvalue()
    first = text.split("choose 1–3", 1)[0]
    dice, question = first.index("Dice"), first.index("Re-roll how many of your 3 dice?")
    assert dice < question and re.search(r"\| (food|good|skull) \|", first[dice:question])
    assert "P1 (Tribe P1), round 1" in first and "Hand: Grain" in first
    assert "  1. keep them all\n  2. re-roll 1\n  3. re-roll 2\n" in first
    assert "keep going\n  1. yes\n  2. no\n" in text                    # no words declared: the tag and values
    assert "choose 1–3 (? view, h help): 1\n" in text                  # piped answers are echoed
    assert not ANSI.search(text)


def test_the_view_is_shown_again_only_when_it_changed(dice_program):
    game, out = dice_game(dice_program, "1\n1\n" * 2)
    game.run()
    text = out.getvalue()
    assert text.count("+- Sheet — P1") == 2       # once a round: the second question of a round shows none
    assert text.count("Re-roll how many") == 2 and text.count("keep going") == 2


def test_commands_at_the_prompt_and_friendly_answers_to_bad_input(dice_program):
    game, out = dice_game(dice_program, "?\nh\nm\nx\n9\n\n0\n2\n1\n" + "1\n" * 3)
    game.run()
    text = out.getvalue()
    after = text.split("choose 1–3 (? view, h help): ?\n", 1)[1]
    shown = after.split("choose 1–3", 1)[0]
    assert "+- Sheet — P2 (Tribe P2)" in shown and "Hand: 1 hidden" in shown   # `?`: the others' views too
    assert "Re-roll how many" in shown                                        # and the question again
    assert "?    show your view again, with the other players' views" in text
    assert "h    this help" in text and "m map" not in text                   # no map: no `m` offered
    assert "this game has no map" in text
    assert "“x” is not a choice here: type a number from 1 to 3 (h for help)" in text
    assert "there is no option 9: type a number from 1 to 3" in text
    assert "there is no option 0: type a number from 1 to 3" in text
    assert "type a number from 1 to 3 (h for help)" in text
    rerolls = [e["value"] for e in game.events if e["type"] == "decision" and e["player"] == "P1"]
    assert rerolls[:2] == [1, "yes"]


def test_end_of_input_is_agt002(dice_program):
    game, _ = dice_game(dice_program, "h\n")
    with pytest.raises(CivError) as caught:
        game.run()
    assert caught.value.diagnostics[0].code == "AGT002"


def run_cli(monkeypatch, capsys, argv: list[str], stdin: str = "") -> tuple[int, str, str]:
    monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    code = cli.main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def test_rtta_at_the_terminal_through_civdsl_play(monkeypatch, capsys):
    argv = ["play", "--edition", "roll-through-the-ages", "--players", "2", "--agents", "human,heuristic"]
    code, out, err = run_cli(monkeypatch, capsys, argv, "h\nm\nfood\n" + "1\n" * 600)
    assert code == 0, err
    first = out.split("choose 1–", 1)[0]
    assert "+- " in first and "P1" in first and "round 1" in first               # the seat's view, boxed
    assert "m    list the map" not in out and "this game has no map" in out
    assert "“food” is not a choice here" in out
    assert "Standings:" in out and "[" not in out.split("Standings:", 1)[1]
    assert re.search(r"^place +player +score +developments +monuments +bonus +disasters +total$", out, re.M)


def test_rtta_shows_the_dice_before_a_re_roll_question(monkeypatch, capsys):
    argv = ["play", "--edition", "roll-through-the-ages", "--players", "2", "--agents", "human,heuristic"]
    code, out, err = run_cli(monkeypatch, capsys, argv, "1\n" * 600)
    assert code == 0, err
    before = out.split("choose 1–", 1)[0]
    assert "re-roll" in before.lower().rsplit("round 1", 1)[1]
    assert re.search(r"\+-+\+ \+-+\+", before), "each die a box"
    assert re.search(r"\| \| \S[^|]* \| \| \S[^|]* \|", before), "showing its face"


def test_end_of_input_through_civdsl_play_saves_the_game(monkeypatch, capsys, tmp_path):
    log = tmp_path / "game.jsonl"
    argv = ["play", "--edition", "roll-through-the-ages", "--players", "2", "--agents", "human,heuristic",
            "--log", str(log)]
    code, out, err = run_cli(monkeypatch, capsys, argv, "")
    assert code == 130 and "the input ended (AGT002)" in err and f"civdsl play --resume {log}" in err
    assert "Traceback" not in err
    assert log.read_text(encoding="utf-8").startswith('{"type":"header"')


def test_map_options_keep_their_pieces_and_m_lists_the_map(monkeypatch, capsys):
    argv = ["play", "--edition", "avalon-hill-1981", "--players", "3", "--agents", "human,heuristic,heuristic",
            "--max-rounds", "2", "-q"]
    code, out, err = run_cli(monkeypatch, capsys, argv, "1\n1\nm\n" + "1\n" * 40)
    assert code == 0, err
    assert re.search(r"^ +\d+\. \S.* — .*; P1: \d+ token", out, re.M)          # an area with the seat's pieces
    listing = out.split(": m\n", 1)[1]
    assert re.search(r"^area +yours +others there +about the area$", listing, re.M)
    assert re.search(r"^P1 has pieces on \d+ area\(s\)$", listing, re.M)
    assert "m    list the map" not in out  # (help not asked)
    assert "(? view, m map, h help)" in out


# ---- standings ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("edition,players,columns", [
    ("mega-empires-the-west", 5, "place +player +score +civilization +cities +advances +ast +bonus +total"),
    ("avalon-hill-1981", 3, "place +player +nation +ast +cards +points"),
])
def test_standings_have_named_columns_and_no_raw_keys(monkeypatch, capsys, edition, players, columns):
    argv = ["play", "--edition", edition, "--players", str(players), "--agents", "heuristic", "--max-rounds", "3",
            "-q"]
    code, out, err = run_cli(monkeypatch, capsys, argv)
    assert code == 0, err
    table = out.split("Standings:\n", 1)[1].splitlines()
    assert re.fullmatch(columns, table[0])
    assert len([line for line in table[1:] if re.match(r" +\d+ +P\d", line)]) == players
    assert "[" not in "\n".join(table) and not ANSI.search(out)
    assert all(line == line.rstrip() for line in table)


def test_standings_label_and_rank_columns(dice_program, tmp_path):
    game = Game(dice_program, 2, 1, make_agents(["heuristic"], 2, 1))
    result = game.run()
    out = io.StringIO()
    print_standings(result, out)
    lines = out.getvalue().splitlines()
    assert lines[0] == "Standings:"
    assert re.fullmatch(r"place +player +label +score +food eaten +cards held", lines[1])
    assert "Tribe P1" in out.getvalue() and "Tribe P2" in out.getvalue()
    tiny = compile_entry(Path(__file__).parent / "data" / "rulesets" / "tiny" / "game.civ")
    out = io.StringIO()
    print_standings(Game(tiny, 2, 7, make_agents([], 2, 7)).run(), out)
    assert re.fullmatch(r"place +player +rank", out.getvalue().splitlines()[1])  # nothing else to read


def test_standings_at_a_terminal_are_boxed(dice_program):
    result = Game(dice_program, 2, 1, make_agents(["heuristic"], 2, 1)).run()
    out = io.StringIO()
    print_standings(result, out, plain=False)
    assert ANSI.search(out.getvalue()) and "╭" in out.getvalue()


# ---- seating: the CLI's terminal agent, the engine's plain fallback ----------------------------------------
def test_make_agents_seats_the_interface_s_human_agent_only_where_asked():
    assert type(make_agents(["human", "random"], 2, 0)[0]) is HumanAgent
    made = []
    with human_agents(lambda seat: made.append(seat) or TerminalAgent(stdin=io.StringIO(), stdout=io.StringIO())):
        agents = make_agents(["random", "human", "human"], 3, 0)
    assert made == [2, 3] and [type(a).__name__ for a in agents] == ["RandomAgent", "TerminalAgent", "TerminalAgent"]
    assert type(make_agents(["human"], 1, 0)[0]) is HumanAgent                   # only inside the `with`
    assert make_agents(["human"], 1, 0, human=lambda seat: "mine") == ["mine"]


# ---- docs/playing.md: its sessions are real runs -----------------------------------------------------------
PLAYING = Path(__file__).resolve().parent.parent / "docs" / "playing.md"
PROMPT = re.compile(r"^choose 1–\d+ \(.*\): (.*)$")
COLOURS = re.compile(r"\x1b\[[0-9;]*m")


class Tty(io.StringIO):
    """Standard output as a terminal: rich draws as it would for a person."""

    def isatty(self):
        return True


def sessions() -> list[tuple[str, list[str]]]:
    out = []
    for block in re.findall(r"```text\n(.*?)```", PLAYING.read_text(encoding="utf-8"), re.S):
        first, *shown = block.rstrip("\n").splitlines()
        if first.startswith("$ civdsl play "):
            out.append((first[2:], shown))
    return out


def fits(shown: list[str], actual: list[str]) -> bool:
    """`shown` is `actual` where a line `...` stands for any number of lines."""
    if not shown:
        return not actual
    if shown[0] == "...":
        return any(fits(shown[1:], actual[i:]) for i in range(len(actual) + 1))
    return bool(actual) and shown[0] == actual[0] and fits(shown[1:], actual[1:])


@pytest.mark.parametrize("command,shown", sessions(), ids=[c for c, _ in sessions()])
def test_the_playing_page_shows_real_sessions(monkeypatch, command, shown):
    """A session with a human seat runs as at a 100-column terminal, answering what the page shows
    after each prompt (the prompts left out by `...` answered 1); the others run piped."""
    answers = [m.group(1) for m in map(PROMPT.match, shown) if m]
    monkeypatch.setenv("COLUMNS", "100")
    monkeypatch.setattr("sys.stdin", io.StringIO("".join(a + "\n" for a in answers) + "1\n" * 2000))
    stdout = Tty() if "human" in command else io.StringIO()
    monkeypatch.setattr("sys.stdout", stdout)
    assert cli.main(command.split()[1:]) == 0
    actual = [line.rstrip() for line in COLOURS.sub("", stdout.getvalue()).splitlines()]
    assert fits(shown, actual), "\n".join(["page:", *shown, "", "real run:", *actual])
