"""Self-play for training the learned evaluation (victorus.training): games of ``best-net``
searched with the evaluator of the network so far, the positions worth learning kept with
their labels.

A game starts from up to ``opening`` random actions. Each later decision is searched by
PUCT; a share ``label_share`` of them, drawn per decision, gets the deep search
(``label_iterations``) and is kept, the others get the fast one (``iterations``) and only
move the game on, as KataGo's playout cap randomisation does: labels from a search much
deeper than most of the game's. The fast searches mix root Dirichlet noise into their
priors (``noise``, alpha 0.3, so that games cover what the search would not try); the
deep one its own share (``label_noise``; training's settings: none, so that its visits,
the policy label, are the search's choice and not the noise's). A kept position is
labelled with

- **a value per seat**: ``blend`` x the deep search's root value + (1 - blend) x the
  game's result on the share scale of every evaluation (`Game.share_returns`: a draw
  shared among the teams still in it, so that a 3-6 team label is one the value head can
  give); a game stopped at ``max_actions``: the search's value alone;
- **a policy**: the deep search's visit distribution over the legal actions
  (`SearchResult.policy`), the target of the network's policy head.
"""

from __future__ import annotations

import random
import time
from collections.abc import Generator
from dataclasses import dataclass
from typing import Any, cast

import numpy as np
from numpy.typing import NDArray

from ..agents import PUCTAgent, make_agent
from ..evaluation import Evaluator
from ..evaluation.twin import Inputs, Moves, inputs, moves
from ..game import Game
from ..progress import Progress
from ..workers import process_map, ray_map
from .step import Sample

Task = tuple[str, int, str, int]
"""A game to play: (board, players, variant, seed)."""


@dataclass(frozen=True)
class Play:
    """How self-play searches and labels (the module's docstring).

    Args:
        iterations: The fast search's iterations per decision.
        opening: Random actions at most before the search plays.
        max_actions: A game stops there.
        blend: The deep search's value's share of a value label, 0 to 1.
        label_iterations: The deep search's iterations (None: ``iterations``).
        label_share: The share of decisions searched deep and kept, 0 to 1.
        noise: The fast search's root Dirichlet noise's share of the priors, 0 to 1.
        label_noise: The deep search's, 0 to 1 (its visits are the policy label: without
            noise they are the search's own choice, not the noise's); None: ``noise``.
    """

    iterations: int
    opening: int
    max_actions: int
    blend: float
    label_iterations: int | None = None
    label_share: float = 1.0
    noise: float = 0.0
    label_noise: float | None = None


def search_agent(evaluator: Evaluator | None, iterations: int, seed: int,
                 **settings: Any) -> PUCTAgent:
    """The search of training's games (self-play, the gate, the curve's matches):
    ``best-net`` at ``iterations`` with the learned evaluation ``evaluator`` (the Evaluator
    of a network, victorus.evaluation.registry.network), or ``best-heuristic`` for None.
    ``functools.partial(search_agent, evaluator, iterations)`` is a factory ``seed ->
    agent`` that pickles (the evaluator as its network's bytes).

    Args:
        evaluator: The learned evaluation, or None (the heuristic).
        iterations: Iterations a decision.
        seed: Seeds the search.
        **settings: More settings of the agent (``noise_fraction``...).

    Returns:
        The agent (victorus.agents.make_agent's).
    """
    if evaluator is None:
        return cast(PUCTAgent, make_agent(f"best-heuristic:{iterations}", seed, **settings))
    return cast(PUCTAgent, make_agent(f"best-net:{iterations}", seed, network=evaluator, **settings))


def _agents(seed: int, evaluator: Evaluator | None, play: Play) -> tuple[PUCTAgent, PUCTAgent]:
    """The fast and the deep search of a game."""
    rng = random.Random(seed)
    fast, deep = (search_agent(evaluator, iterations, rng.getrandbits(64), noise_fraction=noise)
                  for iterations, noise in ((play.iterations, play.noise),
                                            (play.label_iterations or play.iterations,
                                             play.noise if play.label_noise is None
                                             else play.label_noise)))
    return fast, deep


def play_game(task: Task, evaluator: Evaluator | None, iterations: int,
              opening: int, max_actions: int, blend: float, *,
              label_iterations: int | None = None, label_share: float = 1.0,
              noise: float = 0.0, label_noise: float | None = None) -> list[Sample]:
    """One self-play game: its kept positions' inputs and labels (the module's docstring).
    With the defaults every decision is searched with ``iterations`` and kept.

    Args:
        task: The game: (board, players, variant, seed).
        evaluator: The learned evaluation searching (the Evaluator of a network), or None
            (the heuristic).
        iterations: The fast search's iterations per decision.
        opening: Random actions at most before the search plays.
        max_actions: The game stops there.
        blend: The deep search's value's share of a value label.
        label_iterations: The deep search's iterations (None: ``iterations``).
        label_share: The share of decisions searched deep and kept.
        noise: The fast search's root Dirichlet noise's share of the priors.
        label_noise: The deep search's (None: ``noise``).

    Returns:
        One sample per kept position: its inputs, value label, legal actions' `Moves`
        and policy label.
    """
    return _play(task, evaluator, Play(iterations, opening, max_actions, blend,
                                       label_iterations, label_share, noise, label_noise)).samples


@dataclass(frozen=True)
class GamePlayed:
    """One self-play game: its samples, and what a dataset keeps beside them so that every
    label can be taken apart and every position rebuilt (victorus.training.dataset).

    Args:
        task: The game's task (board, players, variant, seed).
        actions: Every action of the game from the start, in notation (its record).
        samples: Its kept positions' samples.
        plies: Each sample's position: the actions played before it.
        values: Each sample's deep search value per seat, counted from the army to act.
        result: The game's share returns per seat, counted from each sample's army to
            act (NaN: a game stopped at its cap).
        visits: Each sample's visit counts over its legal actions.
    """

    task: Task
    actions: list[str]
    samples: list[Sample]
    plies: list[int]
    values: list[NDArray[np.float32]]
    result: list[NDArray[np.float32]]
    visits: list[NDArray[np.int32]]


def _play(task: Task, evaluator: Evaluator | None, play: Play) -> GamePlayed:
    board, players, variant, seed = task
    rng = random.Random(seed)
    fast, deep = _agents(rng.getrandbits(64), evaluator, play)
    game = Game(board, players=players, variant=variant)
    for _ in range(rng.randint(0, play.opening)):
        if game.is_over:
            break
        game.play(rng.choice(game.legal_actions()))
    kept: list[tuple[Inputs, Moves, NDArray[np.float32], NDArray[np.float32], int]] = []
    plies: list[int] = []
    visits: list[NDArray[np.int32]] = []
    while not game.is_over and game.ply < play.max_actions:
        legal = game.legal_actions()
        if len(legal) == 1:
            game.play(legal[0])
            continue
        labelled = play.label_share >= 1 or rng.random() < play.label_share
        result = (deep if labelled else fast).search(game)
        if labelled:
            seat = game.to_move
            values = np.array([result.seat_values[(seat + i) % 6] for i in range(6)], np.float32)
            kept.append((inputs(game), moves(game), values,
                         np.array(result.policy(1.0), np.float32), seat))
            plies.append(game.ply)
            visits.append(np.array(result.visits, np.int32))
        game.play(result.action)
    returns = game.share_returns() if game.is_over else None
    samples: list[Sample] = []
    results: list[NDArray[np.float32]] = []
    for features, legal_moves, values, policy, seat in kept:
        if returns is None:
            target = values
            results.append(np.full(6, np.nan, np.float32))
        else:
            final = np.array([returns[(seat + i) % 6] for i in range(6)], np.float32)
            target = play.blend * values + (1 - play.blend) * final
            results.append(final * (features[4] >= 0))
        samples.append((*features, target * (features[4] >= 0), *legal_moves, policy))
    return GamePlayed(task, [a.text for a in game.history()], samples, plies,
                      [k[2] for k in kept], results, visits)


#: Games per unit of work sent to a worker: fixed, so that the games and their order do
#: not depend on the workers.
CHUNK = 16


def _play_chunk(evaluator: Evaluator | None, jobs: list[tuple[Task, Play]]) -> list[GamePlayed]:
    """A worker's unit: several games with one copy of the evaluator."""
    return [_play(task, evaluator, play) for task, play in jobs]


@dataclass(frozen=True)
class Played:
    """What `self_play` played: each game, in the order of its tasks, and the wall-clock
    seconds it took.

    Args:
        played: Each game (`GamePlayed`).
        seconds: The wall-clock seconds of the whole self-play.
    """

    played: list[GamePlayed]
    seconds: float

    @property
    def games(self) -> list[list[Sample]]:
        """Each game's samples."""
        return [game.samples for game in self.played]

    @property
    def positions(self) -> int:
        """The positions kept."""
        return sum(len(game) for game in self.games)


def self_play(tasks: list[Task], play: Play, evaluator: Evaluator | None, workers: int = 1,
              backend: str = "local", address: str | None = None,
              progress: bool | None = None, label: str = "self-play") -> Played:
    """The games of ``tasks``, played by ``workers`` processes (`process_map`) or Ray tasks
    (`ray_map`); their positions, game by game, in the order of ``tasks`` (the same
    whatever the workers). A worker that dies raises `WorkerLost`.

    Args:
        tasks: The games: (board, players, variant, seed) each.
        play: How the games are searched and labelled.
        evaluator: The learned evaluation searching (the Evaluator of a network; it travels
            to the workers as its network's bytes), or None (the heuristic).
        workers: Worker processes (or Ray tasks).
        backend: "local" or "ray".
        address: A Ray cluster's address, for backend "ray" (None: a local Ray).
        progress: A progress bar on stderr: True always, None on a terminal, False never.
        label: The progress bar's label, and the workers' errors'.

    Returns:
        Each game's samples, and the seconds it took.

    Raises:
        WorkerLost: If a worker dies.
    """
    began = time.perf_counter()
    jobs = [(task, play) for task in tasks]
    chunks = [jobs[i:i + CHUNK] for i in range(0, len(jobs), CHUNK)]
    starts = {id(chunk): i for i, chunk in zip(range(0, len(jobs), CHUNK), chunks)}

    def describe(chunk: list[tuple[Task, Play]]) -> str:
        first = starts[id(chunk)]
        return f"playing games {first}-{first + len(chunk) - 1} of {label}"

    results: list[list[GamePlayed] | None] = [None] * len(chunks)
    mapped: Generator[tuple[int, list[GamePlayed]], None, None]
    with Progress(len(jobs), label, progress) as bar:
        if backend == "local" and workers == 1:
            mapped = ((i, _play_chunk(evaluator, chunk)) for i, chunk in enumerate(chunks))
        elif backend == "ray":
            mapped = ray_map(_play_chunk, evaluator, chunks, workers, address, describe)
        else:
            mapped = process_map(_play_chunk, evaluator, chunks, workers, describe)
        try:
            for index, part in mapped:
                results[index] = part
                bar.advance(len(part))
        finally:
            mapped.close()                   # a stop here stops every worker at once
    games = [game for part in cast(list[list[GamePlayed]], results) for game in part]
    return Played(games, time.perf_counter() - began)


__all__ = ["GamePlayed", "Play", "Played", "Task", "play_game", "search_agent", "self_play"]
