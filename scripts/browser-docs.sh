#!/usr/bin/env bash
# Regenerates docs/browser.md's key table and `:` command table from the browser's own lists
# (`quarry keys`, `quarry keys --commands`), as KeyTableTests and CommandTableTests expect.
# Usage: bash scripts/browser-docs.sh [path/to/quarry]   (default .build/debug/quarry)
set -euo pipefail
cd "$(dirname "$0")/.."
quarry=${1:-.build/debug/quarry}
python3 - "$quarry" <<'PY'
import subprocess, sys
quarry = sys.argv[1]
path = "docs/browser.md"
text = open(path, encoding="utf-8").read()
for marker, args in (("keys", []), ("commands", ["--commands"])):
    table = subprocess.run([quarry, "keys", *args], check=True, capture_output=True, text=True).stdout
    start = text.index(f"<!-- {marker}:")
    body = text.index("\n", start) + 1
    end = text.index(f"<!-- /{marker} -->")
    text = text[:body] + table + text[end:]
open(path, "w", encoding="utf-8").write(text)
PY
echo "docs/browser.md: key and command tables regenerated"
