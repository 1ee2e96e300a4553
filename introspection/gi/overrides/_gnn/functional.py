# torch.nn.functional with torch's signatures
#
# Each function takes torch 1.13's arguments in torch's order, with its defaults, reductions as
# strings ('none', 'mean', 'sum', 'batchmean'), sizes as an int or a tuple, and calls the C op
# (a method of the introspected Gnn.Tensor). What C lacks is a Missing row of the torch name
# table (names.py) that says so. They are Gnn.functional_<name> here, and the rows of
# torch.nn.functional put them in gnn.nn.functional under torch's names
# (import gnn.nn.functional as F; F.relu (x)).
#
# SPDX-License-Identifier: LGPL-2.1-or-later
import numbers as _numbers

from .base import Gnn, _call_raising_python_errors
from .errors import raising_torch_errors

__all__ = []

_T = Gnn.Tensor          # the C methods, whatever the Python overrides make of their names


def _reduction(reduction, size_average=None, reduce=None):
    """torch's reduction string (after its legacy size_average / reduce) as a Gnn.Reduction."""
    if size_average is not None or reduce is not None:
        size_average = True if size_average is None else size_average
        reduce = True if reduce is None else reduce
        reduction = 'mean' if size_average and reduce else 'sum' if reduce else 'none'
    value = getattr(Gnn.Reduction, str(reduction).upper(), None) if isinstance(reduction, str) else None
    if value is None:
        raise ValueError('%s is not a valid value for reduction' % (reduction,))
    return value


def _pair(value, name, allow_none=False):
    """An int or a sequence of ints as a list of two (PyTorch's _pair)."""
    if value is None and allow_none:
        return None
    if isinstance(value, _numbers.Integral):
        return [int(value)] * 2
    try:
        values = [int(v) for v in value]
    except TypeError:
        raise TypeError('%s must be an int or a tuple of ints, not %s' % (name, type(value).__name__)) from None
    if len(values) == 1:
        values *= 2
    return values


def _softmax_input(input, dtype):
    if dtype is None:
        return input
    from .module import _as_dtype
    return _T.to_dtype(input, _as_dtype(dtype))


def _inplace_unsupported(name, inplace):
    if inplace:
        raise ValueError('%s(inplace=True): gnn runs this function out of place only' % name)


# ---- activations ----

def relu(input, inplace=False):
    _inplace_unsupported('relu', inplace)
    return _T.relu(input)


def relu6(input, inplace=False):
    _inplace_unsupported('relu6', inplace)
    return _T.hardtanh(input, 0.0, 6.0)


def hardtanh(input, min_val=-1.0, max_val=1.0, inplace=False):
    _inplace_unsupported('hardtanh', inplace)
    return _T.hardtanh(input, float(min_val), float(max_val))


def leaky_relu(input, negative_slope=0.01, inplace=False):
    _inplace_unsupported('leaky_relu', inplace)
    return _T.leaky_relu(input, float(negative_slope))


def elu(input, alpha=1.0, inplace=False):
    _inplace_unsupported('elu', inplace)
    return _T.elu(input, float(alpha))


def gelu(input, approximate='none'):
    if approximate not in ('none', 'tanh'):
        raise ValueError("approximate argument must be either none or tanh.")
    return _T.gelu(input, approximate)


def silu(input, inplace=False):
    _inplace_unsupported('silu', inplace)
    return _T.silu(input)


def sigmoid(input):
    return _T.sigmoid(input)


def tanh(input):
    return _T.tanh(input)


def softsign(input):
    return _T.div(input, _T.add_scalar(_T.abs(input), 1.0))


def softplus(input, beta=1, threshold=20):
    return _T.softplus(input, float(beta), float(threshold))


def hardsigmoid(input, inplace=False):
    _inplace_unsupported('hardsigmoid', inplace)
    return _T.hardsigmoid(input)


def hardswish(input, inplace=False):
    _inplace_unsupported('hardswish', inplace)
    return _T.hardswish(input)


def mish(input, inplace=False):
    _inplace_unsupported('mish', inplace)
    return _T.mish(input)


def celu(input, alpha=1.0, inplace=False):
    _inplace_unsupported('celu', inplace)
    return _T.celu(input, float(alpha))


def selu(input, inplace=False):
    _inplace_unsupported('selu', inplace)
    return _T.selu(input)


def logsigmoid(input):
    return _T.logsigmoid(input)


def hardshrink(input, lambd=0.5):
    return _T.hardshrink(input, float(lambd))


def softshrink(input, lambd=0.5):
    return _T.softshrink(input, float(lambd))


def threshold(input, threshold, value, inplace=False):
    _inplace_unsupported('threshold', inplace)
    return _T.threshold(input, float(threshold), float(value))


def tanhshrink(input):
    # torch composes it so: its node is SubBackward0
    return _T.sub(input, _T.tanh(input), 1.0)


def glu(input, dim=-1):
    return _T.glu(input, int(dim))


def prelu(input, weight):
    return _T.prelu(input, weight)


def rrelu(input, lower=1.0 / 8, upper=1.0 / 3, training=False, inplace=False):
    _inplace_unsupported('rrelu', inplace)
    return _T.rrelu(input, float(lower), float(upper), bool(training), None)


def _in_place(fn, input, *args):
    """fn (input, *args) written back into input (torch's F.relu_ and its kin): a leaf that
    requires grad refuses, the version counter moves on, and the gradient flows through the
    copy (CopyBackwards) to a clone of the old values that fn saw."""
    source = _T.clone(input) if _T.get_requires_grad(input) else input
    _T.copy_(input, fn(source, *args))
    return input


def relu_(input):
    return _in_place(_T.relu, input)


def elu_(input, alpha=1.0):
    return _in_place(_T.elu, input, float(alpha))


def leaky_relu_(input, negative_slope=0.01):
    return _in_place(_T.leaky_relu, input, float(negative_slope))


def hardtanh_(input, min_val=-1.0, max_val=1.0):
    return _in_place(_T.hardtanh, input, float(min_val), float(max_val))


def threshold_(input, threshold, value):
    return _in_place(_T.threshold, input, float(threshold), float(value))


def selu_(input):
    return _in_place(_T.selu, input)


def celu_(input, alpha=1.0):
    return _in_place(_T.celu, input, float(alpha))


def rrelu_(input, lower=1.0 / 8, upper=1.0 / 3, training=False):
    return _in_place(_T.rrelu, input, float(lower), float(upper), bool(training), None)


def softmin(input, dim=None, _stacklevel=3, dtype=None):
    if dim is None:
        raise TypeError('softmin(): dim is required (torch infers it only with a deprecation warning)')
    return _T.softmax(_softmax_input(_T.neg(input), dtype), int(dim))


def softmax(input, dim=None, _stacklevel=3, dtype=None):
    if dim is None:
        raise TypeError('softmax(): dim is required (torch infers it only with a deprecation warning)')
    return _T.softmax(_softmax_input(input, dtype), int(dim))


def log_softmax(input, dim=None, _stacklevel=3, dtype=None):
    if dim is None:
        raise TypeError('log_softmax(): dim is required (torch infers it only with a deprecation warning)')
    return _T.log_softmax(_softmax_input(input, dtype), int(dim))


# ---- layers ----

def linear(input, weight, bias=None):
    return _T.linear(input, weight, bias)


def conv1d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    def one(v, name):
        if not isinstance(v, _numbers.Integral):
            v = list(v)
            if len(v) != 1:
                raise TypeError('conv1d(): %s must be an int or a 1-tuple' % name)
            v = v[0]
        return int(v)
    if isinstance(padding, str):
        raise ValueError("conv1d(): padding='%s' is not supported by gnn's conv1d; give the sizes" % padding)
    return _T.conv1d(input, weight, bias, one(stride, 'stride'), one(padding, 'padding'),
                     one(dilation, 'dilation'), int(groups))


def conv2d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    if isinstance(padding, str):
        raise ValueError("conv2d(): padding='%s' is not supported by gnn's conv2d; give the sizes" % padding)
    return _T.conv2d(input, weight, bias, _pair(stride, 'stride'), _pair(padding, 'padding'),
                     _pair(dilation, 'dilation'), int(groups))


def conv_transpose2d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1):
    return _T.conv_transpose2d(input, weight, bias, _pair(stride, 'stride'), _pair(padding, 'padding'),
                               _pair(output_padding, 'output_padding'), int(groups), _pair(dilation, 'dilation'))


def max_pool2d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False):
    out, indices = _T.max_pool2d(input, _pair(kernel_size, 'kernel_size'), _pair(stride, 'stride', True) or None,
                                 _pair(padding, 'padding'), _pair(dilation, 'dilation'), bool(ceil_mode))
    return (out, indices) if return_indices else out


def avg_pool2d(input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True,
               divisor_override=None):
    if divisor_override is not None and int(divisor_override) == 0:
        # the C op's 0 means None: torch's error for an explicit 0 (a negative one divides)
        from .errors import error_class
        raise error_class(Gnn.Error.INVALID_ARGUMENT)('avg_pool2d: divisor must be not zero', 'gnn-error-quark',
                                                      int(Gnn.Error.INVALID_ARGUMENT))
    return _T.avg_pool2d(input, _pair(kernel_size, 'kernel_size'), _pair(stride, 'stride', True) or None,
                         _pair(padding, 'padding'), bool(ceil_mode), bool(count_include_pad),
                         0 if divisor_override is None else int(divisor_override))


def adaptive_avg_pool2d(input, output_size):
    # None keeps that dimension of the input (-1 for the C op)
    if not isinstance(output_size, _numbers.Integral):
        output_size = [-1 if v is None else v for v in output_size]
    return _T.adaptive_avg_pool2d(input, _pair(output_size, 'output_size'))


def flatten(input, start_dim=0, end_dim=-1):
    return _T.flatten(input, int(start_dim), int(end_dim))


def one_hot(tensor, num_classes=-1):
    return _T.one_hot(tensor, int(num_classes))


# ---- losses ----

def mse_loss(input, target, size_average=None, reduce=None, reduction='mean'):
    return _T.mse_loss(input, target, _reduction(reduction, size_average, reduce))


def l1_loss(input, target, size_average=None, reduce=None, reduction='mean'):
    return _T.l1_loss(input, target, _reduction(reduction, size_average, reduce))


def smooth_l1_loss(input, target, size_average=None, reduce=None, reduction='mean', beta=1.0):
    return _T.smooth_l1_loss(input, target, _reduction(reduction, size_average, reduce), float(beta))


def huber_loss(input, target, reduction='mean', delta=1.0):
    return _T.huber_loss(input, target, _reduction(reduction), float(delta))


def binary_cross_entropy(input, target, weight=None, size_average=None, reduce=None, reduction='mean'):
    return _T.binary_cross_entropy(input, target, weight, _reduction(reduction, size_average, reduce))


def binary_cross_entropy_with_logits(input, target, weight=None, size_average=None, reduce=None,
                                     reduction='mean', pos_weight=None):
    return _T.binary_cross_entropy_with_logits(input, target, weight, pos_weight,
                                               _reduction(reduction, size_average, reduce))


def nll_loss(input, target, weight=None, size_average=None, ignore_index=-100, reduce=None, reduction='mean'):
    return _T.nll_loss(input, target, weight, int(ignore_index), _reduction(reduction, size_average, reduce))


def cross_entropy(input, target, weight=None, size_average=None, ignore_index=-100, reduce=None,
                  reduction='mean', label_smoothing=0.0):
    return _T.cross_entropy(input, target, weight, int(ignore_index),
                            _reduction(reduction, size_average, reduce), float(label_smoothing))


def kl_div(input, target, size_average=None, reduce=None, reduction='mean', log_target=False):
    return _T.kl_div(input, target, _reduction(reduction, size_average, reduce), bool(log_target))


# ---- torch.nn.init: torch's signatures, returning the tensor as torch's do ----
# (Gnn.init_<name> are the C functions, which return TRUE or raise: C's idiom; these wrap them
# as Gnn.nn_init_<name>, and the rows of torch.nn.init name these. generator= is torch 2's.)

def _filled(fn, tensor, *args):
    _call_raising_python_errors(fn, tensor, *args)
    return tensor


def calculate_gain(nonlinearity, param=None):
    return Gnn.init_calculate_gain(nonlinearity, float('nan') if param is None else float(param))


def constant_(tensor, val):
    return _filled(Gnn.init_constant_, tensor, float(val))


def eye_(tensor):
    return _filled(Gnn.init_eye_, tensor)


def ones_(tensor):
    return _filled(Gnn.init_ones_, tensor)


def zeros_(tensor):
    return _filled(Gnn.init_zeros_, tensor)


def normal_(tensor, mean=0.0, std=1.0, generator=None):
    return _filled(Gnn.init_normal_, tensor, float(mean), float(std), generator)


def uniform_(tensor, a=0.0, b=1.0, generator=None):
    return _filled(Gnn.init_uniform_, tensor, float(a), float(b), generator)


def trunc_normal_(tensor, mean=0.0, std=1.0, a=-2.0, b=2.0, generator=None):
    return _filled(Gnn.init_trunc_normal_, tensor, float(mean), float(std), float(a), float(b), generator)


def orthogonal_(tensor, gain=1, generator=None):
    return _filled(Gnn.init_orthogonal_, tensor, float(gain), generator)


def kaiming_normal_(tensor, a=0, mode='fan_in', nonlinearity='leaky_relu', generator=None):
    return _filled(Gnn.init_kaiming_normal_, tensor, float(a), mode, nonlinearity, generator)


def kaiming_uniform_(tensor, a=0, mode='fan_in', nonlinearity='leaky_relu', generator=None):
    return _filled(Gnn.init_kaiming_uniform_, tensor, float(a), mode, nonlinearity, generator)


def xavier_normal_(tensor, gain=1.0, generator=None):
    return _filled(Gnn.init_xavier_normal_, tensor, float(gain), generator)


def xavier_uniform_(tensor, gain=1.0, generator=None):
    return _filled(Gnn.init_xavier_uniform_, tensor, float(gain), generator)


INIT_FUNCTIONS = (calculate_gain, constant_, eye_, ones_, zeros_, normal_, uniform_, trunc_normal_,
                  orthogonal_, kaiming_normal_, kaiming_uniform_, xavier_normal_, xavier_uniform_)
for _fn in INIT_FUNCTIONS:
    _fn.__doc__ = 'torch.nn.init.%s, over Gnn.init_%s; returns the tensor' % (_fn.__name__, _fn.__name__)
    globals()['nn_init_' + _fn.__name__] = _fn
    __all__.append('nn_init_' + _fn.__name__)
del _fn


FUNCTIONS = (relu, relu6, hardtanh, leaky_relu, elu, gelu, silu, sigmoid, tanh, softsign, softplus,
             hardsigmoid, hardswish, mish, celu, selu, logsigmoid, hardshrink, softshrink, threshold,
             tanhshrink, softmin, prelu, rrelu, relu_, elu_, leaky_relu_, hardtanh_, threshold_, selu_,
             celu_, rrelu_, softmax,
             log_softmax, linear, conv1d, conv2d, conv_transpose2d, max_pool2d, avg_pool2d,
             adaptive_avg_pool2d, flatten, one_hot, mse_loss, l1_loss, smooth_l1_loss, huber_loss,
             binary_cross_entropy, binary_cross_entropy_with_logits, nll_loss, cross_entropy, kl_div)
for _fn in FUNCTIONS:
    _fn.__doc__ = _fn.__doc__ or 'torch.nn.functional.%s, over the C op' % _fn.__name__
    globals()['functional_' + _fn.__name__] = _fn
    __all__.append('functional_' + _fn.__name__)
del _fn


# ---- dropout, the functional norms and embedding: the C functions the layers run ----

def dropout(input, p=0.5, training=True, inplace=False):
    _inplace_unsupported('dropout', inplace)
    return _T.dropout(input, float(p), bool(training))


def dropout2d(input, p=0.5, training=True, inplace=False):
    _inplace_unsupported('dropout2d', inplace)
    return _T.dropout2d(input, float(p), bool(training))


def batch_norm(input, running_mean, running_var, weight=None, bias=None, training=False, momentum=0.1,
               eps=1e-05):
    return _T.batch_norm(input, running_mean, running_var, weight, bias, bool(training), float(momentum),
                         float(eps))


def instance_norm(input, running_mean=None, running_var=None, weight=None, bias=None, use_input_stats=True,
                  momentum=0.1, eps=1e-05):
    return _T.instance_norm(input, running_mean, running_var, weight, bias, bool(use_input_stats),
                            float(momentum), float(eps))


def layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-05):
    if isinstance(normalized_shape, _numbers.Integral):
        normalized_shape = [normalized_shape]
    return _T.layer_norm(input, [int(d) for d in normalized_shape], weight, bias, float(eps))


def group_norm(input, num_groups, weight=None, bias=None, eps=1e-05):
    return _T.group_norm(input, int(num_groups), weight, bias, float(eps))


def embedding(input, weight, padding_idx=None, max_norm=None, norm_type=2.0, scale_grad_by_freq=False,
              sparse=False):
    if max_norm is not None or scale_grad_by_freq or sparse:
        raise NotImplementedError('embedding: gnn has no max_norm, scale_grad_by_freq or sparse gradients')
    return _T.embedding(input, weight, Gnn.EMBEDDING_NO_PADDING if padding_idx is None else int(padding_idx))


NN_FUNCTIONS = (dropout, dropout2d, batch_norm, instance_norm, layer_norm, group_norm, embedding, glu)
for _fn in NN_FUNCTIONS:
    _fn.__doc__ = 'torch.nn.functional.%s, over the C function its layer runs' % _fn.__name__
    globals()['functional_' + _fn.__name__] = raising_torch_errors(_fn)
    __all__.append('functional_' + _fn.__name__)
del _fn


# ---- attention ----

def scaled_dot_product_attention(query, key, value, attn_mask=None, dropout_p=0.0, is_causal=False, *,
                                 scale=None):
    """torch.nn.functional.scaled_dot_product_attention of PyTorch 2 (torch 1.13 has none), over
    gnn_scaled_dot_product_attention: a bool attn_mask is True where the query attends the key, a
    float one is added to the scores; scale None is 1 / sqrt(E)"""
    if scale is not None and not float(scale) > 0:
        raise ValueError('scaled_dot_product_attention: gnn takes a scale > 0 (None for 1 / sqrt(E)), got %r'
                         % (scale,))
    return Gnn.scaled_dot_product_attention(query, key, value, attn_mask, float(dropout_p), bool(is_causal),
                                            0.0 if scale is None else float(scale))


functional_scaled_dot_product_attention = raising_torch_errors(scaled_dot_product_attention)
__all__.append('functional_scaled_dot_product_attention')


def multi_head_attention_forward(query, key, value, embed_dim_to_check, num_heads, in_proj_weight,
                                 in_proj_bias, bias_k, bias_v, add_zero_attn, dropout_p, out_proj_weight,
                                 out_proj_bias, training=True, key_padding_mask=None, need_weights=True,
                                 attn_mask=None, use_separate_proj_weight=False, q_proj_weight=None,
                                 k_proj_weight=None, v_proj_weight=None, static_k=None, static_v=None,
                                 average_attn_weights=True, is_causal=False):
    """torch.nn.functional.multi_head_attention_forward (PyTorch 2's), over
    gnn_multi_head_attention_forward: returns (attn_output, attn_weights or None)."""
    if static_k is not None or static_v is not None:
        raise ValueError('multi_head_attention_forward: gnn takes no static_k / static_v')
    return Gnn.multi_head_attention_forward(
        query, key, value, int(embed_dim_to_check), int(num_heads),
        None if use_separate_proj_weight else in_proj_weight, in_proj_bias, bias_k, bias_v, bool(add_zero_attn),
        float(dropout_p), out_proj_weight, out_proj_bias, bool(training), key_padding_mask, bool(need_weights),
        attn_mask, q_proj_weight, k_proj_weight, v_proj_weight, bool(average_attn_weights), bool(is_causal))


functional_multi_head_attention_forward = raising_torch_errors(multi_head_attention_forward)
__all__.append('functional_multi_head_attention_forward')


# ---- the 3-d forms: torch.nn.functional.conv3d ... dropout3d over the C ops ----

def _triple(value, name, allow_none=False):
    """An int or a sequence of ints as a list of three (PyTorch's _triple)."""
    if value is None and allow_none:
        return None
    if isinstance(value, _numbers.Integral):
        return [int(value)] * 3
    try:
        values = [int(v) for v in value]
    except TypeError:
        raise TypeError('%s must be an int or a tuple of ints, not %s' % (name, type(value).__name__)) from None
    if len(values) == 1:
        values *= 3
    return values


def conv3d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    stride, dilation = _triple(stride, 'stride'), _triple(dilation, 'dilation')
    if isinstance(padding, str):
        if padding == 'valid':
            padding = 0
        elif padding == 'same':
            if stride != [1, 1, 1]:
                raise ValueError("padding='same' is not supported for strided convolutions")
            # torch's 'same': total d·(k − 1) per dimension, the odd extra at the end
            totals = [d * (k - 1) for d, k in zip(dilation, list(weight.shape)[2:])]
            pads = []
            for t in reversed(totals):
                pads += [t // 2, t - t // 2]
            if any(t % 2 for t in totals):
                input = Gnn.Tensor.pad(input, pads, 'constant', 0.0)
                padding = 0
            else:
                padding = [t // 2 for t in totals]
        else:
            raise ValueError("Invalid padding string '%s', should be one of {'valid', 'same'}" % padding)
    return _T.conv3d(input, weight, bias, stride, _triple(padding, 'padding'), dilation, int(groups))


def conv_transpose3d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1):
    return _T.conv_transpose3d(input, weight, bias, _triple(stride, 'stride'), _triple(padding, 'padding'),
                               _triple(output_padding, 'output_padding'), int(groups),
                               _triple(dilation, 'dilation'))


def max_pool3d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False):
    out, indices = _T.max_pool3d(input, _triple(kernel_size, 'kernel_size'),
                                 _triple(stride, 'stride', True) or None, _triple(padding, 'padding'),
                                 _triple(dilation, 'dilation'), bool(ceil_mode))
    return (out, indices) if return_indices else out


def avg_pool3d(input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True,
               divisor_override=None):
    if divisor_override is not None and int(divisor_override) == 0:
        # the C op's 0 means None: torch's error for an explicit 0
        from .errors import error_class
        raise error_class(Gnn.Error.INVALID_ARGUMENT)('avg_pool3d: divisor must be not zero', 'gnn-error-quark',
                                                      int(Gnn.Error.INVALID_ARGUMENT))
    return _T.avg_pool3d(input, _triple(kernel_size, 'kernel_size'), _triple(stride, 'stride', True) or None,
                         _triple(padding, 'padding'), bool(ceil_mode), bool(count_include_pad),
                         0 if divisor_override is None else int(divisor_override))


def adaptive_avg_pool3d(input, output_size):
    # None keeps that dimension of the input (-1 for the C op)
    if not isinstance(output_size, _numbers.Integral):
        output_size = [-1 if v is None else v for v in output_size]
    return _T.adaptive_avg_pool3d(input, _triple(output_size, 'output_size'))


def dropout3d(input, p=0.5, training=True, inplace=False):
    _inplace_unsupported('dropout3d', inplace)
    return _T.dropout3d(input, float(p), bool(training))


def adaptive_max_pool3d(input, output_size, return_indices=False):
    if not isinstance(output_size, _numbers.Integral):
        output_size = [-1 if v is None else v for v in output_size]
    out, indices = _T.adaptive_max_pool3d(input, _triple(output_size, 'output_size'))
    return (out, indices) if return_indices else out


for _fn in (conv3d, conv_transpose3d, max_pool3d, avg_pool3d, adaptive_avg_pool3d, dropout3d, adaptive_max_pool3d):
    _fn.__doc__ = 'torch.nn.functional.%s, over the C op' % _fn.__name__
    globals()['functional_' + _fn.__name__] = raising_torch_errors(_fn)
    __all__.append('functional_' + _fn.__name__)
del _fn
