"""Bytes a minute the page receives, counted on the wire: headless Chromium opens
``victorus serve`` through a counting TCP relay, so HTTP answers (headers, gzipped
bodies) and WebSocket frames count alike (the browser's resource timing does not see
WebSocket frames). Cases: watching six random agents play a standard game (0.3 s pause,
the default) from red's side and from the army to act's, and an idle page (a person to
act). Also the server process's peak memory (ru_maxrss) after the cases.

Not part of the test suite (machine-dependent figures). Usage:
python tools/page_traffic.py [--seconds 60]  (needs Chromium, Playwright)
"""

from __future__ import annotations

import argparse
import resource
import shutil
import socket
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from helpers import serving  # noqa: E402
from victorus.page.server import PERSON, Table  # noqa: E402


class Relay(threading.Thread):
    """Listens on a free loopback port and relays each connection to ``target``,
    counting the bytes sent back to the client."""

    def __init__(self, target):
        super().__init__(daemon=True)
        self.target, self.received = target, 0
        self.lock = threading.Lock()
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]

    def run(self):
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            upstream = socket.create_connection(self.target)
            threading.Thread(target=self.pump, args=(client, upstream, False), daemon=True).start()
            threading.Thread(target=self.pump, args=(upstream, client, True), daemon=True).start()

    def pump(self, source, sink, count):
        try:
            while data := source.recv(65536):
                if count:
                    with self.lock:
                        self.received += len(data)
                sink.sendall(data)
        except OSError:
            pass
        finally:
            for s in (source, sink):
                try:
                    s.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass

    def close(self):
        self.listener.close()


def traffic(browser, seats, seconds: float, view: str = "0") -> float:
    """KB a minute received by a page on a standard 6-army game."""
    with serving(Table("standard", 6, seats=seats, agent_delay=0.3)) as srv:
        relay = Relay(srv.server_address[:2])
        srv.allowed_hosts = None               # the page is reached at the relay's port
        relay.start()
        page = browser.new_page(viewport={"width": 1400, "height": 900})
        page.goto(f"http://127.0.0.1:{relay.port}/")
        page.wait_for_selector("#board svg")
        if view != "0":
            page.select_option("#view", view)
        time.sleep(2)                          # the page, the first state: not counted
        start = relay.received
        time.sleep(seconds)
        received = relay.received - start
        page.close()
        relay.close()
    return received * 60 / seconds / 1e3


@contextmanager
def chromium_of(doc: str, seconds: float) -> Iterator[tuple[Any, float]]:
    """A tool's --seconds (default ``seconds``) and Debian's Chromium through Playwright,
    closed after."""
    parser = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=seconds)
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
        yield browser, args.seconds
        browser.close()


def main() -> int:
    with chromium_of(__doc__, 60.0) as (browser, seconds):
        for case, seats, view in (
                ("watching 6 random agents (0.3 s pause), from red's side", ["random"] * 6, "0"),
                ("the same, from the army to act (rotating board)", ["random"] * 6, "turn"),
                ("idle, a person to act", [PERSON] + ["random"] * 5, "0")):
            print(f"{case}: {traffic(browser, seats, seconds, view):,.1f} KB/min",
                  flush=True)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(f"this process (server and relay) peak memory: {peak / 1024:.1f} MB", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
