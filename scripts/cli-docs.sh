#!/usr/bin/env bash
# Regenerates the command reference in docs/cli.md, the block between `<!-- cli:` and
# `<!-- /cli -->`, from the commands' own help: `quarry --help`, then `quarry COMMAND --help` for
# each command `quarry --help` lists, in its order.
#
#   bash scripts/cli-docs.sh            rewrite the block (build first: swift build --product quarry)
#   bash scripts/cli-docs.sh --check    exit 1, showing the difference, when the block is stale
#                                       (CLIReferenceTests runs this against the built binary)
#
# QUARRY_BIN names the binary (default .build/debug/quarry). The help is wrapped at 100 columns
# whatever the terminal, so the block is the same on every machine.
set -euo pipefail
cd "$(dirname "$0")/.."
quarry=${QUARRY_BIN:-.build/debug/quarry}
[ -x "$quarry" ] || { echo "cli-docs: no $quarry (swift build --product quarry first)" >&2; exit 1; }
mode=${1:-write}

help_of() { COLUMNS=100 "$quarry" "$@" --help </dev/null; }

block=$(mktemp)
trap 'rm -f "$block" "$block.page"' EXIT
{
  echo "### quarry"
  echo
  echo '```text'
  help_of
  echo '```'
  # The commands, as `quarry --help` lists them (the `help` command aside).
  help_of | awk '/^SUBCOMMANDS:/ { inside = 1; next } inside && /^[^ ]/ { inside = 0 } inside && /^  [a-z]/ { print $1 }' |
    while read -r command; do
      [ "$command" = help ] && continue
      echo
      echo "### quarry $command"
      echo
      echo '```text'
      help_of "$command"
      echo '```'
    done
} >"$block"

python3 - docs/cli.md "$block" "$mode" <<'PY'
import re, sys
page_path, block_path, mode = sys.argv[1:4]
page = open(page_path, encoding='utf-8').read()
block = open(block_path, encoding='utf-8').read()
# Trailing spaces ArgumentParser leaves at the ends of some lines are dropped.
block = '\n'.join(line.rstrip() for line in block.split('\n')).rstrip('\n') + '\n'
m = re.search(r'(<!-- cli:[^\n]*-->\n)(.*?)(<!-- /cli -->)', page, re.S)
if not m:
    sys.exit(f'cli-docs: {page_path} has no <!-- cli: … --> … <!-- /cli --> block')
if m.group(2) == block:
    print(f'cli-docs: {page_path} is up to date')
    sys.exit(0)
if mode == '--check':
    import difflib
    diff = difflib.unified_diff(m.group(2).split('\n'), block.split('\n'), 'docs/cli.md', 'quarry --help', lineterm='', n=1)
    print('\n'.join(list(diff)[:80]), file=sys.stderr)
    sys.exit(f'cli-docs: the command reference in {page_path} is stale; run: bash scripts/cli-docs.sh')
open(page_path, 'w', encoding='utf-8').write(page[:m.start(2)] + block + page[m.end(2):])
print(f'cli-docs: rewrote the command reference in {page_path}')
PY
