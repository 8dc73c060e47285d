#!/usr/bin/env bash
# Which production files outside a game's own files (and the rules crate) name the game in code, comments aside
# (issue #31: at most 5 each). Usage: scripts/game-mentions.sh [GAME...]   (default: othello draughts)
# A game's own files: any path with a component named after it (games/src/othello/, web-client/js/games/othello/,
# protocol/src/games/othello.rs, engine/src/othello/, engine/src/brain/othello.rs...). Tests, benches, examples,
# fuzz targets, docs, unit-test modules and the rules crate are not production code of the seam and are not counted.
cd "$(dirname "$0")/.."
games=("$@"); [ ${#games[@]} -eq 0 ] && games=(othello draughts)
for game in "${games[@]}"; do
  files=$(git ls-files -- '*.rs' '*.js' '*.css' '*.html' \
      | grep -v -E '(^|/)(tests?|benches|examples|fuzz|docs|e2e|testkit|rules)/' \
      | grep -v -E '(^|/)tests\.rs$' \
      | grep -v -i -E "(^|/)$game(/|\.rs$|\.js$|\.css$)")
  hits=()
  for f in $files; do
    # Drop a Rust file's unit tests (its `#[cfg(test)]` module, at the end by the house's habit), then comments:
    # Rust/JS line comments (//, ///, //!) and CSS/JS block comment lines.
    if sed -e '/^#\[cfg(test)\]/,$d' "$f" \
        | sed -E -e 's#(^|[^:"])//.*$#\1#' -e 's#/\*.*\*/##g' -e '/^\s*\*/d' | grep -q -i -w "$game"; then
      hits+=("$f")
    fi
  done
  echo "$game: ${#hits[@]} files"
  printf '  %s\n' "${hits[@]}"
done
