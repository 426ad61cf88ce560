"""`civdsl play`: a game told as a story (see `terminal.story`), human seats at this terminal, and a game
that survives its player: Ctrl-C or `save` writes the log, `--resume LOG` plays it on from there, and
`undo` takes back a person's last decision.

Both resuming and undoing play the game again from its start with the answers people gave (agents give
theirs again: they are seeded), silently, up to the moment to go on from; a resumed game checks every
event against the saved log, so a changed or foreign log is refused before anything is written.
"""
from __future__ import annotations

import json
import signal
import sys

from ..api import allowed_players, load_program, new_game
from ..engine.agents import make_agents, with_presets
from ..language.diagnostics import CivError, Span, error
from ..language.paths import writable_log
from ..tools.gamelog import logged_answers, logged_game, write_log
from .config_args import config_from_args
from .terminal import TerminalAgent, make_look, print_standings
from .terminal.agent import UndoRequest
from .terminal.story import Story, ending_sentence

EXIT_OK, EXIT_INTERRUPTED = 0, 130
RANDOM_EVENTS = ("roll", "random", "shuffle")


class Prefixed:
    """A person's seat played again: their earlier answers first, then the person — who is told only
    what happens from there on (`catch_up`)."""

    def __init__(self, inner, answers: list[int], catch_up: bool):
        self.inner = inner
        self.name = inner.name
        self.answers = list(answers)
        self.catch_up = catch_up

    def fork(self):
        return self

    def choose(self, decision) -> int:
        if self.answers:
            return self.answers.pop(0)
        if self.catch_up:
            self.catch_up = False
            self.inner.catch_up(decision)
        return self.inner.choose(decision)


class Session:
    """One `civdsl play`: the config, the agents, the game, and the moment from which it is told."""

    def __init__(self, args):
        self.args = args
        self.saved: list[dict] = []  # a resumed log's events: the replay must give the same
        program = None
        if args.resume:
            given = [name for name in ("config", "config_opt", "edition", "players", "seed", "agents", "options",
                                       "house_rules", "max_rounds") if getattr(args, name, None)]
            if given:
                raise error("RES001", f"--resume plays on the game its log records; it takes no "
                            f"{', '.join('--' + n.replace('_opt', '').replace('_', '-') for n in given)}", None,
                            "leave the config out: the log names the edition, players, agents, options and seed")
            events, self.cfg, program = logged_game(args.resume)
            self.saved = events[1:]
            self.cfg.log = args.log or args.resume
            self.answers = {seat: [a["index"] for a in given]
                            for seat, given in logged_answers(events, args.resume).items()}
        else:
            self.cfg = config_from_args(args, log=args.log)
            self.answers = {}
        self.program = program
        self.log_path = self.cfg.log or f"{_file_name(self.cfg.edition)}-seed{self.cfg.seed}.jsonl"
        if self.cfg.log and not args.resume:  # before the game: a log that cannot be written must not cost a game
            writable_log(self.cfg.log, args.force, None if args.log else self.cfg.span("log"))
        self.json = getattr(args, "format", "text") == "json"
        self.look = make_look(sys.stdout)
        self.humans: list[TerminalAgent] = []

    # -- the game ---------------------------------------------------------------------------------------------
    def build(self, answers: dict[str, list[int]], mark: int):
        """A new game whose human seats give `answers` first; told from event `mark` on."""
        self.mark = mark

        def person(seat: int):
            agent = TerminalAgent()
            agent.on_save = self.save
            agent.can_undo = self.can_undo
            return Prefixed(agent, answers.get(f"P{seat}", []), catch_up=mark > 0)
        game = self.game = new_game(self.cfg, self.program, agents=self._agents(person), logging=True,
                                    echo=self._echo(), check_invariants=self.args.check_invariants,
                                    game_budget=self.args.game_budget)
        self.story = None
        if not self.json and not self.args.quiet:
            story = self.story = Story(game, self.look)
            game.story = True
            game.on_round = lambda n, rows: story.round(n, rows) if len(game.events) >= self.mark else story.quietly(rows)
        if self.saved:
            self._check_against(self.saved)
        return game

    def _agents(self, person) -> list:
        cfg = self.cfg
        if not cfg.edition:
            raise error("CFG014", "no edition given", None, "pass --edition NAME or set `edition:` in the config")
        if self.program is None:
            self.program = load_program(cfg.edition, cfg.options, cfg.house_rules)
        allowed = allowed_players(self.program.ruleset)
        players = cfg.players or (allowed[0] if allowed else 1)
        names = cfg.agents if len(cfg.agents) != 1 else cfg.agents * players
        self.people = {f"P{i + 1}" for i, name in enumerate(names) if name == "human"}
        agents = make_agents(cfg.agents, players, cfg.seed, human=person)
        return with_presets(agents, cfg.choices, lambda tag, seat: cfg.span("choices", tag, seat))

    def _echo(self):
        if self.args.verbose and not self.json:
            return lambda text: print(f"  {text}") if len(self.game.events) >= self.mark else None
        return None

    def _check_against(self, saved: list[dict]) -> None:
        """Every event the replay makes must be the saved log's (LOG011 at the first that is not)."""
        game, emit, path = self.game, self.game.emit, self.args.resume

        def checked(event_type, /, **fields):
            emit(event_type, **fields)
            k = len(game.events) - 1
            if k < len(saved) and json.dumps(game.events[k], sort_keys=True, default=str) != \
                    json.dumps(saved[k], sort_keys=True, default=str):
                raise error("LOG011", f"the saved game does not play on: line {k + 2} of the log differs from the "
                            "game played again", Span(str(path), k + 2, 1),
                            "resume a log written by `civdsl play` with the same rule files, unedited")
        game.emit = checked

    # -- save and undo --------------------------------------------------------------------------------------------
    def save(self) -> str:
        """Write the log as it is now (a new file, or over the earlier save); Ctrl-C cannot cut it in two."""
        previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
        try:
            write_log(self.log_path, self.game, self.cfg, force=self.args.force)
        finally:
            signal.signal(signal.SIGINT, previous)
        return f"saved to {self.log_path}; go on later with: civdsl play --resume {self.log_path}"

    def can_undo(self, decision) -> tuple[bool, str]:
        """A person may take back their last decision while nothing random and nothing hidden has come
        out since: no dice, random pick or shuffle, and no change a spectator may not see."""
        game, seat = self.game, decision.player.name
        events = game.events
        last = next((k for k in range(len(events) - 1, -1, -1) if events[k].get("type") == "decision"
                     and events[k].get("player") == seat and events[k].get("options", 0) > 1), None)
        if last is None:
            return False, "you have made no decision in this game yet"
        names = [p.name for p in game.state.players]
        for ev in events[last + 1:]:
            if ev.get("type") in RANDOM_EVENTS:
                return False, f"something random happened since ({ev['type']} at {ev.get('rule')})"
            if ev.get("type") != "decision" and game.sight.seat_event(ev, "", names) != ev:
                return False, f"hidden information came out since ({ev.get('rule')})"
        self.undo_at = last
        return True, ""

    def answers_before(self, k: int) -> dict[str, list[int]]:
        """The people's answers given before event `k`."""
        out: dict[str, list[int]] = {}
        for ev in self.game.events[:k]:
            if ev.get("type") == "decision" and ev.get("player") in self.people and ev.get("options", 0) > 1:
                out.setdefault(ev["player"], []).append(ev["choice"])
        return out


def play_command(args) -> int:
    session = Session(args)
    game = session.build(session.answers, len(session.saved))
    cfg = session.cfg
    if not session.json:
        print(f"{_title(game)} — {len(game.state.players)} player(s), seed {cfg.seed}, agents "
              f"{', '.join(p.agent for p in game.state.players)}" + (" (resumed)" if session.saved else ""), flush=True)
    while True:
        try:
            result = game.run()
            break
        except UndoRequest:
            k = session.undo_at
            game = session.build(session.answers_before(k), k)
            print("  your last decision is taken back", flush=True)
        except KeyboardInterrupt:
            print(f"\ninterrupted: {session.save()}", file=sys.stderr)
            return EXIT_INTERRUPTED
        except CivError as exc:
            if exc.diagnostics[0].code != "AGT002":
                raise
            print(f"\nthe input ended (AGT002): {session.save()}", file=sys.stderr)
            return EXIT_INTERRUPTED
    if session.json:
        print(json.dumps(result.to_json() | {"labels": result.labels, "why": result.why,
                                            "ending": ending_sentence(game, result)}, ensure_ascii=False))
    else:
        who = session.story.who if session.story else None
        print(f"Game over after {result.rounds} round(s): {result.reason}.")
        print(ending_sentence(game, result, who))
        sys.stdout.flush()
        print_standings(result)
    if cfg.log:
        write_log(cfg.log, game, cfg, force=args.force or bool(args.resume))
        if not session.json:
            print(f"Log written to {cfg.log}")
    return EXIT_OK


def _title(game) -> str:
    return game.rs.game.title if game.rs.game else game.rs.edition()


def _file_name(edition: str | None) -> str:
    name = (edition or "game").rstrip("/").split("/")[-1].removesuffix(".civ")
    return "".join(ch if ch.isalnum() or ch in "-_" else "-" for ch in name) or "game"

