# torch.nn.utils.rnn: PackedSequence and the packing functions
#
# PackedSequence is torch's 4-field named tuple (data, batch_sizes, sorted_indices,
# unsorted_indices); the functions call the C ones (gnn/nn/gnn-packed-sequence.c), which take
# and give a GnnPackedSequence, and the recurrent layers' calls (layers.py) convert between the
# two.
#
# SPDX-License-Identifier: LGPL-2.1-or-later
import collections as _collections

from .base import Gnn
from .errors import raising_torch_errors as _raising

__all__ = []


def _export(fn):
    __all__.append(fn.__name__)
    return fn


class nn_utils_rnn_PackedSequence(_collections.namedtuple(
        'PackedSequence', ['data', 'batch_sizes', 'sorted_indices', 'unsorted_indices'])):
    """torch.nn.utils.rnn.PackedSequence: the steps of a batch of variable-length sequences,
    time-major and sorted by decreasing length, with how many sequences have each step
    (batch_sizes, int64 on the CPU) and the permutations between the original and the sorted
    batch (None when the batch came sorted). Made by pack_padded_sequence and pack_sequence,
    taken and given by RNN, LSTM and GRU."""
    __slots__ = ()

    def __new__(cls, data, batch_sizes=None, sorted_indices=None, unsorted_indices=None):
        if batch_sizes is None:
            raise ValueError('PackedSequence: batch_sizes is required (make one with '
                             'pack_padded_sequence or pack_sequence)')
        if unsorted_indices is None and sorted_indices is not None:
            unsorted_indices = Gnn.Tensor.argsort(sorted_indices, 0, False, True)
        return super().__new__(cls, data, batch_sizes, sorted_indices, unsorted_indices)

    def to(self, *args, **kwargs):
        """The packed sequence with data (and the indices, to data's device) converted as
        Tensor.to; batch_sizes stays on the CPU, as torch's."""
        data = self.data.to(*args, **kwargs)
        if data is self.data:
            return self
        device = data.get_device()

        def move(t):
            return None if t is None else t.to(device)
        return type(self)(data, self.batch_sizes, move(self.sorted_indices), move(self.unsorted_indices))

    def cuda(self, *args, **kwargs):
        return self.to('cuda', *args, **kwargs)

    def cpu(self, *args, **kwargs):
        return self.to('cpu', *args, **kwargs)

    def double(self):
        return self.to(dtype=Gnn.Dtype.FLOAT64)

    def float(self):
        return self.to(dtype=Gnn.Dtype.FLOAT32)

    @property
    def is_cuda(self):
        return self.data.get_device().startswith('cuda')

    def is_pinned(self):
        return False


nn_utils_rnn_PackedSequence.__module__ = 'gnn.nn.utils.rnn'
nn_utils_rnn_PackedSequence.__qualname__ = nn_utils_rnn_PackedSequence.__name__ = 'PackedSequence'
__all__.append('nn_utils_rnn_PackedSequence')


def to_c(sequence):
    """The GnnPackedSequence of a PackedSequence."""
    return Gnn.PackedSequence.new(sequence.data, sequence.batch_sizes, sequence.sorted_indices,
                                  sequence.unsorted_indices)


def from_c(packed):
    """The PackedSequence of a GnnPackedSequence."""
    return nn_utils_rnn_PackedSequence(packed.get_data(), packed.get_batch_sizes(),
                                       packed.get_sorted_indices(), packed.get_unsorted_indices())


def _lengths_tensor(lengths):
    """lengths (a list or tensor) as torch's pack_padded_sequence takes them: an int64 CPU tensor
    (a tensor is converted, its dimensions left for C to check)."""
    from .tensor import tensor
    if isinstance(lengths, Gnn.Tensor):
        if str(lengths.device) != 'cpu':
            lengths = lengths.to('cpu')
        return lengths.to(Gnn.Dtype.INT64)
    return tensor([int(v) for v in lengths], dtype=Gnn.Dtype.INT64)


def _sequence_list(sequences, name):
    sequences = list(sequences)
    for i, s in enumerate(sequences):
        if not isinstance(s, Gnn.Tensor):
            raise TypeError('%s(): expected a list of tensors, but sequences[%d] is %s'
                            % (name, i, type(s).__name__))
    return sequences


@_export
@_raising
def nn_utils_rnn_pack_padded_sequence(input, lengths, batch_first=False, enforce_sorted=True):
    """torch.nn.utils.rnn.pack_padded_sequence: the padded batch input (T, B, *), or (B, T, *)
    with batch_first, packed by its lengths (a list or a 1-d int64 CPU tensor)."""
    return from_c(Gnn.pack_padded_sequence(input, _lengths_tensor(lengths), bool(batch_first),
                                           bool(enforce_sorted)))


@_export
@_raising
def nn_utils_rnn_pad_packed_sequence(sequence, batch_first=False, padding_value=0.0, total_length=None):
    """torch.nn.utils.rnn.pad_packed_sequence: (padded, lengths), the batch in its original
    order, padded with padding_value to the longest length or total_length."""
    if total_length is not None and int(total_length) < 1:
        raise ValueError('Expected total_length to be at least the length of the longest sequence in '
                         'input, but got total_length=%d' % int(total_length))
    padded, lengths = Gnn.pad_packed_sequence(to_c(sequence), bool(batch_first), float(padding_value),
                                              0 if total_length is None else int(total_length))
    return padded, lengths


@_export
@_raising
def nn_utils_rnn_pad_sequence(sequences, batch_first=False, padding_value=0.0):
    """torch.nn.utils.rnn.pad_sequence: a list of (L_i, *) tensors stacked into (T, B, *), or
    (B, T, *) with batch_first, padded with padding_value."""
    if isinstance(sequences, Gnn.Tensor):
        sequences = list(sequences.unbind(0))
    return Gnn.pad_sequence(_sequence_list(sequences, 'pad_sequence'), bool(batch_first), float(padding_value))


@_export
@_raising
def nn_utils_rnn_pack_sequence(sequences, enforce_sorted=True):
    """torch.nn.utils.rnn.pack_sequence: a list of (L_i, *) tensors packed."""
    return from_c(Gnn.pack_sequence(_sequence_list(sequences, 'pack_sequence'), bool(enforce_sorted)))


@_export
@_raising
def nn_utils_rnn_unpad_sequence(padded_sequences, lengths, batch_first=False):
    """torch.nn.utils.rnn.unpad_sequence (PyTorch 2): the list of sequences of a padded batch."""
    return list(Gnn.unpad_sequence(padded_sequences, _lengths_tensor(lengths), bool(batch_first)))


@_export
@_raising
def nn_utils_rnn_unpack_sequence(packed_sequences):
    """torch.nn.utils.rnn.unpack_sequence (PyTorch 2): the list of sequences of a packed
    sequence, in the original batch order."""
    return list(Gnn.unpack_sequence(to_c(packed_sequences)))
