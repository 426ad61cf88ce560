"""The language server's analysis on its own: re-parsing only an edited region gives the tree a whole
parse gives; the server reads only the files opened, what they import, and the edition entries it may
read; diagnostics of an edit to one file of the Avalon Hill edition come from the parse cache and one
region's parse."""
from __future__ import annotations

import random
import shutil
import sys
import time
from pathlib import Path

import pytest

from civdsl.interfaces.lsp.analysis import Analyzer
from civdsl.interfaces.lsp.incremental import reparse
from civdsl.language.diagnostics import CivError
from civdsl.language.parser import parse_text

ROOT = Path(__file__).resolve().parent.parent
WORKSPACE = ROOT / "tests" / "data" / "lsp_workspace"


def _edits(rng: random.Random, text: str):
    lines = text.split("\n")
    i = rng.randrange(len(lines))
    new = list(lines)
    op = rng.choice(["duplicate", "delete", "edit", "blank", "join", "split", "brace"])
    if op == "duplicate":
        new.insert(i, lines[i])
    elif op == "delete":
        del new[i]
    elif op == "edit":
        new[i] = lines[i].replace("1", "2", 1) + " "
    elif op == "blank":
        new.insert(i, "")
    elif op == "join" and i + 1 < len(new):
        new[i] = new[i] + " " + new.pop(i + 1)
    elif op == "split" and " " in lines[i].strip():
        k = lines[i].rindex(" ")
        new[i:i + 1] = [lines[i][:k], lines[i][k + 1:]]
    elif op == "brace":
        new.insert(i, "}")
    return "\n".join(new)


@pytest.mark.parametrize("name", ["rulesets/avalon-hill-1981/calamities.civ", "rulesets/civ-core/trade.civ",
                                  "rulesets/roll-through-the-ages/turn.civ"])
def test_reparsing_an_edited_region_gives_the_whole_parse(name):
    rng = random.Random(name)
    path = str(ROOT / name)
    text = (ROOT / name).read_text(encoding="utf-8")
    tree = parse_text(text, path)
    partial = 0
    for _ in range(25):
        new = _edits(rng, text)
        try:
            whole = parse_text(new, path)
        except CivError as exc:
            with pytest.raises(CivError) as again:
                reparse(text, tree, new, path)
            assert again.value.diagnostics[0].message == exc.diagnostics[0].message
            continue
        got, only_region = reparse(text, tree, new, path)
        assert got == whole
        partial += only_region
        text, tree = new, whole
    assert partial >= 10


def test_the_server_reads_only_open_files_their_imports_and_entries(tmp_path):
    ws = tmp_path / "ws"
    shutil.copytree(WORKSPACE, ws)
    (ws / "rules/base/unrelated.civ").write_text("param secret = 1\n", encoding="utf-8")
    (ws / "rules/other").mkdir()
    (ws / "rules/other/game.civ").write_text('game "Other" { edition: "other" players: 1 }\n', encoding="utf-8")
    outside = tmp_path / "loose" / "edition" / "game.civ"
    outside.parent.mkdir(parents=True)
    outside.write_text('game "Loose" { edition: "loose" players: 1 }\nimport "../../../../../../../../etc/x.civ"\n',
                       encoding="utf-8")
    read: list[str] = []
    watching = [False]

    def hook(event, args):
        if watching[0] and event == "open" and isinstance(args[0], str):
            read.append(str(Path(args[0]).resolve()))
    sys.addaudithook(hook)
    house = ws / "rules/house/house.civ"
    analyzer = Analyzer([str(ws)])
    watching[0] = True
    try:
        analyzer.open(str(house), house.read_text(encoding="utf-8"))
        found = analyzer.diagnostics([str(house)])
        analyzer.open(str(outside), outside.read_text(encoding="utf-8"))
        loose = analyzer.diagnostics([str(outside)])
    finally:
        watching[0] = False
    mine = {p for p in read if Path(p).is_relative_to(tmp_path.resolve())}
    allowed = {str((ws / "rules" / f).resolve()) for f in ("house/house.civ", "base/game.civ", "base/rules.civ")}
    assert mine <= allowed | {str(outside.resolve())}, mine - allowed
    assert found[str(house.resolve())] == []
    assert [d.code for d in loose[str(outside.resolve())]] == ["LOAD003"]  # its import leaves its folder: not read


def test_an_edit_to_one_file_of_avalon_hill_is_checked_from_caches():
    game = ROOT / "rulesets/avalon-hill-1981/game.civ"
    calamities = ROOT / "rulesets/avalon-hill-1981/calamities.civ"
    analyzer = Analyzer([str(ROOT)])
    analyzer.open(str(game), game.read_text(encoding="utf-8"))
    text = calamities.read_text(encoding="utf-8")
    analyzer.open(str(calamities), text)
    assert analyzer.diagnostics([str(calamities)])[str(calamities.resolve())] == []
    doc = analyzer.docs[str(calamities.resolve())]
    started = time.perf_counter()
    for i in range(4):
        analyzer.change(str(calamities), text.replace("famine_loss - ", "famine_los - ") if i % 2 == 0 else text)
        found = analyzer.diagnostics([str(calamities)])[str(calamities.resolve())]
        assert [d.code for d in found] == (["LNT001", "UNK001"] if i % 2 == 0 else [])
    assert doc.regions == 4
    assert (time.perf_counter() - started) / 4 < 1.0  # the figure itself: benchmarks/lsp_bench.py
