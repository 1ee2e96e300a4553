#!/usr/bin/python3
"""gnn as a user gets it from an installed package: the same example program in C (through
pkg-config), Python, gjs and Vala, built and run against an installed tree alone.

    check-installed.py --build SOURCE_DIR
        configures SOURCE_DIR with `meson setup --prefix=$tmp` (no tests, no docs, no CUDA),
        builds and installs it, then checks $tmp as below; configures it for /usr and
        /usr/local too (without building) and checks that the Python overrides would go
        where /usr/bin/python3 searches
    check-installed.py --prefix PREFIX [--installed-as /usr]
        checks an installed tree; --installed-as names the prefix the tree was built for when it
        lies elsewhere (a Debian package unpacked into a temporary root: its pkg-config file
        says /usr, so a copy of it says PREFIX instead)

Every program runs in a scratch folder with an environment that holds only PATH, HOME, LANG and
the four variables a user of a private prefix sets: PKG_CONFIG_PATH, GI_TYPELIB_PATH,
LD_LIBRARY_PATH and PYTHONPATH, all under PREFIX (no build-tree path). The checks, as TAP:

  - pkg-config finds gnn-1.0 at the project's version, with flags under PREFIX;
  - examples/c/custom-module.c compiles with `pkg-config --cflags --libs gnn-1.0` and runs;
  - the Python overrides are where the interpreter finds them (Gnn.Linear (4, 2) works) and
    examples/python/custom-module.py runs;
  - examples/js/custom-module.js runs under gjs;
  - examples/vala/custom-module.vala compiles with valac --pkg gnn-1.0 and the VAPI folder that
    pkg-config names, and runs;
  - all four print the same line (examples/check-same-output.py);
  - each installed tool runs and has a man page;
  - gnn-viewer's desktop file and AppStream metainfo validate offline, its icons are there.

The Vala program is compiled as a user compiles it, with valac's availability check, which
compares each symbol's `Since:` version with `pkg-config --modversion`: a symbol documented as
newer than the package fails it (tests/doc/check-since.py checks the same in the build tree).

SPDX-License-Identifier: LGPL-2.1-or-later
"""
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

SOURCE = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..'))
PYTHON = '/usr/bin/python3'


class Tap:
    def __init__(self):
        self.n = 0
        self.failed = 0

    def result(self, ok, name, detail='', todo=None):
        self.n += 1
        line = '%s %d - %s' % ('ok' if ok else 'not ok', self.n, name)
        if todo:
            line += ' # TODO ' + todo
        elif not ok:
            self.failed += 1
        print(line, flush=True)
        if detail and (not ok or todo):
            for d in detail.rstrip().splitlines()[-40:]:
                print('#   ' + d)
        return ok

    def note(self, text):
        for line in text.splitlines():
            print('# ' + line, flush=True)

    def bail(self, text):
        print('Bail out! ' + text, flush=True)
        sys.exit(1)

    def done(self):
        print('1..%d' % self.n, flush=True)
        return 1 if self.failed else 0


def run(cmd, env, cwd, timeout=600):
    p = subprocess.run(cmd, env=env, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       text=True, timeout=timeout)
    return p.returncode, p.stdout


def clean_env(extra=None):
    """The environment of a user: no variable of the build tree or of the test harness."""
    env = {'PATH': '/usr/bin:/bin', 'HOME': os.environ.get('HOME', '/tmp'), 'LANG': 'C.UTF-8'}
    env.update(extra or {})
    return env


def build_and_install(tap, tmp):
    """meson setup --prefix=TMP/prefix; build; install. The prefix."""
    prefix = os.path.join(tmp, 'prefix')
    builddir = os.path.join(tmp, 'build')
    env = clean_env()
    for cmd in (['meson', 'setup', builddir, SOURCE, '--prefix=' + prefix, '--buildtype=debugoptimized',
                 '-Dtests=false', '-Ddocs=false', '-Dcuda=disabled'],
                ['ninja', '-C', builddir, '-j', '2'],
                ['meson', 'install', '-C', builddir, '--quiet']):
        status, out = run(cmd, env, tmp, timeout=1500)
        if not tap.result(status == 0, ' '.join(os.path.basename(c) if i == 0 else c
                                                for i, c in enumerate(cmd[:2])), out):
            tap.bail('cannot build and install into ' + prefix)
    return prefix


def check_system_prefixes(tap, tmp):
    """For /usr and /usr/local, configured only: the overrides go to a folder that the target
    interpreter searches (meson's own default for /usr/local, lib/python3/dist-packages, is
    not searched by Debian's /usr/bin/python3)."""
    status, out = run([PYTHON, '-c', 'import sys; print("\\n".join(sys.path))'], clean_env(), tmp)
    searched = set(out.split())
    for prefix in ('/usr', '/usr/local'):
        builddir = os.path.join(tmp, 'configured' + prefix.replace('/', '-'))
        status, out = run(['meson', 'setup', builddir, SOURCE, '--prefix=' + prefix, '-Dtests=false',
                           '-Ddocs=false', '-Dcuda=disabled'], clean_env(), tmp)
        if not tap.result(status == 0, 'meson setup --prefix=' + prefix, out):
            continue
        with open(os.path.join(builddir, 'meson-info', 'intro-installed.json')) as f:
            installed = json.load(f)
        overrides = [dest for dest in installed.values() if dest.endswith('/gi/overrides/Gnn.py')]
        folder = os.path.dirname(os.path.dirname(os.path.dirname(overrides[0]))) if overrides else None
        tap.result(folder in searched, 'with --prefix=%s the overrides go to %s, which %s searches'
                   % (prefix, folder, PYTHON), '\n'.join(overrides) + '\nsys.path: ' + ' '.join(sorted(searched)))


def relocated_pkgconfig(tap, pcdir, installed_as, prefix, tmp):
    """A copy of gnn-1.0.pc whose prefix is PREFIX, for a tree built for INSTALLED_AS."""
    out = os.path.join(tmp, 'pkgconfig')
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(pcdir, 'gnn-1.0.pc')) as f:
        text = f.read()
    if not re.search(r'^prefix=%s$' % re.escape(installed_as), text, re.M):
        tap.bail('gnn-1.0.pc does not say prefix=%s' % installed_as)
    with open(os.path.join(out, 'gnn-1.0.pc'), 'w') as f:
        f.write(re.sub(r'^prefix=.*$', 'prefix=' + prefix, text, count=1, flags=re.M))
    tap.note('gnn-1.0.pc says prefix=%s: its copy in %s says %s' % (installed_as, out, prefix))
    return out


def check(tap, prefix, tmp, installed_as=None):
    # PREFIX/lib/pkgconfig or a multiarch PREFIX/lib/x86_64-linux-gnu/pkgconfig
    pcs = sorted(glob.glob(os.path.join(prefix, 'lib*', 'pkgconfig', 'gnn-1.0.pc')) +
                 glob.glob(os.path.join(prefix, 'lib*', '*', 'pkgconfig', 'gnn-1.0.pc')))
    if len(pcs) != 1:
        tap.bail('expected one gnn-1.0.pc under %s, found %s' % (prefix, pcs or 'none'))
    pc = pcs[0]
    pcdir = os.path.dirname(pc)
    libdir = os.path.dirname(pcdir)
    typelib = os.path.join(libdir, 'girepository-1.0', 'Gnn-1.0.typelib')
    overrides = glob.glob(os.path.join(prefix, 'lib', 'python*', '*-packages', 'gi', 'overrides', 'Gnn.py'))
    tap.result(os.path.isfile(typelib), 'the typelib is in ' + os.path.dirname(typelib))
    if not tap.result(len(overrides) == 1, 'the Python overrides are in one folder of the prefix',
                      '\n'.join(overrides) or 'none found'):
        tap.bail('no Python overrides')
    pythonpath = os.path.dirname(os.path.dirname(os.path.dirname(overrides[0])))
    if installed_as:
        pcdir = relocated_pkgconfig(tap, pcdir, installed_as, prefix, tmp)
    env = clean_env({
        'PKG_CONFIG_PATH': pcdir,
        'GI_TYPELIB_PATH': os.path.dirname(typelib),
        'LD_LIBRARY_PATH': libdir,
        'PYTHONPATH': pythonpath,
    })
    tap.note('\n'.join('%s=%s' % kv for kv in sorted(env.items()) if kv[0] != 'PATH'))
    for value in env.values():
        if value.startswith(prefix) or value.startswith(tmp):
            continue
        if SOURCE in value:
            tap.bail('a path of the source tree in the environment: ' + value)
    work = os.path.join(tmp, 'work')
    os.makedirs(work, exist_ok=True)

    # pkg-config
    with open(os.path.join(SOURCE, 'meson.build')) as f:
        version = re.search(r"version:\s*'([^']+)'", f.read()).group(1)
    status, out = run(['pkg-config', '--modversion', 'gnn-1.0'], env, work)
    tap.result(status == 0 and out.strip() == version, 'pkg-config --modversion gnn-1.0 is ' + version, out)
    status, flags = run(['pkg-config', '--cflags', '--libs', 'gnn-1.0'], env, work)
    own = [f for f in flags.split() if f.startswith(('-I', '-L')) and 'gnn' in f]
    tap.result(status == 0 and own and all(f[2:].startswith(prefix) for f in own),
               'its -I and -L flags are under the prefix', flags)
    status, vapidir = run(['pkg-config', '--variable=vapidir', 'gnn-1.0'], env, work)
    vapidir = vapidir.strip()
    tap.result(status == 0 and os.path.isfile(os.path.join(vapidir, 'gnn-1.0.vapi')),
               'pkg-config --variable=vapidir names the folder of gnn-1.0.vapi', vapidir)

    programs = []
    # C
    exe = os.path.join(work, 'custom-module-c')
    status, out = run(['sh', '-c', 'cc -o "$1" "$2" $(pkg-config --cflags --libs gnn-1.0) -lm', 'cc', exe,
                       os.path.join(SOURCE, 'examples', 'c', 'custom-module.c')], env, work)
    if tap.result(status == 0, 'C: cc $(pkg-config --cflags --libs gnn-1.0) examples/c/custom-module.c', out):
        status, out = run([exe], env, work)
        if tap.result(status == 0, 'C: the program runs', out):
            programs.append(('c', [exe]))

    # Python
    status, out = run([PYTHON, '-c', 'import gi; gi.require_version("Gnn", "1.0"); '
                       'from gi.repository import Gnn; '
                       'm = Gnn.Linear(4, 2); print(type(m).__module__, m.weight.shape)'], env, work)
    tap.result(status == 0 and 'gi.overrides.Gnn' in out, 'Python: the overrides load (Gnn.Linear (4, 2))', out)
    status, out = run([PYTHON, '-c', 'import gnn as torch; from gnn import nn; '
                       'print(tuple(nn.Linear(4, 2).weight.shape), torch.nn.functional.__name__)'], env, work)
    tap.result(status == 0 and '(2, 4) gnn.nn.functional' in out,
               'Python: the torch-style package loads (import gnn as torch; from gnn import nn)', out)
    script = os.path.join(SOURCE, 'examples', 'python', 'custom-module.py')
    status, out = run([PYTHON, script], env, work)
    if tap.result(status == 0, 'Python: examples/python/custom-module.py runs', out):
        programs.append(('python', [PYTHON, script]))

    # gjs
    gjs = shutil.which('gjs', path=env['PATH'])
    script = os.path.join(SOURCE, 'examples', 'js', 'custom-module.js')
    status, out = run([gjs, '-m', script], env, work) if gjs else (1, 'gjs is not installed')
    if tap.result(status == 0, 'gjs: examples/js/custom-module.js runs', out):
        programs.append(('js', [gjs, '-m', script]))

    # Vala, as a user compiles it; then without the availability check while it fails
    valac = shutil.which('valac', path=env['PATH'])
    source = os.path.join(SOURCE, 'examples', 'vala', 'custom-module.vala')
    exe = os.path.join(work, 'custom-module-vala')
    base = [valac, '--vapidir=' + vapidir, '--pkg', 'gnn-1.0', '-X', '-lm', '-o', exe, source]
    status, out = run(base, env, work) if valac else (1, 'valac is not installed')
    tap.result(status == 0, 'Vala: valac --pkg gnn-1.0 examples/vala/custom-module.vala', out)
    if status == 0:
        status, out = run([exe], env, work)
        if tap.result(status == 0, 'Vala: the program runs', out):
            programs.append(('vala', [exe]))

    # the four lines are equal
    same = [PYTHON, os.path.join(SOURCE, 'examples', 'check-same-output.py')]
    for name, cmd in programs:
        same += ['--', name] + cmd
    status, out = run(same, env, work) if len(programs) == 4 else (1, 'not all four programs ran')
    tap.result(status == 0, 'the four programs print the same line', out)
    if status == 0:
        tap.note(out)

    # the tools and their man pages
    for tool in ('gnn-train', 'gnn-viewer'):
        path = os.path.join(prefix, 'bin', tool)
        if not os.path.exists(path):
            if tool == 'gnn-viewer':
                tap.note('gnn-viewer is not installed (built only with GTK 4 and libadwaita)')
                continue
        status, out = run([path, '--help'], env, work)
        tap.result(status == 0 and 'Usage' in out, '%s --help runs' % tool, out)
        # a package compresses it
        mans = [m for m in (os.path.join(prefix, 'share', 'man', 'man1', tool + '.1' + z) for z in ('', '.gz'))
                if os.path.isfile(m)]
        man = mans[0] if mans else os.path.join(prefix, 'share', 'man', 'man1', tool + '.1')
        status, out = run(['man', '--warnings', '-l', man], dict(env, MANWIDTH='80'), work) \
            if mans else (1, 'no ' + man)
        tap.result(status == 0 and tool.upper() in out and 'EXIT STATUS' in out and 'warning' not in out,
                   '%s has a man page that man formats without warnings' % tool, out)

    # gnn-viewer's desktop file, AppStream metainfo and icons, validated offline
    if os.path.exists(os.path.join(prefix, 'bin', 'gnn-viewer')):
        share = os.path.join(prefix, 'share')
        desktop = os.path.join(share, 'applications', 'org.gnn.Viewer.desktop')
        status, out = run(['desktop-file-validate', desktop], env, work) if os.path.isfile(desktop) \
            else (1, 'no ' + desktop)
        tap.result(status == 0 and 'error' not in out, 'the desktop file validates', out)
        metainfo = os.path.join(share, 'metainfo', 'org.gnn.Viewer.metainfo.xml')
        status, out = run(['appstreamcli', 'validate', '--no-net', metainfo], env, work) \
            if os.path.isfile(metainfo) else (1, 'no ' + metainfo)
        tap.result(status == 0, 'the AppStream metainfo validates (appstreamcli validate --no-net)', out)
        icons = [os.path.join(share, 'icons', 'hicolor', 'scalable', 'apps', 'org.gnn.Viewer.svg'),
                 os.path.join(share, 'icons', 'hicolor', 'symbolic', 'apps', 'org.gnn.Viewer-symbolic.svg')]
        tap.result(all(os.path.isfile(i) for i in icons), 'the icons are in the hicolor theme',
                   '\n'.join(i for i in icons if not os.path.isfile(i)))


def main():
    args = sys.argv[1:]
    tap = Tap()
    tmp = tempfile.mkdtemp(prefix='gnn-install-')
    try:
        if len(args) == 2 and args[0] == '--build':
            global SOURCE
            SOURCE = os.path.abspath(args[1])
            check_system_prefixes(tap, tmp)
            prefix = build_and_install(tap, tmp)
            check(tap, prefix, tmp)
        elif len(args) in (2, 4) and args[0] == '--prefix':
            installed_as = args[3] if len(args) == 4 and args[2] == '--installed-as' else None
            if len(args) == 4 and installed_as is None:
                sys.exit(__doc__)
            check(tap, os.path.abspath(args[1]), tmp, installed_as)
        else:
            sys.exit(__doc__)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    sys.exit(tap.done())


if __name__ == '__main__':
    main()
