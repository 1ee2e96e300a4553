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
