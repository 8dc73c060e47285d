#!/usr/bin/env bash
# A running game's latency with and without each flood at (or over) its limit: starts the release server with its
# DEFAULT limits on a fresh SQLite file, plays GAMES games at THINK_MS per move from 127.0.0.x for SECS seconds
# alone, then once beside each `loadgen flood` kind from 127.0.2.1 (another address, as an attacker), and prints
# place → opponent p50/p99 of each run with what the flood met.
#
#   cargo build --release -p server -p loadgen
#   scripts/flood-bench.sh [GAMES=40] [SECS=15]
set -euo pipefail
games=${1:-40}
secs=${2:-15}
think=${THINK_MS:-250}
port=${PORT:-8463}
root=$(cd "$(dirname "$0")/.." && pwd)
dir=$(mktemp -d)
trap 'kill "${server:-}" "${flood:-}" 2>/dev/null || true; rm -rf "$dir"' EXIT
"$root/target/release/server" --bind "127.0.0.1:$port" --database-url "sqlite://$dir/flood.db" \
    >"$dir/server.log" 2>&1 &
server=$!
sleep 2
loadgen="$root/target/release/loadgen"
url="ws://127.0.0.1:$port/ws"

# kind rate: each flood runs a little longer than the game so it covers the whole measured window.
floods=(
  "none 0"
  "guests ${GUEST_RATE:-50}"
  "rooms ${ROOM_RATE:-50}"
  "logins ${LOGIN_RATE:-50}"
  "slowloris ${SLOWLORIS_RATE:-200}"
  "chat ${CHAT_RATE:-50}"
)
printf '%-10s %8s %10s %10s %8s  %s\n' flood rate p50_ms p99_ms errors "what the flood met"
for entry in "${floods[@]}"; do
  read -r kind rate <<<"$entry"
  flood=
  if [ "$kind" != none ]; then
    "$loadgen" flood --url "$url" --kind "$kind" --rate "$rate" --secs "$((secs + 4))" --json \
        >"$dir/flood-$kind.json" 2>"$dir/flood-$kind.log" &
    flood=$!
    sleep 1
  fi
  "$loadgen" run --url "$url" --games "$games" --think-ms "$think" --ramp-secs 1 --room-ramp-secs 1 \
      --hold-secs 0.5 --duration-secs "$secs" --source-ips 20 --json >"$dir/run-$kind.json" 2>"$dir/run-$kind.log" \
      || true
  met="-"
  if [ -n "$flood" ]; then
    wait "$flood" || true
    flood=
    met=$(python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); print(r["attempts"], "attempts:", ", ".join(f"{k} {v}" for k, v in r["outcomes"].items()))' "$dir/flood-$kind.json" 2>/dev/null || echo "flood failed: $(tail -1 "$dir/flood-$kind.log")")
  fi
  python3 - "$dir/run-$kind.json" "$kind" "$rate" "$met" <<'PY'
import json, sys
path, kind, rate, met = sys.argv[1:]
try:
    r = json.load(open(path))
except Exception as e:
    print(f"{kind:<10} {rate:>8} {'run failed':>10}"); sys.exit(0)
o = r["opponent"]
print(f"{kind:<10} {rate:>8} {o['p50_ms']:>10.2f} {o['p99_ms']:>10.2f} {sum(r['errors'].values()):>8}  {met}")
PY
  sleep 2
done
