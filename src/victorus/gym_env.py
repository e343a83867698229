"""A single-agent gymnasium environment: one team learns, built-in agents play the others
(``pip install "victorus[pettingzoo]"`` brings gymnasium).

The game runs in [`victorus.vector.VectorGames`][victorus.vector.VectorGames] with ``opponents``: the other
teams' actions are played in C inside each step (R33), so the learner sees only its own
turns. The observation is the float32 (or uint8) planes ``[planes, cells]`` seen by the
learner's army to act; actions are the fixed ids, by default in that army's frame
(``id_frame="observer"``, as the observation is rotated). The legal mask is in
``info["action_mask"]`` and from `LearnerEnv.action_masks` (MaskablePPO's
convention). The reward is the learner's team's: +1 when it wins, -1 when it loses, 0
otherwise (a draw, a game going on, truncation by ``max_actions``, R36). An action is
an integer of the action space (a Python int, a numpy integer scalar or a 0-d integer
array; a bool, a float, a string... is refused with ConfigError, as an id out of range
is). An illegal action loses the game at once (reward -1, ``terminated``, ``info["illegal_action"]``),
as gymnasium's checker and unmasked samplers expect an action space to be playable;
``illegal_actions="raise"`` raises IllegalActionError instead.

Registered with gymnasium (`ENV_IDS`) by ``import victorus.gym_env``, and by
``import victorus`` when gymnasium is imported already:

>>> import gymnasium, victorus.gym_env
>>> env = gymnasium.make("victorus/Compact2p-v0", opponent="greedy")
>>> obs, info = env.reset(seed=0)
>>> obs.shape, int(info["action_mask"].sum()) > 0
((88, 127), True)
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

from .checks import check_action_id, check_int, check_seat, shown
from .constants import OBSERVATION_VERSION
from .errors import ConfigError, optional_imports
from .game import DEFAULT_MAX_ACTIONS, Game
from .render import text_board
from .search.registry import OPPONENT_SPECS, VECTOR_KINDS
from .tensors import observation_bounds
from .vector import VectorGames

with optional_imports("victorus.gym_env (gymnasium)"):
    import gymnasium
    from gymnasium import spaces

ENV_IDS = {"victorus/Compact2p-v0": ("compact", 2, "standard"),
           "victorus/Compact2pQuick-v0": ("compact", 2, "quick6"),
           "victorus/Compact3p-v0": ("compact", 3, "standard"),
           "victorus/Standard2p-v0": ("standard", 2, "standard"),
           "victorus/Standard6p-v0": ("standard", 6, "standard")}
"""The registered ids and their games (board, players, variant)."""


class LearnerEnv(gymnasium.Env[NDArray[np.float32] | NDArray[np.uint8], np.int64]):
    """The team of ``seat`` against ``opponent``, which plays every other team:
    ``"random"``, ``"greedy"`` or a search played inside the step like ``"mcts:200"`` or
    ``"puct:0.05s"`` (`victorus.agents.OPPONENT_SPECS`); see the module
    documentation. ``reset(seed=...)`` seeds the opponents' random choices; an unseeded
    reset goes on with the same random stream.

    Args:
        board: The board: ``"standard"`` or ``"compact"``.
        players: How many armies play (2-6, R33); None for the board's default.
        variant: The variant (``"standard"``, ``"allied"``, ``"quick<rounds>"``, ``+``-joined).
        opponent: The agent spec that plays every other team inside the step.
        seat: A seat of the learning team, 0-5 (present in the game).
        observations: The planes' dtype: ``"float32"`` or ``"uint8"``.
        id_frame: The action ids' frame: ``"observer"`` (the acting army's, as its
            observation is rotated) or ``"absolute"`` (the board's cells).
        max_actions: Actions after which a game is truncated (R36); None for no cap.
        render_mode: None, or ``"ansi"``: ``render()`` returns the board as text.
        illegal_actions: ``"lose"`` (an illegal action loses the game) or ``"raise"``
            (IllegalActionError).

    Raises:
        ConfigError: An argument is out of range or unknown, or ``seat`` is not in the game.
    """

    metadata = {"render_modes": ["ansi"], "render_fps": 1, "observation_version": OBSERVATION_VERSION}

    def __init__(self, board: str = "compact", players: int | None = 2,
                 variant: str = "standard", *, opponent: str = "random", seat: int = 0,
                 observations: str = "float32", id_frame: str = "observer",
                 max_actions: int | None = DEFAULT_MAX_ACTIONS, render_mode: str | None = None,
                 illegal_actions: str = "lose") -> None:
        if illegal_actions not in ("lose", "raise"):
            raise ConfigError(f"illegal_actions must be 'lose' or 'raise', got {shown(illegal_actions, 60)}")
        if render_mode not in (None, "ansi"):
            raise ConfigError(f"render_mode must be None or 'ansi', got {shown(render_mode, 60)}")
        if observations not in ("float32", "uint8"):
            raise ConfigError(f"observations must be 'float32' or 'uint8', got {shown(observations, 60)}")
        if not isinstance(opponent, str) or opponent.partition(":")[0] not in VECTOR_KINDS:
            raise ConfigError(f"opponent must be one of {OPPONENT_SPECS}, got {shown(opponent, 60)}")
        check_seat(seat)
        self._start = Game(board, players=players, variant=variant)
        config = self._start.config
        if seat not in config.present:
            raise ConfigError(f"seat {seat} is not in a {config.players}-player game; "
                              f"present seats: {list(config.present)}")
        self.seat, self.render_mode, self.illegal_actions = seat, render_mode, illegal_actions
        others = {f"team:{config.teams[s]}": opponent for s in config.present
                  if config.teams[s] != config.teams[seat]}
        self.games = VectorGames(1, board, players, variant, observations=observations,
                                 max_actions=max_actions, id_frame=id_frame, opponents=others)
        planes = self.games.observations
        assert planes is not None                       # observations are float32 or uint8
        self._planes = planes
        masks = self.games.masks
        assert masks is not None                        # legal="mask", VectorGames' default
        self._masks = masks
        cells = len(self.games.board)
        low, high = observation_bounds(cells, observations, max_actions)
        self.observation_space = spaces.Box(low, high, dtype=np.dtype(observations))
        self.action_space = spaces.Discrete(self.games.num_actions)
        self._seeded = self._over = False

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[NDArray[np.float32] | NDArray[np.uint8], dict[str, Any]]:
        """Start a new game (gymnasium's reset).

        Args:
            seed: Seeds the opponents' random choices (0 or more); None goes on with the
                random stream (the first reset seeds it from ``np_random``).
            options: Unused (gymnasium's argument).

        Returns:
            ``(observation, info)``: the learner's planes, and ``info`` with
            ``"action_mask"`` (bool over the action ids) and ``"to_move"`` (the seat to act).

        Raises:
            ConfigError: ``seed`` is not an integer of at least 0.
        """
        super().reset(seed=None if seed is None else check_int("seed (or None)", seed, 0))
        if seed is not None or not self._seeded:       # the first reset seeds from np_random
            self.games.reset(int(self.np_random.integers(0, 2**63)))
            self._seeded = True
        else:
            self.games.set_game(0, self._start)        # the opponents' random stream goes on
        self._over = False
        return self._planes[0].copy(), self._info()

    def step(self, action: int | np.integer[Any] | NDArray[np.integer[Any]]
             ) -> tuple[NDArray[np.float32] | NDArray[np.uint8], float, bool, bool, dict[str, Any]]:
        """Play the learner's action, then the opponents' replies until the learner is to act
        again or the game ends (gymnasium's step).

        Args:
            action: An action id of the action space (a Python int, a numpy integer scalar
                or a 0-d integer array), in the ``id_frame``.

        Returns:
            ``(observation, reward, terminated, truncated, info)``: the reward is the
            learner's team's (+1 win, -1 loss, else 0); an illegal action (with
            ``illegal_actions="lose"``) ends the game with -1 and ``info["illegal_action"]``.

        Raises:
            ConfigError: ``action`` is not an integer of the action space, or the episode is
                over (call ``reset`` first).
            IllegalActionError: The action is illegal and ``illegal_actions="raise"``.
        """
        if self._over:
            raise ConfigError("the episode is over: call reset() before stepping again")
        games = self.games
        ident = check_action_id(action, games.num_actions)
        if not self._masks[0, ident]:
            if self.illegal_actions == "raise":
                games.step([ident])                    # raises, naming the action
            self._over = True
            return (self._planes[0].copy(), -1.0, True, False,
                    {**self._info(), "illegal_action": True})
        games.step(np.array([ident], dtype=np.int32))
        terminated, truncated = bool(games.terminated[0]), bool(games.truncated[0])
        self._over = terminated or truncated
        return (self._planes[0].copy(), float(games.rewards[0, self.seat]), terminated,
                truncated, self._info())

    def action_masks(self) -> NDArray[np.bool_]:
        """The legal actions now: a bool array over the action ids (MaskablePPO).

        Returns:
            A new bool array, True where the action id is legal.
        """
        mask: NDArray[np.bool_] = self._masks[0].copy()
        return mask

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self.action_masks(), "to_move": int(self.games.to_move[0])}

    def render(self) -> str | None:
        """The board as text with ``render_mode="ansi"`` (else None).

        Returns:
            The text picture of the game, or None without a render mode.
        """
        if self.render_mode == "ansi":
            return text_board(self.games.game(0))
        return None


def register() -> None:
    """Register `ENV_IDS` with gymnasium (again: a no-op)."""
    for env_id, (board, players, variant) in ENV_IDS.items():
        if env_id not in gymnasium.envs.registry:
            gymnasium.register(env_id, entry_point="victorus.gym_env:LearnerEnv",
                               kwargs=dict(board=board, players=players, variant=variant))


register()

__all__ = ["ENV_IDS", "LearnerEnv", "register"]
