#!/usr/bin/env bash
# Build victorus with Cython bounds checks, AddressSanitizer and UBSan in a
# separate virtual environment, then run the test suite under the sanitizers.
# Usage: bash tools/sanitize-tests.sh [pytest arguments...]
set -euo pipefail
cd "$(dirname "$0")/.."
venv=.venv-sanitize
python3 -m venv "$venv"
. "$venv/bin/activate"
pip install -q ".[test]" -Ccmake.define.VICTORUS_SANITIZE=ON -Cbuild-dir=build/sanitize \
    -Cinstall.strip=false
# Python itself is not instrumented: the ASan runtime must be loaded first.
export LD_PRELOAD="$(gcc -print-file-name=libasan.so)"
export ASAN_OPTIONS="detect_leaks=0:abort_on_error=1"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1"
# Ray's daemons and Chromium would inherit the preloaded ASan runtime: their tests run in
# the normal suite only.
python -m pytest -p no:cacheprovider -m "not ray and not browser" "$@"
