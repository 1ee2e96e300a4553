# torch.nn.utils.prune against torch 1.13: the masks of the deterministic methods, the
# reparametrization (weight_orig, weight_mask, the hook), iterative pruning, remove, the
# outputs and gradients through pruned layers, subclasses and the errors
#
# SPDX-License-Identifier: LGPL-2.1-or-later
import unittest

import numpy as np
import torch
import torch.nn.utils.prune as tprune

import gnn
import gnn.nn.utils.prune as prune
from gi.repository import GLib, Gnn


def msg(e):
    return getattr(e, 'message', str(e))


def to_gnn(a):
    return gnn.tensor(np.ascontiguousarray(a))


def linear_pair(seed=0, dtype=np.float32, in_f=5, out_f=4):
    torch.manual_seed(seed)
    t = torch.nn.Linear(in_f, out_f)
    m = gnn.nn.Linear(in_f, out_f)
    if dtype == np.float64:
        t = t.double()
        m = m.to(gnn.float64)
    m.load_state_dict({k: to_gnn(v.detach().numpy()) for k, v in t.state_dict().items()})
    return t, m


def conv_pair(seed=0):
    torch.manual_seed(seed)
    t = torch.nn.Conv2d(3, 4, 3)
    m = gnn.nn.Conv2d(3, 4, 3)
    m.load_state_dict({k: to_gnn(v.detach().numpy()) for k, v in t.state_dict().items()})
    return t, m


def state(mod):
    return {k: v.detach().numpy() for k, v in mod.state_dict().items()}


class TestPruneParity(unittest.TestCase):
    def assert_same_state(self, m, t):
        sm, st = state(m), state(t)
        self.assertEqual(list(sm.keys()), list(st.keys()))
        for k in st:
            np.testing.assert_array_equal(sm[k], st[k], err_msg=k)

    def assert_same_step(self, m, t, x, dtype=np.float32):
        tol = dict(rtol=1e-5, atol=1e-6) if dtype == np.float32 else dict(rtol=1e-12, atol=1e-12)
        yt = t(torch.tensor(x))
        ym = m(to_gnn(x))
        np.testing.assert_allclose(ym.detach().numpy(), yt.detach().numpy(), **tol)
        w = np.linspace(-1, 1, yt.numel()).reshape(yt.shape).astype(dtype)
        (yt * torch.tensor(w)).sum().backward()
        (ym * to_gnn(w)).sum().backward()
        for name, p in t.named_parameters():
            np.testing.assert_allclose(getattr(m, name).grad.numpy(), p.grad.numpy(), err_msg=name, **tol)

    def test_l1_unstructured_fraction_and_count(self):
        for dtype in (np.float32, np.float64):
            for amount in (0.3, 0.5, 7, 0, 1.0, 20):
                t, m = linear_pair(1, dtype)
                tprune.l1_unstructured(t, 'weight', amount=amount)
                self.assertIs(prune.l1_unstructured(m, 'weight', amount=amount), m)
                self.assert_same_state(m, t)
                np.testing.assert_array_equal(m.weight.detach().numpy(), t.weight.detach().numpy())
                x = np.random.RandomState(0).randn(3, 5).astype(dtype)
                self.assert_same_step(m, t, x, dtype)
                self.assertEqual([n for n, _ in m.named_parameters()], [n for n, _ in t.named_parameters()])
                self.assertEqual([n for n, _ in m.named_buffers()], [n for n, _ in t.named_buffers()])

    def test_l1_importance_scores(self):
        t, m = linear_pair(2)
        scores = np.random.RandomState(3).rand(4, 5).astype(np.float32)
        tprune.l1_unstructured(t, 'weight', amount=0.4, importance_scores=torch.tensor(scores))
        prune.l1_unstructured(m, 'weight', amount=0.4, importance_scores=to_gnn(scores))
        self.assert_same_state(m, t)

    def test_iterative_pruning_composes_masks(self):
        t, m = conv_pair(4)
        for step in (0.3, 0.5, 5, 0.2):
            tprune.l1_unstructured(t, 'weight', amount=step)
            prune.l1_unstructured(m, 'weight', amount=step)
            self.assert_same_state(m, t)
        hook_t = [h for h in t._forward_pre_hooks.values() if isinstance(h, tprune.BasePruningMethod)]
        self.assertIsInstance(hook_t[0], tprune.PruningContainer)
        method = Gnn.prune_get_method(m, 'weight')
        self.assertIsInstance(method, prune.PruningContainer)
        self.assertEqual(len(method), len(hook_t[0]))
        self.assertTrue(all(isinstance(x, prune.L1Unstructured) for x in method))
        x = np.random.RandomState(5).randn(2, 3, 6, 6).astype(np.float32)
        self.assert_same_step(m, t, x)

    def test_bias_as_the_tutorial_prunes_it(self):
        # the pruning tutorial: random_unstructured on weight, l1_unstructured(amount=3) on bias
        # (the deterministic half is compared; Linear's bias is also its constructor argument)
        t, m = linear_pair(11, in_f=5, out_f=6)
        tprune.l1_unstructured(t, 'bias', amount=3)
        prune.l1_unstructured(m, 'bias', amount=3)
        np.testing.assert_array_equal(m.bias_mask.numpy(), t.bias_mask.numpy())
        self.assertEqual(sorted(m.state_dict().keys()), sorted(t.state_dict().keys()))
        np.testing.assert_allclose(m.bias.detach().numpy(), t.bias.detach().numpy(), rtol=1e-6)
        x = np.random.RandomState(12).randn(3, 5).astype(np.float32)
        self.assert_same_step(m, t, x)
        tprune.remove(t, 'bias')
        prune.remove(m, 'bias')
        self.assertEqual(sorted(m.state_dict().keys()), ['bias', 'weight'])
        np.testing.assert_allclose(m.bias.detach().numpy(), t.bias.detach().numpy(), rtol=1e-6)

    def test_custom_from_mask_and_identity(self):
        t, m = linear_pair(6)
        mask = (np.random.RandomState(7).rand(4, 5) > 0.4).astype(np.float32)
        tprune.identity(t, 'weight')
        prune.identity(m, 'weight')
        tprune.custom_from_mask(t, 'weight', torch.tensor(mask))
        prune.custom_from_mask(m, 'weight', to_gnn(mask))
        # a second custom mask after l1 (a "global" method in a container)
        tprune.l1_unstructured(t, 'weight', amount=3)
        prune.l1_unstructured(m, 'weight', amount=3)
        mask2 = (np.random.RandomState(8).rand(4, 5) > 0.3).astype(np.float32)
        tprune.custom_from_mask(t, 'weight', torch.tensor(mask2))
        prune.custom_from_mask(m, 'weight', to_gnn(mask2))
        self.assert_same_state(m, t)
        self.assert_same_step(m, t, np.ones((2, 5), np.float32))

    def test_random_unstructured_count(self):
        for amount, pruned in ((0.25, 5), (7, 7), (0.5, 10), (0, 0)):
            _, m = linear_pair(9)
            prune.random_unstructured(m, 'weight', amount=amount)
            mask = m.weight_mask.numpy()
            self.assertEqual(int((mask == 0).sum()), pruned)
            np.testing.assert_array_equal(m.weight.detach().numpy(), m.weight_orig.detach().numpy() * mask)
        # again among the entries left: 10 of 20, then half the 10
        _, m = linear_pair(9)
        prune.random_unstructured(m, 'weight', amount=0.5)
        first = m.weight_mask.numpy().copy()
        prune.random_unstructured(m, 'weight', amount=0.5)
        second = m.weight_mask.numpy()
        self.assertEqual(int((second == 0).sum()), 15)
        self.assertTrue(np.all(second[first == 0] == 0))

    def test_remove_makes_pruning_permanent(self):
        t, m = linear_pair(10)
        tprune.l1_unstructured(t, 'weight', amount=0.5)
        prune.l1_unstructured(m, 'weight', amount=0.5)
        self.assertTrue(prune.is_pruned(m))
        tprune.remove(t, 'weight')
        self.assertIs(prune.remove(m, 'weight'), m)
        self.assertFalse(prune.is_pruned(m))
        self.assertFalse(tprune.is_pruned(t))
        self.assert_same_state(m, t)
        self.assertEqual([n for n, _ in m.named_parameters()], [n for n, _ in t.named_parameters()])
        self.assertIsInstance(m.weight, gnn.nn.Parameter)
        self.assertTrue(m.weight.requires_grad)
        with self.assertRaises(ValueError) as cm:
            prune.remove(m, 'weight')
        self.assertIn("Parameter 'weight' of module Linear", msg(cm.exception))
        self.assertIn('has to be pruned before pruning can be removed', msg(cm.exception))

    def test_is_pruned_sees_submodules(self):
        seq = gnn.nn.Sequential(gnn.nn.Linear(3, 4), gnn.nn.ReLU(), gnn.nn.Linear(4, 2))
        self.assertFalse(prune.is_pruned(seq))
        prune.l1_unstructured(seq[2], 'weight', amount=2)
        self.assertTrue(prune.is_pruned(seq))
        self.assertEqual(sorted(seq.state_dict().keys()),
                         ['0.bias', '0.weight', '2.bias', '2.weight_mask', '2.weight_orig'])

    def test_amount_errors(self):
        _, m = linear_pair()
        for amount, text in ((-1, 'amount=-1 should either be a float in the range [0, 1] or a non-negative integer'),
                             (1.5, 'amount=1.5 should either be a float in the range [0, 1] or a non-negative integer'),
                             (-0.1, 'amount=-0.1 should either be a float'),
                             (21, 'amount=21 should be smaller than the number of parameters to prune=20')):
            for fn in (prune.l1_unstructured, prune.random_unstructured):
                with self.assertRaises(ValueError) as cm:
                    fn(m, 'weight', amount=amount)
                self.assertIn(text, msg(cm.exception))
                self.assertIn('weight', msg(cm.exception))
                self.assertIn('Linear', msg(cm.exception))
            # torch raises the same
            with self.assertRaises(ValueError) as ct:
                tprune.l1_unstructured(torch.nn.Linear(5, 4), 'weight', amount=amount)
            self.assertIn(str(ct.exception).split(' (')[0], msg(cm.exception))
        with self.assertRaises(TypeError):
            prune.l1_unstructured(m, 'weight', amount='half')
        with self.assertRaises(TypeError):
            tprune.l1_unstructured(torch.nn.Linear(5, 4), 'weight', amount='half')
        with self.assertRaises(GLib.Error) as cm:
            prune.l1_unstructured(m, 'weight', amount=0.5, importance_scores=gnn.zeros(20))
        self.assertIn('importance_scores should have the same shape as parameter weight of Linear', msg(cm.exception))
        # nothing changed by the failures
        self.assertFalse(prune.is_pruned(m))
        self.assertEqual(sorted(m.state_dict().keys()), ['bias', 'weight'])

    def test_method_classes(self):
        self.assertEqual(prune.L1Unstructured(0.3).amount, 0.3)
        self.assertEqual(prune.L1Unstructured(3).amount, 3)
        self.assertIsInstance(prune.L1Unstructured(3).amount, int)
        self.assertEqual(prune.L1Unstructured.PRUNING_TYPE, 'unstructured')
        self.assertEqual(prune.CustomFromMask(gnn.ones(2)).get_pruning_type(), 'global')
        self.assertIsInstance(prune.L1Unstructured(0.3), prune.BasePruningMethod)
        with self.assertRaises(ValueError):
            prune.L1Unstructured(-2)
        t = np.array([[0.5, -2.0, 3.0], [-0.1, 4.0, 1.5]], np.float32)
        got = prune.L1Unstructured(2).prune(to_gnn(t))
        want = tprune.L1Unstructured(2).prune(torch.tensor(t))
        np.testing.assert_array_equal(got.numpy(), want.numpy())
        # the classmethod apply, as torch's
        t_mod, m_mod = linear_pair(11)
        tprune.L1Unstructured.apply(t_mod, 'weight', amount=4)
        method = prune.L1Unstructured.apply(m_mod, 'weight', amount=4)
        self.assertIsInstance(method, prune.L1Unstructured)
        self.assertEqual(method._tensor_name, 'weight')
        self.assert_same_state(m_mod, t_mod)

    def test_subclass_compute_mask(self):
        class Threshold(prune.BasePruningMethod):
            PRUNING_TYPE = 'unstructured'

            def __init__(self, threshold):
                self.threshold = threshold

            def compute_mask(self, t, default_mask):
                return default_mask * (t.abs() > self.threshold).to(default_mask.dtype)

        class TThreshold(tprune.BasePruningMethod):
            PRUNING_TYPE = 'unstructured'

            def __init__(self, threshold):
                self.threshold = threshold

            def compute_mask(self, t, default_mask):
                return default_mask * (t.abs() > self.threshold).to(default_mask.dtype)

        t, m = linear_pair(12)
        TThreshold.apply(t, 'weight', 0.2)
        method = Threshold.apply(m, 'weight', 0.2)
        self.assertIsInstance(method, Threshold)
        self.assert_same_state(m, t)
        # composes with the built-in ones: an unstructured method sees only the unpruned entries
        tprune.l1_unstructured(t, 'weight', amount=2)
        prune.l1_unstructured(m, 'weight', amount=2)
        TThreshold.apply(t, 'weight', 0.35)
        Threshold.apply(m, 'weight', 0.35)
        self.assert_same_state(m, t)
        x = np.random.RandomState(13).randn(2, 5).astype(np.float32)
        self.assert_same_step(m, t, x)

        class Broken(prune.BasePruningMethod):
            PRUNING_TYPE = 'unstructured'

            def compute_mask(self, t, default_mask):
                raise KeyError('no mask today')

        _, m2 = linear_pair(12)
        with self.assertRaises(KeyError):
            Broken.apply(m2, 'weight')
        self.assertFalse(prune.is_pruned(m2))
        self.assertEqual(sorted(m2.state_dict().keys()), ['bias', 'weight'])

    def test_hook_is_a_forward_pre_hook(self):
        _, m = linear_pair(14)
        prune.l1_unstructured(m, 'weight', amount=0.5)
        # the pruned weight follows weight_orig changed in place
        with gnn.no_grad():
            m.weight_orig.fill_(2.0)
        y = m(gnn.ones(1, 5))
        mask = m.weight_mask.numpy()
        np.testing.assert_allclose(y.detach().numpy()[0], 2.0 * mask.sum(1) + m.bias.detach().numpy(), rtol=1e-6)

    def test_ties_prune_the_right_count(self):
        # equal magnitudes: torch's topk picks among ties by its selection algorithm; gnn's
        # topk takes the first in the tensor's order. The values pruned are the same.
        _, m = linear_pair(15)
        w = np.array([[1, -1, 2, 1, 3], [1, 2, -1, 1, 4], [5, 1, 1, 6, 1], [2, 2, 1, 7, 1]], np.float32)
        with gnn.no_grad():
            m.weight.copy_(to_gnn(w))
        prune.l1_unstructured(m, 'weight', amount=5)
        mask = m.weight_mask.numpy()
        self.assertEqual(int((mask == 0).sum()), 5)
        self.assertTrue(np.all(np.abs(w[mask == 0]) == 1))


class TestStructuredAndGlobal(unittest.TestCase):
    assert_same_state = TestPruneParity.assert_same_state
    assert_same_step = TestPruneParity.assert_same_step

    def test_ln_structured(self):
        for n, dim, amount in ((2, 0, 0.5), (1, 1, 2), (float('inf'), -1, 0.34), (float('-inf'), 0, 1), (3, 0, 2), (1, 0, 0)):
            t, m = conv_pair(20)
            tprune.ln_structured(t, 'weight', amount=amount, n=n, dim=dim)
            self.assertIs(prune.ln_structured(m, 'weight', amount=amount, n=n, dim=dim), m)
            self.assert_same_state(m, t)
            x = np.random.RandomState(21).randn(2, 3, 5, 5).astype(np.float32)
            self.assert_same_step(m, t, x)

    def test_ln_structured_iterative_and_scores(self):
        t, m = conv_pair(22)
        scores = np.random.RandomState(23).rand(4, 3, 3, 3).astype(np.float32)
        tprune.ln_structured(t, 'weight', amount=1, n=2, dim=0, importance_scores=torch.tensor(scores))
        prune.ln_structured(m, 'weight', amount=1, n=2, dim=0, importance_scores=to_gnn(scores))
        self.assert_same_state(m, t)
        # a structured method after another prunes among the channels not wholly pruned
        tprune.ln_structured(t, 'weight', amount=0.5, n=1, dim=0)
        prune.ln_structured(m, 'weight', amount=0.5, n=1, dim=0)
        tprune.l1_unstructured(t, 'weight', amount=5)
        prune.l1_unstructured(m, 'weight', amount=5)
        self.assert_same_state(m, t)

    def test_random_structured(self):
        _, m = conv_pair(24)
        prune.random_structured(m, 'weight', amount=0.5, dim=0)
        mask = m.weight_mask.numpy()
        per_channel = mask.reshape(4, -1).sum(1)
        self.assertEqual(sorted(per_channel.tolist()), [0, 0, 27, 27])
        prune.random_structured(m, 'weight', amount=1, dim=0)
        per_channel = m.weight_mask.numpy().reshape(4, -1).sum(1)
        self.assertEqual(sorted(per_channel.tolist()), [0, 0, 0, 27])

    def test_structured_errors(self):
        _, m = linear_pair(25)
        with self.assertRaises(IndexError) as cm:
            prune.ln_structured(m, 'weight', amount=1, n=2, dim=2)
        self.assertIn('Invalid index 2 for tensor of size torch.Size([4, 5])', msg(cm.exception))
        with self.assertRaises(IndexError):
            tprune.ln_structured(torch.nn.Linear(5, 4), 'weight', amount=1, n=2, dim=2)
        with self.assertRaises(ValueError) as cm:
            prune.random_structured(m, 'weight', amount=5, dim=0)
        self.assertIn('amount=5 should be smaller than the number of parameters to prune=4', msg(cm.exception))
        bn = gnn.nn.BatchNorm1d(4)
        with self.assertRaises(ValueError) as cm:
            prune.ln_structured(bn, 'weight', amount=1, n=2, dim=0)
        self.assertIn('Structured pruning can only be applied to multidimensional tensors. Found tensor of '
                      'shape torch.Size([4]) with 1 dims', msg(cm.exception))
        self.assertFalse(prune.is_pruned(m))
        self.assertFalse(prune.is_pruned(bn))

    def test_global_unstructured(self):
        t1, m1 = linear_pair(26)
        t2, m2 = conv_pair(27)
        for amount in (0.3, 20):
            tprune.global_unstructured([(t1, 'weight'), (t2, 'weight')], pruning_method=tprune.L1Unstructured,
                                       amount=amount)
            prune.global_unstructured([(m1, 'weight'), (m2, 'weight')], pruning_method=prune.L1Unstructured,
                                      amount=amount)
            self.assert_same_state(m1, t1)
            self.assert_same_state(m2, t2)
        # importance scores for one of the pairs
        t3, m3 = linear_pair(28)
        t4, m4 = linear_pair(29)
        scores = np.random.RandomState(30).rand(4, 5).astype(np.float32)
        tprune.global_unstructured([(t3, 'weight'), (t4, 'weight')], pruning_method=tprune.L1Unstructured,
                                   importance_scores={(t3, 'weight'): torch.tensor(scores)}, amount=0.5)
        prune.global_unstructured([(m3, 'weight'), (m4, 'weight')], pruning_method=prune.L1Unstructured,
                                  importance_scores={(m3, 'weight'): to_gnn(scores)}, amount=0.5)
        self.assert_same_state(m3, t3)
        self.assert_same_state(m4, t4)
        with self.assertRaises(ValueError) as cm:
            prune.global_unstructured([(m3, 'weight')], pruning_method=prune.RandomStructured, amount=1, dim=0)
        self.assertIn('Only "unstructured" PRUNING_TYPE supported for the `pruning_method`', msg(cm.exception))


def cnn_pair(seed=0):
    torch.manual_seed(seed)
    t = torch.nn.Sequential(torch.nn.Conv2d(3, 4, 3), torch.nn.ReLU(), torch.nn.Flatten(), torch.nn.Linear(16, 5))
    m = gnn.nn.Sequential(gnn.nn.Conv2d(3, 4, 3), gnn.nn.ReLU(), gnn.nn.Flatten(), gnn.nn.Linear(16, 5))
    m.load_state_dict({k: to_gnn(v.detach().numpy()) for k, v in t.state_dict().items()})
    return t, m


class TestSparsityReport(unittest.TestCase):
    """gnn's own sparsity report (torch has none) against counts by hand and torch's tensors"""

    def assert_rows_match_torch(self, report, t):
        tmods = dict(t.named_modules())
        for e in report:
            tt = getattr(tmods[e.path], e.name).detach()
            with self.subTest(path=e.path, name=e.name):
                self.assertEqual(e.type, type(tmods[e.path]).__name__)
                self.assertEqual(e.zeros, int((tt == 0).sum()))
                self.assertEqual(e.numel, tt.numel())
                self.assertEqual(e.fraction, int((tt == 0).sum()) / tt.numel())
                self.assertEqual(e.pruned, hasattr(tmods[e.path], e.name + '_mask'))

    def test_global_l1_and_bias(self):
        for amount in (0.5, 0.3, 40):
            t, m = cnn_pair(3)
            tparams = [(t[0], 'weight'), (t[3], 'weight')]
            tprune.global_unstructured(tparams, pruning_method=tprune.L1Unstructured, amount=amount)
            prune.global_unstructured([(m[0], 'weight'), (m[3], 'weight')], pruning_method=prune.L1Unstructured,
                                      amount=amount)
            tprune.l1_unstructured(t[3], 'bias', amount=2)
            prune.l1_unstructured(m[3], 'bias', amount=2)

            report = prune.sparsity_report(m)
            self.assertIsInstance(report, prune.SparsityReport)
            # the rows in torch's named_parameters order, <name>_orig listed as <name>
            self.assertEqual([(e.path, e.name) for e in report],
                             [tuple(k.replace('_orig', '').split('.')) for k, _ in t.named_parameters()])
            self.assert_rows_match_torch(report, t)
            # by hand, over gnn's own tensors
            zeros = sum(int((getattr(m[int(p)], n).detach().numpy() == 0).sum()) for p, n in
                        [(e.path, e.name) for e in report])
            self.assertEqual(report.zeros, zeros)
            self.assertEqual(report.numel, 108 + 4 + 80 + 5)

            # global over the tensors given to global_unstructured, as the tutorial counts it
            weights = prune.sparsity_report(m, names='weight')
            tzeros = sum(int((getattr(mod, n) == 0).sum()) for mod, n in tparams)
            tnumel = sum(getattr(mod, n).numel() for mod, n in tparams)
            self.assertEqual((weights.zeros, weights.numel), (tzeros, tnumel))
            self.assertEqual(weights.fraction, tzeros / tnumel)
            want = round(amount * tnumel) if isinstance(amount, float) else amount
            self.assertEqual(weights.zeros, want)
            self.assertEqual(len(prune.sparsity_report(m, pruned_only=True)), 3)
            self.assertEqual(weights.module('3'), (int((t[3].weight == 0).sum()), 80))
            self.assertIsNone(weights.module('1'))
            text = str(weights)
            self.assertIn('weight*', text)
            self.assertIn('global', text)
            self.assertIn('{:.2f}%'.format(100 * tzeros / tnumel), text)

            # remove keeps the zeros; the rows are plain parameters again
            tprune.remove(t[0], 'weight')
            prune.remove(m[0], 'weight')
            after = prune.sparsity_report(m, names=['weight'])
            self.assertFalse(after[0].pruned)
            self.assertEqual(after.zeros, weights.zeros)
            self.assert_rows_match_torch(after, t)

    def test_l1_per_layer_after_a_step(self):
        # pruned then trained one step: zeros stay where the masks are, the rows follow torch's
        t, m = cnn_pair(4)
        for tm, mm in ((t[0], m[0]), (t[3], m[3])):
            tprune.l1_unstructured(tm, 'weight', amount=0.25)
            prune.l1_unstructured(mm, 'weight', amount=0.25)
        x = np.random.RandomState(1).randn(2, 3, 4, 4).astype(np.float32)
        topt = torch.optim.SGD(t.parameters(), lr=0.1)
        mopt = gnn.optim.SGD(m.parameters(), lr=0.1)
        t(torch.tensor(x)).sum().backward()
        m(to_gnn(x)).sum().backward()
        topt.step()
        mopt.step()
        t(torch.tensor(x))
        m(to_gnn(x))
        report = prune.sparsity_report(m)
        self.assert_rows_match_torch(report, t)
        self.assertEqual([e.zeros for e in report if e.pruned], [27, 20])

    def test_is_gnns_own(self):
        self.assertFalse(hasattr(tprune, 'sparsity_report'))
        self.assertIn("gnn's own", prune.sparsity_report.__doc__)
        self.assertIn("gnn's own", prune.SparsityReport.__doc__)
        self.assertIn('sparsity_report', prune.__all__)
        self.assertEqual(len(prune.sparsity_report(gnn.nn.ReLU())), 0)
        self.assertEqual(prune.sparsity_report(gnn.nn.ReLU()).fraction, 0.0)


if __name__ == '__main__':
    unittest.main()
