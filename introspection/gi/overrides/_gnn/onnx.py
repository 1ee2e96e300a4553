# torch.onnx.export over gnn: trace the module (gnn.fx), propagate shapes from the example
# inputs, and write the graph with gnn_onnx_export (gnn/onnx/gnn-onnx.c)
#
# SPDX-License-Identifier: LGPL-2.1-or-later
import os as _os
import tempfile as _tempfile

from gi.repository import GLib

from .base import Gnn, no_grad as _no_grad
from . import fx as _fx

__all__ = []


def _export(obj):
    __all__.append(obj.__name__)
    return obj


def _leaf_graph(module):
    """The graph of a call of one of gnn's own modules: torch exports Linear (3, 4) alone with
    its initializers named weight and bias, as the module's own state dict names them."""
    graph = Gnn.Graph.new()
    x = graph.create_node('placeholder', 'input', None, None)
    args = Gnn.Args.new()
    v = _fx._node_value(x)
    args.add_value(v)
    call = graph.create_node('call_module', '', args, type(module).__name__.lower())
    out = Gnn.Args.new()
    out.add_value(_fx._node_value(call))
    graph.create_node('output', 'output', out, None)
    return graph


def _dynamic_axes_variant(dynamic_axes):
    """torch's dynamic_axes ({name: {axis: 'label'}} or {name: [axis, ...]}) as a{sa{is}}; an
    axis without a label gets torch's, '<name>_dynamic_axes_<k>'."""
    if not dynamic_axes:
        return None
    value = {}
    for name, axes in dynamic_axes.items():
        if isinstance(axes, dict):
            value[name] = {int(k): str(v) for k, v in axes.items()}
        elif isinstance(axes, (list, tuple)):
            value[name] = {int(a): '%s_dynamic_axes_%d' % (name, i + 1) for i, a in enumerate(axes)}
        else:
            raise TypeError('dynamic_axes[%r] must be a dict or a list of axes, not %s'
                            % (name, type(axes).__name__))
    return GLib.Variant('a{sa{is}}', value)


@_export
def onnx_export_model(model, args, f, export_params=True, verbose=False, training=None,
                      input_names=None, output_names=None, operator_export_type=None,
                      opset_version=None, do_constant_folding=True, dynamic_axes=None,
                      keep_initializers_as_inputs=None, custom_opsets=None,
                      export_modules_as_functions=False):
    """torch.onnx.export: writes model, traced with the example inputs args (a tensor or a
    tuple of tensors), as an ONNX model to f (a path or a binary file object), for inference
    (the model is in eval mode while it is traced and its training flags are restored).
    opset_version defaults to 17, the highest gnn writes. export_params=False,
    keep_initializers_as_inputs, custom_opsets, export_modules_as_functions and training other
    than eval are refused; do_constant_folding and verbose change nothing."""
    if not export_params:
        raise ValueError('gnn always writes the parameters as initializers (export_params=True)')
    if keep_initializers_as_inputs or custom_opsets or export_modules_as_functions:
        raise ValueError('keep_initializers_as_inputs, custom_opsets and '
                         'export_modules_as_functions are not supported by gnn\'s exporter')
    if training not in (None, False) and str(training) not in ('TrainingMode.EVAL', 'eval'):
        raise ValueError('gnn exports for inference only (training=TrainingMode.EVAL)')
    if isinstance(args, Gnn.Tensor):
        args = (args,)
    args = tuple(args)
    if args and isinstance(args[-1], dict):
        if args[-1]:
            raise ValueError('keyword inputs in args are not supported by gnn\'s exporter')
        args = args[:-1]
    for i, a in enumerate(args):
        if not isinstance(a, Gnn.Tensor):
            raise TypeError('args[%d] is a %s; the example inputs are tensors' % (i, type(a).__name__))
    opset = 17 if opset_version is None else int(opset_version)
    flags = [(m, m.training) for m in model.modules()]
    try:
        model.eval()
        if _fx._is_gnn_class(type(model)) and not isinstance(model, Gnn.Sequential):
            graph, root = _leaf_graph(model), model
            with _no_grad():
                _LeafRunner(model, graph).propagate(*args)
        else:
            gm = _fx.fx_symbolic_trace(model)
            graph, root = gm.graph, gm
            with _no_grad():
                _fx.fx_ShapeProp(gm).propagate(*args)
        path, temp = f, None
        if not isinstance(f, (str, bytes, _os.PathLike)):
            fd, temp = _tempfile.mkstemp(suffix='.onnx')
            _os.close(fd)
            path = temp
        try:
            Gnn.onnx_export(graph, root, list(input_names) if input_names else None,
                            list(output_names) if output_names else None,
                            _dynamic_axes_variant(dynamic_axes), opset, _os.fspath(path))
            if temp is not None:
                with open(temp, 'rb') as src:
                    f.write(src.read())
        finally:
            if temp is not None:
                _os.unlink(temp)
    finally:
        for m, mode in flags:
            m.training = mode


class _LeafRunner(_fx.fx_ShapeProp):
    """ShapeProp over the one-call graph of a leaf module."""

    def __init__(self, module, graph):
        self.module = _Wrap(module, graph)
        self.submodules = {'': module}
        self.env = {}
        self.garbage_collect_values = False
        self.user_to_last_uses = {}

    def fetch_attr(self, target):
        return self.module.root if target == '' else super().fetch_attr(target)


class _Wrap:
    def __init__(self, root, graph):
        self.root, self.graph = root, graph
