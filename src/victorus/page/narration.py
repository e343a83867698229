"""The game's events in words, for the page: what each action did beyond moving a piece.

Every event is found by comparing the position before an action with the one after it
(``game.view()``): a capture, the rescue exchange (R31), the capturer frozen (R24), a
promotion at the turn's end (R25), a King or Queen completing a lap around the centre
(R29), an army eliminated (R30), the centre reached (R28); and the game's result in a
player's words (R28, R32, R37, R26). Nothing here changes a game: each function reads
copies or views.
"""

from __future__ import annotations

import re
from array import array
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, TypedDict

from ..constants import KING, PIECE_NAMES, QUEEN, ROYALS
from ..geometry import SEAT_NAMES
from ..view import ARMY_STATE_NAMES, PositionView, cell_arrays

if TYPE_CHECKING:                      # array[int] is subscriptable at run time from 3.12 only:
    IntArray = array[int]              # typing.get_type_hints() must work on 3.10 and 3.11
else:
    IntArray = array

if TYPE_CHECKING:
    from ..game import Game
    from ..geometry import Board
    from ..notation import Action

#: How an army is named in a sentence ("blue's", or "your" for the person's army).
Owner = Callable[[int], str]


@dataclass(frozen=True)
class Cells:
    """What an event is read from, cell by cell as in `victorus.view.PositionView`
    (``army``, ``kind``, ``royal``, ``laps``, ``frozen``) and the army ``states``: a view
    without the held pieces, which cost most of a view's time and tell no event."""

    army: IntArray
    kind: IntArray
    royal: IntArray
    laps: IntArray
    frozen: IntArray
    states: tuple[str, ...]


#: A position read cell by cell: `Cells`, or a whole ``game.view()``.
_Cells = Cells | PositionView


def cells(game: Game) -> Cells:
    """The `Cells` of ``game``'s position (as ``game.view()`` reads them)."""
    army, kind, _, royal, _, laps, frozen = cell_arrays(game)
    return Cells(army, kind, royal, laps, frozen,
                 tuple(ARMY_STATE_NAMES[state] for state, _ in game._engine.armies()))


def army_owner(army: int) -> str:
    """The plain possessive of an army: "blue's"."""
    return f"{SEAT_NAMES[army]}'s"


#: A byte of a cell's kind that is a King or a Queen (the kinds read as bytes: fast).
_ROYAL_KIND = re.compile(b"[" + bytes(sorted(ROYALS)) + b"]")
_NONZERO = re.compile(b"[^\x00]")


def _royal_cells(view: _Cells) -> dict[tuple[int, int], int]:
    """(army, kind) -> cell of every King and Queen on the board."""
    return {(view.army[c], view.kind[c]): c
            for c in (m.start() for m in _ROYAL_KIND.finditer(bytes(view.kind)))}


def _telling_cells(view: _Cells) -> list[int]:
    """The cells whose piece may have an event: a King, a Queen, a royal knight or a
    frozen piece (the others' moves are told with their legs)."""
    found = {m.start() for m in _ROYAL_KIND.finditer(bytes(view.kind))}
    for flags in (view.royal, view.frozen):
        found.update(m.start() for m in _NONZERO.finditer(bytes(flags)))
    return sorted(found)


def _previous(before: _Cells, action: Action, cell: int) -> int | None:
    """The cell of ``before`` whose piece is on ``cell`` after ``action`` (None: a piece
    that was not on the board, or an empty cell)."""
    if action.is_leg and cell == action.target:
        return action.origin
    if action.is_leg and cell == action.origin:
        return None
    return cell


def action_events(board: Board, before: _Cells, after: _Cells, action: Action,
                  owner: Owner = army_owner) -> list[str]:
    """The events of ``action`` (R24, R25, R29, R30, R31) read from the positions
    ``before`` and ``after`` it (`cells` or ``game.view()``), in words; the capture
    itself is told with the leg."""
    labels, events = board.labels, []
    victim = None
    if action.is_leg and before.army[action.target] >= 0:
        victim = (before.army[action.target], before.kind[action.target])
    royals_before, royals_after = _royal_cells(before), _royal_cells(after)
    back = [key for key in royals_after if key not in royals_before and key != victim]
    if back and victim in royals_after:                          # R31 rescue exchange
        for army, kind in back:
            events.append(f"rescue: {owner(army)} {PIECE_NAMES[kind]} was exchanged for "
                          f"{owner(victim[0])} {PIECE_NAMES[victim[1]]}; both went home "
                          f"({labels[royals_after[(army, kind)]]} and "
                          f"{labels[royals_after[victim]]})")
    for cell in _telling_cells(after):
        army = after.army[cell]
        name = f"{owner(army)} {PIECE_NAMES[after.kind[cell]]}"
        was = _previous(before, action, cell)
        if was is not None and not (before.army[was] == army and before.kind[was] == after.kind[cell]):
            was = None                           # another piece was there: not the same one
        if after.royal[cell] and was is not None and not before.royal[was]:
            events.append(f"{name} on {labels[cell]} was promoted to a royal knight")
        if after.frozen[cell] and not (was is not None and before.frozen[was]):
            events.append(f"{name} on {labels[cell]} is frozen for the rest of the turn")
        if was is not None and after.kind[cell] in ROYALS and after.laps[cell] != before.laps[was]:
            events.append(_lap_words(name, after.laps[cell], before.laps[was]))
    for army in range(len(after.states)):
        if before.states[army] == "active" and after.states[army] == "eliminated":
            events.append(f"{SEAT_NAMES[army]} is out")
    return events


def _lap_words(name: str, laps: int, was: int) -> str:
    """R29: the laps ``k`` of a King or Queen changed (by one, crossing the ray opposite
    its seat): forward, a lap completed (at 1 it may enter the centre, R28)."""
    if laps > was:
        return f"{name} completed lap {laps} around the centre" + (
            " and may enter it" if laps == 1 else "")
    return f"{name} unwound a lap around the centre (laps now {laps})"


def _may_tell(game: Game, action: Action, turn_captured: bool) -> bool:
    """Whether ``action`` can have an event (a capture, a King or Queen moving, or the end
    of a turn that captured): the other actions need no views."""
    if not action.is_leg:
        return turn_captured
    if action.capture:
        return True
    cell = game.board.labels[action.origin]
    piece = game.piece_at(cell)
    return turn_captured or (piece is not None and piece[1] in "KQ")


def _step(replay: Game, action: Action, captured: bool, owner: Owner) -> list[str]:
    """Play ``action`` on ``replay`` (a forfeit when it is a ``pass`` at a turn's start
    while other actions were legal) and return its events; ``captured``: the turn
    captured before it."""
    if replay.phase == "start" and action.text == "pass" and \
            action not in replay.legal_actions():
        replay.forfeit()
        return []
    if not _may_tell(replay, action, captured):
        replay.play(action)
        return []
    before = cells(replay)
    replay.play(action)
    events = action_events(replay.board, before, cells(replay), action, owner)
    if replay.is_over and replay.result_reason == "centre" and action.is_leg:
        events.append(f"{owner(before.army[action.origin])} "
                      f"{PIECE_NAMES[before.kind[action.origin]]} reached the centre")
    return events


def turn_events(game: Game, actions: Iterable[Action], owner: Owner = army_owner) -> list[list[str]]:
    """Per action of ``actions`` (played from ``game``'s position; ``game`` is left as
    it was): its events."""
    trial = game.copy(history=False)
    out, captured = [], False
    for action in actions:
        if trial.phase == "start":
            captured = False
        out.append(_step(trial, action, captured, owner))
        captured = captured or (action.is_leg and action.capture)
    return out


class Narration:
    """The events of every action of a game that grows (as
    [`victorus.record.TurnLines`][victorus.record.TurnLines]): `update` narrates the actions played
    since, each once. ``events[i]``: the events of action ``i`` (plain army names)."""

    def __init__(self, game: Game, start: Game) -> None:
        """``start``: a new game at the position ``game``'s history starts from."""
        self.game, self._replay = game, start
        self.events: list[list[str]] = []
        self._captured = False

    def update(self) -> list[list[str]]:
        for action in self.game.history(last=self.game.ply - self._replay.ply):
            if self._replay.phase == "start":
                self._captured = False
            self.events.append(_step(self._replay, action, self._captured, army_owner))
            self._captured = self._captured or (action.is_leg and action.capture)
        return self.events


class ResultWords(TypedDict):
    """`result_words`' answer: the end of a game in a player's words."""

    title: str                     # who won and why
    reason: str                    # the game's result_reason
    winners: list[int]
    yours: str | None              # for the people at the table; None when none plays


# -- the result ----------------------------------------------------------------------------
def _winning_move(game: Game) -> str | None:
    """The piece that entered the centre (R28): "blue's King", from the last action."""
    last = game.history(last=1)
    if not last or not last[0].is_leg:
        return None
    trial = game.copy()
    trial.undo()
    code = trial.piece_at(game.board.labels[last[0].origin])
    if code is None or code[1] not in "KQ":
        return None
    return f"{army_owner(int(code[0]))} {PIECE_NAMES[KING if code[1] == 'K' else QUEEN]}"


def names(seats: Iterable[int]) -> str:
    """Armies in words: "red", "red and blue", "red, black and purple"."""
    words = [SEAT_NAMES[s] for s in seats]
    if not words:
        return ""
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def result_words(game: Game, person_seats: Iterable[int] = ()) -> ResultWords | None:
    """The end of ``game`` in a player's words: ``title`` (who won and why: "blue's King
    reached the centre"), ``detail`` and, when people play, ``yours`` ("your team won",
    "you lost", "a draw"). None while the game goes on."""
    if not game.is_over:
        return None
    winners, reason = tuple(game.winners or ()), game.result_reason
    assert reason is not None                    # a game that is over has its reason
    if reason == "centre":
        mover = _winning_move(game) or "a King or Queen"
        why = f"{mover} reached the centre"
    elif reason == "elimination":
        why = "every other army is out"
    elif reason == "round-limit":
        why = "the round limit was reached: the most points win"
    else:
        why = "no army could move for a whole round"
    title = f"{names(winners)} won: {why}" if winners else f"a draw: {why}"
    out: ResultWords = {"title": title, "reason": reason, "winners": list(winners), "yours": None}
    people = [s for s in person_seats if s in game.config.present]
    if people:
        team = len(winners) > 1 and any(s in winners for s in people)
        if not winners:
            out["yours"] = "a draw"
        elif any(s in winners for s in people):
            out["yours"] = "your team won" if team else "you won"
        else:
            out["yours"] = "your team lost" if len(winners) > 1 else "you lost"
    return out


def watching_words(game: Game, person_seats: Iterable[int]) -> str | None:
    """After the person's army is eliminated (R30) in a game going on: they watch now."""
    if game.is_over:
        return None
    view = game.view()
    people = [s for s in person_seats if s in game.config.present]
    if people and all(view.states[s] == "eliminated" for s in people):
        return f"{names(people)} {'is' if len(people) == 1 else 'are'} out: you are watching now"
    return None


__all__ = ["Narration", "action_events", "army_owner", "names", "result_words", "turn_events",
           "watching_words"]
