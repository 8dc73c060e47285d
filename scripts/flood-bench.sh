#!/usr/bin/env bash
# A running game's latency with and without each flood at (or over) its limit: starts the release server with its
# DEFAULT limits on a fresh SQLite file, plays GAMES games at THINK_MS per move from 127.0.0.x for SECS seconds
# alone, then once beside each `loadgen flood` kind from 127.0.2.1 (another address, as an attacker), and prints
# place → opponent p50/p99 of each run with what the flood met.
#
#   cargo build --release -p server -p loadgen
#   scripts/flood-bench.sh [GAMES=40] [SECS=15]          (FLOODS="computer lobby" for some kinds only)
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
# What a flood met, in one line: its attempts by outcome, and when the server closed slowloris connections.
cat >"$dir/met.py" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
line = str(r["attempts"]) + " attempts: " + ", ".join(f"{k} {v}" for k, v in r["outcomes"].items())
c = r.get("closed_after_secs") or []
if c:
    line += f"; closed after {c[0]:.1f}-{c[-1]:.1f} s (median {c[len(c) // 2]:.1f})"
for k, v in (r.get("extra") or {}).items():
    line += f"; {k} {v}"
l = r.get("lobby")
if l:
    line += f"; lobby shows {l['flood_shown']} of its {l['flood_rooms']} rooms ({l['shown']} shown in all)"
print(line)
PY
url="ws://127.0.0.1:$port/ws"

# kind, attempts per second, attacker addresses: each flood runs a little longer than the game so it covers the
# whole measured window, from addresses of its own (127.0.N.x), so one flood's spent allowance does not meet the
# next.
floods=(
  "none 0 0"
  "guests ${GUEST_RATE:-50} 1"
  "guests ${GUEST_SPREAD_RATE:-500} 100"
  "rooms ${ROOM_RATE:-50} 1"
  "rooms ${ROOM_SPREAD_RATE:-200} 50"
  "logins ${LOGIN_RATE:-50} 1"
  "slowloris ${SLOWLORIS_RATE:-200} 1"
  "chat ${CHAT_RATE:-50} 1"
  "computer ${COMPUTER_RATE:-50} 2"
  "challenges ${CHALLENGE_RATE:-50} 1"
  "registrations ${REGISTRATION_RATE:-20} 1"
  "sockets ${SOCKET_RATE:-100} 1"
  "lobby ${LOBBY_RATE:-100} 5"
)
# FLOODS="computer lobby" runs only those (and the baseline).
if [ -n "${FLOODS:-}" ]; then
  picked=("none 0 0")
  for entry in "${floods[@]}"; do
    read -r kind _ <<<"$entry"
    for want in $FLOODS; do
      [ "$kind" = "$want" ] && picked+=("$entry")
    done
  done
  floods=("${picked[@]}")
fi
printf '%-10s %6s %5s %8s %8s %6s  %s\n' flood rate addrs p50_ms p99_ms errors "what the flood met"
n=1
for entry in "${floods[@]}"; do
  read -r kind rate addrs <<<"$entry"
  n=$((n + 1))
  flood=
  if [ "$kind" != none ]; then
    "$loadgen" flood --url "$url" --kind "$kind" --rate "$rate" --secs "$((secs + 4))" \
        --source-ip "127.0.$n.1" --source-ips "$addrs" --json \
        >"$dir/flood-$kind-$n.json" 2>"$dir/flood-$kind-$n.log" &
    flood=$!
    sleep 1
  fi
  "$loadgen" run --url "$url" --games "$games" --think-ms "$think" --ramp-secs 1 --room-ramp-secs 1 \
      --hold-secs 0.5 --duration-secs "$secs" --source-ips 20 --json >"$dir/run-$kind-$n.json" 2>"$dir/run-$kind-$n.log" \
      || true
  met="-"
  if [ -n "$flood" ]; then
    wait "$flood" || true
    flood=
    met=$(python3 "$dir/met.py" "$dir/flood-$kind-$n.json" 2>/dev/null || echo "flood failed: $(tail -1 "$dir/flood-$kind-$n.log")")
  fi
  python3 - "$dir/run-$kind-$n.json" "$kind" "$rate" "$addrs" "$met" <<'PY'
import json, sys
path, kind, rate, addrs, met = sys.argv[1:]
try:
    r = json.load(open(path))
except Exception:
    print(f"{kind:<10} {rate:>6} {addrs:>5} {'run failed':>8}"); sys.exit(0)
o = r["opponent"]
print(f"{kind:<10} {rate:>6} {addrs:>5} {o['p50_ms']:>8.2f} {o['p99_ms']:>8.2f} {sum(r['errors'].values()):>6}  {met}")
PY
  sleep 2
done
