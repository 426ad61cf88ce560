"""Generator `logs`: tampered game logs for `replay` (header fields, huge and deep lines, NaN, bad
decisions, odd encodings)."""
from __future__ import annotations

import json
import random

from civdsl.tools.gamelog import replay

from .core import Case, Seen
from .sandbox import Box


def hostile_json(rng: random.Random) -> str:
    """A JSON value of a surprising type, size or depth (as text: NaN and huge numbers included)."""
    n = rng.choice([10, 1000, 10**5])
    return rng.choice([
        "null", "true", "false", "0", "-1", "1.5", "1e400", "NaN", "Infinity", "-Infinity", "9" * rng.choice([19, 5000]),
        '""', '"\\u0000"', '"\\ud800"', '"' + "x" * rng.choice([10, 10**6]) + '"', "[]", "{}", '["random"]',
        "[" * n + "]" * n, '{"a":' * min(n, 10**4) + "1" + "}" * min(n, 10**4), "[" + ",".join(['"a"'] * n) + "]",
        "{" + ",".join(f'"k{i}":1' for i in range(n)) + "}", '["../../etc/passwd"]', '["/proc/self/environ"]',
        '"/etc/passwd"', '"@OUT@/secret.civ"', '[null]', '[1]', '[["a"]]', '"P1"', '"P99"',
    ])


def tamper_header(lines: list[str], rng: random.Random) -> tuple[str, list[str]]:
    head = json.loads(lines[0])
    key = rng.choice(list(head) + ["choices", "house_rules", "unknown"])
    op = rng.choice(["set", "set", "drop", "duplicate"])
    if op == "drop":
        head.pop(key, None)
        return f"drop-{key}", [json.dumps(head)] + lines[1:]
    body = json.dumps({k: v for k, v in head.items() if k != key})[:-1]
    value = hostile_json(rng)
    if op == "duplicate":
        return f"duplicate-{key}", [body + f', "{key}": {json.dumps(head.get(key))}, "{key}": {value}}}'] + lines[1:]
    return f"set-{key}", [body + f', "{key}": {value}}}'] + lines[1:]


def tamper_decision(lines: list[str], rng: random.Random) -> tuple[str, list[str]]:
    where = [i for i, line in enumerate(lines) if '"type":"decision"' in line] or [len(lines) - 1]
    i = rng.choice(where)
    event = json.loads(lines[i])
    key = rng.choice(["choice", "options", "player", "type", "value"])
    body = json.dumps({k: v for k, v in event.items() if k != key})[:-1]
    return f"decision-{key}", lines[:i] + [body + f', "{key}": {hostile_json(rng)}}}'] + lines[i + 1:]


def tamper_lines(lines: list[str], rng: random.Random) -> tuple[str, list[str]]:
    i = rng.randrange(1, len(lines))
    op = rng.choice(["huge-line", "deep-line", "not-object", "delete", "duplicate", "swap", "truncate", "blank",
                     "many-lines", "header-twice", "no-header", "nan-event", "bad-event"])
    if op == "huge-line":
        return op, lines[:i] + ['{"type":"log","text":"' + "x" * rng.choice([10**6, 10**7, 3 * 10**7]) + '"}'] + lines[i:]
    if op == "deep-line":
        n = rng.choice([100, 1000, 10**4, 10**5])
        return op, lines[:i] + ["[" * n + "]" * n if rng.random() < 0.5 else '{"a":' * n + "1" + "}" * n] + lines[i:]
    if op == "not-object":
        return op, lines[:i] + [rng.choice(["[]", "1", '"x"', "null", "{", "NaN", "\x00"])] + lines[i:]
    if op == "delete":
        return op, lines[:i] + lines[i + 1:]
    if op == "duplicate":
        return op, lines[:i] + [lines[i]] + lines[i:]
    if op == "swap":
        j = rng.randrange(1, len(lines))
        lines = list(lines)
        lines[i], lines[j] = lines[j], lines[i]
        return op, lines
    if op == "truncate":
        text = "\n".join(lines)
        return op, text[: rng.randrange(len(text))].split("\n")
    if op == "blank":
        return op, lines[:i] + ["", "   ", "\t"] + lines[i:]
    if op == "many-lines":
        return op, lines + ['{"type":"log","text":"x"}'] * rng.choice([1000, 10**5, 10**6])
    if op == "header-twice":
        return op, [lines[0]] + lines
    if op == "no-header":
        return op, lines[1:]
    if op == "nan-event":
        return op, lines[:i] + ['{"type":"set","target":"x","value":NaN,"round":Infinity}'] + lines[i:]
    return op, lines[:i] + ['{"type":' + hostile_json(rng) + ',"round":' + hostile_json(rng) + "}"] + lines[i:]


def logs_case(rng: random.Random, index: int) -> Case:
    """A list of tampering operations; the judge applies them to its real base log."""
    ops = [rng.choice(["header", "header", "decision", "lines", "lines", "encoding"]) for _ in range(rng.randint(1, 2))]
    return Case(index, "logs", "logs/" + "+".join(sorted(set(ops))), {"ops": ops, "seed": rng.getrandbits(32)})


def tamper(lines: list[str], ops: list[str], rng: random.Random) -> tuple[list[str], bytes]:
    """The base log with the operations applied; (names of what was done, the file's bytes)."""
    done, encoding = [], None
    for op in ops:
        try:
            if op == "header":
                name, lines = tamper_header(lines, rng)
            elif op == "decision":
                name, lines = tamper_decision(lines, rng)
            elif op == "lines":
                name, lines = tamper_lines(lines, rng) if len(lines) > 1 else ("none", lines)
            else:
                name = encoding = rng.choice(["bom", "utf-16", "latin-1-bytes", "crlf", "no-final-newline", "nul"])
        except (ValueError, IndexError, AttributeError, TypeError, RecursionError):  # no JSON left to tamper with
            name = f"{op}-skipped"
        done.append(name)
    raw = ("\n".join(lines) + "\n").encode("utf-8", errors="surrogatepass")
    if encoding == "bom":
        raw = b"\xef\xbb\xbf" + raw
    elif encoding == "utf-16":
        raw = raw.decode("utf-8", errors="replace").encode("utf-16")
    elif encoding == "latin-1-bytes":
        raw = raw.replace(b"P1", b"P\xe9\xff", 3)
    elif encoding == "crlf":
        raw = raw.replace(b"\n", b"\r\n")
    elif encoding == "no-final-newline":
        raw = raw.rstrip(b"\n")
    elif encoding == "nul":
        raw = raw.replace(b",", b",\x00", 2)
    return done, raw


def judge_logs(case: Case, box: Box, seen: Seen) -> None:
    done, raw = tamper(box.base_log, case.params["ops"], random.Random(case.params["seed"]))
    case.params["done"] = done
    path = box.write(case, box.folders["logs"] / "t.jsonl", raw.replace(b"@OUT@", str(box.outside).encode()))
    ok, message = replay(str(path))
    seen.output(message)
