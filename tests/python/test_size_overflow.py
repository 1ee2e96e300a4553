"""Sizes whose element or byte counts overflow int64 (the size arithmetic of gnn/core/gnn-tensor.c):
each case runs in its own process, since before the checks several wrote or read past an
allocation. Errors are compared with torch 1.13's where torch has words for the case."""
import json
import struct
import subprocess
import sys
import textwrap
import unittest

import torch

import gnntest  # noqa: F401 (requires Gnn 1.0)
from gnntest import main

PRELUDE = '''
import json, struct, sys
import gi
gi.require_version('Gnn', '1.0')
from gi.repository import Gnn, GLib
import gnn

def report(f):
    try:
        r = f()
    except GLib.Error as e:
        print('ERROR', getattr(e, 'message', str(e)))
        return
    except Exception as e:
        print('RAISED', type(e).__name__, getattr(e, 'message', str(e)))
        return
    print('OK', list(r.shape) if hasattr(r, 'shape') else r)
'''


class SizeOverflow(unittest.TestCase):
    def child(self, code):
        """Runs @code after PRELUDE in a new process; returns its one line of report."""
        run = subprocess.run([sys.executable, '-c', PRELUDE + textwrap.dedent(code)],
                             capture_output=True, text=True, timeout=120)
        self.assertEqual(run.returncode, 0, 'the child died (%d): %s' % (run.returncode, run.stderr[-2000:]))
        lines = run.stdout.strip().splitlines()
        self.assertTrue(lines, run.stderr[-2000:])
        return lines[-1]

    def torch_error(self, f):
        with self.assertRaises(RuntimeError) as cm:
            f()
        return str(cm.exception).splitlines()[0]

    def assert_error(self, line, *parts):
        self.assertTrue(line.startswith('ERROR '), line)
        for p in parts:
            self.assertIn(p, line)

    def test_new_zeros_wraps_bytes(self):
        # (2^62 + 1) * 4 bytes wrapped to 4: a 64-byte allocation that the fill overran
        want = self.torch_error(lambda: torch.zeros([2**62 + 1]))
        line = self.child("report(lambda: Gnn.Tensor.new_zeros([2**62 + 1], Gnn.Dtype.FLOAT32, None))")
        self.assert_error(line, want, 'overflow int64')
        line = self.child("report(lambda: gnn.zeros(2**62 + 1))")
        self.assert_error(line, want)
        for ctor in ('new_empty', 'new_ones'):
            line = self.child("report(lambda: Gnn.Tensor.%s([2**62 + 1], Gnn.Dtype.FLOAT64, None))" % ctor)
            self.assert_error(line, 'Storage size calculation overflowed with sizes=[4611686018427387905]')

    def test_new_empty_wraps_to_zero_elements(self):
        # 2^32 * 2^32 wrapped to a numel of 0
        want = self.torch_error(lambda: torch.empty([2**32, 2**32]))
        line = self.child("report(lambda: Gnn.Tensor.new_empty([2**32, 2**32], Gnn.Dtype.FLOAT32, None))")
        self.assert_error(line, want)
        # the byte count overflows even where the element count does not: torch refuses too
        want = self.torch_error(lambda: torch.empty([2**61]))
        line = self.child("report(lambda: Gnn.Tensor.new_empty([2**61], Gnn.Dtype.FLOAT32, None))")
        self.assert_error(line, want)

    def test_expand_then_contiguous(self):
        # the view is fine (2^62 elements fit in int64), its copy is not
        line = self.child("report(lambda: gnn.zeros(1).expand(2**31, 2**31))")
        self.assertEqual(line, 'OK [2147483648, 2147483648]')
        want = self.torch_error(lambda: torch.zeros(1).expand(2**31, 2**31).contiguous())
        line = self.child("report(lambda: gnn.zeros(1).expand(2**31, 2**31).contiguous())")
        self.assert_error(line, want)
        # a view whose element count itself overflows: torch's words, with the shape
        want = self.torch_error(lambda: torch.zeros(1).expand(2**32, 2**32))
        line = self.child("report(lambda: gnn.zeros(1).expand(2**32, 2**32))")
        self.assert_error(line, want, '[4294967296, 4294967296]')

    def test_reshape_wraps_to_input_size(self):
        # (2^62 + 1) * 4 wrapped to 4: the reshape was accepted and a select read past the data
        code = '''
            def f():
                r = gnn.zeros(4).reshape(2**62 + 1, 4)
                return r.select(0, 2**62)
            report(f)
        '''
        self.assert_error(self.child(code), "reshape: shape '[4611686018427387905, 4]' is invalid for input of size 4",
                          'overflow int64')
        self.assert_error(self.child("report(lambda: gnn.zeros(4).view(2**62 + 1, 4).select(0, 2**62))"),
                          "view: shape '[4611686018427387905, 4]' is invalid for input of size 4")
        # an inferred size stays torch's message
        want = self.torch_error(lambda: torch.zeros(4).reshape(-1, 2**62 + 1))
        line = self.child("report(lambda: gnn.zeros(4).reshape(-1, 2**62 + 1))")
        self.assertEqual(line, 'ERROR reshape: ' + want)

    def test_unflatten_json(self):
        # the same sizes in a module JSON reach the check through the op, not the loader
        self.assert_error(self.child("report(lambda: gnn.zeros(1, 4).unflatten(1, (2**62 + 1, 4)).select(1, 2**62))"),
                          'unflatten', 'overflows int64')
        code = '''
            m = gnn.nn.Unflatten(1, (2, 2))
            text = m.to_json(False).replace('2, 2', '%d, 4' % (2**62 + 1)).replace('2,2', '%d,4' % (2**62 + 1))
            assert str(2**62 + 1) in text, text
            m = Gnn.Module.new_from_json(text, -1)
            report(lambda: m(gnn.zeros(1, 4)).select(1, 2**62))
        '''
        # the layer's own check of the sizes' product (it wrapped to 4, signed overflow that UBSan
        # reported, and only the reshape after it refused the shape)
        self.assert_error(self.child(code), 'Unflatten: sizes [4611686018427387905, 4]', 'overflows int64')

    def test_zero_size_beside_huge_ones(self):
        # a zero size beside sizes whose product overflows: the contiguous strides overflowed
        # int64 (UBSan). gnn refuses the shape (torch accepts [0, 2^62, 2^62] but not
        # [2^62, 2^62, 0]); an empty shape whose other sizes fit still loads
        self.assert_error(self.child("report(lambda: Gnn.Tensor.new_empty([0, 2**62, 2**62], Gnn.Dtype.FLOAT32, None))"),
                          'sizes=[0, 4611686018427387904, 4611686018427387904]')
        self.assertEqual(self.child("report(lambda: Gnn.Tensor.new_empty([0, 2**31, 2**31], Gnn.Dtype.FLOAT32, None))"),
                         'OK [0, 2147483648, 2147483648]')
        code = '''
            header = json.dumps({'w': {'dtype': 'F32', 'shape': [0, 2**48, 2**48], 'data_offsets': [0, 0]}}).encode()
            blob = struct.pack('<Q', len(header)) + header
            report(lambda: Gnn.safetensors_load_from_bytes(GLib.Bytes(blob)))
        '''
        self.assert_error(self.child(code), '[0, 281474976710656, 281474976710656]', 'overflow')
        code = '''
            dims = [0, 0x7fffffff, 0x7fffffff, 0x7fffffff]
            blob = bytes([0, 0, 0x0D, len(dims)]) + b''.join(struct.pack('>I', d) for d in dims)
            report(lambda: Gnn.idx_load_from_bytes(GLib.Bytes(blob)))
        '''
        self.assert_error(self.child(code), '[0, 2147483647, 2147483647, 2147483647]', 'overflow')

    def test_repeat(self):
        # a repeated size whose product overflows (torch wraps it to a negative size here)
        self.assert_error(self.child("report(lambda: gnn.zeros(2, 1).repeat(2**62, 4))"),
                          'repeat: repeats [4611686018427387904, 4]', 'overflows int64')
        want = self.torch_error(lambda: torch.zeros(2, 1).repeat(2**31, 2**31))
        self.assert_error(self.child("report(lambda: gnn.zeros(2, 1).repeat(2**31, 2**31))"), want)
        self.assert_error(self.child("report(lambda: gnn.zeros(2, 1).tile((2**31, 2**31)))"), want)

    def test_pad_and_interpolate_sizes(self):
        # pad's sum overflowed (a "negative size" message; torch's own wraps too); replicate
        # padding to 2^62 asked g_new for 2^62 indices (an abort)
        self.assert_error(self.child("report(lambda: gnn.nn.functional.pad(gnn.zeros(2), (2**63 - 1, 1)))"),
                          'pad(): the padded size of dimension 0 (2 + 9223372036854775807 + 1) overflows int64')
        self.assert_error(self.child("report(lambda: gnn.nn.functional.pad(gnn.zeros(1, 2), (2**61, 2**61), "
                                     "mode='replicate'))"),
                          'Storage size calculation overflowed with sizes=[1, 4611686018427387906]')
        # interpolate: a scale whose output size a cast made undefined, a size whose taps
        # overflowed g_new (an abort)
        self.assert_error(self.child("report(lambda: gnn.nn.functional.interpolate(gnn.zeros(1, 1, 2), scale_factor=1e30))"),
                          'interpolate: the output size 2e+30', 'overflows int64')
        self.assert_error(self.child("report(lambda: gnn.nn.functional.interpolate(gnn.zeros(1, 1, 2), size=2**62))"),
                          'interpolate: the output size [4611686018427387904] overflows int64')
        self.assertEqual(self.child("report(lambda: gnn.nn.functional.interpolate(gnn.zeros(1, 1, 2), size=5))"),
                         'OK [1, 1, 5]')

    def test_narrow_and_slice_bounds(self):
        # start + length and (end - start + step - 1) / step overflowed; Python's slicing (and
        # numpy's) is the reference for a huge step: torch 1.13 itself wraps to an empty result
        want = self.torch_error(lambda: torch.arange(10.).narrow(0, 2, 2**63 - 1))
        self.assertEqual(self.child("report(lambda: gnn.arange(10.).narrow(0, 2, 2**63 - 1))"), 'ERROR ' + want)
        line = self.child("t = gnn.arange(10.); print('OK', t[::2**63 - 1].tolist(), t[3::2**62].tolist(), "
                          "t[::2**63 - 1].get_strides())")
        self.assertEqual(line, 'OK %s %s [9223372036854775807]' % ([float(v) for v in range(10)][::2**63 - 1],
                                                                    [float(v) for v in range(10)][3::2**62]))

    def test_randint_full_int64_range(self):
        # torch accepts the whole int64 range; the range (2^64 - 1) overflowed a signed difference
        torch.randint(-2**63, 2**63 - 1, (3,))
        line = self.child('''
            t = gnn.randint(-2**63, 2**63 - 1, (4000,))
            v = t.tolist()
            print('OK', str(t.dtype), min(v) < -2**62, max(v) > 2**62, all(-2**63 <= x < 2**63 - 1 for x in v))
        ''')
        self.assertEqual(line, 'OK torch.int64 True True True')

    def test_arange_message(self):
        want = self.torch_error(lambda: torch.arange(0, 1e30))
        line = self.child("report(lambda: gnn.arange(0, 1e30))")
        self.assertIn(want, line)
        self.assertIn('1e+30', line)
        self.assertNotIn('-9223372036854775808', line)

    def test_from_data_strides(self):
        # wrapped memory whose last element's offset overflows
        code = '''
            report(lambda: Gnn.Tensor.new_from_data(64, Gnn.Dtype.FLOAT32, [3, 2], [2**62, 1], None))
        '''
        self.assert_error(self.child(code), 'Storage size calculation overflowed', '[3, 2]')


if __name__ == '__main__':
    main()
