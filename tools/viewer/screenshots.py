#!/usr/bin/python3
"""The screenshots of gnn-viewer in doc/screenshots/, taken under Xvfb, light and dark.

    tools/viewer/screenshots.py BUILD_DIR [OUT_DIR]

Each shot in SHOTS runs BUILD_DIR/tools/viewer/gnn-viewer with its arguments in a fresh
Xvfb (xvfb-run), with the cairo renderer (GSK_RENDERER=cairo: Xvfb has no GPU), in the light
style and, with ADW_DEBUG_COLOR_SCHEME=prefer-dark, in the dark one, and writes
OUT_DIR/NAME-light.png and NAME-dark.png (OUT_DIR: doc/screenshots). It checks that the page
the shot is of is the one shown (gnn-viewer --dump-state) and that the window showed no error,
and fails otherwise. A new page adds its shot to SHOTS. Shots that train need Fashion-MNIST
(Debian's dataset-fashion-mnist).

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
]


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
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    viewer = os.path.join(os.path.abspath(sys.argv[1]), 'tools', 'viewer', 'gnn-viewer')
    out_dir = os.path.abspath(sys.argv[2]) if len(sys.argv) == 3 else os.path.join(SOURCE, 'doc', 'screenshots')
    os.makedirs(out_dir, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix='gnn-viewer-shots-') as tmp:
        for name, page, args in SHOTS:
            for scheme in ('light', 'dark'):
                shoot(viewer, name, page, args, scheme, out_dir, tmp)


if __name__ == '__main__':
    main()
