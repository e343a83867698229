"""What a lichess player reaches for, in headless Chromium (Playwright): premoves, the
mistakes in the move list, the analysis board, the live evaluation. Positions are built
by hand and shown through the table; the agents act only when a test steps them, and
tests wait for what the page shows, never for a time."""

import pytest

import test_browser
import victorus
from helpers import position, serving
from test_browser import TIMEOUT_MS
from test_browser_page import RED_ONLY, show, shown
from victorus.analysis import Analysis
from victorus.server import Table

pytestmark = pytest.mark.browser
browser = test_browser.browser          # the same Chromium fixture (skipped without one)

# Red's Templar on i6 and blue's on i20, blue (an agent) to act; the other armies have no
# piece and pass. Red's legs from i6 are i2, e6, m6, h7, j7 and i10, whatever blue plays.
APART = position({"i6": "0Tw", "i20": "1Tb"}, to_move=1)


@pytest.fixture
def still():
    """A standard table whose agents act only when a test says (no worker)."""
    with serving(Table("standard", 6, seats=RED_ONLY, agent_delay=0), worker=False) as srv:
        yield srv


@pytest.fixture
def opened(browser):
    pages = []

    def open_page(srv, width=1400, height=900):
        page = browser.new_page(viewport={"width": width, "height": height})
        page.set_default_timeout(TIMEOUT_MS)
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
