"""The platform layer of the C code (src/victorus/portable.h): tools/portable_check.c
exercises every service it maps (threads, mutex and condition variable, atomics, the
monotonic clock, bit counts, a pool thread keeping off a CPU), built for the host and,
when MinGW-w64 is installed, cross-compiled through the header's Win32 path and run under
Wine when that is installed.
"""

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CHECK = ROOT / "tools" / "portable_check.c"
HEADER_DIR = ROOT / "src" / "victorus"
WARNINGS = ["-O2", "-Wall", "-Wextra", "-Werror"]
MINGW = "x86_64-w64-mingw32-gcc"
# Every Win32 call of the header that the check reaches: its threads, locks, condition
# variables and clock, none of them winpthreads'.
WIN32_IMPORTS = ("_beginthreadex", "AcquireSRWLockExclusive", "SleepConditionVariableSRW",
                 "WakeAllConditionVariable", "WakeConditionVariable", "QueryPerformanceCounter")


def host_compiler() -> str | None:
    return os.environ.get("CC") or shutil.which("cc") or shutil.which("gcc")


def child_env(**extra: str) -> dict[str, str]:
    """The environment without LD_PRELOAD: the sanitizer run (tools/sanitize-tests.sh)
    preloads ASan for Python, and Wine cannot start under it."""
    env = {k: v for k, v in os.environ.items() if k != "LD_PRELOAD"}
    return {**env, **extra}


def run_check(command: list[str], env: dict[str, str] | None = None) -> str:
    done = subprocess.run(command, capture_output=True, text=True, timeout=300,
                          env=env or child_env())
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


@pytest.mark.skipif(sys.platform == "win32", reason="the POSIX path; Windows wheels build with MSVC")
def test_posix_path_passes_every_check(tmp_path):
    compiler = host_compiler()
    if compiler is None:
        pytest.skip("no C compiler (cc, gcc or $CC) on PATH")
    exe = tmp_path / "portable_check"
    run_check([compiler, *WARNINGS, "-pthread", f"-I{HEADER_DIR}", str(CHECK), "-o", str(exe)])
    out = run_check([str(exe)])
    assert out.startswith("portable_check: POSIX path, ") and out.rstrip().endswith("checks passed")


@pytest.fixture(scope="module")
def windows_exe(tmp_path_factory) -> Path:
    """tools/portable_check.c cross-compiled for Windows (static, so Wine needs no MinGW
    DLLs)."""
    if shutil.which(MINGW) is None:
        pytest.skip(f"{MINGW} not installed (Debian: apt install mingw-w64)")
    exe = tmp_path_factory.mktemp("win32") / "portable_check.exe"
    run_check([MINGW, *WARNINGS, "-static", f"-I{HEADER_DIR}", str(CHECK), "-o", str(exe)])
    return exe


def test_win32_path_compiles_without_pthreads(windows_exe):
    """MinGW ships winpthreads: the header must take its own Win32 path instead."""
    preprocessed = run_check([MINGW, "-E", f"-I{HEADER_DIR}", str(CHECK)])
    assert "/pthread.h\"" not in preprocessed
    assert re.search(r"\bpthread_(create|join|mutex_\w+|cond_\w+)\b", preprocessed) is None
    imports = run_check(["x86_64-w64-mingw32-objdump", "-p", str(windows_exe)])
    missing = [name for name in WIN32_IMPORTS if name not in imports]
    assert not missing, f"not imported: {missing}"
    assert "winpthread" not in imports.lower()


def test_win32_path_passes_every_check_under_wine(windows_exe):
    wine = shutil.which("wine") or shutil.which("wine64")
    if wine is None:
        pytest.skip("wine not installed (Debian: apt install wine64)")
    # Quiet, and no Mono or Gecko installer prompt when Wine creates its prefix.
    env = child_env(WINEDEBUG="-all", WINEDLLOVERRIDES="mscoree,mshtml=")
    out = run_check([wine, str(windows_exe)], env=env)
    assert "portable_check: Win32 path, " in out and out.rstrip().endswith("checks passed")
