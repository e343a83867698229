"""A gymnasium vector environment over [`victorus.vector.VectorGames`][victorus.vector.VectorGames]
(``pip install "victorus[pettingzoo]"`` brings gymnasium).

Self-play: every army of every game is played by the caller's policy. An observation is
``{"observation": [N, planes, cells] float32 or uint8, "action_mask": [N, actions] int8}``
seen by the army to act; ``info["to_move"]`` says which seat that is, and
``info["rewards"]`` holds the rewards of all six seats (``[N, 6]``). The reward returned
for a game is that of the seat that acted in it at this step (+1 win, -1 loss, 0
otherwise). Autoreset is gymnasium's next-step mode: after ``terminated`` or
``truncated`` the next action of that game is ignored and it starts again.
``id_frame="observer"`` puts the action ids (mask and actions) in the frame of the army
to act, as its observation is; ``opponents`` plays seats or teams with built-in agents
inside the step (both as [`victorus.vector.VectorGames`][victorus.vector.VectorGames] has them).

>>> env = VictorusVectorEnv(4, board="compact", players=2)
>>> obs, info = env.reset(seed=0)
>>> obs["observation"].shape, int(env.single_action_space.n)
((4, 88, 127), 16132)
>>> obs, rewards, terminated, truncated, info = env.step(env.sample_legal())
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from .checks import shown
from .constants import OBSERVATION_VERSION
from .errors import ConfigError, optional_imports
from .game import DEFAULT_MAX_ACTIONS
from .tensors import observation_bounds
from .vector import VectorGames

if TYPE_CHECKING:
    from .search.registry import VectorAgent

with optional_imports("victorus.vector_env (gymnasium)"):
    from gymnasium import spaces
    from gymnasium.vector import AutoresetMode, VectorEnv


class VictorusVectorEnv(VectorEnv[dict[str, NDArray[Any]], NDArray[np.int64], NDArray[Any]]):
    """``num_envs`` VICTORUS games as one gymnasium VectorEnv (see the module doc).

    ``copy``: return copies of the output arrays (True, gymnasium's default) or the
    arrays the engine rewrites at every step (False: faster, read them before stepping).
    Safe to call from several threads with ``copy=True``: each call holds
    ``games.lock`` until its outputs are copied.

    Args:
        num_envs: How many games (as [`VectorGames`][victorus.vector.VectorGames] takes it).
        board: The board: ``"standard"`` or ``"compact"``.
        players: How many armies play (2-6, R33); None for the board's default.
        variant: The variant (``"standard"``, ``"allied"``, ``"quick<rounds>"``, ``+``-joined).
        observations: The planes' dtype: ``"float32"`` or ``"uint8"``.
        max_actions: Actions after which a game is truncated (R36); None for no cap.
        threads: POSIX threads that step the games; the results do not depend on it.
        copy: Return copies of the output arrays (True) or the arrays themselves (False).
        id_frame: The action ids' frame: ``"absolute"`` (the board's cells) or
            ``"observer"`` (the acting army's).
        opponents: Seats (an int) or teams (``"team:<t>"``) played by a built-in agent
            inside the step (as [`VectorGames`][victorus.vector.VectorGames] takes them);
            None: the policy plays every seat.

    Raises:
        ConfigError: An argument is out of range or unknown (as
            [`VectorGames`][victorus.vector.VectorGames] refuses them).
    """

    metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP, "render_modes": [],
                "observation_version": OBSERVATION_VERSION}

    def __init__(self, num_envs: int, board: str = "standard", players: int | None = None,
                 variant: str = "standard", *, observations: str = "float32",
                 max_actions: int | None = DEFAULT_MAX_ACTIONS, threads: int = 1,
                 copy: bool = True, id_frame: str = "absolute",
                 opponents: Mapping[int, str | VectorAgent] | Mapping[str, str | VectorAgent]
                 | Mapping[int | str, str | VectorAgent] | None = None) -> None:
        if observations not in ("float32", "uint8"):     # its observation space needs planes
            raise ConfigError(f"observations must be 'float32' or 'uint8', got {shown(observations, 60)}")
        self.games = VectorGames(num_envs, board, players, variant, observations=observations,
                                 legal="mask", max_actions=max_actions, threads=threads,
                                 id_frame=id_frame, opponents=opponents)
        self.num_envs = num_envs
        self.copy = copy
        n_actions, cells = self.games.num_actions, len(self.games.board)
        low, high = observation_bounds(cells, observations, max_actions)
        dtype = np.float32 if observations == "float32" else np.uint8
        self.single_observation_space = spaces.Dict({
            "observation": spaces.Box(low, high, dtype=dtype),
            "action_mask": spaces.Box(0, 1, (n_actions,), dtype=np.int8)})
        self.single_action_space = spaces.Discrete(n_actions)
        self.observation_space = spaces.Dict({
            "observation": spaces.Box(np.broadcast_to(low, (num_envs, *low.shape)),
                                      np.broadcast_to(high, (num_envs, *high.shape)), dtype=dtype),
            "action_mask": spaces.Box(0, 1, (num_envs, n_actions), dtype=np.int8)})
        self.action_space = spaces.MultiDiscrete(np.full(num_envs, n_actions))
        self._rows = np.arange(num_envs)
        self._acting = np.zeros(num_envs, np.int32)

    def _outputs(self) -> tuple[dict[str, NDArray[Any]], dict[str, Any]]:
        g = self.games
        take: Callable[[NDArray[Any]], NDArray[Any]] = np.copy if self.copy else (lambda a: a)
        assert g.observations is not None and g.masks is not None   # both asked for above
        obs = {"observation": take(g.observations), "action_mask": take(g.masks.view(np.int8))}
        return obs, {"to_move": take(g.to_move), "rewards": take(g.rewards)}

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[dict[str, NDArray[Any]], dict[str, Any]]:
        """Every game to the start position (gymnasium's reset).

        Args:
            seed: Seeds the games' random state (game ``i`` from ``(seed, i)``), 0 to
                2**64 - 1; None keeps the last seed.
            options: Unused (gymnasium's argument).

        Returns:
            ``(observations, info)``: ``{"observation", "action_mask"}`` arrays, and
            ``info`` with ``"to_move"`` and ``"rewards"`` (``[N, 6]``).

        Raises:
            ConfigError: ``seed`` is out of range.
        """
        with self.games.lock:            # the call and the reading of its outputs (threads)
            self.games.reset(seed)
            return self._outputs()

    def step(self, actions: ArrayLike) -> tuple[dict[str, NDArray[Any]], NDArray[np.float32],
                                                NDArray[np.bool_], NDArray[np.bool_], dict[str, Any]]:
        """Play one action id per game (gymnasium's step, next-step autoreset).

        Args:
            actions: ``num_envs`` integer action ids (a sequence or an array), in the ids'
                frame; a game about to start again ignores its id.

        Returns:
            ``(observations, rewards, terminated, truncated, info)``: ``rewards`` holds,
            for each game, the reward of the seat that acted in it at this step.

        Raises:
            ConfigError: ``actions`` are not ``num_envs`` integers.
            IllegalActionError: An id is not legal in its game; no game was stepped.
        """
        with self.games.lock:
            self._acting[:] = self.games.to_move
            self.games.step(actions)
            obs, info = self._outputs()
            rewards: NDArray[np.float32] = self.games.rewards[self._rows, self._acting].copy()
            return (obs, rewards, self.games.terminated.copy(), self.games.truncated.copy(),
                    info)

    def sample_legal(self) -> NDArray[np.int32]:
        """Uniformly random legal actions (drawn in C), one per game.

        Returns:
            ``num_envs`` int32 ids (a copy; -1 for a game about to start again).
        """
        with self.games.lock:
            return self.games.sample().copy()


__all__ = ["VictorusVectorEnv"]
