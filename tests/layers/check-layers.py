#!/usr/bin/python3
"""check-layers.py: the layers of libgnn, and a check that includes and calls only go down.

    check-layers.py includes SOURCE_ROOT
    check-layers.py calls SOURCE_ROOT NM ARCHIVE [MODULE...]

`includes` reads every `#include` of the C files under gnn/ and fails on one that reaches a
layer its file may not use, on a file under gnn/ that no layer owns, and, anywhere in the tree,
on an include of a header private to a backend folder (backend/cpu/, backend/reference/) from
outside that folder. It needs no build.

`calls` reads the symbols of the built objects with nm: ARCHIVE is the internal static library
(every object of libgnn), each MODULE a loadable module built from a folder under gnn/. It fails
on a reference (a call, or a function's address taken) from one layer to a symbol defined in a
layer it may not use, which an include cannot show: public headers of core declare functions
that autograd defines, and the umbrella header declares everything.

The map below is the one place the layers are written down; doc/design/layers.md explains it.
"""
import os
import re
import subprocess
import sys

# Each layer: its name, the paths under gnn/ it owns (a folder ends with '/'; the longest
# matching path wins), and the layers it may use directly. A layer may use itself and,
# through them, everything those layers may use.
LAYERS = [
    ('base', ['gnn-version-macros.h'], []),
    # core holds tensors, storage, devices and dtypes. backend/ belongs to it: a tensor's
    # storage is memory of a backend device, found through the registry, and the registry
    # registers the built-in CPU backend, backend/cpu/.
    ('core', ['core/', 'backend/'], ['base']),
    ('autograd graph', ['autograd/graph/'], ['core']),
    ('ops', ['ops/'], ['autograd graph']),
    ('autograd engine', ['autograd/engine/'], ['ops']),
    ('nn', ['nn/'], ['autograd engine']),
    # optim, data and io sit above nn. io saves optimizers and schedulers, so it sits above
    # optim; data and optim do not use each other, and io does not use data. io writes
    # graphs (fx) as JSON too.
    ('optim', ['optim/'], ['nn']),
    ('data', ['data/'], ['nn']),
    ('quant', ['quant/'], ['nn']),
    ('fx', ['fx/'], ['nn']),
    # ONNX export writes traced graphs (fx) of nn's layers
    ('onnx', ['onnx/'], ['fx']),
    ('distributed', ['distributed/'], ['optim', 'data']),
    ('io', ['io/'], ['optim', 'fx']),
    # the profiler names its ranges after modules and optimizers, so it sits above them; the
    # call paths below reach it through core's hook table (core/gnn-profiler-hooks-private.h)
    ('profiler', ['profiler/'], ['optim']),
    # the umbrella header, for users: nothing in libgnn includes it
    ('umbrella', ['gnn.h'], ['io', 'data', 'profiler', 'quant', 'fx', 'distributed', 'onnx']),
    # loadable backend modules, built on the public API (the umbrella and gnn-backend-impl.h)
    # as gnn-cuda/ is, and found at run time through the registry's extension point: nothing
    # in libgnn includes or calls them
    ('modules', ['backend/reference/', 'distributed/mpi/'], ['umbrella']),
]

# Headers made at build time, by name, and the layer they belong to: declarations only.
# generated headers, by their path under gnn/ in the build tree
GENERATED = {'config.h': 'base', 'gnn-version.h': 'base', 'gnn-enum-types.h': 'base',
             'gnn-marshal.h': 'base',
             'backend/gnn-backend-ops.h': 'core', 'onnx.pb-c.h': 'onnx'}

# Folders whose headers only their own files may include, anywhere in the tree.
PRIVATE_FOLDERS = ['backend/cpu/', 'backend/reference/']

# Where C files outside gnn/ live, for the private-header rule.
OTHER_TREES = ['gnn-cuda', 'tests', 'tools', 'bench', 'examples', 'introspection']

C_SUFFIXES = ('.c', '.h', '.cu', '.cuh')
INCLUDE_RE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]', re.M)


def uses_closure():
    direct = {name: set(uses) for name, _, uses in LAYERS}
    closure = {}
    for name, _, _ in LAYERS:          # in order: every layer used comes earlier
        allowed = {name}
        for u in direct[name]:
            allowed |= closure[u]
        closure[name] = allowed
    return closure


ALLOWED = uses_closure()


def layer_of(rel):
    """The layer owning @rel (a path relative to gnn/), or None."""
    best, best_len = None, -1
    for name, paths, _ in LAYERS:
        for p in paths:
            if (rel == p or (p.endswith('/') and rel.startswith(p))) and len(p) > best_len:
                best, best_len = name, len(p)
    return best


def private_folder_of(rel):
    for f in PRIVATE_FOLDERS:
        if rel.startswith(f):
            return f
    return None


def c_files(root, top):
    for dirpath, dirnames, filenames in os.walk(os.path.join(root, top)):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith('.'))
        for f in sorted(filenames):
            if f.endswith(C_SUFFIXES):
                yield os.path.relpath(os.path.join(dirpath, f), root)


def strip_comments(text):
    return re.sub(r'/\*.*?\*/', lambda m: '\n' * m.group(0).count('\n'), text, flags=re.S)


def resolve(root, path, kind, target):
    """The include's file relative to the source root, a generated header's name, or None
    (a system header, or one found only through an extra -I folder)."""
    under_gnn = [target]
    if kind == '"' and path.startswith('gnn' + os.sep):
        under_gnn.append(os.path.normpath(os.path.join(os.path.dirname(path)[len('gnn/'):], target)))
    for g in under_gnn:
        g = g[len('gnn/'):] if g.startswith('gnn/') else g
        if g in GENERATED:
            return 'generated:' + g
    candidates = []
    if kind == '"':
        candidates.append(os.path.join(os.path.dirname(path), target))
        candidates.append(os.path.join('gnn', target))
    candidates.append(target)          # <gnn/...> and "gnn/..." from the source root
    for c in candidates:
        c = os.path.normpath(c)
        if os.path.isfile(os.path.join(root, c)):
            return c
    return None


def check_includes(root):
    problems = []
    n_files = n_includes = 0
    for top in ['gnn'] + OTHER_TREES:
        for path in c_files(root, top):
            in_gnn = path.startswith('gnn' + os.sep)
            rel = os.path.relpath(path, 'gnn') if in_gnn else None
            layer = layer_of(rel) if in_gnn else None
            if in_gnn and layer is None:
                problems.append(f'{path}: no layer owns this file: add it to LAYERS in {__file__}')
                continue
            n_files += 1
            with open(os.path.join(root, path), encoding='utf-8') as f:
                text = strip_comments(f.read())
            for m in INCLUDE_RE.finditer(text):
                kind, target = m.group(1), m.group(2)
                line = text.count('\n', 0, m.start()) + 1
                where = f'{path}:{line}: #include {kind}{target}{">" if kind == "<" else kind}'
                found = resolve(root, path, kind, target)
                if found is None:
                    if in_gnn and kind == '"':
                        problems.append(f'{where}: not found next to the file or under gnn/ '
                                        '(write it relative to gnn/ or to the including file)')
                    continue
                n_includes += 1
                if found.startswith('generated:'):
                    target_layer = GENERATED[found.split(':', 1)[1]]
                    target_rel = None
                elif found.startswith('gnn' + os.sep):
                    target_rel = os.path.relpath(found, 'gnn')
                    target_layer = layer_of(target_rel)
                else:
                    continue                  # a header of tests/, gnn-cuda/, ...
                if target_rel is not None:
                    folder = private_folder_of(target_rel)
                    if folder and not (in_gnn and rel.startswith(folder)):
                        problems.append(f'{where}: {folder} headers are private to gnn/{folder}')
                        continue
                if in_gnn and target_layer not in ALLOWED[layer]:
                    problems.append(f'{where}: the {layer} layer includes the {target_layer} '
                                    'layer, which is above it')
    return problems, f'{n_includes} includes in {n_files} files'


def nm(tool, args):
    out = subprocess.run([tool] + args, check=True, capture_output=True, text=True).stdout
    return out.splitlines()


def object_sources(root):
    """Meson names the object of gnn/x/y.c 'x_y.c.o': that name to the path under gnn/."""
    names = {}
    for path in c_files(root, 'gnn'):
        rel = os.path.relpath(path, 'gnn')
        names[rel.replace(os.sep, '_') + '.o'] = rel
    return names


def check_calls(root, tool, archive, modules):
    problems = []
    names = object_sources(root)
    defined = {}                 # symbol -> (layer, object)
    undefined = []               # (layer, object, symbol)
    for line in nm(tool, ['-A', '-P', archive]):
        # POSIX format: "archive[member]: name type [value size]"
        head, _, rest = line.partition(']: ')
        fields = rest.split()
        if len(fields) < 2:
            continue
        obj = os.path.basename(head.partition('[')[2])
        if obj.startswith('meson-generated_'):
            layer = 'base'               # the enum types and the signal marshallers
        elif obj in names:
            layer = layer_of(names[obj])
        else:
            problems.append(f'{archive}: object {obj} comes from no source file under gnn/')
            continue
        sym, kind = fields[0], fields[1]
        if kind == 'U':
            undefined.append((layer, obj, sym))
        elif kind in 'TDBRGSVW':
            defined[sym] = (layer, obj)
    n_refs = 0
    for layer, obj, sym in undefined:
        if sym not in defined:
            continue                     # GLib, libc, OpenBLAS, ...
        n_refs += 1
        target_layer, target_obj = defined[sym]
        if target_layer not in ALLOWED[layer]:
            problems.append(f'{names.get(obj, obj)} ({layer}) uses {sym} of '
                            f'{names.get(target_obj, target_obj)} ({target_layer}), which is above it')
    for module in modules:
        # a module's folder: the one under gnn/ whose name its sources' objects carry
        rel = os.path.relpath(os.path.dirname(module), os.path.dirname(archive))
        layer = layer_of(rel.replace(os.sep, '/') + '/')
        if layer is None:
            problems.append(f'{module}: no layer owns {rel}/')
            continue
        for line in nm(tool, ['-D', '-P', '--undefined-only', module]):
            fields = line.split()
            if len(fields) < 2:
                continue
            sym = fields[0].split('@')[0]
            if sym in defined:
                n_refs += 1
                target_layer, target_obj = defined[sym]
                if target_layer not in ALLOWED[layer]:
                    problems.append(f'{module} ({layer}) uses {sym} of '
                                    f'{names.get(target_obj, target_obj)} ({target_layer}), '
                                    'which is above it')
    return problems, f'{n_refs} references between objects'


def main(argv):
    if len(argv) >= 2 and argv[0] == 'includes':
        problems, what = check_includes(argv[1])
    elif len(argv) >= 4 and argv[0] == 'calls':
        problems, what = check_calls(argv[1], argv[2], argv[3], argv[4:])
    else:
        print(__doc__, file=sys.stderr)
        return 2
    for p in problems:
        print(p)
    print(f'{argv[0]}: {what} read, {len(problems)} going up a layer or private')
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
