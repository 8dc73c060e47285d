#!/usr/bin/env bash
# Crash test (issue 6): 50 games against the real server binary on a temporary SQLite database; the server is
# killed with SIGKILL five times at random moments and restarted on the same database while clients reconnect
# (hello with their token, join with their last version) and play on. Then every stone any client saw
# acknowledged must be stored in order, every game must have a result or still be resumable, and no game may be
# lost or duplicated. Exits non-zero otherwise. Takes about 45 s after the build.
#
# Usage: scripts/crash-test.sh [--release | --built] [loadgen crash flags, e.g. --seed 7 --kills 5 --games 50 --keep]
# --built runs the debug binaries already in target/ (CI, right after `cargo test --workspace` built them: the
# server there has the test kit's socket-less connection compiled in, which changes nothing it does over sockets)
# instead of building them again with the production feature set.
set -euo pipefail
cd "$(dirname "$0")/.."

profile=debug
build=()
built=false
if [[ "${1:-}" == "--release" ]]; then
  profile=release
  build=(--release)
  shift
elif [[ "${1:-}" == "--built" ]]; then
  built=true
  shift
fi
$built || cargo build -q "${build[@]}" -p server -p loadgen
target="${CARGO_TARGET_DIR:-target}/$profile"
exec "$target/loadgen" crash --server-bin "$target/server" --games 50 --kills 5 "$@"
