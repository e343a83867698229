"""The page as a player meets it, in headless Chromium (Playwright): every event told, a
clear end, a board that holds still, armies told apart without colour, keyboard play and
the comforts (title, confirmations, sounds, analysis). Positions are built by hand
(R24, R25, R28, R30, R31) and shown through the table; tests wait for what the page
shows, never for a time."""

import json

import pytest

import test_browser
import victorus
from helpers import position, serving
from test_browser import ARTIFACTS, BOX, TIMEOUT_MS, new_game, screenshot
from victorus.clock import ManualTime
from victorus.page import page_state
from victorus.page.analysis import Analysis
from victorus.page.server import PERSON, Table

pytestmark = pytest.mark.browser
browser = test_browser.browser          # the same Chromium fixture (skipped without one)

RESCUE = position({"i6": "0Tw", "i10": "1Q", "f17": "1K", "i20": "2Tb"}, armies={1: "a,0,0K"})
ELIMINATION = position({"i6": "0Tw", "i10": "1Q", "c6": "1Tb", "i20": "2Tb"},
                       armies={3: "a,0,1K"})
CENTRE = position({"i8": "0K", "i20": "1Tb"}, armies={0: "a,3,"}, laps={"i8": 1})
RED_ONLY = [PERSON] + ["greedy"] * 5


@pytest.fixture
def still():
    """A standard table whose agents act only when a test says (no worker)."""
    with serving(Table("standard", 6, seats=RED_ONLY, agent_delay=0), worker=False) as srv:
        yield srv


@pytest.fixture
def live():
    """A compact two-team table with the agents' worker: blue's team plays at once."""
    with serving(Table("compact", 2, seats=RED_ONLY, agent_delay=0)) as srv:
        yield srv


@pytest.fixture
def opened(browser):
    """open(server, width, height, before): a page of the server (``before``: a script run
    before the page's own), with no script error at the end."""
    pages = []

    def open_page(srv, width=1400, height=900, before=None):
        page = browser.new_page(viewport={"width": width, "height": height})
        page.set_default_timeout(TIMEOUT_MS)
        if before:
            page.add_init_script(before)
        errors = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(srv.url)
        page.wait_for_selector("#board svg")
        pages.append((page, errors))
        return page
    yield open_page
    for page, errors in pages:
        page.close()
        assert errors == []


def show(page, table, vpn, seats=RED_ONLY):
    """Put the position ``vpn`` on the table (a new log) and wait until the page shows it."""
    table.set_seats(list(seats))
    table.session.replace_game(victorus.Game.from_vpn(vpn))
    table.set_seats(list(seats))
    shown(page, table)


def shown(page, table):
    page.wait_for_function(f"() => S.version === {table.version}")


def texts(page, selector):
    return page.eval_on_selector_all(selector, "els => els.map(e => e.textContent)")


# -- narration ---------------------------------------------------------------------------
def test_a_rescue_a_promotion_and_an_elimination_are_told_r25_r30_r31(opened, still):
    page, table = opened(still), still.table
    show(page, table, RESCUE)
    table.play("i6xi10")
    table.play("end")
    shown(page, table)
    assert texts(page, "#summary li:last-child .words") == ["you: Templar i6xi10 took blue's Queen"]
    events = texts(page, "#summary li:last-child .event")
    assert events[0] == ("rescue: your King was exchanged for blue's Queen; both went home "
                         "(h1 and d3)")
    assert "your Templar on i10 was promoted to a royal knight" in events
    assert "your Templar on i10 is frozen for the rest of the turn" in events
    logged = texts(page, "#log li .event")
    assert logged[0] == ("rescue: red's King was exchanged for blue's Queen; both went home "
                         "(h1 and d3)")
    assert "red's Templar on i10 was promoted to a royal knight" in logged
    screenshot(page, "serve-rescue-told.png")

    show(page, table, ELIMINATION, seats=[PERSON, PERSON] + ["greedy"] * 4)
    table.play("i6xi10")
    shown(page, table)
    assert "blue is out" in texts(page, "#summary li:last-child .event")
    assert "blue is out" in texts(page, "#log li .event")
    assert page.inner_text("#notice") == ""                  # red, a person too, plays on
    table.set_seats(["greedy", PERSON] + ["greedy"] * 4)
    shown(page, table)
    assert page.inner_text("#notice") == "blue is out: you are watching now"
    assert page.is_disabled("#undo") and page.is_disabled("#resign")   # nothing left to play
    frozen = page.eval_on_selector_all("#log details.frozen", "ds => ds.map(d => d.open)")
    assert frozen == [False]                  # the frozen piece folded under its capture


def test_the_winning_move_is_told_and_the_result_shown_in_a_banner_r28(opened, still):
    page, table = opened(still), still.table
    show(page, table, CENTRE)
    assert page.title() == "your turn - VICTORUS"
    table.play("i8-i14")
    shown(page, table)
    assert page.is_visible("#banner")
    assert page.inner_text("#banner-title") == "Red won: red's King reached the centre"
    assert page.inner_text("#banner-yours") == "you won"
    assert texts(page, "#summary li:last-child .event") == ["your King reached the centre"]
    assert page.inner_text("#status").startswith("Game over (centre)")
    assert page.title() == "game over - VICTORUS"
    screenshot(page, "serve-banner.png")
    page.click("#banner-close")
    assert page.is_hidden("#banner")


def test_the_tab_title_says_whose_turn_it_is(opened, still):
    page, table = opened(still), still.table
    show(page, table, position({"i6": "0Tw", "i20": "1Tb"}))
    assert page.title() == "your turn - VICTORUS"
    table.play("i6-i10")                                      # blue's turn, an agent's
    shown(page, table)
    assert page.title() == "VICTORUS"


# -- confirmations -------------------------------------------------------------------------
def test_new_game_and_resign_ask_first(opened, live):
    page, table = opened(live), live.table
    new_game(page)                                           # nothing played yet: no question
    page.wait_for_selector(".cell.origin")
    page.click('.cell[data-cell="g6"]')
    page.click('.cell[data-cell="g10"]')
    page.wait_for_function("() => S.person_to_act && S.round === 2")
    asked = []

    def answer(dialog, accept):
        asked.append(dialog.message)
        dialog.accept() if accept else dialog.dismiss()
    page.once("dialog", lambda d: answer(d, False))
    version = table.version
    page.click("#new-button")
    assert asked == ["A game is on: start a new game and leave this one?"]
    assert table.version == version and table.game.ply > 0    # declined: the game goes on
    page.once("dialog", lambda d: answer(d, True))
    page.click("#resign")
    page.wait_for_function("() => S.over")
    assert asked[1].startswith("Resign? red gives up this game")
    assert page.inner_text("#banner-title") == "Blue, green and orange won: red resigned"
    assert page.inner_text("#banner-yours") == "your team lost"
    new_game(page)                                           # over: no question
    assert len(asked) == 2 and not page.evaluate("() => S.over")


# -- a board that holds still -----------------------------------------------------------------
LAYOUT_SHIFTS = """() => { window.shifts = [];
    new PerformanceObserver((list) => { for (const e of list.getEntries())
        if (!e.hadRecentInput) window.shifts.push(e.value); })
      .observe({ type: 'layout-shift', buffered: false }); }"""


def test_the_page_holds_still_while_agents_play(opened, live):
    # Cumulative layout shift (every shift summed, no session windows) while six random
    # agents play 120 actions at 1280x720; the armies table in view, without scrollbars.
    page = opened(live, 1280, 720)
    new_game(page, players="6", variant="standard", agent="random", board="standard",
             you="none", delay="0.02")
    page.evaluate(LAYOUT_SHIFTS)
    page.wait_for_function("() => document.querySelectorAll('#log .act').length >= 120")
    shift = page.evaluate("() => window.shifts.reduce((a, b) => a + b, 0)")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    (ARTIFACTS / "serve-layout-shift.json").write_text(json.dumps({"cls": shift}))
    print(f"cumulative layout shift over 120 actions: {shift:.4f}")
    assert shift < 0.1
    left, top, right, bottom = page.eval_on_selector("#armies", BOX)
    assert 0 <= left and right <= 1280 and bottom <= 720
    box = page.eval_on_selector("#armies-box", "e => [e.scrollWidth, e.clientWidth, "
                                "e.scrollHeight, e.clientHeight]")
    assert box[0] <= box[1] and box[2] <= box[3]               # no inner scrollbar
    screenshot(page, "serve-holds-still.png")


def test_holds_are_drawn_as_small_pieces(opened, still):
    page, table = opened(still), still.table
    show(page, table, position({"i6": "0Tw", "i10": "1Xw+", "i20": "1Tb", "h1": "0K"}))
    table.play("i6xi10")
    shown(page, table)
    icon = page.query_selector("#army-0 .hold")
    assert icon.get_attribute("data-code") == "1X+"
    assert icon.get_attribute("aria-label") == "blue royal Excalibur (square)"
    assert icon.query_selector("svg .army-mark, svg path") is not None
    assert "1Xw+" not in page.inner_text("#army-0 td.held")   # no code in letters


# -- armies told apart without colour ------------------------------------------------------
MARKS = """() => [...document.querySelectorAll('#board .piece')].map(p => {
    const mark = p.querySelector('.army-mark'), own = p.querySelector('.own-mark');
    const r = mark.getBoundingClientRect();
    return [p.dataset.army, mark.dataset.mark, Math.min(r.width, r.height),
            getComputedStyle(own).display, own.getAttribute('stroke-dasharray') ||
            getComputedStyle(own).strokeDasharray]; })"""
MARK_NAMES = ("circle", "square", "triangle", "diamond", "cross", "triangle down")


@pytest.mark.parametrize("deficiency", ["deuteranopia", "protanopia", "tritanopia"])
def test_every_piece_carries_its_army_s_mark_under_colour_blindness(opened, live, deficiency):
    page = opened(live)
    session = page.context.new_cdp_session(page)
    session.send("Emulation.setEmulatedVisionDeficiency", {"type": deficiency})
    new_game(page)                                # compact, 2 teams: red, black, purple with you
    marks = page.evaluate(MARKS)
    assert len(marks) == 72                       # six armies of 12 (R10)
    for army, mark, size, own, dash in marks:
        assert mark == MARK_NAMES[int(army)] and size >= 8, (army, mark, size)
        assert (own != "none") == (army in "024")          # yours and your allies' marked
        if army in "24":
            assert dash not in ("none", "")                # allies: a dashed bar
    assert len({m[1] for m in marks}) == 6
    screenshot(page, f"serve-{deficiency}.png")


def contrast(rgb_a, rgb_b):
    def luminance(rgb):
        def channel(c):
            c /= 255
            return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4
        r, g, b = map(channel, rgb)
        return 0.2126 * r + 0.7152 * g + 0.0722 * b
    light, dark = sorted((luminance(rgb_a), luminance(rgb_b)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def test_rings_stand_out_three_to_one_on_white_and_grey_cells(opened, live):
    page = opened(live)
    strokes = page.evaluate("""() => ['origin', 'selected', 'recent', 'capture'].map(c => {
        const e = document.createElementNS('http://www.w3.org/2000/svg', 'polygon');
        e.setAttribute('class', 'cell target ' + c);
        document.querySelector('#board svg').appendChild(e);
        const s = getComputedStyle(e).stroke; e.remove();
        return s.match(/\\d+/g).slice(0, 3).map(Number); })""")
    for rgb in strokes:
        for cell in ((255, 255, 255), (0xb8, 0xb8, 0xb8)):
            assert contrast(rgb, cell) >= 3, (rgb, cell)


# -- keyboard, tooltips ------------------------------------------------------------------------
TOWARD_TARGET = """() => {
    const at = document.activeElement, r = at.getBoundingClientRect();
    const quiet = [...document.querySelectorAll('.cell.target:not(.capture)')];
    const t = quiet[0].getBoundingClientRect();
    const dx = t.left - r.left, dy = t.top - r.top;
    if (Math.abs(dx) < 2 && Math.abs(dy) < 2) return 'Enter';
    return Math.abs(dx) > Math.abs(dy) ? (dx > 0 ? 'ArrowRight' : 'ArrowLeft')
                                       : (dy > 0 ? 'ArrowDown' : 'ArrowUp'); }"""


def test_a_whole_turn_by_keyboard_and_one_typed(opened, live):
    page, table = opened(live), live.table
    new_game(page, variant="standard")
    page.wait_for_selector(".cell.origin")
    page.focus("#board")                                   # Tab's stop: a piece that can move
    page.wait_for_function("() => document.activeElement.classList.contains('cell')")
    start = page.evaluate("() => document.activeElement.dataset.cell")
    assert page.evaluate("() => document.activeElement.classList.contains('origin')")
    label = page.evaluate("() => document.activeElement.getAttribute('aria-label')")
    assert label.startswith(f"{start}: red ") and "edge" in label and "can move" in label
    page.keyboard.press("Enter")                           # pick it
    page.wait_for_selector(f'.cell[data-cell="{start}"].selected')
    for _ in range(60):                                    # walk to a quiet destination
        key = page.evaluate(TOWARD_TARGET)
        page.keyboard.press(key)
        if key == "Enter":
            break
    page.wait_for_function("() => S.person_to_act && S.round === 2")   # blue's team played
    assert [a.text for a in table.game.history()][0].startswith(start)
    leg = page.evaluate("() => S.legal.legs.find(l => !l[2].includes('x'))[2]")
    page.fill("#typed-move", leg)
    page.press("#typed-move", "Enter")
    page.wait_for_function("() => S.person_to_act && S.round === 3")
    assert leg in [a.text for a in table.game.history()]
    page.wait_for_function("() => document.querySelector('#typed-move').value === ''")


def test_a_piece_s_tooltip_shows_on_hover(opened, live):
    page = opened(live)
    new_game(page)
    page.hover('.cell[data-cell="g6"]')
    under = page.evaluate("""() => { const c = document.querySelector('.cell[data-cell="g6"]')
        .getBoundingClientRect(); const e = document.elementFromPoint(c.left + c.width / 2,
        c.top + c.height / 2); return [e.dataset.cell, e.querySelector('title').textContent]; }""")
    assert under[0] == "g6" and under[1].startswith("g6: red Templar (circle), black edge")


# -- comforts --------------------------------------------------------------------------------
def test_the_header_shows_the_game_played(opened, still):
    page, table = opened(still), still.table
    table.new_game("compact", 3, variant="quick12", seats=["greedy", PERSON] + ["greedy"] * 4,
                   time_limit=30, agent_delay=1.5)
    shown(page, table)
    assert [page.input_value(s) for s in ("#new-board", "#new-players", "#new-variant",
                                          "#new-you", "#new-agent", "#new-time-limit",
                                          "#new-agent-delay")] == \
        ["compact", "3", "quick12", "1", "greedy", "30", "1.5"]


def test_the_clock_warns_when_time_runs_low(opened, live):
    page = opened(live)
    new_game(page, time_limit="2")
    # both read in one frame: on a loaded machine the turn's 2 s may run out between two
    # separate reads (the next turn of yours warns again)
    page.wait_for_function("() => { const clock = document.querySelector('#clock');"
                           " return clock.classList.contains('low')"
                           " && clock.innerText.startsWith('you have '); }")


def test_sounds_are_off_until_asked_for(opened, live):
    page = opened(live)
    assert not page.is_checked("#sounds")
    new_game(page, variant="standard")
    page.click('.cell[data-cell="g6"]')
    page.click('.cell[data-cell="g10"]')
    page.wait_for_function("() => S.person_to_act && S.round === 2")
    assert page.evaluate("() => soundLog.length") == 0
    page.check("#sounds")
    page.click('.cell.origin')
    page.click('.cell.target:not(.capture)')
    page.wait_for_function("() => soundLog.includes('turn')")     # your turn again
    assert "move" in page.evaluate("() => soundLog")


def test_the_analysis_comes_beside_the_game(opened, still):
    page, table = opened(still), still.table
    table.analysis = Analysis(seconds=0.2, seed=1)
    show(page, table, position({"i6": "0Tw", "i10": "1Xw", "i20": "1Tb", "h1": "0K"}))
    page.click("#analyse")
    page.wait_for_function("() => document.querySelector('#analysis').textContent"
                           ".includes('% to win')")
    assert page.inner_text("#analysis").startswith("red: ")
    assert page.query_selector("#board .analysis-arrow") is not None
    screenshot(page, "serve-analysis.png")


def test_on_a_phone_the_board_comes_into_view_after_new_game(opened, live):
    page = opened(live, 390, 844)                      # the form is below the board there
    page.evaluate("() => window.scrollTo(0, document.body.scrollHeight)")
    assert page.eval_on_selector("#board svg", BOX)[3] < 0           # the board above
    page.click("#new-button")
    page.wait_for_function("() => { const r = document.querySelector('#board svg')"
                           ".getBoundingClientRect(); return r.top > -2 && r.top < innerHeight; }")


# -- the rules help, every army's clock, a lost game's record, a resignation recorded ----
def cells_of(page, selector):
    return page.eval_on_selector_all(selector, "els => els.map(e => e.dataset.cell)")


def test_the_rules_help_draws_each_piece_s_moves_on_a_small_board_r11_r14_r18(opened, live):
    page = opened(live)
    assert page.evaluate("() => document.querySelector('#legend').open")    # first visit
    page.click("#rules summary")
    page.wait_for_selector(".rule-piece svg")
    panels = page_state.rules_panels()                  # the engine's legal actions, drawn
    assert texts(page, ".rule-piece figcaption b") == [p["name"] for p in panels]
    for panel in panels:
        figure = f'.rule-piece[data-piece="{panel["name"]}"]'
        cells = cells_of(page, f"{figure} .patch-cell")
        assert len(cells) == 37 and panel["cell"] in cells        # a patch of radius 3
        first, ends = cells_of(page, f"{figure} .first"), cells_of(page, f"{figure} .end")
        assert first and first == [c for c in panel["first"] if c in cells]
        assert ends == [c for c in panel["ends"] if c in cells]
        assert bool(ends) == (panel["name"] in ("King", "Queen", "Hospitaller", "Royal knight"))
        width = page.eval_on_selector(f"{figure} svg", "e => e.getBoundingClientRect().width")
        assert 60 < width < 200                                   # a small board
    words = page.inner_text("#rules")
    for told in ("Bonus move", "Second leg of the move", "Promotion", "Rescue", "Victory",
                 "forfeited"):
        assert told in words
    screenshot(page, "serve-rules-help.png")


CLOCKS = "els => els.map(e => [Number(e.dataset.seat), e.className, e.textContent])"


def test_every_army_s_clock_shows_the_game_s_time_even_while_browsing(opened):
    now = ManualTime()                                       # the server's clock moves by hand
    table = Table("compact", 4, seats=RED_ONLY, time_limit=20, agent_delay=0, now=now)
    with serving(table, worker=False) as srv:
        page = opened(srv)
        page.wait_for_selector("#clocks td.clock-acting")
        clocks = page.eval_on_selector_all("#clocks td", CLOCKS)
        assert [c[0] for c in clocks] == [0, 1, 3, 4]        # the armies present (R33)
        assert clocks[0][1] == "clock-acting" and clocks[0][2].endswith(" s")
        assert [c[1:] for c in clocks[1:]] == [["clock-waiting", "20 s"]] * 3
        table.play("g6-g10")                                 # blue's turn (an agent's)
        shown(page, table)
        page.click('#log .act[data-index="1"]')
        page.wait_for_function("() => S.browse && S.browse.index === 1")
        page.keyboard.press("ArrowLeft")                     # the start: red to act there
        page.wait_for_function("() => S.browse && S.browse.index === 0 && S.to_move === 0")
        assert page.eval_on_selector_all("#clocks td", CLOCKS)[1][1] == "clock-acting"
        assert page.inner_text("#clock").startswith("blue has ")
        now.advance(17)
        table.set_seats(RED_ONLY)                            # a change: the clock is asked
        page.wait_for_selector('#clocks td[data-seat="1"].low')
        assert page.eval_on_selector_all("#clocks td.low", CLOCKS)[0][0] == 1   # blue's only
        screenshot(page, "serve-clocks.png")
        now.advance(5)
        assert table.tick() is True                          # blue forfeits its turn
        page.wait_for_function("() => document.querySelector('#clocks td[data-seat=\"1\"]')"
                               ".textContent === '20 s \\u27171'")
        assert "1 turn forfeited on time" in page.get_attribute('#clocks td[data-seat="1"]',
                                                                "title")


def test_after_a_server_restart_the_page_offers_the_game_s_last_record(opened, live):
    page = opened(live)
    new_game(page, time_limit="60")
    page.click('.cell[data-cell="g6"]')
    page.click('.cell[data-cell="g10"]')
    page.wait_for_function("() => S.person_to_act && S.round === 2")
    old, live.table = live.table, Table("standard", 3, seats=[PERSON] * 6)
    old.set_seats(old.controllers)                           # the old one's waiters answered
    page.wait_for_selector("#lost-record:not([hidden])")
    assert page.inner_text("#notice") == ("The server restarted and this game was lost; "
                                          "its record is kept:")
    with page.expect_download() as download:
        page.click("#lost-record")
    text = open(download.value.path()).read()
    assert text == old.record_text()                         # the record as the server had it
    assert victorus.record.loads(text).ply == old.game.ply
    page.reload()                                            # opened anew: kept by the browser
    page.wait_for_selector("#lost-record:not([hidden])")
    assert page.evaluate("() => lostRecord.text") == text


def test_a_resignation_is_in_the_record_downloaded(opened, live):
    page, table = opened(live), live.table
    new_game(page)
    page.once("dialog", lambda dialog: dialog.accept())
    page.click("#resign")
    page.wait_for_function("() => S.over")
    page.click("#position-details summary")
    with page.expect_download() as download:
        page.click("#download")
    text = open(download.value.path()).read()
    assert "resigned: 0\nresult: resignation 1,3,5\n" in text
    assert page.evaluate("() => keptRecord.text") == text == table.record_text()
