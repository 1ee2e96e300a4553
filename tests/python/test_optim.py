"""The optimizers (Gnn.SGD, Adam, AdamW, RMSprop, Adagrad) against torch.optim 1.13: the same
MLP with the same weights trained by both for 50 steps, every float32 parameter compared
after every step; per-group options, state dicts that resume training exactly, the Python
API over parameter groups, and an optimizer written in Python."""
import numpy as np
import torch
from torch import nn

from gnntest import Gnn, GLib, ParityTest, TOL, main, rand, to_gnn, to_np

RTOL, ATOL = TOL[np.float32]
STEPS = 50

X = rand((6, 5), seed=11, low=-1, high=1)
Y = rand((6, 3), seed=12, low=-1, high=1)


def models(seed=0):
    """A torch MLP and a gnn MLP holding a copy of its weights."""
    torch.manual_seed(seed)
    t = nn.Sequential(nn.Linear(5, 8), nn.ReLU(), nn.Linear(8, 3))
    g = Gnn.Sequential(Gnn.Linear.new(5, 8, True), Gnn.ReLU(), Gnn.Linear.new(8, 3, True))
    g.load_state_dict(dict(t.state_dict()))
    return t, g


def torch_step(t, opt, x=X, y=Y):
    opt.zero_grad()
    loss = nn.functional.mse_loss(t(torch.from_numpy(x)), torch.from_numpy(y))
    loss.backward()
    opt.step()
    return loss.item()


def gnn_step(g, opt, x=X, y=Y):
    opt.zero_grad()
    loss = Gnn.mse_loss(g(to_gnn(x)), to_gnn(y), Gnn.Reduction.MEAN)
    loss.backward()
    opt.step()
    return loss.item()


# each optimizer with the combinations of its options
CASES = [
    ('SGD', dict(lr=0.1)),
    ('SGD', dict(lr=0.1, momentum=0.9)),
    ('SGD', dict(lr=0.05, momentum=0.9, dampening=0.1, weight_decay=0.01)),
    ('SGD', dict(lr=0.05, momentum=0.8, nesterov=True, weight_decay=0.1)),
    ('SGD', dict(lr=0.01, momentum=0.5, maximize=True)),
    ('Adam', dict()),
    ('Adam', dict(lr=0.01)),
    ('Adam', dict(lr=0.01, amsgrad=True)),
    ('Adam', dict(lr=0.01, weight_decay=0.1)),
    ('Adam', dict(lr=0.01, betas=(0.8, 0.99), eps=1e-6, amsgrad=True, weight_decay=0.05)),
    ('Adam', dict(lr=0.005, maximize=True)),
    ('AdamW', dict(lr=0.01)),
    ('AdamW', dict(lr=0.01, weight_decay=0.1, amsgrad=True)),
    ('AdamW', dict(lr=0.01, betas=(0.5, 0.9), weight_decay=0.5, maximize=True)),
    ('RMSprop', dict()),
    ('RMSprop', dict(lr=0.001, alpha=0.9)),
    ('RMSprop', dict(lr=0.001, centered=True)),
    ('RMSprop', dict(lr=0.001, momentum=0.9)),
    ('RMSprop', dict(lr=0.001, momentum=0.5, centered=True, weight_decay=0.1, eps=1e-6)),
    ('RMSprop', dict(lr=0.001, maximize=True)),
    ('Adagrad', dict()),
    ('Adagrad', dict(lr=0.1, lr_decay=0.01)),
    ('Adagrad', dict(lr=0.1, initial_accumulator_value=0.1, weight_decay=0.1, eps=1e-8)),
    ('Adagrad', dict(lr=0.05, maximize=True)),
]


class Parity(ParityTest):
    def compare(self, t, g, what):
        for (name, tp), gp in zip(t.named_parameters(), g.parameters(True)):
            self.assert_close(to_np(gp), tp.detach().numpy(), RTOL, ATOL, '%s: %s' % (what, name))

    def test_trajectories(self):
        for name, options in CASES:
            with self.subTest(optimizer=name, **options):
                t, g = models()
                topt = getattr(torch.optim, name)(t.parameters(), **options)
                gopt = getattr(Gnn, name)(g.parameters(True), **options)
                for step in range(STEPS):
                    tl = torch_step(t, topt)
                    gl = gnn_step(g, gopt)
                    what = '%s(%s) step %d' % (name, options, step + 1)
                    self.assert_close(gl, tl, RTOL, ATOL, what + ' loss')
                    self.compare(t, g, what)
                # the same state, under PyTorch's names
                tstate = topt.state_dict()['state']
                gstate = gopt.state_dict()
                for i, tparam_state in tstate.items():
                    for key, value in tparam_state.items():
                        if value is None:         # SGD's momentum_buffer without momentum
                            continue
                        got = gstate['state.%d.%s' % (i, key)]
                        if key == 'step':
                            self.assertEqual(got, float(value))
                        else:
                            # looser than the parameters: buffers such as RMSprop's g / sqrt(v)
                            # amplify the last-bit differences of the gradients
                            self.assert_close(to_np(got), value.numpy(), 1e-4, 1e-5, '%s %s' % (what, key))

    def test_defaults(self):
        """The keyword defaults are PyTorch's."""
        for name, kwargs in (('SGD', dict(lr=0.1)), ('Adam', {}), ('AdamW', {}), ('RMSprop', {}), ('Adagrad', {})):
            t, g = models()
            tgroup = getattr(torch.optim, name)(t.parameters(), **kwargs).param_groups[0]
            ggroup = getattr(Gnn, name)(g.parameters(True), **kwargs).param_groups[0]
            for key in ggroup.keys():
                if key != 'params':
                    self.assertEqual(ggroup[key], tgroup[key], '%s %s' % (name, key))
                    self.assertIsInstance(ggroup[key], bool if isinstance(tgroup[key], bool)
                                          else tuple if isinstance(tgroup[key], tuple) else float)
            self.assertEqual(set(ggroup.keys()),
                             set(tgroup.keys()) - {'foreach', 'capturable', 'differentiable', 'fused'})

    def test_param_groups(self):
        """A list of dicts gives per-group options, as in torch; changing group["lr"] between
        steps takes effect on the next one."""
        t, g = models()
        tl1, tl2 = t[0], t[2]
        gl1, gl2 = g[0], g[2]
        topt = torch.optim.SGD([{'params': tl1.parameters()},
                                {'params': tl2.parameters(), 'lr': 0.01, 'momentum': 0.5}],
                               lr=0.1, momentum=0.9)
        gopt = Gnn.SGD([{'params': gl1.parameters(True)},
                        {'params': gl2.parameters(True), 'lr': 0.01, 'momentum': 0.5}],
                       lr=0.1, momentum=0.9)
        self.assertEqual(len(gopt.param_groups), 2)
        self.assertEqual(gopt.param_groups[1]['lr'], 0.01)
        self.assertEqual(gopt.param_groups[1]['momentum'], 0.5)
        self.assertEqual(gopt.param_groups[0]['lr'], 0.1)
        for step in range(20):
            if step == 10:
                for opt in (topt, gopt):
                    opt.param_groups[0]['lr'] = 0.05
                    opt.param_groups[1]['momentum'] = 0.0
            torch_step(t, topt)
            gnn_step(g, gopt)
            self.compare(t, g, 'groups, step %d' % (step + 1))

        # add_param_group with a dict, defaults filled in
        extra_t = nn.Parameter(torch.ones(3))
        extra_g = Gnn.Parameter.new(Gnn.Tensor.new_ones([3], Gnn.Dtype.FLOAT32, None), True)
        topt.add_param_group({'params': [extra_t], 'weight_decay': 0.5})
        gopt.add_param_group({'params': extra_g, 'weight_decay': 0.5})
        self.assertEqual(len(gopt.param_groups), 3)
        self.assertEqual(gopt.param_groups[2]['lr'], topt.param_groups[2]['lr'])
        self.assertEqual(gopt.param_groups[2]['weight_decay'], 0.5)

    def test_adam_betas(self):
        t, g = models()
        topt = torch.optim.Adam(t.parameters(), lr=0.01)
        gopt = Gnn.Adam(g.parameters(True), lr=0.01)
        self.assertEqual(gopt.param_groups[0]['betas'], (0.9, 0.999))
        for step in range(10):
            if step == 5:
                for opt in (topt, gopt):
                    opt.param_groups[0]['betas'] = (0.5, 0.9)
            torch_step(t, topt)
            gnn_step(g, gopt)
            self.compare(t, g, 'betas, step %d' % (step + 1))
        self.assertEqual(gopt.param_groups[0]['betas'], (0.5, 0.9))


class StateDicts(ParityTest):
    def check_resume(self, name, options):
        _, g = models()
        opt = getattr(Gnn, name)(g.parameters(True), **options)
        for step in range(10):
            gnn_step(g, opt, x=rand((6, 5), seed=step), y=rand((6, 3), seed=100 + step))
        saved = opt.state_dict()
        # a fresh model and optimizer, loaded (from a plain dict, as one read from a file)
        _, g2 = models(seed=1)
        g2.load_state_dict(dict(g.state_dict()))
        opt2 = getattr(Gnn, name)(g2.parameters(True), **options)
        opt2.load_state_dict(dict(saved.items()))
        del saved
        for step in range(10, 20):
            x, y = rand((6, 5), seed=step), rand((6, 3), seed=100 + step)
            gnn_step(g, opt, x=x, y=y)
            gnn_step(g2, opt2, x=x, y=y)
            for a, b in zip(g.parameters(True), g2.parameters(True)):
                np.testing.assert_array_equal(to_np(a), to_np(b), '%s step %d' % (name, step + 1))

    def test_resume_exactly(self):
        for name, options in (('SGD', dict(lr=0.1, momentum=0.9, nesterov=True)),
                              ('Adam', dict(lr=0.01, amsgrad=True)),
                              ('AdamW', dict(lr=0.01, weight_decay=0.1)),
                              ('RMSprop', dict(lr=0.01, momentum=0.5, centered=True)),
                              ('Adagrad', dict(lr=0.1, lr_decay=0.1))):
            with self.subTest(optimizer=name):
                self.check_resume(name, options)

    def test_layout(self):
        """PyTorch's state_dict, flattened: state.<n>.<name> and param_groups.<g>.<option>."""
        t, g = models()
        opt = Gnn.Adam(g.parameters(True), lr=0.01)
        gnn_step(g, opt)
        sd = opt.state_dict()
        self.assertEqual(sd.keys()[:3], ['state.0.step', 'state.0.exp_avg', 'state.0.exp_avg_sq'])
        self.assertEqual(sd['state.0.step'], 1.0)
        self.assertEqual(sd['param_groups.0.lr'].unpack(), 0.01)
        self.assertEqual(sd['param_groups.0.betas'].unpack(), (0.9, 0.999))
        self.assertEqual(sd['param_groups.0.params'].unpack(), [0, 1, 2, 3])
        # the options of a loaded state replace the optimizer's
        sd['param_groups.0.lr'] = GLib.Variant('d', 0.5)
        opt2 = Gnn.Adam(g.parameters(True))
        opt2.load_state_dict(sd)
        self.assertEqual(opt2.param_groups[0]['lr'], 0.5)
        self.assertIn(list(g.parameters(True))[0], opt2.state)

    def test_mismatch(self):
        _, g = models()
        opt = Gnn.SGD(g.parameters(True), lr=0.1, momentum=0.9)
        gnn_step(g, opt)
        other = Gnn.SGD(g[0].parameters(True), lr=0.1, momentum=0.9)
        with self.assertRaises(GLib.Error) as cm:
            other.load_state_dict(opt.state_dict())
        self.assertIn("loaded state dict contains a parameter group that doesn't match the size of "
                      "optimizer's group", cm.exception.message)
        two = Gnn.SGD([{'params': g[0].parameters(True)}, {'params': g[2].parameters(True)}], lr=0.1)
        with self.assertRaises(GLib.Error) as cm:
            two.load_state_dict(opt.state_dict())
        self.assertIn('loaded state dict has a different number of parameter groups', cm.exception.message)


class PythonApi(ParityTest):
    def test_group_mapping(self):
        _, g = models()
        opt = Gnn.Adam(g.parameters(True), lr=0.01, amsgrad=True)
        group = opt.param_groups[0]
        self.assertIsInstance(group, Gnn.ParamGroup)
        self.assertEqual(group.keys(), ['params', 'lr', 'betas', 'eps', 'weight_decay', 'amsgrad', 'maximize'])
        self.assertIn('lr', group)
        self.assertIn('params', group)
        self.assertNotIn('momentum', group)
        self.assertIs(group['amsgrad'], True)
        self.assertIsInstance(group['lr'], float)
        params = list(g.parameters(True))
        self.assertEqual(len(group['params']), 4)
        for a, b in zip(group['params'], params):
            self.assertIs(a, b)
        with self.assertRaises(KeyError):
            group['momentum']
        group['lr'] = 1
        self.assertEqual(group['lr'], 1.0)
        group['custom'] = 'note'
        self.assertEqual(group['custom'], 'note')
        self.assertEqual(group.setdefault('initial_lr', 0.01), 0.01)
        self.assertEqual(group.get('nothing', 3), 3)
        with self.assertRaises(TypeError):
            group['params'] = []
        with self.assertRaises(TypeError):
            group['lr'] = None

    def test_zero_grad(self):
        _, g = models()
        opt = Gnn.SGD(g.parameters(True), lr=0.1)
        Gnn.mse_loss(g(to_gnn(X)), to_gnn(Y), Gnn.Reduction.MEAN).backward()
        p = list(g.parameters(True))[0]
        grad = p.grad
        opt.zero_grad(set_to_none=False)
        self.assertIs(p.grad, grad)
        self.assertFalse(to_np(grad).any())
        opt.zero_grad()
        self.assertIsNone(p.grad)

    def test_step_closure(self):
        _, g = models()
        opt = Gnn.SGD(g.parameters(True), lr=0.1)

        def closure():
            opt.zero_grad()
            loss = Gnn.mse_loss(g(to_gnn(X)), to_gnn(Y), Gnn.Reduction.MEAN)
            loss.backward()
            return loss

        first = opt.step(closure).item()
        second = opt.step(closure).item()
        self.assertLess(second, first)
        self.assertIsNone(opt.step())

    def test_errors(self):
        _, g = models()
        with self.assertRaises(GLib.Error) as cm:
            Gnn.SGD(g.parameters(True), lr=-0.1)
        self.assertEqual(cm.exception.message, 'Invalid learning rate: -0.1')
        self.assertTrue(cm.exception.matches(Gnn.error_quark(), int(Gnn.Error.INVALID_ARGUMENT)))
        with self.assertRaises(GLib.Error) as cm:
            Gnn.SGD(g.parameters(True), lr=0.1, nesterov=True)
        self.assertEqual(cm.exception.message, 'Nesterov momentum requires a momentum and zero dampening')
        with self.assertRaises(GLib.Error) as cm:
            Gnn.Adam(g.parameters(True), betas=(0.9, 1.0))
        self.assertEqual(cm.exception.message, 'Invalid beta parameter at index 1: 1.0')
        with self.assertRaises(GLib.Error) as cm:
            Gnn.Adagrad([], lr=0.1)
        self.assertEqual(cm.exception.message, 'optimizer got an empty parameter list')
        with self.assertRaises(GLib.Error) as cm:
            Gnn.RMSprop([{'params': g[0].parameters(True), 'alpha': -1}])
        self.assertEqual(cm.exception.message, 'Invalid alpha value: -1.0')
        with self.assertRaises(TypeError):
            Gnn.SGD(list(g.parameters(True))[0], lr=0.1)
        with self.assertRaises(ValueError):
            Gnn.SGD(g.parameters(True))       # lr is required
        # lr may come from every group instead
        opt = Gnn.SGD([{'params': g.parameters(True), 'lr': 0.3}])
        self.assertEqual(opt.param_groups[0]['lr'], 0.3)
        with self.assertRaises(GLib.Error) as cm:
            opt.add_param_group({'params': g[0].parameters(True)})
        self.assertIn('more than one parameter group', cm.exception.message)

    def test_from_properties(self):
        """Every case built from properties alone (GObject.new, then init), as loaders and
        bindings build objects, trains as the constructor's object does and saves the same
        state dict."""
        from gi.repository import Gio, GObject
        for name, options in CASES:
            with self.subTest(optimizer=name, **options):
                _, g1 = models()
                _, g2 = models()
                params = Gio.ListStore.new(Gnn.Tensor)
                for p in g2.parameters(True):
                    params.append(p)
                props = {k: GLib.Variant('(dd)', v) if k == 'betas' else v for k, v in options.items()}
                built = GObject.new(getattr(Gnn, name), params=params, **props)
                self.assertTrue(built.init(None))
                made = getattr(Gnn, name)(g1.parameters(True), **options)
                for key, value in options.items():
                    self.assertEqual(built.get_property(key.replace('_', '-')),
                                     GLib.Variant('(dd)', value) if key == 'betas' else value)
                for _ in range(10):
                    gnn_step(g1, made)
                    gnn_step(g2, built)
                want, got = made.state_dict(), built.state_dict()
                self.assertEqual(list(got.keys()), list(want.keys()))
                for key, value in want.items():
                    if isinstance(value, Gnn.Tensor):
                        np.testing.assert_array_equal(to_np(got[key]), to_np(value), key)
                    else:
                        self.assertEqual(got[key], value, key)
        with self.assertRaises(GLib.Error) as cm:
            GObject.new(Gnn.SGD, params=Gio.ListStore.new(Gnn.Tensor), lr=0.1).init(None)
        self.assertEqual(cm.exception.message, 'optimizer got an empty parameter list')

    def test_repr(self):
        _, g = models()
        opt = Gnn.SGD(g.parameters(True), lr=0.1, momentum=0.9)
        text = repr(opt)
        self.assertTrue(text.startswith('SGD (\nParameter Group 0\n'))
        self.assertIn('    momentum: 0.9\n', text)


class PlainSGD(Gnn.Optimizer):
    """An optimizer written in Python: SGD with momentum, its buffer in self.state."""

    def __init__(self, params, lr, momentum=0.0):
        super().__init__(params, dict(lr=lr, momentum=momentum))

    def do_check_group(self, group):
        if group['lr'] < 0:
            raise ValueError('Invalid learning rate: %r' % group['lr'])

    def do_step(self):
        for group in self.param_groups:
            for p in group['params']:
                grad = p.grad
                if grad is None:
                    continue
                state = self.state[p]
                if group['momentum']:
                    if 'momentum_buffer' not in state:
                        state['momentum_buffer'] = grad.clone()
                    else:
                        buf = state['momentum_buffer']
                        buf.mul_scalar_(group['momentum'])
                        buf.add_(grad, 1.0)
                    grad = state['momentum_buffer']
                p.add_(grad, -group['lr'])


class FailingOptimizer(Gnn.Optimizer):
    def do_step(self):
        raise ZeroDivisionError('no step today')


class PythonSubclass(ParityTest):
    def test_trajectory(self):
        t, g = models()
        topt = torch.optim.SGD(t.parameters(), lr=0.1, momentum=0.9)
        gopt = PlainSGD(g.parameters(True), lr=0.1, momentum=0.9)
        self.assertEqual(gopt.param_groups[0]['momentum'], 0.9)
        for step in range(20):
            torch_step(t, topt)
            gnn_step(g, gopt)
            for (name, tp), gp in zip(t.named_parameters(), g.parameters(True)):
                self.assert_close(to_np(gp), tp.detach().numpy(), RTOL, ATOL, 'PlainSGD step %d %s' % (step, name))
        # its state goes through the C state dict like any other
        sd = gopt.state_dict()
        self.assertIn('state.0.momentum_buffer', sd)
        copy_opt = PlainSGD(g.parameters(True), lr=0.1, momentum=0.9)
        copy_opt.load_state_dict(sd)
        self.assertTrue(np.array_equal(to_np(copy_opt.state[list(g.parameters(True))[0]]['momentum_buffer']),
                                       to_np(sd['state.0.momentum_buffer'])))

    def test_exceptions(self):
        _, g = models()
        with self.assertRaises(ValueError) as cm:
            PlainSGD(g.parameters(True), lr=-1.0)
        self.assertIn('Invalid learning rate', str(cm.exception))
        opt = FailingOptimizer(g.parameters(True))
        with self.assertRaises(ZeroDivisionError):
            opt.step()
        # from C (the method without the Python override), the same failure is a GError
        from gi.module import get_introspection_module
        with self.assertRaises(GLib.Error) as cm:
            get_introspection_module('Gnn').Optimizer.step(opt)
        self.assertIn('ZeroDivisionError', cm.exception.message)


if __name__ == '__main__':
    main()
