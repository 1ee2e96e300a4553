#!/usr/bin/python3
# gen-pytorch-names.py: writes the generated part of doc/pytorch-names.md
#
# The page keeps its hand-written part (everything down to the MARK line: the C names beside
# the PyTorch ones) and gets, below it, two lists written from the sources that the tests
# check: every row of the table of torch names (introspection/gi/overrides/_gnn/names.py: the
# gnn name, or the reason gnn lacks it) and every snippet of tests/python/torch_spellings.py
# (the spellings of PyTorch's "Learn the Basics" tutorials and of the Modules note: whether
# gnn runs it, or why not yet). Neither file needs gnn or torch to be read.
#
# usage: tools/gen-pytorch-names.py            rewrites doc/pytorch-names.md
#        tools/gen-pytorch-names.py --check    exits 1 if the page is not what it would write
#                                              (test_torch_spellings runs this)
#
# SPDX-License-Identifier: LGPL-2.1-or-later
import argparse
import importlib.util
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PAGE = os.path.join(ROOT, 'doc', 'pytorch-names.md')
MARK = ('<!-- Below this line the page is written by tools/gen-pytorch-names.py from the table of '
        'torch names and from tests/python/torch_spellings.py: edit those, not this. -->')


def load(name, path):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def gnn_spelling(namespace, name):
    """How the name reads with the package gnn: import gnn as torch, from gnn import nn, ..."""
    if namespace == 'torch.Tensor':
        return 't.' + name
    if namespace.startswith('torchvision'):
        return 'gnn.vision' + namespace[len('torchvision'):] + '.' + name
    return 'gnn' + namespace[len('torch'):] + '.' + name


def names_part(names):
    lines = ['## Every torch name gnn knows', '',
             'One row a torch spelling, from the table in `gi/overrides/_gnn/names.py` '
             '(`import gnn as torch` gives these names; the `Gnn` column is the same object in '
             '`gi.repository.Gnn`). A name gnn lacks raises an `AttributeError` that gives the '
             'reason shown here.', '']
    for namespace in names.namespaces():
        rows = list(names.rows(namespace))
        have = sum(1 for _, target in rows if not isinstance(target, names.Missing))
        lines += ['### `%s`' % namespace, '',
                  '%d of %d names.' % (have, len(rows)), '',
                  '| torch | gnn | Gnn | status |', '|-------|-----|-----|--------|']
        for name, target in rows:
            spelling = '`%s.%s`' % (namespace, name)
            if isinstance(target, names.Missing):
                lines.append('| %s | | | missing: %s |' % (spelling, target.why.replace('|', '\\|')))
            else:
                lines.append('| %s | `%s` | `%s` | yes |' % (spelling, gnn_spelling(namespace, name), target))
        lines.append('')
    return lines


def spellings_part(spellings):
    lines = ['## The spellings of "Learn the Basics" and of the Modules note', '',
             'Each snippet runs in `tests/python/test_torch_spellings.py` with `torch` bound to gnn '
             '(`import gnn as torch`, `from gnn import nn`) and to PyTorch, and the results are '
             'compared; one that gnn cannot run yet is checked to fail as stated here, so that a '
             'fix shows up. `gnn_or_torch` and `gnn_or_torchvision` stand for `gnn` / `torch` and '
             '`gnn.vision` / `torchvision`.', '']
    total = len(spellings.SNIPPETS)
    runs = sum(1 for _, _, expected in spellings.SNIPPETS if expected is spellings.RUNS)
    lines += ['%d of %d snippets run on gnn.' % (runs, total), '']
    tutorial = None
    for part, code, expected in spellings.SNIPPETS:
        if part != tutorial:
            tutorial = part
            lines += ['### %s' % part, '']
        if expected is spellings.RUNS:
            lines.append('- runs on gnn as on PyTorch:')
        else:
            lines.append('- not yet on gnn (%s: %s):' % (expected.exception, expected.why))
        lines += ['', '  ```python fragment'] + ['  ' + line for line in code.split('\n')] + ['  ```', '']
    return lines


def render(current):
    head, mark, _ = current.partition(MARK)
    if not mark:
        raise SystemExit('%s has no generated part: its hand-written part must end with the line\n%s'
                         % (PAGE, MARK))
    names = load('gnn_torch_names', os.path.join(ROOT, 'introspection', 'gi', 'overrides', '_gnn', 'names.py'))
    spellings = load('torch_spellings', os.path.join(ROOT, 'tests', 'python', 'torch_spellings.py'))
    body = names_part(names) + spellings_part(spellings)
    return head + MARK + '\n\n' + '\n'.join(body).rstrip('\n') + '\n'


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument('--check', action='store_true', help='exit 1 if the page is stale')
    opts = ap.parse_args()
    with open(PAGE, encoding='utf-8') as f:
        current = f.read()
    wanted = render(current)
    if opts.check:
        if wanted != current:
            print('%s is stale: run tools/gen-pytorch-names.py' % os.path.relpath(PAGE, ROOT))
            return 1
        return 0
    if wanted != current:
        with open(PAGE, 'w', encoding='utf-8') as f:
            f.write(wanted)
    return 0


if __name__ == '__main__':
    sys.exit(main())
