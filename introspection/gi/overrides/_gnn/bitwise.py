# torch's bitwise, integer and logical functions (gnn-ops-bitwise.c), tensors or numbers on
# either side, as torch.X and Tensor.X (names.py)
#
# SPDX-License-Identifier: LGPL-2.1-or-later
from .base import Gnn
from .errors import translating_errors
from .functions import _math_binary

__all__ = ['bitwise_and', 'bitwise_or', 'bitwise_xor', 'bitwise_left_shift', 'bitwise_right_shift',
           'gcd', 'lcm', 'logical_and', 'logical_or', 'logical_xor', 'logical_not', 'bitwise_not']

bitwise_and = _math_binary('bitwise_and', Gnn.Tensor.bitwise_and)
bitwise_or = _math_binary('bitwise_or', Gnn.Tensor.bitwise_or)
bitwise_xor = _math_binary('bitwise_xor', Gnn.Tensor.bitwise_xor)
bitwise_left_shift = _math_binary('bitwise_left_shift', Gnn.Tensor.bitwise_left_shift)
bitwise_right_shift = _math_binary('bitwise_right_shift', Gnn.Tensor.bitwise_right_shift)
gcd = _math_binary('gcd', Gnn.Tensor.gcd)
lcm = _math_binary('lcm', Gnn.Tensor.lcm)
logical_and = _math_binary('logical_and', Gnn.Tensor.logical_and)
logical_or = _math_binary('logical_or', Gnn.Tensor.logical_or)
logical_xor = _math_binary('logical_xor', Gnn.Tensor.logical_xor)


@translating_errors
def logical_not(input, *, out=None):
    """torch.logical_not: where input is zero, a bool tensor."""
    if out is not None:
        raise TypeError('logical_not(): out= is not supported by gnn (its ops return new tensors)')
    return Gnn.Tensor.logical_not(input)


@translating_errors
def bitwise_not(input, *, out=None):
    """torch.bitwise_not: ~input, for integer and bool tensors."""
    if out is not None:
        raise TypeError('bitwise_not(): out= is not supported by gnn (its ops return new tensors)')
    return Gnn.Tensor.bitwise_not(input)


# ---- the operators &, |, ^, <<, >>, ~ of Tensor (bool-only before these ops existed) ----

def _operator(symbol, fn, reflected=False):
    from .tensor import _as_operand

    def method(self, other):
        other = _as_operand(other)
        if other is None:
            return NotImplemented
        # a floating operand is a TypeError here, as gnn's operators have always answered
        if self.is_floating_point() or (isinstance(other, Gnn.Tensor) and other.is_floating_point()) \
                or isinstance(other, float):
            raise TypeError('%s is only implemented for integer and bool tensors' % symbol)
        return fn(other, self) if reflected else fn(self, other)
    return method


def _invert(self):
    if self.is_floating_point():
        raise TypeError('~ (operator.invert) is only implemented on integer and Boolean-type tensors')
    return bitwise_not(self)


def _install_operators():
    from .tensor import Tensor
    for name, symbol, fn in (('and', '&', bitwise_and), ('or', '|', bitwise_or), ('xor', '^', bitwise_xor),
                             ('lshift', '<<', bitwise_left_shift), ('rshift', '>>', bitwise_right_shift)):
        setattr(Tensor, '__%s__' % name, _operator(symbol, fn))
        setattr(Tensor, '__r%s__' % name, _operator(symbol, fn, reflected=True))
    Tensor.__invert__ = _invert


_install_operators()
