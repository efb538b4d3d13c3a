#!/usr/bin/env bash
# Checks the documentation's links (scripts/source-checks.sh runs it):
#   1. every relative link in README.md and docs/**/*.md names a file or folder that exists,
#      and its `#anchor`, when it has one and names a Markdown file, a heading of that file
#      (GitHub's anchors: lower case, punctuation dropped, spaces to `-`, `-1`, `-2` for repeats);
#   2. every page docs/*.md is linked from README.md.
# Links to other sites (`https:`, `mailto:`…) are not followed. Each failure names the file and
# line; exit status 1 when any check fails.
set -uo pipefail
cd "$(dirname "$0")/.."
python3 - <<'PY'
import os, re, sys, glob

def strip_code(text):
    """The text without fenced code blocks and inline code spans (links there are examples)."""
    out, fenced = [], False
    for line in text.split('\n'):
        if re.match(r'^\s*(```|~~~)', line):
            fenced = not fenced
            out.append('')
            continue
        out.append('' if fenced else re.sub(r'`+[^`]*`+', '', line))
    return out

def anchors(path, cache={}):
    """GitHub's anchors for the headings of a Markdown file."""
    if path in cache:
        return cache[path]
    with open(path, encoding='utf-8') as f:
        lines = f.read().split('\n')
    seen, result, fenced = {}, set(), False
    for line in lines:
        if re.match(r'^\s*(```|~~~)', line):
            fenced = not fenced
            continue
        m = None if fenced else re.match(r'^#{1,6}\s+(.*?)\s*#*\s*$', line)
        if not m:
            continue
        title = re.sub(r'\[([^\]]*)\]\([^)]*\)', r'\1', m.group(1))   # a link's text only
        slug = re.sub(r'[^\w\- ]', '', title.lower()).replace(' ', '-')
        n = seen.get(slug, 0)
        seen[slug] = n + 1
        result.add(slug if n == 0 else f'{slug}-{n}')
    for line in lines:   # explicit anchors: <a name="x"> or id="x"
        for a in re.findall(r'<a\s+(?:name|id)="([^"]+)"', line):
            result.add(a)
    cache[path] = result
    return result

files = ['README.md'] + sorted(glob.glob('docs/**/*.md', recursive=True))
link = re.compile(r'!?\[(?:[^\]\[]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)')
failures = []
linked_from_readme = set()
for source in files:
    with open(source, encoding='utf-8') as f:
        lines = strip_code(f.read())
    for number, line in enumerate(lines, 1):
        for target in link.findall(line):
            if re.match(r'^[a-zA-Z][a-zA-Z0-9+.-]*:', target):
                continue   # https:, mailto:…
            path, _, anchor = target.partition('#')
            resolved = source if path == '' else os.path.normpath(os.path.join(os.path.dirname(source), path))
            if not os.path.exists(resolved):
                failures.append(f'{source}:{number}: {target}: no such file ({resolved})')
                continue
            if source == 'README.md':
                linked_from_readme.add(resolved)
            if anchor and resolved.endswith('.md') and anchor not in anchors(resolved):
                failures.append(f'{source}:{number}: {target}: no heading #{anchor} in {resolved}')
for page in sorted(glob.glob('docs/*.md')):
    if page not in linked_from_readme:
        failures.append(f'README.md: does not link {page} (add it to the map of docs/)')
for failure in failures:
    print(f'check-links: {failure}', file=sys.stderr)
if failures:
    sys.exit(1)
print(f'check-links: {len(files)} files, every relative link resolves, every docs/ page is linked from README')
PY
