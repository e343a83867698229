"""The page's client, in headless Chromium (Playwright): it holds still while it loads,
the keyboard plays after a mouse click, screen readers meet the cells (not the pieces'
letters, not an empty clock table). Tests wait for what the page shows, never for a
time."""

import pytest

import test_browser
import test_browser_page
from test_browser import new_game

pytestmark = pytest.mark.browser
browser = test_browser.browser          # the same Chromium fixture (skipped without one)
opened = test_browser_page.opened        # the page fixture: a page per call, no script error
standard = test_browser_page.still       # a standard table whose agents act when told
live = test_browser_page.live            # a compact table whose agents play at once

# Every layout shift from the page's first paint on, noted before any script of the page
# runs (buffered: the shifts before the observer too).
SHIFTS = """window.shifts = [];
new PerformanceObserver((list) => { for (const e of list.getEntries())
    if (!e.hadRecentInput) window.shifts.push([e.value, e.sources.map(s => s.node ?
        (s.node.id || s.node.nodeName) : '?').join(' ')]); })
  .observe({ type: 'layout-shift', buffered: true });"""

# The page is whole: the server's menus filled, the first state drawn (the armies, the
# board's cells described, the legend's marks), and two frames painted since.
LOADED = """() => new Promise((resolve) => {
    const whole = document.querySelector('#army-0') && document.querySelector('.cell[aria-label]')
        && document.querySelector('#new-agent').options.length > 0
        && document.querySelector('#legend-marks').childElementCount > 0;
    if (!whole) { resolve(false); return; }
    requestAnimationFrame(() => requestAnimationFrame(() => resolve(true)));
})"""


# -- the page holds still while it loads ---------------------------------------------------
@pytest.mark.parametrize("size", [(1280, 720), (1400, 900), (375, 812)])
def test_the_page_holds_still_while_it_loads(opened, standard, size):
    # The cumulative layout shift from the first paint until the page is whole (the menus
    # the server fills, the board, the armies, the legend): under 0.1 (Google's "good").
    # The header's menus have their width before they are filled, the armies table its
    # rows, the legend its state before the first paint, and on a phone the board its room.
    page = opened(standard, *size, before=SHIFTS)
    page.wait_for_function(LOADED)
    shifts = page.evaluate("() => window.shifts")
    total = sum(value for value, _ in shifts)
    print(f"layout shift while loading at {size[0]}x{size[1]}: {total:.4f} {shifts}")
    assert total < 0.1, shifts


def test_a_returning_player_s_closed_legend_moves_nothing(opened, standard):
    # The legend closed on a first visit stays closed on the next, before the first paint.
    page = opened(standard, 1400, 900)
    page.click("#legend > summary")
    page.wait_for_function("() => localStorage.getItem('victorus-legend') === 'closed'")
    page.add_init_script(SHIFTS)
    page.reload()
    page.wait_for_function(LOADED)
    assert not page.evaluate("() => document.querySelector('#legend').open")
    assert sum(v for v, _ in page.evaluate("() => window.shifts")) < 0.1


# -- keyboard play after a mouse click -------------------------------------------------------
@pytest.mark.parametrize("clicked", ["#status", '.cell[data-cell="g6"]', "#coordinates"])
def test_the_keyboard_plays_after_a_mouse_click(opened, live, clicked):
    # Whatever was clicked last (the panel, a piece, a box), `b` puts the keyboard on a
    # cell of the board, never on the board's box, and the arrows and Enter play from there.
    page = opened(live)
    new_game(page, variant="standard")
    page.wait_for_selector(".cell.origin")
    page.click(clicked)
    if clicked == "#coordinates":
        page.wait_for_function("() => document.querySelector('.coord-layer')")
    page.keyboard.press("b")
    page.wait_for_function("() => document.activeElement.classList.contains('cell')")
    first = page.evaluate("() => document.activeElement.dataset.cell")
    page.keyboard.press("ArrowUp")
    page.wait_for_function(f"() => document.activeElement.classList.contains('cell') && "
                           f"document.activeElement.dataset.cell !== '{first}'")
    # back to a piece that can move, picked by Enter
    page.keyboard.press("b")
    origin = page.evaluate("() => document.querySelector('.cell.origin').dataset.cell")
    page.evaluate(f"() => document.querySelector('.cell[data-cell=\"{origin}\"]').focus()")
    page.keyboard.press("Enter")
    page.wait_for_selector(f'.cell[data-cell="{origin}"].selected')
    assert page.evaluate("() => document.activeElement.id") != "board"


# -- what a screen reader meets --------------------------------------------------------------
def test_the_board_reads_its_cells_not_the_pieces_letters(opened, live):
    page = opened(live)
    new_game(page, variant="standard")
    page.wait_for_selector(".cell.origin")
    tree = page.locator("#board").aria_snapshot()
    # (one entry a line, "- role \"name\"", quoted when the name has a colon)
    lines = [line.strip()[2:].strip("'") for line in tree.splitlines() if line.strip()]
    # every entry is a cell (a button named by its label, its piece, what it can do)
    assert lines[0].startswith('group "the board"')
    named = [line for line in lines[1:] if line.startswith("button ")]
    assert len(named) == page.eval_on_selector_all(".cell", "cs => cs.length") == 127
    assert len(lines) == 1 + len(named)                     # nothing else: no letters
    assert any("g6: red Templar" in line and "can move" in line for line in named)


def test_an_empty_clock_table_is_not_read(opened, live):
    page = opened(live)
    new_game(page, variant="standard")                 # no time limit
    page.wait_for_selector(".cell.origin")
    assert page.get_attribute("#clocks", "aria-hidden") == "true"
    assert "every army's clock" not in page.locator("aside").aria_snapshot()
    new_game(page, variant="standard", time_limit="30")
    page.wait_for_selector('#clocks td[data-seat="0"]')
    assert page.get_attribute("#clocks", "aria-hidden") == "false"
    assert "every army's clock" in page.locator("aside").aria_snapshot()


# -- the socket's deltas ---------------------------------------------------------------------
PIECES_SHOWN = """() => [...document.querySelectorAll('#board .piece')]
    .map(p => p.dataset.cell + ':' + p.dataset.army).sort()"""


def test_the_page_follows_the_socket_s_deltas_and_asks_for_the_state_when_one_is_missed(
        opened, standard):
    # Six agents, stepped by the test: each change comes as a delta on the socket, which
    # the page applies (its pieces drawn from the cells); a delta whose base the page does
    # not hold (here: the page's watched state put out of step) brings the whole state.
    page, table = opened(standard), standard.table
    table.set_seats(["greedy"] * 6)
    page.wait_for_function(f"() => S.version === {table.version}")
    page.wait_for_function("() => victorus.st.W !== null")
    before = page.evaluate("() => victorus.st.deltas")
    for step in range(30):
        if step == 20:
            page.evaluate("() => { victorus.st.W = {...victorus.st.W, version: -1}; }")
        assert standard.work()
        page.wait_for_function(f"() => S.version === {table.version}")
        state = table.state()
        placement = sorted(f"{cell}:{code[0]}" for cell, code in
                           (e.split(":") for e in state["placement"].split(",")))
        assert page.evaluate(PIECES_SHOWN) == placement
        assert page.evaluate("() => S.placement") == state["placement"]
    assert page.evaluate("() => victorus.st.deltas") - before >= 25     # most by deltas
    logged = page.eval_on_selector_all("#log .act", "els => els.map(e => e.textContent)")
    assert logged == [a.text for a in table.game.history()]
    assert page.evaluate("() => S.vpn") == (table.game.vpn() if table.game.phase == "start"
                                            else None)
