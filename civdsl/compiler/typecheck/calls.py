"""Calls: of a procedure (its declared parameter types; what it is given grows its parameters' types), of
a thing's block (its arity, ARG001; a value field called, TYP018) and of a built-in (its signature,
TYP012).

A mixin of `infer.Inference`.
"""
from __future__ import annotations

from ...engine.builtins import REGISTRY
from ...language import ast as A
from . import types as T
from .facts import Locals
from .signatures import SIGNATURES, refuses


class CallWalk:
    """The walk of `f(..)`, `x.block(..)` and built-ins."""

    def e_Call(self, e: A.Call, L: Locals):
        f = e.func
        ty = self.ty
        args = [ty(a, L) for a in e.args]
        if type(f) is A.Name and not L.has(f.id):
            n = f.id
            kind = self.env.globals.get(n)
            if kind == "procedure":
                return self.call_procedure(n, args, e)
            if kind is None and n in REGISTRY:
                return self.call_builtin(n, args, e, L)
        if isinstance(f, A.Attr):
            recv = self.ty(f.obj, L) if not (isinstance(f.obj, A.Literal) and isinstance(f.obj.value, str)
                                             and f.obj.value not in self.env.entity_kind) else self.e_Attr(f, L)
            return self.call_block(recv, f, args, e)
        self.ty(f, L)
        return T.UNKNOWN

    def call_procedure(self, n: str, args: list[T.Ty], e: A.Call) -> T.Ty:
        env = self.env
        decl = env.procedures[n]
        if len(decl.params) != len(args):
            return T.UNKNOWN  # ARG001 (the compiler)
        declared = env.proc_declared.get(n, ())
        for i, (a, want) in enumerate(zip(args, declared)):
            if want is not None and not T.accepts(want, a):
                self.err("TYP012", f"argument {i + 1} of `{n}` (`{decl.params[i]}`) is declared {T.show(want)}, "
                         f"but is given {T.show(a)}", getattr(e.args[i], "span", e.span),
                         related=[(decl.span, "declared here")])
        facts = self.facts
        for i, a in enumerate(args):  # (a text where other callers give things: one slip from a name?)
            if a.tag == "thing":
                facts.grow(facts.arg_things, (n, i), a)
            elif a.tag == "text":
                self.read("arg_things", (n, i))
                things = facts.arg_things.get((n, i))
                if things is not None:
                    self.near_thing(e.args[i], things.arg)
        facts.grow_args(facts.proc_args, n, args)
        if n not in facts.proc_ret:
            self.walk_callee(decl)
        self.read("proc_ret", n)
        return self.facts.proc_ret.get(n, T.NEVER)

    def call_block(self, recv: T.Ty, f: A.Attr, args: list[T.Ty], e: A.Call) -> T.Ty:
        env, name = self.env, f.name
        kind = recv.arg if recv.tag == "thing" else None
        if recv.tag in ("thing", "text"):
            field_t = self.thing_field(kind, name, f.span)
            if field_t.tag not in ("block", "unknown", "any", "never", "none"):
                self.err("TYP018", f"`{name}` is a value field ({T.show(field_t)}), not a block: it cannot be called",
                         f.span, "call blocks (fields of type `block`); read values without `(...)`")
                return T.NEVER
        elif recv.tag in ("unknown", "any", "never", "none", "opaque"):
            if name not in env.block_names and recv.tag != "opaque":
                self.unknown_attr(name, f.span)
        elif recv.tag == "player" or recv.tag == "record":
            self.attr(recv, name, f.span)
            return T.UNKNOWN
        else:
            self.attr(recv, name, f.span)
            return T.UNKNOWN
        defined = env.block_arity(name, kind)
        if defined and len(args) not in defined:
            want = " or ".join(str(n) for n in sorted(defined))
            self.err("ARG001", f"block `{name}` takes {want} argument{'s' if defined != {1} else ''}, got {len(args)}",
                     e.span, "pass the arguments the things' blocks declare")
            return T.NEVER
        self.facts.grow_args(self.facts.block_args, (name, len(args)), args)
        self.read("block_ret", name)
        return self.facts.block_ret.get(name, T.NEVER)

    def call_builtin(self, n: str, args: list[T.Ty], e: A.Call, L: Locals) -> T.Ty:
        sig = SIGNATURES.get(n)
        lo, hi = REGISTRY[n].arity
        if sig is None or not lo <= len(args) <= hi:
            return T.UNKNOWN  # (no signature, or ARG001 from the compiler)
        params, result = sig
        for i, (a, p) in enumerate(zip(args, params)):
            if p == "owner" and a.tag == "none":
                continue
            if p == "num" and self.mixed([a], getattr(e.args[i], "span", e.span), f"argument {i + 1} of `{n}`"):
                continue
            wanted = refuses(p, a)
            if wanted is not None:
                self.err("TYP012", f"argument {i + 1} of `{n}` must be {wanted}, not {T.show(a)}",
                         getattr(e.args[i], "span", e.span))
        if n in ("min", "max") and len(args) > 1:
            self.ordered(args, e.args, e.span)
        if n == "entities":
            return T.list_of(self.kind_argument(e.args[0]) if e.args else T.thing(None))
        if n == "area":
            return self.env.area_record(e.args[0] if e.args else None)
        if n == "measure" and e.args and isinstance(e.args[0], A.Literal) and isinstance(e.args[0].value, str):
            self.facts.grow(self.facts.measures, e.args[0].value, args[1] if len(args) > 1 else T.OPEN_RECORD)
        return result(args)

    def kind_argument(self, e: A.Expr) -> T.Ty:
        if isinstance(e, A.Literal) and isinstance(e.value, str):
            if e.value in self.env.kinds:
                return T.thing(e.value)
            guess = self.suggest(e.value, self.env.kinds)
            self.err("TYP012", f"no kind `{e.value}` is declared", e.span,
                     f"did you mean \"{guess}\"?" if guess else f"kinds: {', '.join(sorted(self.env.kinds)) or 'none'}")
            return T.NEVER
        return T.thing(None)
