# torch's quantization-aware training, eager mode: torch.fake_quantize_per_tensor_affine and
# torch.fake_quantize_per_channel_affine (the straight-through estimator), FakeQuantize, the
# QAT qconfigs, the QAT modules (torch.ao.nn.qat.Linear and Conv2d, torch.ao.nn.intrinsic.qat's
# LinearReLU and ConvReLU2d), prepare_qat, and convert of them to the quantized modules of
# quant.py. Composed from existing ops in Python (no op of its own).
#
# SPDX-License-Identifier: LGPL-2.1-or-later
import json as _json

import numpy as _np

from gi.repository import GObject

from .base import Gnn, no_grad
from .errors import raising_torch_errors
from .function import autograd_Function
from .module import Module as _Module, _forward_vfunc, _is_constructed
from . import quant as _q

__all__ = ['fake_quantize_per_tensor_affine', 'fake_quantize_per_channel_affine']


# ---- the fake-quantize functions ----

def _float32_reciprocal(scale):
    """1.0f / scale in float32, as torch's kernels compute it."""
    return _np.float32(1.0) / _np.asarray(scale, dtype=_np.float32)


def _check_range(quant_min, quant_max):
    if not quant_min <= quant_max:
        raise RuntimeError('`quant_min` should be less than or equal to `quant_max`.')


def _fake_quant_values(x, inv_scale, scale, zero_point, quant_min, quant_max):
    """(output, mask) with torch's CPU kernel's arithmetic: q = zero_point + nearbyint (x *
    inv_scale) in x's precision (inv_scale is float32), out = (clamp (q) - zero_point) * scale,
    mask = quant_min <= q <= quant_max. inv_scale, scale and zero_point are numbers or
    tensors that broadcast against x."""
    q = (x * inv_scale).round() + zero_point
    mask = (q >= quant_min).logical_and(q <= quant_max)
    out = (q.clamp(min=float(quant_min), max=float(quant_max)) - zero_point) * scale
    return out, mask


class FakeQuantizePerTensorAffineCachemask(autograd_Function):
    """torch.fake_quantize_per_tensor_affine's node: the forward's values, the gradient passed
    where the rounded value was inside [quant_min, quant_max] and 0 elsewhere."""

    @staticmethod
    def forward(ctx, x, scale, zero_point, quant_min, quant_max):
        out, mask = _fake_quant_values(x, float(_float32_reciprocal(scale)), float(_np.float32(scale)),
                                       float(zero_point), quant_min, quant_max)
        ctx.save_for_backward(mask)
        return out

    @staticmethod
    def backward(ctx, grad):
        mask, = ctx.saved_tensors
        return grad * mask.to(grad.dtype), None, None, None, None


class FakeQuantizePerChannelAffineCachemask(autograd_Function):
    """torch.fake_quantize_per_channel_affine's node (see the per-tensor one)."""

    @staticmethod
    def forward(ctx, x, inv_scale, scale, zero_point, quant_min, quant_max):
        out, mask = _fake_quant_values(x, inv_scale, scale, zero_point, quant_min, quant_max)
        ctx.save_for_backward(mask)
        return out

    @staticmethod
    def backward(ctx, grad):
        mask, = ctx.saved_tensors
        return grad * mask.to(grad.dtype), None, None, None, None, None


def _one_number(value, what, cast):
    if isinstance(value, Gnn.Tensor):
        if value.numel() != 1:
            raise RuntimeError('%s: expected a one-element tensor, got %d elements' % (what, value.numel()))
        return cast(value.item())
    return cast(value)


def _check_float_input(x, what):
    from . import tensor as _t
    if not isinstance(x, Gnn.Tensor):
        raise TypeError('%s(): argument \'input\' must be Tensor, not %s' % (what, type(x).__name__))
    if x.dtype not in (_t.float32, _t.float64):
        raise RuntimeError('%s: expected a float32 or float64 input, got %r' % (what, x.dtype))


@raising_torch_errors
def fake_quantize_per_tensor_affine(input, scale, zero_point, quant_min, quant_max):
    """torch.fake_quantize_per_tensor_affine: (clamp (zero_point + round (input / scale),
    quant_min, quant_max) - zero_point) * scale, bit for bit as torch's CPU kernel (input
    times the float32 reciprocal of scale, rounded half to even); the gradient is the
    straight-through estimator, 0 where the rounded value fell outside [quant_min, quant_max].
    scale and zero_point are numbers or one-element tensors."""
    _check_float_input(input, 'fake_quantize_per_tensor_affine')
    quant_min, quant_max = int(quant_min), int(quant_max)
    _check_range(quant_min, quant_max)
    s = _one_number(scale, 'fake_quantize_per_tensor_affine: scale', float)
    z = _one_number(zero_point, 'fake_quantize_per_tensor_affine: zero_point', lambda v: int(round(v)))
    if not quant_min <= z <= quant_max:
        raise RuntimeError('`zero_point` must be between `quant_min` and `quant_max`.')
    return FakeQuantizePerTensorAffineCachemask.apply(input, s, z, quant_min, quant_max)


def _channel_shape(x, axis):
    shape = [1] * x.dim()
    shape[axis] = x.shape[axis]
    return shape


@raising_torch_errors
def fake_quantize_per_channel_affine(input, scale, zero_point, axis, quant_min, quant_max):
    """torch.fake_quantize_per_channel_affine: fake_quantize_per_tensor_affine with a scale and
    zero point (1-D tensors, one per index of input along axis)."""
    from .tensor import tensor
    _check_float_input(input, 'fake_quantize_per_channel_affine')
    quant_min, quant_max = int(quant_min), int(quant_max)
    _check_range(quant_min, quant_max)
    if not isinstance(scale, Gnn.Tensor) or not isinstance(zero_point, Gnn.Tensor):
        raise TypeError('fake_quantize_per_channel_affine(): scale and zero_point must be tensors')
    if scale.dim() != 1:
        raise RuntimeError('scale should be a 1-D tensor')
    if zero_point.dim() != 1:
        raise RuntimeError('zero point should be a 1-D tensor')
    if scale.numel() != zero_point.numel():
        raise RuntimeError('scale and zero-point need to have the same dimensions')
    axis = int(axis)
    if not 0 <= axis < input.dim():      # (torch takes no negative axis here)
        raise RuntimeError('`axis` must be between 0 and number of dimensions of input')
    if scale.numel() != input.shape[axis]:
        raise RuntimeError('dimensions of scale and zero-point are not consistent with input tensor')
    zp = _np.asarray(zero_point.numpy()).astype(_np.float64)
    if ((zp < quant_min) | (zp > quant_max)).any():
        raise RuntimeError('`zero_point` must be between `quant_min` and `quant_max`.')
    s32 = _np.asarray(scale.numpy()).astype(_np.float32)
    shape = _channel_shape(input, axis)
    dt = input.dtype
    inv = tensor(_float32_reciprocal(s32), dtype=dt).reshape(shape)
    s = tensor(s32, dtype=dt).reshape(shape)
    z = tensor(zp, dtype=dt).reshape(shape)
    return FakeQuantizePerChannelAffineCachemask.apply(input, inv, s, z, quant_min, quant_max)


# ---- observers and FakeQuantize ----

def _resize_on_load(module, names):
    """torch's _load_from_state_dict of FakeQuantize and the per-channel observers: the
    buffers `names` take the shapes of the loaded values (a per-channel state into a fresh
    module, whose buffers have one element or none)."""
    def hook(mod, state, prefix, strict, *extra):
        from .functions import zeros
        for name in names:
            key = prefix + name
            if not state.contains(key):
                continue
            src = state.get_tensor(key)
            own = dict(mod.named_buffers(recurse=False)).get(name)
            if own is not None and tuple(own.shape) != tuple(src.shape):
                mod.register_buffer(name, zeros(*src.shape, dtype=own.dtype))
    module.register_load_state_dict_pre_hook(hook, None)


class MovingAveragePerChannelMinMaxObserver(_Module):
    """torch.ao.quantization.MovingAveragePerChannelMinMaxObserver: the moving averages of
    each channel's min and max (min += averaging_constant * (batch_min - min)); the qparams
    are PerChannelMinMaxObserver's from them. Buffers min_val and max_val as torch's."""
    __gtype_name__ = 'GnnMovingAveragePerChannelMinMaxObserver'
    __module__ = 'gnn.ao.quantization'
    do_forward = _forward_vfunc

    def __init__(self, averaging_constant=0.01, ch_axis=0, dtype=_q.quint8,
                 qscheme=_q.per_channel_affine, reduce_range=False, quant_min=None, quant_max=None,
                 eps=_q._FLOAT32_EPS, factory_kwargs=None, **kwargs):
        from .tensor import tensor
        _Module.__init__(self, **kwargs)
        args = dict(averaging_constant=float(averaging_constant), ch_axis=int(ch_axis),
                    dtype=int(_q.as_qdtype(dtype)), qscheme=int(qscheme), reduce_range=bool(reduce_range),
                    quant_min=None if quant_min is None else int(quant_min),
                    quant_max=None if quant_max is None else int(quant_max), eps=float(eps))
        _q.PerChannelMinMaxObserver(factory_kwargs=factory_kwargs, **self._observer_args(args))  # checks them
        self.config = _json.dumps(args)
        _resize_on_load(self, ('min_val', 'max_val'))
        if 'min_val' not in dict(self.named_buffers()):
            self.register_buffer('eps', tensor([float(_np.float32(eps))]))
            self.register_buffer('min_val', tensor([]))
            self.register_buffer('max_val', tensor([]))

    # the arguments, as a property so that a copy (Gnn.Module.copy) has them
    def _get_config(self):
        return self.__dict__.get('_config', '{}')

    def _set_config(self, value):
        self.__dict__['_config'] = value
        self.__dict__.pop('_inner', None)

    config = GObject.Property(type=str, default='{}', getter=_get_config, setter=_set_config,
                              nick='config', blurb='the constructor arguments, as JSON')

    @staticmethod
    def _observer_args(args):
        a = dict(args)
        del a['averaging_constant']
        a['dtype'] = _q._QDTYPES[a['dtype']]
        a['qscheme'] = _q._QSCHEMES[a['qscheme']]
        return a

    def _observer(self):
        inner = self.__dict__.get('_inner')
        if inner is None:
            inner = _q.PerChannelMinMaxObserver(**self._observer_args(_json.loads(self.config)))
            self.__dict__['_inner'] = inner
        return inner

    averaging_constant = property(lambda self: _json.loads(self.config)['averaging_constant'])
    ch_axis = property(lambda self: _json.loads(self.config)['ch_axis'])
    dtype = property(lambda self: self._observer().dtype)
    qscheme = property(lambda self: self._observer().qscheme)
    reduce_range = property(lambda self: self._observer().reduce_range)
    quant_min = property(lambda self: self._observer().quant_min)
    quant_max = property(lambda self: self._observer().quant_max)

    def forward(self, x_orig):
        if x_orig.numel() == 0:
            return x_orig
        with no_grad():
            x = x_orig.detach().float()
            axes = list(range(x.dim()))
            axes[self.ch_axis], axes[0] = 0, self.ch_axis
            y = x.permute(*axes).flatten(1)
            cur_min, cur_max = y.amin(1), y.amax(1)
            if self.min_val.numel() == 0:
                lo, hi = cur_min, cur_max
            else:
                c = self.averaging_constant
                lo = self.min_val + (cur_min - self.min_val) * c
                hi = self.max_val + (cur_max - self.max_val) * c
            self.register_buffer('min_val', lo.contiguous())
            self.register_buffer('max_val', hi.contiguous())
        return x_orig

    @raising_torch_errors
    def calculate_qparams(self):
        inner = _q.PerChannelMinMaxObserver(**self._observer_args(_json.loads(self.config)))
        inner.load_state_dict({'eps': self.eps, 'min_val': self.min_val, 'max_val': self.max_val})
        return inner.calculate_qparams()

    def reset_min_max_vals(self):
        from .tensor import tensor
        self.register_buffer('min_val', tensor([]))
        self.register_buffer('max_val', tensor([]))

    def extra_repr(self):
        return 'min_val=%r, max_val=%r' % (self.min_val, self.max_val)


MovingAveragePerChannelMinMaxObserver.with_args = classmethod(_q._with_args)


def _observer_class(factory):
    return getattr(factory, 'func', factory)


class FakeQuantize(_Module):
    """torch.ao.quantization.FakeQuantize: observes its input (activation_post_process) while
    observer_enabled, keeps the observer's scale and zero point in its buffers, and fake
    quantizes with them while fake_quant_enabled (the forward torch.fake_quantize_per_*_affine,
    the gradient the straight-through estimator). Buffers and state-dict keys as torch's."""
    __gtype_name__ = 'GnnFakeQuantize'
    __module__ = 'gnn.ao.quantization'
    do_forward = _forward_vfunc

    def __init__(self, observer=None, quant_min=None, quant_max=None, **observer_kwargs):
        from .tensor import tensor
        from . import tensor as _t
        if _is_constructed(self) and observer is None and quant_min is None and quant_max is None \
                and not observer_kwargs:
            _Module.__init__(self)      # C made it (a copy, a JSON rebuild): its parts come from C
            _resize_on_load(self, ('scale', 'zero_point'))
            return
        _Module.__init__(self)
        _resize_on_load(self, ('scale', 'zero_point'))
        if observer is None:
            observer = _q.MovingAverageMinMaxObserver
        if quant_min is not None and quant_max is not None:
            if not quant_min <= quant_max:
                raise AssertionError('quant_min must be less than or equal to quant_max')
            dtype = observer_kwargs.get('dtype', _q.quint8)
            dtype = getattr(observer, 'keywords', {}).get('dtype', dtype)
            lo, hi = Gnn.qdtype_get_range(Gnn.QDtype(int(_q.as_qdtype(dtype))))
            if not lo <= quant_min:
                raise AssertionError('quant_min out of bound')
            if not quant_max <= hi:
                raise AssertionError('quant_max out of bound')
            observer_kwargs.update({'quant_min': quant_min, 'quant_max': quant_max})
        if observer_kwargs.get('factory_kwargs', 0) in (None, {}) and \
                _observer_class(observer) is _q.MovingAverageMinMaxObserver:
            del observer_kwargs['factory_kwargs']       # (the C observers take none)
        if 'fake_quant_enabled' not in dict(self.named_buffers()):
            self.register_buffer('fake_quant_enabled', tensor([1], dtype=_t.uint8))
            self.register_buffer('observer_enabled', tensor([1], dtype=_t.uint8))
            self.register_buffer('scale', tensor([1.0], dtype=_t.float32))
            self.register_buffer('zero_point', tensor([0], dtype=_t.int32))
        if 'activation_post_process' not in dict(self.named_children()):
            self.activation_post_process = observer(**observer_kwargs)
        if int(self.qscheme) not in (0, 1, 2, 3):
            raise AssertionError('Only per channel and per tensor quantization are supported in '
                                 'fake quantize got qscheme: %r' % (self.qscheme,))

    # what torch keeps as attributes, read from the observer (so that a copy has them)
    quant_min = property(lambda self: self.activation_post_process.quant_min)
    quant_max = property(lambda self: self.activation_post_process.quant_max)
    dtype = property(lambda self: self.activation_post_process.dtype)
    qscheme = property(lambda self: self.activation_post_process.qscheme)
    is_per_channel = property(lambda self: int(self.qscheme) in (1, 3))

    @property
    def ch_axis(self):
        return getattr(self.activation_post_process, 'ch_axis', -1)

    def enable_fake_quant(self, enabled=True):
        self.fake_quant_enabled[0] = 1 if enabled else 0

    def disable_fake_quant(self):
        self.enable_fake_quant(False)

    def enable_observer(self, enabled=True):
        self.observer_enabled[0] = 1 if enabled else 0

    def disable_observer(self):
        self.enable_observer(False)

    def calculate_qparams(self):
        return self.activation_post_process.calculate_qparams()

    def forward(self, X):
        if int(self.observer_enabled[0].item()) == 1:
            self.activation_post_process(X.detach())
            s, z = self.calculate_qparams()
            from . import tensor as _t
            if tuple(self.scale.shape) != tuple(s.shape):
                self.register_buffer('scale', s.detach().float().clone())
                self.register_buffer('zero_point', z.detach().to(_t.int32).clone())
            else:
                self.scale.copy_(s)
                self.zero_point.copy_(z.to(self.zero_point.dtype))
        if int(self.fake_quant_enabled[0].item()) == 1:
            if self.is_per_channel:
                X = fake_quantize_per_channel_affine(X, self.scale, self.zero_point, self.ch_axis,
                                                     self.quant_min, self.quant_max)
            else:
                X = fake_quantize_per_tensor_affine(X, self.scale, self.zero_point,
                                                    self.quant_min, self.quant_max)
        return X

    def extra_repr(self):
        return ('fake_quant_enabled={}, observer_enabled={}, quant_min={}, quant_max={}, dtype={}, '
                'qscheme={}, ch_axis={}, scale={}, zero_point={}'.format(
                    self.fake_quant_enabled, self.observer_enabled, self.quant_min, self.quant_max,
                    self.dtype, self.qscheme, self.ch_axis, self.scale, self.zero_point))


FakeQuantize.with_args = classmethod(_q._with_args)


def enable_fake_quant(mod):
    """torch.ao.quantization.enable_fake_quant: for model.apply."""
    if isinstance(mod, FakeQuantize):
        mod.enable_fake_quant()


def disable_fake_quant(mod):
    """torch.ao.quantization.disable_fake_quant: for model.apply."""
    if isinstance(mod, FakeQuantize):
        mod.disable_fake_quant()


def enable_observer(mod):
    """torch.ao.quantization.enable_observer: for model.apply."""
    if isinstance(mod, FakeQuantize):
        mod.enable_observer()


def disable_observer(mod):
    """torch.ao.quantization.disable_observer: for model.apply."""
    if isinstance(mod, FakeQuantize):
        mod.disable_observer()


default_fake_quant = FakeQuantize.with_args(observer=_q.MovingAverageMinMaxObserver, quant_min=0,
                                            quant_max=255, dtype=_q.quint8,
                                            qscheme=_q.per_tensor_affine, reduce_range=True)
default_weight_fake_quant = FakeQuantize.with_args(observer=_q.MovingAverageMinMaxObserver,
                                                   quant_min=-128, quant_max=127, dtype=_q.qint8,
                                                   qscheme=_q.per_tensor_symmetric, reduce_range=False)
default_per_channel_weight_fake_quant = FakeQuantize.with_args(
    observer=MovingAveragePerChannelMinMaxObserver, quant_min=-128, quant_max=127, dtype=_q.qint8,
    qscheme=_q.per_channel_symmetric, reduce_range=False, ch_axis=0)
default_qat_qconfig = _q.QConfig(activation=default_fake_quant, weight=default_weight_fake_quant)


def get_default_qat_qconfig(backend='fbgemm', version=1):
    """torch.ao.quantization.get_default_qat_qconfig (torch 1.13). version 0: FakeQuantize
    over MovingAverageMinMaxObserver for activations (reduce_range for 'fbgemm' and 'x86'),
    per-channel weights for 'fbgemm', 'x86' and 'onednn', per-tensor for 'qnnpack'; any other
    backend gives default_qat_qconfig. version 1 (torch's default): the same with
    FusedMovingAvgObsFakeQuantize, default_qat_qconfig_v2 for other backends."""
    if version == 0:
        act = _q.MovingAverageMinMaxObserver
        if backend in ('fbgemm', 'x86'):
            return _q.QConfig(activation=FakeQuantize.with_args(observer=act, quant_min=0, quant_max=255,
                                                                reduce_range=True),
                              weight=default_per_channel_weight_fake_quant)
        if backend == 'qnnpack':
            return _q.QConfig(activation=FakeQuantize.with_args(observer=act, quant_min=0, quant_max=255,
                                                                reduce_range=False),
                              weight=default_weight_fake_quant)
        if backend == 'onednn':
            return _q.QConfig(activation=FakeQuantize.with_args(observer=act, quant_min=0, quant_max=255),
                              weight=default_per_channel_weight_fake_quant)
        return default_qat_qconfig
    if version == 1:
        return _default_qat_qconfig_v1(backend)
    raise AssertionError('Version number: %s in get_default_qat_qconfig is not supported. Version '
                         'number must be 0 or 1' % version)


__all__ += ['MovingAveragePerChannelMinMaxObserver', 'FakeQuantize', 'enable_fake_quant',
            'disable_fake_quant', 'enable_observer', 'disable_observer', 'default_fake_quant',
            'default_weight_fake_quant', 'default_per_channel_weight_fake_quant',
            'default_qat_qconfig', 'get_default_qat_qconfig']


# ---- the QAT modules (torch.ao.nn.qat, torch.ao.nn.intrinsic.qat) ----

class _QATModule(_Module):
    """What the QAT modules share: weight and bias parameters, a weight_fake_quant child made
    from qconfig.weight, and their geometry in the config property (JSON) so that a copy has
    it."""
    __gtype_name__ = 'GnnQATModule'
    __module__ = 'gnn.ao.nn.qat'
    do_forward = _forward_vfunc
    _relu = False

    def _get_config(self):
        return self.__dict__.get('_config', '{}')

    def _set_config(self, value):
        self.__dict__['_config'] = value

    config = GObject.Property(type=str, default='{}', getter=_get_config, setter=_set_config,
                              nick='config', blurb='the layer geometry, as JSON')

    def _geometry(self):
        return _json.loads(self.config)

    def __getattr__(self, name):
        try:
            return _Module.__getattr__(self, name)
        except AttributeError:
            if name == 'bias':
                return None      # a layer without bias (a copy keeps no None slot)
            raise

    def _start(self, qconfig, float_layer):
        if not qconfig:
            raise AssertionError('qconfig must be provided for QAT module')
        self.qconfig = qconfig
        self.weight = float_layer.weight
        self.bias = float_layer.bias
        self.weight_fake_quant = qconfig.weight()

    def _finish(self, out):
        return out.relu() if self._relu else out

    @classmethod
    def _float_layer(cls, mod):
        """The float layer of mod (the first of a fused pair) and the qconfig, checked."""
        if getattr(mod, 'qconfig', None) is None:
            raise AssertionError('Input float module must have qconfig defined' if not hasattr(mod, 'qconfig')
                                 else 'Input float module must have a valid qconfig')
        layer = mod[0] if isinstance(mod, _q._FusedModule) else mod
        return layer, mod.qconfig


class QATLinear(_QATModule):
    """torch.ao.nn.qat.Linear (printed Linear): nn.Linear whose weight passes through
    weight_fake_quant (a FakeQuantize from qconfig.weight) on every forward."""
    __gtype_name__ = 'gnn+ao+nn+qat+Linear'
    __module__ = 'gnn.ao.nn.qat'

    def __init__(self, in_features=None, out_features=None, bias=True, qconfig=None, device=None,
                 dtype=None, **kwargs):
        from .layers import Linear
        if _is_constructed(self) and in_features is None:
            _Module.__init__(self)      # C made it (a copy, a JSON rebuild): its parts come from C
            return
        _Module.__init__(self, **kwargs)
        self._start(qconfig, Linear(int(in_features), int(out_features), bool(bias), device=device,
                                    dtype=dtype))

    in_features = property(lambda self: self.weight.shape[1])
    out_features = property(lambda self: self.weight.shape[0])

    def get_in_features(self):
        return self.in_features

    def get_out_features(self):
        return self.out_features

    def forward(self, input):
        from .functional import linear
        return self._finish(linear(input, self.weight_fake_quant(self.weight), self.bias))

    def extra_repr(self):
        return 'in_features=%d, out_features=%d, bias=%s' % (self.in_features, self.out_features,
                                                             self.bias is not None)

    @classmethod
    def from_float(cls, mod):
        """torch's from_float: a QAT layer over the float layer's own parameters."""
        lin, qconfig = cls._float_layer(mod)
        if not isinstance(lin, Gnn.Linear):
            raise AssertionError(' qat.%s.from_float only works for Linear' % cls.__name__)
        q = cls(lin.get_in_features(), lin.get_out_features(), lin.bias is not None, qconfig=qconfig)
        q.weight = lin.weight
        q.bias = lin.bias
        return q

    def to_float(self):
        from .layers import Linear
        from .module import Parameter
        lin = Linear(self.in_features, self.out_features, self.bias is not None)
        lin.weight = Parameter(self.weight.detach())
        if self.bias is not None:
            lin.bias = Parameter(self.bias.detach())
        lin.train(self.training)
        return lin


QATLinear.__name__ = QATLinear.__qualname__ = 'Linear'


class QATLinearReLU(QATLinear):
    """torch.ao.nn.intrinsic.qat.LinearReLU: QATLinear followed by ReLU (from a fused
    LinearReLU)."""
    __gtype_name__ = 'gnn+ao+nn+intrinsic+qat+LinearReLU'
    __module__ = 'gnn.ao.nn.intrinsic.qat'
    _relu = True


QATLinearReLU.__name__ = QATLinearReLU.__qualname__ = 'LinearReLU'


class QATConv2d(_QATModule):
    """torch.ao.nn.qat.Conv2d (printed Conv2d): nn.Conv2d whose weight passes through
    weight_fake_quant on every forward (padding_mode zeros, numeric padding)."""
    __gtype_name__ = 'gnn+ao+nn+qat+Conv2d'
    __module__ = 'gnn.ao.nn.qat'

    def __init__(self, in_channels=None, out_channels=None, kernel_size=None, stride=1, padding=0,
                 dilation=1, groups=1, bias=True, padding_mode='zeros', qconfig=None, device=None,
                 dtype=None, **kwargs):
        from .layers import Conv2d
        if _is_constructed(self) and in_channels is None:
            _Module.__init__(self)
            return
        _Module.__init__(self, **kwargs)
        if padding_mode != 'zeros' or isinstance(padding, str):
            raise NotImplementedError('qat.Conv2d: gnn supports padding_mode zeros and numeric padding only')
        self.config = _json.dumps({'stride': _q._pair(stride), 'padding': _q._pair(padding),
                                   'dilation': _q._pair(dilation), 'groups': int(groups)})
        self._start(qconfig, Conv2d(int(in_channels), int(out_channels), _q._pair(kernel_size),
                                    stride=_q._pair(stride), padding=_q._pair(padding),
                                    dilation=_q._pair(dilation), groups=int(groups), bias=bool(bias)))

    in_channels = property(lambda self: self.weight.shape[1] * self._geometry()['groups'])
    out_channels = property(lambda self: self.weight.shape[0])
    kernel_size = property(lambda self: (self.weight.shape[2], self.weight.shape[3]))
    stride = property(lambda self: tuple(self._geometry()['stride']))
    padding = property(lambda self: tuple(self._geometry()['padding']))
    dilation = property(lambda self: tuple(self._geometry()['dilation']))
    groups = property(lambda self: self._geometry()['groups'])
    padding_mode = 'zeros'

    def forward(self, input):
        from .functional import conv2d
        return self._finish(conv2d(input, self.weight_fake_quant(self.weight), self.bias,
                                   self.stride, self.padding, self.dilation, self.groups))

    def extra_repr(self):
        s = '%d, %d, kernel_size=%r, stride=%r' % (self.in_channels, self.out_channels,
                                                   self.kernel_size, self.stride)
        if self.padding != (0, 0):
            s += ', padding=%r' % (self.padding,)
        if self.dilation != (1, 1):
            s += ', dilation=%r' % (self.dilation,)
        if self.groups != 1:
            s += ', groups=%d' % self.groups
        if self.bias is None:
            s += ', bias=False'
        return s

    @classmethod
    def from_float(cls, mod):
        """torch's from_float: a QAT conv over the float conv's own parameters."""
        conv, qconfig = cls._float_layer(mod)
        if not isinstance(conv, Gnn.Conv2d):
            raise AssertionError('qat.%s.from_float only works for Conv2d' % cls.__name__)
        if conv.get_property('padding-mode') not in (None, 'zeros'):
            raise NotImplementedError('qat.Conv2d: gnn supports padding_mode zeros only')
        groups = conv.get_property('groups')
        w = conv.weight
        q = cls(w.shape[1] * groups, w.shape[0], (w.shape[2], w.shape[3]),
                _q._conv_pair(conv, 'stride', 1), _q._conv_pair(conv, 'padding', 0),
                _q._conv_pair(conv, 'dilation', 1), groups, conv.bias is not None, qconfig=qconfig)
        q.weight = conv.weight
        q.bias = conv.bias
        return q


QATConv2d.__name__ = QATConv2d.__qualname__ = 'Conv2d'


class QATConvReLU2d(QATConv2d):
    """torch.ao.nn.intrinsic.qat.ConvReLU2d: QATConv2d followed by ReLU (from a fused
    ConvReLU2d)."""
    __gtype_name__ = 'gnn+ao+nn+intrinsic+qat+ConvReLU2d'
    __module__ = 'gnn.ao.nn.intrinsic.qat'
    _relu = True


QATConvReLU2d.__name__ = QATConvReLU2d.__qualname__ = 'ConvReLU2d'

_QAT_CLASSES = (QATLinear, QATLinearReLU, QATConv2d, QATConvReLU2d)


def _qat_class_for(mod):
    """The QAT class that prepare_qat swaps mod for (torch's default QAT module mappings, of
    what gnn has), or None."""
    if isinstance(mod, _QAT_CLASSES):
        return None
    if isinstance(mod, _q.LinearReLU):
        return QATLinearReLU
    if isinstance(mod, _q.ConvReLU2d):
        return QATConvReLU2d
    if isinstance(mod, Gnn.Linear):
        return QATLinear
    if isinstance(mod, Gnn.Conv2d):
        return QATConv2d
    return None


@raising_torch_errors
def prepare_qat(model, mapping=None, inplace=False):
    """torch.ao.quantization.prepare_qat: each Linear, Conv2d and fused LinearReLU/ConvReLU2d
    with a qconfig becomes its QAT module (over the same parameters), then prepare attaches
    qconfig.activation () (a FakeQuantize) to every QAT module and QuantStub, run by a forward
    hook whose result is the module's output, as torch's. The model must be training."""
    if not model.training:
        raise AssertionError('prepare_qat only works on models for which model.training is True')
    if mapping is not None:
        raise TypeError('prepare_qat(): mapping= is not supported by gnn (its mapping is torch\'s '
                        'default QAT module mappings)')
    qconfigs = _q._qconfigs_by_path(model)
    out = model if inplace else Gnn.Module.copy(model)
    for path, m in out.named_modules():
        m.qconfig = qconfigs.get(path)

    def swap(parent):
        for name, child in list(parent.named_children()):
            cls = _qat_class_for(child)
            if cls is not None and getattr(child, 'qconfig', None) is not None:
                new = cls.from_float(child)
                new.train(child.training)
                parent.set_submodule(name, new)
            else:
                swap(child)
    swap(out)
    _q.prepare(out, inplace=True)
    for m in out.modules():
        if isinstance(m, _QAT_CLASSES) and getattr(m, 'qconfig', None) is not None and \
                'activation_post_process' not in dict(m.named_children()):
            m.add_module('activation_post_process', m.qconfig.activation())
            m.register_forward_hook(_q._observer_forward_hook)
    return out


class _ConvertView:
    """A QAT module as quant.py's from_float reads a float one: the layer's parameters and
    geometry, the qconfig whose weight () is the module's own weight_fake_quant (torch's
    from_float runs it once more on the weight and takes its qparams)."""

    class _Value:
        def __init__(self, v):
            self._v = v

        def unpack(self):
            return list(self._v)

    def __init__(self, qat):
        import types
        self.weight, self.bias = qat.weight, qat.bias
        self.activation_post_process = qat.activation_post_process
        fq = qat.weight_fake_quant
        self.qconfig = types.SimpleNamespace(weight=lambda: fq)
        self._qat = qat

    def get_in_features(self):
        return self._qat.in_features

    def get_out_features(self):
        return self._qat.out_features

    def get_property(self, name):
        if name == 'padding-mode':
            return 'zeros'
        if name == 'groups':
            return self._qat.groups
        return self._Value(getattr(self._qat, name))


def _convert_qat(mod):
    if not isinstance(mod, _QAT_CLASSES) or 'activation_post_process' not in dict(mod.named_children()):
        return None
    target = {QATLinear: _q.QuantizedLinear, QATLinearReLU: _q.QuantizedLinearReLU,
              QATConv2d: _q.QuantizedConv2d, QATConvReLU2d: _q.QuantizedConvReLU2d}[type(mod)]
    return target.from_float(_ConvertView(mod))


_q._EXTRA_CONVERTERS.append(_convert_qat)

__all__ += ['QATLinear', 'QATLinearReLU', 'QATConv2d', 'QATConvReLU2d', 'prepare_qat']


# ---- torch's namespace forms of the quantized-tensor methods ----

_SMALL_SCALE_THRESHOLD = _np.float32(6.1e-5)


def _choose_quantization_params(mn, mx, qmin, qmax, reduce_range, preserve_sparsity=False):
    """torch's quant_utils::ChooseQuantizationParams (no power-of-two scale), with its float32
    and double steps: (scale, zero_point)."""
    f32 = _np.float32
    if reduce_range:
        qmin, qmax = int(qmin / 2), int(qmax / 2)
    mn, mx = f32(mn), f32(mx)
    sparse = mn < 0 and mx > 0 and preserve_sparsity
    if sparse:
        sym_qmin = -(int((qmax - qmin) / 2) + 1)
        sym_qmax = int((qmax - qmin) / 2)
        max_scale = max(abs(float(mn) / sym_qmin), abs(float(mx) / sym_qmax))
        mn, mx = f32(max_scale * sym_qmin), f32(max_scale * sym_qmax)
    mn, mx = min(mn, f32(0)), max(mx, f32(0))
    scale = (float(mx) - float(mn)) / (qmax - qmin)
    if f32(scale) == 0 or _np.isinf(f32(1) / f32(scale)):
        scale = 0.1
    if scale < float(_SMALL_SCALE_THRESHOLD):
        org = f32(scale)
        scale = float(_SMALL_SCALE_THRESHOLD)
        if mn == 0:
            mx = f32(_SMALL_SCALE_THRESHOLD * f32(qmax - qmin))
        elif mx == 0:
            mn = f32(-_SMALL_SCALE_THRESHOLD * f32(qmax - qmin))
        else:
            amp = f32(_SMALL_SCALE_THRESHOLD / org)
            mn, mx = f32(mn * amp), f32(mx * amp)
    from_min, from_max = qmin - float(mn) / scale, qmax - float(mx) / scale
    err_min = abs(qmin) - abs(float(mn) / scale)
    err_max = abs(qmax) - abs(float(mx) / scale)
    initial = from_min if err_min < err_max else from_max
    if sparse:
        initial = (qmin + qmax) / 2.0
    zp = qmin if initial < qmin else qmax if initial > qmax else int(_np.rint(initial))
    return scale, zp


@raising_torch_errors
def quantize_per_tensor_dynamic(input, dtype, reduce_range):
    """torch.quantize_per_tensor_dynamic: quantized per tensor with the scale and zero point
    chosen from input's min and max (0 included), as torch's ChooseQuantizationParams for
    qint8 (-128..127) or quint8 (0..255), half of the range with reduce_range. (torch drops
    reduce_range under its qnnpack engine; gnn has no engines.)"""
    from . import tensor as _t
    qd = _q.as_qdtype(dtype)
    if int(qd) not in (int(_q.qint8), int(_q.quint8)):
        raise RuntimeError('dtype %r not supported' % (qd,))
    if not isinstance(input, Gnn.Tensor) or input.dtype != _t.float32:
        raise RuntimeError('quantize_per_tensor_dynamic: expected a float32 tensor, got %r'
                           % (getattr(input, 'dtype', type(input).__name__),))
    if input.numel() == 0:
        raise RuntimeError('min(): Expected reduction dim to be specified for input.numel() == 0. '
                           'Specify the reduction dim with the \'dim\' argument.')
    qmin, qmax = (-128, 127) if int(qd) == int(_q.qint8) else (0, 255)
    scale, zp = _choose_quantization_params(input.min().item(), input.max().item(), qmin, qmax,
                                            bool(reduce_range))
    return _q.quantize_per_tensor(input, scale, zp, qd)


def _quantized_only(name):
    def fn(input):
        if not isinstance(input, Gnn.QuantizedTensor):
            raise NotImplementedError("Could not run 'aten::%s' with arguments from the 'CPU' backend: "
                                      "expected a quantized tensor, got %s" % (name, type(input).__name__))
        return getattr(input, name)()
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = 'torch.%s (input): the quantized tensor\'s %s (); NotImplementedError for any ' \
                 'other tensor, as torch\'s.' % (name, name)
    return fn


int_repr = _quantized_only('int_repr')
q_scale = _quantized_only('q_scale')
q_zero_point = _quantized_only('q_zero_point')
q_per_channel_scales = _quantized_only('q_per_channel_scales')
q_per_channel_zero_points = _quantized_only('q_per_channel_zero_points')
q_per_channel_axis = _quantized_only('q_per_channel_axis')


def dequantize(tensors):
    """torch.dequantize: the float values of a quantized tensor (a float tensor is returned as
    it is, as torch's), or a tuple of them for a list."""
    if isinstance(tensors, (list, tuple)):
        return tuple(dequantize(t) for t in tensors)     # (torch gives a tuple)
    if isinstance(tensors, Gnn.QuantizedTensor):
        return tensors.dequantize()
    if isinstance(tensors, Gnn.Tensor):
        return tensors
    raise TypeError('dequantize(): argument \'tensors\' must be a tensor or a list of tensors, not %s'
                    % type(tensors).__name__)


__all__ += ['quantize_per_tensor_dynamic', 'int_repr', 'q_scale', 'q_zero_point', 'q_per_channel_scales',
            'q_per_channel_zero_points', 'q_per_channel_axis', 'dequantize']


# ---- FloatFunctional and QFunctional (torch.ao.nn.quantized) ----

class FloatFunctional(_Module):
    """torch.ao.nn.quantized.FloatFunctional: add, cat, mul, add_relu, add_scalar and
    mul_scalar as methods, the results of add, cat, mul and add_relu passed through
    activation_post_process (an Identity, an observer after prepare, a FakeQuantize after
    prepare_qat); convert makes it a QFunctional."""
    __gtype_name__ = 'GnnFloatFunctional'
    __module__ = 'gnn.ao.nn.quantized'
    do_forward = _forward_vfunc
    _replaces_post_process = True     # prepare puts the observer in the Identity's place

    def __init__(self, **kwargs):

        _Module.__init__(self, **kwargs)
        if 'activation_post_process' not in dict(self.named_children()):
            self.activation_post_process = Gnn.Identity()

    def forward(self, x):
        raise RuntimeError("FloatFunctional is not intended to use the 'forward'. Please use the "
                           "underlying operation")

    def add(self, x, y):
        return self.activation_post_process(x + y)

    def add_scalar(self, x, y):
        return x + y                       # (not observed, as torch's)

    def mul(self, x, y):
        return self.activation_post_process(x * y)

    def mul_scalar(self, x, y):
        return x * y                       # (not observed, as torch's)

    def cat(self, x, dim=0):
        from .functions import cat
        return self.activation_post_process(cat(list(x), dim=dim))

    def add_relu(self, x, y):
        return self.activation_post_process((x + y).relu())


def _per_tensor_operand(x, what):
    if not isinstance(x, Gnn.QuantizedTensor):
        raise TypeError('%s: expected a quantized tensor, got %s' % (what, type(x).__name__))
    if int(x.get_qscheme()) != int(_q.per_tensor_affine):
        raise RuntimeError('Only per tensor quantization is supported in %s.' % what)
    return x


def _requantize(values, scale, zero_point, dtype):
    return _q.quantize_per_tensor(values, float(scale), int(zero_point), dtype)


@raising_torch_errors
def _qadd(x, y, scale, zero_point, relu=False):
    """torch.ops.quantized.add (_relu): both dequantized in float32, summed, requantized with
    (scale, zero_point), as the scalar path of torch's qadd kernel."""
    what = 'QuantizedAddReLU' if relu else 'QuantizedAdd'
    _per_tensor_operand(x, what)
    _per_tensor_operand(y, what)
    if int(x.get_dtype()) != int(y.get_dtype()):
        raise RuntimeError('%s: expected operands of one dtype, got %r and %r' % (what, x.dtype, y.dtype))
    c = x.dequantize() + y.dequantize()
    return _requantize(c.relu() if relu else c, scale, zero_point, x.dtype)


def _as_quantized(ints, scale, zero_point, dtype):
    from . import tensor as _t
    store = {int(_q.qint8): _t.int8, int(_q.quint8): _t.uint8, int(_q.qint32): _t.int32}[int(dtype)]
    return Gnn.QuantizedTensor.new_per_tensor(ints.to(store).contiguous(), float(scale), int(zero_point),
                                              Gnn.QDtype(int(dtype)))


def _requantize_from_int(c, multiplier, zero_point, dtype):
    """torch's requantize_from_int: zero_point + lrintf (c * multiplier) (float32), clamped."""
    from . import tensor as _t
    lo, hi = Gnn.qdtype_get_range(Gnn.QDtype(int(dtype)))
    q = (c.to(_t.float32) * float(multiplier)).round() + float(zero_point)
    return q.clamp(min=float(lo), max=float(hi))


@raising_torch_errors
def _qmul(x, y, scale, zero_point):
    """torch.ops.quantized.mul: (qx - zx) * (qy - zy) in int32, requantized with the float32
    multiplier sx * sy / scale, as torch's qmul kernel."""
    from . import tensor as _t
    _per_tensor_operand(x, 'QuantizedMul')
    _per_tensor_operand(y, 'QuantizedMul')
    if int(x.get_dtype()) != int(y.get_dtype()):
        raise RuntimeError('QuantizedMul: expected operands of one dtype, got %r and %r' % (x.dtype, y.dtype))
    f32 = _np.float32
    multiplier = f32(x.q_scale()) * f32(y.q_scale()) * (f32(1) / f32(scale))
    a = x.int_repr().to(_t.int32) - x.q_zero_point()
    b = y.int_repr().to(_t.int32) - y.q_zero_point()
    return _as_quantized(_requantize_from_int(a * b, multiplier, zero_point, x.dtype), scale, zero_point, x.dtype)


@raising_torch_errors
def _qcat(xs, scale, zero_point, dim=0):
    """torch.ops.quantized.cat: the inputs dequantized, concatenated and quantized with
    (scale, zero_point), as torch's."""
    from .functions import cat
    xs = list(xs)
    if not xs:
        raise RuntimeError('quantized cat: expected a non-empty list of tensors')
    for x in xs:
        _per_tensor_operand(x, 'QuantizedCat')
        if int(x.get_dtype()) != int(xs[0].get_dtype()):
            raise RuntimeError('All dtypes must be the same.')
    return _requantize(cat([x.dequantize() for x in xs], dim=dim), scale, zero_point, xs[0].dtype)


class QFunctional(_Module):
    """torch.ao.nn.quantized.QFunctional: FloatFunctional's methods on quantized tensors, the
    results of add, cat, mul and add_relu requantized with the scale and zero point that the
    observer chose (buffers scale and zero_point, torch's state-dict keys)."""
    __gtype_name__ = 'gnn+ao+nn+quantized+QFunctional'
    __module__ = 'gnn.ao.nn.quantized'
    do_forward = _forward_vfunc

    def __init__(self, **kwargs):

        from .tensor import tensor
        from . import tensor as _t
        _Module.__init__(self, **kwargs)
        if 'scale' not in dict(self.named_buffers()):
            self.register_buffer('scale', tensor(1.0, dtype=_t.float32))
            self.register_buffer('zero_point', tensor(0, dtype=_t.int64))
        if 'activation_post_process' not in dict(self.named_children()):
            self.activation_post_process = _q._QuantizedIdentity()   # (passes quantized tensors)

    def _qparams(self):
        return self.scale.item(), int(self.zero_point.item())

    def extra_repr(self):
        return 'scale={}, zero_point={}'.format(*self._qparams())

    def forward(self, x):
        raise RuntimeError("Functional is not intended to use the 'forward'. Please use the "
                           "underlying operation")

    def add(self, x, y):
        return self.activation_post_process(_qadd(x, y, *self._qparams()))

    def add_relu(self, x, y):
        return self.activation_post_process(_qadd(x, y, *self._qparams(), relu=True))

    def mul(self, x, y):
        return self.activation_post_process(_qmul(x, y, *self._qparams()))

    def cat(self, x, dim=0):
        s, z = self._qparams()
        return self.activation_post_process(_qcat(x, s, z, dim))

    def add_scalar(self, x, y):
        return _qadd_scalar(x, y)

    def mul_scalar(self, x, y):
        return _qmul_scalar(x, y)

    @classmethod
    def from_float(cls, mod):
        if not isinstance(mod, FloatFunctional):
            raise AssertionError('QFunctional.from_float expects an instance of FloatFunctional')
        scale, zero_point = mod.activation_post_process.calculate_qparams()
        new = cls()
        new.scale.fill_(float(scale.item()))
        new.zero_point.fill_(int(zero_point.item()))
        return new


def _convert_functional(mod):
    if isinstance(mod, FloatFunctional) and not isinstance(mod.activation_post_process, Gnn.Identity):
        return QFunctional.from_float(mod)
    return None


_q._EXTRA_CONVERTERS.append(_convert_functional)


@raising_torch_errors
def _qadd_scalar(x, c):
    """torch.ops.quantized.add_scalar: the scalar as c_q = round (c / scale) steps of the
    zero point when the shifted zero point stays in range (the integers unchanged); otherwise
    the range is widened to hold it (the zero point at the range's end) and the integers
    requantized, as torch's."""
    from . import tensor as _t
    _per_tensor_operand(x, 'QuantizedAddScalar')
    lo, hi = Gnn.qdtype_get_range(x.get_dtype())
    s, z = x.q_scale(), x.q_zero_point()
    c_q = int(_np.rint(float(c) / s))
    if lo <= z - c_q <= hi:
        return _as_quantized(x.int_repr(), s, z - c_q, x.dtype)
    if z - c_q < lo:
        s2, z2 = (float(hi) - (z - c_q)) / (float(hi) - lo) * s, lo
    else:
        s2, z2 = (float(z - c_q) - lo) / (float(hi) - lo) * s, hi
    f32 = _np.float32
    multiplier = f32(s) * (f32(1) / f32(s2))
    ints = x.int_repr().to(_t.int32) - z + c_q
    return _as_quantized(_requantize_from_int(ints, multiplier, z2, x.dtype), s2, z2, x.dtype)


@raising_torch_errors
def _qmul_scalar(x, c):
    """torch.ops.quantized.mul_scalar: the scale times |c|; a negative c mirrors the integers
    (q -> qmax - (q - qmin)) and the zero point; c = 0 gives zeros with scale 1, as torch's."""
    _per_tensor_operand(x, 'QuantizedMulScalar')
    lo, hi = Gnn.qdtype_get_range(x.get_dtype())
    s, z = x.q_scale(), x.q_zero_point()
    c = float(c)
    if c == 0:
        return _as_quantized(x.int_repr() * 0, 1.0, 0, x.dtype)
    if c > 0:
        return _as_quantized(x.int_repr(), s * c, z, x.dtype)
    from . import tensor as _t
    mirrored = (x.int_repr().to(_t.int32) * -1) + (hi + lo)
    return _as_quantized(mirrored, s * -c, hi - (z - lo), x.dtype)


__all__ += ['FloatFunctional', 'QFunctional']


# ---- dynamic quantized LSTM and GRU (torch.ao.nn.quantized.dynamic) ----

class _PackedCellParams(_Module):
    """One layer and direction of a dynamic quantized RNN, torch's PackedParameter of cell
    params: the input and hidden projections as DynamicQuantizedLinear (int8 weights per
    tensor, the bias inside, activations quantized per call with reduce_range)."""
    __gtype_name__ = 'gnn+ao+nn+quantized+dynamic+PackedParameter'
    __module__ = 'gnn.ao.nn.quantized.dynamic'
    do_forward = _forward_vfunc

    def forward(self, x):
        raise RuntimeError('PackedParameter is not called: its RNN uses ih and hh')


def _dynamic_linear(weight, bias):
    from .layers import Linear
    from .module import Parameter
    lin = Linear(weight.shape[1], weight.shape[0], bias is not None)
    lin.weight = Parameter(weight.detach())
    if bias is not None:
        lin.bias = Parameter(bias.detach())
    return Gnn.DynamicQuantizedLinear.new_from_float(lin)


class _DynamicQuantizedRNN(_QATModule):
    """What DynamicQuantizedLSTM and DynamicQuantizedGRU share: torch's arguments (in the
    config property), _all_weight_values (one _PackedCellParams per layer and direction) and
    the loop over layers, directions and steps. The input projection of a layer is computed
    for the whole sequence at once, so its activations are quantized over the whole sequence,
    as torch's CPU FullLayer does; the hidden projection per step."""
    __gtype_name__ = 'GnnDynamicQuantizedRNNBase'
    __module__ = 'gnn.ao.nn.quantized.dynamic'
    _gates = 4

    def __init__(self, input_size=None, hidden_size=None, num_layers=1, bias=True, batch_first=False,
                 dropout=0.0, bidirectional=False, dtype=_q.qint8, **kwargs):
        if _is_constructed(self) and input_size is None:
            _Module.__init__(self)
            return
        _Module.__init__(self, **kwargs)
        if int(_q.as_qdtype(dtype)) != int(_q.qint8):
            raise NotImplementedError('dynamic quantized RNNs: gnn supports dtype=torch.qint8 only '
                                      '(torch also has float16)')
        if not bias:
            raise AssertionError('dynamic quantized RNNs need bias=True, as torch\'s from_float')
        self.config = _json.dumps(dict(input_size=int(input_size), hidden_size=int(hidden_size),
                                       num_layers=int(num_layers), bias=True, batch_first=bool(batch_first),
                                       dropout=float(dropout), bidirectional=bool(bidirectional)))
        from .containers import ModuleList
        from .tensor import tensor
        cells = []
        D = 2 if bidirectional else 1
        H = int(hidden_size)
        rng = _np.random.default_rng(0)
        for layer in range(int(num_layers)):
            size = int(input_size) if layer == 0 else H * D
            for _ in range(D):
                cell = _PackedCellParams()
                for name, n_in in (('ih', size), ('hh', H)):
                    w = tensor(rng.uniform(-1, 1, (self._gates * H, n_in)).astype(_np.float32) / _np.sqrt(H))
                    cell.add_module(name, _dynamic_linear(w, tensor(_np.zeros(self._gates * H, _np.float32))))
                cells.append(cell)
        self._all_weight_values = ModuleList(cells)

    def __getattr__(self, name):
        conf = _json.loads(self.__dict__.get('_config', '{}'))
        if name in conf:
            return conf[name]
        return _Module.__getattr__(self, name)

    def extra_repr(self):
        s = '%d, %d' % (self.input_size, self.hidden_size)
        if self.num_layers != 1:
            s += ', num_layers=%d' % self.num_layers
        if self.batch_first:
            s += ', batch_first=True'
        if self.dropout:
            s += ', dropout=%r' % self.dropout
        if self.bidirectional:
            s += ', bidirectional=True'
        return s

    @classmethod
    @raising_torch_errors
    def from_float(cls, mod):
        """torch's from_float: each weight observed by default_dynamic_qconfig's weight
        observer (qint8 per tensor, symmetric) and packed with its bias."""
        get = mod.get_property
        if get('proj-size'):
            raise NotImplementedError('dynamic quantized LSTM: gnn does not quantize proj_size > 0')
        if not get('bias'):
            raise AssertionError('dynamic quantized RNNs need bias=True, as torch\'s from_float')
        q = cls(get('input-size'), get('hidden-size'), get('num-layers'), True, get('batch-first'),
                get('dropout'), get('bidirectional'))
        D = 2 if get('bidirectional') else 1
        params = dict(mod.named_parameters())
        k = 0
        for layer in range(get('num-layers')):
            for d in range(D):
                suffix = '_reverse' if d == 1 else ''
                cell = q._all_weight_values[k]
                for name in ('ih', 'hh'):
                    cell.add_module(name, _dynamic_linear(params['weight_%s_l%d%s' % (name, layer, suffix)],
                                                          params['bias_%s_l%d%s' % (name, layer, suffix)]))
                k += 1
        q.train(mod.training)
        return q

    def _run(self, input, hx):
        from .functions import stack, cat, zeros
        if input.dim() != 3:
            raise RuntimeError('%s: expected a 3-D input, got %d-D (gnn has no unbatched form '
                               'here)' % (type(self).__name__, input.dim()))
        x = input.transpose(0, 1) if self.batch_first else input
        if x.shape[2] != self.input_size:
            raise RuntimeError('input.size(-1) must be equal to input_size. Expected %d, got %d'
                               % (self.input_size, x.shape[2]))
        T, B, H = x.shape[0], x.shape[1], self.hidden_size
        D = 2 if self.bidirectional else 1
        lstm = self._gates == 4
        if hx is None:
            h0 = zeros(self.num_layers * D, B, H)
            hx = (h0, h0) if lstm else h0
        finals_h, finals_c = [], []
        layer_input = x
        for layer in range(self.num_layers):
            outs = []
            for d in range(D):
                k = layer * D + d
                cell = self._all_weight_values[k]
                gi = cell.ih(layer_input)
                h = hx[0][k] if lstm else hx[k]
                c = hx[1][k] if lstm else None
                ys = [None] * T
                for t in (range(T) if d == 0 else reversed(range(T))):
                    gh = cell.hh(h)
                    if lstm:
                        gates = gh + gi[t]
                        i, f, g, o = gates.chunk(4, 1)
                        c = f.sigmoid() * c + i.sigmoid() * g.tanh()
                        h = o.sigmoid() * c.tanh()
                    else:
                        ir, iz, inn = gi[t].chunk(3, 1)
                        hr, hz, hn = gh.chunk(3, 1)
                        r = (hr + ir).sigmoid()
                        z = (hz + iz).sigmoid()
                        n = (inn + hn * r).tanh()
                        h = (h - n) * z + n
                    ys[t] = h
                outs.append(stack(ys))
                finals_h.append(h)
                finals_c.append(c)
            layer_input = cat(outs, 2) if D == 2 else outs[0]
        out = layer_input.transpose(0, 1) if self.batch_first else layer_input
        h_n = stack(finals_h)
        return out, ((h_n, stack(finals_c)) if lstm else h_n)

    def forward(self, input, hx=None):
        from .base import no_grad as _ng
        with _ng():
            return self._run(input, hx)


class DynamicQuantizedLSTM(_DynamicQuantizedRNN):
    """torch.ao.nn.quantized.dynamic.LSTM (printed DynamicQuantizedLSTM): nn.LSTM with int8
    weights, its gate projections dynamic quantized linears."""
    __gtype_name__ = 'gnn+ao+nn+quantized+dynamic+DynamicQuantizedLSTM'
    __module__ = 'gnn.ao.nn.quantized.dynamic'
    _gates = 4


class DynamicQuantizedGRU(_DynamicQuantizedRNN):
    """torch.ao.nn.quantized.dynamic.GRU (printed DynamicQuantizedGRU): nn.GRU with int8
    weights."""
    __gtype_name__ = 'gnn+ao+nn+quantized+dynamic+DynamicQuantizedGRU'
    __module__ = 'gnn.ao.nn.quantized.dynamic'
    _gates = 3


_q_quantize_dynamic = _q.quantize_dynamic


@raising_torch_errors
def quantize_dynamic(model, qconfig_spec=None, dtype=_q.qint8, mapping=None, inplace=False):
    """torch.ao.quantization.quantize_dynamic: Linear becomes DynamicQuantizedLinear, LSTM,
    GRU, LSTMCell, GRUCell and RNNCell their DynamicQuantized forms (int8 weights per tensor,
    symmetric; activations quantized per call with reduce_range). qconfig_spec is a set of
    those classes, or None for all of them (torch's default for qint8); a copy is quantized
    unless inplace."""
    spec = None if qconfig_spec is None else set(qconfig_spec)
    rnn = {getattr(Gnn, k): v for k, v in _RNN_TARGETS.items()}
    wanted = {k: v for k, v in rnn.items() if spec is None or any(c is k or c.__gtype__ == k.__gtype__
                                                                  for c in spec if hasattr(c, '__gtype__'))}
    rest = None if spec is None else {c for c in spec if not any(getattr(c, '__gtype__', None) == k.__gtype__
                                                                 for k in rnn)}
    if spec is not None and not rest:
        if int(_q.as_qdtype(dtype)) != int(_q.qint8):
            raise TypeError('quantize_dynamic(): gnn supports dtype=torch.qint8 only')
        out = model if inplace else Gnn.Module.copy(model)
    else:
        out = _q_quantize_dynamic(model, rest, dtype, mapping, inplace)

    def target(mod):
        for cls, qcls in wanted.items():
            if type(mod).__gtype__ == cls.__gtype__:
                return qcls
        return None

    def swap(parent):
        for name, child in list(parent.named_children()):
            qcls = target(child)
            if qcls is not None:
                parent.set_submodule(name, qcls.from_float(child))
            else:
                swap(child)
    if wanted:
        if target(out) is not None:
            return target(out).from_float(out)
        swap(out)
    return out


__all__ += ['DynamicQuantizedLSTM', 'DynamicQuantizedGRU', 'quantize_dynamic']


# ---- conv + batch norm for QAT: fuse_modules_qat, ConvBn2d, ConvBnReLU2d ----

def _fused_sequence(name, n, doc):
    def __init__(self, *mods, **kwargs):
        if mods:
            kinds = tuple(type(m).__name__ for m in mods)
            want = ('Conv2d', 'BatchNorm2d', 'ReLU')[:n]
            if kinds != want:
                raise AssertionError('Incorrect types for input modules%s' % (kinds,))
        _q._Sequential.__init__(self, *mods, **kwargs)
    return type(name, (_q._FusedModule,), {'__gtype_name__': 'Gnn' + name, '__module__': 'gnn.ao.nn.intrinsic',
                                           '__init__': __init__, '__doc__': doc})


ConvBn2d = _fused_sequence('ConvBn2d', 2, 'torch.ao.nn.intrinsic.ConvBn2d: Conv2d and BatchNorm2d fused '
                                          'for quantization-aware training.')
ConvBnReLU2d = _fused_sequence('ConvBnReLU2d', 3, 'torch.ao.nn.intrinsic.ConvBnReLU2d: Conv2d, '
                                                  'BatchNorm2d and ReLU fused for quantization-aware training.')


def _fuse_known_qat(mods):
    """torch's fuse_known_modules with is_qat: conv+bn(+relu) in training become ConvBn2d /
    ConvBnReLU2d (evaluated ones fold as fuse_modules does); the rest as fuse_modules."""
    names = tuple(type(m).__name__ for m in mods)
    if names in (('Conv2d', 'BatchNorm2d'), ('Conv2d', 'BatchNorm2d', 'ReLU')) and mods[0].training:
        if mods[0].training != mods[1].training:
            raise AssertionError('Conv and BN both must be in the same mode (train or eval).')
        fused = (ConvBn2d if len(mods) == 2 else ConvBnReLU2d)(*mods)
        fused.train(True)
        rest = []
        for _ in mods[1:]:
            ident = Gnn.Identity()
            ident.train(True)
            rest.append(ident)
        return [fused] + rest
    if names == ('Linear', 'BatchNorm1d') and mods[0].training:
        raise NotImplementedError('fuse_modules_qat: gnn has no LinearBn1d for training')
    return _q._fuse_known(mods)


def fuse_modules_qat(model, modules_to_fuse, inplace=False, fuser_func=None, fuse_custom_config_dict=None):
    """torch.ao.quantization.fuse_modules_qat: fuse_modules for a model to train with
    prepare_qat: conv+bn and conv+bn+relu in training become ConvBn2d and ConvBnReLU2d (the
    batch norm stays, prepare_qat makes them QAT modules that fold it on the fly)."""
    return _q.fuse_modules(model, modules_to_fuse, inplace, fuser_func or _fuse_known_qat,
                           fuse_custom_config_dict)


class QATConvBn2d(QATConv2d):
    """torch.ao.nn.intrinsic.qat.ConvBn2d: the convolution with the batch norm folded into its
    fake-quantized weight on every forward (torch's _forward_approximate: the weight scaled by
    bn.weight / running_std, fake quantized, the convolution divided back and the batch norm
    applied, which in training uses and updates the batch statistics)."""
    __gtype_name__ = 'gnn+ao+nn+intrinsic+qat+ConvBn2d'
    __module__ = 'gnn.ao.nn.intrinsic.qat'

    def forward(self, input):
        from .functional import conv2d
        from .functions import zeros
        bn = self.bn
        running_std = (bn.running_var + bn.get_property('eps')).sqrt()
        scale_factor = bn.weight / running_std
        scaled = self.weight_fake_quant(self.weight * scale_factor.reshape(-1, 1, 1, 1))
        conv = conv2d(input, scaled, zeros(self.out_channels, dtype=input.dtype), self.stride,
                      self.padding, self.dilation, self.groups)
        conv_orig = conv / scale_factor.reshape(1, -1, 1, 1)
        if self.bias is not None:
            conv_orig = conv_orig + self.bias.reshape(1, -1, 1, 1)
        return self._finish(bn(conv_orig))

    def freeze_bn_stats(self):
        self.bn.eval()
        return self

    def update_bn_stats(self):
        self.bn.train()
        return self

    @classmethod
    def from_float(cls, mod):
        """torch's from_float: over the fused module's conv parameters and its batch norm."""
        if not isinstance(mod, (ConvBn2d, ConvBnReLU2d)):
            raise AssertionError('qat.%s.from_float only works for ConvBn2d' % cls.__name__)
        conv, bn = mod[0], mod[1]
        if getattr(mod, 'qconfig', None) is None:
            raise AssertionError('Input float module must have qconfig defined')
        groups = conv.get_property('groups')
        w = conv.weight
        q = cls(w.shape[1] * groups, w.shape[0], (w.shape[2], w.shape[3]),
                _q._conv_pair(conv, 'stride', 1), _q._conv_pair(conv, 'padding', 0),
                _q._conv_pair(conv, 'dilation', 1), groups, conv.bias is not None, qconfig=mod.qconfig)
        q.weight = conv.weight
        q.bias = conv.bias
        fq = q.weight_fake_quant
        del q.weight_fake_quant
        q.bn = bn                      # (torch's order of the children: bn, weight_fake_quant)
        q.weight_fake_quant = fq
        return q

    def _folded(self):
        """torch's fuse_conv_bn_weights over the running statistics: (weight, bias)."""
        from .functions import zeros
        bn = self.bn
        r = (bn.running_var + bn.get_property('eps')).rsqrt()
        w = self.weight * (bn.weight * r).reshape(-1, 1, 1, 1)
        b = self.bias if self.bias is not None else zeros(self.out_channels)
        return w.detach(), ((b - bn.running_mean) * r * bn.weight + bn.bias).detach()


class QATConvBnReLU2d(QATConvBn2d):
    """torch.ao.nn.intrinsic.qat.ConvBnReLU2d: QATConvBn2d followed by ReLU."""
    __gtype_name__ = 'gnn+ao+nn+intrinsic+qat+ConvBnReLU2d'
    __module__ = 'gnn.ao.nn.intrinsic.qat'
    _relu = True


_QAT_CLASSES = _QAT_CLASSES + (QATConvBn2d, QATConvBnReLU2d)
_qat_class_for_plain = _qat_class_for


def _qat_class_for(mod):           # noqa: F811 (the conv-bn pairs first)
    if isinstance(mod, ConvBnReLU2d):
        return QATConvBnReLU2d
    if isinstance(mod, ConvBn2d):
        return QATConvBn2d
    return _qat_class_for_plain(mod)


def _convert_qat_conv_bn(mod):
    if not isinstance(mod, (QATConvBn2d, QATConvBnReLU2d)) or \
            'activation_post_process' not in dict(mod.named_children()):
        return None
    view = _ConvertView(mod)
    view.weight, view.bias = mod._folded()
    target = _q.QuantizedConvReLU2d if isinstance(mod, QATConvBnReLU2d) else _q.QuantizedConv2d
    return target.from_float(view)


_q._EXTRA_CONVERTERS.insert(0, _convert_qat_conv_bn)

__all__ += ['ConvBn2d', 'ConvBnReLU2d', 'fuse_modules_qat', 'QATConvBn2d', 'QATConvBnReLU2d']


class _DynamicQuantizedCell(_QATModule):
    """What the dynamic quantized cells share: _packed_weight_ih and _packed_weight_hh
    (DynamicQuantizedLinear, the biases inside; torch's state-dict names), one step."""
    __gtype_name__ = 'GnnDynamicQuantizedRNNCellBase'
    __module__ = 'gnn.ao.nn.quantized.dynamic'
    _gates = 4

    def __init__(self, input_size=None, hidden_size=None, bias=True, nonlinearity='tanh', dtype=_q.qint8,
                 **kwargs):
        from .tensor import tensor
        if _is_constructed(self) and input_size is None:
            _Module.__init__(self)
            return
        _Module.__init__(self, **kwargs)
        if int(_q.as_qdtype(dtype)) != int(_q.qint8):
            raise NotImplementedError('dynamic quantized cells: gnn supports dtype=torch.qint8 only')
        if nonlinearity not in ('tanh', 'relu'):
            raise ValueError('Unknown nonlinearity: %s' % nonlinearity)
        self.config = _json.dumps(dict(input_size=int(input_size), hidden_size=int(hidden_size),
                                       bias=bool(bias), nonlinearity=nonlinearity))
        G, H = self._gates, int(hidden_size)
        rng = _np.random.default_rng(0)
        for name, n_in in (('_packed_weight_ih', int(input_size)), ('_packed_weight_hh', H)):
            w = tensor(rng.uniform(-1, 1, (G * H, n_in)).astype(_np.float32) / _np.sqrt(H))
            b = tensor(_np.zeros(G * H, _np.float32)) if bias else None
            self.add_module(name, _dynamic_linear(w, b))

    __getattr__ = _DynamicQuantizedRNN.__getattr__

    def extra_repr(self):
        s = '%d, %d' % (self.input_size, self.hidden_size)
        if not self.bias_:
            s += ', bias=False'
        if self._gates == 1 and self.nonlinearity != 'tanh':
            s += ', nonlinearity=%s' % self.nonlinearity
        return s

    bias_ = property(lambda self: _json.loads(self.config)['bias'])

    @classmethod
    @raising_torch_errors
    def from_float(cls, mod):
        get = mod.get_property
        if not get('bias'):
            raise AssertionError('dynamic quantized cells need bias=True, as torch\'s from_float')
        extra = {'nonlinearity': get('nonlinearity')} if cls._gates == 1 else {}
        q = cls(get('input-size'), get('hidden-size'), get('bias'), **extra)
        params = dict(mod.named_parameters())
        for part in ('ih', 'hh'):
            q.add_module('_packed_weight_' + part, _dynamic_linear(params['weight_' + part],
                                                                   params.get('bias_' + part)))
        q.train(mod.training)
        return q

    def forward(self, input, hx=None):
        from .functions import zeros
        with no_grad():
            if input.dim() != 2:
                raise RuntimeError('%s: expected a 2-D input (batch, input_size), got %d-D'
                                   % (type(self).__name__, input.dim()))
            if input.shape[1] != self.input_size:
                raise RuntimeError('input has inconsistent input_size: got %d expected %d'
                                   % (input.shape[1], self.input_size))
            B, H = input.shape[0], self.hidden_size
            if hx is None:
                h0 = zeros(B, H)
                hx = (h0, h0) if self._gates == 4 else h0
            gi = self._packed_weight_ih(input)
            h = hx[0] if self._gates == 4 else hx
            gh = self._packed_weight_hh(h)
            if self._gates == 4:
                i, f, g, o = (gh + gi).chunk(4, 1)
                c = f.sigmoid() * hx[1] + i.sigmoid() * g.tanh()
                return o.sigmoid() * c.tanh(), c
            if self._gates == 3:
                ir, iz, inn = gi.chunk(3, 1)
                hr, hz, hn = gh.chunk(3, 1)
                r = (hr + ir).sigmoid()
                z = (hz + iz).sigmoid()
                n = (inn + hn * r).tanh()
                return (h - n) * z + n
            pre = gi + gh
            return pre.tanh() if self.nonlinearity == 'tanh' else pre.relu()


class DynamicQuantizedLSTMCell(_DynamicQuantizedCell):
    """torch.ao.nn.quantized.dynamic.LSTMCell (printed DynamicQuantizedLSTMCell)."""
    __gtype_name__ = 'gnn+ao+nn+quantized+dynamic+DynamicQuantizedLSTMCell'
    __module__ = 'gnn.ao.nn.quantized.dynamic'
    _gates = 4


class DynamicQuantizedGRUCell(_DynamicQuantizedCell):
    """torch.ao.nn.quantized.dynamic.GRUCell (printed DynamicQuantizedGRUCell)."""
    __gtype_name__ = 'gnn+ao+nn+quantized+dynamic+DynamicQuantizedGRUCell'
    __module__ = 'gnn.ao.nn.quantized.dynamic'
    _gates = 3


class DynamicQuantizedRNNCell(_DynamicQuantizedCell):
    """torch.ao.nn.quantized.dynamic.RNNCell (printed DynamicQuantizedRNNCell)."""
    __gtype_name__ = 'gnn+ao+nn+quantized+dynamic+DynamicQuantizedRNNCell'
    __module__ = 'gnn.ao.nn.quantized.dynamic'
    _gates = 1


_RNN_TARGETS = {'LSTM': DynamicQuantizedLSTM, 'GRU': DynamicQuantizedGRU, 'LSTMCell': DynamicQuantizedLSTMCell,
                'GRUCell': DynamicQuantizedGRUCell, 'RNNCell': DynamicQuantizedRNNCell}

__all__ += ['DynamicQuantizedLSTMCell', 'DynamicQuantizedGRUCell', 'DynamicQuantizedRNNCell']



# ---- FusedMovingAvgObsFakeQuantize (torch.fused_moving_avg_obs_fake_quant) ----

class FusedMovingAvgObsFakeQuantize(FakeQuantize):
    """torch.ao.quantization.FusedMovingAvgObsFakeQuantize: FakeQuantize whose observing is
    torch's fused kernel: the observer's running min/max moved by averaging_constant in double
    precision (the first batch taken as it is), and the scale and zero point chosen by torch's
    ChooseQuantizationParams (symmetric schemes preserving sparsity), which differ from the
    observer's own calculate_qparams (what convert reads). Buffers fake_quant_enabled and
    observer_enabled are int64, as torch's."""
    __gtype_name__ = 'GnnFusedMovingAvgObsFakeQuantize'
    __module__ = 'gnn.ao.quantization'

    def __init__(self, observer=None, quant_min=0, quant_max=255, **observer_kwargs):
        from .tensor import tensor
        from . import tensor as _t
        if _is_constructed(self) and observer is None and quant_min == 0 and quant_max == 255 \
                and not observer_kwargs:
            _Module.__init__(self)
            _resize_on_load(self, ('scale', 'zero_point'))
            return
        FakeQuantize.__init__(self, observer, quant_min, quant_max, **observer_kwargs)
        if not isinstance(self.activation_post_process, (_q.MovingAverageMinMaxObserver,
                                                         MovingAveragePerChannelMinMaxObserver)):
            raise AssertionError('Fused observer+fake_quant module only works with MovingAverageMinMaxObserver')
        self.register_buffer('fake_quant_enabled', tensor([1], dtype=_t.int64))
        self.register_buffer('observer_enabled', tensor([1], dtype=_t.int64))

    is_symmetric_quant = property(lambda self: int(self.qscheme) in (2, 3))

    def _observe(self, X):
        from .tensor import tensor
        from . import tensor as _t
        post = self.activation_post_process
        c = float(post.averaging_constant if hasattr(post, 'averaging_constant')
                  else post.get_property('averaging-constant'))
        x = _np.asarray(X.detach().float().numpy())
        per_row = self.is_per_channel
        if per_row:
            axis = self.ch_axis
            y = _np.moveaxis(x, axis, 0).reshape(x.shape[axis], -1)
            cur_min, cur_max = y.min(1), y.max(1)
        else:
            cur_min, cur_max = _np.array([x.min()]), _np.array([x.max()])
        lo = _np.asarray(post.min_val.numpy(), _np.float32).reshape(-1)
        hi = _np.asarray(post.max_val.numpy(), _np.float32).reshape(-1)
        if lo.size == 0:
            lo = _np.full(cur_min.shape, _np.inf, _np.float32)
            hi = _np.full(cur_max.shape, -_np.inf, _np.float32)
        f32 = _np.float32

        def moved(run, cur):
            cur = cur.astype(f32)
            with _np.errstate(invalid='ignore'):
                if per_row:       # (torch's per-row kernel: float32 tensor arithmetic)
                    step = (run + f32(c) * (cur - run)).astype(f32)
                else:             # (the per-tensor one: a double product and sum)
                    step = _np.array([f32(float(r) + c * float(f32(m - r))) for r, m in zip(run, cur)], f32)
            return _np.where(_np.isinf(run), cur, step).astype(f32)
        new_lo, new_hi = moved(lo, cur_min), moved(hi, cur_max)
        if per_row:
            post.register_buffer('min_val', tensor(new_lo))
            post.register_buffer('max_val', tensor(new_hi))
        else:
            post.min_val.fill_(float(new_lo[0]))
            post.max_val.fill_(float(new_hi[0]))
        qp = [_choose_quantization_params(a, b, self.quant_min, self.quant_max, False, self.is_symmetric_quant)
              for a, b in zip(new_lo, new_hi)]
        scales = _np.array([s for s, _ in qp], _np.float32)
        zps = _np.array([z for _, z in qp], _np.int32)
        self.register_buffer('scale', tensor(scales, dtype=_t.float32))
        self.register_buffer('zero_point', tensor(zps, dtype=_t.int32))

    def forward(self, X):
        if int(self.observer_enabled[0].item()) == 1:
            self._observe(X)
        if int(self.fake_quant_enabled[0].item()) == 1:
            if self.is_per_channel:
                return fake_quantize_per_channel_affine(X, self.scale, self.zero_point, self.ch_axis,
                                                        self.quant_min, self.quant_max)
            return fake_quantize_per_tensor_affine(X, self.scale, self.zero_point, self.quant_min,
                                                   self.quant_max)
        return X

    def extra_repr(self):
        return ('fake_quant_enabled={}, observer_enabled={}, scale={}, zero_point={}, dtype={}, '
                'quant_min={}, quant_max={}, qscheme={}, reduce_range={}'.format(
                    self.fake_quant_enabled, self.observer_enabled, self.scale, self.zero_point,
                    self.dtype, self.quant_min, self.quant_max, self.qscheme,
                    self.activation_post_process.reduce_range))


FusedMovingAvgObsFakeQuantize.with_args = classmethod(_q._with_args)

__all__ += ['FusedMovingAvgObsFakeQuantize']


default_fused_act_fake_quant = FusedMovingAvgObsFakeQuantize.with_args(
    observer=_q.MovingAverageMinMaxObserver, quant_min=0, quant_max=255, dtype=_q.quint8)
default_fused_wt_fake_quant = FusedMovingAvgObsFakeQuantize.with_args(
    observer=_q.MovingAverageMinMaxObserver, quant_min=-128, quant_max=127, dtype=_q.qint8,
    qscheme=_q.per_tensor_symmetric)
default_fused_per_channel_wt_fake_quant = FusedMovingAvgObsFakeQuantize.with_args(
    observer=MovingAveragePerChannelMinMaxObserver, quant_min=-128, quant_max=127, dtype=_q.qint8,
    qscheme=_q.per_channel_symmetric)
default_qat_qconfig_v2 = _q.QConfig(activation=default_fused_act_fake_quant, weight=default_fused_wt_fake_quant)


def _default_qat_qconfig_v1(backend):
    act = _q.MovingAverageMinMaxObserver
    if backend in ('fbgemm', 'x86'):
        return _q.QConfig(activation=FusedMovingAvgObsFakeQuantize.with_args(
            observer=act, quant_min=0, quant_max=255, reduce_range=True),
            weight=default_fused_per_channel_wt_fake_quant)
    if backend == 'qnnpack':
        return _q.QConfig(activation=FusedMovingAvgObsFakeQuantize.with_args(
            observer=act, quant_min=0, quant_max=255, reduce_range=False),
            weight=default_fused_wt_fake_quant)
    if backend == 'onednn':
        return _q.QConfig(activation=FusedMovingAvgObsFakeQuantize.with_args(
            observer=act, quant_min=0, quant_max=255), weight=default_fused_per_channel_wt_fake_quant)
    return default_qat_qconfig_v2


__all__ += ['default_fused_act_fake_quant', 'default_fused_wt_fake_quant',
            'default_fused_per_channel_wt_fake_quant', 'default_qat_qconfig_v2']
