"""Generator `resource`: one-file editions with work, size and parser bombs, and files near the size
limit. Each shape is one bomb; an input combines one or two."""
from __future__ import annotations

import random
from typing import Callable

from civdsl.api import compile_entry
from civdsl.language.diagnostics import CivError
from civdsl.language.limits import MAX_SOURCE_BYTES

from .core import Case, Seen
from .playing import check_clean, play
from .sandbox import Box

HEAD = ('game "F" { edition: "f" players: 1 }\nglobal var out = 0\nglobal zone pile visible to all\n'
        "die d6 = 1..6\n")
TAIL = "\nsequence { phases: main }\nvictory { max_rounds: 3 }\n"
NUMBERS = [0, 1, 2, 3, 10, 64, 100, 1000, 4095, 4096, 10**4, 10**5, 10**5 + 1, 10**6, 10**9, 10**18, 10**29, -1,
           -(10**29)]


def big(rng: random.Random) -> int:
    """A count: mostly around the bounds, sometimes anything up to 30 digits."""
    return rng.choice(NUMBERS) if rng.random() < 0.8 else rng.randrange(10 ** rng.randint(1, 29))


def length(rng: random.Random) -> int:
    """A chain or nesting length: around the parser's limits (200 brackets, 1,000 levels) or up to 5,000."""
    return rng.choice([10, 100, 199, 200, 201, 500, 998, 999, 1000, 1001, 2000, 5000]) if rng.random() < 0.6 \
        else rng.randint(10, 5000)


def digits(rng: random.Random, n: int) -> str:
    return str(rng.randint(1, 9)) + "".join(str(rng.randrange(10)) for _ in range(n - 1))


# Each shape gives (declarations, statements of the phase) or, with `expr`, an expression that the
# composer places in a param, the phase, the setup, a procedure or a thing's field.

def shape_square(rng):
    return "", f"let x = {rng.choice([2, 3, -2, 10**29, 1])}\nrepeat {big(rng)} times {{ x = x * x }}\nout = x"


def shape_double(rng):
    what = rng.choice(["1", '"ab"', "[1]", "[[1, 2]]", "{a: 1}"])
    return "", f"let x = {what}\nrepeat {big(rng)} times {{ x = x + x }}\nout = len(str(x))"


def shape_text_times(rng):
    text = rng.choice(['"ab"', '"x"', '""', '"é"', '"\\n"'])
    n = big(rng)
    return {"expr": rng.choice([f"len({text} * {n})", f"len({n} * {text})", f"len({text} * {n}.5)",
                                f"len([1, 2] * {n})"])}


def shape_grid(rng):
    n, m = big(rng), big(rng)
    return {"expr": rng.choice([f"len([[a * b for b in 1..{n}] for a in 1..{m}])",
                                f"len([a for a in 1..{n} where a in 1..{m}])",
                                f"sum([len([b for b in 1..{n}]) for a in 1..{m}])"])}


def shape_builtin(rng):
    n = big(rng)
    r = f"(1..{min(n, 10**5)})" if rng.random() < 0.7 else f"range(1, {n})"
    return {"expr": rng.choice([
        f"len(unique({r} + {r}))", f"len(sorted(reversed({r})))", f'len(join([str(i) for i in {r}], "{"x" * rng.randint(0, 40)}"))',
        f"sum({r})", f"max({r})", f"index_of({r}, {n})", f"len(shuffled({r}))", f"len(top({r}, {n}))",
        f"len(str({r}))", f"{n} in {r}", f"len(rolls(d6, {n}))", f"roll(d6, {n})", f"len(keys({{a: {r}}}))",
        f"all([i > 0 for i in {r}])", f"len(str([{r}, {r}, {r}]))", f'int("{"9" * rng.choice([10, 1000, 4000, 5000])}")',
        f"floor({n} / 3)", f"ceil({n}.5)", f"abs(-{n})", f"get({{a: 1}}, \"b\", {r})", f"first(sorted({r}))",
        f"len(entities(\"k\")) + {n}", f"min({n}, {n}, {n})"])}


def shape_while(rng):
    body = rng.choice(["", "out += 1", "let y = [1..1000]", "log \"tick\"", "add 1 to pile"])
    cond = rng.choice(["true", f"out < {big(rng)}", "1 == 1"])
    return "", f"while {cond} {{ {body} }}"


def shape_recursion(rng):
    decl, call = rng.choice([
        ("procedure f(n) { return f(n + 1) }", "f(1)"),
        ("procedure f(n) { return f(n) + f(n) }", "f(1)"),
        ("procedure f(l) { return f(l + l) }", "f([1])"),
        ("procedure f(n) { return g(n) }\nprocedure g(n) { return f(n) }", "f(1)"),
        ("procedure f(n) { if n <= 0 { return 0 } return f(n - 1) + 1 }", f"f({big(rng)})"),
        ("procedure f(n) { repeat 100000 times { out += 1 } return f(n + 1) }", "f(1)"),
    ])
    return decl, f"out = {call}"


def shape_nested_loops(rng):
    k, n = rng.randint(1, 20), rng.choice([1, 2, 10, 100, 1000, 100000])
    return "", "".join(f"repeat {n} times {{\n" for _ in range(k)) + "out += 1\n" + "}\n" * k


def shape_shared_lists(rng):
    """A list built by doubling a reference: tiny in work, astronomically large when walked."""
    n, m = rng.choice([5, 10, 20, 25, 30, 40, 60]), rng.choice([1, 10, 1000, 100000])
    use = rng.choice(["out = len(l)", "out = l", "out = l == l", "out = str(l)", "log \"{l}\"", "out = l in [l]",
                      "out = unique([l, l])", "out = sorted([l, [l[1], l[1]]])", "add l to pile", "out = {a: l}",
                      "out = l == m", "out = l != m", "out = l < m", "out = l in [m]", "out = index_of([m], l)",
                      "out = max(l, m)", "out = unique([l, m])", "out = len([x for x in [l] where x == m])"])
    twin = f"let m = [1..{m}]\nrepeat {n} times {{ m = [m, m] }}\n" if "m" in use.replace("max", "") else ""
    return "", f"let l = [1..{m}]\nrepeat {n} times {{ l = [l, l] }}\n{twin}{use}"


def shape_zone(rng):
    item = rng.choice(["1", "1..100", '"x" * 1000', "[1..1000]", "out"])
    return "", f"repeat {big(rng)} times {{ add {item} to pile }}\nout = len(pile)"


def shape_record(rng):
    return "", f"let r = {{}}\nfor i in 1..{big(rng)} {{ r[str(i)] = i }}\nout = len(keys(r))"


def shape_float(rng):
    start = rng.choice(["1.5", "0." + "0" * 28 + "1", "9" * 29 + ".5", "2.0"])
    use = rng.choice(["floor(f)", "str(f)", "int(f)", "f == f", "len(1..f)", 'len("x" * f)', "[1][f]",
                      "f // 0.0000001", "ceil(f) - floor(f)", "f - f"])
    return "", f"let f = {start}\nrepeat {rng.choice([1, 5, 10, 20, 100])} times {{ f = f * f }}\nout = {use}"


def shape_log(rng):
    return "", (f'let t = "x" * {rng.choice([10, 1000, 10**6])}\n'
                f'repeat {big(rng)} times {{ log "{{t}}{{t}}" }}')


def shape_choice(rng):
    return "", f'let c = player chooses "pick" from 1..{big(rng)}\nout = c'


def shape_counter(rng):
    return "player counter c = 0\n", f"repeat {rng.choice([1, 10, 1000])} times {{ player.c += {big(rng)} * {big(rng)} }}"


def shape_die(rng):
    return f"die big = 1..{big(rng)}\n", f"out = roll(big, {big(rng)})"


def shape_deep(rng):
    n = length(rng)
    return {"expr": rng.choice(["(" * n + "1" + ")" * n, "[" * n + "]" * n, "len(" * n + "[]" + ")" * n,
                                "{a: " * n + "1" + "}" * n, "-" * n + "1", "not " * n + "true",
                                "if true then " * n + "1" + " else 2" * n])}


def shape_chain(rng):
    n = length(rng)
    op = rng.choice([" + ", " - ", " * ", " // ", " and ", " or ", " == ", " < ", " .. "])
    return {"expr": rng.choice([op.join(["1"] * n), "{a: {a: 1}}" + ".a" * n, "[[1]]" + "[1]" * n,
                                " + ".join(['"a"'] * n), "[" + ", ".join(["1"] * n * 10) + "]",
                                "{" + ", ".join(f"k{i}: {i}" for i in range(n)) + "}", "max(" + ", ".join(["1"] * n) + ")"])}


def shape_call_chain(rng):
    n = length(rng)
    return "procedure f() { return f }\n", f"out = f{'()' * n}"


def shape_deep_blocks(rng):
    n = rng.choice([10, 100, 199, 200, 201, 300, 1000])
    opener = rng.choice(["if true {", "repeat 1 times {", "for i in [1] {", "while false {"])
    return "", f"{opener}\n" * n + "out += 1\n" + "}\n" * n


def shape_statements(rng):
    n = rng.choice([100, 1000, 10000, 50000])
    return "", "".join(f"let v{i} = {i}\n" if rng.random() < 0.5 else "out += 1\n" for i in range(n))


def shape_number(rng):
    n = rng.randint(1, 500) if rng.random() < 0.5 else rng.choice([29, 30, 31, 500])
    k = rng.randint(1, n)
    return {"expr": rng.choice([digits(rng, n), digits(rng, k) + "." + digits(rng, n), "0" * n + "1",
                                "-" + digits(rng, n), "1." + "0" * n])}


def shape_text(rng):
    n = rng.choice([10, 1000, 10**5, 10**6, 1_999_000, 2_000_001]) if rng.random() < 0.7 else rng.randint(1, 2 * 10**6)
    unit = rng.choice(["a", "é", "\\\"", "\\\\", "\\n", "{", "🙂", " "])
    return {"expr": f'len("{unit * (n // len(unit.encode()))}")'}


def shape_declarations(rng):
    """Many small declarations: a large legal file (parsing and checking must stay fast)."""
    n = rng.choice([1000, 10000, 30000, 60000, 120000])
    form = rng.choice(["param p{i} = {i}\n", "param q{i} = out + 1 + 2 + 3\n", "procedure f{i}() {{ return {i} }}\n",
                       "global var v{i} = [{i}]\n"])
    return "".join(form.format(i=i) for i in range(n)), "out = 1"


RESOURCE_SHAPES: dict[str, tuple[Callable, int, bool]] = {  # name: (shape, weight, heavy: allocates or runs long)
    "square": (shape_square, 4, True), "double": (shape_double, 4, True), "text-times": (shape_text_times, 4, True),
    "grid": (shape_grid, 4, True), "builtin": (shape_builtin, 8, True), "while": (shape_while, 3, True),
    "recursion": (shape_recursion, 3, True), "nested-loops": (shape_nested_loops, 3, True),
    "shared-lists": (shape_shared_lists, 2, True), "zone": (shape_zone, 2, True), "record": (shape_record, 1, True),
    "float": (shape_float, 3, True), "log": (shape_log, 2, True), "choice": (shape_choice, 2, True),
    "counter": (shape_counter, 2, True), "die": (shape_die, 1, True),
    "deep": (shape_deep, 8, False), "chain": (shape_chain, 8, False), "call-chain": (shape_call_chain, 2, False),
    "deep-blocks": (shape_deep_blocks, 3, False), "statements": (shape_statements, 1, False),
    "number": (shape_number, 6, False), "text": (shape_text, 4, False),
    "declarations": (shape_declarations, 1, True),  # (slow rather than heavy: a file of 60,000 declarations)
}
PLACES = ["param", "phase", "setup", "procedure", "thing", "score"]


def place_expr(expr: str, where: str) -> tuple[str, str]:
    """Put an expression where rules may evaluate one: (declarations, phase statements)."""
    if where == "param":
        return f"param p = {expr}\n", "out = p"
    if where == "setup":
        return f"setup {{\n  out = {expr}\n}}\n", "out = 1"
    if where == "procedure":
        return f"procedure f() {{\n  return {expr}\n}}\n", "out = f()"
    if where == "thing":
        return f'kind k {{ v: any }}\nk "T" {{ v: {expr} }}\n', 'out = "T".v'
    if where == "score":
        return "", f"out = 1\n}}\nvictory {{ score: {expr} }}\nphase other {{ out = 2"
    return "", f"out = {expr}"


def resource_case(rng: random.Random, index: int, light: bool = False) -> Case:
    """A one-file edition made of one or two shapes; `light` keeps to the parser-level shapes (small
    allocations: safe to run in the test process)."""
    names = [n for n, (_, _, heavy) in RESOURCE_SHAPES.items() if not (light and heavy)]
    chosen = rng.choices(names, [RESOURCE_SHAPES[n][1] for n in names], k=rng.choice([1, 1, 1, 2]))
    decls, body, labels = [], [], []
    for name in chosen:
        made = RESOURCE_SHAPES[name][0](rng)
        if isinstance(made, dict):
            where = rng.choice(PLACES)
            made = place_expr(made["expr"], where)
            name = f"{name}@{where}"
        decls.append(made[0])
        body.append(made[1])
        labels.append(name)
    text = HEAD + "".join(decls) + "\nphase main {\n" + "\n".join(body) + "\n}\n" + TAIL
    if "score" in " ".join(labels):
        text = text.replace("sequence { phases: main }\nvictory { max_rounds: 3 }", "sequence { phases: main, other }")
    text = resize(text, rng)
    return Case(index, "resource", "resource/" + "+".join(sorted(labels)), {"text": text})


def resize(text: str, rng: random.Random) -> str:
    """Sometimes pad the file with a comment to just under, at, or over the size limit."""
    if rng.random() > 0.06:
        return text
    target = rng.choice([MAX_SOURCE_BYTES - 1_000, MAX_SOURCE_BYTES, MAX_SOURCE_BYTES + 1, 2 * MAX_SOURCE_BYTES,
                         10 * MAX_SOURCE_BYTES])
    unit = rng.choice(["x", "é"])
    room = max(0, target - len(text.encode()) - 3)
    return text + "# " + unit * (room // len(unit.encode())) + "\n"


def judge_resource(case: Case, box: Box, seen: Seen) -> None:
    """Check the edition (which evaluates its constants); play it if it checks."""
    entry = box.write(case, box.sandbox / "rulesets" / "f" / "game.civ", case.params["text"])
    if check_clean([str(entry.parent)], seen):
        try:
            program = compile_entry(entry)
        except CivError as exc:
            seen.diagnostics(exc.diagnostics)
            return
        play(program, seen)
