#!/usr/bin/env bash
# Checks on the engine's source that no compiler makes (scripts/test.sh runs them first):
#   1. `try?` in Sources/Quarry only for best-effort clean-up, each with a comment on the same
#      or the previous line saying why it may fail silently; every other failure is a value.
#   2. the folders of Sources/Quarry/Store tie one way (scripts/store-ties.py);
#   3. the back ends' names: no PostgreSQL, JSON or in-memory file names an SQLite type; the
#      stack never switches on the store type nor downcasts to a concrete store; GRDB is
#      imported only by the back ends that read SQLite files;
#   4. the documentation: every relative link in README.md and docs/ resolves and every docs/
#      page is linked from README (scripts/check-links.sh), and README's module graph is
#      Package.swift's (scripts/check-modules.sh).
# Each failure names the file and line at fault; exit status 1 when any check fails.
set -uo pipefail
cd "$(dirname "$0")/.."
failed=0
fail() { echo "source-checks: $*" >&2; failed=1; }

# 1. try? with its reason.
uncommented=$(python3 - "${1:-Sources/Quarry}" <<'PY'
import os, re, sys
root = sys.argv[1]
for directory, _, names in os.walk(root):
    for name in sorted(names):
        if not name.endswith('.swift'):
            continue
        path = os.path.join(directory, name)
        with open(path, encoding='utf-8') as f:
            lines = f.read().split('\n')
        for i, line in enumerate(lines):
            code = line.split('//', 1)[0]
            if not re.search(r'(?<![A-Za-z0-9_])try\?', code):
                continue
            previous = lines[i - 1].strip() if i > 0 else ''
            if '//' in line or previous.startswith('//'):
                continue
            print(f"{path}:{i + 1}: {line.strip()}")
PY
)
if [ -n "$uncommented" ]; then
  fail "try? without a comment saying why it may fail silently (best-effort clean-up only; otherwise throw or report the error):"
  echo "$uncommented" >&2
fi

# 2. one-way ties between the store's folders.
python3 scripts/store-ties.py --quiet || failed=1

# 3. names and imports.
if out=$(grep -rnE "\bSQLite[A-Z][A-Za-z]*" Sources/Quarry/Store/PostgreSQL Sources/Quarry/Store/JSON Sources/Quarry/Store/InMemory); then
  fail "a PostgreSQL, JSON or in-memory file names an SQLite type (share it from Store/Core or Store/SQL):"; echo "$out" >&2
fi
if out=$(grep -rnE "switch (options\.)?storeType|as[?!] (SQLiteStore|PostgreSQLStore|JSONStore|InMemoryStore)" Sources/Quarry/Stack); then
  fail "the stack switches on the store type or downcasts to a concrete store (ask the store through PersistentStore):"; echo "$out" >&2
fi
if out=$(grep -rl "^import GRDB" Sources/Quarry | grep -vE "Store/(SQLite|Foreign|CoreData)/"); then
  fail "GRDB imported outside Store/SQLite, Store/Foreign and Store/CoreData:"; echo "$out" >&2
fi

# 4. the documentation.
bash scripts/check-links.sh || failed=1
bash scripts/check-modules.sh || failed=1

[ "$failed" -eq 0 ] && echo "source-checks: all pass"
exit "$failed"
