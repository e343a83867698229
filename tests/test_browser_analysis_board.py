"""The analysis board as a lichess player uses it, in headless Chromium (Playwright): a
picked piece's legal destinations, a move drawn before the server answers, the game's moves
as the main line with variations beside them (promoted, deleted), the engine's top lines
with their chances, a link that opens the position it names, and a record pasted. Tests
wait for what the page shows, never for a time."""

import math
import threading
from urllib.parse import urlencode

import pytest

import test_browser
import victorus
from helpers import position, serving
from test_browser import TIMEOUT_MS
from victorus import record
from victorus.geometry import SEAT_NAMES
from victorus.page.analysis import Analysis
from victorus.page.page_state import placement
from victorus.page.server import PERSON, Table

pytestmark = pytest.mark.browser
browser = test_browser.browser          # the same Chromium fixture (skipped without one)

# The standard board: red's Templar on i6 and blue's on i20, red to act.
APART = position({"i6": "0Tw", "i20": "1Tb"}, to_move=0)
#: Three turns of a compact two-team game: red, blue, black; green then acts.
OPENING = ("g6-g10", "d13-f15", "d17-f17")


@pytest.fixture
def board(browser):
    """board(actions, path): a compact two-army table (every seat a person) with
    ``actions`` played, served, and a page of it at ``path`` (no script error at the end)."""
    pages, servers = [], []

    def open_page(actions=(), path="", board="compact", players=2):
        table = Table(board, players, seats=[PERSON] * 6, agent_delay=0)
        table.analysis = Analysis(seconds=0.3, seed=1)
        for text in actions:
            table.play(text)
        srv = serving(table, worker=False)
        servers.append(srv)
        server = srv.__enter__()
        page = browser.new_page(viewport={"width": 1400, "height": 900})
        page.set_default_timeout(TIMEOUT_MS)
        errors = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(server.url + path)
        page.wait_for_selector("#board svg", state="attached")    # (hidden under a board opened)
        pages.append((page, errors))
        return page, server
    yield open_page
    for page, errors in pages:
        page.close()
        assert errors == []
    for srv in servers:
        srv.__exit__(None, None, None)


def status_starts(page, words):
    page.wait_for_function("w => document.querySelector('#ab-status').textContent.startsWith(w)",
                           arg=words)


def texts(page, selector):
    return page.eval_on_selector_all(selector, "es => es.map(e => e.textContent)")


def moves(page):
    return page.eval_on_selector_all("#ab-moves .ab-node", "bs => bs.map(b => b.textContent)")


def shows(page, expected, at=None, aside=None):
    """Wait until the move list (drawn once the board's frame is painted) is ``expected``,
    the node shown ``at`` and the variations' moves ``aside`` (when given)."""
    page.wait_for_function("""([expected, at, aside]) => {
        const words = (sel) => [...document.querySelectorAll(sel)].map(b => b.textContent);
        const shown = document.querySelector('#ab-moves .ab-node.current');
        return JSON.stringify(words('#ab-moves .ab-node')) === JSON.stringify(expected)
          && (at === null || (shown !== null && shown.textContent === at))
          && (aside === null || JSON.stringify(words('#ab-moves .ab-variation .ab-node'))
                                === JSON.stringify(aside)); }""", arg=[expected, at, aside])
    return True


def piece_cells(page):
    return page.eval_on_selector_all("#ab-board .piece", "ps => ps.map(p => p.dataset.cell).sort()")


def test_a_picked_piece_shows_its_destinations_and_a_move_is_drawn_before_the_server_answers(board):
    page, server = board()
    page.keyboard.press("v")
    status_starts(page, "red to act")
    assert page.is_hidden("#board svg")       # (the game's board under it: not painted nor tabbed to)
    page.click('#ab-board .cell[data-cell="g6"]')
    legal = [a.text for a in victorus.Game("compact", 2).legal_actions()]
    expected = sorted(t.split("-")[1] for t in legal if t.startswith("g6-"))
    page.wait_for_selector("#ab-board .cell.target")
    assert page.eval_on_selector_all("#ab-board .cell.target",
                                     "cs => cs.map(c => c.dataset.cell).sort()") == expected
    # a cell not among them drops the pick, and nothing is played
    page.click('#ab-board .cell[data-cell="g14"]')
    assert page.eval_on_selector_all("#ab-board .cell.target", "cs => cs.length") == 0
    assert shows(page, ["start"])
    # the server's answer held back: the move is on the board all the same
    gate, analyse = threading.Event(), server.table.analyse

    def held(*args):
        assert gate.wait(TIMEOUT_MS / 1000)
        return analyse(*args)
    server.table.analyse = held
    page.click('#ab-board .cell[data-cell="g6"]')
    page.click('#ab-board .cell[data-cell="g10"]')
    page.wait_for_selector('#ab-board .piece[data-cell="g10"]')
    assert page.query_selector('#ab-board .piece[data-cell="g6"]') is None
    assert shows(page, ["start", "g6-g10"], "g6-g10")
    page.wait_for_function("() => document.querySelector('#ab-status').textContent === 'analysing...'")
    assert page.evaluate("() => victorus.st.board.at.position.provisional")   # (not answered)
    gate.set()
    status_starts(page, "blue to act, round 1, start of the turn")    # the server's position
    assert page.evaluate("() => victorus.st.board.at.position.source.moves") == ["g6-g10"]


def test_the_game_s_moves_are_the_main_line_and_variations_are_promoted_and_deleted(board):
    page, server = board(OPENING)
    page.keyboard.press("v")
    status_starts(page, f"{SEAT_NAMES[3]} to act")
    assert shows(page, ["start", *OPENING], OPENING[-1])
    assert page.eval_on_selector_all("#ab-moves .ab-node.game", "bs => bs.length") == 3
    page.click('#ab-moves .ab-node[data-node="1"]')           # after g6-g10: blue to act
    status_starts(page, "blue to act")
    page.click('#ab-board .cell[data-cell="e8"]')
    target = page.eval_on_selector("#ab-board .cell.target", "c => c.dataset.cell")
    page.click(f'#ab-board .cell[data-cell="{target}"]')
    variation = f"e8-{target}"
    status_starts(page, f"{SEAT_NAMES[2]} to act")
    assert shows(page, ["start", "g6-g10", "d13-f15", variation, "d17-f17"], variation, [variation])
    aside = "#ab-moves .ab-variation .ab-node"
    # promoted: it continues the line, the game's moves beside it
    page.click("#ab-promote")
    assert shows(page, ["start", "g6-g10", variation, "d13-f15", "d17-f17"], variation,
                 ["d13-f15", "d17-f17"])
    page.wait_for_selector("#ab-promote:disabled")
    page.click(f'{aside}:text-is("d17-f17")')                   # the game's move, now aside
    status_starts(page, f"{SEAT_NAMES[3]} to act")
    page.click("#ab-promote")                                   # back as the main line
    assert shows(page, ["start", "g6-g10", "d13-f15", variation, "d17-f17"], "d17-f17",
                 [variation])
    # deleted: gone from the tree, the board back at the move before it
    page.click(f'{aside}:text-is("{variation}")')
    status_starts(page, f"{SEAT_NAMES[2]} to act")
    page.click("#ab-delete")
    assert shows(page, ["start", *OPENING], "g6-g10", [])
    status_starts(page, "blue to act")
    assert [a.text for a in server.table.game.history()] == list(OPENING)   # the game as it was


def test_the_engine_s_top_lines_are_shown_with_their_chances(board):
    page, _ = board()
    page.keyboard.press("v")
    page.wait_for_function("() => /^done/.test(document.querySelector('#ab-engine').textContent)")
    lines = page.evaluate("() => victorus.st.board.found.lines")
    assert 1 <= len(lines) <= 3
    page.wait_for_selector("#ab-lines .ab-line")
    assert texts(page, "#ab-lines .ab-line") == [
        f"{math.floor(100 * entry['chance'] + 0.5)}% {' '.join(entry['line'])}"   # (Math.round)
        for entry in lines]
    page.click("#ab-lines .ab-line")                           # its first action played
    assert shows(page, ["start", lines[0]["action"]], lines[0]["action"])


def test_a_link_opens_the_position_it_names(board):
    page, server = board(path=f"?{urlencode({'vpn': APART, 'moves': 'i6-i2'})}", board="standard",
                         players=6)
    page.wait_for_selector("#analysis-board:not([hidden])")
    status_starts(page, "blue to act")
    assert piece_cells(page) == ["i2", "i20"] and shows(page, ["start", "i6-i2"], "i6-i2")
    assert page.input_value("#ab-link") == f"{server.url}?{urlencode({'vpn': APART, 'moves': 'i6-i2'})}"
    # the game shown at an action: its moves the main line, the board at that action
    page, server = board(OPENING, path="?at=1")
    page.wait_for_selector("#analysis-board:not([hidden])")
    status_starts(page, "blue to act")
    assert shows(page, ["start", *OPENING], "g6-g10")
    assert page.input_value("#ab-link") == f"{server.url}?at=1"
    game = victorus.Game("compact", 2)
    game.play("g6-g10")
    assert page.evaluate("() => victorus.st.board.at.position.placement") == placement(game)
    assert piece_cells(page) == sorted(c.split(":")[0] for c in placement(game).split(","))
    # a bad link: said in one line, no board opened
    page, _ = board(path="?at=first")
    page.wait_for_function("() => document.querySelector('#error').textContent !== ''")
    assert page.inner_text("#error") == ("the link's 'at' must be a number of actions of the "
                                         "game shown, got \"first\"")
    assert page.is_hidden("#analysis-board")


def test_a_pasted_record_opens_with_its_moves_and_a_bad_one_loses_nothing(board):
    page, server = board(OPENING)
    page.keyboard.press("v")
    status_starts(page, f"{SEAT_NAMES[3]} to act")
    before = moves(page)
    page.fill("#ab-record-in", "victorus record\nnot a header")
    page.click("#ab-record button")
    page.wait_for_function("() => document.querySelector('#ab-record-error').textContent !== ''")
    error = page.inner_text("#ab-record-error")
    assert error.startswith("that record cannot be read: record line 1") and "\n" not in error
    assert moves(page) == before and page.input_value("#ab-record-in").endswith("not a header")
    game = victorus.Game("compact", 2)
    victorus.play_random(game, seed=5, max_actions=12)
    texts_played = [a.text for a in game.history()]
    page.fill("#ab-record-in", record.dumps(game))
    page.click("#ab-record button")
    page.wait_for_function("n => document.querySelectorAll('#ab-moves .ab-node').length === n",
                           arg=len(texts_played) + 1)
    assert shows(page, ["start", *texts_played], texts_played[-1])
    assert page.inner_text("#ab-record-error") == ""
    page.wait_for_function("p => victorus.st.board.at.position?.placement === p "
                           "&& !victorus.st.board.at.position.provisional", arg=placement(game))
    # back along the record, the server held back: the board drawn at once all the same
    # (each turn's start from its VPN, the actions since applied on the page)
    gate, analyse = threading.Event(), server.table.analyse

    def held(*args):
        assert gate.wait(TIMEOUT_MS / 1000)
        return analyse(*args)
    server.table.analyse = held
    first = victorus.Game("compact", 2)
    first.play(texts_played[0])
    page.click('#ab-moves .ab-node[data-node="1"]')
    assert piece_cells(page) == sorted(c.split(":")[0] for c in placement(first).split(","))
    assert page.evaluate("() => victorus.st.board.at.position.provisional")   # (not answered)
    gate.set()
    page.wait_for_function("p => victorus.st.board.at.position?.placement === p "
                           "&& !victorus.st.board.at.position.provisional", arg=placement(first))
