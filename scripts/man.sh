#!/usr/bin/env bash
# Regenerates docs/man/quarry.1, quarry's manual page, from the commands themselves with
# swift-argument-parser's `generate-manual` plugin (one page: the root command and every
# subcommand). Nothing installs it: `man ./docs/man/quarry.1` reads it.
#
#   bash scripts/man.sh
#
# The plugin builds every product first; `--configuration debug` reuses the debug build
# (`swift build`), so after one only the plugin's own tool is compiled. The page's date is the
# date of the last commit that changed the command line (Sources/quarry), so regenerating an
# unchanged command line gives the same file.
set -euo pipefail
cd "$(dirname "$0")/.."
date=$(git log -1 --format=%cs -- Sources/quarry 2>/dev/null || true)
[ -n "$date" ] || date=$(date -u +%Y-%m-%d)
swift package plugin generate-manual --configuration debug --date "$date"
page=.build/plugins/GenerateManual/outputs/quarry/quarry.1
[ -f "$page" ] || { echo "man.sh: the plugin made no $page" >&2; exit 1; }
mkdir -p docs/man
cp "$page" docs/man/quarry.1
echo "man.sh: wrote docs/man/quarry.1 (man ./docs/man/quarry.1)"
