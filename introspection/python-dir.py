#!/usr/bin/python3
"""Where the PyGObject overrides go for a prefix: asks the target interpreter (this one).

    python-dir.py PREFIX

Prints two lines: the folder, and "searched" when the interpreter already looks there (an entry
of its sys.path under PREFIX, such as Debian's /usr/lib/python3/dist-packages for /usr or
/usr/local/lib/python3.11/dist-packages for /usr/local), or "not-searched" when it does not (a
private prefix: the folder is then the interpreter's own purelib for that prefix, and PYTHONPATH
has to name it).

SPDX-License-Identifier: LGPL-2.1-or-later
"""
import os
import sys
import sysconfig


def searched_dir(prefix):
    """The first folder of sys.path that is a site-packages or dist-packages of PREFIX's lib."""
    for entry in sys.path:
        if not entry or os.path.basename(entry) not in ('site-packages', 'dist-packages'):
            continue
        rel = os.path.relpath(os.path.abspath(entry), prefix)
        if rel.split(os.sep)[0].startswith('lib'):
            return entry
    return None


def main():
    if len(sys.argv) != 2:
        sys.exit('usage: python-dir.py PREFIX')
    prefix = os.path.abspath(sys.argv[1])
    found = searched_dir(prefix)
    if found:
        print(found)
        print('searched')
        return
    # the scheme of a plain "python -m pip install --prefix": PREFIX/lib/pythonX.Y/site-packages
    print(sysconfig.get_path('purelib', 'posix_prefix', vars={'base': prefix, 'platbase': prefix}))
    print('not-searched')


if __name__ == '__main__':
    main()
