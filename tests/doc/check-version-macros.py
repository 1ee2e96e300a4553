#!/usr/bin/python3
"""version-macros: GNN_VERSION_MIN_REQUIRED and GNN_VERSION_MAX_ALLOWED work as GLib's do.

Compiles small programs with -Werror against the build tree's headers: a program using 0.1's API
compiles with the defaults and with either macro set to GNN_VERSION_0_1; GNN_VERSION_MIN_REQUIRED
above GNN_VERSION_MAX_ALLOWED is an #error; a symbol marked GNN_DEPRECATED_IN_0_1 warns once
GNN_VERSION_MIN_REQUIRED is 0.1; a symbol marked GNN_UNAVAILABLE (0, 3), the form the
GNN_AVAILABLE_IN_x_y of a version newer than GNN_VERSION_MAX_ALLOWED takes, warns (0.1 is the
first version, so no symbol of gnn's own is unavailable yet).

usage: check-version-macros.py SOURCE_ROOT BUILD_ROOT CC [CC ARGUMENTS...]

SPDX-License-Identifier: LGPL-2.1-or-later
"""
import os
import shlex
import subprocess
import sys
import tempfile

USES_0_1 = '''
#include <gnn/gnn.h>
int main (void) { return GNN_VERSION_CUR_STABLE >= GNN_VERSION_0_1 && gnn_get_num_threads () > 0 ? 0 : 1; }
'''
DEPRECATED = '''
#include <gnn/gnn.h>
GNN_DEPRECATED_IN_0_1 int old_api (void);
int old_api (void) { return 0; }
int main (void) { return old_api (); }
'''
UNAVAILABLE = '''
#include <gnn/gnn.h>
GNN_UNAVAILABLE (0, 3) int new_api (void);
int new_api (void) { return 0; }
int main (void) { return new_api (); }
'''


def compile_(cc, flags, code, tmp, name):
    src = os.path.join(tmp, name + '.c')
    with open(src, 'w') as f:
        f.write(code)
    cmd = cc + ['-c', '-Werror', '-o', os.path.join(tmp, name + '.o'), src] + flags
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    return r.returncode, r.stdout


def main():
    # the compiler is a command, possibly of several words (meson's 'ccache cc')
    src, build, cc = sys.argv[1], sys.argv[2], sys.argv[3:]
    glib = shlex.split(subprocess.run(['pkg-config', '--cflags', 'gobject-2.0', 'gio-2.0'], check=True,
                                      stdout=subprocess.PIPE, text=True).stdout)
    flags = ['-I' + src, '-I' + build, '-I' + os.path.join(src, 'gnn'), '-I' + os.path.join(build, 'gnn')] + glib
    cases = [
        ('the defaults', [], USES_0_1, True, ''),
        ('GNN_VERSION_MAX_ALLOWED=GNN_VERSION_0_1', ['-DGNN_VERSION_MAX_ALLOWED=GNN_VERSION_0_1'], USES_0_1, True, ''),
        ('GNN_VERSION_MIN_REQUIRED=GNN_VERSION_0_1', ['-DGNN_VERSION_MIN_REQUIRED=GNN_VERSION_0_1'], USES_0_1, True, ''),
        ('MIN_REQUIRED above MAX_ALLOWED is an #error',
         ['-DGNN_VERSION_MIN_REQUIRED=GNN_ENCODE_VERSION(0,3)', '-DGNN_VERSION_MAX_ALLOWED=GNN_VERSION_0_1'],
         USES_0_1, False, 'GNN_VERSION_MAX_ALLOWED must be >= GNN_VERSION_MIN_REQUIRED'),
        ('a symbol deprecated in 0.1 warns with MIN_REQUIRED=0.1',
         ['-DGNN_VERSION_MIN_REQUIRED=GNN_VERSION_0_1'], DEPRECATED, False, 'deprecated'),
        ('a symbol not available yet warns', [], UNAVAILABLE, False, 'Not available before 0.3'),
    ]
    failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        for k, (name, extra, code, should_build, message) in enumerate(cases, 1):
            status, out = compile_(cc, flags + extra, code, tmp, 'case%d' % k)
            ok = (status == 0) == should_build and (should_build or message in out)
            print('%s %d - %s' % ('ok' if ok else 'not ok', k, name))
            if not ok:
                failed += 1
                print('\n'.join('# ' + l for l in out.splitlines()[-20:]))
    print('1..%d' % len(cases))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
