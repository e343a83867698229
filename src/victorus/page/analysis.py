"""Analysis for ``victorus serve``'s page: the strongest search's view of a position (the
chances of every team, its top three lines, the legal actions), deepening in a thread of its
own; and the review of a finished game (`Review`): a search of every position, one after the
other in the background, for a win-chance graph per army, the actions where a team's
chance fell most (marked as lichess marks them), an accuracy per army, and the turns
forfeited on time (points of their own kind: no action was chosen there, so none is judged).

Both search with ``best``'s search (`REVIEW_AGENT`: the PUCT over rollouts scored by the
learned evaluation, victorus.search.registry). The review spends a fixed number of
iterations on each position (`REVIEW_ITERATIONS`, not seconds) from a seed derived from the
position itself (`position_seed`: a SHA-256 digest of the record up to it), so the same
record gives the same points and marks on any machine and under any load. A forced position
(one legal action) is not searched: it carries the value of the position after it.

The searches run without the GIL on copies of the positions, so the game, the agents and
the event loop go on meanwhile; one analysis and one review at a time (a request while one
runs gets that one's state). The page polls `Analysis.state` and `Review.state`.

A chance is read from the search's value ``v`` for the army to act (+1 a win, -1 a loss)
by the calibration curve of the game's number of teams (`victorus.page.calibration`: a
logistic fitted on self-play games of this very search): the team to act gets that
chance, the other teams share the rest in proportion to their calibrated chances read
from the root's value for each of them.
"""

from __future__ import annotations

import hashlib
import os
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from typing import Literal, TypedDict

from .. import record
from ..agents import REGISTRY, PUCTAgent, SearchResult
from ..checks import shown
from ..errors import Cancelled
from ..evaluation import make_evaluator
from ..game import Game, StopToken, replay_action
from ..geometry import SEAT_NAMES
from ..notation import Action
from .calibration import CALIBRATION, Calibration, accuracy, move_accuracy
from .page_state import RequestError, State, placement

REVIEW_AGENT = "best"
"""The kind of agent whose search the analysis and the review use (the strongest)."""
REVIEW_ITERATIONS = 10_000
"""The review's search per position, in iterations (about 0.11 s of one core; docs/serve.md)."""
REVIEW_MAX_NODES = 400_000
"""The review's and the analysis's tree bound (PUCT nodes of 88 bytes: 35 MB while a search
runs; a search of REVIEW_ITERATIONS grows about 230,000)."""
ANALYSIS_SECONDS = 4.0
"""The analysis's budget, every round of its deepening together: four seconds of one thread
(the page's agents share the machine)."""
LINE_LENGTH = 6
"""The most actions of an analysis's principal line."""
LINES = 3
"""The most lines an analysis shows (the root's most visited actions)."""
REVIEW_MAX_POSITIONS = 1000
"""The most positions a review searches (a longer game is reviewed at evenly spaced positions:
its time and memory stay bounded)."""
MARKS = ("?!", "?", "??")
"""The review's marks, from the least loss to the worst: inaccuracy, mistake, blunder."""
REVIEW_NICE = 10
"""The review thread's niceness (Linux: per thread), so that a live game's agents and the event loop
come first."""


#: The kinds of a review's point: an action played from the position (judged against
#: the best one), a turn forfeited on time there (not judged: nothing was chosen), or the
#: game's last position.
PointKind = Literal["played", "forfeit", "end"]


class Point(TypedDict):
    """One position of a review: its index (actions played), its ``kind`` (`PointKind`),
    the army to act, each army's chance (None where not valued), the best move found (its
    cells when a leg), the action played from it (``pass`` for a forfeit), whether it was
    ``forced`` (the only legal action: not searched, not judged), and for an action played
    its loss against the best one and its mark."""

    index: int
    kind: PointKind
    seat: int
    chances: list[float | None]
    best: str | None
    cells: list[str]
    played: str | None
    forced: bool
    loss: float | None
    mark: str | None


class Turn(TypedDict):
    """A point of the review as its lists give it: the action's number ``index`` (the
    position before it is ``index - 1``), the army, its team, the best action found there
    and the cells it marks (`point_turn`)."""

    index: int
    seat: int
    name: str
    team: int
    best: str | None
    cells: list[str]


class Mark(Turn):
    """An action whose mover lost against the best action (`marks`): the action played, its
    mark, the chance after the best action (``before``) and after the one played, the loss."""

    played: str | None
    mark: str
    before: float
    after: float
    drop: float


class Forfeit(Turn):
    """A turn forfeited on time (`forfeits`): its team's chance at the turn's start."""

    before: float | None


def chance(value: float, teams: int, calibration: Calibration = CALIBRATION) -> float:
    """The chance of winning read from a search's value for the army to act (see the
    module's text): the calibration curve of ``teams`` teams.

    Args:
        value: The search's value for the army to act, from -1 (a loss) to +1 (a win); a
            value outside is clipped.
        teams: How many teams play (at least 1).
        calibration: The curves (the shipped ones unless given).

    Returns:
        The chance of the army to act's team, from 0 to 1, rounded to 3 places.
    """
    return round(calibration.chance(value, teams), 3)


def _teams(game: Game) -> list[list[int]]:
    config = game.config
    groups: dict[int, list[int]] = {}
    for seat in config.present:
        groups.setdefault(config.teams[seat], []).append(seat)
    return list(groups.values())


def _position(game: Game) -> State:
    """What names the position searched (the page compares it with the one it shows)."""
    return {"placement": placement(game), "to_move": game.to_move, "phase": game.phase,
            "round": game.round}


def _origin(start: Game) -> str:
    """The text that names a game's starting position: its VPN (R39), or its board,
    variant and placement where it has none (mid-turn)."""
    if start.phase == "start" and not start.is_over:
        return start.vpn()
    return f"{start.board.name} {start.config.variant_string()} {placement(start)} " \
           f"{start.to_move} {start.phase} {start.round}"


def position_seed(start: Game, actions: Sequence[str], salt: int = 0) -> int:
    """The seed of the review's search of the position that ``actions`` reach from
    ``start``: the first 8 bytes of the SHA-256 digest of the start's VPN, ``salt`` and
    the actions' texts, the same on every machine and in every run (never Python's
    ``hash``, which varies by process).

    Args:
        start: The game's starting position.
        actions: The actions played from it (R38 texts, as its record has them).
        salt: The review's own seed (0 unless set).

    Returns:
        A seed from 0 to 2**64 - 1.
    """
    text = f"victorus review {salt}\n{_origin(start)}\n{' '.join(actions)}"
    return int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest()[:8], "little")


def review_network() -> str:
    """The content name (`Network.content`) of the network ``REVIEW_AGENT``'s evaluation
    reads: the review's win-chance curves are fitted for it (calibration.json's
    ``network``), and another network needs curves of its own."""
    kind = REGISTRY[REVIEW_AGENT]
    assert kind.evaluator is not None
    network = make_evaluator(kind.evaluator).network
    return "" if network is None else network.content


def _search(game: Game, seconds: float | None, seed: int, iterations: int | None = None,
            stop: StopToken | None = None) -> SearchResult:
    """``REVIEW_AGENT``'s search (its evaluator and settings from the registry) on a copy
    of ``game``, for ``iterations`` and at most ``seconds`` (either may be None, not
    both), its tree bounded to REVIEW_MAX_NODES. ``stop`` ends it early."""
    kind = REGISTRY[REVIEW_AGENT]
    assert kind.evaluator is not None
    agent = PUCTAgent(iterations, seconds=seconds, evaluator=kind.evaluator, seed=seed,
                      max_nodes=REVIEW_MAX_NODES, reuse_tree=False, **kind.settings)
    return agent.search(game.copy(history=False), stop)


def review_search(game: Game, start: Game, moves: Sequence[str], iterations: int | None = REVIEW_ITERATIONS,
                  salt: int = 0, seconds: float | None = None) -> SearchResult:
    """The review's search of ``game``, the position ``moves`` reach from ``start``:
    `REVIEW_AGENT`'s search for ``iterations`` from the position's own seed
    (`position_seed`), the same on every machine (unless capped by ``seconds``).

    Args:
        game: The position (not over).
        start: The game's starting position.
        moves: The actions played from ``start`` to ``game`` (R38 texts).
        iterations: The search's iterations.
        salt: Mixed into the seed (a review's own seed).
        seconds: A time cap besides ``iterations``, or None.

    Returns:
        The search's result.
    """
    return _search(game, seconds, position_seed(start, moves, salt), iterations)


def _cells(game: Game, action: Action) -> list[str]:
    """The cells an action marks: its leg's origin and target, none for another action."""
    return ([game.board.labels[action.origin], game.board.labels[action.target]]
            if action.is_leg else [])


def valuation(game: Game, result: SearchResult,
              calibration: Calibration = CALIBRATION) -> list[float | None]:
    """Each seat's chance from a search of ``game``: the team to act's is the calibrated
    chance of its best action's value; the other teams share the rest in proportion to
    the calibrated chances of the root's value for each (two teams: the other gets the
    rest); None for a seat not in the game.

    Args:
        game: The position searched.
        result: The search's result on ``game``.
        calibration: The curves.

    Returns:
        Six chances (0 to 1, rounded to 3 places) or None.
    """
    teams = _teams(game)
    seat = game.to_move
    own = calibration.chance(result.values[result.actions.index(result.action)], len(teams))
    others = [t for t in teams if seat not in t]
    weights = [calibration.chance(result.seat_values[t[0]], len(teams)) if result.seat_values
               else 1.0 for t in others]
    total = sum(weights)
    chances: list[float | None] = [None] * 6
    for team in teams:
        share = own if seat in team else (1 - own) * (
            weights[others.index(team)] / total if total > 0 else 1 / len(others))
        for s in team:
            chances[s] = round(share, 3)
    return chances


def describe(game: Game, result: SearchResult, calibration: Calibration = CALIBRATION) -> State:
    """A search's result for the page: the best action (its cells when a leg), the army to
    act's team's chance of winning and each army's (`valuation`), and the search's size.

    Args:
        game: The position searched.
        result: The search's result on ``game``.
        calibration: The curves.

    Returns:
        The fields ``status``, ``over``, ``best``, ``cells``, ``seat``, ``team``,
        ``chance``, ``chances``, ``iterations`` and the position's ``placement``,
        ``to_move``, ``phase`` and ``round``.
    """
    seat = game.to_move
    team = next(t for t in _teams(game) if seat in t)
    chances = valuation(game, result, calibration)
    return {"status": "done", "over": False, "best": result.action.text,
            "cells": _cells(game, result.action), "seat": seat,
            "team": [SEAT_NAMES[s] for s in team], "chance": chances[seat], "chances": chances,
            "iterations": result.iterations, **_position(game)}


def over(game: Game, winners: Iterable[int] | None = None) -> State:
    """A finished game's last position, as an analysis: each army's chance is 1 if its
    team won, 0 if it lost, the fair share in a draw.

    Args:
        game: The finished game (or the resigned one).
        winners: The winning seats if not the game's own (a resignation), or None.

    Returns:
        The analysis's fields, as `describe`'s, with ``over`` True and no best move.
    """
    winners = list(game.winners or ()) if winners is None else list(winners)
    teams = _teams(game)
    chances: list[float | None] = [None] * 6
    for team in teams:
        for seat in team:
            chances[seat] = (1.0 if seat in winners else 0.0) if winners else \
                round(1 / len(teams), 3)
    seat = game.to_move
    team = next((t for t in teams if seat in t), [seat])
    return {"status": "done", "over": True, "best": None, "cells": [], "seat": seat,
            "team": [SEAT_NAMES[s] for s in team], "chance": chances[seat], "chances": chances,
            "iterations": 0, **_position(game)}


def _step(game: Game, action: Action) -> State:
    """One action of a line: its text, the army that plays it, its cells when a leg."""
    return {"action": action.text, "seat": game.to_move, "cells": _cells(game, action)}


def _vpn(game: Game) -> str | None:
    """The VPN of ``game``, or None (mid-turn, over)."""
    return game.vpn() if game.phase == "start" and not game.is_over else None


class Analysis:
    """The last analysis asked for, deepening in a thread of its own: rounds of growing
    budgets, each replacing the result (``running``, then ``done``, ``stopped`` or
    ``error``). Each round searches the position, then the positions along each of its
    top lines (up to ``lines`` of the root's most visited actions, each followed for
    ``line`` actions: the action, the best of a search after it, ...).

    Args:
        seconds: The analysis's budget in seconds, all rounds together (one thread);
            None: ``iterations`` and ``rounds`` alone.
        seed: The searches' seed.
        iterations: The first round's iterations (each next round twice as many), or
            None: time budgets only (the first round a tenth of a second, each next twice).
        rounds: The most rounds (None: until ``seconds`` are spent or it is stopped).
        line: The most actions of a line.
        lines: The most lines (the root's most visited actions).
        calibration: The curves that read a value as a chance.
    """

    def __init__(self, seconds: float | None = ANALYSIS_SECONDS, seed: int = 0,
                 iterations: int | None = None, rounds: int | None = None,
                 line: int = LINE_LENGTH, lines: int = LINES,
                 calibration: Calibration = CALIBRATION) -> None:
        self.seconds, self.seed, self.iterations = seconds, seed, iterations
        self.rounds, self.line, self.lines = rounds, line, lines
        self.calibration = calibration
        self._lock = threading.Lock()
        self._state: State = {"status": "none", "serial": 0, "id": 0}
        self._key: object = None                 # what the last analysis was asked for
        self._stop: StopToken | None = None      # the running analysis's token
        self.thread: threading.Thread | None = None
        self.notify: Callable[[], None] | None = None   # told at every update (the sockets)

    def _set(self, state: State) -> None:
        """(under the lock) A new state, its serial one more."""
        self._state = {**state, "serial": self._state["serial"] + 1,
                       "id": state.get("id", self._state["id"])}
        notify = self.notify
        if notify is not None:
            notify()

    def cancel(self) -> None:
        """Stop the running analysis, if any, and forget it (its game is no longer shown:
        a new game, a watched game); the next request starts afresh."""
        with self._lock:
            if self._stop is not None:
                self._stop.stop()
                self._stop = None
            if self._state["status"] != "none":
                self._set({"status": "none"})
            self._key = None

    def stop(self) -> State:
        """Stop the running analysis (``stopped``, its last round's result kept).

        Returns:
            The analysis's state (`state`).
        """
        with self._lock:
            if self._stop is not None:
                self._stop.stop()
                self._stop = None
                self._set(dict(self._state, status="stopped"))
            return dict(self._state)

    def start(self, game: Game, version: int, at: int | None = None,
              winners: Iterable[int] | None = None, source: State | None = None) -> State:
        """Analyse ``game`` (copied now) for the page's state ``version`` (``at``: the
        number of actions of a past position; ``source``: what was asked, as told back),
        in a thread. The same position asked again keeps its analysis (running or done);
        another one stops it and starts anew. A finished game's last position (or a
        resigned one's: ``winners``) is told by its result.

        Args:
            game: The position to analyse (copied now).
            version: The page's state version the position belongs to.
            at: The number of actions of a past position, or None (the position shown).
            winners: The winners of a resigned game (its last position is then told by its
                result), or None.
            source: What the page asked for (``{"at", "moves"}`` or ``{"vpn"}``), told
                back in the state; None: ``{"at": at, "moves": []}``.

        Returns:
            The analysis's state so far (`state`): ``legal`` (the position's legal
            actions) from the start.
        """
        source = {"at": at, "moves": []} if source is None else source
        key = (version, repr(sorted(source.items())), winners is not None)
        with self._lock:
            if key == self._key and self._state["status"] in ("running", "done"):
                return dict(self._state)
            if self._stop is not None:
                self._stop.stop()
                self._stop = None
            self._key = key
            ident = self._state["id"] + 1
            ended = game.is_over or winners is not None
            legal = [] if ended else [a.text for a in game.legal_actions()]
            base = {"id": ident, "version": version, "at": at, "source": source, "legal": legal}
            if ended:
                self._set({**over(game, winners), **base, "depth": 0, "line": [], "lines": [],
                           "elapsed": 0.0, "vpn": None})
                return dict(self._state)
            trial = game.copy(history=False)
            self._stop = token = StopToken()
            self._set({"status": "running", **base, "depth": 0, "vpn": _vpn(trial), "lines": [],
                       **_position(trial)})
        self.thread = threading.Thread(target=self._run, args=(trial, token, base), daemon=True,
                                       name="victorus-analysis")
        self.thread.start()
        return self.state()

    def state(self) -> State:
        """The analysis's state: ``status`` (``none``, ``running``, ``done``, ``stopped``,
        ``error``), ``serial`` (one more at every update), ``id`` (one more at every new
        analysis), ``source``, ``version``, ``at``, ``legal`` (the position's legal
        actions, in the engine's order), ``depth`` (rounds done) and, once a round is done,
        `describe`'s fields with the ``line``, the ``lines`` and ``elapsed`` seconds.

        Returns:
            A copy of the state.
        """
        with self._lock:
            return dict(self._state)

    def _budget(self, round_: int, began: float) -> tuple[float | None, int | None]:
        """(seconds, iterations) of round ``round_``'s first search."""
        iterations = None if self.iterations is None else self.iterations * 2 ** round_
        if self.seconds is None:
            return None, iterations
        left = self.seconds - (time.perf_counter() - began)
        return max(0.01, min(0.1 * 2 ** round_, left / 2)), iterations

    def _run(self, game: Game, token: StopToken, base: State) -> None:
        began = time.perf_counter()
        round_ = 0
        try:
            while not token.stopped:
                seconds, iterations = self._budget(round_, began)
                found = self._round(game, seconds, iterations, token)
                if found is None:                   # stopped within the round
                    return
                round_ += 1
                last = (self.rounds is not None and round_ >= self.rounds) or (
                    self.seconds is not None and time.perf_counter() - began >= self.seconds)
                with self._lock:
                    if self._stop is not token:         # stopped or replaced meanwhile
                        return
                    self._set({**found, **base, "depth": round_,
                               "status": "done" if last else "running",
                               "elapsed": round(time.perf_counter() - began, 2)})
                    if last:
                        self._stop = None
                        return
        except Cancelled:                               # stopped before a search began
            return
        except Exception as exc:                        # told to the page; the server goes on
            with self._lock:
                if self._stop is token:
                    self._stop = None
                    self._set({**base, "status": "error",
                               "error": f"the analysis failed: {shown(exc, 200)}"})

    def _round(self, game: Game, seconds: float | None, iterations: int | None,
               token: StopToken) -> State | None:
        """One round: the position's search and its lines'; None if stopped meanwhile."""
        result = _search(game, seconds, self.seed, iterations, token)
        if token.stopped:
            return None
        found = describe(game, result, self.calibration)
        found["vpn"] = _vpn(game)
        teams = len(_teams(game))
        chosen = result.actions.index(result.action)
        order = [chosen] + sorted((i for i in range(len(result.actions))
                                   if i != chosen and result.visits[i] > 0),
                                  key=lambda i: (-result.visits[i], i))
        lines: list[State] = []
        for i in order[:self.lines]:
            steps = self._line(game, result.actions[i], seconds, iterations, token)
            if steps is None:
                return None
            if not lines:
                found["line"] = steps
            lines.append({"action": result.actions[i].text,
                          "chance": chance(result.values[i], teams, self.calibration),
                          "line": [step["action"] for step in steps],
                          "visits": result.visits[i]})
        found["lines"] = lines
        return found

    def _line(self, game: Game, first: Action, seconds: float | None, iterations: int | None,
              token: StopToken) -> list[State] | None:
        """The line that starts with ``first``: each next action the only legal one or the
        best of a search a quarter of the round's; None if stopped meanwhile."""
        steps = [_step(game, first)]
        trial = game.copy(history=False)
        trial.play(first)
        while len(steps) < self.line and not trial.is_over:
            legal = trial.legal_actions()
            if len(legal) == 1:
                action = legal[0]
            else:
                action = _search(trial, None if seconds is None else seconds / 4, self.seed,
                                 None if iterations is None else max(1, iterations // 4),
                                 token).action
                if token.stopped:
                    return None
            steps.append(_step(trial, action))
            trial.play(action)
        return steps


class Review:
    """The review of a finished game: every position searched in turn (at most
    REVIEW_MAX_POSITIONS, each with ``iterations`` of `REVIEW_AGENT`'s search from the
    seed `position_seed` gives it) in a thread of its own, cancellable between two
    positions. Its state: ``status`` (``none``, ``running``, ``done``, ``cancelled``,
    ``error``), ``key`` (the game reviewed), ``total`` positions and the ``points``
    searched so far (each position's index, kind, army to act, chances, best move), then
    the ``marks``, the ``forfeits``, the ``counts`` and the ``accuracy`` per army.

    An action's loss is lichess's: the mover's team's chance after the best action (from
    the search of the position) minus its chance after the action played (from the
    review of the position it leads to); 0 for the best action itself and for a forced
    one. A forced position (one legal action) is not searched: it carries the chances of
    the position after it.

    Args:
        seconds: A time cap per position besides ``iterations`` (None: none; a review on
            a clock is no longer the same on every machine).
        seed: Mixed into every position's seed (`position_seed`'s ``salt``).
        max_positions: The most positions searched (a longer game is reviewed at evenly
            spaced positions).
        iterations: The search per position, in iterations.
        calibration: The curves that read a value as a chance.
    """

    def __init__(self, seconds: float | None = None, seed: int = 0,
                 max_positions: int = REVIEW_MAX_POSITIONS,
                 iterations: int | None = REVIEW_ITERATIONS,
                 calibration: Calibration = CALIBRATION) -> None:
        self.seconds, self.seed, self.max_positions = seconds, seed, max_positions
        self.iterations, self.calibration = iterations, calibration
        self._lock = threading.Lock()
        self._state: State = {"status": "none", "key": None, "points": [], "marks": []}
        self._record: tuple[Game, list[str], bool] | None = None   # the game reviewed
        self._cancel = threading.Event()
        self.thread: threading.Thread | None = None     # the last review's

    def start(self, final: Game, key: str, clock: bool = False,
              winners: Iterable[int] | None = None) -> State:
        """Review ``final`` (a finished game; copied now) under ``key``; a review of the
        same key already running or done is kept, another one is cancelled first.
        ``clock``: the game was played on a clock (a pass may be a forfeit);
        ``winners``: the winners if not the game's own (a resignation).

        Args:
            final: The finished game (copied now).
            key: The name of the game reviewed.
            clock: The game was played on a clock (a pass may be a forfeit).
            winners: The winners if not the game's own (a resignation), or None.

        Returns:
            The review's state so far (`state`).
        """
        with self._lock:
            if self._state["key"] == key and self._state["status"] in ("running", "done"):
                return self._summary(0)
            self._cancel.set()
            self._cancel = cancel = threading.Event()
            actions = [a.text for a in final.history()]
            start = record.starting_game(final)
            self._record = (start.copy(), list(actions), clock)
            indices = _spread(len(actions) + 1, self.max_positions)
            self._state = {"status": "running", "key": key, "total": len(indices),
                           "length": len(actions), "points": [], "marks": [], "forfeits": [],
                           "counts": counts([]), "accuracy": [None] * 6,
                           "thresholds": mark_thresholds(len(_teams(final))),
                           "iterations": self.iterations, "seconds": self.seconds,
                           "elapsed": None}
            outcome = over(final, winners)
        self.thread = threading.Thread(target=self._run, name="victorus-review", daemon=True,
                                       args=(start, actions, indices, clock, outcome, cancel,
                                             key))
        self.thread.start()
        return self.state()

    def cancel(self) -> State:
        """Stop the running review between two positions (its status becomes ``cancelled``).

        Returns:
            The review's state (`state`).
        """
        with self._lock:
            self._cancel.set()
            if self._state["status"] == "running":
                self._state = dict(self._state, status="cancelled")
        return self.state()

    def state(self, first: int = 0) -> State:
        """The review so far, its points from the ``first`` on (the page holds the rest).

        Args:
            first: The number of points the page already holds.

        Returns:
            A copy of the review's state, ``points`` from ``first`` on.
        """
        with self._lock:
            return self._summary(first)

    def _summary(self, first: int) -> State:
        state = dict(self._state)
        state["first"] = first
        state["points"] = state["points"][first:]
        return state

    def _search(self, position: Game, start: Game, moves: Sequence[str]) -> SearchResult:
        """The review's search of ``position``, which ``moves`` reach from ``start``."""
        return review_search(position, start, moves, self.iterations, self.seed, self.seconds)

    def _run(self, start: Game, actions: list[str], indices: list[int], clock: bool,
             outcome: State, cancel: threading.Event, key: str) -> None:
        began = time.perf_counter()
        thresholds = mark_thresholds(len(_teams(start)))
        try:
            os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), REVIEW_NICE)
        except (AttributeError, OSError):             # (not Linux: the same priority)
            pass
        game = start.copy()
        done = 0
        ahead: dict[int, State] = {}        # positions valued ahead of the walk, by index
        try:
            for index in indices:
                while done < index:
                    replay_action(game, actions[done], clock)
                    done += 1
                if cancel.is_set():
                    return
                point = self._point(game, index, start, actions, clock, outcome, ahead,
                                    thresholds)
                for old in [i for i in ahead if i <= index]:
                    del ahead[old]
                with self._lock:
                    if cancel.is_set() or self._state["key"] != key:
                        return
                    self._state["points"].append(point)
            with self._lock:
                if self._state["key"] == key and not cancel.is_set():
                    points = self._state["points"]
                    self._state["marks"] = marks(points, game)
                    self._state["forfeits"] = forfeits(points, game)
                    self._state["counts"] = counts(points)
                    self._state["accuracy"] = accuracy(points)
                    self._state["status"] = "done"
                    self._state["elapsed"] = round(time.perf_counter() - began, 2)
        except Exception as exc:                      # told to the page; the server goes on
            with self._lock:
                if self._state["key"] == key:
                    self._state.update(status="error", error=f"the review failed: {shown(exc, 200)}")

    def _point(self, game: Game, index: int, start: Game, actions: list[str], clock: bool,
               outcome: State, ahead: dict[int, State], thresholds: dict[str, float]) -> Point:
        """The point of position ``index`` (``game`` is there)."""
        if game.is_over or index == len(actions):
            return {"index": index, "kind": "end", "seat": game.to_move,
                    "chances": list(outcome["chances"]), "best": None, "cells": [],
                    "played": None, "forced": False, "loss": None, "mark": None}
        played = actions[index]
        seat = game.to_move
        forfeit = _forfeited(game, played, clock)
        legal = game.legal_actions()
        forced = not forfeit and len(legal) == 1
        found = self._valued(game, index, start, actions, clock, outcome, ahead)
        best, cells = (legal[0].text, _cells(game, legal[0])) if forced else \
            (found["best"], found["cells"])
        loss: float | None = None               # (a forfeit: nothing chosen, nothing judged)
        if not forfeit and (forced or played == best):
            loss = 0.0
        elif not forfeit:
            after = game.copy(history=False)
            replay_action(after, played, clock)
            then = self._valued(after, index + 1, start, actions, clock, outcome, ahead)
            loss = round(max(0.0, found["chances"][seat] - then["chances"][seat]), 3)
        return {"index": index, "kind": "forfeit" if forfeit else "played", "seat": seat,
                "chances": list(found["chances"]), "best": best, "cells": cells,
                "played": played, "forced": forced, "loss": loss,
                "mark": mark_of(loss, thresholds)}

    def _valued(self, game: Game, index: int, start: Game, actions: list[str], clock: bool,
                outcome: State, ahead: dict[int, State]) -> State:
        """Position ``index`` of the record (``game`` is there; left as it is) valued:
        searched, or at the end the result, or where forced the first position after it
        that is not; remembered in ``ahead``."""
        if index in ahead:
            return ahead[index]
        position = game.copy(history=False)
        chain = []
        at = index
        while at not in ahead:
            if position.is_over or at == len(actions):
                ahead[at] = dict(outcome, **_position(position))
            elif len(position.legal_actions()) == 1 and \
                    not _forfeited(position, actions[at], clock):
                chain.append(at)
                replay_action(position, actions[at], clock)
                at += 1
            else:
                ahead[at] = describe(position, self._search(position, start, actions[:at]),
                                     self.calibration)
        for forced in chain:
            ahead[forced] = ahead[at]
        return ahead[index]

    def attempt(self, index: int, action: str) -> State:
        """Judge ``action`` at the marked position ``index`` of the finished review (the
        "learn from your mistakes" pass): the game replayed to that position, ``action``
        judged as the review judged the action played there (the same search, seed and
        calibration: the action played gets its point's loss).

        Args:
            index: A marked point's ``index`` (the number of actions played before it: a
                mark's ``index`` minus one).
            action: The action tried there, in R38 notation.

        Returns:
            ``index``, ``action``, ``loss`` (the mover's team's chance after the best
            action minus after ``action``), ``mark`` (None if not marked), ``better``
            (the loss is below the inaccuracy threshold), ``best`` (the search's best
            action) and ``chance`` (the mover's team's chance after ``action``).

        Raises:
            RequestError: If the review is not done, ``index`` is not a marked point's,
                or ``action`` is not a legal action's text there.
        """
        with self._lock:
            state, reviewed = self._state, self._record
            if state["status"] != "done" or reviewed is None:
                raise RequestError(f"a move can be tried once the review is done; it is "
                                   f"{state['status']}")
            marked = [p["index"] for p in state["points"] if p["mark"]]
            thresholds = dict(state["thresholds"])
            points = {p["index"]: p for p in state["points"]}
        if isinstance(index, bool) or not isinstance(index, int) or index not in marked:
            raise RequestError(f"'index' must be the index of a marked point of the review "
                               f"(one of {shown(marked, 80)}), got {shown(index, 40)}")
        start, actions, clock = reviewed
        position = start.copy()
        for text in actions[:index]:
            replay_action(position, text, clock)
        legal = [a.text for a in position.legal_actions()]
        if not isinstance(action, str) or action not in legal:
            raise RequestError(f"'action' must be one of the {len(legal)} legal actions at "
                               f"point {index} (such as {shown(legal[:5], 80)}), got "
                               f"{shown(action, 40)}")
        seat = position.to_move
        found = describe(position, self._search(position, start, actions[:index]),
                         self.calibration)
        before = found["chances"][seat]
        if action == found["best"]:
            after = before
        elif action == actions[index] and index + 1 in points:
            after = points[index + 1]["chances"][seat]
        else:
            after = self._judged(position, action, start, actions[:index])["chances"][seat]
        loss = round(max(0.0, before - after), 3)
        return {"index": index, "action": action, "loss": loss,
                "mark": mark_of(loss, thresholds), "better": loss < thresholds[MARKS[0]],
                "best": found["best"], "chance": after}

    def _judged(self, position: Game, action: str, start: Game, moves: list[str]) -> State:
        """The position after ``action`` (off the record) valued as the review values one:
        searched, or over, or where forced the first position after it that is not."""
        trial = position.copy(history=False)
        line = [*moves, action]
        trial.play(action)
        while not trial.is_over and len(legal := trial.legal_actions()) == 1:
            line.append(legal[0].text)
            trial.play(legal[0])
        if trial.is_over:
            return over(trial)
        return describe(trial, self._search(trial, start, line), self.calibration)


def _spread(count: int, most: int) -> list[int]:
    """``count`` positions' indices, all of them, or ``most`` evenly spread (first and
    last included)."""
    if count <= most:
        return list(range(count))
    return sorted({round(k * (count - 1) / (most - 1)) for k in range(most)})


MARK_LOSSES = (0.05, 0.10, 0.15)
"""lichess's least drops of a mark for two sides, in win chance from 0 to 1 (its 0.1, 0.2 and
0.3 on its scale of winning chances from -1 to +1)."""


def mark_thresholds(teams: int) -> dict[str, float]:
    """The least loss of each mark for ``teams`` teams: lichess's `MARK_LOSSES` for two
    teams, scaled by the fair share for more (``MARK_LOSSES`` times ``2/teams``: 10%, 20%
    and 30% of ``1/teams``; docs/serve.md, The review's marks).

    Args:
        teams: How many teams play (at least 1).

    Returns:
        ``{"?!": inaccuracy, "?": mistake, "??": blunder}``, rounded to 4 places.
    """
    return {mark: round(part * 2 / max(1, teams), 4) for mark, part in zip(MARKS, MARK_LOSSES)}


def mark_of(loss: float | None, thresholds: dict[str, float]) -> str | None:
    """The mark of an action that lost ``loss``: the worst of MARKS whose threshold it
    reaches, or None.

    Args:
        loss: The mover's team's drop in win chance (None: not valued).
        thresholds: Each mark's threshold (`mark_thresholds`).

    Returns:
        The mark, or None.
    """
    if loss is None:
        return None
    found = None
    for mark in MARKS:
        if loss >= thresholds[mark]:
            found = mark
    return found


def _forfeited(game: Game, played: str, clock: bool) -> bool:
    """Whether ``played`` (a record's text) from ``game`` is a turn forfeited on time, read
    as `replay_action` reads it: on a clock, a ``pass`` opening a turn that had other
    legal actions."""
    return clock and played == "pass" and game.phase == "start" and \
        all(action.text != "pass" for action in game.legal_actions())


def counts(points: list[Point]) -> list[dict[str, int]]:
    """Per seat (6), how many of its actions got each mark.

    Args:
        points: The review's points.

    Returns:
        Per seat ``{"?!": n, "?": n, "??": n}``.
    """
    out = [dict.fromkeys(MARKS, 0) for _ in range(6)]
    for point in points:
        mark = point.get("mark")
        if mark:
            out[point["seat"]][mark] += 1
    return out


def marks(points: list[Point], game: Game) -> list[Mark]:
    """Every marked action (its mover lost at least the inaccuracy threshold against the
    best action, `mark_thresholds`), in the game's order: the action's number ``index``
    (the position before it is ``index - 1``), the mover, the action played and its mark,
    the chance after the best action (``before``) and after the one played (``after``),
    the loss (``drop``), and the best action found.

    Args:
        points: The review's points, in order.
        game: The game reviewed (its teams).

    Returns:
        The marks, in the game's order.
    """
    found: list[Mark] = []
    for point in points:
        mark, loss = point.get("mark"), point.get("loss")
        if not mark or loss is None:
            continue
        before = point["chances"][point["seat"]]
        assert before is not None
        found.append({**point_turn(point, game), "played": point["played"], "mark": mark,
                      "before": before, "after": round(max(0.0, before - loss), 3), "drop": loss})
    return found


def point_turn(point: Point, game: Game) -> Turn:
    """What every list of the review says of a point (`Turn`).

    Args:
        point: A point of the review.
        game: The game reviewed (its teams).

    Returns:
        Its turn's fields.
    """
    seat = point["seat"]
    return {"index": point["index"] + 1, "seat": seat, "name": SEAT_NAMES[seat],
            "team": game.config.teams[seat], "best": point["best"], "cells": point["cells"]}


def forfeits(points: list[Point], game: Game) -> list[Forfeit]:
    """Every turn forfeited on time (a point of kind ``forfeit``), in the game's order:
    the action's number ``index`` (the position before it is ``index - 1``), the army,
    its team's chance at the turn's start (``before``) and the best action found there.
    Never marked: no action was chosen.

    Args:
        points: The review's points, in order.
        game: The game reviewed (its teams).

    Returns:
        The forfeits, in the game's order.
    """
    return [{**point_turn(p, game), "before": p["chances"][p["seat"]]}
            for p in points if p["kind"] == "forfeit"]


__all__ = ["ANALYSIS_SECONDS", "LINES", "MARKS", "REVIEW_AGENT", "REVIEW_ITERATIONS", "Analysis",
           "Review", "accuracy", "chance", "counts", "describe", "forfeits", "mark_of",
           "mark_thresholds", "marks", "move_accuracy", "over", "point_turn", "position_seed",
           "review_search", "valuation"]
