"""Test helpers: build core positions from cell labels (R9)."""

from __future__ import annotations

import importlib.util
import json
import os
import threading
import urllib.error
import urllib.request
from contextlib import contextmanager
from pathlib import Path

from victorus._core import Position
from victorus._reference import ReferencePosition
from victorus.geometry import DIRECTION_NAMES, Board

#: The shared rules contract (RULES.md, PERFT.md, board SVGs) beside the checkout.
SPEC_DIR = Path(os.environ.get("VICTORUS_SPEC_DIR",
                               Path(__file__).resolve().parents[2] / "shared" / "spec"))


def dirmask(*names: str) -> int:
    """Bit mask of direction names (R4), e.g. dirmask("E90", "V0")."""
    mask = 0
    for name in names:
        mask |= 1 << DIRECTION_NAMES.index(name)
    return mask


def build(board_name: str, pieces: dict[str, int], teams=(0, 1, 2, 3, 4, 5), live=0x3F):
    """A core Position with ``{label: army}`` pieces."""
    board = Board(board_name)
    pos = Position(board.tables, teams, live)
    for label, army in pieces.items():
        pos.put(board.cell(label), army)
    return board, pos


def labels(board: Board, cells) -> set[str]:
    return {board.labels[c] for c in cells}


@contextmanager
def serving(table, worker=True):
    """A ``victorus serve`` server for ``table`` on a free loopback port, in a thread;
    ``worker=False``: no agents' thread (the test steps it with ``srv.work()``)."""
    from victorus.page.server import Server
    srv = Server(table, port=0, worker=worker)
    threading.Thread(target=srv.serve_forever, kwargs={"poll_interval": 0.05},
                     daemon=True).start()
    try:
        yield srv
    finally:
        srv.shutdown()
        srv.server_close()


def call(srv, path, body=None, tab=None):
    """One request to a ``serving`` server's API: (HTTP status, the JSON answer); a POST
    of ``body`` when it is given, naming the page's ``tab`` (X-Victorus-Tab) when given."""
    data = None if body is None else json.dumps(body).encode()
    headers = {} if tab is None else {"X-Victorus-Tab": tab}
    request = urllib.request.Request(srv.url.rstrip("/") + path, data=data, headers=headers,
                                     method="GET" if data is None else "POST")
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())


def settled(srv, path):
    """The answer of GET ``path`` once it is no longer ``running`` (a review, an analysis):
    polled, with a bound of two minutes that fails the test rather than waits for ever."""
    import time
    deadline = time.monotonic() + 120
    while (state := call(srv, path)[1])["status"] == "running":
        assert time.monotonic() < deadline, state
        time.sleep(0.05)
    return state


def load_tool(name: str):
    """The module of ``tools/<name>.py`` (the repository's scripts, not a package)."""
    path = Path(__file__).resolve().parents[1] / "tools" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


#: Every configuration (R33, R37): both boards, 2-6 players, standard and quick, allied.
ALL_CONFIGS = [(b, p, v) for b in ("standard", "compact") for p in (2, 3, 4, 5, 6)
               for v in ("standard", "quick12")] + \
              [(b, 6, v) for b in ("standard", "compact") for v in ("allied", "allied+quick8")]
#: One of each board, player count, quick limit and allied, for the slower tests.
SOME_CONFIGS = [("standard", 6, "standard"), ("compact", 2, "quick12"), ("compact", 3, "standard"),
                ("standard", 4, "quick20"), ("compact", 5, "standard"), ("compact", 6, "allied"),
                ("standard", 6, "allied+quick8")]


def config_id(config) -> str:
    """A test id that says what the configuration is: 'compact-2p-quick12'."""
    board, players, variant = config
    return f"{board}-{players}p-{variant}"


__all__ = ["ALL_CONFIGS", "ReferencePosition", "SOME_CONFIGS", "SPEC_DIR", "build", "config_id",
           "dirmask", "labels", "load_tool", "serving"]


def position(pieces: dict[str, str], to_move: int = 0, board: str = "standard",
             armies: dict[int, str] | None = None, laps: dict[str, int] | None = None,
             round_text: str = "1", variant: str = "standard") -> str:
    """A VPN (R39) from ``{label: "<seat><piece>"}``; royals get laps 0 unless given.

    ``armies`` overrides whole army entries ``"<state>,<caps>,<held>"`` (laps are added).
    """
    from victorus.geometry import Board as _Board

    b = _Board(board)
    laps = laps or {}
    placed = sorted(pieces.items(), key=lambda kv: b.cell(kv[0]))
    placement = ",".join(f"{lab}:{code}" for lab, code in placed) or "-"
    royal_laps = {}
    for lab, code in pieces.items():
        if code[1:] in ("K", "Q"):
            royal_laps[(int(code[0]), code[1])] = laps.get(lab, 0)
    players = 6
    for part in variant.split("+"):
        if part.startswith("players"):
            players = int(part[7:])
    present = {6: range(6), 5: range(5), 4: (0, 1, 3, 4), 3: range(6), 2: range(6)}[players]
    fields = []
    for seat in range(6):
        base = (armies or {}).get(seat, "a,0," if seat in present else "x,0,")
        k = royal_laps.get((seat, "K"), "-")
        q = royal_laps.get((seat, "Q"), "-")
        fields.append(f"{base},{k},{q}")
    return f"{board} {placement} {to_move} {'/'.join(fields)} {round_text} {variant}"


def actions(game) -> set[str]:
    return {str(a) for a in game.legal_actions()}


def view(game):
    """(cells, armies, turn, result) of a Game or a ReferenceGame."""
    return game._view()


def occupancy(game):
    """Per-army occupied cells and live kingdoms, as the bitboards see them."""
    core = getattr(game, "_engine", None) or game._core
    return tuple(core.occupied(a) for a in range(6)), core.live


def fingerprint(game):
    """Everything that defines a game's state (for exact undo/copy checks)."""
    cells, armies, turn, result = view(game)
    return tuple(cells), tuple(armies), turn, result, occupancy(game)
