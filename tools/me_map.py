"""Build rulesets/mega-empires-the-west/data/map.json from the asundquistdavis map data (build time only).

Usage: python tools/me_map.py [REFERENCE_DIR]   (default /work/shared/reference/megaempires)

The source (asundquistdavis/MegaEmpires web/json/areas.json @12261cc, ISC; cleaned copy
asundquistdavis_areas.clean.json) covers both boxes (West + East, 338 areas). This script keeps THE WEST:
the land areas whose `startingCivilization` is one of the 9 West civilizations plus the sea areas
bordering them; repairs the one-way adjacencies; renames misspelt areas; derives flood-plain and
volcano ids, coastal areas and the areas in play per number of players; checks the result and writes
the JSON. Every correction and reconstruction is listed in the file's `notes` and in
docs/editions/mega-empires-the-west-data.md. The game never reads the reference folder: only map.json.
"""
from __future__ import annotations

import json
import sys
from collections import deque
from pathlib import Path

REFERENCE = Path("/work/shared/reference/megaempires")
ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "rulesets" / "mega-empires-the-west" / "data" / "map.json"

# Ch. 2 / REPORT A3: the 9 civilizations of the West box, in A.S.T. order.
WEST_CIVS = ["Minoa", "Assyria", "Celt", "Carthage", "Hatti", "Rome", "Iberia", "Hellas", "Egypt"]
# Ch. 5, Map Board Setups (the setup images are missing from our rulebook; the civs per player count
# are the ones every public source gives: Nayte91 scenarios.yaml, ArttKan, bubba0077).
CIVS_BY_PLAYERS = {
    "5": ["Minoa", "Assyria", "Hatti", "Hellas", "Egypt"],
    "6": ["Minoa", "Carthage", "Hatti", "Rome", "Iberia", "Hellas"],
    "7": ["Minoa", "Assyria", "Carthage", "Hatti", "Rome", "Hellas", "Egypt"],
    "8": [c for c in WEST_CIVS if c != "Celt"],
    "9": list(WEST_CIVS),
}

# Misspelt source names -> our names (every other name is only put in Title Case).
RENAMES = {
    "agean sea": "Aegean Sea",
    "centra mediterranean": "Central Mediterranean",
    "massillia": "Massilia",
    "aquatainia": "Aquitania",
    "apollionia": "Apollonia",
    "salamais": "Salamis",
    "ninveh": "Nineveh",
    "vann": "Van",
    "moresia": "Moesia",
    "mesapotamia": "Mesopotamia",  # East area, named only in the notes
}

# One-way adjacencies of the source (its `issues` list, West part) and what we did. (a, kind, b) means
# a's list `kind` names b but b's does not name a. "add" = add the missing direction, "drop" = remove.
ONE_WAY = {
    ("belgica", "landAdjacent", "upper rhine"): ("drop", "the same author's tracing of the West board (frontend/assets/west-map.html) shows no contact: Germania Inferior and Germania Superior lie between"),
    ("scythia", "waterAdjacent", "maeotia"): ("add", "both lie on the Sea of Azov coast; Maeotia lists Crimea and Kuban only"),
    ("sahara", "landAdjacent", "tripolitania"): ("add", "Tripolitania has empty lists in the source"),
    ("sabrata", "landAdjacent", "tripolitania"): ("add", "Tripolitania has empty lists in the source"),
    ("tripoli", "landAdjacent", "tripolitania"): ("add", "Tripolitania has empty lists in the source"),
    ("libya", "landAdjacent", "tripolitania"): ("add", "Tripolitania has empty lists in the source"),
    ("jalo", "landAdjacent", "tripolitania"): ("add", "Tripolitania has empty lists in the source"),
    ("syracuse", "waterAdjacent", "campania"): ("add", "the Strait of Messina: the same author's tracing has a shared edge, and the Avalon Hill board, whose Italy has the same areas, has Syracus-Campania by water"),
    ("massillia", "waterAdjacent", "lugdunum"): ("drop", "Lugdunum is inland: it has no water neighbour at all in the source (the land border stays)"),
    ("cisalpina", "landAdjacent", "massillia"): ("drop", "the same author's tracing shows no contact: Lugdunum and Etruria lie between"),
    ("thessalonica", "waterAdjacent", "agean sea"): ("add", "the Aegean Sea has an empty list in the source"),
    ("chalcis", "waterAdjacent", "agean sea"): ("add", "the Aegean Sea has an empty list in the source"),
    ("lemnos", "waterAdjacent", "lesbos"): ("add", "neighbouring islands; Lesbos's list names Troy, Sardes and Miletus only"),
    ("lemnos", "waterAdjacent", "agean sea"): ("add", "the Aegean Sea has an empty list in the source"),
    ("knossos", "waterAdjacent", "agean sea"): ("add", "the Aegean Sea has an empty list in the source"),
    ("thera", "waterAdjacent", "agean sea"): ("add", "the Aegean Sea has an empty list in the source"),
    ("rhodes", "waterAdjacent", "agean sea"): ("add", "the Aegean Sea has an empty list in the source"),
    ("lesbos", "waterAdjacent", "agean sea"): ("add", "the Aegean Sea has an empty list in the source"),
    ("eretria", "waterAdjacent", "agean sea"): ("add", "the Aegean Sea has an empty list in the source"),
    ("miletus", "waterAdjacent", "agean sea"): ("add", "the Aegean Sea has an empty list in the source"),
    ("troy", "waterAdjacent", "agean sea"): ("add", "the Aegean Sea has an empty list in the source"),
    ("cyrenaica", "landAdjacent", "western desert"): ("add", "Cyrenaica's list names it; Western Desert lists Jalo and Paraetonium beside it"),
    ("black sea", "waterAdjacent", "byzantium"): ("add", "Byzantium lies on the Bosporus"),
    ("lycia", "landAdjacent", "galatia"): ("add", "Lycia and Galatia are adjacent by water in both lists; Lycia's land list names Galatia"),
    ("kanesh", "landAdjacent", "hattusa"): ("add", "Hattusa has empty lists in the source"),
    ("bithynia", "landAdjacent", "hattusa"): ("add", "Hattusa has empty lists in the source"),
    ("anatolia", "landAdjacent", "hattusa"): ("add", "Hattusa has empty lists in the source"),
    ("phrygia", "landAdjacent", "hattusa"): ("add", "Hattusa has empty lists in the source"),
    ("trapezus", "landAdjacent", "hattusa"): ("add", "Hattusa has empty lists in the source"),
}

# Ch. 3, Additional Notes: "The areas Chalcis and Athens are not considered adjacent. The same applies
# to Boeotia and Eretria."
NOT_ADJACENT = [("Chalcis", "Athens"), ("Boeotia", "Eretria")]
# Ch. 3, Additional Notes: "The areas Sinai and Eastern Desert are considered coastal areas only when
# combined with MEGA EMPIRES: THE EAST."
NOT_COASTAL = ["Sinai", "Eastern Desert"]

# Flood plains (ch. 3, Map Board Definitions J). The source has only a boolean per area. Connected
# components of flood-plain areas over land borders give 3 groups; the western group joins the Rhone
# (Lugdunum, Aquae Sextiae, Massilia) and the Italian plain (Etruria, Rubicon) through the land borders
# Lugdunum-Etruria and Massilia-Etruria. We split it: the Avalon Hill 1981 board, whose Italy has the
# same areas, has a Po flood plain of exactly Etruria + Rubicon. Names are our labels.
FLOOD_PLAIN_SPLIT = {"Etruria": "Po", "Rubicon": "Po"}
FLOOD_PLAIN_NAMES = {"Upper Egypt": "Nile", "Moesia": "Danube", "Lugdunum": "Rhone"}

# Volcanoes (ch. 3, Map Board Definitions I: "A volcano on the border of 2 areas is considered to be in
# both areas"; ch. 8, Volcanic Eruption: "There are 3 volcanoes on the map board, each of which is located
# on the border of two areas, which are both affected."). The source flags Campania, Neapolis and Thera
# only (the East's 6 flagged areas form 3 bordering pairs).
VOLCANOES = {
    # Campania + Neapolis: both flagged, they share a border (the only flagged pair).
    "Vesuvius": ["Campania", "Neapolis"],
    # RECONSTRUCTED: neither area is flagged in the source. The Avalon Hill 1981 board (same Sicilian
    # areas) puts its Sicilian volcano on the Milazzo-Syracuse border; the rulebook's count of 3 needs it.
    "Etna": ["Milazzo", "Syracuse"],
    # Thera is flagged alone. Reading (ch. 8: every volcano of the board lies on the border of two areas,
    # both affected): its second area is Knossos, RECONSTRUCTED. Thera borders only water areas: the open
    # Aegean Sea (an open sea holds no units, so "both affected" cannot mean it), Knossos and Phaestos
    # (Crete), Argos, Athens and Eretria (Greece, far from the island). Knossos: the island (Santorini,
    # 25.4 E) lies north of the eastern of the two Cretan areas (Knossos borders Rhodes, Phaestos the
    # Peloponnese), and the same author's tracing of the West board (west-map.html) draws Thera's main
    # island at the corner of the Thera-Knossos border, nearer to Knossos than to Phaestos. UNCERTAIN:
    # the edition's option `thera_alone` plays the source's reading (Thera alone).
    "Thera": ["Thera", "Knossos"],
}
VOLCANO_RECONSTRUCTED = {"Milazzo", "Syracuse", "Knossos"}


def title(name: str) -> str:
    if name in RENAMES:
        return RENAMES[name]
    words = name.split(" ")
    return " ".join(w if (i and w in ("of",)) else w.capitalize() for i, w in enumerate(words))


def components(nodes, neighbours):
    seen, out = set(), []
    for n in sorted(nodes):
        if n in seen:
            continue
        comp, todo = {n}, deque([n])
        seen.add(n)
        while todo:
            h = todo.popleft()
            for m in neighbours(h):
                if m in nodes and m not in seen:
                    seen.add(m)
                    comp.add(m)
                    todo.append(m)
        out.append(comp)
    return out


def build(ref: Path) -> dict:
    src = json.loads((ref / "asundquistdavis_areas.clean.json").read_text(encoding="utf-8"))
    raw = {a["name"]: a for a in src["areas"]}
    west_civs = {c.lower() for c in WEST_CIVS}
    land = {n for n, a in raw.items() if a.get("startingCivilization") in west_civs}
    seas = {n for n, a in raw.items() if "support" not in a}

    # Symmetric adjacency: collect every listed (a, b, kind), apply the decisions on one-way edges.
    listed = {"landAdjacent": set(), "waterAdjacent": set()}
    for n, a in raw.items():
        for kind in listed:
            for m in a.get(kind, []):
                listed[kind].add((n, m))
    found_one_way = set()
    for kind, pairs in listed.items():
        for (a, b) in pairs:
            if (b, a) not in pairs and (a in land or b in land):
                found_one_way.add((a, kind, b))
    west_one_way = {e for e in found_one_way if e[0] in land | seas and e[2] in land | seas
                    and (e[0] in land or e[2] in land)}
    undecided = west_one_way - set(ONE_WAY)
    assert not undecided, f"one-way edges without a decision: {sorted(undecided)}"
    stale = set(ONE_WAY) - west_one_way
    assert not stale, f"decisions for edges that are not one-way: {sorted(stale)}"
    for (a, kind, b), (what, _) in ONE_WAY.items():
        if what == "add":
            listed[kind].add((b, a))
        else:
            listed[kind].discard((a, b))

    kept_seas = {s for s in seas if any((s, m) in listed["waterAdjacent"] for m in land)}
    keep = land | kept_seas
    dropped_east = sorted({(a, b) for kind in listed for (a, b) in listed[kind]
                           if a in land and b not in keep})

    borders = {}
    for kind, tag in (("landAdjacent", "land"), ("waterAdjacent", "water")):
        for (a, b) in listed[kind]:
            if a in keep and b in keep and (b, a) in listed[kind]:
                key = tuple(sorted((title(a), title(b))))
                borders.setdefault(key, set()).add(tag)
    btype = {k: ("both" if len(v) == 2 else next(iter(v))) for k, v in borders.items()}
    for a, b in NOT_ADJACENT:
        btype.pop(tuple(sorted((a, b))), None)

    nbrs: dict[str, dict[str, str]] = {title(n): {} for n in keep}
    for (a, b), t in btype.items():
        nbrs[a][b] = t
        nbrs[b][a] = t

    areas = {}
    for n in sorted(keep, key=title):
        a = raw[n]
        name = title(n)
        if n in kept_seas:
            assert a["isOpenSea"], n
            areas[name] = {"land": False, "water": True, "open_sea": True, "limit": 0, "city_site": None,
                           "flood_plain": None, "volcano": [], "start": [], "region": None,
                           "coastal": False}
            continue
        assert not a["isOpenSea"], n
        site = None
        if a["hasCity"]:
            site = "white" if a["hasFloodplainCity"] else "black"
        assert not a["hasFloodplainCity"] or (a["hasCity"] and a["isOnFloodplain"]), n
        civ = a["startingCivilization"].capitalize()
        areas[name] = {
            "land": True,
            "water": any(t in ("water", "both") for t in nbrs[name].values()),
            "open_sea": False,
            "limit": a["support"],
            "city_site": site,
            "flood_plain": True if a["isOnFloodplain"] else None,  # replaced by an id below
            "volcano": [],
            "start": [civ] if a["isStartingArea"] else [],
            "region": civ,
            "coastal": False,
        }

    # Flood-plain ids: components over land borders, then the documented split.
    fp = {n for n, a in areas.items() if a["flood_plain"]}
    comps = components(fp, lambda h: [m for m, t in nbrs[h].items() if t in ("land", "both")])
    for comp in comps:
        label = next(FLOOD_PLAIN_NAMES[n] for n in sorted(comp) if n in FLOOD_PLAIN_NAMES)
        for n in comp:
            fid = FLOOD_PLAIN_SPLIT.get(n, label)
            areas[n]["flood_plain"] = fid
            areas[n].setdefault("reconstructed", []).append("flood_plain")

    # Volcanoes.
    flagged = {title(n) for n in land if raw[n]["isOnVolcano"]}
    assert flagged == {"Campania", "Neapolis", "Thera"}, flagged
    for vid, names in VOLCANOES.items():
        for n in names:
            areas[n]["volcano"].append(vid)
            if n in VOLCANO_RECONSTRUCTED:
                areas[n].setdefault("reconstructed", []).append("volcano")
        if len(names) == 2:
            assert names[1] in nbrs[names[0]], names

    # Coastal (ch. 3, Map Board Definitions E): land + water connected (indirectly) to an open sea, over
    # water borders (water or both), i.e. not an inland sea only.
    wcomps = components(set(areas), lambda h: [m for m, t in nbrs[h].items() if t in ("water", "both")])
    for comp in wcomps:
        open_ = any(areas[n]["open_sea"] for n in comp)
        for n in comp:
            if areas[n]["land"] and areas[n]["water"]:
                areas[n]["coastal"] = open_
    for n in NOT_COASTAL:
        assert not areas[n]["coastal"], n  # ch. 3 Additional Notes holds by the data alone

    # Areas in play per number of players (RECONSTRUCTED, ch. 5 images missing).
    for n, a in areas.items():
        oop = {}
        for k, civs in CIVS_BY_PLAYERS.items():
            if a["open_sea"]:
                oop[k] = False  # ch. 3 Additional Notes: open seas are always in play
            else:
                oop[k] = a["region"] not in civs
        a["out_of_play"] = oop
    for n, a in areas.items():  # a sea is in play iff open or bordering an in-play area
        if not a["land"] and not a["open_sea"]:
            for k in CIVS_BY_PLAYERS:
                a["out_of_play"][k] = not any(not areas[m]["out_of_play"][k] for m in nbrs[n])
        a["reconstructed"] = sorted(set(a.get("reconstructed", [])) | {"out_of_play"})

    border_list = sorted([a, b, t] for (a, b), t in btype.items())
    counts = {
        "areas": len(areas),
        "land_areas": sum(a["land"] for a in areas.values()),
        "open_sea_areas": sum(a["open_sea"] for a in areas.values()),
        "coastal_areas": sum(a["coastal"] for a in areas.values()),
        "borders": len(border_list),
        "land_borders": sum(t == "land" for *_, t in border_list),
        "water_borders": sum(t == "water" for *_, t in border_list),
        "both_borders": sum(t == "both" for *_, t in border_list),
        "city_sites": sum(a["city_site"] is not None for a in areas.values()),
        "black_city_sites": sum(a["city_site"] == "black" for a in areas.values()),
        "white_city_sites": sum(a["city_site"] == "white" for a in areas.values()),
        "flood_plain_areas": sum(a["flood_plain"] is not None for a in areas.values()),
        "volcanoes": len(VOLCANOES),
        "population_capacity": sum(a["limit"] for a in areas.values()),
        "areas_in_play": {k: sum(not a["out_of_play"][k] for a in areas.values()) for k in CIVS_BY_PLAYERS},
        "land_areas_in_play": {k: sum(a["land"] and not a["out_of_play"][k] for a in areas.values())
                               for k in CIVS_BY_PLAYERS},
        "region_areas": {c: sum(a["region"] == c for a in areas.values()) for c in WEST_CIVS},
    }
    rename_note = "; ".join(f"'{k}' -> '{v}'" for k, v in RENAMES.items())
    one_way_note = "; ".join(f"{title(a)} {k[:-8]} -> {title(b)}: {w} ({why})"
                             for (a, k, b), (w, why) in sorted(ONE_WAY.items()))
    east_note = ", ".join(sorted({title(b) for _, b in dropped_east}))
    data = {
        "sources": (
            "Mega Empires: The West map board, as transcribed by a third party (no scan of the board was "
            "available): asundquistdavis/MegaEmpires web/json/areas.json @12261ccc73bb8318f818745f480f082702b161d3 "
            "(ISC; the whole West+East board, 338 areas; unfinished, not checked against the board), used through "
            "the cleaned copy asundquistdavis_areas.clean.json (30 'test' placeholders removed, 37 one-way "
            "adjacencies listed). Kept: the land areas whose startingCivilization is one of the 9 West civs and "
            "the sea areas bordering them. Rules cited: Mega Empires: The West rulebook ch. 3 (Map Board "
            "Definitions, Additional Notes), ch. 5 (Map Board Setups), ch. 8 (Volcanic Eruption, Flood). "
            "Analogy source for two reconstructions: the Avalon Hill 1981 board (rulesets/avalon-hill-1981/"
            "data/map.json), whose Italy and Sicily have the same area names. Built by tools/me_map.py; method "
            "and every correction in docs/editions/mega-empires-the-west-data.md."
        ),
        "notes": [
            "Area names: the source's names in Title Case; misspellings fixed: " + rename_note + ".",
            "Board: THE WEST only. East areas (startingCivilization of an East civ) are off the board and not "
            "in this file; the borders West areas had with them are dropped: " + east_note + ". Sea areas kept: "
            "those bordering a West land area (all 11 are open seas in the source). The Red Sea borders no "
            "West area and is left out.",
            "land/open_sea: from the source (isOpenSea). water: the area has at least one water or both border "
            "in this file. limit: the source's `support` (open seas 0). city_site: hasCity -> 'black', "
            "'white' when hasFloodplainCity (a city site on the flood plain, ch. 3 J).",
            "One-way adjacencies of the source, decided (kind is land/water as listed): " + one_way_note + ".",
            "Border type: listed in both landAdjacent lists -> land, in both waterAdjacent lists -> water, in "
            "both kinds -> both (ch. 3 A, B).",
            "Ch. 3 Additional Notes: Chalcis-Athens and Boeotia-Eretria are not adjacent. The source has "
            "neither pair (it has Athens-Eretria and Boeotia-Chalcis by water); the build removes them if "
            "present and the tests check they are absent.",
            "coastal (ch. 3 E): a land area whose water is connected, over water/both borders, to an open sea. "
            "Sinai and Eastern Desert touch only each other by water (the Gulf of Suez; their Red Sea "
            "neighbours Ptolemais and Nabataea are East areas), so they are not coastal, as ch. 3 Additional "
            "Notes says for the West-only game. Reading: the Caspian Sea is an open sea (the source flags it), "
            "so Caucasus, Nalchik and Alani are coastal.",
            "flood_plain (RECONSTRUCTED ids): the source only flags areas. Components of flagged areas over "
            "land borders: Nile (Upper Egypt, Fayum, Memphis, Tanis, Alexandria), Danube (Moesia, Gethae, "
            "Odessus, Tomi), and one western group that we split into Rhone (Lugdunum, Aquae Sextiae, Massilia) "
            "and Po (Etruria, Rubicon; as on the Avalon Hill 1981 board). The names are our labels.",
            "volcano (RECONSTRUCTED): the rulebook (ch. 8, Volcanic Eruption) has 3 volcanoes, \"each of which "
            "is located on the border of two areas, which are both affected\"; ch. 3 I: a volcano on the border "
            "of 2 areas is in both. The source flags only Campania, Neapolis and Thera. Vesuvius = Campania + "
            "Neapolis (flagged, bordering). Etna = Milazzo + Syracuse: not flagged in the source, reconstructed "
            "from the Avalon Hill 1981 board (same areas). Thera = Thera + Knossos: the source flags Thera "
            "alone; Reading: ch. 8 puts every volcano on a border of two areas, so its second area is "
            "reconstructed as Knossos (Thera borders only water areas: the open Aegean Sea holds no units; of "
            "Knossos and Phaestos on Crete, the island lies north of Knossos, the eastern one, and the same "
            "author's tracing of the West board draws it at the Thera-Knossos border; Argos, Athens and Eretria "
            "are far off). UNCERTAIN: the option thera_alone plays the source's reading (Thera alone). Names "
            "are our labels.",
            "start: the source's isStartingArea; one per West civ.",
            "region: the source's startingCivilization (the civ whose region the area is in; ch. 4 Civilizations, "
            "Region Divisions). The Region Divisions figure is missing from our rulebook, so regions are not "
            "checked against the board.",
            "out_of_play (RECONSTRUCTED; ch. 5 Map Board Setups, whose images are missing): a land area is in "
            "play iff its region's civ is in the game; open sea areas are always in play (ch. 3 Additional "
            "Notes). Civs per number of players: 5 Minoa, Assyria, Hatti, Hellas, Egypt; 6 Minoa, Carthage, Hatti, "
            "Rome, Iberia, Hellas; 7 Minoa, Assyria, Carthage, Hatti, Rome, Hellas, Egypt; 8 all but "
            "Celt; 9 all.",
        ],
        "counts": counts,
        "areas": areas,
        "borders": border_list,
    }
    check(data)
    return data


def check(data: dict) -> None:
    """The same checks as tests/test_me_map.py, run at build time."""
    areas, borders = data["areas"], data["borders"]
    nb: dict[str, dict[str, str]] = {n: {} for n in areas}
    seen = set()
    for a, b, t in borders:
        assert a in areas and b in areas and a != b, (a, b)
        assert t in ("land", "water", "both")
        key = tuple(sorted((a, b)))
        assert key not in seen, key
        seen.add(key)
        nb[a][b] = t
        nb[b][a] = t
    for a, b in NOT_ADJACENT:
        assert b not in nb[a]
    for n, a in areas.items():
        assert 0 <= a["limit"] <= 4
        assert a["city_site"] is None or a["land"]
        assert not a["coastal"] or (a["land"] and a["water"])
        if a["open_sea"]:
            assert a["limit"] == 0 and not a["land"]
    for civ in WEST_CIVS:
        region = [n for n, a in areas.items() if a["region"] == civ]
        starts = [n for n, a in areas.items() if civ in a["start"]]
        assert region and len(starts) == 1 and starts[0] in region, civ
    for k, civs in CIVS_BY_PLAYERS.items():
        live = {n for n, a in areas.items() if not a["out_of_play"][k]}
        starts = [n for n, a in areas.items() if set(a["start"]) & set(civs)]
        assert len(starts) == len(civs)
        comp = {starts[0]}
        todo = deque(comp)
        while todo:
            h = todo.popleft()
            for m in nb[h]:
                if m in live and m not in comp:
                    comp.add(m)
                    todo.append(m)
        assert set(starts) <= comp, (k, set(starts) - comp)
        assert {n for n in live if areas[n]["land"]} <= comp, (k, live - comp)


def main(argv: list[str]) -> int:
    ref = Path(argv[1]) if len(argv) > 1 else REFERENCE
    data = build(ref)
    if OUT.exists():  # the schematic layout is made by tools/map_schematic.py from this file: keep it
        geometry = json.loads(OUT.read_text(encoding="utf-8")).get("geometry")
        if geometry is not None:
            data["geometry"] = geometry
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    c = data["counts"]
    print(f"wrote {OUT.relative_to(ROOT)}: {c['areas']} areas, {c['borders']} borders; in play {c['areas_in_play']}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
