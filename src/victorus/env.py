"""PettingZoo AEC environment (``pip install "victorus[pettingzoo]"``).

Agents are ``"seat_<n>"`` for the present seats (R33). Observations are dicts
``{"observation": float32 [planes, cells], "action_mask": int8 [actions],
"legal_ids": int32 [MAX_LEGAL_ACTIONS], "legal_count": int32 []}`` from the agent's
own point of view (victorus.tensors): the first ``legal_count`` entries of
``legal_ids`` are the legal ids (in legal_actions() order, -1 after them), so a
policy need not scan the mask. Actions are the fixed ids of docs/adapters.md:
integers of the action space (Python ints, numpy integer scalars, 0-d integer arrays);
anything else is refused with ConfigError.
Rewards come at the end only: +1 for every seat of the winning team, -1 for the
others, 0 for all in a draw. A game stopped by ``max_actions`` (R36) is truncated.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

from .checks import check_action_id, check_int, shown
from .constants import OBSERVATION_VERSION, PLANES
from .errors import ConfigError, optional_imports
from .game import DEFAULT_MAX_ACTIONS, MAX_ACTION_CAP, Game
from .render import text_board
from .tensors import num_actions, observation_bounds
from .vector import MAX_LEGAL_ACTIONS

with optional_imports("victorus.env (PettingZoo)"):
    from gymnasium import spaces
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers

RENDER_MODES = ("human", "ansi", "rgb_array")
"""The render modes: ``"human"`` (the text board printed), ``"ansi"`` (returned as text),
``"rgb_array"`` (an RGB picture; needs the render extra)."""


def aec_env(board: str = "standard", players: int | None = None, variant: str = "standard",
            render_mode: str | None = None,
            max_actions: int | None = DEFAULT_MAX_ACTIONS) -> VictorusEnv:
    """A VICTORUS AEC environment: a [`VictorusEnv`][victorus.env.VictorusEnv] (the same
    arguments).

    Returns:
        The environment, without wrappers.

    Raises:
        ConfigError: An argument is out of range or unknown.
    """
    return VictorusEnv(board, players, variant, render_mode, max_actions)


raw_env = aec_env
"""PettingZoo's name for the environment without wrappers: ``aec_env``."""


def env(board: str = "standard", players: int | None = None, variant: str = "standard",
        render_mode: str | None = None,
        max_actions: int | None = DEFAULT_MAX_ACTIONS) -> AECEnv[str, dict[str, NDArray[Any]], int]:
    """PettingZoo's usual entry point: [`aec_env`][victorus.env.aec_env] (the same
    arguments) in PettingZoo's OrderEnforcingWrapper, which refuses ``step``,
    ``observe`` and the rest before ``reset``.

    Returns:
        The environment in an OrderEnforcingWrapper.

    Raises:
        ConfigError: An argument is out of range or unknown.
    """
    wrapped: AECEnv[str, dict[str, NDArray[Any]], int] = wrappers.OrderEnforcingWrapper(
        aec_env(board, players, variant, render_mode, max_actions))
    return wrapped


# pettingzoo ships no type information (no py.typed): AECEnv is Any to a type checker
class VictorusEnv(AECEnv[str, dict[str, NDArray[Any]], int]):  # type: ignore[misc]
    """The AEC environment. ``render_mode``: ``"human"`` prints the board as text after
    every step (and ``render()`` prints it, returning None), ``"ansi"`` returns the text
    from ``render()`` and prints nothing, ``"rgb_array"`` returns an image (cairosvg).

    Args:
        board: The board: ``"standard"`` or ``"compact"``.
        players: How many armies play (2-6, R33); None for the board's default.
        variant: The variant (``"standard"``, ``"allied"``, ``"quick<rounds>"``, ``+``-joined).
        render_mode: None, ``"human"``, ``"ansi"`` or ``"rgb_array"`` (above).
        max_actions: Actions after which the game is truncated (R36); None for no cap.

    Raises:
        ConfigError: An argument is out of range or unknown.
    """

    metadata = {"render_modes": list(RENDER_MODES), "name": "victorus_v0",
                "is_parallelizable": False, "observation_version": OBSERVATION_VERSION}

    def __init__(self, board: str = "standard", players: int | None = None,
                 variant: str = "standard", render_mode: str | None = None,
                 max_actions: int | None = DEFAULT_MAX_ACTIONS) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ConfigError(f"render_mode must be None, 'human', 'ansi' or 'rgb_array', "
                              f"got {shown(render_mode, 60)}")
        if max_actions is not None:
            check_int("max_actions (or None)", max_actions, 1, MAX_ACTION_CAP)
        self._options = (board, players, variant)
        self.game = Game(*self._options)               # validates the configuration
        self.render_mode = render_mode
        self.max_actions = max_actions
        self.possible_agents = [f"seat_{s}" for s in self.game.config.present]
        n_actions = num_actions(self.game.board)
        shape = (len(PLANES), len(self.game.board))
        self.observation_spaces = {
            agent: spaces.Dict({
                "observation": spaces.Box(*observation_bounds(shape[1], max_actions=max_actions),
                                      dtype=np.float32),
                "action_mask": spaces.Box(low=0, high=1, shape=(n_actions,), dtype=np.int8),
                "legal_ids": spaces.Box(low=-1, high=n_actions - 1, shape=(MAX_LEGAL_ACTIONS,),
                                        dtype=np.int32),
                "legal_count": spaces.Box(low=0, high=MAX_LEGAL_ACTIONS, shape=(),
                                          dtype=np.int32),
            }) for agent in self.possible_agents}
        self.action_spaces = {agent: spaces.Discrete(n_actions) for agent in self.possible_agents}

    def observation_space(self, agent: str) -> spaces.Dict:
        """The agent's observation space (the same for every agent).

        Args:
            agent: An agent, ``"seat_<n>"``.

        Returns:
            A Dict space of ``observation``, ``action_mask``, ``legal_ids``, ``legal_count``.
        """
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Discrete[np.int64]:
        """The agent's action space: the fixed action ids (docs/adapters.md).

        Args:
            agent: An agent, ``"seat_<n>"``.

        Returns:
            A Discrete space of ``num_actions(board)`` ids.
        """
        return self.action_spaces[agent]

    @staticmethod
    def _seat(agent: str) -> int:
        return int(agent.rsplit("_", 1)[1])

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new game: every agent alive, rewards 0, the first seat to act selected.

        Args:
            seed: Unused: the game has no chance (PettingZoo's argument).
            options: Unused (PettingZoo's argument).
        """
        self.game = Game(*self._options)
        self.agents = self.possible_agents[:]
        self.rewards: dict[str, float] = {agent: 0 for agent in self.agents}
        self._cumulative_rewards: dict[str, float] = {agent: 0 for agent in self.agents}
        self.terminations: dict[str, bool] = {agent: False for agent in self.agents}
        self.truncations: dict[str, bool] = {agent: False for agent in self.agents}
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self.actions_played = 0
        self.agent_selection = f"seat_{self.game.to_move}"

    def observe(self, agent: str) -> dict[str, NDArray[Any]]:
        """What ``agent`` sees now, from its own point of view (see the module doc).

        Args:
            agent: An agent, ``"seat_<n>"``.

        Returns:
            ``{"observation", "action_mask", "legal_ids", "legal_count"}``; the mask and ids
            are empty unless ``agent`` is to act in a game going on.
        """
        padded = np.full(MAX_LEGAL_ACTIONS, -1, dtype=np.int32)
        ids: NDArray[np.int32] | tuple[()]
        if agent == self.agent_selection and not self.game.is_over:
            mask = self.game.legal_action_mask().view(np.int8)      # written in C
            ids = self.game.legal_action_ids()
            padded[:len(ids)] = ids
        else:
            mask = np.zeros(self.action_spaces[agent].n, dtype=np.int8)
            ids = ()
        return {"observation": self.game.observation(self._seat(agent)), "action_mask": mask,
                "legal_ids": padded, "legal_count": np.array(len(ids), dtype=np.int32)}

    def step(self, action: int | np.integer[Any] | NDArray[np.integer[Any]] | None) -> None:
        """Play the selected agent's action (its rewards, terminations and truncations
        follow); a terminated or truncated agent's step removes it (``action`` None).

        Args:
            action: An action id of the action space (a Python int, a numpy integer scalar
                or a 0-d integer array).

        Raises:
            ConfigError: ``action`` is not an integer of the action space.
            IllegalActionError: The action is not legal now.
        """
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self.game.play_id(check_action_id(action, int(self.action_spaces[agent].n)))
        self.actions_played += 1
        self._cumulative_rewards[agent] = 0
        if self.game.is_over:
            winners = set(self.game.winners or ())
            for other in self.agents:
                seat = self._seat(other)
                self.rewards[other] = 0 if not winners else (1 if seat in winners else -1)
                self.terminations[other] = True
                self.infos[other] = {"result_reason": self.game.result_reason}
        elif self.max_actions is not None and self.actions_played >= self.max_actions:
            for other in self.agents:
                self.truncations[other] = True
        if not self.game.is_over:
            self.agent_selection = f"seat_{self.game.to_move}"
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> NDArray[np.uint8] | str | None:
        """The board in the ``render_mode``: an RGB array (``"rgb_array"``), the text
        (``"ansi"``), printed (``"human"``, returning None); None without a mode.

        Returns:
            The picture, or None.
        """
        if self.render_mode is None:
            return None
        if self.render_mode == "rgb_array":
            from .render import render_rgb
            return render_rgb(self.game, size=12)
        if self.render_mode == "human":
            print(text_board(self.game), flush=True)
            return None
        return text_board(self.game)

    def close(self) -> None:
        """Nothing to release."""
        pass
