#!/usr/bin/env bash
# The web client's tests as CI runs them: installs Chromium when missing (Debian package), installs
# playwright-core (no browser download), then the unit tests and the browser tests. With CI=true a missing
# browser fails the browser tests instead of skipping them.
set -euo pipefail
cd "$(dirname "$0")"
if [ ! -x /usr/bin/chromium ] && [ -z "${CHROMIUM:-}" ]; then
  echo "== installing chromium"
  DEBIAN_FRONTEND=noninteractive apt-get update -q >/dev/null
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium >/dev/null
fi
echo "== web client: npm ci"
npm ci --no-audit --no-fund
echo "== web client: unit tests"
node --test unit/
echo "== web client: browser tests"
node --test --test-concurrency=1 browser/
