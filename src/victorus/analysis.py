"""Analysis on request for ``victorus serve``'s page: the C MCTS's view of a position (the
chances of the army to act's team, and its best move), searched in a thread of its own.

The search ([`MCTSAgent.search`][victorus.search.mcts.MCTSAgent.search]) runs without the
GIL on a copy of the position, so the game, the agents and the event loop go on meanwhile; one search at
a time (a request while one runs gets that one's state). The page polls `state`.
"""

from __future__ import annotations

import threading

from .agents import MCTSAgent
from .geometry import SEAT_NAMES

#: The search's budget: a second of one thread (the page's agents share the machine).
ANALYSIS_SECONDS = 1.0


class Analysis:
    """The last analysis asked for: ``running``, then its result (or its error)."""

    def __init__(self, seconds: float = ANALYSIS_SECONDS, seed: int = 0):
        self.seconds, self.seed = seconds, seed
        self._lock = threading.Lock()
        self._state: dict = {"status": "none"}

    def start(self, game, version: int) -> dict:
        """Search ``game`` (copied now) for the page's state ``version``, in a thread; the
        state so far if a search is running or this version was already searched."""
        with self._lock:
            if self._state["status"] == "running" or (
                    self._state.get("version") == version and self._state["status"] == "done"):
                return dict(self._state)
            if game.is_over:
                self._state = {"status": "error", "version": version,
                               "error": "the game is over: there is nothing to analyse"}
                return dict(self._state)
            trial = game.copy(history=False)
            self._state = {"status": "running", "version": version}
        threading.Thread(target=self._search, args=(trial, version), daemon=True,
                         name="victorus-analysis").start()
        return self.state()

    def state(self) -> dict:
        with self._lock:
            return dict(self._state)

    def _search(self, game, version: int) -> None:
        try:
            result = MCTSAgent(None, seconds=self.seconds, seed=self.seed).search(game)
            found = describe(game, result)
        except Exception as exc:                    # told to the page; the server goes on
            found = {"status": "error", "error": f"the analysis failed: {exc!r}"}
        with self._lock:
            self._state = {**found, "version": version}


def describe(game, result) -> dict:
    """A search's result for the page: the best action (its cells when a leg), the army to
    act's team's chance of winning (from the best action's mean return, +1 a win, -1 a
    loss: (value + 1) / 2), and the search's size."""
    best = result.actions.index(result.action)
    value = result.values[best]
    seat = game.to_move
    team = [s for s in game.config.present if game.config.teams[s] == game.config.teams[seat]]
    action = result.action
    cells = ([game.board.labels[action.origin], game.board.labels[action.target]]
             if action.is_leg else [])
    chance = round(max(0.0, min(1.0, (value + 1) / 2)), 3)
    return {"status": "done", "best": action.text, "cells": cells, "seat": seat,
            "team": [SEAT_NAMES[s] for s in team], "chance": chance,
            "iterations": result.iterations}


__all__ = ["ANALYSIS_SECONDS", "Analysis", "describe"]
