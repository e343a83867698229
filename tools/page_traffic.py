"""The web page's traffic (issue 17's transport targets): bytes a minute that a page in
headless Chromium receives from ``victorus serve`` while watching agents play and while
idle (a person to act), from the browser's resource timing (``transferSize``: headers and
compressed bodies). Not part of the test suite (a minute or more, and the figures are
measurements, not pass/fail).

Usage: python tools/page_traffic.py [--seconds 60]   (needs Chromium and Playwright)
"""

from __future__ import annotations

import argparse
import shutil
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from helpers import serving  # noqa: E402
from victorus.server import PERSON, Table  # noqa: E402

SUM = """() => { const e = performance.getEntriesByType('resource')
    .filter(r => r.name.includes('/api/'));
  return [e.reduce((a, r) => a + r.transferSize, 0), e.length]; }"""


def measure(browser, seats, seconds: float) -> tuple[float, float]:
    """(KB a minute, requests a minute) of a page on a standard 6-army game."""
    with serving(Table("standard", 6, seats=seats, agent_delay=0.3)) as srv:
        page = browser.new_page(viewport={"width": 1400, "height": 900})
        page.goto(srv.url)
        page.wait_for_selector("#board svg")
        page.evaluate("() => { performance.setResourceTimingBufferSize(100000); "
                      "performance.clearResourceTimings(); }")
        time.sleep(seconds)
        size, count = page.evaluate(SUM)
        page.close()
    return size * 60 / seconds / 1e3, count * 60 / seconds


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=60.0)
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
        for case, seats in (("watching 6 random agents (0.3 s delay)", ["random"] * 6),
                            ("idle, a person to act", [PERSON] + ["random"] * 5)):
            kb, requests = measure(browser, seats, args.seconds)
            print(f"{case}: {kb:,.1f} KB/min, {requests:.0f} requests/min", flush=True)
        browser.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
