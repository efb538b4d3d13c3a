#!/usr/bin/env bash
# Checks that README.md's module graph is Package.swift's (scripts/source-checks.sh runs it).
#
# README holds, between `<!-- modules` and `<!-- /modules -->`, a Markdown table with a row per
# target that is not a test target: `| `NAME` | DEP, DEP | what it is |` (`—` for no
# dependencies). The dependencies must be exactly the target's in the manifest, a package's
# products named by the shortest of them (`GRDB` for GRDB and GRDBSQLite), and every target must
# have its row. The manifest is read with `swift package dump-package` (it evaluates Package.swift and
# resolves nothing: about 5 s), under a scratch path of its own so that it never waits for a
# build of this checkout. Exit status 1, naming each difference, when they disagree.
set -uo pipefail
cd "$(dirname "$0")/.."
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
if ! swift package --scratch-path "$scratch" dump-package >"$scratch/package.json" 2>"$scratch/error"; then
  echo "check-modules: swift package dump-package failed:" >&2; cat "$scratch/error" >&2; exit 1
fi
python3 - "$scratch/package.json" <<'PY'
import json, re, sys

package = json.load(open(sys.argv[1]))
manifest = {}
for target in package['targets']:
    if target['type'] in ('test', 'plugin', 'macro'):
        continue
    names, products = set(), {}
    for dependency in target['dependencies']:
        kind, value = next(iter(dependency.items()))
        if kind == 'product':
            products.setdefault(value[1], []).append(value[0])
        else:
            names.add(value[0])
    for named in products.values():
        names.add(min(named, key=len))
    manifest[target['name']] = names

text = open('README.md', encoding='utf-8').read()
block = re.search(r'<!-- modules.*?-->\n(.*?)<!-- /modules -->', text, re.S)
if not block:
    sys.exit('check-modules: README.md has no <!-- modules --> … <!-- /modules --> block')
row = re.compile(r'^\|\s*`(?P<name>[^`]+)`\s*\|(?P<deps>[^|]*)\|.*\|\s*$')
readme, failures = {}, []
for line in block.group(1).split('\n'):
    if not line.strip() or re.match(r'^\|\s*(module|-+)\s*\|', line):
        continue
    m = row.match(line)
    if not m:
        failures.append(f'cannot read the row {line!r} (| `NAME` | DEP, DEP | what it is |)')
        continue
    deps = m['deps'].strip()
    readme[m['name']] = set() if deps in ('', '—', '-') else set(re.split(r',\s*', deps))
for name in sorted(manifest.keys() - readme.keys()):
    failures.append(f'{name} is a target in Package.swift, missing from README')
for name in sorted(readme.keys() - manifest.keys()):
    failures.append(f'{name} is in README, not a target in Package.swift')
for name in sorted(manifest.keys() & readme.keys()):
    if manifest[name] != readme[name]:
        missing = ', '.join(sorted(manifest[name] - readme[name])) or 'nothing'
        extra = ', '.join(sorted(readme[name] - manifest[name])) or 'nothing'
        failures.append(f'{name}: README lacks {missing} and adds {extra} (Package.swift: {", ".join(sorted(manifest[name]))})')
for failure in failures:
    print(f'check-modules: README.md: {failure}', file=sys.stderr)
if failures:
    sys.exit(1)
print(f'check-modules: README lists the {len(manifest)} targets of Package.swift with their dependencies')
PY
