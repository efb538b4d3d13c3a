#!/usr/bin/env python3
"""The ties between the folders of Sources/Quarry/Store, and whether they run one way.

A folder ties to another when one of its files names a type or function declared at the top
level of a file in the other (comments aside; names declared in more than one folder, or only
nested inside a type, are ignored). Prints every tie with the names that make it, then fails
(exit 1) when two folders tie both ways, directly or through others, naming the cycle.

    python3 scripts/store-ties.py            # the ties, and the check
    python3 scripts/store-ties.py --quiet    # the check only
"""
import collections
import os
import re
import sys

ROOT = 'Sources/Quarry/Store'
MODIFIERS = r'(?:public |internal |fileprivate |private |final |indirect |@\w+(?:\([^)]*\))? )*'
TOP = re.compile(r'^' + MODIFIERS + r'(?:struct|enum|class|protocol|typealias|actor|func)\s+([A-Za-z_]\w*)', re.M)
NESTED = re.compile(r'^[ \t]+' + MODIFIERS + r'(?:struct|enum|class|protocol|typealias)\s+([A-Za-z_]\w*)', re.M)


def folder_of(path):
    parts = os.path.relpath(path, ROOT).split(os.sep)
    return parts[0] if len(parts) > 1 else '.'


def strip_comments(text):
    text = re.sub(r'/\*.*?\*/', '', text, flags=re.S)
    return re.sub(r'//.*', '', text)


def main():
    quiet = '--quiet' in sys.argv
    texts = {}
    for directory, _, names in os.walk(ROOT):
        for name in names:
            if name.endswith('.swift'):
                path = os.path.join(directory, name)
                with open(path, encoding='utf-8') as f:
                    texts[path] = strip_comments(f.read())
    owners = collections.defaultdict(set)
    nested_only = set()
    for path, text in texts.items():
        for match in TOP.finditer(text):
            owners[match.group(1)].add(folder_of(path))
    for path, text in texts.items():
        for match in NESTED.finditer(text):
            name = match.group(1)
            if name in owners:
                owners[name].add(folder_of(path))
            else:
                nested_only.add(name)
    ties = collections.defaultdict(lambda: collections.defaultdict(set))
    for path, text in texts.items():
        here = folder_of(path)
        for name in set(re.findall(r'\b[A-Za-z_]\w*\b', text)):
            found = owners.get(name)
            if found and len(found) == 1 and name not in nested_only:
                (there,) = found
                if there != here:
                    ties[here][there].add(name)
    if not quiet:
        for here in sorted(ties):
            for there in sorted(ties[here]):
                print(f"{here} -> {there}: {', '.join(sorted(ties[here][there]))}")
    # A cycle: depth-first search over the folder graph.
    state, stack = {}, []

    def visit(node):
        state[node] = 'open'
        stack.append(node)
        for nxt in sorted(ties[node]):
            if state.get(nxt) == 'open':
                return stack[stack.index(nxt):] + [nxt]
            if nxt not in state:
                cycle = visit(nxt)
                if cycle:
                    return cycle
        stack.pop()
        state[node] = 'done'
        return None

    for node in sorted(ties):
        if node not in state:
            cycle = visit(node)
            if cycle:
                names = [f"{a} -> {b} ({', '.join(sorted(ties[a][b])[:4])})" for a, b in zip(cycle, cycle[1:])]
                print('store-ties: folders of Sources/Quarry/Store tie both ways: ' + '; '.join(names), file=sys.stderr)
                return 1
    if not quiet:
        print('store-ties: every tie runs one way')
    return 0


if __name__ == '__main__':
    sys.exit(main())
