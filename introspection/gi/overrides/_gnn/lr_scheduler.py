# learning-rate schedulers (torch.optim.lr_scheduler)
#
# SPDX-License-Identifier: LGPL-2.1-or-later
from .base import Gnn, _call_raising_python_errors, _hook_state, _wrap_vfunc, override

__all__ = []


def _variant_guess(value):
    """A GLib.Variant for a Python value of a scheduler state that has no template."""
    from gi.repository import GLib
    if isinstance(value, GLib.Variant):
        return value
    if isinstance(value, bool):
        return GLib.Variant('b', value)
    if isinstance(value, int):
        return GLib.Variant('x', value)
    if isinstance(value, float):
        return GLib.Variant('d', value)
    if isinstance(value, str):
        return GLib.Variant('s', value)
    if isinstance(value, dict):
        if all(isinstance(k, int) and isinstance(v, int) for k, v in value.items()):
            return GLib.Variant('a{xx}', value)
        return GLib.Variant('a{sv}', {str(k): _variant_guess(v) for k, v in value.items()})
    if isinstance(value, (list, tuple)):
        if all(isinstance(v, int) and not isinstance(v, bool) for v in value):
            return GLib.Variant('ax', list(value))
        if all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in value):
            return GLib.Variant('ad', [float(v) for v in value])
        return GLib.Variant('av', [_variant_guess(v) for v in value])
    raise TypeError('cannot store %r in a scheduler state' % (value,))


def _variant_like(template, value):
    """value as a GLib.Variant of the type of template (the same entry of a state the
    scheduler saves), through variants, dictionaries and lists."""
    from gi.repository import GLib
    if isinstance(value, GLib.Variant):
        return value
    if template is None:
        return _variant_guess(value)
    t = template.get_type_string()
    if t == 'v':
        return GLib.Variant('v', _variant_like(template.get_variant(), value))
    if t == 'a{sv}' and isinstance(value, dict):
        return GLib.Variant('a{sv}', {k: _variant_like(template.lookup_value(k, None), v)
                                      for k, v in value.items()})
    if t.startswith('a') and 'v' in t and isinstance(value, (list, tuple)):
        n = template.n_children()
        children = [_variant_like(template.get_child_value(min(i, n - 1)) if n else None, v)
                    for i, v in enumerate(value)]
        if t == 'av':
            children = [c if c.get_type_string() == 'v' else GLib.Variant('v', c) for c in children]
        return GLib.Variant.new_array(GLib.VariantType.new(t[1:]), children)
    if t == 'd':
        value = float(value)
    elif t == 'ad':
        value = [float(v) for v in value]
    try:
        return GLib.Variant(t, value)
    except (TypeError, ValueError):
        return _variant_guess(value)


def _per_group(name, value, optimizer):
    """One float for every group, or a list of one per group (PyTorch's _format_param)."""
    if isinstance(value, (list, tuple)):
        n = optimizer.get_n_param_groups()
        if len(value) != n:
            raise ValueError('{0} must have the same length as optimizer.param_groups. {0} has {1} '
                             'values, param_groups has {2}.'.format(name, len(value), n))
        return [float(v) for v in value]
    return [float(value)]


class _SchedulerState(dict):
    """A scheduler's state_dict(): a plain dict of PyTorch's keys, which keeps the
    GLib.Variant it was unpacked from (the types of its entries) and the scheduler's type
    name, that gnn.save writes into a checkpoint as Gnn.Checkpoint does."""

    def __init__(self, variant, type_name):
        super().__init__(variant.unpack())
        self._gnn_variant = variant
        self._gnn_type = type_name


def _print_lrs(scheduler):
    """What PyTorch 1.13's print_lr prints at a step when the scheduler is verbose."""
    if scheduler._verbose:
        for i, lr in enumerate(Gnn.LRScheduler.get_last_lr(scheduler)):
            print('Adjusting learning rate of group {} to {:.4e}.'.format(i, lr))


def _set_verbose(scheduler, verbose):
    """The verbose= of PyTorch's schedulers (deprecated since PyTorch 2.2): the construction's
    step is printed now, as PyTorch prints its initial step, and every step() after it."""
    if verbose:
        scheduler._verbose = True
        _print_lrs(scheduler)
    return scheduler


def _wrap_get_lr(fn):
    """A Python get_lr as the get_lr virtual method: a list of floats; an exception reaches
    C as a GError and a Python caller gets it back."""
    def get_lr(self):
        return [float(v) for v in fn(self)]
    return _wrap_vfunc(get_lr)


class LRScheduler(Gnn.LRScheduler):
    """``torch.optim.lr_scheduler.LRScheduler``. A subclass implements ``get_lr`` (or
    ``do_get_lr``) returning one float per parameter group, and calls
    ``super().__init__(optimizer, last_epoch)``, which performs the initial step. The
    hyperparameters of gnn's schedulers read and write as attributes with PyTorch's names
    (``scheduler.gamma``, ``scheduler.T_max``)."""

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        fn = cls.__dict__.get('do_get_lr')
        if fn is None and 'get_lr' in cls.__dict__:
            fn = cls.__dict__['get_lr']
        if fn is not None and not getattr(fn, '_gnn_wrapped', False):
            cls.do_get_lr = _wrap_get_lr(fn)
        for name in ('do_save_state', 'do_load_state'):
            fn = cls.__dict__.get(name)
            if fn is not None and not getattr(fn, '_gnn_wrapped', False):
                setattr(cls, name, _wrap_vfunc(fn))

    _verbose = False

    def __init__(self, optimizer=None, last_epoch=-1, verbose=False, **kwargs):
        from gi.repository import Gio
        super().__init__(optimizer=optimizer, last_epoch=last_epoch, **kwargs)
        _call_raising_python_errors(Gio.Initable.init, self, None)
        _set_verbose(self, verbose)

    @staticmethod
    def _prop_name(name):
        return name.lower().replace('_', '-')

    def __getattr__(self, name):
        # only called when normal lookup fails: the GObject properties under PyTorch's names
        if not name.startswith('_'):
            try:
                return self.get_property(LRScheduler._prop_name(name))
            except TypeError:
                pass
        raise AttributeError("'%s' object has no attribute '%s'" % (type(self).__name__, name))

    def __setattr__(self, name, value):
        if not name.startswith('_') and not hasattr(type(self), name):
            pname = LRScheduler._prop_name(name)
            if any(p.name == pname for p in type(self).list_properties()):
                self.set_property(pname, value)
                return
        super().__setattr__(name, value)

    @property
    def optimizer(self):
        return self.get_optimizer()

    @property
    def last_epoch(self):
        return self.get_last_epoch()

    @last_epoch.setter
    def last_epoch(self, value):
        self.set_last_epoch(value)

    @property
    def base_lrs(self):
        return list(self.get_base_lrs())

    @property
    def _step_count(self):
        return self.get_step_count()

    @property
    def _is_initial(self):
        return self.is_initial_step()

    def step(self):
        """``scheduler.step()``; an exception raised by Python code it ran is raised again.
        With verbose, prints each group's new rate as PyTorch 1.13 does."""
        _call_raising_python_errors(Gnn.LRScheduler.step, self)
        _print_lrs(self)

    def get_lr(self):
        return list(_call_raising_python_errors(Gnn.LRScheduler.get_lr, self))

    def get_last_lr(self):
        """The learning rates the last step set, a list of floats."""
        return list(Gnn.LRScheduler.get_last_lr(self))

    def state_dict(self):
        """The scheduler's state as a dict with PyTorch's keys (the ``a{sv}`` of the C API,
        unpacked), which also knows the scheduler's class and its types for gnn.save."""
        from gi.repository import GObject
        return _SchedulerState(Gnn.LRScheduler.state_dict(self), GObject.type_name(type(self).__gtype__))

    def load_state_dict(self, state_dict):
        """Restores a state from state_dict (a dict, or the GLib.Variant of the C API);
        a bad entry raises GLib.Error and leaves the scheduler unchanged."""
        from gi.repository import GLib
        if not isinstance(state_dict, GLib.Variant):
            state_dict = _variant_like(Gnn.LRScheduler.state_dict(self), dict(state_dict))
        Gnn.LRScheduler.load_state_dict(self, state_dict)


LRScheduler = override(LRScheduler)
__all__.append('LRScheduler')


class StepLR(Gnn.StepLR):
    def __new__(cls, optimizer, step_size, gamma=0.1, last_epoch=-1, verbose=False):
        return _set_verbose(Gnn.StepLR.new(optimizer, step_size, gamma, last_epoch), verbose)

    def __init__(self, *args, **kwargs):
        pass


StepLR = override(StepLR)
__all__.append('StepLR')


class MultiStepLR(Gnn.MultiStepLR):
    def __new__(cls, optimizer, milestones, gamma=0.1, last_epoch=-1, verbose=False):
        return _set_verbose(Gnn.MultiStepLR.new(optimizer, [int(m) for m in milestones], gamma, last_epoch),
                            verbose)

    def __init__(self, *args, **kwargs):
        pass

    @property
    def milestones(self):
        """The milestones as PyTorch holds them, a Counter."""
        import collections
        return collections.Counter(self.get_milestones())


MultiStepLR = override(MultiStepLR)
__all__.append('MultiStepLR')


class ExponentialLR(Gnn.ExponentialLR):
    def __new__(cls, optimizer, gamma, last_epoch=-1, verbose=False):
        return _set_verbose(Gnn.ExponentialLR.new(optimizer, gamma, last_epoch), verbose)

    def __init__(self, *args, **kwargs):
        pass


ExponentialLR = override(ExponentialLR)
__all__.append('ExponentialLR')


class CosineAnnealingLR(Gnn.CosineAnnealingLR):
    def __new__(cls, optimizer, T_max, eta_min=0, last_epoch=-1, verbose=False):
        return _set_verbose(Gnn.CosineAnnealingLR.new(optimizer, T_max, eta_min, last_epoch), verbose)

    def __init__(self, *args, **kwargs):
        pass


CosineAnnealingLR = override(CosineAnnealingLR)
__all__.append('CosineAnnealingLR')


class LinearLR(Gnn.LinearLR):
    def __new__(cls, optimizer, start_factor=1.0 / 3, end_factor=1.0, total_iters=5, last_epoch=-1,
                verbose=False):
        return _set_verbose(Gnn.LinearLR.new(optimizer, start_factor, end_factor, total_iters, last_epoch),
                            verbose)

    def __init__(self, *args, **kwargs):
        pass


LinearLR = override(LinearLR)
__all__.append('LinearLR')


def _call_lr_lambda(fn, epoch):
    try:
        return float(fn(epoch))
    except BaseException as e:  # raised again by the caller into C
        if getattr(_hook_state, 'error', None) is None:
            _hook_state.error = e
        return float('nan')


def _construct(fn, *args):
    """A scheduler from one of its C constructors: an exception of a Python function it ran is
    raised again, and a bad argument is a ValueError (as torch raises it) that is also the
    GLib.Error."""
    from gi.repository import GLib
    from .errors import as_python_error
    try:
        return _call_raising_python_errors(fn, *args)
    except GLib.Error as e:
        raise as_python_error(e) from None


def _per_group_as(message, name, value, optimizer):
    """_per_group with torch's message for that argument ({n} groups, {name}, {got} values)."""
    if isinstance(value, (list, tuple)):
        n = optimizer.get_n_param_groups()
        if len(value) != n:
            raise ValueError(message.format(n=n, name=name, got=len(value)))
        return [float(v) for v in value]
    return [float(value)]


def _restoring_step(step, scheduler, *args):
    """Runs a step that calls Python functions (lr_lambda, scale_fn): when one raises, the
    scheduler and every option of the groups (lr, momentum, betas) are put back, and the
    exception is raised again."""
    opt = scheduler.get_optimizer()
    snapshot = Gnn.LRScheduler.state_dict(scheduler)
    groups = [opt.get_param_group(i) for i in range(opt.get_n_param_groups())]
    options = [{name: g.get_option(name) for name in g.list_options()} for g in groups]
    try:
        _call_raising_python_errors(step, scheduler, *args)
    except BaseException:
        Gnn.LRScheduler.load_state_dict(scheduler, snapshot)
        for g, saved in zip(groups, options):
            for name, v in saved.items():
                g.set_option(name, v)
        raise


def _lambda_scheduler(gtype, optimizer, lr_lambda, last_epoch, verbose):
    """LambdaLR or MultiplicativeLR from a function of the epoch or a list of them, one per
    group (torch's "Expected 2 lr_lambdas, but got 3" otherwise)."""
    if isinstance(lr_lambda, (list, tuple)):
        n = optimizer.get_n_param_groups()
        if len(lr_lambda) != n:
            raise ValueError('Expected {} lr_lambdas, but got {}'.format(n, len(lr_lambda)))
        fns = list(lr_lambda)

        def per_group(group, epoch, *user_data):
            return _call_lr_lambda(fns[group], epoch)
        self = _construct(gtype.new_per_group, optimizer, per_group, None, last_epoch)
    else:
        fns = [lr_lambda] * optimizer.get_n_param_groups()

        def one(epoch, *user_data):
            return _call_lr_lambda(lr_lambda, epoch)
        self = _construct(gtype.new, optimizer, one, None, last_epoch)
    self._lr_lambdas = fns
    return _set_verbose(self, verbose)


class LambdaLR(Gnn.LambdaLR):
    """``LambdaLR(optimizer, lr_lambda, last_epoch=-1)``: lr_lambda is a function of the
    epoch, or a list of them, one per parameter group. An exception raised by a function
    is raised again by the constructor or ``step``, which then leaves the scheduler and the
    groups as they were."""

    def __new__(cls, optimizer, lr_lambda, last_epoch=-1, verbose=False):
        return _lambda_scheduler(Gnn.LambdaLR, optimizer, lr_lambda, last_epoch, verbose)

    def __init__(self, *args, **kwargs):
        pass

    @property
    def lr_lambdas(self):
        return list(self._lr_lambdas)

    def step(self):
        _restoring_step(Gnn.LRScheduler.step, self)
        _print_lrs(self)


LambdaLR = override(LambdaLR)
__all__.append('LambdaLR')


class MultiplicativeLR(Gnn.MultiplicativeLR):
    """``MultiplicativeLR(optimizer, lr_lambda, last_epoch=-1)``: each epoch after the first
    multiplies the rates by lr_lambda(epoch), a function or a list of them, one per group;
    errors as LambdaLR's."""

    def __new__(cls, optimizer, lr_lambda, last_epoch=-1, verbose=False):
        return _lambda_scheduler(Gnn.MultiplicativeLR, optimizer, lr_lambda, last_epoch, verbose)

    def __init__(self, *args, **kwargs):
        pass

    lr_lambdas = LambdaLR.lr_lambdas
    step = LambdaLR.step


MultiplicativeLR = override(MultiplicativeLR)
__all__.append('MultiplicativeLR')


class ConstantLR(Gnn.ConstantLR):
    def __new__(cls, optimizer, factor=1.0 / 3, total_iters=5, last_epoch=-1, verbose=False):
        return _set_verbose(_construct(Gnn.ConstantLR.new, optimizer, factor, total_iters, last_epoch), verbose)

    def __init__(self, *args, **kwargs):
        pass


ConstantLR = override(ConstantLR)
__all__.append('ConstantLR')


class PolynomialLR(Gnn.PolynomialLR):
    def __new__(cls, optimizer, total_iters=5, power=1.0, last_epoch=-1, verbose=False):
        return _set_verbose(_construct(Gnn.PolynomialLR.new, optimizer, total_iters, power, last_epoch), verbose)

    def __init__(self, *args, **kwargs):
        pass


PolynomialLR = override(PolynomialLR)
__all__.append('PolynomialLR')


def _print_epoch_lrs(scheduler, epoch):
    """PyTorch 1.13's print_lr with an epoch, as CosineAnnealingWarmRestarts prints it."""
    if scheduler._verbose:
        epoch_str = ('%.2f' if isinstance(epoch, float) else '%.5d') % epoch
        for i, lr in enumerate(Gnn.LRScheduler.get_last_lr(scheduler)):
            print('Epoch {}: adjusting learning rate of group {} to {:.4e}.'.format(epoch_str, i, lr))


class CosineAnnealingWarmRestarts(Gnn.CosineAnnealingWarmRestarts):
    """``CosineAnnealingWarmRestarts(optimizer, T_0, T_mult=1, eta_min=0, last_epoch=-1)``;
    ``step(epoch)`` takes a fractional epoch, as torch's."""

    def __new__(cls, optimizer, T_0, T_mult=1, eta_min=0, last_epoch=-1, verbose=False):
        if not isinstance(T_0, int) or isinstance(T_0, bool) or T_0 <= 0:
            raise ValueError('Expected positive integer T_0, but got {}'.format(T_0))
        if not isinstance(T_mult, int) or isinstance(T_mult, bool) or T_mult < 1:
            raise ValueError('Expected integer T_mult >= 1, but got {}'.format(T_mult))
        self = _construct(Gnn.CosineAnnealingWarmRestarts.new, optimizer, T_0, T_mult, eta_min, last_epoch)
        self._verbose = bool(verbose)
        _print_epoch_lrs(self, max(last_epoch + 1, 0))
        return self

    def __init__(self, *args, **kwargs):
        pass

    @property
    def T_cur(self):
        return self.get_t_cur()

    @property
    def T_i(self):
        return self.get_t_i()

    def step(self, epoch=None):
        """``scheduler.step()``, or ``scheduler.step(epoch)`` to move to any epoch, such as
        ``epoch + i / iters`` after each batch."""
        if epoch is None:
            epoch = max(self.last_epoch + 1, 0)
            _call_raising_python_errors(Gnn.LRScheduler.step, self)
        else:
            _construct(Gnn.CosineAnnealingWarmRestarts.step_to, self, float(epoch))
        _print_epoch_lrs(self, epoch)


CosineAnnealingWarmRestarts = override(CosineAnnealingWarmRestarts)
__all__.append('CosineAnnealingWarmRestarts')


def _scale_closure(scale_fn):
    """scale_fn as the double -> double closure of C; its exception is raised again by the
    caller, as lr_lambda's. torch gives it an int (the cycle or the step): so does this."""
    def call(x):
        return _call_lr_lambda(scale_fn, int(x) if float(x).is_integer() else x)
    return call


class CyclicLR(Gnn.CyclicLR):
    """``CyclicLR`` as torch's; momentum cycles on SGD's ``momentum`` or, as current
    PyTorch, on the first of Adam's ``betas``."""

    def __new__(cls, optimizer, base_lr, max_lr, step_size_up=2000, step_size_down=None, mode='triangular',
                gamma=1., scale_fn=None, scale_mode='cycle', cycle_momentum=True, base_momentum=0.8,
                max_momentum=0.9, last_epoch=-1, verbose=False):
        message = 'expected {n} values for {name}, got {got}'
        base_lrs = _per_group_as(message, 'base_lr', base_lr, optimizer)
        max_lrs = _per_group_as(message, 'max_lr', max_lr, optimizer)
        base_moms = max_moms = [0.0]
        if cycle_momentum:
            base_moms = _per_group_as(message, 'base_momentum', base_momentum, optimizer)
            max_moms = _per_group_as(message, 'max_momentum', max_momentum, optimizer)
        self = _construct(Gnn.CyclicLR.new, optimizer, base_lrs, max_lrs, float(step_size_up),
                          -1.0 if step_size_down is None else float(step_size_down), mode, float(gamma),
                          None if scale_fn is None else _scale_closure(scale_fn), scale_mode,
                          cycle_momentum, base_moms, max_moms, last_epoch)
        self._scale_fn_custom = scale_fn
        return _set_verbose(self, verbose)

    def __init__(self, *args, **kwargs):
        pass

    def _state(self, key):
        return Gnn.LRScheduler.state_dict(self).unpack().get(key)

    max_lrs = property(lambda self: self._state('max_lrs'))
    base_momentums = property(lambda self: self._state('base_momentums'))
    max_momentums = property(lambda self: self._state('max_momentums'))
    total_size = property(lambda self: self._state('total_size'))
    step_ratio = property(lambda self: self._state('step_ratio'))

    def step(self):
        _restoring_step(Gnn.LRScheduler.step, self)
        _print_lrs(self)


CyclicLR = override(CyclicLR)
__all__.append('CyclicLR')


class ChainedScheduler(Gnn.ChainedScheduler):
    """``ChainedScheduler(schedulers)``: steps every scheduler at once."""

    def __new__(cls, schedulers):
        return _construct(Gnn.ChainedScheduler.new, list(schedulers))

    def __init__(self, *args, **kwargs):
        pass

    @property
    def _schedulers(self):
        return [self.get_scheduler(i) for i in range(self.get_n_schedulers())]


ChainedScheduler = override(ChainedScheduler)
__all__.append('ChainedScheduler')


class ReduceLROnPlateau(Gnn.ReduceLROnPlateau):
    """``ReduceLROnPlateau`` as torch's: ``scheduler.step(val_loss)`` takes a float or a
    one-element tensor. Unlike 1.13's, it is an LRScheduler (as current PyTorch's), so
    ``get_last_lr()`` works from the start."""

    def __new__(cls, optimizer, mode='min', factor=0.1, patience=10, threshold=1e-4, threshold_mode='rel',
                cooldown=0, min_lr=0, eps=1e-8, verbose=False):
        min_lrs = _per_group_as('expected {n} min_lrs, got {got}', 'min_lr', min_lr, optimizer)
        self = _construct(Gnn.ReduceLROnPlateau.new, optimizer, mode, float(factor), patience, float(threshold),
                          threshold_mode, cooldown, min_lrs, float(eps))
        self._verbose = bool(verbose)
        return self

    def __init__(self, *args, **kwargs):
        pass

    def step(self, metrics, epoch=None):
        """``scheduler.step(metrics)``: the metric of the epoch (a float, or anything float()
        takes, such as a one-element tensor)."""
        import warnings
        current = float(metrics)
        if epoch is not None:
            warnings.warn(_EPOCH_DEPRECATION_WARNING, UserWarning)
            self.set_last_epoch(int(epoch) - 1)
        before = self.get_last_lr()
        _construct(Gnn.ReduceLROnPlateau.step_with_metric, self, current)
        if self._verbose:
            for i, (old, new) in enumerate(zip(before, self.get_last_lr())):
                if old != new:
                    print('Epoch {}: reducing learning rate of group {} to {:.4e}.'.format(
                        '%.5d' % self.last_epoch, i, new))

    min_lrs = property(lambda self: list(self.get_min_lrs()))
    best = property(lambda self: self.get_best())
    num_bad_epochs = property(lambda self: self.get_num_bad_epochs())
    cooldown_counter = property(lambda self: self.get_cooldown_counter())
    in_cooldown = property(lambda self: Gnn.ReduceLROnPlateau.in_cooldown(self))
    mode_worse = property(lambda self: float('inf') if self.mode == 'min' else float('-inf'))

    def is_better(self, a, best):
        if self.mode == 'min' and self.threshold_mode == 'rel':
            return a < best * (1. - self.threshold)
        if self.mode == 'min':
            return a < best - self.threshold
        if self.threshold_mode == 'rel':
            return a > best * (self.threshold + 1.)
        return a > best + self.threshold


ReduceLROnPlateau = override(ReduceLROnPlateau)
__all__.append('ReduceLROnPlateau')

# torch.optim.lr_scheduler.EPOCH_DEPRECATION_WARNING
_EPOCH_DEPRECATION_WARNING = (
    "The epoch parameter in `scheduler.step()` was not necessary and is being "
    "deprecated where possible. Please use `scheduler.step()` to step the "
    "scheduler. During the deprecation, if epoch is different from None, the "
    "closed form is used instead of the new chainable form, where available. "
    "Please open an issue if you are unable to replicate your use case: "
    "https://github.com/pytorch/pytorch/issues/new/choose."
)


class OneCycleLR(Gnn.OneCycleLR):
    def __new__(cls, optimizer, max_lr, total_steps=None, epochs=None, steps_per_epoch=None,
                pct_start=0.3, anneal_strategy='cos', cycle_momentum=True, base_momentum=0.85,
                max_momentum=0.95, div_factor=25., final_div_factor=1e4, three_phase=False,
                last_epoch=-1, verbose=False):
        def positive(name, v):
            if not isinstance(v, int) or isinstance(v, bool) or v <= 0:
                raise ValueError('Expected positive integer {}, but got {}'.format(name, v))
            return v
        ts = ep = spe = -1
        if total_steps is not None:
            ts = positive('total_steps', total_steps)
        elif epochs is not None and steps_per_epoch is not None:
            ep = positive('epochs', epochs)
            spe = positive('steps_per_epoch', steps_per_epoch)
        if not isinstance(pct_start, float):
            raise ValueError('Expected float between 0 and 1 pct_start, but got {}'.format(pct_start))
        scheduler = Gnn.OneCycleLR.new(optimizer, _per_group('max_lr', max_lr, optimizer), ts, ep, spe,
                                       pct_start, anneal_strategy, cycle_momentum,
                                       _per_group('base_momentum', base_momentum, optimizer),
                                       _per_group('max_momentum', max_momentum, optimizer), float(div_factor),
                                       float(final_div_factor), three_phase, last_epoch)
        return _set_verbose(scheduler, verbose)

    def __init__(self, *args, **kwargs):
        pass


OneCycleLR = override(OneCycleLR)
__all__.append('OneCycleLR')


class SequentialLR(Gnn.SequentialLR):
    def __new__(cls, optimizer, schedulers, milestones, last_epoch=-1, verbose=False):
        # verbose is accepted and prints nothing, as in PyTorch 1.13: the schedulers it runs print
        return _call_raising_python_errors(Gnn.SequentialLR.new, optimizer, list(schedulers),
                                           [int(m) for m in milestones], last_epoch)

    def __init__(self, *args, **kwargs):
        pass

    @property
    def _schedulers(self):
        return [self.get_scheduler(i) for i in range(self.get_n_schedulers())]

    @property
    def _milestones(self):
        return list(self.get_milestones())


SequentialLR = override(SequentialLR)
__all__.append('SequentialLR')


class SWALR(Gnn.SWALR):
    def __new__(cls, optimizer, swa_lr, anneal_epochs=10, anneal_strategy='cos', last_epoch=-1):
        if not isinstance(anneal_epochs, int) or isinstance(anneal_epochs, bool):
            raise ValueError('anneal_epochs must be equal or greater than 0, got {}'.format(anneal_epochs))
        return Gnn.SWALR.new(optimizer, _per_group('swa_lr', swa_lr, optimizer), anneal_epochs,
                             anneal_strategy, last_epoch)

    def __init__(self, *args, **kwargs):
        pass


SWALR = override(SWALR)
__all__.append('SWALR')
