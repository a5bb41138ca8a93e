#!/usr/bin/env python3
"""Moves fields declared after a constructor or method up to just before the class's first
constructor or method, as the build's FieldsFirst rule (build-tools/checkstyle.xml) asks. Each
member moves whole, with the comments, annotations and blank line above it; fields keep their order
among themselves, so static initialisation happens in the same order. A class with an initializer
block ({ } or static { }) between the moved fields and their new place is left alone and listed:
moving a field across it changes what the block sees. Nested and anonymous classes are done too.

Usage: scripts/fields-first.py [--dry-run] PATH... (directories or .java files). Compile after it.
"""
import importlib.util
import pathlib
import re
import sys

_spec = importlib.util.spec_from_file_location(
    'qualified', pathlib.Path(__file__).with_name('import-qualified-names.py'))
_qualified = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_qualified)
code_mask = _qualified.code_mask

# a type declaration's keyword and name (not `Foo.class`, nor a method called record)
TYPE_WORD = re.compile(r'(?<![.\w])(?:(?:class|interface|enum)\s+\w+|record\s+\w+\s*[(<])')


def members(code, start, end):
    """The members of the class body code[start:end] (between its braces), as (first, last, kind):
    character offsets of the member's own code and 'field', 'method', 'type', 'init' or 'other'."""
    out, depth, i, begin = [], 0, start, None
    paren = 0
    while i < end:
        c = code[i]
        if begin is None and not c.isspace() and not (depth == 0 and c == ';'):
            begin = i
        if c == '(':
            paren += 1
        elif c == ')':
            paren -= 1
        elif c == '{':
            depth += 1
        elif c == '}':
            depth -= 1
            if depth == 0 and begin is not None and paren == 0:
                head = code[begin:code.index('{', begin)]
                nxt = i + 1
                while nxt < end and code[nxt].isspace():
                    nxt += 1
                if nxt < end and code[nxt] in ';,)':
                    i += 1
                    continue  # `= new X() { ... };`: the field ends at its ';'
                out.append((begin, i, classify(head, True)))
                begin = None
        elif c == ';' and depth == 0 and paren == 0 and begin is not None:
            out.append((begin, i, classify(code[begin:i], False)))
            begin = None
        i += 1
    return out


def classify(head, has_body):
    text = re.sub(r'@\w+(\.\w+)*(\s*\([^)]*\))?', ' ', head).strip()  # annotations
    if has_body:
        if TYPE_WORD.search(text):
            return 'type'
        if text in ('', 'static'):
            return 'init'
        return 'method' if '(' in text else 'other'
    before_assign = text.split('=')[0]
    if '(' in before_assign:
        return 'method'
    return 'field'


def class_bodies(code):
    """(open, close, is_enum) of every class, enum, record, interface and anonymous class body."""
    bodies, stack = [], []
    for i, c in enumerate(code):
        if c == '{':
            stack.append(i)
        elif c == '}' and stack:
            o = stack.pop()
            head = code[max(0, o - 5000):o]
            head = head[max(head.rfind(';'), head.rfind('}'), head.rfind('{')) + 1:]
            if TYPE_WORD.search(head) or anonymous_class(code, o):
                bodies.append((o, i, re.search(r'\benum\b', head) is not None))
    return bodies


def anonymous_class(code, brace):
    """Whether the '{' at brace opens an anonymous class: `new Type<...>(args) {`."""
    j = brace - 1
    while j >= 0 and code[j].isspace():
        j -= 1
    if j < 0 or code[j] != ')':
        return False
    depth = 0
    while j >= 0:
        if code[j] == ')':
            depth += 1
        elif code[j] == '(':
            depth -= 1
            if depth == 0:
                break
        j -= 1
    return re.search(r'\bnew\s+[\w.]+(\s*<[\w.<>, ?]*>)?\s*$', code[max(0, j - 200):j]) is not None


def fix(path, dry_run, notes):
    text = path.read_text(encoding='utf-8')
    mask = code_mask(text)
    code = ''.join(c if mask[i] else ' ' for i, c in enumerate(text))
    line_of = [0] * (len(text) + 1)
    n = 0
    for i, c in enumerate(text):
        line_of[i] = n
        if c == '\n':
            n += 1
    line_of[len(text)] = n
    lines = text.split('\n')
    moves = []
    for o, c, is_enum in sorted(class_bodies(code), key=lambda b: b[0], reverse=True):
        ms = members(code, o + 1, c)
        if is_enum and ms:
            ms[0] = (ms[0][0], ms[0][1], 'constants')
        if any(k == 'other' for _, _, k in ms):
            continue
        first_code = next((j for j, m in enumerate(ms) if m[2] == 'method'), None)
        if first_code is None:
            continue
        late = [j for j in range(first_code + 1, len(ms)) if ms[j][2] == 'field']
        if not late:
            continue
        if any(ms[j][2] == 'init' for j in range(first_code, late[-1])):
            notes.append('%s:%d: fields after an initializer block: move them by hand'
                         % (path, line_of[ms[late[0]][0]] + 1))
            continue
        # line ranges: a member owns the lines after the previous member's last line up to its own
        spans = []
        prev_last = line_of[o]
        for b, e, k in ms:
            first, last = prev_last + 1, line_of[e]
            if line_of[b] < first or line_of[b] == line_of[o]:
                spans = None
                break
            spans.append((first, last))
            prev_last = last
        if spans is None:
            notes.append('%s:%d: members share lines: move them by hand' % (path, line_of[o] + 1))
            continue
        moves.append((spans, first_code, late))
    if not moves:
        return 0
    moved = 0
    for spans, first_code, late in moves:  # bottom-up, so earlier line numbers stay valid
        a, z = spans[first_code][0], spans[-1][1]
        order = [j for j in range(first_code, len(spans)) if j in late]
        order += [j for j in range(first_code, len(spans)) if j not in late]
        new = []
        for pos, j in enumerate(order):
            chunk = lines[spans[j][0]:spans[j][1] + 1]
            blanks = 0
            while blanks < len(chunk) and not chunk[blanks].strip():
                blanks += 1
            if pos == 0:  # the first place keeps the blank lines it had
                first = lines[spans[first_code][0]:spans[first_code][1] + 1]
                blanks = next((k for k, l in enumerate(first) if l.strip()), 0)
            elif j not in late and order[pos - 1] in late:
                blanks = 1  # a blank line between the fields and what follows them
            new += [''] * min(blanks, 1) + chunk[next((k for k, l in enumerate(chunk) if l.strip()), 0):]
        lines[a:z + 1] = new
        moved += len(late)
    if not dry_run:
        path.write_text('\n'.join(lines), encoding='utf-8')
    print('%s: %d field(s) moved up' % (path, moved))
    return moved


def main(argv):
    dry_run = '--dry-run' in argv
    paths = [a for a in argv if a != '--dry-run']
    if not paths:
        print(__doc__, file=sys.stderr)
        return 2
    notes, total = [], 0
    for arg in paths:
        p = pathlib.Path(arg)
        for f in ([p] if p.is_file() else sorted(p.rglob('*.java'))):
            if '/target/' not in str(f):
                total += fix(f, dry_run, notes)
    for note in notes:
        print(note, file=sys.stderr)
    print('fields moved: %d; left for a hand: %d' % (total, len(notes)))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
