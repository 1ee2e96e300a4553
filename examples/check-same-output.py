#!/usr/bin/python3
"""Runs the same example written in several languages and checks that they print the same line.

    check-same-output.py -- NAME COMMAND ARGS... -- NAME COMMAND ARGS... ...

Each program prints a line of `key value` pairs starting with `loss0`, such as

    loss0 0.75 loss 0.0125 ema_loss 0.0131 hook_calls 203 hook_mean 0.0412 reloaded_max_diff 0 ...

The lines must be equal, character for character (they all drive the same C library with the
same seeds and the same operations), and must show real training: the final loss well below
the first one, and reloaded models (every `*_max_diff`) that give exactly the outputs of the
models they were saved from.

SPDX-License-Identifier: LGPL-2.1-or-later
"""
import subprocess
import sys


def parse_runs(argv):
    runs, current = [], None
    for arg in argv:
        if arg == '--':
            current = []
            runs.append(current)
        elif current is None:
            sys.exit('usage: check-same-output.py -- NAME COMMAND ARGS... [-- NAME COMMAND ARGS...]')
        else:
            current.append(arg)
    if not runs or any(len(r) < 2 for r in runs):
        sys.exit('usage: check-same-output.py -- NAME COMMAND ARGS... [-- NAME COMMAND ARGS...]')
    return [(r[0], r[1:]) for r in runs]


def result_line(name, command):
    proc = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=200)
    lines = [line for line in proc.stdout.splitlines() if line.startswith('loss0 ')]
    if proc.returncode != 0 or len(lines) != 1:
        sys.stderr.write('%s: exit status %d, %d result lines\n--- stdout\n%s--- stderr\n%s'
                         % (name, proc.returncode, len(lines), proc.stdout, proc.stderr))
        return None
    return lines[0]


def main():
    runs = parse_runs(sys.argv[1:])
    results = {}
    for name, command in runs:
        line = result_line(name, command)
        print('%-8s %s' % (name + ':', line))
        results[name] = line
    failed = [name for name, line in results.items() if line is None]
    if failed:
        sys.exit('failed to run: %s' % ', '.join(failed))

    first_name, first = runs[0][0], results[runs[0][0]]
    differ = [name for name, line in results.items() if line != first]
    if differ:
        sys.exit('%s printed a different line from %s' % (', '.join(differ), first_name))

    words = first.split()
    values = dict(zip(words[0::2], words[1::2]))
    loss0, loss = float(values['loss0']), float(values['loss'])
    ema_loss = float(values['ema_loss'])
    if not loss < 0.5 * loss0:
        sys.exit('no real training: the loss went from %g to %g' % (loss0, loss))
    if not ema_loss < loss0:
        sys.exit('the EMA model is no better than the untrained one: %g, at first %g' % (ema_loss, loss0))
    for key in [k for k in values if k.endswith('_max_diff')]:
        if float(values[key]) != 0.0:
            sys.exit('%s is %s, expected 0' % (key, values[key]))
    print('all %d programs printed the same line' % len(runs))


if __name__ == '__main__':
    main()
