# layers: torch's positional and keyword constructor signatures
#
# SPDX-License-Identifier: LGPL-2.1-or-later
import numbers as _numbers

from .base import Gnn, _call_raising_python_errors, override
from .tensor import Tensor, _device_string
from .module import _as_dtype  # (and the classes made here derive from the Module override)

__all__ = []

# Gnn.Linear(4, 3, bias=False), Gnn.Conv2d(1, 8, 3, stride=1, padding=1),
# Gnn.CrossEntropyLoss(reduction='sum', label_smoothing=0.1), Gnn.MaxPool2d(2) ... take
# torch.nn's arguments in torch's order. Each becomes a construct property: an int or a tuple
# for a size (kernel_size, stride, padding, normalized_shape, ...) becomes the GVariant "ax"
# the property holds, a string padding ("same") a GVariant string, a reduction name the
# Gnn.Reduction value, None leaves the property at its default (but see _NONE_MEANS). Arguments gnn has no property
# for are accepted only at torch's default (inplace=False, ...); device= moves the new layer there.
# Property names (also with dashes) and GVariants still work as keywords.

_REQUIRED_ARG = object()
_UNSUPPORTED_DEFAULTS = {
    'inplace': (False,), 'padding_mode': ('zeros',),
    'size_average': (None,), 'reduce': (None,), 'max_norm': (None,), 'norm_type': (2.0,),
    'scale_grad_by_freq': (False,), 'sparse': (False,), '_weight': (None,),
    'min_value': (None,), 'max_value': (None,),   # Hardtanh's deprecated spellings of its bounds
}
_R = _REQUIRED_ARG
_CONV = ['in_channels', 'out_channels', 'kernel_size', ('stride', 1), ('padding', 0), ('dilation', 1),
         ('groups', 1), ('bias', True), ('padding_mode', 'zeros'), ('device', None), ('dtype', None)]
_CONV_TRANSPOSE = ['in_channels', 'out_channels', 'kernel_size', ('stride', 1), ('padding', 0),
                   ('output_padding', 0), ('groups', 1), ('bias', True), ('dilation', 1),
                   ('padding_mode', 'zeros'), ('device', None), ('dtype', None)]
_NORM = ['num_features', ('eps', 1e-5), ('momentum', 0.1), ('affine', True),
         ('track_running_stats', True), ('device', None), ('dtype', None)]
_LOSS = [('size_average', None), ('reduce', None), ('reduction', 'mean')]
_RNN = ['input_size', 'hidden_size', ('num_layers', 1), ('bias', True), ('batch_first', False),
        ('dropout', 0.0), ('bidirectional', False)]
_LAYER_SIGNATURES = {
    'Linear': ['in_features', 'out_features', ('bias', True), ('device', None), ('dtype', None)],
    'Bilinear': ['in1_features', 'in2_features', 'out_features', ('bias', True), ('device', None),
                 ('dtype', None)],
    'Conv1d': _CONV, 'Conv2d': _CONV,
    'ConvTranspose2d': _CONV_TRANSPOSE, 'ConvTranspose1d': _CONV_TRANSPOSE,
    'MaxPool2d': ['kernel_size', ('stride', None), ('padding', 0), ('dilation', 1),
                  ('return_indices', False), ('ceil_mode', False)],
    'AvgPool2d': ['kernel_size', ('stride', None), ('padding', 0), ('ceil_mode', False),
                  ('count_include_pad', True), ('divisor_override', None)],
    'AdaptiveAvgPool2d': ['output_size'],
    'MaxPool1d': ['kernel_size', ('stride', None), ('padding', 0), ('dilation', 1),
                  ('return_indices', False), ('ceil_mode', False)],
    'AvgPool1d': ['kernel_size', ('stride', None), ('padding', 0), ('ceil_mode', False),
                  ('count_include_pad', True)],
    'AdaptiveAvgPool1d': ['output_size'],
    'BatchNorm1d': _NORM, 'BatchNorm2d': _NORM,
    'GroupNorm': ['num_groups', 'num_channels', ('eps', 1e-5), ('affine', True), ('device', None),
                  ('dtype', None)],
    'LayerNorm': ['normalized_shape', ('eps', 1e-5), ('elementwise_affine', True), ('device', None),
                  ('dtype', None)],
    'Embedding': ['num_embeddings', 'embedding_dim', ('padding_idx', None), ('max_norm', None),
                  ('norm_type', 2.0), ('scale_grad_by_freq', False), ('sparse', False),
                  ('_weight', None), ('device', None), ('dtype', None)],
    'Dropout': [('p', 0.5), ('inplace', False)], 'Dropout2d': [('p', 0.5), ('inplace', False)],
    'Dropout1d': [('p', 0.5), ('inplace', False)],
    'ELU': [('alpha', 1.0), ('inplace', False)],
    'LeakyReLU': [('negative_slope', 0.01), ('inplace', False)],
    'ReLU': [('inplace', False)], 'SiLU': [('inplace', False)], 'Sigmoid': [], 'Tanh': [], 'Softsign': [],
    'GELU': [('approximate', 'none')],
    'Softmax': [('dim', None)], 'LogSoftmax': [('dim', None)],
    'Softplus': [('beta', 1), ('threshold', 20)],
    'Hardtanh': [('min_val', -1.0), ('max_val', 1.0), ('inplace', False), ('min_value', None), ('max_value', None)],
    'ReLU6': [('inplace', False)], 'Hardsigmoid': [('inplace', False)], 'Hardswish': [('inplace', False)],
    'Mish': [('inplace', False)], 'SELU': [('inplace', False)], 'CELU': [('alpha', 1.0), ('inplace', False)],
    'LogSigmoid': [], 'Tanhshrink': [], 'Softmax2d': [],
    'Threshold': ['threshold', 'value', ('inplace', False)],
    'Hardshrink': [('lambd', 0.5)], 'Softshrink': [('lambd', 0.5)], 'Softmin': [('dim', None)],
    'GLU': [('dim', -1)], 'RReLU': [('lower', 1.0 / 8), ('upper', 1.0 / 3), ('inplace', False)],
    'PReLU': [('num_parameters', 1), ('init', 0.25), ('device', None), ('dtype', None)],
    'Flatten': [('start_dim', 1), ('end_dim', -1)],
    'Unflatten': ['dim', 'unflattened_size'],
    'L1Loss': _LOSS, 'MSELoss': _LOSS,
    'HuberLoss': [('reduction', 'mean'), ('delta', 1.0)],
    'SmoothL1Loss': _LOSS + [('beta', 1.0)],
    'KLDivLoss': _LOSS + [('log_target', False)],
    'NLLLoss': [('weight', None), ('size_average', None), ('ignore_index', -100), ('reduce', None),
                ('reduction', 'mean')],
    'CrossEntropyLoss': [('weight', None), ('size_average', None), ('ignore_index', -100),
                         ('reduce', None), ('reduction', 'mean'), ('label_smoothing', 0.0)],
    'BCELoss': [('weight', None)] + _LOSS,
    'BCEWithLogitsLoss': [('weight', None)] + _LOSS + [('pos_weight', None)],
    # torch's RNNBase order (RNN takes nonlinearity as a keyword, LSTM proj_size after bidirectional)
    'RNN': _RNN + [('nonlinearity', 'tanh'), ('device', None), ('dtype', None)],
    'LSTM': _RNN + [('proj_size', 0), ('device', None), ('dtype', None)],
    'GRU': _RNN + [('device', None), ('dtype', None)],
    'RNNCell': ['input_size', 'hidden_size', ('bias', True), ('nonlinearity', 'tanh'), ('device', None),
                ('dtype', None)],
    'LSTMCell': ['input_size', 'hidden_size', ('bias', True), ('device', None), ('dtype', None)],
    'GRUCell': ['input_size', 'hidden_size', ('bias', True), ('device', None), ('dtype', None)],
    'ConstantPad1d': ['padding', 'value'], 'ConstantPad2d': ['padding', 'value'],
    'ConstantPad3d': ['padding', 'value'], 'ZeroPad2d': ['padding'],
    'ReflectionPad1d': ['padding'], 'ReflectionPad2d': ['padding'], 'ReflectionPad3d': ['padding'],
    'ReplicationPad1d': ['padding'], 'ReplicationPad2d': ['padding'], 'ReplicationPad3d': ['padding'],
    'MultiheadAttention': ['embed_dim', 'num_heads', ('dropout', 0.0), ('bias', True), ('add_bias_kv', False),
                           ('add_zero_attn', False), ('kdim', None), ('vdim', None), ('batch_first', False),
                           ('device', None), ('dtype', None)],
    'NonDynamicallyQuantizableLinear': ['in_features', 'out_features', ('bias', True), ('device', None),
                                        ('dtype', None)],
    'CosineSimilarity': [('dim', 1), ('eps', 1e-8)],
    'PairwiseDistance': [('p', 2.0), ('eps', 1e-6), ('keepdim', False)],
}
# the 3-d layers, as their 2-d forms
_LAYER_SIGNATURES.update({
    'Conv3d': _CONV, 'ConvTranspose3d': _CONV_TRANSPOSE,
    'MaxPool3d': ['kernel_size', ('stride', None), ('padding', 0), ('dilation', 1),
                  ('return_indices', False), ('ceil_mode', False)],
    'AvgPool3d': ['kernel_size', ('stride', None), ('padding', 0), ('ceil_mode', False),
                  ('count_include_pad', True), ('divisor_override', None)],
    'AdaptiveAvgPool3d': ['output_size'],
    'BatchNorm3d': _NORM, 'Dropout3d': [('p', 0.5), ('inplace', False)],
    'AdaptiveMaxPool3d': ['output_size', ('return_indices', False)],
})
del _R


# torch arguments whose None means something else than the default: momentum=None is the
# cumulative moving average (the cumulative-average property). (A None inside a size,
# AdaptiveAvgPool2d((None, 7)), keeps that dimension of the input: -1 in the C property.)
_NONE_MEANS = {'momentum': ('cumulative_average', True)}


def _property_value(pspec, value):
    """@value as the GObject property described by @pspec takes it."""
    from gi.repository import GLib, GObject
    vtype = pspec.value_type
    if vtype == GObject.TYPE_VARIANT and not isinstance(value, GLib.Variant):
        if isinstance(value, str):
            return GLib.Variant('s', value)
        if isinstance(value, _numbers.Integral):
            return GLib.Variant('ax', [int(value)])
        return GLib.Variant('ax', [-1 if v is None else int(v) for v in value])
    if isinstance(value, str) and vtype.is_a(GObject.TYPE_ENUM):
        enum = vtype.pytype or getattr(Gnn, vtype.name[len('Gnn'):], None)
        member = getattr(enum, value.upper(), None)
        if member is None:
            raise ValueError('%s is not a valid value for %s' % (value, pspec.name))
        return member
    if vtype == Gnn.Dtype.__gtype__ and _as_dtype(value) is not None:
        return _as_dtype(value)
    if vtype.is_a(Gnn.Tensor.__gtype__) and type(value).__module__ == 'numpy':
        return Tensor.from_numpy(value)
    return value


def _signature_of(signature):
    """inspect.Signature of __init__ (self first) for a row of _LAYER_SIGNATURES, so that
    inspect.signature and help () show torch's parameters."""
    import inspect
    P = inspect.Parameter
    params = [P('self', P.POSITIONAL_OR_KEYWORD)]
    for s in signature:
        if isinstance(s, str):
            params.append(P(s, P.POSITIONAL_OR_KEYWORD))
        else:
            params.append(P(s[0], P.POSITIONAL_OR_KEYWORD, default=s[1]))
    return inspect.Signature(params)


def _layer_init(name, signature):
    names = [s if isinstance(s, str) else s[0] for s in signature]
    required = [s for s in signature if isinstance(s, str)]
    gi_class = getattr(Gnn, name)

    def __init__(self, *args, **kwargs):
        from gi.repository import GObject
        if len(args) > len(names):
            raise TypeError('%s() takes at most %d positional arguments (%d given)'
                            % (name, len(names), len(args)))
        values = dict(zip(names, args))
        for key in list(kwargs):
            if key in names:
                if key in values:
                    raise TypeError("%s() got multiple values for argument '%s'" % (name, key))
                values[key] = kwargs.pop(key)
        missing = [n for n in required if n not in values and n not in kwargs
                   and n.replace('_', '-') not in kwargs]
        if missing:
            raise TypeError('%s() missing required argument%s: %s' % (
                name, 's' if len(missing) > 1 else '', ', '.join("'%s'" % m for m in missing)))
        pspecs = {p.name: p for p in GObject.list_properties(type(self).__gtype__)}
        props = {}
        device = _device_string(values.pop('device', None))
        for key, value in values.items():
            pspec = pspecs.get(key.replace('_', '-'))
            if pspec is None:
                if value not in _UNSUPPORTED_DEFAULTS.get(key, (None,)):
                    raise TypeError('%s(): %s=%r is not supported by gnn' % (name, key, value))
                continue
            if value is None:
                if key in _NONE_MEANS:
                    prop, none_value = _NONE_MEANS[key]
                    props[prop] = _property_value(pspecs[prop.replace('_', '-')], none_value)
                continue
            props[key] = _property_value(pspec, value)
        for key, value in kwargs.items():
            pspec = pspecs.get(key.replace('_', '-'))
            props[key] = value if pspec is None or value is None else _property_value(pspec, value)
        gi_class.__init__(self, **props)
        # a hyperparameter the class refuses (its property table's checks, its setup) raises
        # here, as torch's constructor does, instead of at the first forward
        _call_raising_python_errors(Gnn.Module.setup, self)
        if device not in (None, 'cpu'):      # torch's factory keyword: made there
            _call_raising_python_errors(Gnn.Module.to_device, self, device)

    __init__.__signature__ = _signature_of(signature)
    __init__.__doc__ = '%s(%s), as torch.nn.%s' % (name, ', '.join(
        s if isinstance(s, str) else '%s=%r' % s for s in signature), name)
    return __init__


for _name, _signature in _LAYER_SIGNATURES.items():
    if _name in globals() or not hasattr(Gnn, _name):
        continue   # a hand-written override, or a layer this build lacks
    _cls = type(_name, (getattr(Gnn, _name),), {'__init__': _layer_init(_name, _signature),
                                                 '__module__': __name__})
    globals()[_name] = override(_cls)
    __all__.append(_name)
del _name, _signature, _cls


def _packed_input(input):
    """(the C input, whether it was a PackedSequence): a torch-style PackedSequence becomes the
    GnnPackedSequence the C layer takes."""
    from .rnn_utils import nn_utils_rnn_PackedSequence, to_c
    if isinstance(input, nn_utils_rnn_PackedSequence):
        return to_c(input), True
    return input, False


def _packed_output(output, packed):
    from .rnn_utils import from_c
    return from_c(output) if packed else output


def _lstm_call(self, input, hx=None):
    """LSTM(input, (h_0, c_0)) -> (output, (h_n, c_n)), as torch's: the C layer takes and
    gives the states as separate values. A PackedSequence input gives a PackedSequence output."""
    from .module import Args, _output_of
    states = () if hx is None else tuple(hx)
    if len(states) not in (0, 2):
        raise TypeError('LSTM: hx must be a tuple (h_0, c_0), got %d tensors' % len(states))
    input, packed = _packed_input(input)
    out = _output_of(_call_raising_python_errors(Gnn.Module.forward, self, Args.pack(input, *states)))
    return _packed_output(out[0], packed), (out[1], out[2])


if 'LSTM' in globals():
    LSTM.__call__ = _lstm_call


def _rnn_call(self, input, hx=None):
    """RNN / GRU (input, h_0) -> (output, h_n), as torch's; a PackedSequence input gives a
    PackedSequence output."""
    from .module import Args, _output_of
    input, packed = _packed_input(input)
    args = Args.pack(input) if hx is None else Args.pack(input, hx)
    out = _output_of(_call_raising_python_errors(Gnn.Module.forward, self, args))
    return _packed_output(out[0], packed), out[1]


for _name in ('RNN', 'GRU'):
    if _name in globals():
        globals()[_name].__call__ = _rnn_call
del _name


def _lstm_cell_call(self, input, hx=None):
    """LSTMCell(input, (h, c)) -> (h', c'), as torch's: the C cell takes and gives the two
    states as separate values."""
    from .module import Args, _output_of
    states = () if hx is None else tuple(hx)
    if len(states) not in (0, 2):
        raise TypeError('LSTMCell: hx must be a tuple (h, c), got %d tensors' % len(states))
    out = _output_of(_call_raising_python_errors(Gnn.Module.forward, self, Args.pack(input, *states)))
    return out[0], out[1]


if 'LSTMCell' in globals():
    LSTMCell.__call__ = _lstm_cell_call


def _mha_call(self, query, key, value, key_padding_mask=None, need_weights=True, attn_mask=None,
              average_attn_weights=True, is_causal=False):
    """MultiheadAttention(query, key, value, ...) -> (attn_output, attn_weights or None), as torch's."""
    from .module import Args, _output_of
    out = _output_of(_call_raising_python_errors(
        Gnn.Module.forward, self, Args.pack(query, key, value, key_padding_mask, bool(need_weights), attn_mask,
                                            bool(average_attn_weights), bool(is_causal))))
    return out[0], out[1]


if 'MultiheadAttention' in globals():
    MultiheadAttention.__call__ = _mha_call
