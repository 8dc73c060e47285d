#!/usr/bin/env bash
# Where a move's CPU goes: starts the release server on a fresh SQLite file (or the database in DATABASE_URL),
# plays GAMES games with no think time, and over SECS seconds in the middle of the run reads
#   - every thread of the server and of loadgen (/proc/<pid>/task/*/stat and status): CPU µs and voluntary
#     context switches per move,
#   - with a postgres:// DATABASE_URL, every Postgres process together (backends, WAL writer, checkpointer…;
#     on a quiet machine: any other database's work on the same server counts too),
#   - the TCP segments of every game connection (ss -tni): data and pure-ACK segments per move, by side.
# Moves are the server's own count (gomoku_moves_total at /metrics), read at both ends of the window.
#
#   cargo build --release -p server -p loadgen
#   scripts/cpu-per-thread.sh [GAMES=200] [SECS=4]
#   DATABASE_URL=postgres://postgres@127.0.0.1:5432/<fresh db> scripts/cpu-per-thread.sh
set -euo pipefail
games=${1:-200}
secs=${2:-4}
port=${PORT:-8464}
# shellcheck source=bench-server.sh
source "$(dirname "$0")/bench-server.sh"
"$root/target/release/loadgen" run --url "ws://127.0.0.1:$port/ws" --games "$games" --think-ms 0 \
    --ramp-secs 1 --room-ramp-secs 1 --hold-secs 0.5 --duration-secs $((secs + 8)) >/dev/null 2>&1 &
loadgen=$!
sleep 4

# One line per thread: process, thread name, voluntary switches, CPU ticks.
threads() {
    local p t
    for p in "$server" "$loadgen"; do
        for t in /proc/"$p"/task/*; do
            printf '%s %s %s %s\n' "$([ "$p" = "$server" ] && echo server || echo loadgen)" \
                "$(tr ' ' _ <"$t/comm")" "$(awk '/^voluntary_ctxt_switches/{print $2}' "$t/status")" \
                "$(awk '{print $14 + $15}' "$t/stat")" 2>/dev/null || true
        done
    done
    if [[ "${DATABASE_URL:-}" == postgres* ]]; then
        for p in $(pgrep -f '^postgres: ' || true); do
            awk '{print "postgres all 0", $14 + $15}' "/proc/$p/stat" 2>/dev/null || true
        done
    fi
}
moves() { curl -s "http://127.0.0.1:$port/metrics" | awk '/^gomoku_moves_total/{print $2}'; }
segments() {
    ss -tni state established "( sport = :$port or dport = :$port )" | awk -v port=":$port" '
        $1 ~ /^[0-9]+$/ { side = ($3 ~ port "$") ? "server" : "client"; next }
        side != "" && /segs_out/ {
            for (i = 1; i <= NF; i++) {
                split($i, kv, ":")
                if (kv[1] == "segs_out") out[side] += kv[2]
                if (kv[1] == "data_segs_out") data[side] += kv[2]
            }
            side = ""
        }
        END { for (s in out) print s, data[s], out[s] - data[s] }'
}

m0=$(moves); threads >"$dir/t0"; segments >"$dir/s0"
sleep "$secs"
m1=$(moves); threads >"$dir/t1"; segments >"$dir/s1"
wait "$loadgen" || true
python3 - "$m0" "$m1" "$secs" "$(getconf CLK_TCK)" "$dir" <<'PY'
import sys
from collections import defaultdict
m0, m1, secs, hz, d = int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4]), sys.argv[5]
moves = m1 - m0
def read(name):
    rows = defaultdict(lambda: [0, 0])
    for line in open(f"{d}/{name}"):
        proc, thread, switches, ticks = line.split()
        row = rows[(proc, thread)]
        row[0] += int(switches); row[1] += float(ticks)
    return rows
t0, t1 = read("t0"), read("t1")
print(f"{moves} moves in {secs:.0f} s ({moves / secs:.0f}/s)")
print(f"{'process':8} {'thread':18} {'us/move':>8} {'switches/move':>14}")
total = 0.0
for key in sorted(t1):
    a = t0.get(key, [0, 0]); b = t1[key]
    cpu = (b[1] - a[1]) / hz / moves * 1e6
    if cpu < 0.05 and (b[0] - a[0]) / moves < 0.005:
        continue  # idle threads (the main threads, the runtime's spare ones)
    total += cpu
    print(f"{key[0]:8} {key[1]:18} {cpu:8.1f} {(b[0] - a[0]) / moves:14.2f}")
print(f"{'total':27} {total:8.1f}")
def segs(name):
    return {l.split()[0]: (int(l.split()[1]), int(l.split()[2])) for l in open(f"{d}/{name}") if l.strip()}
s0, s1 = segs("s0"), segs("s1")
for side in sorted(s1):
    a = s0.get(side, (0, 0)); b = s1[side]
    print(f"{side} sockets sent {(b[0] - a[0]) / moves:.2f} data and {(b[1] - a[1]) / moves:.2f} pure-ACK segments a move")
PY
