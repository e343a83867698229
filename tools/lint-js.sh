#!/usr/bin/env bash
# Type-check the page's ES modules (src/victorus/page/web/*.js) with TypeScript's checkJs:
# the shared state's fields (the State typedef of state.js), the page's element ids and
# their tags ($ in state.js), the DOM calls on them, the modules' imports and exports.
# What is and is not checked: src/victorus/page/web/jsconfig.json. Nothing is emitted.
# Usage: bash tools/lint-js.sh   (exit 0: no error; 1: tsc's errors, listed; 2: no tsc)
# TSC names the compiler (default: tsc on PATH; TypeScript 4.8 or newer: Debian's
# node-typescript, or npm install -g typescript).
set -euo pipefail
cd "$(dirname "$0")/.."
tsc="${TSC:-tsc}"
if ! command -v "$tsc" >/dev/null 2>&1; then
    echo "lint-js: '$tsc' not found: install TypeScript (apt-get install node-typescript," \
         "or npm install -g typescript), or name it in TSC=" >&2
    exit 2
fi
if ! "$tsc" -p src/victorus/page/web/jsconfig.json --pretty false; then
    echo "lint-js: the page's JS has type errors (above)" >&2
    exit 1
fi
