"""Many games stepped in one call, in C, for reinforcement learning (``victorus[learning]``).

:class:`VectorGames` holds ``num_envs`` games of one configuration in a C array and
steps them all with one call: the GIL is released and the games are split over
``threads`` POSIX threads. Every output is written into preallocated numpy arrays
(the attributes below), reused from step to step:

- ``observations`` ``[N, planes, cells]`` seen by the army to act (self-play), float32
  as :meth:`victorus.Game.observation`, or uint8 (the same planes as saturated integer
  counts: knight captures, held pieces and the round as counts, laps clipped to 0-255),
  or absent;
- ``masks`` ``[N, actions]`` bool, or ``ids`` ``[N, MAX_LEGAL_ACTIONS]`` int32 with
  ``counts`` ``[N]`` (the first ``counts[i]`` entries of row ``i`` are its legal ids);
- ``rewards`` ``[N, 6]`` float32 per seat: +1 for the seats of the winning team and -1
  for the other present seats when a game is won, 0 otherwise (draws, truncation);
- ``terminated`` and ``truncated`` ``[N]`` bool (truncated: ``max_actions`` actions
  played, R36), ``to_move`` ``[N]`` int32, the seat to act.

Autoreset follows gymnasium's next-step mode: a game that ended at one step starts again
at the next one, whose action for it is ignored. Action ids are those of
:mod:`victorus.tensors`; an illegal id raises IllegalActionError before any game moves.
:meth:`VectorGames.sample` draws uniformly random legal ids in C (baselines). Results
depend only on the seed and the actions, never on the thread count.

Threads: one object may be called from any number of Python threads. Each call
(``step``, ``reset``, ``sample``, ``game``) holds the object's :attr:`~VectorGames.lock`
from validation to the last output written, so calls never interleave, whatever
``threads`` is. The output arrays are shared: a thread that reads them after its own
call holds the lock around both (``with games.lock: games.step(a); obs =
games.observations.copy()``); it is re-entrant.

>>> import numpy as np
>>> games = VectorGames(4, board="compact", players=2, seed=1)
>>> games.observations.shape, games.masks.shape
((4, 88, 127), (4, 16132))
>>> for _ in range(3):
...     _ = games.step(games.sample())
>>> int(games.to_move[0]) in range(6)
True
"""

from __future__ import annotations

import threading

from ._vector import MAX_LEGAL_ACTIONS, MAX_WORKER_THREADS, VectorEngine
from .checks import check_int
from .constants import NUM_SEATS, OBSERVATION_KINDS, OBSERVATION_VERSION, PLANES
from .errors import ConfigError, IllegalActionError
from .game import DEFAULT_MAX_ACTIONS, MAX_ACTION_CAP, Game
from .tensors import _numpy, describe_id, num_actions

OBSERVATIONS = {kind: i for i, kind in enumerate(OBSERVATION_KINDS)}   # the engine's OBS_*
LEGAL = (None, "mask", "ids")
#: More than this many games per batch is refused. Each game costs about 12 KB of C state,
#: plus 32 KB (standard board; 16 KB compact) for its mask and 64 KB (32 KB) for float32
#: observations.
MAX_ENVS = 1 << 14


class VectorGames:
    """``num_envs`` games stepped together in C; see the module documentation."""

    def __init__(self, num_envs: int, board: str = "standard", players: int | None = None,
                 variant: str = "standard", *, observations: str | None = "float32",
                 legal: str | None = "mask", max_actions: int | None = DEFAULT_MAX_ACTIONS,
                 threads: int = 1, seed: int = 0):
        np = _numpy()
        check_int("num_envs", num_envs, 1, MAX_ENVS)
        check_int("threads", threads, 1, MAX_WORKER_THREADS)
        if observations not in OBSERVATIONS:
            raise ConfigError(f"observations must be 'float32', 'uint8' or None, "
                              f"got {observations!r}")
        if legal not in LEGAL:
            raise ConfigError(f"legal must be 'mask', 'ids' or None, got {legal!r}")
        if max_actions is not None:
            check_int("max_actions", max_actions, 1, MAX_ACTION_CAP)
        start = Game(board, players=players, variant=variant)
        self.board, self.config = start.board, start.config
        #: The planes written (constants.OBSERVATION_VERSION, bumped with any plane change).
        self.observation_version = OBSERVATION_VERSION
        self.num_envs, self.max_actions = num_envs, max_actions
        self.num_actions = num_actions(self.board)
        n, cells = num_envs, len(self.board)
        self.observations = None if observations is None else np.zeros(
            (n, len(PLANES), cells), dtype=observations)
        self.masks = np.zeros((n, self.num_actions), bool) if legal == "mask" else None
        self.ids = np.zeros((n, MAX_LEGAL_ACTIONS), np.int32) if legal == "ids" else None
        self.counts = np.zeros(n, np.int32)
        self.rewards = np.zeros((n, NUM_SEATS), np.float32)
        self.terminated = np.zeros(n, bool)
        self.truncated = np.zeros(n, bool)
        self.to_move = np.zeros(n, np.int32)
        self._sampled = np.zeros(n, np.int32)
        self._actions = np.zeros(n, np.int32)
        buffers = {"observations": self.observations, "ids": self.ids,
                   "masks": None if self.masks is None else self.masks.view(np.uint8),
                   "rewards": self.rewards, "terminated": self.terminated.view(np.uint8),
                   "truncated": self.truncated.view(np.uint8), "to_move": self.to_move,
                   "counts": self.counts, "sampled": self._sampled}
        #: Held by every call; hold it yourself to read a call's outputs from several threads.
        self.lock = threading.RLock()
        self._engine = VectorEngine(start._engine, n, threads, max_actions or 0,
                                    OBSERVATIONS[observations], buffers)
        self.reset(seed)

    @property
    def threads(self) -> int:
        return self._engine.threads

    def reset(self, seed: int | None = None) -> "VectorGames":
        """Every game to the start position; ``seed`` seeds :meth:`sample` (game ``i`` from
        ``(seed, i)``)."""
        if seed is not None:
            check_int("seed", seed, 0, 2**64 - 1)
        with self.lock:
            if seed is not None:
                self._seed = seed
            self._engine.reset(self._seed)
        return self

    def step(self, actions) -> "VectorGames":
        """Play one action id per game (any int sequence or array of ``num_envs`` ids)."""
        with self.lock:              # validation and play under one lock: all or nothing
            self._step(actions)
        return self

    def _step(self, actions) -> None:
        np = _numpy()
        ids = actions
        if not (isinstance(ids, np.ndarray) and ids.dtype == np.int32 and ids.flags.c_contiguous):
            ids = np.asarray(actions)
            if ids.shape != (self.num_envs,) or not np.issubdtype(ids.dtype, np.integer):
                raise ConfigError(f"actions must be {self.num_envs} integer action ids, got "
                                  f"{ids.dtype} {ids.shape}")
            self._actions[:] = ids.clip(-1, self.num_actions)
            ids = self._actions
        elif ids.shape != (self.num_envs,):
            raise ConfigError(f"actions must be {self.num_envs} integer action ids, got "
                              f"{ids.dtype} {ids.shape}")
        bad = self._engine.step(ids)          # checks every id first: all or nothing
        if bad >= 0:
            ident = int(np.asarray(actions)[bad])
            what = describe_id(self.board, ident) if 0 <= ident < self.num_actions else \
                f"ids go from 0 to {self.num_actions - 1}"
            raise IllegalActionError(f"game {bad}: action id {ident} ({what}) is not legal "
                                     f"now; no game was stepped")

    def sample(self):
        """Uniformly random legal ids, one per game (-1 for a game about to start again);
        drawn in C from each game's own random state. The array is reused: from several
        threads, hold :attr:`lock` around this call and your use of its result."""
        with self.lock:
            self._engine.sample()
            return self._sampled

    def set_game(self, index: int, game: Game) -> "VectorGames":
        """Game ``index`` becomes a copy of ``game``'s position (the same board and
        configuration; not over): curricula, fixed openings, evaluation suites. Its
        episode starts there (no action played, rewards zero); the outputs of that row
        are rewritten."""
        check_int("index", index, 0, self.num_envs - 1)
        if not isinstance(game, Game):
            raise ConfigError(f"set_game needs a victorus.Game, got {type(game).__name__}")
        if game.board.name != self.board.name or game.config != self.config:
            raise ConfigError(f"the game is {game.board.name} {game.config.variant_string()}, "
                              f"these games are {self.board.name} {self.config.variant_string()}")
        if game.is_over:
            raise ConfigError("set_game needs a game that is not over")
        with self.lock:
            self._engine.load(index, game._engine)
        return self

    def game(self, index: int) -> Game:
        """A copy of game ``index`` as a :class:`victorus.Game` (no history)."""
        check_int("index", index, 0, self.num_envs - 1)
        with self.lock:
            return Game._from_engine(self.board, self.config, self._engine.engine(index))


__all__ = ["MAX_LEGAL_ACTIONS", "VectorGames"]
