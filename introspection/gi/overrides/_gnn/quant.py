# torch's quantization, eager mode (gnn/quant/): quantized tensors (torch.quantize_per_tensor,
# torch.quantize_per_channel, Tensor.dequantize, int_repr, q_scale, ...) and the quantized
# dtypes and schemes (torch.qint8, torch.per_tensor_affine, ...)
#
# SPDX-License-Identifier: LGPL-2.1-or-later
from .base import Gnn, override
from .errors import raising_torch_errors

__all__ = ['qint8', 'quint8', 'qint32', 'qdtype', 'qscheme', 'per_tensor_affine',
           'per_channel_affine', 'per_tensor_symmetric', 'per_channel_symmetric',
           'quantize_per_tensor', 'quantize_per_channel', 'QuantizedTensor']


class qdtype(int):
    """A quantized dtype (torch.qint8, torch.quint8, torch.qint32) over Gnn.QDtype: prints as
    torch prints it and goes wherever a Gnn.QDtype does."""

    def __new__(cls, value):
        self = super().__new__(cls, int(value))
        self._name = Gnn.qdtype_get_name(value)
        return self

    def __repr__(self):
        return 'torch.' + self._name

    __str__ = __repr__

    def __reduce__(self):
        return (_qdtype_of, (self._name,))

    is_floating_point = False
    is_signed = property(lambda self: int(self) != int(Gnn.QDtype.QUINT8))


class qscheme(int):
    """A quantization scheme (torch.per_tensor_affine, ...) over Gnn.QScheme."""

    def __new__(cls, value, name):
        self = super().__new__(cls, int(value))
        self._name = name
        return self

    def __repr__(self):
        return 'torch.' + self._name

    __str__ = __repr__


qint8 = qdtype(Gnn.QDtype.QINT8)
quint8 = qdtype(Gnn.QDtype.QUINT8)
qint32 = qdtype(Gnn.QDtype.QINT32)
_QDTYPES = {int(d): d for d in (qint8, quint8, qint32)}
per_tensor_affine = qscheme(0, 'per_tensor_affine')
per_channel_affine = qscheme(1, 'per_channel_affine')
per_tensor_symmetric = qscheme(2, 'per_tensor_symmetric')
per_channel_symmetric = qscheme(3, 'per_channel_symmetric')
# (GI names Gnn.QScheme's values without their common PER_: Gnn.QScheme.TENSOR_AFFINE, ...)
_QSCHEMES = {int(s): s for s in (per_tensor_affine, per_channel_affine, per_tensor_symmetric,
                                 per_channel_symmetric)}


def _qdtype_of(name):
    for d in _QDTYPES.values():
        if d._name == name:
            return d
    raise TypeError('expected a quantized dtype (gnn.qint8, gnn.quint8, gnn.qint32), got %r' % (name,))


def as_qdtype(value):
    """The qdtype for a qdtype, a Gnn.QDtype or a name ('qint8', 'torch.quint8'); a TypeError
    naming the value for anything else (a plain dtype such as gnn.int8 included)."""
    if isinstance(value, qdtype):
        return value
    if isinstance(value, Gnn.QDtype):
        return _QDTYPES[int(value)]
    if isinstance(value, str):
        return _qdtype_of(value[6:] if value.startswith('torch.') else value)
    raise TypeError('expected a quantized dtype (gnn.qint8, gnn.quint8, gnn.qint32), got %r' % (value,))


def _number(value, what):
    if isinstance(value, Gnn.Tensor):
        if value.numel() != 1:
            raise ValueError('%s: expected a number or a one-element tensor, got %d elements'
                             % (what, value.numel()))
        return value.item()
    return value


@raising_torch_errors
def quantize_per_tensor(input, scale, zero_point, dtype):
    """torch.quantize_per_tensor: input (float32) as integers q = clamp(zero_point +
    round(input / scale)), rounded half to even as torch's CPU kernel. A scale of 0 or NaN, or a
    zero point out of the dtype's range, is refused (torch accepts the scale)."""
    return Gnn.quantize_per_tensor(input, float(_number(scale, 'scale')),
                                   int(_number(zero_point, 'zero_point')), as_qdtype(dtype))


@raising_torch_errors
def quantize_per_channel(input, scales, zero_points, axis, dtype):
    """torch.quantize_per_channel: a scale and zero point (1-D tensors) for each index of
    input along axis."""
    return Gnn.quantize_per_channel(input, scales, zero_points, int(axis), as_qdtype(dtype))


class QuantizedTensor(Gnn.QuantizedTensor):
    """A quantized tensor, what torch.quantize_per_tensor returns: integers (int_repr()) and
    the scale and zero point that map them to real values (dequantize())."""

    is_quantized = True

    @property
    def dtype(self):
        return _QDTYPES[int(self.get_dtype())]

    @property
    def shape(self):
        return self.int_repr().shape

    def size(self, dim=None):
        return self.int_repr().size() if dim is None else self.int_repr().size(dim)

    def dim(self):
        return self.int_repr().dim()

    def numel(self):
        return self.int_repr().numel()

    @property
    def device(self):
        return self.int_repr().device

    def qscheme(self):
        return _QSCHEMES[int(self.get_qscheme())]

    @raising_torch_errors
    def dequantize(self):
        return Gnn.QuantizedTensor.dequantize(self)

    @raising_torch_errors
    def q_scale(self):
        return Gnn.QuantizedTensor.q_scale(self)

    @raising_torch_errors
    def q_zero_point(self):
        return Gnn.QuantizedTensor.q_zero_point(self)

    @raising_torch_errors
    def q_per_channel_scales(self):
        return Gnn.QuantizedTensor.q_per_channel_scales(self)

    @raising_torch_errors
    def q_per_channel_zero_points(self):
        return Gnn.QuantizedTensor.q_per_channel_zero_points(self)

    @raising_torch_errors
    def q_per_channel_axis(self):
        return Gnn.QuantizedTensor.q_per_channel_axis(self)

    def __repr__(self):
        d = self.dequantize()
        body = repr(d)
        body = body[:-1] if body.endswith(')') else body
        if int(self.get_qscheme()) == int(per_tensor_affine):
            extra = 'scale=%s, zero_point=%d' % (self.q_scale(), self.q_zero_point())
        else:
            extra = 'scales=%r, zero_points=%r, axis=%d' % (
                self.q_per_channel_scales(), self.q_per_channel_zero_points(), self.q_per_channel_axis())
        return '%s, size=%s, dtype=%r,\n       quantization_scheme=%r, %s)' % (
            body, tuple(self.size()), self.dtype, self.qscheme(), extra)


QuantizedTensor = override(QuantizedTensor)


# ---- observers (gnn-observer.c): torch.ao.quantization.MinMaxObserver and the moving average ----

def _observer_props(dtype, qscheme, reduce_range, quant_min, quant_max, factory_kwargs, eps):
    from .tensor import Tensor  # noqa: F401 (the tensor part is loaded first)
    if factory_kwargs not in (None, {}) and any(v not in (None, 'cpu') for v in factory_kwargs.values()):
        raise TypeError('factory_kwargs=%r is not supported by gnn (observers are float32 on the CPU)'
                        % (factory_kwargs,))
    if (quant_min is None) != (quant_max is None):
        quant_min = quant_max = None          # torch uses a range only when both are given
    if quant_min is not None and int(quant_min) == 0 and int(quant_max) == 0:
        raise ValueError('qmin must be strictly less than qmax for user-specified quantization range.')
    if isinstance(qscheme, int) and not isinstance(qscheme, Gnn.QScheme):
        qscheme = Gnn.QScheme(int(qscheme))
    props = {'dtype': Gnn.QDtype(int(as_qdtype(dtype))), 'qscheme': qscheme,
             'reduce_range': bool(reduce_range), 'eps': float(eps)}
    if quant_min is not None:
        props['quant_min'] = int(quant_min)
        props['quant_max'] = int(quant_max)
    return props


_FLOAT32_EPS = 1.1920928955078125e-07


class _ObserverMethods:
    """What torch's observers have beyond their C methods."""

    def _setup(self):
        from .base import _call_raising_python_errors
        _call_raising_python_errors(Gnn.Module.setup, self)

    @property
    def dtype(self):
        return _QDTYPES[int(self.get_property('dtype'))]

    @property
    def qscheme(self):
        return _QSCHEMES[int(self.get_property('qscheme'))]

    @property
    def reduce_range(self):
        return self.get_property('reduce-range')

    @property
    def quant_min(self):
        return self.get_range()[0]

    @property
    def quant_max(self):
        return self.get_range()[1]

    @raising_torch_errors
    def calculate_qparams(self):
        """(scale, zero_point) as one-element tensors, as torch 1.13: the scale float32, the
        zero point int32 per_tensor_affine and int64 per_tensor_symmetric (torch's dtypes)."""
        from .tensor import tensor
        from . import tensor as _t
        ok, scale, zero_point = Gnn.MinMaxObserver.calculate_qparams(self)
        zdtype = _t.int32 if int(self.get_property('qscheme')) == int(per_tensor_affine) else _t.int64
        return tensor([scale], dtype=_t.float32), tensor([zero_point], dtype=zdtype)

    @raising_torch_errors
    def reset_min_max_vals(self):
        Gnn.MinMaxObserver.reset_min_max_vals(self)


class MinMaxObserver(_ObserverMethods, Gnn.MinMaxObserver):
    """torch.ao.quantization.MinMaxObserver: records the running min and max of its input
    (forward returns the input) and computes the scale and zero point from them."""

    def __init__(self, dtype=quint8, qscheme=per_tensor_affine, reduce_range=False, quant_min=None,
                 quant_max=None, factory_kwargs=None, eps=_FLOAT32_EPS, **kwargs):
        Gnn.MinMaxObserver.__init__(self, **_observer_props(dtype, qscheme, reduce_range, quant_min,
                                                            quant_max, factory_kwargs, eps), **kwargs)
        self._setup()


MinMaxObserver = override(MinMaxObserver)


class MovingAverageMinMaxObserver(Gnn.MovingAverageMinMaxObserver):
    """torch.ao.quantization.MovingAverageMinMaxObserver: the moving averages of the min and
    max (min += averaging_constant * (batch_min - min))."""

    def __init__(self, averaging_constant=0.01, dtype=quint8, qscheme=per_tensor_affine,
                 reduce_range=False, quant_min=None, quant_max=None, eps=_FLOAT32_EPS, **kwargs):
        Gnn.MovingAverageMinMaxObserver.__init__(
            self, averaging_constant=float(averaging_constant),
            **_observer_props(dtype, qscheme, reduce_range, quant_min, quant_max, None, eps), **kwargs)
        self._setup()

    @property
    def averaging_constant(self):
        return self.get_property('averaging-constant')


MovingAverageMinMaxObserver = override(MovingAverageMinMaxObserver)
__all__ += ['MinMaxObserver', 'MovingAverageMinMaxObserver']


class PerChannelMinMaxObserver(Gnn.PerChannelMinMaxObserver):
    """torch.ao.quantization.PerChannelMinMaxObserver: the running min and max of each index
    along ch_axis; calculate_qparams gives a scale and zero point per channel."""

    def __init__(self, ch_axis=0, dtype=quint8, qscheme=per_channel_affine, reduce_range=False,
                 quant_min=None, quant_max=None, factory_kwargs=None, eps=_FLOAT32_EPS, **kwargs):
        from gi.repository import GObject
        GObject.Object.__init__(
            self, ch_axis=int(ch_axis),
            **_observer_props(dtype, qscheme, reduce_range, quant_min, quant_max, factory_kwargs, eps),
            **kwargs)
        self._setup()

    @property
    def ch_axis(self):
        return self.get_property('ch-axis')

    @raising_torch_errors
    def calculate_qparams(self):
        """(scales, zero_points): float32 and, as torch 1.13, int32 per_channel_affine and int64
        per_channel_symmetric."""
        ok, scales, zero_points = Gnn.PerChannelMinMaxObserver.calculate_qparams(self)
        return scales, zero_points


PerChannelMinMaxObserver = override(PerChannelMinMaxObserver)


class HistogramObserver(Gnn.HistogramObserver):
    """torch.ao.quantization.HistogramObserver: a running histogram; calculate_qparams
    searches the range of least L2 quantization error (torch 1.13's _non_linear_param_search)."""

    def __init__(self, bins=2048, upsample_rate=128, dtype=quint8, qscheme=per_tensor_affine,
                 reduce_range=False, quant_min=None, quant_max=None, factory_kwargs=None,
                 eps=_FLOAT32_EPS, **kwargs):
        from gi.repository import GObject
        GObject.Object.__init__(
            self, bins=int(bins), upsample_rate=int(upsample_rate),
            **_observer_props(dtype, qscheme, reduce_range, quant_min, quant_max, factory_kwargs, eps),
            **kwargs)
        self._setup()

    @property
    def bins(self):
        return self.get_property('bins')

    @property
    def upsample_rate(self):
        return self.get_property('upsample-rate')

    @property
    def dst_nbins(self):
        return 2 ** 32 if int(self.get_property('dtype')) == int(qint32) else 256


HistogramObserver = override(HistogramObserver)
__all__ += ['PerChannelMinMaxObserver', 'HistogramObserver']


# ---- dynamic quantization (gnn-quantize-dynamic.c) ----

@raising_torch_errors
def quantize_dynamic(model, qconfig_spec=None, dtype=qint8, mapping=None, inplace=False):
    """torch.ao.quantization.quantize_dynamic: every nn.Linear below model becomes a
    DynamicQuantizedLinear (int8 weights per tensor, symmetric; activations quantized per batch
    with reduce_range, as torch's default dynamic qconfig). qconfig_spec is a set of classes
    (nn.Linear) or None; a copy is quantized unless inplace."""
    if mapping is not None:
        raise TypeError('quantize_dynamic(): mapping= is not supported by gnn (its mapping is '
                        'Linear -> DynamicQuantizedLinear)')
    if isinstance(qconfig_spec, dict):
        raise TypeError('quantize_dynamic(): a dict of qconfigs is not supported by gnn yet; '
                        'give a set of layer classes')
    types = []
    for cls in (qconfig_spec or ()):
        gtype = getattr(cls, '__gtype__', None)
        if gtype is None:
            raise TypeError('quantize_dynamic(): expected layer classes (nn.Linear), got %r' % (cls,))
        types.append(gtype)
    return Gnn.quantize_dynamic(model, types, as_qdtype(dtype), bool(inplace))


class DynamicQuantizedLinear(Gnn.DynamicQuantizedLinear):
    """torch.ao.nn.quantized.dynamic.Linear (printed DynamicQuantizedLinear)."""

    def __init__(self, in_features, out_features, bias_=True, dtype=qint8, **kwargs):
        if int(as_qdtype(dtype)) != int(qint8):
            raise TypeError('DynamicQuantizedLinear: gnn supports dtype=torch.qint8 only')
        if 'qscheme' in kwargs:
            kwargs['qscheme'] = Gnn.QScheme(int(kwargs['qscheme']))
        Gnn.DynamicQuantizedLinear.__init__(self, in_features=in_features,
                                            out_features=out_features, bias=bool(bias_), **kwargs)
        from .base import _call_raising_python_errors
        _call_raising_python_errors(Gnn.Module.setup, self)

    @classmethod
    @raising_torch_errors
    def from_float(cls, mod):
        return Gnn.DynamicQuantizedLinear.new_from_float(mod)

    @raising_torch_errors
    def weight(self):
        return self.get_weight()

    def bias(self):
        return self.get_bias()

    @property
    def in_features(self):
        return self.get_property('in-features')

    @property
    def out_features(self):
        return self.get_property('out-features')


DynamicQuantizedLinear = override(DynamicQuantizedLinear)


@raising_torch_errors
def _choose_qparams_per_tensor(input, reduce_range=False):
    """torch._choose_qparams_per_tensor: (scale, zero_point) of a dynamic quint8 activation."""
    ok, scale, zero_point = Gnn.choose_qparams_per_tensor(input, bool(reduce_range))
    return scale, zero_point


__all__ += ['quantize_dynamic', 'DynamicQuantizedLinear', '_choose_qparams_per_tensor']


# ---- eager-mode static quantization, the preparing half: qconfigs, stubs, prepare ----

import collections as _collections
import functools as _functools


def _with_args(cls, **kwargs):
    """torch's Observer.with_args: a factory of observers with these arguments."""
    return _functools.partial(cls, **kwargs)


for _cls in (MinMaxObserver, MovingAverageMinMaxObserver, PerChannelMinMaxObserver, HistogramObserver):
    _cls.with_args = classmethod(_with_args)


class QConfig(_collections.namedtuple('QConfig', ['activation', 'weight'])):
    """torch.ao.quantization.QConfig: the observer factories (classes or with_args partials)
    for a module's output activation and its weight."""
    __slots__ = ()

    def __new__(cls, activation, weight):
        if isinstance(activation, Gnn.Module) or isinstance(weight, Gnn.Module):
            raise ValueError('QConfig received observer instance, please pass observer class instead. '
                             'Use MyObserver.with_args(x=1) to override arguments to constructor if needed')
        return super().__new__(cls, activation, weight)


default_observer = MinMaxObserver.with_args(quant_min=0, quant_max=127)
default_weight_observer = MinMaxObserver.with_args(dtype=qint8, qscheme=per_tensor_symmetric)
default_histogram_observer = HistogramObserver.with_args(quant_min=0, quant_max=127)
default_per_channel_weight_observer = PerChannelMinMaxObserver.with_args(
    dtype=qint8, qscheme=per_channel_symmetric)
default_qconfig = QConfig(activation=default_observer, weight=default_weight_observer)


def get_default_qconfig(backend='fbgemm', version=0):
    """torch.ao.quantization.get_default_qconfig (torch 1.13): 'fbgemm' and 'x86' observe
    activations with a HistogramObserver of reduced range and weights per channel; 'qnnpack'
    with the full range and per-tensor weights; 'onednn' with the full range and per-channel
    weights; any other name gives default_qconfig, as torch's."""
    if version != 0:
        raise AssertionError('Version number: %s in get_default_qconfig is not supported. Version number '
                             'must be 0' % version)
    if backend in ('fbgemm', 'x86'):
        return QConfig(activation=HistogramObserver.with_args(reduce_range=True),
                       weight=default_per_channel_weight_observer)
    if backend == 'qnnpack':
        return QConfig(activation=HistogramObserver.with_args(reduce_range=False),
                       weight=default_weight_observer)
    if backend == 'onednn':
        return QConfig(activation=HistogramObserver.with_args(reduce_range=False),
                       weight=default_per_channel_weight_observer)
    return default_qconfig


from .module import Module as _Module, _forward_vfunc  # noqa: E402


class QuantStub(_Module):
    """torch.ao.quantization.QuantStub: where float values enter the quantized part of a model;
    the identity until convert (which gnn does not have yet) replaces it. qconfig as torch's."""
    # (a class of the overrides gets its GType name and do_forward here, as DDP's)
    __gtype_name__ = 'GnnQuantStub'
    __module__ = 'gnn.ao.quantization'
    do_forward = _forward_vfunc

    def __init__(self, qconfig=None, **kwargs):
        _Module.__init__(self, **kwargs)
        if qconfig is not None:
            self.qconfig = qconfig

    def forward(self, x):
        return x


class DeQuantStub(_Module):
    """torch.ao.quantization.DeQuantStub: where values leave the quantized part; the identity
    until convert."""
    __gtype_name__ = 'GnnDeQuantStub'
    __module__ = 'gnn.ao.quantization'
    do_forward = _forward_vfunc

    def __init__(self, qconfig=None, **kwargs):
        _Module.__init__(self, **kwargs)
        if qconfig is not None:
            self.qconfig = qconfig

    def forward(self, x):
        return x


def _observed_types():
    # the leaves torch 1.13's prepare observes (of those gnn has): its static quantization
    # mappings' keys and QuantStub; nn.ReLU is not among them
    return (Gnn.Linear, Gnn.Conv2d, QuantStub)


def _observer_forward_hook(module, input, output):
    # torch's hook: the post-process's result is the output (an observer returns its input,
    # a FakeQuantize the fake-quantized values)
    return module.activation_post_process(output)


def _qconfigs_by_path(model):
    """Each module's qconfig by module path, a module without one taking its parent's."""
    qconfigs = {}

    def propagate(mod, prefix, parent_qconfig):
        qc = getattr(mod, 'qconfig', parent_qconfig)
        qconfigs[prefix] = qc
        for name, child in mod.named_children():
            propagate(child, prefix + ('.' if prefix else '') + name, qc)
    propagate(model, '', None)
    return qconfigs


@raising_torch_errors
def prepare(model, inplace=False, allow_list=None, observer_non_leaf_module_list=None,
            prepare_custom_config_dict=None):
    """torch.ao.quantization.prepare: propagates each module's qconfig attribute to its
    children, then gives every Linear, Conv2d and QuantStub with a qconfig an
    activation_post_process child (qconfig.activation ()) that a forward hook runs on the
    module's output, as torch's does. Calibrate by running the model; without inplace a copy is
    prepared."""
    if allow_list is not None or observer_non_leaf_module_list is not None:
        raise TypeError('prepare(): allow_list and observer_non_leaf_module_list are not supported by gnn')
    if prepare_custom_config_dict:
        raise TypeError('prepare(): prepare_custom_config_dict is not supported by gnn')
    # the qconfigs by module path: Python attributes do not survive a copy of the tree
    qconfigs = _qconfigs_by_path(model)
    if not any(qc is not None for qc in qconfigs.values()):
        import warnings
        warnings.warn('None of the submodule got qconfig applied. Make sure you passed correct '
                      'configuration through `qconfig_dict` or by assigning the `.qconfig` attribute '
                      'directly on submodules')
    out = model if inplace else Gnn.Module.copy(model)

    def add_observers(mod, prefix):
        qc = qconfigs.get(prefix)
        mod.qconfig = qc
        if getattr(type(mod), '_replaces_post_process', False):
            if qc is not None:      # FloatFunctional: its methods call the observer themselves
                mod.add_module('activation_post_process', qc.activation())
            return
        observed = isinstance(mod, _observed_types()) or isinstance(mod, _FusedModule)
        if observed and qc is not None and 'activation_post_process' not in dict(mod.named_children()):
            mod.add_module('activation_post_process', qc.activation())
            mod.register_forward_hook(_observer_forward_hook)
        if isinstance(mod, _FusedModule):
            return          # a fused module is observed as one, as torch's
        for name, child in list(mod.named_children()):
            if name != 'activation_post_process':
                add_observers(child, prefix + ('.' if prefix else '') + name)
    add_observers(out, '')
    return out


__all__ += ['QConfig', 'default_qconfig', 'get_default_qconfig', 'default_observer',
            'default_weight_observer', 'default_histogram_observer',
            'default_per_channel_weight_observer', 'QuantStub', 'DeQuantStub', 'prepare']


# ---- fusing (torch.ao.quantization.fuse_modules) ----

from .containers import Sequential as _Sequential  # noqa: E402


class _FusedModule(_Sequential):
    """torch.ao.nn.intrinsic's _FusedModule: a Sequential of the modules fused."""
    __module__ = 'gnn.ao.nn.intrinsic'
    __gtype_name__ = 'GnnFusedModule'


def _fused_class(name, first_types):
    def __init__(self, *mods, **kwargs):
        if mods:
            if len(mods) != 2 or not isinstance(mods[0], first_types) or type(mods[1]).__name__ != 'ReLU':
                raise AssertionError('Incorrect types for input modules%s' % (tuple(type(m).__name__ for m in mods),))
        _Sequential.__init__(self, *mods, **kwargs)
    return type(name, (_FusedModule,), {'__gtype_name__': 'Gnn' + name, '__module__': 'gnn.ao.nn.intrinsic',
                                         '__init__': __init__,
                                         '__doc__': 'torch.ao.nn.intrinsic.%s: %s followed by ReLU, fused '
                                                    'for quantization.' % (name, first_types[0].__name__)})


LinearReLU = _fused_class('LinearReLU', (Gnn.Linear,))
ConvReLU2d = _fused_class('ConvReLU2d', (Gnn.Conv2d,))


def _fuse_known(mods):
    """torch's fuse_known_modules: the fused module for the types of mods, then Identity for
    each of the others."""
    from .fx import fuse_conv_bn_eval, fuse_linear_bn_eval
    names = tuple(type(m).__name__ for m in mods)
    training = mods[0].training
    if names in (('Conv2d', 'BatchNorm2d'), ('Conv2d', 'BatchNorm2d', 'ReLU'), ('Linear', 'BatchNorm1d')):
        if training:
            raise NotImplementedError('Cannot fuse modules %s in training mode: gnn has no '
                                      'quantization-aware training modules (ConvBn2d) yet' % (names,))
        if mods[0].training != mods[1].training:
            raise AssertionError('Conv and BN both must be in the same mode (train or eval).')
    if names == ('Conv2d', 'BatchNorm2d'):
        fused = fuse_conv_bn_eval(mods[0], mods[1])
    elif names == ('Conv2d', 'BatchNorm2d', 'ReLU'):
        fused = ConvReLU2d(fuse_conv_bn_eval(mods[0], mods[1]), mods[2])
    elif names == ('Conv2d', 'ReLU'):
        fused = ConvReLU2d(mods[0], mods[1])
    elif names == ('Linear', 'ReLU'):
        fused = LinearReLU(mods[0], mods[1])
    elif names == ('Linear', 'BatchNorm1d'):
        fused = fuse_linear_bn_eval(mods[0], mods[1])
    else:
        raise NotImplementedError('Cannot fuse modules: %s' % (names,))
    fused.train(training)
    rest = []
    for _ in mods[1:]:
        ident = Gnn.Identity()
        ident.train(training)
        rest.append(ident)
    return [fused] + rest


def fuse_modules(model, modules_to_fuse, inplace=False, fuser_func=None, fuse_custom_config_dict=None):
    """torch.ao.quantization.fuse_modules: each list of module names (or the one list) becomes
    its fused form at the first name and Identity at the others: conv+bn (eval: the conv with
    the batch norm folded in), conv+bn+relu and conv+relu (ConvReLU2d), linear+relu
    (LinearReLU), linear+bn (folded), as torch 1.13's fuse_known_modules. Without inplace a
    copy is fused."""
    if fuse_custom_config_dict:
        raise TypeError('fuse_modules(): fuse_custom_config_dict is not supported by gnn')
    fuser = fuser_func or _fuse_known
    out = model if inplace else Gnn.Module.copy(model)
    groups = modules_to_fuse
    if groups and all(isinstance(n, str) for n in groups):
        groups = [groups]
    for group in groups:
        mods = [out.get_submodule(name) for name in group]
        for name, new in zip(group, fuser(mods)):
            out.set_submodule(name, new)
    return out


__all__ += ['fuse_modules', 'LinearReLU', 'ConvReLU2d']


# ---- convert: the quantized modules (eager mode, quint8 activations, qint8 weights) ----

def _scalar_buffer(mod, name, value, dtype):
    from .tensor import tensor
    mod.register_buffer(name, tensor(value, dtype=dtype))


class Quantize(_Module):
    """torch.ao.nn.quantized.Quantize: quantizes its float input per tensor with the scale and
    zero point that the QuantStub's observer chose."""
    __gtype_name__ = 'GnnQuantize'
    __module__ = 'gnn.ao.nn.quantized'
    do_forward = _forward_vfunc

    def __init__(self, scale=1.0, zero_point=0, dtype=quint8, **kwargs):
        from . import tensor as _t
        _Module.__init__(self, **kwargs)
        self._qdtype = as_qdtype(dtype)
        if 'scale' not in dict(self.named_buffers()):
            _scalar_buffer(self, 'scale', [float(scale)], _t.float32)
            _scalar_buffer(self, 'zero_point', [int(zero_point)], _t.int64)

    def forward(self, x):
        return quantize_per_tensor(x, self.scale.item(), int(self.zero_point.item()), self._qdtype)

    def extra_repr(self):
        return 'scale=%r, zero_point=%r, dtype=%r' % (self.scale, self.zero_point, self._qdtype)


class DeQuantize(_Module):
    """torch.ao.nn.quantized.DeQuantize: the float values of its quantized input."""
    __gtype_name__ = 'GnnDeQuantize'
    __module__ = 'gnn.ao.nn.quantized'
    do_forward = _forward_vfunc

    def forward(self, x):
        return x.dequantize()


class QuantizedLinear(_Module):
    """torch.ao.nn.quantized.Linear (printed QuantizedLinear): quint8 in, quint8 out, qint8
    weights in a LinearPackedParams child, int32 accumulation (Gnn.LinearPackedParams.apply)."""
    __gtype_name__ = 'GnnQuantizedLinear'
    __module__ = 'gnn.ao.nn.quantized'
    do_forward = _forward_vfunc
    _relu = False

    def __init__(self, in_features=1, out_features=1, bias_=True, dtype=qint8,
                 qscheme=per_tensor_affine, **kwargs):
        from . import tensor as _t
        _Module.__init__(self, **kwargs)
        if '_packed_params' not in dict(self.named_children()):
            _scalar_buffer(self, 'scale', 1.0, _t.float32)
            _scalar_buffer(self, 'zero_point', 0, _t.int64)
            self.add_module('_packed_params', Gnn.LinearPackedParams(
                in_features=int(in_features), out_features=int(out_features), bias=bool(bias_),
                qscheme=Gnn.QScheme(int(per_channel_affine if int(qscheme) in (1, 3) else per_tensor_affine))))

    @raising_torch_errors
    def forward(self, x):
        return self._packed_params.apply(x, self.scale.item(), int(self.zero_point.item()), self._relu)

    @raising_torch_errors
    def weight(self):
        return self._packed_params.get_weight()

    def bias(self):
        return self._packed_params.get_bias()

    def extra_repr(self):
        p = self._packed_params
        return 'in_features=%d, out_features=%d, scale=%r, zero_point=%d, qscheme=%r' % (
            p.get_property('in-features'), p.get_property('out-features'), self.scale.item(),
            int(self.zero_point.item()), self.weight().qscheme())

    @classmethod
    @raising_torch_errors
    def from_float(cls, mod):
        """torch's from_float: the weight observed by qconfig.weight and quantized with its
        parameters, the output's scale and zero point from the module's activation_post_process."""
        from .tensor import tensor
        from . import tensor as _t
        lin = mod[0] if isinstance(mod, _FusedModule) else mod
        wobs = mod.qconfig.weight()
        wobs(lin.weight)
        scale, zp = mod.activation_post_process.calculate_qparams()
        ws, wz = wobs.calculate_qparams()
        per_channel = int(wobs.qscheme) in (1, 3)
        with_bias = lin.bias is not None
        q = cls(lin.get_in_features(), lin.get_out_features(), with_bias,
                qscheme=per_channel_affine if per_channel else per_tensor_affine)
        if per_channel:
            qw = quantize_per_channel(lin.weight.detach(), tensor(np_f64(ws), dtype=_t.float64),
                                      tensor(np_i64(wz), dtype=_t.int64), 0, qint8)
        else:
            qw = quantize_per_tensor(lin.weight.detach(), ws.item(), int(wz.item()), qint8)
        q._packed_params.set_weight_bias(qw, lin.bias.detach() if with_bias else None)
        q.scale.fill_(scale.item())
        q.zero_point.fill_(int(zp.item()))
        return q


def np_f64(t):
    import numpy as np
    return np.asarray(t.numpy(), dtype=np.float64)


def np_i64(t):
    import numpy as np
    return np.asarray(t.numpy(), dtype=np.int64)


class QuantizedLinearReLU(QuantizedLinear):
    """torch.ao.nn.intrinsic.quantized.LinearReLU: QuantizedLinear with the output clamped at
    its zero point."""
    __gtype_name__ = 'GnnQuantizedLinearReLU'
    __module__ = 'gnn.ao.nn.intrinsic.quantized'
    do_forward = _forward_vfunc
    _relu = True


def _pair(v):
    return (int(v), int(v)) if isinstance(v, int) else tuple(int(a) for a in v)


def _conv_pair(conv, name, default):
    v = conv.get_property(name)
    if v is None:
        return (default, default)
    v = v.unpack()
    if isinstance(v, str):
        raise NotImplementedError('QuantizedConv2d: gnn supports numeric %s only, got %r' % (name, v))
    v = [int(a) for a in (v if isinstance(v, (list, tuple)) else [v])]
    return (v[0], v[0]) if len(v) == 1 else (v[0], v[1])


class QuantizedConv2d(_Module):
    """torch.ao.nn.quantized.Conv2d (printed QuantizedConv2d): quint8 in and out, a qint8
    weight, int32 accumulation (Gnn.quantized_conv2d). Saved as the buffers weight (int8),
    weight_scale, weight_zero_point, bias, scale and zero_point (torch saves the weight as one
    quantized tensor)."""
    __gtype_name__ = 'GnnQuantizedConv2d'
    __module__ = 'gnn.ao.nn.quantized'
    do_forward = _forward_vfunc
    _relu = False

    def __init__(self, in_channels=1, out_channels=1, kernel_size=1, stride=1, padding=0, dilation=1,
                 groups=1, bias=True, qscheme=per_tensor_affine, **kwargs):
        from . import tensor as _t
        import numpy as np
        from .tensor import tensor

        def zeros(*shape, dtype):
            return tensor(np.zeros(shape, np.float64), dtype=dtype)

        def ones(*shape, dtype):
            return tensor(np.ones(shape, np.float64), dtype=dtype)
        _Module.__init__(self, **kwargs)
        self._geometry = (int(in_channels), int(out_channels), _pair(kernel_size), _pair(stride),
                          _pair(padding), _pair(dilation), int(groups), bool(bias))
        if 'weight' not in dict(self.named_buffers()):
            k = _pair(kernel_size)
            pc = int(qscheme) in (1, 3)
            self.register_buffer('weight', zeros(int(out_channels), int(in_channels) // int(groups), k[0], k[1],
                                                 dtype=_t.int8))
            self.register_buffer('weight_scale', ones(*((int(out_channels),) if pc else ()), dtype=_t.float64))
            self.register_buffer('weight_zero_point', zeros(*((int(out_channels),) if pc else ()),
                                                            dtype=_t.int64))
            if bias:
                self.register_buffer('bias', zeros(int(out_channels), dtype=_t.float32))
            _scalar_buffer(self, 'scale', 1.0, _t.float32)
            _scalar_buffer(self, 'zero_point', 0, _t.int64)

    @raising_torch_errors
    def weight_(self):
        if len(self.weight_scale.shape) == 0:
            return Gnn.QuantizedTensor.new_per_tensor(self.weight, self.weight_scale.item(),
                                                      int(self.weight_zero_point.item()), Gnn.QDtype.QINT8)
        return Gnn.QuantizedTensor.new_per_channel(self.weight, self.weight_scale, self.weight_zero_point,
                                                   0, Gnn.QDtype.QINT8)

    @raising_torch_errors
    def forward(self, x):
        _, _, _, stride, padding, dilation, groups, bias = self._geometry
        return Gnn.quantized_conv2d(x, self.weight_(), self.bias if bias else None, list(stride),
                                    list(padding), list(dilation), groups, self.scale.item(),
                                    int(self.zero_point.item()), self._relu)

    def extra_repr(self):
        cin, cout, k, stride, padding, dilation, groups, bias = self._geometry
        s = '%d, %d, kernel_size=%r, stride=%r, scale=%r, zero_point=%d' % (
            cin, cout, k, stride, self.scale.item(), int(self.zero_point.item()))
        if padding != (0, 0):
            s += ', padding=%r' % (padding,)
        if dilation != (1, 1):
            s += ', dilation=%r' % (dilation,)
        if groups != 1:
            s += ', groups=%d' % groups
        if not bias:
            s += ', bias=False'
        return s

    @classmethod
    @raising_torch_errors
    def from_float(cls, mod):
        from .tensor import tensor
        from . import tensor as _t
        conv = mod[0] if isinstance(mod, _FusedModule) else mod
        if conv.get_property('padding-mode') not in (None, 'zeros'):
            raise NotImplementedError('QuantizedConv2d: gnn supports padding_mode zeros only')
        wobs = mod.qconfig.weight()
        wobs(conv.weight)
        scale, zp = mod.activation_post_process.calculate_qparams()
        ws, wz = wobs.calculate_qparams()
        pc = int(wobs.qscheme) in (1, 3)
        kh, kw = conv.weight.shape[2], conv.weight.shape[3]
        q = cls(conv.weight.shape[1] * conv.get_property('groups'), conv.weight.shape[0], (kh, kw),
                _conv_pair(conv, 'stride', 1), _conv_pair(conv, 'padding', 0),
                _conv_pair(conv, 'dilation', 1), conv.get_property('groups'), conv.bias is not None,
                qscheme=per_channel_affine if pc else per_tensor_affine)
        if pc:
            qw = quantize_per_channel(conv.weight.detach(), tensor(np_f64(ws), dtype=_t.float64),
                                      tensor(np_i64(wz), dtype=_t.int64), 0, qint8)
            q.weight_scale.copy_(tensor(np_f64(ws), dtype=_t.float64))
            q.weight_zero_point.copy_(tensor(np_i64(wz), dtype=_t.int64))
        else:
            qw = quantize_per_tensor(conv.weight.detach(), ws.item(), int(wz.item()), qint8)
            q.weight_scale.fill_(ws.item())
            q.weight_zero_point.fill_(int(wz.item()))
        q.weight.copy_(qw.int_repr())
        if conv.bias is not None:
            q.bias.copy_(conv.bias.detach())
        q.scale.fill_(scale.item())
        q.zero_point.fill_(int(zp.item()))
        return q


class QuantizedConvReLU2d(QuantizedConv2d):
    """torch.ao.nn.intrinsic.quantized.ConvReLU2d: QuantizedConv2d with the output clamped at
    its zero point."""
    __gtype_name__ = 'GnnQuantizedConvReLU2d'
    __module__ = 'gnn.ao.nn.intrinsic.quantized'
    do_forward = _forward_vfunc
    _relu = True


class _QuantizedIdentity(_Module):
    """What convert puts for an Identity (fuse_modules leaves them): passes a quantized tensor
    on, which gnn's C Identity (tensors only) does not; prints as Identity."""
    __gtype_name__ = 'gnn+ao+nn+quantized+Identity'
    __module__ = 'gnn.ao.nn.quantized'
    __qualname__ = __name__ = 'Identity'
    do_forward = _forward_vfunc

    def forward(self, x):
        return x


class _QuantizedReLU(_Module):
    """What convert puts for a ReLU: torch's nn.ReLU on a quantized tensor, max (q, zero_point)
    with the input's parameters; float input passes to the float ReLU. Prints as ReLU."""
    __gtype_name__ = 'gnn+ao+nn+quantized+ReLU'
    __module__ = 'gnn.ao.nn.quantized'
    do_forward = _forward_vfunc

    @raising_torch_errors
    def forward(self, x):
        if not isinstance(x, Gnn.QuantizedTensor):
            return x.relu()
        if int(x.get_qscheme()) != int(per_tensor_affine):
            raise NotImplementedError('ReLU of a per-channel quantized tensor is not supported by gnn')
        ints = x.int_repr()
        zp = x.q_zero_point()
        from . import tensor as _t
        clamped = ints.to(_t.int64).clamp(min=zp).to(ints.dtype)
        return Gnn.QuantizedTensor.new_per_tensor(clamped, x.q_scale(), zp, x.get_dtype())


class _QuantizedFlatten(_Module):
    """What convert puts for a Flatten: flattens a quantized tensor's integers (torch's Flatten
    takes quantized tensors as they are); prints as Flatten."""
    __gtype_name__ = 'gnn+ao+nn+quantized+Flatten'
    __module__ = 'gnn.ao.nn.quantized'
    do_forward = _forward_vfunc

    def __init__(self, start_dim=1, end_dim=-1, **kwargs):
        _Module.__init__(self, **kwargs)
        self._dims = (int(start_dim), int(end_dim))

    @raising_torch_errors
    def forward(self, x):
        if not isinstance(x, Gnn.QuantizedTensor):
            return x.flatten(*self._dims)
        if int(x.get_qscheme()) != int(per_tensor_affine):
            raise NotImplementedError('Flatten of a per-channel quantized tensor is not supported by gnn')
        ints = x.int_repr().flatten(*self._dims).contiguous()
        return Gnn.QuantizedTensor.new_per_tensor(ints, x.q_scale(), x.q_zero_point(), x.get_dtype())

    def extra_repr(self):
        return 'start_dim=%d, end_dim=%d' % self._dims


# converters that other parts add (qat.py: the QAT modules), asked first
_EXTRA_CONVERTERS = []


def _convert_one(mod):
    for converter in _EXTRA_CONVERTERS:
        new = converter(mod)
        if new is not None:
            return new
    name = type(mod).__name__
    if isinstance(mod, Gnn.Identity):
        return _QuantizedIdentity()
    if isinstance(mod, Gnn.Flatten):
        return _QuantizedFlatten(mod.get_property('start-dim'), mod.get_property('end-dim'))
    if type(mod) is Gnn.ReLU or name == 'ReLU' and isinstance(mod, Gnn.ReLU):
        return _QuantizedReLU()
    if name == 'QuantStub' and getattr(mod, 'qconfig', None) is not None and \
            'activation_post_process' in dict(mod.named_children()):
        scale, zp = mod.activation_post_process.calculate_qparams()
        return Quantize(scale.item(), int(zp.item()), mod.activation_post_process.dtype)
    if name == 'DeQuantStub':
        return DeQuantize()
    if name in ('Conv2d', 'ConvReLU2d') and 'activation_post_process' in dict(mod.named_children()):
        return (QuantizedConvReLU2d if name == 'ConvReLU2d' else QuantizedConv2d).from_float(mod)
    if name in ('Linear', 'LinearReLU') and 'activation_post_process' in dict(mod.named_children()):
        return (QuantizedLinearReLU if name == 'LinearReLU' else QuantizedLinear).from_float(mod)
    return None


@raising_torch_errors
def convert(module, mapping=None, inplace=False, remove_qconfig=True, is_reference=False,
            convert_custom_config_dict=None):
    """torch.ao.quantization.convert for what gnn quantizes statically: QuantStub -> Quantize,
    DeQuantStub -> DeQuantize, an observed Linear -> QuantizedLinear, LinearReLU ->
    QuantizedLinearReLU (Conv2d is not converted yet: NotImplementedError names it)."""
    if mapping is not None or is_reference or convert_custom_config_dict:
        raise TypeError('convert(): mapping, is_reference and convert_custom_config_dict are not '
                        'supported by gnn')
    out = module if inplace else Gnn.Module.copy(module)
    qconfigs = {path: getattr(m, 'qconfig', None) for path, m in module.named_modules()}
    for path, m in out.named_modules():
        m.qconfig = qconfigs.get(path)

    def swap(parent):
        for name, child in list(parent.named_children()):
            new = _convert_one(child)
            if new is None:
                swap(child)
            else:
                new.train(child.training)
                parent.set_submodule(name, new)
    swap(out)
    return out


__all__ += ['convert', 'Quantize', 'DeQuantize', 'QuantizedLinear', 'QuantizedLinearReLU',
            'QuantizedConv2d', 'QuantizedConvReLU2d']
