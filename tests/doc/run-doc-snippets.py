#!/usr/bin/python3
# doc-snippets: extract the ```c and ```python blocks of the guides and run them.
#
# A C block with a main () is compiled as it is (with <gnn/gnn.h> included); a block without
# one is wrapped in
#   #include <gnn/gnn.h>  int main (void) { g_autoptr(GError) error = NULL; BLOCK return 0; }
# its leading #include lines kept at file scope.
# A Python block runs as its own program. A block right after the line
#   <!-- doc-snippets: fragment -->
# (an HTML comment, invisible in the rendered page) is shown, not run; so is one whose info
# string says `fragment` (```c fragment), though gi-docgen's Markdown does not render those.
# A C block right after
#   <!-- doc-snippets: module NAME -->
# is compiled as a loadable backend module libNAME.so, into a folder that the blocks after it
# find through GNN_BACKEND_PATH. ```js blocks run with gjs -m and
# ```vala blocks are compiled with valac against the build's VAPI when --gjs / --valac are
# given (a Vala block without main () is wrapped in one, inside try / catch). Other
# languages (sh, meson) are not run.
#
# usage: run-doc-snippets.py --cc CC --build-root B --source-root S [--no-python] GUIDE.md...
import argparse
import os
import re
import shlex
import subprocess
import sys
import tempfile

FRAGMENT_MARK = '<!-- doc-snippets: fragment -->'
MODULE_MARK = re.compile(r'^<!-- doc-snippets: module ([A-Za-z0-9_-]+) -->$')
FENCE = re.compile(r'^```([^\n`]*)\n(.*?)^```[ \t]*$', re.M | re.S)


def blocks(path):
    text = open(path, encoding='utf-8').read()
    for m in FENCE.finditer(text):
        info = m.group(1).strip().split()
        lang = info[0] if info else ''
        line = text.count('\n', 0, m.start()) + 1
        flags = info[1:]
        before = text[:m.start()].rstrip().rsplit('\n', 1)[-1].strip()
        if before == FRAGMENT_MARK:
            flags.append('fragment')
        mm = MODULE_MARK.match(before)
        if mm:
            flags.append('module=' + mm.group(1))
        yield lang, flags, m.group(2), line


def pkg_config(*args):
    out = subprocess.run(['pkg-config'] + list(args), check=True, stdout=subprocess.PIPE, text=True)
    return shlex.split(out.stdout)


def write_source(tmp, name, code):
    src = os.path.join(tmp, name)
    with open(src, 'w') as f:
        f.write(code)
    return src


def failure(what, cmd, code, **kwargs):
    """runs cmd: None when it exits with 0, else what failed ("exit N" when what is None), its
    output and the block's code"""
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, **kwargs)
    if r.returncode == 0:
        return None
    return f'{what or f"exit {r.returncode}"}:\n{r.stdout}\n--- code ---\n{code}'


def cc_command(opts, args, pkgs, link):
    """opts.cc with args, compiling against the build's gnn and pkgs, linking link after -lgnn-1.0"""
    b, s = opts.build_root, opts.source_root
    return (shlex.split(opts.cc) + ['-std=gnu11', '-Wall', '-Werror=implicit-function-declaration',
             '-Werror=incompatible-pointer-types', '-Werror=return-type'] + args
            + ['-I' + s, '-I' + b, '-I' + os.path.join(s, 'gnn'), '-I' + os.path.join(b, 'gnn')]
            + pkg_config('--cflags', *pkgs)
            + ['-L' + os.path.join(b, 'gnn'), '-lgnn-1.0'] + link
            + pkg_config('--libs', *pkgs))


def run_c(opts, code, where, tmp, n):
    if not re.search(r'^\s*int\s+main\s*\(', code, re.M):
        # leading #include lines stay at file scope
        lines = code.splitlines()
        includes = []
        while lines and (lines[0].startswith('#include') or not lines[0].strip()):
            includes.append(lines.pop(0))
        body = '\n'.join('  ' + l for l in lines)
        code = ('#include <gnn/gnn.h>\n' + '\n'.join(includes) + '\n\nint\nmain (void)\n{\n'
                '  g_autoptr(GError) error = NULL;\n\n' + body + '\n  return 0;\n}\n')
    elif '#include <gnn/gnn.h>' not in code:
        code = '#include <gnn/gnn.h>\n' + code
    src = write_source(tmp, f'snippet{n}.c', code)
    exe = os.path.join(tmp, f'snippet{n}')
    cmd = cc_command(opts, ['-o', exe, src], ['gobject-2.0', 'gio-2.0'],
                     ['-Wl,-rpath,' + os.path.join(opts.build_root, 'gnn')]) + ['-lm']
    return (failure('compile failed', cmd, code) or
            failure(None, [exe], code, cwd=tmp, timeout=300))


def build_module(opts, code, name, modules_dir, tmp, n):
    """compiles a C block as a loadable module lib<name>.so into modules_dir"""
    src = write_source(tmp, f'{name}.c', code)
    cmd = cc_command(opts, ['-shared', '-fPIC', '-fvisibility=hidden',
                            '-o', os.path.join(modules_dir, f'lib{name}.so'), src],
                     ['gobject-2.0', 'gio-2.0', 'gmodule-2.0'], [])
    return failure('module compile failed', cmd, code)


def run_python(opts, code, where, tmp, n):
    src = write_source(tmp, f'snippet{n}.py', code)
    return failure(None, [sys.executable, src], code, cwd=tmp, timeout=300)


def run_js(opts, code, where, tmp, n):
    src = write_source(tmp, f'snippet{n}.js', code)
    return failure(None, [opts.gjs, '-m', src], code, cwd=tmp, timeout=300)


def run_vala(opts, code, where, tmp, n):
    if not re.search(r'^\s*(int|void)\s+main\s*\(', code, re.M):
        body = '\n'.join('        ' + l for l in code.splitlines())
        code = ('int main () {\n    try {\n' + body + '\n    } catch (Error e) {\n'
                '        printerr ("%s\\n", e.message);\n        return 1;\n    }\n    return 0;\n}\n')
    src = write_source(tmp, f'snippet{n}.vala', code)
    exe = os.path.join(tmp, f'snippet{n}')
    b, s = opts.build_root, opts.source_root
    cmd = [opts.valac, '--pkg', 'gnn-1.0', '--pkg', 'gio-2.0', '--vapidir', os.path.join(b, 'introspection'),
           '-X', '-I' + s, '-X', '-I' + b, '-X', '-I' + os.path.join(s, 'gnn'), '-X', '-I' + os.path.join(b, 'gnn'),
           '-X', '-w',
           '-X', '-L' + os.path.join(b, 'gnn'), '-X', '-lgnn-1.0', '-X', '-Wl,-rpath,' + os.path.join(b, 'gnn'),
           '-o', exe, src]
    return (failure('valac failed', cmd, code, cwd=tmp) or
            failure(None, [exe], code, cwd=tmp, timeout=300))


RUNNERS = {'c': run_c, 'python': run_python, 'js': run_js, 'vala': run_vala}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--cc', default='cc', help="the compiler command, possibly of several words ('ccache cc')")
    ap.add_argument('--build-root', required=True)
    ap.add_argument('--source-root', required=True)
    ap.add_argument('--no-python', action='store_true')
    ap.add_argument('--gjs', default=None, help='run ```js blocks with this gjs')
    ap.add_argument('--valac', default=None, help='compile ```vala blocks with this valac')
    ap.add_argument('--only', default=None, help='run only blocks of GUIDE:LINE')
    ap.add_argument('guides', nargs='+')
    opts = ap.parse_args()

    ran = skipped = 0
    failures = []
    n = 0
    with tempfile.TemporaryDirectory(prefix='gnn-doc-snippets-') as tmp:
        for guide in opts.guides:
            for lang, flags, code, line in blocks(guide):
                where = f'{os.path.basename(guide)}:{line}'
                if opts.only and opts.only != where:
                    continue
                if lang not in RUNNERS:
                    continue
                if 'fragment' in flags or (lang == 'python' and opts.no_python) or \
                        (lang == 'js' and not opts.gjs) or (lang == 'vala' and not opts.valac):
                    skipped += 1
                    continue
                n += 1
                sub = os.path.join(tmp, str(n))
                os.mkdir(sub)
                module = [f[len('module='):] for f in flags if f.startswith('module=')]
                try:
                    if module and lang == 'c':
                        # a backend module: later blocks find it through GNN_BACKEND_PATH
                        modules_dir = os.path.join(tmp, 'modules')
                        os.makedirs(modules_dir, exist_ok=True)
                        err = build_module(opts, code, module[0], modules_dir, sub, n)
                        path = os.environ.get('GNN_BACKEND_PATH')
                        if modules_dir not in (path or '').split(os.pathsep):
                            os.environ['GNN_BACKEND_PATH'] = modules_dir + (os.pathsep + path if path else '')
                    else:
                        err = RUNNERS[lang](opts, code, where, sub, n)
                except subprocess.TimeoutExpired:
                    err = 'timed out'
                ran += 1
                if err:
                    failures.append(where)
                    print(f'not ok {n} - {lang} block at {where}')
                    for l in err.splitlines():
                        print('# ' + l)
                else:
                    print(f'ok {n} - {lang} block at {where}')
    print(f'# {ran} blocks run, {skipped} fragments skipped, {len(failures)} failed')
    if ran == 0:
        print('# no snippet ran')
        return 1
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
