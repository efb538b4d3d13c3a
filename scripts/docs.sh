#!/usr/bin/env bash
# The Quarry library's API reference (Sources/Quarry/Quarry.docc and the doc comments), built
# with swift-docc-plugin as CI builds it (scripts/test.sh):
#   - any DocC warning fails it (--warnings-as-errors): a broken ``Symbol`` or <doc:…> link, a
#     topic group naming nothing, a parameter documented that does not exist;
#   - so does any public symbol of Quarry without a doc comment: DocC does not warn about those,
#     so its documentation coverage (--experimental-documentation-coverage, a JSON file beside
#     the archive) is read and every symbol without an abstract is listed. Not counted: what
#     the compiler synthesises (left out of the symbol graph: --experimental-skip-synthesized-
#     symbols), pages that are not symbols declared here (topic groups, other modules' types
#     extended), and the witnesses of the standard library's protocols (`description`,
#     `hash(into:)`, `init(from:)`…), whose meaning is the protocol's. (Operators are counted:
#     `PredicateKey("price") > 10` makes a predicate, which its own comment says.)
# Usage: bash scripts/docs.sh [OUTPUT_FOLDER]   (default .build/docs; the archive is
# OUTPUT_FOLDER/Quarry.doccarchive, for `docc preview` or static hosting).
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-.build/docs}
started=$(date +%s)
rm -rf "$out"
mkdir -p "$out"
archive="$out/Quarry.doccarchive"
log="$out/docc.log"

# --disable-indexing: no LMDB navigator index (Xcode's; nothing here reads it).
status=0
swift package --allow-writing-to-directory "$out" generate-documentation --target Quarry \
  --disable-indexing --experimental-skip-synthesized-symbols --warnings-as-errors --ide-console-output \
  --experimental-documentation-coverage --coverage-summary-level brief \
  --output-path "$archive" >"$log" 2>&1 || status=$?
# With --warnings-as-errors any DocC warning ends docc, and the plugin, with a failure.
if [ "$status" -ne 0 ]; then
  echo "docs: FAILED (exit $status); DocC said:" >&2
  # Its diagnostics (file:line:column: …), else the end of its output.
  grep -E "^[^ ]+:[0-9]+:[0-9]+: (warning|error): " "$log" | sed "s|^$PWD/||" | head -80 >&2 || tail -40 "$log" >&2
  exit 1
fi

coverage="$archive/documentation-coverage.json"
if [ ! -f "$coverage" ]; then
  echo "docs: FAILED: DocC wrote no documentation coverage ($coverage)" >&2
  exit 1
fi
# Every public symbol with no abstract (no doc comment), by its path in the reference.
python3 - "$coverage" <<'PY'
import json, sys
with open(sys.argv[1], encoding="utf-8") as f:
    symbols = json.load(f)
# The standard library's protocol requirements, documented by their protocols.
witnesses = {
    "description", "debugDescription", "errorDescription", "hash(into:)", "hashValue",
    "init(from:)", "encode(to:)", "init(rawValue:)", "rawValue",
    "init(arrayLiteral:)", "init(stringLiteral:)", "init(integerLiteral:)", "init(floatLiteral:)",
    "init(booleanLiteral:)", "init(nilLiteral:)", "init(extendedGraphemeClusterLiteral:)",
    "init(unicodeScalarLiteral:)", "init(dictionaryLiteral:)", "makeIterator()", "localizedDescription",
}
def counted(symbol):
    kind = symbol.get("kind") or {}
    if not kind.get("isSymbol") or kind.get("id", "").startswith("org.swift.docc.kind.extended"):
        return False
    return symbol["referencePath"].rsplit("/", 1)[-1] not in witnesses
checked = [s for s in symbols if counted(s)]
missing = sorted(f'{s["title"]}  ({s["referencePath"].removeprefix("doc://Quarry/documentation/")})'
                 for s in checked if not s.get("hasAbstract"))
if missing:
    print(f"docs: FAILED: {len(missing)} public symbols have no doc comment:", file=sys.stderr)
    for path in missing:
        print(f"  {path}", file=sys.stderr)
    sys.exit(1)
print(f"docs: all {len(checked)} public symbols documented")
PY
echo "docs: built $archive without warnings in $(( $(date +%s) - started )) s"
