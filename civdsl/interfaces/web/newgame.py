"""What a new game is (`Spec`), read from the start form or from an uploaded YAML config, and checked the
way `civdsl check CONFIG` checks a config before anything is stored.

A browser is a stranger: editions and house rules are named, never given as paths (a name outside the
shipped lists is refused with the lists), and an upload is read only as plain YAML of bounded size.
"""
from __future__ import annotations

import os
import secrets
import tempfile
from dataclasses import asdict, dataclass, field
from functools import lru_cache

from ...api import allowed_players, check_config
from ...engine.agents import canonical_agent
from ...language import ast as A
from ...language.config import GameConfig, load_config
from ...language.diagnostics import CivError
from ...language.editions import list_editions, list_variants
from ...language.loader import load_ruleset
from ...language.parse_cache import parse_file
from ...language.yamlfile import INT_LIMIT, parse_yaml
from .errors import WebError, from_civ

SEAT_KINDS = ("human", "heuristic", "random")
MAX_CONFIG_UPLOAD = 64 * 1024  # bytes of an uploaded config
MAX_ROUNDS = 10_000


@dataclass
class Spec:
    """Everything that makes a game, as stored: with the stored answers it rebuilds the same game."""

    edition: str
    players: int
    seed: int
    seats: list[str]  # per seat: human (a person in a browser), heuristic or random
    options: list[str] = field(default_factory=list)
    house_rules: list[str] = field(default_factory=list)  # shipped variants, by name
    max_rounds: int | None = None
    choices: dict = field(default_factory=dict)
    ruleset_hash: str | None = None  # the rules it was started with (noted by the game's first start)

    def to_json(self) -> dict:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict) -> "Spec":
        return cls(**data)

    def config(self, agents_for_check: bool = False) -> GameConfig:
        """The library's config (house rules as files). `agents_for_check`: people replaced by random
        agents, so that the set-up can be played to check the config without asking anyone."""
        variants = list_variants()
        seats = [("random" if k == "human" else k) for k in self.seats] if agents_for_check else list(self.seats)
        return GameConfig(edition=self.edition, players=self.players, seed=self.seed, agents=seats,
                          options=list(self.options), house_rules=[str(variants[h]) for h in self.house_rules],
                          max_rounds=self.max_rounds, choices=dict(self.choices))


@dataclass
class EditionInfo:
    name: str
    title: str
    players: list[int]
    options: list[str]
    variants: list[str]


@lru_cache(maxsize=1)
def catalogue() -> dict[str, EditionInfo]:
    """The shipped editions a game may be started from, with their player counts, options and variants."""
    out = {}
    extends = _variant_bases()
    for name, entry in sorted(list_editions().items()):
        try:
            rs = load_ruleset(entry)
        except CivError:
            continue  # an edition that does not load is not offered (`civdsl check` tells why)
        out[name] = EditionInfo(name, rs.game.title if rs.game else name, allowed_players(rs) or [1],
                                sorted(rs.options), sorted(v for v, base in extends.items() if base == name))
    return out


def _variant_bases() -> dict[str, str]:
    """Shipped variant name → the edition it extends."""
    found = {}
    for name, path in list_variants().items():
        try:
            base = next((i.path for i in parse_file(str(path)).items if isinstance(i, A.Extends)), None)
        except CivError:
            continue
        if base:
            found[name] = base
    return found


# ---- the start form ---------------------------------------------------------------------------------------

def _whole(text, what: str, least: int, most: int) -> int:
    try:
        n = int(str(text).strip())
    except ValueError:
        raise WebError(400, f"{what} must be a whole number, not {str(text)[:40]!r}") from None
    if not least <= n <= most:
        raise WebError(400, f"{what} must be from {least} to {most}, not {n}")
    return n


def spec_from_form(form) -> Spec:
    """A spec from the start form's fields: edition, players, seat0..seatN, option*, house_rule*, seed,
    max_rounds (blank: the edition's own end)."""
    editions = catalogue()
    name = form.get("edition", "")
    info = editions.get(name)
    if info is None:
        raise WebError(400, f"unknown edition {str(name)[:60]!r}", f"editions: {', '.join(editions)}")
    players = _whole(form.get("players", info.players[0]), "players", 1, max(info.players))
    if players not in info.players:
        raise WebError(400, f"{name} is played by {', '.join(map(str, info.players))} players, not {players}")
    seats = [canonical_agent(str(form.get(f"seat{i}", "human" if i == 0 else "heuristic"))) for i in range(players)]
    bad = [s for s in seats if s not in SEAT_KINDS]
    if bad:
        raise WebError(400, f"unknown seat kind {bad[0][:40]!r}", f"each seat is one of {', '.join(SEAT_KINDS)}")
    options = _known(form.getlist("option"), info.options, "option", name)
    house_rules = _known(form.getlist("house_rule"), info.variants, "house rule", name)
    seed_text = str(form.get("seed", "")).strip()
    seed = _whole(seed_text, "seed", 0, INT_LIMIT - 1) if seed_text else secrets.randbelow(1_000_000)
    rounds_text = str(form.get("max_rounds", "")).strip()
    max_rounds = _whole(rounds_text, "max_rounds", 1, MAX_ROUNDS) if rounds_text else None
    spec = Spec(name, players, seed, seats, options, house_rules, max_rounds)
    check_spec(spec)
    return spec


def _known(given: list, known: list[str], what: str, edition: str) -> list[str]:
    for g in given:
        if g not in known:
            raise WebError(400, f"{edition} has no {what} {str(g)[:60]!r}",
                           f"{what}s of {edition}: {', '.join(known) or 'none'} (given by name only)")
    return list(dict.fromkeys(given))


def check_spec(spec: Spec, hide: str | None = None) -> None:
    """Everything `civdsl check` finds in the config: options, house rules, players, the set-up played."""
    try:
        problems = check_config(spec.config(agents_for_check=True))
    except CivError as exc:
        problems = exc.diagnostics
    errors = [d for d in problems if d.severity == "error"]
    if errors:
        raise from_civ(CivError(errors), "the game cannot be started with these settings", hide=hide)


# ---- an uploaded config -----------------------------------------------------------------------------------

def spec_from_upload(data: bytes, human_seats: str = "") -> Spec:
    """A spec from an uploaded YAML config, validated as `civdsl check` does; the edition and house rules by
    name only (a path, which could reach the server's files, is refused). `human_seats` ("1,3") makes those
    seats people whatever the config's `agents` say; the config's `human` agents are people too."""
    if len(data) > MAX_CONFIG_UPLOAD:
        raise WebError(413, f"the config is larger than {MAX_CONFIG_UPLOAD // 1024} KiB")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise WebError(400, "the config is not UTF-8 text", "upload a YAML game config (docs/config.md)") from None
    with tempfile.TemporaryDirectory(prefix="civdsl-upload-") as folder:
        path = os.path.join(folder, "config.yaml")
        try:
            _, raw = parse_yaml(text, path)
        except CivError as exc:
            raise from_civ(exc, "the upload is not a YAML game config", hide=path) from None
        if raw is not None and not isinstance(raw, dict):
            raise WebError(400, "the upload is not a YAML game config (a mapping of settings)",
                           "see docs/config.md for the keys")
        _names_only(raw or {})
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        try:
            cfg = load_config(path)
        except CivError as exc:
            raise from_civ(exc, "the config has errors", hide=path) from None
        spec = _spec_of(cfg, raw or {}, human_seats)
        check_spec(spec, hide=path)
    return spec


def _names_only(raw: dict) -> None:
    edition = raw.get("edition")
    if edition is None:
        raise WebError(400, "the config names no edition", "add `edition: NAME`; editions: " + ", ".join(catalogue()))
    if not isinstance(edition, str) or edition not in catalogue():
        raise WebError(400, f"edition {str(edition)[:80]!r} is not a shipped edition's name",
                       "a config uploaded to the server names its edition by name (paths are refused); editions: "
                       + ", ".join(catalogue()))
    rules = raw.get("house_rules") or []
    variants = catalogue()[edition].variants
    for i, h in enumerate(rules if isinstance(rules, list) else [rules]):
        if not isinstance(h, str) or h.removesuffix(".civ") not in variants:
            raise WebError(400, f"house rule {str(h)[:80]!r} (house_rules[{i}]) is not the name of a shipped variant "
                           f"of {edition}",
                           "a config uploaded to the server names house rules by name only (paths are refused); "
                           f"variants of {edition}: {', '.join(variants) or 'none'}")


def _spec_of(cfg: GameConfig, raw: dict, human_seats: str) -> Spec:
    info = catalogue()[raw["edition"]]
    players = cfg.players or info.players[0]
    names = [canonical_agent(a) for a in cfg.agents] or ["random"]
    if len(names) == 1:
        names = names * players
    if len(names) != players:
        raise WebError(400, f"{len(names)} agents given for {players} players",
                       "give one agent per player, or a single name for all")
    for seat in _seat_numbers(human_seats, players):
        names[seat] = "human"
    bad = [n for n in names if n not in SEAT_KINDS]
    if bad:
        raise WebError(400, f"unknown agent {bad[0][:40]!r}", f"agents: {', '.join(SEAT_KINDS)}")
    house_rules = [str(h).removesuffix(".civ") for h in raw.get("house_rules") or []]
    return Spec(raw["edition"], players, cfg.seed, names, list(cfg.options), house_rules, cfg.max_rounds,
                dict(cfg.choices))


def _seat_numbers(text: str, players: int) -> list[int]:
    """"1, 3" → [0, 2]: the seats (numbered from 1) a person plays."""
    out = []
    for part in str(text or "").replace(" ", "").split(","):
        if part:
            out.append(_whole(part, "a human seat", 1, players) - 1)
    return out
