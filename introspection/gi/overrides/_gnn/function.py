# torch.autograd.Function as torch writes it: static forward (ctx, *args) and backward (ctx,
# *grads), Function.apply (*args), ctx.save_for_backward (*tensors), ctx.saved_tensors,
# ctx.needs_input_grad, ctx.mark_non_differentiable, setup_context (PyTorch 2's form) and
# once_differentiable, over Gnn.Function (gnn-function.c), whose node runs the backward.
#
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# Each class derived from autograd_Function gets a GObject subclass of Gnn.Function of its own,
# named after it, so that its node is "<Name>Backward" as in torch; one object of that subclass
# is the ctx of one call. Arguments that are not tensors are kept aside: C sees the tensors
# only, and backward's gradients for the other arguments must be None, as torch requires.
import functools

from gi.repository import GObject

from .base import Gnn, _call_raising_python_errors, _wrap_vfunc, no_grad

__all__ = ['autograd_Function', 'autograd_once_differentiable']


def _is_tensor(value):
    return isinstance(value, Gnn.Tensor)


class _Ctx(Gnn.Function):
    """The ctx of one call of a torch-style Function: a Gnn.Function whose forward and
    backward call the class's static methods."""
    __gtype_name__ = 'GnnPyTorchStyleFunction'
    # PyGObject registers no GType for a class of a gi.overrides module (it takes it for an
    # override of the class it derives from): these are new types
    __module__ = 'gnn.autograd.function'

    def _bind(self, fn_cls, args):
        self._fn_cls = fn_cls
        self._args = args
        self._tensor_pos = [i for i, a in enumerate(args) if _is_tensor(a)]
        self._saved_none = None
        self._non_differentiable = []
        self._non_differentiable_outputs = ()
        self._single = False
        self._extra = None

    # torch's ctx API

    def save_for_backward(self, *tensors):
        """ctx.save_for_backward (*tensors): tensors (or None) that backward reads back
        through ctx.saved_tensors, checked against in-place changes."""
        for i, t in enumerate(tensors):
            if t is not None and not _is_tensor(t):
                raise TypeError('save_for_backward can only save variables, but argument %d is of '
                                'type %s' % (i, type(t).__name__))
        self._saved_none = [t is None for t in tensors]
        Gnn.Function.save_for_backward(self, [t for t in tensors if t is not None])

    def save_for_forward(self, *tensors):
        raise NotImplementedError('save_for_forward: gnn has no forward-mode automatic '
                                  'differentiation')

    @property
    def saved_tensors(self):
        """ctx.saved_tensors: what save_for_backward saved, as a tuple."""
        if self._saved_none is None:
            return ()
        saved = iter(self.get_saved_tensors())
        return tuple(None if none else next(saved) for none in self._saved_none)

    @property
    def needs_input_grad(self):
        """ctx.needs_input_grad: for each argument of forward, whether its gradient is needed
        (False for an argument that is not a tensor)."""
        needs = [False] * len(self._args)
        for k, i in enumerate(self._tensor_pos):
            needs[i] = Gnn.Function.needs_input_grad(self, k)
        return tuple(needs)

    def mark_non_differentiable(self, *tensors):
        """ctx.mark_non_differentiable (*outputs): those outputs do not require grad, and
        backward receives zeros for them."""
        self._non_differentiable.extend(tensors)

    def mark_dirty(self, *tensors):
        raise NotImplementedError('mark_dirty: a torch-style Function here cannot modify its inputs '
                                  'in place; return new tensors instead')

    def set_materialize_grads(self, value):
        if not value:
            raise NotImplementedError('set_materialize_grads(False): backward always receives '
                                      'tensors here (zeros for outputs that got no gradient)')

    # Gnn.Function's virtual methods

    @_wrap_vfunc
    def do_forward(self, inputs):
        args = list(self._args)
        for k, i in enumerate(self._tensor_pos):
            args[i] = inputs[k]
        fn_cls = self._fn_cls
        if fn_cls._has_setup_context:
            out = fn_cls.forward(*args)
            fn_cls.setup_context(self, tuple(args), out)
        else:
            out = fn_cls.forward(self, *args)
        self._single = not isinstance(out, tuple)
        outs = (out,) if self._single else out
        self._extra = [(i, o) for i, o in enumerate(outs) if not _is_tensor(o)]
        self._n_outs = len(outs)
        tensors = [o for o in outs if _is_tensor(o)]
        self._non_differentiable_outputs = {
            k for k, t in enumerate(tensors) if any(t is m for m in self._non_differentiable)}
        if not tensors:
            raise TypeError('%s.forward returned no tensor: a Function must return at least one '
                            'tensor' % fn_cls.__name__)
        return tensors

    @_wrap_vfunc
    def do_backward(self, grad_outputs):
        fn_cls = self._fn_cls
        grads = list(grad_outputs)
        if self._extra:
            full = [None] * self._n_outs
            it = iter(grads)
            extra = dict(self._extra)
            for i in range(self._n_outs):
                full[i] = None if i in extra else next(it)
            grads = full
        result = fn_cls.backward(self, *grads)
        if not isinstance(result, tuple):
            result = (result,)
        n = len(self._args)
        # torch accepts extra trailing Nones
        while len(result) > n and result[-1] is None:
            result = result[:-1]
        if len(result) != n:
            raise RuntimeError('function %sBackward returned an incorrect number of gradients '
                               '(expected %d, got %d)' % (fn_cls.__name__, n, len(result)))
        tensor_pos = set(self._tensor_pos)
        for i, g in enumerate(result):
            if i not in tensor_pos and g is not None:
                raise RuntimeError('function %sBackward returned a gradient different than None at '
                                   'position %d, but the corresponding forward input was not a '
                                   'Variable' % (fn_cls.__name__, i + 1))
        return [result[i] for i in self._tensor_pos]


def _type_exists(name):
    try:
        return GObject.type_from_name(name) != GObject.TYPE_INVALID
    except RuntimeError:   # PyGObject: unknown type name
        return False


def _ctx_type_for(fn_cls):
    """The GObject subclass of _Ctx for fn_cls, named after it (made once)."""
    ctx_type = fn_cls.__dict__.get('_ctx_type')
    if ctx_type is None:
        name = fn_cls.__name__
        k = 1
        while _type_exists(name):
            k += 1
            name = '%s_%d' % (fn_cls.__name__, k)
        ctx_type = type(fn_cls.__name__ + 'Ctx', (_Ctx,),
                        {'__gtype_name__': name, '__module__': 'gnn.autograd.function'})
        fn_cls._ctx_type = ctx_type
    return ctx_type


class autograd_Function:
    """torch.autograd.Function: derive, write static forward (ctx, *args) and backward (ctx,
    *grad_outputs) (or PyTorch 2's forward (*args) with setup_context (ctx, inputs, output)),
    and call Class.apply (*args). The node of the call is named "<Class>Backward"."""

    _has_setup_context = False

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        cls._has_setup_context = cls.setup_context is not autograd_Function.setup_context

    def __call__(self, *args, **kwargs):
        raise RuntimeError('Legacy autograd function with non-static forward method is deprecated. '
                           'Please use new-style autograd function with static forward method. '
                           '(Example: https://pytorch.org/docs/stable/autograd.html#torch.autograd.Function)')

    @staticmethod
    def forward(ctx, *args, **kwargs):
        raise NotImplementedError('You must implement the forward function for custom '
                                  'autograd.Function.')

    @staticmethod
    def setup_context(ctx, inputs, output):
        raise NotImplementedError('setup_context is not implemented.')

    @staticmethod
    def backward(ctx, *grad_outputs):
        raise NotImplementedError('You must implement either the backward or vjp method for your '
                                  'custom autograd.Function to use it with backward mode AD.')

    vjp = backward

    @classmethod
    def apply(cls, *args, **kwargs):
        """Runs forward with grad mode off and, when an argument requires grad, records a node
        whose backward is cls.backward. Returns what forward returned."""
        if kwargs:
            raise TypeError('%s.apply takes its arguments by position only (torch 1.13 does not '
                            'accept keywords either)' % cls.__name__)
        if cls is autograd_Function:
            raise RuntimeError('autograd.Function itself cannot be applied: derive a class')
        ctx = _ctx_type_for(cls)()
        ctx._bind(cls, args)
        outs = _call_raising_python_errors(ctx.apply, [args[i] for i in ctx._tensor_pos])
        if ctx._non_differentiable_outputs:
            outs = [o.detach() if k in ctx._non_differentiable_outputs else o
                    for k, o in enumerate(outs)]
        if ctx._extra:
            full = []
            it = iter(outs)
            extra = dict(ctx._extra)
            for i in range(ctx._n_outs):
                full.append(extra[i] if i in extra else next(it))
            outs = full
        return outs[0] if ctx._single else tuple(outs)


def autograd_once_differentiable(fn):
    """torch.autograd.function.once_differentiable: backward runs with grad mode off, so
    that its result cannot be differentiated again."""
    @functools.wraps(fn)
    def wrapper(ctx, *args):
        with no_grad():
            return fn(ctx, *args)
    return wrapper
