"""The rules in plain Python: the slow, obviously-correct path (R13-R37, R40).

`ReferenceGame` keeps the pieces in a Python list (one immutable
`Piece` per cell) and asks the pure-Python
`ReferencePosition` for every leg. It has the interface
of [`victorus.Game`][victorus.game.Game] and exists for differential tests against the C engine and
for the benchmarks' "pure-Python path"; it imports nothing compiled, so it still runs
when the build is broken. The turn-internal state is one
immutable `Turn`, so an undo snapshot is a handful of references.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

from ._reference import ReferencePosition
from .checks import shown
from .constants import (
    GATE_CAPTURES,
    GREY,
    HOSPITALLER,
    KING,
    LEG_NORMAL,
    LEG_PIVOT,
    LEG_SELF,
    LEG_STRATEGIC,
    LEG_TRAVEL,
    MAX_LAPS,
    NUM_SEATS,
    PHASES,
    PROMOTABLE,
    QUEEN,
    ROYALS,
    STRATEGIC,
    WHITE,
    tally_value,
)
from .errors import ConfigError, IllegalActionError, StateError
from .geometry import Board, direction_mask, theta, winding_base
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
from .variants import Config

START, MOVE, BONUS = PHASES
COLOR_BIT = {WHITE: 1, GREY: 2}
STOP, END, PASS = word_action("stop"), word_action("end"), word_action("pass")

#: The game's result: (the winning seats, () for a draw; the reason).
_Result = tuple[tuple[int, ...], str]
#: The legal actions by their R38 text: (the Action, its leg type; None for a word).
_Legal = dict[str, tuple[Action, int | None]]
#: Everything an action may change, as ``_snapshot`` keeps it for ``undo``.
_Snapshot = tuple[list[Piece | None], list[Army], Turn, _Result | None, ReferencePosition]


def laps_after(board: Board, piece: Piece, origin: int, target: int) -> int:
    """R29: a King's or Queen's laps after a leg from ``origin`` to ``target``."""
    coords = board.coords
    clockwise = piece.kind == KING
    swept = _wrap(theta(*coords[target]) - theta(*coords[origin]))
    if clockwise:
        swept = -swept
    w_old = winding_base(*coords[origin], piece.army, clockwise) + 360 * piece.laps
    laps = round((w_old + swept - winding_base(*coords[target], piece.army, clockwise)) / 360)
    return max(-MAX_LAPS, min(MAX_LAPS, laps))         # kept within the VPN's range


def _wrap(angle: float) -> float:
    """Into (-180, 180]."""
    angle = math.fmod(angle, 360.0)
    if angle <= -180.0:
        angle += 360.0
    elif angle > 180.0:
        angle -= 360.0
    return angle


class ReferenceGame:
    """A game of VICTORUS in plain Python, with the interface of victorus.Game.

    >>> g = ReferenceGame()
    >>> len(g.legal_actions())
    31
    """

    def __init__(self, board: str = "standard", players: int | None = None,
                 variant: str = "standard") -> None:
        self.board = Board(board)
        self.config = Config.from_variant(variant, players)
        armies = [Army("a" if s in self.config.present else "x") for s in range(NUM_SEATS)]
        self._setup(setup_cells(self.board, self.config), armies,
                    Turn(to_move=self.config.order[0]))

    @classmethod
    def from_vpn(cls, vpn: str) -> ReferenceGame:
        """A game at the R39 position ``vpn``; raises NotationError if it is malformed."""
        pos = parse_vpn(vpn)
        game = cls.__new__(cls)
        game.board = pos.board
        game.config = pos.config
        armies = [Army(r.state, r.knight_captures, r.held) for r in pos.armies]
        game._setup(list(pos.cells), armies, Turn(pos.to_move, pos.round, pos.passes))
        return game

    def _setup(self, cells: list[Piece | None], armies: list[Army], turn: Turn) -> None:
        self._cells = cells
        self._armies = armies
        self._turn = turn
        self._result: _Result | None = None
        self._history: list[_Snapshot] = []
        self._legal: _Legal | None = None
        self._core = ReferencePosition(self.board, self.config.teams, self._live_mask())
        for cell, piece in enumerate(cells):
            if piece is not None:
                self._core.put(cell, piece.army)

    # -- public API ------------------------------------------------------------
    @property
    def to_move(self) -> int:
        """Seat of the army to act."""
        return self._turn.to_move

    @property
    def is_over(self) -> bool:
        return self._result is not None

    @property
    def winners(self) -> tuple[int, ...] | None:
        """Seats of the winning team, () for a draw, None while the game runs."""
        return None if self._result is None else self._result[0]

    @property
    def result_reason(self) -> str | None:
        """'centre', 'elimination', 'round-limit' or 'draw' (R26, R28, R32, R37)."""
        return None if self._result is None else self._result[1]

    @property
    def round(self) -> int:
        return self._turn.round

    @property
    def phase(self) -> str:
        """'start' (turn start), 'move' (inside a move) or 'bonus' (R22)."""
        return self._turn.phase

    def piece_at(self, label: str) -> str | None:
        """R39 code '<seat><piece>' of the piece on a cell, or None."""
        piece = self._cells[self.board.cell(label)]
        return None if piece is None else f"{piece.army}{piece.code}"

    def held(self, seat: int) -> tuple[str, ...]:
        """R39 codes of the pieces an army holds, in capture order."""
        return tuple(h.code for h in self._armies[seat].held)

    def legal_actions(self) -> list[Action]:
        """All legal actions, legs in (origin, target) cell order, then words."""
        return [action for action, _ in self._legal_map().values()]

    def play(self, action: Action | str) -> None:
        """Play an Action or an R38 string; an illegal one raises and changes nothing."""
        text = action.text if isinstance(action, Action) else action
        legal = self._legal_map()
        entry = legal.get(text) if isinstance(text, str) else None
        if entry is None:
            self._reject(action)
            return
        act, leg_type = entry
        self._history.append(self._snapshot())
        try:
            if act.word is None:
                assert leg_type is not None                  # a leg has its type
                self._play_leg(act.origin, act.target, leg_type)
            elif act.word == "stop":
                self._complete_move(self._turn.mover, r21=False, foreign=-1)
            elif act.word == "end":
                self._end_turn(passed=False)
            else:
                self._end_turn(passed=True)
        except BaseException:
            self._restore(self._history.pop())
            raise
        self._legal = None

    def undo(self) -> None:
        """Take back the last action, restoring the exact previous state."""
        if not self._history:
            raise StateError("nothing to undo: no action has been played in this game object")
        self._restore(self._history.pop())
        self._legal = None

    def copy(self) -> ReferenceGame:
        """An independent copy (history included)."""
        other = ReferenceGame.__new__(ReferenceGame)
        other.board = self.board
        other.config = self.config
        other._cells = list(self._cells)
        other._armies = list(self._armies)
        other._turn = self._turn
        other._result = self._result
        other._history = list(self._history)
        other._legal = self._legal
        other._core = self._core.copy()
        return other

    def vpn(self) -> str:
        """R39 position; only at the start of a turn of a running game."""
        if self._turn.phase != START:
            raise StateError(f"vpn() needs the start of a turn; the army to move is in its "
                             f"'{self._turn.phase}' phase")
        if self._result is not None:
            raise StateError("vpn() needs a running game; this one is over")
        return format_vpn(VPNPosition(
            self.board, tuple(self._cells), self._turn.to_move,
            tuple(self._armies),
            self._turn.round, self._turn.passes, self.config))

    def __repr__(self) -> str:
        status = (f"over: {self.result_reason}, winners {self.winners}" if self.is_over
                  else f"seat {self.to_move} to act, round {self.round}, {self.phase}")
        return f"<ReferenceGame {self.board.name} {self.config.variant_string()} ({status})>"

    def _view(self) -> tuple[list[Piece | None], list[Army], Turn, _Result | None]:
        """(cells, armies, turn, result) for consistency checks."""
        return list(self._cells), list(self._armies), self._turn, self._result

    # -- state bookkeeping -------------------------------------------------------
    def _snapshot(self) -> _Snapshot:
        return (list(self._cells), list(self._armies), self._turn, self._result, self._core.copy())

    def _restore(self, snap: _Snapshot) -> None:
        # Snapshots are never mutated (copies may share them): restore by copying,
        # in place, since move generation may be iterating over the cell list.
        cells, armies, self._turn, self._result, core = snap
        self._cells[:] = cells
        self._armies[:] = armies
        self._core = core.copy()

    def _live_mask(self) -> int:
        """Kingdoms that are live (R8): every seat not eliminated."""
        return sum(1 << s for s in range(NUM_SEATS) if self._armies[s].state != "e")

    def _live_armies(self) -> list[int]:
        return [s for s in range(NUM_SEATS) if self._armies[s].state == "a"]

    def _reject(self, action: Action | str) -> None:
        if isinstance(action, Action):
            text = action.text
        else:
            parse_action(self.board, action)           # raises NotationError if malformed
            text = action
        if self._result is not None:
            raise IllegalActionError(f"{shown(text, 60)} is not legal: the game is over "
                                     f"({self.result_reason}); no action is legal")
        legal = list(self._legal_map())
        raise IllegalActionError(illegal_message(text, legal, self._turn.to_move, self._turn.phase))

    # -- move generation -----------------------------------------------------------
    def _legal_map(self) -> _Legal:
        if self._legal is None:
            self._legal = self._generate() if self._result is None else {}
        return self._legal

    def _generate(self) -> _Legal:
        t = self._turn
        out: _Legal = {}
        if t.phase == MOVE:
            self._continuations(t.mover, out)
        else:
            army = t.to_move
            for cell, piece in enumerate(self._cells):
                if (piece is not None and piece.army == army and cell not in t.frozen
                        and cell != t.self_cell):
                    self._first_legs(cell, piece, out)
            if t.self_cell >= 0:
                self._self_bonus_legs(t.self_cell, out)
        out = dict(sorted(out.items(), key=lambda kv: (kv[1][0].origin, kv[1][0].target)))
        if t.phase == MOVE and self._piece(t.mover).royal:
            out["stop"] = (STOP, None)                                  # R16 royal knight
        elif t.phase == BONUS:
            out["end"] = (END, None)                                    # R26
        elif t.phase == START and not out:
            out["pass"] = (PASS, None)                                  # R26
        return out

    def _piece(self, cell: int) -> Piece:
        """The piece on ``cell``, which holds one."""
        piece = self._cells[cell]
        assert piece is not None
        return piece

    def _add(self, out: _Legal, origin: int, targets: Iterable[int], capture: bool,
             leg_type: int) -> None:
        board = self.board
        for target in targets:
            act = leg_action(board, origin, target, capture)
            out[act.text] = (act, leg_type)

    def _gate(self, piece: Piece) -> int:
        """R19: the kingdom a King/Queen must stay in, or -1."""
        if self._armies[piece.army].knight_captures < GATE_CAPTURES:
            return piece.army
        return -1

    def _royal_leg(self, cell: int, piece: Piece, colors: int,
                   nocap: int = -1) -> tuple[list[int], list[int]]:
        """Destinations of one King/Queen leg (R18 colors given, R19, R28)."""
        dirs = direction_mask(piece.army, piece.kind)
        return self._core.leg(cell, piece.army, dirs, colors, True, False, self._gate(piece),
                              piece.laps >= 1, nocap)

    def _first_legs(self, cell: int, piece: Piece, out: _Legal) -> None:
        """First legs of a full move (R16) of the piece on ``cell``."""
        core, army = self._core, piece.army
        if piece.kind == HOSPITALLER:
            assert piece.edge is not None                    # a knight has an edge (R10)
            self._add(out, cell, core.travel(cell, army, COLOR_BIT[piece.edge]), False, LEG_TRAVEL)
            return
        if piece.kind in ROYALS:
            colors = 3 - COLOR_BIT[self.board.colors[cell]]          # R18: opposite color
            quiet, caps = self._royal_leg(cell, piece, colors)
            for targets, capture in ((quiet, False), (caps, True)):
                ok = [t for t in targets if self._royal_leg1_ok(cell, t)]
                self._add(out, cell, ok, capture, LEG_NORMAL)
            return
        assert piece.edge is not None
        colors = COLOR_BIT[piece.edge]
        dirs = direction_mask(army, piece.kind)
        quiet, caps = core.leg(cell, army, dirs, colors)
        self._add(out, cell, quiet, False, LEG_NORMAL)
        self._add(out, cell, caps, True, LEG_NORMAL)
        if piece.kind in STRATEGIC:                 # R13
            self._add(out, cell, core.strategic_step(cell, army, colors, dirs), False, LEG_STRATEGIC)

    def _continuations(self, cell: int, out: _Legal) -> None:
        """The next leg of a move in progress (R14, R16-R18), or stop."""
        piece = self._piece(cell)
        core, army = self._core, piece.army
        if piece.kind == HOSPITALLER:
            assert piece.edge is not None
            quiet, caps = core.pivot(cell, army, COLOR_BIT[piece.edge])
        elif piece.kind in ROYALS:
            quiet, caps = self._royal_leg(cell, piece, COLOR_BIT[self.board.colors[cell]])
        else:                                                           # royal knight, R17
            assert piece.edge is not None
            quiet, caps = core.leg(cell, army, direction_mask(army, piece.kind),
                                   COLOR_BIT[piece.edge])
            start = self._turn.move_start                # a rescue (R31) may refill it
            quiet = [t for t in quiet if t != start]
            caps = [t for t in caps if t != start]
        leg_type = LEG_PIVOT if piece.kind == HOSPITALLER else LEG_NORMAL
        self._add(out, cell, quiet, False, leg_type)
        self._add(out, cell, caps, True, leg_type)

    def _self_bonus_legs(self, cell: int, out: _Legal) -> None:
        """R23, R37(b): the self-eligible piece's single bonus leg."""
        t = self._turn
        piece = self._piece(cell)
        core, army = self._core, piece.army
        if piece.kind == HOSPITALLER:
            assert piece.edge is not None
            quiet, caps = core.pivot(cell, army, COLOR_BIT[piece.edge], t.nocap)
        elif piece.kind in ROYALS:
            quiet, caps = self._royal_leg(cell, piece, COLOR_BIT[t.self_color], t.nocap)
        else:
            assert piece.edge is not None
            colors = COLOR_BIT[piece.edge]
            dirs = direction_mask(army, piece.kind)
            quiet, caps = core.leg(cell, army, dirs, colors, True, False, -1, False, t.nocap)
            if not piece.royal and piece.kind in STRATEGIC:   # R37(b)
                quiet = quiet + core.strategic_step(cell, army, colors, dirs)
        self._add(out, cell, quiet, False, LEG_SELF)
        self._add(out, cell, caps, True, LEG_SELF)

    def _royal_leg1_ok(self, origin: int, target: int) -> bool:
        """R16 look-ahead: after this King/Queen leg 1, is there a leg 2?

        Judged after every consequence of the leg; a leg that ends the game or
        the move (R21) is always fine.
        """
        snap = self._snapshot()
        legal, history = self._legal, self._history
        try:
            self._play_leg(origin, target, LEG_NORMAL)
            if self._result is not None or self._turn.phase != MOVE:
                return True
            piece = self._piece(target)
            quiet, caps = self._royal_leg(target, piece, COLOR_BIT[self.board.colors[target]])
            return bool(quiet or caps)
        finally:
            self._restore(snap)
            self._legal, self._history = legal, history

    # -- playing legs -------------------------------------------------------------
    def _play_leg(self, origin: int, target: int, leg_type: int) -> None:
        t = self._turn
        if t.phase == BONUS:
            t = t._replace(pending=t.pending - 1)
            if leg_type != LEG_SELF and t.self_cell >= 0:                  # R22: another piece
                t = t._replace(frozen=t.frozen | {t.self_cell}, self_cell=-1, nocap=-1)
        if t.phase != MOVE and leg_type != LEG_SELF:
            t = t._replace(move_start=origin, legs=0, captures=0, last_capture=-1)
        self._turn = t
        piece = self._piece(origin)
        victim = self._cells[target]
        board = self.board
        # A capture inside another live kingdom (liveness judged before the capture's
        # consequences): R21 stops a King, Queen or royal knight; R37(c) bars any piece.
        k = board.kingdoms[target]
        foreign = (k if victim is not None and k is not None and k != piece.army
                   and self._armies[k].state != "e" else -1)
        r21 = foreign >= 0 and piece.is_royal_mover
        self._move_piece(origin, target, piece)
        if target == board.centre:                                     # R28
            self._finish(self._team_seats(piece.army), "centre")
            return
        if victim is not None:
            self._capture(piece.army, target, victim)
            if self._result is not None:
                return
        t = self._turn
        captured = victim is not None
        legs = t.legs + 1
        t = t._replace(mover=target, legs=legs, captures=t.captures + captured,
                       last_capture=target if captured else t.last_capture)
        self._turn = t
        if leg_type == LEG_SELF:
            self._self_bonus_done(target, captured, r21, foreign)
            return
        kind = piece.kind
        complete = (r21 or leg_type == LEG_STRATEGIC or legs == 2
                    or (kind in PROMOTABLE and not piece.royal))
        if complete:
            self._complete_move(target, r21, foreign)
        else:
            self._turn = t._replace(phase=MOVE)

    def _move_piece(self, origin: int, target: int, piece: Piece) -> None:
        core = self._core
        core.remove(origin)
        self._cells[origin] = None
        if target == self.board.centre:
            return
        if self._cells[target] is not None:
            core.remove(target)
        if piece.kind in ROYALS:
            piece = piece._replace(laps=laps_after(self.board, piece, origin, target))
        self._cells[target] = piece
        core.put(target, piece.army)

    def _capture(self, army: int, cell: int, victim: Piece) -> None:
        """Consequences of capturing ``victim`` on ``cell`` (R19, R20, R25, R30-R32)."""
        capturer = self._piece(cell)
        armies = self._armies
        me = armies[army]
        held = Held(victim.army, victim.kind, victim.edge, victim.royal)
        knight_caps = me.knight_captures + (capturer.kind not in ROYALS)
        armies[army] = me._replace(knight_captures=knight_caps, held=me.held + (held,))
        if capturer.kind in PROMOTABLE and not capturer.royal:           # R25
            self._cells[cell] = capturer._replace(
                tally=capturer.tally + tally_value(victim.kind, victim.royal))
        if victim.kind not in ROYALS:
            return
        if self._rescue(army, victim):
            return
        self._maybe_eliminate(victim.army, army)

    def _rescue(self, army: int, victim: Piece) -> bool:
        """R31: exchange a captured royal for one of ours the victim's army holds."""
        other = victim.army
        theirs = self._armies[other].held
        i = next((i for i, h in enumerate(theirs) if h.army == army and h.kind in ROYALS),
                 None)
        if i is None:
            return False
        mine = theirs[i]
        self._armies[other] = self._armies[other]._replace(held=theirs[:i] + theirs[i + 1:])
        # The victim was the last piece we took: it goes back.
        self._armies[army] = self._armies[army]._replace(held=self._armies[army].held[:-1])
        own_home = self._return_home(Piece(army, mine.kind, None))
        self._turn = self._turn._replace(frozen=self._turn.frozen | {own_home})
        self._return_home(Piece(other, victim.kind, None))
        return True

    def _return_home(self, piece: Piece) -> int:
        """Put a royal back on its home cell or the nearest empty cell (R31)."""
        board, cells = self.board, self._cells
        home = board.home_cells[piece.army]["K" if piece.kind == KING else "Q"]
        cell = home
        if cells[home] is not None:
            hq, hr = board.coords[home]

            def dist(c: int) -> tuple[int, int]:
                q, r = board.coords[c]
                return (max(abs(q - hq), abs(r - hr), abs(q - hq + r - hr)), c)
            empty = [c for c in range(len(board)) if cells[c] is None and c != board.centre]
            kingdom = [c for c in empty if board.kingdoms[c] == piece.army]
            cell = min(kingdom or empty, key=dist)
        cells[cell] = piece._replace(laps=0)             # R29: windings start again
        self._core.put(cell, piece.army)
        return cell

    def _maybe_eliminate(self, seat: int, by: int) -> None:
        """R30 elimination of ``seat`` when both its royals are held, then R32."""
        held_royals = {h.kind for a in range(NUM_SEATS) if a != seat
                       for h in self._armies[a].held if h.army == seat and h.kind in ROYALS}
        if held_royals != {KING, QUEEN}:
            return
        for cell, piece in enumerate(self._cells):
            if piece is not None and piece.army == seat:
                self._cells[cell] = None
                self._core.remove(cell)
        self._armies[seat] = self._armies[seat]._replace(state="e")
        self._core.set_live(self._live_mask())
        team = self.config.teams[by]
        if all(self._armies[s].state == "e" for s in self.config.present
               if self.config.teams[s] != team):
            self._finish(self._team_seats(by), "elimination")

    def _team_seats(self, seat: int) -> tuple[int, ...]:
        team = self.config.teams[seat]
        return tuple(s for s in self.config.present if self.config.teams[s] == team)

    def _finish(self, winners: Iterable[int], reason: str) -> None:
        self._result = (tuple(winners), reason)

    # -- completing moves and turns ---------------------------------------------
    def _complete_move(self, cell: int, r21: bool, foreign: int) -> None:
        """A full move ended (R16): bonus state, self-eligibility, or end of turn (R21-R23, R37).

        ``foreign``: the live foreign kingdom the move's last leg captured in, or -1.
        """
        t = self._turn
        piece = self._piece(cell)
        quick = self.config.quick is not None
        if quick:
            pending = t.pending + t.captures
            eligible = t.captures > 0                                   # R37(b)
        else:
            pending = 1 if t.captures else 0
            eligible = piece.is_royal_mover and t.captures == 2 and not r21    # R23: both legs
        if eligible:
            # R37(c) for any piece; -1 in the standard game, where R21 prevents R23.
            t = t._replace(self_cell=cell, self_color=self.board.colors[t.last_capture],
                           nocap=foreign)
        else:
            t = t._replace(frozen=t.frozen | {cell})
        self._turn = t._replace(pending=pending, phase=BONUS, mover=-1)
        if pending == 0:
            self._end_turn(passed=False)

    def _self_bonus_done(self, cell: int, captured: bool, r21: bool, foreign: int) -> None:
        """After a self-bonus leg (R23, R37); ``foreign`` as in _complete_move."""
        t = self._turn
        board = self.board
        if self.config.quick is not None:
            t = t._replace(self_cell=cell, pending=t.pending + captured)
            if captured:
                t = t._replace(self_color=board.colors[cell], nocap=foreign)   # R37(c)
        elif not captured:
            t = t._replace(pending=0)
        elif r21:
            t = t._replace(pending=1, self_cell=-1, nocap=-1, frozen=t.frozen | {cell})
        else:
            t = t._replace(pending=1, self_cell=cell, self_color=board.colors[cell])
        self._turn = t._replace(phase=BONUS, mover=-1)
        if t.pending == 0:
            self._end_turn(passed=False)

    def _end_turn(self, passed: bool) -> None:
        """Promotion (R25), pass count (R26), next army and round (R33), draw and round limit."""
        t = self._turn
        army = t.to_move
        for cell, piece in enumerate(self._cells):
            if (piece is not None and piece.army == army and piece.tally >= 2
                    and piece.kind in PROMOTABLE and not piece.royal):
                self._cells[cell] = piece._replace(royal=True, tally=0)
        passes = t.passes + 1 if passed else 0
        order = self.config.order
        i = order.index(army)
        round_no = t.round
        wrapped = False
        while True:
            i += 1
            if i == len(order):
                i = 0
                round_no += 1
                wrapped = True
            if self._armies[order[i]].state == "a":
                break
        self._turn = Turn(to_move=order[i], round=round_no, passes=passes)
        if passes >= len(self._live_armies()):
            self._finish((), "draw")
        elif self.config.quick is not None and wrapped and round_no > self.config.quick:
            self._finish(self._round_limit_winners(), "round-limit")

    def _round_limit_winners(self) -> tuple[int, ...]:
        """R37(a): the live team with the most points held by its armies; ties draw."""
        teams = self.config.teams
        scores: dict[int, int] = {}
        for seat in self._live_armies():
            scores.setdefault(teams[seat], 0)
        for seat in self.config.present:
            if teams[seat] in scores:
                scores[teams[seat]] += sum(h.points for h in self._armies[seat].held)
        best = max(scores.values())
        top = [team for team, score in scores.items() if score == best]
        return () if len(top) > 1 else self._team_seats(top[0])


def reference_perft(game: ReferenceGame, depth: int) -> int:
    """R40: the number of action sequences of length ``depth`` from the game's state."""
    if isinstance(depth, bool) or not isinstance(depth, int) or depth < 0:
        raise ConfigError(f"perft depth must be a non-negative integer, got {shown(depth, 60)}")
    if depth == 0:
        return 1
    if game.is_over:
        return 0
    actions = game.legal_actions()
    if depth == 1:
        return len(actions)
    total = 0
    for action in actions:
        game.play(action)
        total += reference_perft(game, depth - 1)
        game.undo()
    return total
