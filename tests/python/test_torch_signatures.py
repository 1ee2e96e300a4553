#!/usr/bin/python3
"""Every nn class and nn.functional function of the torch name table takes torch 1.13's
parameters: names, order and defaults read from torch's inspect.signature at test time and
compared with gnn's, except for the written allow-list (each entry with its reason). Then
the functionals' values against torch's."""
import inspect

import numpy as np
import torch
import torch.nn.functional as TF

from gnntest import Gnn, main, rand, to_np, ParityTest

import gnn
import gnn.nn.functional as F
from gi.overrides._gnn import names

# (torch name, parameter) -> why gnn's signature differs there
ALLOWED = {
    ('torch.nn.functional.multi_head_attention_forward', 'is_causal'):
        "PyTorch 2's argument, which torch 1.13 lacks",
    ('torch.nn.Module', '*args'): 'GObject construct properties are passed as keywords',
    ('torch.nn.Sequential', '**kwargs'): 'GObject construct properties are passed as keywords',
    ('torch.nn.Parameter', '*'): "torch's Parameter is a C type without a Python signature; "
                                 "gnn's is (data=None, requires_grad=True), as torch documents it",
    ('torch.nn.Identity', '*'): 'both take and ignore any arguments',
    ('torch.nn.functional.softmax', '_stacklevel'): None,   # the same: listed to show it is kept
}
# the Transformer layers' activation defaults to F.relu: gnn's function there, torch's here (the
# same name; test_transformer.py checks that both give torch's numbers)
for _name in ('Transformer', 'TransformerEncoderLayer', 'TransformerDecoderLayer'):
    ALLOWED[('torch.nn.' + _name, 'activation')] = "the default is gnn's own F.relu, not torch's object"
# torch.nn.init's generator= comes with torch 2.1; gnn has it already
for _name in ('normal_', 'uniform_', 'trunc_normal_', 'orthogonal_', 'kaiming_normal_', 'kaiming_uniform_',
              'xavier_normal_', 'xavier_uniform_'):
    ALLOWED[('torch.nn.init.' + _name, 'generator')] = 'torch >= 2.1 takes generator=; 1.13 lacks it'
# gnn's recurrent base classes are abstract C types (RNN, LSTM, GRU and the cells derive from
# them), built through their subclasses only: no Python signature to compare
for _name in ('RNNBase', 'RNNCellBase'):
    ALLOWED[('torch.nn.' + _name, '*')] = 'an abstract GObject base class of the recurrent layers'
# torch names whose (*args, **kwargs) is their real signature
GENERIC = ('torch.nn.Identity',)
# any class: a trailing **kwargs is where gnn takes GObject construct properties by name
EXTRA_KWARGS_REASON = 'GObject construct properties (also with dashes) are passed as keywords'


def real_torch_gain(*args):
    return torch.nn.init.calculate_gain(*args)


def params_of(fn, skip_self):
    sig = inspect.signature(fn)
    out = []
    for i, p in enumerate(sig.parameters.values()):
        if skip_self and i == 0:
            continue
        if p.kind == p.VAR_POSITIONAL:
            out.append(('*' + p.name, None))
        elif p.kind == p.VAR_KEYWORD:
            out.append(('**' + p.name, None))
        else:
            out.append((p.name, 'required' if p.default is p.empty else p.default))
    return out


def comparable(torch_name, params):
    out = []
    for name, default in params:
        if (torch_name, name) in ALLOWED and ALLOWED[(torch_name, name)] is not None:
            continue
        out.append((name, default))
    if out and out[-1][0].startswith('**'):
        out.pop()          # EXTRA_KWARGS_REASON
    return out


class Signatures(ParityTest):
    def compare(self, namespace, skip_self, get):
        checked = 0
        for name, target in names.rows(namespace):
            if isinstance(target, names.Missing):
                continue
            spelling = namespace + '.' + name
            if (spelling, '*') in ALLOWED:
                continue
            torch_obj = eval(spelling, {'torch': torch})
            try:
                want = params_of(get(torch_obj), skip_self)
            except (TypeError, ValueError):
                continue    # a C builtin of torch: no signature to read
            if [n for n, _ in want] == ['*args', '**kwargs'] and spelling not in GENERIC:
                continue    # torch's boolean_dispatch wrapper (max_pool2d): its signature is hidden
            gnn_module = {'torch.nn': gnn.nn, 'torch.nn.functional': F, 'torch.nn.init': gnn.nn.init}[namespace]
            got = params_of(get(getattr(gnn_module, name)), skip_self)
            self.assertEqual(comparable(spelling, got), comparable(spelling, want), spelling)
            checked += 1
        return checked

    def test_nn_classes(self):
        self.assertGreater(self.compare('torch.nn', True, lambda c: c.__init__), 40)

    def test_functionals(self):
        self.assertGreater(self.compare('torch.nn.functional', False, lambda f: f), 15)

    def test_init_functions(self):
        self.assertEqual(self.compare('torch.nn.init', False, lambda f: f), 15)
        t = gnn.from_numpy(np.zeros((3, 4), np.float32))
        for fn, args in ((gnn.nn.init.xavier_normal_, ()), (gnn.nn.init.constant_, (0.5,)),
                         (gnn.nn.init.kaiming_uniform_, ()), (gnn.nn.init.normal_, (0.0, 2.0))):
            self.assertIs(fn(t, *args), t)
        self.assertEqual(float(np.asarray(gnn.nn.init.constant_(t, 0.5).numpy()).sum()), 6.0)
        self.assertEqual(gnn.nn.init.calculate_gain('leaky_relu'), real_torch_gain('leaky_relu'))
        self.assertEqual(gnn.nn.init.calculate_gain('leaky_relu', 0.2), real_torch_gain('leaky_relu', 0.2))

    def test_cross_entropy_signature_as_the_issue_writes_it(self):
        self.assertEqual(str(inspect.signature(F.cross_entropy)),
                         "(input, target, weight=None, size_average=None, ignore_index=-100, "
                         "reduce=None, reduction='mean', label_smoothing=0.0)")

    def test_missing_functionals_say_why(self):
        missing = [(n, t) for n, t in names.rows('torch.nn.functional') if isinstance(t, names.Missing)]
        if not missing:     # every functional of the table is built: an unknown name says so
            with self.assertRaisesRegex(AttributeError, 'is not a name gnn knows'):
                F.no_such_function
            return
        name, target = missing[0]
        with self.assertRaises(AttributeError) as e:
            getattr(F, name)
        self.assertIn(target.why, str(e.exception))


class Functionals(ParityTest):
    def setUp(self):
        self.x = rand((2, 3, 6, 6), seed=3)
        self.g, self.t = gnn.from_numpy(self.x), torch.from_numpy(self.x)

    def same(self, got, want, what, tol=(1e-5, 1e-6)):
        self.assert_close(to_np(got), want.detach().numpy(), tol[0], tol[1], what)

    def test_activations(self):
        for name, args in (('relu', ()), ('relu6', ()), ('hardtanh', (-0.5, 0.5)), ('leaky_relu', (0.2,)),
                           ('elu', (0.7,)), ('gelu', ()), ('silu', ()), ('softsign', ()),
                           ('softmax', (1,)), ('log_softmax', (-1,))):
            self.same(getattr(F, name)(self.g, *args), getattr(TF, name)(self.t, *args), name)
        self.same(F.gelu(self.g, approximate='tanh'), TF.gelu(self.t, approximate='tanh'), 'gelu tanh')
        self.same(F.softmax(self.g, dim=1, dtype=Gnn.Dtype.FLOAT64),
                  TF.softmax(self.t, dim=1, dtype=torch.float64), 'softmax dtype', (1e-6, 1e-7))
        with self.assertRaises(ValueError):
            F.relu(self.g, inplace=True)

    def test_layers(self):
        w, b = rand((4, 3, 3, 3), seed=5), rand((4,), seed=6)
        gw, gb, tw, tb = gnn.from_numpy(w), gnn.from_numpy(b), torch.from_numpy(w), torch.from_numpy(b)
        self.same(F.conv2d(self.g, gw, gb, 2, 1), TF.conv2d(self.t, tw, tb, 2, 1), 'conv2d', (1e-4, 1e-5))
        self.same(F.conv2d(self.g, gw, padding=(1, 0), dilation=2), TF.conv2d(self.t, tw, padding=(1, 0), dilation=2),
                  'conv2d keywords', (1e-4, 1e-5))
        self.same(F.max_pool2d(self.g, 2), TF.max_pool2d(self.t, 2), 'max_pool2d')
        out, idx = F.max_pool2d(self.g, 3, 2, 1, return_indices=True)
        tout, tidx = TF.max_pool2d(self.t, 3, 2, 1, return_indices=True)
        self.same(out, tout, 'max_pool2d indices')
        self.assertTrue(np.array_equal(to_np(idx), tidx.numpy()))
        self.same(F.avg_pool2d(self.g, 3, 2, 1, count_include_pad=False),
                  TF.avg_pool2d(self.t, 3, 2, 1, count_include_pad=False), 'avg_pool2d')
        self.same(F.adaptive_avg_pool2d(self.g, (2, 3)), TF.adaptive_avg_pool2d(self.t, (2, 3)), 'adaptive')
        lw, lb = rand((5, 6), seed=7), rand((5,), seed=8)
        self.same(F.linear(self.g, gnn.from_numpy(lw), gnn.from_numpy(lb)),
                  TF.linear(self.t, torch.from_numpy(lw), torch.from_numpy(lb)), 'linear')
        self.same(F.linear(self.g, gnn.from_numpy(lw)), TF.linear(self.t, torch.from_numpy(lw)), 'linear no bias')
        labels = np.array([0, 2, 1], np.int64)
        self.assertTrue(np.array_equal(to_np(F.one_hot(gnn.from_numpy(labels), 4)),
                                       TF.one_hot(torch.from_numpy(labels), 4).numpy()))

    def test_losses_with_reduction_strings(self):
        logits, target = rand((5, 4), seed=9), np.array([0, 3, 1, 1, 2], np.int64)
        gl, tl = gnn.from_numpy(logits), torch.from_numpy(logits)
        gt, tt = gnn.from_numpy(target), torch.from_numpy(target)
        for reduction in ('mean', 'sum', 'none'):
            self.same(F.cross_entropy(gl, gt, reduction=reduction, label_smoothing=0.1),
                      TF.cross_entropy(tl, tt, reduction=reduction, label_smoothing=0.1), 'ce ' + reduction)
            self.same(F.nll_loss(F.log_softmax(gl, 1), gt, ignore_index=1, reduction=reduction),
                      TF.nll_loss(TF.log_softmax(tl, 1), tt, ignore_index=1, reduction=reduction), 'nll ' + reduction)
        other = rand((5, 4), seed=10)
        go, to = gnn.from_numpy(other), torch.from_numpy(other)
        for name in ('mse_loss', 'l1_loss', 'smooth_l1_loss', 'huber_loss'):
            self.same(getattr(F, name)(gl, go), getattr(TF, name)(tl, to), name)
            self.same(getattr(F, name)(gl, go, reduction='sum'), getattr(TF, name)(tl, to, reduction='sum'), name)
        # the legacy size_average / reduce arguments, as torch reads them
        self.same(F.mse_loss(gl, go, size_average=False), TF.mse_loss(tl, to, size_average=False), 'legacy sum')
        self.same(F.mse_loss(gl, go, reduce=False), TF.mse_loss(tl, to, reduce=False), 'legacy none')
        p = 1 / (1 + np.exp(-logits))
        y = (other > 0).astype(np.float32)
        self.same(F.binary_cross_entropy(gnn.from_numpy(p), gnn.from_numpy(y)),
                  TF.binary_cross_entropy(torch.from_numpy(p), torch.from_numpy(y)), 'bce')
        self.same(F.binary_cross_entropy_with_logits(gl, gnn.from_numpy(y), reduction='none'),
                  TF.binary_cross_entropy_with_logits(tl, torch.from_numpy(y), reduction='none'), 'bce logits')
        lp = TF.log_softmax(tl, 1)
        q = TF.softmax(to, 1)
        self.same(F.kl_div(gnn.from_numpy(lp.numpy()), gnn.from_numpy(q.numpy()), reduction='batchmean'),
                  TF.kl_div(lp, q, reduction='batchmean'), 'kl_div')
        with self.assertRaises(ValueError):
            F.mse_loss(gl, go, reduction='average')


class NoneAndFactoryKeywords(ParityTest):
    def test_batch_norm_momentum_none_is_the_cumulative_average(self):
        g, t = gnn.nn.BatchNorm2d(3, momentum=None), torch.nn.BatchNorm2d(3, momentum=None)
        self.assertEqual(repr(g), repr(t))
        for step in range(4):
            x = rand((2, 3, 4, 4), seed=20 + step, low=-1 + step, high=2 + 2 * step)
            g(gnn.from_numpy(x))
            t(torch.from_numpy(x))
        self.same_buffers(g, t)
        g2, t2 = gnn.nn.BatchNorm1d(3, momentum=0.3), torch.nn.BatchNorm1d(3, momentum=0.3)
        x = rand((5, 3), seed=30)
        g2(gnn.from_numpy(x))
        t2(torch.from_numpy(x))
        self.same_buffers(g2, t2)

    def same_buffers(self, g, t):
        tb = dict(t.named_buffers())
        for name, b in g.named_buffers():
            self.assert_close(to_np(b), tb[name].numpy(), 1e-5, 1e-6, name)

    def test_adaptive_avg_pool_none_keeps_the_dimension(self):
        x = rand((2, 3, 5, 6), seed=31)
        for size in ((None, 2), (3, None), (None, None), 4):
            g, t = gnn.nn.AdaptiveAvgPool2d(size), torch.nn.AdaptiveAvgPool2d(size)
            self.assertEqual(repr(g), repr(t))
            gx, tx = gnn.from_numpy(x), torch.from_numpy(x).requires_grad_()
            gx.set_requires_grad(True)
            gout, tout = g(gx), t(tx)
            self.assert_close(to_np(gout), tout.detach().numpy(), 1e-5, 1e-6, repr(size))
            self.assert_close(to_np(F.adaptive_avg_pool2d(gx, size)), tout.detach().numpy(), 1e-5, 1e-6,
                              'F ' + repr(size))
            gout.sum_all().backward()
            tout.sum().backward()
            self.assert_close(to_np(gx.get_grad()), tx.grad.numpy(), 1e-5, 1e-6, 'grad ' + repr(size))

    def test_device_and_dtype_keywords(self):
        for name, args in (('Linear', (2, 3)), ('Bilinear', (2, 2, 3)), ('Conv1d', (2, 3, 3)),
                           ('Conv2d', (2, 3, 3)), ('ConvTranspose2d', (2, 3, 3)), ('BatchNorm1d', (3,)),
                           ('BatchNorm2d', (3,)), ('GroupNorm', (1, 3)), ('LayerNorm', (3,)),
                           ('Embedding', (4, 3))):
            m = getattr(gnn.nn, name)(*args, device='cpu', dtype=Gnn.Dtype.FLOAT64)
            self.assertEqual({p.get_dtype() for p in m.parameters()}, {Gnn.Dtype.FLOAT64}, name)
            self.assertEqual(m.get_device(), 'cpu')
            self.assertEqual(getattr(gnn.nn, name)(*args, dtype='float64').get_device(), 'cpu')


if __name__ == '__main__':
    main()
