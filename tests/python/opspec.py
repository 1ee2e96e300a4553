"""The op-spec table's runner: every row of tests/python/op_specs/*.py (a Spec) becomes one test
of test_op_specs.py, which checks the op against PyTorch 1.13 written once for both libraries.

A row names the op, a function fn(lib, *args) spelt as torch spells it (lib is the module
torch or gnn, the args are tensors of that library and plain Python values), and its cases.
For every case and dtype the runner checks, in this order:

- the outputs (a tensor or nested tuples of them, as sort returns): shape, dtype, values;
- the grad_fn name of the first output that has one, unless the row says why it differs;
- the gradients of every floating-point input for one random weighting of the floating-point
  outputs (loss = sum of (out * w).sum()), and the same on a transposed-slice input (a
  non-contiguous view) when the first input has two or more dims;
- that an output is a view of an input exactly where torch's is: each output is changed in
  place without autograd and the inputs compared afterwards;
- in float64 on cases of at most GRADCHECK_NUMEL elements, gnn's gradient against central
  finite differences of gnn's own forward (a gradcheck that needs no torch);
- on the same cases, the second derivative against torch's (gradgrad): the first gradients
  taken with create_graph=True, then the gradients of sum of (grad * v).sum() for a random v,
  unless the row's gradgrad says why gnn lacks the double backward (a string); a gradient that
  does not depend on the inputs (no history) counts as a zero second derivative;
- each bad input (Bad rows): both libraries raise, gnn the exception class torch raises, and
  gnn's message holds the given words.

Case arguments: a tuple of ints is the shape of a floating-point (or, for an integer dtype of
the row, integer) input drawn uniformly from the row's range; a numpy array is given as a tensor
as it is (indices, masks); P(value) is a plain Python value given as it is (a tuple of dims);
anything else (ints, floats, strings, None, lists) is given as it is.
"""
import numpy as np
import torch

from gnntest import GLib, ParityTest, TOL, to_np
import gnn

GRADCHECK_NUMEL = 40
GRADCHECK_EPS = 1e-6


class P:
    """A plain Python value given to fn as it is (for tuples, which would read as shapes)."""

    def __init__(self, value):
        self.value = value


class Bad:
    """A case both libraries refuse: gnn raises torch's exception class with words in its
    message (the op's name and what was expected or found)."""

    def __init__(self, args, words, dtype=np.float32):
        self.args = args
        self.words = words
        self.dtype = dtype


class Spec:
    """One row of the table (see the module's documentation)."""

    def __init__(self, name, fn, cases, dtypes=(np.float32, np.float64), low=-2.0, high=2.0,
                 grad=True, gradcheck=True, rtol=None, atol=None, tslice=True, grad_fn_differs=None,
                 bad=(), gnn_fn=None, gradgrad=True):
        self.name = name
        self.fn = fn
        self.gnn_fn = gnn_fn or fn
        self.cases = cases
        self.dtypes = tuple(np.dtype(d).type for d in dtypes)
        self.low = low
        self.high = high
        self.grad = grad
        self.gradcheck = gradcheck
        self.rtol = rtol
        self.atol = atol
        self.tslice = tslice
        self.grad_fn_differs = grad_fn_differs
        self.bad = bad
        # True, or why gnn lacks the op's double backward
        self.gradgrad = gradgrad


def is_shape(arg):
    return isinstance(arg, tuple) and all(isinstance(d, int) for d in arg)


def draw(spec, shape, dtype, rng):
    # np.asarray: numpy's generators give a scalar, not a 0-d array, for the shape ()
    if np.dtype(dtype).kind == 'f':
        return np.asarray(rng.uniform(spec.low, spec.high, size=shape), dtype)
    if np.dtype(dtype).kind == 'b':
        return np.asarray(rng.integers(0, 2, size=shape), dtype)
    return np.asarray(rng.integers(int(spec.low), int(spec.high) + 1, size=shape), dtype)


def arrays_of(spec, case, dtype, seed):
    """The case's arguments with shapes drawn as arrays (the same for both libraries)."""
    rng = np.random.default_rng(seed)
    return [draw(spec, a, dtype, rng) if is_shape(a) else a for a in case]


def flat(out):
    if isinstance(out, (tuple, list)):
        return [t for o in out for t in flat(o)]
    return [out]


def tensor_of(lib, array, requires_grad, tslice):
    """The array as a tensor of lib (a leaf) and the input fn gets (the leaf, or a
    transposed slice of a larger leaf holding the same values)."""
    array = np.array(array, order='C')   # a 0-d array stays 0-d (ascontiguousarray makes it 1-d)
    if tslice:
        swapped = np.swapaxes(array, -1, -2)
        pad = np.zeros(swapped.shape[:-1] + (1,), dtype=array.dtype)
        leaf_array = np.ascontiguousarray(np.concatenate([swapped, pad], axis=-1))
    else:
        leaf_array = array
    leaf = lib.tensor(leaf_array) if lib is gnn else torch.from_numpy(leaf_array.copy())
    if requires_grad:
        leaf.requires_grad_(True)
    if tslice:
        n = leaf_array.shape[-1] - 1
        return leaf, leaf.narrow(-1, 0, n).transpose(-1, -2)
    return leaf, leaf


def numpy_of(t):
    return to_np(t) if not isinstance(t, torch.Tensor) else t.detach().numpy()


class OpSpecTest(ParityTest):
    """test_op_specs.py makes one subclass with a test_<name> per row."""

    def run_lib(self, lib, spec, args, grad, tslice_first=False, detach=False):
        fn = spec.gnn_fn if lib is gnn else spec.fn
        leaves, given = [], []
        first = True
        for a in args:
            if isinstance(a, np.ndarray):
                req = grad and a.dtype.kind == 'f' and not detach
                ts = tslice_first and first and a.ndim >= 2
                leaf, x = tensor_of(lib, a, req, ts)
                leaves.append(leaf if req else None)
                given.append(x)
                first = False
            else:
                leaves.append(None)
                given.append(a.value if isinstance(a, P) else a)
        return leaves, given, fn(lib, *given)

    def weights(self, outs, seed):
        rng = np.random.default_rng(seed + 1000)
        return [rng.uniform(-1, 1, size=tuple(o.shape)).astype(numpy_of(o).dtype)
                if numpy_of(o).dtype.kind == 'f' else None for o in outs]

    def loss(self, lib, outs, ws):
        total = None
        for o, w in zip(outs, ws):
            if w is None or not o.requires_grad:
                continue
            term = (o * (lib.tensor(w) if lib is gnn else torch.from_numpy(w))).sum()
            total = term if total is None else total + term
        return total

    def tolerance(self, spec, dtype):
        key = np.float64 if dtype == np.float64 else np.float32
        r, a = TOL[key]

        def pick(given, default):
            # a row may give one tolerance, or one per dtype ({np.float32: 1e-4})
            if isinstance(given, dict):
                return given.get(key, default)
            return given if given is not None else default
        return (pick(spec.rtol, r), pick(spec.atol, a))

    def check_case(self, spec, args, dtype, tslice, what):
        rtol, atol = self.tolerance(spec, dtype)
        floating = np.dtype(dtype).kind == 'f'
        tl, tx, tout = self.run_lib(torch, spec, args, spec.grad and floating, tslice)
        gl, gx, gout = self.run_lib(gnn, spec, args, spec.grad and floating, tslice)
        touts, gouts = flat(tout), flat(gout)
        self.assertEqual(len(gouts), len(touts), what + ': number of outputs')
        for k, (g, t) in enumerate(zip(gouts, touts)):
            gv, tv = numpy_of(g), numpy_of(t)
            self.assertEqual(gv.dtype, tv.dtype, '%s: dtype of output %d' % (what, k))
            self.assert_close(gv, tv, rtol, atol, '%s output %d' % (what, k))
        if not (spec.grad and floating):
            return
        firsts = [(g, t) for g, t in zip(gouts, touts) if t.grad_fn is not None]
        if firsts and spec.grad_fn_differs is None:
            self.assertEqual(type(firsts[0][0].grad_fn).__name__, type(firsts[0][1].grad_fn).__name__,
                             what + ': grad_fn')
        ws = self.weights(touts, hash(what) % 1000)
        tloss, gloss = self.loss(torch, touts, ws), self.loss(gnn, gouts, ws)
        self.assertEqual(gloss is None, tloss is None, what + ': which outputs require grad')
        if tloss is None:
            return
        tloss.backward()
        gloss.backward()
        for k, (t, g) in enumerate(zip(tl, gl)):
            if t is None:
                continue
            self.assertIsNotNone(g.grad, '%s: no gradient for input %d' % (what, k))
            self.assert_close(numpy_of(g.grad), t.grad.numpy(), rtol, atol, '%s grad of input %d' % (what, k))

    def check_views(self, spec, args, what):
        # change each output in place; inputs that change are the ones it views, in both
        with torch.no_grad():
            _, tx, tout = self.run_lib(torch, spec, args, False, detach=True)
        with gnn.no_grad():
            _, gx, gout = self.run_lib(gnn, spec, args, False, detach=True)
        for k, (g, t) in enumerate(zip(flat(gout), flat(tout))):
            try:
                with torch.no_grad():
                    t.add_(1)
            except RuntimeError:
                continue  # torch refuses to write through an expanded view
            with gnn.no_grad():
                g.add_(1)
        for k, (g, t) in enumerate(zip(gx, tx)):
            if isinstance(t, torch.Tensor):
                self.assert_close(numpy_of(g), t.numpy(), 0, 0, '%s: input %d after writing the outputs '
                                  '(an output is a view in one library only)' % (what, k))

    def gnn_loss_value(self, spec, args, ws):
        with gnn.no_grad():
            _, _, out = self.run_lib(gnn, spec, args, False, detach=True)
        return sum(float((numpy_of(o).astype(np.float64) * w).sum())
                   for o, w in zip(flat(out), ws) if w is not None)

    def check_gradcheck(self, spec, args, what):
        floats = [k for k, a in enumerate(args) if isinstance(a, np.ndarray) and a.dtype == np.float64]
        if sum(args[k].size for k in floats) > GRADCHECK_NUMEL:
            return False
        gl, _, gout = self.run_lib(gnn, spec, args, True)
        outs = flat(gout)
        ws = self.weights(outs, 7)
        loss = self.loss(gnn, outs, ws)
        if loss is None:
            return False
        loss.backward()
        for k in floats:
            analytic = numpy_of(gl[k].grad).reshape(-1)
            numeric = np.zeros(args[k].size)
            for i in range(args[k].size):
                plus = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
                minus = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
                plus[k].reshape(-1)[i] += GRADCHECK_EPS
                minus[k].reshape(-1)[i] -= GRADCHECK_EPS
                numeric[i] = (self.gnn_loss_value(spec, plus, ws)
                              - self.gnn_loss_value(spec, minus, ws)) / (2 * GRADCHECK_EPS)
            np.testing.assert_allclose(analytic, numeric, rtol=1e-4, atol=1e-6,
                                       err_msg='%s: gradcheck of input %d' % (what, k))
        return True

    def second_derivative(self, lib, spec, args, ws, vs):
        """The gradients of sum (grad_k * v_k) for the first gradients grad_k of the weighted
        loss, taken with create_graph (zeros where they do not depend on an input)."""
        leaves, _, out = self.run_lib(lib, spec, args, True)
        inputs = [x for x in leaves if x is not None]
        loss = self.loss(lib, flat(out), ws)
        firsts = lib.autograd.grad(loss, inputs, create_graph=True, allow_unused=True)
        second = None
        for g, v in zip(firsts, vs):
            if g is None or not g.requires_grad:
                continue
            term = (g * (lib.tensor(v) if lib is gnn else torch.from_numpy(v))).sum()
            second = term if second is None else second + term
        zeros = [np.zeros(tuple(x.shape)) for x in inputs]
        if second is None:
            return [numpy_of(g) if g is not None else None for g in firsts], zeros
        grads = lib.autograd.grad(second, inputs, allow_unused=True)
        return ([numpy_of(g) if g is not None else None for g in firsts],
                [z if g is None else numpy_of(g) for g, z in zip(grads, zeros)])

    def check_gradgrad(self, spec, args, what):
        floats = [k for k, a in enumerate(args) if isinstance(a, np.ndarray) and a.dtype == np.float64]
        if not floats or sum(args[k].size for k in floats) > GRADCHECK_NUMEL:
            return
        with torch.no_grad():
            _, _, tout = self.run_lib(torch, spec, args, False, detach=True)
        ws = self.weights(flat(tout), 11)
        rng = np.random.default_rng(13)
        vs = [rng.uniform(-1, 1, size=args[k].shape) for k in floats]
        tfirst, tsecond = self.second_derivative(torch, spec, args, ws, vs)
        gfirst, gsecond = self.second_derivative(gnn, spec, args, ws, vs)
        rtol, atol = self.tolerance(spec, np.float64)
        for k, (g, t) in enumerate(zip(gfirst, tfirst)):
            if t is not None:
                self.assert_close(g, t, rtol, atol, '%s: create_graph gradient of input %d' % (what, k))
        for k, (g, t) in enumerate(zip(gsecond, tsecond)):
            self.assert_close(g, t, rtol, atol, '%s: second derivative (gradgrad) of input %d' % (what, k))

    def check_bad(self, spec, bad, what):
        args = arrays_of(spec, bad.args, bad.dtype, 3)
        with self.assertRaises(Exception, msg=what + ': torch accepts it') as tctx:
            self.run_lib(torch, spec, args, False)
        with self.assertRaises(Exception, msg=what + ': gnn accepts it') as gctx:
            self.run_lib(gnn, spec, args, False)
        want = type(tctx.exception)
        for builtin in (IndexError, ValueError, TypeError, NotImplementedError, RuntimeError):
            if issubclass(want, builtin):
                self.assertIsInstance(gctx.exception, builtin, '%s: %r' % (what, gctx.exception))
                break
        message = gctx.exception.message if isinstance(gctx.exception, GLib.Error) else str(gctx.exception)
        for w in bad.words:
            self.assertIn(w, message, what + ': message')

    def check_spec(self, spec):
        gradchecked = False
        for c, case in enumerate(spec.cases):
            for dtype in spec.dtypes:
                args = arrays_of(spec, case, dtype, c)
                what = '%s case %d %s' % (spec.name, c, np.dtype(dtype).name)
                with self.subTest(case=c, dtype=np.dtype(dtype).name):
                    self.check_case(spec, args, dtype, False, what)
                    shaped = [a for a in args if isinstance(a, np.ndarray)]
                    if spec.tslice and shaped and shaped[0].ndim >= 2:
                        self.check_case(spec, args, dtype, True, what + ' tslice')
                    self.check_views(spec, args, what)
                    if spec.grad and spec.gradcheck and dtype == np.float64:
                        gradchecked |= self.check_gradcheck(spec, args, what)
                    if spec.grad and spec.gradgrad is True and dtype == np.float64:
                        self.check_gradgrad(spec, args, what)
        if spec.grad and spec.gradcheck and np.float64 in spec.dtypes:
            self.assertTrue(gradchecked, spec.name + ': no case small enough to gradcheck')
        for b, bad in enumerate(spec.bad):
            with self.subTest(bad=b):
                self.check_bad(spec, bad, '%s bad %d' % (spec.name, b))


def make_test_class(specs):
    """A TestCase class with a test_<name> per row (names must be unique)."""
    methods = {}
    for spec in specs:
        key = 'test_' + spec.name
        assert key not in methods, 'two rows named ' + spec.name
        methods[key] = (lambda s: lambda self: self.check_spec(s))(spec)
    return type('OpSpecs', (OpSpecTest,), methods)
