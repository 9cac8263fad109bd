#!/usr/bin/env bash
# Set up what the tests need (Python and npm packages, the test wheels) and run them all:
# the core's unit tests in CPython, the browser tests in Chromium (including the core's
# tests again inside Pyodide), and the format and lint checks.
set -euo pipefail
cd "$(dirname "$0")/.."

python3 -m pip install --quiet --disable-pip-version-check -r requirements-dev.txt
npm ci --no-audit --no-fund --loglevel=error

ruff check py tests bench build.py
ruff format --check py tests bench build.py
npm run -s format:check

python3 -m pytest "$@"
