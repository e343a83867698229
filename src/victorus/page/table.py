"""The game behind ``victorus serve``'s page: one `Table` (a session's seats,
agents, clock and undo, and the watch mode), changed under a lock.

Every change goes through one path, `Table._changed`: it bumps ``version``,
restarts the agents' delay and the turn's clock, and wakes every waiter at once (the
threads in `Table.state` with ``since``, and the listeners: the server's sockets).
The page's state is built by `victorus.page.page_state` from the game shown.
"""

from __future__ import annotations

import bisect
import itertools
import secrets
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from .. import record
from ..checks import check_int, parse_int, shown
from ..clock import TurnClock
from ..errors import Cancelled, VictorusError
from ..game import DEFAULT_MAX_ACTIONS, Game, StopToken, play_random, replay_action
from ..geometry import SEAT_NAMES
from ..notation import Action, parse_action
from ..record import TurnLine
from ..search.protocols import takes_stop
from ..search.registry import make_page_agent
from ..session import PERSON, Session
from ..simulate import game_seed
from . import page_state
from .analysis import Analysis, Review
from .narration import Narration
from .page_state import RequestError, State

if TYPE_CHECKING:
    from ..search.protocols import Agent

MAX_AGENT_DELAY = 10.0
#: The most actions of a variation analysed (``analyse``'s ``moves``).
MAX_VARIATION = 200
#: A watched game (record or simulation) is replayed in full before it is shown; this
#: bounds its memory (two games' histories and the log, about 70 MB) and time (~1 s).
MAX_WATCH_ACTIONS = 100_000
#: The most actions of a game played on the page (R36's cap, as random play's): there it
#: stops, unfinished (its record says ``result: unfinished``), and nobody acts again; this
#: bounds what the game holds (about 1.2 KB an action: docs/serve.md, What a page game
#: holds).
PAGE_MAX_ACTIONS = DEFAULT_MAX_ACTIONS


#: The versions whose watched state is kept for the socket's deltas.
WATCHED_KEPT = 64


def _deltable(old: State, new: State) -> bool:
    """Whether a delta carries the change from watched state ``old`` to ``new``: the same
    game and log, no army eliminated (the board's frame changes), no seats moved."""
    same = all(old.get(k) == new.get(k) for k in ("instance", "mode", "log_key", "game",
                                                  "board", "present"))
    out = [[a["state"] == "eliminated" for a in w["armies"]] for w in (old, new)]
    return same and out[0] == out[1] and new["message"] != SEATS_MOVED_WORDS


#: The table's message when the person seats moved to another tab (each tab reads it in
#: words of its own: the server's ``_told``), never sent as a delta.
SEATS_MOVED_WORDS = "the person seats moved to another tab"


@dataclass
class Watch:
    """A finished or recorded game being stepped through: ``game`` shows action ``index``."""

    final: Game
    game: Game
    index: int
    actions: list[Action]        # final's history, built once
    text: str
    title: str
    turns: list[TurnLine]
    ends: list[int]              # the number of actions played by the end of each turn
    clock: bool                  # the record has a time limit: a pass may be a forfeit
    agents: tuple[str, ...]      # who played each seat, as the record says ('-' if it does not)
    events: list[list[str]]      # per action of final, its events in words (victorus.page.narration)
    resigned: int | None = None    # the seat that resigned after the last action

    def turns_shown(self, last: int = page_state.SUMMARY_TURNS) -> list[TurnLine]:
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
    """The game behind the page: a `Session` (seats, agents,
    clock, undo) and the watch mode.

    Every change happens under ``lock`` and goes through `_changed`; an agent
    thinks on a copy outside the lock and its action is dropped if the game changed
    meanwhile. `subscribe` adds a listener called (under the lock, so it must only
    schedule work) with the new version at every change.
    """

    def __init__(self, board: str = "standard", players: int | None = None,
                 variant: str = "standard", seats: list[Any] | None = None,
                 time_limit: float | None = None, agent_delay: float = 0.3, seed: int = 0,
                 now: Callable[[], float] = time.monotonic,
                 max_actions: int = PAGE_MAX_ACTIONS) -> None:
        self.lock = threading.RLock()
        self.changed = threading.Condition(self.lock)   # notified at every new version
        self.version = 0
        self.watch: Watch | None = None
        self.instance = secrets.token_hex(4)     # versions and log keys count from here
        self._listeners: list[Callable[[int], None]] = []
        self._log_count, self._log_ply = 0, 0
        self._log_source: object = None      # the game or watch the log was made of
        self._lines: tuple[str, record.TurnLines] | None = None  # (log_key, its turns)
        self._narration: tuple[str, Narration] | None = None    # (log_key, its events)
        self._entries: tuple[str, list[State]] = ("", [])         # (log_key, the log sent)
        # the states of this version, by choices (view, labels, layered, game, its length)
        self._shown: dict[tuple[int | None, bool, bool, int, int], State] = {}
        self.number = 0                          # games started on this table (new_game)
        self.thinking: StopToken | None = None   # the token of the agent thinking now
        self.resigned: int | None = None         # the seat that resigned the game played
        self.premove: str | None = None          # the person's next turn's first action
        self.premove_army: int | None = None     # the army it was made for (its piece's)
        self.moves = 0                           # changes of the game (not of its words)
        self._watched: dict[int, State] = {}     # the watched state of recent versions
        self._deltas: dict[tuple[int, int], State | None] = {}
        self.analysis = Analysis()
        self._looked = False                     # a page has asked for the state
        self.review = Review(seed=seed)          # of a finished game (review_game)
        self.seed = seed
        self.now = now                       # the time source of the clock and agent delays
        self.max_actions = check_int("max_actions", max_actions, 1, PAGE_MAX_ACTIONS)
        self.new_game(board, players, variant, seats, time_limit, agent_delay)

    @property
    def analysis(self) -> Analysis:
        return self._analysis

    @analysis.setter
    def analysis(self, analysis: Analysis) -> None:
        """The analysis of the page (tests set their own budgets): its updates wake the
        sockets (their message's ``analysis``), the version unchanged."""
        self._analysis = analysis
        analysis.notify = self._tell_listeners

    def _tell_listeners(self) -> None:
        for listener in list(self._listeners):
            listener(self.version)

    # The session's parts, as the page and the tests read them.
    @property
    def game(self) -> Game:
        return self.session.game

    @property
    def controllers(self) -> list[str]:
        return self.session.controllers

    @property
    def agents(self) -> dict[int, Agent]:
        return self.session.agents

    @property
    def clock(self) -> TurnClock:
        return self.session.clock

    @property
    def time_limit(self) -> float | None:
        return self.session.time_limit

    @property
    def capped(self) -> bool:
        """The game played has reached the page's cap (``max_actions``) unfinished: it
        stops there, as if over (nobody acts, the clock stops)."""
        return self.game.ply >= self.max_actions and not self.game.is_over

    # -- the one path of every change ----------------------------------------------------
    def _changed(self, message: str | None = None, game: bool = True) -> None:
        """A new version: the log's key when the log did not just grow, the agents' delay
        and the turn's clock start again, and every waiter and listener is told. A
        person's premove is tried first when this change brings their turn (the turn's
        clock then starts after it). ``game`` False: only words changed (a premove
        queued): an agent thinking goes on."""
        if message is not None:
            self.message = message
        if game:
            self.moves += 1
            self._try_premove()
            if self.thinking is not None:         # an agent's answer is no longer wanted:
                self.thinking.stop()              # its search ends now, not at its budget
                self.thinking = None
        # The log (the game's turns, or the watched game's) only grows from one version
        # to the next, unless the game was replaced or actions were taken back: then the
        # pages holding it get it again in full (state's ``log``).
        source = self.watch if self.watch is not None else self.game
        if source is not self._log_source or self.game.ply < self._log_ply:
            self._log_count += 1
        self._log_source, self._log_ply = source, self.game.ply
        self.version += 1
        self._shown.clear()
        if game:
            self.changed_at = self.now()
        self.clock.deadline(self.game)            # a new turn's time starts now
        self.changed.notify_all()                 # answer the requests waiting for a change
        for listener in list(self._listeners):
            listener(self.version)

    def subscribe(self, listener: Callable[[int], None]) -> None:
        with self.lock:
            self._listeners.append(listener)

    def unsubscribe(self, listener: Callable[[int], None]) -> None:
        with self.lock:
            if listener in self._listeners:
                self._listeners.remove(listener)

    # -- changes -------------------------------------------------------------------------
    def tell(self, message: str) -> None:
        """A new version saying ``message``, the game unchanged: the pages look again."""
        with self.lock:
            self._changed(message)

    def set_premove(self, text: object) -> None:
        """Queue ``text`` (R38: a move of one of the person's pieces) as the first action
        of the next turn of that piece's army (None: drop the one queued, accepted at any
        time); refused when a person is to act now (play it), while watching, or once
        the game is over. Its legality is judged when the turn comes."""
        with self.lock:
            if text is None:                      # (nothing queued: nothing to do)
                if self.premove is not None:
                    self._drop_premove()
                    self._changed("premove dropped", game=False)
                return
            self._require_going_on()
            if not isinstance(text, str):
                raise RequestError(f"'action' must be a string in R38 notation or null, got "
                                   f"{shown(text, 60)}")
            if self.session.person_to_act():
                raise RequestError(f"it is {SEAT_NAMES[self.game.to_move]}'s turn, played from "
                                   f"the page: play the action (/api/play), a premove waits "
                                   f"for a turn to come")
            if PERSON not in self.controllers:
                raise RequestError("a premove is for a person's next turn; every seat is an "
                                   "agent")
            try:
                action = parse_action(self.game.board, text)
            except VictorusError as exc:
                raise RequestError(f"'action': {exc}") from None
            self.premove_army = self._premove_army(action)
            self.premove = action.text
            self._changed(f"premove {action.text} queued", game=False)

    def _premove_army(self, action: Action) -> int:
        """(under the lock) The army a premove is made for: its piece's, which must be an
        army played from the page and still in the game."""
        code = self.game.piece_at(self.game.board.labels[action.origin]) if action.is_leg \
            else None
        seat = int(code[0]) if code else None
        states = self.game.view().states
        people = [s for s in self.game.config.present if self.controllers[s] == PERSON
                  and states[s] != "eliminated"]
        if seat not in people:
            names = ", ".join(SEAT_NAMES[s] for s in people) or "none left"
            what = (f"{action.text} moves no piece" if seat is None
                    else f"{action.text} moves a piece of {SEAT_NAMES[seat]}")
            raise RequestError(f"a premove moves a piece of an army played from the page "
                               f"({names}); {what}")
        return seat

    def _drop_premove(self) -> None:
        self.premove, self.premove_army = None, None

    def _try_premove(self) -> None:
        """(in `_changed`, under the lock) Play the premove if this change brought its
        army's turn: at once if it is legal then, else it is dropped, said in words. The
        turn of another army played from the page drops it (a premove is never played for
        another army), and so does the game's end."""
        text, army = self.premove, self.premove_army
        if text is None:
            return
        if self.watch is not None or self.resigned is not None or self.capped or \
                self.game.is_over:
            self._drop_premove()                  # (the game's end is told on its own)
            return
        if self.game.phase != "start" or not self.session.person_to_act():
            return
        self._drop_premove()
        seat = self.game.to_move
        if seat != army:
            assert army is not None
            self.message = (f"{SEAT_NAMES[army]}'s premove {text} was dropped: "
                            f"{SEAT_NAMES[seat]}'s turn came first")
            return
        try:
            self.game.play(text)
        except VictorusError as exc:
            self.message = f"{SEAT_NAMES[seat]}'s premove {text} was not legal then: {exc}"
            return
        self.message = f"{SEAT_NAMES[seat]} plays {text} (premove)"

    def new_game(self, board: str = "standard", players: int | None = None,
                 variant: str = "standard", seats: list[Any] | None = None,
                 time_limit: float | None = None, agent_delay: float = 0.3) -> None:
        """Start a game; ``seats``: six controllers ('person', an agent spec, or
        anything for an absent seat); default: a person at the first seat, greedy
        agents elsewhere."""
        limit = record.check_time_limit(time_limit, RequestError)
        delay = self._check_delay(agent_delay)
        try:
            game = Game(board, players=players, variant=variant)
            if seats is None:
                seats = [PERSON if s == game.config.present[0] else "greedy" for s in range(6)]
            session = Session(game, self._check_seats(seats), limit, self.seed, self.now,
                              make_page_agent)
        except VictorusError as exc:
            raise RequestError(str(exc)) from None
        with self.lock:
            self.review.cancel()                  # (the game reviewed is left)
            self.analysis.cancel()                # its position is no longer shown
            self.session, self.agent_delay = session, delay
            self.watch, self.resigned = None, None
            self._drop_premove()
            self.number += 1
            self._changed("new game")

    def set_seats(self, seats: list[Any]) -> None:
        with self.lock:
            before = self.session.controllers
            self._drop_premove()
            try:
                self.session.set_controllers(self._check_seats(seats))
            except VictorusError as exc:
                self.session.set_controllers(before)
                raise RequestError(str(exc)) from None
            self._changed("seats changed")

    def play(self, text: str) -> None:
        """The person to act plays ``text`` (R38)."""
        if not isinstance(text, str):
            raise RequestError(f"'action' must be a string in R38 notation, got {shown(text, 60)}")
        with self.lock:
            self._require_going_on()
            seat = self.game.to_move
            if self.controllers[seat] != PERSON:
                raise RequestError(f"{SEAT_NAMES[seat]} (seat {seat}) is played by the "
                                   f"{self.controllers[seat]} agent, not from the page")
            self.game.play(text)                  # IllegalActionError/NotationError: unchanged
            self._changed(f"{SEAT_NAMES[seat]} plays {text}")

    def resign(self, seat: int) -> None:
        """A person gives up the game played for their army ``seat`` (and its team): the
        game ends there, the other teams win; the record keeps the actions played."""
        with self.lock:
            self._require_going_on()
            game = self.game
            check_int("'seat'", seat, 0, 5, RequestError)
            if seat not in game.config.present or self.controllers[seat] != PERSON:
                people = [SEAT_NAMES[s] for s in game.config.present
                          if self.controllers[s] == PERSON] or ["nobody"]
                raise RequestError(f"only a person's army resigns; a person plays "
                                   f"{', '.join(people)}, got seat {shown(seat, 60)}")
            self.resigned = seat
            self._drop_premove()
            self._changed(f"{SEAT_NAMES[seat]} resigned")

    def undo(self) -> None:
        """Take back actions until a person's last action is undone."""
        with self.lock:
            self._require_play()
            if self.resigned is not None:
                raise RequestError("the game was resigned; start a new game")
            if self.capped:
                raise RequestError(self._cap_words())
            try:
                self.session.undo()
            except VictorusError as exc:
                raise RequestError(str(exc)) from None
            self._drop_premove()
            self._changed("undone")

    def start_watch(self, text: str | None = None, simulate: dict[str, Any] | None = None) -> None:
        """Watch a record's game, or simulation game ``index`` of ``seed``
        (the same game as ``victorus simulate --seed S`` plays as game ``index``)."""
        if (text is None) == (simulate is None):
            raise RequestError("watch needs exactly one of 'record' (a record's text) or "
                               "'simulate' (an object with seed, index, board, players, variant)")
        if text is not None:
            final, title = self._recorded(text), "record"
        else:
            final, text, title = self._simulated(simulate)
        header = record.parse(text)
        turns = record.turn_lines(final)
        events = Narration(final, record.starting_game(final)).update()
        watch = Watch(final, record.starting_game(final), 0, final.history(), text, title,
                      turns, list(itertools.accumulate(len(t.actions) for t in turns)),
                      header.clock, header.agents or ("-",) * 6, events, header.resigned)
        with self.lock:
            self.review.cancel()
            self.analysis.cancel()
            self.watch = watch
            self._drop_premove()
            self._changed(f"watching the {title}: {len(watch.actions)} actions")

    def step(self, index: int) -> None:
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

    def tick(self) -> bool:
        """One step of the worker: forfeit a late turn, or let an agent act; nothing once
        the game is over or at the page's cap."""
        with self.lock:
            if self.watch is not None or self.game.is_over or self.resigned is not None or \
                    self.capped:
                return False
            seat = self.game.to_move
            if self.clock.expired(self.game):
                self.session.forfeit()
                words = (f"{SEAT_NAMES[seat]} did not start the turn within "
                         f"{self.time_limit:g} s and forfeits it (pass)")
                if self.clock.paused(self.game):
                    words += (f"; a whole round was forfeited on time: the clock is paused "
                              f"until {SEAT_NAMES[self.game.to_move]} plays")
                self._changed(words)
                return True
            agent = self.session.agent_to_act()
            if agent is None or self.now() < self.changed_at + self.agent_delay:
                return False
            moves, trial = self.moves, self.game.copy(history=False)
            self.thinking = StopToken()           # stopped by the next change (_changed)
            token = self.thinking
        choose: Callable[..., Action] = agent.choose   # (a built-in agent's takes a stop token)
        try:                                      # thinks outside the lock
            action = choose(trial, stop=token) if takes_stop(agent) else choose(trial)
        except Cancelled:                         # the game changed before it began
            return False
        with self.lock:
            if self.thinking is token:
                self.thinking = None
            if self.moves != moves:               # the game changed meanwhile
                return False
            self.game.play(action)
            self._changed(f"{SEAT_NAMES[seat]} ({agent.name}) plays {action}")
            return True

    def work(self) -> bool | None:
        """One step of the agents' worker: True if something was played, None if an agent
        failed (told to every page at once, as any change; the server goes on)."""
        try:
            return self.tick()
        except Exception as exc:                  # an agent's bug must not stop the others
            with self.lock:
                self._changed(f"agent error: {shown(exc, 200)}")
            return None

    # -- reading -------------------------------------------------------------------------
    def state(self, view: str = "turn", since: int | None = None, labels: str = "0",
              wait: float = 0.0, at: int | None = None, frame: str | None = None,
              log: tuple[str, int] | None = None) -> State:
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
        (the last turn held, which may have grown), in full if the key changed."""
        seat_view = page_state.check_view(view)
        show_labels = page_state.check_labels(labels)
        held = None if frame is None else page_state.frames_held(frame)
        with self.lock:
            if not self._looked and self.watch is None and not self.game.ply:
                self.clock.restart()              # the first game's clock starts when shown
            self._looked = True
            if since is not None and since == self.version and wait > 0:
                self.changed.wait_for(lambda: self.version != since, timeout=wait)
            if since is not None and since == self.version:
                return self.unchanged()
            if at is None:
                full = self._shown_state(seat_view, show_labels, held is not None)
            else:
                full = self._state(seat_view, show_labels, held is not None, self._browsed(at))
            return self._for_page(full, held, log)

    def unchanged(self) -> State:
        """The answer to a page that has the current version."""
        with self.lock:
            return {"version": self.version, "unchanged": True, "clock": self._clock()}

    def watched(self) -> State:
        """The watched state of this version (docs/serve.md, The page's HTTP API), made
        once per version and kept for the deltas of the next (`WATCHED_KEPT` versions)."""
        with self.lock:
            if self.version not in self._watched:
                full = self._shown_state(0, False, True)
                self._watched[self.version] = page_state.watched(full)
                for old in [v for v in self._watched if v <= self.version - WATCHED_KEPT]:
                    del self._watched[old]
            return self._watched[self.version]

    def notice(self, base: tuple[str, int] | None) -> State:
        """A socket's message: ``version``, ``instance``, ``clock``, ``analysis`` (its
        serial) and, when the change from ``base`` (the ``(instance, version)`` the socket
        told before) is one a delta carries, ``base`` and ``delta``."""
        with self.lock:
            self.watched()                        # (the next message's base)
            out: State = {"version": self.version, "instance": self.instance,
                          "clock": self._clock(), "analysis": self.analysis.state()["serial"]}
            if base is None or base[0] != self.instance or base[1] == self.version:
                return out
            change = self._delta(base[1])
            if change is not None:
                out.update(base=base[1], delta=change)
            return out

    def _delta(self, base: int) -> State | None:
        """The delta from version ``base`` to this one (made once for every socket), or
        None where a delta does not carry the change (the page asks for the state)."""
        key = (base, self.version)
        if key not in self._deltas:
            old, new = self._watched.get(base), self.watched()
            self._deltas = {k: v for k, v in self._deltas.items() if k[1] == self.version}
            self._deltas[key] = None if old is None or not _deltable(old, new) else \
                page_state.delta(old, new)
        return self._deltas[key]

    def record_text(self) -> str:
        with self.lock:
            if self.watch is not None:
                return self.watch.text
            return record.dumps(self.game, agents=self.controllers, time_limit=self.time_limit,
                                resigned=self.resigned)

    @property
    def log_key(self) -> str:
        """The log's name: the same while it only grows (state's ``log``)."""
        return f"{self.instance}.{self._log_count}"

    # -- the state, from the game shown (victorus.page.page_state) ------------------------------
    def _shown_state(self, seat_view: int | None, labels: bool, layered: bool) -> State:
        """The whole state of this version for these choices, made once for every page
        that asks (many pages watching ask for the same)."""
        shown = self.watch.game if self.watch is not None else self.game
        key = (seat_view, labels, layered, id(shown), shown.ply)
        if key not in self._shown:
            self._shown[key] = self._state(seat_view, labels, layered)
        return self._shown[key]

    def _browsed(self, at: int) -> tuple[Game, State]:
        """(the position after ``at`` actions of the game played, the browse field)."""
        if self.watch is not None:
            raise RequestError("'at' browses a game being played; a watched game "
                               "steps with /api/step")
        if not 0 <= at <= self.game.ply:
            raise RequestError(f"'at' must be a number of actions from 0 to "
                               f"{self.game.ply}, got {at}")
        game = self.game.copy()
        for _ in range(self.game.ply - at):
            game.undo()
        return game, {"index": at, "length": self.game.ply,
                      "over": self.game.is_over or self.resigned is not None or self.capped}

    def _state(self, seat_view: int | None, labels: bool, layered: bool,
               browsed: tuple[Game, State] | None = None) -> State:
        """The whole state (every frame, the whole log) of the game shown, or of
        ``browsed`` (a past position, `_browsed`)."""
        watch = self.watch
        game = browsed[0] if browsed else (watch.game if watch else self.game)
        bottom = game.to_move if seat_view is None else seat_view
        people_turn = (watch is None and browsed is None and self.resigned is None
                       and not self.capped and self.session.person_to_act())
        state = {"version": self.version, "instance": self.instance,
                 "mode": "watch" if watch else "play", **page_state.game_fields(game, bottom),
                 "message": self.message, "person_to_act": people_turn,
                 "legal": page_state.legal(game) if people_turn else None,
                 "clock": self._clock(), "time_limit": self.time_limit,
                 "agent_delay": self.agent_delay, "premove": None if watch else self.premove,
                 "premove_army": None if watch else self.premove_army,
                 "seats": list(watch.agents if watch else self.controllers),
                 **page_state.board_fields(game, bottom, labels, set() if layered else None)}
        if watch:
            state["watch"] = {"index": watch.index, "length": len(watch.actions),
                              "title": watch.title}
            state["summary"] = page_state.summary(game, set(), lines=watch.turns_shown())
            state.update(page_state.outcome(game, ()))
            if watch.resigned is not None and watch.index == len(watch.actions):
                state.update(page_state.resigned_fields(game, watch.resigned, ()))
            lines, events = watch.turns, watch.events
        else:
            lines = self._turn_lines()
            state["can_undo"] = browsed is None and self.session.can_undo()
            people = {s for s in game.config.present if self.controllers[s] == PERSON}
            state["summary"] = page_state.summary(game, people,
                                                  lines=lines if browsed is None else None)
            state["browse"] = browsed[1] if browsed else None
            state["clock_seat"] = self.game.to_move      # the live game's, even when browsing
            state["army_clocks"] = None if self.time_limit is None else \
                page_state.army_clocks(self.game, lines, self.resigned is not None or self.capped,
                                       self.clock.paused(self.game))
            state["record_head"] = "\n".join(record.header_lines(
                self.game, agents=self.controllers, time_limit=self.time_limit,
                resigned=self.resigned, turns=lines))
            state["game"] = self.number
            state.update(page_state.outcome(game, people))
            if self.resigned is not None and browsed is None:
                state.update(page_state.resigned_fields(game, self.resigned, people))
            elif self.capped and browsed is None:
                state.update(page_state.capped_fields(self.max_actions))
            events = self._events()
        state.update(page_state.log_fields(self._log_entries(lines, events), self.log_key,
                                           None))
        return state

    def _for_page(self, full: State, held: set[str] | None, log: tuple[str, int] | None) -> State:
        """``full`` without what the page holds (its frames, its log's turns), and the
        clock as it is now."""
        state = dict(full, clock=self._clock())
        if held is not None and state["frame_key"] in held:
            state["frame"] = None
        state.update(page_state.log_fields(full["log"], full["log_key"], log))
        return state

    def _turn_lines(self) -> list[TurnLine]:
        """The game's turns, each action replayed once (listed anew when the log's key
        says the game was replaced or actions were taken back)."""
        if self._lines is None or self._lines[0] != self.log_key:
            self._lines = (self.log_key, record.TurnLines(self.game))
        return self._lines[1].update()

    def _events(self) -> list[list[str]]:
        """Per action of the game, its events in words, each action narrated once (anew
        when the log's key changes, as `_turn_lines`)."""
        if self._narration is None or self._narration[0] != self.log_key:
            self._narration = (self.log_key,
                               Narration(self.game, record.starting_game(self.game)))
        return self._narration[1].update()

    def _log_entries(self, lines: Sequence[TurnLine], events: Sequence[Sequence[str]]) -> list[State]:
        """The log's entries of ``lines`` (``events``: per action, its events), made once
        each: only the last turn (which may have grown) and the new ones are made again
        while the log's key is the same."""
        if self._entries[0] != self.log_key:
            self._entries = (self.log_key, [])
        entries = self._entries[1]
        start = max(0, len(entries) - 1)
        del entries[start:]
        first = sum(len(t.actions) for t in lines[:start])
        entries += page_state.log_entries(lines[start:], events, first)
        return entries

    def _clock(self) -> float | None:
        """Seconds left to start the turn, or None (no clock, turn started, watching,
        resigned)."""
        if self.watch is not None or self.resigned is not None or self.capped:
            return None
        left = self.clock.remaining(self.game)
        return None if left is None else round(left, 1)

    def _require_play(self) -> None:
        if self.watch is not None:
            raise RequestError("this is a watched game; start a new game to play")

    def _require_going_on(self) -> None:
        self._require_play()
        if self.resigned is not None:
            raise RequestError(f"the game is over ({SEAT_NAMES[self.resigned]} resigned); "
                               f"start a new game")
        if self.game.is_over:
            raise RequestError(f"the game is over ({self.game.result_reason}); start a "
                               f"new game")
        if self.capped:
            raise RequestError(self._cap_words())

    def _cap_words(self) -> str:
        return (f"the game stopped unfinished at the page's cap of {self.max_actions:,} "
                f"actions; start a new game")

    def analyse(self, at: int | None = None, vpn: object = None, moves: object = None,
                stop: object = False) -> State:
        """Start the analysis (`victorus.page.analysis.Analysis`, deepening in a thread of its
        own) of the position shown, of the game shown's position after ``at`` actions
        (played or watched), or of ``vpn``, with the variation ``moves`` (R38 actions)
        played from it on a copy; or ``stop`` the running one. Its state so far. A
        finished game's last position is told by its result."""
        if not isinstance(stop, bool):
            raise RequestError(f"'stop' must be true or false, got {shown(stop, 60)}")
        if stop:
            if at is not None or vpn is not None or moves is not None:
                raise RequestError("'stop' stops the running analysis; give it alone")
            return self.analysis.stop()
        if vpn is not None and at is not None:
            raise RequestError("give at most one of 'vpn' (a position) and 'at' (a number of "
                               "actions of the game shown)")
        if moves is None:
            moves = []
        if not isinstance(moves, list) or len(moves) > MAX_VARIATION or \
                not all(isinstance(m, str) for m in moves):
            raise RequestError(f"'moves' must be a list of at most {MAX_VARIATION} actions "
                               f"in R38 notation, got {shown(moves, 60)}")
        if vpn is not None:
            position = self._from_vpn(vpn)
            source: State = {"vpn": vpn, "moves": list(moves)}
        with self.lock:
            winners = None
            if vpn is None:
                if at is not None:
                    check_int("'at'", at, 0, 10**9, RequestError)
                    position = self._position_at(at)
                else:
                    position = self.watch.game if self.watch is not None else self.game
                    if self.resigned is not None and self.watch is None and not moves:
                        winners = self._resigned_winners()
                position = position.copy()
                source = {"at": at, "moves": list(moves)}
            version = self.version
        for number, text in enumerate(moves, 1):
            if position.is_over:
                raise RequestError(f"'moves' action {number} ({shown(text, 40)}): the game "
                                   f"is over there ({position.result_reason})")
            try:
                position.play(text)
            except VictorusError as exc:
                raise RequestError(f"'moves' action {number} ({shown(text, 40)}) is not legal "
                                   f"there: {exc}") from None
        return self.analysis.start(position, version, at, winners, source)

    def _position_at(self, at: int) -> Game:
        """(under the lock) The game shown (played or watched) after ``at`` actions."""
        if self.watch is None:
            return self._browsed(at)[0]
        w = self.watch
        if not 0 <= at <= len(w.actions):
            raise RequestError(f"'at' must be a number of actions from 0 to "
                               f"{len(w.actions)}, got {at}")
        game = w.game.copy()
        index = w.index
        while index > at:
            game.undo()
            index -= 1
        while index < at:
            replay_action(game, w.actions[index].text, w.clock)
            index += 1
        return game

    @staticmethod
    def _from_vpn(vpn: object) -> Game:
        if not isinstance(vpn, str) or len(vpn) > 4096:
            raise RequestError(f"'vpn' must be a position in R39 notation (a string), got "
                               f"{shown(vpn, 60)}")
        try:
            return Game.from_vpn(vpn)
        except VictorusError as exc:
            raise RequestError(f"'vpn' is not a position: {exc}") from None

    def _resigned_winners(self) -> tuple[int, ...]:
        """The winners of the resigned game (called for a resigned game only)."""
        resigned = self.resigned
        assert resigned is not None
        return record.resignation_winners(self.game, resigned)

    def review_game(self, cancel: bool = False) -> State:
        """Start the review of the finished game shown (`victorus.page.analysis.Review`:
        every position searched in the background), or ``cancel`` it; its state."""
        if not isinstance(cancel, bool):
            raise RequestError(f"'cancel' must be true or false, got {shown(cancel, 60)}")
        if cancel:
            return self.review.cancel()
        with self.lock:
            if self.watch is not None:
                w = self.watch
                return self.review.start(w.final, f"{self.log_key}.watch", w.clock,
                                         record.resignation_winners(w.final, w.resigned)
                                         if w.resigned is not None else None)
            if not (self.game.is_over or self.resigned is not None or self.capped):
                raise RequestError("the review comes once the game is over; until then "
                                   "analyse a position (live or browsed)")
            return self.review.start(self.game, self.log_key, self.time_limit is not None,
                                     self._resigned_winners() if self.resigned is not None
                                     else None)

    # -- checks of a change's arguments ----------------------------------------------------
    @staticmethod
    def _check_seats(seats: object) -> list[Any]:
        if not isinstance(seats, list) or len(seats) != 6:
            raise RequestError(f"'seats' must be a list of six controllers (one per seat, "
                               f"'person' or an agent spec), got {shown(seats, 60)}")
        return seats

    @staticmethod
    def _check_delay(delay: object) -> float:
        if isinstance(delay, bool) or not isinstance(delay, (int, float)) or \
                not 0 <= delay <= MAX_AGENT_DELAY:
            raise RequestError(f"'agent_delay' must be a number of seconds from 0 to "
                               f"{MAX_AGENT_DELAY:g}, got {shown(delay, 60)}")
        return float(delay)

    @staticmethod
    def _recorded(text: object) -> Game:
        if not isinstance(text, str):
            raise RequestError(f"'record' must be the text of a game record, got "
                               f"{type(text).__name__}")
        try:
            return record.loads(text, max_actions=MAX_WATCH_ACTIONS)
        except VictorusError as exc:
            raise RequestError(f"that record cannot be replayed: {exc}") from None

    @staticmethod
    def _simulated(spec: object) -> tuple[Game, str, str]:
        if not isinstance(spec, dict):
            raise RequestError("'simulate' must be an object with seed, index, board, players, "
                               "variant")
        unknown = set(spec) - {"seed", "index", "board", "players", "variant", "max_actions"}
        if unknown:
            raise RequestError(f"'simulate' has unknown fields {shown(sorted(unknown), 60)}; accepted: "
                               f"seed, index, board, players, variant, max_actions")
        seed, index = spec.get("seed", 0), spec.get("index", 0)
        if isinstance(seed, str):        # 64 bits as digits: a JavaScript number holds 53
            seed = parse_int("'seed'", seed, 0, 2**64 - 1, RequestError, canonical=False)
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


__all__ = ["MAX_WATCH_ACTIONS", "PAGE_MAX_ACTIONS", "PERSON", "RequestError", "Table", "Watch"]
