"""The web page's figures (the page's targets), measured in headless Chromium on
``victorus serve``: traffic, watch steps and playback.

The cases:

* traffic: bytes a minute the page receives while watching agents play a standard
  6-army game (0.3 s pause, the default; from red's side and from the army to act's)
  and while idle (a person to act), from the
  browser's resource timing (``transferSize``: headers and compressed bodies);
* a watch step of a 1,000-action game: from the step's call to the next frame painted,
  at the game's start and at its end (the log then holds every turn);
* playback: actions shown a second at the speeds 20 and 100.

Not part of the test suite (they take minutes, and the figures are measurements, not
pass/fail). Usage: python tools/page_bench.py [--seconds 60]  (needs Chromium, Playwright)
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from helpers import serving  # noqa: E402
from victorus.page.server import PERSON, Table  # noqa: E402

VIEWPORT = {"width": 1400, "height": 900}
SUM = """() => { const e = performance.getEntriesByType('resource')
    .filter(r => r.name.includes('/api/'));
  return [e.reduce((a, r) => a + r.transferSize, 0), e.length]; }"""
#: Simulation game 4 of seed 0 (standard board, 6 armies) is 1,888 actions long.
LONG_GAME = {"seed": 0, "index": 4, "board": "standard", "players": 6, "max_actions": 1000}
STEP = """async (index) => { const t = performance.now(); await stepTo(index);
  await new Promise(requestAnimationFrame); return performance.now() - t; }"""


def traffic(browser, seats, seconds: float, view: str = "0") -> tuple[float, float]:
    """(KB a minute, requests a minute) of a page on a standard 6-army game."""
    with serving(Table("standard", 6, seats=seats, agent_delay=0.3)) as srv:
        page = browser.new_page(viewport=VIEWPORT)
        page.goto(srv.url)
        page.wait_for_selector("#board svg")
        if view != "0":
            page.select_option("#view", view)
            time.sleep(1)                              # (its first answer is not counted)
        page.evaluate("() => { performance.setResourceTimingBufferSize(100000); "
                      "performance.clearResourceTimings(); }")
        time.sleep(seconds)
        size, count = page.evaluate(SUM)
        page.close()
    return size * 60 / seconds / 1e3, count * 60 / seconds


def watch_long_game(page) -> None:
    page.evaluate("(simulate) => send('/api/watch', { simulate })", LONG_GAME)
    page.wait_for_function("() => S && S.mode === 'watch' && S.watch.length === 1000")


def step_times(browser, steps: int = 100) -> dict[str, list[float]]:
    """Milliseconds of each of ``steps`` single steps near the start and near the end."""
    with serving(Table("standard", 6, seats=["random"] * 6)) as srv:
        page = browser.new_page(viewport=VIEWPORT)
        page.goto(srv.url)
        watch_long_game(page)
        times = {}
        for name, start in (("start", 0), ("end", 1000 - steps)):
            page.evaluate("(i) => stepTo(i)", start)
            page.wait_for_function(f"() => S.watch.index === {start}")
            times[name] = [page.evaluate(STEP, start + k + 1) for k in range(steps)]
        page.close()
    return times


def playback_rate(browser, speed: int, seconds: float = 5.0) -> float:
    """Actions a second shown by the page's playback at ``speed``."""
    with serving(Table("standard", 6, seats=["random"] * 6)) as srv:
        page = browser.new_page(viewport=VIEWPORT)
        page.goto(srv.url)
        watch_long_game(page)
        page.select_option("#speed", str(speed))
        page.click("#playback")
        start = time.monotonic()
        time.sleep(seconds)
        index = page.evaluate("() => S.watch.index")
        elapsed = time.monotonic() - start
        page.close()
    return index / elapsed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=60.0,
                        help="how long each traffic figure is measured")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
        for case, seats, view in (
                ("watching 6 random agents (0.3 s pause)", ["random"] * 6, "0"),
                ("the same, from the army to act (rotating board)", ["random"] * 6, "turn"),
                ("idle, a person to act", [PERSON] + ["random"] * 5, "0")):
            kb, requests = traffic(browser, seats, args.seconds, view)
            print(f"traffic, {case}: {kb:,.1f} KB/min, {requests:.0f} requests/min",
                  flush=True)
        for name, times in step_times(browser).items():
            times.sort()
            print(f"watch step of a 1,000-action game, near the {name}: median "
                  f"{statistics.median(times):.1f} ms, 95th percentile "
                  f"{times[int(len(times) * 0.95)]:.1f} ms, worst {times[-1]:.1f} ms",
                  flush=True)
        for speed in (20, 100):
            print(f"playback at speed {speed}: {playback_rate(browser, speed):.1f} actions/s",
                  flush=True)
        browser.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
