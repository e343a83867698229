"""Game records: whole games as plain text, saved, loaded and replayed.

A record has header lines, then one turn per line::

    victorus-record 1
    board: standard
    players: 6
    variant: standard
    seed: 42
    agents: random,random,mcts,greedy,random,random
    time-limit: 120
    result: elimination 3

    1.0 h3-h7
    1.1 d3-f9
    ...

A UTF-8 byte-order mark before the first line (some text editors write one) is
skipped. ``start:`` (a VPN, R39) is present when the game did not begin at the setup of
its configuration. A turn line is ``<round>.<seat>`` and the turn's actions in
R38 notation; only the last line may be an unfinished turn. ``result:`` is the
end reason and the winning seats (``-`` for none), or ``unfinished``; when it
is given, loading checks that the replay ends the same way. ``time-limit:``
(seconds per turn, the rulebook's Time Management, or ``unknown``) is present
when the game was played on a clock; only then may a turn be a ``pass``
forfeited on time while other actions were legal ([`Game.forfeit`][victorus.game.Game.forfeit]). A
game with such a turn, saved without its time limit, says ``unknown``.

``resigned:`` (a seat, 0-5) says that this army gave up the game after the last
action (``victorus serve``'s resign): the actions replay to a game still going on,
and ``result:`` says ``resignation`` and the other teams' present seats, e.g.
``resigned: 0`` with ``result: resignation 1,3,5``. Records without it load as
before; [`dumps`][victorus.record.dumps] writes it when given ``resigned``, and
[`parse`][victorus.record.parse] reads it back (``GameRecord.resigned``), so a record saved with it loads and
saves again to the same text.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .checks import check_int, parse_int, shown, shown_path
from .errors import ConfigError, RecordError, VictorusError
from .files import file_path, read_limited, write_atomic
from .game import Game, replay_action

if TYPE_CHECKING:
    from .notation import Action

MAGIC = "victorus-record 1"
"""The first line of every record (its format and version)."""
MAX_RECORD_BYTES = 16 * 1024 * 1024
"""The largest record file read: about 1.3 million actions (12 bytes each), replayed in ~6 s with a
peak of ~280 MB; a game at the default cap (20,000 actions) is ~250 KB."""
MAX_HEADER_VALUE = 4096
"""The longest header value read, in characters (the longest VPN start position is about
1,500)."""
HEADER_KEYS = ("board", "players", "variant", "start", "seed", "agents", "time-limit",
               "resigned", "result")
"""The header's keys, in the order a record writes them."""
_AGENT_RE = re.compile(r"[A-Za-z0-9_.:=@-]+", re.ASCII)
"""An agent's name in the header: an agent spec (``mcts:0.5s@2``), ``person`` or ``-``."""
_TURN_RE = re.compile(r"([1-9][0-9]*)\.([0-5])", re.ASCII)
MAX_SEED = 2**64 - 1
"""A record's seed: the 64-bit seeds the simulations and agents use."""
MAX_RECORD_ACTIONS = 2**62
"""The most actions ``max_actions`` may ask for (a record file holds far fewer)."""
_SECONDS_RE = re.compile(r"(0|[1-9][0-9]{0,8})(\.[0-9]{1,3})?", re.ASCII)


@dataclass
class GameRecord:
    """A parsed record: the header and the turns (lists of action strings).

    Args:
        board: The ``board:`` header.
        players: The ``players:`` header, 2-6.
        variant: The ``variant:`` header.
        start: The ``start:`` position (a VPN, R39), or None for the configuration's setup.
        seed: The ``seed:`` header, or None.
        agents: The ``agents:`` header, six names (one per seat), or None.
        time_limit: The ``time-limit:`` in seconds per turn, or None (none, or ``unknown``).
        clock: Whether a ``time-limit:`` header is present (a number or ``unknown``).
        resigned: The seat that resigned after the last action (``resigned:``), or None.
        result: The ``result:`` header, or None.
        turns: The turn lines: ``(line number, "<round>.<seat>", action strings)``.
    """

    board: str = "standard"
    players: int = 6
    variant: str = "standard"
    start: str | None = None
    seed: int | None = None
    agents: tuple[str, ...] | None = None
    time_limit: float | None = None
    clock: bool = False        # a time-limit: header, a number or 'unknown'
    resigned: int | None = None    # the seat that resigned after the last action
    result: str | None = None
    turns: list[tuple[int, str, list[str]]] = field(default_factory=list)


def resignation_winners(game: Game, seat: int) -> tuple[int, ...]:
    """The seats that win when ``seat`` resigns ``game``: the present seats of every
    other team (R33).

    Args:
        game: The game resigned.
        seat: The seat that resigns.

    Returns:
        The winning seats, in order.
    """
    teams = game.config.teams
    return tuple(s for s in game.config.present if teams[s] != teams[seat])


def _result_text(game: Game, resigned: int | None = None) -> str:
    if resigned is not None:
        return f"resignation {','.join(map(str, resignation_winners(game, resigned))) or '-'}"
    if not game.is_over:
        return "unfinished"
    return f"{game.result_reason} {','.join(map(str, game.winners or ())) or '-'}"


def check_resigned(game: Game, seat: int | None,
                   error: Callable[[str], Exception] = ConfigError) -> int | None:
    """A seat that resigns ``game`` (present, the game going on), or None.

    Args:
        game: The game resigned.
        seat: The seat that resigns, 0-5, or None.
        error: The error class raised (given the message).

    Returns:
        ``seat``.

    Raises:
        ConfigError: (or ``error``) ``seat`` is no seat or not present, or the game is over.
    """
    if seat is None:
        return None
    check_int("resigned (a seat, or None)", seat, 0, 5, error)
    if seat not in game.config.present:
        raise error(f"resigned: seat {seat} is not in this game; present seats: "
                    f"{', '.join(map(str, game.config.present))}")
    if game.is_over:
        raise error(f"resigned: the game is already over ({game.result_reason}); only a "
                    f"game going on is resigned")
    return seat


MIN_TIME_LIMIT, MAX_TIME_LIMIT = 0.001, 366 * 86400     # records keep 3 decimals


def check_time_limit(value: object, error: Callable[[str], Exception] = ConfigError) -> float | None:
    """A per-turn time limit in seconds (from a millisecond to a year), or None.

    Args:
        value: The limit in seconds (an int or a float), or None.
        error: The error class raised (given the message).

    Returns:
        The limit as a float, or None.

    Raises:
        ConfigError: (or ``error``) ``value`` is no number from a millisecond to a year.
    """
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or \
            not MIN_TIME_LIMIT <= value <= MAX_TIME_LIMIT:          # also refuses NaN
        raise error(f"time limit must be a number of seconds from {MIN_TIME_LIMIT} to "
                    f"{MAX_TIME_LIMIT} (or none for no limit), got {shown(value, 60)}")
    return float(value)


def _seconds_text(seconds: float) -> str:
    return f"{seconds:.3f}".rstrip("0").rstrip(".")


@dataclass(frozen=True)
class TurnLine:
    """One turn of a game's history: ``<round>.<seat>`` and its actions (R38);
    ``forfeit`` when it is a ``pass`` forfeited on time while other actions were legal.

    Args:
        round: The turn's round.
        seat: The seat that played the turn.
        actions: The turn's actions in R38 notation.
        forfeit: Whether the turn is a ``pass`` forfeited on time.
    """

    round: int
    seat: int
    actions: tuple[str, ...]
    forfeit: bool = False

    def __str__(self) -> str:
        return f"{self.round}.{self.seat} {' '.join(self.actions)}"


def starting_game(game: Game) -> Game:
    """A new Game at the position ``game``'s history starts from.

    Args:
        game: The game.

    Returns:
        A new Game at its origin (a VPN start, or its configuration's setup).
    """
    return Game.from_vpn(game.origin) if game.origin else \
        Game(game.board.name, players=game.config.players,
             variant=game.config.variant_string(players=False))


def turn_lines(game: Game) -> list[TurnLine]:
    """``game``'s history (from its origin) turn by turn; the last may be unfinished.

    Args:
        game: The game.

    Returns:
        Its turns, oldest first.

    Raises:
        ConfigError: ``game`` is no Game.
        VictorusError: Its history starts inside a turn.
    """
    return TurnLines(game).lines


class TurnLines:
    """``turn_lines`` of a game that grows: [`update`][victorus.record.TurnLines.update] adds the actions
    played since (a page following a game replays each action once, not the whole game).

    Args:
        game: The game followed.

    Raises:
        ConfigError: ``game`` is no Game.
        VictorusError: Its history starts inside a turn (a copy made with history=False).
    """

    def __init__(self, game: Game) -> None:
        if not isinstance(game, Game):
            raise ConfigError(f"turn lines are made from a victorus.Game, got "
                              f"{type(game).__name__}")
        if game.origin is None:
            raise VictorusError("this game's history starts inside a turn (a copy made with "
                                "history=False mid-turn): its turns cannot be listed")
        self.game = game
        self.lines: list[TurnLine] = []
        self._replay = starting_game(game)
        self._open: list[str] = []             # the actions of the last turn listed
        self.update()

    def update(self) -> list[TurnLine]:
        """The lines with the game's actions played since the last call (the game may
        only have grown: after an undo, make a new TurnLines).

        Returns:
            All the lines (the same list, grown).

        Raises:
            VictorusError: The game has fewer actions than listed (actions were taken back).
        """
        done = self._replay.ply
        if self.game.ply < done:
            raise VictorusError(f"the game has {self.game.ply} actions, fewer than the "
                                f"{done} listed: actions were taken back; list it anew")
        replay = self._replay
        for action in self.game.history(last=self.game.ply - done):
            forfeit = False
            if replay.phase == "start":
                forfeit = action.text == "pass" and action not in replay.legal_actions()
                self._close_turn()
                self._open = []
                self.lines.append(TurnLine(replay.round, replay.to_move, (), forfeit))
            self._open.append(action.text)
            if forfeit:
                replay.forfeit()
            else:
                replay.play(action)
        self._close_turn()
        return self.lines

    def _close_turn(self) -> None:
        if self.lines:
            last = self.lines[-1]
            self.lines[-1] = TurnLine(last.round, last.seat, tuple(self._open), last.forfeit)


def dumps(game: Game, seed: int | None = None, agents: Iterable[str] | None = None,
          time_limit: float | None = None, resigned: int | None = None) -> str:
    """The record of ``game``'s history (from its origin to now) as text.

    Args:
        game: The game recorded.
        seed: The ``seed:`` header (0 to 2**64 - 1), or None.
        agents: Six agent names (one per seat: a spec, ``person`` or ``-``), or None.
        time_limit: The per-turn limit in seconds the game was played with, or None;
            required when a turn was forfeited on time.
        resigned: The seat whose army gave up the game (going on) after its last action,
            or None.

    Returns:
        The record, ending in a newline.

    Raises:
        ConfigError: ``game`` is no Game, or a header value is refused.
        VictorusError: The game's history starts inside a turn.
    """
    _check_recordable(game)
    turns = turn_lines(game)
    return "\n".join(header_lines(game, seed, agents, time_limit, resigned, turns) + [""] +
                      [str(t) for t in turns]) + "\n"


def _check_recordable(game: object) -> None:
    if not isinstance(game, Game):
        raise ConfigError(f"a record is made from a victorus.Game, got {type(game).__name__}")
    if game.origin is None:
        raise VictorusError("this game's history starts inside a turn (a copy made with "
                            "history=False mid-turn): it cannot be recorded")


def header_lines(game: Game, seed: int | None = None, agents: Iterable[str] | None = None,
                 time_limit: float | None = None, resigned: int | None = None,
                 turns: list[TurnLine] | None = None) -> list[str]:
    """The header lines of [`dumps`][victorus.record.dumps] (same arguments; ``turns``: the game's
    [`turn_lines`][victorus.record.turn_lines] if already made): a page that holds the turn lines (its log)
    makes the whole record from them.

    Args:
        turns: The game's turn lines if already made; None makes them when needed.

    Returns:
        The lines, from ``victorus-record 1`` to ``result:``.

    Raises:
        ConfigError: ``game`` is no Game, or a header value is refused.
        VictorusError: The game's history starts inside a turn.
    """
    _check_recordable(game)
    if seed is not None:
        check_int("seed (or None)", seed, 0, MAX_SEED)
    names = None
    if agents is not None:
        names = tuple(agents)
        if len(names) != 6 or not all(isinstance(a, str) and _AGENT_RE.fullmatch(a)
                                      for a in names):
            raise ConfigError("agents: six names (one per seat, '-' for none) of letters, "
                              f"digits and _.:=@-, got {shown(names, 60)}")
    time_limit = check_time_limit(time_limit)
    resigned = check_resigned(game, resigned)
    clock_unknown = time_limit is None and any(
        t.forfeit for t in (turn_lines(game) if turns is None else turns))
    lines = [MAGIC, f"board: {game.board.name}", f"players: {game.config.players}",
             f"variant: {game.config.variant_string(players=False)}"]
    if game.origin:
        lines.append(f"start: {game.origin}")
    if seed is not None:
        lines.append(f"seed: {seed}")
    if names is not None:
        lines.append(f"agents: {','.join(names)}")
    if time_limit is not None or clock_unknown:
        seconds = "unknown" if time_limit is None else _seconds_text(time_limit)
        lines.append(f"time-limit: {seconds}")        # a forfeit needs the clock named
    if resigned is not None:
        lines.append(f"resigned: {resigned}")
    lines.append(f"result: {_result_text(game, resigned)}")
    return lines


def _header_field(n: int, line: str, seen: set[str]) -> tuple[str, str]:
    """Header line ``n``'s key and value: a known key, not given before (added to
    ``seen``), and a value short enough for the errors that echo it."""
    key, sep, value = line.partition(": ")
    if not sep or key not in HEADER_KEYS:
        raise RecordError(f"record line {n}: expected '<key>: <value>' with a key among "
                          f"{', '.join(HEADER_KEYS)}, got {shown(line, 60)}")
    if key in seen:
        raise RecordError(f"record line {n}: {shown(key, 60)} given twice")
    if len(value) > MAX_HEADER_VALUE:
        raise RecordError(f"record line {n}: {shown(key, 60)} is {len(value):,} characters long; a "
                          f"header value has at most {MAX_HEADER_VALUE:,}")
    seen.add(key)
    return key, value


def parse(text: str, max_actions: int | None = None) -> GameRecord:
    """Read a record's header and turn lines (syntax only; [`loads`][victorus.record.loads] replays it);
    a record of more than ``max_actions`` actions is refused before it is all read.

    Args:
        text: The record.
        max_actions: The most actions read (0 to 2**62), or None for no bound.

    Returns:
        The header and the turn lines.

    Raises:
        RecordError: The record is malformed, or holds more than ``max_actions`` actions.
        ConfigError: ``max_actions`` is out of range.
    """
    if not isinstance(text, str):
        raise RecordError(f"a record is text, got {type(text).__name__}")
    if max_actions is not None:
        check_int("max_actions (or None)", max_actions, 0, MAX_RECORD_ACTIONS)
    if text.startswith("\ufeff"):       # a UTF-8 byte-order mark, as some editors write
        text = text[1:]
    lines = text.split("\n")
    for n, line in enumerate(lines, start=1):
        if "\r" in line[:-1]:
            raise RecordError(f"record line {n}: a carriage return inside the line; records "
                              f"break lines with LF or CRLF")
    if lines[0].rstrip("\r") != MAGIC:
        raise RecordError(f"record line 1: expected {MAGIC!r}, got {shown(lines[0], 40)}")
    record = GameRecord(turns=[])
    seen: set[str] = set()
    n = 1
    for n, raw in enumerate(lines[1:], start=2):
        line = raw.rstrip("\r")
        if not line:
            break
        key, value = _header_field(n, line, seen)
        if key == "board":
            record.board = value
        elif key == "players":
            if value not in ("2", "3", "4", "5", "6"):
                raise RecordError(f"record line {n}: players must be 2 to 6, got {shown(value, 60)}")
            record.players = int(value)
        elif key == "variant":
            record.variant = value
        elif key == "start":
            record.start = value
        elif key == "seed":
            record.seed = parse_int(f"record line {n}: seed", value, 0, MAX_SEED, RecordError)
        elif key == "agents":
            agents = tuple(value.split(","))
            if len(agents) != 6 or not all(_AGENT_RE.fullmatch(a) for a in agents):
                raise RecordError(f"record line {n}: agents must be six comma-separated names "
                                  f"(letters, digits, _.:=@- or '-'), got {shown(value, 60)}")
            record.agents = agents
        elif key == "time-limit":
            if value != "unknown" and (not _SECONDS_RE.fullmatch(value) or not
                                       MIN_TIME_LIMIT <= float(value) <= MAX_TIME_LIMIT):
                raise RecordError(f"record line {n}: time-limit must be a number of seconds "
                                  f"from {MIN_TIME_LIMIT} to {MAX_TIME_LIMIT} (digits, up to 3 "
                                  f"decimals) or 'unknown', got {shown(value, 30)}")
            record.clock = True
            record.time_limit = None if value == "unknown" else float(value)
        elif key == "resigned":
            if value not in ("0", "1", "2", "3", "4", "5"):
                raise RecordError(f"record line {n}: resigned must be a seat 0 to 5, got "
                                  f"{shown(value, 20)}")
            record.resigned = int(value)
        else:
            record.result = value
    else:
        n += 1
    count = 0
    for m, raw in enumerate(lines[n:], start=n + 1):
        line = raw.rstrip("\r")
        if not line.strip():
            continue
        fields = line.split()
        count += len(fields) - 1
        if max_actions is not None and count > max_actions:
            raise RecordError(f"record line {m}: more than {max_actions} actions; at most "
                              f"{max_actions} are read here")
        if not _TURN_RE.fullmatch(fields[0]):
            raise RecordError(f"record line {m}: a turn line starts with '<round>.<seat>', "
                              f"got {shown(fields[0], 20)}")
        if len(fields) == 1:
            raise RecordError(f"record line {m}: turn {fields[0]} has no action")
        record.turns.append((m, fields[0], fields[1:]))
    return record


def _game_for(record: GameRecord) -> Game:
    try:
        game = Game(record.board, players=record.players, variant=record.variant)
        if record.start is not None:
            start = Game.from_vpn(record.start)
            if start.config != game.config or start.board is not game.board:
                raise RecordError(f"record 'start:' position is a {start.board.name} "
                                  f"{start.config.variant_string()} game but the header says "
                                  f"{game.board.name} {game.config.variant_string()}")
            game = start
    except RecordError:
        raise
    except VictorusError as exc:
        raise RecordError(f"record header: {exc}") from None
    return game




def loads(text: str, max_actions: int | None = None) -> Game:
    """Replay a record; the Game returned holds the whole history (undo steps back).
    ``max_actions`` bounds the work and memory: a longer record is refused unread.

    Args:
        text: The record.
        max_actions: The most actions replayed (0 to 2**62), or None for no bound.

    Returns:
        The game, its history the record's actions.

    Raises:
        RecordError: The record is malformed, an action is illegal, or the replay ends
            otherwise than its ``result:`` says.
        ConfigError: ``max_actions`` is out of range.
    """
    record = parse(text, max_actions)
    game = _game_for(record)
    last = len(record.turns) - 1
    for i, (line, label, actions) in enumerate(record.turns):
        expected = f"{game.round}.{game.to_move}"
        if game.is_over:
            raise RecordError(f"record line {line}: the game is already over "
                              f"({game.result_reason})")
        if label != expected:
            raise RecordError(f"record line {line}: turn {label} but the game is at {expected} "
                              f"(<round>.<seat>)")
        for k, action in enumerate(actions):
            if game.is_over:
                raise RecordError(f"record line {line}: the game is already over "
                                  f"({game.result_reason}) before {shown(action, 60)}")
            try:
                replay_action(game, action, record.clock)
            except VictorusError as exc:
                raise RecordError(f"record line {line}, action {k + 1}: {exc}") from None
            if game.phase == "start" and k < len(actions) - 1:
                raise RecordError(f"record line {line}: turn {label} ends after action {k + 1} "
                                  f"({action}), but the line goes on; one turn per line")
        if i < last and game.phase != "start" and not game.is_over:
            raise RecordError(f"record line {line}: turn {label} does not end, but another "
                              f"turn follows")
    if record.resigned is not None:
        check_resigned(game, record.resigned, RecordError)
    ends = _result_text(game, record.resigned)
    if record.result is not None and record.result != ends:
        raise RecordError(f"record result {shown(record.result, 60)} but the replay ends {shown(ends, 60)}")
    return game


def replay(text: str) -> Iterator[tuple[Action, Game]]:
    """Yield ``(action, game)`` after each action of a record (the same Game, advancing).

    Args:
        text: The record.

    Yields:
        Each action played and the game after it (the same Game each time).

    Raises:
        RecordError: The record is malformed or does not replay (see
            [`loads`][victorus.record.loads]); raised before the first action is yielded.
    """
    final = loads(text)
    clock = parse(text).clock
    game = starting_game(final)
    for action in final.history():
        replay_action(game, action.text, clock)
        yield action, game


def save(game: Game, path: str | os.PathLike[str], seed: int | None = None,
         agents: Iterable[str] | None = None, time_limit: float | None = None,
         resigned: int | None = None) -> None:
    """Write ``game``'s record to ``path`` (the arguments of [`dumps`][victorus.record.dumps]).

    Args:
        game: The game recorded.
        path: The file written (atomically).
        seed: The ``seed:`` header (0 to 2**64 - 1), or None.
        agents: Six agent names (one per seat: a spec, ``person`` or ``-``), or None.
        time_limit: The per-turn limit in seconds, or None.
        resigned: The seat that resigned after the last action, or None.

    Raises:
        ConfigError: ``game`` is no Game, or a header value is refused.
        OSError: ``path`` cannot be written (a missing folder, no permission, a read-only
            file), named in the error.
        VictorusError: The game's history starts inside a turn.
    """
    write_atomic(path, dumps(game, seed=seed, agents=agents, time_limit=time_limit,
                             resigned=resigned))


def load(path: str | os.PathLike[str]) -> Game:
    """Read and replay the record at ``path`` (``-``: standard input; a FIFO with no
    writer, or a pipe that stays silent, is a RecordError rather than a wait forever).

    Args:
        path: The record's file, or ``-`` for standard input.

    Returns:
        The game, its history the record's actions.

    Raises:
        RecordError: The file is too large or not UTF-8, or the record does not replay
            (see [`loads`][victorus.record.loads]).
        OSError: The file cannot be read (missing, a folder, no permission).
    """
    data = read_limited(path, MAX_RECORD_BYTES, RecordError)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise RecordError(f"record {shown_path(file_path(path))} is not UTF-8 text: {exc}") from None
    return loads(text)
