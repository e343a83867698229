"""Self-play's positions as a dataset a researcher can use: every round's positions and the
held-out set, each position with its game, its ply, its search value, its game's result and
its visit counts apart from the blended label, and each game's whole record, so that any
position can be rebuilt and relabelled (`Dataset.position`).

A dataset file is a compressed ``.npz`` (``numpy.load`` reads it, no pickle) of format
`FORMAT`:

- the training arrays of `victorus.training.checkpoint.PACKED` (the inputs, the blended
  value ``targets``, the legal actions' ``origin``, ``target``, ``capture`` and the search's
  visit distribution ``policy``), as a run's window keeps them;
- per position: ``game`` (its game's index in this file), ``ply`` (the actions played
  before it), ``search_value`` (the deep search's root value per seat) and ``result`` (the
  game's `Game.share_returns`, NaN for a game stopped at its cap), both per seat counted
  from the army to act, as ``targets`` is;
- per legal action: ``visits``, the deep search's visit counts (``policy`` normalised);
- per game: ``game_board``, ``game_players``, ``game_variant``, ``game_seed`` and
  ``game_actions`` (its record: every action from the start, space-separated).
"""

from __future__ import annotations

import io
import zipfile
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from ..checks import shown, shown_path
from ..errors import ConfigError, VictorusError
from ..files import write_atomic
from ..game import Game
from .checkpoint import PACKED, pack, unpack
from .selfplay import GamePlayed
from .step import Sample

FORMAT = "victorus-positions-1"
"""The dataset file's format name (its ``format`` array)."""
POSITION_ARRAYS = ("game", "ply", "search_value", "result")
"""The per-position arrays besides the training ones."""
GAME_ARRAYS = ("game_board", "game_players", "game_variant", "game_seed", "game_actions")
"""The per-game arrays."""
ARRAYS = ("format", *PACKED, *POSITION_ARRAYS, "visits", *GAME_ARRAYS)
"""Every array of a dataset file."""


@dataclass(frozen=True)
class Dataset:
    """A dataset file's contents.

    Args:
        samples: The positions as training samples (victorus.training.step.Sample).
        game: Each position's game (an index into ``games``).
        ply: Each position's ply in its game.
        search_value: Each position's deep search value per seat, [N, 6].
        result: Each position's game result per seat, [N, 6] (NaN: unfinished).
        visits: Each position's visit counts over its legal actions.
        games: Each game: (board, players, variant, seed, its actions).
    """

    samples: list[Sample]
    game: NDArray[np.int32]
    ply: NDArray[np.int32]
    search_value: NDArray[np.float32]
    result: NDArray[np.float32]
    visits: list[NDArray[np.int32]]
    games: list[tuple[str, int, str, int, list[str]]]

    def position(self, index: int) -> Game:
        """The game of position ``index`` replayed up to it (a game to search again, to
        relabel).

        Args:
            index: The position's index.

        Returns:
            A new game at that position.

        Raises:
            ConfigError: If its game's record does not replay (a damaged file).
        """
        board, players, variant, _, actions = self.games[int(self.game[index])]
        try:
            game = Game(board, players=players, variant=variant)
            for action in actions[:int(self.ply[index])]:
                game.play(action)
        except VictorusError as exc:
            raise ConfigError(f"position {index}'s game does not replay: {shown(exc, 120)}") from None
        return game


def dataset_bytes(played: Sequence[GamePlayed]) -> bytes:
    """The dataset file of some self-play games.

    Args:
        played: The games (`victorus.training.selfplay.Played.played`).

    Returns:
        The file's bytes (a compressed ``.npz``).
    """
    samples = [s for game in played for s in game.samples]
    arrays: dict[str, Any] = dict(pack(samples))
    arrays["format"] = np.array(FORMAT)
    arrays["game"] = np.array([g for g, game in enumerate(played) for _ in game.samples], np.int32)
    arrays["ply"] = np.array([p for game in played for p in game.plies], np.int32)
    for name, field in (("search_value", "values"), ("result", "result")):
        rows = [row for game in played for row in getattr(game, field)]
        arrays[name] = np.array(rows, np.float32).reshape(len(rows), 6)
    counts = [v for game in played for v in game.visits]
    arrays["visits"] = np.concatenate(counts).astype(np.int32) if counts else np.zeros(0, np.int32)
    arrays["game_board"] = np.array([g.task[0] for g in played], dtype=np.str_)
    arrays["game_players"] = np.array([g.task[1] for g in played], np.int8)
    arrays["game_variant"] = np.array([g.task[2] for g in played], dtype=np.str_)
    arrays["game_seed"] = np.array([g.task[3] for g in played], np.uint64)
    arrays["game_actions"] = np.array([" ".join(g.actions) for g in played], dtype=np.str_)
    buffer = io.BytesIO()
    np.savez_compressed(buffer, **arrays)
    return buffer.getvalue()


def write_dataset(path: str, played: Sequence[GamePlayed]) -> None:
    """Write some self-play games as a dataset file, atomically.

    Args:
        path: The file to write.
        played: The games.
    """
    write_atomic(path, dataset_bytes(played))


def read_dataset(path: str) -> Dataset:
    """A dataset file, checked: ConfigError naming the file and what is wrong otherwise.

    Args:
        path: The file.

    Returns:
        Its contents.

    Raises:
        ConfigError: If the file is missing or is not a dataset of `FORMAT`.
    """
    where = shown_path(path)
    try:
        with np.load(path, allow_pickle=False) as data:
            arrays = {name: data[name] for name in data.files}
    except (OSError, ValueError, zipfile.BadZipFile, EOFError) as exc:
        raise ConfigError(f"{where} is not a dataset ({FORMAT}): {shown(exc, 120)}") from None
    missing = [name for name in ARRAYS if name not in arrays]
    if missing:
        raise ConfigError(f"{where} is not a dataset ({FORMAT}): no {', '.join(missing)}")
    if str(arrays["format"]) != FORMAT:
        raise ConfigError(f"{where} is a dataset of format {shown(str(arrays['format']), 40)}; "
                          f"this victorus reads {FORMAT}")
    if any(arrays[name].ndim == 0 for name in ARRAYS if name != "format"):
        raise ConfigError(f"{where} is not a dataset ({FORMAT}): an array is a single value")
    n, games = len(arrays["boards"]), len(arrays["game_board"])
    moves = arrays["moves"]
    sizes = {"game": n, "ply": n, "search_value": n, "result": n, "visits": int(moves.sum()),
             **{name: games for name in GAME_ARRAYS}}
    for name, size in sizes.items():
        if len(arrays[name]) != size:
            raise ConfigError(f"{where}: {name} has {len(arrays[name])} entries, not {size}")
    for name in ("search_value", "result"):
        if arrays[name].shape != (n, 6):
            raise ConfigError(f"{where}: {name} must be a value per seat of each position, "
                              f"shape ({n}, 6), got {arrays[name].shape}")
    if n and (arrays["game"].min() < 0 or arrays["game"].max() >= games):
        raise ConfigError(f"{where}: a position's game is not one of its {games} games")
    lengths = np.array([len(str(a).split()) for a in arrays["game_actions"]], np.int64)
    if n and ((arrays["ply"] < 0) | (arrays["ply"] >= lengths[arrays["game"]])).any():
        raise ConfigError(f"{where}: a position's ply is not within its game's record")
    try:
        samples = unpack(arrays)
    except (ValueError, IndexError, TypeError) as exc:
        raise ConfigError(f"{where}: its training arrays do not fit: {shown(exc, 120)}") from None
    cuts = np.cumsum(moves)[:-1]
    return Dataset(samples, arrays["game"], arrays["ply"], arrays["search_value"],
                   arrays["result"], list(np.split(arrays["visits"], cuts)) if n else [],
                   [(str(b), int(p), str(v), int(s), str(a).split())
                    for b, p, v, s, a in zip(arrays["game_board"], arrays["game_players"],
                                             arrays["game_variant"], arrays["game_seed"],
                                             arrays["game_actions"])])


__all__ = ["ARRAYS", "FORMAT", "Dataset", "dataset_bytes", "read_dataset", "write_dataset"]
