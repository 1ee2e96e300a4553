#!/usr/bin/python3
"""A module registered inside itself is refused with an error from every Python spelling that
adds a submodule (PyTorch accepts it, then its walks end in RecursionError; gnn's would
overflow the C stack); a module shared at two places that are not ancestors still works."""
import unittest

from gnntest import Gnn, GLib, main


def message(e):
    return getattr(e, 'message', str(e))


class TestCycles(unittest.TestCase):
    def test_refused(self):
        import gnn.nn as nn
        seq = nn.Sequential(nn.Linear(2, 2), nn.ReLU())
        inner = nn.ModuleList([seq])
        lst = nn.ModuleList([nn.ReLU(), inner])
        adders = [
            ('add_module', lambda: seq.add_module('self', seq)),
            ('setattr', lambda: setattr(seq[0], 'up', seq)),
            ('Sequential.append', lambda: seq.append(seq)),
            ('Sequential.extend', lambda: seq.extend([nn.Tanh(), seq])),
            ('ModuleList.append', lambda: inner.append(lst)),
            ('ModuleList.insert', lambda: lst.insert(0, lst)),
            ('ModuleList.__setitem__', lambda: lst.__setitem__(0, lst)),
        ]
        for what, add in adders:
            with self.subTest(what), self.assertRaises(GLib.Error) as cm:
                add()
            self.assertIn('so the module tree would be a cycle', message(cm.exception))
        # nothing was added but the Tanh before the refused module of extend
        self.assertEqual([type(m).__name__ for m in seq], ['Linear', 'ReLU', 'Tanh'])
        self.assertEqual(len(lst), 2)
        self.assertEqual(len(inner), 1)
        self.assertFalse(hasattr(seq[0], 'up'))

    def test_shared_not_cycle(self):
        import gnn.nn as nn
        lin = nn.Linear(2, 2)
        seq = nn.Sequential(lin, nn.ReLU(), lin)
        seq.append(nn.Sequential(lin))
        self.assertIs(seq[0], seq[2])
        back = Gnn.Module.new_from_json(seq.to_json(False), -1)
        self.assertEqual(back.to_json(False), seq.to_json(False))
        self.assertIs(back[0], back[3][0])


if __name__ == '__main__':
    main()
