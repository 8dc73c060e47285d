#!/usr/bin/env bash
# OpenAPI property fuzzer (issue #37): schemathesis (from PyPI) sends generated requests, valid and invalid, to every
# operation of GET /api/openapi.json on a started server (a temporary SQLite database) and checks every answer
# against the document: no server error, documented status codes, content types and bodies, invalid requests refused,
# valid ones accepted (scripts/openapi_fuzz_hooks.py: the refusals no schema can state are listed there). Any failure
# fails the script, with schemathesis's report and a `curl` line to reproduce it.
#
#   scripts/openapi-fuzz.sh [--built] [--max-examples N] [extra schemathesis options…]
#
# --built runs the debug server already in target/ (CI, after `cargo test --workspace` built it); otherwise it is built.
# The tool lives in a virtualenv under ~/.cache (OPENAPI_FUZZ_VENV to move it), made on first use.
set -euo pipefail
cd "$(dirname "$0")/.."
built=false
examples=40
extra=()
while [ $# -gt 0 ]; do
  case "$1" in
    --built) built=true ;;
    --max-examples) examples="$2"; shift ;;
    *) extra+=("$1") ;;
  esac
  shift
done
$built || cargo build -q -p server --bin server
server_bin="${CARGO_TARGET_DIR:-target}/debug/server"

# One pinned version: a new release may add checks, which should be a deliberate change here.
version=4.32.5
venv="${OPENAPI_FUZZ_VENV:-$HOME/.cache/openapi-fuzz-venv}"
if ! "$venv/bin/schemathesis" --version 2>/dev/null | grep -q "$version"; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q --disable-pip-version-check "schemathesis==$version"
fi

dir=$(mktemp -d)
"$server_bin" --bind 127.0.0.1:0 --database-url "sqlite://$dir/fuzz.sqlite" >"$dir/server.log" 2>&1 &
server_pid=$!
trap 'kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; rm -rf "$dir"' EXIT
url=
for _ in $(seq 1 100); do
  url=$(grep -o 'http://127\.0\.0\.1:[0-9]*' "$dir/server.log" | head -n1 || true)
  [ -n "$url" ] && break
  kill -0 "$server_pid" 2>/dev/null || { cat "$dir/server.log" >&2; exit 1; }
  sleep 0.1
done
[ -n "$url" ] || { echo "the server did not say where it listens" >&2; cat "$dir/server.log" >&2; exit 1; }
# A signed-in account, so the operations behind a session are fuzzed too, not only refused (the hooks send its token
# with every request but the sign-outs).
OPENAPI_FUZZ_TOKEN=$(curl -sf -X POST -H 'Content-Type: application/json' \
  -d '{"username":"fuzzer","password":"a long fuzzing passphrase","issue_token":true}' "$url/api/register" |
  python3 -c 'import json, sys; print(json.load(sys.stdin)["token"])')
echo "fuzzing $url/api/openapi.json with schemathesis $version, $examples examples per operation and phase"

# positive_data_acceptance is replaced by the hooks' check, which knows the refusals no schema can state.
export OPENAPI_FUZZ_TOKEN
# Run from the temporary folder: schemathesis keeps its cache (.schemathesis/) in the working directory.
hooks="$PWD/scripts"
(cd "$dir" && PYTHONPATH="$hooks" SCHEMATHESIS_HOOKS=openapi_fuzz_hooks "$venv/bin/schemathesis" run \
  "$url/api/openapi.json" --checks all --exclude-checks positive_data_acceptance \
  --max-examples "$examples" --workers 2 --no-color "${extra[@]}")
# The server must have stayed up through it all.
kill -0 "$server_pid" 2>/dev/null || { echo "the server exited during the fuzzing" >&2; cat "$dir/server.log" >&2; exit 1; }
