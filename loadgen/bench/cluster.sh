#!/usr/bin/env bash
# The three-node cluster run of docs/benchmarks.md ("Cluster"), end to end: a fresh database, three release nodes,
# the loadgen run, the CPU each process took during play, then the nodes stopped and their logs' warnings counted.
#
#   loadgen/bench/cluster.sh [GAMES] [RAMP_SECS] [ROOM_RAMP_SECS] [DURATION_SECS]   (default: 22500 90 45 120)
#
# Needs `cargo build --release -p server -p loadgen`, Postgres on 127.0.0.1:5432 (trust) and NATS on 4222. Writes
# /tmp/cluster-GAMES.json (the report) and /tmp/cluster-node{1,2,3}.log.
set -euo pipefail
cd "$(dirname "$0")/../.."
games=${1:-22500} ramp=${2:-90} room_ramp=${3:-45} duration=${4:-120}
db=loadgen_cluster_$$
psql -q -h 127.0.0.1 -U postgres -d postgres -c "CREATE DATABASE $db"
DB=postgres://postgres@127.0.0.1:5432/$db
pids=()
for n in 1 2 3; do
  GUEST_BURST_PER_IP=1000000 MAX_WAITING_ROOMS_PER_IP=100000 \
    target/release/server --bind 127.0.0.1:848$n --database-url "$DB" --nats-url nats://127.0.0.1:4222 \
    --node-id n$n 2>"/tmp/cluster-node$n.log" >/dev/null &
  pids+=($!)
done
cleanup() { kill "${pids[@]}" 2>/dev/null || true; wait 2>/dev/null || true; }
trap cleanup EXIT
for n in 1 2 3; do
  until curl -sf "http://127.0.0.1:848$n/" >/dev/null 2>&1; do sleep 0.2; done
done
ticks() { # user+system clock ticks of the processes whose command line matches $1 (the nodes and loadgen name
  # postgres:// URLs: the backends are the lines that start with "postgres: ")
  local total=0
  for p in $(pgrep -f "$1"); do
    [ -r /proc/$p/stat ] && total=$((total + $(awk '{print $14 + $15}' /proc/$p/stat)))
  done
  echo $total
}
busy() { awk '/^cpu /{print $2 + $3 + $4 + $7 + $8}' /proc/stat; } # the machine's busy ticks, all cores
sample() { echo "$(ticks 'target/release/server') $(ticks '^postgres: ') $(ticks 'target/release/loadgen') $(ticks 'nats-server') $(busy)"; }
(
  sleep $((ramp + room_ramp + 30))
  before=$(sample); sleep 35; after=$(sample)
  read -r s0 p0 l0 n0 b0 <<<"$before"; read -r s1 p1 l1 n1 b1 <<<"$after"
  hz=$(getconf CLK_TCK)
  echo "CPU over 35 s of play, % of one core: servers $(( (s1-s0)*100/hz/35 )) postgres $(( (p1-p0)*100/hz/35 )) loadgen $(( (l1-l0)*100/hz/35 )) nats $(( (n1-n0)*100/hz/35 )); the machine $(( (b1-b0)*100/hz/35 )) of $(( $(nproc) * 100 ))" >&2
) & sampler=$!
target/release/loadgen run --url ws://127.0.0.1:8481/ws,ws://127.0.0.1:8482/ws,ws://127.0.0.1:8483/ws \
  --cross-node 0.5 --games "$games" --think-ms 10000 --workers 4 \
  --ramp-secs "$ramp" --room-ramp-secs "$room_ramp" --hold-secs 5 --duration-secs "$duration" \
  --verify-db "$DB" --json >"/tmp/cluster-$games.json"
wait "$sampler" 2>/dev/null || true
cleanup
trap - EXIT
for n in 1 2 3; do
  echo "node $n: $(grep -c -E 'WARN|ERROR' "/tmp/cluster-node$n.log" || true) warnings or errors; deadlocks: $(grep -c 'deadlock' "/tmp/cluster-node$n.log" || true)"
done
psql -q -h 127.0.0.1 -U postgres -d postgres -c "DROP DATABASE $db"
