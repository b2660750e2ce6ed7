#!/usr/bin/env bash
# `npm test`: every test the portal has, in the order that fails fastest.
#   0. formatting, lint   1. types   2. unit and integration tests (Vitest; PostgreSQL ones need TEST_DATABASE_URL)
#   3. production build   4. end-to-end journeys in Chromium, JavaScript on and off (Playwright)
set -euo pipefail
cd "$(dirname "$0")/.."

CHROMIUM="${CHROMIUM_PATH:-/usr/bin/chromium}"
if [ ! -x "$CHROMIUM" ]; then
  if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
    echo "Chromium is missing: installing Debian's chromium package (about a minute)…"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq && apt-get install -y -qq chromium >/dev/null
  else
    echo "The end-to-end tests need Chromium at $CHROMIUM (Playwright's own browser download cannot work here)." >&2
    echo "Install it with:  sudo apt-get install -y chromium   (or set CHROMIUM_PATH to a Chromium binary)" >&2
    exit 1
  fi
fi

if [ -z "${TEST_DATABASE_URL:-}" ]; then
  echo "Note: TEST_DATABASE_URL is not set, so the PostgreSQL tests will be SKIPPED (PGlite ones still run)."
  echo "      Set it to a server you may create databases on, e.g. postgres://postgres@127.0.0.1:5432/postgres"
fi

echo "== [test $SECONDS s] formatting (Prettier)"
npx prettier --check . --log-level warn
echo "== [test $SECONDS s] lint (ESLint)"
npx eslint . --max-warnings 0
echo "== [test $SECONDS s] typecheck"
npx tsc --noEmit
echo "== [test $SECONDS s] unit and integration tests"
npx vitest run
echo "== [test $SECONDS s] production build"
npx remix build
echo "== [test $SECONDS s] end-to-end tests (Chromium, JavaScript on and off)"
npx playwright test
echo "== [test $SECONDS s] done"
