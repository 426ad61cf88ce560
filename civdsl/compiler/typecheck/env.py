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
_CHILD_SLOTS: dict[type, tuple] = {}


def walk_nodes(roots):
    """Every syntax node under the roots (iteratively: trees may be deep)."""
    stack = list(roots)
    nodes = _NODE_TYPES
    while stack:
        node = stack.pop()
        cls = type(node)
        if cls is list or cls is tuple:
            stack.extend(x for x in node if type(x) in nodes or type(x) is list or type(x) is tuple)
            continue
        if cls not in nodes:
            continue
        yield node
        slots = _CHILD_SLOTS.get(cls)
        if slots is None:
            slots = _CHILD_SLOTS[cls] = tuple(n for n in cls.__slots__ if n not in _SKIP)
        for name in slots:
            v = getattr(node, name)
            t = type(v)
            if t in nodes or t is list or t is tuple:
                stack.append(v)


_SCANNED: dict[int, tuple] = {}   # id(declaration) -> (the declaration, what `scanned` found)
MAX_SCANNED = 50_000
_SLIPS: dict[frozenset, dict] = {}   # names of areas and things -> `Env.slip_index` of them (editions share it)


def scanned(d) -> tuple:
    """What one declaration tells of names: (record keys and identifier-like texts, (keys assigned by
    `r["k"] = ..`, attribute names read other than as calls), globals assigned). Remembered per
    declaration and per part of one (a field, a block, a step): an edition's options and house rules
    share most of them with it, also where an overlay modified the declaration."""
    parts = _parts(d)
    if parts is None:
        return _scanned_node(d)
    names: set[str] = set()
    keys: set[str] = set()
    read: set[str] = set()
    assigned: set[str] = set()
    for part in parts:
        n, (k, r), a = _scanned_node(part)
        names |= n
        keys |= k
        read |= r
        assigned |= a
    return names, (keys, read), assigned


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
    for node in walk_nodes([d]):
        if isinstance(node, A.RecordLit):
            names.update(node.keys)
        elif isinstance(node, A.Literal) and isinstance(node.value, str) and node.value.isidentifier():
            names.add(node.value)
        elif isinstance(node, A.Call) and isinstance(node.func, A.Attr):
            called.add(id(node.func))
        elif isinstance(node, A.Attr):
            attrs.append(node)
        elif isinstance(node, A.Assign):
            if isinstance(node.target, A.Name):
                assigned.add(node.target.id)
            elif isinstance(node.target, A.Index) and isinstance(node.target.key, A.Literal) \
                    and isinstance(node.target.key.value, str) and node.op == "=":  # (`+=` adds no key)
                assigned_keys.add(node.target.key.value)
    read = {a.name for a in attrs if id(a) not in called}
    result = (names, (assigned_keys, read), assigned)
    if len(_SCANNED) >= MAX_SCANNED:
        _SCANNED.clear()
    _SCANNED[id(d)] = (d, result)
    return result


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
        self.proc_declared = {d.name: self._declared(d.param_types, d.span) for d in self.of(A.Procedure)}
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
        self._scan(start)
        self._params = {d.name: d for d in self.of(A.Param)}
        self._areas: dict = {}
        self._area_names: frozenset[str] | None = None
        self._slips: dict[str, set[str]] | None = None
        self._busy: set = set()

    def of(self, cls) -> list:
        return self.decls.get(cls, [])

    def _declared(self, types: list, span) -> list:
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
        uni = set(self.player_fields) | _BUILTIN_ATTRS | set(self.field_anywhere)
        uni.update(n for n in self.entity_kind if n.isidentifier())
        for m in self.prog.maps.values():
            for attrs in getattr(m, "areas", {}).values():
                uni.update(attrs)
        read_names: set[str] = set()
        decls = self.all_decls
        if base is not None:
            ids, env = base
            uni |= env.universe
            read_names |= env.read_names
            self.assigned_keys |= env.assigned_keys
            self.assigned_globals |= env.assigned_globals
            decls = [d for d in decls if id(d) not in ids]
        for d in decls:
            names, keys, globals_ = scanned(d)
            uni |= names
            read_names |= keys[1]
            self.assigned_keys |= keys[0]
            self.assigned_globals |= globals_
        self.read_names = read_names
        self.block_values = read_names & self.block_names
        self.universe = uni | self.assigned_keys

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

    def slip_index(self) -> dict[str, set[str]]:
        """The names of map areas and things by every text they give with one letter dropped (and by
        themselves): what a text one slip away from one of them is looked up in."""
        if self._slips is None:
            names = self.area_names() | frozenset(self.entity_kind)
            self._slips = _SLIPS.get(names)
            if self._slips is None:
                self._slips = {}
                for name in names:
                    for k in {name} | {name[:i] + name[i + 1:] for i in range(len(name))}:
                        self._slips.setdefault(k, set()).add(name)
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
        keys: dict[str, T.Ty] = {}
        for mp in chosen:
            for attrs in getattr(mp, "areas", {}).values():
                for k, v in attrs.items():
                    keys[k] = T.join(keys.get(k, T.NEVER), T.value_type(v))
        return T.record(keys) if keys else T.OPEN_RECORD

    def block_arity(self, name: str, kind: str | None) -> set[int]:
        return self.arity.get((kind, name), set())

    def overlaid_field(self, d: A.Entity, f: A.Field) -> bool:
        """Whether the field was given by an overlay (reported by the overlay check, with its origin)."""
        return f.span.file != d.span.file or f.span.line < d.span.line or (
            d.span.end_line and f.span.line > d.span.end_line)
