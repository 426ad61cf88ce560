"""What the type checker knows of a compiled ruleset before it walks any rule: the global names and
what they are, the kinds and their field types, the things, the declared annotations, and the names
that a field or key may have at all (`universe`, for values of unknown type).
"""
from __future__ import annotations

from ...language import ast as A
from ..compiler import KIND_TYPES
from . import types as T
from .annotations import resolve

_BUILTIN_ATTRS = {"name", "kind", "faces", "owner", "seat", "index"}


def _outside_data(e: A.Expr, t: T.Ty) -> T.Ty:
    """A param declared empty (`[]`, `{}`) is data that house rules, configs and scenarios fill in
    (`modify param leaving_players { value: [{seat: 3, round: 6}] }`): what it holds is not checked."""
    if isinstance(e, A.ListLit) and not e.items:
        return T.list_of(T.OPAQUE)
    if isinstance(e, A.RecordLit) and not e.keys:
        return T.OPAQUE
    return t


_NODE_TYPES = {cls for cls in vars(A).values() if isinstance(cls, type) and hasattr(cls, "__dataclass_fields__")}
_SKIP = {"span", "name", "id", "op", "ops", "tag", "kind", "path", "title", "scope", "visibility", "message", "var",
         "mode", "die", "of", "type", "param_types", "params", "exact"}   # (slots that never hold a node)
_CHILD_SLOTS: dict[type, tuple] = {A.Literal: (), A.RecordLit: ("values",), A.Name: ()}  # (slots holding nodes)


_SCANNED: dict[int, tuple] = {}   # id(declaration) -> (the declaration, what `scanned` found)
MAX_SCANNED = 50_000
_SLIPS: dict[frozenset, dict] = {}   # names of areas and things -> `Env.slip_index` of them (editions share it)


def scanned(d) -> list[tuple]:
    """What one declaration tells of names, per part of it (a field, a block, a step; the whole of
    other declarations): tuples of (record keys and identifier-like texts, keys assigned by
    `r["k"] = ..`, attribute names read other than as calls, globals assigned). Remembered per part
    (`_SCANNED`): an edition's options and house rules share most of them with it, also where an overlay
    modified the declaration. Tuples of texts, not sets: kept for the whole check, and the garbage
    collector stops looking at tuples of texts."""
    parts = _parts(d)
    return [_scanned_node(p) for p in parts] if parts is not None else [_scanned_node(d)]


def _parts(d):
    if isinstance(d, A.Entity):
        return [*d.fields, *d.blocks]
    if isinstance(d, A.Phase):
        return [*d.steps, d.order, d.when]
    return None


def _scanned_node(d) -> tuple:
    hit = _SCANNED.get(id(d))
    if hit is not None and hit[0] is d:
        return hit[1]
    names: set[str] = set()
    assigned_keys: set[str] = set()
    assigned: set[str] = set()
    called: set[int] = set()
    attrs: list = []
    # (every syntax node under `d`, iteratively: trees may be deep)
    stack = [d]
    pop, push, extend = stack.pop, stack.append, stack.extend
    slots_of, nodes = _CHILD_SLOTS, _NODE_TYPES
    record, literal, call, attr, assign = A.RecordLit, A.Literal, A.Call, A.Attr, A.Assign
    while stack:
        node = pop()
        cls = type(node)
        if cls is list or cls is tuple:
            extend(x for x in node if type(x) is not str)
            continue
        slots = slots_of.get(cls)
        if slots is None:
            if cls not in nodes:
                continue
            slots = slots_of[cls] = tuple(n for n in cls.__slots__ if n not in _SKIP)
        if cls is record:
            names.update(node.keys)
        elif cls is literal:
            v = node.value
            if type(v) is str and v.isidentifier():
                names.add(v)
        elif cls is call:
            if type(node.func) is attr:
                called.add(id(node.func))
        elif cls is attr:
            attrs.append(node)
        elif cls is assign:
            target = node.target
            if type(target) is A.Name:
                assigned.add(target.id)
            elif type(target) is A.Index and type(target.key) is literal \
                    and type(target.key.value) is str and node.op == "=":  # (`+=` adds no key)
                assigned_keys.add(target.key.value)
        for name in slots:
            v = getattr(node, name)
            if v is not None and type(v) is not str:
                push(v)
    read = {a.name for a in attrs if id(a) not in called}
    result = tuple(tuple(x) if x else () for x in (names, assigned_keys, read, assigned))
    if len(_SCANNED) >= MAX_SCANNED:
        _SCANNED.clear()
    _SCANNED[id(d)] = (d, result)
    return result


_AREA_RECORDS: dict[tuple, tuple] = {}   # ids of maps -> (the maps, the record of their areas' attributes)


def _area_record_of(maps: list) -> T.Ty:
    """A record of the attributes the maps' areas have (editions' options load the same map objects)."""
    keys: dict[str, T.Ty] = {}
    for mp in maps:
        for attrs in getattr(mp, "areas", {}).values():
            for k, v in attrs.items():
                keys[k] = T.join(keys.get(k, T.NEVER), T.value_type(v))
    return T.record(keys) if keys else T.OPEN_RECORD


_AREA_ATTRIBUTES: dict[int, tuple] = {}   # id of a map -> (the map, the names of its areas' attributes)


def _area_attributes(m) -> frozenset[str]:
    """The names of the attributes a map's areas have (a map is loaded once: editions' options share it)."""
    hit = _AREA_ATTRIBUTES.get(id(m))
    if hit is None or hit[0] is not m:
        if len(_AREA_ATTRIBUTES) >= 16:
            _AREA_ATTRIBUTES.clear()
        hit = _AREA_ATTRIBUTES[id(m)] = (m, frozenset(k for attrs in getattr(m, "areas", {}).values() for k in attrs))
    return hit[1]


class ScannedNames:
    """What the scan of an Env found, kept with a check that others start from (`Env._scan`)."""

    __slots__ = ("universe", "read_names", "assigned_keys", "assigned_globals")

    def __init__(self, env: "Env"):
        self.universe, self.read_names = env.universe, env.read_names
        self.assigned_keys, self.assigned_globals = env.assigned_keys, env.assigned_globals


class Env:
    """The ruleset's declarations, as the checker reads them."""

    def __init__(self, rs, prog, pinned: dict[str, T.Ty] | None = None, start=None):
        """`start`: (declaration ids, Env) of a check this one starts from: its scan of the names is kept."""
        self.rs, self.prog = rs, prog
        self.decls: dict[type, list] = {}
        self.all_decls = list(rs.decls.values())
        for d in rs.decls.values():
            self.decls.setdefault(type(d), []).append(d)
        self.problems: list[tuple] = []     # (code, message, span, hint) found in annotations
        self.pinned = dict(pinned or {})    # params whose type an overlay may not change: the original's
        self.globals: dict[str, str] = {}
        self.player_fields: dict[str, str] = {}
        for cls, kind in ((A.Param, "param"), (A.Die, "die"), (A.Table, "table"), (A.MapDecl, "map"),
                          (A.Procedure, "procedure")):
            for d in self.of(cls):
                self.globals.setdefault(d.name, kind)
        for d in self.of(A.Counter) + self.of(A.Var) + self.of(A.Zone):
            kind = type(d).__name__.lower()
            if d.scope == "global":
                self.globals.setdefault(d.name, kind)
            else:
                self.player_fields.setdefault(d.name, kind)
        for d in self.of(A.Track):
            self.player_fields[d.name] = "track"
            self.globals.setdefault(d.name, "track")
        self.procedures = {d.name: d for d in self.of(A.Procedure)}
        self.kinds: dict[str, dict[str, tuple[T.Ty, A.KindField]]] = {}
        for k in self.of(A.Kind):
            self.kinds[k.name] = {}
        for k in self.of(A.Kind):
            for f in k.fields:
                t, problem = resolve(f.type, self.kinds, allow_block=True)
                base = f.type[0] if f.type else ""
                if problem and (base in KIND_TYPES or base == "ref"):  # (otherwise the compiler's TYP001)
                    self.problems.append((problem[0], problem[1], f.span, problem[2]))
                self.kinds[k.name][f.name] = (t, f)
        self.entity_kind = {name: e.kind for name, e in prog.entities.items()}
        self.field_anywhere: dict[str, T.Ty] = {}
        for fields in self.kinds.values():
            for name, (t, _) in fields.items():
                self.field_anywhere[name] = T.join(self.field_anywhere.get(name, T.NEVER), t)
        for d in self.of(A.Param):
            if d.type is not None:
                self._declared([d.type], d.span)  # (reports an unknown or too deep type)
        self.var_declared = self._declared_vars()
        self.var_decls = {(d.scope, d.name): d for d in self.of(A.Var)}
        self.proc_declared = {d.name: self._declared(d.param_types, d.span)  # (only those with a declared type)
                              for d in self.of(A.Procedure) if d.param_types and any(d.param_types)}
        self.block_declared: dict[tuple[str, str, int], T.Ty] = {}
        self.arity: dict[tuple[str | None, str], set[int]] = {}
        self.block_owners: dict[str, list[A.Entity]] = {}
        for e in self.of(A.Entity):
            for b in e.blocks:
                self.block_owners.setdefault(b.name, []).append(e)
                for i, t in enumerate(self._declared(b.param_types, b.span)):
                    if t is not None:
                        self.block_declared[(e.name, b.name, i)] = t
                self.arity.setdefault((e.kind, b.name), set()).add(len(b.params))
                self.arity.setdefault((None, b.name), set()).add(len(b.params))
        self.block_names = {name for _, name in self.arity} | {
            n for fields in self.kinds.values() for n, (t, _) in fields.items() if t.tag == "block"}
        self.assigned_keys: set[str] = set()
        self.assigned_globals: set[str] = set()   # globals some rule assigns (a param so assigned is no constant)
        self.overlay_params: set[str] = set()     # params an overlay changed (checked by `overlays.py`)
        self._changed: list | None = None
        self._scan(start)
        self._params = {d.name: d for d in self.of(A.Param)}
        self._areas: dict = {}
        self._area_names: frozenset[str] | None = None
        self._slips: dict[str, tuple[str, ...]] | None = None
        self._busy: set = set()

    def of(self, cls) -> list:
        return self.decls.get(cls, [])

    def changed_by_overlays(self) -> list[tuple]:
        """(declaration, its history) of each rule an overlay changed, in load order."""
        if self._changed is None:
            decls = self.rs.decls
            self._changed = [(decls[k], hist) for k, hist in self.rs.history.items() if len(hist) > 1 and k in decls]
        return self._changed

    def names(self) -> ScannedNames:
        return ScannedNames(self)

    def _declared(self, types: list, span) -> list:
        """The declared types of parameters (None where one has none; [] where none has one)."""
        if not types or not any(types):
            return []
        out = []
        for ann in types or []:
            if ann is None:
                out.append(None)
                continue
            t, problem = resolve(ann, self.kinds)
            if problem:
                self.problems.append((problem[0], problem[1], span, problem[2]))
            out.append(None if problem else t)
        return out

    def _declared_vars(self) -> dict:
        out = {}
        for d in self.of(A.Var):
            if d.type is not None:
                t, problem = resolve(d.type, self.kinds)
                if problem:
                    self.problems.append((problem[0], problem[1], d.span, problem[2]))
                else:
                    out[(d.scope, d.name)] = t
        return out

    def _scan(self, base=None) -> None:
        """The names a field or key may have at all, and the blocks read as values (not called); from a
        `base` check, only the declarations it did not have are scanned (the names of those it had and
        this ruleset has not are kept: a few more names accepted, never fewer)."""
        decls = self.all_decls
        if base is not None:
            ids, names = base   # (`names`: the base's `ScannedNames`, shared where nothing is added)
            uni, read_before = names.universe, names.read_names
            self.assigned_keys |= names.assigned_keys
            self.assigned_globals |= names.assigned_globals
            decls = [d for d in decls if id(d) not in ids]
        else:
            uni, read_before = frozenset(), frozenset()
        more, read_names = set(self.player_fields), set()
        more.update(_BUILTIN_ATTRS, self.field_anywhere)
        more.update(n for n in self.entity_kind if n.isidentifier())
        for m in self.prog.maps.values():
            more.update(_area_attributes(m))
        assigned_keys, assigned_globals = self.assigned_keys, self.assigned_globals
        for d in decls:
            for names, keys, read, globals_ in scanned(d):
                more.update(names)
                assigned_keys.update(keys)
                read_names.update(read)
                assigned_globals.update(globals_)
        more |= assigned_keys
        more -= uni
        self.universe = uni | more if more else uni
        self.read_names = read_before | read_names if read_names - read_before else read_before
        self.block_values = self.read_names & self.block_names

    # ---- types of declared values -------------------------------------------------------------------
    def param_type(self, name: str, inf) -> T.Ty:
        """A param's declared type, else its value's (the walk `inf` remembers it: `Inference.param_type`)."""
        if name in self.pinned:
            return self.pinned[name]
        d = self._params.get(name)
        if d is None or ("param", name) in self._busy:
            return T.UNKNOWN
        if d.type is not None:
            t, problem = resolve(d.type, self.kinds)
            if not problem:
                return t
        self._busy.add(("param", name))
        try:
            return _outside_data(d.value, inf.expr_in(d.value, {}))
        finally:
            self._busy.discard(("param", name))

    def declared_param(self, d: A.Param) -> T.Ty | None:
        if d.type is None:
            return None
        t, problem = resolve(d.type, self.kinds)
        return None if problem else t

    def die_type(self, name: str, inf) -> T.Ty:
        d = next((x for x in self.of(A.Die) if x.name == name), None)
        if d is None or ("die", name) in self._busy:
            return T.DIE
        self._busy.add(("die", name))
        try:
            faces = inf.expr_in(d.faces, {})
        finally:
            self._busy.discard(("die", name))
        return T.Ty("die", T.item_of(faces) if faces.tag in T.LISTLIKE else T.UNKNOWN)

    def table_type(self, name: str, inf) -> T.Ty:
        d = next((x for x in self.of(A.Table) if x.name == name), None)
        if d is None or ("table", name) in self._busy:
            return T.TABLE
        self._busy.add(("table", name))
        try:
            row = T.NEVER
            for r in d.rows:
                row = T.join(row, inf.expr_in(r.value, {}))
        finally:
            self._busy.discard(("table", name))
        return T.Ty("table", T.UNKNOWN if row.tag in ("never", "none") else row)

    def track_type(self, name: str, inf) -> T.Ty:
        d = next((x for x in self.of(A.Track) if x.name == name), None)
        spaces = next((f for f in d.fields if f.name == "spaces"), None) if d else None
        if spaces is None or ("track", name) in self._busy:
            return T.list_of(T.UNKNOWN)
        self._busy.add(("track", name))
        try:
            t = inf.expr_in(spaces.value, {})
        finally:
            self._busy.discard(("track", name))
        return t if t.tag == "list" else T.list_of(T.UNKNOWN)

    def area_names(self) -> frozenset[str]:
        """The names of the areas of every map the rules load."""
        if self._area_names is None:
            self._area_names = frozenset(a for m in self.prog.maps.values() for a in getattr(m, "areas", {}))
        return self._area_names

    def slip_index(self) -> dict[str, tuple[str, ...]]:
        """The names of map areas and things by every text they give with one letter dropped (and by
        themselves): what a text one slip away from one of them is looked up in."""
        if self._slips is None:
            names = self.area_names() | frozenset(self.entity_kind)
            self._slips = _SLIPS.get(names)
            if self._slips is None:
                index: dict[str, set[str]] = {}
                for name in names:
                    for k in {name} | {name[:i] + name[i + 1:] for i in range(len(name))}:
                        index.setdefault(k, set()).add(name)
                # (kept for the whole process: tuples of texts, which the garbage collector stops looking at)
                self._slips = {k: tuple(sorted(v)) for k, v in index.items()}
                if len(_SLIPS) >= 8:
                    _SLIPS.clear()
                _SLIPS[names] = self._slips
        return self._slips

    def area_record(self, m: A.Expr | None) -> T.Ty:
        """`area(m, a)`: a record of the attributes the map's areas have (every map's, if it is not named)."""
        which = m.id if isinstance(m, A.Name) else None
        hit = self._areas.get(which)
        if hit is None:
            hit = self._areas[which] = self._area_record(m)
        return hit

    def _area_record(self, m: A.Expr | None) -> T.Ty:
        maps = self.prog.maps
        if isinstance(m, A.Name) and m.id in maps and self.globals.get(m.id) == "map":
            chosen = [maps[m.id]]
        else:
            chosen = list(maps.values())
        memo = tuple(id(mp) for mp in chosen)
        hit = _AREA_RECORDS.get(memo)
        if hit is not None and all(a is b for a, b in zip(hit[0], chosen)):
            return hit[1]
        t = _area_record_of(chosen)
        if len(_AREA_RECORDS) >= 16:
            _AREA_RECORDS.clear()
        _AREA_RECORDS[memo] = (chosen, t)
        return t

    def block_arity(self, name: str, kind: str | None) -> set[int]:
        return self.arity.get((kind, name), set())

    def overlaid_field(self, d: A.Entity, f: A.Field) -> bool:
        """Whether the field was given by an overlay (reported by the overlay check, with its origin)."""
        return f.span.file != d.span.file or f.span.line < d.span.line or (
            d.span.end_line and f.span.line > d.span.end_line)
