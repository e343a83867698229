"""Bytes an action a watching page receives with the live evaluation off (its default
for a game under way) and switched on, counted on the wire: headless Chromium opens
``victorus serve`` through page_traffic.py's counting relay (HTTP answers and WebSocket
frames alike) while six random agents play a standard game (0.3 s pause, the default),
the page playing no army. Also the analyses the server started (one search per
position shown with the evaluation on, none with it off).

Not part of the test suite (machine-dependent figures). Usage:
python tools/eval_traffic.py [--seconds 30]  (needs Chromium, Playwright)
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from page_traffic import Relay, chromium_of  # noqa: E402

from helpers import serving  # noqa: E402
from victorus.page.server import Table  # noqa: E402


def watched(browser, seconds: float, evaluation: bool) -> tuple[float, int, int]:
    """(bytes an action, actions, analyses started) for a page watching six random
    agents, its evaluation ``evaluation``."""
    with serving(Table("standard", 6, seats=["random"] * 6, agent_delay=0.3)) as srv:
        relay = Relay(srv.server_address[:2])
        srv.allowed_hosts = None               # the page is reached at the relay's port
        relay.start()
        page = browser.new_page(viewport={"width": 1400, "height": 900})
        page.goto(f"http://127.0.0.1:{relay.port}/")
        page.wait_for_selector("#board svg")
        page.wait_for_function("() => S !== null")
        if evaluation:
            page.check("#live-eval")
        time.sleep(2)                          # the page, the first state: not counted
        start, ply = relay.received, srv.table.game.ply
        started = srv.table.analysis.state()["id"]
        time.sleep(seconds)
        received, actions = relay.received - start, srv.table.game.ply - ply
        analyses = srv.table.analysis.state()["id"] - started
        page.close()
        relay.close()
    return received / max(1, actions), actions, analyses


def main() -> int:
    with chromium_of(__doc__, 30.0) as (browser, seconds):
        for case, evaluation in (("evaluation off (the default)", False),
                                 ("evaluation switched on", True)):
            per_action, actions, analyses = watched(browser, seconds, evaluation)
            print(f"watching 6 random agents, {case}: {per_action:,.0f} B an action "
                  f"({actions} actions in {seconds:g} s; {analyses} analyses started)",
                  flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
