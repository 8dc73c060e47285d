#!/bin/sh
# Runs a Piskvork brain (Rapfi, issue #39) on the fixed middle-game positions of the engine's `search_depth`
# example, one process per position, and prints the last `MESSAGE` line it writes before its move (Rapfi's says
# `Speed … | Depth … | Node … | Time …`). The brain is only an outside opponent: nothing here depends on it.
#
#   sh scripts/brain-speed.sh SEARCH_DEPTH_BIN MS BRAIN_DIR BRAIN_COMMAND...
#   sh scripts/brain-speed.sh target/release/examples/search_depth 1000 ../rapfi \
#       ./pbrain-rapfi --config config-classical220723.toml
#
# Our side at the same pace: `target/release/examples/search_depth ms:1000 all`.
set -eu
bin=$1 ms=$2 dir=$3
shift 3
"$bin" 0 all --board | awk -v ms="$ms" '
    /^# / { if (name != "") print ""; name = $2; printf "%s", name "\t"; next }
    { print }
    END { print "" }
' | while IFS= read -r head; do
    name=${head%%	*}
    rule=$(printf '%s' "$head" | cut -f2)
    # Collect this position's lines: the rule line and the BOARD block.
    block=$rule
    while IFS= read -r line && [ -n "$line" ]; do
        block="$block
$line"
    done
    answer=$( (printf 'START 15\nINFO timeout_turn %s\nINFO timeout_match 0\nINFO max_memory 268435456\n%s\n' "$ms" "$block"
        sleep $((ms / 1000 + 2)); echo END) | (cd "$dir" && timeout $((ms / 1000 + 10)) "$@" 2>/dev/null) |
        grep '^MESSAGE' | tail -n 1)
    printf '%-20s %s\n' "$name" "$answer"
done
