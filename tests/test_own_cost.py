"""tools/own_cost.py: the instruction counts of the learning calls' own costs. valgrind
runs take about a minute, so the tests check the program it measures, the arithmetic and
the table; docs/performance.md holds a full run."""

import pytest

from helpers import load_tool

own_cost = load_tool("own_cost")


def test_the_measured_program_runs_each_case_at_each_length():
    positions, order = own_cost.drive((1, 2))
    assert positions > 50
    from victorus.bench import own_cost_calls
    cases = [own_cost.BASE, *own_cost_calls(127)]
    assert order == [run for case in cases for run in (own_cost.WARM, case, case)]


def test_a_round_is_the_difference_of_two_runs_per_position():
    # 10 positions; the base: 1 pass 1,000 + 10 x 100, 3 passes 1,000 + 30 x 100
    counts = [2000, 4000, 5000, 13000]
    rounds = own_cost.per_round(["base", "base", "call", "call"], counts, (1, 3), 10)
    assert rounds == {"base": 100.0, "call": 400.0}


def test_the_dumps_between_marks_are_read_in_order(tmp_path):
    for n, total in ((1, 999), (2, 10), (3, 20), (10, 30)):     # out.10 sorts after out.3
        (tmp_path / f"out.{n}").write_text(f"events: Ir\nsummary: {total}\ntotals: {total}\n")
    assert own_cost.segments(tmp_path, 4) == [10, 20, 30]


def test_the_table_gives_the_median_and_range():
    runs = [{own_cost.BASE: 100.0, "f()": 300.0}, {own_cost.BASE: 100.0, "f()": 340.0},
            {own_cost.BASE: 100.0, "f()": 320.0}]
    lines = own_cost.table(runs).splitlines()
    assert lines[2] == "| play() + undo() itself | 100 | 1 |"
    assert lines[3] == "| `f()` | 220 (200-240) | 2.20x (2.00x-2.40x) |"


@pytest.mark.parametrize("passes", ["3", "3,1", "1,x"])
def test_bad_passes_are_refused(passes, capsys):
    with pytest.raises(SystemExit):
        own_cost.main(["--passes", passes])
    assert "--passes" in capsys.readouterr().err


def test_memset_counts_its_stores_not_its_bytes(tmp_path):
    """Under the measured environment a 4 MiB memset counts as vector stores (32 bytes an
    instruction), not as a rep stosb that valgrind counts one instruction a byte."""
    import shutil
    import subprocess
    import sys
    if shutil.which("valgrind") is None:
        pytest.skip("valgrind not installed (Debian: apt install valgrind)")
    code = ("import ctypes, os; buf = ctypes.create_string_buffer(1 << 22); os.getppid(); "
            "ctypes.memset(buf, 7, 1 << 22); os.getppid()")
    run = subprocess.run(["valgrind", "--tool=callgrind", "--dump-before=getppid",
                          f"--callgrind-out-file={tmp_path / 'out'}", sys.executable, "-c", code],
                         capture_output=True, text=True, env={
                             **own_cost.measured_env(), "LD_PRELOAD": ""})   # (the ASan build's)
    assert run.returncode == 0, run.stderr[-2000:]
    (between,) = own_cost.segments(tmp_path, 2)                  # two marks: one segment
    assert between < (1 << 22) // 8, between


def test_the_measured_environment_keeps_the_users_tunables(monkeypatch):
    monkeypatch.setenv("GLIBC_TUNABLES", "glibc.malloc.check=3")
    env = own_cost.measured_env()
    assert env["GLIBC_TUNABLES"] == "glibc.malloc.check=3:" + own_cost.REP_THRESHOLDS
    monkeypatch.delenv("GLIBC_TUNABLES")
    assert own_cost.measured_env()["GLIBC_TUNABLES"] == own_cost.REP_THRESHOLDS
