# torch.nn's lazy modules and uninitialised parameters, and the remaining torch.nn names
# (Container, NLLLoss2d, grid sampling, gumbel_softmax, the deprecated nn.init aliases, ...),
# in Python over the C layers and differentiable ops
#
# A lazy module (LazyLinear, LazyConv2d, LazyBatchNorm1d, ...) holds
# UninitializedParameter/UninitializedBuffer objects until its first forward (or a
# load_state_dict with real tensors) tells it the input size. It then builds the non-lazy C
# layer with that size, whose setup initialises the tensors exactly as that class does
# (reset_parameters), and makes its own parameter objects views of those tensors, registered
# in both modules: the objects an optimizer built before the first forward holds are the ones
# that train, as in torch, where materialize () changes the data under the same object. From
# then on its forward is the C layer's. A GObject cannot change its class, so the module stays
# a LazyXxx type (torch changes __class__ to the non-lazy class); its repr is the C layer's.
#
# SPDX-License-Identifier: LGPL-2.1-or-later
import math as _math
import warnings as _warnings

from gi.repository import GObject as _GObject

from .base import Gnn
from .module import Module as _Module, Parameter as _Parameter, _forward_vfunc, _is_constructed
from .tensor import Tensor as _Tensor

__all__ = []

_T = Gnn.Tensor


def _g():
    """The overridden module (its Python-level factories, layers and functional forms)."""
    from gi.repository import Gnn as overridden
    return overridden


def _export(obj):
    __all__.append(obj.__name__)
    return obj


# ---- uninitialised tensors ----------------------------------------------------------------

# what an uninitialised tensor still answers (torch's UninitializedTensorMixin._allowed_methods,
# and the GObject-level calls gnn's own modules, state dicts and optimizers make)
_ALLOWED = frozenset((
    'materialize', 'cls_to_become', 'size', 'copy_', 'is_floating_point', 'half', 'float',
    'double', 'char', 'short', 'int', 'long', 'cuda', 'cpu', 'to', 'get_device', 'dtype',
    'device', 'requires_grad', 'requires_grad_', 'grad', 'is_leaf', 'data', 'props', 'shape',
    'detach', 'dim', 'numel', 'ndim', 'set_data', 'connect', 'disconnect', 'emit',
))


def _raw_tensor_names():
    from gi.repository import GObject
    names = set(dir(GObject.Object))
    for klass in Gnn.Tensor.__mro__:
        if klass.__module__ == 'gi.repository.Gnn':
            names.update(n for n in dir(klass) if n.startswith(('get_', 'set_', 'is_', 'has_')))
    return frozenset(names)


_RAW_NAMES = None


class _UninitializedMixin:
    """What UninitializedParameter and UninitializedBuffer share (torch's
    UninitializedTensorMixin): materialize, and a ValueError for any other tensor use."""

    def __getattribute__(self, name):
        global _RAW_NAMES
        if name[:1] == '_' or name in _ALLOWED:
            return object.__getattribute__(self, name)
        if Gnn.Tensor.get_numel(self) > 0:
            # given data behind this wrapper's back (a module copy filled it): initialised
            object.__getattribute__(self, '_gnn_become')()
            return getattr(self, name)
        if _RAW_NAMES is None:
            _RAW_NAMES = _raw_tensor_names()
        value = object.__getattribute__(self, name)   # an AttributeError for what is not there
        if name in _RAW_NAMES:      # the GObject API gnn itself calls (get_shape, ...)
            return value
        raise ValueError(
            'Attempted to use an uninitialized parameter in %s. This error happens when you are '
            'using a `LazyModule` or explicitly manipulating `torch.nn.parameter.%s` objects. When '
            'using LazyModules Call `forward` with a dummy batch to initialize the parameters before '
            'calling torch functions' % (name, type(self).__name__))

    def materialize(self, shape, device=None, dtype=None):
        """Gives the tensor data of @shape (uninitialised values) on @device with @dtype (by
        default its own), and makes it the class it becomes (Parameter or Tensor)."""
        G = _g()
        if device is None:
            device = Gnn.Tensor.get_device(self)
        if dtype is None:
            dtype = Gnn.Tensor.get_dtype(self)
        data = G.empty(*[int(s) for s in shape], dtype=dtype, device=device)
        Gnn.Tensor.set_data(self, data)
        self._gnn_become()

    def _gnn_become(self):
        self.__class__ = self.cls_to_become
        self.__dict__.pop('_gnn_uninitialized', None)

    @property
    def shape(self):
        raise RuntimeError(
            "Can't access the shape of an uninitialized parameter or buffer. This error usually "
            "happens in `load_state_dict` when trying to load an uninitialized parameter into an "
            "initialized one. Call `forward` to initialize the parameters before accessing their "
            "attributes.")

    def share_memory_(self):
        raise RuntimeError("Can't share memory on an uninitialized parameter or buffer. Call "
                           "`forward` to initialize the parameters before calling "
                           "`module.share_memory()`.")

    def __repr__(self):
        return '<%s>' % type(self).__name__

    __str__ = __repr__

    def __deepcopy__(self, memo):
        if id(self) in memo:
            return memo[id(self)]
        result = type(self)(Gnn.Tensor.get_requires_grad(self), Gnn.Tensor.get_device(self),
                            Gnn.Tensor.get_dtype(self))
        memo[id(self)] = result
        return result


def _uninitialized(cls, data, tensor):
    tensor.__class__ = cls
    # an entry in the wrapper's dict keeps this Python wrapper (and so its class) for as long
    # as the GObject lives, whoever returns it from C
    tensor.__dict__['_gnn_uninitialized'] = True
    return tensor


@_export
class UninitializedParameter(_UninitializedMixin, _Parameter):
    """torch.nn.UninitializedParameter(requires_grad=True, device=None, dtype=None): a
    parameter whose shape is not known yet (an empty tensor until materialize)."""

    cls_to_become = _Parameter

    def __new__(cls, requires_grad=True, device=None, dtype=None):
        data = _g().empty(0, dtype=dtype, device=device)
        return _uninitialized(cls, data, Gnn.Parameter.new(data, bool(requires_grad)))

    def __init__(self, requires_grad=True, device=None, dtype=None):
        pass


@_export
class UninitializedBuffer(_UninitializedMixin, _Tensor):
    """torch.nn.UninitializedBuffer(requires_grad=False, device=None, dtype=None): a buffer
    whose shape is not known yet."""

    cls_to_become = _Tensor

    def __new__(cls, requires_grad=False, device=None, dtype=None):
        data = _g().empty(0, dtype=dtype, device=device)
        if requires_grad:
            data.requires_grad_(True)
        return _uninitialized(cls, data, data)

    def __init__(self, requires_grad=False, device=None, dtype=None):
        pass


def is_lazy(tensor):
    """torch.nn.parameter.is_lazy: whether @tensor is an uninitialised parameter or buffer."""
    return isinstance(tensor, _UninitializedMixin)


def _unfilled(tensor):
    """An uninitialised tensor, or the empty one a JSON rebuild of an uninitialised lazy module
    gives in its place."""
    return tensor is not None and (is_lazy(tensor) or Gnn.Tensor.get_numel(tensor) == 0)


__all__.append('is_lazy')


# ---- lazy modules ---------------------------------------------------------------------------

def _lazy_load_pre_hook(module, state, prefix, strict, *_user_data):
    """Before a load, an uninitialised module given real tensors builds its layer from their
    shapes, so that the load copies into tensors of the right shapes (torch's _lazy_load_hook)."""
    if module.__dict__.get('_gnn_inner') is not None:
        return
    keys = set(Gnn.StateDict.get_keys(state) or [])
    for name in module._gnn_tensor_names:
        key = (prefix or '') + name
        if key not in keys:
            continue
        value = Gnn.StateDict.get_tensor(state, key)
        if value is None or Gnn.Tensor.get_numel(value) == 0:
            continue          # an uninitialised entry: the module stays uninitialised
        features = module._gnn_features_from(name, list(Gnn.Tensor.get_shape(value)))
        if features is not None:
            module._gnn_build(features)
            return


def _lazy_state_dict_post_hook(module, state, prefix, *_user_data):
    """The state dict of an uninitialised module holds its UninitializedParameter objects."""
    if module.__dict__.get('_gnn_inner') is not None:
        return
    for name in module._gnn_tensor_names:
        t = module._gnn_slot(name)
        if is_lazy(t) and Gnn.StateDict.contains(state, (prefix or '') + name):
            Gnn.StateDict.set_tensor(state, (prefix or '') + name, t)


class _LazyModule(_Module):
    """torch.nn.modules.lazy.LazyModuleMixin over a C layer (see the top of this file)."""

    __gtype_name__ = 'gi+overrides+_gnn+layers_extra+LazyModule'
    __module__ = 'gnn.nn'
    do_forward = _forward_vfunc

    _gnn_params = ('weight', 'bias')
    _gnn_buffers = ()
    # the constructor's arguments as JSON: a saved property, so that a module tree rebuilt from
    # its JSON description (whose Python __init__ does not run) has them again
    lazy_config = _GObject.Property(type=str, default='', nick='lazy-config',
                                    blurb="the lazy module's constructor arguments, as JSON")

    def _gnn_lazy_weight_bias(self, bias, device, dtype):
        # an uninitialized weight and bias (or no bias), then _gnn_lazy_init
        self.weight = UninitializedParameter(device=device, dtype=dtype)
        if bias:
            self.bias = UninitializedParameter(device=device, dtype=dtype)
        else:
            self.register_parameter('bias', None)
        self._gnn_lazy_init()

    def _gnn_lazy_init(self):
        self._gnn_save_config()
        self.__dict__['_gnn_inner'] = None
        Gnn.Module.register_load_state_dict_pre_hook(self, _lazy_load_pre_hook)
        Gnn.Module.register_state_dict_post_hook(self, _lazy_state_dict_post_hook)
        _warnings.warn('Lazy modules are a new feature under heavy development so changes to the '
                       'API or functionality can happen at any moment.')

    def __getattr__(self, name):
        if not name.startswith('_') and '_gnn_config' not in self.__dict__ and self._gnn_restore_config():
            return getattr(self, name)
        value = _Module.__getattr__(self, name)
        if is_lazy(value) and Gnn.Tensor.get_numel(value) > 0:
            value._gnn_become()      # filled by a module copy
        return value

    def _gnn_save_config(self):
        import json
        config = {k: v for k, v in self.__dict__.items() if not k.startswith('_')}
        self.props.lazy_config = json.dumps(config)

    def _gnn_restore_config(self):
        """The constructor's arguments again, from the saved property (a rebuilt module)."""
        import json
        self.__dict__['_gnn_config'] = True
        try:
            text = self.props.lazy_config
        except Exception:
            return False
        if not text:
            return False
        for key, value in json.loads(text).items():
            self.__dict__.setdefault(key, tuple(value) if isinstance(value, list) else value)
        return True

    @property
    def _gnn_tensor_names(self):
        return self._gnn_params + self._gnn_buffers

    def _gnn_slot(self, name):
        for getter in (Gnn.Module.get_parameter, Gnn.Module.get_buffer):
            try:
                t = getter(self, name)
            except Exception:
                continue
            if is_lazy(t) and Gnn.Tensor.get_numel(t) > 0:
                t._gnn_become()      # filled by a module copy
            return t
        return None

    def has_uninitialized_params(self):
        """Whether a parameter or buffer of this module is still uninitialised."""
        return any(_unfilled(self._gnn_slot(n)) for n in self._gnn_tensor_names)

    def initialize_parameters(self, input, *args, **kwargs):
        """Infers the sizes from @input and initialises the parameters as the non-lazy class
        does; nothing happens once they are initialised."""
        if self.__dict__.get('_gnn_inner') is None:
            self._gnn_build(self._gnn_features_of(input))

    def _gnn_dtype_device(self):
        for name in self._gnn_tensor_names:
            t = self._gnn_slot(name)
            if t is not None and t.is_floating_point():
                return Gnn.Tensor.get_dtype(t), Gnn.Tensor.get_device(t)
        return None, None

    def _gnn_build(self, features):
        """Builds the C layer for @features inputs and links its tensors to this module's."""
        dtype, device = self._gnn_dtype_device()
        self._gnn_set_features(features)
        self._gnn_save_config()
        inner = self._gnn_make(features, dtype)
        if device is not None and device != 'cpu':
            inner.to(device)
        for name in self._gnn_params:
            own = self._gnn_slot(name)
            if _unfilled(own):
                Gnn.Tensor.set_data(own, Gnn.Module.get_parameter(inner, name))
                if is_lazy(own):
                    own._gnn_become()
        for name in self._gnn_buffers + ('num_batches_tracked',):
            own = self._gnn_slot(name)
            theirs = self._inner_buffer(inner, name)
            if theirs is not None and _unfilled(own):
                Gnn.Tensor.set_data(own, theirs)
                if is_lazy(own):
                    own._gnn_become()
        self.__dict__['_gnn_inner'] = inner
        self._gnn_link()

    def _gnn_link(self):
        """Registers this module's tensors in the C layer, in place of its own (again after a
        copy, whose layer is a copy with tensors of its own)."""
        inner = self.__dict__['_gnn_inner']
        for name in self._gnn_params:
            own = self._gnn_slot(name)
            if own is not None:
                Gnn.Module.register_parameter(inner, name, own)
        for name in self._gnn_buffers + ('num_batches_tracked',):
            own = self._gnn_slot(name)
            if own is not None and self._inner_buffer(inner, name) is not None:
                Gnn.Module.register_buffer(inner, name, own, True)

    @staticmethod
    def _inner_buffer(inner, name):
        try:
            return Gnn.Module.get_buffer(inner, name)
        except Exception:
            return None

    def forward(self, input, *args, **kwargs):
        if '_gnn_config' not in self.__dict__:
            self._gnn_restore_config()
        if self.__dict__.get('_gnn_inner') is None:
            self.initialize_parameters(input)
        inner = self.__dict__['_gnn_inner']
        self._gnn_link()
        if inner.get_training() != self.get_training():
            Gnn.Module.set_training(inner, self.get_training())
        return inner(input, *args, **kwargs)

    def extra_repr(self):
        inner = self.__dict__.get('_gnn_inner')
        if inner is not None:
            return Gnn.Module.extra_repr(inner)
        if '_gnn_config' not in self.__dict__:
            self._gnn_restore_config()
        return self._gnn_lazy_repr()

    def __repr__(self):
        inner = self.__dict__.get('_gnn_inner')
        if inner is not None:     # torch's module is the non-lazy class by now
            return Gnn.Module.to_string(inner)
        return Gnn.Module.to_string(self)

    __str__ = __repr__

    @property
    def cls_to_become(self):
        """The non-lazy class this module behaves as once initialised."""
        return getattr(_g(), type(self).__name__[len('Lazy'):])


def _ntuple(value, n):
    if isinstance(value, str):
        return value
    if isinstance(value, (tuple, list)):
        return tuple(value)
    return (value,) * n


# ---- LazyLinear

@_export
class LazyLinear(_LazyModule):
    """torch.nn.LazyLinear(out_features, bias=True, device=None, dtype=None): a Linear whose
    in_features is the last size of its first input."""

    __gtype_name__ = 'gi+overrides+_gnn+layers_extra+LazyLinear'
    __module__ = 'gnn.nn'

    def __init__(self, out_features, bias=True, device=None, dtype=None):
        super().__init__()
        self.__dict__['in_features'] = 0
        self.__dict__['out_features'] = int(out_features)
        self._gnn_lazy_weight_bias(bias, device, dtype)

    def _gnn_features_of(self, input):
        if input.dim() == 0:
            raise RuntimeError('LazyLinear: expected an input with at least 1 dimension, got a scalar')
        return int(input.shape[-1])

    def _gnn_features_from(self, name, shape):
        return shape[1] if name == 'weight' and len(shape) == 2 else None

    def _gnn_set_features(self, n):
        self.__dict__['in_features'] = n

    def _gnn_make(self, n, dtype):
        return _g().Linear(n, self.out_features, self._gnn_slot('bias') is not None, dtype=dtype)

    def _gnn_lazy_repr(self):
        return 'in_features=%d, out_features=%d, bias=%s' % (
            self.in_features, self.out_features, self._gnn_slot('bias') is not None)


# ---- LazyConv*, LazyConvTranspose*

class _LazyConv(_LazyModule):
    __gtype_name__ = 'gi+overrides+_gnn+layers_extra+LazyConv'
    __module__ = 'gnn.nn'
    _dims = 2
    _transposed = False

    def _gnn_conv_init(self, out_channels, kernel_size, stride, padding, dilation, groups, bias,
                       padding_mode, output_padding, device, dtype):
        super().__init__()
        n = self._dims
        if groups <= 0:
            raise ValueError('groups must be a positive integer')
        if out_channels % groups != 0:
            raise ValueError('out_channels must be divisible by groups')
        valid = {'zeros', 'reflect', 'replicate', 'circular'}
        if padding_mode not in valid:
            raise ValueError("padding_mode must be one of {}, but got padding_mode='{}'"
                             .format(valid, padding_mode))
        d = self.__dict__
        d['in_channels'] = 0
        d['out_channels'] = int(out_channels)
        d['kernel_size'] = _ntuple(kernel_size, n)
        d['stride'] = _ntuple(stride, n)
        d['padding'] = _ntuple(padding, n)
        d['dilation'] = _ntuple(dilation, n)
        d['output_padding'] = _ntuple(output_padding, n)
        d['groups'] = int(groups)
        d['padding_mode'] = padding_mode
        d['transposed'] = self._transposed
        self._gnn_lazy_weight_bias(bias, device, dtype)

    def _gnn_features_of(self, input):
        n = self._dims
        if input.dim() not in (n + 1, n + 2):
            raise RuntimeError('Expected {}D (unbatched) or {}D (batched) input to {}, but got input '
                               'of size: {}'.format(n + 1, n + 2, type(self).__name__,
                                                    list(input.shape)))
        return int(input.shape[1] if input.dim() == n + 2 else input.shape[0])

    def _gnn_features_from(self, name, shape):
        if name != 'weight' or len(shape) != self._dims + 2:
            return None
        return shape[0] if self._transposed else shape[1] * self.groups

    def _gnn_set_features(self, n):
        self.__dict__['in_channels'] = n

    def _gnn_make(self, n, dtype):
        G = _g()
        cls = getattr(G, type(self).__name__[len('Lazy'):])
        bias = self._gnn_slot('bias') is not None
        padding = self.padding if isinstance(self.padding, str) else list(self.padding)
        if self._transposed:
            return cls(n, self.out_channels, list(self.kernel_size), list(self.stride), padding,
                       list(self.output_padding), self.groups, bias, list(self.dilation),
                       self.padding_mode, dtype=dtype)
        return cls(n, self.out_channels, list(self.kernel_size), list(self.stride), padding,
                   list(self.dilation), self.groups, bias, self.padding_mode, dtype=dtype)

    def _gnn_lazy_repr(self):
        # torch's _ConvNd.extra_repr
        n = self._dims
        s = '{}, {}, kernel_size={}, stride={}'.format(self.in_channels, self.out_channels,
                                                      self.kernel_size, self.stride)
        if self.padding != (0,) * (len(self.padding) if not isinstance(self.padding, str) else 4):
            s += ', padding={}'.format(self.padding)
        if self.dilation != (1,) * n:
            s += ', dilation={}'.format(self.dilation)
        if self.output_padding != (0,) * n:
            s += ', output_padding={}'.format(self.output_padding)
        if self.groups != 1:
            s += ', groups={}'.format(self.groups)
        if self._gnn_slot('bias') is None:
            s += ', bias=False'
        if self.padding_mode != 'zeros':
            s += ', padding_mode={}'.format(self.padding_mode)
        return s


def _lazy_conv_class(name, dims):
    def __init__(self, out_channels, kernel_size, stride=1, padding=0, dilation=1, groups=1,
                 bias=True, padding_mode='zeros', device=None, dtype=None):
        self._gnn_conv_init(out_channels, kernel_size, stride, padding, dilation, groups, bias,
                            padding_mode, 0, device, dtype)
    __init__.__doc__ = None
    doc = ('torch.nn.%s(out_channels, kernel_size, stride=1, padding=0, dilation=1, groups=1, '
           'bias=True, padding_mode=\'zeros\', device=None, dtype=None): a %s whose in_channels '
           'is the channel count of its first input.' % (name, name[4:]))
    return _lazy_class(name, _LazyConv, {'_dims': dims, '__init__': __init__, '__doc__': doc})


def _lazy_conv_transpose_class(name, dims):
    def __init__(self, out_channels, kernel_size, stride=1, padding=0, output_padding=0, groups=1,
                 bias=True, dilation=1, padding_mode='zeros', device=None, dtype=None):
        self._gnn_conv_init(out_channels, kernel_size, stride, padding, dilation, groups, bias,
                            padding_mode, output_padding, device, dtype)
    doc = ('torch.nn.%s(out_channels, kernel_size, stride=1, padding=0, output_padding=0, '
           'groups=1, bias=True, dilation=1, padding_mode=\'zeros\', device=None, dtype=None): a '
           '%s whose in_channels is the channel count of its first input.' % (name, name[4:]))
    return _lazy_class(name, _LazyConv, {'_dims': dims, '_transposed': True, '__init__': __init__,
                                         '__doc__': doc})


def _lazy_class(name, base, body):
    body = dict(body, __gtype_name__='gi+overrides+_gnn+layers_extra+' + name, __module__='gnn.nn')
    cls = type(name, (base,), body)
    cls.__qualname__ = name
    globals()[name] = cls
    __all__.append(name)
    return cls


for _n in (1, 2, 3):
    _lazy_conv_class('LazyConv%dd' % _n, _n)
    _lazy_conv_transpose_class('LazyConvTranspose%dd' % _n, _n)


# ---- LazyBatchNorm*, LazyInstanceNorm*

class _LazyNorm(_LazyModule):
    __gtype_name__ = 'gi+overrides+_gnn+layers_extra+LazyNorm'
    __module__ = 'gnn.nn'
    _gnn_buffers = ('running_mean', 'running_var')

    def _gnn_norm_init(self, eps, momentum, affine, track_running_stats, device, dtype):
        if _is_constructed(self):
            # C made it (a JSON rebuild, a copy): the tensors come from the tree or the copied
            # module, the arguments from the saved property (read when first asked for)
            super().__init__()
            self.__dict__['_gnn_inner'] = None
            return
        super().__init__()
        d = self.__dict__
        d['num_features'] = 0
        d['eps'] = eps
        d['momentum'] = momentum
        d['affine'] = bool(affine)
        d['track_running_stats'] = bool(track_running_stats)
        if affine:
            self.weight = UninitializedParameter(device=device, dtype=dtype)
            self.bias = UninitializedParameter(device=device, dtype=dtype)
        else:
            self.register_parameter('weight', None)
            self.register_parameter('bias', None)
        if track_running_stats:
            self.register_buffer('running_mean', UninitializedBuffer(device=device, dtype=dtype))
            self.register_buffer('running_var', UninitializedBuffer(device=device, dtype=dtype))
            self.register_buffer('num_batches_tracked', _g().tensor(0, dtype=_g().int64,
                                                                    device=device))
        else:
            self.register_buffer('running_mean', None)
            self.register_buffer('running_var', None)
            self.register_buffer('num_batches_tracked', None)
        self._gnn_lazy_init()

    def _gnn_features_of(self, input):
        if input.dim() < 2:
            raise ValueError('%s: expected an input with at least 2 dimensions (N, C, ...), got '
                             'shape %s' % (type(self).__name__, list(input.shape)))
        return int(input.shape[1])

    def _gnn_features_from(self, name, shape):
        return shape[0] if len(shape) == 1 else None

    def _gnn_set_features(self, n):
        self.__dict__['num_features'] = n

    def _gnn_make(self, n, dtype):
        cls = getattr(_g(), type(self).__name__[len('Lazy'):])
        return cls(n, self.eps, self.momentum, self.affine, self.track_running_stats, dtype=dtype)

    def _gnn_lazy_repr(self):
        return ('{num_features}, eps={eps}, momentum={momentum}, affine={affine}, '
                'track_running_stats={track_running_stats}'.format(**self.__dict__))


def _lazy_norm_class(name, affine, track):
    def __init__(self, eps=1e-05, momentum=0.1, affine=affine, track_running_stats=track,
                 device=None, dtype=None):
        self._gnn_norm_init(eps, momentum, affine, track_running_stats, device, dtype)
    doc = ('torch.nn.%s(eps=1e-05, momentum=0.1, affine=%s, track_running_stats=%s, device=None, '
           'dtype=None): a %s whose num_features is the channel count (dim 1) of its first input.'
           % (name, affine, track, name[4:]))
    return _lazy_class(name, _LazyNorm, {'__init__': __init__, '__doc__': doc})


for _n in (1, 2, 3):
    _lazy_norm_class('LazyBatchNorm%dd' % _n, True, True)
    _lazy_norm_class('LazyInstanceNorm%dd' % _n, True, True)     # torch 1.13's defaults
del _n


# ---- affine_grid, grid_sample ------------------------------------------------------------
# Composed of differentiable ops: the sampled values are gathered from the flattened input
# (gather's backward scatters the input gradient), and the interpolation weights are
# differences of the (differentiable) source coordinates and their floors, so the gradient
# reaches both input and grid as in torch's kernels.

def _linspace_from_neg_one(theta, steps, align_corners):
    G = _g()
    if steps <= 1:
        return G.zeros(1, dtype=theta.dtype)
    r = G.linspace(-1.0, 1.0, steps, dtype=theta.dtype)
    if not align_corners:
        r = r * ((steps - 1) / steps)
    return r


def functional_affine_grid(theta, size, align_corners=None):
    """torch.nn.functional.affine_grid(theta, size, align_corners=None): the sampling grid
    (N, H, W, 2) or (N, D, H, W, 3) of the affine maps @theta (N, 2, 3) or (N, 3, 4) over the
    normalised output coordinates of @size."""
    G = _g()
    if align_corners is None:
        _warnings.warn('Default grid_sample and affine_grid behavior has changed to '
                       'align_corners=False since 1.3.0. Please specify align_corners=True if the '
                       'old behavior is desired. See the documentation of grid_sample for details.')
        align_corners = False
    if not isinstance(theta, Gnn.Tensor):
        raise TypeError('affine_grid(): theta must be a Tensor, not %s' % type(theta).__name__)
    if not theta.is_floating_point():
        raise ValueError('Expected theta to have floating point type, but got %s' % theta.dtype)
    size = [int(s) for s in size]
    if len(size) == 4:
        if theta.dim() != 3 or tuple(theta.shape[-2:]) != (2, 3):
            raise ValueError('Expected a batch of 2D affine matrices of shape Nx2x3 for size %s. '
                             'Got %s.' % (G.Size(size), G.Size(list(theta.shape))))
        spatial = size[-2:]
    elif len(size) == 5:
        if theta.dim() != 3 or tuple(theta.shape[-2:]) != (3, 4):
            raise ValueError('Expected a batch of 3D affine matrices of shape Nx3x4 for size %s. '
                             'Got %s.' % (G.Size(size), G.Size(list(theta.shape))))
        spatial = size[-3:]
    else:
        raise NotImplementedError('affine_grid only supports 4D and 5D sizes, for 2D and 3D affine '
                                  'transforms, respectively. Got size %s.' % (G.Size(size),))
    if min(size) <= 0:
        raise ValueError('Expected non-zero, positive output size. Got %s' % (G.Size(size),))
    if int(theta.shape[0]) != size[0]:
        raise ValueError('affine_grid: expected theta with batch size %d (size[0]), got %d'
                         % (size[0], int(theta.shape[0])))
    n = size[0]
    axes = [_linspace_from_neg_one(theta, s, align_corners) for s in reversed(spatial)]  # x, y[, z]
    out_shape = list(spatial)
    k = len(spatial)
    columns = []
    for i, ax in enumerate(axes):
        view = [1] * k
        view[k - 1 - i] = int(ax.shape[0])
        columns.append(ax.reshape(view).expand(*out_shape))
    columns.append(G.ones(*out_shape, dtype=theta.dtype))
    base = G.stack(columns, -1).reshape(1, -1, k + 1).expand(n, -1, k + 1)
    grid = G.bmm(base, theta.transpose(1, 2))
    return grid.reshape(n, *out_shape, k)


def _unnormalize(coord, size, align_corners):
    if align_corners:
        return (coord + 1) * ((size - 1) / 2)
    return ((coord + 1) * size - 1) / 2


def _reflect(coord, twice_low, twice_high):
    if twice_low == twice_high:
        return coord * 0
    low = twice_low / 2
    span = (twice_high - twice_low) / 2
    c = (coord - low).abs()
    flips = (c.detach() / span).floor()
    extra = c - flips * span
    even = (flips - (flips / 2).floor() * 2) == 0
    return _g().where(even, extra + low, (extra * -1) + (span + low))


def _pad_coordinates(coord, size, padding_mode, align_corners):
    if padding_mode == 'border':
        return coord.clamp(0, size - 1)
    if padding_mode == 'reflection':
        if align_corners:
            coord = _reflect(coord, 0, 2 * (size - 1))
        else:
            coord = _reflect(coord, -1, 2 * size - 1)
        return coord.clamp(0, size - 1)
    return coord


class _Gatherer:
    """Values of input (N, C, H, W) at integer-valued coordinates (N, Ho, Wo), 0 outside."""

    def __init__(self, input, out_hw):
        self.n, self.c, self.h, self.w = [int(s) for s in input.shape]
        self.flat = input.reshape(self.n, self.c, self.h * self.w)
        self.out_hw = out_hw

    def __call__(self, iy, ix):
        n, c, h, w = self.n, self.c, self.h, self.w
        inside = (ix >= 0).logical_and(ix <= w - 1).logical_and(iy >= 0).logical_and(iy <= h - 1)
        index = (iy.clamp(0, h - 1) * w + ix.clamp(0, w - 1)).long()
        index = index.reshape(n, 1, -1).expand(n, c, index.numel() // n)
        values = self.flat.gather(2, index).reshape(n, c, *self.out_hw)
        return values * inside.to(values.dtype).unsqueeze(1)


def _cubic1(x, a):
    return ((x * (a + 2) - (a + 3)) * x * x) + 1


def _cubic2(x, a):
    return ((x * a - 5 * a) * x + 8 * a) * x - 4 * a


def functional_grid_sample(input, grid, mode='bilinear', padding_mode='zeros', align_corners=None):
    """torch.nn.functional.grid_sample(input, grid, mode='bilinear', padding_mode='zeros',
    align_corners=None): 4-D input (N, C, H, W) sampled at the normalised (x, y) points of grid
    (N, Ho, Wo, 2), or 5-D input (N, C, D, H, W) at the (x, y, z) points of grid
    (N, Do, Ho, Wo, 3) (bilinear is then trilinear; bicubic is 4-D only, as in torch),
    differentiable in input and grid."""
    if mode not in ('bilinear', 'nearest', 'bicubic'):
        raise ValueError("nn.functional.grid_sample(): expected mode to be 'bilinear', 'nearest' or "
                         "'bicubic', but got: '%s'" % mode)
    if padding_mode not in ('zeros', 'border', 'reflection'):
        raise ValueError("nn.functional.grid_sample(): expected padding_mode to be 'zeros', 'border', "
                         "or 'reflection', but got: '%s'" % padding_mode)
    if align_corners is None:
        _warnings.warn('Default grid_sample and affine_grid behavior has changed to '
                       'align_corners=False since 1.3.0. Please specify align_corners=True if the '
                       'old behavior is desired. See the documentation of grid_sample for details.')
        align_corners = False
    for what, t in (('input', input), ('grid', grid)):
        if not isinstance(t, Gnn.Tensor):
            raise TypeError('grid_sample(): %s must be a Tensor, not %s' % (what, type(t).__name__))
    nd = input.dim()
    if nd not in (4, 5) or grid.dim() != nd:
        raise RuntimeError('grid_sampler(): expected 4D or 5D input and grid with same number of '
                           'dimensions, but got input with sizes %s and grid with sizes %s'
                           % (list(input.shape), list(grid.shape)))
    if int(grid.shape[-1]) != nd - 2:
        raise RuntimeError('grid_sampler(): expected grid to have size %d in last dimension, but got '
                           'grid with sizes %s' % (nd - 2, list(grid.shape)))
    if int(grid.shape[0]) != int(input.shape[0]):
        raise RuntimeError('grid_sampler(): expected grid and input to have same batch size, but got '
                           'input with sizes %s and grid with sizes %s' % (list(input.shape),
                                                                           list(grid.shape)))
    if input.dtype != grid.dtype:
        raise RuntimeError('grid_sampler(): expected input and grid to have same dtype, but input has '
                           '%s and grid has %s' % (input.dtype, grid.dtype))
    if not input.is_floating_point():
        raise RuntimeError('grid_sampler(): expected floating-point input, got %s' % input.dtype)
    if mode == 'bicubic' and input.dim() != 4:
        raise ValueError('Bicubic interpolation only supports 4D input')
    if min(int(v) for v in input.shape[2:]) <= 0:
        raise RuntimeError('grid_sampler(): expected input to have non-empty spatial dimensions, but '
                           'input has sizes %s' % list(input.shape))
    if nd == 5:
        return _grid_sample_3d(input, grid, mode, padding_mode, align_corners)
    h, w = int(input.shape[2]), int(input.shape[3])
    out_hw = [int(grid.shape[1]), int(grid.shape[2])]
    sample = _Gatherer(input, out_hw)
    gx, gy = grid.select(3, 0), grid.select(3, 1)

    if mode == 'bicubic':
        ix = _unnormalize(gx, w, align_corners)
        iy = _unnormalize(gy, h, align_corners)
        x0 = ix.detach().floor()
        y0 = iy.detach().floor()
        tx, ty = ix - x0, iy - y0
        a = -0.75
        cx = [_cubic2(tx + 1, a), _cubic1(tx, a), _cubic1((tx * -1) + 1, a), _cubic2((tx * -1) + 2, a)]
        cy = [_cubic2(ty + 1, a), _cubic1(ty, a), _cubic1((ty * -1) + 1, a), _cubic2((ty * -1) + 2, a)]
        out = None
        for j in range(4):
            yj = _pad_coordinates(y0 + (j - 1), h, padding_mode, align_corners).floor()
            row = None
            for i in range(4):
                xi = _pad_coordinates(x0 + (i - 1), w, padding_mode, align_corners).floor()
                term = sample(yj, xi) * cx[i].unsqueeze(1)
                row = term if row is None else row + term
            term = row * cy[j].unsqueeze(1)
            out = term if out is None else out + term
        return out

    ix = _pad_coordinates(_unnormalize(gx, w, align_corners), w, padding_mode, align_corners)
    iy = _pad_coordinates(_unnormalize(gy, h, align_corners), h, padding_mode, align_corners)
    if mode == 'nearest':
        out = sample(iy.detach().round(), ix.detach().round())
        # the grid gets torch's zero gradient
        return out + (grid * 0).sum() if grid.requires_grad else out
    x0 = ix.detach().floor()
    y0 = iy.detach().floor()
    x1, y1 = x0 + 1, y0 + 1
    wx1, wy1 = ix - x0, iy - y0
    wx0, wy0 = (wx1 * -1) + 1, (wy1 * -1) + 1
    out = sample(y0, x0) * (wx0 * wy0).unsqueeze(1)
    out = out + sample(y0, x1) * (wx1 * wy0).unsqueeze(1)
    out = out + sample(y1, x0) * (wx0 * wy1).unsqueeze(1)
    out = out + sample(y1, x1) * (wx1 * wy1).unsqueeze(1)
    return out


class _Gatherer3d:
    """Values of input (N, C, D, H, W) at integer-valued coordinates (N, Do, Ho, Wo), 0 outside."""

    def __init__(self, input, out_dhw):
        self.n, self.c, self.d, self.h, self.w = [int(s) for s in input.shape]
        self.flat = input.reshape(self.n, self.c, self.d * self.h * self.w)
        self.out_dhw = out_dhw

    def __call__(self, iz, iy, ix):
        n, c, d, h, w = self.n, self.c, self.d, self.h, self.w
        inside = ((ix >= 0).logical_and(ix <= w - 1).logical_and(iy >= 0).logical_and(iy <= h - 1)
                  .logical_and(iz >= 0).logical_and(iz <= d - 1))
        index = ((iz.clamp(0, d - 1) * h + iy.clamp(0, h - 1)) * w + ix.clamp(0, w - 1)).long()
        index = index.reshape(n, 1, -1).expand(n, c, index.numel() // n)
        values = self.flat.gather(2, index).reshape(n, c, *self.out_dhw)
        return values * inside.to(values.dtype).unsqueeze(1)


def _grid_sample_3d(input, grid, mode, padding_mode, align_corners):
    """grid_sample of 5-D input (N, C, D, H, W) at grid (N, Do, Ho, Wo, 3) points (x, y, z):
    trilinear ('bilinear') or nearest, as torch's 3-d kernel."""
    d, h, w = [int(s) for s in input.shape[2:]]
    sample = _Gatherer3d(input, [int(s) for s in grid.shape[1:4]])
    ix = _pad_coordinates(_unnormalize(grid.select(4, 0), w, align_corners), w, padding_mode, align_corners)
    iy = _pad_coordinates(_unnormalize(grid.select(4, 1), h, align_corners), h, padding_mode, align_corners)
    iz = _pad_coordinates(_unnormalize(grid.select(4, 2), d, align_corners), d, padding_mode, align_corners)
    if mode == 'nearest':
        out = sample(iz.detach().round(), iy.detach().round(), ix.detach().round())
        return out + (grid * 0).sum() if grid.requires_grad else out
    x0, y0, z0 = ix.detach().floor(), iy.detach().floor(), iz.detach().floor()
    wx1, wy1, wz1 = ix - x0, iy - y0, iz - z0
    wx0, wy0, wz0 = (wx1 * -1) + 1, (wy1 * -1) + 1, (wz1 * -1) + 1
    out = None
    for zc, wz in ((z0, wz0), (z0 + 1, wz1)):
        for yc, wy in ((y0, wy0), (y0 + 1, wy1)):
            for xc, wx in ((x0, wx0), (x0 + 1, wx1)):
                term = sample(zc, yc, xc) * (wx * wy * wz).unsqueeze(1)
                out = term if out is None else out + term
    return out


def functional_gumbel_softmax(logits, tau=1, hard=False, eps=1e-10, dim=-1):
    """torch.nn.functional.gumbel_softmax(logits, tau=1, hard=False, eps=1e-10, dim=-1):
    softmax((logits + g) / tau) for Gumbel(0, 1) noise g drawn from gnn's generator; with
    hard, the one-hot of its argmax in the forward and the soft sample's gradient."""
    G = _g()
    if eps != 1e-10:
        _warnings.warn('`eps` parameter is deprecated and has no effect.')
    if not isinstance(logits, Gnn.Tensor):
        raise TypeError('gumbel_softmax(): logits must be a Tensor, not %s' % type(logits).__name__)
    if not logits.is_floating_point():
        raise RuntimeError('gumbel_softmax(): expected floating-point logits, got %s' % logits.dtype)
    with G.no_grad():
        gumbels = G.empty_like(logits).exponential_().log() * -1
    y_soft = ((logits + gumbels) / tau).softmax(dim)
    if not hard:
        return y_soft
    index = y_soft.detach().argmax(dim, keepdim=True)
    y_hard = G.zeros_like(logits).scatter(dim, index, 1.0)
    return y_hard - y_soft.detach() + y_soft


__all__ += ['functional_affine_grid', 'functional_grid_sample', 'functional_gumbel_softmax']


# ---- fractional max pooling, 3-d unpooling ------------------------------------------------
# The windows' starts come from the random samples as torch's kernel computes them (in the
# input's floating-point type, truncated to int); the window maxima are gathered from the
# flattened input: argmax over each window's elements in raster order (the first maximum, as
# torch's strict `>`), then a gather of the input at the winning flat index, whose backward
# scatters the gradient (overlapping windows add up, as in torch).

def _numpy():
    import numpy
    return numpy


def _fractional_intervals(np, samples, input_size, output_size, pool_size, ftype):
    """torch's fractional_max_pool*_generate_intervals for every plane's sample at once:
    (planes, output_size) window starts, computed in @ftype as torch's kernel computes them"""
    seq = np.zeros((samples.size, output_size), np.int64)
    if output_size > 1:
        alpha = ftype(input_size - pool_size) / ftype(output_size - 1)
        steps = np.arange(output_size - 1).astype(ftype)
        # (i + sample) * alpha and sample * alpha in ftype, truncated (they are >= 0)
        seq[:, :-1] = (((steps[None, :] + samples[:, None]) * alpha).astype(np.int64)
                       - (samples * alpha).astype(np.int64)[:, None])
    if output_size > 0:
        seq[:, output_size - 1] = input_size - pool_size
    return seq


def _fractional_max_pool(input, kernel_size, output_size, output_ratio, return_indices,
                         _random_samples, n, name):
    G = _g()
    np = _numpy()
    if not isinstance(input, Gnn.Tensor):
        raise TypeError('%s(): input must be a Tensor, not %s' % (name, type(input).__name__))
    if input.dim() not in (n + 1, n + 2):
        raise RuntimeError('%s(): Expected %dD or %dD tensor, but got: %s'
                           % (name, n + 1, n + 2, list(input.shape)))
    if not input.is_floating_point():
        raise RuntimeError('%s(): expected floating-point input, got %s' % (name, input.dtype))
    batched = input.dim() == n + 2
    x = input if batched else input.unsqueeze(0)
    shape = [int(s) for s in x.shape]
    nb, planes, spatial = shape[0], shape[1], shape[2:]
    if min(shape[1:]) <= 0:
        raise RuntimeError('%s(): Expected input to have non-zero size for non-batch dimensions, but '
                           'got %s' % (name, list(input.shape)))
    kernel = list(_ntuple(kernel_size, n))
    if output_size is None:
        if output_ratio is None:
            raise ValueError('%s requires specifying either an output size, or a pooling ratio'
                             % ('fractional_max_pool%dd' % n))
        ratio = _ntuple(output_ratio, n)
        out_size = [int(spatial[d] * ratio[d]) for d in range(n)]
    else:
        out_size = [int(s) for s in _ntuple(output_size, n)]
    if len(kernel) != n or len(out_size) != n:
        raise ValueError('%s(): kernel_size and output_size must have %d elements, got %s and %s'
                         % (name, n, kernel, out_size))
    dims = ('time', 'height', 'width')[3 - n:]
    for d in range(n):
        if out_size[d] + kernel[d] - 1 > spatial[d]:
            raise RuntimeError('%s(): pool %s %d too large relative to input %s %d'
                               % (name, dims[d], kernel[d], dims[d], spatial[d]))
    ftype = np.float64 if input.dtype == G.float64 else np.float32
    if _random_samples is None:
        samples = G.rand(nb, planes, n, dtype=input.dtype)
    else:
        samples = _random_samples
    flat_samples = np.asarray(samples.detach().contiguous().numpy(), ftype).reshape(-1)
    if flat_samples.size < nb * planes * n:
        raise RuntimeError('%s(): expected _random_samples of shape (%d, %d, %d), got %s'
                           % (name, nb, planes, n, list(samples.shape)))
    # the sample order of torch's kernels: (W, H) in 2-d, (T, H, W) in 3-d
    order = (1, 0) if n == 2 else (0, 1, 2)
    strides = [int(np.prod(spatial[d + 1:])) for d in range(n)]
    k_offsets = np.zeros(1, np.int64)
    for d in range(n):
        k_offsets = (k_offsets[:, None] + np.arange(kernel[d])[None, :] * strides[d]).reshape(-1)
    per_plane = flat_samples[:nb * planes * n].reshape(nb * planes, n)
    starts = np.zeros((nb * planes, 1), np.int64)
    for d in range(n):
        seq = _fractional_intervals(np, per_plane[:, order[d]].astype(ftype), spatial[d],
                                    out_size[d], kernel[d], ftype)
        starts = (starts[:, :, None] + seq[:, None, :] * strides[d]).reshape(nb * planes, -1)
    index = (starts[:, :, None] + k_offsets[None, None, :]).reshape(
        (nb, planes) + tuple(out_size) + (k_offsets.size,))
    plane_size = int(np.prod(spatial))
    flat = x.reshape(nb, planes, plane_size)
    windows = G.tensor(index.reshape(nb, planes, -1))
    values = flat.detach().gather(2, windows).reshape(nb, planes, -1, k_offsets.size)
    best = values.argmax(-1, keepdim=True)
    chosen = windows.reshape(nb, planes, -1, k_offsets.size).gather(3, best).reshape(nb, planes, -1)
    out = flat.gather(2, chosen).reshape(nb, planes, *out_size)
    indices = chosen.reshape(nb, planes, *out_size)
    if not batched:
        out, indices = out.squeeze(0), indices.squeeze(0)
    return (out, indices) if return_indices else out


def functional_fractional_max_pool2d(input, kernel_size, output_size=None, output_ratio=None,
                                     return_indices=False, _random_samples=None):
    """torch.nn.functional.fractional_max_pool2d(input, kernel_size, output_size=None,
    output_ratio=None, return_indices=False, _random_samples=None)"""
    return _fractional_max_pool(input, kernel_size, output_size, output_ratio, return_indices,
                                _random_samples, 2, 'fractional_max_pool2d')


def functional_fractional_max_pool3d(input, kernel_size, output_size=None, output_ratio=None,
                                     return_indices=False, _random_samples=None):
    """torch.nn.functional.fractional_max_pool3d(input, kernel_size, output_size=None,
    output_ratio=None, return_indices=False, _random_samples=None)"""
    return _fractional_max_pool(input, kernel_size, output_size, output_ratio, return_indices,
                                _random_samples, 3, 'fractional_max_pool3d')


def functional_fractional_max_pool2d_with_indices(input, kernel_size, output_size=None,
                                                  output_ratio=None, return_indices=False,
                                                  _random_samples=None):
    """torch.nn.functional.fractional_max_pool2d_with_indices: (output, indices)"""
    return _fractional_max_pool(input, kernel_size, output_size, output_ratio, True,
                                _random_samples, 2, 'fractional_max_pool2d')


def functional_fractional_max_pool3d_with_indices(input, kernel_size, output_size=None,
                                                  output_ratio=None, return_indices=False,
                                                  _random_samples=None):
    """torch.nn.functional.fractional_max_pool3d_with_indices: (output, indices)"""
    return _fractional_max_pool(input, kernel_size, output_size, output_ratio, True,
                                _random_samples, 3, 'fractional_max_pool3d')


def _fractional_class(n):
    name = 'FractionalMaxPool%dd' % n
    fn = functional_fractional_max_pool2d if n == 2 else functional_fractional_max_pool3d

    def __init__(self, kernel_size, output_size=None, output_ratio=None, return_indices=False,
                 _random_samples=None):
        _Module.__init__(self)
        d = self.__dict__
        d['kernel_size'] = _ntuple(kernel_size, n)
        d['return_indices'] = return_indices
        self.register_buffer('_random_samples', _random_samples)
        d['output_size'] = _ntuple(output_size, n) if output_size is not None else None
        d['output_ratio'] = _ntuple(output_ratio, n) if output_ratio is not None else None
        if output_size is None and output_ratio is None:
            raise ValueError('%s requires specifying either an output size, or a pooling ratio' % name)
        if output_size is not None and output_ratio is not None:
            raise ValueError('only one of output_size and output_ratio may be specified')
        if self.output_ratio is not None:
            if not all(0 < r < 1 for r in self.output_ratio):
                raise ValueError('output_ratio must be between 0 and 1 (got {})'.format(output_ratio))

    def forward(self, input):
        return fn(input, self.kernel_size, self.output_size, self.output_ratio, self.return_indices,
                  _random_samples=self._random_samples)

    def extra_repr(self):
        return ''

    doc = ('torch.nn.%s(kernel_size, output_size=None, output_ratio=None, return_indices=False, '
           '_random_samples=None): max pooling over pseudo-random windows (Graham\'s fractional '
           'max pooling); _random_samples (N, C, %d) in [0, 1) fixes them.' % (name, n))
    cls = type(name, (_Module,), {'__init__': __init__, 'forward': forward, 'extra_repr': extra_repr,
                                  'do_forward': _forward_vfunc, '__doc__': doc,
                                  '__gtype_name__': 'gi+overrides+_gnn+layers_extra+' + name,
                                  '__module__': 'gnn.nn'})
    cls.do_extra_repr = lambda self: self.extra_repr()
    cls.__qualname__ = name
    globals()[name] = cls
    __all__.append(name)


_fractional_class(2)
_fractional_class(3)


def functional_max_unpool3d(input, indices, kernel_size, stride=None, padding=0, output_size=None):
    """torch.nn.functional.max_unpool3d(input, indices, kernel_size, stride=None, padding=0,
    output_size=None): MaxPool3d's values put back at their indices, zeros elsewhere (the C
    2-d unpooling over one plane of D*H*W)."""
    from .layers_more import _unpool_size
    if input.dim() not in (4, 5):
        raise RuntimeError('max_unpool3d(): Expected 4D or 5D tensor, but got: %s' % list(input.shape))
    if list(indices.shape) != list(input.shape):
        raise RuntimeError('max_unpool3d(): Expected shape of indices to be same as that of the input '
                           'tensor (%s) but got indices tensor with shape: %s'
                           % (list(input.shape), list(indices.shape)))
    size = _unpool_size(input, kernel_size, stride, padding, output_size, 3, 'max_unpool3d')
    batched = input.dim() == 5
    x = input if batched else input.unsqueeze(0)
    i = indices if batched else indices.unsqueeze(0)
    nb, c = int(x.shape[0]), int(x.shape[1])
    plane = size[0] * size[1] * size[2]
    out = _T.max_unpool2d(x.reshape(nb, c, 1, -1), i.reshape(nb, c, 1, -1), [1, plane])
    out = out.reshape(nb, c, *size)
    return out if batched else out.squeeze(0)


@_export
class MaxUnpool3d(_Module):
    """torch.nn.MaxUnpool3d(kernel_size, stride=None, padding=0): the partial inverse of
    MaxPool3d; forward (input, indices, output_size=None)."""

    __gtype_name__ = 'gi+overrides+_gnn+layers_extra+MaxUnpool3d'
    __module__ = 'gnn.nn'
    do_forward = _forward_vfunc

    def __init__(self, kernel_size, stride=None, padding=0):
        super().__init__()
        d = self.__dict__
        d['kernel_size'] = _ntuple(kernel_size, 3)
        d['stride'] = _ntuple(stride if stride is not None else kernel_size, 3)
        d['padding'] = _ntuple(padding, 3)

    def forward(self, input, indices, output_size=None):
        return functional_max_unpool3d(input, indices, self.kernel_size, self.stride, self.padding,
                                       output_size)

    def extra_repr(self):
        return 'kernel_size={}, stride={}, padding={}'.format(self.kernel_size, self.stride, self.padding)

    def do_extra_repr(self):
        return self.extra_repr()

    def __call__(self, input, indices, output_size=None):
        if output_size is None:
            return _Module.__call__(self, input, indices)
        return self.forward(input, indices, output_size)


def functional_max_pool3d_with_indices(input, kernel_size, stride=None, padding=0, dilation=1,
                                       ceil_mode=False, return_indices=False):
    """torch.nn.functional.max_pool3d_with_indices: (output, indices) of max_pool3d"""
    return _g().functional_max_pool3d(input, kernel_size, stride, padding, dilation, ceil_mode, True)


def functional_adaptive_max_pool3d_with_indices(input, output_size, return_indices=False):
    """torch.nn.functional.adaptive_max_pool3d_with_indices: (output, indices)"""
    return _g().functional_adaptive_max_pool3d(input, output_size, True)


__all__ += ['functional_fractional_max_pool2d', 'functional_fractional_max_pool3d',
            'functional_fractional_max_pool2d_with_indices',
            'functional_fractional_max_pool3d_with_indices', 'functional_max_unpool3d',
            'functional_max_pool3d_with_indices', 'functional_adaptive_max_pool3d_with_indices']


# ---- AdaptiveLogSoftmaxWithLoss ------------------------------------------------------------

def _asm_output():
    import collections
    global _ASMoutput
    if _ASMoutput is None:
        _ASMoutput = collections.namedtuple('_ASMoutput', ['output', 'loss'])
    return _ASMoutput


_ASMoutput = None


def _asm_forward_vfunc(self, args):
    from .module import Args
    pos, kw = args.unpack()
    return Args.pack(*tuple(self.forward(*pos, **kw)))


@_export
class AdaptiveLogSoftmaxWithLoss(_Module):
    """torch.nn.AdaptiveLogSoftmaxWithLoss(in_features, n_classes, cutoffs, div_value=4.0,
    head_bias=False, device=None, dtype=None): Grave et al.'s adaptive softmax, a head Linear
    over the shortlist and one cluster per cutoff, each cluster a Sequential of two bias-free
    Linears (in_features -> in_features // div_value**(i+1) -> its class count). forward (input,
    target) gives the named tuple (output, loss); log_prob and predict as torch's."""

    __gtype_name__ = 'gi+overrides+_gnn+layers_extra+AdaptiveLogSoftmaxWithLoss'
    __module__ = 'gnn.nn'
    do_forward = _asm_forward_vfunc

    def __init__(self, in_features, n_classes, cutoffs, div_value=4., head_bias=False, device=None,
                 dtype=None):
        super().__init__()
        G = _g()
        cutoffs = list(cutoffs)
        if (len(cutoffs) == 0 or cutoffs != sorted(cutoffs) or min(cutoffs) <= 0
                or max(cutoffs) > (n_classes - 1) or len(set(cutoffs)) != len(cutoffs)
                or any(int(c) != c for c in cutoffs)):
            raise ValueError('cutoffs should be a sequence of unique, positive integers sorted in an '
                             'increasing order, where each value is between 1 and n_classes-1')
        d = self.__dict__
        d['in_features'] = in_features
        d['n_classes'] = n_classes
        d['cutoffs'] = [int(c) for c in cutoffs] + [n_classes]
        d['div_value'] = div_value
        d['head_bias'] = head_bias
        d['shortlist_size'] = self.cutoffs[0]
        d['n_clusters'] = len(self.cutoffs) - 1
        d['head_size'] = self.shortlist_size + self.n_clusters
        self.head = G.Linear(in_features, self.head_size, bias=head_bias, device=device, dtype=dtype)
        tail = G.ModuleList()
        for i in range(self.n_clusters):
            hsz = int(in_features // (div_value ** (i + 1)))
            osz = self.cutoffs[i + 1] - self.cutoffs[i]
            tail.append(G.Sequential(G.Linear(in_features, hsz, bias=False, device=device, dtype=dtype),
                                     G.Linear(hsz, osz, bias=False, device=device, dtype=dtype)))
        self.tail = tail

    def reset_parameters(self):
        """Initialises head and tail again, as their Linear layers do."""
        for m in [self.head] + [l for seq in self.tail for l in seq]:
            m.reset_parameters()

    def __call__(self, input, target):
        return _asm_output()(*_Module.__call__(self, input, target))

    def _full_log_prob(self, input, head_output):
        G = _g()
        head_logprob = head_output.log_softmax(1)
        parts = [head_logprob[:, :self.shortlist_size]]
        for i in range(self.n_clusters):
            cluster_logprob = self.tail[i](input).log_softmax(1)
            k = self.shortlist_size + i
            parts.append(cluster_logprob + head_logprob[:, k:k + 1])
        return G.cat(parts, 1)

    def forward(self, input_, target_):
        G = _g()
        targ_dim = target_.dim()
        if targ_dim == 1:
            if input_.shape[0] != target_.shape[0]:
                raise RuntimeError('Input and target should have the same size in the batch dimension.')
            if input_.dim() != 2:
                raise RuntimeError('1D target tensor expects 2D input tensors, but found inputs with '
                                   'size %s' % (input_.shape,))
        elif targ_dim == 0:
            if input_.dim() != 1:
                raise RuntimeError('0D target tensor expects 1D input tensors, but found inputs with '
                                   'size %s' % (input_.shape,))
        else:
            raise RuntimeError('0D or 1D target tensor expected, multi-target not supported')
        if target_.dtype != G.int64:
            raise RuntimeError('AdaptiveLogSoftmaxWithLoss: expected an int64 (class index) target, '
                               'got %s' % target_.dtype)
        if input_.shape[-1] != self.in_features:
            raise RuntimeError('AdaptiveLogSoftmaxWithLoss: expected input with last dimension %d '
                               '(in_features), got shape %s' % (self.in_features, list(input_.shape)))
        is_batched = targ_dim > 0
        input = input_ if is_batched else input_.unsqueeze(0)
        target = target_ if is_batched else target_.unsqueeze(0)
        if target.numel() and (int(target.min().item()) < 0 or int(target.max().item()) >= self.n_classes):
            raise RuntimeError('Target values should be in [0, {}], but values in range [{}, {}] were '
                               'found. '.format(self.n_classes - 1, int(target.min().item()),
                                               int(target.max().item())))
        # torch's gathering: the head's log-probability of the target (of its cluster, for a
        # target outside the shortlist), plus the cluster's own log-probability of the target,
        # computed on the rows whose targets fall in that cluster only (a cluster no target
        # falls in is not run, and its parameters get no gradient, as in torch)
        np = _numpy()
        targets = np.asarray(target.numpy(), np.int64).reshape(-1)
        batch = targets.size
        head_logprob = self.head(input).log_softmax(1)
        gather_inds = targets.copy()
        pieces = []
        for i in range(1, len(self.cutoffs)):
            low, high = self.cutoffs[i - 1], self.cutoffs[i]
            rows = np.nonzero((targets >= low) & (targets < high))[0]
            if rows.size == 0:
                continue
            gather_inds[rows] = self.shortlist_size + i - 1
            subset = input.index_select(0, G.tensor(rows))
            cluster_logprob = self.tail[i - 1](subset).log_softmax(1)
            local = cluster_logprob.gather(1, G.tensor(targets[rows] - low).unsqueeze(1))
            place = np.zeros((batch, rows.size))
            place[rows, np.arange(rows.size)] = 1
            pieces.append(G.tensor(place, dtype=input.dtype).matmul(local).squeeze(1))
        output = head_logprob.gather(1, G.tensor(gather_inds).unsqueeze(1)).squeeze(1)
        for piece in pieces:
            output = output + piece
        loss = (output * -1).mean()
        if not is_batched:
            output = output.squeeze(0)
        return _asm_output()(output, loss)

    def log_prob(self, input):
        """Log-probabilities of all n_classes classes for each row of @input."""
        batched = input.dim() > 1
        x = input if batched else input.unsqueeze(0)
        out = self._full_log_prob(x, self.head(x))
        return out if batched else out.squeeze(0)

    def predict(self, input):
        """The most probable class of each row (log_prob (input).argmax (1), shortcut when the
        head's best is in the shortlist)."""
        batched = input.dim() > 1
        x = input if batched else input.unsqueeze(0)
        head_output = self.head(x)
        output = head_output.argmax(1)
        if bool((output >= self.shortlist_size).any().item()):
            full = self._full_log_prob(x, head_output).argmax(1)
            output = _g().where(output >= self.shortlist_size, full, output)
        return output if batched else output.squeeze(0)

    def extra_repr(self):
        return ''


# ---- NLLLoss2d, Container --------------------------------------------------------------------

@_export
class NLLLoss2d(_Module):
    """torch.nn.NLLLoss2d(weight=None, size_average=None, ignore_index=-100, reduce=None,
    reduction='mean'): the deprecated name of NLLLoss (it warns, as torch's)."""

    __gtype_name__ = 'gi+overrides+_gnn+layers_extra+NLLLoss2d'
    __module__ = 'gnn.nn'
    do_forward = _forward_vfunc

    def __init__(self, weight=None, size_average=None, ignore_index=-100, reduce=None,
                 reduction='mean'):
        super().__init__()
        _warnings.warn('NLLLoss2d has been deprecated. Please use NLLLoss instead as a drop-in '
                       'replacement and see https://pytorch.org/docs/master/nn.html#torch.nn.NLLLoss '
                       'for more details.')
        if size_average is not None or reduce is not None:
            reduction = _legacy_reduction(size_average, reduce)
        if reduction not in ('none', 'mean', 'sum'):
            raise ValueError('%s is not a valid value for reduction' % reduction)
        self.register_buffer('weight', weight)
        self.__dict__['ignore_index'] = ignore_index
        self.__dict__['reduction'] = reduction

    def forward(self, input, target):
        return _g().functional_nll_loss(input, target, weight=self.weight,
                                           ignore_index=self.ignore_index, reduction=self.reduction)

    def do_extra_repr(self):
        return ''


def _legacy_reduction(size_average, reduce):
    size_average = True if size_average is None else size_average
    reduce = True if reduce is None else reduce
    if size_average and reduce:
        return 'mean'
    return 'sum' if reduce else 'none'


@_export
class Container(_Module):
    """torch.nn.Container(**kwargs): the deprecated module holding the modules given by name
    (it warns, as torch's: subclass Module instead)."""

    __gtype_name__ = 'gi+overrides+_gnn+layers_extra+Container'
    __module__ = 'gnn.nn'

    def __init__(self, **kwargs):
        super().__init__()
        _warnings.warn("nn.Container is deprecated. All of it's functionality is now implemented "
                       "in nn.Module. Subclass that instead.")
        for key, value in kwargs.items():
            self.add_module(key, value)


# ---- nn.init: dirac_, sparse_ and the deprecated spellings without the underscore ---------------

def nn_init_dirac_(tensor, groups=1):
    """torch.nn.init.dirac_(tensor, groups=1): fills a 3-, 4- or 5-d convolution weight with
    the Dirac delta (identity of the first in-channels of each group), in place."""
    G = _g()
    np = _numpy()
    dims = tensor.dim()
    if dims not in (3, 4, 5):
        raise ValueError('Only tensors with 3, 4, or 5 dimensions are supported')
    sizes = [int(s) for s in tensor.shape]
    if sizes[0] % groups != 0:
        raise ValueError('dim 0 must be divisible by groups')
    per_group = sizes[0] // groups
    min_dim = min(per_group, sizes[1])
    values = np.zeros(sizes, np.float64)
    centre = tuple(s // 2 for s in sizes[2:])
    for g in range(groups):
        for d in range(min_dim):
            values[(g * per_group + d, d) + centre] = 1
    with G.no_grad():
        tensor.copy_(G.tensor(values, dtype=tensor.dtype))
    return tensor


def nn_init_sparse_(tensor, sparsity, std=0.01):
    """torch.nn.init.sparse_(tensor, sparsity, std=0.01): a 2-d tensor drawn from N(0, std)
    with ceil(sparsity * rows) zeros in each column (rows chosen at random), in place."""
    G = _g()
    np = _numpy()
    if tensor.dim() != 2:
        raise ValueError('Only tensors with 2 dimensions are supported')
    rows, cols = int(tensor.shape[0]), int(tensor.shape[1])
    num_zeros = int(_math.ceil(sparsity * rows))
    mask = np.ones((rows, cols), np.float64)
    with G.no_grad():
        tensor.normal_(0, std)
        for col in range(cols):
            zero = G.randperm(rows)[:num_zeros].numpy() if num_zeros else []
            mask[list(zero), col] = 0
        tensor.mul_(G.tensor(mask, dtype=tensor.dtype))
    return tensor


def _deprecated_init(new_name):
    old_name = new_name[:-1]

    def deprecated_init(*args, **kwargs):
        _warnings.warn('nn.init.{} is now deprecated in favor of nn.init.{}.'.format(old_name, new_name),
                       stacklevel=2)
        return getattr(_g(), 'nn_init_' + new_name)(*args, **kwargs)
    deprecated_init.__name__ = old_name
    deprecated_init.__qualname__ = old_name
    deprecated_init.__doc__ = ('%s(...): the deprecated spelling of torch.nn.init.%s (it warns, as '
                               'torch 1.13 does)' % (old_name, new_name))
    globals()['nn_init_' + old_name] = deprecated_init
    __all__.append('nn_init_' + old_name)


__all__ += ['nn_init_dirac_', 'nn_init_sparse_']
for _new in ('uniform_', 'normal_', 'constant_', 'eye_', 'dirac_', 'xavier_uniform_', 'xavier_normal_',
             'kaiming_uniform_', 'kaiming_normal_', 'orthogonal_', 'sparse_'):
    _deprecated_init(_new)
del _new


# ---- nn.utils: fusion weights, skip_init, stateless.functional_call, clip_grad_norm ----------

def nn_utils_fuse_conv_bn_weights(conv_w, conv_b, bn_rm, bn_rv, bn_eps, bn_w, bn_b, transpose=False):
    """torch.nn.utils.fuse_conv_bn_weights: the (weight, bias) Parameters of a convolution
    that folds in an eval-mode batch norm with running mean/var @bn_rm/@bn_rv, eps and affine
    @bn_w/@bn_b (None for absent)."""
    G = _g()
    if conv_b is None:
        conv_b = G.zeros_like(bn_rm)
    if bn_w is None:
        bn_w = G.ones_like(bn_rm)
    if bn_b is None:
        bn_b = G.zeros_like(bn_rm)
    with G.no_grad():
        rsqrt = (bn_rv + bn_eps).rsqrt()
        nd = conv_w.dim()
        shape = [1, -1] + [1] * (nd - 2) if transpose else [-1, 1] + [1] * (nd - 2)
        w = conv_w * (bn_w * rsqrt).reshape(shape)
        b = (conv_b - bn_rm) * rsqrt * bn_w + bn_b
    return G.Parameter(w.contiguous()), G.Parameter(b.contiguous())


def nn_utils_fuse_linear_bn_weights(linear_w, linear_b, bn_rm, bn_rv, bn_eps, bn_w, bn_b):
    """torch.nn.utils.fuse_linear_bn_weights: the (weight, bias) Parameters of a Linear
    that folds in an eval-mode batch norm."""
    G = _g()
    if linear_b is None:
        linear_b = G.zeros_like(bn_rm)
    with G.no_grad():
        scale = bn_w * (bn_rv + bn_eps).rsqrt()
        w = linear_w * scale.unsqueeze(-1)
        b = (linear_b - bn_rm) * scale + bn_b
    return G.Parameter(w.contiguous()), G.Parameter(b.contiguous())


def nn_utils_skip_init(module_cls, *args, **kwargs):
    """torch.nn.utils.skip_init(module_cls, *args, **kwargs): the module built with its tensors
    left uninitialised (empty storage on the device given as device=, the CPU by default)."""
    import inspect
    if not (isinstance(module_cls, type) and issubclass(module_cls, Gnn.Module)):
        raise RuntimeError('Expected a Module; got {}'.format(module_cls))
    try:
        params = inspect.signature(module_cls).parameters
    except (TypeError, ValueError):
        params = {}
    if 'device' not in params:
        raise RuntimeError("Module must support a 'device' arg to skip initialization")
    final_device = kwargs.pop('device', 'cpu')
    module = module_cls(*args, **kwargs)
    Gnn.Module.to_empty(module, str(final_device), True)
    return module


def nn_utils_clip_grad_norm(parameters, max_norm, norm_type=2):
    """torch.nn.utils.clip_grad_norm: the deprecated spelling of clip_grad_norm_ (it warns)."""
    _warnings.warn('torch.nn.utils.clip_grad_norm is now deprecated in favor of '
                   'torch.nn.utils.clip_grad_norm_.', stacklevel=2)
    return _g().nn_utils_clip_grad_norm_(parameters, max_norm, norm_type)


def _ordered_slots(owner):
    """(kind, name, tensor, persistent) of @owner's own parameters and buffers, in order."""
    out = [('parameter', n, p, True) for n, p in owner.named_parameters(recurse=False)]
    out += [('buffer', n, b, Gnn.Module.is_buffer_persistent(owner, n))
            for n, b in owner.named_buffers(recurse=False)]
    return out


def nn_utils_stateless_functional_call(module, parameters_and_buffers, args, kwargs=None):
    """torch.nn.utils.stateless.functional_call(module, parameters_and_buffers, args,
    kwargs=None): calls @module with the tensors of @parameters_and_buffers (dotted names) in
    place of its parameters and buffers, so that gradients reach those tensors; the module's
    own are back afterwards, in their order."""
    if kwargs is None:
        kwargs = {}
    if not isinstance(args, tuple):
        args = (args,)
    swaps = []
    for name, tensor in parameters_and_buffers.items():
        if not isinstance(tensor, Gnn.Tensor):
            raise TypeError("functional_call: the value of '%s' must be a Tensor, not %s"
                            % (name, type(tensor).__name__))
        *path, leaf = name.split('.')
        owner = module
        for part in path:
            try:
                owner = Gnn.Module.get_submodule(owner, part)
            except Exception:
                raise AttributeError("'%s' has no submodule '%s' (in '%s')"
                                     % (type(owner).__name__, part, name)) from None
        swaps.append((owner, leaf, tensor))
    owners = []
    for owner, _, _ in swaps:
        if not any(owner is o for o, _ in owners):
            owners.append((owner, _ordered_slots(owner)))
    # a parameter becomes a plain tensor attribute under its name (the layers read it as they
    # read the parameter, and the gradient reaches the given tensor); a buffer, which C layers
    # read as a buffer, becomes a view of the given tensor's storage, so that in-place updates
    # (running statistics) land in the given tensor, as in torch
    swapped, viewed = [], []
    try:
        for owner, leaf, tensor in swaps:
            try:
                buffer = Gnn.Module.get_buffer(owner, leaf)
            except Exception:
                buffer = None
            if buffer is not None:
                viewed.append((buffer, buffer.detach()))
                Gnn.Tensor.set_data(buffer, tensor)
                continue
            Gnn.Module.remove(owner, leaf)
            swapped.append((owner, leaf))
            Gnn.Module.set_tensor_attribute(owner, leaf, tensor)
        return module(*args, **kwargs)
    finally:
        for buffer, original in viewed:
            Gnn.Tensor.set_data(buffer, original)
        for owner, leaf in swapped:
            Gnn.Module.set_tensor_attribute(owner, leaf, None)
        for owner, slots in owners:
            for _kind, name, _t, _p in slots:
                Gnn.Module.remove(owner, name)
            for kind, name, t, persistent in slots:
                if kind == 'parameter':
                    Gnn.Module.register_parameter(owner, name, t)
                else:
                    Gnn.Module.register_buffer(owner, name, t, persistent)


__all__ += ['nn_utils_fuse_conv_bn_weights', 'nn_utils_fuse_linear_bn_weights', 'nn_utils_skip_init',
            'nn_utils_clip_grad_norm', 'nn_utils_stateless_functional_call']


# ---- CrossMapLRN2d ------------------------------------------------------------------------------
# torch's legacy cross-channel LRN (torch.nn.modules._functions.CrossMapLRN2d), forward and its
# own backward as torch writes them, on the host: its forward's running window never drops
# channel 0 (`c > pre_pad`), and its backward sums a channel window offset from the forward's,
# so the gradient torch gives is not the forward's exact derivative; gnn gives the same numbers.

def _cross_map_lrn2d_function():
    global _CrossMapLRN2dFunction
    if _CrossMapLRN2dFunction is not None:
        return _CrossMapLRN2dFunction
    from .function import autograd_Function

    class CrossMapLRN2dFunction(autograd_Function):
        @staticmethod
        def forward(ctx, input, size, alpha=1e-4, beta=0.75, k=1):
            np = _numpy()
            G = _g()
            if input.dim() != 4:
                raise RuntimeError('CrossMapLRN2d: expected a 4-D input (N, C, H, W), got shape %s'
                                   % list(input.shape))
            x = np.ascontiguousarray(input.detach().numpy())
            ft = x.dtype.type
            channels = x.shape[1]
            square = x * x
            scale = np.zeros_like(x)
            pre_pad = int((size - 1) / 2 + 1)
            for c in range(min(pre_pad, channels)):
                scale[:, 0] += square[:, c]
            for c in range(1, channels):
                scale[:, c] = scale[:, c - 1]
                if c < channels - pre_pad + 1:
                    scale[:, c] += square[:, c + pre_pad - 1]
                if c > pre_pad:
                    scale[:, c] -= square[:, c - pre_pad]
            scale = scale * ft(alpha / size) + ft(k)
            output = np.power(scale, ft(-beta)) * x
            ctx.params = (size, alpha, beta, k)
            ctx.arrays = (x, output, scale)
            return G.tensor(output, dtype=input.dtype)

        @staticmethod
        def backward(ctx, grad_output):
            np = _numpy()
            G = _g()
            size, alpha, beta, k = ctx.params
            x, output, scale = ctx.arrays
            ft = x.dtype.type
            g = np.ascontiguousarray(grad_output.numpy()).astype(x.dtype)
            batch, channels, h, w = x.shape
            padded = np.zeros((channels + size - 1, h, w), x.dtype)
            cache_ratio = ft(2 * alpha * beta / size)
            inverse_pre_pad = int(size - (size - 1) / 2)
            if inverse_pre_pad + channels > channels + size - 1:    # torch's narrow fails there
                raise RuntimeError('CrossMapLRN2d backward: start (%d) + length (%d) exceeds dimension '
                                   'size (%d).' % (inverse_pre_pad, channels, channels + size - 1))
            grad_input = np.power(scale, ft(-beta)) * g
            for n in range(batch):
                padded[inverse_pre_pad:inverse_pre_pad + channels] = g[n] * output[n] / scale[n]
                accum = padded[:size - 1].sum(0)
                for c in range(channels):
                    accum = accum + padded[c + size - 1]
                    grad_input[n, c] = grad_input[n, c] - cache_ratio * (x[n, c] * accum)
                    accum = accum - padded[c]
            return G.tensor(grad_input, dtype=grad_output.dtype), None, None, None, None

    _CrossMapLRN2dFunction = CrossMapLRN2dFunction
    return CrossMapLRN2dFunction


_CrossMapLRN2dFunction = None


@_export
class CrossMapLRN2d(_Module):
    """torch.nn.CrossMapLRN2d(size, alpha=1e-4, beta=0.75, k=1): local response normalisation
    across channels of a 4-D input, torch's legacy form (its forward and backward numbers)."""

    __gtype_name__ = 'gi+overrides+_gnn+layers_extra+CrossMapLRN2d'
    __module__ = 'gnn.nn'
    do_forward = _forward_vfunc

    def __init__(self, size, alpha=1e-4, beta=0.75, k=1):
        super().__init__()
        d = self.__dict__
        d['size'] = size
        d['alpha'] = alpha
        d['beta'] = beta
        d['k'] = k

    def forward(self, input):
        return _cross_map_lrn2d_function().apply(input, self.size, self.alpha, self.beta, self.k)

    def extra_repr(self):
        return '{size}, alpha={alpha}, beta={beta}, k={k}'.format(**self.__dict__)

    def do_extra_repr(self):
        return self.extra_repr()


# ---- optimizers over uninitialised parameters ------------------------------------------------
# torch's optimizers hold the parameter objects, which materialize () fills in place, so one
# built before the first forward trains them (gnn's lazy modules keep the objects too). Adagrad
# is the exception: it makes its state when built, and torch's refuses an uninitialised
# parameter there (the ValueError of any other use).

def _refusing_uninitialized(cls, name):
    import functools
    new = cls.__new__

    @functools.wraps(new)
    def __new__(klass, params, *args, **kwargs):
        if isinstance(params, Gnn.Tensor):
            params = [params]
        params = list(params)
        for entry in params:
            group = entry.get('params', ()) if isinstance(entry, dict) else [entry]
            group = [group] if isinstance(group, Gnn.Tensor) else group
            if any(is_lazy(p) for p in group):
                raise ValueError(
                    'Attempted to use an uninitialized parameter in %s. This error happens when you '
                    'are using a `LazyModule` or explicitly manipulating '
                    '`torch.nn.parameter.UninitializedParameter` objects. When using LazyModules Call '
                    '`forward` with a dummy batch to initialize the parameters before calling torch '
                    'functions' % name)
        return new(klass, params, *args, **kwargs)
    cls.__new__ = staticmethod(__new__) if isinstance(cls.__dict__.get('__new__'), staticmethod) else __new__


def _install_optimizer_checks():
    from . import optim as _optim
    if hasattr(_optim, 'Adagrad'):
        _refusing_uninitialized(_optim.Adagrad, 'torch.optim.Adagrad')


_install_optimizer_checks()
