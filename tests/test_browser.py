"""victorus serve in a real browser: headless Chromium driven by Playwright.

The tests read the page as a person would: they click pieces and cells, buttons
and forms, and read the status, the log and the position shown. Chromium comes
from the system (``.ci/run`` installs Debian's ``chromium``); without it these
tests are skipped, unless ``VICTORUS_REQUIRE_BROWSER=1`` (as in CI) makes that
a failure. Screenshots go to ``artifacts/`` (or ``$VICTORUS_ARTIFACTS``).
"""

import os
import shutil
from pathlib import Path

import pytest

import victorus
from helpers import serving
from victorus import record
from victorus.page.server import PERSON, Table

pytestmark = pytest.mark.browser

ARTIFACTS = Path(os.environ.get("VICTORUS_ARTIFACTS",
                                Path(__file__).resolve().parents[1] / "artifacts"))
BROWSERS = ("chromium", "chromium-browser", "google-chrome", "chromium-headless-shell")
TIMEOUT_MS = 60_000


def _chromium():
    path = os.environ.get("VICTORUS_CHROMIUM") or next(
        (p for p in map(shutil.which, BROWSERS) if p), None)
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        path = None
    if path is None and os.environ.get("VICTORUS_REQUIRE_BROWSER") == "1":
        pytest.fail("VICTORUS_REQUIRE_BROWSER=1 but Chromium or Playwright is missing "
                    "(apt-get install chromium; pip install playwright)")
    if path is None:
        pytest.skip("no Chromium (apt-get install chromium) or no Playwright")
    return path


@pytest.fixture(scope="module")
def browser():
    executable = _chromium()
    from playwright.sync_api import sync_playwright
    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=executable, args=["--no-sandbox"])
        yield chromium
        chromium.close()


@pytest.fixture
def server():
    with serving(Table("compact", 2, seats=[PERSON] + ["greedy"] * 5, agent_delay=0)) as srv:
        yield srv


@pytest.fixture
def page(browser, server):
    page = browser.new_page(viewport={"width": 1500, "height": 1000})
    page.set_default_timeout(TIMEOUT_MS)
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(server.url)
    page.wait_for_selector("#board svg")
    yield page
    page.close()
    assert errors == []                       # no script error on the page


def screenshot(page, name, full_page=False):
    """A picture of the page in ARTIFACTS (CI keeps them), to look at."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / name), full_page=full_page)


def new_game(page, players="2", variant="quick2", agent="greedy", time_limit="", board="compact",
             you="0", delay="0", whole_team=False):
    """Start a game from the form and wait until the page shows it (a newer state
    version than before: the fixture's game also says 'new game'); ``whole_team``: the
    person plays every army of the seat's team (the form's default), else that one."""
    before = page.evaluate("() => S.version")
    page.select_option("#new-board", board)
    page.select_option("#new-players", players)
    page.fill("#new-variant", variant)
    page.select_option("#new-you", you)
    page.set_checked("#new-team", whole_team)
    page.select_option("#new-agent", agent)
    page.fill("#new-time-limit", time_limit)
    page.fill("#new-agent-delay", delay)
    page.click("#new-button")
    page.wait_for_function(f"() => S.version > {before}")


def actions_logged(page) -> int:
    return page.eval_on_selector_all("#log .act", "els => els.length")


READY = """() => document.querySelector('#status').textContent.startsWith('Game over')
    || document.querySelector('.cell.origin') !== null
    || [...document.querySelectorAll('#stop, #end, #pass')].some(b => !b.disabled)"""


def test_a_whole_game_against_an_agent_played_by_clicks(page, server):
    new_game(page)
    clicks = 0
    while True:
        page.wait_for_function(READY)
        if page.inner_text("#status").startswith("Game over"):
            break
        logged = actions_logged(page)
        if page.query_selector(".cell.target") is None and page.query_selector(".cell.origin"):
            page.click(".cell.origin")             # pick a piece: its destinations light up
            continue                               # and look again at what the page shows
        # A destination, or only words are legal: end (bonus), stop or pass.
        page.click(".cell.target, #end:not([disabled]), #pass:not([disabled]), "
                   "#stop:not([disabled])")
        clicks += 1
        page.wait_for_function(f"() => document.querySelectorAll('#log .act').length > {logged}"
                               " || document.querySelector('#error').textContent !== ''")
        assert page.inner_text("#error") == ""
    status = page.inner_text("#status")
    game = server.table.game
    assert game.is_over and clicks >= 2
    assert page.is_disabled("#undo")                 # nothing to take back after the end
    assert status.startswith(f"Game over ({game.result_reason})")
    turns = page.eval_on_selector_all("#log li", "els => els.map(e => [...e.querySelectorAll("
                                      "'.turn-id, .act')].map(x => x.textContent).join(' '))")
    assert [t.split() for t in turns] == [str(t).split() for t in record.turn_lines(game)]
    assert any(t.startswith("1.0") for t in turns) and any(t.startswith("2.0") for t in turns)
    screenshot(page, "serve-game-over.png", full_page=True)


def test_an_illegal_click_changes_nothing(page, server):
    new_game(page)
    page.wait_for_selector(".cell.origin")
    before = (page.inner_text("#status"), page.text_content("#placement"),
              page.inner_text("#log"))
    page.click('.cell[data-cell="g10"]')           # empty, and no piece picked
    page.wait_for_function("() => document.querySelector('#error').textContent.includes("
                           "'no legal leg starts on g10')")
    page.click('.cell[data-cell="g6"]')            # pick the Templar on g6 ...
    page.wait_for_selector('.cell[data-cell="g6"].selected')
    assert page.get_attribute('.cell[data-cell="g6"]', "class") == "cell origin selected"
    targets = page.eval_on_selector_all(".cell.target", "els => els.map(e => e.dataset.cell)")
    assert "g12" not in targets
    page.click('.cell[data-cell="g12"]')           # ... and a cell it cannot reach
    page.wait_for_function("() => document.querySelector('#error').textContent.includes("
                           "'is not legal')")
    assert "'g6-g12' is not legal for red (seat 0, start phase)" in page.inner_text("#error")
    assert (page.inner_text("#status"), page.text_content("#placement"),
            page.inner_text("#log")) == before
    assert server.table.game.history() == []
    screenshot(page, "serve-illegal-click.png")


def test_a_turn_not_started_in_time_is_forfeited(page, server):
    new_game(page, variant="standard", agent="random", time_limit="1")
    page.wait_for_function("() => document.querySelector('#clock').textContent"
                           ".includes('s to start the turn')")
    page.wait_for_selector("#log .forfeit")
    screenshot(page, "serve-forfeit.png")
    first = page.inner_text("#log li:first-child")
    assert first.split() == ["1.0", "pass", "(forfeited", "on", "time)"]
    text = server.table.record_text()
    assert "time-limit: 1\n" in text and "\n1.0 pass\n" in text


def test_a_replay_steps_to_the_recorded_final_position(page, server, tmp_path):
    game = victorus.Game("compact", players=2, variant="quick3")
    victorus.play_random(game, seed=3)
    assert game.is_over
    path = tmp_path / "game.vrec"
    record.save(game, path)
    total = len(game.history())
    page.set_input_files("#record-file", str(path))
    page.click("#record-button")
    page.wait_for_selector("#watch-controls:not([hidden])")
    assert page.inner_text("#watch-position") == f"record: action 0 of {total}"
    start = victorus.Game("compact", players=2, variant="quick3").vpn()
    assert page.text_content("#vpn") == start
    page.click("#last")
    page.wait_for_function(f"() => document.querySelector('#watch-position').textContent"
                           f".endsWith('action {total} of {total}')")
    placement = ",".join(f"{lab}:{game.piece_at(lab)}" for lab in game.board.labels
                         if game.piece_at(lab))
    assert page.text_content("#placement") == placement
    assert page.inner_text("#status").startswith(f"Game over ({game.result_reason})")
    at = "() => document.querySelector('#watch-position').textContent.endsWith('action {} of {}')"
    page.click("#prev")
    page.wait_for_function(at.format(total - 1, total))
    page.keyboard.press("ArrowRight")                # the arrow keys step too
    page.wait_for_function(at.format(total, total))
    page.keyboard.press("ArrowLeft")
    page.wait_for_function(at.format(total - 1, total))
    assert not page.inner_text("#status").startswith("Game over")
    # The view turns to any seat (the rulebook's rotating board).
    svg = page.inner_html("#board")
    page.select_option("#view", "3")
    page.wait_for_function("() => document.querySelector('#board').innerHTML !== "
                           + repr(svg).replace("\n", "\\n"))
    screenshot(page, "serve-replay.png", full_page=True)
    # Playback at a chosen speed runs from the start to the end.
    page.click("#first")
    page.wait_for_function("() => document.querySelector('#watch-position').textContent"
                           ".endsWith('action 0 of " + str(total) + "')")
    page.select_option("#speed", "100")
    page.click("#playback")
    page.wait_for_function(f"() => document.querySelector('#watch-position').textContent"
                           f".endsWith('action {total} of {total}')")
    assert page.text_content("#placement") == placement


def test_the_window_never_scrolls_while_agents_play(browser, server):
    # The log follows the game inside its own box; the page itself stays put.
    page = browser.new_page(viewport={"width": 1280, "height": 720})
    page.goto(server.url)
    page.wait_for_selector("#board svg")
    new_game(page, players="6", variant="standard", agent="random", board="standard",
             you="none", delay="0.02")
    positions = set()
    while actions_logged(page) < 80:               # the log overflows its box
        positions.add(page.evaluate("() => window.scrollY"))
        page.wait_for_timeout(50)
    screenshot(page, "serve-agents-playing.png")
    positions.add(page.evaluate("() => window.scrollY"))
    assert positions == {0}
    assert page.evaluate("() => document.querySelector('#log').scrollTop") > 0
    page.close()


def test_a_person_at_an_absent_seat_is_refused(page, server):
    before = page.evaluate("() => S.version")
    page.select_option("#new-board", "standard")
    page.select_option("#new-players", "4")          # black and orange sit out (R33)
    page.fill("#new-variant", "standard")
    offered = page.eval_on_selector_all("#new-you option:not([disabled])",
                                        "els => els.map(e => e.textContent)")
    assert offered == ["red", "blue", "green", "purple", "nobody"]   # only the seats present
    page.eval_on_selector("#new-you", "e => { [...e.options].find(o => o.value === '2')"
                                      ".disabled = false; e.value = '2'; }")
    page.click("#new-button")                        # (forced: the server refuses it too)
    page.wait_for_function("() => document.querySelector('#error').textContent !== ''")
    assert page.inner_text("#error") == ("black (seat 2) is not in this game; a person can "
                                         "play red, blue, green, purple")
    assert page.evaluate("() => S.version") == before and server.table.game.config.players == 2


def watch_centre_game(page):
    """Watch simulation game 3 of seed 0 (compact, 2 players, 642 actions): it ends with a
    royal entering the centre (R28)."""
    page.select_option("#new-board", "compact")
    page.select_option("#new-players", "2")
    page.fill("#new-variant", "standard")
    page.fill("#sim-seed", "0")
    page.fill("#sim-index", "3")
    page.click("#sim-button")
    page.wait_for_selector("#watch-controls:not([hidden])")


def test_the_king_that_conquers_the_centre_is_shown_there(page, server):
    # The final position shows the conqueror on i14, where it won.
    watch_centre_game(page)
    page.click("#last")
    page.wait_for_function("() => document.querySelector('#status').textContent"
                           ".startsWith('Game over (centre)')")
    assert page.query_selector('.cell[data-cell="i14"][data-army]') is not None
    screenshot(page, "serve-centre.png")


def test_a_double_click_on_a_destination_plays_the_leg_once(page, server):
    new_game(page)
    plays = []
    page.on("request", lambda r: plays.append(r) if r.url.endswith("/api/play") else None)
    page.click('.cell[data-cell="g6"]')
    page.wait_for_selector('.cell[data-cell="g10"].target')
    page.dblclick('.cell[data-cell="g10"]')
    page.wait_for_function("() => document.querySelectorAll('#log .act').length >= 1")
    assert len(plays) == 1 and page.inner_text("#error") == ""
    assert [str(a) for a in server.table.game.history()][:1] == ["g6-g10"]


def test_a_server_error_goes_away_when_the_server_answers_again(page, server):
    page.route("**/api/state*", lambda route: route.abort())
    # a new game comes without a delta on the socket: the page asks for the state (and
    # ends any request already waiting)
    server.table.new_game("compact", 2, seats=[PERSON] + ["greedy"] * 5, agent_delay=0)
    page.wait_for_function("() => document.body.classList.contains('offline')")
    assert page.inner_text("#notice").startswith("The server is not answering")
    page.unroute("**/api/state*")
    page.wait_for_function("() => !document.body.classList.contains('offline')")
    assert page.inner_text("#notice") == ""


def test_playback_steps_without_rebuilding_the_log(page, server):
    # Each step only moves the log's mark: the entries stay the same elements (the rebuild
    # of a long game's log made playback at 20 actions/s run at about 2).
    watch_centre_game(page)
    page.evaluate("() => { window.firstEntry = document.querySelector('#log .act'); }")
    for index in (1, 2, 3):
        page.click("#next")
        page.wait_for_function(f"() => S.watch.index === {index}")
        assert page.evaluate("() => document.querySelector('#log .act') === window.firstEntry")
        assert page.eval_on_selector_all("#log .act.current", "els => els.map(e => e.dataset.index)"
                                         ) == [str(index)]


BOX = "e => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; }"


@pytest.mark.parametrize("width, height", [(1280, 720), (1400, 900)])
def test_the_whole_board_fits_the_window(browser, server, width, height):
    # Height and width: the player's own army (at the bottom) is in view without scrolling.
    page = browser.new_page(viewport={"width": width, "height": height})
    page.goto(server.url)
    page.wait_for_selector("#board svg")
    for board in ("compact", "standard"):
        new_game(page, players="6", variant="standard", board=board)
        page.evaluate("() => window.scrollTo(0, 0)")
        left, top, right, bottom = page.eval_on_selector("#board svg", BOX)
        assert 0 <= left and right <= width and 0 <= top and bottom <= height, (board, bottom)
        assert page.evaluate("() => document.documentElement.scrollWidth") <= width
    screenshot(page, f"serve-{width}x{height}.png")
    page.close()


def test_a_phone_shows_the_board_first_and_nothing_wider_than_the_screen(browser, server):
    page = browser.new_page(viewport={"width": 390, "height": 844})
    page.goto(server.url)
    page.wait_for_selector("#board svg")
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 390
    left, top, right, bottom = page.eval_on_selector("#board-box", BOX)
    assert 0 <= left and right <= 390 and 0 <= top and bottom <= 844
    assert right - left >= 370                       # edge to edge (a wider board scrolls in it)
    header_top = page.eval_on_selector("header", BOX)[1]
    assert header_top > bottom                       # the settings come after the board
    screenshot(page, "serve-phone.png", full_page=True)
    page.close()


def test_the_other_armies_turns_are_told_in_words_and_marked(page, server):
    new_game(page)
    assert page.inner_text("#status") == "Red to act, round 1: start of the turn"
    page.click('.cell[data-cell="g6"]')
    page.click('.cell[data-cell="g10"]')
    page.wait_for_function("() => S.person_to_act && S.round === 2 || S.over")
    expected = [line["text"] for line in server.table.state()["summary"]]
    shown = page.eval_on_selector_all("#summary li .words", "els => els.map(e => e.textContent)")
    assert shown == expected and len(shown) == 6
    assert shown[0].startswith("you: Templar g6-g10")
    assert shown[1].startswith("blue: ")                  # the agents' turns, in order
    last = server.table.state()["summary"][-1]["cells"]
    marked = page.eval_on_selector_all(".cell.recent", "els => els.map(e => e.dataset.cell)")
    assert last and set(marked) == set(last)


def test_teams_are_shown_and_no_army_name_is_cut(page, server):
    new_game(page)                                       # compact, 2 players: 2 teams of 3
    rows = page.eval_on_selector_all("#armies tbody tr td:first-child",
                                     "els => els.map(e => e.innerText.split('\\n'))")
    assert rows == [["red", "team 1"], ["blue", "team 2"], ["black", "team 1"],
                    ["green", "team 2"], ["purple", "team 1"], ["orange", "team 2"]]
    for width, height in ((1280, 720), (1400, 900)):
        page.set_viewport_size({"width": width, "height": height})
        cut = page.eval_on_selector_all(
            "#armies tbody tr td:first-child",
            "els => els.filter(e => e.scrollWidth > e.clientWidth || e.scrollHeight > e.clientHeight)"
            ".map(e => e.innerText)")
        assert cut == [], (width, cut)
    new_game(page, players="6", variant="standard", board="standard")
    rows = page.eval_on_selector_all("#armies tbody tr td:first-child",
                                     "els => els.map(e => e.textContent)")
    assert rows == ["red", "blue", "black", "green", "purple", "orange"]


def test_movable_selected_quiet_and_capture_cells_look_different(page, server):
    # Red's Templar on i6 can take blue's Queen on i10 (as in test_agents).
    from helpers import position
    game = victorus.Game.from_vpn(position({"i6": "0Tw", "i10": "1Q", "m6": "1Xw",
                                            "i20": "1Tb", "h1": "0K"}))
    before = page.evaluate("() => S.version")
    server.table.session.replace_game(game)
    server.table.set_seats(server.table.controllers)         # (bumps the version)
    page.wait_for_function(f"() => S.version > {before}")
    page.click('.cell[data-cell="i6"]')
    page.wait_for_selector('.cell[data-cell="i6"].selected')
    assert page.get_attribute('.cell[data-cell="i10"]', "class") == "cell target capture"
    quiet = page.eval_on_selector_all(".cell.target:not(.capture)", "els => els.length")
    assert quiet > 0
    style = ("(sel) => { const s = getComputedStyle(document.querySelector(sel)); return "
             "[s.fill, s.fillOpacity, s.stroke, s.strokeWidth, s.strokeDasharray].join(' '); }")
    looks = {sel: page.evaluate(style, sel) for sel in (
        ".cell.origin:not(.selected)", ".cell.selected", ".cell.target:not(.capture)",
        ".cell.target.capture")}
    assert len(set(looks.values())) == 4, looks
    for sel in (".cell.origin:not(.selected)", ".cell.selected", ".cell.target.capture"):
        assert page.evaluate("(sel) => getComputedStyle(document.querySelector(sel))"
                             ".fillOpacity", sel) == "0"   # a piece under it keeps its color
    screenshot(page, "serve-capture-target.png")


def test_coordinates_on_demand_and_a_legend(page, server):
    label = "#board text.label"
    assert page.eval_on_selector_all(label, "els => els.length") == 0    # not even sent
    page.check("#coordinates")
    page.wait_for_selector(label)
    shown = page.eval_on_selector_all(label, "els => els.map(e => e.textContent)")
    assert sorted(shown) == sorted(server.table.game.board.labels)
    assert page.get_attribute("#legend", "open") is not None   # open on the first visit
    legend = page.inner_text("#legend")
    assert "T Templar, U Teutonic, B Byzantine, X Excalibur, H Hospitaller, K King, Q Queen" \
        in legend and "royal knight" in legend and "frozen" in legend
    assert page.get_attribute('.cell[data-cell="g6"]', "data-army") == "0"
    assert "red Templar" in page.inner_html("#board")          # a piece's tooltip names it
    screenshot(page, "serve-coordinates-legend.png", full_page=True)


def test_a_draw_reads_as_a_draw(page, server):
    # (No quick way to reach a drawn position by clicks: the status is drawn from a state
    # the server would send for one, R26/R37(a).)
    text = page.evaluate("() => { victorus.st.S = {...S, over: true, winners: [],"
                         " reason: 'round-limit'}; victorus.drawStatus();"
                         " return document.querySelector('#status').textContent; }")
    assert text == "Game over (round-limit): a draw"


def test_past_positions_can_be_browsed_while_the_game_goes_on(page, server):
    new_game(page)
    page.click('.cell[data-cell="g6"]')
    page.click('.cell[data-cell="g10"]')
    page.wait_for_function("() => S.person_to_act && S.round === 2")
    game = server.table.game
    played = len(game.history())
    page.click('#log .act[data-index="1"]')                  # red's g6-g10
    page.wait_for_function("() => S.browse && S.browse.index === 1")
    after_one = game.copy()
    for _ in range(played - 1):
        after_one.undo()
    placement = ",".join(f"{lab}:{after_one.piece_at(lab)}" for lab in game.board.labels
                         if after_one.piece_at(lab))
    assert page.text_content("#placement") == placement
    assert page.inner_text("#status") == f"The position after action 1 of {played} (the game goes on)"
    assert page.eval_on_selector_all("#log .act.current", "els => els.map(e => e.dataset.index)"
                                     ) == ["1"]
    page.click('.cell[data-cell="g10"]')                      # no play from the past
    assert "past position" in page.inner_text("#error")
    screenshot(page, "serve-browse.png")
    page.keyboard.press("ArrowRight")
    page.wait_for_function("() => S.browse && S.browse.index === 2")
    assert len(game.history()) == played                     # the game itself never moved
    page.click("#live")
    page.wait_for_function("() => S.browse === null && S.person_to_act")
    assert page.inner_text("#status") == "Red to act, round 2: start of the turn"
    assert page.is_hidden("#live")


# Each state the page is sent (a frame key in the answer) noted in window.answers: the
# page's own fetch, wrapped (KEEP: what to note of each; FIRST: the list to start with).
STATES_SEEN = """() => { window.answers = FIRST; const ask = window.fetch;
    window.fetch = async (...args) => { const response = await ask(...args);
        if (String(args[0]).startsWith('/api/state')) { const data = await response.clone().json();
            if (data.frame_key !== undefined) answers.push(KEEP); }
        return response; }; }"""


def test_the_board_frame_and_the_log_are_sent_once_as_the_game_goes_on(page, server):
    # The page holds the board's frame (cells, walls) and the log's turns,
    # and the server sends only the pieces and the new turns; the log's entries are never
    # rebuilt, and the page's log is the game's. (The test plays each action and waits
    # until the page shows it, so that every change is seen, whatever the machine's load.)
    import random
    page.evaluate(STATES_SEEN.replace("KEEP", "[data.frame_key, data.frame !== null]")
                  .replace("FIRST", "[[victorus.st.frameKey, true]]"))
    table, rng = server.table, random.Random(2)
    table.new_game("compact", 2, seats=[PERSON] * 6, agent_delay=0)
    for played in range(60):
        page.wait_for_function(f"() => S.version === {table.version}")
        if played == 6:
            page.evaluate("() => { window.firstTurn = document.querySelector('#log li'); }")
        table.play(rng.choice(table.game.legal_actions()).text)
    page.wait_for_function(f"() => S.version === {table.version}")
    logged = page.eval_on_selector_all("#log .act", "els => els.map(e => e.textContent)")
    assert logged == [str(a) for a in table.game.history()] and len(logged) == 60
    assert page.evaluate("() => document.querySelector('#log li') === window.firstTurn")
    frames = page.evaluate("() => answers")                 # [key, sent?] of each answer
    # every change came as a state answer or as a delta on the socket (drawn from a frame
    # held, so it sends none)
    assert len(frames) + page.evaluate("() => victorus.st.deltas") > 60
    for (held, _), (key, sent) in zip(frames, frames[1:]):
        assert sent == (key != held)                         # a frame only when it changed


def test_playback_keeps_time_and_shows_the_action_due(page, server):
    # The page's clock is held still, then moved: playback at 20 actions a second shows
    # nothing until a second has passed on it, then action 20, at once (skipping the
    # positions between when steps are slower than 1/20 s: playback at 100 keeps its speed).
    steps = []
    page.on("request", lambda r: steps.append(r.url) if r.url.endswith("/api/step") else None)
    watch_centre_game(page)
    page.evaluate("() => { window.fakeNow = performance.now(); "
                  "performance.now = () => window.fakeNow; }")
    page.select_option("#speed", "20")
    page.click("#playback")
    page.wait_for_timeout(300)
    assert page.evaluate("() => S.watch.index") == 0 and steps == []
    page.evaluate("() => { window.fakeNow += 1000; }")
    page.wait_for_function("() => S.watch.index === 20")
    page.wait_for_timeout(300)
    assert page.evaluate("() => S.watch.index") == 20 and len(steps) == 1
    page.evaluate("() => { window.fakeNow += 4000; }")
    page.wait_for_function("() => S.watch.index === 100")
    page.click("#playback")                                  # pause
    assert page.inner_text("#playback") == "play"


def test_a_restarted_server_is_followed(page, server):
    # Versions count from 1 on a new server: the page shows its state, not only newer ones.
    new_game(page)
    page.click('.cell[data-cell="g6"]')
    page.click('.cell[data-cell="g10"]')
    page.wait_for_function("() => S.round === 2")
    old, server.table = server.table, Table("standard", 3, seats=[PERSON] * 6)
    old.set_seats(old.controllers)                 # answers the request waiting at the old one
    page.wait_for_function(f"() => S.instance === '{server.table.instance}'")
    assert page.evaluate("() => [S.board, S.players, S.version]") == ["standard", 3, 1]
    assert page.inner_text("#notice") == ("The server restarted and this game was lost; "
                                          "its record is kept:")
    assert page.eval_on_selector_all("#log .act", "els => els.length") == 0


def test_each_view_s_frame_is_sent_once(page, server):
    # The page holds a frame per view: turning to blue and back to red sends blue's only.
    page.evaluate(STATES_SEEN.replace("KEEP", "data.frame !== null").replace("FIRST", "[]"))
    for seat in ("3", "0", "3", "turn"):
        page.select_option("#view", seat)
        page.wait_for_function(f"() => S.view === {0 if seat == 'turn' else seat} && "
                               f"document.querySelector('#board .position').childElementCount")
    assert page.evaluate("() => answers") == [True, False, False, False]
