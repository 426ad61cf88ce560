"""What shared values are, as far as the rounds have learnt: a variable (its declared type, or its initial
value joined with every assignment), a zone (its items), a param (its value joined with what rules assign
to it). Every read is recorded (`read`) so that a declaration is walked again when what it read grows.

A mixin of `infer.Inference`.
"""
from __future__ import annotations

from ...language import ast as A
from . import types as T


class SharedValues:
    """The types of variables, zones and params, read by the walks."""

    def var_type(self, key) -> T.Ty:
        declared = self.env.var_declared.get(key)
        if declared is not None:
            return declared
        self.read("vars", key)
        t = self.facts.vars.get(key, T.NEVER)
        if key[0] == "player":
            self.read("any_player_field")
            t = T.join(t, self.facts.any_player_field)
        t = T.join(self.var_init(key), t)
        return T.NEVER if t.tag in ("never", "none") else t   # (only none: nothing to check it by)

    def var_init(self, key) -> T.Ty:
        """The type of a variable's initial value (its declaration read again: inits are small)."""
        d = self.env.var_decls.get(key)
        if d is None or key in self._busy:
            return T.UNKNOWN
        self._busy.add(key)
        report, self.report = self.report, False  # (the variable's own walk reports what is wrong in it)
        try:
            return self.expr_in(d.init, {"player": T.PLAYER} if key[0] == "player" else {})
        finally:
            self._busy.discard(key)
            self.report = report

    def zone_type(self, key) -> T.Ty:
        self.read("zones", key)
        self.read("any_zone")
        items = T.join(self.facts.zones.get(key, T.NEVER), self.facts.any_zone)
        return T.zone_of(T.UNKNOWN if items.tag == "none" else items)

    def param_type(self, name: str) -> T.Ty:
        """A param's type: its declaration's (remembered until a fact changes, with what it read)."""
        self.read("params", name)
        hit = self._pcache.get(name)
        if hit is not None and hit[0] == len(self.facts.log):
            t = hit[1]
            if self._reads is not None:
                for key in hit[2]:
                    self._reads.setdefault(key, hit[0])
        else:
            outer, self._reads = self._reads, {}
            report, self.report = self.report, False  # (the param's own walk reports what is wrong in it)
            try:
                t = self.env.param_type(name, self)
            finally:
                deps, self._reads = self._reads, outer
                self.report = report
            if outer is not None:
                for key, when in deps.items():
                    outer.setdefault(key, when)
            self._pcache[name] = (len(self.facts.log), t, tuple(deps))
        assigned = self.facts.params.get(name)
        if assigned is not None:
            t = T.join(t, assigned)
        return T.NEVER if t.tag in ("never", "none") else t

    def item(self, it: T.Ty, e: A.Expr, where: str) -> T.Ty:
        if it.tag in T.TEXTUAL or it.tag in T.NUMERIC or it.tag in ("player", "die", "table"):
            self.err("TYP011", f"{where} goes through a list, a zone or a record's keys, not {T.show(it)}",
                     getattr(e, "span", None))
            return T.NEVER
        return T.item_of(it)
