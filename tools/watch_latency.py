"""A move's latency while pages watch: ``victorus serve`` in a subprocess (standard board,
six armies, every seat a person), ``--watchers`` pages following it (each as the page
does: a WebSocket if the server has one, else long polls with ``since``/``wait``), and
``--moves`` moves played through ``POST /api/play``, each timed from the request to its
answer (a refused request, 503 or a dropped connection, is sent again within the same
timing). Prints the median and the worst, whether the watchers saw the last move, and
the server's peak memory (``VmHWM``, ru_maxrss).

Not part of the test suite (machine-dependent figures). Usage:
python tools/watch_latency.py [--watchers 40] [--moves 20]
"""

from __future__ import annotations

import argparse
import gzip
import http.client
import json
import random
import statistics
import subprocess
import sys
import threading
import time


def request(host, port, method, path, body=None, timeout=60.0):
    """(status, JSON) of one request on a fresh connection."""
    connection = http.client.HTTPConnection(host, port, timeout=timeout)
    try:
        headers = {"Content-Type": "application/json"} if body is not None else {}
        connection.request(method, path, body=None if body is None else json.dumps(body),
                           headers=headers)
        response = connection.getresponse()
        return response.status, json.loads(response.read() or b"null")
    finally:
        connection.close()


class Watcher(threading.Thread):
    """A page following the game: the last version it has seen."""

    def __init__(self, host, port, socket_path, stop):
        super().__init__(daemon=True)
        self.host, self.port, self.socket_path, self.stop = host, port, socket_path, stop
        self.version, self.errors = 0, 0
        self.frames, self.log = "", ""

    def run(self):
        while not self.stop.is_set():
            try:
                self.follow_socket() if self.socket_path else self.follow_polls()
            except Exception:
                self.errors += 1
                time.sleep(0.05)

    def fetch(self, connection, since: str) -> None:
        """One state request as the page makes it (the frame and the log it holds)."""
        connection.request("GET", f"/api/state?view=0&frame={self.frames}{self.log}{since}",
                           headers={"Accept-Encoding": "gzip"})
        response = connection.getresponse()
        data = response.read()
        if response.status != 200:
            raise OSError(f"status {response.status}")
        if response.getheader("Content-Encoding") == "gzip":
            data = gzip.decompress(data)
        state = json.loads(data)
        if not state.get("unchanged"):
            self.frames = state["frame_key"]
            self.log = f"&log={state['log_key']}:{len(state['log']) + state['log_from']}"
        self.version = state["version"]

    def follow_polls(self):
        """The page's fallback (and the old server's only way): long polls."""
        connection = http.client.HTTPConnection(self.host, self.port, timeout=60)
        self.frames, self.log = "", ""
        try:
            while not self.stop.is_set():
                self.fetch(connection, f"&since={self.version}&wait=20" if self.version else "")
        finally:
            connection.close()

    def follow_socket(self):
        """The page on a socket: told each change, it asks for the state."""
        from websockets.sync.client import connect
        connection = http.client.HTTPConnection(self.host, self.port, timeout=60)
        self.frames, self.log = "", ""
        url = f"ws://{self.host}:{self.port}{self.socket_path}"
        try:
            with connect(url, open_timeout=60, max_size=None,
                         origin=f"http://{self.host}:{self.port}") as ws:
                while not self.stop.is_set():
                    try:
                        notice = json.loads(ws.recv(timeout=0.5))
                    except TimeoutError:
                        continue
                    if notice["version"] != self.version:
                        self.fetch(connection, "")
        finally:
            connection.close()


GIVE_UP = 30.0


def play_one(host, port, rng):
    """(seconds from the move's request to its answer, the new version), or None if the
    server refused it (or the state it is chosen from) for GIVE_UP seconds."""
    give_up = time.monotonic() + GIVE_UP
    state: dict = {}
    while "legal" not in state:                     # (refused while the cap is full)
        if time.monotonic() > give_up:
            return None
        try:
            state = request(host, port, "GET", "/api/state?view=0")[1]
        except OSError:
            pass
        time.sleep(0.01)
    legal = state["legal"]
    action = rng.choice([leg[2] for leg in legal["legs"]] + legal["words"])
    start = time.perf_counter()
    while time.monotonic() < give_up:
        try:
            status, answer = request(host, port, "POST", "/api/play", {"action": action})
        except OSError:
            status = None
        if status == 200:
            return time.perf_counter() - start, answer["version"]
        time.sleep(0.01)
    return None


def peak_memory_kb(pid: int) -> int:
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--watchers", type=int, default=40)
    parser.add_argument("--moves", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    proc = subprocess.Popen([sys.executable, "-m", "victorus.cli", "serve", "--port", "0",
                             "--seats", "0,1,2,3,4,5", "--agent-delay", "0"],
                            stdout=subprocess.PIPE, text=True)
    stop = threading.Event()
    try:
        url = proc.stdout.readline().split(" at ")[1].split()[0]
        host, port = url.split("//")[1].rstrip("/").rsplit(":", 1)
        port = int(port)
        socket_path = "/api/socket" if request(host, port, "GET", "/api/meta")[0] == 200 else None
        idle_kb = peak_memory_kb(proc.pid)
        watchers = [Watcher(host, port, socket_path, stop) for _ in range(args.watchers)]
        for w in watchers:
            w.start()
        time.sleep(3)                                   # all connected and up to date
        rng = random.Random(args.seed)
        times, unanswered, version = [], 0, 0
        for _ in range(args.moves):
            took = play_one(host, port, rng)
            if took is None:
                unanswered += 1
                print("move: not answered within 30 s", file=sys.stderr, flush=True)
                continue
            times.append(took[0])
            version = took[1]
            print(f"move {len(times)}: {times[-1] * 1e3:.0f} ms", file=sys.stderr, flush=True)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and any(w.version < version for w in watchers):
            time.sleep(0.05)
        behind = sum(w.version < version for w in watchers)
        print(f"server: {'WebSocket' if socket_path else 'long polls'}; {args.watchers} "
              f"watchers, {args.moves} moves")
        if times:
            print(f"a move's answer: median {statistics.median(times) * 1e3:.0f} ms, worst "
                  f"{max(times) * 1e3:.0f} ms")
        print(f"moves not answered within {GIVE_UP:g} s (refused 503 all along): {unanswered}")
        print(f"watchers behind the last move after 30 s: {behind}; watcher errors "
              f"(refused, dropped): {sum(w.errors for w in watchers)}")
        print(f"server memory (VmHWM): {idle_kb / 1024:.1f} MB idle, "
              f"{peak_memory_kb(proc.pid) / 1024:.1f} MB at the end")
    finally:
        stop.set()
        proc.terminate()
        proc.wait(timeout=30)
    return 0


if __name__ == "__main__":
    sys.exit(main())
