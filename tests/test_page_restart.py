"""The page after a server restart: its socket opens again, the person seats belong to a
tab that is alive (an open socket, or requests within the lease) and are freed when it
goes, and a take tells each tab who plays. Browser tests wait for what the page shows,
never for a time."""

import contextlib
import inspect
import threading
import time

import pytest

import test_browser
from helpers import call
from test_browser import TIMEOUT_MS
from victorus.clock import ManualTime
from victorus.page.server import MAX_POLL_WAIT, PERSON, SEAT_LEASE, SEATS_MOVED, Server, Table

browser = test_browser.browser          # the same Chromium fixture (skipped without one)
TAB_A, TAB_B, TAB_NEW = "0123456789abcdef", "fedcba9876543210", "00000000000000ff"
PLAYS, WATCHES = "this tab plays the person seats now", "the game is played from another tab now"


def person_first():
    return Table("compact", 2, seats=[PERSON] + ["greedy"] * 5, agent_delay=0)


def start(table, port=0, **options):
    """A `Server` of ``table`` serving in a thread (`stop` ends it)."""
    srv = Server(table, port=port, **options)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    return srv


def stop(srv):
    srv.shutdown()
    srv.server_close()


@contextlib.contextmanager
def serving(table, **options):
    """`start`, then `stop`."""
    srv = start(table, **options)
    try:
        yield srv
    finally:
        stop(srv)



def seen_by(srv, tab):
    """The state a page of ``tab`` reads (one that is not watching: it claims the seats)."""
    status, state = call(srv, f"/api/state?claim=1&tab={tab}")
    assert status == 200
    return state


def until(predicate, seconds=30.0):
    """Wait for ``predicate`` (a server's or a page's change seen from the test)."""
    deadline = time.monotonic() + seconds
    while not predicate():
        assert time.monotonic() < deadline, "not reached in time"
        time.sleep(0.05)


# -- the lease, over HTTP ------------------------------------------------------------------------
def test_the_lease_outlasts_the_longest_poll():
    assert inspect.signature(Server).parameters["lease"].default == SEAT_LEASE
    assert SEAT_LEASE >= 2 * MAX_POLL_WAIT          # a page that long-polls keeps its seats


def test_a_tab_unheard_for_the_lease_holds_the_seats_no_more():
    clock = ManualTime()
    with serving(person_first(), worker=False, lease=60, now=clock) as srv:
        assert seen_by(srv, TAB_A)["spectator"] is False          # A polls: no socket
        clock.advance(50)
        assert seen_by(srv, TAB_B)["spectator"] is True
        assert seen_by(srv, TAB_A)["spectator"] is False          # A's poll renews the lease
        clock.advance(60)
        assert seen_by(srv, TAB_B)["spectator"] is True           # 60 s: not yet out
        clock.advance(1)
        assert seen_by(srv, TAB_B)["spectator"] is False          # A went: B plays
        status, data = call(srv, "/api/play", {"action": "g6-g10"}, tab=TAB_A)
        assert status == 409 and "this tab watches" in data["error"]
        assert call(srv, "/api/play", {"action": "g6-g10"}, tab=TAB_B)[0] == 200
        assert seen_by(srv, TAB_A)["spectator"] is True


def test_an_open_socket_holds_the_seats_past_the_lease():
    clock = ManualTime()
    with serving(person_first(), worker=False, lease=60, now=clock) as srv:
        srv.follows(TAB_A, +1)
        assert seen_by(srv, TAB_A)["spectator"] is False
        clock.advance(3600)
        assert seen_by(srv, TAB_B)["spectator"] is True
        srv.follows(TAB_A, -1)                                     # the tab closed
        assert seen_by(srv, TAB_B)["spectator"] is False


def test_a_take_tells_each_tab_who_plays():
    with serving(person_first(), worker=False) as srv:
        assert seen_by(srv, TAB_A)["spectator"] is False
        assert call(srv, "/api/take", {}, tab=TAB_B)[0] == 200
        assert seen_by(srv, TAB_B)["message"] == PLAYS
        assert seen_by(srv, TAB_A)["message"] == WATCHES
        assert call(srv, "/api/state")[1]["message"] == SEATS_MOVED   # a script: no tab


# -- the page across a real restart ---------------------------------------------------------------
@pytest.fixture
def opened(browser):
    """open(server, script, heard): a page of the server in a context of its own (its own
    tab name), ``script`` run before the page's own, the messages its sockets receive
    added to ``heard`` (as (socket, text)), with no script error at the end."""
    pages = []

    def open_page(srv, script=None, heard=None):
        context = browser.new_context()
        if script is not None:
            context.add_init_script(script)
        page = context.new_page()
        page.set_default_timeout(TIMEOUT_MS)
        errors = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        if heard is not None:
            page.on("websocket", lambda ws: ws.on("framereceived",
                                                  lambda text: heard.append((ws, text))))
        page.goto(srv.url)
        page.wait_for_function("() => S !== null")
        pages.append((page, errors))
        return page
    yield open_page
    for page, errors in pages:
        page.context.close()
        assert errors == []


def hears(page, heard, srv, seconds=30.0):
    """Wait until a socket of ``page``, open, has a message from ``srv`` (its instance)."""
    deadline = time.monotonic() + seconds
    while not any(srv.table.instance in str(text) and not ws.is_closed() for ws, text in heard):
        assert time.monotonic() < deadline, "the page's socket did not open"
        page.wait_for_timeout(100)                  # (Playwright's events come meanwhile)


@pytest.mark.browser
def test_a_page_opens_its_socket_again_after_a_restart_and_its_seats_go_with_it(opened):
    srv = start(person_first())
    port = srv.server_address[1]
    heard = []
    first = opened(srv, heard=heard)
    hears(first, heard, srv)
    stop(srv)
    first.wait_for_function("() => document.body.classList.contains('offline')")
    # The lease is long: within the test only the socket's closing frees the seats.
    back = start(person_first(), port=port, lease=600)
    try:
        first.wait_for_function(f"() => S.instance === '{back.table.instance}' && !S.spectator")
        hears(first, heard, back)
        second = opened(back)
        assert second.evaluate("() => S.spectator")            # the first tab plays again
        second.click("#take-seats")
        second.wait_for_function(f"() => !S.spectator && S.message === '{PLAYS}'")
        first.wait_for_function(f"() => S.spectator && S.message === '{WATCHES}'")
        first.click("#take-seats")                             # and takes them back
        first.wait_for_function(f"() => !S.spectator && S.message === '{PLAYS}'")
        assert first.inner_text("#message") == PLAYS
        first.context.close()                                  # the tab that plays goes
        until(lambda: back.holds(TAB_NEW))                     # (no claim: free or not)
        third = opened(back)
        assert third.evaluate("() => !S.spectator && S.person_to_act")
        third.click('.cell[data-cell="g6"]')
        third.click('.cell[data-cell="g10"]')
        third.wait_for_function("() => S.round === 2")
    finally:
        stop(back)


@pytest.mark.browser
def test_a_tab_closed_while_it_only_polls_frees_the_seats_once_its_lease_is_out(opened):
    no_sockets = "window.WebSocket = class { constructor() { throw new Error('no sockets here'); } };"
    with serving(person_first(), lease=1) as srv:
        first = opened(srv, no_sockets)
        first.wait_for_function("() => !S.spectator")       # it plays, polling
        first.context.close()
        until(lambda: srv.holds(TAB_NEW))                      # the lease is out
        second = opened(srv)
        assert second.evaluate("() => !S.spectator && S.person_to_act")
        second.click('.cell[data-cell="g6"]')
        second.click('.cell[data-cell="g10"]')
        second.wait_for_function("() => S.round === 2")
