"""The learned evaluation's network ([`Network`][victorus.evaluation.network.Network]): its
file and its C core, which alpha-beta and PUCT call without the GIL; its numpy twin (what
training differentiates, and the slow path the tests hold the C evaluator to) is
victorus.evaluation.twin.

What the network reads and computes is the C module's (``victorus.evaluation._network``):
sparse rows of (seat, kind, cell) seen from the army to act, dense per-seat inputs, two
clipped-ReLU layers, a value per seat plus the heuristic evaluation's terms weighted by
``skip``; optionally a policy head, priors over the legal actions from the first layer
(``twin.POLICY_ARRAYS``), with or without its pair term (``twin.POLICY_PAIR``: a scalar per
target cell and moving piece's kind; without it, as with it at zero). A new network
(`Network.fresh`) has ``w3 = b3 = 0`` and ``skip`` at the heuristic's weights, its policy head
(pair term included) at zero and ``policy_capture`` at 1: it *is* the heuristic evaluation with
the hand-written capture priors until it is trained.

A network file (``.vnet``, format version 1)::

    b"VICTORUS-NETWORK\\n"          the magic line
    uint32 LE  format version
    uint32 LE  header length
    header     UTF-8 JSON: layout, hidden sizes, the boards' cells, the arrays' names and
               shapes, what it was trained for ("trained": boards, players) and how;
               a network with a policy head also names its layout ("policy"): POLICY_LAYOUT
               (its arrays policy_from, policy_to, policy_word, policy_capture) or
               POLICY_PAIR_LAYOUT (the same, then policy_pair)
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
from collections.abc import Callable, Mapping
from importlib import resources
from typing import TYPE_CHECKING, TypedDict

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ..checks import check_int, check_seed, shown, shown_path
from ..errors import ConfigError
from ..files import check_writable, file_path, read_limited, write_atomic
from . import _network
from .twin import (
    ARRAYS,
    BOARDS,
    POLICY_ARRAYS,
    POLICY_PAIR,
    SEATS,
    SIZES,
    SKIP_NAMES,
    board_cells,
    board_rims,
    position_priors,
    position_value,
    shapes,
)

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
POLICY_LAYOUT: str = _network.POLICY_LAYOUT
"""The policy head's layout, written in the header of a network that has one without the pair term."""
POLICY_PAIR_LAYOUT: str = _network.POLICY_PAIR_LAYOUT
"""The policy head's layout with the pair term (its array ``policy_pair`` after the head's)."""
#: The largest network file read (a default network is about 2 MB).
MAX_FILE_BYTES = 256 << 20
CONTENT_DIGITS = 12
"""The hex digits of a network's content name (`Network.content`), as the shipped files are named."""


class _Trained(TypedDict):
    """What a network was trained for."""

    boards: list[str]
    players: list[int]


class NetworkFileError(ConfigError):
    """A network file that cannot be used: the message names the file and what is wrong."""



class Network:
    """A network for the learned evaluation: its arrays (float32, read-only; the policy
    head's too if it has one, ``policy``, and its pair term if it has it, ``pair``), its
    layer sizes, what it was ``trained`` for (``{"boards": [...], "players": [...]}``) and
    free ``info`` on how (the command, the seed, the positions...). Immutable: training
    makes new networks. Safe to share between threads and searches.

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
        where = f"{shown_path(path, quoted=False)}: " if path else ""
        try:
            hidden, hidden2 = (int(np.shape(arrays[name])[0]) for name in ("b1", "b2"))
        except (KeyError, IndexError, TypeError):
            raise NetworkFileError(f"{where}a network needs the arrays {ARRAYS}") from None
        pair = POLICY_PAIR in arrays
        policy = pair or any(name in arrays for name in POLICY_ARRAYS)
        expect = shapes(hidden, hidden2, policy, pair)
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
        self.hidden, self.hidden2, self.policy, self.pair = hidden, hidden2, policy, pair
        self.trained = _check_trained(trained, where)
        if info is not None and not isinstance(info, Mapping):
            raise NetworkFileError(f"{where}'info' must be a mapping, got {type(info).__name__}")
        self.info = dict(info or {})
        self.path = path
        self._content: str | None = None         # the digest of the bytes it was read from
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
            policy: With a policy head and its pair term (`with_policy`): the capture priors
                until trained.

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
        """This network with a policy head and its pair term (itself if it has both): a new
        head is at zero, ``policy_capture`` 1, so its priors are the hand-written capture
        priors; a new pair term is at zero, so its priors are the head's. Its values are this
        network's.

        Returns:
            The network with a policy head and its pair term.
        """
        if self.pair:
            return self
        size = shapes(self.hidden, self.hidden2, True, True)
        head = {name: np.zeros(size[name], np.float32) for name in (*POLICY_ARRAYS, POLICY_PAIR)}
        head["policy_capture"][0] = 1.0
        return Network({**head, **self.arrays}, self.trained, self.info)

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
        named = shown_path(path, quoted=False)
        try:
            data = read_limited(path, MAX_FILE_BYTES, NetworkFileError)
        except FileNotFoundError:
            raise NetworkFileError(f"{named}: no such network file") from None
        except IsADirectoryError:
            raise NetworkFileError(f"{named}: is a folder, not a network file") from None
        except OSError as exc:
            raise NetworkFileError(f"{named}: cannot read it: {exc.strerror}") from None
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
        named = shown_path(path, quoted=False)
        if not data.startswith(MAGIC):
            raise NetworkFileError(f"{named}: not a victorus network file (it does not start "
                                   f"with {MAGIC!r})")
        fixed = len(MAGIC) + 8
        if len(data) < fixed + 32:
            raise NetworkFileError(f"{named}: truncated ({len(data)} bytes)")
        version, header_size = struct.unpack_from("<II", data, len(MAGIC))
        if version != FORMAT_VERSION:
            raise NetworkFileError(f"{named}: network format version {version}; this victorus "
                                   f"reads version {FORMAT_VERSION}")
        body, digest = data[:-32], data[-32:]
        if hashlib.sha256(body).digest() != digest:
            raise NetworkFileError(f"{named}: checksum mismatch: the file is damaged or "
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
            raise NetworkFileError(f"{named}: its header is not a network header") from None
        if layout != LAYOUT and not (isinstance(layout, str) and LEGACY_LAYOUTS.get(layout) == LAYOUT):
            raise NetworkFileError(f"{named}: feature layout {shown(layout, 60)}; this victorus reads "
                                   f"{LAYOUT!r}")
        if cells != dict(zip(BOARDS, board_cells())):
            raise NetworkFileError(f"{named}: made for boards of {cells} cells; this victorus's "
                                   f"boards have {dict(zip(BOARDS, board_cells()))}")
        if not (isinstance(hidden, list) and len(hidden) == 2
                and all(type(h) is int and 1 <= h <= SIZES["max_hidden"] for h in hidden)):
            raise NetworkFileError(f"{named}: hidden sizes {shown(hidden, 60)}: two integers from 1 to "
                                   f"{SIZES['max_hidden']} are accepted")
        policy = header.get("policy")
        if policy is not None and policy not in (POLICY_LAYOUT, POLICY_PAIR_LAYOUT):
            raise NetworkFileError(f"{named}: policy layout {shown(policy, 60)}; this victorus reads "
                                   f"{POLICY_LAYOUT!r} and {POLICY_PAIR_LAYOUT!r}")
        expect = shapes(hidden[0], hidden[1], policy is not None, policy == POLICY_PAIR_LAYOUT)
        if listed != [[name, list(shape)] for name, shape in expect.items()]:
            head = {None: "", POLICY_LAYOUT: " with a policy head",
                    POLICY_PAIR_LAYOUT: " with a policy head and its pair term"}[policy]
            raise NetworkFileError(f"{named}: its arrays {shown(listed, 60)} are not those of hidden "
                                   f"sizes {hidden}{head}")
        arrays: dict[str, NDArray[np.float32]] = {}
        offset = fixed + header_size
        for name in expect:
            count = int(np.prod(expect[name]))
            if offset + 4 * count > len(body):
                raise NetworkFileError(f"{named}: truncated in array {shown(name, 60)}")
            arrays[name] = np.frombuffer(body, "<f4", count, offset).reshape(expect[name])
            offset += 4 * count
        if offset != len(body):
            raise NetworkFileError(f"{named}: {len(body) - offset} bytes after the arrays")
        network = cls(arrays, trained, info, path)
        network._content = hashlib.sha256(data).hexdigest()[:CONTENT_DIGITS]
        return network

    def to_bytes(self) -> bytes:
        """The network as a file's bytes.

        Returns:
            The bytes of its ``.vnet`` file.
        """
        names = ARRAYS + (POLICY_ARRAYS if self.policy else ()) + ((POLICY_PAIR,) if self.pair else ())
        fields: dict[str, object] = {
            "layout": LAYOUT, "hidden": [self.hidden, self.hidden2],
            "board_cells": dict(zip(BOARDS, board_cells())),
            "arrays": [[name, list(self.arrays[name].shape)] for name in names],
            "trained": self.trained, "info": self.info}
        if self.policy:
            fields["policy"] = POLICY_PAIR_LAYOUT if self.pair else POLICY_LAYOUT
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
            raise ConfigError(f"{shown_path(self.name, quoted=False)}: trained for boards {boards} "
                              f"and players {players}, not {game.board.name} with "
                              f"{game.config.players}")

    @property
    def name(self) -> str:
        """The file it came from, or 'network'."""
        return os.path.basename(self.path) if self.path else "network"

    @property
    def content(self) -> str:
        """Its content name: the first 12 hex digits of the SHA-256 of the bytes of the file it
        was read from (of `to_bytes` for a network made here), as the shipped networks are
        named: two files of one content name hold one network."""
        if self._content is not None:
            return self._content
        return hashlib.sha256(self.to_bytes()).hexdigest()[:CONTENT_DIGITS]

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
        """`evaluate`'s values computed by the numpy twin (victorus.evaluation.twin's
        ``position_value``; a finished game's in C all the same): the tests' slow path.

        Args:
            game: The position.
        """
        self.check(game)
        return self.core.evaluate(game._engine) if game.is_over else position_value(self.arrays, game)

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
        """`priors` computed by the numpy twin (victorus.evaluation.twin's
        ``position_priors``): the tests' slow path.

        Args:
            game: The position.
        """
        self._check_policy(game)
        return () if game.is_over else position_priors(self.arrays, game)

    def _check_policy(self, game: Game) -> None:
        if not self.policy:
            raise ConfigError(f"{self.name}: this network has no policy head")
        self.check(game)

    def __repr__(self) -> str:
        policy = ", policy and pair" if self.pair else ", policy" if self.policy else ""
        return f"Network({self.name!r}, hidden={self.hidden}, hidden2={self.hidden2}{policy})"

    def __reduce__(self) -> tuple[Callable[[bytes, str | None, str], Network],
                                  tuple[bytes, str | None, str]]:
        """Pickled as its file's bytes (for worker processes and Ray), its content name kept."""
        return (_from_pickle, (self.to_bytes(), self.path, self.content))

    def __copy__(self) -> "Network":
        return self                  # immutable: a copy is itself

    def __deepcopy__(self, memo: dict[int, object]) -> "Network":
        return self


def _from_pickle(data: bytes, path: str | None, content: str) -> Network:
    network = Network.from_bytes(data, path or "<bytes>")
    network.path = path
    network._content = content
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
                shipped = source.is_file()
            except (ModuleNotFoundError, OSError):   # no such package, or a name too long
                shipped = False
            if not shipped:
                named = shown_path(f"victorus/evaluation/networks/{file}", quoted=False)
                raise NetworkFileError(f"{named}: no such network is shipped with this installation")
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


def network_file(spec: object) -> str | None:
    """The file `network_from` reads for ``spec``: its path, or None for a Network, "default"
    and a shipped network's name (read from the package), so a command can tell its inputs.

    Args:
        spec: A Network, a ``.vnet`` file's path, "default" or a shipped network's name.

    Returns:
        The file's path, or None.
    """
    if isinstance(spec, Network) or spec == "default" or (isinstance(spec, str)
                                                         and SHIPPED_NAME.match(spec)):
        return None
    return os.fspath(spec) if isinstance(spec, (str, os.PathLike)) else None


__all__ = ["CONTENT_DIGITS", "FORMAT_VERSION", "LAYOUT", "POLICY_LAYOUT", "POLICY_PAIR_LAYOUT", "Network",
           "NetworkFileError", "default_network", "network_file", "network_from", "shipped_network"]
