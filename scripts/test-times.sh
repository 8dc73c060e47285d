#!/usr/bin/env bash
# Reads `cargo test` output on stdin, passes it through, and at the end prints how long each test target took
# (from its `Running`/`Doc-tests` line to the next one), slowest first, so that a slow test is seen the day it
# lands. Usage: cargo test --workspace 2>&1 | scripts/test-times.sh
set -uo pipefail
start=$EPOCHREALTIME
current="(build)"
since=$start
declare -A took
finish() {
  local now=$EPOCHREALTIME
  took["$current"]=$(awk -v a="$since" -v b="$now" -v c="${took[$current]:-0}" 'BEGIN { printf "%.1f", c + b - a }')
  since=$now
}
while IFS= read -r line; do
  printf '%s\n' "$line"
  case "$line" in
    *"Running "*|*"Doc-tests "*)
      finish
      # "Running unittests src/lib.rs (target/debug/deps/rules-0123abcd)" becomes "rules: unittests src/lib.rs".
      current=$(sed -E 's/^ *(Running|Doc-tests) //; s/^(.*) \(.*\/([^/]+)-[0-9a-f]+\)$/\2: \1/' <<<"$line")
      case "$line" in *"Doc-tests "*) current="doc-tests $current" ;; esac
      ;;
  esac
done
finish
echo "== test targets by time (seconds; total $(awk -v a="$start" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.0f", b - a }'))"
for k in "${!took[@]}"; do printf '%8s  %s\n' "${took[$k]}" "$k"; done | sort -rn
