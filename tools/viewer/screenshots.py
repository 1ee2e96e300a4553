#!/usr/bin/python3
"""The screenshots of gnn-viewer in doc/screenshots/, taken under Xvfb, light and dark.

    tools/viewer/screenshots.py [--only NAME]... BUILD_DIR [OUT_DIR]

Each shot in SHOTS runs BUILD_DIR/tools/viewer/gnn-viewer with its arguments in a fresh
Xvfb (xvfb-run), with the cairo renderer (GSK_RENDERER=cairo: Xvfb has no GPU), in the light
style and, with ADW_DEBUG_COLOR_SCHEME=prefer-dark, in the dark one, and writes
OUT_DIR/NAME-light.png and NAME-dark.png (OUT_DIR: doc/screenshots); --only NAME takes
that shot alone (several may be given). It checks that the page
the shot is of is the one shown (gnn-viewer --dump-state) and that the window showed no error,
and fails otherwise. A new page adds its shot to SHOTS. Shots that train need Fashion-MNIST
(Debian's dataset-fashion-mnist). An argument '{resnet18.onnx}' stands for torchvision's
resnet18 (weights=None) exported with torch.onnx.export into the temporary folder (no ONNX
file is kept in the tree).

SPDX-License-Identifier: LGPL-2.1-or-later
"""
import os
import subprocess
import sys
import tempfile

SOURCE = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..'))

# (name, the page that must be shown, gnn-viewer's arguments): the default CNN of gnn-train,
# trained for a while so that the statistics and the curve are there
TRAIN = ['--train', '--train-steps', '120', '--limit', '3840', '--batch-size', '32', '--seed', '1']
SHOTS = [
    ('modules', 'modules', TRAIN + ['--page', 'modules', '--select', '4']),
    ('training', 'training', TRAIN + ['--page', 'training']),
    # the last of a few steps profiled inside the trainer: the table per module, the flame chart
    ('profile', 'profile', ['--train', '--train-steps', '4', '--limit', '256', '--batch-size', '32',
                            '--seed', '1', '--profile-step', '4', '--page', 'profile']),
    # resnet18 as torch exports it, its first residual block in view and a Conv's tensors shown
    ('graph', 'graph', ['{resnet18.onnx}', '--click-node', '/layer1/layer1.0/conv2/Conv']),
]


def export_resnet18(path):
    """torchvision's resnet18 with random weights as an ONNX file at @path (opset 17)."""
    import torch
    import torchvision
    torch.manual_seed(0)
    model = torchvision.models.resnet18(weights=None).eval()
    torch.onnx.export(model, torch.randn(1, 3, 224, 224), path, opset_version=17,
                      input_names=['input'], output_names=['logits'])


def resolve(args, tmp):
    """@args with '{resnet18.onnx}' replaced by the file, made on first use."""
    out = []
    for a in args:
        if a == '{resnet18.onnx}':
            a = os.path.join(tmp, 'resnet18.onnx')
            if not os.path.exists(a):
                export_resnet18(a)
        out.append(a)
    return out


def env_for(scheme, runtime):
    env = dict(os.environ)
    env.update({
        'GSK_RENDERER': 'cairo',
        'GDK_BACKEND': 'x11',
        'GTK_A11Y': 'none',
        'NO_AT_BRIDGE': '1',
        'GSETTINGS_BACKEND': 'memory',
        'XDG_RUNTIME_DIR': runtime,
        'ADW_DEBUG_COLOR_SCHEME': 'prefer-dark' if scheme == 'dark' else 'prefer-light',
        'GNN_NUM_THREADS': '2',
    })
    env.pop('DBUS_SESSION_BUS_ADDRESS', None)
    return env


def shoot(viewer, name, page, args, scheme, out_dir, tmp):
    png = os.path.join(out_dir, '%s-%s.png' % (name, scheme))
    state = os.path.join(tmp, 'state.tsv')
    runtime = os.path.join(tmp, 'runtime')
    os.makedirs(runtime, mode=0o700, exist_ok=True)
    cmd = ['xvfb-run', '-a', '-s', '-screen 0 1400x1000x24', viewer, '--quit-after-ms', '300000',
           '--frames', '5', '--screenshot', png, '--dump-state', state] + args
    r = subprocess.run(cmd, env=env_for(scheme, runtime), stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True, timeout=330)
    if r.returncode != 0:
        sys.exit('%s (%s): gnn-viewer exited with %d\n%s%s' % (name, scheme, r.returncode, r.stdout, r.stderr))
    shown = {}
    with open(state) as f:
        for line in f.read().splitlines():
            key, _, value = line.partition('\t')
            shown.setdefault(key, []).append(value)
    if shown.get('page') != [page]:
        sys.exit('%s (%s): expected the page %s to be shown, found %s' % (name, scheme, page, shown.get('page')))
    if shown.get('message'):
        sys.exit('%s (%s): the window showed %s' % (name, scheme, shown['message']))
    print('%s: page %s, %s' % (png, page, r.stdout.strip().splitlines()[-1] if r.stdout.strip() else ''))


def main():
    argv, only = sys.argv[1:], []
    while len(argv) >= 2 and argv[0] == '--only':
        only.append(argv[1])
        argv = argv[2:]
    if len(argv) not in (1, 2) or any(n not in [s[0] for s in SHOTS] for n in only):
        sys.exit(__doc__)
    viewer = os.path.join(os.path.abspath(argv[0]), 'tools', 'viewer', 'gnn-viewer')
    out_dir = os.path.abspath(argv[1]) if len(argv) == 2 else os.path.join(SOURCE, 'doc', 'screenshots')
    os.makedirs(out_dir, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix='gnn-viewer-shots-') as tmp:
        for name, page, args in SHOTS:
            if only and name not in only:
                continue
            for scheme in ('light', 'dark'):
                shoot(viewer, name, page, resolve(args, tmp), scheme, out_dir, tmp)


if __name__ == '__main__':
    main()
