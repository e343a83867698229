"""Play and watch in the browser: ``victorus serve`` (a local web server, one page).

The page (``victorus/web/``) draws the board with :func:`victorus.render.render_layers`
and talks JSON to this server:

* ``GET /api/state?view=<seat|turn>&since=<version>&wait=<s>&frame=<keys>&log=<key:n>``
  the page state, once it differs from ``since`` (long polling), without what the page
  already holds (the board's frame, the log's first turns);
* ``POST /api/new`` a new game (board, players, variant, seats, clock);
* ``POST /api/play`` one action in R38 notation by the person to act;
* ``POST /api/undo`` back to the last action of a person;
* ``POST /api/seats`` who plays each seat: ``person`` or an agent spec;
* ``POST /api/watch`` a game record, or a seeded simulation, to step through;
* ``POST /api/step`` the watched game at action ``index``;
* ``GET /api/record`` the record of the game shown.

One :class:`Table` holds the game; a worker thread plays the agents' turns and
forfeits turns not started within the time limit (rulebook, Time Management;
docs/rules.md interpretation 11). A request that is malformed or illegal gets
``400`` and a message naming what was wrong and what is accepted, and changes
nothing. Every answer is JSON (or the page's files).

The threat model (docs/serve.md): the server has no authentication, so it
listens on loopback and trusts no other origin. Requests whose ``Host`` is not
the bound address (or localhost) are refused (DNS rebinding), and so are writes
whose ``Origin`` is another site; connections are capped, time out, and every
request is bounded in size and work (about 200 MB at worst).
"""

from __future__ import annotations

import bisect
import gzip
import hashlib
import itertools
import json
import secrets
import socket
import threading
import time
from dataclasses import dataclass, replace
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from urllib.parse import parse_qs, urlsplit

from . import record
from .checks import check_int, parse_int
from .constants import KING, PIECE_LETTERS, PIECE_NAMES, QUEEN
from .errors import VictorusError
from .game import DEFAULT_MAX_ACTIONS, Game, play_random, replay_action
from .geometry import SEAT_NAMES
from .render import SEAT_COLORS, render_layers, render_svg
from .session import PERSON, Session
from .simulate import game_seed

#: A request body: a record of MAX_WATCH_ACTIONS actions fits (about 12 bytes an action).
MAX_BODY_BYTES = 2 * 1024 * 1024
MAX_AGENT_DELAY = 10.0
#: The page's agents think in one worker thread: an MCTS budget above these would stall it.
MAX_MCTS_ITERATIONS, MAX_MCTS_SECONDS, MAX_MCTS_THREADS = 20_000, 5.0, 4
#: A watched game (record or simulation) is replayed in full before it is shown; this
#: bounds its memory (two games' histories and the log, about 70 MB) and time (~1 s).
MAX_WATCH_ACTIONS = 100_000
#: The longest a state request waits for a change (long polling), within REQUEST_DEADLINE.
MAX_POLL_WAIT = 20
#: Board frames a page may say it holds (one per view: six seats, with and without labels).
MAX_FRAMES_HELD = 12
#: States of one version kept for the pages that ask the same (views, frames held).
MAX_STATES_KEPT = 32
#: Answers at least this long are gzipped for clients that accept it.
GZIP_FROM_BYTES = 1024
#: Connections served at once (a page uses one or two). At the cap a new connection ends
#: the oldest long poll (answered 503, the page asks again a second later); when none is
#: waiting, the new connection is answered 503 at once.
MAX_CONNECTIONS = 64
#: Long polls waiting at once; one more is answered 503 at once. Fewer than the
#: connections: the other requests (a player's move) always find a connection.
MAX_LONG_POLLS = 48
#: Seconds a connection may stay silent, and seconds it may last in all.
REQUEST_TIMEOUT, REQUEST_DEADLINE = 10.0, 30.0
STATIC = {"/": ("index.html", "text/html; charset=utf-8"),
          "/app.js": ("app.js", "text/javascript; charset=utf-8"),
          "/style.css": ("style.css", "text/css; charset=utf-8")}


class RequestError(VictorusError):
    """A request the server refuses (400 unless ``status`` says otherwise), with the reason."""

    def __init__(self, message: str, status: HTTPStatus = HTTPStatus.BAD_REQUEST):
        super().__init__(message)
        self.status = status


def _placement(game: Game) -> str:
    """R39 field 1 of the position shown: ``label:<seat><piece>`` by cell order."""
    view = game.view()
    return ",".join(f"{label}:{view.piece_code(i)}" for i, label in enumerate(game.board.labels)
                    if view.army[i] >= 0) or "-"


def _check_page_seats(session: Session) -> None:
    """The page's own limit on agents (they share one thread)."""
    for seat, agent in session.agents.items():
        if ((getattr(agent, "iterations", None) or 0) > MAX_MCTS_ITERATIONS
                or (getattr(agent, "seconds", None) or 0) > MAX_MCTS_SECONDS
                or getattr(agent, "threads", 1) > MAX_MCTS_THREADS):
            raise RequestError(f"seat {seat}: at most mcts:{MAX_MCTS_ITERATIONS}, "
                               f"mcts:{MAX_MCTS_SECONDS:g}s and @{MAX_MCTS_THREADS} threads on "
                               f"the page (the agents share one thread), got "
                               f"{session.controllers[seat]!r}")


@dataclass
class Watch:
    """A finished or recorded game being stepped through: ``game`` shows action ``index``."""

    final: Game
    game: Game
    index: int
    actions: list        # final's history, built once
    text: str
    title: str
    turns: list
    ends: list           # the number of actions played by the end of each turn
    clock: bool          # the record has a time limit: a pass may be a forfeit
    agents: tuple        # who played each seat, as the record says ('-' if it does not)

    def turns_shown(self, last: int = 6) -> list:
        """The last ``last`` turns of the position shown (action ``index``), the newest
        perhaps unfinished there."""
        done = bisect.bisect_right(self.ends, self.index)     # turns ended by then
        shown = self.turns[max(0, done - last):done]
        played = self.ends[done - 1] if done else 0
        if played < self.index:                                # a turn under way
            turn = self.turns[done]
            shown.append(replace(turn, actions=turn.actions[:self.index - played]))
        return shown


class Table:
    """The game behind the page: a :class:`~victorus.session.Session` (seats, agents,
    clock, undo) and the watch mode.

    Every change happens under ``lock`` and bumps ``version``; an agent thinks
    on a copy outside the lock and its action is dropped if the game changed
    meanwhile.
    """

    def __init__(self, board="standard", players=None, variant="standard", seats=None,
                 time_limit=None, agent_delay=0.3, seed=0, now=time.monotonic) -> None:
        self.lock = threading.RLock()
        self.changed = threading.Condition(self.lock)   # notified at every new version
        self.version = 0
        self.watch: Watch | None = None
        self.instance = secrets.token_hex(4)     # versions and log keys count from here
        self._log_count, self._log_source, self._log_ply = 0, None, 0
        self._lines: tuple[str, record.TurnLines] | None = None  # (log_key, its turns)
        self._states: dict = {}              # this version's states, by what was asked
        self.seed = seed
        self.now = now                       # the time source of the clock and agent delays
        self.new_game(board, players, variant, seats, time_limit, agent_delay)

    # The session's parts, as the page and the tests read them.
    game = property(lambda self: self.session.game)
    controllers = property(lambda self: self.session.controllers)
    agents = property(lambda self: self.session.agents)
    clock = property(lambda self: self.session.clock)
    time_limit = property(lambda self: self.session.time_limit)

    # -- changes -----------------------------------------------------------------
    def new_game(self, board="standard", players=None, variant="standard", seats=None,
                 time_limit=None, agent_delay=0.3):
        """Start a game; ``seats``: six controllers ('person', an agent spec, or
        anything for an absent seat); default: a person at the first seat, greedy
        agents elsewhere."""
        limit = record.check_time_limit(time_limit, RequestError)
        delay = self._check_delay(agent_delay)
        try:
            game = Game(board, players=players, variant=variant)
            if seats is None:
                seats = [PERSON if s == game.config.present[0] else "greedy" for s in range(6)]
            session = Session(game, self._check_seats(seats), limit, self.seed, self.now)
        except VictorusError as exc:
            raise RequestError(str(exc)) from None
        _check_page_seats(session)
        with self.lock:
            self.session, self.agent_delay = session, delay
            self.watch = None
            self.message = "new game"
            self._changed()

    def set_seats(self, seats):
        with self.lock:
            before = self.session.controllers
            try:
                self.session.set_controllers(self._check_seats(seats))
                _check_page_seats(self.session)
            except VictorusError as exc:
                self.session.set_controllers(before)
                raise RequestError(str(exc)) from None
            self.message = "seats changed"
            self._changed()

    def play(self, text):
        """The person to act plays ``text`` (R38)."""
        if not isinstance(text, str):
            raise RequestError(f"'action' must be a string in R38 notation, got {text!r}")
        with self.lock:
            self._require_play()
            if self.game.is_over:
                raise RequestError(f"the game is over ({self.game.result_reason}); start a "
                                   f"new game")
            seat = self.game.to_move
            if self.controllers[seat] != PERSON:
                raise RequestError(f"{SEAT_NAMES[seat]} (seat {seat}) is played by the "
                                   f"{self.controllers[seat]} agent, not from the page")
            self.game.play(text)                  # IllegalActionError/NotationError: unchanged
            self.message = f"{SEAT_NAMES[seat]} plays {text}"
            self._changed()

    def undo(self):
        """Take back actions until a person's last action is undone."""
        with self.lock:
            self._require_play()
            try:
                self.session.undo()
            except VictorusError as exc:
                raise RequestError(str(exc)) from None
            self.message = "undone"
            self._changed()

    def start_watch(self, text=None, simulate=None):
        """Watch a record's game, or simulation game ``index`` of ``seed``
        (the same game as ``victorus simulate --seed S`` plays as game ``index``)."""
        if (text is None) == (simulate is None):
            raise RequestError("watch needs exactly one of 'record' (a record's text) or "
                               "'simulate' (an object with seed, index, board, players, variant)")
        if text is not None:
            if not isinstance(text, str):
                raise RequestError(f"'record' must be the text of a game record, got "
                                   f"{type(text).__name__}")
            try:
                final = record.loads(text, max_actions=MAX_WATCH_ACTIONS)
            except VictorusError as exc:
                raise RequestError(f"that record cannot be replayed: {exc}") from None
            title = "record"
        else:
            final, text, title = self._simulated(simulate)
        header = record.parse(text)
        turns = record.turn_lines(final)
        watch = Watch(final, record.starting_game(final), 0, final.history(), text, title,
                      turns, list(itertools.accumulate(len(t.actions) for t in turns)),
                      header.clock, header.agents or ("-",) * 6)
        with self.lock:
            self.watch = watch
            self.message = f"watching the {title}: {len(watch.actions)} actions"
            self._changed()

    def step(self, index):
        """Show the watched game after ``index`` actions."""
        with self.lock:
            if self.watch is None:
                raise RequestError("step needs a watched game: load a record or a simulation "
                                   "first")
            w = self.watch
            total = len(w.actions)
            check_int("'index'", index, 0, total, RequestError)
            while w.index < index:
                replay_action(w.game, w.actions[w.index].text, w.clock)
                w.index += 1
            while w.index > index:
                w.game.undo()
                w.index -= 1
            self._changed()

    def tick(self):
        """One step of the worker: forfeit a late turn, or let an agent act."""
        with self.lock:
            if self.watch is not None or self.game.is_over:
                return False
            if self.clock.expired(self.game):
                seat = self.game.to_move
                self.session.forfeit()
                self.message = (f"{SEAT_NAMES[seat]} did not start the turn within "
                                f"{self.time_limit:g} s and forfeits it (pass)")
                self._changed()
                return True
            seat = self.game.to_move
            agent = self.session.agent_to_act()
            if agent is None or self.now() < self.changed_at + self.agent_delay:
                return False
            version, trial = self.version, self.game.copy(history=False)
        action = agent.choose(trial)              # thinks outside the lock
        with self.lock:
            if self.version != version:           # the game changed meanwhile
                return False
            self.game.play(action)
            self.message = f"{SEAT_NAMES[seat]} ({agent.name}) plays {action}"
            self._changed()
            return True

    # -- reading -----------------------------------------------------------------
    def state(self, view="turn", since=None, labels="0", wait=0.0, at=None, frame=None,
              log=None, cancel=None) -> dict:
        """The page's state; ``view`` is the seat at the bottom, or 'turn' (the army to
        act, as the rulebook's rotating board); ``labels`` '1': the board with its
        coordinates; ``{"version": v}`` alone if unchanged. With ``since`` the current
        version, wait up to ``wait`` seconds for a change first (long polling). ``at``
        (play only): show the position after that many actions, the game going on
        unchanged (browsing the log).

        What the page already has is not sent again. ``frame``: the ``frame_key`` of each
        board frame it holds, comma-separated ('' for none; at most MAX_FRAMES_HELD); the
        board then comes as ``frame`` (None when held), ``frame_key`` and ``position``
        (render_layers) instead of ``svg``.
        ``log``: ``(log_key, turns held)``; the log then comes from turn ``log_from``
        (the last turn held, which may have grown), in full if the key changed.
        ``cancel`` (a threading.Event): the wait ends when it is set (and
        ``changed`` notified)."""
        seat_view = self._check_view(view)
        if labels not in ("0", "1"):
            raise RequestError(f"'labels' must be 0 or 1, got {labels!r}")
        held = None if frame is None else _frames_held(frame)
        with self.lock:
            if since is not None and since == self.version and wait > 0:
                self.changed.wait_for(lambda: self.version != since or (
                    cancel is not None and cancel.is_set()), timeout=wait)
            if since is not None and since == self.version:
                return {"version": self.version, "unchanged": True, "clock": self._clock()}
            key = (self.version, seat_view, labels, None if held is None else frozenset(held),
                   log, at)
            known = self._states.get(key)     # the pages woken by one change ask alike
            if known is not None:
                return {**known, "clock": self._clock()}
            if len(self._states) >= MAX_STATES_KEPT:
                self._states.clear()
            self._states[key] = state = self._state(seat_view, labels, at, held, log)
            return state

    def _state(self, seat_view, labels, at, held, log) -> dict:
        """state() of the current version (under ``lock``)."""
        watch = self.watch
        game = watch.game if watch else self.game
        browse = None
        if at is not None:
            if watch is not None:
                raise RequestError("'at' browses a game being played; a watched game "
                                   "steps with /api/step")
            if not 0 <= at <= game.ply:
                raise RequestError(f"'at' must be a number of actions from 0 to "
                                   f"{game.ply}, got {at}")
            browse = {"index": at, "length": game.ply}
            game = game.copy()
            for _ in range(browse["length"] - at):
                game.undo()
        bottom = game.to_move if seat_view is None else seat_view
        people_turn = watch is None and browse is None and self.session.person_to_act()
        state = {
            "version": self.version, "instance": self.instance,
            "mode": "watch" if watch else "play",
            "board": game.board.name, "variant": game.config.variant_string(),
            "players": game.config.players, "present": list(game.config.present),
            "to_move": game.to_move, "to_move_name": SEAT_NAMES[game.to_move],
            "phase": game.phase, "round": game.round, "over": game.is_over,
            "winners": None if game.winners is None else list(game.winners),
            "reason": game.result_reason, "view": bottom,
            "armies": self._armies(game),
            "pieces": dict(zip(PIECE_LETTERS, PIECE_NAMES)),
            "placement": _placement(game),
            "vpn": game.vpn() if game.phase == "start" and not game.is_over else None,
            "message": self.message, "person_to_act": people_turn,
            "legal": self._legal(game) if people_turn else None,
            "clock": self._clock(),
            "time_limit": self.time_limit, "agent_delay": self.agent_delay,
            "seats": list(watch.agents if watch else self.controllers),
        }
        if held is None:
            state["svg"] = render_svg(game, seat=bottom, labels=labels == "1",
                                      interactive=True)
        else:
            shown, state["position"] = render_layers(game, seat=bottom,
                                                     labels=labels == "1",
                                                     interactive=True)
            state["frame_key"] = _frame_key(shown)
            state["frame"] = None if state["frame_key"] in held else shown
        if watch:
            state["watch"] = {"index": watch.index, "length": len(watch.actions),
                              "title": watch.title}
            lines = watch.turns
            state["summary"] = self._summary(game, set(), lines=watch.turns_shown())
        else:
            lines = self._turn_lines()
            state["can_undo"] = browse is None and self.session.can_undo()
            state["summary"] = self._summary(
                game, {s for s in game.config.present if self.controllers[s] == PERSON},
                lines=lines if browse is None else None)
            state["browse"] = browse
        state["log_key"] = self.log_key
        state["log_from"] = 0
        if log is not None and log[0] == self.log_key:
            state["log_from"] = max(0, min(log[1], len(lines)) - 1)
        state["log"] = self._log(lines[state["log_from"]:])
        return state

    def report(self, message: str) -> None:
        """Show ``message`` on the pages (an agent's failure): a change like any other."""
        with self.lock:
            self.message = message
            self._changed()

    def wake(self) -> None:
        """Wake the waiting long polls (each looks at its own ``cancel``)."""
        with self.lock:
            self.changed.notify_all()

    def record_text(self) -> str:
        with self.lock:
            if self.watch is not None:
                return self.watch.text
            return record.dumps(self.game, agents=self.controllers, time_limit=self.time_limit)

    # -- helpers -----------------------------------------------------------------
    def _changed(self):
        # The log (the game's turns, or the watched game's) only grows from one version
        # to the next, unless the game was replaced or actions were taken back: then the
        # pages holding it get it again in full (state's ``log``).
        source = self.watch if self.watch is not None else self.game
        if source is not self._log_source or self.game.ply < self._log_ply:
            self._log_count += 1
        self._log_source, self._log_ply = source, self.game.ply
        self.version += 1
        self._states = {}
        self.changed_at = self.now()
        self.clock.deadline(self.game)            # a new turn's time starts now
        self.changed.notify_all()                 # answer the pages waiting for a change

    @property
    def log_key(self) -> str:
        """The log's name: the same while it only grows (state's ``log``)."""
        return f"{self.instance}.{self._log_count}"

    def _turn_lines(self) -> list:
        """The game's turns, each action replayed once (listed anew when the log's key
        says the game was replaced or actions were taken back)."""
        if self._lines is None or self._lines[0] != self.log_key:
            self._lines = (self.log_key, record.TurnLines(self.game))
        return self._lines[1].update()

    def _clock(self):
        """Seconds left to start the turn, or None (no clock, turn started, watching)."""
        if self.watch is not None:
            return None
        left = self.clock.remaining(self.game)
        return None if left is None else round(left, 1)

    def _require_play(self):
        if self.watch is not None:
            raise RequestError("this is a watched game; start a new game to play")

    @staticmethod
    def _check_seats(seats):
        if not isinstance(seats, list) or len(seats) != 6:
            raise RequestError(f"'seats' must be a list of six controllers (one per seat, "
                               f"'person' or an agent spec), got {seats!r}")
        return seats

    @staticmethod
    def _check_delay(delay):
        if isinstance(delay, bool) or not isinstance(delay, (int, float)) or \
                not 0 <= delay <= MAX_AGENT_DELAY:
            raise RequestError(f"'agent_delay' must be a number of seconds from 0 to "
                               f"{MAX_AGENT_DELAY:g}, got {delay!r}")
        return float(delay)

    @staticmethod
    def _check_view(view):
        if view in ("turn", None):
            return None
        if view in ("0", "1", "2", "3", "4", "5"):
            return int(view)
        raise RequestError(f"'view' must be a seat 0-5 or 'turn', got {view!r}")

    @staticmethod
    def _simulated(spec):
        if not isinstance(spec, dict):
            raise RequestError("'simulate' must be an object with seed, index, board, players, "
                               "variant")
        unknown = set(spec) - {"seed", "index", "board", "players", "variant", "max_actions"}
        if unknown:
            raise RequestError(f"'simulate' has unknown fields {sorted(unknown)}; accepted: "
                               f"seed, index, board, players, variant, max_actions")
        seed, index = spec.get("seed", 0), spec.get("index", 0)
        cap = spec.get("max_actions", DEFAULT_MAX_ACTIONS)
        for name, value, top in (("seed", seed, 2**64 - 1), ("index", index, 2**63 - 1),
                                 ("max_actions", cap, MAX_WATCH_ACTIONS)):
            check_int(f"'{name}'", value, 0, top, RequestError)
        try:
            game = Game(spec.get("board", "standard"), players=spec.get("players"),
                        variant=spec.get("variant", "standard"))
        except VictorusError as exc:
            raise RequestError(str(exc)) from None
        play_random(game, seed=game_seed(seed, index), max_actions=cap)
        agents = ["random" if s in game.config.present else "-" for s in range(6)]
        return (game, record.dumps(game, seed=game_seed(seed, index), agents=agents),
                f"simulation seed {seed}, game {index}")

    @staticmethod
    def _armies(game):
        """Per seat: state, held pieces (R20, R37 points), the knight promotion score
        card (R25 tallies of regular knights, royal knights), King and Queen laps (R29),
        and the team (R33: 1, 2, ...; None when every army plays for itself)."""
        view = game.view()
        laps, cards, royal = {}, [[] for _ in range(6)], [0] * 6
        present, config_teams = game.config.present, game.config.teams
        numbers = {t: n + 1 for n, t in enumerate(sorted({config_teams[s] for s in present}))}
        teams = ({} if len(numbers) == len(present) else    # R33: teams when armies share
                 {s: numbers[config_teams[s]] for s in present})
        for i, piece in enumerate(view.pieces()):
            if piece is None:
                continue
            if piece.kind in (KING, QUEEN):
                laps[(piece.army, piece.kind)] = piece.laps
            elif piece.royal:
                royal[piece.army] += 1
            elif piece.tally:
                cards[piece.army].append(f"{piece.code[:2]} {game.board.labels[i]}: "
                                         f"{piece.tally}/2")
        return [{
            "seat": seat, "name": SEAT_NAMES[seat], "color": SEAT_COLORS[seat],
            "state": view.states[seat], "held": list(view.held[seat]),
            "points": view.held_points[seat], "knight_captures": view.knight_captures[seat],
            "promotion": cards[seat], "royal_knights": royal[seat],
            "king_laps": laps.get((seat, KING)), "queen_laps": laps.get((seat, QUEEN)),
            "team": teams.get(seat),
        } for seat in range(6)]

    @staticmethod
    def _legal(game):
        legs, words = [], []
        for action in game.legal_actions():
            if action.is_leg:
                legs.append([game.board.labels[action.origin], game.board.labels[action.target],
                             action.text])
            else:
                words.append(action.text)
        return {"legs": legs, "words": words}

    @staticmethod
    def _summary(game, person_seats, turns: int = 6, lines=None) -> list:
        """The last ``turns`` turns in words, newest last: who moved what where, and what
        each capture took ("black's Hospitaller g2xh1 took your King"); the cells of the
        newest turn's legs, for a mark on the board. ``lines``: ``game``'s turn lines if
        already made (record.turn_lines replays the whole game)."""
        if not game.ply:
            return []
        lines = (record.turn_lines(game) if lines is None else lines)[-turns:]
        count = sum(len(t.actions) for t in lines)
        trial = game.copy()
        before = []                      # (action, mover, victim) of the last `count` actions
        for action in reversed(game.history(last=count)):
            trial.undo()
            if action.is_leg:
                pieces = trial.view().pieces()
                before.append((action, pieces[action.origin], pieces[action.target]))
            else:
                before.append((action, None, None))
        before.reverse()

        def owner(army):
            return "your" if army in person_seats else f"{SEAT_NAMES[army]}'s"
        out, k = [], 0
        for turn in lines:
            parts, cells = [], []
            for _ in turn.actions:
                action, mover, victim = before[k]
                k += 1
                if mover is None:
                    continue                     # stop, end, pass: the turn's words say it
                cells += [game.board.labels[action.origin], game.board.labels[action.target]]
                text = f"{PIECE_NAMES[mover.kind]} {action.text}"
                if victim is not None:
                    text += f" took {owner(victim.army)} {PIECE_NAMES[victim.kind]}"
                parts.append(text)
            who = "you" if turn.seat in person_seats else SEAT_NAMES[turn.seat]
            words = ", ".join(parts) if parts else (
                "forfeited the turn on time" if turn.forfeit else "passed")
            out.append({"seat": turn.seat, "text": f"{who}: {words}", "cells": cells})
        return out

    @staticmethod
    def _log(turns):
        return [{"turn": f"{t.round}.{t.seat}", "seat": t.seat, "actions": list(t.actions),
                 "forfeit": t.forfeit} for t in turns]


class _Handler(BaseHTTPRequestHandler):
    """HTTP front of a :class:`Table` (``server.table``)."""

    server: Server
    server_version = "victorus"
    protocol_version = "HTTP/1.1"               # keep-alive: a page reuses its connections
    disable_nagle_algorithm = True              # (else the body waits ~40 ms for an ACK)
    timeout = REQUEST_TIMEOUT                   # a silent connection is dropped

    def log_message(self, format, *args):      # quiet: a request per change of the game
        pass

    def handle_one_request(self):
        """Each request on a kept-alive connection gets REQUEST_DEADLINE seconds anew."""
        self.server.renew_deadline(self.request)
        super().handle_one_request()

    def do_GET(self):
        url = urlsplit(self.path)
        if self.headers.get("Content-Length", "0") != "0" or "Transfer-Encoding" in self.headers:
            self.close_connection = True          # a body left unread: the stream is lost
        try:
            self._check_host()
            if url.path in STATIC:
                name, kind = STATIC[url.path]
                body = resources.files("victorus.web").joinpath(name).read_bytes()
                return self._send(HTTPStatus.OK, body, kind)
            query = {k: v[-1] for k, v in parse_qs(url.query, keep_blank_values=True).items()}
            if url.path == "/api/state":
                return self._state(query)
            if url.path == "/api/record":
                return self._send(HTTPStatus.OK, self.server.table.record_text().encode(),
                                  "text/plain; charset=utf-8")
            self._error(HTTPStatus.NOT_FOUND, f"no page {url.path!r}; the page is '/', the "
                                              f"API is under /api/")
        except RequestError as exc:
            self._error(exc.status, str(exc))
        except VictorusError as exc:
            self._error(HTTPStatus.BAD_REQUEST, str(exc))
        except Exception as exc:                  # a bug: answer, and keep serving
            self._error(HTTPStatus.INTERNAL_SERVER_ERROR, f"internal error: {exc!r}")

    def _state(self, query):
        since, wait = _since(query.get("since")), _wait(query.get("wait"))
        args = (query.get("view", "turn"), since, query.get("labels", "0"), wait,
                _at(query.get("at")), query.get("frame"), _log_held(query.get("log")))
        if since is None or wait <= 0:
            return self._json(self.server.table.state(*args))
        cancel = self.server.begin_poll(self.request)      # RequestError 503 if full
        try:
            state = self.server.table.state(*args, cancel=cancel)
        finally:
            self.server.end_poll(self.request)
        if cancel.is_set():                  # ended for a new connection: ask again later
            self.close_connection = True
            raise RequestError(f"busy: {MAX_CONNECTIONS} connections; this wait ended for "
                               f"another client, try again", HTTPStatus.SERVICE_UNAVAILABLE)
        return self._json(state)

    def do_POST(self):
        url = urlsplit(self.path)
        actions = {"/api/new": self._new, "/api/play": self._play, "/api/undo": self._undo,
                   "/api/seats": self._seats, "/api/watch": self._watch,
                   "/api/step": self._step}
        try:
            # Until its body is read, a refused request ends its connection: the body's
            # bytes would be read as the next request.
            self._asked_close, self.close_connection = self.close_connection, True
            self._check_host()
            self._check_origin()
            handler = actions.get(url.path)
            if handler is None:
                raise RequestError(f"no API call {url.path!r}; accepted: "
                                   f"{', '.join(sorted(actions))}", HTTPStatus.NOT_FOUND)
            raw = self._read_body()
            with self.server.post_lock:           # one request's objects in memory at a time
                handler(_parse_body(raw))
        except RequestError as exc:
            return self._error(exc.status, str(exc))
        except VictorusError as exc:
            return self._error(HTTPStatus.BAD_REQUEST, str(exc))
        except Exception as exc:                  # a bug: answer, and keep serving
            return self._error(HTTPStatus.INTERNAL_SERVER_ERROR, f"internal error: {exc!r}")
        self._json({"ok": True, "version": self.server.table.version})

    def _not_allowed(self):
        self.close_connection = True
        self._error(HTTPStatus.METHOD_NOT_ALLOWED, f"method {self.command} is not served; "
                                                   f"accepted: GET (the page, /api/state, "
                                                   f"/api/record) and POST (the API calls)")

    do_PUT = do_DELETE = do_PATCH = do_OPTIONS = do_HEAD = do_TRACE = do_CONNECT = _not_allowed

    def send_error(self, code, message=None, explain=None):
        """The standard library's own refusals (a malformed request line, headers too
        long, an unknown method) as JSON too, like every other answer."""
        self.close_connection = True
        self.request_version = "HTTP/1.0"       # headers even for an unparsed request line
        try:
            reason = message or HTTPStatus(code).phrase
        except ValueError:
            reason = message or "error"
        self._error(code, f"{reason}" + (f": {explain}" if explain else ""))

    # -- who may ask (docs/serve.md, threat model) --------------------------------
    def _check_host(self):
        """A DNS-rebinding page reaches the server under its own name: refuse any
        ``Host`` but the bound address or localhost."""
        host = self.headers.get("Host")
        allowed = self.server.allowed_hosts
        if allowed is not None and (host is None or host.lower() not in allowed):
            raise RequestError(f"Host {host!r} is not served here; accepted: "
                               f"{', '.join(sorted(allowed))}", HTTPStatus.FORBIDDEN)

    def _check_origin(self):
        """Writes only from the page itself: a browser names the page that sends a POST
        in ``Origin``; another site's (or an opaque ``null``) origin is refused."""
        origin = self.headers.get("Origin")
        host = self.headers.get("Host") or ""
        if origin is not None and origin.lower() != f"http://{host.lower()}":
            raise RequestError(f"Origin {origin!r}: only the page served here "
                               f"(http://{host}) may change the game", HTTPStatus.FORBIDDEN)

    # POST handlers: each checks its fields, then asks the table.
    def _new(self, body):
        _fields(body, (), ("board", "players", "variant", "seats", "time_limit", "agent_delay"))
        self.server.table.new_game(body.get("board", "standard"), body.get("players"),
                                   body.get("variant", "standard"), body.get("seats"),
                                   body.get("time_limit"), body.get("agent_delay", 0.3))

    def _play(self, body):
        _fields(body, ("action",))
        self.server.table.play(body["action"])

    def _undo(self, body):
        _fields(body, ())
        self.server.table.undo()

    def _seats(self, body):
        _fields(body, ("seats",))
        self.server.table.set_seats(body["seats"])

    def _watch(self, body):
        _fields(body, (), ("record", "simulate"))
        self.server.table.start_watch(body.get("record"), body.get("simulate"))

    def _step(self, body):
        _fields(body, ("index",))
        self.server.table.step(body["index"])

    def _read_body(self) -> bytes:
        length = self.headers.get("Content-Length")
        if length is None or not (length.isascii() and length.isdigit() and len(length) <= 18):
            self.close_connection = True
            raise RequestError(f"a POST needs a Content-Length (a number of bytes) and a JSON "
                               f"object body, got Content-Length {length!r}"[:300])
        if int(length) > MAX_BODY_BYTES:
            self.close_connection = True
            raise RequestError(f"request body of {length} bytes; at most {MAX_BODY_BYTES}",
                               HTTPStatus.REQUEST_ENTITY_TOO_LARGE)
        try:
            raw = self.rfile.read(int(length))
        except TimeoutError:
            self.close_connection = True
            raise RequestError(f"request body: nothing received for {self.timeout:g} s",
                               HTTPStatus.REQUEST_TIMEOUT) from None
        if len(raw) < int(length):
            raise RequestError(f"request body ended after {len(raw)} of {length} bytes")
        self.close_connection = self._asked_close   # the whole body read: kept alive
        return raw

    def _json(self, data):
        self._send(HTTPStatus.OK, json.dumps(data).encode(), "application/json")

    def _error(self, status, message):
        self._send(status, json.dumps({"error": message}).encode(), "application/json")

    def _send(self, status, body: bytes, kind: str):
        compress = len(body) >= GZIP_FROM_BYTES and _accepts_gzip(
            self.headers.get("Accept-Encoding", ""))
        if compress:                          # the state (mostly SVG) shrinks about 8x
            body = gzip.compress(body, compresslevel=6)
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Vary", "Accept-Encoding")
        if compress:
            self.send_header("Content-Encoding", "gzip")
        self.send_header("Cache-Control", "no-store")
        self.send_header("X-Content-Type-Options", "nosniff")
        if status == HTTPStatus.METHOD_NOT_ALLOWED:
            self.send_header("Allow", "GET, POST")
        if self.close_connection:
            self.send_header("Connection", "close")
        try:
            self.end_headers()
            if self.command != "HEAD":
                self.wfile.write(body)
        except ConnectionError:                # the page went away while its request waited
            self.close_connection = True


def _at(text) -> int | None:
    """The ``at`` of a state request: a number of actions (checked against the game)."""
    if text is None:
        return None
    return parse_int("'at' (a number of actions)", text, 0, 10**9 - 1, RequestError, canonical=False)


def _log_held(text) -> tuple[str, int] | None:
    """The ``log`` of a state request: ``<log_key>:<turns held>``."""
    if text is None:
        return None
    key, colon, count = text.partition(":")
    if not (colon and 0 < len(key) <= 40 and all(c in "0123456789abcdef." for c in key)):
        raise RequestError(f"'log' must be <log_key>:<turns held> (from an earlier state), "
                           f"got {text[:60]!r}")
    return key, parse_int("'log' turns held", count, 0, 10**9 - 1, RequestError, canonical=False)


def _frames_held(text) -> set[str]:
    """The ``frame`` of a state request: frame keys, comma-separated."""
    keys = set(text.split(",")) - {""} if isinstance(text, str) else None
    if keys is None or len(keys) > MAX_FRAMES_HELD or not all(
            len(key) == 16 and all(c in "0123456789abcdef" for c in key) for key in keys):
        raise RequestError(f"'frame' must be frame_keys from earlier states (at most "
                           f"{MAX_FRAMES_HELD}, comma-separated), got {str(text)[:60]!r}")
    return keys


def _frame_key(frame: str) -> str:
    """A short name of a board frame's SVG, for ``frame=`` (the same frame, the same key)."""
    return hashlib.blake2b(frame.encode(), digest_size=8).hexdigest()


def _wait(text) -> float:
    """The ``wait`` of a state request: whole seconds from 0 to MAX_POLL_WAIT."""
    if text is None:
        return 0.0
    return float(parse_int("'wait' (whole seconds)", text, 0, MAX_POLL_WAIT, RequestError,
                           canonical=False))


def _accepts_gzip(header: str) -> bool:
    """Whether an Accept-Encoding header takes gzip (and does not refuse it with q=0)."""
    for part in header.split(","):
        name, _, params = part.strip().partition(";")
        if name.strip().lower() in ("gzip", "*"):
            q = params.strip().lower()
            return not (q.startswith("q=") and q[2:].strip() in ("0", "0.0", "0.00", "0.000"))
    return False


def _parse_body(raw: bytes) -> dict:
    try:
        body = json.loads(raw or b"{}")
    except RecursionError:
        raise RequestError("request body is nested too deeply; the API's bodies are flat "
                           "JSON objects") from None
    except (ValueError, UnicodeDecodeError) as exc:
        raise RequestError(f"request body must be a JSON object: {exc}") from None
    if not isinstance(body, dict):
        raise RequestError(f"request body must be a JSON object, got {type(body).__name__}")
    return body


def _since(text):
    """``?since=``: a state version (digits, bounded), or None."""
    if text is None:
        return None
    return parse_int("'since' (a version number)", text, 0, 2**63 - 1, RequestError, canonical=False)


def _fields(body: dict, required, optional=()):
    missing = [f for f in required if f not in body]
    unknown = sorted(set(body) - set(required) - set(optional))
    accepted = ", ".join(tuple(required) + tuple(optional)) or "none"
    if missing or unknown:
        what = f"missing {missing}" if missing else f"unknown fields {unknown}"
        raise RequestError(f"{what}; accepted fields: {accepted}")


class Server(ThreadingHTTPServer):
    """The web server with its :class:`Table` and the agents' worker thread.

    At most :data:`MAX_CONNECTIONS` connections are served at once (more get 503), and a
    watchdog closes any connection older than :data:`REQUEST_DEADLINE` seconds, so slow or
    half-open clients cannot hold the threads.
    """

    daemon_threads = True

    def __init__(self, table: Table, host: str = "127.0.0.1", port: int = 8000,
                 worker: bool = True):
        """``worker=False``: no agents' thread; the caller steps it with :meth:`work`."""
        self.table = table
        self._stop = threading.Event()
        self.post_lock = threading.Lock()
        self._open: dict[socket.socket, float] = {}
        self._polls: dict[socket.socket, threading.Event] = {}   # oldest first
        self._open_lock = threading.Lock()
        super().__init__((host, port), _Handler)
        self.allowed_hosts = _allowed_hosts(host, self.server_address[1])
        threading.Thread(target=self._watchdog, name="victorus-watchdog", daemon=True).start()
        if worker:
            threading.Thread(target=self._work, name="victorus-agents", daemon=True).start()

    def verify_request(self, request, client_address):
        """Serve a connection; at the cap end the oldest long poll for it, or (none
        waiting) refuse it at once with a JSON 503."""
        with self._open_lock:
            ended = None
            if len(self._open) >= MAX_CONNECTIONS and self._polls:
                ended = self._polls.pop(next(iter(self._polls)))
            if ended is not None or len(self._open) < MAX_CONNECTIONS:
                self._open[request] = time.monotonic() + REQUEST_DEADLINE
        if ended is not None:
            ended.set()
            self.table.wake()
        if request in self._open:
            return True
        body = json.dumps({"error": f"busy: {MAX_CONNECTIONS} connections already; try "
                                    f"again"}).encode()
        try:
            request.settimeout(1.0)
            request.sendall(b"HTTP/1.0 503 Service Unavailable\r\nContent-Type: application/"
                            b"json\r\nConnection: close\r\nContent-Length: " +
                            str(len(body)).encode() + b"\r\n\r\n" + body)
        except OSError:
            pass
        return False

    def begin_poll(self, request) -> threading.Event:
        """A long poll starts on ``request``'s connection: its ``cancel`` event."""
        with self._open_lock:
            if len(self._polls) >= MAX_LONG_POLLS:
                raise RequestError(f"busy: {MAX_LONG_POLLS} long polls already; ask again "
                                   f"without waiting", HTTPStatus.SERVICE_UNAVAILABLE)
            cancel = self._polls[request] = threading.Event()
            return cancel

    def end_poll(self, request) -> None:
        with self._open_lock:
            self._polls.pop(request, None)

    def renew_deadline(self, request):
        with self._open_lock:
            if request in self._open:
                self._open[request] = time.monotonic() + REQUEST_DEADLINE

    def shutdown_request(self, request):
        with self._open_lock:
            self._open.pop(request, None)
        super().shutdown_request(request)

    def _watchdog(self):
        """Close connections that outlive the deadline (a slow drip of bytes resets the
        per-read timeout, not this)."""
        while not self._stop.wait(1.0):
            now = time.monotonic()
            with self._open_lock:
                late = [sock for sock, deadline in self._open.items() if deadline < now]
            for sock in late:
                try:
                    sock.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass

    @property
    def url(self) -> str:
        host, port = self.server_address[:2]
        return f"http://{host!s}:{port}/"

    def work(self) -> bool | None:
        """One step of the agents' worker: True if something was played, None if an agent
        failed (reported on the page; the server goes on)."""
        try:
            return self.table.tick()
        except Exception as exc:                  # an agent's bug must not stop the others
            self.table.report(f"agent error: {exc!r}")     # wakes the waiting pages
            return None

    def _work(self):
        while not self._stop.is_set():
            acted = self.work()
            if not acted:
                self._stop.wait(0.02 if acted is False else 1.0)

    def server_close(self):
        self._stop.set()
        super().server_close()


def _allowed_hosts(host: str, port: int) -> frozenset[str] | None:
    """The ``Host`` values served: the bound address and localhost, with the port (and
    without it on port 80); None (any) when bound to every interface."""
    if host in ("", "0.0.0.0", "::"):
        return None
    names = {host.lower(), "localhost", "127.0.0.1", "[::1]"}
    if ":" in host:
        names = (names - {host.lower()}) | {f"[{host.lower()}]"}
    return frozenset(f"{name}:{port}" for name in names) | (
        frozenset(names) if port == 80 else frozenset())


def serve(host: str = "127.0.0.1", port: int = 8000, table: Table | None = None,
          ready=None) -> None:
    """Serve the page until interrupted; ``ready(url)`` is called once listening."""
    server = Server(table or Table(), host, port)
    try:
        if ready is not None:
            ready(server.url)
        server.serve_forever()
    finally:
        server.server_close()


__all__ = ["PERSON", "RequestError", "Server", "Table", "serve"]
