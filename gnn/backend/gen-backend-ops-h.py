#!/usr/bin/env python3
# gen-backend-ops-h.py: writes gnn-backend-ops.h, the GnnBackendOp enum and its documentation,
# from the op table gnn-backend-ops.def.
#
# The enum is written out as text (rather than expanded from the table by the C preprocessor)
# because glib-mkenums and the GIR scanner's documentation parser read header text. The rows
# are checked as they are read: names and nicks unique, each nick the name in lower case with
# '-' for '_' (the nick glib-mkenums gives the value), a documentation comment above each, a
# FLOP formula written in the names gnn-backend-ops.c defines for it, each GNN_BACKEND_OP_FLOAT
# row after the row of its op. The FLOP formula is added to the op's documentation; preprocessor
# lines (the rows' default definitions and the count) are skipped.
#
# usage: gen-backend-ops-h.py gnn-backend-ops.def gnn-backend-ops.h
#
# SPDX-License-Identifier: LGPL-2.1-or-later
import re
import sys

ROW = re.compile(r'^GNN_BACKEND_OP\s*\(\s*([A-Z][A-Z0-9_]*)\s*,\s*"([a-z0-9-]+)"\s*,(.*)\)\s*$')
FLOAT_ROW = re.compile(r'^GNN_BACKEND_OP_FLOAT\s*\(\s*([A-Z][A-Z0-9_]*)\s*,(.*)\)\s*$')
COMMENT = re.compile(r'/\*(.*?)\*/', re.S)
# the names of the flops column, as the documentation spells them
FLOPS_NAMES = {
    'N_OUT': 'numel (out)',
    'N_IN0': 'numel (in0)',
    'N_LIST': 'Σ numel (list_out)',
    'GEMM_MNK': 'batch · m · n · k',
    'WINDOW': 'kh · kw',
    'VOLUME': 'kd · kh · kw',
    'HAS_IN2': 'in2 given',
    'ATTN_LS': 'B · L · S',
    'IN0_LAST': 'in0.shape[2]',
    'IN2_LAST': 'in2.shape[2]',
}
FLOPS_TOKEN = re.compile(r'\s*([A-Z][A-Z0-9_]*|[0-9]+|[*+()?:])')


def fail(path, line, what):
    sys.exit(f'{path}:{line}: {what}')


def flops_text(path, line, formula):
    """the documentation's spelling of a flops formula, checked against the names it may use"""
    words, pos = [], 0
    while pos < len(formula.rstrip()):
        t = FLOPS_TOKEN.match(formula, pos)
        if not t:
            fail(path, line, f'cannot read the flops formula "{formula}" at "{formula[pos:]}"')
        word = t.group(1)
        if word[0].isalpha() and word not in FLOPS_NAMES:
            fail(path, line, f'the flops formula "{formula}" uses {word}, not one of {", ".join(FLOPS_NAMES)}')
        words.append(FLOPS_NAMES.get(word, '·' if word == '*' else word))
        pos = t.end()
    if not words:
        fail(path, line, 'no flops formula')
    return ' '.join(words).replace('( ', '(').replace(' )', ')')


def comment_lines(text):
    """the lines of a /* ... */ comment's text, without the ' * ' prefixes"""
    lines = []
    for i, line in enumerate(text.strip('\n').split('\n')):
        line = line.strip()
        if i > 0:
            line = re.sub(r'^\*( |$)', '', line)
        lines.append(line.strip())
    while lines and not lines[-1]:
        lines.pop()
    return lines


def parse(path):
    """the rows (name, nick, line, documentation lines) and the enum's documentation"""
    text = open(path, encoding='utf-8').read()
    rows, type_doc, doc, pos = [], None, None, 0
    for m in list(COMMENT.finditer(text)) + [None]:
        # every non-blank line between two comments is a row, documented by the comment above
        between = text[pos:m.start() if m else len(text)]
        for k, line in enumerate(between.split('\n')):
            if not line.strip():
                continue
            where = text.count('\n', 0, pos) + k + 1
            if line.strip().startswith('#'):
                continue  # the defaults of the row macros, the count
            f = FLOAT_ROW.match(line.strip())
            if f:
                if not rows or rows[-1][0] != f.group(1):
                    fail(path, where, f'the GNN_BACKEND_OP_FLOAT row of {f.group(1)} must follow its GNN_BACKEND_OP row')
                continue
            r = ROW.match(line.strip())
            if not r:
                fail(path, where, f'not a GNN_BACKEND_OP row: {line.strip()}')
            if not doc:
                fail(path, where, f'{r.group(1)} has no documentation comment above it')
            columns = [c.strip() for c in r.group(3).split(',')]
            if len(columns) != 4:
                fail(path, where, f'{r.group(1)}: expected n_in, compute, dtypes, flops after the nick')
            doc = doc + [f'FLOPs: {flops_text(path, where, columns[3])}.']
            rows.append((r.group(1), r.group(2), where, doc))
            doc = None
        if m is None:
            break
        body = comment_lines(m.group(1))
        if body and body[0] == 'GnnBackendOp:':
            type_doc, doc = body[1:], None
        else:
            doc = body
        pos = m.end()
    if type_doc is None:
        fail(path, 1, 'no "/* GnnBackendOp:" comment with the documentation of the enum')
    return rows, type_doc


def main():
    src, dst = sys.argv[1], sys.argv[2]
    rows, type_doc = parse(src)
    seen = set()
    for name, nick, line, _ in rows:
        if name in seen or nick in seen:
            fail(src, line, f'{name} ({nick}) appears twice')
        seen.update((name, nick))
        if nick != name.lower().replace('_', '-'):
            fail(src, line, f'the nick of {name} must be "{name.lower().replace("_", "-")}", not "{nick}"')
    out = ['/* gnn-backend-ops.h: the GnnBackendOp enum, written by gnn/backend/gen-backend-ops-h.py',
           ' * from gnn/backend/gnn-backend-ops.def: edit that table, not this file',
           ' *',
           ' * SPDX-License-Identifier: LGPL-2.1-or-later',
           ' */',
           '#pragma once',
           '',
           '#if !defined (GNN_INSIDE) && !defined (GNN_COMPILATION)',
           '#error "Only <gnn/gnn.h> can be included directly."',
           '#endif',
           '',
           '#include <glib.h>',
           '',
           'G_BEGIN_DECLS',
           '',
           '/**',
           ' * GnnBackendOp:']
    for name, _, _, doc in rows + [('N_OPS', None, 0, ['the number of ops in this version of the interface'])]:
        out.append(f' * @GNN_BACKEND_OP_{name}: {doc[0]}')
        out += [f' *   {l}' if l else ' *' for l in doc[1:]]
    out.append(' *')
    out += [f' * {l}' if l else ' *' for l in type_doc]
    out.append(' */')
    out.append('typedef enum {')
    out += [f'  GNN_BACKEND_OP_{name},' for name, _, _, _ in rows]
    out.append('  GNN_BACKEND_OP_N_OPS')
    out.append('} GnnBackendOp;')
    out += ['', 'G_END_DECLS', '']
    with open(dst, 'w', encoding='utf-8') as f:
        f.write('\n'.join(out))


if __name__ == '__main__':
    main()
