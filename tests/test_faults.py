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
         "train(sys.argv[1], Settings(rounds=1, games=192, iterations=12, label_iterations=12, "
         "label_share=0.25, max_actions=40, epochs=1, batch=64, hidden=8, hidden2=4, "
         "holdout_games=0, gate_games=0, curve_games=0, mix=(('compact', 2, 'standard', 1),), "
         "workers=2), resume=len(sys.argv) > 2, progress=False)\n")


@needs_kill
@needs_proc
def test_a_training_run_whose_worker_dies_stops_and_resumes(tmp_path):
    """Round 0 (the start network) is saved before any worker starts; a worker killed in
    round 1's self-play loses that round only, and --resume plays it."""
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
    assert sorted(os.listdir(out)) == ["curve.json", "curve.svg", "network.vnet",
                                       "round-0.vnet", "window-0.npz"]
    subprocess.run([sys.executable, "-c", TRAIN, str(out), "--resume"], check=True)
    assert [p["round"] for p in json.loads((out / "curve.json").read_text())["points"]] == [0, 1]
    assert sorted(os.listdir(out)) == ["curve.json", "curve.svg", "network.vnet", "optimiser-1.npz",
                                       "positions-1.npz", "round-0.vnet",
                                       "round-1.vnet", "window-1.npz"]


# -- a folder that holds a run, a damaged checkpoint -----------------------------------------

#: An acceptance test that accepts every candidate not infinitely weaker (its hypotheses
#: 4,000 Elo below the best, both bounds 0), and the anchors played (round 2: round 0).
TINY = dict(rounds=2, games=4, iterations=12, label_iterations=16, label_share=1.0,
            max_actions=40, epochs=2, batch=64, hidden=8, hidden2=4, window=2,
            holdout_games=2, gate_games=2, elo0=-4000, elo1=-3999, alpha=0.5, beta=0.5,
            anchor_games=2, match_iterations=8, curve_games=2,
            mix=(("compact", 2, "standard", 1),))
#: No matches and no held-out set: for the runs whose files alone matter.
QUIET = dict(holdout_games=0, gate_games=0, curve_games=0)
#: The finished run's last round, and its files that --resume reads.
LAST = 2
WINDOW, OPTIMISER = f"window-{LAST}.npz", f"optimiser-{LAST}.npz"


def tiny_run(out, overwrite=False, **changes):
    """A run of round 0 alone (no matches): its files, in a second or so."""
    from victorus.training import Settings, train
    return train(str(out), Settings(**{**TINY, "rounds": 0, **QUIET, **changes}), progress=False,
                 overwrite=overwrite)


@pytest.fixture(scope="module")
def finished_run(tmp_path_factory):
    """A finished run of rounds 0-2 (gates and curve matches played), copied afresh by
    each test that damages it."""
    from victorus.training import Settings, train
    out = tmp_path_factory.mktemp("finished") / "run"
    train(str(out), Settings(**TINY), progress=False)
    assert sorted(os.listdir(out)) == ["curve.json", "curve.svg", "network.vnet", OPTIMISER,
                                       "positions-1.npz", "positions-2.npz",
                                       "positions-holdout.npz", "round-0.vnet",
                                       "round-1.vnet", "round-2.vnet", WINDOW]
    return out


@pytest.fixture
def run_copy(finished_run, tmp_path):
    import shutil
    return shutil.copytree(finished_run, tmp_path / "run")


def resume(out, rounds=3, **changes):
    """``out``'s run resumed (rounds=LAST: its files checked and read, nothing trained)."""
    from victorus.training import Settings, train
    return train(str(out), Settings(**{**TINY, "rounds": rounds, **changes}), resume=True,
                 progress=False)


def listing(out):
    return {p.name: p.read_bytes() if p.is_file() else None for p in out.iterdir()}


def test_a_second_run_into_a_runs_folder_is_refused_and_changes_nothing(run_copy, capsys):
    before = listing(run_copy)
    from victorus.training import Settings, train
    with pytest.raises(victorus.ConfigError, match=r"holds a training run \(3 round files: "
                       r"curve\.json, curve\.svg, network\.vnet, optimiser-2\.npz, \.\.\.\): go "
                       r"on with resume \(--resume\), replace it with overwrite \(--overwrite\)"):
        train(str(run_copy), Settings(**TINY), progress=False)
    assert main(["train", str(run_copy), "--rounds", "1", "--games", "2"]) == 2
    assert "holds a training run" in capsys.readouterr().err
    assert listing(run_copy) == before


def test_overwrite_replaces_the_run_and_only_its_files(run_copy):
    from victorus.training import Settings, train
    mine = ["notes.txt", "round-1.vnet.bak", "window.npz", "optimiser-x.npz", "round-3.vnet~"]
    for name in mine:
        (run_copy / name).write_text("mine")
    tiny_run(run_copy, overwrite=True)
    assert sorted(p.name for p in run_copy.iterdir()) == sorted(
        ["curve.json", "curve.svg", "network.vnet", "round-0.vnet", "window-0.npz", *mine])
    assert all((run_copy / name).read_text() == "mine" for name in mine)
    assert [p["round"] for p in json.loads((run_copy / "curve.json").read_text())["points"]] == [0]
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
        with pytest.raises(victorus.ConfigError, match="another run is training into it now"):
            tiny_run(out, overwrite=True)
    finally:
        os.close(fd)
    assert list(out.iterdir()) == []
    tiny_run(out)                                 # free again
    assert "round-0.vnet" in os.listdir(out)


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
    stale = [run_copy / f".window-3.npz.{gone}-abc_12.tmp", run_copy / f".curve.json.{gone}-x9.tmp",
             run_copy / f".optimiser-3.npz.{gone}-o.tmp", run_copy / f".round-3.vnet.{gone}-r.tmp"]
    kept = [run_copy / f".curve.json.{alive}-zz.tmp",            # a live process's write
            run_copy / f".network.vnet.{gone}-new.tmp",          # its writer may be elsewhere
            run_copy / f".notes.txt.{gone}-mine.tmp",            # not a run's file
            run_copy / f".curve.json.{10**30}-big.tmp"]          # no pid at all
    for path in (*stale, *kept):
        path.write_bytes(b"half")
    for path in (*stale, *kept[:1], *kept[2:]):
        aged(path)
    resume(run_copy, rounds=LAST)                 # nothing to train: the files checked only
    assert not any(path.exists() for path in stale) and all(path.exists() for path in kept)


def arrays_of(path):
    import numpy as np
    with np.load(path) as saved:
        return {name: saved[name] for name in saved.files}


def write_arrays(path, arrays):
    import numpy as np
    with open(path, "wb") as fh:             # np.savez would add .npz to another name
        np.savez(fh, **arrays)


def replaced_member(path, member, data):
    """``path``'s arrays with the member ``member`` (a .npy's bytes) replaced by ``data``."""
    import io
    import zipfile

    import numpy as np
    arrays = arrays_of(path)
    with zipfile.ZipFile(path, "w") as archive:
        for name, array in arrays.items():
            inner = io.BytesIO()
            np.save(inner, array)
            archive.writestr(f"{name}.npy", data if name == member else inner.getvalue())


def npy_header(shape, descr="<f4"):
    """A .npy header (version 1.0) declaring ``shape``, with no data after it."""
    import io

    import numpy as np
    buffer = io.BytesIO()
    np.lib.format.write_array_header_1_0(buffer, {"descr": descr, "fortran_order": False,
                                                  "shape": shape})
    return buffer.getvalue()


def common_damages(path):
    """The damages any checkpoint .npz is refused for: (what was done, how to do it, the
    words of the refusal)."""
    import numpy as np

    def raw(data):
        return lambda: path.write_bytes(data)

    def flagged():
        """The first member marked encrypted (zip's flag bit 0), in both of its headers."""
        data = bytearray(path.read_bytes())
        for signature, at in ((b"PK\x03\x04", 6), (b"PK\x01\x02", 8)):
            start = data.index(signature)
            data[start + at] |= 1
        path.write_bytes(bytes(data))

    def oversized():
        """The first member's central record declaring 2 GiB: more than the file holds (its
        header and its declared size would then agree, so only this check tells it)."""
        import struct
        data = bytearray(path.read_bytes())
        at = data.index(b"PK\x01\x02")
        data[at + 20:at + 28] = struct.pack("<II", 1 << 31, 1 << 31)
        path.write_bytes(bytes(data))

    def fifo():
        path.unlink()
        os.mkfifo(path)

    def device():
        path.unlink()
        path.symlink_to(os.devnull)

    whole = path.read_bytes()
    return {
        "missing": (path.unlink, "it is missing"),
        "empty": (raw(b""), "not a whole .npz file"),
        "truncated": (raw(whole[:len(whole) // 2]), "not a whole .npz file"),
        "not a zip": (raw(b"PK\x03\x04 not a zip"), "not a whole .npz file"),
        "a compressed array": (lambda: np.savez_compressed(path, **arrays_of(path)),
                               "compressed"),
        "an encrypted member": (flagged, "encrypted"),
        "a member larger than the file": (oversized, "its arrays declare more bytes than the "
                                                     "file holds"),
        "a FIFO": (fifo, "not a regular file"),
        "a link to a device": (device, "not a regular file"),
    }


def damaged_windows(out):
    """(what was done, how to do it, the words of the refusal) for each damage of the
    window file."""
    import numpy as np
    path = out / WINDOW

    def change(name, value):
        def do():
            arrays = arrays_of(path)
            arrays[name] = value(arrays[name])
            write_arrays(path, arrays)
        return do

    def huge_header():
        """A stored member whose header declares 10**12 rows: numpy would allocate them."""
        replaced_member(path, "targets0", npy_header((10**12, 6)))

    def long_header():
        """A member whose .npy header is longer than numpy reads (a multi-line refusal)."""
        import struct
        text = "{'descr': '<f4', 'fortran_order': False, 'shape': (3, 6), }"
        text = text + " " * (20_000 - len(text)) + "\n"
        header = b"\x93NUMPY\x02\x00" + struct.pack("<I", len(text)) + text.encode()
        replaced_member(path, "targets0", header + b"\0" * 72)

    return {
        **common_damages(path),
        "a header of 10**12 rows": (huge_header, "declares shape"),
        "a missing array": (lambda: write_arrays(path, {k: v for k, v in arrays_of(path).items()
                                                        if k != "dense0"}), "not the arrays"),
        "a third round": (lambda: write_arrays(path, {**arrays_of(path), **{
            f"{k[:-1]}2": v for k, v in arrays_of(path).items() if k.endswith("0")}}),
            "not the arrays"),
        "a wrong dtype": (change("targets0", lambda a: a.astype(np.float64)), "float64"),
        "a wrong shape": (change("dense0", lambda a: a[:, :3]), "not float32 of shape"),
        "fewer targets": (change("targets0", lambda a: a[:-1]), "targets has"),
        "counts off": (change("counts0", lambda a: a + 1), "row counts do not add up"),
        "a row outside its block": (change("rows0", lambda a: a + 10**6), "outside its board"),
        "a negative row": (change("rows0", lambda a: a - 10**6), "outside its board"),
        "an unknown board": (change("boards0", lambda a: a + 7), "board number"),
        "a team out of range": (change("teams0", lambda a: a + 9), "a team outside"),
        "a NaN target": (change("targets0", lambda a: a * np.nan), "not finite"),
        "a NaN capture prior": (change("capture1", lambda a: a * np.nan), "capture holds"),
        "action counts off": (change("moves0", lambda a: a + 1), "action counts do not add up"),
        "an action outside the board": (change("origin0", lambda a: a + 10**6),
                                        "an action outside its board's cells"),
        "a word outside the words": (change("target0", lambda a: a + 10**6),
                                     "an action outside its board's cells"),
        "a policy target above 1": (change("policy1", lambda a: a + 2), "a policy target outside"),
        "a NaN policy target": (change("policy1", lambda a: a * np.nan),
                                "policy holds values that are not finite"),
        "a pickled object": (change("teams0", lambda a: np.array([object()] * len(a))),
                             "object"),
        "a header longer than numpy reads": (long_header, "targets0.npy"),
    }


DAMAGED_WINDOWS = ["missing", "empty", "truncated", "not a zip", "a header of 10**12 rows",
                   "a missing array", "a third round", "a wrong dtype", "a wrong shape",
                   "fewer targets", "counts off", "a row outside its block", "a negative row",
                   "an unknown board", "a team out of range", "a NaN target",
                   "a NaN capture prior", "action counts off", "an action outside the board",
                   "a word outside the words", "a policy target above 1", "a NaN policy target",
                   "a compressed array", "a pickled object", "an encrypted member",
                   "a member larger than the file", "a FIFO", "a link to a device",
                   "a header longer than numpy reads"]


def refused_on_resume(out, what):
    """The one-line refusal of resuming ``out``, which adds or removes no file."""
    before = sorted(p.name for p in out.iterdir())
    with pytest.raises(victorus.ConfigError) as refused:
        resume(out)
    message = str(refused.value)
    assert message.startswith(f"cannot resume from {str(out)!r}: ")
    assert "\n" not in message and len(message) < 500, message
    assert message.count(what) == 1, message
    assert sorted(p.name for p in out.iterdir()) == before            # nothing added or removed
    return message


def test_the_damages_of_a_window_are_each_told_apart(run_copy):
    assert sorted(damaged_windows(run_copy)) == sorted(DAMAGED_WINDOWS)


@pytest.mark.parametrize("damage", DAMAGED_WINDOWS)
def test_a_damaged_or_crafted_window_is_refused_in_one_line(run_copy, damage):
    do, expected = damaged_windows(run_copy)[damage]
    do()
    message = refused_on_resume(run_copy, f"{WINDOW} is not a window this run wrote: ")
    assert expected in message, message


def damaged_optimisers(out):
    """(what was done, how to do it, the words of the refusal) for each damage of the
    optimiser's state (training.Adam.state, checkpoint.optimiser_layout)."""
    import numpy as np
    path = out / OPTIMISER

    def change(name, value):
        def do():
            arrays = arrays_of(path)
            assert name in arrays, sorted(arrays)
            arrays[name] = value(arrays[name].copy())
            write_arrays(path, arrays)
        return do

    def at(index, value):
        def put(array):
            array.reshape(-1)[index] = value
            return array
        return put

    def without(name):
        return lambda: write_arrays(path, {k: v for k, v in arrays_of(path).items() if k != name})

    def folder():
        path.unlink()
        path.mkdir()

    return {
        **common_damages(path),
        "a folder": (folder, "not a regular file"),
        "a header of 10**12 rows": (lambda: replaced_member(path, "m.w1", npy_header((10**12, 8))),
                                    "m.w1.npy is float32 of shape (1000000000000, 8), not"),
        "a wrong shape": (change("m.w2", lambda a: a[:-1]), "m.w2.npy is float64 of shape"),
        "another network's shape": (change("v.b1", lambda a: np.zeros(16, np.float64)),
                                    "v.b1.npy is float64 of shape (16,), not float64 of shape (8,)"),
        "row_t short": (change("row_t", lambda a: a[:-1]), "row_t.npy is int64 of shape"),
        "a step count of two entries": (change("t.b1", lambda a: np.array([1, 1], np.int64)),
                                        "t.b1.npy is int64 of shape (2,), not int64 of shape (1,)"),
        "a wrong dtype": (change("v.w3", lambda a: a.astype(np.float32)),
                          "v.w3.npy is float32"),
        "a float step count": (change("t.w3", lambda a: a.astype(np.float32)),
                               "t.w3.npy is float32"),
        "a 32-bit row count": (change("row_t", lambda a: a.astype(np.int32)), "row_t.npy is int32"),
        "a pickled object": (change("t.b2", lambda a: np.array([object()])), "object"),
        "a missing moment": (without("v.b3"), "not the arrays"),
        "a missing step count": (without("t.skip"), "not the arrays"),
        "a missing row_t": (without("row_t"), "not the arrays"),
        "a step count for w1": (lambda: write_arrays(path, {**arrays_of(path),
                                                            "t.w1": np.ones(1, np.int64)}),
                                "not the arrays"),
        "an extra array": (lambda: write_arrays(path, {**arrays_of(path),
                                                       "m.extra": np.zeros(1, np.float32)}),
                           "not the arrays"),
        "a NaN moment": (change("m.w3", at(0, np.nan)), "m.w3 holds values that are not finite"),
        "an infinite moment": (change("v.w1", at(-1, np.inf)),
                               "v.w1 holds values that are not finite"),
        "a negative step count": (change("t.w2", lambda a: a - 10**6),
                                  "t.w2 holds negative values"),
        "a negative row count": (change("row_t", at(0, -1)),
                                 "row_t holds negative values"),
    }


DAMAGED_OPTIMISERS = ["missing", "empty", "truncated", "not a zip", "a header of 10**12 rows",
                      "a wrong shape", "another network's shape", "row_t short",
                      "a step count of two entries", "a wrong dtype", "a float step count",
                      "a 32-bit row count", "a pickled object", "a missing moment",
                      "a missing step count", "a missing row_t", "a step count for w1",
                      "an extra array", "a NaN moment", "an infinite moment",
                      "a negative step count", "a negative row count", "a compressed array",
                      "an encrypted member", "a member larger than the file", "a FIFO", "a folder",
                      "a link to a device"]


def test_the_damages_of_an_optimiser_are_each_told_apart(run_copy):
    assert sorted(damaged_optimisers(run_copy)) == sorted(DAMAGED_OPTIMISERS)


@pytest.mark.parametrize("damage", DAMAGED_OPTIMISERS)
def test_a_damaged_or_crafted_optimiser_state_is_refused_in_one_line(run_copy, damage):
    do, expected = damaged_optimisers(run_copy)[damage]
    do()
    message = refused_on_resume(run_copy,
                                f"{OPTIMISER} is not an optimiser's state this run wrote: ")
    assert expected in message, message


def test_a_negative_second_moment_is_refused(run_copy):
    arrays = arrays_of(run_copy / OPTIMISER)
    arrays["v.w3"] = -arrays["v.w3"] - 1
    write_arrays(run_copy / OPTIMISER, arrays)
    message = refused_on_resume(run_copy, f"{OPTIMISER} is not an optimiser's state this run wrote: ")
    assert "v.w3" in message, message


def test_the_optimiser_state_read_back_is_the_one_saved(run_copy):
    """What the checks accept: the state a run wrote, read back whole, and Adam going on
    from it as it was."""
    import numpy as np

    from victorus.evaluation.network import Network
    from victorus.training import Adam
    from victorus.training.checkpoint import optimiser_layout, read_arrays
    network = Network.load(run_copy / f"round-{LAST}.vnet")
    state = read_arrays(str(run_copy / OPTIMISER), optimiser_layout(network.arrays), "a state")
    saved = arrays_of(run_copy / OPTIMISER)
    assert sorted(state) == sorted(saved) and all(
        state[k].dtype == saved[k].dtype and np.array_equal(state[k], saved[k]) for k in saved)
    assert state["row_t"].max() > 0 and all(state[f"t.{k}"][0] > 0 for k in network.arrays
                                            if k != "w1")
    again = Adam.restored(network.arrays, 1e-3, 1.0, state).state()
    assert all(np.array_equal(again[k], saved[k]) for k in saved)


SMALL = ["--games", "2", "--iterations", "8", "--label-iterations", "8", "--hidden", "8",
         "--hidden2", "4", "--holdout-games", "0", "--gate-games", "0", "--curve-games", "0",
         "--no-progress"]


@pytest.fixture(scope="module")
def command_run(tmp_path_factory):
    """A run of rounds 0 and 1 by ``victorus train``, copied by each test that damages it."""
    out = tmp_path_factory.mktemp("command") / "run"
    assert main(["train", str(out), "--rounds", "1", *SMALL]) == 0
    return out


@pytest.mark.parametrize("damaged, words", [
    ("window-1.npz", "window-1.npz is not a window this run wrote: not a whole .npz file"),
    ("optimiser-1.npz", "optimiser-1.npz is not an optimiser's state this run wrote: not a "
                        "whole .npz file"),
    ("round-1.vnet", "{out}/round-1.vnet: "),
    ("curve.json", "curve.json is not a curve this run wrote: not JSON")])
def test_the_train_command_refuses_a_damaged_checkpoint_in_one_line(command_run, tmp_path,
                                                                    capsys, damaged, words):
    import shutil
    out = shutil.copytree(command_run, tmp_path / "run")
    (out / damaged).write_bytes(b"PK\x03\x04 not a zip")
    before = listing(out)
    capsys.readouterr()
    assert main(["train", str(out), "--resume", "--rounds", "2", *SMALL]) == 2
    err = capsys.readouterr().err
    words = words.format(out=out)
    assert err.startswith(f"victorus: error: cannot resume from {str(out)!r}: {words}"), err
    assert err.count("\n") == 1
    assert listing(out) == before


def damaged_curves():
    """(what was done to the curve's data, the words of the refusal); ``point`` changes
    the last point (round 2: gated, accepted, its curve matches played)."""
    def point(**changes):
        return lambda curve: curve["points"][-1].update(changes)

    def score(name, **changes):
        return lambda curve: curve["points"][-1][name].update(changes)

    def dropped(name, field):
        return lambda curve: curve["points"][-1][name].pop(field)

    def first(**changes):
        return lambda curve: curve["points"][0].update(changes)

    not_a_score = "must be null or a match's score (fields score, low, high, games, wins, losses)"
    not_a_test = ("must be null or an acceptance test (fields verdict, llr, lower, upper, games, "
                  "groups, score, low, high, verdict one of accept, reject, cap)")
    not_anchors = "anchors must be a list of matches against earlier rounds"
    return {
        "a string round": (point(round="1"), "round must be an integer"),
        "a network that is no content name": (point(network="../x"),
                                              "network must be a network's content name"),
        "a negative minutes": (point(minutes=-1), "minutes must be a number"),
        "1e308 minutes": (point(minutes=1e308), "minutes must be a number"),
        "minutes going back": (None, "from 5 (the round before)"),
        "a list of games": (point(games=[1]), "games must be an integer"),
        "a missing field": (lambda curve: curve["points"][-1].pop("positions"), "fields"),
        "a missing new field": (lambda curve: curve["points"][-1].pop("labelled_per_second"),
                                "fields"),
        "an extra field": (point(extra=1), "fields"),
        "a string loss": (point(train_loss="low"), "train_loss"),
        "an infinite loss": (point(validation_loss=float("inf")), "validation_loss"),
        "no points": (lambda curve: curve.update(points=[]), "non-empty list"),
        "settings as a list": (lambda curve: curve.update(settings=[]), "'settings'"),
        "rounds out of order": (point(round=5), "numbered 5"),
        "a huge spec echoed": (lambda curve: curve["settings"].update(seed="9" * 10**6),
                               "trained with seed"),
        # the policy's loss and self-play's rate
        "a string policy loss": (point(policy_loss="low"),
                                 "point 2: policy_loss must be a finite loss (or NaN)"),
        "a negative policy loss": (point(policy_loss=-1.0), "point 2: policy_loss must be"),
        "an infinite policy loss": (point(policy_loss=float("inf")), "point 2: policy_loss must be"),
        "a negative rate": (point(labelled_per_second=-1),
                            "point 2: labelled_per_second must be a number from 0"),
        "a NaN rate": (point(labelled_per_second=float("nan")),
                       "point 2: labelled_per_second must be"),
        "a rate as a string": (point(labelled_per_second="fast"),
                               "point 2: labelled_per_second must be"),
        # the matches: null or a score
        "a gate of a number": (point(gate=0.5), f"point 2: gate {not_a_test}"),
        "a gate as a list": (point(gate=["accept", 0.5, 0, 0, 2, 1, 1, 1, 1]),
                             f"point 2: gate {not_a_test}"),
        "a gate without its groups": (dropped("gate", "groups"), f"point 2: gate {not_a_test}"),
        "a gate with an extra field": (score("gate", draws=0), f"point 2: gate {not_a_test}"),
        "a gate scoring 1.5": (score("gate", score=1.5), f"point 2: gate {not_a_test}"),
        "a gate's NaN low end": (score("gate", low=float("nan")), f"point 2: gate {not_a_test}"),
        "a gate's score outside its interval": (score("gate", low=0.9, high=1.0, score=0.5),
                                                f"point 2: gate {not_a_test}"),
        "a gate's negative games": (score("gate", games=-2), f"point 2: gate {not_a_test}"),
        "a gate's games as true": (score("gate", games=True), f"point 2: gate {not_a_test}"),
        "a gate of more groups than games": (score("gate", groups=3), f"point 2: gate {not_a_test}"),
        "a gate's groups as a string": (score("gate", groups="1"), f"point 2: gate {not_a_test}"),
        "a gate's unknown verdict": (score("gate", verdict="maybe"), f"point 2: gate {not_a_test}"),
        "a gate's infinite LLR": (score("gate", llr=float("inf")), f"point 2: gate {not_a_test}"),
        "anchors as null": (point(anchors=None), f"point 2: {not_anchors}"),
        "an anchor of a later round": (lambda curve: curve["points"][-1]["anchors"][0].update(round=2),
                                       f"point 2: {not_anchors}"),
        "an anchor without its high end": (lambda curve: curve["points"][-1]["anchors"][0].pop("high"),
                                           f"point 2: {not_anchors}"),
        "a rating as a number": (point(rating=12.5), "point 2: rating must be null or a rating"),
        "a rating outside its interval": (lambda curve: curve["points"][-1]["rating"].update(
            elo=1e5), "point 2: rating must be null or a rating"),
        "a rating not the ladder's": (lambda curve: curve["points"][-1]["rating"].update(
            elo=curve["points"][-1]["rating"]["low"]), "point 2: its rating {"),
        "a held-out configuration of another board": (
            lambda curve: curve["points"][-1]["holdout_by_config"][0].update(board="hexagon"),
            "point 2: holdout_by_config must be a list of a configuration's losses"),
        "a held-out configuration of 7 teams": (
            lambda curve: curve["points"][-1]["holdout_by_config"][0].update(teams=7),
            "point 2: holdout_by_config must be"),
        "held-out losses as an object": (point(holdout_by_config={}),
                                         "point 2: holdout_by_config must be"),
        "no format": (lambda curve: curve.pop("format"),
                      "curve.json was written by an earlier victorus (its rounds were gated by a "
                      "fixed score, not the acceptance test): this victorus reads curves of "
                      "format 2; train a new run"),
        "format 3": (lambda curve: curve.update(format=3), "it needs an object with 'format' (2)"),
        "vs round 0 as a string": (point(vs_start="won"), f"point 2: vs_start {not_a_score}"),
        "vs round 0 without its score": (dropped("vs_start", "score"),
                                         f"point 2: vs_start {not_a_score}"),
        "vs best-heuristic's high end above 1": (score("vs_heuristic", high=2),
                                                 f"point 2: vs_heuristic {not_a_score}"),
        "vs best-heuristic's losses 10**10": (score("vs_heuristic", losses=10**10),
                                              f"point 2: vs_heuristic {not_a_score}"),
        # accepted, best and searched_by agreeing
        "accepted as a string": (point(accepted="yes"), "point 2: accepted must be true or false"),
        "accepted as 1": (point(accepted=1), "point 2: accepted must be true or false"),
        "accepted but not the best": (point(best=1), "point 2: best must be the round of the best "
                                                     "network (2 if accepted, else an earlier round)"),
        "refused but the best": (point(accepted=False), "point 2: best must be the round"),
        "a best of a later round": (point(accepted=False, best=3), "point 2: best must be"),
        "a negative best": (point(accepted=False, best=-1), "point 2: best must be"),
        "a best as a string": (point(best="2"), "point 2: best must be"),
        "round 0 refused": (first(accepted=False), "point 0: best must be"),
        "searched by itself": (point(searched_by=2),
                               "point 2: searched_by must be an earlier round or -1"),
        "searched by a later round": (point(searched_by=3), "point 2: searched_by must be"),
        "searched by -2": (point(searched_by=-2), "point 2: searched_by must be"),
        "searched by true": (point(searched_by=True), "point 2: searched_by must be"),
        "round 0 searched by round 0": (first(searched_by=0), "point 0: searched_by must be"),
        # the rounds agreeing with each other and with the run's gate, round by round
        **contradictions(),
    }


def contradictions():
    """Curves whose rounds contradict each other or the run's acceptance test (the finished
    run: rounds 1 and 2 accepted by a test whose bounds are both 0, round 2 against the anchor
    round 0, their curve matches played): (how, the words of the refusal). A point's change
    of ``gate`` or of its anchor updates the fields it names."""
    def points(*changes, **settings):
        def do(curve):
            curve["settings"].update(settings)
            for point, change in zip(curve["points"], changes):
                change = dict(change)
                if isinstance(change.get("gate"), dict) and point["gate"] is not None:
                    point["gate"].update(change.pop("gate"))
                if "anchor" in change:
                    point["anchors"][0].update(change.pop("anchor"))
                point.update(change)
        return do

    refused = dict(accepted=False, vs_start=None, vs_heuristic=None, anchors=[])
    rejected = {"verdict": "reject", "llr": -1.0}
    return {
        "an accepted round the test refused": (
            points({}, {}, {"gate": rejected, "anchors": []}),
            "round 2 is accepted, but its test's verdict is 'reject'"),
        "a verdict its ratio does not give": (
            points({}, {}, {"gate": {"verdict": "reject"}}),
            "round 2: its test's verdict 'reject' does not follow from its LLR"),
        "a cap not reached": (
            points({}, {}, {**refused, "best": 1, "gate": {"verdict": "cap"}}),
            "round 2: its test's verdict 'cap' does not follow"),
        "bounds that are not the run's": (
            points(alpha=0.05), "round 1: its test's bounds [0, 0] are not the run's alpha and "
                                "beta's [-0.6419, 2.3026]"),
        "an accepted round that lost to an anchor": (
            points({}, {}, {"anchor": {"score": 0.2, "low": 0.1, "high": 0.4}}),
            "round 2 is accepted, but its test's verdict is 'accept' and its anchors' high ends "
            "[0.4] (below 0.5 refuses)"),
        "a refused round with no anchor lost": (
            points({}, {}, {**refused, "best": 1}),
            "round 2's anchors are rounds [], not the run's anchors for it, rounds [0]"),
        "an anchor missing": (points({}, {}, {"anchors": []}),
                              "round 2's anchors are rounds [], not the run's anchors for it"),
        "an anchor of too few games": (points(anchor_games=4),
                                       "round 2's anchors are rounds [0], not the run's anchors "
                                       "for it, rounds [0], of 4 games or more"),
        "a refused round whose best is round 0": (
            points({}, {}, {**refused, "best": 0, "gate": rejected}),
            "round 2 is refused, so its best is the best after round 1 (round 1), not round 0"),
        "searched by a round never the best": (
            points({}, {**refused, "best": 0, "gate": rejected}, {"searched_by": 1, "anchors": []}),
            "round 2 was searched by round 1, but self-play searches with round 0's network or "
            "with the best after round 1 (round 0)"),
        "round 1 searched by no round": (points({}, {"searched_by": -1}),
                                         "round 1 was searched by round -1"),
        "an ungated round of a gated run": (points({}, {}, {"gate": None}),
                                            "round 2 has no gate, but the run's gate_games is 2"),
        "a gated round of an ungated run": (points(gate_games=0),
                                            "round 1 has a gate, but the run's gate_games is 0"),
        "a refused round without a gate": (
            points({}, {"gate": None}, {"gate": None, **refused, "best": 1}, gate_games=0),
            "round 2 is refused or plays anchors without a gate"),
        "an accepted round without curve matches": (
            points({}, {}, {"vs_start": None}),
            "round 2 is accepted and the run's curve_games is 2, so its vs_start must be a match "
            "of 2 games, got None"),
        "a refused round with curve matches": (
            points({}, {}, {"accepted": False, "best": 1, "gate": rejected, "anchors": []}),
            "round 2 is refused and the run's curve_games is 2, so its vs_start must be null"),
        "curve matches of other games": (points({}, {}, {"vs_heuristic": curve_score(games=4)}),
                                         "so its vs_heuristic must be a match of 2 games"),
        "curve matches in a run without them": (points(curve_games=0),
                                                "round 1 is accepted and the run's curve_games is 0"),
        "round 0 with a gate": (points({"vs_start": curve_score()}),
                                "round 0 (the start) plays no gate and no match"),
        "an alpha of a string": (points(alpha="high"),
                                 "settings: alpha must be a number from 1e-300 to 0.5"),
        "gate games of a float": (points(gate_games=2.0),
                                  "settings: gate_games must be an integer from 0 to 100000"),
    }


def curve_score(games=2, wins=1, losses=1, **given):
    """A match's score as the curve holds it: its counts, and the score they make (a draw as
    half) unless ``given``."""
    score = (wins + (games - wins - losses) / 2) / games
    return {"score": score, "low": 0.0, "high": 1.0, "games": games, "wins": wins,
            "losses": losses, **given}


@pytest.mark.parametrize("damage", list(damaged_curves()))
def test_a_damaged_or_crafted_curve_is_refused_in_one_line(run_copy, damage):
    change, expected = damaged_curves()[damage]
    curve = json.loads((run_copy / "curve.json").read_text())
    if change is None:                              # minutes going back
        curve["points"][0]["minutes"] = 5.0
        curve["points"][1]["minutes"] = 1.0
    else:
        change(curve)
    (run_copy / "curve.json").write_text(json.dumps(curve))
    message = refused_on_resume(run_copy, "cannot resume from")
    assert expected in message, message
    assert "Infinity" not in message


def test_every_round_records_its_networks_content_and_a_replaced_file_is_refused(run_copy):
    """Each point names the content of its round's network file (the gate's two networks are
    this round's and the best after the round before); a round file replaced since (here by
    another round's network) is refused on resume, naming the file and both contents."""
    from victorus.evaluation.network import Network
    from victorus.training import read_run
    points = read_run(str(run_copy))[1]
    for point in points:
        assert point.network == Network.load(run_copy / f"round-{point.round}.vnet").content
    assert len({p.network for p in points}) == len(points)
    (run_copy / f"round-{LAST}.vnet").write_bytes((run_copy / "round-1.vnet").read_bytes())
    message = refused_on_resume(run_copy, f"round-{LAST}.vnet holds the network")
    assert points[1].network in message and points[LAST].network in message


def test_a_curve_of_an_earlier_victorus_is_refused_naming_why(run_copy, capsys):
    """A curve of the fixed gate (no ``format``, a gate of a score over a fixed number of
    games) is neither resumed nor drawn: one line says why."""
    curve = json.loads((run_copy / "curve.json").read_text())
    del curve["format"]
    (run_copy / "curve.json").write_text(json.dumps(curve))
    message = refused_on_resume(run_copy, "curve.json was written by an earlier victorus")
    assert "this victorus reads curves of format 2" in message
    capsys.readouterr()
    assert main(["curve", str(run_copy)]) == 2
    err = capsys.readouterr().err
    assert "curve.json was written by an earlier victorus" in err and err.count("\n") == 1


def accepted_curves():
    """Changes of the curve that are still a curve: (what was done, the settings it was
    trained with, the round of the network.vnet the resumed run keeps as its best)."""
    def point(**changes):
        return lambda curve: curve["points"][-1].update(changes)

    def each(**changes):
        return lambda curve: [p.update(changes) for p in curve["points"][1:]]

    def refused(curve):
        curve["points"][2]["gate"].update(verdict="reject", llr=-0.5)
        curve["points"][2].update(accepted=False, best=1, vs_start=None, vs_heuristic=None,
                                  anchors=[])

    def capped(curve):
        curve["points"][2]["gate"].update(verdict="cap", llr=-0.5, lower=-2.9444, upper=2.9444)
        curve["points"][1]["gate"].update(llr=3.0, lower=-2.9444, upper=2.9444)
        curve["points"][2].update(accepted=False, best=1, vs_start=None, vs_heuristic=None,
                                  anchors=[])
    return {
        "an ungated run": (each(gate=None, anchors=[]), {"gate_games": 0}, LAST),
        "a run without curve matches": (each(vs_start=None, vs_heuristic=None),
                                        {"curve_games": 0}, LAST),
        "a run without anchors": (each(anchors=[]), {"anchor_games": 0}, LAST),
        "a refused round": (refused, {}, 1),
        "a round refused at the cap": (capped, {"alpha": 0.05, "beta": 0.05}, 1),
        "a round searched by round 0": (point(searched_by=0), {}, LAST),
        "NaN losses (no held-out set)": (point(validation_loss=float("nan"),
                                               heuristic_loss=float("nan"),
                                               policy_loss=float("nan")), {}, LAST),
        "a rate of 0": (point(labelled_per_second=0), {}, LAST),
    }


@pytest.mark.parametrize("change", list(accepted_curves()))
def test_a_curve_within_its_ranges_is_resumed(run_copy, change):
    from victorus.training.ladder import ladder
    do, settings, best = accepted_curves()[change]
    curve = json.loads((run_copy / "curve.json").read_text())
    do(curve)
    curve["settings"].update(settings)
    for point, rating in zip(curve["points"], ladder(curve["points"])):   # its matches' ladder
        point["rating"] = rating
    (run_copy / "curve.json").write_text(json.dumps(curve))
    assert resume(run_copy, rounds=LAST, **settings).info["round"] == best    # nothing trained


@pytest.mark.parametrize("content", [b"", b"{", b"\xff\xfe", b"[]", b"null"])
def test_a_curve_that_is_not_a_curve_is_refused(run_copy, content):
    (run_copy / "curve.json").write_bytes(content)
    with pytest.raises(victorus.ConfigError, match="cannot resume from .*curve"):
        resume(run_copy)


def test_a_round_network_that_is_not_one_of_the_run_is_refused(run_copy):
    from victorus.evaluation.network import Network
    trained = {"boards": ["compact"], "players": [2]}
    for name in ("round-0.vnet", f"round-{LAST}.vnet"):
        saved = (run_copy / name).read_bytes()
        (run_copy / name).write_bytes(b"VNET")
        refused_on_resume(run_copy, name)
        Network.fresh(8, 4, 0, trained).save(run_copy / name)             # no policy head
        refused_on_resume(run_copy, "its networks have no policy head")
        (run_copy / name).unlink()
        refused_on_resume(run_copy, name)
        (run_copy / name).write_bytes(saved)
    Network.fresh(16, 4, 0, trained, policy=True).save(run_copy / f"round-{LAST}.vnet")
    refused_on_resume(run_copy, "cannot resume from")


@pytest.mark.parametrize("name", ["round-0.vnet", f"round-{LAST}.vnet"])
def test_a_round_network_of_another_shape_is_refused_naming_it(run_copy, name):
    from victorus.evaluation.network import Network
    Network.fresh(16, 4, 0, {"boards": ["compact"], "players": [2]}, policy=True).save(run_copy / name)
    message = refused_on_resume(run_copy, name)
    assert "hidden sizes 16, 4" in message, message


def test_a_whole_run_resumes_after_the_checks(run_copy):
    network = resume(run_copy)
    assert network.info["round"] == 3
    assert sorted(os.listdir(run_copy)) == ["curve.json", "curve.svg", "network.vnet",
                                            "optimiser-3.npz", "positions-1.npz",
                                            "positions-2.npz", "positions-3.npz",
                                            "positions-holdout.npz",
                                            "round-0.vnet", "round-1.vnet", "round-2.vnet",
                                            "round-3.vnet", "window-3.npz"]
    points = json.loads((run_copy / "curve.json").read_text())["points"]
    assert [p["round"] for p in points] == [0, 1, 2, 3] and points[3]["searched_by"] == LAST


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
    from victorus.page.server import PERSON, Table
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
    constants = {"MAGIC", "HEADER", "LAYOUT", "POLICY_LAYOUT", "POLICY_PAIR_LAYOUT", "self.labels[0]",
                 "self.labels[-1]"}
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


# -- a loss stops the others at once; a run with no standard error ---------------------------

def sleeps_or_dies(folder, task):
    """A pool task: a sleeper marks its start, sleeps a minute and marks its end; "die"
    waits until both sleepers have started, then kills its own process."""
    from pathlib import Path
    if task == "die":
        while len(list(Path(folder).glob("started-*"))) < 2:
            time.sleep(0.01)
        os.kill(os.getpid(), signal.SIGKILL)
    (Path(folder) / f"started-{os.getpid()}").touch()
    time.sleep(60)
    (Path(folder) / f"finished-{os.getpid()}").touch()
    return task


@needs_kill
def test_a_loss_stops_the_other_workers_at_once_not_after_their_tasks(tmp_path, monkeypatch):
    """The workers still playing when one dies are ended, not waited for: even given an
    hour to stop politely (STOP_SECONDS), none of their long tasks ends, and each process
    is gone (ended and reaped) when the error is raised."""
    from victorus import workers
    monkeypatch.setattr(workers, "STOP_SECONDS", 3600.0)
    with pytest.raises(victorus.WorkerLost, match="while working on die$"):
        dict(process_map(sleeps_or_dies, str(tmp_path), ["sleep", "sleep", "die"], 3,
                         describe=lambda task: f"working on {task}"))
    sleepers = [int(path.name.split("-")[1]) for path in tmp_path.glob("started-*")]
    assert len(sleepers) == 2
    for pid in sleepers:
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)
    assert not list(tmp_path.glob("finished-*"))


#: Each bulk command, its progress left to its default; "{out}" is where it writes.
NO_STDERR_RUNS = {
    "simulate": (["simulate", "2", "--workers", "2", "--max-actions", "300", "--json", "{out}"],
                 "games: 2, finished"),
    "match": (["match", "random", "greedy", "--games", "2", "--workers", "2", "--json", "{out}"],
              "A's score"),
    "tournament": (["tournament", "2", "random", "greedy", "--workers", "2", "--max-actions",
                    "300", "--json", "{out}"], "random"),
    "train": (["train", "{out}", "--rounds", "1", "--games", "2", "--iterations", "8",
               "--label-iterations", "8", "--hidden", "8", "--hidden2", "4", "--holdout-games",
               "0", "--gate-games", "0", "--curve-games", "0", "--workers", "2"],
              "victorus: the best network is")}


def wrote(command, out):
    """What ``command`` wrote to ``out``: its JSON, or the training run's files."""
    if command == "train":
        return sorted(os.listdir(out))
    return json.loads(out.read_text())


@needs_proc
@pytest.mark.parametrize("command", list(NO_STDERR_RUNS))
def test_a_command_with_its_stderr_closed_runs_to_its_end(tmp_path, command):
    """``2>&-``: descriptor 2 closed from the start (Python's sys.stderr is None), as
    a daemon's may be; the run writes all it writes and exits 0."""
    import subprocess
    args, words = NO_STDERR_RUNS[command]
    out = tmp_path / "out"
    ran = subprocess.run(["sh", "-c", 'exec "$0" "$@" 2>&-', sys.executable, "-m", "victorus",
                          *(arg.format(out=out) for arg in args)],
                         stdout=subprocess.PIPE, text=True, timeout=300)
    assert ran.returncode == 0 and words in ran.stdout, ran.stdout
    assert wrote(command, out)


@pytest.mark.parametrize("command", list(NO_STDERR_RUNS))
def test_a_command_with_no_sys_stderr_runs_to_its_end(tmp_path, monkeypatch, capsys, command):
    """sys.stderr None (pythonw, a daemon's Python): the same, in this process."""
    args, words = NO_STDERR_RUNS[command]
    out = tmp_path / "out"
    monkeypatch.setattr(sys, "stderr", None)
    assert main([arg.format(out=out) for arg in args]) == 0
    assert words in capsys.readouterr().out and wrote(command, out)


def test_with_no_stderr_the_text_of_json_to_stdout_goes_nowhere(monkeypatch, capsys):
    """``--json -`` sends the table to standard error: with none, it is dropped, never
    mixed into the JSON on standard output; an error line is dropped alike."""
    monkeypatch.setattr(sys, "stderr", None)
    assert main(["match", "random", "greedy", "--games", "2", "--json", "-"]) == 0
    assert json.loads(capsys.readouterr().out)["games"] == 2
    assert main(["match", "random", "nonsense", "--games", "2"]) == 2
    assert capsys.readouterr().out == ""


def standard_error_of(_, task):
    """A pool task: what the worker's descriptor 2 is."""
    return os.readlink("/proc/self/fd/2")


@needs_proc
def test_a_worker_of_a_process_with_no_stderr_writes_to_the_null_device():
    """With descriptor 2 closed, the pool's first pipe would take it, and a worker started
    then would have another worker's pipe as its standard error: descriptor 2 is held
    on the null device first."""
    import subprocess
    script = ("import sys\n"
              "sys.path.insert(0, sys.argv[1])\n"
              "from test_faults import standard_error_of\n"
              "from victorus.workers import process_map\n"
              "print(sorted(set(dict(process_map(standard_error_of, None, [0, 1], 2)).values())))\n")
    ran = subprocess.run(["sh", "-c", 'exec "$0" "$@" 2>&-', sys.executable, "-c", script,
                          os.path.dirname(__file__)], stdout=subprocess.PIPE, text=True,
                         timeout=300)
    assert ran.returncode == 0 and ran.stdout == f"[{os.devnull!r}]\n", ran.stdout
