"""Compile the effective rules (`Ruleset`) into a `Program`: declarations checked, rules written as
Python functions.

Name resolution happens here, so unknown names, wrong arity and misuse of declarations are reported as
diagnostics before any game starts (the checker collects them). Declarations become the program's
data (dice, tables, things, phases); procedures, steps, blocks and expressions become generated
Python functions (`emit.py`), compiled when a game first needs them (`Program.build`). The functions
know nothing of any game: they read and write the generic state through the running `Game`.
"""
from __future__ import annotations

from ..engine.builtins import REGISTRY
from ..engine.mapdata import load_map
from ..engine.program import CompiledPhase, Program
from ..engine.values import Callable_, Die, EntityObj, LazyField, TableValue
from ..language import ast as A
from ..language.diagnostics import CivError, Diagnostic, Span
from ..language.limits import collector_paused, room_to_recurse
from ..language.loader import Ruleset, resolve_inside
from ..language.names import suggest
from .emit import Emitter
from .module import ModuleBuilder
from .views import compile_decision_texts, compile_headlines, compile_views

KIND_TYPES = {"int", "number", "text", "bool", "any", "block", "list", "record"}


class Compiler:
    """Turns declarations into closures and diagnostics."""

    def __init__(self, rs: Ruleset, prog: Program | None = None, module: ModuleBuilder | None = None):
        """`prog` and `module`: compile more expressions for an already compiled program."""
        self.rs = rs
        self.diags: list[Diagnostic] = []
        self.prog = prog or Program(rs)
        self.module = module or ModuleBuilder()
        if prog is None:
            self.prog.module = self.module
            self.module.ns["_prog"] = self.prog
        self.emit = Emitter(self, self.module)
        self.decls: dict[type, list] = {}
        for d in rs.decls.values():
            self.decls.setdefault(type(d), []).append(d)
        self.globals: dict[str, str] = {}
        self.player_fields: dict[str, str] = {}
        self.used: set[str] = set()          # global names and player fields the rules read or write
        self.strings: set[str] = set()       # text literals: names used dynamically (`player[name]`)
        self.choose_tags: set[str] = set()
        self.procedure_decls: dict[str, A.Procedure] = {}
        self.phase_names = {d.name for d in self.of(A.Phase)}

    def of(self, cls) -> list:
        """The effective declarations of one kind, in load order."""
        return self.decls.get(cls, [])

    # -- generated functions -----------------------------------------------------------------------
    def fn(self, e: A.Expr, names: list[str], setter, players=()) -> None:
        """An expression as a function of the context, given to `setter` when the program is built;
        `players`: the names among `names` certain to hold a player."""
        self.module.bind(self.emit.expression(e, names, players), setter)

    def slot(self, target: list, index: int, e: A.Expr, names: list[str], players=()) -> None:
        """Compile `e` into `target[index]`."""
        self.fn(e, names, lambda f: target.__setitem__(index, f), players)

    # -- diagnostics -----------------------------------------------------------------------------
    def err(self, code: str, msg: str, span: Span | None, hint: str | None = None, related=None):
        self.diags.append(Diagnostic(code, msg, span, "error", hint, list(related or [])))

    def warn(self, code: str, msg: str, span: Span | None, hint: str | None = None):
        self.diags.append(Diagnostic(code, msg, span, "warning", hint))

    # -- entry -----------------------------------------------------------------------------------
    def compile(self) -> Program:
        rs, prog = self.rs, self.prog
        self._declare_globals()
        self._known_procedures()
        # values that expressions embed as constants exist before any expression is compiled, so a
        # parameter may use a table, a die or a procedure declared after it
        for d in self.of(A.Die):
            prog.dice[d.name] = Die(d.name, [])
            prog.die_spans[d.name] = d.span
        for d in self.of(A.Table):
            die = prog.dice.get(d.die) if d.die else None
            if d.die:
                self.used.add(d.die)
            if d.die and die is None:
                self.err("UNK001", f"unknown die `{d.die}`", d.span, self.did_you_mean(d.die, prog.dice))
            prog.tables[d.name] = TableValue(d.name, die, [])
        for d in self.of(A.Kind):
            self._kind(d)
        for d in self.of(A.Entity):
            self._entity_shell(d)
        # expressions and bodies, now that every name is known
        for d in self.of(A.Param):
            entry = [d.name, None, d.span]
            prog.params.append(entry)
            self.slot(entry, 1, d.value, [])
        for d in self.of(A.Counter):
            entry = prog.counters[(d.scope, d.name)] = [None, None, None, d.span]
            if d.lo is not None:
                self.slot(entry, 0, d.lo, [])
            if d.hi is not None:
                self.slot(entry, 1, d.hi, [])
            self.slot(entry, 2, d.init, ["player"])
            if isinstance(d.init, A.Literal):
                prog.literal_inits[(d.scope, d.name)] = d.init.value
        for d in self.of(A.Var):
            entry = prog.vars[(d.scope, d.name)] = [None, d.span]
            self.slot(entry, 0, d.init, ["player"])
        for d in self.of(A.Counter) + self.of(A.Var):
            if d.visibility != "all":
                prog.secrets[(d.scope, d.name)] = d.visibility
        for d in self.of(A.Zone):
            prog.zones[(d.scope, d.name)] = d.visibility
        for d in self.of(A.Track):
            self._track(d)
        for d in self.of(A.MapDecl):
            try:
                prog.maps[d.name] = load_map(resolve_inside(d.span.file, d.path, rs.root_of(d.span.file), d.span, "map"), d.span)
            except CivError as exc:
                self.diags.extend(exc.diagnostics)
        self._constant_values()
        for d in self.of(A.Entity):
            self._entity_body(d)
        for d in self.of(A.Procedure):
            self._procedure(d)
        for d in self.of(A.Phase):
            self._phase(d)
        seqs = self.of(A.Sequence)
        if not seqs:
            self.err("SEQ001", "the ruleset has no `sequence` block", Span(self.rs.entry, 1, 1),
                     "declare the round: `sequence { phases: a, b, c }`")
        else:
            self._sequence(seqs[0])
        setups = self.of(A.Setup)
        if setups:
            setup = setups[0]
            self.module.bind(self.emit.step(setup, "_setup", setup.body, [], setup.span),
                             lambda f: setattr(prog, "setup", f))
        for d in self.of(A.Victory):
            self._victory(d)
        for d in self.of(A.Heuristic):
            self.fn(d.expr, ["player", "option"], lambda f, name=d.name: prog.heuristics.__setitem__(name, f),
                    ["player"])
        compile_views(self)
        compile_decision_texts(self)
        compile_headlines(self)
        for d in self.of(A.Invariant):
            entry = [d.name, None, d.span]
            prog.invariants.append(entry)
            self.slot(entry, 1, d.expr, [])
        self._game_block()
        self._lint()
        return prog

    def _lint(self):
        """Warnings for declarations no rule uses (suppress with `# civdsl: ignore[CODE]`)."""
        used = self.used | self.strings | self._listed_things()
        rs = self.rs
        for cls, what in ((A.Param, "parameter"), (A.Die, "die"), (A.Table, "table"), (A.Procedure, "procedure"),
                          (A.Counter, "counter"), (A.Var, "variable"), (A.Zone, "zone")):
            for d in self.of(cls):
                if d.name in used:
                    continue
                changed = [note for _, note in rs.history.get(d.key(), []) if note in ("replaced", "modified")]
                if cls is A.Param and changed:
                    self.warn("LNT006", f"parameter `{d.name}` is {changed[-1]} but no rule reads it", d.span,
                              "the override has no effect; check the name")
                else:
                    self.warn("LNT001", f"{what} `{d.name}` is never used", d.span,
                              "remove it, or use it in a rule")
        for d in self.of(A.Heuristic):
            if d.name not in self.choose_tags:
                self.warn("LNT002", f"heuristic for \"{d.name}\", but no rule asks a decision with that tag", d.span,
                          self.did_you_mean(d.name, self.choose_tags) and
                          f"did you mean \"{suggest(d.name, self.choose_tags)}\"?")
        for d in self.of(A.DecisionText):
            if d.name not in self.choose_tags:
                self.warn("LNT007", f"words for decision \"{d.name}\", but no rule asks a decision with that tag",
                          d.span, self.did_you_mean(d.name, self.choose_tags) and
                          f"did you mean \"{suggest(d.name, self.choose_tags)}\"?")
        for kind, names in self.prog.by_kind.items():
            if kind in self.strings:
                continue  # enumerated with entities("kind")
            for name in names:
                if name not in self.strings:
                    ent = self.prog.entities[name]
                    self.warn("LNT003", f"{kind} \"{name}\" is never named by any rule, so no rule can use or grant it",
                              ent.span, f"name it somewhere, or enumerate the kind with entities(\"{kind}\")")

    def _listed_things(self) -> set[str]:
        """The names of the things of every kind the rules list with `entities("kind")`: a rule may use
        each as a name held in a text (`p[b]` for `b` in `entities("box")`, a player variable per box)."""
        return {name for kind, names in self.prog.by_kind.items() if kind in self.strings for name in names}

    def _declare_globals(self):
        table = [(A.Param, "param"), (A.Die, "die"), (A.Table, "table"), (A.MapDecl, "map"),
                 (A.Procedure, "procedure")]
        for cls, kind in table:
            for d in self.of(cls):
                self._global(d.name, kind, d.span)
        for d in self.of(A.Counter) + self.of(A.Var) + self.of(A.Zone):
            kind = type(d).__name__.lower()
            if d.scope == "global":
                self._global(d.name, kind, d.span)
            else:
                if d.name in self.player_fields:
                    self.err("DUP002", f"player field `{d.name}` is declared twice", d.span)
                self.player_fields[d.name] = kind
        for d in self.of(A.Track):
            self.player_fields[d.name] = "counter"
            self._global(d.name, "track", d.span)

    def _global(self, name: str, kind: str, span: Span):
        if name in self.globals:
            self.err("DUP002", f"`{name}` is declared twice (as {self.globals[name]} and {kind})", span,
                     "every global name must be unique")
            return
        if name in REGISTRY or name in ("players", "player", "round", "num_players", "this", "option"):
            self.err("DUP003", f"`{name}` is a built-in name and cannot be redeclared", span)
            return
        self.globals[name] = kind

    def _known_procedures(self):
        """Every procedure as a value (calls may come before the declaration)."""
        for d in self.of(A.Procedure):
            self.procedure_decls[d.name] = d
            if d.name not in self.prog.procedures:
                self.prog.procedures[d.name] = Callable_(d.name, d.params, None, d.span)

    def value_field(self, thing: str, name: str) -> bool:
        """Whether the declared thing `thing` has the value field `name` (not a block) by its kind."""
        ent = self.prog.entities.get(thing)
        kind = self.prog.kinds.get(ent.kind) if ent is not None else None
        return kind is not None and any(f.name == name and f.type[0] != "block" for f in kind.fields)

    def _procedure(self, d: A.Procedure):
        callable_ = self.prog.procedures[d.name]
        fname = self.emit.procedure(d, d.name, d.params, d.body, d.span)
        self.module.bind(fname, lambda f: setattr(callable_, "fn", f))

    def did_you_mean(self, name, candidates) -> str | None:
        guess = suggest(name, candidates)
        return f"did you mean `{guess}`?" if guess else None

    # -- data declarations -------------------------------------------------------------------------
    def _track(self, d: A.Track):
        fields = {f.name: f for f in d.fields}
        spaces = fields.get("spaces")
        if spaces is None:
            self.err("TRK001", f"track `{d.name}` has no `spaces`", d.span, "add `spaces: [...]`")
            return
        entry = [d.name, None, d.span]
        self.prog.params.append(entry)
        self.slot(entry, 1, spaces.value, [])
        start = fields.get("start")
        counter = self.prog.counters[("player", d.name)] = [None, None, None, d.span]
        self.slot(counter, 0, A.Literal(0, d.span), [])
        self.slot(counter, 1, A.BinOp("-", A.Call(A.Name("len", d.span), [A.Name(d.name, d.span)], d.span),
                                      A.Literal(1, d.span), d.span), [])
        self.slot(counter, 2, start.value if start else A.Literal(0, d.span), [])

    def _kind(self, d: A.Kind):
        if d.name in self.prog.kinds:
            self.err("DUP002", f"kind `{d.name}` declared twice", d.span)
        for f in d.fields:
            base = f.type[0]
            if base not in KIND_TYPES and base != "ref":
                self.err("TYP001", f"unknown field type `{base}`", f.span,
                         "types: int, number, text, bool, any, block, record, list of T, ref KIND")
        self.prog.kinds[d.name] = d
        self.prog.by_kind.setdefault(d.name, [])

    def _entity_shell(self, d: A.Entity):
        prog = self.prog
        kind = prog.kinds.get(d.kind)
        if kind is None:
            self.err("UNK002", f"unknown kind `{d.kind}` for `{d.name}`", d.span,
                     self.did_you_mean(d.kind, prog.kinds) or f"declare it: `kind {d.kind} {{ ... }}`")
            return
        if d.name in prog.entities:
            prev = prog.entities[d.name]
            self.err("DUP001", f"`{d.name}` is declared twice (as {prev.kind} and {d.kind})", d.span,
                     "names of things must be unique across kinds", [(prev.span, "first declared here")])
            return
        prog.entities[d.name] = EntityObj(d.kind, d.name, {}, d.span)
        prog.by_kind[d.kind].append(d.name)

    def _entity_body(self, d: A.Entity):
        prog = self.prog
        ent = prog.entities.get(d.name)
        kind = prog.kinds.get(d.kind)
        if ent is None or kind is None or ent.span is not d.span:
            return
        schema = {f.name: f for f in kind.fields}
        given = {f.name: f for f in d.fields}
        blocks = {b.name: b for b in d.blocks}
        for name in list(given) + list(blocks):
            if name not in schema:
                self.err("FLD001", f"{d.kind} `{d.name}` has no field `{name}`",
                         (given.get(name) or blocks[name]).span,
                         self.did_you_mean(name, schema) or f"fields of {d.kind}: {', '.join(schema) or 'none'}")
        for name, kf in schema.items():
            is_block = kf.type[0] == "block"
            if name in blocks:
                if not is_block:
                    self.err("TYP002", f"field `{name}` of {d.kind} is a value, not a block", blocks[name].span,
                             f"write `{name}: value`")
                    continue
                b = blocks[name]
                block = ent.fields[name] = Callable_(f"{d.name}.{name}", b.params, None, b.span, this=d.name)
                fname = self.emit.procedure(b, block.name, b.params, b.body, b.span, this=d.name)
                self.module.bind(fname, lambda f, block=block: setattr(block, "fn", f))
            elif name in given:
                if is_block:
                    self.err("TYP002", f"field `{name}` of {d.kind} is a block", given[name].span,
                             f"write `{name}(...) {{ ... }}`")
                    continue
                self._lazy_field(ent, name, kf, given[name].value, given[name].span)
            elif kf.default is not None:
                self._lazy_field(ent, name, kf, kf.default, kf.span)
            elif is_block:
                ent.fields[name] = None
            else:
                self.err("FLD002", f"{d.kind} `{d.name}` lacks the field `{name}`", d.span,
                         f"add `{name}: ...` (the kind declares no default)")

    def _lazy_field(self, ent: EntityObj, name: str, kf: A.KindField, e: A.Expr, span: Span) -> None:
        lf = ent.fields[name] = LazyField(None, kf, span, ent, name)
        self.prog.lazy_fields.append(lf)
        self.fn(e, [], lambda f: setattr(lf, "fn", f))

    def _constant_values(self):
        """Dice faces and table rows are evaluated once params are known (in `Game.init`)."""
        prog = self.prog
        for d in self.of(A.Die):
            self.fn(d.faces, [], lambda f, name=d.name: prog.die_sources.__setitem__(name, f))
        for d in self.of(A.Table):
            rows = prog.table_sources[d.name] = [[r.lo, r.hi, None] for r in d.rows]
            for row, r in zip(rows, d.rows):
                self.slot(row, 2, r.value, [])

    # -- turn structure ----------------------------------------------------------------------------
    def _phase(self, d: A.Phase):
        players = [] if d.order is not None and d.order.mode == "once" else ["player"]  # once: player is none
        keys = [None] * len(d.order.keys if d.order else [])
        for i, k in enumerate(d.order.keys if d.order else []):
            self.slot(keys, i, k, ["player"], ["player"])
        steps = []
        seen: dict[str, Span] = {}
        for s in d.steps:
            if s.name in seen:
                self.err("DUP002", f"step `{s.name}` appears twice in phase `{d.name}`", s.span,
                         related=[(seen[s.name], "first here")])
            seen[s.name] = s.span
            step = [s.name, s.title or s.name, None, s.span]
            steps.append(step)
            fname = self.emit.step(s, f"_st_{d.name}_{s.name}", s.body, ["player"], s.span, players)
            self.module.bind(fname, lambda f, step=step: step.__setitem__(2, f))
        phase = self.prog.phases[d.name] = CompiledPhase(d.name, d.title or d.name, d.order, keys, None, steps, d.span)
        if d.when is not None:
            self.fn(d.when, ["player"], lambda f: setattr(phase, "when", f), players)

    def _sequence(self, d: A.Sequence):
        self.prog.sequence = d
        if d.turns is not None:
            self.prog.turn_keys = [None] * len(d.turns.keys)
            for i, k in enumerate(d.turns.keys):
                self.slot(self.prog.turn_keys, i, k, ["player"], ["player"])
        listed = set()
        for name, span in d.phases:
            listed.add(name)
            if name not in self.prog.phases:
                self.err("UNK003", f"unknown phase `{name}` in the sequence", span,
                         self.did_you_mean(name, self.prog.phases))
        for name, ph in self.prog.phases.items():
            if name not in listed:
                self.warn("SEQ002", f"phase `{name}` is never played: it is not in the sequence", ph.span,
                          "add it to `sequence { phases: ... }` or remove it")

    def _victory(self, d: A.Victory):
        known = {"check": "name", "finish": "name", "winner": "player", "game_over": "global",
                 "rank": "player", "max_rounds": "global", "score": "player", "breakdown": "player",
                 "summary": "player", "label": "player", "why": "player"}
        for f in d.fields:
            mode = known.get(f.name)
            if mode is None:
                self.err("VIC001", f"unknown victory field `{f.name}`", f.span,
                         self.did_you_mean(f.name, known) or f"fields: {', '.join(known)}")
            elif mode == "name":
                v = f.value
                allowed = {"check": ("turn", "phase", "round"), "finish": ("immediately", "round")}[f.name]
                if not isinstance(v, A.Name) or v.id not in allowed:
                    self.err("VIC002", f"`{f.name}` is one of: {', '.join(allowed)}", f.span)
                else:
                    self.prog.victory[f.name] = [v.id, f.span]
            elif f.name in ("rank", "breakdown"):
                items = f.value.items if isinstance(f.value, A.ListLit) else None
                if f.name == "breakdown":
                    if not isinstance(f.value, A.RecordLit):
                        self.err("VIC003", "`breakdown` is a record of per-player expressions", f.span)
                        continue
                    fns = [[k, None] for k in f.value.keys]
                    for pair, v in zip(fns, f.value.values):
                        self.slot(pair, 1, v, ["player"], ["player"])
                    self.prog.victory[f.name] = [fns, f.span]
                    continue
                if items is None:
                    items = [f.value]
                fns = [None] * len(items)
                for i, item in enumerate(items):
                    self.slot(fns, i, item, ["player"], ["player"])
                self.prog.victory[f.name] = [fns, f.span]
            else:
                entry = self.prog.victory[f.name] = [None, f.span]
                names = ["player"] if mode == "player" else []
                self.slot(entry, 0, f.value, names, names)

    def _game_block(self):
        g = self.rs.game
        if g is None:
            self.err("GAM001", "the ruleset has no `game` block", Span(self.rs.entry, 1, 1),
                     'add `game "Title" { edition: "name" players: 1..4 }`')
            return
        known = {"edition", "players", "sources", "version", "description", "notes"}
        for f in g.fields:
            if f.name not in known:
                self.warn("GAM002", f"unknown game field `{f.name}`", f.span,
                          self.did_you_mean(f.name, known) or f"fields: {', '.join(sorted(known))}")



def compile_ruleset(rs: Ruleset) -> tuple[Program, list[Diagnostic]]:
    """Compile; return the program (its functions compiled when a game calls them) and every
    diagnostic found. A rule compiled before in this process, in the same surroundings, is not
    written again (see `emit.Unit`): an edition's options and house rules cost only what they change."""
    comp = Compiler(rs)
    with room_to_recurse(), collector_paused():  # (the emitter walks expressions recursively)
        prog = comp.compile()
    return prog, sorted(comp.diags, key=Diagnostic.sort_key)


def compile_expression(prog: Program, expr: A.Expr, names: list[str]):
    """One more expression for an already compiled program (a scenario's `call`): its function of the
    context, with `names` as locals read from `c.locals`. Raises `CivError` for its errors."""
    prog.build()
    comp = Compiler(prog.ruleset, prog, ModuleBuilder(prog.module.ns))
    comp._declare_globals()
    comp._known_procedures()
    with room_to_recurse():
        fname = comp.emit.expression(expr, names)
    errors = [d for d in comp.diags if d.severity == "error"]
    if errors:
        raise CivError(errors)
    comp.module.build()
    return comp.module.ns[fname]
