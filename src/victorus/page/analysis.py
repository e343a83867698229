"""Analysis for ``victorus serve``'s page: the C MCTS's view of a position (the chances
of the army to act's team, and its best move), searched in a thread of its own; and the
review of a finished game (`Review`): a search of every position, one after the
other in the background, each bounded in time, for a win-chance graph per army, the
actions where a team's chance fell most, and the turns forfeited on time (points of
their own kind: no action was chosen there, so none is judged).

The searches ([`MCTSAgent.search`][victorus.search.mcts.MCTSAgent.search]) run without the
GIL on copies of the positions, so the game, the agents and the event loop go on meanwhile; one analysis
and one review at a time (a request while one runs gets that one's state). The page
polls `Analysis.state` and `Review.state`.

A chance is read from the search's mean return ``v`` (+1 a win, -1 a loss; a playout
that ends undecided is valued by the heuristic evaluation, 0 for an even position) for
``teams`` teams: ``v = 0`` is the fair share ``1/teams``, ``v = 1`` certain victory,
``v = -1`` certain defeat, linear in between (two teams: ``(v + 1) / 2``). The search
values the army to act only: its team gets that chance, and with two teams the other
team the rest.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable, Iterable
from typing import Literal, TypedDict

from .. import record
from ..agents import MCTSAgent
from ..checks import shown
from ..errors import Cancelled
from ..game import Game, StopToken, replay_action
from ..geometry import SEAT_NAMES
from ..notation import Action
from ..search.results import SearchResult
from .page_state import State, placement

ANALYSIS_SECONDS = 4.0
"""The analysis's budget, every round of its deepening together: four seconds of one thread
(the page's agents share the machine)."""
LINE_LENGTH = 6
"""The most actions of an analysis's principal line."""
REVIEW_SECONDS = 0.05
"""The review's search budget per position, in seconds."""
REVIEW_MAX_POSITIONS = 1000
"""The most positions a review searches (a longer game is reviewed at evenly spaced positions:
its time and memory stay bounded)."""
ANALYSIS_MAX_NODES = 100_000
"""The search tree's bound (nodes of 56 bytes): about 5.6 MB while a search runs."""
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
    cells when a leg), the action played from it (``pass`` for a forfeit), and for an
    action played its loss against the best one and its mark."""

    index: int
    kind: PointKind
    seat: int
    chances: list[float | None]
    best: str | None
    cells: list[str]
    played: str | None
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


def chance(value: float, teams: int) -> float:
    """The chance of winning read from a search's mean return (see the module's text).

    Args:
        value: The search's mean return for the army to act, from -1 (a loss) to +1 (a
            win); a value outside is clipped.
        teams: How many teams play (at least 1).

    Returns:
        The chance of the army to act's team, from 0 to 1, rounded to 3 places.
    """
    fair = 1.0 / max(1, teams)
    value = max(-1.0, min(1.0, value))
    share = fair + value * (1 - fair) if value >= 0 else fair * (1 + value)
    return round(share, 3)


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


def _search(game: Game, seconds: float | None, seed: int, iterations: int | None = None,
            stop: StopToken | None = None) -> SearchResult:
    """The C MCTS on a copy of ``game``: playouts of 10 actions whose ends are valued by
    the heuristic evaluation (as ``best`` values them), so that a position far from any
    end still reads as better or worse than the fair share. ``stop`` ends it early."""
    return MCTSAgent(iterations, seconds=seconds, seed=seed, max_nodes=ANALYSIS_MAX_NODES,
                     evaluator="rollouts(10, heuristic)").search(game.copy(history=False), stop)


class Analysis:
    """The last analysis asked for, deepening in a thread of its own: rounds of growing
    budgets, each replacing the result (``running``, then ``done``, ``stopped`` or
    ``error``). Each round searches the position, then the positions along its line
    (`LINE_LENGTH` actions: the best action, the best of a search after it, ...).

    Args:
        seconds: The analysis's budget in seconds, all rounds together (one thread);
            None: ``iterations`` and ``rounds`` alone.
        seed: The searches' seed.
        iterations: The first round's iterations (each next round twice as many), or
            None: time budgets only (the first round a tenth of a second, each next twice).
        rounds: The most rounds (None: until ``seconds`` are spent or it is stopped).
        line: The most actions of the principal line.
    """

    def __init__(self, seconds: float | None = ANALYSIS_SECONDS, seed: int = 0,
                 iterations: int | None = None, rounds: int | None = None,
                 line: int = LINE_LENGTH) -> None:
        self.seconds, self.seed, self.iterations = seconds, seed, iterations
        self.rounds, self.line = rounds, line
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
            The analysis's state so far (`state`).
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
            base = {"id": ident, "version": version, "at": at, "source": source}
            if game.is_over or winners is not None:
                self._set({**over(game, winners), **base, "depth": 0, "line": [],
                           "elapsed": 0.0, "vpn": None})
                return dict(self._state)
            trial = game.copy(history=False)
            self._stop = token = StopToken()
            self._set({"status": "running", **base, "depth": 0, "vpn": _vpn(trial),
                       **_position(trial)})
        self.thread = threading.Thread(target=self._run, args=(trial, token, base), daemon=True,
                                       name="victorus-analysis")
        self.thread.start()
        return self.state()

    def state(self) -> State:
        """The analysis's state: ``status`` (``none``, ``running``, ``done``, ``stopped``,
        ``error``), ``serial`` (one more at every update), ``id`` (one more at every new
        analysis), ``source``, ``version``, ``at``, ``depth`` (rounds done) and, once a
        round is done, `describe`'s fields with the ``line`` and ``elapsed`` seconds.

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
        """One round: the position's search and its line's; None if stopped meanwhile."""
        result = _search(game, seconds, self.seed, iterations, token)
        if token.stopped:
            return None
        found = describe(game, result)
        found["vpn"] = _vpn(game)
        teams = _teams(game)
        valued = {tuple(t) for t in teams if game.to_move in t}
        line = [_step(game, result.action)]
        trial = game.copy(history=False)
        trial.play(result.action)
        while len(line) < self.line and not trial.is_over:
            after = _search(trial, None if seconds is None else seconds / 4, self.seed,
                            None if iterations is None else max(1, iterations // 4), token)
            if token.stopped:
                return None
            team = next(t for t in teams if trial.to_move in t)
            if tuple(team) not in valued and len(teams) > 2:
                valued.add(tuple(team))
                share = chance(after.values[after.actions.index(after.action)], len(teams))
                for seat in team:
                    found["chances"][seat] = share
            line.append(_step(trial, after.action))
            trial.play(after.action)
        found["line"] = line
        return found


def _step(game: Game, action: Action) -> State:
    """One action of a line: its text, the army that plays it, its cells when a leg."""
    cells = ([game.board.labels[action.origin], game.board.labels[action.target]]
             if action.is_leg else [])
    return {"action": action.text, "seat": game.to_move, "cells": cells}


def _vpn(game: Game) -> str | None:
    """The VPN of ``game``, or None (mid-turn, over)."""
    return game.vpn() if game.phase == "start" and not game.is_over else None


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
    chances = [0.0] * 6
    for team in teams:
        for seat in team:
            chances[seat] = (1.0 if seat in winners else 0.0) if winners else \
                round(1 / len(teams), 3)
    seat = game.to_move
    team = next((t for t in teams if seat in t), [seat])
    return {"status": "done", "over": True, "best": None, "cells": [], "seat": seat,
            "team": [SEAT_NAMES[s] for s in team], "chance": chances[seat], "chances": chances,
            "iterations": 0, **_position(game)}


def describe(game: Game, result: SearchResult) -> State:
    """A search's result for the page: the best action (its cells when a leg), the army to
    act's team's chance of winning (`chance` of the best action's mean return), each
    army's (``chances``: the other team's the rest with two teams, else None), and the
    search's size.

    Args:
        game: The position searched.
        result: The search's result on ``game``.

    Returns:
        The fields ``status``, ``over``, ``best``, ``cells``, ``seat``, ``team``,
        ``chance``, ``chances``, ``iterations`` and the position's ``placement``,
        ``to_move``, ``phase`` and ``round``.
    """
    best = result.actions.index(result.action)
    value = result.values[best]
    seat = game.to_move
    teams = _teams(game)
    team = next(t for t in teams if seat in t)
    action = result.action
    cells = ([game.board.labels[action.origin], game.board.labels[action.target]]
             if action.is_leg else [])
    share = chance(value, len(teams))
    chances: list[float | None] = [None] * 6
    for t in teams:
        for s in t:
            chances[s] = share if t is team else (round(1 - share, 3) if len(teams) == 2
                                                  else None)
    return {"status": "done", "over": False, "best": action.text, "cells": cells,
            "seat": seat, "team": [SEAT_NAMES[s] for s in team], "chance": share,
            "chances": chances, "iterations": result.iterations, **_position(game)}


class Review:
    """The review of a finished game: every position searched in turn (at most
    REVIEW_MAX_POSITIONS, each for ``seconds``) in a thread of its own, cancellable
    between two positions. Its state: ``status`` (``none``, ``running``, ``done``,
    ``cancelled``, ``error``), ``key`` (the game reviewed), ``total`` positions and the
    ``points`` searched so far (each position's index, kind, army to act, chances, best
    move), then the ``marks`` and the ``forfeits``.

    Args:
        seconds: The search's budget per position in seconds (None: ``iterations`` only).
        seed: The searches' seed (position ``index`` is searched with ``seed + index``).
        max_positions: The most positions searched (a longer game is reviewed at evenly
            spaced positions).
        iterations: A budget in iterations instead of (or besides) ``seconds`` (a review
            that is the same on every machine).
    """

    def __init__(self, seconds: float | None = REVIEW_SECONDS, seed: int = 0,
                 max_positions: int = REVIEW_MAX_POSITIONS, iterations: int | None = None) -> None:
        self.seconds, self.seed, self.max_positions = seconds, seed, max_positions
        self.iterations = iterations
        self._lock = threading.Lock()
        self._state: State = {"status": "none", "key": None, "points": [], "marks": []}
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
            indices = _spread(len(actions) + 1, self.max_positions)
            self._state = {"status": "running", "key": key, "total": len(indices),
                           "length": len(actions), "points": [], "marks": [], "forfeits": [],
                           "counts": counts([]),
                           "thresholds": mark_thresholds(len(_teams(final))),
                           "seconds": self.seconds, "elapsed": None}
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

    def _run(self, game: Game, actions: list[str], indices: list[int], clock: bool, outcome: State,
             cancel: threading.Event, key: str) -> None:
        began = time.perf_counter()
        thresholds = mark_thresholds(len(_teams(game)))
        try:
            os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), REVIEW_NICE)
        except (AttributeError, OSError):             # (not Linux: the same priority)
            pass
        done = 0
        try:
            for index in indices:
                while done < index:
                    replay_action(game, actions[done], clock)
                    done += 1
                if cancel.is_set():
                    return
                played: str | None = None
                loss: float | None = None
                kind: PointKind = "end"
                if game.is_over or index == len(actions):
                    found = dict(outcome, **_position(game))
                else:
                    result = _search(game, self.seconds, self.seed + index, self.iterations)
                    found = describe(game, result)
                    played = actions[index]
                    kind = "forfeit" if _forfeited(game, played, clock) else "played"
                    if kind == "played":
                        loss = _loss(game, result, played)
                point: Point = {"index": index, "kind": kind, "seat": found["seat"],
                                "chances": found["chances"], "best": found["best"],
                                "cells": found["cells"], "played": played, "loss": loss,
                                "mark": mark_of(loss, thresholds)}
                with self._lock:
                    if cancel.is_set() or self._state["key"] != key:
                        return
                    self._state["points"].append(point)
            with self._lock:
                if self._state["key"] == key and not cancel.is_set():
                    self._state["marks"] = marks(self._state["points"], game)
                    self._state["forfeits"] = forfeits(self._state["points"], game)
                    self._state["counts"] = counts(self._state["points"])
                    self._state["status"] = "done"
                    self._state["elapsed"] = round(time.perf_counter() - began, 2)
        except Exception as exc:                      # told to the page; the server goes on
            with self._lock:
                if self._state["key"] == key:
                    self._state.update(status="error", error=f"the review failed: {shown(exc, 200)}")


def _spread(count: int, most: int) -> list[int]:
    """``count`` positions' indices, all of them, or ``most`` evenly spread (first and
    last included)."""
    if count <= most:
        return list(range(count))
    return sorted({round(k * (count - 1) / (most - 1)) for k in range(most)})


def carried(points: list[Point]) -> list[list[float | None]]:
    """Each point's chances per army, an army's last known chance carried on where the
    search did not value it (more than two teams: only the team to act is valued).

    Args:
        points: The review's points, in order.

    Returns:
        Per point, each army's chance (None until it is first valued).
    """
    last: list[float | None] = [None] * 6
    out = []
    for point in points:
        last = [c if c is not None else last[s] for s, c in enumerate(point["chances"])]
        out.append(list(last))
    return out


def mark_thresholds(teams: int) -> dict[str, float]:
    """The least loss of each mark for ``teams`` teams: lichess's 0.1, 0.2 and 0.3 (a
    drop in winning chances, 0 to 1, for two sides) scaled by the fair share: 20%, 40%
    and 60% of ``1/teams`` (docs/serve.md, The review's marks).

    Args:
        teams: How many teams play (at least 1).

    Returns:
        ``{"?!": inaccuracy, "?": mistake, "??": blunder}``, rounded to 4 places.
    """
    fair = 1.0 / max(1, teams)
    return {mark: round(part * fair, 4) for mark, part in zip(MARKS, (0.2, 0.4, 0.6))}


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


def _loss(game: Game, result: SearchResult, played: str) -> float:
    """What the mover's team lost by ``played`` against the best action, both valued by
    the same search ``result`` (chances: `chance`); 0 for a forced action (one legal
    action) and for the best one itself."""
    if len(result.actions) <= 1:
        return 0.0
    teams = len(_teams(game))
    texts = [a.text for a in result.actions]
    best = chance(result.values[result.actions.index(result.action)], teams)
    after = chance(result.values[texts.index(played)], teams)
    return round(max(0.0, best - after), 3)


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


__all__ = ["ANALYSIS_SECONDS", "MARKS", "REVIEW_SECONDS", "Analysis", "Review",
           "chance", "counts", "describe", "forfeits", "mark_of", "mark_thresholds", "marks", "point_turn",
           "over"]
