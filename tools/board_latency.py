"""The analysis board's move latency, measured in headless Chromium on ``victorus serve``:
from a click on a legal destination to the frame that shows the move (the target: one
frame, 16 ms).

The board is opened on a game whose moves are its main line (``--actions`` random actions
played first, so the move list is long), then ``--moves`` moves are played on it by
clicks, each a random legal leg of the position shown (the page picks the piece, then
clicks its destination). Each click is traced (Chromium's timeline): from the start of
the click's dispatch to the compositor's ``DrawFrame`` of the first frame painted after
it (``to frame``; a probe checks that the moved piece is in that frame), and the main
thread's CPU time for it (``CPU``: the click's handlers, then the frame's style, layout,
paint and layers; what the frame costs whatever else the machine runs). Prints the median
and the worst of each, for a two-army compact game and a six-army standard one, with the
machine's load average (the wall times grow with it, the CPU times hardly).

Not part of the test suite (machine-dependent figures). Usage:
python tools/board_latency.py [--moves 30] [--actions 300]  (needs Chromium, Playwright)
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from helpers import serving  # noqa: E402
from victorus import play_random  # noqa: E402
from victorus.page.analysis import Analysis  # noqa: E402
from victorus.page.server import PERSON, Table  # noqa: E402

#: The page's probe of one click: whether the moved piece is in the next frame.
PROBE = """(target) => { window.boardClick = new Promise((resolve) => {
  const box = document.querySelector('#ab-board');
  box.addEventListener('click', () => requestAnimationFrame(() => resolve(
    box.querySelector(`.piece[data-cell="${target}"]`) !== null)), { once: true, capture: true });
}); }"""
SETTLED = """() => { const tree = victorus.st.board, p = tree && tree.at.position;
  return p && !p.provisional && !tree.running; }"""


def click_to_frame(trace: bytes) -> tuple[float, float]:
    """(ms from the click's dispatch to the DrawFrame of the first frame painted after it,
    main-thread CPU ms from the dispatch to the end of that frame's paint and layerizing)
    from a timeline trace of one click."""
    events = [e for e in json.loads(trace)["traceEvents"] if "ts" in e]
    click = next(e for e in events if e["name"] == "EventDispatch" and
                 e.get("args", {}).get("data", {}).get("type") == "click")
    main, start = click["tid"], click["ts"]
    paint = min((e for e in events if e["name"] == "Paint" and e["tid"] == main and
                 e["ts"] > start), key=lambda e: e["ts"])
    drawn = min((e for e in events if e["name"] == "DrawFrame" and e["ts"] > paint["ts"]),
                key=lambda e: e["ts"])
    after = [e for e in events if e["name"] in ("Layerize", "Commit") and e["tid"] == main
             and paint["ts"] <= e["ts"] < drawn["ts"]]
    end = max([e["ts"] + e.get("dur", 0) for e in after] + [paint["ts"] + paint.get("dur", 0)])
    cpu, until = 0, start
    for e in sorted((e for e in events if e["tid"] == main and e.get("ph") == "X" and
                     start <= e["ts"] < end), key=lambda e: e["ts"]):
        if e["ts"] >= until:                          # (a top-level task: not nested)
            cpu += e.get("tdur", e.get("dur", 0))
            until = e["ts"] + e.get("dur", 0)
    return (drawn["ts"] - start) / 1000, cpu / 1000


def measure(browser, board: str, players: int, actions: int, moves: int,
            seed: int) -> list[tuple[float, float]]:
    """(to frame, CPU) milliseconds of each click that played a move."""
    table = Table(board, players, seats=[PERSON] * 6, agent_delay=0)
    table.analysis = Analysis(seconds=0.2, seed=1)
    play_random(table.game, seed=seed, max_actions=actions)
    table.set_seats([PERSON] * 6)                 # (the game shown anew)
    rng = random.Random(seed)
    times = []
    with serving(table, worker=False) as srv:
        page = browser.new_page(viewport={"width": 1400, "height": 900})
        page.goto(srv.url)
        page.wait_for_selector("#board svg")
        page.keyboard.press("v")
        page.wait_for_function(SETTLED)
        for _ in range(moves):
            legs = page.evaluate("() => (victorus.st.board.at.position.legal || [])"
                                 ".filter(a => /^[a-z]\\d+[-x][a-z]\\d+$/.test(a))")
            if not legs:
                break
            origin, target = rng.choice(legs).replace("x", "-").split("-")
            page.click(f'#ab-board .cell[data-cell="{origin}"]')
            page.wait_for_selector(f'#ab-board .cell.selected[data-cell="{origin}"]')
            page.evaluate(PROBE, target)
            browser.start_tracing(page=page, categories=[
                "devtools.timeline", "disabled-by-default-devtools.timeline.frame"])
            page.click(f'#ab-board .cell[data-cell="{target}"]')
            assert page.evaluate("() => boardClick"), "the move is not in the next frame"
            page.wait_for_function(SETTLED)
            times.append(click_to_frame(browser.stop_tracing()))
        page.close()
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=30)
    parser.add_argument("--actions", type=int, default=300)
    args = parser.parse_args()
    chromium = next((p for p in map(shutil.which, ("chromium", "chromium-browser",
                                                   "google-chrome")) if p), None)
    if chromium is None:
        sys.exit("board_latency: no Chromium found")
    from playwright.sync_api import sync_playwright
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
        for board, players in (("compact", 2), ("standard", 6)):
            times = measure(browser, board, players, args.actions, args.moves, seed=7)
            words = [f"{name} median {statistics.median(t[k] for t in times):.1f} ms, worst "
                     f"{max(t[k] for t in times):.1f} ms"
                     for k, name in enumerate(("to frame", "CPU"))]
            print(f"{board} {players} armies, a main line of {args.actions} actions, "
                  f"{len(times)} moves (load average {os.getloadavg()[0]:.1f}): "
                  + "; ".join(words))
        browser.close()


if __name__ == "__main__":
    main()
