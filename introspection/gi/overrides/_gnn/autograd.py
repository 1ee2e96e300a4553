# torch.autograd.functional: jacobian, hessian, vjp, jvp, vhp, hvp over Gnn.autograd_grad
#
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# Each is reverse mode: one gradient call per output element for a Jacobian, and the double
# backward trick (the gradient of a gradient with respect to its grad_outputs) for the
# forward-mode products jvp and hvp, as torch 1.13 computes them without vectorize. Results,
# their nesting (a tensor, a tuple, or a tuple of tuples, as the inputs and outputs were given)
# and the errors follow torch.autograd.functional.
from .base import Gnn, enable_grad, set_grad_enabled

__all__ = []


def _g():
    """The overridden module (its Python-level eye, stack, zeros_like, autograd_grad)."""
    from gi.repository import Gnn as overridden
    return overridden


def _export(fn):
    __all__.append(fn.__name__)
    return fn


def _tensors(value, what, fn_name):
    """(given as a tuple, the tensors as a tuple) of a function's inputs, outputs or v."""
    given_tuple = isinstance(value, tuple)
    items = value if given_tuple else (value,)
    for i, item in enumerate(items):
        if not isinstance(item, Gnn.Tensor):
            where = ('the value at index %d' % i) if given_tuple else ('the given %s' % what)
            raise TypeError('The %s given to %s must be either a Tensor or a tuple of Tensors but '
                            '%s has type %s.' % (what, fn_name, where, type(item)))
    return given_tuple, items


def _inputs_for(tensors, create_graph, need_graph):
    """The tensors the function runs on: with create_graph, inputs that require grad stay
    connected to their graph (a view of each); the others are fresh leaves."""
    result = []
    for t in tensors:
        if create_graph and t.requires_grad:
            result.append(t.view(tuple(t.shape)))
        else:
            result.append(t.detach().requires_grad_(need_graph))
    return tuple(result)


def _finish(tensors, create_graph):
    """Results leave the graph unless create_graph asked to keep it."""
    if create_graph:
        return tensors
    return tuple(_finish(t, False) if isinstance(t, tuple) else t.detach() for t in tensors)


def _unpack(result, given_tuple):
    return result if given_tuple else result[0]


def _check_v(v, others, others_tuple):
    if len(v) != len(others):
        if others_tuple:
            raise RuntimeError('v is a tuple of invalid length: should be %d but got %d.'
                               % (len(others), len(v)))
        raise RuntimeError('The given v should contain a single Tensor.')
    for i, (a, b) in enumerate(zip(v, others)):
        if tuple(a.shape) != tuple(b.shape):
            raise RuntimeError('%sv has invalid size: should be %s but got %s.'
                               % ('Entry %d in ' % i if others_tuple else '', b.size(), a.size()))


_STRICT_MESSAGES = {
    'outputs': ('Output {} of the user-provided function does not require gradients. The outputs '
                'must be computed in a differentiable manner from the input when running in strict '
                'mode.'),
    'grad_inputs': ('The gradient with respect to input {} is independent of the inputs of the '
                    'user-provided function. This is not allowed in strict mode.'),
    'jacobian': ('While computing the hessian, found that the jacobian of the user-provided function '
                 'with respect to input {} is independent of the input. This is not allowed in strict '
                 'mode. You should ensure that your function is twice differentiable and that the '
                 'jacobian depends on the inputs (this would be violated by a linear function for '
                 'example).'),
}


def _check_strict(tensors, kind, strict):
    """strict mode: every tensor must exist and depend on the inputs."""
    if not strict:
        return
    for i, t in enumerate(tensors):
        if t is None:
            raise RuntimeError('The output of the user-provided function is independent of input %d. '
                               'This is not allowed in strict mode.' % i)
        if not t.requires_grad:
            raise RuntimeError(_STRICT_MESSAGES[kind].format(i))


def _grad(outputs, inputs, grad_outputs=None, create_graph=False, retain_graph=None):
    """Gnn.autograd_grad over the outputs that have a graph, unused inputs giving None."""
    if grad_outputs is None:
        grad_outputs = (None,) * len(outputs)
    pairs = [(o, g) for o, g in zip(outputs, grad_outputs) if o is not None and o.requires_grad]
    if not pairs:
        return (None,) * len(inputs)
    outs, gos = zip(*pairs)
    gos = None if all(g is None for g in gos) else list(gos)
    return _g().autograd_grad(list(outs), list(inputs), gos, retain_graph=retain_graph,
                             create_graph=create_graph, allow_unused=True)


_ZERO_MESSAGES = {
    'back': 'The output of the user-provided function is independent of input {}. This is not '
            'allowed in strict mode.',
    'back_trick': 'The gradient with respect to the input is independent of entry {} in the '
                  'grad_outputs when using the double backward trick to compute forward mode '
                  'gradients. This is not allowed in strict mode.',
    'double_back': 'The jacobian of the user-provided function is independent of input {}. This is '
                   'not allowed in strict mode.',
    'double_back_trick': 'The hessian of the user-provided function is independent of entry {} in '
                         'the grad_jacobian. This is not allowed in strict mode as it prevents from '
                         'using the double backward trick to replace forward mode AD.',
}


def _zeros_for_unused(grads, refs, strict, create_graph, stage):
    """A gradient that does not exist is zeros shaped as its reference, or in strict mode an
    error; with create_graph, strict mode also refuses one without a graph."""
    result = []
    for i, (g, ref) in enumerate(zip(grads, refs)):
        if g is None:
            if strict:
                raise RuntimeError(_ZERO_MESSAGES[stage].format(i))
            g = _g().zeros_like(ref)
        elif strict and create_graph and not g.requires_grad:
            raise RuntimeError('The %s of the user-provided function is independent of input %d. This '
                               'is not allowed in strict mode when create_graph=True.'
                               % ('hessian' if 'double' in stage else 'jacobian', i))
        result.append(g)
    return tuple(result)


def _v_or_default(v, others, others_tuple, create_graph, fn_name, none_message):
    if v is None:
        if len(others) != 1 or others[0].numel() != 1:
            raise RuntimeError(none_message)
        return None
    _, v = _tensors(v, 'v', fn_name)
    v = _inputs_for(v, create_graph, False)
    _check_v(v, others, others_tuple)
    return v


_V_NONE_OUTPUT = ('The vector v can only be None if the user-provided function returns a single '
                  'Tensor with a single element.')
_V_NONE_INPUT = ('The vector v can only be None if the input to the user-provided function is a '
                 'single Tensor with a single element.')


@_export
def autograd_vjp(func, inputs, v=None, create_graph=False, strict=False):
    """torch.autograd.functional.vjp: (func (*inputs), vᵀ · ∂func/∂inputs)."""
    with enable_grad():
        inputs_tuple, inputs = _tensors(inputs, 'inputs', 'vjp')
        inputs = _inputs_for(inputs, create_graph, True)
        outputs_tuple, outputs = _tensors(func(*inputs), 'outputs of the user-provided function', 'vjp')
        _check_strict(outputs, 'outputs', strict)
        v = _v_or_default(v, outputs, outputs_tuple, create_graph, 'vjp', _V_NONE_OUTPUT)
        grads = _grad(outputs, inputs, v, create_graph=create_graph)
        vjp = _zeros_for_unused(grads, inputs, strict, create_graph, 'back')
    return (_unpack(_finish(outputs, create_graph), outputs_tuple),
            _unpack(_finish(vjp, create_graph), inputs_tuple))


@_export
def autograd_jvp(func, inputs, v=None, create_graph=False, strict=False):
    """torch.autograd.functional.jvp: (func (*inputs), ∂func/∂inputs · v), through the double
    backward trick."""
    with enable_grad():
        inputs_tuple, inputs = _tensors(inputs, 'inputs', 'jvp')
        inputs = _inputs_for(inputs, create_graph, True)
        v = _v_or_default(v, inputs, inputs_tuple, create_graph, 'jvp', _V_NONE_INPUT)
        outputs_tuple, outputs = _tensors(func(*inputs), 'outputs of the user-provided function', 'jvp')
        _check_strict(outputs, 'outputs', strict)
        # u ↦ uᵀ · J is linear in u: its gradient with respect to u, taken along v, is J · v
        dummies = tuple(_g().zeros_like(o).requires_grad_(True) for o in outputs)
        grad_inputs = _grad(outputs, inputs, dummies, create_graph=True)
        _check_strict(grad_inputs, 'grad_inputs', strict)
    with set_grad_enabled(True if create_graph else _g().is_grad_enabled()):
        grads = _grad(grad_inputs, dummies, v, create_graph=create_graph)
        jvp = _zeros_for_unused(grads, outputs, strict, create_graph, 'back_trick')
    return (_unpack(_finish(outputs, create_graph), outputs_tuple),
            _unpack(_finish(jvp, create_graph), outputs_tuple))


@_export
def autograd_jacobian(func, inputs, create_graph=False, strict=False, vectorize=False,
                      strategy='reverse-mode'):
    """torch.autograd.functional.jacobian: ∂func/∂inputs, one block per (output, input) of
    shape output.shape + input.shape; a tensor, a tuple or a tuple of tuples as torch nests
    them. Computed in reverse mode, one gradient per output element, whatever the strategy
    (forward mode gives the same values); vectorize changes nothing but what it refuses."""
    if strategy not in ('forward-mode', 'reverse-mode'):
        raise AssertionError('Expected strategy to be either "forward-mode" or "reverse-mode". Hint: '
                             'If your function has more outputs than inputs, "forward-mode" tends to '
                             'be more performant. Otherwise, prefer to use "reverse-mode".')
    if strategy == 'forward-mode':
        if create_graph:
            raise NotImplementedError('torch.autograd.functional.jacobian: `create_graph=True` and '
                                      '`strategy="forward-mode"` are not supported together (yet). '
                                      'Please either set `create_graph=False` or '
                                      '`strategy="reverse-mode"`.')
        if strict:
            raise RuntimeError('torch.autograd.functional.jacobian: `strict=True` and '
                               '`strategy="forward-mode"` are not supported together (yet). Please '
                               'either set `strict=False` or `strategy="reverse-mode"`.')
        if not vectorize:
            # torch 1.13's words, the missing space included
            raise NotImplementedError('Computing Jacobian using forward-AD or forward-over-reverse '
                                      'Hessian isonly implemented for `vectorize=True`.')
    with enable_grad():
        inputs_tuple, inputs = _tensors(inputs, 'inputs', 'jacobian')
        inputs = _inputs_for(inputs, create_graph, True)
        outputs_tuple, outputs = _tensors(func(*inputs), 'outputs of the user-provided function',
                                          'jacobian')
        _check_strict(outputs, 'outputs', strict)
        if vectorize and strict:
            raise RuntimeError('torch.autograd.functional.jacobian: `strict=True` and '
                               '`vectorized=True` are not supported together. Please either set '
                               '`strict=False` or `vectorize=False`.')
        jacobian = []
        for i, out in enumerate(outputs):
            n = out.numel()
            basis = _g().eye(n, dtype=out.dtype) if n > 0 else None
            rows = [[] for _ in inputs]
            for k in range(n):
                e = basis[k].reshape(tuple(out.shape))
                grads = _grad((out,), inputs, (e,), create_graph=create_graph, retain_graph=True)
                for j, (g, inp) in enumerate(zip(grads, inputs)):
                    if g is None:
                        if strict:
                            raise RuntimeError('Output %d of the user-provided function is independent '
                                               'of input %d. This is not allowed in strict mode.'
                                               % (i, j))
                        g = _g().zeros_like(inp)
                    elif strict and create_graph and not g.requires_grad:
                        raise RuntimeError('The jacobian of the user-provided function is independent '
                                           'of input %d. This is not allowed in strict mode when '
                                           'create_graph=True.' % i)
                    rows[j].append(g)
            blocks = []
            for j, inp in enumerate(inputs):
                shape = tuple(out.shape) + tuple(inp.shape)
                if n == 0:
                    blocks.append(_g().zeros(shape, dtype=inp.dtype))
                else:
                    blocks.append(_g().stack(rows[j], 0).reshape(shape))
            jacobian.append(tuple(blocks))
        jacobian = _finish(tuple(jacobian), create_graph)
    if strategy == 'forward-mode':
        # torch's forward mode nests lists where its reverse mode nests tuples
        jacobian = [list(row) for row in jacobian]
    if not inputs_tuple:
        jacobian = type(jacobian)(row[0] for row in jacobian)
    return _unpack(jacobian, outputs_tuple)


@_export
def autograd_hessian(func, inputs, create_graph=False, strict=False, vectorize=False,
                     outer_jacobian_strategy='reverse-mode'):
    """torch.autograd.functional.hessian of a function returning one element: the Jacobian of
    its gradient; a tensor for one input, else a tuple of tuples (block [i][j] shaped
    inputs[i].shape + inputs[j].shape)."""
    inputs_tuple, inputs = _tensors(inputs, 'inputs', 'hessian')
    if outer_jacobian_strategy not in ('forward-mode', 'reverse-mode'):
        raise AssertionError('Expected strategy to be either "forward-mode" or "reverse-mode".')

    def scalar_func(*xs):
        out = func(*xs)
        out_tuple, outs = _tensors(out, 'outputs of the user-provided function', 'hessian')
        _check_strict(outs, 'outputs', strict)
        if out_tuple:
            raise RuntimeError('The function given to hessian should return a single Tensor')
        if out.numel() != 1:
            raise RuntimeError('The Tensor returned by the function given to hessian should contain '
                               'a single element')
        return out.reshape(())

    def gradient(*xs):
        if outer_jacobian_strategy == 'forward-mode':
            xs = tuple(x.requires_grad_(True) for x in xs)
        jac = autograd_jacobian(scalar_func, xs, create_graph=True)
        _check_strict(jac, 'jacobian', strict)
        return jac

    result = autograd_jacobian(gradient, inputs, create_graph=create_graph, strict=strict,
                               vectorize=vectorize, strategy=outer_jacobian_strategy)
    return result if inputs_tuple else result[0][0]


def _second_order(func, inputs, v, create_graph, strict, fn_name, trick):
    with enable_grad():
        inputs_tuple, inputs = _tensors(inputs, 'inputs', fn_name)
        inputs = _inputs_for(inputs, create_graph, True)
        v = _v_or_default(v, inputs, inputs_tuple, create_graph, fn_name, _V_NONE_INPUT)
        outputs_tuple, outputs = _tensors(func(*inputs), 'outputs of the user-provided function',
                                          fn_name)
        _check_strict(outputs, 'outputs', strict)
        if outputs_tuple:
            raise RuntimeError('The function given to %s should return a single Tensor' % fn_name)
        if outputs[0].numel() != 1:
            raise RuntimeError('The Tensor returned by the function given to %s should contain a '
                               'single element' % fn_name)
        jac = _grad(outputs, inputs, create_graph=True)
        _check_strict(jac, 'jacobian', strict)
        if trick:
            # hvp = ∂/∂u (uᵀ · H)ᵀ along v, with uᵀ · H = ∂ (jacᵀ · u) / ∂inputs
            dummies = tuple(_g().zeros_like(x).requires_grad_(True) for x in inputs)
            # torch checks nothing here: an entry of double that does not exist leaves its dummy
            # unused, which the strict check of the next stage reports
            double = _grad(jac, inputs, dummies, create_graph=True)
    with set_grad_enabled(True if create_graph else _g().is_grad_enabled()):
        if trick:
            grads = _grad(double, dummies, v, create_graph=create_graph)
            result = _zeros_for_unused(grads, inputs, strict, create_graph, 'double_back_trick')
        else:
            grads = _grad(jac, inputs, v, create_graph=create_graph)
            result = _zeros_for_unused(grads, inputs, strict, create_graph, 'double_back')
    return (_unpack(_finish(outputs, create_graph), outputs_tuple),
            _unpack(_finish(result, create_graph), inputs_tuple))


@_export
def autograd_vhp(func, inputs, v=None, create_graph=False, strict=False):
    """torch.autograd.functional.vhp: (func (*inputs), vᵀ · H) of a function returning one
    element."""
    return _second_order(func, inputs, v, create_graph, strict, 'vhp', False)


@_export
def autograd_hvp(func, inputs, v=None, create_graph=False, strict=False):
    """torch.autograd.functional.hvp: (func (*inputs), H · v) of a function returning one
    element, through the double backward trick."""
    return _second_order(func, inputs, v, create_graph, strict, 'hvp', True)
