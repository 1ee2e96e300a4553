# the Transformer layers with torch's constructor and forward signatures
#
# The C layers (gnn/nn/gnn-transformer.c) hold their hyperparameters as properties; here they
# take torch's arguments in torch's order. activation is "relu" / "gelu", F.relu / F.gelu
# (the C layer's string property), a module (registered as the child `activation`, as torch
# registers it), or any other callable (wrapped in a module that calls it, which is then that
# child: torch keeps a plain function as an attribute that is no child).
#
# SPDX-License-Identifier: LGPL-2.1-or-later
from .base import Gnn, _call_raising_python_errors, override
from .layers import _layer_init
from . import functional as _F

__all__ = []

# torch's default is the function F.relu itself
_ACTIVATION = ('activation', _F.relu)
_LAYER = ['d_model', 'nhead', ('dim_feedforward', 2048), ('dropout', 0.1), _ACTIVATION,
          ('layer_norm_eps', 1e-5), ('batch_first', False), ('norm_first', False), ('device', None),
          ('dtype', None)]


def _activation_class():
    from .module import Module

    class CallableActivation(Module):
        """A callable given as a Transformer layer's activation, as a module."""
        __gtype_name__ = 'GnnCallableActivation'
        __module__ = 'gnn.nn.modules.transformer'   # (a gi.overrides module gets no GType)

        def __init__(self, fn=None):
            super().__init__()
            self.fn = fn

        def forward(self, x):
            return self.fn(x)

        def extra_repr(self):
            return getattr(self.fn, '__name__', repr(self.fn))

    return CallableActivation


_CALLABLE_ACTIVATION = []


def _activation_arguments(activation):
    """The keyword arguments of the C layer for torch's activation argument."""
    from . import functional as F
    if isinstance(activation, str):
        return {'activation': activation}
    if activation is F.relu:
        return {'activation': 'relu'}
    if activation is F.gelu:
        return {'activation': 'gelu'}
    if isinstance(activation, Gnn.Module):
        return {'activation_module': activation}
    if callable(activation):
        if not _CALLABLE_ACTIVATION:
            _CALLABLE_ACTIVATION.append(_activation_class())
        return {'activation_module': _CALLABLE_ACTIVATION[0](activation)}
    raise TypeError('activation should be relu/gelu, a module or a callable, not %r' % (activation,))


def _with_activation(init, names):
    """__init__ that turns torch's activation argument (positional or keyword) into the C
    layer's properties before @init."""
    index = names.index('activation')

    def __init__(self, *args, **kwargs):
        args = list(args)
        if len(args) > index:
            activation = args.pop(index)
            if len(args) > index:     # keep the positions after it: give them as keywords
                for name, value in zip(names[index + 1:], args[index:]):
                    if name in kwargs:
                        raise TypeError("%s() got multiple values for argument '%s'" % (type(self).__name__, name))
                    kwargs[name] = value
                del args[index:]
        else:
            activation = kwargs.pop('activation', 'relu')
        kwargs.update(_activation_arguments(activation))
        init(self, *args, **kwargs)
    __init__.__signature__ = init.__signature__
    __init__.__doc__ = init.__doc__
    return __init__


def _layer_class(name, signature):
    names = [s if isinstance(s, str) else s[0] for s in signature]
    init = _layer_init(name, [s for s in signature if s is not _ACTIVATION])
    # the activation goes in again for inspect.signature and help ()
    from .layers import _signature_of
    init.__signature__ = _signature_of(signature)
    cls = type(name, (getattr(Gnn, name),), {'__init__': _with_activation(init, names), '__module__': __name__})
    return override(cls)


def _encoder_layer_call(self, src, src_mask=None, src_key_padding_mask=None, is_causal=False):
    """TransformerEncoderLayer(src, src_mask=None, src_key_padding_mask=None, is_causal=False)."""
    from .module import Args, _output_of
    return _output_of(_call_raising_python_errors(
        Gnn.Module.forward, self, Args.pack(src, src_mask, src_key_padding_mask, bool(is_causal))))


TransformerEncoderLayer = _layer_class('TransformerEncoderLayer', _LAYER)
TransformerEncoderLayer.__call__ = _encoder_layer_call
__all__.append('TransformerEncoderLayer')


def _stack_class(name, signature):
    cls = type(name, (getattr(Gnn, name),), {'__init__': _layer_init(name, signature), '__module__': __name__})
    return override(cls)


def _encoder_call(self, src, mask=None, src_key_padding_mask=None, is_causal=None):
    """TransformerEncoder(src, mask=None, src_key_padding_mask=None, is_causal=None)."""
    from .module import Args, _output_of
    return _output_of(_call_raising_python_errors(
        Gnn.Module.forward, self, Args.pack(src, mask, src_key_padding_mask,
                                            None if is_causal is None else bool(is_causal))))


TransformerEncoder = _stack_class('TransformerEncoder', ['encoder_layer', 'num_layers', ('norm', None),
                                                         ('enable_nested_tensor', True), ('mask_check', True)])
TransformerEncoder.__call__ = _encoder_call
__all__.append('TransformerEncoder')


def _decoder_layer_call(self, tgt, memory, tgt_mask=None, memory_mask=None, tgt_key_padding_mask=None,
                        memory_key_padding_mask=None, tgt_is_causal=False, memory_is_causal=False):
    """TransformerDecoderLayer(tgt, memory, tgt_mask=None, memory_mask=None, tgt_key_padding_mask=None,
    memory_key_padding_mask=None, tgt_is_causal=False, memory_is_causal=False)."""
    from .module import Args, _output_of
    return _output_of(_call_raising_python_errors(
        Gnn.Module.forward, self, Args.pack(tgt, memory, tgt_mask, memory_mask, tgt_key_padding_mask,
                                            memory_key_padding_mask, bool(tgt_is_causal), bool(memory_is_causal))))


def _decoder_call(self, tgt, memory, tgt_mask=None, memory_mask=None, tgt_key_padding_mask=None,
                  memory_key_padding_mask=None, tgt_is_causal=None, memory_is_causal=False):
    """TransformerDecoder(tgt, memory, tgt_mask=None, memory_mask=None, tgt_key_padding_mask=None,
    memory_key_padding_mask=None, tgt_is_causal=None, memory_is_causal=False)."""
    from .module import Args, _output_of
    return _output_of(_call_raising_python_errors(
        Gnn.Module.forward, self, Args.pack(tgt, memory, tgt_mask, memory_mask, tgt_key_padding_mask,
                                            memory_key_padding_mask,
                                            None if tgt_is_causal is None else bool(tgt_is_causal),
                                            bool(memory_is_causal))))


TransformerDecoderLayer = _layer_class('TransformerDecoderLayer', _LAYER)
TransformerDecoderLayer.__call__ = _decoder_layer_call
TransformerDecoder = _stack_class('TransformerDecoder', ['decoder_layer', 'num_layers', ('norm', None)])
TransformerDecoder.__call__ = _decoder_call
__all__ += ['TransformerDecoderLayer', 'TransformerDecoder']


def _transformer_call(self, src, tgt, src_mask=None, tgt_mask=None, memory_mask=None, src_key_padding_mask=None,
                      tgt_key_padding_mask=None, memory_key_padding_mask=None, src_is_causal=None,
                      tgt_is_causal=None, memory_is_causal=False):
    """Transformer(src, tgt, src_mask=None, tgt_mask=None, memory_mask=None, src_key_padding_mask=None,
    tgt_key_padding_mask=None, memory_key_padding_mask=None, src_is_causal=None, tgt_is_causal=None,
    memory_is_causal=False)."""
    from .module import Args, _output_of
    return _output_of(_call_raising_python_errors(
        Gnn.Module.forward, self, Args.pack(src, tgt, src_mask, tgt_mask, memory_mask, src_key_padding_mask,
                                            tgt_key_padding_mask, memory_key_padding_mask,
                                            None if src_is_causal is None else bool(src_is_causal),
                                            None if tgt_is_causal is None else bool(tgt_is_causal),
                                            bool(memory_is_causal))))


def _generate_square_subsequent_mask(sz, device=None, dtype=None):
    """torch.nn.Transformer.generate_square_subsequent_mask(sz, device=None, dtype=None): the
    (sz, sz) float mask with -inf above the diagonal and 0 elsewhere."""
    from .module import _as_dtype
    from .tensor import _device_string
    return _call_raising_python_errors(
        _c_generate_square_subsequent_mask, int(sz),
        Gnn.Dtype.FLOAT32 if dtype is None else _as_dtype(dtype), _device_string(device))


# gnn_transformer_generate_square_subsequent_mask, which GI makes a static method of the class
_c_generate_square_subsequent_mask = Gnn.Transformer.generate_square_subsequent_mask
Transformer = _layer_class('Transformer', [
    ('d_model', 512), ('nhead', 8), ('num_encoder_layers', 6), ('num_decoder_layers', 6),
    ('dim_feedforward', 2048), ('dropout', 0.1), _ACTIVATION, ('custom_encoder', None), ('custom_decoder', None),
    ('layer_norm_eps', 1e-5), ('batch_first', False), ('norm_first', False), ('device', None), ('dtype', None)])
Transformer.__call__ = _transformer_call
Transformer.generate_square_subsequent_mask = staticmethod(_generate_square_subsequent_mask)
__all__.append('Transformer')
