#!/usr/bin/python3
# doc-check: every public symbol in the GIR carries documentation.
#
# Runs `gi-docgen check` (classes, functions, methods, properties, signals, enum
# members, parameters, return values) and then a stricter pass over the GIR XML
# for what gi-docgen check does not look at: virtual methods (with their
# parameters and return values), public fields of plain records, constants.
#
# It also renders every doc text as gi-docgen's Markdown does and fails on emphasis that was
# not meant (the asterisks of PyTorch's shape notation, `(*, in_features)`, paired as italics).
#
# With --content-dir, it also renders the whole reference (the guides of that folder included)
# with `gi-docgen generate --fatal-warnings` into a scratch folder, so that a link to a symbol
# that does not exist fails too.
#
# usage: check-gir-docs.py GIRFILE [--gi-docgen PATH] [--config TOML] [--content-dir DIR]
import argparse
import subprocess
import sys
import xml.etree.ElementTree as ET

CORE = '{http://www.gtk.org/introspection/core/1.0}'
GLIB = '{http://www.gtk.org/introspection/glib/1.0}'
C = '{http://www.gtk.org/introspection/c/1.0}'


def has_doc(el):
    doc = el.find(CORE + 'doc')
    return doc is not None and (doc.text or '').strip() != ''


def check_callable(path, el, problems):
    name = path + '.' + el.get('name')
    if not has_doc(el):
        problems.append(f"{el.tag.replace(CORE, '').replace(GLIB, '')} '{name}' is not documented")
    params = el.find(CORE + 'parameters')
    if params is not None:
        for p in params.findall(CORE + 'parameter'):
            if not has_doc(p):
                problems.append(f"parameter '{p.get('name')}' of '{name}' is not documented")
    ret = el.find(CORE + 'return-value')
    if ret is not None:
        t = ret.find(CORE + 'type')
        void = t is not None and t.get('name') == 'none'
        if not void and not has_doc(ret):
            problems.append(f"return value of '{name}' is not documented")


def check_gir(path):
    tree = ET.parse(path)
    ns = tree.getroot().find(CORE + 'namespace')
    nsname = ns.get('name')
    problems = []
    for el in ns:
        tag = el.tag.replace(CORE, '').replace(GLIB, '')
        name = el.get('name')
        if name is None or el.get('moved-to'):
            # moved-to: a namespace-level copy of a function shown on its type
            continue
        full = nsname + '.' + name
        if tag == 'record' and el.get(GLIB + 'is-gtype-struct-for'):
            # class structs: their virtual functions are checked as
            # <virtual-method> on the class; parent_class needs no doc
            continue
        if tag in ('function', 'callback', 'function-macro'):
            check_callable(nsname, el, problems)
            continue
        if not has_doc(el):
            problems.append(f"{tag} '{full}' is not documented")
        if tag in ('enumeration', 'bitfield'):
            for m in el.findall(CORE + 'member'):
                if not has_doc(m):
                    problems.append(f"member '{full}.{m.get('name')}' is not documented")
        for sub in el:
            stag = sub.tag.replace(CORE, '').replace(GLIB, '')
            if stag in ('constructor', 'method', 'function', 'virtual-method', 'signal'):
                check_callable(full, sub, problems)
            elif stag == 'property':
                if not has_doc(sub):
                    problems.append(f"property '{full}:{sub.get('name')}' is not documented")
            elif stag == 'field' and tag in ('record', 'union'):
                fname = sub.get('name')
                if sub.get('private') == '1' or fname.startswith('_') or 'padding' in fname \
                        or 'reserved' in fname:
                    continue
                if not has_doc(sub):
                    problems.append(f"field '{full}.{fname}' is not documented")
    return problems


def accidental_emphasis(path):
    """Doc texts where Markdown (Python-Markdown, as gi-docgen renders them) turns a literal
    asterisk or underscore into emphasis: PyTorch's shape notation `(*, in_features)` twice in
    a paragraph renders as italics. Emphasis meant as such wraps words (`*word*`); what starts
    or ends with a space or punctuation was not meant. Write shapes as code (backticks)."""
    import re
    try:
        import markdown
    except ImportError:
        return ['python3-markdown (a dependency of gi-docgen) is missing: cannot check emphasis']
    problems = []
    tree = ET.parse(path)
    for el in tree.iter(CORE + 'doc'):
        text = el.text or ''
        if '*' not in text and '_' not in text:
            continue
        html = markdown.markdown(text, extensions=['fenced_code', 'tables'])
        for m in re.finditer(r'<(em|strong)>(.*?)</\1>', html, re.S):
            inner = re.sub(r'<[^>]+>', '', m.group(2))
            if not re.match(r'^\w(.*\w)?$', inner, re.S):
                problems.append('%s:%s renders "%s" as <%s>: write it as code (`...`) or escape the '
                                'asterisk' % (el.get('filename'), el.get('line'),
                                              ' '.join(inner.split())[:60], m.group(1)))
    return problems


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('gir')
    ap.add_argument('--gi-docgen', default=None)
    ap.add_argument('--config', default=None)
    ap.add_argument('--content-dir', default=None,
                    help='also render the reference with these guides, failing on any warning')
    args = ap.parse_args()

    failed = False
    if args.gi_docgen:
        cmd = [args.gi_docgen, 'check']
        if args.config:
            cmd += ['--config', args.config]
        cmd += [args.gir]
        r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        out = r.stdout
        warnings = [l for l in out.splitlines() if 'WARNING' in l or 'ERROR' in l]
        for line in warnings:
            print('gi-docgen check:', line)
        if r.returncode != 0 or warnings:
            print(f'gi-docgen check failed (exit {r.returncode}, {len(warnings)} warnings)')
            failed = True

    if args.gi_docgen and args.content_dir:
        # render the whole reference, guides included, into a scratch folder: a link to a
        # symbol that does not exist ([method@Gnn.Foo.bar]) is a warning, and fails the test
        import os
        import tempfile
        with tempfile.TemporaryDirectory(prefix='gnn-doc-check-') as out:
            cmd = [args.gi_docgen, 'generate', '--quiet', '--fatal-warnings',
                   '--add-include-path', os.path.dirname(os.path.abspath(args.gir)),
                   '--output-dir', out, '--no-namespace-dir', '--content-dir', args.content_dir]
            if args.config:
                cmd += ['--config', args.config]
            cmd += [args.gir]
            r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        if r.returncode != 0:
            for line in r.stdout.splitlines():
                print('gi-docgen generate:', line)
            print(f'gi-docgen generate failed (exit {r.returncode}): a broken link or markup')
            failed = True

    problems = check_gir(args.gir)
    for p in problems:
        print('GIR:', p)
    if problems:
        print(f'{len(problems)} undocumented symbols in {args.gir}')
        failed = True

    emphasis = accidental_emphasis(args.gir)
    for p in emphasis:
        print('markup:', p)
    if emphasis:
        print(f'{len(emphasis)} doc texts with accidental emphasis in {args.gir}')
        failed = True

    if failed:
        return 1
    print('all public symbols documented')
    return 0


if __name__ == '__main__':
    sys.exit(main())
