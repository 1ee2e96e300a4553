#!/usr/bin/python3
"""The uninstalled build as doc/running-uninstalled.md describes it: `meson devenv -C BUILD`
alone, from an environment without any variable of the test harness, gives Python the
build's gnn with its overrides (Gnn.Linear (4, 2)), gjs the build's typelib, the reference
backend through GNN_BACKEND_PATH, and C the build's flags through the uninstalled pkg-config
file (examples/c/custom-module.c compiles and runs).

    check-devenv.py BUILD_DIR SOURCE_DIR

SPDX-License-Identifier: LGPL-2.1-or-later
"""
import os
import subprocess
import sys
import tempfile


def main():
    build, source = (os.path.abspath(a) for a in sys.argv[1:3])
    env = {'PATH': '/usr/bin:/bin', 'HOME': os.environ.get('HOME', '/tmp'), 'LANG': 'C.UTF-8'}
    failed = []

    def devenv(name, *cmd, check=None):
        p = subprocess.run(['meson', 'devenv', '-C', build] + list(cmd), env=env, cwd=tmp,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=300)
        ok = p.returncode == 0 and (check is None or check in p.stdout)
        print('%s %s' % ('ok' if ok else 'FAILED', name))
        if not ok:
            print(p.stdout)
            failed.append(name)
        return p.stdout

    with tempfile.TemporaryDirectory(prefix='gnn-devenv-') as tmp:
        devenv('python: the overrides', '/usr/bin/python3', '-c',
               'import gi; gi.require_version("Gnn", "1.0"); from gi.repository import Gnn; '
               'print(type(Gnn.Linear(4, 2)).__module__)', check='gi.overrides.Gnn')
        devenv('python: the overrides of the source tree', '/usr/bin/python3', '-c',
               'import sys, gi; gi.require_version("Gnn", "1.0"); from gi.repository import Gnn; '
               'print(sys.modules["gi.overrides.Gnn"].__file__)',
               check=os.path.join(source, 'introspection', 'gi', 'overrides', 'Gnn.py'))
        devenv('gjs', 'gjs', '-c',
               'imports.gi.versions.Gnn = "1.0"; const Gnn = imports.gi.Gnn; '
               'print(Gnn.Linear.new(4, 2, true).get_parameter("weight").get_numel());', check='8')
        devenv('the reference backend', '/usr/bin/python3', '-c',
               'import os; os.environ["GNN_BACKEND"] = "reference"; import gi; '
               'gi.require_version("Gnn", "1.0"); from gi.repository import Gnn; '
               'print(Gnn.Tensor.new_ones([2], Gnn.Dtype.FLOAT32, None).sum_all().item())', check='2.0')
        exe = os.path.join(tmp, 'custom-module-c')
        devenv('C: pkg-config gnn-1.0 of the build', 'sh', '-c',
               'cc -o "$1" "$2" $(pkg-config --cflags --libs gnn-1.0) -lm && "$1"', 'cc', exe,
               os.path.join(source, 'examples', 'c', 'custom-module.c'), check='loss0 ')
    print('%d failed' % len(failed) if failed else 'all passed')
    sys.exit(1 if failed else 0)


if __name__ == '__main__':
    main()
