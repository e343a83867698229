"""A run's processes never outlive it: workers whose parent is killed (SIGTERM, SIGKILL, the
out-of-memory killer) end at once and quietly, even in the middle of a long task, by the
kernel's word on Linux or by their own watchdog anywhere; SIGTERM to the command line
stops a run as Ctrl-C does (its finished work kept), with its own exit status.

Every wait here polls for an event (a worker started, a process gone, a round saved)
under a generous deadline: nothing depends on the machine's speed or load."""

from __future__ import annotations

import ctypes
import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from test_faults import spawned_children

pytestmark = [pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="POSIX signals"),
              pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="Linux's /proc")]

#: The most seconds any wait here polls (the events come in well under a second).
DEADLINE = 20.0
#: A worker's CPU seconds after which it is playing, not starting (it starts in ~0.5 s).
PLAYING_CPU = 1.5


def running(pid: int) -> bool:
    """Whether process ``pid`` runs (a zombie, dead but not yet reaped, does not)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as fh:
            return fh.read().rsplit(")", 1)[1].split()[0] not in ("Z", "X")
    except (OSError, IndexError):
        return False


def cpu_seconds(pid: int) -> float:
    """The CPU time process ``pid`` has used (0 once it is gone)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as fh:
            fields = fh.read().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def poll(condition, what: str) -> None:
    """Wait, polling, until ``condition()``; fail naming ``what`` after DEADLINE."""
    deadline = time.monotonic() + DEADLINE
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"still waiting for {what} after {DEADLINE:g} s")
        time.sleep(0.05)


def default_signals() -> None:
    """A command's SIGINT and SIGTERM as a terminal's would be (a suite started in the
    background has SIGINT ignored, and a child inherits that)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def end_all(pids) -> None:
    """Kill what is left (after a failure: no test leaves a process playing)."""
    for pid in pids:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


# -- the command line's workers ------------------------------------------------------------

#: Two games with one decision taking many seconds: each worker plays for minutes.
LONG_MATCH = ("match", "mcts:1000000", "mcts:1000000", "--games", "2", "--workers", "2",
              "--no-progress")


@pytest.mark.parametrize("how, status, said", [
    (signal.SIGKILL, -signal.SIGKILL, ""),                      # kill -9, the OOM killer
    (signal.SIGTERM, 143, "victorus: terminated\n")])           # kill, a supervisor
def test_the_workers_of_a_killed_command_end_with_it_quietly(tmp_path, how, status, said):
    err = tmp_path / "stderr"
    with open(err, "w") as stream:
        command = subprocess.Popen([sys.executable, "-m", "victorus", *LONG_MATCH],
                                   stdout=subprocess.DEVNULL, stderr=stream,
                                   preexec_fn=default_signals)
    workers: list[int] = []
    try:
        poll(lambda: len(spawned_children(command.pid)) == 2, "two workers")
        workers = spawned_children(command.pid)
        poll(lambda: all(cpu_seconds(pid) >= PLAYING_CPU for pid in workers), "both playing")
        command.send_signal(how)
        assert command.wait(DEADLINE) == status
        poll(lambda: not any(running(pid) for pid in workers), "the workers to end")
    finally:
        command.kill()
        end_all(workers)
    assert err.read_text() == said                  # no traceback, no BrokenPipeError


# -- the pool's workers, without the kernel's help ------------------------------------------

def sleeps_without_the_kernel(folder: str, task: int) -> int:
    """A pool task: the worker's kernel death signal switched off (the watchdog alone
    must end it, as on macOS or Windows), its start marked, then a long sleep (marked if
    it ever ends)."""
    ctypes.CDLL(None).prctl(1, ctypes.c_ulong(0), ctypes.c_ulong(0), ctypes.c_ulong(0),
                            ctypes.c_ulong(0))                  # PR_SET_PDEATHSIG, none
    (Path(folder) / f"started-{os.getpid()}").touch()
    time.sleep(DEADLINE)
    (Path(folder) / f"finished-{os.getpid()}").touch()
    return task


MAPS = ("import sys\n"
        "sys.path.insert(0, sys.argv[2])\n"
        "from test_parent_death import sleeps_without_the_kernel\n"
        "from victorus.workers import process_map\n"
        "for _ in process_map(sleeps_without_the_kernel, sys.argv[1], [0, 1], 2):\n"
        "    print('a task finished', flush=True)\n")


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="prctl")
@pytest.mark.parametrize("how", [signal.SIGKILL, signal.SIGTERM])
def test_a_workers_watchdog_ends_it_when_its_parent_dies_mid_task(tmp_path, how):
    """The parent a program of its own (SIGTERM left to its default: it dies at once)."""
    err = tmp_path / "stderr"
    with open(err, "w") as stream:
        parent = subprocess.Popen([sys.executable, "-c", MAPS, str(tmp_path),
                                   str(Path(__file__).parent)],
                                  stdout=subprocess.PIPE, stderr=stream, text=True,
                                  preexec_fn=default_signals)
    started: list[int] = []
    try:
        poll(lambda: len(list(tmp_path.glob("started-*"))) == 2, "both tasks to start")
        started = [int(p.name.split("-")[1]) for p in tmp_path.glob("started-*")]
        parent.send_signal(how)
        assert parent.wait(DEADLINE) == -how
        poll(lambda: not any(running(pid) for pid in started), "the workers to end")
    finally:
        parent.kill()
        end_all(started)
    assert parent.stdout is not None and parent.stdout.read() == ""
    assert not list(tmp_path.glob("finished-*")) and err.read_text() == ""


# -- SIGTERM to the command line: Ctrl-C's stop, its own status -----------------------------

TRAIN = ("--games", "2", "--iterations", "8", "--label-iterations", "8", "--hidden", "8",
         "--hidden2", "4", "--holdout-games", "0", "--gate-games", "0", "--curve-games", "0",
         "--workers", "2", "--no-progress")


def saved_rounds(out: Path) -> int:
    """The last round the run's curve holds (-1 before round 0 is saved)."""
    try:
        return json.loads((out / "curve.json").read_text())["points"][-1]["round"]
    except (OSError, ValueError, KeyError, IndexError):
        return -1


@pytest.mark.parametrize("how, status, said", [
    (signal.SIGINT, 130, "victorus: interrupted\n"),            # Ctrl-C
    (signal.SIGTERM, 143, "victorus: terminated\n")])
def test_sigterm_stops_a_training_run_as_ctrl_c_does(tmp_path, how, status, said):
    """The rounds finished are kept (--resume reads and checks them), the workers are
    gone, the exit status is the signal's."""
    out = tmp_path / "run"
    command = subprocess.Popen([sys.executable, "-m", "victorus", "train", str(out),
                                "--rounds", "1000", *TRAIN],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               preexec_fn=default_signals)
    workers: list[int] = []
    try:
        poll(lambda: saved_rounds(out) >= 1 and spawned_children(command.pid), "round 1")
        workers = spawned_children(command.pid)
        command.send_signal(how)
        printed, err = command.communicate(timeout=DEADLINE)
        poll(lambda: not any(running(pid) for pid in workers), "the workers to end")
    finally:
        command.kill()
        end_all(workers)
    assert command.returncode == status and err == said
    last = saved_rounds(out)              # (a round is saved, then printed)
    told = [int(n) for n in re.findall(r"^round (\d+):", printed, re.MULTILINE)]
    assert last >= 1 and told and told == list(range(len(told))) and told[-1] in (last - 1, last)
    again = subprocess.run([sys.executable, "-m", "victorus", "train", str(out), "--resume",
                            "--rounds", str(last), *TRAIN], capture_output=True, text=True)
    assert again.returncode == 0, again.stderr
    assert f"has rounds 0-{last} already" in again.stdout


def test_sigterm_in_a_command_is_its_exit_status(monkeypatch, capsys):
    """In-process: SIGTERM while the command runs stops it (KeyboardInterrupt's way) and
    main() returns 143 with one line; the default handling is back after."""
    import victorus.cli as cli

    def command(args):
        assert signal.getsignal(signal.SIGTERM) is not signal.SIG_DFL   # else it kills pytest
        os.kill(os.getpid(), signal.SIGTERM)
        time.sleep(DEADLINE)                    # interrupted long before
        raise AssertionError("SIGTERM did not stop the command")
    monkeypatch.setitem(cli.COMMANDS, "perft", command)
    runners = signal.signal(signal.SIGTERM, signal.SIG_DFL)    # as a program's is (Ray's aside)
    try:
        assert cli.main(["perft", "1"]) == 143
        assert signal.getsignal(signal.SIGTERM) is signal.SIG_DFL
    finally:
        signal.signal(signal.SIGTERM, runners)
    assert capsys.readouterr().err == "victorus: terminated\n"


def test_a_programs_own_sigterm_handling_is_kept(monkeypatch):
    """main() handles SIGTERM only where it was left to its default: a handler of the
    program calling it stays (during the command and after)."""
    import victorus.cli as cli
    seen = []

    def mine(signum, frame):
        raise AssertionError("not expected")

    def command(args):
        seen.append(signal.getsignal(signal.SIGTERM))
        return 0
    monkeypatch.setitem(cli.COMMANDS, "perft", command)
    before = signal.signal(signal.SIGTERM, mine)
    try:
        assert cli.main(["perft", "1"]) == 0
        assert seen == [mine] and signal.getsignal(signal.SIGTERM) is mine
    finally:
        signal.signal(signal.SIGTERM, before)
