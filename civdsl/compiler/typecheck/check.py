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

_STATES: list[tuple] = []  # recent checks: (declaration ids, declarations, walk, the texts of the files it
#                            loaded, whether it started from nothing)
MAX_STATES = 8      # kept checks that started from another (the ones that started from nothing: as many)
MIN_SHARED = 0.6    # a check starts from an earlier one that shares this part of its declarations
KEEP_CHANGED = 20   # a check that walked more of its own declarations than this is kept to start from
SAMPLE = 64         # declarations compared with each earlier check to tell how much they share


def clear_caches() -> None:
    """Forget every earlier check (the benchmark measures a check from nothing)."""
    _STATES.clear()
    env._SCANNED.clear()
    env._SLIPS.clear()
    env._AREA_RECORDS.clear()
    env._AREA_ATTRIBUTES.clear()
    overlays._CHECKED.clear()


def _same_files(a: dict, b: dict) -> bool:
    """Whether every file both rulesets load has the same text in both."""
    return all(b[path] == text for path, text in a.items() if path in b)


def _nearest(decls: list, sources: dict):
    """The earlier check to start from: the one sharing most declarations, among those whose files (the
    ones both load) have not changed since. A check of a file that changed does not start from one of
    its earlier text: what the rounds learnt only grows, so the facts that the old text's declarations
    gave (a record key since renamed) would stay, and be reported in the new text's rules.
    What they share is counted on a sample of the declarations (every k-th, in load order: the same
    choice every time)."""
    sample = [id(d) for d in decls[::max(1, len(decls) // SAMPLE)]]
    ranked = sorted((-len(state[0].intersection(sample)), n) for n, state in enumerate(_STATES))  # (ties: earliest)
    for minus, n in ranked:
        if -minus < MIN_SHARED * len(sample) or minus == 0:
            return None
        if _same_files(sources, _STATES[n][3]):
            return _STATES[n]
    return None


def _keep(state: tuple, root: bool) -> None:
    """Keep a check to start others from: those that started from nothing (an edition's, a house rule's)
    stay longer than those that started from another (its options'), which come and go in numbers."""
    _STATES.append(state + (root,))
    roots = [s for s in _STATES if s[4]]
    derived = [s for s in _STATES if not s[4]]
    _STATES[:] = roots[-MAX_STATES:] + derived[-MAX_STATES:]


def _check(rs, prog, incremental: bool) -> list[Diagnostic]:
    """`check_types`, inside the collector's pause."""
    decls = list(rs.decls.values())
    ids = {id(d) for d in decls}
    sources = dict(getattr(rs, "sources", None) or {})
    base = _nearest(decls, sources) if incremental else None
    env = Env(rs, prog, start=(base[0], base[2].env) if base is not None else None)
    inf = Inference(env)
    diags = [Diagnostic(code, msg, span, "error", hint) for code, msg, span, hint in env.problems]
    diags += check_params(env, inf)
    own = ids - base[0] if base is not None else ids
    if base is not None:
        inf.adopt(base[2], own, ids)  # (findings only of the declarations both share)
        diags += inf.run(own)
    else:
        diags += inf.run()
    diags += check_fields(env, inf)
    diags += check_procedures(env, inf)
    diags += check_ranges(env, Folder(env))
    if incremental and (base is None or len(own) > KEEP_CHANGED):
        inf.kept()
        _keep((ids, decls, inf, sources), base is None)
    return diags


def check_types(rs, prog, incremental: bool = True) -> list[Diagnostic]:
    """The type diagnostics of a ruleset that compiled without errors (`prog`: its program).

    `incremental`: start from the most similar ruleset checked before in this process (an edition, for
    its options and house rules): only the declarations it does not share are walked again, which
    keeps `civdsl check` of an edition with many options cheap (see `Inference.adopt`)."""
    with room_to_recurse(), collector_paused():  # (many small objects, few freed: see `limits`)
        try:
            diags = _check(rs, prog, incremental)  # (its walk is freed before the collector runs again)
        except RecursionError:
            diags = [Diagnostic("TYP017", "the rules nest too deeply for their types to be checked",
                                Span(rs.entry, 1, 1), "error", "flatten the deepest rules with procedures")]
    unique: dict[tuple, Diagnostic] = {}
    for d in diags:
        unique.setdefault((d.code, d.message, d.span), d)
    return sorted(unique.values(), key=Diagnostic.sort_key)
