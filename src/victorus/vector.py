"""Many games stepped in one call, in C, for reinforcement learning (``victorus[learning]``).

[`VectorGames`][victorus.vector.VectorGames] holds ``num_envs`` games of one configuration in a C array and
steps them all with one call: the GIL is released and the games are split over
``threads`` POSIX threads. Every output is written into preallocated numpy arrays
(the attributes below), reused from step to step:

- ``observations`` ``[N, planes, cells]`` seen by the army to act (self-play), float32
  as [`victorus.Game.observation`][victorus.game.Game.observation], or uint8 (the same planes as saturated
  integer counts: knight captures, held pieces and the round as counts, laps clipped to 0-255),
  or absent;
- ``masks`` ``[N, actions]`` bool, or ``ids`` ``[N, MAX_LEGAL_ACTIONS]`` int32 with
  ``counts`` ``[N]`` (the first ``counts[i]`` entries of row ``i`` are its legal ids);
- ``rewards`` ``[N, 6]`` float32 per seat: +1 for the seats of the winning team and -1
  for the other present seats when a game is won, 0 otherwise (draws, truncation);
- ``terminated`` and ``truncated`` ``[N]`` bool (truncated: ``max_actions`` actions
  played, R36), ``to_move`` ``[N]`` int32, the seat to act.

Frames: observations are rotated to the army to act. With ``id_frame="observer"`` the
action ids (masks, ids, [`sample`][victorus.vector.VectorGames.sample], and the ids
[`step`][victorus.vector.VectorGames.step] takes) are in that army's frame too: a leg's cells are replaced by
their columns in its observation ([`victorus.tensors.to_observer_ids`][victorus.tensors.to_observer_ids]), so
one network reads the same action the same way from every seat. The default ``"absolute"``
keeps the board's cells.

Opponents: ``opponents={seat: "greedy", "team:1": "mcts:100"}`` plays those seats (an
int) or every seat of a team (``"team:<t>"``, ``Config.teams`` numbering, R33) with a
built-in agent in C inside the step: a step plays the caller's action, then the agents'
replies until one of the caller's seats (`learner_seats`) is to act,
so the outputs only ever show the caller's turns. Rewards come at a game's end only, so
the step that ends a game, on the caller's action or an agent's, carries its rewards;
the agents' actions count towards ``max_actions``. The agents (`OPPONENT_SPECS`,
the specs of [`victorus.agents.make_agent`][victorus.search.registry.make_agent]) draw from each game's
own random
state ([`agent_rng`][victorus.vector.VectorGames.agent_rng]): ``greedy`` is
[`victorus.agents.GreedyAgent`][victorus.search.simple.GreedyAgent], move for move; ``mcts:<budget>``,
``alphabeta:<budget>``, ``puct:<budget>`` and ``best:<budget>`` are
[`MCTSAgent`][victorus.search.mcts.MCTSAgent],
[`AlphaBetaAgent`][victorus.search.alphabeta.AlphaBetaAgent] and
[`PUCTAgent`][victorus.search.puct.PUCTAgent],
each decision searched on the worker thread's own buffers (made once per thread) with a
seed drawn from that state ([`victorus.search.SplitMix64`][victorus.search.SplitMix64]); PUCT keeps each
game's tree between decisions, as its agent does. A time budget (``mcts:0.05s``) makes the
games depend on the machine's speed. Ctrl-C during a step (or [`recv`][victorus.vector.VectorGames.recv],
[`reset`][victorus.vector.VectorGames.reset], [`set_game`][victorus.vector.VectorGames.set_game]) stops the
searches at once (each decision taken from what was searched), lets the step end and raises
KeyboardInterrupt.

Asynchronous steps (EnvPool's model): [`send`][victorus.vector.VectorGames.send] validates the ids and
starts the step on a native thread, returning at once; [`recv`][victorus.vector.VectorGames.recv] waits
for it. The outputs are those of [`step`][victorus.vector.VectorGames.step] and must not be read in
between. The caller's thread holds `lock` from send to recv.

Autoreset follows gymnasium's next-step mode: a game that ended at one step starts again
at the next one, whose action for it is ignored. Action ids are those of
[`victorus.tensors`][victorus.tensors]; an illegal id raises IllegalActionError before any game moves.
[`VectorGames.sample`][victorus.vector.VectorGames.sample] draws uniformly random legal ids in C (baselines).
Results depend only on the seed and the actions, never on the thread count.

Threads: one object may be called from any number of Python threads. Each call
(``step``, ``reset``, ``sample``, ``game``) holds the object's `lock`
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

import secrets
import threading
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, NoReturn

from ._vector import MAX_LEGAL_ACTIONS, MAX_WORKER_THREADS, VectorEngine
from .checks import as_int, as_int_array, check_int, shown
from .constants import NUM_SEATS, OBSERVATION_KINDS, OBSERVATION_VERSION, PLANES
from .errors import ConfigError, IllegalActionError
from .game import DEFAULT_MAX_ACTIONS, MAX_ACTION_CAP, Game
from .search.registry import make_vector_opponent
from .tensors import _describe, _numpy, describe_id, num_actions

if TYPE_CHECKING:
    import numpy
    from numpy.typing import ArrayLike, NDArray

    from .search._policy import Opponent
    from .search.registry import VectorAgent
    from .variants import Config

OBSERVATIONS = {kind: i for i, kind in enumerate(OBSERVATION_KINDS)}   # the engine's OBS_*
LEGAL = (None, "mask", "ids")
FRAMES = ("absolute", "observer")
MAX_ENVS = 1 << 14
"""More than this many games per batch is refused. Each game costs about 12 KB of C state, plus 32
KB (standard board; 16 KB compact) for its mask and 64 KB (32 KB) for float32 observations."""


class VectorGames:
    """``num_envs`` games stepped together in C; see the module documentation.

    Args:
        num_envs: How many games, 1 to `MAX_ENVS`.
        board: The board: ``"standard"`` or ``"compact"``.
        players: How many armies play (2-6, R33); None for the board's default.
        variant: The variant (``"standard"``, ``"allied"``, ``"quick<rounds>"``, ``+``-joined).
        observations: The planes written: ``"float32"``, ``"uint8"`` (saturated integer
            counts) or None (no ``observations`` array).
        legal: The legal actions written: ``"mask"`` (``masks``), ``"ids"`` (``ids`` and
            ``counts``) or None.
        max_actions: Actions after which a game is truncated (R36); None for no cap.
        threads: POSIX threads that step the games, 1 to ``MAX_WORKER_THREADS``; the
            results do not depend on it.
        seed: Seeds [`sample`][victorus.vector.VectorGames.sample] and the opponents (game
            ``i`` from ``(seed, i)``), 0 to 2**64 - 1; None draws one from the system's entropy.
        id_frame: The action ids' frame: ``"absolute"`` (the board's cells) or
            ``"observer"`` (the columns of the acting army's observation).
        opponents: Seats (an int) or teams (``"team:<t>"``) played by a built-in agent
            inside the step: an agent spec (``"greedy"``, ``"mcts:100"``) or an agent of
            such a kind; None: the caller plays every seat.

    Raises:
        ConfigError: An argument is out of range or unknown, the opponents name a seat
            twice or play every seat, or an opponent's agent does not play inside the step.
    """

    def __init__(self, num_envs: int, board: str = "standard", players: int | None = None,
                 variant: str = "standard", *, observations: str | None = "float32",
                 legal: str | None = "mask", max_actions: int | None = DEFAULT_MAX_ACTIONS,
                 threads: int = 1, seed: int | None = 0, id_frame: str = "absolute",
                 opponents: Mapping[int, str | VectorAgent] | Mapping[str, str | VectorAgent]
                 | Mapping[int | str, str | VectorAgent] | None = None) -> None:
        np = _numpy()
        num_envs = check_int("num_envs", num_envs, 1, MAX_ENVS)
        threads = check_int("threads", threads, 1, MAX_WORKER_THREADS)
        if observations not in OBSERVATIONS:
            raise ConfigError(f"observations must be 'float32', 'uint8' or None, "
                              f"got {shown(observations, 60)}")
        if legal not in LEGAL:
            raise ConfigError(f"legal must be 'mask', 'ids' or None, got {shown(legal, 60)}")
        if max_actions is not None:
            max_actions = check_int("max_actions", max_actions, 1, MAX_ACTION_CAP)
        if id_frame not in FRAMES:
            raise ConfigError(f"id_frame must be 'absolute' or 'observer', got {shown(id_frame, 60)}")
        start = Game(board, players=players, variant=variant)
        self.board, self.config = start.board, start.config
        self.id_frame = id_frame
        agents = _agents_by_seat(start, opponents)
        self.learner_seats = tuple(s for s in start.config.present if agents[s] is None)
        """The seats the caller plays (every present seat without an agent)."""
        self.observation_version = OBSERVATION_VERSION
        """The planes written (constants.OBSERVATION_VERSION, bumped with any plane change)."""
        self.num_envs: int = num_envs
        self.max_actions: int | None = max_actions
        self.num_actions: int = num_actions(self.board)
        n, cells = num_envs, len(self.board)
        self.observations: NDArray[numpy.float32] | NDArray[numpy.uint8] | None = \
            None if observations is None else np.zeros((n, len(PLANES), cells), dtype=observations)
        self.masks: NDArray[numpy.bool_] | None = \
            np.zeros((n, self.num_actions), bool) if legal == "mask" else None
        self.ids: NDArray[numpy.int32] | None = \
            np.zeros((n, MAX_LEGAL_ACTIONS), np.int32) if legal == "ids" else None
        self.counts: NDArray[numpy.int32] = np.zeros(n, np.int32)
        self.rewards: NDArray[numpy.float32] = np.zeros((n, NUM_SEATS), np.float32)
        self.terminated: NDArray[numpy.bool_] = np.zeros(n, bool)
        self.truncated: NDArray[numpy.bool_] = np.zeros(n, bool)
        self.to_move: NDArray[numpy.int32] = np.zeros(n, np.int32)
        self._sampled: NDArray[numpy.int32] = np.zeros(n, np.int32)
        self._actions: NDArray[numpy.int32] = np.zeros(n, np.int32)
        buffers: dict[str, NDArray[Any] | None] = {"observations": self.observations, "ids": self.ids,
                   "masks": None if self.masks is None else self.masks.view(np.uint8),
                   "rewards": self.rewards, "terminated": self.terminated.view(np.uint8),
                   "truncated": self.truncated.view(np.uint8), "to_move": self.to_move,
                   "counts": self.counts, "sampled": self._sampled}
        self.lock = threading.RLock()
        """Held by every call; hold it yourself to read a call's outputs from several threads."""
        self._sender: int | None = None       # the thread between send() and recv()
        self._seed = secrets.randbits(64) if seed is None else check_int(
            "seed (or None)", seed, 0, 2**64 - 1)
        """None: a seed drawn from the system's entropy (reset() without a seed keeps it)"""
        self._engine = VectorEngine(start._engine, n, threads, max_actions or 0,
                                    OBSERVATIONS[observations], buffers,
                                    id_frame == "observer", agents)
        self.reset(seed)

    @property
    def threads(self) -> int:
        """How many worker threads step the games."""
        return self._engine.threads

    def reset(self, seed: int | None = None) -> VectorGames:
        """Every game to the start position; ``seed`` seeds [`sample`][victorus.vector.VectorGames.sample]
        (game ``i`` from ``(seed, i)``); None keeps the last seed (the constructor's
        ``seed=None`` draws one from the system's entropy).

        Args:
            seed: The new seed, 0 to 2**64 - 1; None keeps the last one.

        Returns:
            This VectorGames itself (``self``); the start positions' outputs are in its arrays.

        Raises:
            ConfigError: ``seed`` is out of range, or a step sent with ``send`` is running.
        """
        if seed is not None:
            seed = check_int("seed (or None)", seed, 0, 2**64 - 1)
        with self.lock:
            self._check_idle()
            if seed is not None:
                self._seed = seed
            self._engine.reset(self._seed)
        return self

    def step(self, actions: ArrayLike) -> VectorGames:
        """Play one action id per game (any int sequence or array of ``num_envs`` ids), in
        the ids' frame (``id_frame``); with opponents, their replies too.

        The step returns no observations or rewards: it rewrites the output arrays in
        place (``observations``, ``masks`` or ``ids`` and ``counts``, ``rewards``,
        ``terminated``, ``truncated``, ``to_move``), and returns the VectorGames itself, so
        that calls chain (``games.step(a).observations``).
        [`VictorusVectorEnv.step`][victorus.vector_env.VictorusVectorEnv.step] returns
        gymnasium's ``(observations, rewards, terminated, truncated, info)`` tuple instead.

        Args:
            actions: ``num_envs`` integer action ids (a sequence or an array), one per game;
                a game about to start again ignores its id.

        Returns:
            This VectorGames itself (``self``), not its outputs: read them from its arrays.

        Raises:
            ConfigError: ``actions`` are not ``num_envs`` integers, or a step sent with
                ``send`` is running.
            IllegalActionError: An id is not legal in its game; no game was stepped.
        """
        with self.lock:              # validation and play under one lock: all or nothing
            self._check_idle()
            bad = self._engine.step(self._ids(actions))     # checks every id first
            if bad >= 0:
                self._refuse(actions, bad)
        return self

    def send(self, actions: ArrayLike) -> None:
        """Start stepping these ids (as [`step`][victorus.vector.VectorGames.step] does) on a native thread
        and return at once, to compute the next batch meanwhile; [`recv`][victorus.vector.VectorGames.recv]
        waits for the outputs. Holds `lock` until then: other threads' calls wait, and this thread may
        call nothing else but [`recv`][victorus.vector.VectorGames.recv]. The ids are copied: reuse their
        array.

        Args:
            actions: ``num_envs`` integer action ids, as [`step`][victorus.vector.VectorGames.step]
                takes them.

        Raises:
            ConfigError: ``actions`` are not ``num_envs`` integers, or a step sent with
                ``send`` is running.
            IllegalActionError: An id is not legal in its game; no step was started.
        """
        self.lock.acquire()
        try:
            self._check_idle()
            ids = self._ids(actions)
            if ids is not self._actions:
                self._actions[:] = ids
            bad = self._engine.send(self._actions)
            if bad >= 0:
                self._refuse(actions, bad)
        except BaseException:
            self.lock.release()
            raise
        self._sender = threading.get_ident()

    def recv(self) -> VectorGames:
        """Wait for the step [`send`][victorus.vector.VectorGames.send] started; its outputs are then in the
        arrays.

        Returns:
            This VectorGames itself (``self``); the step's outputs are in its arrays.

        Raises:
            ConfigError: This thread sent no step.
        """
        if self._sender != threading.get_ident():
            raise ConfigError("recv() without a send() from this thread")
        try:
            self._engine.recv()          # Ctrl-C: raised once the step has ended
        finally:
            self._sender = None
            self.lock.release()
        return self

    def _check_idle(self) -> None:
        if self._sender is not None:
            raise ConfigError("a step sent with send() is running: call recv() first")

    def _ids(self, actions: object) -> NDArray[numpy.int32]:
        """The actions as the engine takes them: int32, C-contiguous, ``num_envs``."""
        np = _numpy()
        if not (isinstance(actions, np.ndarray) and actions.dtype == np.int32
                and actions.flags.c_contiguous):
            ids = as_int_array(actions)         # no bool, float, timedelta... ids
            if ids is None or ids.shape != (self.num_envs,):
                raise ConfigError(f"actions must be {self.num_envs} integer action ids, got "
                                  f"{_describe(actions if ids is None else ids)}")
            self._actions[:] = ids.clip(-1, self.num_actions)
            return self._actions
        if actions.shape != (self.num_envs,):
            raise ConfigError(f"actions must be {self.num_envs} integer action ids, got "
                              f"{_describe(actions)}")
        given: NDArray[numpy.int32] = actions
        return given

    def _refuse(self, actions: object, bad: int) -> NoReturn:
        """Raise for game ``bad``, whose id the engine refused (it stepped nothing)."""
        ident = int(_numpy().asarray(actions)[bad])
        what = describe_id(self.board, ident) if 0 <= ident < self.num_actions else \
            f"ids go from 0 to {self.num_actions - 1}"
        frame = (f" in the {self.id_frame} frame of seat {int(self.to_move[bad])}"
                 if self.id_frame == "observer" else "")
        raise IllegalActionError(f"game {bad}: action id {ident} ({what}{frame}) is not legal "
                                 f"now; no game was stepped")

    def sample(self) -> NDArray[numpy.int32]:
        """Uniformly random legal ids, one per game (-1 for a game about to start again);
        drawn in C from each game's own random state. The array is reused: from several
        threads, hold `lock` around this call and your use of its result.

        Returns:
            ``num_envs`` int32 ids, in the ids' frame (``id_frame``); the same array at
            every call, rewritten.

        Raises:
            ConfigError: A step sent with ``send`` is running.
        """
        with self.lock:
            self._check_idle()
            self._engine.sample()
            return self._sampled

    def set_game(self, index: int, game: Game) -> VectorGames:
        """Game ``index`` becomes a copy of ``game``'s position (the same board and
        configuration; not over): curricula, fixed openings, evaluation suites. Its
        episode starts there (no action played, rewards zero); the outputs of that row
        are rewritten.

        Args:
            index: The game's row, 0 to ``num_envs - 1``.
            game: The position to copy (not over, of these games' board and configuration).

        Returns:
            This VectorGames itself (``self``).

        Raises:
            ConfigError: ``index`` is out of range, ``game`` is no Game, of another
                configuration or over, or a step sent with ``send`` is running.
        """
        index = check_int("index", index, 0, self.num_envs - 1)
        if not isinstance(game, Game):
            raise ConfigError(f"set_game needs a victorus.Game, got {type(game).__name__}")
        if game.board.name != self.board.name or game.config != self.config:
            raise ConfigError(f"the game is {game.board.name} {game.config.variant_string()}, "
                              f"these games are {self.board.name} {self.config.variant_string()}")
        if game.is_over:
            raise ConfigError("set_game needs a game that is not over")
        with self.lock:
            self._check_idle()
            self._engine.load(index, game._engine)
        return self

    def game(self, index: int) -> Game:
        """A copy of game ``index`` as a [`victorus.Game`][victorus.game.Game] (no history).

        Args:
            index: The game's row, 0 to ``num_envs - 1``.

        Returns:
            A new Game at that game's position.

        Raises:
            ConfigError: ``index`` is out of range, or a step sent with ``send`` is running.
        """
        index = check_int("index", index, 0, self.num_envs - 1)
        with self.lock:
            self._check_idle()
            return Game._from_engine(self.board, self.config, self._engine.engine(index))

    def agent_rng(self, index: int) -> int:
        """The 64-bit random state game ``index``'s opponents draw from next (seeded by
        [`reset`][victorus.vector.VectorGames.reset] from ``(seed, index)``): a
        [`victorus.agents.GreedyAgent`][victorus.search.simple.GreedyAgent] with this ``rng_state``, or
        a search
        agent of the same spec with ``rng=victorus.search.SplitMix64(state)``, plays as they do.

        Args:
            index: The game's row, 0 to ``num_envs - 1``.

        Returns:
            The 64-bit state.

        Raises:
            ConfigError: ``index`` is out of range, or a step sent with ``send`` is running.
        """
        index = check_int("index", index, 0, self.num_envs - 1)
        with self.lock:
            self._check_idle()
            return self._engine.agent_rng(index)


def _agents_by_seat(start: Game, opponents: object) -> tuple[Opponent | None, ...]:
    """The engine's agent for each seat from ``opponents``: None (the caller's) or an
    agent's native opponent (shared by the seats of one key)."""
    config = start.config
    agents: list[Opponent | None] = [None] * NUM_SEATS
    if opponents is None:
        return tuple(agents)
    if not isinstance(opponents, dict):
        raise ConfigError(f"opponents must be a dict {{seat or 'team:<t>': agent}}, "
                          f"got {shown(opponents, 60)}")
    named: dict[int, object] = {}                # seat -> the key that named it
    for key, spec in opponents.items():
        agent = _opponent(key, spec, start)
        for seat in _seats_of(config, key):
            if seat in named:                     # else the later key would win silently
                raise ConfigError(f"opponents name seat {seat} twice: {shown(named[seat], 60)} and "
                                  f"{shown(key, 60)}; give each seat one agent")
            named[seat] = key
            agents[seat] = agent
    if all(agents[s] is not None for s in config.present):
        raise ConfigError("opponents play every seat: leave at least one seat to the caller")
    return tuple(agents)


def _opponent(key: object, spec: str | VectorAgent, start: Game) -> Opponent:
    """The engine's agent for an opponent spec (or agent): the native opponent (functions
    and parameter block) of the agent the registry builds from it; an agent on a network
    must have been trained for the game."""
    try:
        return make_vector_opponent(spec, start)
    except ConfigError as error:
        raise ConfigError(f"opponent {shown(key, 60)}: {error}") from None


def _seats_of(config: Config, key: object) -> list[int]:
    """The present seats an opponents key names: a seat, or ``"team:<t>"``."""
    teams = sorted({config.teams[s] for s in config.present})
    seat = as_int(key)
    if seat is not None and seat in config.present:
        return [seat]
    if isinstance(key, str) and key.startswith("team:") and key[5:].isdigit() \
            and int(key[5:]) in teams:
        return [s for s in config.present if config.teams[s] == int(key[5:])]
    raise ConfigError(f"opponents key {shown(key, 60)}: a present seat {list(config.present)} or a team "
                      f"{', '.join(f'team:{t}' for t in teams)}")


__all__ = ["MAX_LEGAL_ACTIONS", "VectorGames"]
