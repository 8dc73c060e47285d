#!/usr/bin/env python3
"""Which production files name a game outside its own files (issue #31's proof: a game is its own files plus one
line in each list). Usage: scripts/game-names.py [GAME ...] (default: othello draughts insect).

Counted: tracked .rs, .js, .css and .html files, comments left out (`//`, `///`, `//!`, `/* … */`, `*` lines), a
Rust file's test module left out (from its first `#[cfg(test)]` line on). Not counted: the game's own files (a
path with a `<game>` folder or a `<game>.rs`/`<game>.js` file), the rules crate (its judges), tests, examples,
benches, fuzz targets, the test kit, load tools and the browser tests."""
import re
import subprocess
import sys

SKIP = re.compile(r"^(rules|e2e|fuzz|testkit|loadgen|tournament)/|/(tests|examples|benches)/|/tests\.rs$")
COMMENT = re.compile(r"^\s*(//|/\*|\*)")


def production_text(path):
    lines = open(path, encoding="utf-8").read().split("\n")
    out = []
    for line in lines:
        if path.endswith(".rs") and line.strip() == "#[cfg(test)]":
            break
        if COMMENT.match(line):
            continue
        out.append(re.sub(r"\s//.*$", "", line))
    return "\n".join(out)


def main(games):
    files = subprocess.run(
        ["git", "ls-files", "*.rs", "*.js", "*.css", "*.html"], capture_output=True, text=True, check=True
    ).stdout.split()
    for game in games:
        own = re.compile(rf"(^|/){game}(/|\.rs$|\.js$)")
        named = [
            f for f in files
            if not SKIP.search(f) and not own.search(f) and re.search(game, production_text(f), re.IGNORECASE)
        ]
        print(f"{game}: {len(named)} files")
        for f in named:
            print(f"  {f}")


if __name__ == "__main__":
    main(sys.argv[1:] or ["othello", "draughts", "insect"])
