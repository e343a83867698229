"""The page as a lichess player expects it, in headless Chromium (Playwright): the
opponent chosen stays chosen, the newest action and its actor always in view, review of
any position and of a finished game, learning from its mistakes by keyboard, the outage
told in words, spectator tabs, a live region for screen readers, named controls and
shortcut keys, drag and drop with a short glide, the whole team by default, touch
targets on a phone; the README's picture. Tests wait for what the page shows, never for
a time."""

import os
import re
import threading
from pathlib import Path

import pytest

import test_browser
import victorus
from helpers import serving
from test_browser import TIMEOUT_MS, new_game
from victorus.agents import make_agent
from victorus.clock import ManualTime
from victorus.geometry import SEAT_NAMES
from victorus.page.analysis import Analysis, Review
from victorus.page.server import PERSON, Server, Table

pytestmark = pytest.mark.browser
browser = test_browser.browser          # the same Chromium fixture (skipped without one)
#: The page's pictures in docs/serve.md and the README's: a test run writes its screenshot
#: under tmp_path (a clean clone stays clean); VICTORUS_WRITE_DOCS_IMG=1 writes it into
#: docs/img on purpose (VICTORUS_WRITE_DOCS_IMG=1 pytest tests/test_browser_review.py -k
#: readme), to commit.
DOCS_IMG = Path(__file__).resolve().parents[1] / "docs" / "img"


def picture(tmp_path: Path, name: str) -> str:
    """Where the screenshot ``name`` goes: ``tmp_path``, or docs/img when asked."""
    return str((DOCS_IMG if os.environ.get("VICTORUS_WRITE_DOCS_IMG") == "1" else tmp_path) / name)


@pytest.fixture
def opened(browser):
    """open(server, width, height, **context): a page of the server (in a context of its
    own: its own tab storage), with no script error at the end."""
    pages = []

    def open_page(srv, width=1400, height=900, **context):
        page = browser.new_context(viewport={"width": width, "height": height},
                                   **context).new_page()
        page.set_default_timeout(TIMEOUT_MS)
        errors = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(srv.url)
        page.wait_for_selector("#board svg")
        page.wait_for_function("() => S !== null")
        pages.append((page, errors))
        return page
    yield open_page
    for page, errors in pages:
        page.context.close()
        assert errors == []


def agents_only(board="compact", players=2, variant="quick2", agent="greedy"):
    return Table(board, players, variant, seats=[agent] * 6, agent_delay=0)


def step_shown(page, srv, count):
    """The agents play ``count`` actions (the test steps them), each shown by the page."""
    for _ in range(count):
        assert srv.work()
        page.wait_for_function(f"() => S.version === {srv.table.version}")


# -- the opponent chosen stays chosen -------------------------------------------------------
def test_new_game_and_rematch_keep_the_opponent_chosen_at_start(opened):
    # victorus serve --agent best: the seats' spec is not in the page's menu
    table = Table("compact", 2, seats=[PERSON] + ["best"] * 5, agent_delay=0)
    with serving(table) as srv:
        page = opened(srv)
        assert page.input_value("#new-agent") == "best"
        assert "best" in page.eval_on_selector_all("#new-agent option", "os => os.map(o => o.text)")
        before = page.evaluate("() => S.version")
        page.click("#new-button")
        page.wait_for_function(f"() => S.version > {before} && S.game === 2")
        assert [c for c in srv.table.controllers if c != "-"].count("best") >= 3
        assert "greedy" not in srv.table.controllers
        page.once("dialog", lambda dialog: dialog.accept())
        page.click("#resign")                                    # the game ends: rematch
        page.wait_for_selector("#banner:not([hidden])")
        page.click("#rematch")
        page.wait_for_function("() => S.game === 3 && !S.over")
        assert "greedy" not in srv.table.controllers
        assert srv.table.controllers.count("best") >= 3


# -- the newest action and its actor ----------------------------------------------------------
NEWEST_IN_VIEW = """() => {
  window.checks = []; const draw0 = victorus.st.redraw;
  victorus.st.redraw = function () {
    draw0();
    const list = document.querySelector('#summary'), newest = list.lastElementChild;
    if (!newest) return;
    const words = newest.querySelector('.words').getBoundingClientRect();
    const box = list.getBoundingClientRect();
    checks.push([words.top >= box.top - 0.5 && words.bottom <= box.bottom + 0.5, newest.textContent]);
    const version = S.version;
    requestAnimationFrame(() => requestAnimationFrame(() => {    // (the log scrolls in a frame)
      const log = document.querySelector('#log'), id = log.lastElementChild.querySelector('.turn-id');
      const a = id.getBoundingClientRect(), b = log.getBoundingClientRect();
      logChecks.push([a.top >= b.top - 0.5 && a.bottom <= b.bottom + 0.5, version]);
    }));
  };
  window.logChecks = [];
}"""


def test_the_newest_action_and_its_actor_are_always_in_view_six_armies(opened):
    with serving(Table("standard", 6, seats=["greedy"] * 6, agent_delay=0), worker=False) as srv:
        page = opened(srv)
        page.evaluate(NEWEST_IN_VIEW)
        for _ in range(80):
            # the next action only once the log was measured two frames after this one's
            # drawing: a newer action drawn in between would be measured before its scroll
            assert srv.work()
            page.wait_for_function(f"() => S.version === {srv.table.version}"
                                   " && logChecks.length === checks.length")
        checks = page.evaluate("() => checks")
        assert len(checks) >= 80
        assert [v for ok, v in page.evaluate("() => logChecks") if not ok] == []
        assert [text for ok, text in checks if not ok] == []
        # the frozen pieces' lines are folded under their capture, one line per turn
        folded = page.eval_on_selector_all("#log li", "lis => lis.map(li => ["
                                           "li.querySelectorAll('details.frozen').length,"
                                           "li.querySelectorAll(':scope > .event').length])")
        assert all(count <= 1 for count, _ in folded)
        frozen_turns = sum(any(e.endswith(" is frozen for the rest of the turn") for e in t["events"])
                           for t in page.evaluate("() => logTurns"))
        assert sum(count for count, _ in folded) == frozen_turns > 0


# -- review ---------------------------------------------------------------------------------------
def test_a_finished_game_is_reviewed_and_a_marked_move_shows_its_position(opened, tmp_path):
    table = agents_only()
    table.review = Review(seconds=None, iterations=300)   # the same on every machine
    with serving(table) as srv:
        page = opened(srv, 1280, 800)
        page.wait_for_function("() => S.over && review.status === 'done'")
        lines = page.eval_on_selector_all("#review-graph .review-line", "ls => ls.length")
        assert lines == len(srv.table.game.config.present)
        marks = page.evaluate("() => review.marks")
        assert marks and len(page.query_selector_all("#review-graph .review-mark")) == len(marks)
        assert page.evaluate("() => review.points.length") == srv.table.game.ply + 1
        mark = marks[0]
        page.click(f'.review-jump[data-index="{mark["index"]}"]')
        page.wait_for_function(f"() => S.browse && S.browse.index === {mark['index'] - 1}")
        assert page.inner_text("#status").endswith("(the game is over)")
        page.wait_for_function("() => document.querySelector('#analysis').textContent"
                               ".startsWith('review: ')")
        assert f"best: {mark['best']}" in page.inner_text("#analysis")
        if len(mark["cells"]) == 2:
            page.wait_for_selector("#board .analysis-arrow")
        page.screenshot(path=picture(tmp_path, "serve-review.png"))


def test_an_unattended_clock_pauses_and_the_review_lists_the_turns_forfeited(opened):
    """Hot seat on a clock (moved by hand), nobody plays: after a whole round forfeited
    the page says the clock is paused; agents then finish the game, and the review lists
    each forfeited turn as such (never marked), a click away from its position."""
    now = ManualTime()
    table = Table("compact", 2, seats=[PERSON] * 6, time_limit=10, agent_delay=0, now=now)
    table.review = Review(seconds=None, iterations=50)       # the same on every machine
    with serving(table, worker=False) as srv:
        page = opened(srv, 1280, 800)
        for _ in range(6):
            now.advance(11)
            assert srv.work() is True                        # a turn forfeited on time
        page.wait_for_selector("#clocks td.clock-paused")
        page.wait_for_function("() => document.querySelector('#clock').textContent"
                               ".startsWith('clock paused')")
        assert page.inner_text("#clock") == ("clock paused (a whole round forfeited on time) "
                                             "until you play")
        now.advance(100)
        assert srv.work() is False and srv.table.game.ply == 6
        table.set_seats(["greedy"] * 6)
        while srv.work():
            pass
        page.wait_for_function("() => S.over && review.status === 'done'")
        items = page.eval_on_selector_all(".review-forfeit", "bs => bs.map(b => b.textContent)")
        assert [item.split(":")[0] for item in items] == [
            f"{n}. {name}" for n, name in enumerate(SEAT_NAMES, 1)]
        assert all(": forfeited on time" in item for item in items)
        assert all(m["index"] > 6 for m in page.evaluate("() => review.marks"))
        assert "6 turns forfeited on time" in page.inner_text("#review-status")
        page.click('.review-forfeit[data-index="2"]')
        page.wait_for_function("() => S.browse && S.browse.index === 1")
        page.wait_for_function("() => document.querySelector('#analysis').textContent"
                               ".startsWith('review: ')")


def test_analysis_answers_for_the_position_browsed_during_and_after_the_game(opened):
    table = Table("compact", 2, seats=[PERSON] + ["greedy"] * 5, agent_delay=0)
    table.analysis = Analysis(seconds=0.05)
    with serving(table) as srv:
        page = opened(srv)
        page.click('.cell[data-cell="g6"]')
        page.click('.cell[data-cell="g10"]')
        page.wait_for_function("() => S.person_to_act && S.round === 2")
        page.click('#log .act[data-index="1"]')                # a past position, then 'a'
        page.wait_for_function("() => S.browse && S.browse.index === 1")
        page.keyboard.press("a")
        page.wait_for_function("() => analysis && analysis.status === 'done'")
        assert page.evaluate("() => [analysis.at, analysis.to_move]") == [1, 1]
        assert "% to win" in page.inner_text("#analysis")       # the browsed position's
        page.keyboard.press("End")                              # back to the game
        page.wait_for_function("() => !S.browse")
        assert page.inner_text("#analysis").startswith("the position shown is not")
        page.once("dialog", lambda dialog: dialog.accept())
        page.click("#resign")
        page.wait_for_function("() => S.over")
        page.click("#analyse")                                  # after the end: the result
        page.wait_for_function("() => document.querySelector('#analysis').textContent"
                               ".startsWith('game over: ')")


# A key that brings the keyboard's cell nearer ``cell`` on screen (Enter once on it): the
# way a player walks the board with the arrows.
TOWARD = """(cell) => {
    const at = document.activeElement, r = at.getBoundingClientRect();
    const t = document.querySelector(`#board .cell[data-cell="${cell}"]`).getBoundingClientRect();
    const dx = t.left - r.left, dy = t.top - r.top;
    if (Math.abs(dx) < 2 && Math.abs(dy) < 2) return 'Enter';
    return Math.abs(dx) > Math.abs(dy) ? (dx > 0 ? 'ArrowRight' : 'ArrowLeft')
                                       : (dy > 0 ? 'ArrowDown' : 'ArrowUp'); }"""


def walk_and_press(page, cell):
    """The arrows to ``cell``, then Enter on it (the keyboard's cell checked on the way:
    the arrows never left the board nor browsed the game)."""
    for _ in range(60):
        key = page.evaluate(TOWARD, cell)
        page.keyboard.press(key)
        if key == "Enter":
            return
        assert page.evaluate("() => document.activeElement.matches('#board .cell')")
    raise AssertionError(f"the arrows did not reach {cell}")


def test_learn_from_your_mistakes_by_keyboard_only(opened):
    """The learn pass takes the board's keys as play does: `b` to the board, the arrows
    to a piece, Enter picks it, Escape lets it go, Enter again, the arrows to its cell,
    Enter; the attempt is sent as a clicked one and the verdict shown."""
    table = Table("compact", 2, "quick8", seats=["random"] * 6, agent_delay=0)
    table.review = Review(seconds=None, iterations=100)     # the same on every machine
    while table.work():
        pass
    table.set_seats([PERSON] + ["random"] * 5)
    with serving(table, worker=False) as srv:
        page = opened(srv, 1280, 800)
        page.wait_for_function("() => S.over && review.status === 'done'")
        first = next(m for m in srv.table.review.state()["marks"] if m["seat"] == 0)
        tries = []
        page.on("request", lambda r: tries.append(r.post_data_json)
                if r.url.endswith("/api/review/try") else None)
        page.focus("#learn-start")
        page.keyboard.press("Enter")
        page.wait_for_function(f"() => S.browse && S.browse.index === {first['index'] - 1}")
        page.wait_for_selector("#learn-form:not([hidden])")
        page.keyboard.press("b")                                # the keyboard to the board
        page.wait_for_function("() => document.activeElement.matches('#board .cell')")
        origin, target = first["best"].replace("x", "-").split("-")
        walk_and_press(page, origin)                           # picked
        page.wait_for_selector(f'#board .cell[data-cell="{origin}"].selected')
        page.keyboard.press("Escape")                          # let go
        page.wait_for_function("() => !document.querySelector('#board .cell.selected')")
        page.keyboard.press("Enter")                           # picked again
        page.wait_for_selector(f'#board .cell[data-cell="{origin}"].selected')
        walk_and_press(page, target)                           # tried
        page.wait_for_function("() => / is better /.test(document.querySelector('#learn-words')"
                               ".textContent)")
        assert tries == [{"index": first["index"] - 1, "action": first["best"]}]
        assert f"{first['best']} is better" in page.inner_text("#learn-words")
        assert page.evaluate("() => S.browse.index") == first["index"] - 1   # never browsed


# -- outages ---------------------------------------------------------------------------------------
def test_an_outage_is_told_in_words_moves_are_off_and_the_record_offered_on_return(opened):
    table = Table("compact", 2, seats=[PERSON] + ["greedy"] * 5, agent_delay=0)
    srv = Server(table, port=0)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    port = srv.server_address[1]
    page = opened(srv, 1280, 720)
    page.click('.cell[data-cell="g6"]')
    page.click('.cell[data-cell="g10"]')
    page.wait_for_function("() => S.person_to_act && S.round === 2")
    srv.shutdown()
    srv.server_close()
    page.wait_for_function("() => document.body.classList.contains('offline')")
    notice = page.inner_text("#notice")
    assert notice.startswith("The server is not answering") and "trying again" in notice
    top, bottom = page.eval_on_selector("#notice", "e => [e.scrollHeight, e.clientHeight]")
    assert top <= bottom                                   # said in full at 1280x720
    for button in ("#undo", "#resign", "#stop", "#end", "#pass", "#typed-move"):
        assert page.is_disabled(button), button
    page.click(".cell.origin")
    assert page.inner_text("#error").startswith("the server is not answering")
    back = Server(Table("compact", 2, seats=[PERSON] + ["greedy"] * 5), port=port)
    threading.Thread(target=back.serve_forever, daemon=True).start()
    try:
        page.wait_for_selector("#lost-record:not([hidden])")
        assert not page.evaluate("() => document.body.classList.contains('offline')")
        assert page.inner_text("#notice").startswith("The server restarted")
        with page.expect_download() as download:
            page.click("#lost-record")
        assert victorus.record.loads(open(download.value.path()).read()).ply == table.game.ply
    finally:
        back.shutdown()
        back.server_close()


# -- spectators ---------------------------------------------------------------------------------------
def test_a_second_tab_watches_until_it_takes_the_seats(opened):
    table = Table("compact", 2, seats=[PERSON] + ["greedy"] * 5, agent_delay=0)
    with serving(table) as srv:
        first = opened(srv)
        second = opened(srv)
        assert not first.evaluate("() => S.spectator")
        assert second.evaluate("() => S.spectator")
        assert second.inner_text("#notice") == "This tab watches: the game is played in another tab"
        assert second.query_selector(".cell.origin") is None and second.is_disabled("#undo")
        second.click('.cell[data-cell="g6"]')
        assert second.inner_text("#error").startswith("this tab watches")
        second.click("#take-seats")
        second.wait_for_function("() => !S.spectator && S.person_to_act")
        first.wait_for_function("() => S.spectator")
        second.click('.cell[data-cell="g6"]')
        second.click('.cell[data-cell="g10"]')
        first.wait_for_function("() => S.round === 2")          # the watcher sees the move


# -- screen readers, names, keys ---------------------------------------------------------------------
def test_a_live_region_announces_the_agents_moves(opened):
    with serving(Table("compact", 2, seats=["greedy"] * 6, agent_delay=0), worker=False) as srv:
        page = opened(srv)
        assert page.get_attribute("#announce", "aria-live") == "polite"
        assert page.inner_text("#announce") == ""
        step_shown(page, srv, 1)
        text = page.inner_text("#announce")
        assert text.startswith("red: ")
        assert text.startswith(page.inner_text("#summary li:last-child .words"))
        step_shown(page, srv, 3)
        assert page.inner_text("#announce").startswith(
            page.inner_text("#summary li:last-child .words"))


NAMELESS = """() => [...document.querySelectorAll('select, input, button')]
  .filter(e => !e.closest('[hidden]') && e.offsetParent !== null)
  .filter(e => !(e.labels && e.labels.length) && !e.getAttribute('aria-label')
               && !(e.textContent || '').trim() && !e.title)
  .map(e => e.outerHTML.slice(0, 80))"""


def test_every_control_is_named_and_the_shortcut_keys_are_listed(opened):
    table = Table("compact", 2, seats=[PERSON] + ["greedy"] * 5, agent_delay=0)
    table.analysis = Analysis(seconds=0.05)
    with serving(table) as srv:
        page = opened(srv)
        assert page.evaluate(NAMELESS) == []
        assert page.get_attribute('select.controller[data-seat="1"]', "aria-label") == "who plays blue"
        page.keyboard.press("?")
        assert page.evaluate("() => document.querySelector('#keys').open")
        keys = page.inner_text("#shortcut-list")
        for key in ("a", "u", "s, e, p", "Home, End"):
            assert key in keys
        page.keyboard.press("a")
        page.wait_for_function("() => analysis && analysis.status === 'done'")


# -- drag and drop, the glide -------------------------------------------------------------------------
def test_a_piece_dragged_to_its_destination_is_played(opened):
    table = Table("compact", 2, seats=[PERSON] + ["greedy"] * 5, agent_delay=0)
    with serving(table) as srv:
        page = opened(srv)
        page.drag_and_drop('.cell[data-cell="g6"]', '.cell[data-cell="g10"]')
        page.wait_for_function("() => S.round === 2")
        assert srv.table.game.history()[0].text == "g6-g10"
        page.wait_for_function("() => S.person_to_act")
        origin = page.eval_on_selector(".cell.origin", "c => c.dataset.cell")
        page.drag_and_drop(f'.cell[data-cell="{origin}"]', '.cell[data-cell="a1"]'
                           if page.query_selector('.cell[data-cell="a1"]') else ".cell:not(.origin)")
        assert "cannot go to" in page.inner_text("#error") or "no legal" in page.inner_text("#error")


GLIDES = """() => { window.glides = 0; new MutationObserver((records) => {
  for (const r of records) if (r.target.classList && r.target.classList.contains('gliding')) glides += 1;
}).observe(document.querySelector('#board'),
            {attributes: true, subtree: true, attributeFilter: ['class']}); }"""


@pytest.mark.parametrize("motion", ["no-preference", "reduce"])
def test_moves_glide_unless_reduced_motion_is_asked(opened, motion):
    with serving(Table("compact", 2, seats=["greedy"] * 6, agent_delay=0), worker=False) as srv:
        page = opened(srv, reduced_motion=motion)
        page.evaluate(GLIDES)
        step_shown(page, srv, 4)
        glides = page.evaluate("() => glides")
        assert (glides > 0) == (motion == "no-preference")


# -- the whole team; a phone ---------------------------------------------------------------------------
def test_a_person_plays_the_whole_team_by_default_and_the_armies_are_named(opened):
    with serving(Table("compact", 6, seats=[PERSON] + ["greedy"] * 5, agent_delay=0)) as srv:
        page = opened(srv)
        assert page.is_checked("#new-team")                    # the default
        new_game(page, players="2", variant="standard", whole_team=True)
        assert [s for s, c in enumerate(srv.table.controllers) if c == PERSON] == [0, 2, 4]
        page.click('.cell[data-cell="g6"]')
        page.click('.cell[data-cell="g10"]')
        page.wait_for_function("() => document.querySelector('#summary li')")
        assert page.inner_text("#summary li .words").startswith("you (red): ")
        page.once("dialog", lambda dialog: dialog.accept())
        new_game(page, players="2", variant="standard", whole_team=False)
        assert [s for s, c in enumerate(srv.table.controllers) if c == PERSON] == [0]


def test_on_a_phone_the_compact_board_s_cells_are_44_px(opened):
    table = Table("compact", 2, seats=[PERSON] + ["greedy"] * 5, agent_delay=0)
    with serving(table) as srv:
        page = opened(srv, 390, 844)
        page.wait_for_function("() => document.querySelector('#board svg')"
                               ".getBoundingClientRect().width > 390")
        sizes = page.eval_on_selector_all(".cell", "cs => cs.map(c => { const r = c.getBoundingClientRect();"
                                                   " return Math.min(r.width, r.height); })")
        assert min(sizes) >= 44
        assert page.evaluate("() => document.documentElement.scrollWidth") <= 390
        laps = page.eval_on_selector_all("#armies .king-laps, #armies .queen-laps",
                                         "cs => cs.map(c => c.getBoundingClientRect().right)")
        assert laps and max(laps) <= 390                          # the laps in view
        page.click(".cell.origin")                              # reachable by scrolling the board
        page.wait_for_selector(".cell.target")


def test_coordinates_show_over_the_pieces_and_the_status_stays_in_view(opened):
    table = Table("compact", 2, seats=[PERSON] + ["greedy"] * 5, agent_delay=0)
    with serving(table) as srv:
        page = opened(srv, 1280, 720)
        page.check("#coordinates")
        page.wait_for_selector("#board .coord-layer text")
        labels = page.eval_on_selector_all("#board .coord-layer text", "ts => ts.map(t => t.textContent)")
        pieces = page.eval_on_selector_all("#board .piece", "ps => ps.map(p => p.dataset.cell)")
        assert sorted(labels) == sorted(pieces)
        page.focus("#position-details summary")     # far down the side panel
        top = page.eval_on_selector("#status", "e => e.getBoundingClientRect().top")
        aside = page.eval_on_selector("aside", "e => e.getBoundingClientRect().top")
        assert abs(top - aside) < 2                 # the status at the panel's top, in view


def test_a_new_game_s_first_turn_beeps_for_the_person(opened):
    with serving(Table("compact", 2, seats=[PERSON] + ["greedy"] * 5, agent_delay=0)) as srv:
        page = opened(srv)
        page.check("#sounds")
        assert page.evaluate("() => soundLog.length") == 0
        new_game(page)                                         # red, a person, acts first
        page.wait_for_function("() => S.person_to_act && S.game === 2")
        assert page.evaluate("() => soundLog") == ["turn"]


# -- the README's picture ----------------------------------------------------------------------
def test_the_readme_picture_round_4_against_greedy_agents_red_to_act_on_its_clock(opened, tmp_path):
    """The README's picture (docs/img/serve.png), its caption checked on the page: round 4
    of a six-army game against greedy agents, red (the person) to act with its clock
    running. Red's turns are played as the page plays them (`Table.play`), each action
    a greedy agent's choice; the table's clock is moved by hand, so no turn is ever late."""
    table = Table("standard", 6, seats=[PERSON] + ["greedy"] * 5, time_limit=120,
                  agent_delay=0, now=ManualTime())
    red = make_agent("greedy", seed=1)
    with serving(table, worker=False) as srv:
        game = srv.table.game
        while not (game.round == 4 and game.to_move == 0):
            if game.to_move == 0:
                srv.table.play(red.choose(game.copy()).text)
            else:
                assert srv.work() is True
        page = opened(srv, 1400, 900)
        page.wait_for_function(f"() => S.version === {srv.table.version}")
        assert page.evaluate("() => [S.round, S.to_move, S.person_to_act, S.over]") == [
            4, 0, True, False]
        assert page.inner_text("#status").startswith("Red to act, round 4")
        assert page.eval_on_selector_all("select.controller", "ss => ss.map(s => s.value)") == [
            PERSON] + ["greedy"] * 5                            # the armies table's "played by"
        # red's clock runs: counted down on the page, red's cell of the clocks acting
        page.wait_for_selector('#clocks td.clock-acting[data-seat="0"]')
        first = page.inner_text("#clock")
        assert re.fullmatch(r"you have \d+\.\d s to start the turn", first), first
        page.wait_for_function("(first) => document.querySelector('#clock').textContent !== first",
                               arg=first)
        page.screenshot(path=picture(tmp_path, "serve.png"))
