# automatic mixed precision: torch.autocast (and torch.cpu.amp / torch.cuda.amp.autocast), the
# autocast state functions, and GradScaler, with torch 1.13's signatures
#
# The state and the casts are C (gnn/ops/gnn-autocast.c: a thread-local state per device type,
# the ops of torch's lists cast their operands); autocast here is the context manager and
# decorator over it, as torch/amp/autocast_mode.py is over torch._C. GradScaler follows
# torch/cuda/amp/grad_scaler.py (scale, unscale_, step skipping on inf/NaN, update, the state
# dict with torch's keys), composed of tensor ops; its scale update is torch's
# _amp_update_scale_, its unscale _amp_foreach_non_finite_check_and_unscale_, both exported
# under those names (torch 1.13 has them for CUDA tensors only). torch 1.13 disables torch.cuda.amp.GradScaler with a warning where CUDA is
# unavailable, and so does gnn; gnn.amp.GradScaler('cpu') (torch 2's torch.amp.GradScaler
# spelling) scales on the CPU as well.
#
# SPDX-License-Identifier: LGPL-2.1-or-later
import collections as _collections
import enum as _enum
import functools as _functools
import sys as _sys
import types as _types
import warnings as _warnings

from .base import Gnn
from .errors import raising_torch_errors

__all__ = []


def _export(fn):
    __all__.append(fn.__name__)
    return fn


def _cuda_is_available():
    from .functions import cuda_is_available
    return cuda_is_available()


def _dtype(value):
    from .tensor import as_dtype
    return as_dtype(value)


# ---- the state (C, thread-local) ------------------------------------------------------------

@_export
def is_autocast_enabled():
    """torch.is_autocast_enabled: whether CUDA autocast is on on this thread."""
    return bool(Gnn.autocast_is_enabled('cuda'))


@_export
@raising_torch_errors
def set_autocast_enabled(enabled):
    """torch.set_autocast_enabled: turns CUDA autocast on or off on this thread."""
    Gnn.autocast_set_enabled('cuda', bool(enabled))


@_export
def is_autocast_cpu_enabled():
    """torch.is_autocast_cpu_enabled: whether CPU autocast is on on this thread."""
    return bool(Gnn.autocast_is_enabled('cpu'))


@_export
@raising_torch_errors
def set_autocast_cpu_enabled(enabled):
    """torch.set_autocast_cpu_enabled."""
    Gnn.autocast_set_enabled('cpu', bool(enabled))


@_export
def get_autocast_cpu_dtype():
    """torch.get_autocast_cpu_dtype: bfloat16 unless set."""
    return _dtype(Gnn.autocast_get_dtype('cpu'))


@_export
@raising_torch_errors
def set_autocast_cpu_dtype(dtype):
    """torch.set_autocast_cpu_dtype: bfloat16 or float16 (as torch 2; torch 1.13 takes bfloat16)."""
    Gnn.autocast_set_dtype('cpu', _dtype(dtype))


@_export
def get_autocast_gpu_dtype():
    """torch.get_autocast_gpu_dtype: float16 unless set."""
    return _dtype(Gnn.autocast_get_dtype('cuda'))


@_export
@raising_torch_errors
def set_autocast_gpu_dtype(dtype):
    """torch.set_autocast_gpu_dtype."""
    Gnn.autocast_set_dtype('cuda', _dtype(dtype))


@_export
def autocast_increment_nesting():
    """torch.autocast_increment_nesting: the nesting after the increment."""
    return Gnn.autocast_increment_nesting()


@_export
def autocast_decrement_nesting():
    """torch.autocast_decrement_nesting: the nesting after the decrement."""
    return Gnn.autocast_decrement_nesting()


@_export
def clear_autocast_cache():
    """torch.clear_autocast_cache: drops the cached lower-precision casts of the weights."""
    Gnn.autocast_clear_cache()


@_export
def is_autocast_cache_enabled():
    """torch.is_autocast_cache_enabled."""
    return bool(Gnn.autocast_is_cache_enabled())


@_export
def set_autocast_cache_enabled(enabled):
    """torch.set_autocast_cache_enabled."""
    Gnn.autocast_set_cache_enabled(bool(enabled))


# ---- autocast ---------------------------------------------------------------------------------

class autocast:
    """torch.autocast(device_type, dtype=None, enabled=True, cache_enabled=None): a region in
    which the ops of torch's autocast lists run in a lower precision (the products and the
    convolutions) or in float32 (the losses, and on CUDA the softmax family), as a context
    manager or a decorator. dtype defaults to the device type's autocast dtype (bfloat16 on the
    CPU, float16 on CUDA). Parameters stay float32 and so do their gradients. Regions nest and
    are thread-local; the casts of weights are cached until the outermost region ends."""

    def __init__(self, device_type, dtype=None, enabled=True, cache_enabled=None):
        if not isinstance(device_type, str):
            raise ValueError('Expected `device_type` of type `str`, got: `%s`' % type(device_type))
        self.device = device_type
        if self.device == 'cuda':
            self.fast_dtype = get_autocast_gpu_dtype()
        elif self.device == 'cpu':
            self.fast_dtype = get_autocast_cpu_dtype()
        else:
            raise RuntimeError("User specified autocast device_type must be 'cuda' or 'cpu'")
        self._cache_enabled = is_autocast_cache_enabled()
        if dtype is not None:
            self.fast_dtype = _dtype(dtype)
        if cache_enabled is not None:
            self._cache_enabled = bool(cache_enabled)
        if self.device == 'cpu':
            if enabled and self.fast_dtype not in (_dtype('bfloat16'), _dtype('float16')):
                _warnings.warn('In CPU autocast, but the target dtype is not supported. Disabling autocast.\n'
                               'CPU Autocast only supports dtype of torch.bfloat16 and torch.float16 currently.')
                enabled = False
        else:
            if enabled and not _cuda_is_available():
                _warnings.warn("User provided device_type of 'cuda', but CUDA is not available. Disabling")
                enabled = False
            if enabled and self.fast_dtype not in (_dtype('bfloat16'), _dtype('float16')):
                raise RuntimeError('CUDA autocast only supports dtypes of torch.float16 and torch.bfloat16, '
                                   'got %r' % self.fast_dtype)
        self._enabled = bool(enabled)

    def __enter__(self):
        if self.device == 'cpu':
            self.prev = is_autocast_cpu_enabled()
            self.prev_fastdtype = get_autocast_cpu_dtype()
            set_autocast_cpu_enabled(self._enabled)
            set_autocast_cpu_dtype(self.fast_dtype)
        else:
            self.prev = is_autocast_enabled()
            self.prev_fastdtype = get_autocast_gpu_dtype()
            set_autocast_gpu_dtype(self.fast_dtype)
            set_autocast_enabled(self._enabled)
        self.prev_cache_enabled = is_autocast_cache_enabled()
        set_autocast_cache_enabled(self._cache_enabled)
        autocast_increment_nesting()
        return self

    def __exit__(self, exc_type, exc_val, exc_tb):
        # the outermost region drops the weight casts, as torch does
        if autocast_decrement_nesting() == 0:
            clear_autocast_cache()
        if self.device == 'cpu':
            set_autocast_cpu_enabled(self.prev)
            set_autocast_cpu_dtype(self.prev_fastdtype)
        else:
            set_autocast_enabled(self.prev)
            set_autocast_gpu_dtype(self.prev_fastdtype)
        set_autocast_cache_enabled(self.prev_cache_enabled)
        return False

    def __call__(self, func):
        @_functools.wraps(func)
        def decorate_autocast(*args, **kwargs):
            with self:
                return func(*args, **kwargs)
        return decorate_autocast

    def __repr__(self):
        return 'autocast(device_type=%r, dtype=%r, enabled=%r, cache_enabled=%r)' % (
            self.device, self.fast_dtype, self._enabled, self._cache_enabled)


__all__.append('autocast')


class cpu_amp_autocast(autocast):
    """torch.cpu.amp.autocast(enabled=True, dtype=torch.bfloat16, cache_enabled=True)."""

    def __init__(self, enabled=True, dtype=None, cache_enabled=True):
        super().__init__('cpu', dtype=_dtype('bfloat16') if dtype is None else dtype, enabled=enabled,
                         cache_enabled=cache_enabled)


class cuda_amp_autocast(autocast):
    """torch.cuda.amp.autocast(enabled=True, dtype=torch.float16, cache_enabled=True)."""

    def __init__(self, enabled=True, dtype=None, cache_enabled=True):
        super().__init__('cuda', dtype=_dtype('float16') if dtype is None else dtype, enabled=enabled,
                         cache_enabled=cache_enabled)


cpu_amp_autocast.__name__ = cpu_amp_autocast.__qualname__ = 'autocast'
cuda_amp_autocast.__name__ = cuda_amp_autocast.__qualname__ = 'autocast'
__all__ += ['cpu_amp_autocast', 'cuda_amp_autocast']


# ---- the two kernels of GradScaler ------------------------------------------------------------

def _finite_all(t):
    return bool(t.isfinite().all().item())


@_export
def _amp_foreach_non_finite_check_and_unscale_(scaled_grads, found_inf, inv_scale):
    """torch._amp_foreach_non_finite_check_and_unscale_(grads, found_inf, inv_scale): each
    gradient multiplied in place by inv_scale (a 1-element float32 tensor; the product in
    float32, rounded to the gradient's dtype); found_inf (a 1-element float32 tensor) set to 1.0
    when any value of any gradient is not finite."""
    if inv_scale.numel() != 1 or found_inf.numel() != 1:
        raise RuntimeError('inv_scale and found_inf must be 1-element tensors.')
    if repr(inv_scale.dtype) != 'torch.float32' or repr(found_inf.dtype) != 'torch.float32':
        raise RuntimeError('inv_scale and found_inf must be float tensors.')
    scale = inv_scale.reshape(())
    for g in scaled_grads:
        if not _finite_all(g):
            found_inf.fill_(1.0)
        g.copy_(g.float() * scale)


@_export
def _amp_update_scale_(scale, growth_tracker, found_inf, growth_factor, backoff_factor, growth_interval):
    """torch._amp_update_scale_(scale, growth_tracker, found_inf, growth_factor, backoff_factor,
    growth_interval): on an inf/NaN (found_inf > 0) the scale is multiplied by backoff_factor
    and the tracker reset; otherwise the tracker counts one more successful step and, at
    growth_interval of them, the scale is multiplied by growth_factor (only while the product
    stays finite) and the tracker reset. Updates scale and growth_tracker in place and returns
    scale."""
    import numpy as _np
    # the products in double rounded to float32, as torch's kernel (float scale, double factors)
    s = float(scale.item())
    tracker = int(growth_tracker.item())
    if float(found_inf.item()) > 0:
        s = float(_np.float32(s * backoff_factor))
        tracker = 0
    else:
        successful = tracker + 1
        if successful == growth_interval:
            grown = _np.float32(s * growth_factor)
            if _np.isfinite(grown):
                s = float(grown)
            tracker = 0
        else:
            tracker = successful
    scale.fill_(s)
    growth_tracker.fill_(tracker)
    return scale


# ---- GradScaler -------------------------------------------------------------------------------

class _OptState(_enum.Enum):
    READY = 0
    UNSCALED = 1
    STEPPED = 2


def _refresh_per_optimizer_state():
    return {'stage': _OptState.READY, 'found_inf_per_device': {}}


class GradScaler:
    """torch.amp.GradScaler(device='cuda', init_scale=2.**16, growth_factor=2.0,
    backoff_factor=0.5, growth_interval=2000, enabled=True): scales the loss so that float16
    gradients do not underflow, unscales them before the step, skips steps whose gradients hold
    an inf or a NaN, and grows or backs off the scale. On 'cuda' it disables itself with torch's
    warning when CUDA is unavailable; on 'cpu' it runs."""

    def __init__(self, device='cuda', init_scale=2.0 ** 16, growth_factor=2.0, backoff_factor=0.5,
                 growth_interval=2000, enabled=True):
        self._device = str(device)
        if enabled and self._device.startswith('cuda') and not _cuda_is_available():
            _warnings.warn('torch.cuda.amp.GradScaler is enabled, but CUDA is not available.  Disabling.')
            enabled = False
        self._enabled = bool(enabled)
        if self._enabled:
            if growth_factor <= 1.0:
                raise ValueError('The growth factor must be > 1.0.')
            if backoff_factor >= 1.0:
                raise ValueError('The backoff factor must be < 1.0.')
            self._init_scale = init_scale
            self._scale = None
            self._growth_factor = growth_factor
            self._backoff_factor = backoff_factor
            self._growth_interval = growth_interval
            self._init_growth_tracker = 0
            self._growth_tracker = None
            self._per_optimizer_states = _collections.defaultdict(_refresh_per_optimizer_state)

    def _check_scale_growth_tracker(self, funcname):
        fix = 'This may indicate your script did not use scaler.scale(loss or outputs) earlier in the iteration.'
        assert self._scale is not None, 'Attempted %s but _scale is None.  ' % funcname + fix
        assert self._growth_tracker is not None, 'Attempted %s but _growth_tracker is None.  ' % funcname + fix

    def _lazy_init_scale_growth_tracker(self, dev):
        import gnn as _gnn
        self._scale = _gnn.full((1,), float(self._init_scale), dtype=_gnn.float32, device=dev)
        self._growth_tracker = _gnn.full((1,), self._init_growth_tracker, dtype=_gnn.int32, device=dev)

    def scale(self, outputs):
        """outputs (a tensor, or an iterable of them, nested) multiplied by the scale."""
        if not self._enabled:
            return outputs
        import gnn as _gnn
        if isinstance(outputs, _gnn.Tensor):
            if self._scale is None:
                self._lazy_init_scale_growth_tracker(outputs.device)
            return outputs * self._scale.to(device=outputs.device)

        def apply_scale(val):
            if isinstance(val, _gnn.Tensor):
                if self._scale is None:
                    self._lazy_init_scale_growth_tracker(val.device)
                return val * self._scale.to(device=val.device)
            if isinstance(val, (list, tuple)) or hasattr(val, '__iter__'):
                iterable = map(apply_scale, val)
                if isinstance(val, (list, tuple)):
                    return type(val)(iterable)
                return iterable
            raise ValueError('outputs must be a Tensor or an iterable of Tensors')
        return apply_scale(outputs)

    def _unscale_grads_(self, optimizer, inv_scale, found_inf, allow_fp16):
        import gnn as _gnn
        per_device_found_inf = {}
        grads = []
        for group in optimizer.param_groups:
            for param in group['params']:
                if param.grad is None:
                    continue
                if not allow_fp16 and repr(param.grad.dtype) == 'torch.float16':
                    raise ValueError('Attempting to unscale FP16 gradients.')
                grads.append(param.grad)
        by_device = _collections.defaultdict(list)
        for g in grads:
            by_device[str(g.device)].append(g)
        for dev, gs in by_device.items():
            f = found_inf.to(device=dev).clone() if dev != str(found_inf.device) else _gnn.zeros_like(found_inf)
            f.zero_()
            _amp_foreach_non_finite_check_and_unscale_(gs, f, inv_scale.to(device=dev))
            per_device_found_inf[dev] = f
        return per_device_found_inf

    def unscale_(self, optimizer):
        """Divides the optimizer's gradients by the scale in place (once per step), noting
        whether any holds an inf or a NaN."""
        if not self._enabled:
            return
        self._check_scale_growth_tracker('unscale_')
        state = self._per_optimizer_states[id(optimizer)]
        if state['stage'] is _OptState.UNSCALED:
            raise RuntimeError('unscale_() has already been called on this optimizer since the last update().')
        elif state['stage'] is _OptState.STEPPED:
            raise RuntimeError('unscale_() is being called after step().')
        import gnn as _gnn
        # the reciprocal in float64, rounded to float32, as torch computes it
        inv_scale = _gnn.tensor([1.0 / float(self._scale.double().item())], dtype=_gnn.float32,
                                device=self._scale.device)
        found_inf = _gnn.zeros((1,), dtype=_gnn.float32, device=self._scale.device)
        state['found_inf_per_device'] = self._unscale_grads_(optimizer, inv_scale, found_inf, False)
        state['stage'] = _OptState.UNSCALED

    def _maybe_opt_step(self, optimizer, optimizer_state, *args, **kwargs):
        if not sum(float(v.item()) for v in optimizer_state['found_inf_per_device'].values()):
            return optimizer.step(*args, **kwargs)
        return None

    def step(self, optimizer, *args, **kwargs):
        """optimizer.step(*args, **kwargs) after unscale_ (unless already called), skipped when
        a gradient holds an inf or a NaN; returns what step returned (None when skipped)."""
        if not self._enabled:
            return optimizer.step(*args, **kwargs)
        if 'closure' in kwargs:
            raise RuntimeError('Closure use is not currently supported if GradScaler is enabled.')
        self._check_scale_growth_tracker('step')
        state = self._per_optimizer_states[id(optimizer)]
        if state['stage'] is _OptState.STEPPED:
            raise RuntimeError('step() has already been called since the last update().')
        if state['stage'] is _OptState.READY:
            self.unscale_(optimizer)
        assert len(state['found_inf_per_device']) > 0, 'No inf checks were recorded for this optimizer.'
        retval = self._maybe_opt_step(optimizer, state, *args, **kwargs)
        state['stage'] = _OptState.STEPPED
        return retval

    def update(self, new_scale=None):
        """Updates the scale: new_scale (a float or a 1-element float32 tensor) when given, else
        backed off after a skipped step or grown after growth_interval successful ones."""
        if not self._enabled:
            return
        import gnn as _gnn
        self._check_scale_growth_tracker('update')
        if new_scale is not None:
            if isinstance(new_scale, float):
                self._scale.fill_(new_scale)
            else:
                reason = 'new_scale should be a float or a 1-element torch.cuda.FloatTensor with requires_grad=False.'
                assert isinstance(new_scale, _gnn.Tensor), reason
                assert new_scale.numel() == 1, reason
                assert new_scale.requires_grad is False, reason
                self._scale.copy_(new_scale.reshape(self._scale.shape))
        else:
            found_infs = [found_inf.to(device=self._scale.device)
                          for state in self._per_optimizer_states.values()
                          for found_inf in state['found_inf_per_device'].values()]
            assert len(found_infs) > 0, 'No inf checks were recorded prior to update.'
            found_inf_combined = found_infs[0]
            for f in found_infs[1:]:
                found_inf_combined = found_inf_combined + f
            _amp_update_scale_(self._scale, self._growth_tracker, found_inf_combined,
                               self._growth_factor, self._backoff_factor, self._growth_interval)
        self._per_optimizer_states = _collections.defaultdict(_refresh_per_optimizer_state)

    def _get_scale_async(self):
        return self._scale

    def get_scale(self):
        """The current scale as a float (1.0 when disabled)."""
        if self._enabled:
            return self._init_scale if self._scale is None else float(self._get_scale_async().item())
        return 1.0

    def get_growth_factor(self):
        return self._growth_factor

    def set_growth_factor(self, new_factor):
        self._growth_factor = new_factor

    def get_backoff_factor(self):
        return self._backoff_factor

    def set_backoff_factor(self, new_factor):
        self._backoff_factor = new_factor

    def get_growth_interval(self):
        return self._growth_interval

    def set_growth_interval(self, new_interval):
        self._growth_interval = new_interval

    def _get_growth_tracker(self):
        if self._enabled:
            return self._init_growth_tracker if self._growth_tracker is None else int(self._growth_tracker.item())
        return 0

    def is_enabled(self):
        return self._enabled

    def state_dict(self):
        """torch's keys: scale, growth_factor, backoff_factor, growth_interval, _growth_tracker
        (empty when disabled)."""
        return {'scale': self.get_scale(), 'growth_factor': self._growth_factor,
                'backoff_factor': self._backoff_factor, 'growth_interval': self._growth_interval,
                '_growth_tracker': self._get_growth_tracker()} if self._enabled else {}

    def load_state_dict(self, state_dict):
        if not self._enabled:
            raise RuntimeError('Attempting to load_state_dict() on a GradScaler that is disabled.')
        if len(state_dict) == 0:
            raise RuntimeError('The source state dict is empty, possibly because it was saved '
                               'from a disabled instance of GradScaler.')
        self._init_scale = state_dict['scale']
        if self._scale is not None:
            self._scale.fill_(state_dict['scale'])
        self._growth_factor = state_dict['growth_factor']
        self._backoff_factor = state_dict['backoff_factor']
        self._growth_interval = state_dict['growth_interval']
        self._init_growth_tracker = state_dict['_growth_tracker']
        if self._growth_tracker is not None:
            self._growth_tracker.fill_(state_dict['_growth_tracker'])


class cuda_amp_GradScaler(GradScaler):
    """torch.cuda.amp.GradScaler(init_scale=2.**16, growth_factor=2.0, backoff_factor=0.5,
    growth_interval=2000, enabled=True): the scaler of the 'cuda' device."""

    def __init__(self, init_scale=2.0 ** 16, growth_factor=2.0, backoff_factor=0.5, growth_interval=2000,
                 enabled=True):
        super().__init__('cuda', init_scale, growth_factor, backoff_factor, growth_interval, enabled)


cuda_amp_GradScaler.__name__ = cuda_amp_GradScaler.__qualname__ = 'GradScaler'
__all__ += ['GradScaler', 'cuda_amp_GradScaler']


# ---- the namespaces torch.amp, torch.cpu(.amp), torch.cuda.amp as modules of gnn ---------------

def amp_namespace(namespace, module_name):
    """A module for the torch namespace `namespace` (torch.cuda.amp, torch.cpu.amp), filled from
    its rows of names.py and registered as `module_name`, so that both `gnn.cuda.amp.autocast`
    and `from gnn.cuda.amp import GradScaler` work."""
    from .names import fill_namespace
    module = _types.ModuleType(module_name, 'torch\'s %s namespace, over gnn' % namespace)
    module.__getattr__ = fill_namespace(namespace, module.__dict__)
    _sys.modules[module_name] = module
    return module
