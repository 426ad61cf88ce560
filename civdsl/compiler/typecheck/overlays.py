"""Overlays keep types: a `modify`, `replace` or option that gives a param, a thing's field or a
procedure a value of another type than the rule it changes (or one outside the declared range) is an
error at the overlay's line (OVL006, TYP014), with the original declaration as the related location.

The original declaration is the one the loader kept (`rs.originals`) of a rule whose history
(`rs.history`: where each rule was defined, replaced, modified) says an overlay changed it. A param
whose overlay is refused keeps the original's type for the rest of the check, so the rules that read
it are not reported again.
"""
from __future__ import annotations

from ...language import ast as A
from ...language.diagnostics import Diagnostic
from . import types as T
from .ranges import Folder, outside


def original(rs, key) -> A.Decl | None:
    """The declaration that first defined the rule `key`, if an overlay changed it since."""
    hist = rs.history.get(key) or []
    if len(hist) < 2 or hist[0][1] != "defined" or not any(note in ("replaced", "modified") for _, note in hist):
        return None
    return rs.originals.get(key)


def overlaid(env, cls, note: str = "") -> list:
    """The current declarations of class `cls` that an overlay changed (`note`: only those it changed
    so, e.g. "modified"), in load order: the only ones whose types an overlay can have changed."""
    return [d for d, hist in env.changed_by_overlays() if type(d) is cls and (not note or any(n == note for _, n in hist))]


def changed_by(rs, key) -> str:
    """How the last overlay changed the rule: `modified` or `replaced`."""
    notes = [note for _, note in rs.history.get(key, []) if note in ("replaced", "modified")]
    return notes[-1] if notes else "changed"


def check_params(env, inf) -> list[Diagnostic]:
    """Each param an overlay changed: the new value has the original's type (declared, or inferred from
    the original value) and stays in its declared range."""
    out: list[Diagnostic] = []
    folder = Folder(env)
    for d in overlaid(env, A.Param):
        orig = original(env.rs, d.key())
        if orig is None or not isinstance(orig, A.Param):
            continue
        env.overlay_params.add(d.name)
        want = env.declared_param(orig) or env.declared_param(d) or inf.expr_in(orig.value, {})
        got = inf.expr_in(d.value, {})
        how = changed_by(env.rs, d.key())
        if not T.is_loose(want) and not T.accepts(want, got):
            out.append(Diagnostic("OVL006", f"param `{d.name}` is {how} to {T.show(got)}, but it is {T.show(want)}",
                                  d.span, "error", "keep the type of the rule the overlay changes: the rules compute "
                                  "with it as the original declares it",
                                  [(orig.span, f"`{d.name}` is declared here as {T.show(want)}")]))
            env.pinned[d.name] = want
            continue
        env.pinned[d.name] = T.join(want, got) if not T.is_loose(want) else got
        lo = d.lo if d.lo is not None or d.hi is not None else orig.lo
        hi = d.hi if d.lo is not None or d.hi is not None else orig.hi
        bad = outside(folder, d.value, lo, hi) if lo is not None or hi is not None else None
        if bad:
            out.append(Diagnostic("TYP014", f"param `{d.name}` is {how} to {bad[0]}, outside its range {bad[1]}",
                                  d.span, "error", "give a value inside the declared range",
                                  [(orig.span, f"`{d.name}` is declared here in {bad[1]}")]))
    return out


def check_fields(env, inf) -> list[Diagnostic]:
    """Fields an overlay gave a thing (`modify card "X" { cost: .. }`): of the kind's field type."""
    out: list[Diagnostic] = []
    for d in overlaid(env, A.Entity, "modified"):  # (a field an overlay gives is a `modify`'s)
        kind = env.kinds.get(d.kind)
        if kind is None or env.entity_kind.get(d.name) != d.kind:
            continue
        orig = None
        for f in d.fields:
            if not env.overlaid_field(d, f) or f.name not in kind:
                continue
            want = kind[f.name][0]
            if want.tag == "block":
                continue
            got = inf.expr_in(f.value, {})
            if T.accepts(want, got):
                continue
            orig = orig or original(env.rs, d.key()) or d
            before = next((g for g in getattr(orig, "fields", []) if g.name == f.name), None)
            related = [((before or orig).span, f"{d.kind} \"{d.name}\" is declared here"),
                       (kind[f.name][1].span, f"`{f.name}` of {d.kind} is declared {T.show(want)} here")]
            out.append(Diagnostic("OVL006", f"`{f.name}` of {d.kind} \"{d.name}\" is {changed_by(env.rs, d.key())} to "
                                  f"{T.show(got)}, but the kind declares {T.show(want)}", f.span, "error",
                                  "give a value of the field's type", related))
    return out


_CHECKED: dict[tuple[int, int], tuple] = {}   # (original, replacement) -> (both, the findings)


def check_procedures(env, inf) -> list[Diagnostic]:
    """A replaced procedure takes as many parameters, of the declared types, and gives the same type
    (remembered per pair of declarations: an edition's options share their replacements)."""
    out: list[Diagnostic] = []
    for d in overlaid(env, A.Procedure):
        orig = original(env.rs, d.key())
        if orig is None or not isinstance(orig, A.Procedure) or orig is d:
            continue
        hit = _CHECKED.get((id(orig), id(d)))
        if hit is not None and hit[0] is orig and hit[1] is d:
            out.extend(hit[2])
            continue
        found = _replaced(env, inf, orig, d)
        if len(_CHECKED) > 10_000:
            _CHECKED.clear()
        _CHECKED[(id(orig), id(d))] = (orig, d, found)
        out.extend(found)
    return out


def _replaced(env, inf, orig: A.Procedure, d: A.Procedure) -> list[Diagnostic]:
    out: list[Diagnostic] = []
    related = [(orig.span, f"`{d.name}` is declared here")]
    if len(orig.params) != len(d.params):
        out.append(Diagnostic("OVL006", f"procedure `{d.name}` is replaced by one of {len(d.params)} parameter(s); "
                              f"the original takes {len(orig.params)}", d.span, "error",
                              "keep the parameters: every rule calls it as the original declares it", related))
        return out
    mine = env.proc_declared.get(d.name, [])
    theirs = env._declared(orig.param_types, orig.span)
    for i, (a, b) in enumerate(zip(mine, theirs)):
        if a is not None and b is not None and not T.accepts(b, a):
            out.append(Diagnostic("OVL006", f"parameter `{d.params[i]}` of `{d.name}` is declared {T.show(a)}; "
                                  f"the original declares {T.show(b)}", d.span, "error",
                                  "keep the types of the parameters", related))
    new = inf.facts.proc_ret.get(d.name, T.NEVER)
    old = inf.returns_of(orig, d.name)
    if not T.is_loose(new) and not T.is_loose(old) and not T.accepts(old, new) and not T.accepts(new, old):
        out.append(Diagnostic("OVL006", f"procedure `{d.name}` is replaced by one that gives {T.show(new)}; "
                              f"the original gives {T.show(old)}", d.span, "error",
                              "give what the original gives: the rules use its result", related))
    return out
