# saving and loading state dicts (torch.save, torch.load) as safetensors
#
# gnn.save (obj, f) and gnn.load (f) keep torch's argument order but never pickle: what they
# write is a safetensors file, which gnn's C API, safetensors.torch.load_file and
# Gnn.Checkpoint read too.
#
# - A mapping of names to tensors (a module's state_dict(), a dict of Gnn, torch or numpy
#   tensors) is a plain safetensors file, its keys as they are; metadata= is its
#   __metadata__, which gnn.load gives back as the .metadata of the state dict it returns.
# - An optimizer's state_dict() (tensors, numbers and options), or the checkpoint idiom, a
#   dict such as {'model': sd, 'optimizer': osd, 'scheduler': ssd, 'epoch': 5}, is a file in
#   the format of Gnn.Checkpoint (see its documentation): the model's tensors under
#   "model.", the optimizer's under "optimizer." with its other entries in "gnn.optimizer",
#   the scheduler's state in "gnn.scheduler"; Gnn.Checkpoint (model=m, optimizer=o,
#   scheduler=s).load (path) loads such a file into the objects, and gnn.load reads a file
#   that Gnn.Checkpoint.save wrote. The other entries of the dict (numbers, strings, bools,
#   None, lists and dicts of them) are the checkpoint's metadata, written as JSON text under
#   their own names; metadata= adds text as it is. gnn.load gives back a dict of the same
#   keys, each metadata text that is JSON decoded (so metadata={'n': '5'} comes back as 5);
#   a file holding an optimizer's state alone loads as that state dict.
#
# SPDX-License-Identifier: LGPL-2.1-or-later
import json
import os

from .base import Gnn
from .state_dict import StateDict, _as_gnn_tensor

__all__ = []

_FORMAT_VERSION = '1'
_SECTIONS = ('model', 'optimizer', 'scheduler')


def _gnn_error(code, message):
    from gi.repository import GLib
    return GLib.Error(message, GLib.quark_to_string(Gnn.error_quark()), int(code))


# ---- the text form of a state's non-tensor values, as gnn-checkpoint.c writes and reads it

def _value_to_text(key, value):
    from gi.repository import GLib
    if value is None:
        return 'null:'
    if isinstance(value, GLib.Variant):
        return 'variant:' + value.print_(True)
    if isinstance(value, bool):
        return 'boolean:' + ('true' if value else 'false')
    if isinstance(value, int):
        return 'int64:%d' % value
    if isinstance(value, float):
        return 'double:' + repr(value)
    raise TypeError('"%s": a %s cannot be saved in a state dict file (expected a tensor, a GLib.Variant, '
                    'a number, a bool or None)' % (key, type(value).__name__))


def _text_to_value(where, key, text):
    from gi.repository import GLib
    kind, _, rest = text.partition(':')
    try:
        if kind == 'null':
            return None
        if kind == 'variant':
            return GLib.Variant.parse(None, rest, None, None)
        if kind == 'double':
            return float(rest)
        if kind == 'int64':
            return int(rest)
        if kind == 'boolean' and rest in ('true', 'false'):
            return rest == 'true'
    except (ValueError, GLib.Error):
        pass
    raise _gnn_error(Gnn.Error.FILE_FORMAT, "%s: \"%s\" expects 'variant:', 'double:', 'int64:' or "
                     "'boolean:' and a value, found '%s'" % (where, key, text))


def _set_entry(sd, key, value):
    """Stores a loaded value into a Gnn.StateDict: None as an empty tensor slot, as C does."""
    if value is None:
        from gi.repository import GObject
        gv = GObject.Value(Gnn.Tensor)
        gv.set_object(None)
        Gnn.StateDict.set_value(sd, key, gv)
    else:
        sd[key] = value


# ---- what an object to save is

def _refuse_module(obj, what):
    if isinstance(obj, Gnn.Module) or (hasattr(obj, 'state_dict') and hasattr(obj, 'parameters')
                                       and hasattr(obj, 'forward')):   # a torch module too
        raise TypeError('%s is a whole module (%s): gnn saves state dicts, not modules; save '
                        'model.state_dict() and load it with model.load_state_dict(gnn.load(f))'
                        % (what, type(obj).__name__))
    if isinstance(obj, Gnn.Optimizer):
        raise TypeError('%s is an optimizer (%s): save optimizer.state_dict()' % (what, type(obj).__name__))


def _entries(obj):
    return list(obj.items())


def _is_tensor_dict(obj):
    return all(_as_gnn_tensor(v) is not None for _, v in _entries(obj))


def _holds_no_tensor(obj):
    return all(_as_gnn_tensor(v) is None for _, v in _entries(obj))


def _is_optimizer_state(obj):
    """Whether a mapping is a gnn optimizer's state_dict(): state.<n>.<name> and
    param_groups.<g>.<option> entries."""
    keys = [k for k, _ in _entries(obj)]
    return bool(keys) and all(isinstance(k, str) and k.startswith(('state.', 'param_groups.')) for k in keys)


def _tensor_state(obj, what):
    """A Gnn.StateDict of the tensors of a mapping; a TypeError names an entry that is not one."""
    out = StateDict()
    for key, value in _entries(obj):
        if not isinstance(key, str):
            raise TypeError('%s: the keys of a state dict are strings, not %s' % (what, type(key).__name__))
        tensor = _as_gnn_tensor(value)
        if tensor is None:
            raise TypeError('%s: "%s" is a %s; a state dict saved as safetensors holds tensors only (an '
                            "optimizer's state_dict() or a dict of state dicts is saved as a checkpoint)"
                            % (what, key, type(value).__name__))
        Gnn.StateDict.set_tensor(out, key, tensor)
    return out


def _split(obj, prefix, tensors, what):
    """The tensors of a state into tensors (under prefix), the rest as a dict of texts."""
    values = {}
    for key, value in _entries(obj):
        tensor = _as_gnn_tensor(value)
        if tensor is not None:
            Gnn.StateDict.set_tensor(tensors, prefix + key, tensor)
        else:
            values[key] = _value_to_text('%s: %s' % (what, key), value)
    return values


def _checkpoint(obj, metadata):
    """The tensors and metadata of the Gnn.Checkpoint file for a dict of states and values."""
    tensors = StateDict()
    meta = {'gnn.checkpoint': _FORMAT_VERSION}
    for key, value in obj.items():
        if not isinstance(key, str):
            raise TypeError('the keys of a checkpoint dict are strings, not %s' % type(key).__name__)
        if key.startswith('gnn.'):
            raise ValueError('"%s": names starting with "gnn." are the checkpoint format\'s own' % key)
        _refuse_module(value, '"%s"' % key)
        if key == 'model':
            meta['gnn.model.values'] = json.dumps(_split(value, 'model.', tensors, 'model'))
        elif key == 'optimizer':
            state = _split(value, 'optimizer.', tensors, 'optimizer')
            kind = getattr(value, '_gnn_type', None) or 'GnnOptimizer'
            meta['gnn.optimizer'] = json.dumps({'type': kind, 'state': state})
        elif key == 'scheduler':
            variant = getattr(value, '_gnn_variant', None)
            kind = getattr(value, '_gnn_type', None)
            if variant is None or kind is None:
                raise TypeError('"scheduler": save the dict a gnn scheduler\'s state_dict() returns (it '
                                'knows its class and its types), not a %s' % type(value).__name__)
            from .lr_scheduler import _variant_like
            meta['gnn.scheduler'] = json.dumps(
                {'type': kind, 'state': _variant_like(variant, dict(value)).print_(True)})
        else:
            try:
                if isinstance(value, Gnn.StateDict) or (hasattr(value, 'items') and not _holds_no_tensor(value)):
                    raise TypeError
                meta[key] = json.dumps(value)
            except TypeError:
                raise TypeError('"%s": a %s cannot be saved in a checkpoint, which holds the states "model", '
                                '"optimizer" and "scheduler" (averaged models are saved by Gnn.Checkpoint); '
                                'its other entries are numbers, strings, bools, None, or lists and dicts of '
                                'them' % (key, type(value).__name__)) from None
    meta.update(metadata or {})
    return tensors, meta


def _check_metadata(metadata):
    if metadata is None:
        return None
    if not hasattr(metadata, 'items'):
        raise TypeError('metadata is a dict of strings, not %s' % type(metadata).__name__)
    for key, value in metadata.items():
        if not isinstance(key, str) or not isinstance(value, str):
            raise TypeError('metadata is a dict of strings (as safetensors stores it); "%s" is a %s'
                            % (key, type(value).__name__))
        if key.startswith('gnn.'):
            raise ValueError('metadata "%s": names starting with "gnn." are gnn\'s own' % key)
    return dict(metadata)


def save(obj, f, *, metadata=None):
    """``torch.save(obj, f)`` as safetensors: obj is a state dict (a module's, an
    optimizer's) or a dict of them and plain values (the checkpoint idiom), f a path (str or
    os.PathLike, written atomically: a temporary file beside it renamed over it) or a binary
    file object; metadata a dict of strings stored in the file's ``__metadata__``. A whole
    module raises TypeError: save its state_dict()."""
    _refuse_module(obj, 'the object to save')
    metadata = _check_metadata(metadata)
    if not hasattr(obj, 'items'):
        raise TypeError('gnn.save saves a state dict or a dict of them, not a %s' % type(obj).__name__)
    from .optim import _is_nested_state
    if _is_nested_state(obj):
        raise TypeError("this is PyTorch's nested optimizer state ({'state', 'param_groups'}): load it "
                        'into a gnn optimizer (its load_state_dict takes it) and save that '
                        "optimizer's state_dict()")
    if _is_tensor_dict(obj):
        tensors = _tensor_state(obj, 'the state dict')
    elif _is_optimizer_state(obj):
        tensors, metadata = _checkpoint({'optimizer': obj}, metadata)
    else:
        tensors, metadata = _checkpoint(obj, metadata)
    if isinstance(f, (str, bytes, os.PathLike)):
        Gnn.safetensors_save(tensors, metadata, os.fsdecode(f))
    elif hasattr(f, 'write'):
        f.write(Gnn.safetensors_save_to_bytes(tensors, metadata).get_data())
    else:
        raise TypeError('f is a path (str or os.PathLike) or a binary file object, not %s' % type(f).__name__)


# ---- loading

_PICKLE_HELP = ('gnn reads safetensors files and never unpickles; convert it once where PyTorch is '
                'installed:\n'
                '    import torch, gnn\n'
                "    gnn.save(torch.load('%s', map_location='cpu'), 'model.safetensors')\n"
                "(or safetensors.torch.save_file(...) in place of gnn.save for a state dict of tensors)")


def _looks_like_safetensors(head, size):
    """A safetensors file starts with its header's length (8 bytes, little-endian), then '{'."""
    n = int.from_bytes(head[:8], 'little')
    return len(head) >= 9 and head[8:9] == b'{' and 0 < n <= size - 8


def _pickle_kind(head, size, data_member):
    if _looks_like_safetensors(head, size):
        return None     # a header of 128 + 256k bytes starts with 0x80 too
    if head[:4] == b'PK\x03\x04' and data_member():
        return 'a PyTorch pickle (the zip file torch.save writes)'
    if head[:1] == b'\x80' and head[1:2] in (b'\x02', b'\x03', b'\x04', b'\x05'):
        return 'a PyTorch pickle (the legacy format, torch.save(..., _use_new_zipfile_serialization=False))'
    return None


def _zip_has_data_pkl(source):
    import zipfile
    try:
        with zipfile.ZipFile(source) as z:
            return any(n == 'data.pkl' or n.endswith('/data.pkl') for n in z.namelist())
    except (zipfile.BadZipFile, OSError, ValueError):
        return False


def _refuse_pickle(head, size, name, source):
    kind = _pickle_kind(head, size, lambda: _zip_has_data_pkl(source))
    if kind:
        raise _gnn_error(Gnn.Error.FILE_FORMAT, '%s: expected a safetensors file, found %s. %s'
                         % (name, kind, _PICKLE_HELP % name))


def _map_location(map_location):
    """A function moving a loaded tensor where map_location says: None (where it was saved,
    the host), a device (str or Gnn.device), or a dict from saved device to device."""
    from .tensor import _device_string
    if map_location is None:
        return lambda t: t
    if isinstance(map_location, dict):
        table = {str(k): _device_string(v) for k, v in map_location.items()}
        return lambda t: t.to_device(table[t.get_device()]) if t.get_device() in table else t
    if callable(map_location) and not isinstance(map_location, str):
        raise ValueError('map_location as a function is not supported (gnn passes no storages); give a '
                         'device or a dict of devices')
    device = _device_string(map_location)
    return lambda t: t if t.get_device() == device else t.to_device(device)


def _meta_json(meta, key, where, members=None):
    """The JSON object of metadata entry @key, checked: with @members (name -> (kind, required),
    a kind of _JSON_KINDS), an object with those members; without, an object of strings. What
    does not fit is a GNN_ERROR_FILE_FORMAT naming the entry, what it expected and what it
    found, never a KeyError or a RecursionError."""
    def refuse(what):
        return _gnn_error(Gnn.Error.FILE_FORMAT, '%s: "%s" %s' % (where, key, what))

    try:
        obj = json.loads(meta[key])
    except RecursionError:
        raise refuse('is nested too deeply to be gnn\'s (expected a flat JSON object)') from None
    except ValueError as e:
        raise refuse('is not JSON: %s' % e) from None
    if members is None:
        _check_json(obj, 'strings', refuse, 'is')
        return obj
    _check_json(obj, 'object', refuse, 'is')
    for name, (kind, required) in members.items():
        if name in obj:
            _check_json(obj[name], kind, refuse, 'has a member "%s" that is' % name)
        elif required:
            raise refuse('has no member "%s" (expected %s)' % (name, _JSON_KINDS[kind][1]))
    return obj


# kind -> (test, what it is called in a message)
_JSON_KINDS = {
    'object': (lambda v: isinstance(v, dict), 'a JSON object'),
    'strings': (lambda v: isinstance(v, dict) and all(isinstance(x, str) for x in v.values()),
                'a JSON object of strings'),
    'str': (lambda v: isinstance(v, str), 'a string'),
    'uint64': (lambda v: isinstance(v, str) and v.isascii() and v.isdigit() and int(v) < 1 << 64,
               'a string of decimal digits (an unsigned 64-bit integer)'),
}
_JSON_NAMES = {dict: 'an object', list: 'an array', str: 'a string', int: 'a number', float: 'a number',
               bool: 'a boolean', type(None): 'null'}


def _check_json(value, kind, refuse, what):
    test, expected = _JSON_KINDS[kind]
    if not test(value):
        found = _JSON_NAMES.get(type(value), type(value).__name__)
        if isinstance(value, dict) and kind == 'strings':
            found = 'an object with a member that is not a string'
        raise refuse('%s %s, expected %s' % (what, found, expected))


def _optimizer_order(key):
    """An optimizer state's keys in state_dict()'s order: the state of each parameter by index,
    then the groups (the file keeps tensors and other values apart)."""
    section, _, rest = key.partition('.')
    index = rest.partition('.')[0]
    return (section != 'state', int(index) if index.isdigit() else 0)


def _state_from(values, tensors, where, order=None):
    entries = [(key, _text_to_value(where, key, text)) for key, text in values.items()] + list(tensors)
    if order is not None:
        entries.sort(key=lambda kv: order(kv[0]))
    sd = StateDict()
    for key, value in entries:
        _set_entry(sd, key, value)
    return sd


def _read_checkpoint(state, meta, where, move):
    from gi.repository import GLib
    keys = list(state.keys())
    by_prefix = {}
    for key in keys:
        head, _, rest = key.partition('.')
        if head == 'averaged':
            name, _, rest = rest.partition('.')
            head = 'averaged.' + name
        by_prefix.setdefault(head, []).append((rest, move(state[key])))
    out = {}
    if 'gnn.model' in meta or 'gnn.model.values' in meta:
        values = _meta_json(meta, 'gnn.model.values', where) if 'gnn.model.values' in meta else {}
        out['model'] = _state_from(values, by_prefix.pop('model', []), where + ': gnn.model.values')
    if 'gnn.optimizer' in meta:
        obj = _meta_json(meta, 'gnn.optimizer', where, {'type': ('str', False), 'state': ('strings', False)})
        sd = _state_from(obj.get('state', {}), by_prefix.pop('optimizer', []), where + ': gnn.optimizer',
                         order=_optimizer_order)
        sd._gnn_type = obj.get('type')
        out['optimizer'] = sd
    if 'gnn.scheduler' in meta:
        from .lr_scheduler import _SchedulerState
        obj = _meta_json(meta, 'gnn.scheduler', where, {'type': ('str', True), 'state': ('str', True)})
        try:
            variant = GLib.Variant.parse(GLib.VariantType.new('a{sv}'), obj['state'], None, None)
        except GLib.Error as e:
            raise _gnn_error(Gnn.Error.FILE_FORMAT, '%s: the "state" of "gnn.scheduler" is not a GVariant '
                             'of type a{sv}: %s' % (where, e.message)) from None
        out['scheduler'] = _SchedulerState(variant, obj['type'])
    averaged = {}
    for key in meta:
        if key.startswith('gnn.averaged.'):
            name = key[len('gnn.averaged.'):]
            values = _meta_json(meta, key, where, {'values': ('strings', False)}).get('values', {})
            averaged[name] = _state_from(values, by_prefix.pop('averaged.' + name, []), where + ': ' + key)
    if averaged:
        out['averaged'] = averaged
    if 'gnn.generator' in meta:
        obj = _meta_json(meta, 'gnn.generator', where, {'seed': ('uint64', True),
                                                            'offset': ('uint64', True)})
        out['generator'] = {'seed': int(obj['seed']), 'offset': int(obj['offset'])}
    if by_prefix:
        raise _gnn_error(Gnn.Error.FILE_FORMAT, '%s: unexpected tensors under "%s." (expected "model.", '
                         '"optimizer." or "averaged.<name>.")' % (where, sorted(by_prefix)[0]))
    for key, text in meta.items():
        if not key.startswith('gnn.'):
            try:
                out[key] = json.loads(text)
            except (ValueError, RecursionError):   # the user's own text (gnn.save writes JSON)
                out[key] = text
    if list(out) == ['optimizer']:
        return out['optimizer']
    return out


def load(f, map_location=None, *, weights_only=None):
    """``torch.load(f, map_location=None, *, weights_only=...)`` of a file gnn.save (or
    Gnn.Checkpoint.save, or safetensors.torch.save_file) wrote: a state dict (a
    Gnn.StateDict, whose .metadata is the file's metadata), an optimizer's state dict, or the
    dict of a checkpoint. f is a path (str or os.PathLike) or a binary file object;
    map_location None, a device ("cpu", "cuda:0", Gnn.device) or a dict from saved device to
    device. weights_only is accepted with any value: gnn never unpickles, so it always loads
    only tensors and plain values (what weights_only=True asks of torch). A PyTorch pickle
    raises GLib.Error (Gnn.Error.FILE_FORMAT) saying how to convert it."""
    from gi.repository import GLib
    del weights_only
    move = _map_location(map_location)
    if isinstance(f, (str, bytes, os.PathLike)):
        name = os.fsdecode(f)
        with open(name, 'rb') as fp:
            head = fp.read(9)
        _refuse_pickle(head, os.path.getsize(name), name, name)
        state, meta = Gnn.safetensors_load(name)
    elif hasattr(f, 'read'):
        import io
        name = getattr(f, 'name', None) or 'the file object'
        data = f.read()
        _refuse_pickle(data[:9], len(data), name, io.BytesIO(data))
        state, meta = Gnn.safetensors_load_from_bytes(GLib.Bytes.new(data))
    else:
        raise TypeError('f is a path (str or os.PathLike) or a binary file object, not %s' % type(f).__name__)
    meta = dict(meta or {})
    if 'gnn.checkpoint' in meta:
        if meta['gnn.checkpoint'] != _FORMAT_VERSION:
            raise _gnn_error(Gnn.Error.FILE_FORMAT, "%s: expected checkpoint format %s, found format '%s'"
                             % (name, _FORMAT_VERSION, meta['gnn.checkpoint']))
        return _read_checkpoint(state, meta, name, move)
    out = StateDict()
    for key in state.keys():
        Gnn.StateDict.set_tensor(out, key, move(state[key]))
    out.metadata = meta
    return out


__all__ += ['save', 'load']
