"""The parse cache: a file is parsed once per process; a warm cache on disk serves other processes; a
corrupt, foreign or hostile cache entry is ignored without a word; a changed file is never served from
the cache; `--no-cache` neither reads nor writes it."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from civdsl.language import parse_cache
from civdsl.language.diagnostics import CivError
from civdsl.language.parser import parse_text

RULE = 'param answer = 40 + 2\nprocedure twice(x) {\n  return x * 2\n}\n'


@pytest.fixture()
def cache(tmp_path, monkeypatch):
    """A fresh cache folder and an empty memory; the counters of where trees came from, reset."""
    folder = tmp_path / "cache"
    monkeypatch.setenv("CIVDSL_CACHE_DIR", str(folder))
    parse_cache.forget()
    parse_cache.set_enabled(True)
    for key in parse_cache.stats:
        parse_cache.stats[key] = 0
    yield folder
    parse_cache.forget()


def rule_file(tmp_path: Path, text: str = RULE) -> Path:
    path = tmp_path / "rules.civ"
    path.write_text(text, encoding="utf-8")
    return path


def entries(folder: Path) -> list[Path]:
    return sorted(folder.rglob("*.json"))


def test_a_file_is_parsed_once_then_served_from_memory_and_disk(cache, tmp_path):
    path = rule_file(tmp_path)
    first = parse_cache.parse_file(str(path))
    assert parse_cache.stats == {"parsed": 1, "memory": 0, "disk": 0}
    assert parse_cache.parse_file(str(path)) is first  # the same tree, from memory
    parse_cache.forget()  # as another process would start
    from_disk = parse_cache.parse_file(str(path))
    assert parse_cache.stats == {"parsed": 1, "memory": 1, "disk": 1}
    assert from_disk == parse_text(RULE, str(path)) and from_disk is not first
    assert from_disk.items[0].value.span.file == str(path)


@pytest.mark.parametrize("damage", ["garbage", "truncated", "checksum", "foreign format", "hostile node"])
def test_a_corrupt_or_foreign_entry_is_ignored_and_replaced(cache, tmp_path, damage):
    path = rule_file(tmp_path)
    parse_cache.parse_file(str(path))
    (entry,) = entries(cache)
    head, body = entry.read_bytes().split(b"\n", 1)
    meta = json.loads(head)
    if damage == "garbage":
        entry.write_bytes(b"\x00\xff not a cache entry")
    elif damage == "truncated":
        entry.write_bytes(head + b"\n" + body[: len(body) // 2])
    elif damage == "checksum":
        entry.write_bytes(head + b"\n" + body.replace(b"40", b"41"))
    elif damage == "foreign format":
        meta["format"] = "someone-else/9"
        entry.write_bytes(json.dumps(meta).encode() + b"\n" + body)
    else:  # a well-formed entry naming something that is not a syntax-tree node
        body = json.dumps(["L", ["os.system", "rm -rf /"]]).encode()
        meta["sha256"] = __import__("hashlib").sha256(body).hexdigest()
        entry.write_bytes(json.dumps(meta).encode() + b"\n" + body)
    parse_cache.forget()
    tree = parse_cache.parse_file(str(path))  # no error shown: parsed afresh
    assert tree == parse_text(RULE, str(path))
    assert parse_cache.stats["parsed"] == 2 and parse_cache.stats["disk"] == 0
    parse_cache.forget()
    parse_cache.parse_file(str(path))  # the entry was written again, sound
    assert parse_cache.stats["disk"] == 1


def test_a_changed_file_is_never_served_from_the_cache(cache, tmp_path):
    path = rule_file(tmp_path)
    parse_cache.parse_file(str(path))
    stat = path.stat()
    changed = RULE.replace("40", "41")  # same size; the same modification time below
    path.write_text(changed, encoding="utf-8")
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    tree = parse_cache.parse_file(str(path))
    assert tree.items[0].value.left.value == 41
    parse_cache.forget()
    assert parse_cache.parse_file(str(path)).items[0].value.left.value == 41


def test_syntax_errors_are_reported_every_time_and_never_cached(cache, tmp_path):
    path = rule_file(tmp_path, "param = 3\n")
    for _ in range(2):
        with pytest.raises(CivError) as exc:
            parse_cache.parse_file(str(path))
        assert exc.value.diagnostics[0].code == "SYN001"
    assert not entries(cache)


def test_an_unwritable_cache_folder_is_simply_not_used(cache, tmp_path):
    cache.parent.mkdir(exist_ok=True)
    cache.write_text("a file where the folder should be", encoding="utf-8")
    path = rule_file(tmp_path)
    assert parse_cache.parse_file(str(path)) == parse_text(RULE, str(path))


def test_the_cache_is_pruned_to_its_size_limit(cache, tmp_path, monkeypatch):
    monkeypatch.setattr(parse_cache, "MAX_CACHE_BYTES", 1)
    for i in range(3):
        parse_cache.parse_file(str(rule_file(tmp_path, RULE + f"param p{i} = {i}\n")))
    assert len(entries(cache)) <= 1


def test_no_cache_neither_reads_nor_writes(tmp_path):
    folder = tmp_path / "cache"
    env = dict(os.environ, CIVDSL_CACHE_DIR=str(folder))
    edition = Path(__file__).resolve().parent.parent / "rulesets" / "roll-through-the-ages"
    run = [sys.executable, "-m", "civdsl", "--no-cache", "check", str(edition)]
    assert subprocess.run(run, env=env, capture_output=True, timeout=120).returncode == 0
    assert not folder.exists()
    run.remove("--no-cache")
    assert subprocess.run(run, env=env, capture_output=True, timeout=120).returncode == 0
    assert len(list(folder.rglob("*.json"))) == len(list(edition.glob("*.civ")))  # one entry per rule file
