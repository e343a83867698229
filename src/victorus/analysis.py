"""Analysis for ``victorus serve``'s page: the C MCTS's view of a position (the chances
of the army to act's team, and its best move), searched in a thread of its own; and the
review of a finished game (`Review`): a search of every position, one after the
other in the background, each bounded in time, for a win-chance graph per army and the
actions where a team's chance fell most.

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
from collections.abc import Iterable
from typing import TypedDict

from . import record
from .agents import MCTSAgent
from .checks import shown
from .errors import Cancelled
from .game import Game, StopToken, replay_action
from .geometry import SEAT_NAMES
from .page_state import State, placement
from .search.results import SearchResult

ANALYSIS_SECONDS = 1.0
"""The search's budget: a second of one thread (the page's agents share the machine)."""
REVIEW_SECONDS = 0.05
"""The review's search budget per position, in seconds."""
REVIEW_MAX_POSITIONS = 1000
"""The most positions a review searches (a longer game is reviewed at evenly spaced positions:
its time and memory stay bounded)."""
ANALYSIS_MAX_NODES = 100_000
"""The search tree's bound (nodes of 56 bytes): about 5.6 MB while a search runs."""
REVIEW_MARKS, REVIEW_DROP = 5, 0.1
"""The review's marks: the actions where the actor's team lost the most chance, at most this many,
and only drops of at least REVIEW_DROP."""
REVIEW_NICE = 10
"""The review thread's niceness (Linux: per thread), so that a live game's agents and the event loop
come first."""


class Point(TypedDict):
    """One position of a review: its index (actions played), the army to act, each army's
    chance (None where not valued) and the best move found (its cells when a leg)."""

    index: int
    seat: int
    chances: list[float | None]
    best: str | None
    cells: list[str]


class Mark(TypedDict):
    """An action where the actor's team's chance fell (`marks`)."""

    index: int
    seat: int
    name: str
    team: int
    before: float
    after: float
    drop: float
    best: str | None
    cells: list[str]


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
                     evaluated=True).search(game.copy(history=False), stop)


class Analysis:
    """The last analysis asked for: ``running``, then its result (or its error).

    Args:
        seconds: The search's budget in seconds (one thread).
        seed: The search's seed.
    """

    def __init__(self, seconds: float = ANALYSIS_SECONDS, seed: int = 0) -> None:
        self.seconds, self.seed = seconds, seed
        self._lock = threading.Lock()
        self._state: State = {"status": "none"}
        self._stop: StopToken | None = None      # the running search's token

    def cancel(self) -> None:
        """Stop the running search, if any (its game is no longer shown: a new game, a
        watched game); its result is dropped and the next request starts afresh."""
        with self._lock:
            if self._stop is not None:
                self._stop.stop()
                self._stop = None
                self._state = {"status": "none"}

    def start(self, game: Game, version: int, at: int | None = None,
              winners: Iterable[int] | None = None) -> State:
        """Search ``game`` (copied now) for the page's state ``version`` (``at``: the
        number of actions of a past position browsed), in a thread; the state so far if
        a search is running or this position was already searched. A finished game's last
        position (or a resigned one's: ``winners``) is told by its result.

        Args:
            game: The position to search (copied now).
            version: The page's state version the position belongs to.
            at: The number of actions of a past position browsed, or None (the position shown).
            winners: The winners of a resigned game (its last position is then told by its
                result), or None.

        Returns:
            The analysis's state so far (`state`).
        """
        with self._lock:
            key = (version, at)
            if self._state["status"] == "running" or (
                    (self._state.get("version"), self._state.get("at")) == key
                    and self._state["status"] == "done"):
                return dict(self._state)
            if game.is_over or winners is not None:
                self._state = {**over(game, winners), "version": version, "at": at}
                return dict(self._state)
            trial = game.copy(history=False)
            self._state = {"status": "running", "version": version, "at": at}
            self._stop = token = StopToken()
        threading.Thread(target=self._search, args=(trial, version, at, token), daemon=True,
                         name="victorus-analysis").start()
        return self.state()

    def state(self) -> State:
        """The analysis's state: ``status`` (``none``, ``running``, ``done``, ``error``) and,
        once done, `describe`'s fields with the ``version`` and ``at`` searched.

        Returns:
            A copy of the state.
        """
        with self._lock:
            return dict(self._state)

    def _search(self, game: Game, version: int, at: int | None, token: StopToken) -> None:
        try:
            found = describe(game, _search(game, self.seconds, self.seed, stop=token))
        except Cancelled:                           # cancelled before it began
            return
        except Exception as exc:                    # told to the page; the server goes on
            found = {"status": "error", "error": f"the analysis failed: {shown(exc, 200)}"}
        with self._lock:
            if self._stop is token:                 # not cancelled meanwhile
                self._state = {**found, "version": version, "at": at}
                self._stop = None


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
    ``points`` searched so far (each position's index, army to act, chances, best
    move), then the ``marks``.

    Args:
        seconds: The search's budget per position in seconds (None: ``iterations`` only).
        seed: The searches' seed (position ``index`` is searched with ``seed + index``).
        max_positions: The most positions searched (a longer game is reviewed at evenly
            spaced positions).
        iterations: A budget in iterations instead of (or besides) ``seconds`` (a review
            that is the same on every machine).
        drop: The least fall of a team's chance marked.
    """

    def __init__(self, seconds: float | None = REVIEW_SECONDS, seed: int = 0,
                 max_positions: int = REVIEW_MAX_POSITIONS, iterations: int | None = None,
                 drop: float = REVIEW_DROP) -> None:
        self.seconds, self.seed, self.max_positions = seconds, seed, max_positions
        self.iterations, self.drop = iterations, drop
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
                           "length": len(actions), "points": [], "marks": [],
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
                if game.is_over or index == len(actions):
                    found = dict(outcome, **_position(game))
                else:
                    found = describe(game, _search(game, self.seconds, self.seed + index,
                                                   self.iterations))
                point: Point = {"index": index, "seat": found["seat"], "chances": found["chances"],
                         "best": found["best"], "cells": found["cells"]}
                with self._lock:
                    if cancel.is_set() or self._state["key"] != key:
                        return
                    self._state["points"].append(point)
            with self._lock:
                if self._state["key"] == key and not cancel.is_set():
                    self._state["marks"] = marks(self._state["points"], game, self.drop)
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


def marks(points: list[Point], game: Game, drop: float = REVIEW_DROP) -> list[Mark]:
    """The actions where the actor's team's chance fell most (at least REVIEW_DROP, at
    most REVIEW_MARKS; ``drop``: the least fall marked): each with the position before it (``index``
    - 1), the actor, its chance before and after, and the best move found there.

    Args:
        points: The review's points, in order.
        game: The game reviewed (its teams).
        drop: The least fall marked.

    Returns:
        The marks, in the game's order.
    """
    teams = game.config.teams
    values = carried(points)
    found: list[Mark] = []
    for k in range(1, len(points)):
        before, after = points[k - 1], points[k]
        if after["index"] != before["index"] + 1:
            continue                                   # (a spread review: not one action)
        seat = before["seat"]
        was = values[k - 1][seat]
        # the actor's chance after: measured, or its team's next measured value
        now = values[k][seat] if after["chances"][seat] is not None else next(
            (p["chances"][seat] for p in points[k + 1:] if p["chances"][seat] is not None),
            values[k][seat])
        if was is None or now is None or was - now < drop or was <= now:
            continue
        found.append({"index": after["index"], "seat": seat, "name": SEAT_NAMES[seat],
                      "team": teams[seat], "before": was, "after": now,
                      "drop": round(was - now, 3), "best": before["best"],
                      "cells": before["cells"]})
    found.sort(key=lambda m: -m["drop"])
    return sorted(found[:REVIEW_MARKS], key=lambda m: m["index"])


__all__ = ["ANALYSIS_SECONDS", "REVIEW_SECONDS", "Analysis", "Review", "chance", "describe",
           "marks", "over"]
