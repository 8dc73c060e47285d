#!/usr/bin/env bash
# The saturation runs of docs/benchmarks.md ("Saturation: one node and three"): one node, then three nodes (half
# the games cross-node), players sending as fast as the server answers, every step verified in the database.
#
#   loadgen/bench/saturate.sh
#
# Needs `cargo build --release -p server -p loadgen`, Postgres on 127.0.0.1:5432 (trust) and NATS on 4222. Writes
# /tmp/sat1.json and /tmp/sat3.json (the reports) and /tmp/sat{1,2,3,4}.log (the nodes).
set -euo pipefail
cd "$(dirname "$0")/../.."
one_db=loadgen_sat1_$$ three_db=loadgen_sat3_$$
for db in $one_db $three_db; do psql -q -h 127.0.0.1 -U postgres -d postgres -c "CREATE DATABASE $db"; done
S1=postgres://postgres@127.0.0.1:5432/$one_db S3=postgres://postgres@127.0.0.1:5432/$three_db
export MSG_RATE=1000000 MSG_BURST=1000000 GUEST_BURST_PER_IP=1000000 MAX_WAITING_ROOMS_PER_IP=100000
pids=()
cleanup() { kill "${pids[@]}" 2>/dev/null || true; wait 2>/dev/null || true; }
trap cleanup EXIT
up() { until curl -sf "http://127.0.0.1:$1/" >/dev/null 2>&1; do sleep 0.2; done; }
target/release/server --bind 127.0.0.1:8491 --database-url "$S1" --nats-url nats://127.0.0.1:4222 \
  --node-id s1 2>/tmp/sat1.log >/dev/null &
pids+=($!)
up 8491
target/release/loadgen saturate --url ws://127.0.0.1:8491/ws --levels 50,100,200,400 --step-secs 10 \
  --verify-db "$S1" --json >/tmp/sat1.json
cleanup
pids=()
for n in 2 3 4; do
  target/release/server --bind 127.0.0.1:849$n --database-url "$S3" --nats-url nats://127.0.0.1:4222 \
    --node-id t$n 2>/tmp/sat$n.log >/dev/null &
  pids+=($!)
done
for n in 2 3 4; do up 849$n; done
target/release/loadgen saturate --url ws://127.0.0.1:8492/ws,ws://127.0.0.1:8493/ws,ws://127.0.0.1:8494/ws \
  --cross-node 0.5 --workers 2 --levels 50,100,200,400,800 --step-secs 10 --verify-db "$S3" --json >/tmp/sat3.json
cleanup
trap - EXIT
for db in $one_db $three_db; do psql -q -h 127.0.0.1 -U postgres -d postgres -c "DROP DATABASE $db"; done
