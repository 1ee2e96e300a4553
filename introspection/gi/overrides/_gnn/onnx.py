# torch.onnx.export over gnn: trace the module (gnn.fx), propagate shapes from the example
# inputs, and write the graph with gnn_onnx_export (gnn/onnx/gnn-onnx.c)
#
# SPDX-License-Identifier: LGPL-2.1-or-later
import os as _os
import tempfile as _tempfile

from gi.repository import GLib

from .base import Gnn, no_grad as _no_grad
from . import fx as _fx

__all__ = []


def _export(obj):
    __all__.append(obj.__name__)
    return obj


def _leaf_graph(module, args):
    """The graph of a call of one of gnn's own modules: torch exports Linear (3, 4) alone with
    its initializers named weight and bias, as the module's own state dict names them. A
    placeholder for each example input; a tuple the module returns (MultiheadAttention's
    output and weights, LSTM's output and (h_n, c_n)) is returned as its tensors, picked by
    getitem nodes, as torch writes each tensor of it as an output."""
    from gi.repository import GObject
    import operator
    graph = Gnn.Graph.new()
    call_args = Gnn.Args.new()
    for i in range(max(len(args), 1)):
        x = graph.create_node('placeholder', 'input' if i == 0 else 'input_%d' % i, None, None)
        call_args.add_value(_fx._node_value(x))
    call = graph.create_node('call_module', '', call_args, type(module).__name__.lower())
    with _no_grad():
        result = module(*args) if args else None
    getitem = _fx._target_string(operator.getitem)

    def picked(node, value):
        if not isinstance(value, tuple):
            return [node] if isinstance(value, Gnn.Tensor) else []
        nodes = []
        for k, part in enumerate(value):
            if isinstance(part, (Gnn.Tensor, tuple)):
                a = Gnn.Args.new()
                a.add_value(_fx._node_value(node))
                a.add_value(GObject.Value(GObject.TYPE_INT64, k))
                nodes += picked(graph.create_node('call_function', getitem, a, None), part)
        return nodes
    outs = picked(call, result)
    out = Gnn.Args.new()
    if isinstance(result, tuple):
        inner = Gnn.Args.new()
        for n in outs:
            inner.add_value(_fx._node_value(n))
        v = GObject.Value(Gnn.Args)
        v.set_object(inner)
        out.add_value(v)
    else:
        out.add_value(_fx._node_value(call))
    graph.create_node('output', 'output', out, None)
    return graph


def _dynamic_axes_variant(dynamic_axes):
    """torch's dynamic_axes ({name: {axis: 'label'}} or {name: [axis, ...]}) as a{sa{is}}; an
    axis without a label gets torch's, '<name>_dynamic_axes_<k>'."""
    if not dynamic_axes:
        return None
    value = {}
    for name, axes in dynamic_axes.items():
        if isinstance(axes, dict):
            value[name] = {int(k): str(v) for k, v in axes.items()}
        elif isinstance(axes, (list, tuple)):
            value[name] = {int(a): '%s_dynamic_axes_%d' % (name, i + 1) for i, a in enumerate(axes)}
        else:
            raise TypeError('dynamic_axes[%r] must be a dict or a list of axes, not %s'
                            % (name, type(axes).__name__))
    return GLib.Variant('a{sa{is}}', value)


@_export
def onnx_export_model(model, args, f, export_params=True, verbose=False, training=None,
                      input_names=None, output_names=None, operator_export_type=None,
                      opset_version=None, do_constant_folding=True, dynamic_axes=None,
                      keep_initializers_as_inputs=None, custom_opsets=None,
                      export_modules_as_functions=False):
    """torch.onnx.export: writes model, traced with the example inputs args (a tensor or a
    tuple of tensors), as an ONNX model to f (a path or a binary file object), for inference
    (the model is in eval mode while it is traced and its training flags are restored).
    opset_version defaults to 17, the highest gnn writes. export_params=False,
    keep_initializers_as_inputs, custom_opsets, export_modules_as_functions and training other
    than eval are refused; do_constant_folding and verbose change nothing."""
    if not export_params:
        raise ValueError('gnn always writes the parameters as initializers (export_params=True)')
    if keep_initializers_as_inputs or custom_opsets or export_modules_as_functions:
        raise ValueError('keep_initializers_as_inputs, custom_opsets and '
                         'export_modules_as_functions are not supported by gnn\'s exporter')
    if training not in (None, False) and str(training) not in ('TrainingMode.EVAL', 'eval'):
        raise ValueError('gnn exports for inference only (training=TrainingMode.EVAL)')
    if isinstance(args, Gnn.Tensor):
        args = (args,)
    args = tuple(args)
    if args and isinstance(args[-1], dict):
        if args[-1]:
            raise ValueError('keyword inputs in args are not supported by gnn\'s exporter')
        args = args[:-1]
    for i, a in enumerate(args):
        if not isinstance(a, Gnn.Tensor):
            raise TypeError('args[%d] is a %s; the example inputs are tensors' % (i, type(a).__name__))
    opset = 17 if opset_version is None else int(opset_version)
    flags = [(m, m.training) for m in model.modules()]
    try:
        model.eval()
        if _fx._is_gnn_class(type(model)) and not isinstance(model, Gnn.Sequential):
            graph, root = _leaf_graph(model, args), model
            with _no_grad():
                _LeafRunner(model, graph).propagate(*args)
        else:
            try:
                gm = _fx.fx_symbolic_trace(model)
            except _fx.fx_TraceError:
                # forward branches on data: recorded as the example inputs take it, as
                # torch.onnx.export's torch.jit.trace records it (doc/onnx.md)
                from .fx_trace import fx_trace
                with _no_grad():
                    gm = fx_trace(model, args)
            graph, root = gm.graph, gm
            with _no_grad():
                _fx.fx_ShapeProp(gm).propagate(*args)
        path, temp = f, None
        if not isinstance(f, (str, bytes, _os.PathLike)):
            fd, temp = _tempfile.mkstemp(suffix='.onnx')
            _os.close(fd)
            path = temp
        try:
            Gnn.onnx_export(graph, root, list(input_names) if input_names else None,
                            list(output_names) if output_names else None,
                            _dynamic_axes_variant(dynamic_axes), opset, _os.fspath(path))
            if temp is not None:
                with open(temp, 'rb') as src:
                    f.write(src.read())
        finally:
            if temp is not None:
                _os.unlink(temp)
    finally:
        for m, mode in flags:
            m.training = mode


class _LeafRunner(_fx.fx_ShapeProp):
    """ShapeProp over the one-call graph of a leaf module."""

    def __init__(self, module, graph):
        self.module = _Wrap(module, graph)
        self.submodules = {'': module}
        self.env = {}
        self.garbage_collect_values = False
        self.user_to_last_uses = {}

    def fetch_attr(self, target):
        return self.module.root if target == '' else super().fetch_attr(target)


class _Wrap:
    def __init__(self, root, graph):
        self.root, self.graph = root, graph


# ---- import: an ONNX model as a graph module -----------------------------------------------
#
# Gnn.OnnxModel (gnn/onnx/gnn-onnx-model.c) reads and checks the file; here each of its nodes
# becomes a call_function node of the graph, whose target is the function below that computes
# the operator with gnn's ops, and each initializer a parameter (floating point) or buffer of
# the module, at its name's dotted path (`fc.weight`; characters a Python name cannot hold
# become '_': `onnx::Conv_193` is `onnx__Conv_193`).

import math as _math
import operator as _operator


def _F():
    import gnn.nn.functional as F
    return F


def _gnn():
    import gnn
    return gnn


def _ints(t):
    """An int64 tensor input (a shape, axes, pads) as a list of Python ints."""
    if t is None:
        return None
    if isinstance(t, Gnn.Tensor):
        return [int(v) for v in t.reshape(-1).tolist()]
    return [int(v) for v in t]


def _scalar(t):
    if t is None:
        return None
    return float(t.reshape(-1).tolist()[0]) if isinstance(t, Gnn.Tensor) else float(t)


def _spatial_pads(pads, n):
    """ONNX pads (begins then ends) as torch's symmetric padding, or None if asymmetric."""
    pads = list(pads or [0] * (2 * n))
    begins, ends = pads[:n], pads[n:]
    return tuple(begins) if begins == ends else None


def _pad_input(x, pads, n, value=0.0):
    """x padded as ONNX's asymmetric pads ask (begins then ends, over the last n dims)."""
    begins, ends = pads[:n], pads[n:]
    torch_pads = []
    for i in reversed(range(n)):
        torch_pads += [begins[i], ends[i]]
    return _F().pad(x, tuple(torch_pads), 'constant', value)


def _auto_pad(auto_pad, op):
    if auto_pad not in ('NOTSET', 'VALID', '', None):
        raise NotImplementedError('ONNX import: %s with auto_pad=%s is not supported' % (op, auto_pad))
    return auto_pad == 'VALID'


def onnx_Conv(X, W, B=None, auto_pad='NOTSET', dilations=None, group=1, kernel_shape=None,
              pads=None, strides=None):
    n = W.dim() - 2
    if n not in (1, 2, 3):
        raise NotImplementedError('ONNX import: Conv over %d spatial dims is not supported' % n)
    pads = [0] * (2 * n) if _auto_pad(auto_pad, 'Conv') else list(pads or [0] * (2 * n))
    padding = _spatial_pads(pads, n)
    if padding is None:
        X, padding = _pad_input(X, pads, n), (0,) * n
    conv = (_F().conv1d, _F().conv2d, _F().conv3d)[n - 1]
    return conv(X, W, B, tuple(strides or [1] * n), padding, tuple(dilations or [1] * n), group)


def onnx_ConvTranspose(X, W, B=None, auto_pad='NOTSET', dilations=None, group=1, kernel_shape=None,
                       output_padding=None, output_shape=None, pads=None, strides=None):
    n = W.dim() - 2
    if n not in (1, 2, 3):
        raise NotImplementedError('ONNX import: ConvTranspose over %d spatial dims is not supported' % n)
    if output_shape is not None:
        raise NotImplementedError('ONNX import: ConvTranspose with output_shape is not supported')
    pads = [0] * (2 * n) if _auto_pad(auto_pad, 'ConvTranspose') else list(pads or [0] * (2 * n))
    padding = _spatial_pads(pads, n)
    if padding is None:
        raise NotImplementedError('ONNX import: ConvTranspose with asymmetric pads is not supported')
    conv = (_F().conv_transpose1d, _F().conv_transpose2d, _F().conv_transpose3d)[n - 1]
    return conv(X, W, B, tuple(strides or [1] * n), padding, tuple(output_padding or [0] * n), group,
                tuple(dilations or [1] * n))


def onnx_Gemm(A, B, C=None, alpha=1.0, beta=1.0, transA=0, transB=0):
    y = (A.t() if transA else A) @ (B.t() if transB else B)
    if alpha != 1.0:
        y = y * alpha
    if C is not None:
        y = y + (C * beta if beta != 1.0 else C)
    return y


def _pool(X, op, kernel_shape, strides, pads, ceil_mode, auto_pad, count_include_pad=0,
          dilations=None):
    n = len(kernel_shape)
    if n not in (1, 2, 3):
        raise NotImplementedError('ONNX import: %s over %d spatial dims is not supported' % (op, n))
    pads = [0] * (2 * n) if _auto_pad(auto_pad, op) else list(pads or [0] * (2 * n))
    padding = _spatial_pads(pads, n)
    F = _F()
    if op == 'MaxPool':
        if padding is None:
            X, padding = _pad_input(X, pads, n, float('-inf')), (0,) * n
        pool = (F.max_pool1d, F.max_pool2d, F.max_pool3d)[n - 1]
        return pool(X, tuple(kernel_shape), tuple(strides or kernel_shape), padding,
                    tuple(dilations or [1] * n), bool(ceil_mode))
    if padding is None:
        raise NotImplementedError('ONNX import: AveragePool with asymmetric pads is not supported')
    pool = (F.avg_pool1d, F.avg_pool2d, F.avg_pool3d)[n - 1]
    return pool(X, tuple(kernel_shape), tuple(strides or kernel_shape), padding,
                bool(ceil_mode), bool(count_include_pad))


def onnx_MaxPool(X, auto_pad='NOTSET', ceil_mode=0, dilations=None, kernel_shape=None,
                 pads=None, storage_order=0, strides=None):
    return _pool(X, 'MaxPool', kernel_shape, strides, pads, ceil_mode, auto_pad, dilations=dilations)


def onnx_AveragePool(X, auto_pad='NOTSET', ceil_mode=0, count_include_pad=0, kernel_shape=None,
                     pads=None, strides=None):
    return _pool(X, 'AveragePool', kernel_shape, strides, pads, ceil_mode, auto_pad, count_include_pad)


def onnx_GlobalAveragePool(X):
    return X.mean(tuple(range(2, X.dim())), keepdim=True)


def onnx_GlobalMaxPool(X):
    return X.amax(tuple(range(2, X.dim())), keepdim=True)


def onnx_BatchNormalization(X, scale, B, input_mean, input_var, epsilon=1e-5, momentum=0.9,
                            training_mode=0):
    if training_mode:
        raise NotImplementedError('ONNX import: BatchNormalization in training mode is not supported')
    return _F().batch_norm(X, input_mean, input_var, scale, B, False, 0.1, epsilon)


def onnx_LayerNormalization(X, Scale, B=None, axis=-1, epsilon=1e-5, stash_type=1):
    axis = axis % X.dim()
    return _F().layer_norm(X, tuple(X.shape[axis:]), Scale, B, epsilon)


def onnx_InstanceNormalization(input, scale, B, epsilon=1e-5):
    return _F().instance_norm(input, weight=scale, bias=B, eps=epsilon)


def onnx_Split(input, split=None, axis=0, num_outputs=None):
    """ONNX's Split: parts of the sizes @split along @axis, or @num_outputs equal ones (the
    last smaller when they do not divide, as ONNX says)"""
    axis = axis % input.dim()
    size = input.shape[axis]
    if split is not None:
        sizes = _ints(split)
    else:
        step = -(-size // num_outputs)
        sizes = [min(step, size - k * step) for k in range(num_outputs)]
    if sum(sizes) != size or any(s < 0 for s in sizes):
        raise ValueError('ONNX import: Split of %d into %s' % (size, sizes))
    return tuple(input.narrow(axis, sum(sizes[:k]), s) for k, s in enumerate(sizes))


def onnx_Flatten(X, axis=1):
    axis = axis % X.dim() if X.dim() else 0
    lead = 1
    for s in X.shape[:axis]:
        lead *= s
    return X.reshape(lead, -1)


def onnx_Reshape(data, shape, allowzero=0):
    sizes = _ints(shape)
    if not allowzero:
        sizes = [data.shape[i] if s == 0 else s for i, s in enumerate(sizes)]
    return data.reshape(*sizes)


def onnx_Transpose(data, perm=None):
    return data.permute(*(perm if perm is not None else reversed(range(data.dim()))))


def onnx_Concat(*inputs, axis=0):
    return _gnn().cat(list(inputs), axis)


def onnx_Softmax(x, axis=-1):
    return _F().softmax(x, axis)


def onnx_LogSoftmax(x, axis=-1):
    return _F().log_softmax(x, axis)


def onnx_Clip(x, min=None, max=None):
    return _gnn().clamp(x, _scalar(min), _scalar(max))


def onnx_LeakyRelu(x, alpha=0.01):
    return _F().leaky_relu(x, alpha)


def onnx_Elu(x, alpha=1.0):
    return _F().elu(x, alpha)


def onnx_HardSigmoid(x, alpha=0.2, beta=0.5):
    return _gnn().clamp(x * alpha + beta, 0.0, 1.0)


def onnx_Identity(x):
    return x


def onnx_Dropout(data, ratio=None, training_mode=None, seed=0):
    return data


def onnx_Unsqueeze(data, axes=None):
    out = data
    rank = data.dim() + len(_ints(axes))
    for a in sorted(a % rank for a in _ints(axes)):
        out = out.unsqueeze(a)
    return out


def onnx_Squeeze(data, axes=None):
    if axes is None:
        return data.squeeze()
    out = data
    for a in sorted((a % data.dim() for a in _ints(axes)), reverse=True):
        out = out.squeeze(a)
    return out


def onnx_Shape(data, start=0, end=None):
    return _gnn().tensor(list(data.shape)[start:end], dtype=_gnn().int64)


def onnx_Gather(data, indices, axis=0):
    axis = axis % data.dim()
    # ONNX counts negative indices from the end, as Python does (torch's Shape/Gather pairs use -1)
    index = indices.reshape(-1)
    index = _gnn().where(index < 0, index + data.shape[axis], index)
    flat = data.index_select(axis, index)
    shape = list(data.shape[:axis]) + list(indices.shape) + list(data.shape[axis + 1:])
    return flat.reshape(*shape) if shape else flat.reshape(())


def onnx_ReduceMean(data, axes=None, keepdims=1):
    dims = tuple(_ints(axes)) if axes is not None else tuple(range(data.dim()))
    return data.mean(dims, keepdim=bool(keepdims))


def onnx_ReduceSum(data, axes=None, keepdims=1, noop_with_empty_axes=0):
    dims = _ints(axes) if axes is not None else []
    if not dims:
        if noop_with_empty_axes:
            return data
        dims = list(range(data.dim()))
    return data.sum(tuple(dims), keepdim=bool(keepdims))


def onnx_HardSwish(x):
    return x * _gnn().clamp(x * (1.0 / 6.0) + 0.5, 0.0, 1.0)


def onnx_Expand(input, shape):
    """numpy's broadcasting of input against shape (ONNX's Expand is two-way)"""
    sizes = _ints(shape)
    rank = max(len(sizes), input.dim())
    a = [1] * (rank - input.dim()) + list(input.shape)
    b = [1] * (rank - len(sizes)) + sizes
    return input.reshape(*a).expand(*[max(x, y) if 1 in (x, y) else x for x, y in zip(a, b)])


def _recurrent_checks(op, X, sequence_lens, activations, clip, layout, extra=None):
    if sequence_lens is not None:
        raise NotImplementedError('ONNX import: %s with sequence_lens is not supported' % op)
    if clip is not None:
        raise NotImplementedError('ONNX import: %s with clip is not supported' % op)
    if layout:
        raise NotImplementedError('ONNX import: %s with layout=1 is not supported' % op)
    if extra:
        raise NotImplementedError('ONNX import: %s with %s is not supported' % (op, extra))
    if activations is not None:
        defaults = {'LSTM': ['Sigmoid', 'Tanh', 'Tanh'], 'GRU': ['Sigmoid', 'Tanh'],
                    'RNN': ['Tanh']}[op]
        names = [a.decode() if isinstance(a, bytes) else a for a in activations]
        if names != defaults[:len(names)] * (len(names) // len(defaults[:len(names)]) or 1):
            raise NotImplementedError('ONNX import: %s with activations %s is not supported' % (op, names))


def _directions(direction):
    d = direction.decode() if isinstance(direction, bytes) else (direction or 'forward')
    if d not in ('forward', 'reverse', 'bidirectional'):
        raise NotImplementedError('ONNX import: the direction %s is not supported' % d)
    return ['forward', 'reverse'] if d == 'bidirectional' else [d]


def _run_directions(X, directions, step, states):
    """ONNX's recurrence over X (seq, batch, input): for each direction d, step (d, x_t,
    state) -> state whose first element is h; returns Y (seq, dirs, batch, H) and the last
    states of each direction"""
    gnn = _gnn()
    steps = X.shape[0]
    ys, finals = [], []
    for d, direction in enumerate(directions):
        state = states[d]
        out = [None] * steps
        order = range(steps) if direction == 'forward' else range(steps - 1, -1, -1)
        for t in order:
            state = step(d, X[t], state)
            out[t] = state[0]
        ys.append(gnn.stack(out, 0))
        finals.append(state)
    return gnn.stack(ys, 1), finals


def _zeros_state(X, n_dirs, hidden):
    return _gnn().zeros(n_dirs, X.shape[1], hidden, dtype=X.dtype)


def onnx_LSTM(X, W, R, B=None, sequence_lens=None, initial_h=None, initial_c=None, P=None,
              activation_alpha=None, activation_beta=None, activations=None, clip=None,
              direction='forward', hidden_size=None, input_forget=0, layout=0):
    """ONNX's LSTM: gates in the order i, o, f, c (torch's are i, f, g, o)"""
    _recurrent_checks('LSTM', X, sequence_lens, activations, clip, layout,
                      'peepholes (P)' if P is not None else 'input_forget' if input_forget else None)
    directions = _directions(direction)
    H = hidden_size or R.shape[-1]
    h0 = initial_h if initial_h is not None else _zeros_state(X, len(directions), H)
    c0 = initial_c if initial_c is not None else _zeros_state(X, len(directions), H)
    Wt = [W[d].t() for d in range(len(directions))]
    Rt = [R[d].t() for d in range(len(directions))]
    bias = [B[d].narrow(0, 0, 4 * H) + B[d].narrow(0, 4 * H, 4 * H) if B is not None else None
            for d in range(len(directions))]

    def step(d, x, state):
        h, c = state
        g = x @ Wt[d] + h @ Rt[d]
        if bias[d] is not None:
            g = g + bias[d]
        i, o, f, cc = g.chunk(4, 1)
        c = f.sigmoid() * c + i.sigmoid() * cc.tanh()
        return (o.sigmoid() * c.tanh(), c)

    Y, finals = _run_directions(X, directions, step, [(h0[d], c0[d]) for d in range(len(directions))])
    gnn = _gnn()
    return Y, gnn.stack([f[0] for f in finals], 0), gnn.stack([f[1] for f in finals], 0)


def onnx_RNN(X, W, R, B=None, sequence_lens=None, initial_h=None, activation_alpha=None,
             activation_beta=None, activations=None, clip=None, direction='forward',
             hidden_size=None, layout=0):
    """ONNX's RNN: h = f (x W^T + h R^T + Wb + Rb), f Tanh (torch's default) or Relu"""
    _recurrent_checks('RNN', X, sequence_lens, None, clip, layout)
    names = [a.decode() if isinstance(a, bytes) else a for a in (activations or ['Tanh'])]
    if set(names) - {'Tanh', 'Relu'} or len(set(names)) != 1:
        raise NotImplementedError('ONNX import: RNN with activations %s is not supported' % names)
    relu = names[0] == 'Relu'
    directions = _directions(direction)
    H = hidden_size or R.shape[-1]
    h0 = initial_h if initial_h is not None else _zeros_state(X, len(directions), H)
    Wt = [W[d].t() for d in range(len(directions))]
    Rt = [R[d].t() for d in range(len(directions))]
    bias = [B[d].narrow(0, 0, H) + B[d].narrow(0, H, H) if B is not None else None
            for d in range(len(directions))]

    def step(d, x, state):
        g = x @ Wt[d] + state[0] @ Rt[d]
        if bias[d] is not None:
            g = g + bias[d]
        return (g.relu() if relu else g.tanh(),)

    Y, finals = _run_directions(X, directions, step, [(h0[d],) for d in range(len(directions))])
    return Y, _gnn().stack([f[0] for f in finals], 0)


def onnx_GRU(X, W, R, B=None, sequence_lens=None, initial_h=None, activation_alpha=None,
             activation_beta=None, activations=None, clip=None, direction='forward',
             hidden_size=None, layout=0, linear_before_reset=0):
    """ONNX's GRU: gates in the order z, r, h (torch's are r, z, n); linear_before_reset=1 is
    torch's form, r multiplying (R_h h + Rb_h)"""
    _recurrent_checks('GRU', X, sequence_lens, activations, clip, layout)
    directions = _directions(direction)
    H = hidden_size or R.shape[-1]
    h0 = initial_h if initial_h is not None else _zeros_state(X, len(directions), H)
    Wt = [W[d].t() for d in range(len(directions))]
    Rt = [R[d].t() for d in range(len(directions))]
    wb = [B[d].narrow(0, 0, 3 * H) if B is not None else None for d in range(len(directions))]
    rb = [B[d].narrow(0, 3 * H, 3 * H) if B is not None else None for d in range(len(directions))]

    def step(d, x, state):
        h, = state
        gx = x @ Wt[d]
        if wb[d] is not None:
            gx = gx + wb[d]
        xz, xr, xh = gx.chunk(3, 1)
        Rz, Rr, Rh = Rt[d].chunk(3, 1)
        bz, br, bh = rb[d].chunk(3, 0) if rb[d] is not None else (0.0, 0.0, 0.0)
        z = (xz + h @ Rz + bz).sigmoid()
        r = (xr + h @ Rr + br).sigmoid()
        if linear_before_reset:
            n = (xh + r * (h @ Rh + bh)).tanh()
        else:
            n = (xh + (r * h) @ Rh + bh).tanh()
        return ((1.0 - z) * n + z * h,)

    Y, finals = _run_directions(X, directions, step, [(h0[d],) for d in range(len(directions))])
    return Y, _gnn().stack([f[0] for f in finals], 0)


def onnx_Slice(data, starts, ends, axes=None, steps=None):
    starts, ends = _ints(starts), _ints(ends)
    axes = _ints(axes) if axes is not None else list(range(len(starts)))
    steps = _ints(steps) if steps is not None else [1] * len(starts)
    index = [slice(None)] * data.dim()
    for start, end, axis, step in zip(starts, ends, axes, steps):
        size = data.shape[axis % data.dim()]
        if step == 0:
            raise NotImplementedError('ONNX import: Slice with step 0 is not supported')
        if step < 0:
            # ONNX clamps a backwards slice's start to [0, size - 1] and its end to [-1, size - 1]
            start = max(0, min(size - 1, start + size if start < 0 else start))
            end = max(-1, min(size - 1, end + size if end < 0 else end))
            picks = list(range(start, end, step))
            data = data.index_select(axis % data.dim(), _gnn().tensor(picks, dtype=_gnn().int64))
            continue
        # ONNX clamps the bounds to the dimension (INT64_MAX means "to the end")
        start = max(0, min(size, start + size if start < 0 else start))
        end = max(0, min(size, end + size if end < 0 else end))
        index[axis % data.dim()] = slice(start, max(start, end), step)
    return data[tuple(index)]


def onnx_Div(a, b):
    """ONNX's Div: integer tensors divide truncating toward zero (torch's shape arithmetic,
    (size + 2) / 3, depends on it); others as /"""
    if (isinstance(a, Gnn.Tensor) and isinstance(b, Gnn.Tensor) and not a.is_floating_point()
            and not b.is_floating_point()):
        return _gnn().div(a, b, rounding_mode='trunc')
    return a / b


def onnx_Selu(x, alpha=1.67326319217681884765625, gamma=1.05070102214813232421875):
    return _F().elu(x, alpha) * gamma


def onnx_Celu(x, alpha=1.0):
    return _F().celu(x, alpha)


def onnx_Softplus(x):
    return _F().softplus(x)


def onnx_Shrink(x, bias=0.0, lambd=0.5):
    gnn = _gnn()
    return gnn.where(x < -lambd, x + bias, gnn.where(x > lambd, x - bias, x * 0.0))


def onnx_PRelu(x, slope):
    return _gnn().where(x < 0, x * slope, x)


# ONNX's TensorProto data types that Cast reads, as gnn's dtypes
_CAST_TYPES = {1: 'float32', 11: 'float64', 7: 'int64', 6: 'int32', 9: 'bool', 2: 'uint8',
               3: 'int8', 5: 'int16', 10: 'float16', 16: 'bfloat16'}


def onnx_Cast(x, to=1, saturate=1):
    name = _CAST_TYPES.get(to)
    if name is None:
        raise NotImplementedError('ONNX import: Cast to the ONNX type %d is not supported' % to)
    return x.to(getattr(_gnn(), name))


def onnx_Where(condition, X, Y):
    return _gnn().where(condition, X, Y)


def onnx_Pad(data, pads, constant_value=None, axes=None, mode='constant'):
    """ONNX's Pad (begins then ends, over every axis or @axes) as F.pad's pairs from the last
    dim; modes constant, reflect and edge (F.pad's 'replicate')"""
    mode = mode.decode() if isinstance(mode, bytes) else mode
    modes = {'constant': 'constant', 'reflect': 'reflect', 'edge': 'replicate'}
    if mode not in modes:
        raise NotImplementedError('ONNX import: Pad with mode %s is not supported' % mode)
    pads = _ints(pads)
    axes = [a % data.dim() for a in _ints(axes)] if axes is not None else list(range(data.dim()))
    n = len(axes)
    if any(p < 0 for p in pads):
        raise NotImplementedError('ONNX import: Pad with negative pads is not supported')
    per_axis = {a: (pads[i], pads[i + n]) for i, a in enumerate(axes)}
    first = min((a for a, p in per_axis.items() if p != (0, 0)), default=data.dim())
    torch_pads = []
    for a in range(data.dim() - 1, first - 1, -1):
        torch_pads += list(per_axis.get(a, (0, 0)))
    if not torch_pads:
        return data
    value = _scalar(constant_value) if constant_value is not None else 0.0
    if modes[mode] == 'constant':
        return _F().pad(data, tuple(torch_pads), 'constant', value)
    return _F().pad(data, tuple(torch_pads), modes[mode])


def onnx_ConstantOfShape(input, value=None):
    """a tensor of the shape @input filled with @value (a one-element tensor; 0.0 float32
    without one)"""
    gnn = _gnn()
    sizes = _ints(input)
    if value is None:
        return gnn.zeros(*sizes) if sizes else gnn.tensor(0.0)
    fill = value.reshape(-1)
    return fill.reshape(*([1] * len(sizes))).expand(*sizes).clone() if sizes else fill.reshape(())


def onnx_Pow(x, y):
    return x ** y


def onnx_Max(*data):
    out = data[0]
    for d in data[1:]:
        out = _gnn().maximum(out, d)
    return out


def onnx_Min(*data):
    out = data[0]
    for d in data[1:]:
        out = _gnn().minimum(out, d)
    return out


def onnx_Mod(a, b, fmod=0):
    """fmod 1: C's fmod (the sign of a); fmod 0 (integers): the sign of b, as torch's remainder"""
    return _gnn().fmod(a, b) if fmod else _gnn().remainder(a, b)


def onnx_CumSum(x, axis, exclusive=0, reverse=0):
    dim = int(_scalar(axis)) if isinstance(axis, Gnn.Tensor) else int(axis)
    if reverse:
        x = x.flip([dim])
    out = _gnn().cumsum(x, dim)
    if exclusive:
        out = out - x
    return out.flip([dim]) if reverse else out


def onnx_DepthToSpace(input, blocksize, mode='DCR'):
    """ONNX's DepthToSpace: CRD is torch's pixel_shuffle; DCR takes the blocks before the channels"""
    mode = mode.decode() if isinstance(mode, bytes) else mode
    n, c, h, w = input.shape
    r = blocksize
    if mode == 'CRD':
        return _F().pixel_shuffle(input, r)
    x = input.reshape(n, r, r, c // (r * r), h, w).permute(0, 3, 4, 1, 5, 2)
    return x.reshape(n, c // (r * r), h * r, w * r)


def onnx_LRN(X, size, alpha=0.0001, beta=0.75, bias=1.0):
    """ONNX's LRN: the window over the channels is torch's local_response_norm's for an odd
    size and its mirror for an even one (so the channels are reversed around it)"""
    F = _F()
    if size % 2:
        return F.local_response_norm(X, size, alpha, beta, bias)
    return F.local_response_norm(X.flip([1]), size, alpha, beta, bias).flip([1])


def onnx_Resize(X, roi=None, scales=None, sizes=None, antialias=0, axes=None,
                coordinate_transformation_mode='half_pixel', cubic_coeff_a=-0.75, exclude_outside=0,
                extrapolation_value=0.0, keep_aspect_ratio_policy='stretch', mode='nearest',
                nearest_mode='round_prefer_floor'):
    """ONNX's Resize as torch's interpolate: nearest (asymmetric, floor) and linear
    (align_corners, or pytorch_half_pixel / half_pixel) over every spatial dim"""
    def text(v):
        return v.decode() if isinstance(v, bytes) else v
    mode, ctm, nearest_mode = text(mode), text(coordinate_transformation_mode), text(nearest_mode)
    n = X.dim() - 2
    if mode == 'nearest' and ctm == 'asymmetric' and nearest_mode == 'floor':
        kw = {'mode': 'nearest'}
    elif mode == 'linear' and ctm in ('align_corners', 'pytorch_half_pixel', 'half_pixel') and 1 <= n <= 3:
        kw = {'mode': ('linear', 'bilinear', 'trilinear')[n - 1], 'align_corners': ctm == 'align_corners'}
    else:
        raise NotImplementedError('ONNX import: Resize with mode %s, coordinate_transformation_mode %s '
                                  'and nearest_mode %s is not supported' % (mode, ctm, nearest_mode))
    if axes is not None or antialias:
        raise NotImplementedError('ONNX import: Resize with axes or antialias is not supported')
    size = _ints(sizes) if sizes is not None and sizes.numel() > 0 else None
    if size is not None:
        if size[:2] != list(X.shape[:2]):
            raise NotImplementedError('ONNX import: Resize of the batch or channel dims is not supported')
        return _F().interpolate(X, size=tuple(size[2:]), **kw)
    sc = [float(v) for v in scales.reshape(-1).tolist()]
    if sc[:2] != [1.0, 1.0]:
        raise NotImplementedError('ONNX import: Resize of the batch or channel dims is not supported')
    return _F().interpolate(X, scale_factor=tuple(sc[2:]), **kw)


def _reduce_extreme(name):
    def op(data, axes=None, keepdims=1, noop_with_empty_axes=0):
        dims = tuple(_ints(axes)) if axes is not None else tuple(range(data.dim()))
        return getattr(data, name)(dims, keepdim=bool(keepdims))
    op.__name__ = 'onnx_Reduce' + name
    return op


onnx_ReduceMax = _reduce_extreme('amax')
onnx_ReduceMin = _reduce_extreme('amin')


def onnx_IsNaN(x):
    return _gnn().isnan(x)


def onnx_Tile(input, repeats):
    return input.repeat(*_ints(repeats))


def onnx_Softsign(x):
    return _F().softsign(x)


def _unary(name):
    def op(x):
        return getattr(x, name)()
    op.__name__ = 'onnx_' + name
    return op


_ONNX_OPS = {
    'Conv': onnx_Conv, 'Gemm': onnx_Gemm, 'MaxPool': onnx_MaxPool, 'AveragePool': onnx_AveragePool,
    'GlobalAveragePool': onnx_GlobalAveragePool, 'GlobalMaxPool': onnx_GlobalMaxPool,
    'BatchNormalization': onnx_BatchNormalization, 'LayerNormalization': onnx_LayerNormalization,
    'Flatten': onnx_Flatten, 'Reshape': onnx_Reshape, 'Transpose': onnx_Transpose,
    'Concat': onnx_Concat, 'Softmax': onnx_Softmax, 'LogSoftmax': onnx_LogSoftmax,
    'Clip': onnx_Clip, 'LeakyRelu': onnx_LeakyRelu, 'Elu': onnx_Elu, 'HardSigmoid': onnx_HardSigmoid,
    'Identity': onnx_Identity, 'Dropout': onnx_Dropout, 'Unsqueeze': onnx_Unsqueeze,
    'Squeeze': onnx_Squeeze, 'Shape': onnx_Shape, 'Gather': onnx_Gather,
    'ReduceMean': onnx_ReduceMean, 'Pow': onnx_Pow, 'ConvTranspose': onnx_ConvTranspose,
    'ReduceSum': onnx_ReduceSum, 'HardSwish': onnx_HardSwish, 'Expand': onnx_Expand,
    'LSTM': onnx_LSTM, 'GRU': onnx_GRU, 'RNN': onnx_RNN, 'Slice': onnx_Slice, 'Selu': onnx_Selu,
    'Pad': onnx_Pad, 'ConstantOfShape': onnx_ConstantOfShape, 'Celu': onnx_Celu, 'Softplus': onnx_Softplus, 'Shrink': onnx_Shrink, 'PRelu': onnx_PRelu,
    'Add': _operator.add, 'Sub': _operator.sub, 'Mul': _operator.mul, 'Div': onnx_Div,
    'MatMul': _operator.matmul, 'Greater': _operator.gt, 'Less': _operator.lt,
    'GreaterOrEqual': _operator.ge, 'LessOrEqual': _operator.le, 'Equal': _operator.eq,
    'Or': _operator.or_, 'And': _operator.and_, 'Not': _operator.invert, 'Cast': onnx_Cast,
    'Where': onnx_Where,
    'InstanceNormalization': onnx_InstanceNormalization, 'Split': onnx_Split,
    'Max': onnx_Max, 'Min': onnx_Min, 'Mod': onnx_Mod, 'CumSum': onnx_CumSum, 'Xor': _operator.xor,
    'Softsign': onnx_Softsign, 'DepthToSpace': onnx_DepthToSpace, 'LRN': onnx_LRN,
    'Tile': onnx_Tile, 'Resize': onnx_Resize, 'ReduceMax': onnx_ReduceMax, 'ReduceMin': onnx_ReduceMin,
    'IsNaN': onnx_IsNaN,
}
for _op, _method in (('Relu', 'relu'), ('Sigmoid', 'sigmoid'), ('Tanh', 'tanh'), ('Exp', 'exp'),
                     ('Log', 'log'), ('Sqrt', 'sqrt'), ('Neg', 'neg'), ('Abs', 'abs'),
                     ('Erf', 'erf'), ('Reciprocal', 'reciprocal'), ('Floor', 'floor'),
                     ('Ceil', 'ceil'), ('Sin', 'sin'), ('Cos', 'cos'), ('Tan', 'tan'), ('Asin', 'asin'),
                     ('Acos', 'acos'), ('Atan', 'atan'), ('Sinh', 'sinh'), ('Cosh', 'cosh'),
                     ('Asinh', 'asinh'), ('Acosh', 'acosh'), ('Atanh', 'atanh'), ('Sign', 'sign'),
                     ('Round', 'round')):
    _ONNX_OPS[_op] = _unary(_method)
for _op, _fn in _ONNX_OPS.items():
    if not getattr(_fn, '__module__', '').startswith('_operator'):
        _fx._functions.setdefault('gnn.onnx.ops.%s' % _op, _fn)


def _check_recurrent(op_type, inputs, attrs):
    """what gnn's LSTM and GRU do not compute, found when the file is read: a message or None"""
    if len(inputs) > 4 and inputs[4]:
        return 'sequence_lens'
    if op_type == 'LSTM' and len(inputs) > 7 and inputs[7]:
        return 'peepholes (P)'
    for key in ('clip', 'activation_alpha', 'activation_beta'):
        if attrs.get(key) is not None:
            return key
    if attrs.get('layout'):
        return 'layout=1'
    if attrs.get('input_forget'):
        return 'input_forget'
    try:
        _directions(attrs.get('direction'))
        if op_type != 'RNN':
            _recurrent_checks(op_type, None, None, attrs.get('activations'), None, 0)
        elif not {a.decode() if isinstance(a, bytes) else a
                  for a in attrs.get('activations') or ['Tanh']} <= {'Tanh', 'Relu'}:
            return 'activations %s' % list(attrs.get('activations'))
    except NotImplementedError as e:
        return str(e).split(' with ', 1)[-1].replace(' is not supported', '')
    return None


_IMPORT_CHECKS = {'LSTM': _check_recurrent, 'GRU': _check_recurrent, 'RNN': _check_recurrent}


def _python_name(name, taken):
    """A dotted path whose parts are Python names, unique among @taken."""
    parts = []
    for part in (name or 'value').split('.'):
        parts.append(''.join(c if c.isalnum() or c == '_' else '_' for c in part) or '_')
    path, n = '.'.join(parts), 1
    while path in taken:
        n += 1
        path = '%s_%d' % ('.'.join(parts), n)
    taken.add(path)
    return path


def _register(root, path, tensor):
    *prefix, field = path.split('.')
    owner = root
    for part in prefix:
        try:
            owner = owner.get_submodule(part)
        except Exception:
            holder = _fx._Holder()
            owner.register_module(part, holder)
            owner = holder
    if Gnn.Tensor.get_dtype(tensor) in (Gnn.Dtype.FLOAT32, Gnn.Dtype.FLOAT64, Gnn.Dtype.FLOAT16,
                                        Gnn.Dtype.BFLOAT16):
        owner.register_parameter(field, Gnn.Parameter.new(tensor, True))
    else:
        owner.register_buffer(field, tensor, True)


@_export
def onnx_import_model(f):
    """An ONNX model (a path, bytes or a binary file object) as a gnn.fx.GraphModule: its
    initializers are the module's parameters (floating point) and buffers under their names,
    its nodes call_function nodes computing each operator with gnn's ops. gnn's own; torch
    has no ONNX import. An operator gnn cannot compute is a NotImplementedError naming it;
    a hostile or broken file is a GLib.GError (see Gnn.OnnxModel.new_from_bytes)."""
    if isinstance(f, (str, _os.PathLike)):
        model = Gnn.OnnxModel.new_from_file(_os.fspath(f))
    else:
        data = f if isinstance(f, (bytes, bytearray)) else f.read()
        model = Gnn.OnnxModel.new_from_bytes(GLib.Bytes.new(bytes(data)))
    root = _fx._Holder()
    taken = set()
    paths = {}
    for name in model.get_initializer_names():
        paths[name] = _python_name(name, taken)
        _register(root, paths[name], model.get_initializer(name))
    graph = Gnn.Graph.new()
    values = {}

    def value(name):
        if name == '':
            return None
        if name not in values:
            values[name] = graph.create_node('get_attr', paths[name], None, None)
        return values[name]

    def proxy(a):
        if isinstance(a, Gnn.GraphNode):
            return _fx.fx_Proxy(a, None)
        if isinstance(a, (list, tuple)):
            return tuple(proxy(x) for x in a)
        return a

    def pack(*args, **kwargs):
        return _fx._pack(tuple(proxy(a) for a in args), {k: proxy(v) for k, v in kwargs.items()})

    for name, _type, _dims in model.get_inputs().unpack():
        values[name] = graph.create_node('placeholder', _python_name(name, taken).replace('.', '_'),
                                         None, None)
    for i in range(model.get_n_nodes()):
        node_name, op_type, _domain, inputs, outputs, attrs = model.get_node(i).unpack()
        if op_type == 'Constant':
            t = model.get_node_tensor(i, 'value')
            if t is None:
                v = next(iter(attrs.values()))
                t = _gnn().tensor(v, dtype=_gnn().int64 if isinstance(v, int) or
                                  (isinstance(v, list) and all(isinstance(x, int) for x in v))
                                  else _gnn().float32)
            paths[outputs[0]] = _python_name('constants.' + (outputs[0] or 'c%d' % i), taken)
            _register(root, paths[outputs[0]], t)
            continue
        tensor_inputs = list(inputs)
        if op_type == 'ConstantOfShape' and model.get_node_tensor(i, 'value') is not None:
            # its value is a tensor attribute: a buffer, read as ConstantOfShape's second input
            key = 'constants.' + (outputs[0] or 'c%d' % i) + '_value'
            paths[key] = _python_name(key, taken)
            _register(root, paths[key], model.get_node_tensor(i, 'value'))
            tensor_inputs.append(key)
            attrs = {k: v for k, v in attrs.items() if k != 'value'}
        fn = _ONNX_OPS.get(op_type)
        if fn is None:
            raise NotImplementedError("ONNX import: node %s is a %s, which gnn's importer does "
                                      "not compute (doc/onnx.md lists the operators it reads)"
                                      % (node_name or i, op_type))
        problem = _IMPORT_CHECKS[op_type](op_type, inputs, attrs) if op_type in _IMPORT_CHECKS else None
        if problem:
            raise NotImplementedError('ONNX import: node %s is a %s with %s, which gnn\'s importer '
                                      'does not compute' % (node_name or i, op_type, problem))
        for key, v in attrs.items():
            if v is None:
                raise NotImplementedError('ONNX import: node %s: the tensor attribute %s of %s '
                                          'is not supported' % (node_name or i, key, op_type))
        if op_type == 'Split':     # before opset 18, the number of parts is that of the outputs
            attrs = dict(attrs, num_outputs=len(outputs))
        args = [value(n) for n in tensor_inputs]
        while args and args[-1] is None:
            args.pop()
        target = _fx._target_string(fn, 'gnn.onnx.ops.%s' % op_type
                                    if not getattr(fn, '__module__', '').startswith('_operator') else None)
        base = _python_name(outputs[0] if outputs and outputs[0] else op_type, taken).replace('.', '_')
        call = graph.create_node('call_function', target, pack(*args, **attrs), base)
        real_outputs = [o for o in outputs if o]
        if len(real_outputs) == 1 and outputs[0]:
            values[outputs[0]] = call
        else:
            for k, o in enumerate(outputs):
                if o:
                    values[o] = graph.create_node('call_function',
                                                  _fx._target_string(_operator.getitem),
                                                  pack(call, k), None)
    outs = [values[name] for name, _t, _d in model.get_outputs().unpack()]
    graph.output(pack(outs[0]) if len(outs) == 1 else pack(tuple(outs)))
    return _fx.fx_GraphModule(root, graph, 'OnnxModel')
