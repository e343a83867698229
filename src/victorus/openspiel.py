"""OpenSpiel registration (``pip install "victorus[openspiel]"``).

Importing this module registers the game ``"victorus"`` with pyspiel::

    import pyspiel, victorus.openspiel
    game = pyspiel.load_game("victorus", {"board": "compact", "players": 2})

Parameters: ``board`` ("standard" or "compact"), ``players`` (2-6), ``variant``
("standard", "allied", "quick<rounds>", "+"-joined), ``max_actions`` (R36
cap; a capped game ends with 0 for everybody) and ``observation`` ("planes", the
default, or "small": the same information in 6 values per cell and 30 for the whole
position, 14 times fewer numbers, see `SMALL_ROWS`). An OpenSpiel player is a team
(R33), numbered by its lowest seat: with 2 players, player 0 moves seats 0, 2
and 4. Actions are the fixed ids of docs/adapters.md, observations the planes
of the acting team's lowest seat (victorus.tensors). Returns: +1 for the
winning team, -1 for the others, 0 for all in a draw.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
from numpy.typing import NDArray

from .checks import as_int, check_action_id, check_int, shown
from .constants import NUM_SEATS, OBSERVATION_VERSION, PIECE_LETTERS, PLANES
from .errors import optional_imports
from .game import DEFAULT_MAX_ACTIONS, MAX_ACTION_CAP, Game
from .tensors import num_actions
from .variants import Config

with optional_imports("victorus.openspiel"):
    import pyspiel

_DEFAULTS = {"board": "standard", "players": 6, "variant": "standard",
             "max_actions": DEFAULT_MAX_ACTIONS, "observation_version": OBSERVATION_VERSION,
             "observation": "planes"}
"""observation_version: the planes this game writes (constants.OBSERVATION_VERSION); a program that
asks for another version is told at once instead of training on planes it does not expect."""
OBSERVATIONS = ("planes", "small")
"""The observations the game offers (its ``observation`` parameter): the planes per cell, or the
small rows per cell with the global planes once."""

SMALL_ROWS = {
    "piece": {f"army{a}_{p}": 1 + 7 * a + k for a in range(NUM_SEATS)
              for k, p in enumerate(PIECE_LETTERS)},
    "flags": {"black_edged": 1, "royal": 2, "frozen": 4, "self_eligible": 8, "moving": 16},
    "tally": {"tally": 1},
    "laps": {"laps": 1},
    "colour": {"cell_white": 1, "cell_grey": 2, "cell_centre": 3},
    "kingdom": {f"kingdom{a}": 1 + a for a in range(NUM_SEATS)},
}
"""The "small" observation's rows per cell, each a weighted sum of planes (at most one of a row's
planes is set in a cell, so the sum is a code): the piece (0 empty, else 1 + 7 * relative army +
kind, kinds in PIECE_LETTERS order), flags (black-edged 1, royal 2, frozen 4, self-eligible 8,
moving 16), the tally, the laps, the cell's colour (white 1, grey 2, centre 3) and its live kingdom
(0 none, else 1 + relative army). Then the planes that are the same in every cell (phase onwards),
once each."""
SMALL_GLOBALS = PLANES[PLANES.index("phase_start"):]
"""The planes the small observation holds once: those that are the same in every cell."""
_SMALL_WEIGHTS = np.array([[row.get(plane, 0) for plane in PLANES] for row in SMALL_ROWS.values()],
                          np.float32)
_GAME_TYPE = pyspiel.GameType(
    short_name="victorus",
    long_name="VICTORUS",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
    information=pyspiel.GameType.Information.PERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=6,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=dict(_DEFAULTS))


def _teams(config: Config) -> list[tuple[int, ...]]:
    """Teams of present seats, ordered by their lowest seat: OpenSpiel's players."""
    teams: dict[int, list[int]] = {}
    for seat in config.present:
        teams.setdefault(config.teams[seat], []).append(seat)
    return [tuple(seats) for _, seats in sorted(teams.items())]


# pyspiel ships no type information (a compiled module without stubs): its classes are Any
class VictorusSpielGame(pyspiel.Game):  # type: ignore[misc]
    """VICTORUS for OpenSpiel; one OpenSpiel player per team.

    Args:
        params: The game parameters (see the module documentation): ``board``,
            ``players``, ``variant``, ``max_actions``, ``observation``,
            ``observation_version``; None or a missing one takes its default.

    Raises:
        ValueError: ``observation_version`` is not this victorus's, or ``observation`` is
            unknown.
        ConfigError: ``players`` or ``max_actions`` is out of range, or the board or
            variant is unknown.
    """

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        params = {**_DEFAULTS, **(params or {})}
        if as_int(params["observation_version"]) != OBSERVATION_VERSION:
            raise ValueError(f"observation_version {params['observation_version']} was asked for; "
                             f"this victorus writes version {OBSERVATION_VERSION} (docs/adapters.md)")
        if params["observation"] not in OBSERVATIONS:
            raise ValueError(f"observation must be one of {OBSERVATIONS}, "
                             f"got {shown(params['observation'], 60)}")
        self.observation: str = params["observation"]
        # checked as Game checks them (R36's cap within max_game_length, a C int); the
        # params handed on to OpenSpiel are then plain ints
        params["players"] = check_int("players", params["players"], 2, NUM_SEATS)
        params["max_actions"] = check_int("max_actions", params["max_actions"], 1,
                                          min(MAX_ACTION_CAP, 2**31 - 1))
        self._options = {"board": params["board"], "players": params["players"],
                         "variant": params["variant"]}
        self.max_actions: int = params["max_actions"]
        prototype = Game(**self._options)
        self.teams = _teams(prototype.config)
        self.player_of_seat = {seat: p for p, team in enumerate(self.teams) for seat in team}
        self.cells: int = len(prototype.board)
        info = pyspiel.GameInfo(
            num_distinct_actions=num_actions(prototype.board),
            max_chance_outcomes=0,
            num_players=len(self.teams),
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=None,
            max_game_length=self.max_actions)
        super().__init__(_GAME_TYPE, info, params)

    def new_initial_state(self) -> VictorusSpielState:
        """A new game at its start position (OpenSpiel's new_initial_state).

        Returns:
            The state.
        """
        return VictorusSpielState(self)

    def make_py_observer(self, iig_obs_type: pyspiel.IIGObservationType | None = None,
                         params: Mapping[str, Any] | None = None) -> VictorusObserver:
        """The game's observer (OpenSpiel's make_py_observer): the planes, or the small
        observation with the game parameter ``observation="small"``.

        Args:
            iig_obs_type: OpenSpiel's observation type; unused (the game has perfect
                information).
            params: Observer parameters: none are supported.

        Returns:
            A [`VictorusObserver`][victorus.openspiel.VictorusObserver] or a
            [`SmallObserver`][victorus.openspiel.SmallObserver].

        Raises:
            ValueError: ``params`` are given.
        """
        if params:
            raise ValueError(f"observation parameters are not supported, got {params}")
        return SmallObserver(self) if self.observation == "small" else VictorusObserver(self)


class _SpielGame(Game):
    """A Game whose deep copies (OpenSpiel's state clones) leave out the undo history,
    which OpenSpiel never uses: a clone costs about 1 us at any game length."""

    __slots__ = ()

    def __deepcopy__(self, memo: dict[int, object]) -> Game:
        return self.copy(history=False)


class VictorusSpielState(pyspiel.State):  # type: ignore[misc]
    """A VICTORUS position as an OpenSpiel state.

    Args:
        game: The OpenSpiel game whose start position the state is.
    """

    def __init__(self, game: VictorusSpielGame) -> None:
        super().__init__(game)
        # Plain values only: OpenSpiel clones states by deep copy, which does
        # not carry a Python game object's attributes along.
        self.teams = game.teams
        self.player_of_seat = game.player_of_seat
        self.max_actions = game.max_actions
        self.num_actions: int = game.num_distinct_actions()
        self.game = _SpielGame(**game._options)
        self.actions_played = 0

    def _capped(self) -> bool:
        return self.actions_played >= self.max_actions

    def current_player(self) -> int:
        """The OpenSpiel player (team) to act, or ``pyspiel.PlayerId.TERMINAL`` at the end.

        Returns:
            The player's number, or the terminal id.
        """
        if self.is_terminal():
            terminal: int = pyspiel.PlayerId.TERMINAL          # an IntEnum
            return terminal
        return self.player_of_seat[self.game.to_move]

    def _legal_actions(self, player: int) -> list[int]:
        ids: list[int] = np.sort(self.game.legal_action_ids()).tolist()
        return ids

    def apply_action(self, action: int | np.integer[Any]) -> None:
        """OpenSpiel's apply_action with the id checked first: its binding would turn a
        numpy float or a bool into an id (C++ callers reach _apply_action's check).

        Args:
            action: A legal action id (docs/adapters.md): a Python int, a numpy integer
                scalar or a 0-d integer array.

        Raises:
            ConfigError: ``action`` is not an integer of the action space.
            IllegalActionError: The action is not legal now.
        """
        super().apply_action(check_action_id(action, self.num_actions))

    def _apply_action(self, action: int) -> None:
        self.game.play_id(check_action_id(action, self.num_actions))
        self.actions_played += 1

    def _action_to_string(self, player: int, action: int) -> str:
        from .tensors import describe_id
        return describe_id(self.game.board, check_action_id(action, self.num_actions))

    def is_terminal(self) -> bool:
        """Whether the game is over, or capped by ``max_actions`` (R36).

        Returns:
            True at the end.
        """
        return self.game.is_over or self._capped()

    def returns(self) -> list[float]:
        """Each player's (team's) return: +1 for the winning team, -1 for the others, 0
        for all in a draw, a capped game or a game going on.

        Returns:
            One return per player.
        """
        if not self.game.is_over or not self.game.winners:
            return [0.0] * len(self.teams)
        winners = set(self.game.winners)
        return [1.0 if set(team) & winners else -1.0 for team in self.teams]

    def __str__(self) -> str:
        from .render import text_board
        return text_board(self.game)


class VictorusObserver:
    """OpenSpiel observer: the planes of victorus.tensors, seen by the team's lowest seat
    (the game's [`make_py_observer`][victorus.openspiel.VictorusSpielGame.make_py_observer]
    makes it).

    Args:
        game: The OpenSpiel game.
    """

    def __init__(self, game: VictorusSpielGame) -> None:
        shape = (len(PLANES), game.cells)
        self.tensor: NDArray[np.float32] = np.zeros(int(np.prod(shape)), np.float32)
        self.dict: dict[str, NDArray[np.float32]] = {"observation": np.reshape(self.tensor, shape)}

    def set_from(self, state: VictorusSpielState, player: int) -> None:
        """Write ``player``'s observation of ``state`` into ``tensor`` (in C).

        Args:
            state: The state observed.
            player: The observing player (team): its lowest seat's planes.
        """
        seat = state.teams[player][0]
        state.game.observation(seat, out=self.dict["observation"])     # written in C

    def string_from(self, state: VictorusSpielState, player: int) -> str:
        """The position as text, for ``player``.

        Args:
            state: The state observed.
            player: The observing player (team).

        Returns:
            ``"player <n>"`` and the board's text picture.
        """
        from .render import text_board
        return f"player {player}\n" + text_board(state.game)


class SmallObserver(VictorusObserver):
    """The "small" observation (game parameter ``observation="small"``): SMALL_ROWS per
    cell and SMALL_GLOBALS once, computed from the planes; nothing of them is lost.

    Args:
        game: The OpenSpiel game.
    """

    def __init__(self, game: VictorusSpielGame) -> None:
        rows, cells = len(SMALL_ROWS), game.cells
        self.planes: NDArray[np.float32] = np.zeros((len(PLANES), cells), np.float32)
        self.tensor = np.zeros(rows * cells + len(SMALL_GLOBALS), np.float32)
        self.cells: NDArray[np.float32] = np.reshape(self.tensor[:rows * cells], (rows, cells))
        self.globals: NDArray[np.float32] = self.tensor[rows * cells:]
        self.dict = {"cells": self.cells, "globals": self.globals}

    def set_from(self, state: VictorusSpielState, player: int) -> None:
        """Write ``player``'s small observation of ``state`` into ``tensor`` (in C).

        Args:
            state: The state observed.
            player: The observing player (team): its lowest seat's view.
        """
        state.game._engine.observation_rows_into(self.planes, _SMALL_WEIGHTS, self.cells,
                                                 self.globals, state.teams[player][0])   # in C


pyspiel.register_game(_GAME_TYPE, VictorusSpielGame)
