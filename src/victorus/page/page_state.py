"""The page's state: pure functions of a game (and of what the page already holds), and
the rules help's pictures (`rules_panels`: each piece's moves on a small board).

`victorus.page.table.Table` calls these under its lock with the game shown; nothing here
reads or changes the table. The fields are listed in docs/serve.md (The API).
"""

from __future__ import annotations

import hashlib
from collections.abc import Collection, Iterable, Sequence
from typing import Any

from .. import record, render
from ..checks import shown
from ..constants import CENTRE, EDGE_LETTERS, HOSPITALLER, KING, PIECE_LETTERS, PIECE_NAMES, QUEEN, ROYALS
from ..errors import VictorusError
from ..game import Game, replay_action
from ..geometry import SEAT_NAMES, Board, hex_distance, plane
from ..notation import Action
from ..pieces import Piece
from ..record import TurnLine
from ..render import ARMY_MARK_NAMES, ARMY_MARKS, CELL_FILL, SEAT_COLORS, render_layers, render_svg
from ..search.registry import PAGE_MENU
from ..variants import ALLIED_GROUPS, PRESENT_SEATS, TEAM_GROUPS
from . import narration

#: Board frames a page may say it holds (one per view: six seats, with and without labels).
MAX_FRAMES_HELD = 12
#: The agents the page offers for a seat, its default first (the registry's menu; any spec
#: within its kind's page limits is accepted through the API).
PAGE_AGENTS = PAGE_MENU
#: Turns told in words (the summary) and marked on the board.
SUMMARY_TURNS = 6

#: A part of the page's state, as the page reads it (JSON: docs/serve.md, The API).
State = dict[str, Any]
#: One action of the last turns: (action, mover, victim, its events in words).
Move = tuple[Action, Piece | None, Piece | None, list[str]]


class RequestError(VictorusError):
    """A request the server refuses (400 unless ``status`` says otherwise), with the reason."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


# -- what a request asks for ---------------------------------------------------------------
def check_view(view: object) -> int | None:
    """The seat at the bottom, or None: the army to act (the rotating board)."""
    if view in ("turn", None):
        return None
    if view in ("0", "1", "2", "3", "4", "5"):
        return int(view)
    raise RequestError(f"'view' must be a seat 0-5 or 'turn', got {shown(view, 60)}")


def check_labels(labels: object) -> bool:
    if labels not in ("0", "1"):
        raise RequestError(f"'labels' must be 0 or 1, got {shown(labels, 60)}")
    return labels == "1"


def frames_held(text: object) -> set[str]:
    """The ``frame`` of a state request: frame keys, comma-separated."""
    keys = set(text.split(",")) - {""} if isinstance(text, str) else None
    if keys is None or len(keys) > MAX_FRAMES_HELD or not all(
            len(key) == 16 and all(c in "0123456789abcdef" for c in key) for key in keys):
        raise RequestError(f"'frame' must be frame_keys from earlier states (at most "
                           f"{MAX_FRAMES_HELD}, comma-separated), got {shown(str(text), 60)}")
    return keys


# -- the game's parts ----------------------------------------------------------------------
def placement(game: Game) -> str:
    """R39 field 1 of the position shown: ``label:<seat><piece>`` by cell order."""
    view = game.view()
    return ",".join(f"{label}:{view.piece_code(i)}" for i, label in enumerate(game.board.labels)
                    if view.army[i] >= 0) or "-"


def game_fields(game: Game, bottom: int) -> State:
    """What the page shows of ``game`` seen from seat ``bottom`` (the board aside)."""
    running = game.phase == "start" and not game.is_over
    return {
        "board": game.board.name, "variant": game.config.variant_string(),
        "variant_plain": game.config.variant_string(players=False),
        "players": game.config.players, "present": list(game.config.present),
        "to_move": game.to_move, "to_move_name": SEAT_NAMES[game.to_move],
        "phase": game.phase, "round": game.round, "over": game.is_over,
        "winners": None if game.winners is None else list(game.winners),
        "reason": game.result_reason, "view": bottom,
        "armies": armies(game), "pieces": dict(zip(PIECE_LETTERS, PIECE_NAMES)),
        "placement": placement(game), "vpn": game.vpn() if running else None,
    }


def frame_key(frame: str) -> str:
    """A short name of a board frame's SVG, for ``frame=`` (the same frame, the same key)."""
    return hashlib.blake2b(frame.encode(), digest_size=8).hexdigest()


def board_fields(game: Game, bottom: int, labels: bool, held: set[str] | None) -> State:
    """The board: ``svg`` whole, or (``held``: the frame keys the page holds) ``frame``
    (None when held) with its ``centres``, ``frame_key`` and ``position`` (render_layers),
    and the position as data (`position_fields`)."""
    if held is None:
        return {"svg": render_svg(game, seat=bottom, labels=labels, interactive=True)}
    shown, position = render_layers(game, seat=bottom, labels=labels, interactive=True)
    key = frame_key(shown)
    sent = key not in held
    return {"position": position, "frame_key": key, "frame": shown if sent else None,
            "centres": centres(game.board, bottom) if sent else None,
            **position_fields(game)}


# -- the position as data (the socket's deltas: docs/serve.md, The page's HTTP API) -------
#: The hex radius of the page's board, in SVG units (render_layers' default).
BOARD_SIZE = 22.0


def centres(board: Board, seat: int, size: float = BOARD_SIZE) -> list[list[Any]]:
    """Each cell's centre in the frame seen from ``seat``: ``[label, x, y]`` in board
    order (whole numbers: the drawing rounds what it computes from them)."""
    return [[label, x, y]
            for label, (x, y) in zip(board.labels, render._centres(board, size, seat))]


def position_fields(game: Game) -> State:
    """The position as drawn, as data: ``cells`` (label: R39 piece code, in board order),
    ``frozen`` (labels), ``last`` (the last leg's cells, or None) and ``passes`` (the
    pass count, R39)."""
    board, pieces, _, frozen, last_leg = render._game_parts(game)
    labels = board.labels
    cells = {labels[i]: f"{p.army}{p.code}" for i, p in enumerate(pieces) if p is not None}
    return {"cells": cells, "frozen": [labels[i] for i in sorted(frozen)],
            "last": None if last_leg is None else [labels[last_leg.origin],
                                                   labels[last_leg.target]],
            "passes": game._view()[2].passes}


def placement_of(watched: State) -> str:
    """``placement`` from a watched state's ``cells`` (the centre left out: a King or Queen
    is drawn there only at the end it brought, R28, and R39 has no piece there)."""
    centre = Board(watched["board"]).labels[Board(watched["board"]).centre]
    return ",".join(f"{label}:{code}" for label, code in watched["cells"].items()
                    if label != centre) or "-"


def vpn_of(watched: State) -> str | None:
    """The VPN of a watched state (None mid-turn or once over), as ``Game.vpn`` writes it."""
    if watched["phase"] != "start" or watched["over"]:
        return None
    round_text = str(watched["round"]) + (f"/{watched['passes']}" if watched["passes"] else "")
    letters = {"active": "a", "eliminated": "e", "absent": "x"}
    armies = "/".join(
        f"{letters[a['state']]},{a['knight_captures']},{'.'.join(a['held'])},"
        f"{'-' if a['king_laps'] is None else a['king_laps']},"
        f"{'-' if a['queen_laps'] is None else a['queen_laps']}" for a in watched["armies"])
    return " ".join([watched["board"], placement_of(watched), str(watched["to_move"]),
                     armies, round_text, watched["variant"]])


def piece_shapes(size: float = BOARD_SIZE) -> State:
    """``GET /api/pieces``: the shape of every piece a game can show, by its R39 code
    (``*`` after it: frozen), as render_layers draws it inside its ``<g class="piece">``."""
    shapes = {}
    for army in range(6):
        for kind, letter in enumerate(PIECE_LETTERS):
            variants: list[tuple[str, int | None, bool]]
            if kind in ROYALS:
                variants = [(letter, None, False)]
            else:
                suffixes = ("", "1") if kind == HOSPITALLER else ("", "1", "+")
                variants = [(letter + e + x, edge, x == "+") for edge, e in enumerate(EDGE_LETTERS)
                            for x in suffixes]
            for code, edge, royal in variants:
                rim = "#ffffff" if edge == 0 else "#000000"
                for frozen in (False, True):
                    shapes[f"{army}{code}{'*' if frozen else ''}"] = render._shield_shape(
                        army, kind, rim, royal, frozen, size)
    return {"size": size, "last_move": render.LAST_MOVE, "shapes": shapes}


def position_layer(watched: State, centred: Sequence[Sequence[Any]],
                   size: float = BOARD_SIZE) -> str:
    """The position layer drawn from a watched state's data (``centred``: `centres` of
    the view), as the page draws it: the reference of docs/serve.md's recipe."""
    shapes = piece_shapes(size)["shapes"]
    where = {label: (x, y) for label, x, y in centred}
    out = []
    if watched["last"] is not None:
        (x1, y1), (x2, y2) = where[watched["last"][0]], where[watched["last"][1]]
        for cx, cy in ((x1, y1), (x2, y2)):
            out.append(f'<polygon points="{render._points(render._corners(cx, cy, size * 0.9))}" '
                       f'fill="none" stroke="{render.LAST_MOVE}" stroke-width="{size / 8:.1f}"/>')
        out.append(f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" '
                   f'stroke="{render.LAST_MOVE}" stroke-width="{size / 10:.1f}" opacity="0.8"/>')
    frozen = set(watched["frozen"])
    for label, _, _ in centred:
        code = watched["cells"].get(label)
        if code is not None:
            x, y = where[label]
            key = code + ("*" if label in frozen else "")
            out.append(f'<g class="piece" data-cell="{label}" data-army="{code[0]}" '
                       f'transform="translate({x:.1f},{y:.1f})">{shapes[key]}</g>')
    return "\n".join(out)


#: The fields of the page's state that are not the watched state (per view, per page).
NOT_WATCHED = ("svg", "frame", "frame_key", "position", "centres", "view", "vpn", "placement",
               "log_from", "clock", "browse", "spectator")
#: Lists changed by their ends (``lists``) and lists changed in place (``items``).
SLID, INDEXED = ("log", "summary"), ("armies", "army_clocks")


def watched(state: State) -> State:
    """The watched state of a whole state (asked with ``frame=``, its log whole)."""
    return {k: v for k, v in state.items() if k not in NOT_WATCHED}


def delta(old: State, new: State) -> State:
    """What changed from the watched state ``old`` to ``new``: `apply_delta` of it on
    ``old`` gives ``new``."""
    out: State = {}
    for key in new.keys() | old.keys():
        if key not in new:
            raise ValueError(f"a delta cannot drop the field {shown(key, 60)}")
        before, after = old.get(key, None), new[key]
        if key in old and before == after:
            continue
        if key == "cells" and isinstance(before, dict):
            changed = {c: after.get(c) for c in before.keys() | after.keys()
                       if before.get(c) != after.get(c)}
            out.setdefault("cells", {}).update(changed)
        elif key in SLID and isinstance(before, list) and isinstance(after, list):
            out.setdefault("lists", {})[key] = _slide(before, after)
        elif key in INDEXED and isinstance(before, list) and isinstance(after, list) \
                and len(before) == len(after) and all(
                    isinstance(a, dict) and isinstance(b, dict) and a.keys() == b.keys()
                    for a, b in zip(before, after)):
            out.setdefault("items", {})[key] = {
                str(i): {k: v for k, v in b.items() if a.get(k, _NONE) != v}
                for i, (a, b) in enumerate(zip(before, after)) if a != b}
        else:
            out.setdefault("set", {})[key] = after
    return out


_NONE = object()


def _slide(before: list[Any], after: list[Any]) -> list[Any]:
    """``[drop, keep, add]``: ``after == before[drop:drop + keep] + add``, with the least
    sent (the drops tried are the first few: a log grows at its end, a summary slides)."""
    best: list[Any] | None = None
    for drop in range(min(len(before), 8) + 1):
        keep = 0
        while (keep < len(after) and drop + keep < len(before)
               and before[drop + keep] == after[keep]):
            keep += 1
        if best is None or len(after) - keep < len(best[2]):
            best = [drop, keep, after[keep:]]
    assert best is not None
    return best


def apply_delta(old: State, change: State) -> State:
    """The watched state ``old`` with the delta ``change`` applied (a new object; ``old``
    is left as it was): the reference of the page's own."""
    new = dict(old)
    new.update(change.get("set", {}))
    if "cells" in change:
        board = Board(new["board"])
        cells = dict(new["cells"])
        for label, code in change["cells"].items():
            if code is None:
                cells.pop(label, None)
            else:
                cells[label] = code
        order = board.index_of_label
        new["cells"] = dict(sorted(cells.items(), key=lambda item: order[item[0]]))
    for key, (drop, keep, add) in change.get("lists", {}).items():
        new[key] = new[key][drop:drop + keep] + add
    for key, items in change.get("items", {}).items():
        new[key] = list(new[key])
        for index, value in items.items():
            new[key][int(index)] = {**new[key][int(index)], **value}
    return new


def _teams(game: Game) -> dict[int, int]:
    """R33: each seat's team number (1, 2, ...) when armies share a team, else none."""
    present, config_teams = game.config.present, game.config.teams
    numbers = {t: n + 1 for n, t in enumerate(sorted({config_teams[s] for s in present}))}
    if len(numbers) == len(present):             # every army plays for itself
        return {}
    return {s: numbers[config_teams[s]] for s in present}


def armies(game: Game) -> list[State]:
    """Per seat: state, held pieces (R20, R37 points), the knight promotion score
    card (R25 tallies of regular knights, royal knights), King and Queen laps (R29),
    and the team (R33: 1, 2, ...; None when every army plays for itself)."""
    view = game.view()
    laps: dict[tuple[int, int], int] = {}
    cards: list[list[str]] = [[] for _ in range(6)]
    royal = [0] * 6
    for i, piece in enumerate(view.pieces()):
        if piece is None:
            continue
        if piece.kind in (KING, QUEEN):
            laps[(piece.army, piece.kind)] = piece.laps
        elif piece.royal:
            royal[piece.army] += 1
        elif piece.tally:
            cards[piece.army].append(f"{piece.code[:2]} {game.board.labels[i]}: "
                                     f"{piece.tally}/2")
    teams = _teams(game)
    return [{
        "seat": seat, "name": SEAT_NAMES[seat], "color": SEAT_COLORS[seat],
        "state": view.states[seat], "held": list(view.held[seat]),
        "points": view.held_points[seat], "knight_captures": view.knight_captures[seat],
        "promotion": cards[seat], "royal_knights": royal[seat],
        "king_laps": laps.get((seat, KING)), "queen_laps": laps.get((seat, QUEEN)),
        "team": teams.get(seat),
    } for seat in range(6)]


def legal(game: Game) -> State:
    """The legal actions: legs as ``[from, to, text]``, and the words (stop, end, pass)."""
    legs: list[list[str]] = []
    words: list[str] = []
    for action in game.legal_actions():
        if action.is_leg:
            legs.append([game.board.labels[action.origin], game.board.labels[action.target],
                         action.text])
        else:
            words.append(action.text)
    return {"legs": legs, "words": words}


# -- the last turns, in words --------------------------------------------------------------
def _before(game: Game, count: int, owner: narration.Owner) -> list[Move]:
    """(action, mover, victim, events) of the last ``count`` actions, oldest first
    (events: `victorus.page.narration.turn_events`)."""
    trial = game.copy()
    before: list[tuple[Action, Piece | None, Piece | None]] = []
    for action in reversed(game.history(last=count)):
        trial.undo()
        if action.is_leg:
            pieces = trial.view().pieces()
            before.append((action, pieces[action.origin], pieces[action.target]))
        else:
            before.append((action, None, None))
    before.reverse()
    events = narration.turn_events(trial, [b[0] for b in before], owner)
    return [(*b, e) for b, e in zip(before, events)]


def _owner(person_seats: Collection[int]) -> narration.Owner:
    """How an army is named: "your" (the person's one army), "your red" (one of the
    person's several armies), "blue's"."""
    several = len(person_seats) > 1
    return lambda army: (f"your {SEAT_NAMES[army]}" if several else "your") \
        if army in person_seats else f"{SEAT_NAMES[army]}'s"


def _turn_words(game: Game, turn: TurnLine, moves: Sequence[Move],
                person_seats: Collection[int]) -> State:
    """One turn in words, with its legs' cells and its events (R24, R25, R28-R31);
    ``moves``: its (action, mover, victim, events)."""
    owner = _owner(person_seats)
    parts: list[str] = []
    cells: list[str] = []
    events: list[str] = []
    for action, mover, victim, told in moves:
        events += told
        if mover is None:
            continue                         # stop, end, pass: the turn's words say it
        cells += [game.board.labels[action.origin], game.board.labels[action.target]]
        text = f"{PIECE_NAMES[mover.kind]} {action.text}"
        if victim is not None:
            text += f" took {owner(victim.army)} {PIECE_NAMES[victim.kind]}"
        parts.append(text)
    who = SEAT_NAMES[turn.seat]
    if turn.seat in person_seats:               # the army named when the person has several
        who = f"you ({who})" if len(person_seats) > 1 else "you"
    words = ", ".join(parts) if parts else (
        "forfeited the turn on time" if turn.forfeit else "passed")
    return {"seat": turn.seat, "text": f"{who}: {words}", "cells": cells, "events": events}


def summary(game: Game, person_seats: Collection[int], turns: int = SUMMARY_TURNS,
            lines: Sequence[TurnLine] | None = None) -> list[State]:
    """The last ``turns`` turns in words, newest last: who moved what where, what each
    capture took ("black's Hospitaller g2xh1 took your King") and the events that
    followed (a rescue, a promotion, an elimination: `victorus.page.narration`); the
    cells of each turn's legs, for a mark on the board. ``lines``: ``game``'s turn lines
    if already made (record.turn_lines replays the whole game)."""
    if not game.ply:
        return []
    lines = (record.turn_lines(game) if lines is None else lines)[-turns:]
    before = _before(game, sum(len(t.actions) for t in lines), _owner(person_seats))
    out: list[State] = []
    k = 0
    for turn in lines:
        out.append(_turn_words(game, turn, before[k:k + len(turn.actions)], person_seats))
        k += len(turn.actions)
    return out


def outcome(game: Game, person_seats: Iterable[int]) -> State:
    """The end in words (a banner: `victorus.page.narration.result_words`) and, for a
    person whose army is out while the game goes on, that they watch now."""
    return {"result": narration.result_words(game, tuple(person_seats)),
            "watching": narration.watching_words(game, tuple(person_seats))}


def resigned_fields(game: Game, seat: int, person_seats: Collection[int]) -> State:
    """A game that ``seat`` resigned: over, the other teams' present seats win."""
    winners = list(record.resignation_winners(game, seat))
    names = narration.names(winners) or "nobody"
    yours = None
    if person_seats:
        won = any(s in winners for s in person_seats)
        yours = ("your team won" if won else "your team lost") if len(winners) > 1 or \
            len(person_seats) > 1 else ("you won" if won else "you lost")
    return {"over": True, "winners": winners, "reason": "resignation", "watching": None,
            "legal": None, "person_to_act": False, "can_undo": False,
            "result": {"title": f"{names} won: {SEAT_NAMES[seat]} resigned",
                       "reason": "resignation", "winners": winners, "yours": yours}}


def capped_fields(cap: int) -> State:
    """A game played that reached the page's cap of ``cap`` actions (R36): it stops
    there, unfinished, as if over (nobody wins, nobody acts)."""
    return {"over": True, "winners": [], "reason": "unfinished", "watching": None,
            "legal": None, "person_to_act": False, "can_undo": False,
            "result": {"title": f"unfinished: the game stopped at the page's cap of "
                                f"{cap:,} actions", "reason": "unfinished", "winners": [],
                       "yours": None}}


def army_clocks(game: Game, turns: Iterable[TurnLine], over: bool,
                paused: bool = False) -> list[State]:
    """Per seat, its clock in the game played (the rulebook's Time Management: a turn
    must be started within the limit): ``state`` ``acting`` (its time runs: the state's
    ``clock``), ``paused`` (the army to act's, once a whole round was forfeited on time:
    ``paused``, the clock waits for its first action), ``started`` (its turn begun, the
    clock stopped), ``waiting`` (it will have the whole limit), ``out`` (R30), ``absent``
    (R33) or ``over``; ``forfeits``: its turns forfeited on time (``turns``: the game's
    record.TurnLine)."""
    states = game.view().states
    forfeits = [0] * 6
    for turn in turns:
        forfeits[turn.seat] += turn.forfeit
    out = []
    for seat in range(6):
        if seat not in game.config.present:
            state = "absent"
        elif states[seat] == "eliminated":
            state = "out"
        elif over or game.is_over:
            state = "over"
        elif seat == game.to_move:
            state = ("paused" if paused else "acting") if game.phase == "start" else "started"
        else:
            state = "waiting"
        out.append({"seat": seat, "state": state, "forfeits": forfeits[seat]})
    return out


# -- the log -------------------------------------------------------------------------------
def log_entries(turns: Iterable[TurnLine], events: Sequence[Sequence[str]], first: int) -> list[State]:
    """The log's entries of ``turns`` (record.TurnLine), the first starting at action
    ``first``; ``events``: per action of the game, its events in words (R24-R31)."""
    entries = []
    for t in turns:
        told = [e for action in events[first:first + len(t.actions)] for e in action]
        first += len(t.actions)
        entries.append({"turn": f"{t.round}.{t.seat}", "seat": t.seat,
                        "actions": list(t.actions), "forfeit": t.forfeit, "events": told})
    return entries


def log_fields(entries: list[State], log_key: str, held: tuple[str, int] | None) -> State:
    """The log (``entries``: `log_entries` of every turn) from turn ``log_from`` on:
    the last turn the page holds (``held``: its ``(log_key, turns held)``), which may
    have grown; whole if the key changed."""
    start = 0
    if held is not None and held[0] == log_key:
        start = max(0, min(held[1], len(entries)) - 1)
    return {"log_key": log_key, "log_from": start, "log": entries[start:]}


# -- the rules help: each kind of piece's moves on a small patch of the board -------
# A red piece stands alone on the standard board (its army's knights have made three
# captures, so a King or Queen is not held in its kingdom, R19); the engine's own move
# generation (Game.legal_actions) says where its first leg can end and,
# for the pieces that move twice (King and Queen R18, Hospitaller R14, royal knight R17),
# where the move can end after the second leg. The patch is the cells within
# PATCH_RADIUS of the piece, drawn with the board's real geometry, colours,
# kingdoms and centre (victorus.geometry.plane), seen from red's side (R6);
# the piece is victorus.render.render_layers' own shield.

#: The piece's cell (grey, on the battlefield, the centre three steps away) and the
#: patch drawn around it (37 cells).
RULES_CELL, PATCH_RADIUS = "h9", 3
#: A hex's radius in the patch's SVG units (the page scales the picture).
PATCH_SIZE = 14.0
FIRST_MARK, ENDS_MARK = "#00a844", "#0b3d91"

#: (name, the piece's VPN code on the grey cell, what it does in words): R11-R14, R17-R19.
RULES_PIECES = (
    ("King", "0K", "two legs, both required: the first ends on the other colour, the "
                   "second on that same colour, so the move ends on the colour opposite "
                   "to where it began. Until its army's knights have made three captures, "
                   "it stays in its own kingdom."),
    ("Queen", "0Q", "moves as the King: two legs ending on the other colour; held in its "
                    "kingdom until its army's knights have made three captures."),
    ("Templar", "0Tb", "slides up and down its file and straight sideways, or steps to a "
                       "neighbour of its colour."),
    ("Teutonic", "0Ub", "slides along the four diagonals, or steps to a neighbour of its "
                        "colour."),
    ("Byzantine", "0Bb", "slides along the six spokes (between two cells), or steps to a "
                         "neighbour of its colour."),
    ("Excalibur", "0Xb", "slides in the six edge directions and straight sideways."),
    ("Hospitaller", "0Hb", "travels along a spoke to an empty cell of its colour, then "
                           "must pivot one step to a neighbour of that colour, capturing "
                           "there if an enemy stands on it. Never promoted."),
    ("Royal knight", "0Tb+", "a promoted knight (a royal Templar here): two legs, both "
                             "ending on its colour, or stop after the first."),
)


def _lone(code: str) -> Game:
    """The red piece ``code`` alone on `RULES_CELL`, red to act, three knight captures."""
    king = "0" if code == "0K" else "-"
    queen = "0" if code == "0Q" else "-"
    armies = [f"a,3,,{king},{queen}"] + ["a,0,,-,-"] * 5
    return Game.from_vpn(f"standard {RULES_CELL}:{code} 0 {'/'.join(armies)} 1 standard")


def piece_reach(code: str) -> tuple[list[str], list[str]]:
    """The cells where the lone piece's first leg can end, and where its move can end
    after a second leg (none for a one-leg piece), by the engine's legal actions."""
    game = _lone(code)
    labels = game.board.labels
    first: set[str] = set()
    ends: set[str] = set()
    for action in game.legal_actions():
        if not action.is_leg:
            continue
        first.add(labels[action.target])
        after = game.copy()
        after.play(action)
        if after.phase == "move":
            ends.update(labels[a.target] for a in after.legal_actions() if a.is_leg)
    order = game.board.index_of_label
    return sorted(first, key=order.__getitem__), sorted(ends, key=order.__getitem__)


def _patch(board: Board) -> list[int]:
    q0, r0 = board.coords[board.cell(RULES_CELL)]
    return [i for i, (q, r) in enumerate(board.coords)
            if hex_distance(q - q0, r - r0) <= PATCH_RADIUS]


def _centre(board: Board, i: int) -> tuple[float, float]:
    x, y = plane(*board.coords[i])               # R1, Y up; the picture's Y goes down
    return PATCH_SIZE * x, -PATCH_SIZE * y


def _hexagon(x: float, y: float, radius: float) -> str:
    corners = [(1, 0), (0.5, 0.866), (-0.5, 0.866), (-1, 0), (-0.5, -0.866), (0.5, -0.866)]
    return " ".join(f"{x + radius * a:.1f},{y + radius * b:.1f}" for a, b in corners)


def patch_svg(code: str, first: Collection[str], ends: Collection[str]) -> str:
    """The SVG of the patch: cells in their colours (kingdoms tinted), the piece, a
    green dot where the first leg can end, a blue ring where the move can end."""
    board = Board("standard")
    cells = _patch(board)
    xs, ys = zip(*(_centre(board, i) for i in cells))
    pad = PATCH_SIZE * 1.1
    box = f"{min(xs) - pad:.1f} {min(ys) - pad:.1f} {max(xs) - min(xs) + 2 * pad:.1f} " \
          f"{max(ys) - min(ys) + 2 * pad:.1f}"
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="{box}" role="img">']
    for i in cells:
        x, y = _centre(board, i)
        label, owner = board.labels[i], board.kingdoms[i]
        kind = "centre" if board.colors[i] == CENTRE else board.color(label)
        classes = " ".join(["patch-cell"] + (["first"] if label in first else []) +
                           (["end"] if label in ends else []))
        out.append(f'<polygon class="{classes}" data-cell="{label}" data-color="{kind}" '
                   f'points="{_hexagon(x, y, PATCH_SIZE)}" fill="{CELL_FILL[board.colors[i]]}" '
                   f'stroke="#666" stroke-width="0.6"/>')
        if owner is not None:
            out.append(f'<polygon points="{_hexagon(x, y, PATCH_SIZE)}" fill="{SEAT_COLORS[owner]}" '
                       f'fill-opacity="0.22"/>')
    for i in cells:
        x, y = _centre(board, i)
        if board.labels[i] in ends:
            out.append(f'<polygon points="{_hexagon(x, y, PATCH_SIZE * 0.78)}" fill="none" '
                       f'stroke="{ENDS_MARK}" stroke-width="2.2"/>')
        if board.labels[i] in first:
            out.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{PATCH_SIZE * 0.3:.1f}" '
                       f'fill="{FIRST_MARK}"/>')
    _, piece = render_layers(_lone(code), size=PATCH_SIZE, last_move=False)
    out += [piece, "</svg>"]
    return "\n".join(out)


def rules_panels() -> list[State]:
    """One panel per kind of piece: ``name``, ``code``, ``cell``, ``words``, ``first``
    and ``ends`` (cell labels, in the patch or beyond it) and ``svg`` (the patch)."""
    out = []
    for name, code, words in RULES_PIECES:
        first, ends = piece_reach(code)
        out.append({"name": name, "code": code, "cell": RULES_CELL, "words": words,
                    "first": first, "ends": ends, "svg": patch_svg(code, first, ends)})
    return out


def meta() -> State:
    """What the page needs besides the game: seat names, colours and marks (the pieces'
    army marks, SVG paths), the seats present for each number of players (R33), the
    agents offered on the page, the teams (R33: per number of players, and the allied
    variant's), and how many board frames it may hold."""
    return {"seat_names": list(SEAT_NAMES), "seat_colors": list(SEAT_COLORS),
            "army_marks": list(ARMY_MARKS), "army_mark_names": list(ARMY_MARK_NAMES),
            "present_seats": {n: list(seats) for n, seats in PRESENT_SEATS.items()},
            "agents": list(PAGE_AGENTS), "frames_held": MAX_FRAMES_HELD,
            "team_groups": {n: [list(g) for g in groups] for n, groups in TEAM_GROUPS.items()},
            "allied_groups": [list(g) for g in ALLIED_GROUPS]}


def turn_starts(game: Game, clock: bool) -> tuple[list[str], list[list[object]]]:
    """``game``'s actions (R38 texts) and each turn's start as ``[actions before it, its
    VPN]``, replayed from the game's start (the analysis board's record: it draws a turn's
    start at once from its VPN); ``clock``: the game was played on a clock.

    Args:
        game: The game.
        clock: The game was played on a clock (a pass may be a forfeit).

    Returns:
        The actions and the turns' starts.
    """
    replay, actions, starts = record.starting_game(game), list[str](), list[list[object]]()
    for action in game.history():
        if replay.phase == "start" and not replay.is_over:
            starts.append([len(actions), replay.vpn()])
        replay_action(replay, action.text, clock)
        actions.append(action.text)
    if replay.phase == "start" and not replay.is_over:
        starts.append([len(actions), replay.vpn()])
    return actions, starts
