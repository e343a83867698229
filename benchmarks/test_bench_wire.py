"""What watching costs on the wire while six agents play (``victorus serve``): the
socket's deltas against the whole state the page asked for at every change before.

Deterministic: six seeded random agents play ``ACTIONS`` actions on the standard board,
stepped by hand (no clock, no timing); after each action the socket's message is made
as a page that follows every change gets it (`Table.notice` with the version told
before), and so is the state the page asked for before deltas (the notice, then
``GET /api/state`` with its frames and log held, gzipped as the server sends it). Bytes
are counted as sent: the socket's JSON text, and the same deflated as a browser's
socket carries it (permessage-deflate, its context kept between messages, as uvicorn
negotiates with Chromium), and the state's gzipped body. Per minute: at 0.2 s an
action, 300 actions. ``extra_info`` holds the figures (docs/serve.md, The page's HTTP
API)."""

import gzip
import json
import zlib

from victorus.page.table import Table

ACTIONS = 300
#: The state's fields that came with the deltas (left out of the state path measured:
#: the cost before deltas).
NEW_FIELDS = ("cells", "frozen", "last", "passes", "centres", "premove")
PER_MINUTE = 60 / 0.2                     # actions a minute at 0.2 s an action


def _deflated(stream, text: str) -> int:
    """Bytes of ``text`` as one permessage-deflate message (context kept): the deflate
    stream flushed, less its 4-byte tail, and the frame's 2-byte header (4 from 126)."""
    body = len(stream.compress(text.encode()) + stream.flush(zlib.Z_SYNC_FLUSH)) - 4
    return body + (2 if body < 126 else 4)


def watch_costs(actions: int = ACTIONS, seed: int = 1) -> dict[str, float]:
    table = Table("standard", 6, seats=["random"] * 6, agent_delay=0, seed=seed)
    first = table.state(view="0", frame="", log=None)
    frames, log = {first["frame_key"]}, (first["log_key"], len(first["log"]))
    told = (table.instance, table.version)
    table.notice(None)
    stream = zlib.compressobj(6, zlib.DEFLATED, -15)
    old_stream = zlib.compressobj(6, zlib.DEFLATED, -15)
    sums = dict.fromkeys(("delta_json", "delta_wire", "state_gzip", "state_wire"), 0)
    played = deltas = 0
    while played < actions and table.work():
        played += 1
        message = table.notice(told)
        deltas += "delta" in message
        text = json.dumps(message, separators=(",", ":"))
        sums["delta_json"] += len(text)
        sums["delta_wire"] += _deflated(stream, text)
        notice = json.dumps({k: message[k] for k in ("version", "instance", "clock")})
        state = table.state(view="0", frame=",".join(frames), log=log)
        frames.add(state["frame_key"])
        log = (state["log_key"], state["log_from"] + len(state["log"]))
        body = gzip.compress(json.dumps({k: v for k, v in state.items()
                                         if k not in NEW_FIELDS}).encode(), 6)
        sums["state_gzip"] += len(body)
        sums["state_wire"] += _deflated(old_stream, notice) + len(body)
        told = (table.instance, table.version)
    out = {k: round(v / played, 1) for k, v in sums.items()}
    out.update(actions=played, deltas=deltas,
               delta_wire_per_minute=round(out["delta_wire"] * PER_MINUTE),
               delta_json_per_minute=round(out["delta_json"] * PER_MINUTE),
               state_wire_per_minute=round(out["state_wire"] * PER_MINUTE))
    return out


def test_watching_six_agents_bytes_per_action(benchmark):
    costs = benchmark.pedantic(watch_costs, rounds=1, iterations=1)
    benchmark.extra_info.update(costs)
    assert costs["deltas"] >= 0.9 * costs["actions"]   # (an army out: the whole state)
    assert costs["delta_wire"] <= 300
