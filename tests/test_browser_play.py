"""What a lichess player reaches for, in headless Chromium (Playwright): premoves, the
mistakes in the move list, the analysis board, the live evaluation. Positions are built
by hand and shown through the table; the agents act only when a test steps them, and
tests wait for what the page shows, never for a time."""

import pytest

import test_browser
import test_browser_page
import victorus
from helpers import position, serving
from test_browser_page import RED_ONLY, show, shown
from test_browser_review import picture
from victorus.page.analysis import Analysis, Review
from victorus.page.server import Table

pytestmark = pytest.mark.browser
browser = test_browser.browser          # the same Chromium fixture (skipped without one)
opened = test_browser_page.opened        # the page fixture: a page per call, no script error
still = test_browser_page.still          # a standard table whose agents act when told

# Red's Templar on i6 and blue's on i20, blue (an agent) to act; the other armies have no
# piece and pass. Red's legs from i6 are i2, e6, m6, h7, j7 and i10, whatever blue plays.
APART = position({"i6": "0Tw", "i20": "1Tb"}, to_move=1)


def agents_until_red(srv):
    """The agents' steps until red (the person) is to act, each shown by the page."""
    while not srv.table.session.person_to_act():
        assert srv.work() is not False


def queue_premove(page, table, origin, target):
    page.click(f'.cell[data-cell="{origin}"]')
    page.wait_for_selector(f'.cell[data-cell="{origin}"].premove')
    page.click(f'.cell[data-cell="{target}"]')
    page.wait_for_function(f"() => S.premove === '{origin}-{target}'")
    assert table.premove == f"{origin}-{target}"
    assert page.eval_on_selector_all(".cell.premove", "cs => cs.map(c => c.dataset.cell).sort()") \
        == sorted([origin, target])


# -- premoves ----------------------------------------------------------------------------------
def test_a_premove_is_played_at_once_when_the_turn_comes(opened, still):
    page, table = opened(still), still.table
    show(page, table, APART)
    assert not page.evaluate("() => S.person_to_act")
    queue_premove(page, table, "i6", "i2")
    assert "premove queued: i6-i2" in page.inner_text("#message")
    agents_until_red(still)                     # blue moves; red's turn brings the premove
    shown(page, table)
    history = [a.text for a in table.game.history()]
    assert history[0].startswith("i20-")            # blue's move, then red's premove
    assert [a for a in history if a.startswith("i6")] == ["i6-i2"]
    page.wait_for_function("() => [...document.querySelectorAll('#log .act')]"
                           ".some(a => a.textContent === 'i6-i2')")
    assert page.eval_on_selector_all(".cell.premove", "cs => cs.length") == 0


def test_a_premove_not_legal_then_is_dropped_with_a_note(opened, still):
    page, table = opened(still), still.table
    show(page, table, APART)
    queue_premove(page, table, "i6", "i14")     # a Templar never gets there from i6
    agents_until_red(still)
    shown(page, table)
    page.wait_for_function("() => S.person_to_act")
    assert "premove i6-i14 was not legal then" in page.inner_text("#message")
    assert table.game.to_move == 0 and table.premove is None
    assert page.eval_on_selector_all(".cell.premove", "cs => cs.length") == 0
    assert page.eval_on_selector_all(".cell.origin", "cs => cs.map(c => c.dataset.cell)") == ["i6"]


def test_a_premove_is_cancelled_by_escape_or_a_click(opened, still):
    page, table = opened(still), still.table
    show(page, table, APART)
    queue_premove(page, table, "i6", "i2")
    page.keyboard.press("Escape")
    page.wait_for_function("() => S.premove === null")
    assert table.premove is None
    queue_premove(page, table, "i6", "e6")
    page.click('.cell[data-cell="m18"]')
    page.wait_for_function("() => S.premove === null")
    assert table.premove is None
    assert page.eval_on_selector_all(".cell.premove", "cs => cs.length") == 0


# -- the mistakes in the move list --------------------------------------------------------------
def reviewed(opened, board="compact", players=2, variant="quick2"):
    """A finished game of greedy agents, reviewed (300 iterations a position: the same
    marks on every machine), shown by a page once the review is done."""
    table = Table(board, players, variant, seats=["greedy"] * 6, agent_delay=0)
    table.review = Review(seconds=None, iterations=300)
    srv = serving(table)
    server = srv.__enter__()
    page = opened(server, 1280, 800)
    page.wait_for_function("() => S.over && review.status === 'done'")
    return srv, server, page


def test_the_review_s_marks_are_in_the_move_list_counted_and_each_a_key_away(opened, tmp_path):
    srv, server, page = reviewed(opened)
    try:
        marks = page.evaluate("() => review.marks")
        assert marks and {m["mark"] for m in marks} <= {"?!", "?", "??"}
        # in the move list: each mark right after its action
        shown_marks = page.eval_on_selector_all(
            "#log .mark",
            "ms => ms.map(m => [Number(m.previousElementSibling.dataset.index), m.textContent])")
        assert shown_marks == [[m["index"], m["mark"]] for m in marks]
        # counted per army
        counts = page.evaluate("() => review.counts")
        for seat in server.table.game.config.present:
            c = counts[seat]
            assert page.inner_text(f'#review-counts .count[data-seat="{seat}"]').endswith(
                f"?! {c['?!']}, ? {c['?']}, ?? {c['??']}")
        assert sum(sum(c.values()) for c in counts) == len(marks)
        # n walks every mark in order (the position before it, its analysis), Shift+N back
        page.click("#status")
        for m in marks:
            page.keyboard.press("n")
            page.wait_for_function(f"() => S.browse && S.browse.index === {m['index'] - 1}")
            page.wait_for_function("() => document.querySelector('#analysis').textContent"
                                   ".startsWith('review: ')")
        if len(marks) > 1:
            page.keyboard.press("Shift+N")
            page.wait_for_function(f"() => S.browse && S.browse.index === {marks[-2]['index'] - 1}")
        # the graph: one circle per mark; zoomed in, it scrolls and the mark shown is in view
        assert len(page.query_selector_all("#review-graph .review-mark")) == len(marks)
        width = page.evaluate("() => document.querySelector('#review-scroll').clientWidth")
        for _ in range(5):
            page.click("#zoom-in")
        page.wait_for_function(f"() => document.querySelector('#review-graph').getBoundingClientRect()"
                               f".width >= {30 * (width - 2)}")
        page.keyboard.press("n")
        m = marks[-1]
        page.wait_for_function(f"() => S.browse && S.browse.index === {m['index'] - 1}")
        inside = page.evaluate(f"""() => {{ const c = document.querySelector(
            '#review-graph .review-mark[data-index="{m['index']}"]').getBoundingClientRect();
            const box = document.querySelector('#review-scroll').getBoundingClientRect();
            return [c.left >= box.left - 1 && c.right <= box.right + 1, c.left, c.right,
                    box.left, box.right]; }}""")
        assert inside[0], inside
        page.click("#zoom-out")
        assert page.is_enabled("#zoom-out")
        for _ in range(4):
            page.click("#zoom-out")
        page.wait_for_function("() => !document.querySelector('#zoom-in').disabled && "
                               "document.querySelector('#zoom-out').disabled")
        page.keyboard.press("n")                                # (the first mark, for the picture)
        page.wait_for_function(f"() => S.browse && S.browse.index === {marks[0]['index'] - 1}")
        review, log = (page.eval_on_selector(sel, "e => { const r = e.getBoundingClientRect();"
                                             " return [r.left, r.top, r.right, r.bottom]; }")
                       for sel in ("#review", "#log"))
        page.screenshot(path=picture(tmp_path, "serve-reviewed-game.png"),
                        clip={"x": review[0], "y": review[1], "width": review[2] - review[0],
                              "height": log[3] - review[1]})
    finally:
        srv.__exit__(None, None, None)


# -- the analysis board -----------------------------------------------------------------------
def ab_moves(page):
    return page.eval_on_selector_all("#ab-moves .ab-node", "bs => bs.map(b => b.textContent)")


def test_a_variation_on_the_analysis_board_leaves_the_game_as_it_is(opened, tmp_path):
    table = Table("compact", 2, seats=RED_ONLY, agent_delay=0)
    table.analysis = Analysis(seconds=0.3, seed=1)
    with serving(table, worker=False) as srv:
        page = opened(srv)
        page.wait_for_selector(".cell.origin")
        version, placement = page.evaluate("() => [S.version, S.placement]")
        page.keyboard.press("v")                               # the position shown
        page.wait_for_selector("#analysis-board:not([hidden])")
        page.wait_for_function("() => /depth [1-9]/.test(document.querySelector('#ab-engine')"
                               ".textContent)")
        # the engine's line and every army's chance for the position on the board
        assert "red " in page.inner_text("#ab-engine")
        assert page.eval_on_selector_all("#ab-chances .chance", "cs => cs.length") == 6
        page.click('#ab-board .cell[data-cell="g6"]')
        page.click('#ab-board .cell[data-cell="g10"]')
        page.wait_for_selector('#ab-board .piece[data-cell="g10"]')
        assert ab_moves(page) == ["start", "g6-g10"]
        page.wait_for_function("() => document.querySelector('#ab-status').textContent"
                               ".startsWith('blue to act')")
        # a second variation from the start, kept beside the first; an illegal one refused
        page.click('#ab-moves .ab-node[data-node="0"]')
        page.wait_for_selector('#ab-board .piece[data-cell="g6"]')
        page.click('#ab-board .cell[data-cell="g6"]')
        page.click('#ab-board .cell[data-cell="g14"]')
        page.wait_for_function("() => document.querySelector('#ab-status').textContent"
                               ".includes('not legal')")
        page.click('#ab-board .cell[data-cell="g6"]')
        origin = page.evaluate("() => S.legal.legs.find(l => l[0] !== 'g6')[0]")
        target = page.evaluate("() => S.legal.legs.find(l => l[0] !== 'g6')[1]")
        page.click(f'#ab-board .cell[data-cell="{origin}"]')
        page.click(f'#ab-board .cell[data-cell="{target}"]')
        page.wait_for_function("() => document.querySelectorAll('#ab-moves .ab-node').length === 3")
        assert page.eval_on_selector_all("#ab-moves .ab-variation", "vs => vs.length") == 1
        page.wait_for_function("() => /depth [1-9]/.test(document.querySelector('#ab-engine')"
                               ".textContent)")
        page.locator("#board-box").screenshot(path=picture(tmp_path, "serve-analysis-board.png"))
        page.keyboard.press("ArrowLeft")                       # back along the tree
        page.wait_for_selector('#ab-moves .ab-node[data-node="0"].current')
        page.click("#ab-stop")
        page.wait_for_function("() => document.querySelector('#ab-engine').textContent"
                               ".startsWith('stopped') || document.querySelector('#ab-engine')"
                               ".textContent.startsWith('done')")
        # the game never moved
        assert table.game.history() == [] and table.game.to_move == 0
        assert page.evaluate("() => [S.version, S.placement]") == [version, placement]
        assert page.get_attribute('#board .cell[data-cell="g6"]', "data-army") == "0"
        page.click("#ab-close")
        page.wait_for_selector("#analysis-board", state="hidden")
        page.click('#board .cell[data-cell="g6"]')               # and it goes on as it was
        page.click('#board .cell[data-cell="g10"]')
        page.wait_for_function("() => S.version > %d" % version)
        assert [a.text for a in table.game.history()][0] == "g6-g10"


def test_the_analysis_board_copies_a_vpn_and_opens_one(opened, still):
    page, table = opened(still), still.table
    table.analysis = Analysis(seconds=0.2, seed=1)
    show(page, table, APART)
    page.click("#open-board")
    page.wait_for_function("() => document.querySelector('#ab-vpn').value !== ''")
    assert page.input_value("#ab-vpn") == victorus.Game.from_vpn(APART).vpn()
    page.click("#ab-copy")
    page.wait_for_function("() => document.querySelector('#ab-copied').textContent !== ''")
    other = position({"i6": "0Tw", "i10": "1Q", "c6": "1Tb", "i20": "2Tb"}, to_move=0)
    page.fill("#ab-vpn-in", other)
    page.click("#ab-open button")
    page.wait_for_selector('#ab-board .piece[data-cell="c6"]')
    assert page.input_value("#ab-vpn") == victorus.Game.from_vpn(other).vpn()
    assert page.evaluate("() => S.placement") == "i6:0Tw,i20:1Tb"    # the game's own


# -- the live evaluation ----------------------------------------------------------------------
def test_the_live_evaluation_is_off_in_your_own_game_until_asked(opened, still):
    page, table = opened(still), still.table
    table.analysis = Analysis(seconds=0.2, seed=1)
    show(page, table, APART)
    assert not page.is_checked("#live-eval") and page.is_hidden("#eval")
    page.check("#live-eval")
    page.wait_for_function("() => document.querySelectorAll('#eval .eval-army').length === 6 && "
                           "/evaluation: red \\d+%/.test(document.querySelector('#eval')"
                           ".getAttribute('aria-label'))")
    page.uncheck("#live-eval")
    page.wait_for_selector("#eval", state="hidden")


def test_the_live_evaluation_follows_a_watched_game_step_by_step(opened):
    table = Table("compact", 2, seats=RED_ONLY, agent_delay=0)
    table.analysis = Analysis(seconds=0.2, seed=1)
    with serving(table, worker=False) as srv:
        page = opened(srv)
        test_browser.watch_centre_game(page)
        assert page.is_checked("#live-eval")                    # on when watching
        two = ("() => document.querySelector('#eval .eval-two') && /^evaluation: red, black, "
               "purple \\d+%, blue, green, orange \\d+%$/.test(document.querySelector('#eval')"
               ".getAttribute('aria-label'))")
        page.wait_for_function(two)
        for index in (1, 2):
            page.click("#next")
            page.wait_for_function(f"() => S.watch.index === {index}")
            page.wait_for_function("() => victorus.st.live.found && victorus.st.live.found"
                                   ".placement === S.placement")
            page.wait_for_function(two)
