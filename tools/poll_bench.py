"""A player's move while many pages watch: ``watchers`` clients each keep a long poll
open on ``victorus serve`` (as the page does: ``/api/state?since=&wait=20`` on a
kept-alive connection, asked again as soon as it is answered), and one player plays
moves on its own connection. Prints the time from each move's POST to its answer
(median, 90th percentile, worst) and the moves refused.

Not part of the test suite (its figures depend on the machine; tests/test_server.py
checks the behaviour). Usage: python tools/poll_bench.py [--watchers 40] [--moves 20]
"""

from __future__ import annotations

import argparse
import http.client
import json
import statistics
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from helpers import serving  # noqa: E402
from victorus.server import PERSON, Table  # noqa: E402


def watcher(address, stop: threading.Event, polls: list) -> None:
    """One watching page: a long poll, again and again, on one connection."""
    conn = http.client.HTTPConnection(*address, timeout=60)
    version = None
    while not stop.is_set():
        try:
            since = "" if version is None else f"&since={version}&wait=20"
            conn.request("GET", f"/api/state?view=turn{since}")
            answer = conn.getresponse()
            data = json.loads(answer.read())
            if answer.status == 200:
                version = data["version"]
                polls.append(1)
            else:
                time.sleep(1.0)                    # the page's back-off after an error
        except (OSError, http.client.HTTPException):
            conn.close()
            conn = http.client.HTTPConnection(*address, timeout=60)
            time.sleep(1.0)
    conn.close()


def run(watchers: int, moves: int) -> tuple[list[float], int]:
    table = Table("standard", 6, seats=[PERSON] * 6, agent_delay=0)
    latencies, refused = [], 0
    with serving(table, worker=False) as srv:
        address = srv.server_address[:2]
        stop, polls = threading.Event(), []
        threads = [threading.Thread(target=watcher, args=(address, stop, polls), daemon=True)
                   for _ in range(watchers)]
        for thread in threads:
            thread.start()
        time.sleep(2.0)                            # every watcher's poll under way
        player = http.client.HTTPConnection(*address, timeout=60)
        for _ in range(moves):
            with table.lock:
                action = next(a.text for a in table.game.legal_actions())
            body = json.dumps({"action": action}).encode()
            start = time.perf_counter()
            try:
                player.request("POST", "/api/play", body, {"Content-Type": "application/json"})
                answer = player.getresponse()
                answer.read()
                ok = answer.status == 200
            except (OSError, http.client.HTTPException):
                player.close()
                player = http.client.HTTPConnection(*address, timeout=60)
                ok = False
            latencies.append(time.perf_counter() - start)
            refused += not ok
            time.sleep(0.5)                        # the watchers take the change in
        stop.set()
        player.close()
    return latencies, refused


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--watchers", type=int, default=40)
    parser.add_argument("--moves", type=int, default=20)
    args = parser.parse_args()
    latencies, refused = run(args.watchers, args.moves)
    ms = sorted(1000 * t for t in latencies)
    print(f"{args.watchers} watchers long-polling, {args.moves} moves: median "
          f"{statistics.median(ms):.1f} ms, p90 {ms[int(0.9 * (len(ms) - 1))]:.1f} ms, "
          f"worst {ms[-1]:.1f} ms; refused {refused}")


if __name__ == "__main__":
    main()
