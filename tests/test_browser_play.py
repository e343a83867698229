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
from victorus.page.server import PERSON, Table

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


# Red's King on i8 after a lap (red, an agent, wins with i8-i14), blue's Templar on i20.
RED_WINS_NEXT = position({"i8": "0K", "i20": "1Tb"}, armies={0: "a,3,"}, laps={"i8": 1})
BLUE_ONLY = ["greedy", PERSON] + ["greedy"] * 4


def premove_calls(page):
    """The statuses of the page's premove calls, as they come."""
    statuses = []
    page.on("response", lambda r: statuses.append(r.status) if "/api/premove" in r.url else None)
    return statuses


def nothing_queued(page):
    assert page.eval_on_selector_all(".cell.premove", "cs => cs.length") == 0
    assert "premove queued" not in page.inner_text("#message")
    assert page.inner_text("#error") == ""


def test_a_premove_is_dropped_at_the_game_s_end_and_escape_is_never_refused(opened, still):
    page, table = opened(still), still.table
    statuses = premove_calls(page)
    show(page, table, RED_WINS_NEXT, seats=BLUE_ONLY)
    queue_premove(page, table, "i20", "i16")
    while not table.game.is_over:               # red's King enters the centre
        assert still.work()
    shown(page, table)
    page.wait_for_function("() => S.over && S.premove === null")
    nothing_queued(page)
    page.click("#banner-close")
    page.keyboard.press("Escape")
    nothing_queued(page)
    assert page.evaluate("() => [victorus.st.premove, victorus.st.preselected]") == [None, None]
    assert 400 not in statuses and statuses


def test_a_premove_is_dropped_by_a_resignation_and_by_an_undo(opened, still):
    page, table = opened(still), still.table
    show(page, table, APART)
    queue_premove(page, table, "i6", "i2")
    page.once("dialog", lambda d: d.accept())
    page.click("#resign")
    page.wait_for_function("() => S.over && S.premove === null")
    nothing_queued(page)
    # red played i6-i2 and blue is to act: a premove, then undo
    table.new_game(seats=list(RED_ONLY), agent_delay=0)
    show(page, table, position({"i6": "0Tw", "i20": "1Tb"}, to_move=0))
    page.click('.cell[data-cell="i6"]')
    page.click('.cell[data-cell="i2"]')
    page.wait_for_function("() => !S.person_to_act && S.can_undo")
    queue_premove(page, table, "i2", "i6")
    page.click("#undo")
    page.wait_for_function("() => S.person_to_act && S.premove === null")
    nothing_queued(page)
    assert table.premove is None and table.game.ply == 0


def test_a_premove_is_played_for_its_own_army_only(opened, still):
    page, table = opened(still), still.table
    # red and green played here, blue to act; green acts before red
    three = position({"i6": "0Tw", "i20": "1Tb", "c6": "3Tb"}, to_move=1)
    show(page, table, three, seats=[PERSON, "greedy", "greedy", PERSON, "greedy", "greedy"])
    queue_premove(page, table, "i6", "i2")
    assert "premove queued for red: i6-i2" in page.inner_text("#message")
    assert page.evaluate("() => S.premove_army") == 0
    agents_until_red(still)                     # (until a person's turn: green's)
    shown(page, table)
    page.wait_for_function("() => S.person_to_act && S.to_move === 3")
    assert "red's premove i6-i2 was dropped: green's turn came first" in page.inner_text("#message")
    nothing_queued(page)
    assert not any(a.text.startswith("i6") for a in table.game.history())


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
        review = page.eval_on_selector("#review", "e => { const r = e.getBoundingClientRect();"
                                       " return [r.left, r.top, r.right, r.bottom]; }")
        page.screenshot(path=picture(tmp_path, "serve-reviewed-game.png"),
                        clip={"x": review[0], "y": review[1], "width": review[2] - review[0],
                              "height": review[3] - review[1]})
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
        # a second variation from the start, kept beside the first; a cell that is not a
        # destination of the piece picked drops the pick
        page.click('#ab-moves .ab-node[data-node="0"]')
        page.wait_for_selector('#ab-board .piece[data-cell="g6"]')
        page.click('#ab-board .cell[data-cell="g6"]')
        page.wait_for_selector('#ab-board .cell.selected[data-cell="g6"]')
        assert page.query_selector('#ab-board .cell.target[data-cell="g14"]') is None
        page.click('#ab-board .cell[data-cell="g14"]')
        page.wait_for_selector('#ab-board .cell.selected', state="detached")
        assert ab_moves(page) == ["start", "g6-g10"]
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
    page.wait_for_selector('#ab-board .piece[data-cell="c6"]')          # (drawn at once)
    page.wait_for_function("v => document.querySelector('#ab-vpn').value === v",
                           arg=victorus.Game.from_vpn(other).vpn())       # (the server's)
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


def overlaps(page, bars, things):
    """The pairs (bar, thing) whose boxes meet: each a list of selectors' boxes."""
    return page.evaluate(f"""() => {{
        const boxes = (sel) => [...document.querySelectorAll(sel)].map(e => e.getBoundingClientRect());
        const meet = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
        const bars = boxes({bars!r}), things = boxes({things!r});
        return [bars.length, things.length,
                bars.flatMap(a => things.filter(b => meet(a, b))
                                         .map(b => [a.left, a.right, b.left, b.right]))];
    }}""")


@pytest.mark.parametrize("width,height", [(1280, 720), (1400, 900)])
def test_the_eval_bars_stand_beside_the_board_never_over_a_piece(opened, tmp_path, width,
                                                                height):
    table = Table("standard", 6, seats=RED_ONLY, agent_delay=0)
    table.analysis = Analysis(seconds=0.2, seed=1)
    with serving(table, worker=False) as srv:
        page = opened(srv, width, height)
        board = page.eval_on_selector("#board svg", "e => JSON.stringify(e.getBoundingClientRect())")
        page.check("#live-eval")
        page.wait_for_function("() => document.querySelectorAll('#eval .eval-army').length === 6 && "
                               "/evaluation: red \\d+%/.test(document.querySelector('#eval')"
                               ".getAttribute('aria-label'))")
        bars, pieces, met = overlaps(page, "#eval .eval-army", "#board .piece")
        assert (bars, met) == (6, []) and pieces == 72
        bars, cells, met = overlaps(page, "#eval .eval-army", "#board .cell")
        assert met == [] and cells > 150
        # the board did not move when the bars came (their column is kept)
        assert page.eval_on_selector("#board svg", "e => JSON.stringify(e.getBoundingClientRect())") \
            == board
        if (width, height) == (1280, 720):
            page.locator("#board-box").screenshot(path=picture(tmp_path, "serve-eval.png"))


def test_the_two_teams_bar_stands_beside_the_board(opened):
    table = Table("compact", 2, seats=RED_ONLY, agent_delay=0)
    table.analysis = Analysis(seconds=0.2, seed=1)
    with serving(table, worker=False) as srv:
        page = opened(srv, 1280, 720)
        page.check("#live-eval")
        page.wait_for_selector("#eval .eval-two")
        bars, pieces, met = overlaps(page, "#eval .eval-two", "#board .piece, #board .cell")
        assert (bars, met) == (1, []) and pieces > 100


def test_the_eval_bar_follows_your_finished_game_into_its_past(opened, still):
    page, table = opened(still), still.table
    table.analysis = Analysis(seconds=0.2, seed=1)
    show(page, table, test_browser_page.CENTRE)
    assert not page.is_checked("#live-eval") and page.is_hidden("#eval")   # your game, going on
    table.play("i8-i14")                                     # red's King wins
    shown(page, table)
    page.wait_for_function("() => S.over")
    assert page.is_checked("#live-eval") and page.is_visible("#eval")     # over: on
    page.click("#banner-close")
    page.click("#status")
    page.keyboard.press("ArrowLeft")                         # the position before the end
    page.wait_for_function("() => S.browse && S.browse.index === 0 && S.browse.over")
    assert page.is_checked("#live-eval") and page.is_visible("#eval")
    page.wait_for_function("() => victorus.st.live.found && victorus.st.live.found.placement "
                           "=== S.placement && document.querySelectorAll('#eval .eval-army')"
                           ".length === 6")
    page.keyboard.press("ArrowRight")                        # back to the end
    page.wait_for_function("() => !S.browse && S.over")
    assert page.is_visible("#eval")


def test_the_eval_is_off_for_a_visitor_watching_a_game_under_way(opened):
    table = Table("standard", 6, seats=["greedy"] * 6, agent_delay=0)
    table.analysis = Analysis(seconds=0.2, seed=1)
    with serving(table, worker=False) as srv:
        page = opened(srv)
        asked = []
        page.on("request", lambda r: asked.append(r.url) if "/api/analys" in r.url else None)
        for _ in range(3):
            assert srv.work()
            shown(page, table)
        assert not page.is_checked("#live-eval") and page.is_hidden("#eval") and asked == []
        page.check("#live-eval")                             # asked: on, and it follows
        page.wait_for_function("() => /evaluation: red \\d+%/.test(document.querySelector('#eval')"
                               ".getAttribute('aria-label'))")
        assert srv.work()
        shown(page, table)
        page.wait_for_function("() => victorus.st.live.found && victorus.st.live.found.placement "
                               "=== S.placement")
        assert any("/api/analyse" in url for url in asked)


# -- the review box ---------------------------------------------------------------------------
def reviewed_random(opened, width=1280, height=720, person=False):
    """A finished 72-action game of random agents (compact board, two teams of three
    armies, quick8), reviewed at 100 iterations a position (the same marks on every
    machine); with ``person``, red is then played from the page. Shown by a page once
    the review is done."""
    table = Table("compact", 2, "quick8", seats=["random"] * 6, agent_delay=0)
    table.review = Review(seconds=None, iterations=100)
    table.state()
    while table.work():
        pass
    assert table.game.is_over
    if person:
        table.set_seats([PERSON] + ["random"] * 5)
    srv = serving(table, worker=False)
    server = srv.__enter__()
    page = opened(server, width, height)
    page.wait_for_function("() => S.over && review.status === 'done'")
    return srv, server, page


def test_the_review_box_shows_every_count_each_accuracy_and_eight_marks_above_the_fold(opened):
    srv, server, page = reviewed_random(opened)
    try:
        review = server.table.review.state()
        assert len(review["marks"]) >= 8
        # every army's counts and accuracy, none cut
        for seat in server.table.game.config.present:
            c, accuracy = review["counts"][seat], review["accuracy"][seat]
            text = page.inner_text(f'#review-counts .count[data-seat="{seat}"]')
            assert text.endswith(f"?! {c['?!']}, ? {c['?']}, ?? {c['??']}")
            assert (f"{accuracy:.1f}%" if accuracy is not None else " -:") in text
        cut = page.eval_on_selector_all("#review-counts .count", "cs => cs.map(c => "
                                        "c.scrollWidth > c.clientWidth)")
        assert cut == [False] * 6
        # at least 8 marked actions in view at 1280x720, with no scrolling
        inside = page.evaluate("""() => {
            const list = document.querySelector('#review-marks').getBoundingClientRect();
            return [...document.querySelectorAll('#review-marks .review-jump')].filter(b => {
                const r = b.getBoundingClientRect();
                return r.top >= Math.max(0, list.top) && r.bottom <= Math.min(innerHeight, list.bottom)
                    && r.left >= 0 && r.right <= innerWidth; }).length; }""")
        assert inside >= 8, inside
        assert page.evaluate("() => document.querySelector('aside').scrollTop") == 0
    finally:
        srv.__exit__(None, None, None)


def test_next_mistake_walks_the_player_s_marks_and_learn_from_them(opened):
    srv, server, page = reviewed_random(opened, person=True)
    try:
        review = server.table.review.state()
        mine = [m for m in review["marks"] if m["seat"] == 0]
        assert mine and len(mine) < len(review["marks"])        # (others' marks too)
        page.click("#status")
        for m in mine + mine[:1]:                               # round and round
            page.click("#mistake-next")
            page.wait_for_function(f"() => S.browse && S.browse.index === {m['index'] - 1}")
        # learn from your mistakes: the played action is not better, the best is
        page.click("#learn-start")
        first = mine[0]
        page.wait_for_function(f"() => S.browse && S.browse.index === {first['index'] - 1}")
        assert page.inner_text("#learn-words").startswith(
            f"1/{len(mine)}: {first['index']}. red played {first['played']}{first['mark']}: "
            f"find a better action")
        page.fill("#learn-move", first["played"])
        page.click("#learn-try")
        page.wait_for_function("() => /loses \\d+%/.test(document.querySelector('#learn-words')"
                               ".textContent)")
        assert f"best {first['best']}" in page.inner_text("#learn-words")
        assert page.is_visible("#learn-next") and page.is_hidden("#learn-form")
        page.click("#learn-stop")
        page.click("#learn-start")
        page.wait_for_selector("#learn-form:not([hidden])")
        best = first["best"]
        origin, target = best.replace("x", "-").split("-")          # by the board: piece, cell
        page.click(f'#board .cell[data-cell="{origin}"]')
        page.wait_for_selector(f'#board .cell[data-cell="{origin}"].selected')
        page.click(f'#board .cell[data-cell="{target}"]')
        page.wait_for_function("() => / is better /.test(document.querySelector('#learn-words')"
                               ".textContent)")
        assert page.inner_text("#learn-words").startswith(f"1/{len(mine)}: ") and \
            f"{best} is better" in page.inner_text("#learn-words")
        # an action not legal there: its one-line reason, and the player tries again
        page.click("#learn-next")                 # (the pass ends after the last mark)
        if len(mine) == 1:
            page.wait_for_selector("#learn-start:not([hidden])")
            page.click("#learn-start")
        page.wait_for_selector("#learn-form:not([hidden])")
        page.fill("#learn-move", "a1-a2")
        page.click("#learn-try")
        page.wait_for_function("() => /'action' must be one of/.test("
                               "document.querySelector('#learn-words').textContent)")
        assert page.is_visible("#learn-form")
    finally:
        srv.__exit__(None, None, None)
