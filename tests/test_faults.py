"""Faults around long runs: a worker process that dies (the pool of victorus.workers, and
through it tournaments, training and simulation, locally and on Ray)."""

from __future__ import annotations

import json
import os
import signal
import sys
import time

import pytest

import victorus
from victorus.cli import main
from victorus.tournament import tournament
from victorus.workers import how_it_ended, process_map, ray_map

needs_kill = pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="POSIX signals")


def doubled_unless_doomed(doomed, task):
    """A pool task: ``task * 2``; the task equal to ``doomed`` kills its own process."""
    if task == doomed:
        os.kill(os.getpid(), signal.SIGKILL)
    return task * 2


def raises_on_three(_, task):
    if task == 3:
        raise ValueError("three is refused")
    return task


class Doomed:
    """An agent whose process dies when it is asked to move (kill -9 of itself)."""

    name = "doomed"

    def choose(self, game):
        os.kill(os.getpid(), signal.SIGKILL)


def doomed_factory(seed):
    return Doomed()


# -- the pool ------------------------------------------------------------------------------

def test_the_pool_gives_every_result_with_its_index():
    got = dict(process_map(doubled_unless_doomed, None, list(range(10)), 3))
    assert got == {i: 2 * i for i in range(10)}


def test_a_task_error_is_raised_as_it_was_raised():
    with pytest.raises(ValueError, match="three is refused"):
        dict(process_map(raises_on_three, None, list(range(6)), 2))


@needs_kill
def test_a_killed_worker_is_an_error_naming_it_and_its_task_not_a_wait():
    seen = {}
    began = time.monotonic()
    with pytest.raises(victorus.WorkerLost) as lost:
        for index, value in process_map(doubled_unless_doomed, 7, list(range(12)), 2,
                                        describe=lambda task: f"working on task {task}"):
            seen[index] = value
    assert time.monotonic() - began < 60           # the wait would be forever without the fix
    message = str(lost.value)
    assert "worker process" in message and "killed by SIGKILL" in message
    assert message.endswith("while working on task 7")
    assert all(value == 2 * index for index, value in seen.items()) and 7 not in seen


class NeedsTwo(Exception):
    """An exception that pickles but does not unpickle (its __init__ takes two)."""

    def __init__(self, a, b):
        super().__init__(f"{a} and {b}")


def raises_oddly(_, task):
    import threading
    if task == 0:
        raise NeedsTwo("first", "second")
    error = ValueError("holds a lock")
    error.lock = threading.Lock()                 # an exception that does not pickle
    raise error


def stubborn(_, task):
    """A task whose worker ignores SIGTERM and takes its time."""
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    if task:
        time.sleep(600)
    return task


def test_a_task_error_that_does_not_travel_keeps_its_words():
    for task, words in ((0, "NeedsTwo: first and second"), (1, "ValueError: holds a lock")):
        with pytest.raises(RuntimeError, match=words):
            dict(process_map(raises_oddly, None, [task], 1))


@needs_kill
def test_stopping_early_ends_workers_that_ignore_sigterm():
    began = time.monotonic()
    mapped = process_map(stubborn, None, [0, 1], 2)
    assert next(mapped) == (0, 0)
    mapped.close()
    assert time.monotonic() - began < 120          # forever without SIGKILL after SIGTERM


def test_how_a_worker_ended_in_words():
    assert how_it_ended(-9) == "killed by SIGKILL (kill -9, or the out-of-memory killer)"
    assert how_it_ended(-15) == "killed by SIGTERM"
    assert how_it_ended(3) == "exited with status 3"


# -- tournaments ---------------------------------------------------------------------------

@needs_kill
def test_a_tournament_whose_worker_dies_stops_and_keeps_the_finished_games():
    with pytest.raises(victorus.WorkerLost) as lost:
        tournament(["random", doomed_factory], games=4, seed=1, workers=2, max_actions=50)
    assert "killed by SIGKILL" in str(lost.value) and "while playing game" in str(lost.value)
    result = lost.value.result
    assert result.stopped == str(lost.value)
    assert str(lost.value).endswith(f"{result.games} of 4 games were finished before it stopped "
                                    f"the tournament")


def spawned_children(pid: int) -> list[int]:
    """The worker processes (multiprocessing's spawn) a process started, from /proc."""
    children = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", encoding="ascii", errors="replace") as fh:
                parent = int(fh.read().rsplit(")", 1)[1].split()[1])
            with open(f"/proc/{entry}/cmdline", "rb") as fh:
                command = fh.read()
        except (OSError, ValueError, IndexError):
            continue
        if parent == pid and b"--multiprocessing-fork" in command:
            children.append(int(entry))
    return children


def kill_a_worker(process, ready=lambda: True, timeout: float = 120) -> int:
    """Wait (polling) until ``ready()`` and ``process`` has spawned workers, then kill one
    with SIGKILL; its pid."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        assert process.poll() is None, process.communicate()
        workers = spawned_children(process.pid) if ready() else []
        if workers:
            os.kill(workers[0], signal.SIGKILL)
            return workers[0]
        time.sleep(0.05)
    raise AssertionError("no worker process appeared")


def run_command(*args: str):
    import subprocess
    return subprocess.Popen([sys.executable, "-m", "victorus", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


needs_proc = pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="Linux's /proc")


@needs_kill
@needs_proc
def test_the_tournament_command_writes_its_json_when_a_worker_is_killed(tmp_path):
    out = tmp_path / "result.json"
    command = run_command("tournament", "200", "mcts:300", "greedy", "--workers", "2",
                          "--json", str(out), "--no-progress")
    killed = kill_a_worker(command)
    _, err = command.communicate(timeout=120)
    assert command.returncode == 1, err
    assert f"worker process {killed} died (killed by SIGKILL" in err
    data = json.loads(out.read_text())
    assert data["stopped"].startswith(f"worker process {killed} died")
    assert data["games"] < 200


@pytest.mark.ray
@needs_kill
def test_a_lost_ray_task_is_an_error_not_a_retry_or_a_wait():
    from ray import cloudpickle
    cloudpickle.register_pickle_by_value(sys.modules[__name__])   # Ray's workers import no tests
    seen = {}
    with pytest.raises(victorus.WorkerLost, match="a Ray worker was lost .* while working on 5"):
        for index, value in ray_map(doubled_unless_doomed, 5, list(range(8)), 2,
                                    describe=lambda task: f"working on {task}"):
            seen[index] = value
    assert all(value == 2 * index for index, value in seen.items()) and 5 not in seen
    with pytest.raises(victorus.WorkerLost, match="while playing game"):
        tournament(["random", doomed_factory], games=4, seed=1, workers=2, max_actions=50,
                   backend="ray")


# -- training ------------------------------------------------------------------------------

TRAIN = ("import sys\n"
         "from victorus.training import Settings, train\n"
         "train(sys.argv[1], Settings(rounds=2, games=96, iterations=12, max_actions=40, "
         "epochs=1, batch=64, hidden=8, hidden2=4, mix=(('compact', 2, 'standard', 1),), "
         "workers=2), resume=len(sys.argv) > 2, progress=False)\n")


@needs_kill
@needs_proc
def test_a_training_run_whose_worker_dies_stops_and_resumes(tmp_path):
    import subprocess
    out = tmp_path / "run"
    command = subprocess.Popen([sys.executable, "-c", TRAIN, str(out)], stderr=subprocess.PIPE,
                               text=True)
    killed = kill_a_worker(command, ready=(out / "curve.json").exists)
    _, err = command.communicate(timeout=120)
    assert command.returncode == 1
    assert (f"WorkerLost: worker process {killed} died (killed by SIGKILL (kill -9, or the "
            f"out-of-memory killer))") in err
    assert f"; round 1 is lost, round 0 is saved in {str(out)!r}: --resume goes on " \
           f"from there" in err
    assert sorted(os.listdir(out)) == ["curve.json", "network.vnet", "round-0.vnet", "window-0.npz"]
    subprocess.run([sys.executable, "-c", TRAIN, str(out), "--resume"], check=True)
    assert [p["round"] for p in json.loads((out / "curve.json").read_text())["points"]] == [0, 1]


# -- a folder that holds a run, a damaged checkpoint -----------------------------------------

TINY = dict(rounds=1, games=2, iterations=8, max_actions=20, epochs=1, batch=64, hidden=8,
            hidden2=4, window=2, mix=(("compact", 2, "standard", 1),))


def tiny_run(out, overwrite=False, **changes):
    from victorus.training import Settings, train
    return train(str(out), Settings(**{**TINY, **changes}), progress=False, overwrite=overwrite)


@pytest.fixture(scope="module")
def finished_run(tmp_path_factory):
    """A finished run of two rounds, copied afresh by each test that damages it."""
    from victorus.training import Settings, train
    out = tmp_path_factory.mktemp("finished") / "run"
    train(str(out), Settings(**{**TINY, "rounds": 2}), progress=False)
    return out


@pytest.fixture
def run_copy(finished_run, tmp_path):
    import shutil
    return shutil.copytree(finished_run, tmp_path / "run")


def resume(out, rounds=3, **changes):
    from victorus.training import Settings, train
    return train(str(out), Settings(**{**TINY, "rounds": rounds, **changes}), resume=True,
                 progress=False)


def test_a_second_run_into_a_runs_folder_is_refused_and_changes_nothing(run_copy, capsys):
    before = {p.name: p.read_bytes() for p in run_copy.iterdir()}
    from victorus.training import Settings, train
    with pytest.raises(victorus.ConfigError, match=r"holds a training run \(2 round files: "
                       r"curve\.json, network\.vnet, round-0\.vnet, round-1\.vnet, \.\.\.\): go "
                       r"on with resume \(--resume\), replace it with overwrite \(--overwrite\)"):
        train(str(run_copy), Settings(**TINY), progress=False)
    assert main(["train", str(run_copy), "--rounds", "1", "--games", "2"]) == 2
    assert "holds a training run" in capsys.readouterr().err
    assert {p.name: p.read_bytes() for p in run_copy.iterdir()} == before


def test_overwrite_replaces_the_run_and_only_its_files(run_copy):
    from victorus.training import Settings, train
    (run_copy / "notes.txt").write_text("mine")
    train(str(run_copy), Settings(**TINY), progress=False, overwrite=True)
    assert sorted(p.name for p in run_copy.iterdir()) == [
        "curve.json", "network.vnet", "notes.txt", "round-0.vnet", "window-0.npz"]
    with pytest.raises(victorus.ConfigError, match="resume or overwrite, not both"):
        train(str(run_copy), Settings(**TINY), resume=True, overwrite=True)


def test_a_run_into_a_folder_another_run_trains_into_now_is_refused(tmp_path):
    pytest.importorskip("fcntl")
    import fcntl
    out = tmp_path / "busy"
    out.mkdir()
    fd = os.open(out, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)       # as a run holds it
        with pytest.raises(victorus.ConfigError, match="another run is training into it now"):
            tiny_run(out)
    finally:
        os.close(fd)
    assert list(out.iterdir()) == []
    tiny_run(out)                                 # free again


def no_such_pid() -> int:
    """A process id no process can have (above the kernel's largest)."""
    try:
        with open("/proc/sys/kernel/pid_max", encoding="ascii") as fh:
            return int(fh.read()) + 1
    except OSError:
        return 2**22 + 1


def aged(path, seconds=3600):
    past = time.time() - seconds
    os.utime(path, (past, past))
    return path


def test_the_temporaries_of_a_killed_write_are_removed_by_the_next_run(run_copy):
    """A temporary of a run's file is stale once its writer is gone and it is a minute old:
    a young one, or one of a live process (which may be another namespace's), is kept."""
    gone, alive = no_such_pid(), os.getpid()
    stale = [run_copy / f".window-1.npz.{gone}-abc_12.tmp", run_copy / f".curve.json.{gone}-x9.tmp"]
    kept = [run_copy / f".curve.json.{alive}-zz.tmp",            # a live process's write
            run_copy / f".network.vnet.{gone}-new.tmp",          # its writer may be elsewhere
            run_copy / f".notes.txt.{gone}-mine.tmp",            # not a run's file
            run_copy / f".curve.json.{10**30}-big.tmp"]          # no pid at all
    for path in (*stale, *kept):
        path.write_bytes(b"half")
    for path in (*stale, *kept[:1], *kept[2:]):
        aged(path)
    resume(run_copy)
    assert not any(path.exists() for path in stale) and all(path.exists() for path in kept)


def window_of(out):
    import numpy as np
    with np.load(out / "window-1.npz") as saved:
        return {name: saved[name] for name in saved.files}


def write_window(out, arrays):
    import numpy as np
    np.savez(out / "window-1.npz", **arrays)


def damaged_windows(out):
    """(what was done, how to do it) for each damage."""
    import numpy as np

    def change(name, value):
        def do():
            arrays = window_of(out)
            arrays[name] = value(arrays[name])
            write_window(out, arrays)
        return do

    def raw(data):
        return lambda: (out / "window-1.npz").write_bytes(data)

    def huge_header():
        """A stored member whose header declares 10**12 rows: numpy would allocate them."""
        import zipfile
        arrays = window_of(out)
        buffer = __import__("io").BytesIO()
        np.lib.format.write_array_header_1_0(buffer, {"descr": "<f4", "fortran_order": False,
                                                      "shape": (10**12, 6)})
        with zipfile.ZipFile(out / "window-1.npz", "w") as archive:
            for name, array in arrays.items():
                data = buffer.getvalue() if name == "targets0" else None
                if data is None:
                    inner = __import__("io").BytesIO()
                    np.save(inner, array)
                    data = inner.getvalue()
                archive.writestr(f"{name}.npy", data)

    def flagged():
        """The first member marked encrypted (zip's flag bit 0), in both of its headers."""
        data = bytearray((out / "window-1.npz").read_bytes())
        for signature, at in ((b"PK\x03\x04", 6), (b"PK\x01\x02", 8)):
            start = data.index(signature)
            data[start + at] |= 1
        (out / "window-1.npz").write_bytes(bytes(data))

    def fifo():
        (out / "window-1.npz").unlink()
        os.mkfifo(out / "window-1.npz")

    def long_header():
        """A member whose .npy header is longer than numpy reads (a multi-line refusal)."""
        import struct
        import zipfile
        arrays = window_of(out)
        text = "{'descr': '<f4', 'fortran_order': False, 'shape': (3, 6), }"
        text = text + " " * (20_000 - len(text)) + "\n"
        header = b"\x93NUMPY\x02\x00" + struct.pack("<I", len(text)) + text.encode()
        with zipfile.ZipFile(out / "window-1.npz", "w") as archive:
            for name, array in arrays.items():
                inner = __import__("io").BytesIO()
                np.save(inner, array)
                archive.writestr(f"{name}.npy", header + b"\0" * 72 if name == "targets0"
                                 else inner.getvalue())

    whole = (out / "window-1.npz").read_bytes()
    return {
        "empty": (raw(b""), "not a whole .npz file"),
        "truncated": (raw(whole[:len(whole) // 2]), "not a whole .npz file"),
        "a header of 10**12 rows": (huge_header, "declares shape"),
        "a missing array": (lambda: write_window(out, {k: v for k, v in window_of(out).items()
                                                         if k != "dense0"}), "not the arrays"),
        "a wrong dtype": (change("targets0", lambda a: a.astype(np.float64)), "float64"),
        "a wrong shape": (change("dense0", lambda a: a[:, :3]), "not float32 of shape"),
        "fewer targets": (change("targets0", lambda a: a[:-1]), "targets has"),
        "counts off": (change("counts0", lambda a: a + 1), "do not add up"),
        "a row outside its block": (change("rows0", lambda a: a + 10**6), "outside its board"),
        "a negative row": (change("rows0", lambda a: a - 10**6), "outside its board"),
        "an unknown board": (change("boards0", lambda a: a + 7), "board number"),
        "a team out of range": (change("teams0", lambda a: a + 9), "a team outside"),
        "a NaN target": (change("targets0", lambda a: a * np.nan), "not finite"),
        "a compressed array": (lambda: np.savez_compressed(out / "window-1.npz",
                                                           **window_of(out)), "compressed"),
        "a pickled object": (change("teams0", lambda a: np.array([object()] * len(a))),
                             "object"),
        "an encrypted member": (flagged, "encrypted"),
        "a FIFO": (fifo, "not a regular file"),
        "a header longer than numpy reads": (long_header, "targets0.npy"),
    }


@pytest.mark.parametrize("damage", ["empty", "truncated", "a header of 10**12 rows", "a missing array",
                                    "a wrong dtype", "a wrong shape", "fewer targets",
                                    "counts off", "a row outside its block", "a negative row",
                                    "an unknown board",
                                    "a team out of range", "a NaN target",
                                    "a compressed array", "a pickled object",
                                    "an encrypted member", "a FIFO",
                                    "a header longer than numpy reads"])
def test_a_damaged_or_crafted_window_is_refused_in_one_line(run_copy, damage):
    do, expected = damaged_windows(run_copy)[damage]
    do()
    listing = sorted(p.name for p in run_copy.iterdir())
    with pytest.raises(victorus.ConfigError) as refused:
        resume(run_copy)
    message = str(refused.value)
    assert message.startswith(f"cannot resume from {str(run_copy)!r}: ") and expected in message
    assert "\n" not in message and len(message) < 400
    assert message.count("is not a window") == 1
    assert sorted(p.name for p in run_copy.iterdir()) == listing      # nothing added or removed


def test_the_train_command_refuses_a_damaged_checkpoint_in_one_line(tmp_path, capsys):
    out = str(tmp_path / "run")
    small = ["--games", "2", "--iterations", "8", "--hidden", "8", "--hidden2", "4",
             "--no-progress"]
    assert main(["train", out, "--rounds", "1", *small]) == 0
    (tmp_path / "run" / "window-0.npz").write_bytes(b"PK\x03\x04 not a zip")
    capsys.readouterr()
    assert main(["train", out, "--resume", "--rounds", "2", *small]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"victorus: error: cannot resume from {out!r}: window-0.npz is not a "
                          f"window this run wrote: not a whole .npz file") and err.count("\n") == 1


def damaged_curves():
    """(what was done to the curve's data, the words of the refusal)."""
    def point(**changes):
        return lambda curve: curve["points"][-1].update(changes)
    return {
        "a string round": (point(round="1"), "round must be an integer"),
        "a negative minutes": (point(minutes=-1), "minutes must be a number"),
        "1e308 minutes": (point(minutes=1e308), "minutes must be a number"),
        "minutes going back": (point(minutes=0.0), None),
        "a list of games": (point(games=[1]), "games must be an integer"),
        "a missing field": (lambda curve: curve["points"][-1].pop("positions"), "fields"),
        "an extra field": (point(extra=1), "fields"),
        "a string loss": (point(train_loss="low"), "train_loss"),
        "an infinite loss": (point(validation_loss=float("inf")), "validation_loss"),
        "no points": (lambda curve: curve.update(points=[]), "non-empty list"),
        "settings as a list": (lambda curve: curve.update(settings=[]), "'settings'"),
        "rounds out of order": (point(round=5), "numbered 5"),
        "a huge spec echoed": (lambda curve: curve["settings"].update(seed="9" * 10**6),
                               "trained with seed"),
    }


@pytest.mark.parametrize("damage", list(damaged_curves()))
def test_a_damaged_or_crafted_curve_is_refused_in_one_line(run_copy, damage):
    change, expected = damaged_curves()[damage]
    curve = json.loads((run_copy / "curve.json").read_text())
    if damage == "minutes going back":
        curve["points"][0]["minutes"] = 5.0
        curve["points"][1]["minutes"] = 1.0
        expected = "from 5 (the round before)"
    else:
        change(curve)
    (run_copy / "curve.json").write_text(json.dumps(curve))
    with pytest.raises(victorus.ConfigError) as refused:
        resume(run_copy)
    message = str(refused.value)
    assert message.startswith(f"cannot resume from {str(run_copy)!r}: ") and expected in message
    assert "\n" not in message and len(message) < 400 and "Infinity" not in message


@pytest.mark.parametrize("content", [b"", b"{", b"\xff\xfe", b"[]", b"null"])
def test_a_curve_that_is_not_a_curve_is_refused(run_copy, content):
    (run_copy / "curve.json").write_bytes(content)
    with pytest.raises(victorus.ConfigError, match="cannot resume from .*curve"):
        resume(run_copy)


def test_a_round_network_of_another_shape_is_refused(run_copy):
    from victorus.evaluation.network import Network
    Network.fresh(16, 4, 0, {"boards": ["compact"], "players": [2]}).save(run_copy / "round-1.vnet")
    with pytest.raises(victorus.ConfigError, match="round-1.vnet has hidden sizes 16, 4"):
        resume(run_copy)
    (run_copy / "round-1.vnet").write_bytes(b"VNET")
    with pytest.raises(victorus.ConfigError, match="cannot resume from"):
        resume(run_copy)


def test_a_whole_run_resumes_after_the_checks(run_copy):
    network = resume(run_copy)
    assert network.info["rounds"] == 3


# -- input shown in errors -------------------------------------------------------------------

HUGE = "9" * 1_000_000


def huge_inputs():
    """(where, a call with a 1 MB string where a short one belongs) for the entry points
    that show their input in the error."""
    from victorus.agents import make_agent
    from victorus.record import loads
    from victorus.simulate import simulate
    from victorus.training import Settings
    return {
        "a budget": lambda: make_agent(f"mcts:{HUGE}x"),
        "a spec": lambda: make_agent(f"x{HUGE}"),
        "a network in a spec": lambda: make_agent(f"best-net:100:{HUGE}"),
        "a board": lambda: victorus.Game(board=HUGE),
        "a variant": lambda: victorus.Game(variant=f"quick{HUGE}x"),
        "a variant part": lambda: victorus.Game(variant=f"allied+{HUGE}"),
        "a VPN": lambda: victorus.Game.from_vpn(HUGE),
        "a VPN's board": lambda: victorus.Game.from_vpn(f"{HUGE} i2:0Xw 0 a 1"),
        "a VPN's piece": lambda: victorus.Game.from_vpn(
            victorus.Game("compact", players=2).vpn().replace("i2:0Xw", f"i2:0X{HUGE}")),
        "a VPN's army": lambda: victorus.Game.from_vpn(
            victorus.Game("compact", players=2).vpn().replace(" a,0,,0,0/", f" a,0,{HUGE},0,0/")),
        "an action": lambda: victorus.Game().play(HUGE),
        "a cell label": lambda: victorus.Board().cell(HUGE),
        "a backend": lambda: simulate(2, backend=HUGE),
        "a lineup": lambda: tournament(["random", "greedy"], 2, lineup=HUGE),
        "training's backend": lambda: Settings(backend=HUGE).check(),
        "a record": lambda: loads(f"victorus-record 1\nboard {HUGE}\n"),
    }


@pytest.mark.parametrize("where", list(huge_inputs()))
def test_an_error_cuts_the_input_it_shows(where):
    with pytest.raises((victorus.VictorusError, ValueError, KeyError)) as refused:
        huge_inputs()[where]()
    assert len(str(refused.value)) < 1000


def test_the_command_line_cuts_the_input_it_shows(capsys):
    assert main(["tournament", "2", "random", f"mcts:{HUGE}x"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("victorus: error: bad search budget in ") and len(err) < 1000


PAGE_ASKS = {                      # a path and a body of ~1 MB, and the words of the refusal
    "a spec": ("/api/seats", json.dumps({"seats": ["person", f"mcts:{HUGE}x"] + ["person"] * 4}),
               "bad search budget"),
    "a field named twice": ("/api/seats", f'{{"{HUGE[:500_000]}": 1, "{HUGE[:500_000]}": 2}}',
                            "more than once"),
    "an unknown field": ("/api/seats", json.dumps({HUGE: 1, "seats": []}), "unknown fields"),
    "a simulation's field": ("/api/watch", json.dumps({"simulate": {HUGE: 1}}), "unknown fields"),
    "a path": (f"/api/{HUGE[:8000]}", None, "no page"),
    "a record": ("/api/watch", json.dumps({"record": f"victorus-record 1\nboard: {HUGE}\n"}),
                 "record"),
}


@pytest.mark.parametrize("ask", list(PAGE_ASKS))
def test_the_page_cuts_the_input_it_shows(ask):
    import urllib.error
    import urllib.request

    from helpers import serving
    from victorus.server import PERSON, Table
    path, body, words = PAGE_ASKS[ask]
    with serving(Table("compact", 2, seats=[PERSON] * 6, agent_delay=0), worker=False) as srv:
        request = urllib.request.Request(srv.url.rstrip("/") + path, method="GET"
                                         if body is None else "POST",
                                         data=None if body is None else body.encode())
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(request, timeout=30)
        answer = refused.value.read()
    assert refused.value.code in (400, 404) and len(answer) < 1000, answer[:200]
    assert words in json.loads(answer)["error"]


# -- read-only files -------------------------------------------------------------------------

def save_paths(tmp_path):
    """(the file, how each save path writes it) for every way victorus saves a user's file."""
    from victorus import record
    from victorus.evaluation.network import Network
    from victorus.files import write_atomic
    from victorus.render import render_svg
    game = victorus.Game("compact", players=2)
    return {
        "write_atomic": lambda path: write_atomic(path, "new"),
        "a network": lambda path: Network.fresh(8, 4).save(path),
        "a record": lambda path: record.save(game, path),
        "a picture": lambda path: write_atomic(path, render_svg(game)),
        "--json of perft": lambda path: main(["perft", "1", "--json", str(path)]),
        "--json of simulate": lambda path: main(["simulate", "2", "--json", str(path),
                                                 "--board", "compact", "--players", "2"]),
        "render": lambda path: main(["render", str(path) + ".svg"]),
        "training's network": lambda path: tiny_run(path.parent, overwrite=True),
    }


@pytest.mark.parametrize("where", ["write_atomic", "a network", "a record", "a picture",
                                   "--json of perft", "--json of simulate", "render",
                                   "training's network"])
def test_a_read_only_file_is_refused_on_every_save_path(tmp_path, where, capsys):
    target = tmp_path / "kept"
    if where == "render":
        target = tmp_path / "kept.svg"
    if where == "training's network":
        target = tmp_path / "network.vnet"
    target.write_text("mine")
    target.chmod(0o444)
    save = save_paths(tmp_path)[where]
    try:
        try:
            code = save(target if where != "render" else tmp_path / "kept")
        except (OSError, victorus.ConfigError) as refused:
            assert "read-only" in str(refused) and "\n" not in str(refused)
        else:
            assert code == 2 and "read-only" in capsys.readouterr().err
        assert target.read_text() == "mine" and sorted(p.name for p in tmp_path.iterdir()) \
            == [target.name]
    finally:
        target.chmod(0o644)


def test_messages_show_their_input_only_through_shown():
    """The one rule for input in messages: a value is shown as checks.shown() cuts it,
    never whole with !r or map(repr, ...), anywhere in the package (errors, HTTP bodies,
    notes), but in a __repr__ and for the package's own constants."""
    import ast
    import re
    from pathlib import Path
    constants = {"MAGIC", "HEADER", "LAYOUT", "self.labels[0]", "self.labels[-1]"}
    whole = []
    for path in sorted((Path(victorus.__file__).parent).rglob("*.py")):
        source = path.read_text()
        lines = source.split("\n")
        reprs = {line for node in ast.walk(ast.parse(source))
                 if isinstance(node, ast.FunctionDef) and node.name == "__repr__"
                 for line in range(node.lineno, node.end_lineno + 1)}
        for number, line in enumerate(lines, 1):
            if number in reprs:
                continue
            whole += [f"{path.name}:{number}: {m}" for m in re.findall(r"\{([^{}!]+)!r\}", line)
                      if m not in constants]
            whole += [f"{path.name}:{number}: map(repr, {m})"
                      for m in re.findall(r"map\(repr, ([^)]+)\)", line) if not m.isupper()]
    assert whole == []
