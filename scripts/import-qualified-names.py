#!/usr/bin/env python3
"""Replaces inline fully qualified type names in Java code (`java.util.concurrent.atomic.AtomicBoolean x`)
by the simple name plus an import, as the build's InlineQualifiedName rule (build-tools/checkstyle.xml)
asks. Only code is changed: strings, text blocks, character literals and comments (Javadoc's
{@link a.b.C} included) are left as they are, and so are import and package lines.

A name `a.b.C` (or `a.b.C.Nested`, which becomes `C.Nested`) is rewritten when the simple name C is
free in the file: no other type called C is imported, declared in the file, present in the same
package (any module's src/*/java), or in java.lang (an import would shadow it). Where two names in a
file share a simple name, the most used one is imported and the others stay qualified: such lines
are listed at the end, for a `// qualified: <why>` comment by hand. Lines already carrying that
comment are left alone. The import block is then sorted as scripts/sort-imports.py does.

Usage: scripts/import-qualified-names.py [--dry-run] PATH... (directories or .java files)
Compile afterwards: an inherited nested type called C is the one case the script cannot see.
"""
import collections
import pathlib
import re
import sys

ROOTS = ('java', 'javax', 'io', 'com', 'org', 'net')
# a root package, lower-case segments, then the first upper-case segment: the type to import
QUALIFIED = re.compile(r'(?<![\w.$])((?:%s)(?:\.[a-z_][a-z0-9_]*)+)\.([A-Z][A-Za-z0-9_]*)\b' % '|'.join(ROOTS))
IMPORT = re.compile(r'^import\s+(static\s+)?([\w.]+(?:\.\*)?)\s*;\s*$')
PACKAGE = re.compile(r'^\s*package\s+([\w.]+)\s*;', re.M)
DECLARED = re.compile(r'\b(?:class|interface|enum|record)\s+([A-Z]\w*)')
SUPPRESS_MARK = '// qualified:'
JAVA_LANG = set('''AbstractMethodError Appendable ArithmeticException ArrayIndexOutOfBoundsException
ArrayStoreException AssertionError AutoCloseable Boolean BootstrapMethodError Byte CharSequence
Character Class ClassCastException ClassCircularityError ClassFormatError ClassLoader
ClassNotFoundException ClassValue CloneNotSupportedException Cloneable Comparable Compiler Deprecated
Double Enum EnumConstantNotPresentException Error Exception ExceptionInInitializerError Float
FunctionalInterface IllegalAccessError IllegalAccessException IllegalArgumentException
IllegalCallerException IllegalMonitorStateException IllegalStateException IllegalThreadStateException
IncompatibleClassChangeError IndexOutOfBoundsException InheritableThreadLocal InstantiationError
InstantiationException Integer InternalError InterruptedException Iterable LayerInstantiationException
LinkageError Long Math Module ModuleLayer NegativeArraySizeException NoClassDefFoundError
NoSuchFieldError NoSuchFieldException NoSuchMethodError NoSuchMethodException NullPointerException
Number NumberFormatException Object OutOfMemoryError Override Package Process ProcessBuilder
ProcessHandle Readable Record ReflectiveOperationException Runnable Runtime RuntimeException
RuntimePermission SafeVarargs ScopedValue SecurityException SecurityManager Short StackOverflowError
StackTraceElement StackWalker StrictMath String StringBuffer StringBuilder
StringIndexOutOfBoundsException StringTemplate SuppressWarnings System Thread ThreadDeath ThreadGroup
ThreadLocal Throwable TypeNotPresentException UnknownError UnsatisfiedLinkError
UnsupportedClassVersionError UnsupportedOperationException VerifyError VirtualMachineError Void
WrongThreadException'''.split())


def code_mask(text):
    """One boolean per character: True where it is code, False inside comments and literals."""
    mask = [True] * len(text)
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith('//', i):
            end = text.find('\n', i)
            end = n if end < 0 else end
        elif text.startswith('/*', i):
            end = text.find('*/', i + 2)
            end = n if end < 0 else end + 2
        elif text.startswith('"""', i):
            end = i + 3
            while end < n and not text.startswith('"""', end):
                end += 2 if text[end] == '\\' else 1
            end = min(n, end + 3)
        elif c == '"' or c == "'":
            end = i + 1
            while end < n and text[end] != c and text[end] != '\n':
                end += 2 if text[end] == '\\' else 1
            end = min(n, end + 1)
        else:
            i += 1
            continue
        for k in range(i, end):
            mask[k] = False
        i = end
    return mask


_PACKAGE_INDEX = {}


def package_types(path, package):
    """Simple names of the types in the file's package, in every module's source trees."""
    root = path.resolve().parent
    while root.parent != root and not (root / '.git').exists():
        root = root.parent
    if root not in _PACKAGE_INDEX:
        index = collections.defaultdict(set)
        for f in root.glob('**/src/*/java/**/*.java'):
            if '/target/' not in str(f):
                parts = f.relative_to(root).parts
                at = next(i for i in range(len(parts) - 2) if parts[i] == 'src' and parts[i + 2] == 'java')
                index['.'.join(parts[at + 3:-1])].add(f.stem)
        _PACKAGE_INDEX[root] = index
    return _PACKAGE_INDEX[root].get(package, set())


def sort_imports(lines):
    idx = [i for i, l in enumerate(lines) if IMPORT.match(l)]
    if not idx:
        return lines
    first, last = idx[0], idx[-1]
    block = lines[first:last + 1]
    if any(l.strip() and not IMPORT.match(l) for l in block):
        return lines
    statics = sorted({IMPORT.match(l).group(2) for l in block if IMPORT.match(l) and IMPORT.match(l).group(1)})
    normal = sorted({IMPORT.match(l).group(2) for l in block if IMPORT.match(l) and not IMPORT.match(l).group(1)})
    new = ['import static %s;' % s for s in statics]
    if statics and normal:
        new.append('')
    new += ['import %s;' % s for s in normal]
    return lines[:first] + new + lines[last + 1:]


def add_imports(text, names):
    lines = text.split('\n')
    idx = [i for i, l in enumerate(lines) if IMPORT.match(l)]
    new = ['import %s;' % n for n in sorted(names)]
    if idx:
        lines[idx[-1] + 1:idx[-1] + 1] = new
    else:
        pkg = next((i for i, l in enumerate(lines) if PACKAGE.match(l)), -1)
        lines[pkg + 1:pkg + 1] = [''] + new
    return '\n'.join(sort_imports(lines))


def fix(path, dry_run, notes):
    text = path.read_text(encoding='utf-8')
    mask = code_mask(text)
    m = PACKAGE.search(text)
    package = m.group(1) if m else ''
    line_starts = [0] + [i + 1 for i, c in enumerate(text) if c == '\n']

    def line_of(pos):
        lo, hi = 0, len(line_starts) - 1
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if line_starts[mid] <= pos:
                lo = mid
            else:
                hi = mid - 1
        return lo

    def line_text(no):
        end = text.find('\n', line_starts[no])
        return text[line_starts[no]:end if end >= 0 else len(text)]

    hits = []
    for m in QUALIFIED.finditer(text):
        if not all(mask[m.start():m.end()]):
            continue
        line = line_text(line_of(m.start()))
        if IMPORT.match(line) or PACKAGE.match(line) or SUPPRESS_MARK in line:
            continue
        hits.append(m)
    if not hits:
        return 0

    imported = {}
    for l in text.split('\n'):
        im = IMPORT.match(l)
        if im and not im.group(1):
            imported[im.group(2).rsplit('.', 1)[-1]] = im.group(2)
    code = ''.join(c if mask[i] else ' ' for i, c in enumerate(text))
    declared = set(DECLARED.findall(code))
    same_package = package_types(path, package)

    by_name = collections.defaultdict(collections.Counter)
    for h in hits:
        by_name[h.group(2)][h.group(1) + '.' + h.group(2)] += 1
    chosen = {}
    for simple, counts in by_name.items():
        if simple in imported:
            chosen[simple] = imported[simple]
            continue
        fqn = counts.most_common(1)[0][0]
        pkg = fqn.rsplit('.', 1)[0]
        if pkg == package:
            chosen[simple] = fqn
        elif simple in declared or simple in same_package:
            continue
        elif pkg == 'java.lang' or simple not in JAVA_LANG:
            chosen[simple] = fqn

    to_import = set()
    out, last, changed = [], 0, 0
    for h in hits:
        simple, fqn = h.group(2), h.group(1) + '.' + h.group(2)
        if chosen.get(simple) != fqn:
            notes.append('%s:%d: %s left qualified (another type is called %s here)'
                         % (path, line_of(h.start()) + 1, fqn, simple))
            continue
        out.append(text[last:h.start()])
        out.append(simple)
        last = h.end()
        changed += 1
        pkg = h.group(1)
        if pkg != package and pkg != 'java.lang' and simple not in imported:
            to_import.add(fqn)
    if not changed:
        return 0
    out.append(text[last:])
    new_text = ''.join(out)
    if to_import:
        new_text = add_imports(new_text, to_import)
    if not dry_run:
        path.write_text(new_text, encoding='utf-8')
    print('%s: %d name(s), %d import(s) added' % (path, changed, len(to_import)))
    return changed


def main(argv):
    dry_run = '--dry-run' in argv
    paths = [a for a in argv if a != '--dry-run']
    if not paths:
        print(__doc__, file=sys.stderr)
        return 2
    notes, total, files = [], 0, 0
    for arg in paths:
        p = pathlib.Path(arg)
        for f in ([p] if p.is_file() else sorted(p.rglob('*.java'))):
            if '/target/' in str(f) or '/generated' in str(f):
                continue
            n = fix(f, dry_run, notes)
            total += n
            files += n > 0
    for note in notes:
        print(note, file=sys.stderr)
    print('names replaced: %d in %d files; left qualified: %d' % (total, files, len(notes)))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
