"""Mutation testing: break one rule at a time and check that the tests notice.

Usage: python tools/mutate.py [--list] [--only ID|RULING|IMPL[,...]] [--full] [--json PATH]
                              [--timeout SECONDS] [--doc]

The mutants are in tools/mutants.py. The checkout's files (git ls-files, with uncommitted
changes) are copied into build/mutate/tree, built there with CMake at -O1 into a
persistent build directory (build/mutate/cmake: a mutant recompiles only the extension
it touches), the extensions copied next to the sources, and the tests run from that tree
with ``PYTHONPATH=src`` (the current interpreter needs the test extras, pip install .[test],
and no editable install of victorus: its import hook would shadow PYTHONPATH).
First a baseline: every mutant's tests must pass on the unmutated tree. Then per mutant:
apply the change, rebuild if compiled, run its tests with ``-x`` (``--full``: the whole
suite), restore. Outcomes: killed (a test failed, or the run timed out), survived,
invalid (the build or the test collection failed), stale (original text not found) or
ambiguous (found more than once). Exit 1 unless every mutant is killed.
"""

from __future__ import annotations

import argparse
import glob
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from mutants import COMPILED, IMPLEMENTATIONS, MUTANTS, Mutant  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
WORK = ROOT / "build" / "mutate"
TREE = WORK / "tree"
CMAKE_DIR = WORK / "cmake"
PYTEST = [sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider", "-p", "no:randomly"]


def impl_files(root: Path, impl: str) -> list[Path]:
    found: set[Path] = set()
    for pattern in IMPLEMENTATIONS[impl]:
        found |= {Path(p) for p in glob.glob(str(root / pattern), recursive=True)}
    return sorted(found)


def locate(root: Path, m: Mutant) -> tuple[str, Path | None, int]:
    """(status, file, count): 'ok' with the one file holding the original, else
    'stale' (no occurrence) or 'ambiguous' (more than one)."""
    hits = [(f, f.read_text().count(m.original)) for f in impl_files(root, m.impl)]
    total = sum(n for _, n in hits)
    if total == 0:
        return "stale", None, 0
    if total > 1:
        return "ambiguous", None, total
    return "ok", next(f for f, n in hits if n), 1


def sync_tree() -> None:
    """Copy the checkout's files into TREE, writing only what changed (mtimes kept, so the
    build stays incremental); files no longer in the checkout are removed."""
    out = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                         cwd=ROOT, capture_output=True, check=True).stdout.decode()
    wanted = {p for p in out.split("\0") if p and (ROOT / p).is_file()}
    for rel in wanted:
        src, dst = ROOT / rel, TREE / rel
        data = src.read_bytes()
        if not dst.exists() or dst.read_bytes() != data:
            dst.parent.mkdir(parents=True, exist_ok=True)
            dst.write_bytes(data)
    for path in TREE.rglob("*"):
        rel = path.relative_to(TREE).as_posix()
        if (path.is_file() and rel not in wanted and path.suffix in (".py", ".pyx", ".pxd", ".pxi")
                and "__pycache__" not in rel):
            path.unlink()


def build() -> tuple[bool, str]:
    """Configure once, build incrementally, copy the extensions into TREE/src/victorus (and
    its subpackages: every folder the build puts one in)."""
    cmake = shutil.which("cmake")
    if cmake is None:
        return False, "cmake not found"
    if not (CMAKE_DIR / "CMakeCache.txt").exists():
        gen = ["-G", "Ninja"] if shutil.which("ninja") else []
        cfg = subprocess.run([cmake, "-S", str(TREE), "-B", str(CMAKE_DIR), *gen,
                              "-DSKBUILD_PROJECT_NAME=victorus", f"-DPython_EXECUTABLE={sys.executable}",
                              "-DCMAKE_BUILD_TYPE=", "-DVICTORUS_OPT_FLAGS=-O1"],
                             capture_output=True, text=True)
        if cfg.returncode:
            return False, cfg.stdout + cfg.stderr
    res = subprocess.run([cmake, "--build", str(CMAKE_DIR)], capture_output=True, text=True)
    if res.returncode:
        return False, res.stdout[-3000:] + res.stderr[-3000:]
    for so in [*CMAKE_DIR.glob("_*.so"), *CMAKE_DIR.glob("*/_*.so")]:
        target = TREE / "src" / "victorus" / so.relative_to(CMAKE_DIR)
        if not target.exists() or target.read_bytes() != so.read_bytes():
            shutil.copy2(so, target)
    return True, ""


def run_tests(selection, timeout: float) -> tuple[int | None, str, float]:
    env = dict(os.environ, PYTHONPATH=str(TREE / "src"))
    start = time.monotonic()
    try:
        res = subprocess.run(PYTEST + list(selection), cwd=TREE, env=env, capture_output=True,
                             text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None, "timeout", time.monotonic() - start
    return res.returncode, (res.stdout + res.stderr)[-2500:], time.monotonic() - start


def select(spec: str | None) -> list[Mutant]:
    if not spec:
        return list(MUTANTS)
    keys = [k.strip() for k in spec.split(",") if k.strip()]
    out = []
    for m in MUTANTS:
        for k in keys:
            if (k == m.id or k == m.impl or (k.upper().startswith("R") and k[1:].isdigit()
                                             and int(k[1:]) in m.rulings)):
                out.append(m)
                break
    return out


def ruled(rulings) -> str:
    """A mutant's rulings as text: ``R31,39``, or ``-`` for a mutant of no ruling."""
    return f"R{','.join(map(str, rulings))}" if rulings else "-"


def first_failure(output: str) -> str:
    for line in output.splitlines():
        if line.startswith("FAILED ") or line.startswith("ERROR "):
            return line.split(" - ")[0][:150]
    return ""


DOC = ROOT / "docs" / "testing.md"
TABLE_START = "<!-- mutants table: python tools/mutate.py --doc -->"
TABLE_END = "<!-- end of mutants table -->"


def table() -> str:
    """docs/testing.md's tables: per ruling, its mutants and the tests that must kill them;
    then each mutant of no ruling (learning, the searches' choices) and its tests."""
    lines = [TABLE_START, "", "| Ruling | Mutants (implementation) | Tests that must kill them |",
             "|---|---|---|"]
    for n in range(1, 41):
        ms = [m for m in MUTANTS if n in m.rulings]
        names = ", ".join(f"`{m.id}` ({m.impl})" for m in ms) or "none"
        tests = sorted({t.replace("tests/", "") for m in ms for t in m.tests})
        lines.append(f"| R{n} | {names} | {', '.join(f'`{t}`' for t in tests)} |")
    lines += ["", "Mutants of no ruling: mistakes of learning and of the searches' choices.", "",
              "| Mutant (implementation) | The mistake | Tests that must kill it |", "|---|---|---|"]
    for m in MUTANTS:
        if not m.rulings:
            tests = ", ".join(f"`{t.replace('tests/', '')}`" for t in m.tests)
            lines.append(f"| `{m.id}` ({m.impl}) | {m.description} | {tests} |")
    return "\n".join(lines + ["", TABLE_END])


def write_doc() -> None:
    text = DOC.read_text()
    start, end = text.index(TABLE_START), text.index(TABLE_END) + len(TABLE_END)
    DOC.write_text(text[:start] + table() + text[end:])
    print(f"wrote the mutants table of {DOC.relative_to(ROOT)}")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--list", action="store_true", help="list the mutants and whether each applies")
    ap.add_argument("--only", help="comma-separated mutant ids, rulings (R31) or implementations")
    ap.add_argument("--full", action="store_true", help="run the whole suite per mutant")
    ap.add_argument("--json", help="write the results as JSON to this path")
    ap.add_argument("--doc", action="store_true", help="rewrite the table of docs/testing.md")
    ap.add_argument("--timeout", type=float, default=600, help="seconds per test run (default 600)")
    args = ap.parse_args(argv)
    if args.doc:
        write_doc()
        return 0
    mutants = select(args.only)
    if not mutants:
        print(f"no mutant matches {args.only!r}")
        return 2
    if args.list:
        bad = 0
        for m in mutants:
            status, path, count = locate(ROOT, m)
            bad += status != "ok"
            where = path.relative_to(ROOT) if path else f"{count} occurrences"
            print(f"{m.id:24} {ruled(m.rulings):9} {m.impl:10} {status:9} {where}  "
                  f"{m.description}")
        print(f"{len(mutants)} mutants, {bad} stale or ambiguous")
        return 1 if bad else 0

    t0 = time.monotonic()
    WORK.mkdir(parents=True, exist_ok=True)
    sync_tree()
    # Python mutants first (no rebuild), then the compiled ones grouped by extension.
    order = {"core": 1, "geometry": 2, "engine": 3, "network": 4}
    mutants.sort(key=lambda m: order.get(m.impl, 0) if m.impl in COMPILED else 0)
    results = []
    print(f"building the unmutated tree in {TREE.relative_to(ROOT)} ...", flush=True)
    ok, log = build()
    if not ok:
        print(log)
        print("the unmutated tree does not build")
        return 1
    check = subprocess.run([sys.executable, "-c", "import victorus._engine as e; print(e.__file__)"],
                           cwd=TREE, env=dict(os.environ, PYTHONPATH=str(TREE / "src")),
                           capture_output=True, text=True)
    if str(TREE) not in check.stdout:
        print(f"the tests would not import the scratch tree's victorus: {check.stdout}{check.stderr}")
        return 1
    union = ["tests"] if args.full else sorted({t for m in mutants for t in m.tests})
    print(f"baseline: {' '.join(union)}", flush=True)
    rc, out, secs = run_tests(union, args.timeout * 3)
    if rc != 0:
        print(out)
        print(f"baseline FAILED (rc {rc}): the selected tests must pass on the unmutated tree")
        return 1
    print(f"baseline passed in {secs:.0f} s", flush=True)

    spent = []
    for i, m in enumerate(mutants, 1):
        started = time.monotonic()
        eta = ""
        if spent:
            eta = f", ETA {sum(spent) / len(spent) * (len(mutants) - i + 1) / 60:.1f} min"
        print(f"[{i}/{len(mutants)}{eta}] {m.id} ({m.impl}, {ruled(m.rulings)}): ",
              end="", flush=True)
        status, path, count = locate(TREE, m)
        result = {"id": m.id, "rulings": list(m.rulings), "impl": m.impl, "tests": list(m.tests),
                  "description": m.description}
        if status != "ok":
            result.update(outcome=status, detail=f"{count} occurrences of the original text")
        else:
            assert path is not None
            original = path.read_text()
            try:
                path.write_text(original.replace(m.original, m.replacement, 1))
                if m.impl in COMPILED:
                    (TREE / COMPILED[m.impl]).touch()
                ok, log = build() if m.impl in COMPILED else (True, "")
                if not ok:
                    result.update(outcome="invalid", detail="build failed: " + log[-600:])
                else:
                    rc, out, secs = run_tests(["tests"] if args.full else m.tests, args.timeout)
                    if rc is None:
                        result.update(outcome="killed", detail="timeout")
                    elif rc == 1:
                        result.update(outcome="killed", detail=first_failure(out))
                    elif rc == 0:
                        result.update(outcome="survived", detail="")
                    else:
                        result.update(outcome="invalid", detail=f"pytest rc {rc}: {out[-600:]}")
            finally:
                path.write_text(original)
                if m.impl in COMPILED:
                    (TREE / COMPILED[m.impl]).touch()
        spent.append(time.monotonic() - started)
        result["seconds"] = round(spent[-1], 1)
        results.append(result)
        print(f"{result['outcome']} {result['detail'][:110]}", flush=True)
    build()                                   # leave the tree unmutated

    killed = [r for r in results if r["outcome"] == "killed"]
    bad = [r for r in results if r["outcome"] != "killed"]
    total = time.monotonic() - t0
    print(f"\nscore: {len(killed)}/{len(results)} killed "
          f"({100 * len(killed) / len(results):.0f}%) in {total / 60:.1f} min")
    for r in bad:
        print(f"  {r['outcome'].upper():9} {r['id']} ({r['impl']}, {ruled(r['rulings'])}): "
              f"{r['description']}; tests: {' '.join(r['tests'])}"
              + (f"; {r['detail'][:200]}" if r["detail"] else ""))
    if args.json:
        Path(args.json).write_text(json.dumps({"killed": len(killed), "total": len(results),
                                               "seconds": round(total), "results": results},
                                              indent=1))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
