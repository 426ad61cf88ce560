"""Compiling what people see: `view` declarations (panels of a player's or the table's view),
`decision` declarations (a decision's question and its options in words) and `headline` declarations
(a measurement told as a line of the game's story). None is ever read by an agent or a rule, so they
cannot change a game; the engine evaluates them changing nothing (`engine.views`)."""
from __future__ import annotations

from ..engine.program import CompiledView
from ..language import ast as A

PANEL_KINDS = ("counters", "list", "dice", "track", "table", "text", "map")
VIEW_FIELDS = ("label", "colour")
DECISION_FIELDS = {"question": ["player"], "label": ["player", "option"]}


def compile_views(comp) -> None:
    """Every `view` into `Program.views`, in declaration order (VEW001, VEW002)."""
    for d in comp.of(A.View):
        names = ["player"] if d.of in (None, "player") else ["player", d.of]
        players = [d.of] if d.of else []
        view = CompiledView(d.name, d.title, d.of, {}, [], d.span)
        for item in d.items:
            if item.title is None:
                if item.kind not in VIEW_FIELDS:
                    hint = comp.did_you_mean(item.kind, VIEW_FIELDS + PANEL_KINDS)
                    comp.err("VEW002", f"unknown view field `{item.kind}`", item.span,
                             hint or f"a view's fields are {', '.join(VIEW_FIELDS)}; a panel has a title: "
                             f"`counters \"Goods\": {{...}}`")
                    continue
                entry = view.fields[item.kind] = [None, item.span]
                comp.slot(entry, 0, item.expr, names, players)
            elif item.kind not in PANEL_KINDS:
                comp.err("VEW001", f"unknown panel kind `{item.kind}`", item.span,
                         comp.did_you_mean(item.kind, PANEL_KINDS) or f"panels: {', '.join(PANEL_KINDS)}")
            else:
                panel = [item.kind, item.title, None, item.span]
                comp.slot(panel, 2, item.expr, names, players)
                view.panels.append(panel)
        comp.prog.views.append(view)


def compile_decision_texts(comp) -> None:
    """Every `decision "tag" { question: .. label: .. }` into `Program.decision_texts` (DEC001)."""
    for d in comp.of(A.DecisionText):
        entry = comp.prog.decision_texts.setdefault(d.name, {})
        for f in d.fields:
            names = DECISION_FIELDS.get(f.name)
            if names is None:
                comp.err("DEC001", f"unknown decision field `{f.name}`", f.span,
                         comp.did_you_mean(f.name, DECISION_FIELDS) or f"fields: {', '.join(DECISION_FIELDS)}")
                continue
            entry[f.name] = [None, f.span]
            comp.slot(entry[f.name], 0, f.value, names, ["player"])


def compile_headlines(comp) -> None:
    """Every `headline "measure" [when cond] = "text"` into `Program.headlines`: its text parts, each
    `{expr}` a function of `m` (the measurement's record) and `player` (its `player` field), and the
    condition's function (None: always)."""
    for d in comp.of(A.Headline):
        parts: list = []
        entry = comp.prog.headlines[d.name] = [parts, d.span, None]
        if d.when is not None:
            comp.slot(entry, 2, d.when, ["m", "player"])
        for part in d.parts:
            parts.append(part if isinstance(part, str) else None)
            if not isinstance(part, str):
                comp.slot(parts, len(parts) - 1, part, ["m", "player"])
