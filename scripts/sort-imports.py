#!/usr/bin/env python3
"""Sorts each Java file's import block as the build's checkstyle rule wants it: static imports
first, then the others, each group in ASCII order, one blank line between the two groups. Only the
contiguous block of import lines (and blank lines inside it) is rewritten.
Usage: scripts/sort-imports.py DIR... (e.g. scripts/sort-imports.py */src)"""
import re, sys, pathlib

IMP = re.compile(r'^import\s+(static\s+)?([\w.]+(?:\.\*)?)\s*;\s*$')

def fix(path):
    lines = path.read_text(encoding='utf-8').split('\n')
    idx = [i for i, l in enumerate(lines) if IMP.match(l)]
    if not idx:
        return False
    first, last = idx[0], idx[-1]
    block = lines[first:last + 1]
    if any(l.strip() and not IMP.match(l) for l in block):
        # comments or code between imports: leave the file alone, report it
        print('skipped (non-import lines in the import block):', path, file=sys.stderr)
        return False
    statics = sorted({IMP.match(l).group(2) for l in block if IMP.match(l) and IMP.match(l).group(1)})
    normal = sorted({IMP.match(l).group(2) for l in block if IMP.match(l) and not IMP.match(l).group(1)})
    new = ['import static %s;' % s for s in statics]
    if statics and normal:
        new.append('')
    new += ['import %s;' % s for s in normal]
    if new == block:
        return False
    lines[first:last + 1] = new
    path.write_text('\n'.join(lines), encoding='utf-8')
    return True

changed = 0
for root in sys.argv[1:]:
    for p in pathlib.Path(root).rglob('*.java'):
        if '/target/' in str(p) or '/generated' in str(p):
            continue
        changed += fix(p)
print('files changed:', changed)
