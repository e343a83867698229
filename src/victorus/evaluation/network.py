"""The learned evaluation's network ([`Network`][victorus.evaluation.network.Network]): its
file, its numpy twin (what training differentiates, and the slow path the tests hold the
C evaluator to) and its C core, which alpha-beta and PUCT call without the GIL.

What the network reads and computes is the C module's (``victorus.evaluation._network``):
sparse rows of (seat, kind, cell) seen from the army to act, dense per-seat inputs, two
clipped-ReLU layers, a value per seat plus the heuristic evaluation's terms weighted by
``skip``; optionally a policy head, priors over the legal actions from the first layer
(`POLICY_ARRAYS`). A new network (`Network.fresh`) has ``w3 = b3 = 0`` and ``skip`` at the
heuristic's weights, its policy head at zero and ``policy_capture`` at 1: it *is* the
heuristic evaluation with the hand-written capture priors until it is trained.

A network file (``.vnet``, format version 1)::

    b"VICTORUS-NETWORK\\n"          the magic line
    uint32 LE  format version
    uint32 LE  header length
    header     UTF-8 JSON: layout, hidden sizes, the boards' cells, the arrays' names and
               shapes, what it was trained for ("trained": boards, players) and how;
               a network with a policy head also names its layout ("policy")
    payload    the arrays, float32 little-endian, in the header's order
    32 bytes   SHA-256 of everything before

A file is refused on load, in one line naming the file and what does not match: not a
network file, another format version, damaged (checksum, truncated, extra bytes), another
feature layout, boards of other sizes, arrays of the wrong shapes or not finite.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import struct
import threading
from collections.abc import Callable, Iterable, Mapping, Sequence
from importlib import resources
from typing import TYPE_CHECKING, TypeAlias, TypedDict

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ..checks import check_int, check_seed, shown
from ..errors import ConfigError
from ..files import check_writable, file_path, read_limited, write_atomic
from ..geometry import BOARD_NAMES, Board, hex_distance
from . import _network, _terms

if TYPE_CHECKING:
    from ..game import Game

MAGIC = b"VICTORUS-NETWORK\n"
FORMAT_VERSION = 1
"""The file format's version: bumped with any change of the layout of the file itself."""
LAYOUT: str = _network.LAYOUT
"""The feature layout a network is trained on (the C module's); a file must name it."""
LEGACY_LAYOUTS: dict[str, str] = {"seat-kind-cell/1": "seat-kind-cell/t10-s8-g9-k3"}
"""Layout names written before the name was derived from the sizes, and the sizes they had: a file
of such a name is read when its sizes are today's."""
BOARDS: tuple[str, ...] = tuple(sorted(BOARD_NAMES))
"""The boards (every board of victorus.geometry), in name order: the order of their blocks of first-layer
rows (the C network has SIZES["boards"] blocks). Named, not measured, so importing this module builds no
board."""
ARRAYS = ("w1", "wd", "b1", "w2", "b2", "w3", "b3", "skip")
"""The arrays of a network's value, in the file's order."""
POLICY_ARRAYS: tuple[str, ...] = _network.POLICY_NAMES
"""The arrays of a network's policy head, after the value's in the file: ``policy_from`` and
``policy_to`` (a row per cell of every board, in BOARDS order: the weights over the first layer,
then a bias), ``policy_word`` (a row per word: stop, end, pass) and ``policy_capture`` (the weight
of the log of the hand-written capture priors)."""
POLICY_LAYOUT: str = _network.POLICY_LAYOUT
"""The policy head's layout, written in the header of a network that has one."""
#: The heuristic weights the skip connection starts from (victorus.evaluation.heuristic).
SKIP_NAMES: tuple[str, ...] = _network.SKIP_NAMES
#: The largest network file read (a default network is about 2 MB).
MAX_FILE_BYTES = 256 << 20
SIZES: dict[str, int] = _network.SIZES
SEATS: int = SIZES["seats"]
VALUE_BOUND: float = _terms.VALUE_BOUND_VALUE
Inputs: TypeAlias = tuple[str, NDArray[np.int32], NDArray[np.float32], NDArray[np.float32],
                          NDArray[np.int8]]
"""A position's inputs (`inputs`): its board's name, the sparse rows within the board's block, the dense
inputs, the heuristic terms per seat and each seat's team."""
Moves: TypeAlias = tuple[NDArray[np.int32], NDArray[np.int32], NDArray[np.float32]]
"""The policy head's inputs of a position's legal actions (`moves`): each one's origin column (-1: a
word), its target column (a word: its number) and the log of its capture prior."""
Sample: TypeAlias = tuple[str, NDArray[np.int32], NDArray[np.float32], NDArray[np.float32],
                          NDArray[np.int8], NDArray[np.float32], NDArray[np.int32],
                          NDArray[np.int32], NDArray[np.float32], NDArray[np.float32]]
"""A training sample: a position's `Inputs`, its target value per seat, its `Moves` and the target
policy over them (the search's visit distribution; empty: no policy target)."""


class _Trained(TypedDict):
    """What a network was trained for."""

    boards: list[str]
    players: list[int]


class NetworkFileError(ConfigError):
    """A network file that cannot be used: the message names the file and what is wrong."""


def board_cells() -> tuple[int, ...]:
    """The cells of each board, in BOARDS order (the sizes of the blocks of rows).

    Returns:
        Each board's number of cells.
    """
    return tuple(len(Board(name).coords) for name in BOARDS)


def board_rims() -> tuple[int, ...]:
    """Each board's largest hex distance from the centre, in BOARDS order.

    Returns:
        Each board's rim distance.
    """
    return tuple(max(hex_distance(q, r) for q, r in Board(name).coords) for name in BOARDS)


def shapes(hidden: int, hidden2: int, policy: bool = False) -> dict[str, tuple[int, ...]]:
    """Each array's shape for these layer sizes.

    Args:
        hidden: The first hidden layer's size.
        hidden2: The second hidden layer's size.
        policy: With the policy head's arrays.

    Returns:
        ARRAYS names (and POLICY_ARRAYS names with ``policy``) to their shapes.
    """
    rows = sum(_network.block_size(cells) for cells in board_cells())
    size = {"w1": (rows, hidden), "wd": (SIZES["dense_inputs"], hidden), "b1": (hidden,),
            "w2": (hidden, hidden2), "b2": (hidden2,), "w3": (hidden2, SEATS), "b3": (SEATS,),
            "skip": (SIZES["skip_terms"],)}
    if policy:
        cells = sum(board_cells())
        size.update({"policy_from": (cells, hidden + 1), "policy_to": (cells, hidden + 1),
                     "policy_word": (SIZES["words"], hidden + 1), "policy_capture": (1,)})
    return size


def cell_starts() -> dict[str, int]:
    """The first row of each board's cells in ``policy_from`` and ``policy_to``.

    Returns:
        BOARDS names to their first rows.
    """
    return dict(zip(BOARDS, np.concatenate([[0], np.cumsum(board_cells())[:-1]]).tolist()))


def block_starts() -> dict[str, int]:
    """The first row of each board's block in ``w1``.

    Returns:
        BOARDS names to their first rows.
    """
    starts: dict[str, int] = {}
    total = 0
    for name, cells in zip(BOARDS, board_cells()):
        starts[name] = total
        total += _network.block_size(cells)
    return starts


class Network:
    """A network for the learned evaluation: its arrays (float32, read-only; the policy
    head's too if it has one, ``policy``), its layer sizes, what it was ``trained`` for
    (``{"boards": [...], "players": [...]}``) and free ``info`` on how (the command, the
    seed, the positions...). Immutable: training makes new networks. Safe to share between
    threads and searches.

    Args:
        arrays: The arrays of ARRAYS by name, of the shapes of `shapes`.
        trained: What it was trained for: ``{"boards": [...], "players": [...]}``.
        info: Free information on how it was made (JSON values).
        path: The file it came from, or None.

    Raises:
        NetworkFileError: If an array is missing, of the wrong shape or not finite, or
            ``trained`` or ``info`` is malformed.
    """

    def __init__(self, arrays: Mapping[str, ArrayLike], trained: Mapping[str, object] | None = None,
                 info: Mapping[str, object] | None = None, path: str | None = None) -> None:
        where = f"{path}: " if path else ""
        try:
            hidden, hidden2 = (int(np.shape(arrays[name])[0]) for name in ("b1", "b2"))
        except (KeyError, IndexError, TypeError):
            raise NetworkFileError(f"{where}a network needs the arrays {ARRAYS}") from None
        policy = any(name in arrays for name in POLICY_ARRAYS)
        expect = shapes(hidden, hidden2, policy)
        held: dict[str, NDArray[np.float32]] = {}
        for name in expect:
            if name not in arrays:
                needed = POLICY_ARRAYS if name in POLICY_ARRAYS else ARRAYS
                what = "a network with a policy head" if name in POLICY_ARRAYS else "a network"
                raise NetworkFileError(f"{where}{what} needs the arrays {needed}; "
                                       f"{shown(name, 60)} is missing")
            array = np.asarray(arrays[name], dtype=np.float32)
            if array.shape != expect[name]:
                raise NetworkFileError(f"{where}array {shown(name, 60)} has shape {array.shape}, expected "
                                       f"{expect[name]} for hidden sizes {hidden}, {hidden2}")
            if not np.isfinite(array).all():
                raise NetworkFileError(f"{where}array {shown(name, 60)} holds values that are not finite")
            held[name] = array
        self.hidden, self.hidden2, self.policy = hidden, hidden2, policy
        self.trained = _check_trained(trained, where)
        if info is not None and not isinstance(info, Mapping):
            raise NetworkFileError(f"{where}'info' must be a mapping, got {type(info).__name__}")
        self.info = dict(info or {})
        self.path = path
        self.core = _network.NetworkCore(held, board_cells(), board_rims())
        #: The weights (read-only views of the ones the C evaluator reads).
        self.arrays: dict[str, NDArray[np.float32]] = dict(self.core.arrays)

    # -- making one ------------------------------------------------------------------------

    @classmethod
    def fresh(cls, hidden: int = 32, hidden2: int = 16, seed: int | None = 0,
              trained: Mapping[str, object] | None = None, policy: bool = False) -> "Network":
        """An untrained network: it evaluates as the heuristic evaluation does (its
        ``skip`` weights the heuristic's defaults, its last layer zero); the dense and
        second layers' weights drawn at random from ``seed``, the first layer's rows at
        zero (a row no position has stays zero), ready to learn.

        Args:
            hidden: The first hidden layer's size, 1 to ``SIZES["max_hidden"]``.
            hidden2: The second hidden layer's size, likewise.
            seed: Seeds the hidden layers' weights (None: fresh entropy).
            trained: What it is for (None: both boards, 2-6 players).
            policy: With a policy head (`with_policy`): the capture priors until trained.

        Returns:
            The new network.

        Raises:
            ConfigError: If a size or the seed is out of its range.
        """
        check_int("hidden", hidden, 1, SIZES["max_hidden"])
        check_int("hidden2", hidden2, 1, SIZES["max_hidden"])
        from . import _heuristic
        rng = np.random.default_rng(check_seed(seed))
        size = shapes(hidden, hidden2)
        weights = _heuristic.default_weight_values()
        arrays = {
            "w1": np.zeros(size["w1"]),
            "wd": rng.normal(0, 0.3 / np.sqrt(SIZES["dense_inputs"]), size["wd"]),
            "b1": np.full(size["b1"], 0.25),
            "w2": rng.normal(0, 1 / np.sqrt(hidden), size["w2"]),
            "b2": np.full(size["b2"], 0.25),
            "w3": np.zeros(size["w3"]),
            "b3": np.zeros(size["b3"]),
            "skip": np.array([weights[name] for name in SKIP_NAMES]),
        }
        network = cls(arrays, trained or {"boards": list(BOARDS), "players": [2, 3, 4, 5, 6]},
                      {"made": "fresh", "seed": seed})
        return network.with_policy() if policy else network

    def with_policy(self) -> "Network":
        """This network with a policy head (itself if it has one): a new head is at zero,
        ``policy_capture`` 1, so its priors are the hand-written capture priors and its
        values this network's.

        Returns:
            The network with a policy head.
        """
        if self.policy:
            return self
        size = shapes(self.hidden, self.hidden2, True)
        head = {name: np.zeros(size[name], np.float32) for name in POLICY_ARRAYS}
        head["policy_capture"][0] = 1.0
        return Network({**self.arrays, **head}, self.trained, self.info)

    # -- files -----------------------------------------------------------------------------

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> "Network":
        """A network file (the module's docstring), or NetworkFileError in one line
        naming the file and what does not match.

        Args:
            path: The file's path.

        Returns:
            The network.

        Raises:
            NetworkFileError: If the file cannot be read or is not a network this victorus reads.
        """
        path = file_path(path)
        try:
            data = read_limited(path, MAX_FILE_BYTES, NetworkFileError)
        except FileNotFoundError:
            raise NetworkFileError(f"{path}: no such network file") from None
        except IsADirectoryError:
            raise NetworkFileError(f"{path}: is a folder, not a network file") from None
        except OSError as exc:
            raise NetworkFileError(f"{path}: cannot read it: {exc.strerror}") from None
        return cls.from_bytes(data, path)

    @classmethod
    def from_bytes(cls, data: bytes, path: str = "<bytes>") -> "Network":
        """A network from the bytes of a file (`load`'s checks).

        Args:
            data: The file's bytes.
            path: The name its errors give.

        Returns:
            The network.

        Raises:
            NetworkFileError: If the bytes are not a network this victorus reads.
        """
        if not data.startswith(MAGIC):
            raise NetworkFileError(f"{path}: not a victorus network file (it does not start "
                                   f"with {MAGIC!r})")
        fixed = len(MAGIC) + 8
        if len(data) < fixed + 32:
            raise NetworkFileError(f"{path}: truncated ({len(data)} bytes)")
        version, header_size = struct.unpack_from("<II", data, len(MAGIC))
        if version != FORMAT_VERSION:
            raise NetworkFileError(f"{path}: network format version {version}; this victorus "
                                   f"reads version {FORMAT_VERSION}")
        body, digest = data[:-32], data[-32:]
        if hashlib.sha256(body).digest() != digest:
            raise NetworkFileError(f"{path}: checksum mismatch: the file is damaged or "
                                   f"truncated")
        try:
            header = json.loads(data[fixed:fixed + header_size].decode("utf-8"))
            layout, hidden = header["layout"], header["hidden"]
            cells, listed = header["board_cells"], header["arrays"]
            trained, info = header["trained"], header.get("info", {})
            if not isinstance(info, dict):
                raise TypeError("info")
        except (UnicodeDecodeError, ValueError, KeyError, TypeError, AttributeError,
                RecursionError):
            raise NetworkFileError(f"{path}: its header is not a network header") from None
        if layout != LAYOUT and not (isinstance(layout, str) and LEGACY_LAYOUTS.get(layout) == LAYOUT):
            raise NetworkFileError(f"{path}: feature layout {shown(layout, 60)}; this victorus reads "
                                   f"{LAYOUT!r}")
        if cells != dict(zip(BOARDS, board_cells())):
            raise NetworkFileError(f"{path}: made for boards of {cells} cells; this victorus's "
                                   f"boards have {dict(zip(BOARDS, board_cells()))}")
        if not (isinstance(hidden, list) and len(hidden) == 2
                and all(type(h) is int and 1 <= h <= SIZES["max_hidden"] for h in hidden)):
            raise NetworkFileError(f"{path}: hidden sizes {shown(hidden, 60)}: two integers from 1 to "
                                   f"{SIZES['max_hidden']} are accepted")
        policy = header.get("policy")
        if policy is not None and policy != POLICY_LAYOUT:
            raise NetworkFileError(f"{path}: policy layout {shown(policy, 60)}; this victorus reads "
                                   f"{POLICY_LAYOUT!r}")
        expect = shapes(hidden[0], hidden[1], policy is not None)
        if listed != [[name, list(shape)] for name, shape in expect.items()]:
            raise NetworkFileError(f"{path}: its arrays {shown(listed, 60)} are not those of hidden "
                                   f"sizes {hidden}{' with a policy head' if policy else ''}")
        arrays: dict[str, NDArray[np.float32]] = {}
        offset = fixed + header_size
        for name in expect:
            count = int(np.prod(expect[name]))
            if offset + 4 * count > len(body):
                raise NetworkFileError(f"{path}: truncated in array {shown(name, 60)}")
            arrays[name] = np.frombuffer(body, "<f4", count, offset).reshape(expect[name])
            offset += 4 * count
        if offset != len(body):
            raise NetworkFileError(f"{path}: {len(body) - offset} bytes after the arrays")
        return cls(arrays, trained, info, path)

    def to_bytes(self) -> bytes:
        """The network as a file's bytes.

        Returns:
            The bytes of its ``.vnet`` file.
        """
        names = ARRAYS + (POLICY_ARRAYS if self.policy else ())
        fields: dict[str, object] = {
            "layout": LAYOUT, "hidden": [self.hidden, self.hidden2],
            "board_cells": dict(zip(BOARDS, board_cells())),
            "arrays": [[name, list(self.arrays[name].shape)] for name in names],
            "trained": self.trained, "info": self.info}
        if self.policy:
            fields["policy"] = POLICY_LAYOUT
        header = json.dumps(fields, sort_keys=True).encode("utf-8")
        body = (MAGIC + struct.pack("<II", FORMAT_VERSION, len(header)) + header
                + b"".join(self.arrays[name].astype("<f4").tobytes() for name in names))
        return body + hashlib.sha256(body).digest()

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the network file (a regular file replaced at once, its mode kept).

        Args:
            path: The file's path.

        Raises:
            ConfigError: If the path cannot be written (a folder, a read-only file...).
        """
        write_atomic(check_writable(path), self.to_bytes())

    # -- using it --------------------------------------------------------------------------

    def check(self, game: Game) -> None:
        """ConfigError unless the network was trained for ``game``'s board and players.

        Args:
            game: The game it would evaluate.

        Raises:
            ConfigError: If it was not trained for the game's board and players.
        """
        boards, players = self.trained["boards"], self.trained["players"]
        if game.board.name not in boards or game.config.players not in players:
            raise ConfigError(f"{self.name}: trained for boards {boards} and players {players}, "
                              f"not {game.board.name} with {game.config.players}")

    @property
    def name(self) -> str:
        """The file it came from, or 'network'."""
        return os.path.basename(self.path) if self.path else "network"

    def evaluate(self, game: Game) -> tuple[float, ...]:
        """Per seat (6 floats, 0 for absent seats): the network's value of ``game``'s
        position, computed in C.

        Args:
            game: The position.

        Returns:
            The value of each seat.

        Raises:
            ConfigError: If it was not trained for the game's board and players.
        """
        self.check(game)
        return self.core.evaluate(game._engine)

    def reference_evaluate(self, game: Game) -> tuple[float, ...]:
        """The same value computed by `forward` in numpy (the tests' slow path).

        Args:
            game: The position.

        Returns:
            The value of each seat.

        Raises:
            ConfigError: If it was not trained for the game's board and players.
        """
        self.check(game)
        if game.is_over:
            return self.core.evaluate(game._engine)
        batch = Batch.of([inputs(game)])
        value = forward(self.arrays, batch)[0]
        seat = game.to_move
        return tuple(float(value[(a - seat) % SEATS]) for a in range(SEATS))

    def priors(self, game: Game) -> tuple[float, ...]:
        """The policy head's priors over ``game.legal_actions()`` (normalised), computed in C.

        Args:
            game: The position.

        Returns:
            One prior per legal action, in legal_actions() order (empty when it is over).

        Raises:
            ConfigError: If it has no policy head or was not trained for the game.
        """
        self._check_policy(game)
        return self.core.priors(game._engine)

    def reference_priors(self, game: Game) -> tuple[float, ...]:
        """The same priors computed by `policy_forward` in numpy (the tests' slow path).

        Args:
            game: The position.

        Returns:
            One prior per legal action, in legal_actions() order.

        Raises:
            ConfigError: If it has no policy head or was not trained for the game.
        """
        self._check_policy(game)
        if game.is_over:
            return ()
        batch = Batch.of([inputs(game)], [moves(game)])
        h1 = _layers(self.arrays, batch)[1]
        return tuple(float(p) for p in policy_forward(self.arrays, h1, batch))

    def _check_policy(self, game: Game) -> None:
        if not self.policy:
            raise ConfigError(f"{self.name}: this network has no policy head")
        self.check(game)

    def __repr__(self) -> str:
        policy = ", policy" if self.policy else ""
        return f"Network({self.name!r}, hidden={self.hidden}, hidden2={self.hidden2}{policy})"

    def __reduce__(self) -> tuple[Callable[[bytes, str | None], Network], tuple[bytes, str | None]]:
        """Pickled as its file's bytes (for worker processes and Ray)."""
        return (_from_pickle, (self.to_bytes(), self.path))

    def __copy__(self) -> "Network":
        return self                  # immutable: a copy is itself

    def __deepcopy__(self, memo: dict[int, object]) -> "Network":
        return self


def _from_pickle(data: bytes, path: str | None) -> Network:
    network = Network.from_bytes(data, path or "<bytes>")
    network.path = path
    return network


def _check_trained(trained: object, where: str) -> _Trained:
    """``{"boards": [...], "players": [...]}`` checked."""
    boards = trained.get("boards") if isinstance(trained, Mapping) else None
    players = trained.get("players") if isinstance(trained, Mapping) else None
    if not (isinstance(boards, list) and boards
            and all(isinstance(b, str) and b in BOARDS for b in boards)
            and isinstance(players, list) and players
            and all(type(p) is int and 2 <= p <= SEATS for p in players)):
        raise NetworkFileError(f"{where}'trained' must name boards among {BOARDS} and players "
                               f"from 2 to {SEATS}, got {shown(trained, 60)}")
    return {"boards": list(boards), "players": list(players)}


# -- the default network -------------------------------------------------------------------

DEFAULT_FILE = "gated-2615ecd2ea22.vnet"
"""The agents' shipped network's file inside the package (``networks/``; the training recipe's, with a
policy head: docs/training.md), named by its content as Stockfish names its nets: ``<name>-<the first
12 hex digits of its SHA-256>.vnet`` (a test holds every shipped file to its name); ``"default"``
resolves to it, and every shipped file to its name without ``.vnet`` (``default-35c93a166b61``: the
value-only network of the previous release, the recipe's start)."""
SHIPPED_NAME = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*-[0-9a-f]{12}$")
"""The form of a shipped network's name: a word, then the first 12 hex digits of its SHA-256."""
_shipped_lock = threading.Lock()
_shipped: dict[str, Network] = {}


def shipped_network(name: str) -> Network:
    """A network shipped with the package (``networks/<name>.vnet``; "default": the one
    the agents use), read once and shared (it is immutable).

    Args:
        name: "default", or a shipped file's name without ``.vnet``.

    Returns:
        The network.

    Raises:
        NetworkFileError: If no such network is shipped with this installation, or it cannot
            be read.
    """
    if name != "default" and not (isinstance(name, str) and SHIPPED_NAME.match(name)):
        raise ConfigError(f"a shipped network's name is 'default' or <word>-<12 hex digits>, "
                          f"got {shown(name, 60)}")
    file = DEFAULT_FILE if name == "default" else f"{name}.vnet"
    with _shipped_lock:
        if file not in _shipped:
            try:
                source = resources.files("victorus.evaluation.networks").joinpath(file)
            except ModuleNotFoundError:
                source = None
            if source is None or not source.is_file():
                raise NetworkFileError(f"victorus/evaluation/networks/{file}: no such network is "
                                       f"shipped with this installation")
            with resources.as_file(source) as path:
                _shipped[file] = Network.load(path)
        return _shipped[file]


def default_network() -> Network:
    """The network shipped with the package for the agents (trained by ``victorus train``;
    docs/training.md), read once and shared (it is immutable).

    Returns:
        The shipped network.

    Raises:
        NetworkFileError: If it is missing from this installation or cannot be read.
    """
    return shipped_network("default")


def network_from(spec: Network | str | os.PathLike[str]) -> Network:
    """A Network from a Network, a path, "default" (the agents' shipped one) or a shipped
    network's name (``default-35c93a166b61``: `SHIPPED_NAME`).

    Args:
        spec: A Network, a ``.vnet`` file's path, "default" or a shipped network's name.

    Returns:
        The network.

    Raises:
        ConfigError: If ``spec`` is none of these.
        NetworkFileError: If the file cannot be read or is not a network.
    """
    if isinstance(spec, Network):
        return spec
    if spec == "default":
        return default_network()
    if isinstance(spec, str) and SHIPPED_NAME.match(spec):
        return shipped_network(spec)
    if isinstance(spec, (str, os.PathLike)):
        return Network.load(spec)
    raise ConfigError(f"network must be a victorus Network, a .vnet file's path, 'default' or a "
                      f"shipped network's name, got {shown(spec, 60)}")


# -- the numpy twin: inputs, forward and backward ------------------------------------------

def inputs(game: Game) -> Inputs:
    """The network's inputs of ``game``'s position (C): its board's name, the sparse rows
    within the board's block, the dense inputs, the heuristic terms per seat and each
    seat's team (-1 absent), seats counted from the army to act.

    Args:
        game: The position.

    Returns:
        Its inputs.
    """
    return (game.board.name, *_network.engine_inputs(game._engine))


def team_matrix(teams: Iterable[int]) -> NDArray[np.float32]:
    """The linear map from the raw outputs per seat to each seat's centred team score
    (R33): a team's score is its seats' mean, less the mean over present teams.

    Args:
        teams: Each seat's team (-1: absent), 6 of them.

    Returns:
        The [6, 6] matrix.
    """
    teams = list(teams)
    present = [i for i in range(SEATS) if teams[i] >= 0]
    groups = {t: [i for i in present if teams[i] == t] for t in {teams[i] for i in present}}
    m = np.zeros((SEATS, SEATS), dtype=np.float32)
    for i in present:
        for j in groups[teams[i]]:
            m[i, j] += 1.0 / len(groups[teams[i]])
        for members in groups.values():
            for j in members:
                m[i, j] -= 1.0 / (len(groups) * len(members))
    return m


def moves(game: Game) -> Moves:
    """The policy head's inputs of ``game``'s legal actions (C), in legal_actions() order:
    each one's origin column (-1: a word), target column (a word: its number) and the log of
    its capture prior, in the frame of the army to act.

    Args:
        game: The position.

    Returns:
        Its `Moves`.
    """
    return _network.engine_policy_inputs(game._engine)


class Batch:
    """Positions' inputs stacked for numpy: the sparse rows (global, into ``w1``) with
    the offset of each position's first, the dense inputs, the heuristic terms, the team
    matrices and the present seats' mask; and their legal actions for the policy head,
    position after position (``owner``: each action's position; ``origin``: its row of
    ``policy_from``, -1 for a word; ``target``: its row of ``policy_to``, or of
    ``policy_word`` for a word; ``capture``: the log of its capture prior).

    Args:
        rows: The sparse rows of every position, global (into ``w1``), [R].
        starts: The offset in ``rows`` of each position's first, [B].
        dense: The dense inputs, [B, dense inputs].
        terms: The heuristic terms per seat, [B, terms, 6].
        matrices: The team matrices (`team_matrix`), [B, 6, 6].
        present: The present seats' mask, [B, 6].
        actions: The legal actions' (owner, origin, target, capture), each [A] (None:
            none).
    """

    def __init__(self, rows: NDArray[np.int64], starts: NDArray[np.int64],
                 dense: NDArray[np.float32], terms: NDArray[np.float32],
                 matrices: NDArray[np.float32], present: NDArray[np.bool_],
                 actions: tuple[NDArray[np.int64], NDArray[np.int64], NDArray[np.int64],
                                NDArray[np.float32]] | None = None) -> None:
        self.rows, self.starts, self.dense = rows, starts, dense
        self.terms, self.matrices, self.present = terms, matrices, present
        if actions is None:
            empty = np.zeros(0, np.int64)
            actions = (empty, empty, empty, np.zeros(0, np.float32))
        self.owner, self.origin, self.target, self.capture = actions

    @classmethod
    def of(cls, samples: Sequence[Inputs], legal: Sequence[Moves] | None = None) -> "Batch":
        """A batch of `inputs` tuples (and their `moves`).

        Args:
            samples: The positions' inputs.
            legal: Their legal actions' `Moves` (None: no actions).

        Returns:
            Them stacked.
        """
        first = block_starts()
        rows = [s[1].astype(np.int64) + first[s[0]] for s in samples]
        counts = np.array([len(r) for r in rows], dtype=np.int64)
        cache: dict[tuple[int, ...], NDArray[np.float32]] = {}
        matrices = np.stack([cache.setdefault(tuple(s[4]), team_matrix(s[4])) for s in samples])
        return cls(np.concatenate(rows) if rows else np.zeros(0, np.int64),
                   np.concatenate([[0], np.cumsum(counts)[:-1]]).astype(np.int64),
                   np.stack([s[2] for s in samples]), np.stack([s[3] for s in samples]),
                   matrices, np.stack([s[4] >= 0 for s in samples]),
                   None if legal is None else _stack_moves([s[0] for s in samples], legal))

    def __len__(self) -> int:
        return len(self.dense)

    def take(self, index: NDArray[np.integer]) -> "Batch":
        """The positions at ``index``.

        Args:
            index: The positions' indices.

        Returns:
            A batch of them.
        """
        ends = np.append(self.starts[1:], len(self.rows))
        pieces = [self.rows[self.starts[i]:ends[i]] for i in index]
        counts = np.array([len(p) for p in pieces], dtype=np.int64)
        picked = self.action_index(index)
        owner = np.repeat(np.arange(len(index)), np.bincount(self.owner, minlength=len(self))[index])
        return Batch(np.concatenate(pieces) if pieces else np.zeros(0, np.int64),
                     np.concatenate([[0], np.cumsum(counts)[:-1]]).astype(np.int64),
                     self.dense[index], self.terms[index], self.matrices[index],
                     self.present[index],
                     (owner, self.origin[picked], self.target[picked], self.capture[picked]))

    def action_index(self, index: NDArray[np.integer]) -> NDArray[np.int64]:
        """The indices of the actions of the positions at ``index``, in their order.

        Args:
            index: The positions' indices.

        Returns:
            Their actions' indices (into ``owner``, ``origin``...).
        """
        per = np.bincount(self.owner, minlength=len(self))
        first = np.concatenate([[0], np.cumsum(per)[:-1]])
        if not len(index):
            return np.zeros(0, np.int64)
        return np.concatenate([np.arange(first[i], first[i] + per[i]) for i in index]
                              ).astype(np.int64)


def _stack_moves(boards: Sequence[str], legal: Sequence[Moves]) -> tuple[
        NDArray[np.int64], NDArray[np.int64], NDArray[np.int64], NDArray[np.float32]]:
    """`Moves` of each position as a Batch's actions (rows global into the policy arrays)."""
    starts = cell_starts()
    owner = np.repeat(np.arange(len(legal)), [len(m[0]) for m in legal]).astype(np.int64)
    if not len(owner):
        empty = np.zeros(0, np.int64)
        return owner, empty, empty, np.zeros(0, np.float32)
    offset = np.repeat([starts[b] for b in boards], [len(m[0]) for m in legal])
    origin = np.concatenate([m[0] for m in legal]).astype(np.int64)
    target = np.concatenate([m[1] for m in legal]).astype(np.int64)
    word = origin < 0
    return (owner, np.where(word, -1, origin + offset), np.where(word, target, target + offset),
            np.concatenate([m[2] for m in legal]).astype(np.float32))


#: The forward pass's intermediate values: acc, h1, z2, h2, raw, score.
_Layers: TypeAlias = tuple[NDArray[np.floating], NDArray[np.floating], NDArray[np.floating],
                           NDArray[np.floating], NDArray[np.floating], NDArray[np.floating]]
Gradients: TypeAlias = dict[str, NDArray[np.floating] | tuple[NDArray[np.intp], NDArray[np.float64]]]
"""A gradient per array (``w1``: the rows touched and their gradients)."""


def _layers(arrays: Mapping[str, NDArray[np.floating]], batch: Batch) -> _Layers:
    """The forward pass's intermediate values."""
    acc = arrays["b1"] + batch.dense @ arrays["wd"]
    if len(batch.rows):
        picked = arrays["w1"][batch.rows]
        padded = np.concatenate([picked, np.zeros((1, picked.shape[1]), picked.dtype)])
        sums = np.add.reduceat(padded, batch.starts, axis=0)     # a start past the rows: 0
        empty = np.append(batch.starts[1:], len(batch.rows)) == batch.starts
        sums[empty] = 0
        acc = acc + sums
    h1 = np.clip(acc, 0, 1)
    z2 = h1 @ arrays["w2"] + arrays["b2"]
    h2 = np.clip(z2, 0, 1)
    raw = h2 @ arrays["w3"] + arrays["b3"] + np.einsum("k,bki->bi", arrays["skip"], batch.terms)
    score = np.einsum("bij,bj->bi", batch.matrices, raw)
    return acc, h1, z2, h2, raw, score


def forward(arrays: Mapping[str, NDArray[np.floating]], batch: Batch) -> NDArray[np.floating]:
    """The value per seat (counted from the army to act) of each position of ``batch``:
    the C evaluator's arithmetic in numpy ([B, 6], 0 for absent seats).

    Args:
        arrays: A network's arrays by name.
        batch: The positions.

    Returns:
        The values, [B, 6].
    """
    return VALUE_BOUND * np.tanh(_layers(arrays, batch)[5]) * batch.present


def _policy_logits(arrays: Mapping[str, NDArray[np.floating]], h1: NDArray[np.floating],
                   batch: Batch) -> tuple[NDArray[np.floating], NDArray[np.floating]]:
    """Each action's logit, and the first layer with a 1 for the bias, [B, hidden + 1]."""
    h = np.concatenate([h1, np.ones((len(h1), 1), h1.dtype)], axis=1)[batch.owner]
    leg = batch.origin >= 0
    logits = np.empty(len(batch.owner), dtype=h.dtype)
    logits[leg] = (np.einsum("aj,aj->a", h[leg], arrays["policy_from"][batch.origin[leg]])
                   + np.einsum("aj,aj->a", h[leg], arrays["policy_to"][batch.target[leg]]))
    logits[~leg] = np.einsum("aj,aj->a", h[~leg], arrays["policy_word"][batch.target[~leg]])
    return logits + arrays["policy_capture"][0] * batch.capture, h


def _softmax(logits: NDArray[np.floating], owner: NDArray[np.int64],
             positions: int) -> NDArray[np.floating]:
    """The softmax of each position's actions' logits."""
    top = np.full(positions, -np.inf)
    np.maximum.at(top, owner, logits)
    e = np.exp(logits - top[owner])
    prior: NDArray[np.floating] = e / np.bincount(owner, e, minlength=positions)[owner]
    return prior


def policy_forward(arrays: Mapping[str, NDArray[np.floating]], h1: NDArray[np.floating],
                   batch: Batch) -> NDArray[np.floating]:
    """The policy head's priors of every action of ``batch`` (normalised per position),
    from the first layer ``h1`` ([B, hidden]): the C priors' arithmetic in numpy.

    Args:
        arrays: A network's arrays by name, its policy head's included.
        h1: The positions' first layer.
        batch: The positions and their actions.

    Returns:
        The priors, [A].
    """
    return _softmax(_policy_logits(arrays, h1, batch)[0], batch.owner, len(batch))


def _policy_loss(arrays: Mapping[str, NDArray[np.floating]], h1: NDArray[np.floating],
                 batch: Batch, policy: NDArray[np.floating], weight: float,
                 grads: Gradients) -> tuple[float, NDArray[np.floating]]:
    """The mean cross-entropy of the priors against ``policy`` (per action; a position
    whose targets sum to 0 has none), times ``weight``; its gradients into ``grads`` and
    the gradient of the first layer, returned with the loss."""
    logits, h = _policy_logits(arrays, h1, batch)
    prior = _softmax(logits, batch.owner, len(batch))
    mass = np.bincount(batch.owner, policy, minlength=len(batch))
    count = max(int((mass > 0).sum()), 1)
    loss = float(-(policy * np.log(np.maximum(prior, 1e-30))).sum() / count)
    d_logit = (prior * mass[batch.owner] - policy) * (weight / count)
    leg = batch.origin >= 0
    for name, rows, pick in (("policy_from", batch.origin, leg), ("policy_to", batch.target, leg),
                             ("policy_word", batch.target, ~leg)):
        grad = np.zeros(arrays[name].shape, dtype=np.float64)
        np.add.at(grad, rows[pick], d_logit[pick, None] * h[pick])
        grads[name] = grad
    grads["policy_capture"] = np.array([(d_logit * batch.capture).sum()])
    H = h1.shape[1]
    through = np.where(leg[:, None], arrays["policy_from"][np.maximum(batch.origin, 0)][:, :H]
                       + arrays["policy_to"][batch.target * leg][:, :H],
                       arrays["policy_word"][np.minimum(batch.target, SIZES["words"] - 1)][:, :H])
    d_h1 = np.zeros(h1.shape, dtype=np.float64)
    np.add.at(d_h1, batch.owner, d_logit[:, None] * through)
    return loss * weight, d_h1


def loss_and_gradients(arrays: Mapping[str, NDArray[np.floating]], batch: Batch,
                       targets: NDArray[np.floating], policy: NDArray[np.floating] | None = None,
                       policy_weight: float = 1.0) -> tuple[float, Gradients]:
    """The mean squared error of the value against ``targets`` ([B, 6], per seat counted
    from the army to act) over present seats, plus ``policy_weight`` x the policy head's
    mean cross-entropy against ``policy`` (per action of ``batch``; None or no policy
    head: no policy term), and its gradient per array (``w1``: the rows touched and their
    gradients).

    Args:
        arrays: A network's arrays by name.
        batch: The positions.
        targets: Their target values, [B, 6].
        policy: Their actions' target probabilities, [A] (None: no policy term).
        policy_weight: The policy term's weight.

    Returns:
        The loss and the gradients.
    """
    acc, h1, z2, h2, raw, score = _layers(arrays, batch)
    t = np.tanh(score)
    value = VALUE_BOUND * t
    mask = batch.present
    count = max(int(mask.sum()), 1)
    error = (value - targets) * mask
    loss = float((error ** 2).sum() / count)
    d_score = 2 * error / count * VALUE_BOUND * (1 - t ** 2)
    d_raw = np.einsum("bij,bi->bj", batch.matrices, d_score)
    grads: Gradients = {"b3": d_raw.sum(0), "w3": h2.T @ d_raw,
             "skip": np.einsum("bi,bki->k", d_raw, batch.terms)}
    d_h2 = d_raw @ arrays["w3"].T * ((z2 > 0) & (z2 < 1))
    grads["b2"] = d_h2.sum(0)
    grads["w2"] = h1.T @ d_h2
    d_h1 = d_h2 @ arrays["w2"].T
    if policy is not None and "policy_from" in arrays:
        policy_loss, d_policy = _policy_loss(arrays, h1, batch, policy, policy_weight, grads)
        loss += policy_loss
        d_h1 = d_h1 + d_policy
    d_acc = d_h1 * ((acc > 0) & (acc < 1))
    grads["b1"] = d_acc.sum(0)
    grads["wd"] = batch.dense.T @ d_acc
    counts = np.diff(np.append(batch.starts, len(batch.rows)))
    per_row = np.repeat(d_acc, counts, axis=0)
    touched, where = np.unique(batch.rows, return_inverse=True)
    rows_grad = np.zeros((len(touched), arrays["w1"].shape[1]), dtype=np.float64)
    np.add.at(rows_grad, where, per_row)
    grads["w1"] = (touched, rows_grad)
    return loss, grads


def losses(arrays: Mapping[str, NDArray[np.floating]], batch: Batch,
           targets: NDArray[np.floating], policy: NDArray[np.floating] | None = None
           ) -> tuple[float, float]:
    """The value's mean squared error and the policy head's mean cross-entropy (NaN
    without a policy head or targets) on a batch.

    Args:
        arrays: A network's arrays by name.
        batch: The positions.
        targets: Their target values, [B, 6].
        policy: Their actions' target probabilities, [A] (None: no policy loss).

    Returns:
        The value loss and the policy loss.
    """
    value = loss_and_gradients(arrays, batch, targets)[0]
    if policy is None or "policy_from" not in arrays or not policy.sum():
        return value, float("nan")
    return value, loss_and_gradients(arrays, batch, targets, policy)[0] - value


__all__ = ["ARRAYS", "BOARDS", "FORMAT_VERSION", "LAYOUT", "POLICY_ARRAYS", "POLICY_LAYOUT", "Batch",
           "Gradients", "Inputs", "Moves", "Network", "NetworkFileError", "Sample", "default_network",
           "shipped_network",
           "forward", "inputs", "loss_and_gradients", "losses", "moves", "network_from",
           "policy_forward", "team_matrix"]
