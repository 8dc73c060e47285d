#!/usr/bin/env bash
# CPU per move of the server and of loadgen at saturation: starts the release server on a fresh SQLite file (or
# the database in DATABASE_URL), plays GAMES games with no think time for SECS seconds, and divides each
# process's CPU time (user + system, from /proc and from time(1)) by the moves played.
#
#   cargo build --release -p server -p loadgen
#   scripts/cpu-per-move.sh [GAMES=200] [SECS=15]
set -euo pipefail
games=${1:-200}
secs=${2:-15}
port=${PORT:-8462}
# shellcheck source=bench-server.sh
source "$(dirname "$0")/bench-server.sh"
ticks() { awk '{print $14 + $15}' "/proc/$server/stat"; }
before=$(ticks)
/usr/bin/env time -f "%U %S" -o "$dir/loadgen.time" "$root/target/release/loadgen" run \
    --url "ws://127.0.0.1:$port/ws" --games "$games" --think-ms 0 --ramp-secs 1 --room-ramp-secs 1 \
    --hold-secs 0.5 --duration-secs "$secs" --json >"$dir/report.json" 2>"$dir/loadgen.log"
after=$(ticks)
python3 - "$dir/report.json" "$dir/loadgen.time" "$before" "$after" "$(getconf CLK_TCK)" <<'PY'
import json, sys
report = json.load(open(sys.argv[1]))
user, system = map(float, open(sys.argv[2]).read().split()[-2:])
server = (float(sys.argv[4]) - float(sys.argv[3])) / float(sys.argv[5])
moves = report["moves"]
print(f"moves {moves} ({report['moves_per_sec']:.0f}/s), errors {sum(report['errors'].values())}: "
      f"server {server / moves * 1e6:.1f} us/move, loadgen {(user + system) / moves * 1e6:.1f} us/move, "
      f"total {(server + user + system) / moves * 1e6:.1f}")
PY
