"""The public game object: [`Game`][victorus.game.Game], the Python face of the C engine.

Every rule runs in `victorus._engine`; this module validates input at the
boundary, turns integer action codes into [`Action`][victorus.notation.Action]
objects (one per action, made once and reused) and converts positions to and
from VPN (R39).
"""

from __future__ import annotations

import os
import random
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as FuturesTimeout
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Literal, NoReturn, TypeVar, cast, overload

from . import tensors
from ._engine import Engine, GameCore, PerftSplit, PerftTable, Rules, StopToken
from .checks import as_int, check_action_id, check_int, check_seat, shown
from .constants import (
    ACTION_SLOTS,
    CAPTURE_FLAG,
    NUM_KINDS,
    NUM_SEATS,
    WORD_CODES,
    action_slot,
    code_origin,
    code_target,
)
from .errors import Cancelled, ConfigError, IllegalActionError, StateError
from .geometry import SEAT_NAMES, Board, direction_mask, theta, winding_base
from .notation import (
    Action,
    VPNPosition,
    format_vpn,
    illegal_message,
    leg_action,
    parse_action,
    parse_vpn,
    word_action,
)
from .pieces import Army, Held, Piece, Turn, setup_cells
from .render import text_board
from .variants import Config
from .view import PositionView, position_view

if TYPE_CHECKING:
    import numpy
    from numpy.typing import NDArray
    from typing_extensions import Unpack

    from ._engine import _HeldTuple, _Result

_T = TypeVar("_T")
_WORDS_BY_KEY = {key: word_action(word) for word, key in WORD_CODES.items()}
_BASE = object()             # Game._origin: "the VPN of the engine's base state", made lazily
_ACTIONS: dict[str, list[Action | None]] = {}
"""Per board: its Action objects by ``action_slot(key)`` (None until first met), shared by every
game so that ``play`` can recognise the objects it handed out."""
CACHED_CONFIGURATIONS = 64
"""Configurations whose tables and start position stay cached (quick<N> makes many)."""


@lru_cache(maxsize=CACHED_CONFIGURATIONS, typed=True)
def _rules(board: Board, config: Config) -> Rules:
    """The engine's tables for a board and configuration (about 20 KB, built once)."""
    coords = board.coords
    return Rules(
            board.tables,
            [[direction_mask(s, k) for k in range(NUM_KINDS)] for s in range(NUM_SEATS)],
            [(board.home_cells[s]["K"], board.home_cells[s]["Q"]) for s in range(NUM_SEATS)],
            coords,
            [theta(q, r) for q, r in coords],
            [[[winding_base(q, r, s, clockwise) for q, r in coords] for clockwise in (True, False)]
             for s in range(NUM_SEATS)],
            config.teams, config.order, sum(1 << s for s in config.present), config.quick or 0,
            [list(tensors.observation_columns(board, seat)) for seat in range(NUM_SEATS)])


@lru_cache(maxsize=CACHED_CONFIGURATIONS, typed=True)
def _start_position(board_name: str, players: int | None, variant: str) -> tuple[Board, Config, Engine]:
    """(Board, Config, Engine at the R35 setup) of a configuration; Game() copies it."""
    board = Board(board_name)
    config = Config.from_variant(variant, players)
    engine = Engine(_rules(board, config))
    engine.load(setup_cells(board, config), [("a" if s in config.present else "x", 0)
                                               for s in range(NUM_SEATS)],
                [], Turn(to_move=config.order[0])._asdict())
    return board, config, engine


def _unpickle(board: str, players: int, variant: str, origin: str, actions: list[str]) -> Game:
    game = Game.from_vpn(origin) if origin else Game(board, players=players, variant=variant)
    for action in actions:
        replay_action(game, action, clock=True)
    return game


def replay_action(game: Game, action: str, clock: bool) -> None:
    """Play a recorded action. On a clock, a ``pass`` opening a turn that had other legal
    actions is a forfeit on time (interpretation 11).

    Args:
        game: The game to play it in.
        action: The action's R38 text, as the record has it.
        clock: Whether the game was played on a clock.

    Raises:
        NotationError: ``action`` is malformed.
        IllegalActionError: ``action`` is not legal now.
    """
    if clock and action == "pass" and game.phase == "start" and \
            "pass" not in {a.text for a in game.legal_actions()}:
        game.forfeit()
    else:
        game.play(action)


def _action(board: Board, key: int) -> Action:
    """The (shared, immutable) Action of a notation key."""
    table, slot = _action_table(board), action_slot(key)
    action = table[slot]
    if action is None:
        if key in _WORDS_BY_KEY:
            action = _WORDS_BY_KEY[key]
        else:
            action = leg_action(board, code_origin(key), code_target(key),
                                bool(key & CAPTURE_FLAG))
        table[slot] = action
    return action


def _action_table(board: Board) -> list[Action | None]:
    table = _ACTIONS.get(board.name)
    if table is None:
        table = _ACTIONS[board.name] = [None] * ACTION_SLOTS
    return table


class Game(GameCore):
    """A game of VICTORUS. Its hot methods (``legal_actions``, ``play``,
    ``is_over``) are compiled, in `victorus._engine.GameCore`.

        >>> g = Game()
        >>> len(g.legal_actions())
        31

    Args:
        board: ``"standard"`` or ``"compact"`` (R3).
        players: How many players, 2 to 6 (R33); None for the variant's count, or 6.
        variant: ``"standard"`` or a ``+``-joined list of ``allied``, ``players<N>``,
            ``quick`` and ``quick<rounds>`` (R34, R37, R39 field 6).

    Raises:
        ConfigError: an unknown board or variant, or a player count out of range.
    """

    __slots__ = ("board", "config", "_origin")
    board: Board
    """The board the game is played on (its cells, labels and geometry)."""
    config: Config
    """The configuration: players, variant, teams and the order of play."""
    _origin: object            # a VPN str, "" (the setup), None (mid-turn start) or _BASE

    def __init__(self, board: str = "standard", players: int | None = None,
                 variant: str = "standard") -> None:
        try:
            self.board, self.config, start = _start_position(board, players, variant)
        except TypeError:                # an unhashable argument: let Board/variant explain
            Board(board)
            Config.from_variant(variant)
            raise ConfigError(f"players must be an integer from 2 to 6, got {shown(players, 60)}") \
                from None
        self._engine = start.copy(False)
        self._actions = _action_table(self.board)
        self._origin = ""                # the history starts at the configuration's setup

    @classmethod
    def from_vpn(cls, vpn: str) -> Game:
        """A game at the R39 position ``vpn``; raises NotationError if it is malformed.

        Args:
            vpn: The position, in VPN (R39).

        Returns:
            A game at that position, its history empty (``origin`` is ``vpn``).

        Raises:
            NotationError: ``vpn`` is malformed (the bad field named).
        """
        pos = parse_vpn(vpn)
        game = cls.__new__(cls)
        game.board = pos.board
        game.config = pos.config
        armies = [(r.state, r.knight_captures) for r in pos.armies]
        held = [(seat, h.army, h.kind, h.edge, h.royal)
                for seat, r in enumerate(pos.armies) for h in r.held]
        # The engine keeps one capture log; per army the order is kept (R39).
        game._start(list(pos.cells), armies, held, Turn(pos.to_move, pos.round, pos.passes))
        game._origin = _BASE
        return game

    @classmethod
    def _from_engine(cls, board: Board, config: Config, engine: Engine) -> Game:
        """A game around an engine made elsewhere (victorus.vector), without history."""
        game = cls.__new__(cls)
        game.board, game.config, game._engine = board, config, engine
        game._actions = _action_table(board)
        game._origin = _BASE if engine.phase == "start" and not engine.over else None
        return game

    def _start(self, cells: Sequence[Piece | None], armies: Sequence[tuple[str, int]],
               held: Sequence[_HeldTuple], turn: Turn) -> None:
        self._engine = Engine(_rules(self.board, self.config))
        self._engine.load(cells, armies, held, turn._asdict())
        self._actions = _action_table(self.board)

    # -- public API ------------------------------------------------------------
    @property
    def to_move(self) -> int:
        """Seat of the army to act."""
        return self._engine.to_move


    @property
    def winners(self) -> tuple[int, ...] | None:
        """Seats of the winning team, () for a draw, None while the game runs."""
        result = self._engine.result()
        return None if result is None else result[0]

    @property
    def result_reason(self) -> str | None:
        """'centre', 'elimination', 'round-limit' or 'draw' (R26, R28, R32, R37)."""
        result = self._engine.result()
        return None if result is None else result[1]

    @property
    def round(self) -> int:
        """The round being played, counted from 1."""
        return self._engine.round

    @property
    def phase(self) -> str:
        """'start' (turn start), 'move' (inside a move) or 'bonus' (R22)."""
        return self._engine.phase

    def piece_at(self, label: str) -> str | None:
        """R39 code '<seat><piece>' of the piece on a cell, or None.

        Args:
            label: A cell label, e.g. ``"h1"``.

        Returns:
            The code, e.g. ``"0K"``; None for an empty cell.

        Raises:
            NotationError: ``label`` is no cell of the board.
        """
        piece = self._engine.piece(self.board.cell(label))
        return None if piece is None else f"{piece[0]}{Piece(*piece).code}"

    def view(self) -> PositionView:
        """A read-only snapshot of the position for evaluation: per-cell arrays, held
        pieces, R37 points, army states, the turn (`victorus.view.PositionView`)."""
        return position_view(self)

    def material(self) -> tuple[int, ...]:
        """Per seat (6): R37 points of its own pieces on the board plus the points of the
        pieces it holds (R20). Computed in C: a search's evaluation can call it per node."""
        on_board, held = self._engine.material()
        return tuple(b + h for b, h in zip(on_board, held))

    def returns(self) -> tuple[float, ...]:
        """Per seat (6), from the team result (R27, R33): +1.0 for the seats of the winning
        team and -1.0 for the other present seats once a game is won; 0.0 otherwise (a
        draw, a game still running or capped, an absent seat). The same as
        ``victorus.vector`` rewards."""
        return self._engine.returns()

    def share_returns(self) -> tuple[float, ...]:
        """Per seat (6), a finished game's value on the scale every evaluation and search
        of the package uses: 2 x its team's share of the win - 1. A won game as `returns`
        (+1.0 / -1.0); a draw shares the win equally among the teams it is drawn between
        (at the quick game's round limit the live teams tied at the top, R37; otherwise
        the teams with an active army, R39), each of their seats ``2/k - 1`` for ``k``
        such teams and the other present seats -1.0 (two teams: 0.0, as `returns`); 0.0
        for a game not over and for an absent seat. Self-play labels its positions with
        it."""
        return self._engine.share_returns()

    def held(self, seat: int) -> tuple[str, ...]:
        """R39 codes of the pieces an army holds, in capture order.

        Args:
            seat: The army's seat, 0 to 5.

        Returns:
            The codes, e.g. ``("1Tw", "2K")``.

        Raises:
            ConfigError: ``seat`` is not a seat.
        """
        check_seat(seat)
        return tuple(Held(*h[1:]).code for h in self._engine.held() if h[0] == seat)

    def _make_action(self, key: int) -> Action:
        return _action(self.board, key)

    # legal_actions(), play() and is_over are GameCore's (_engine.pyx): C methods.

    def _play_text(self, action: Action | str, illegal: bool) -> None:
        """play() of anything but an Action this game handed out (or of one not legal now:
        ``illegal``): a string, or an Action from elsewhere, read by its text."""
        if illegal:                                  # only ever an Action this game handed out
            self._reject(cast(Action, action).text)
        text = action.text if type(action) is Action else action   # e.g. from another game
        key = parse_action(self.board, text).key                    # NotationError if malformed
        if not self._engine.play_key(key):
            self._reject(_action(self.board, key).text)

    def forfeit(self) -> None:
        """The army to act forfeits its turn on time (the rulebook's Time Management).

        Only before the turn's first action ("has not initiated its move"). It is
        recorded as ``pass`` and ``undo()`` takes it back. It is not an R26 pass (the army
        had legal actions): like any other turn it resets the count toward the all-pass
        draw, unless ``pass`` was the army's only legal action. See docs/rules.md,
        interpretation 11.

        Raises:
            StateError: the game is over, or the turn has started.
        """
        if self.is_over:
            raise StateError(f"no turn to forfeit: the game is over ({self.result_reason})")
        if not self._engine.forfeit():
            raise StateError(f"only a turn not yet started can be forfeited; seat "
                             f"{self.to_move} is in its '{self.phase}' phase")

    def undo(self) -> None:
        """Take back the last action, restoring the exact previous state.

        Raises:
            StateError: no action has been played in this game object.
        """
        if not self._engine.undo():
            raise StateError("nothing to undo: no action has been played in this game object")

    def copy(self, history: bool = True) -> Game:
        """An independent copy (0.5-1 us, whatever the history's length: copies share the
        immutable undo history); ``history=False`` leaves the copy without one.

        Args:
            history: Keep the undo history (False: the copy's history starts here).

        Returns:
            The copy.
        """
        other = type(self).__new__(type(self))
        other.board = self.board
        other.config = self.config
        other._engine = self._engine.copy(history)
        other._actions = self._actions
        if history:
            other._origin = self._origin
        else:                    # the VPN is only made if a record or a pickle needs it
            other._origin = _BASE if self.phase == "start" and not self.is_over else None
        return other

    # -- learning interface (numpy; see victorus.tensors and docs/adapters.md) --
    @property
    def num_distinct_actions(self) -> int:
        """Size of the board's fixed action space (from-cell x to-cell, then stop/end/pass)."""
        return tensors.num_actions(self.board)

    def action_id(self, action: Action | str) -> int:
        """Fixed integer id of an Action or R38 string.

        Args:
            action: An [`Action`][victorus.notation.Action] or its R38 text.

        Returns:
            Its id in the board's fixed action space (legal now or not).

        Raises:
            NotationError: ``action`` is malformed.
        """
        return tensors.action_id(self.board, action)

    def action_from_id(self, ident: int) -> Action:
        """The legal Action with this id (IllegalActionError if it is not legal now).

        Args:
            ident: An id of the board's fixed action space (an int or a numpy integer).

        Returns:
            The legal action with this id.

        Raises:
            ConfigError: ``ident`` is no integer of the action space.
            IllegalActionError: the action with this id is not legal now.
        """
        number = check_action_id(ident, self.num_distinct_actions)
        key = self._engine.code_of_id(number)
        if key < 0:
            legal = [int(i) for i in self.legal_action_ids()[:20]]     # plain ints, not np.int32
            raise IllegalActionError(f"action id {number} ({tensors.describe_id(self.board, number)}) "
                                     f"is not legal now; legal ids: {legal}")
        return self._make_action(key)

    def play_id(self, ident: int) -> None:
        """Play the legal action with this fixed id (victorus.tensors); an illegal id raises
        IllegalActionError and changes nothing.

        Args:
            ident: An id of the board's fixed action space (an int or a numpy integer).

        Raises:
            ConfigError: ``ident`` is no integer of the action space.
            IllegalActionError: the action with this id is not legal now.
        """
        if type(ident) is not int or not 0 <= ident <= 0x7FFFFFFF or not self._engine.play_id(ident):
            self.play(self.action_from_id(ident))   # explains what is wrong, or plays

    def legal_action_ids(self) -> NDArray[numpy.int32]:
        """int32 numpy array of the legal actions' ids, in legal_actions() order.

        Returns:
            The ids, one per legal action.
        """
        return tensors.legal_action_ids(self)

    def legal_action_mask(self, out: NDArray[numpy.bool_] | None = None) -> NDArray[numpy.bool_]:
        """numpy bool vector over the fixed action space (``out``: fill this one).

        Args:
            out: A C-contiguous bool array of ``num_distinct_actions`` entries to fill;
                None for a new one.

        Returns:
            The mask, True where the action is legal: ``out``, or a new array.

        Raises:
            ConfigError: ``out`` is not a writable C-contiguous bool array of that shape.
        """
        return tensors.legal_action_mask(self, out)

    @overload
    def observation(self, seat: int, out: NDArray[numpy.float32] | None = None,
                    dtype: Literal["float32"] = "float32") -> NDArray[numpy.float32]: ...
    @overload
    def observation(self, seat: int, out: NDArray[numpy.uint8] | None = None, *,
                    dtype: Literal["uint8"]) -> NDArray[numpy.uint8]: ...
    @overload
    def observation(self, seat: int, out: NDArray[Any] | None = None, dtype: str = "float32"
                    ) -> NDArray[numpy.float32] | NDArray[numpy.uint8]: ...
    def observation(self, seat: int, out: NDArray[Any] | None = None, dtype: str = "float32"
                    ) -> NDArray[numpy.float32] | NDArray[numpy.uint8]:
        """numpy planes [planes, cells] from ``seat``'s point of view, float32 or uint8
        (saturated counts, the vector games' planes); ``out``: fill this one.

        Args:
            seat: The seat whose point of view the planes take, 0 to 5.
            out: A C-contiguous array of that shape and dtype to fill; None for a new one.
            dtype: ``"float32"`` or ``"uint8"``.

        Returns:
            The planes, ``[len(tensors.PLANES), len(board)]``: ``out``, or a new array.

        Raises:
            ConfigError: ``seat`` is not a seat, ``dtype`` is neither, or ``out`` does not fit.
        """
        return tensors.observation(self, seat, out, dtype)

    def __copy__(self) -> Game:
        return self.copy()

    def __deepcopy__(self, memo: dict[int, object]) -> Game:
        return self.copy()

    def __reduce__(self) -> tuple[Callable[[str, int, str, str, list[str]], Game],
                                  tuple[str, int, str, str, list[str]]]:
        """Pickle as configuration, origin and the actions played (replayed on load)."""
        if self.origin is None:
            raise StateError("a game whose history starts inside a turn cannot be pickled")
        players = self.config.players
        variant = self.config.variant_string(players=False)
        return (_unpickle, (self.board.name, players, variant, self.origin,
                            [str(a) for a in self.history()]))

    def key(self) -> int:
        """A 64-bit key of the position, valid in every phase of a turn (transposition
        tables, repetition): the pieces, each army's held pieces in capture order (R39;
        R31 reads it), armies, the army to act, the phase and bonus state, frozen pieces,
        the pass count and (quick game) the round; not the history, so not how two armies'
        captures interleave. It reads what ``==`` compares: equal positions have equal
        keys; docs/search.md.

        Returns:
            The key, from 0 to 2**64 - 1.
        """
        return self._engine.key()

    def __eq__(self, other: object) -> bool:
        """The same position of the same configuration (not the same history): what
        ``key()`` reads, each army's held pieces in capture order included."""
        if not isinstance(other, Game):
            return NotImplemented
        return (self.board is other.board and self.config == other.config
                and self._engine.same_position(other._engine))

    def __hash__(self) -> int:
        """The position's key: a Game changed after it went into a set or a dict is lost
        there, as with any mutable key; use ``game.key()`` as the key instead."""
        return hash(self._engine.key())

    @property
    def ply(self) -> int:
        """How many actions ``history()`` holds (without building it)."""
        return self._engine.history_length

    def history(self, last: int | None = None) -> list[Action]:
        """The actions played (and not undone) since the history's start, oldest first;
        ``last``: only the last ``last`` of them (a page drawing a long game's newest
        action need not build every one).

        Args:
            last: Only the last ``last`` actions; None for all.

        Returns:
            The actions, oldest first.

        Raises:
            ConfigError: ``last`` is no integer >= 0.
        """
        keys = self._engine.history_keys()
        if last is not None:
            check_int("last (a number of actions)", last, 0)
            keys = keys[max(0, len(keys) - last):]
        return [_action(self.board, key) for key in keys]

    @property
    def origin(self) -> str | None:
        """VPN of the position the history starts from; "" for the configuration's setup,
        None when it started inside a turn (a ``copy(history=False)`` made mid-turn)."""
        if self._origin is _BASE:
            self._origin = self._format_vpn(*self._view(base=True)[:3])
        assert self._origin is None or isinstance(self._origin, str)
        return self._origin

    def vpn(self) -> str:
        """R39 position; only at the start of a turn of a running game.

        Returns:
            The VPN.

        Raises:
            StateError: mid-turn, or the game is over (or a counter is beyond what a VPN
                records).
        """
        if self.phase != "start":
            raise StateError(f"vpn() needs the start of a turn; the army to move is in its "
                             f"'{self.phase}' phase")
        if self.is_over:
            raise StateError("vpn() needs a running game; this one is over")
        return self._format_vpn(*self._view()[:3])

    def _format_vpn(self, cells: Sequence[Piece | None], armies: Sequence[Army], turn: Turn) -> str:
        return format_vpn(VPNPosition(
            self.board, tuple(cells), turn.to_move,
            tuple(armies),
            turn.round, turn.passes, self.config))

    def __str__(self) -> str:
        """The text board of [`text_board`][victorus.render.text_board] (``print(game)``);
        ``repr`` stays the one-line summary."""
        return text_board(self)

    def __repr__(self) -> str:
        """One short line, as python-chess's: ``<Game compact 2p, ply 12, red to move>``;
        a finished game says who won (``over: red won (centre)``, ``over: draw``)."""
        variant = self.config.variant_string(players=False)
        name = f"{self.board.name} {self.config.players}p" + (
            "" if variant == "standard" else f" {variant}")
        winners, reason = self.winners, self.result_reason
        if winners is None:
            status = f"{SEAT_NAMES[self.to_move]} to move" + (
                "" if self.phase == "start" else f" ({self.phase} phase)")
        elif winners:
            status = f"over: {_in_words(winners)} won ({reason})"
        else:
            status = "over: draw" + ("" if reason == "draw" else f" ({reason})")
        return f"<Game {name}, ply {self.ply}, {status}>"

    def _view(self, base: bool = False) -> tuple[list[Piece | None], list[Army], Turn, _Result | None]:
        """(cells, armies, turn, result) as Python records (VPN, consistency checks);
        with ``base``, of the position the undo history starts from."""
        cells, armies, held, turn, result = self._engine.export(base)
        by_holder: list[list[Held]] = [[] for _ in range(NUM_SEATS)]
        for h in held:
            by_holder[h[0]].append(Held(*h[1:]))
        return ([None if c is None else Piece(*c) for c in cells],
                [Army(state, caps, tuple(by_holder[s])) for s, (state, caps) in enumerate(armies)],
                Turn(**turn), result)

    def _reject(self, text: str) -> NoReturn:
        if self.is_over:
            raise IllegalActionError(f"{shown(text, 60)} is not legal: the game is over "
                                     f"({self.result_reason}); no action is legal")
        legal = [str(a) for a in self.legal_actions()]
        raise IllegalActionError(illegal_message(text, legal, self.to_move, self.phase))


def _in_words(seats: Sequence[int]) -> str:
    """Seats by color: "red", "red and blue", "red, black and purple"."""
    names = [SEAT_NAMES[s] for s in seats]
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


MAX_PERFT_DEPTH = 32
"""perft recurses on the C stack one level per ply; deeper runs could never finish anyway."""


MAX_PERFT_THREADS = 256
"""Threads perft may use (a root split; more than the root's actions would idle)."""
MAX_PERFT_HASH_MB = 65536
"""The largest perft transposition table, in MiB."""


def check_stop(stop: StopToken | None, what: str) -> None:
    """The one rule of every call that takes a ``stop`` token (perft, simulate, the
    searches and the agents' ``choose``; docs/robustness.md): ``stop`` is None or a
    `StopToken`, and a token already stopped raises `Cancelled` before any
    work. Stopped during the call, perft and simulate raise Cancelled (their partial
    counts mean nothing), and a search returns what it has searched, as its budget ending
    would.

    Args:
        stop: The call's token, or None.
        what: The call, as the message names it (``"perft"``).

    Raises:
        ConfigError: ``stop`` is neither None nor a StopToken.
        Cancelled: ``stop`` is already stopped.
    """
    if stop is not None and not isinstance(stop, StopToken):
        raise ConfigError(f"stop must be a victorus.StopToken or None, got {shown(stop, 60)}")
    if stop is not None and stop.stopped:
        raise Cancelled(f"{what} was given a StopToken that is already stopped")


def perft(game: Game, depth: int, threads: int = 1, progress: Callable[[], object] | None = None,
          hash_mb: int = 0, stop: StopToken | None = None) -> int:
    """R40: the number of action sequences of length ``depth`` from the game's state.

    From depth 4, the root's actions are counted as separate tasks (the C perft runs
    without the GIL); on more than one thread, the positions two plies down are shared
    out one at a time, so that a thread held up by another process leaves the rest to
    the others. ``progress()`` is called as each root action is done. Ctrl-C in the
    calling thread, or an exception raised by ``progress``, stops this count (and no
    other) within 0.1 s and goes on; ``stop.stop()`` on a
    [`StopToken`][victorus.game.StopToken] from another thread makes it raise
    [`Cancelled`][victorus.errors.Cancelled]. ``hash_mb`` > 0 keeps the counts of subtrees in a transposition
    table of that many MiB, shared by the threads (keyed by ``Game.key()``; see docs/performance.md for
    when it pays).

    Args:
        game: The game whose state is counted from (left as it was).
        depth: The sequences' length, 0 to ``MAX_PERFT_DEPTH`` (32).
        threads: Threads to count on, 1 to ``MAX_PERFT_THREADS`` (256).
        progress: Called with no argument as each root action is done (from depth 4: a
            shallower count takes milliseconds and calls it never); None for none.
        hash_mb: MiB of the transposition table, 0 (none) to ``MAX_PERFT_HASH_MB``.
        stop: A token that another thread may stop (read from depth 4, as ``progress``);
            None for none.

    Returns:
        The number of action sequences.

    Raises:
        ConfigError: an argument out of range, or ``game`` is not a Game.
        Cancelled: ``stop`` was stopped.
        MemoryError: the table's memory cannot be had.
    """
    return _perft(game, depth, threads, progress, hash_mb, stop)[0]


def _perft(game: Game, depth: int, threads: int = 1, progress: Callable[[], object] | None = None,
           hash_mb: int = 0, stop: StopToken | None = None) -> tuple[int, int]:
    """perft() and the number of subtree counts found in the table."""
    check_int("perft depth", depth, 0, MAX_PERFT_DEPTH)
    check_int("perft threads", threads, 1, MAX_PERFT_THREADS)
    check_int("perft hash_mb (0: no table)", hash_mb, 0, MAX_PERFT_HASH_MB)
    if not isinstance(game, Game):
        raise ConfigError(f"perft needs a victorus.Game, got {type(game).__name__}")
    check_stop(stop, "perft")
    table = PerftTable(hash_mb) if hash_mb else None     # MemoryError if it cannot be had
    if depth <= 3:                                  # milliseconds at most
        return (game._engine.perft(depth), 0) if table is None else \
            game._engine.perft_hashed(depth, table)
    children = game._engine.children()
    if threads > 1:
        return _perft_split(children, depth, threads, progress, table, stop)
    if table is None:
        counts = run_interruptibly([(child.perft, depth - 1) for child in children], threads,
                                   progress, stop)
        return sum(counts), 0
    results = run_interruptibly([(child.perft_hashed, depth - 1, table) for child in children],
                                threads, progress, stop)
    return sum(count for count, _ in results), sum(hits for _, hits in results)


def _perft_split(children: Sequence[Engine], depth: int, threads: int,
                 progress: Callable[[], object] | None, table: PerftTable | None,
                 stop: StopToken | None) -> tuple[int, int]:
    """perft from depth 4 on several threads: the positions two plies down, grouped by
    root action, taken one at a time by every thread (PerftSplit)."""
    split = PerftSplit([child.children() for child in children], depth - 2, table, threads)
    reported = 0

    def tick() -> None:
        nonlocal reported
        done = split.groups_done()
        for _ in range(done - reported):
            if progress is not None:
                progress()
        reported = done
    hits = run_interruptibly([(split.run,)] * threads, threads, None, stop, tick)
    tick()
    return split.total(), sum(hits)


def run_interruptibly(tasks: Sequence[tuple[Callable[..., _T], Unpack[tuple[Any, ...]]]], threads: int = 1,
                      progress: Callable[[], object] | None = None, stop: StopToken | None = None,
                      tick: Callable[[], object] | None = None) -> list[_T]:
    """Results of long C calls ``(call, *args)`` (they release the GIL) run on ``threads``
    worker threads, each given ``stop=`` this run's [`StopToken`][victorus.game.StopToken] (``stop``, or a
    new one), so that Ctrl-C reaches this thread at once. Any exception here (Ctrl-C, or
    one raised by ``progress()``, which is called as each task is done) sets the token:
    the calls return early, the tasks not started are dropped and the exception goes on.
    The token is this run's alone: stopping it never stops another run. A token set
    from elsewhere ends the run with [`Cancelled`][victorus.errors.Cancelled]. ``tick()``, if given, is called
    every 0.05 s while the tasks run (progress that the tasks do not report).

    Args:
        tasks: ``(call, *args)`` each; ``call(*args, stop=token)`` is run on a thread.
        threads: How many worker threads (at most one per task).
        progress: Called with no argument as each task is done; None for none.
        stop: The run's token; None for a new one.
        tick: Called with no argument every 0.05 s while the tasks run; None for none.

    Returns:
        The calls' results, in the order of ``tasks``.

    Raises:
        Cancelled: the token was stopped from elsewhere.
    """
    token = StopToken() if stop is None else stop
    pool = ThreadPoolExecutor(max(1, min(threads, len(tasks))))
    try:
        futures = [pool.submit(call, *args, stop=token) for call, *args in tasks]
        results: list[_T] = []
        for future in futures:
            while True:
                try:
                    results.append(future.result(timeout=0.05))
                    break
                except FuturesTimeout:
                    if tick is not None:
                        tick()
                    continue
            if token.stopped:
                raise Cancelled("stopped by its StopToken before the end")
            if progress is not None:
                progress()
        return results
    except BaseException:
        token.stop()
        pool.shutdown(wait=True, cancel_futures=True)
        raise
    finally:
        pool.shutdown(wait=True)


DEFAULT_MAX_ACTIONS = 20_000
"""R36: random games can go on for ever (two gated royals shuffling inside their
kingdoms), so random play stops after this many actions unless told otherwise."""
MAX_ACTION_CAP = 2**62                 # the engine counts actions in 64 bits


def play_random(game: Game, seed: int | random.Random | None = None,
                max_actions: int | None = DEFAULT_MAX_ACTIONS, history: bool = True) -> int:
    """Play uniformly random legal actions until the game ends; return how many were played.

    ``max_actions`` is R36's cap (None: no cap): when it is reached the game
    stays unfinished (``game.is_over`` is False). ``seed`` is an int, a
    ``random.Random`` or None (fresh entropy); the same int seed gives the
    same game. Every action is recorded, so ``undo()`` works afterwards;
    ``history=False`` (rollouts, bulk simulation) drops the game's undo history
    instead and runs without the GIL.

    Args:
        game: The game to play on (changed in place).
        seed: An int (numpy integers too), a ``random.Random`` or None (fresh entropy).
        max_actions: The most actions played (R36's cap); None for no cap.
        history: Record the actions for ``undo()`` (False: drop the undo history).

    Returns:
        How many actions were played.

    Raises:
        ConfigError: ``seed`` or ``max_actions`` is not one of those, or ``game`` is not a Game.
    """
    if max_actions is not None:
        check_int("max_actions (or None)", max_actions, 0, MAX_ACTION_CAP)
    number: int | None
    if isinstance(seed, random.Random):
        number = seed.getrandbits(64)
    elif seed is None:
        number = int.from_bytes(os.urandom(8), "little")
    else:
        number = as_int(seed)
        if number is None:
            raise ConfigError(f"seed must be an integer, a random.Random or None, got {shown(seed)}")
    if not isinstance(game, Game):
        raise ConfigError(f"play_random needs a victorus.Game, got {type(game).__name__}")
    played = game._engine.random_playout(number & (2**64 - 1),
                                         -1 if max_actions is None else max_actions, bool(history))
    if not history:                      # the game now starts here, as copy(history=False)
        game._origin = _BASE if game.phase == "start" and not game.is_over else None
    return played


__all__ = ["DEFAULT_MAX_ACTIONS", "Game", "StopToken", "perft", "play_random"]
