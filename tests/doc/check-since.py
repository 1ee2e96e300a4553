#!/usr/bin/python3
"""since-check: no public symbol says it is newer than the project.

Every `Since:` line of the library's documentation (in the GIR, the `version` and
`deprecated-version` of each symbol; in the sources, the tags of symbols the GIR leaves out,
such as macros) must name a version no newer than the project's, as valac checks against the
installed package (`pkg-config --modversion`). A symbol documented `Since: 1.0` in a 0.1.0
package is refused by valac; this test fails first.

usage: check-since.py PROJECT_VERSION GIR SOURCE_DIR...

SPDX-License-Identifier: LGPL-2.1-or-later
"""
import os
import re
import sys
import xml.etree.ElementTree as ET

CORE = '{http://www.gtk.org/introspection/core/1.0}'
# elements whose version attribute is not a symbol's Since:
NOT_SYMBOLS = {CORE + 'repository', CORE + 'namespace', CORE + 'include', CORE + 'package'}
SINCE = re.compile(r'^\s*\*\s*Since:\s*([0-9][0-9.]*)\s*$', re.M)


def parse(version):
    return tuple(int(p) for p in version.split('.'))


def main():
    project, gir, sources = sys.argv[1], sys.argv[2], sys.argv[3:]
    limit = parse(project)[:2]
    bad = []
    n = 0
    for el in ET.parse(gir).iter():
        if el.tag in NOT_SYMBOLS:
            continue
        for attr in ('version', 'deprecated-version'):
            v = el.get(attr)
            if v is None:
                continue
            n += 1
            if parse(v)[:2] > limit:
                bad.append('%s %s: %s="%s"' % (el.tag.replace(CORE, ''), el.get('name'), attr, v))
    for top in sources:
        for root, _, files in os.walk(top):
            for name in sorted(files):
                if not name.endswith(('.c', '.h', '.cu', '.h.in')):
                    continue
                path = os.path.join(root, name)
                text = open(path, encoding='utf-8').read()
                for m in SINCE.finditer(text):
                    n += 1
                    if parse(m.group(1))[:2] > limit:
                        line = text.count('\n', 0, m.start()) + 1
                        bad.append('%s:%d: Since: %s' % (path, line, m.group(1)))
    for b in bad:
        print('newer than the project version %s: %s' % (project, b))
    print('%d Since: versions read, %d newer than %s' % (n, len(bad), project))
    if n == 0:
        print('no Since: version found: the GIR or the sources were not read')
        return 1
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
