"""Soak test: long random use of the engine and of the web server, reporting
peak memory and every failure. Not part of the test suite (minutes long); the suite runs
it once at a small scale so that it keeps working.

* Engine: ``--steps`` random steps spread over every configuration (both boards, 2-6
  players, standard, quick, allied): a legal action played (sometimes by its id), and at
  random an undo (the key and the legal actions must come back), a copy and a pickle
  round trip (equal to the game, same key), a VPN round trip at a turn start. Games
  restart when over or after ``--game-cap`` actions, as a user's would.
* Server: ``--requests`` mixed requests from ``--threads`` threads against one server
  whose agents play: states (all views, ``since``), plays of legal and illegal actions,
  undo, new games, seats, short watched simulations, steps, records, and hostile ones
  (bad JSON, foreign Origin and Host, unknown paths and methods). Only the documented
  statuses may come back, always as JSON; a 500 is a failure.

Usage: python tools/soak.py [--steps 1000000] [--requests 10000] [--threads 4] [--seed 0]
Exit status 1 if anything failed.
"""

from __future__ import annotations

import argparse
import http.client
import json
import pickle
import random
import resource
import sys
import threading
import time

import victorus
from victorus.page.server import PERSON, Server, Table
from victorus.progress import Progress

CONFIGS = [(b, p, v) for b in ("standard", "compact") for p in (2, 3, 4, 5, 6)
           for v in ("standard", "quick12")] + \
          [(b, 6, v) for b in ("standard", "compact") for v in ("allied", "allied+quick8")]
#: What the server may answer: OK, and the documented refusals (docs/serve.md).
EXPECTED_STATUSES = {200, 400, 403, 404, 405, 413}


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


class _Reported(Exception):
    """A failure already written down; the game it broke is abandoned."""


def soak_engine(steps: int, seed: int, game_cap: int, failures: list[str],
                progress: bool | None = None) -> None:
    rng = random.Random(seed)
    per_config = max(1, steps // len(CONFIGS))
    with Progress(per_config * len(CONFIGS), "engine steps", progress) as bar:
        for board, players, variant in CONFIGS:
            name = f"{board}-{players}-{variant}"
            game, played = victorus.Game(board, players=players, variant=variant), 0
            for step in range(per_config):
                try:
                    _engine_step(game, rng, failures, f"{name} step {step}")
                except _Reported:                   # already in failures; a fresh game
                    played = game_cap
                except Exception as exc:          # any exception is a finding
                    failures.append(f"{name} step {step}, {played} actions into its game "
                                    f"(the same --seed replays it): {exc!r}")
                played += 1
                if game.is_over or played >= game_cap:
                    game, played = victorus.Game(board, players=players, variant=variant), 0
                if step % 1000 == 999:
                    bar.advance(1000)
            bar.advance(per_config % 1000)


def _engine_step(game, rng: random.Random, failures: list[str], where: str) -> None:
    roll = rng.random()
    if roll < 0.05 and game.history():
        key, legal = game.key(), [str(a) for a in game.legal_actions()]
        last = game.history()[-1]
        game.undo()
        try:
            game.play(last)
        except victorus.VictorusError as exc:
            failures.append(f"{where}: undo + replay of {last} failed: {exc}")
            raise _Reported from None
        if game.key() != key or [str(a) for a in game.legal_actions()] != legal:
            failures.append(f"{where}: undo + replay of {last} changed the position")
        return
    if roll < 0.06:
        clone = game.copy()
        if clone != game or clone.key() != game.key():
            failures.append(f"{where}: copy() differs from the game")
        revived = pickle.loads(pickle.dumps(game))
        if revived != game or [str(a) for a in revived.history()] != \
                [str(a) for a in game.history()]:
            failures.append(f"{where}: pickle round trip differs")
        return
    if roll < 0.08 and game.phase == "start" and not game.is_over:
        vpn = game.vpn()
        if victorus.Game.from_vpn(vpn).vpn() != vpn:
            failures.append(f"{where}: VPN round trip differs")
    if rng.random() < 0.5:
        ids = game.legal_action_ids()
        game.play_id(int(ids[rng.randrange(len(ids))]))
    else:
        game.play(rng.choice(game.legal_actions()))


def soak_server(requests: int, threads: int, seed: int, failures: list[str],
                progress: bool | None = None) -> None:
    table = Table("compact", 3, seats=[PERSON, "random", "random", PERSON, "random", "random"],
                  agent_delay=0)
    server = Server(table, port=0)
    threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05},
                     daemon=True).start()
    per_thread = max(1, requests // threads)
    try:
        with Progress(per_thread * threads, "server requests", progress) as bar:
            workers = [threading.Thread(target=_client, args=(server, seed + t, per_thread,
                                                              failures, bar))
                       for t in range(threads)]
            for worker in workers:
                worker.start()
            for worker in workers:
                worker.join()
    finally:
        server.shutdown()
        server.server_close()


def _client(server: Server, seed: int, count: int, failures: list[str], bar) -> None:
    rng = random.Random(seed)
    host, port = server.server_address[:2]
    origin = f"http://{host}:{port}"
    for _ in range(count):
        method, path, body, headers = _random_request(rng, server, origin)
        try:
            connection = http.client.HTTPConnection(host, port, timeout=60)
            connection.request(method, path, body=body, headers=headers)
            response = connection.getresponse()
            data = response.read()
            connection.close()
            kind = response.headers.get("Content-Type", "")
            if response.status not in EXPECTED_STATUSES:
                failures.append(f"{method} {path} {body[:80]!r}: status {response.status} "
                                f"{data[:200]!r}")
            elif path != "/api/record" and method != "HEAD" and kind == "application/json":
                json.loads(data)
            elif path.startswith("/api/") and path != "/api/record" and method != "HEAD":
                failures.append(f"{method} {path}: answer is {kind}, not JSON")
        except Exception as exc:
            failures.append(f"{method} {path} {body[:80]!r}: {exc!r}")
        bar.advance()


def _random_request(rng: random.Random, server: Server, origin: str):
    """One request of the mix: (method, path, body bytes, headers)."""
    json_headers = {"Content-Type": "application/json", "Origin": origin}
    roll = rng.random()
    if roll < 0.35:
        view = rng.choice(["turn", "0", "3", "5", "9", ""])
        since = rng.choice(["", f"&since={server.table.version}", "&since=x"])
        return "GET", f"/api/state?view={view}{since}", b"", {}
    if roll < 0.6:
        action = _an_action(rng, server)
        return "POST", "/api/play", json.dumps({"action": action}).encode(), json_headers
    if roll < 0.65:
        return "POST", "/api/undo", b"{}", json_headers
    if roll < 0.7:
        seats = [rng.choice([PERSON, "random", "greedy", "mcts:5"]) for _ in range(6)]
        body = {"board": rng.choice(["compact", "standard"]), "players": rng.randint(2, 6),
                "variant": rng.choice(["standard", "quick8", "allied"]), "seats": seats,
                "agent_delay": 0}
        return "POST", "/api/new", json.dumps(body).encode(), json_headers
    if roll < 0.73:
        seats = [rng.choice([PERSON, "random"]) for _ in range(6)]
        return "POST", "/api/seats", json.dumps({"seats": seats}).encode(), json_headers
    if roll < 0.76:
        spec = {"seed": rng.randrange(100), "index": rng.randrange(100), "board": "compact",
                "players": rng.randint(2, 6), "max_actions": rng.choice([50, 500, 5000])}
        return "POST", "/api/watch", json.dumps({"simulate": spec}).encode(), json_headers
    if roll < 0.8:
        index = rng.randrange(-2, 600)
        return "POST", "/api/step", json.dumps({"index": index}).encode(), json_headers
    if roll < 0.83:
        return "GET", "/api/record", b"", {}
    hostile = rng.randrange(6)
    if hostile == 0:
        return "POST", "/api/play", rng.choice([b"{", b"[]", b"\xff", b"[" * 5000]), json_headers
    if hostile == 1:
        return "POST", "/api/new", b"{}", {**json_headers, "Origin": "http://evil.example"}
    if hostile == 2:
        return "GET", "/api/state", b"", {"Host": "evil.example"}
    if hostile == 3:
        return "POST", "/api/nope", b"{}", json_headers
    if hostile == 4:
        return rng.choice(["PUT", "DELETE", "HEAD", "OPTIONS"]), "/api/state", b"", {}
    return "POST", "/api/play", json.dumps({"action": "x" * rng.randrange(1, 5000)}).encode(), \
        json_headers


def _an_action(rng: random.Random, server: Server) -> str:
    """A legal action of the game shown half of the time, else a plausible wrong one."""
    table = server.table
    with table.lock:
        legal = [str(a) for a in table.game.legal_actions()] if table.watch is None else []
    if legal and rng.random() < 0.5:
        return rng.choice(legal)
    return rng.choice(["pass", "end", "stop", "a1-a2", "h1xh5", "zz", "", "g6-g10"])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--steps", type=int, default=1_000_000)
    parser.add_argument("--requests", type=int, default=10_000)
    parser.add_argument("--threads", type=int, default=4)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--game-cap", type=int, default=3_000)
    args = parser.parse_args(argv)
    failures: list[str] = []
    start = time.perf_counter()
    soak_engine(args.steps, args.seed, args.game_cap, failures)
    engine_time = time.perf_counter() - start
    engine_peak = peak_mb()
    print(f"engine: {args.steps:,} steps over {len(CONFIGS)} configurations in "
          f"{engine_time:.1f} s; peak RSS {engine_peak:.0f} MB; {len(failures)} failures",
          file=sys.stderr)
    before = len(failures)
    start = time.perf_counter()
    soak_server(args.requests, args.threads, args.seed, failures)
    print(f"server: {args.requests:,} requests from {args.threads} threads in "
          f"{time.perf_counter() - start:.1f} s; peak RSS {peak_mb():.0f} MB; "
          f"{len(failures) - before} failures", file=sys.stderr)
    for failure in failures[:50]:
        print(f"FAILED {failure}", file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
