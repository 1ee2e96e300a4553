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
