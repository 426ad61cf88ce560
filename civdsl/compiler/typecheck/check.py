"""The type check of one ruleset (`check_types`), starting from an earlier check of the same files where
one is remembered; `clear_caches` forgets them."""
from __future__ import annotations

from ...language.diagnostics import Diagnostic, Span
from ...language.limits import collector_paused, room_to_recurse
from . import env, overlays
from .env import Env
from .infer import Inference
from .overlays import check_fields, check_params, check_procedures
from .ranges import Folder, check_ranges

_STATES: list[tuple[set[int], list, Inference, dict]] = []  # recent checks: (declaration ids, declarations,
#                                                              walk, the texts of the files it loaded)
MAX_STATES = 8
MIN_SHARED = 0.6    # a check starts from an earlier one that shares this part of its declarations
KEEP_CHANGED = 20   # a check that walked more of its own declarations than this is kept to start from


def clear_caches() -> None:
    """Forget every earlier check (the benchmark measures a check from nothing)."""
    _STATES.clear()
    env._SCANNED.clear()
    env._SLIPS.clear()
    overlays._FOUND.clear()
    overlays._CHECKED.clear()


def _same_files(a: dict, b: dict) -> bool:
    """Whether every file both rulesets load has the same text in both."""
    return all(b[path] == text for path, text in a.items() if path in b)


def _nearest(ids: set[int], sources: dict):
    """The earlier check to start from: the one sharing most declarations, among those whose files (the
    ones both load) have not changed since. A check of a file that changed does not start from one of
    its earlier text: what the rounds learnt only grows, so the facts that the old text's declarations
    gave (a record key since renamed) would stay, and be reported in the new text's rules."""
    ranked = sorted((-len(ids & state[0]), i) for i, state in enumerate(_STATES))  # (ties: the earliest)
    for minus, i in ranked:
        shared = -minus
        if shared < MIN_SHARED * len(ids) or shared == 0:
            return None
        if _same_files(sources, _STATES[i][3]):
            return _STATES[i]
    return None


def check_types(rs, prog, incremental: bool = True) -> list[Diagnostic]:
    """The type diagnostics of a ruleset that compiled without errors (`prog`: its program).

    `incremental`: start from the most similar ruleset checked before in this process (an edition, for
    its options and house rules): only the declarations it does not share are walked again, which
    keeps `civdsl check` of an edition with many options cheap (see `Inference.adopt`)."""
    decls = list(rs.decls.values())
    ids = {id(d) for d in decls}
    with room_to_recurse(), collector_paused():  # (many small objects, few freed: see `limits`)
        try:
            sources = dict(getattr(rs, "sources", None) or {})
            base = _nearest(ids, sources) if incremental else None
            env = Env(rs, prog, start=(base[0], base[2].env) if base is not None else None)
            inf = Inference(env)
            diags = [Diagnostic(code, msg, span, "error", hint) for code, msg, span, hint in env.problems]
            diags += check_params(env, inf)
            if base is not None:
                inf.adopt(base[2], ids - base[0], ids)  # (findings only of the declarations both share)
                diags += inf.run(set(ids - base[0]))
            else:
                diags += inf.run()
            if incremental and (base is None or len(ids - base[0]) > KEEP_CHANGED):
                if base is not None:
                    inf.readers, inf._base_readers = inf.all_readers(), {}
                _STATES.append((ids, decls, inf, sources))  # (an option's check is not kept: its edition's stays)
                del _STATES[:-MAX_STATES]
            diags += check_fields(env, inf)
            diags += check_procedures(env, inf)
            diags += check_ranges(env, Folder(env))
        except RecursionError:
            diags = [Diagnostic("TYP017", "the rules nest too deeply for their types to be checked",
                                Span(rs.entry, 1, 1), "error", "flatten the deepest rules with procedures")]
    unique: dict[tuple, Diagnostic] = {}
    for d in diags:
        unique.setdefault((d.code, d.message, d.span), d)
    return sorted(unique.values(), key=Diagnostic.sort_key)
