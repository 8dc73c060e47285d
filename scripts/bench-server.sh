# Sourced by the CPU benchmark scripts (cpu-per-move.sh, cpu-per-thread.sh): starts the release server on
# 127.0.0.1:$port with rate limits out of the way (players there send as fast as the server answers, and all are
# new guests from one address), on a fresh SQLite file in a temporary folder or on the database in DATABASE_URL,
# and sets `root`, `dir` and `server`.
# On exit it stops the server and a `loadgen` the caller started, and removes the folder.
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
dir=$(mktemp -d)
trap 'kill "${server:-}" "${loadgen:-}" 2>/dev/null || true; rm -rf "$dir"' EXIT
MSG_RATE=1000000 MSG_BURST=1000000 GUEST_BURST_PER_IP=1000000 "$root/target/release/server" --bind "127.0.0.1:$port" \
    --database-url "${DATABASE_URL:-sqlite://$dir/cpu.db}" >"$dir/server.log" 2>&1 &
server=$!
sleep 2
