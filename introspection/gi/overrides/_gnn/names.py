# the torch names gnn answers to: one table, one row a spelling
#
# Each row is (torch spelling, gnn target). The spelling is the full torch name
# ('torch.zeros', 'torch.Tensor.sum', 'torch.nn.Linear', 'torch.nn.functional.relu',
# 'torchvision.transforms.ToTensor'); everything before its last dot is the namespace, which the
# package gnn mirrors ('torch' is gnn, 'torch.nn' gnn.nn, 'torchvision.datasets'
# gnn.vision.datasets). The target is
#   'Gnn.X' or 'Gnn.X.y'  a name of the Gnn module with its overrides loaded,
#   Missing('why')        a torch name gnn lacks, with the reason or the part of gnn that will
#                         bring it: the namespaces raise an AttributeError that says so.
# A row of the namespace 'torch.Tensor' whose target is not already the class's own attribute
# of that name becomes a method of Gnn.Tensor when the overrides load.
#
# Adding a torch name to gnn is adding (or completing) its row; doc/pytorch-names.md lists the
# table.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

__all__ = []


class Missing:
    """A torch name that gnn lacks; `why` says why, or what will bring it."""
    __slots__ = ('why',)

    def __init__(self, why):
        self.why = why

    def __repr__(self):
        return 'Missing(%r)' % self.why


_RECURRENT = Missing('the recurrent and attention layers are not built yet')
_COMPLEX = Missing('gnn has no complex dtypes')
_NO_OP = Missing('no such op in C yet (gnn/ops/gnn-ops.h); the ops issue adds ops as rows')
_NO_INPLACE = Missing('C has no in-place form of this op; use the out-of-place op')
# a functional whose op C does not have (the ops issue brings the norms and dropout)
_NOT_IN_C = 'the C library has no %s yet'

ROWS = [
    # ---- torch: tensors, factories, grad mode ----
    ('torch.Tensor', 'Gnn.Tensor'),
    ('torch.Size', 'Gnn.Size'),
    ('torch.dtype', 'Gnn.dtype'),
    ('torch.device', 'Gnn.device'),
    ('torch.return_types', 'Gnn.return_types'),
    ('torch.float32', 'Gnn.float32'),
    ('torch.float', 'Gnn.float'),
    ('torch.float64', 'Gnn.float64'),
    ('torch.double', 'Gnn.double'),
    ('torch.float16', 'Gnn.float16'),
    ('torch.half', 'Gnn.half'),
    ('torch.bfloat16', 'Gnn.bfloat16'),
    ('torch.int64', 'Gnn.int64'),
    ('torch.long', 'Gnn.long'),
    ('torch.uint8', 'Gnn.uint8'),
    ('torch.bool', 'Gnn.bool'),
    ('torch.int32', 'Gnn.int32'),
    ('torch.int', 'Gnn.int'),
    ('torch.int16', 'Gnn.int16'),
    ('torch.short', 'Gnn.short'),
    ('torch.int8', 'Gnn.int8'),
    ('torch.complex64', _COMPLEX),
    ('torch.cfloat', _COMPLEX),
    ('torch.complex128', _COMPLEX),
    ('torch.cdouble', _COMPLEX),
    ('torch.get_default_dtype', 'Gnn.get_default_dtype'),
    ('torch.set_default_dtype', Missing('the default dtype of the layers is fixed (float32) in their C '
                                        'constructors; give dtype= to factories and layers')),
    ('torch.is_tensor', 'Gnn.is_tensor'),
    ('torch.is_floating_point', 'Gnn.is_floating_point'),
    ('torch.numel', 'Gnn.numel'),
    ('torch.tensor', 'Gnn.tensor'),
    ('torch.as_tensor', 'Gnn.as_tensor'),
    ('torch.from_numpy', 'Gnn.Tensor.from_numpy'),
    ('torch.zeros', 'Gnn.zeros'),
    ('torch.ones', 'Gnn.ones'),
    ('torch.empty', 'Gnn.empty'),
    ('torch.full', 'Gnn.full'),
    ('torch.rand', 'Gnn.rand'),
    ('torch.randn', 'Gnn.randn'),
    ('torch.randint', 'Gnn.randint'),
    ('torch.arange', 'Gnn.arange'),
    ('torch.linspace', 'Gnn.linspace'),
    ('torch.eye', 'Gnn.eye'),
    ('torch.zeros_like', 'Gnn.zeros_like'),
    ('torch.ones_like', 'Gnn.ones_like'),
    ('torch.empty_like', 'Gnn.empty_like'),
    ('torch.full_like', 'Gnn.full_like'),
    ('torch.rand_like', 'Gnn.rand_like'),
    ('torch.randn_like', 'Gnn.randn_like'),
    ('torch.randperm', Missing('no permutation sampler in C yet (the data loader shuffles in C)')),
    ('torch.Generator', 'Gnn.Generator'),
    ('torch.manual_seed', 'Gnn.manual_seed'),
    ('torch.initial_seed', 'Gnn.initial_seed'),
    ('torch.no_grad', 'Gnn.no_grad'),
    ('torch.enable_grad', 'Gnn.enable_grad'),
    ('torch.set_grad_enabled', 'Gnn.set_grad_enabled'),
    ('torch.is_grad_enabled', 'Gnn.is_grad_enabled'),
    ('torch.set_anomaly_enabled', 'Gnn.set_anomaly_enabled'),
    ('torch.is_anomaly_enabled', 'Gnn.is_anomaly_enabled'),
    ('torch.is_anomaly_check_nan_enabled', 'Gnn.is_anomaly_check_nan_enabled'),
    ('torch.inference_mode', Missing('inference tensors (refused by autograd and by in-place ops outside '
                                     'the mode) need a tensor flag in C; no_grad computes the same values')),
    ('torch.get_num_threads', 'Gnn.get_num_threads'),
    ('torch.set_num_threads', 'Gnn.set_num_threads'),
    ('torch.cuda.is_available', 'Gnn.cuda_is_available'),
    ('torch.cuda.device_count', 'Gnn.cuda_device_count'),
    ('torch.backends.mps.is_available', 'Gnn.mps_is_available'),
    # reductions
    ('torch.sum', 'Gnn.sum'),
    ('torch.mean', 'Gnn.mean'),
    ('torch.var', 'Gnn.var'),
    ('torch.std', 'Gnn.std'),
    ('torch.max', 'Gnn.max'),
    ('torch.min', 'Gnn.min'),
    ('torch.amax', 'Gnn.amax'),
    ('torch.amin', 'Gnn.amin'),
    ('torch.argmax', 'Gnn.argmax'),
    ('torch.argmin', 'Gnn.argmin'),
    ('torch.all', 'Gnn.all'),
    ('torch.any', 'Gnn.any'),
    ('torch.logsumexp', 'Gnn.logsumexp'),
    ('torch.softmax', 'Gnn.softmax'),
    ('torch.log_softmax', 'Gnn.log_softmax'),
    ('torch.prod', _NO_OP),
    ('torch.cumsum', 'Gnn.cumsum'),
    ('torch.cumprod', 'Gnn.cumprod'),
    ('torch.norm', 'Gnn.norm'),
    ('torch.median', _NO_OP),
    ('torch.sort', 'Gnn.sort'),
    ('torch.argsort', 'Gnn.argsort'),
    ('torch.topk', 'Gnn.topk'),
    ('torch.unique', _NO_OP),
    ('torch.std_mean', _NO_OP),
    ('torch.var_mean', _NO_OP),
    ('torch.logcumsumexp', 'Gnn.logcumsumexp'),
    ('torch.msort', 'Gnn.msort'),
    ('torch.multinomial', 'Gnn.multinomial'),
    ('torch.dist', 'Gnn.dist'),
    ('torch.cdist', 'Gnn.cdist'),
    # shapes
    ('torch.reshape', 'Gnn.reshape'),
    ('torch.flatten', 'Gnn.flatten'),
    ('torch.squeeze', 'Gnn.squeeze'),
    ('torch.unsqueeze', 'Gnn.unsqueeze'),
    ('torch.permute', 'Gnn.permute'),
    ('torch.transpose', 'Gnn.transpose'),
    ('torch.t', 'Gnn.Tensor.t'),
    ('torch.narrow', 'Gnn.Tensor.narrow'),
    ('torch.select', 'Gnn.Tensor.select'),
    ('torch.index_select', 'Gnn.Tensor.index_select'),
    ('torch.gather', 'Gnn.Tensor.gather'),
    ('torch.cat', 'Gnn.cat'),
    ('torch.stack', 'Gnn.stack'),
    ('torch.concat', 'Gnn.concat'),
    ('torch.chunk', 'Gnn.chunk'),
    ('torch.split', 'Gnn.split'),
    ('torch.nonzero', _NO_OP),
    ('torch.tensor_split', 'Gnn.tensor_split'),
    ('torch.unbind', 'Gnn.unbind'),
    ('torch.movedim', 'Gnn.movedim'),
    ('torch.moveaxis', 'Gnn.moveaxis'),
    ('torch.swapaxes', 'Gnn.swapaxes'),
    ('torch.swapdims', 'Gnn.swapdims'),
    ('torch.diagonal', 'Gnn.diagonal'),
    # elementwise
    ('torch.abs', 'Gnn.Tensor.abs'),
    ('torch.sqrt', 'Gnn.Tensor.sqrt'),
    ('torch.exp', 'Gnn.Tensor.exp'),
    ('torch.log', 'Gnn.Tensor.log'),
    ('torch.tanh', 'Gnn.Tensor.tanh'),
    ('torch.sigmoid', 'Gnn.Tensor.sigmoid'),
    ('torch.relu', 'Gnn.Tensor.relu'),
    ('torch.neg', 'Gnn.Tensor.neg'),
    ('torch.negative', 'Gnn.Tensor.neg'),
    ('torch.sign', 'Gnn.Tensor.sign'),
    ('torch.hypot', 'Gnn.Tensor.hypot'),
    ('torch.reciprocal', 'Gnn.Tensor.reciprocal'),
    ('torch.pow', 'Gnn.pow'),
    ('torch.clamp', 'Gnn.clamp'),
    ('torch.clip', 'Gnn.clip'),
    ('torch.maximum', 'Gnn.maximum'),
    ('torch.minimum', 'Gnn.minimum'),
    ('torch.add', 'Gnn.add'),
    ('torch.sub', 'Gnn.sub'),
    ('torch.subtract', 'Gnn.subtract'),
    ('torch.mul', 'Gnn.mul'),
    ('torch.multiply', 'Gnn.multiply'),
    ('torch.div', 'Gnn.div'),
    ('torch.divide', 'Gnn.divide'),
    ('torch.true_divide', 'Gnn.true_divide'),
    ('torch.eq', 'Gnn.eq'),
    ('torch.ne', 'Gnn.ne'),
    ('torch.not_equal', 'Gnn.not_equal'),
    ('torch.lt', 'Gnn.lt'),
    ('torch.less', 'Gnn.less'),
    ('torch.le', 'Gnn.le'),
    ('torch.less_equal', 'Gnn.less_equal'),
    ('torch.gt', 'Gnn.gt'),
    ('torch.greater', 'Gnn.greater'),
    ('torch.ge', 'Gnn.ge'),
    ('torch.greater_equal', 'Gnn.greater_equal'),
    ('torch.where', 'Gnn.where'),
    ('torch.masked_fill', 'Gnn.masked_fill'),
    ('torch.tril', 'Gnn.tril'),
    ('torch.triu', 'Gnn.triu'),
    ('torch.scatter', 'Gnn.scatter'),
    ('torch.scatter_add', 'Gnn.scatter_add'),
    ('torch.scatter_reduce', 'Gnn.scatter_reduce'),
    ('torch.index_copy', 'Gnn.index_copy'),
    ('torch.index_fill', 'Gnn.index_fill'),
    ('torch.lerp', 'Gnn.lerp'),
    ('torch.addcmul', 'Gnn.addcmul'),
    ('torch.addcdiv', 'Gnn.addcdiv'),
    ('torch.matmul', 'Gnn.matmul'),
    ('torch.mm', 'Gnn.mm'),
    ('torch.bmm', 'Gnn.bmm'),
    ('torch.rsqrt', 'Gnn.Tensor.rsqrt'),
    ('torch.log1p', 'Gnn.Tensor.log1p'),
    ('torch.expm1', 'Gnn.Tensor.expm1'),
    ('torch.log2', 'Gnn.Tensor.log2'),
    ('torch.log10', 'Gnn.Tensor.log10'),
    ('torch.sin', 'Gnn.Tensor.sin'),
    ('torch.cos', 'Gnn.Tensor.cos'),
    ('torch.tan', 'Gnn.Tensor.tan'),
    ('torch.asin', 'Gnn.Tensor.asin'),
    ('torch.acos', 'Gnn.Tensor.acos'),
    ('torch.atan', 'Gnn.Tensor.atan'),
    ('torch.sinh', 'Gnn.Tensor.sinh'),
    ('torch.cosh', 'Gnn.Tensor.cosh'),
    ('torch.asinh', 'Gnn.Tensor.asinh'),
    ('torch.acosh', 'Gnn.Tensor.acosh'),
    ('torch.atanh', 'Gnn.Tensor.atanh'),
    ('torch.erf', 'Gnn.Tensor.erf'),
    ('torch.erfc', 'Gnn.Tensor.erfc'),
    ('torch.erfinv', 'Gnn.Tensor.erfinv'),
    ('torch.lgamma', 'Gnn.Tensor.lgamma'),
    ('torch.digamma', 'Gnn.Tensor.digamma'),
    ('torch.floor', 'Gnn.Tensor.floor'),
    ('torch.ceil', 'Gnn.Tensor.ceil'),
    ('torch.trunc', 'Gnn.Tensor.trunc'),
    ('torch.frac', 'Gnn.Tensor.frac'),
    ('torch.square', 'Gnn.Tensor.square'),
    ('torch.arcsin', 'Gnn.Tensor.asin'),
    ('torch.arccos', 'Gnn.Tensor.acos'),
    ('torch.arctan', 'Gnn.Tensor.atan'),
    ('torch.arcsinh', 'Gnn.Tensor.asinh'),
    ('torch.arccosh', 'Gnn.Tensor.acosh'),
    ('torch.arctanh', 'Gnn.Tensor.atanh'),
    ('torch.fix', 'Gnn.Tensor.trunc'),
    ('torch.atan2', 'Gnn.atan2'),
    ('torch.fmod', 'Gnn.fmod'),
    ('torch.remainder', 'Gnn.remainder'),
    ('torch.floor_divide', 'Gnn.floor_divide'),
    ('torch.xlogy', 'Gnn.xlogy'),
    ('torch.arctan2', 'Gnn.atan2'),
    ('torch.round', 'Gnn.round'),
    ('torch.logit', 'Gnn.logit'),
    ('torch.polygamma', 'Gnn.polygamma'),
    ('torch.logical_and', _NO_OP),
    ('torch.logical_not', _NO_OP),
    ('torch.allclose', _NO_OP),
    ('torch.isclose', _NO_OP),
    ('torch.equal', _NO_OP),
    ('torch.einsum', 'Gnn.einsum'),
    # matrix products (gnn-ops-linalg.c)
    ('torch.addmm', 'Gnn.addmm'),
    ('torch.baddbmm', 'Gnn.baddbmm'),
    ('torch.addbmm', 'Gnn.addbmm'),
    ('torch.mv', 'Gnn.mv'),
    ('torch.dot', 'Gnn.dot'),
    ('torch.outer', 'Gnn.outer'),
    ('torch.ger', 'Gnn.ger'),
    ('torch.tensordot', 'Gnn.tensordot'),
    ('torch.kron', 'Gnn.kron'),
    # linear algebra (gnn-ops-lapack.c)
    ('torch.inverse', 'Gnn.linalg_inv'),
    ('torch.det', 'Gnn.linalg_det'),
    ('torch.slogdet', 'Gnn.slogdet'),
    ('torch.logdet', 'Gnn.logdet'),
    ('torch.matrix_exp', 'Gnn.linalg_matrix_exp'),
    ('torch.orgqr', 'Gnn.linalg_householder_product'),

    # ---- torch.Tensor: methods ----
    # the tensor itself
    ('torch.Tensor.shape', 'Gnn.Tensor.shape'),
    ('torch.Tensor.size', 'Gnn.Tensor.size'),
    ('torch.Tensor.dim', 'Gnn.Tensor.dim'),
    ('torch.Tensor.ndim', 'Gnn.Tensor.ndim'),
    ('torch.Tensor.numel', 'Gnn.Tensor.numel'),
    ('torch.Tensor.nelement', 'Gnn.Tensor.nelement'),
    ('torch.Tensor.dtype', 'Gnn.Tensor.dtype'),
    ('torch.Tensor.device', 'Gnn.Tensor.device'),
    ('torch.Tensor.is_floating_point', 'Gnn.Tensor.is_floating_point'),
    ('torch.Tensor.is_contiguous', 'Gnn.Tensor.is_contiguous'),
    ('torch.Tensor.item', 'Gnn.Tensor.item'),
    ('torch.Tensor.tolist', 'Gnn.Tensor.tolist'),
    ('torch.Tensor.numpy', 'Gnn.Tensor.numpy'),
    ('torch.Tensor.clone', 'Gnn.Tensor.clone'),
    ('torch.Tensor.detach', 'Gnn.Tensor.detach'),
    ('torch.Tensor.contiguous', 'Gnn.Tensor.contiguous'),
    ('torch.Tensor.element_size', Missing('use t.dtype.itemsize')),
    ('torch.Tensor.data_ptr', Missing('Gnn.Tensor.get_data_address gives a CPU tensor\'s address')),
    # dtypes and devices
    ('torch.Tensor.to', 'Gnn.Tensor.to'),
    ('torch.Tensor.type', 'Gnn.Tensor.type'),
    ('torch.Tensor.float', 'Gnn.Tensor.float'),
    ('torch.Tensor.double', 'Gnn.Tensor.double'),
    ('torch.Tensor.half', 'Gnn.Tensor.half'),
    ('torch.Tensor.bfloat16', 'Gnn.Tensor.bfloat16'),
    ('torch.Tensor.long', 'Gnn.Tensor.long'),
    ('torch.Tensor.bool', 'Gnn.Tensor.bool'),
    ('torch.Tensor.byte', 'Gnn.Tensor.byte'),
    ('torch.Tensor.int', 'Gnn.Tensor.int'),
    ('torch.Tensor.short', 'Gnn.Tensor.short'),
    ('torch.Tensor.char', 'Gnn.Tensor.char'),
    ('torch.Tensor.cfloat', _COMPLEX),
    ('torch.Tensor.cpu', 'Gnn.Tensor.cpu'),
    ('torch.Tensor.cuda', 'Gnn.Tensor.cuda'),
    # autograd
    ('torch.Tensor.requires_grad', 'Gnn.Tensor.requires_grad'),
    ('torch.Tensor.requires_grad_', 'Gnn.Tensor.requires_grad_'),
    ('torch.Tensor.grad', 'Gnn.Tensor.grad'),
    ('torch.Tensor.grad_fn', 'Gnn.Tensor.grad_fn'),
    ('torch.Tensor.is_leaf', 'Gnn.Tensor.is_leaf'),
    ('torch.Tensor.backward', 'Gnn.Tensor.backward'),
    ('torch.Tensor.register_hook', 'Gnn.Tensor.register_hook'),
    ('torch.Tensor.retain_grad', 'Gnn.Tensor.retain_grad'),
    ('torch.Tensor.detach_', Missing('a tensor\'s graph node is fixed in C; use detach ()')),
    # reductions
    ('torch.Tensor.sum', 'Gnn.sum'),
    ('torch.Tensor.mean', 'Gnn.mean'),
    ('torch.Tensor.var', 'Gnn.var'),
    ('torch.Tensor.std', 'Gnn.std'),
    ('torch.Tensor.max', 'Gnn.max'),
    ('torch.Tensor.min', 'Gnn.min'),
    ('torch.Tensor.amax', 'Gnn.amax'),
    ('torch.Tensor.amin', 'Gnn.amin'),
    ('torch.Tensor.argmax', 'Gnn.argmax'),
    ('torch.Tensor.argmin', 'Gnn.argmin'),
    ('torch.Tensor.all', 'Gnn.all'),
    ('torch.Tensor.any', 'Gnn.any'),
    ('torch.Tensor.logsumexp', 'Gnn.logsumexp'),
    ('torch.Tensor.softmax', 'Gnn.softmax'),
    ('torch.Tensor.log_softmax', 'Gnn.log_softmax'),
    ('torch.Tensor.prod', _NO_OP),
    ('torch.Tensor.cumsum', 'Gnn.cumsum'),
    ('torch.Tensor.norm', 'Gnn.norm'),
    ('torch.Tensor.sort', 'Gnn.sort'),
    ('torch.Tensor.topk', 'Gnn.topk'),
    ('torch.Tensor.cumprod', 'Gnn.cumprod'),
    ('torch.Tensor.logcumsumexp', 'Gnn.logcumsumexp'),
    ('torch.Tensor.argsort', 'Gnn.argsort'),
    ('torch.Tensor.msort', 'Gnn.msort'),
    ('torch.Tensor.multinomial', 'Gnn.multinomial'),
    ('torch.Tensor.dist', 'Gnn.dist'),
    # shapes
    ('torch.Tensor.view', 'Gnn.Tensor.view'),
    ('torch.Tensor.reshape', 'Gnn.reshape'),
    ('torch.Tensor.flatten', 'Gnn.flatten'),
    ('torch.Tensor.squeeze', 'Gnn.squeeze'),
    ('torch.Tensor.unsqueeze', 'Gnn.unsqueeze'),
    ('torch.Tensor.permute', 'Gnn.permute'),
    ('torch.Tensor.transpose', 'Gnn.transpose'),
    ('torch.Tensor.t', 'Gnn.Tensor.t'),
    ('torch.Tensor.T', 'Gnn.Tensor.T'),
    ('torch.Tensor.mT', 'Gnn.Tensor.mT'),
    ('torch.Tensor.expand', 'Gnn.Tensor.expand'),
    ('torch.Tensor.repeat', 'Gnn.Tensor.repeat'),
    ('torch.Tensor.narrow', 'Gnn.Tensor.narrow'),
    ('torch.Tensor.select', 'Gnn.Tensor.select'),
    ('torch.Tensor.index_select', 'Gnn.Tensor.index_select'),
    ('torch.Tensor.gather', 'Gnn.Tensor.gather'),
    ('torch.Tensor.view_as', Missing('use view (other.shape)')),
    ('torch.Tensor.expand_as', 'Gnn.Tensor.expand_as'),
    ('torch.Tensor.chunk', 'Gnn.chunk'),
    ('torch.Tensor.split', 'Gnn.split'),
    ('torch.Tensor.tensor_split', 'Gnn.tensor_split'),
    ('torch.Tensor.unbind', 'Gnn.unbind'),
    ('torch.Tensor.movedim', 'Gnn.movedim'),
    ('torch.Tensor.moveaxis', 'Gnn.moveaxis'),
    ('torch.Tensor.swapaxes', 'Gnn.swapaxes'),
    ('torch.Tensor.swapdims', 'Gnn.swapdims'),
    ('torch.Tensor.diagonal', 'Gnn.diagonal'),
    # elementwise
    ('torch.Tensor.abs', 'Gnn.Tensor.abs'),
    ('torch.Tensor.sqrt', 'Gnn.Tensor.sqrt'),
    ('torch.Tensor.exp', 'Gnn.Tensor.exp'),
    ('torch.Tensor.log', 'Gnn.Tensor.log'),
    ('torch.Tensor.tanh', 'Gnn.Tensor.tanh'),
    ('torch.Tensor.sigmoid', 'Gnn.Tensor.sigmoid'),
    ('torch.Tensor.relu', 'Gnn.Tensor.relu'),
    ('torch.Tensor.neg', 'Gnn.Tensor.neg'),
    ('torch.Tensor.sign', 'Gnn.Tensor.sign'),
    ('torch.Tensor.hypot', 'Gnn.Tensor.hypot'),
    ('torch.Tensor.reciprocal', 'Gnn.Tensor.reciprocal'),
    ('torch.Tensor.pow', 'Gnn.pow'),
    ('torch.Tensor.clamp', 'Gnn.clamp'),
    ('torch.Tensor.clip', 'Gnn.clip'),
    ('torch.Tensor.maximum', 'Gnn.maximum'),
    ('torch.Tensor.minimum', 'Gnn.minimum'),
    ('torch.Tensor.add', 'Gnn.add'),
    ('torch.Tensor.sub', 'Gnn.sub'),
    ('torch.Tensor.mul', 'Gnn.mul'),
    ('torch.Tensor.div', 'Gnn.div'),
    ('torch.Tensor.eq', 'Gnn.eq'),
    ('torch.Tensor.ne', 'Gnn.ne'),
    ('torch.Tensor.lt', 'Gnn.lt'),
    ('torch.Tensor.le', 'Gnn.le'),
    ('torch.Tensor.gt', 'Gnn.gt'),
    ('torch.Tensor.ge', 'Gnn.ge'),
    ('torch.Tensor.lerp', 'Gnn.lerp'),
    ('torch.Tensor.addcmul', 'Gnn.addcmul'),
    ('torch.Tensor.addcdiv', 'Gnn.addcdiv'),
    ('torch.Tensor.matmul', 'Gnn.matmul'),
    ('torch.Tensor.mm', 'Gnn.mm'),
    ('torch.Tensor.bmm', 'Gnn.bmm'),
    ('torch.Tensor.rsqrt', 'Gnn.Tensor.rsqrt'),
    ('torch.Tensor.log1p', 'Gnn.Tensor.log1p'),
    ('torch.Tensor.expm1', 'Gnn.Tensor.expm1'),
    ('torch.Tensor.log2', 'Gnn.Tensor.log2'),
    ('torch.Tensor.log10', 'Gnn.Tensor.log10'),
    ('torch.Tensor.sin', 'Gnn.Tensor.sin'),
    ('torch.Tensor.cos', 'Gnn.Tensor.cos'),
    ('torch.Tensor.tan', 'Gnn.Tensor.tan'),
    ('torch.Tensor.asin', 'Gnn.Tensor.asin'),
    ('torch.Tensor.acos', 'Gnn.Tensor.acos'),
    ('torch.Tensor.atan', 'Gnn.Tensor.atan'),
    ('torch.Tensor.sinh', 'Gnn.Tensor.sinh'),
    ('torch.Tensor.cosh', 'Gnn.Tensor.cosh'),
    ('torch.Tensor.asinh', 'Gnn.Tensor.asinh'),
    ('torch.Tensor.acosh', 'Gnn.Tensor.acosh'),
    ('torch.Tensor.atanh', 'Gnn.Tensor.atanh'),
    ('torch.Tensor.erf', 'Gnn.Tensor.erf'),
    ('torch.Tensor.erfc', 'Gnn.Tensor.erfc'),
    ('torch.Tensor.erfinv', 'Gnn.Tensor.erfinv'),
    ('torch.Tensor.lgamma', 'Gnn.Tensor.lgamma'),
    ('torch.Tensor.digamma', 'Gnn.Tensor.digamma'),
    ('torch.Tensor.floor', 'Gnn.Tensor.floor'),
    ('torch.Tensor.ceil', 'Gnn.Tensor.ceil'),
    ('torch.Tensor.trunc', 'Gnn.Tensor.trunc'),
    ('torch.Tensor.frac', 'Gnn.Tensor.frac'),
    ('torch.Tensor.square', 'Gnn.Tensor.square'),
    ('torch.Tensor.arcsin', 'Gnn.Tensor.asin'),
    ('torch.Tensor.arccos', 'Gnn.Tensor.acos'),
    ('torch.Tensor.arctan', 'Gnn.Tensor.atan'),
    ('torch.Tensor.arcsinh', 'Gnn.Tensor.asinh'),
    ('torch.Tensor.arccosh', 'Gnn.Tensor.acosh'),
    ('torch.Tensor.arctanh', 'Gnn.Tensor.atanh'),
    ('torch.Tensor.fix', 'Gnn.Tensor.trunc'),
    ('torch.Tensor.atan2', 'Gnn.atan2'),
    ('torch.Tensor.fmod', 'Gnn.fmod'),
    ('torch.Tensor.remainder', 'Gnn.remainder'),
    ('torch.Tensor.floor_divide', 'Gnn.floor_divide'),
    ('torch.Tensor.xlogy', 'Gnn.xlogy'),
    ('torch.Tensor.arctan2', 'Gnn.atan2'),
    ('torch.Tensor.round', 'Gnn.tensor_round'),
    ('torch.Tensor.logit', 'Gnn.tensor_logit'),
    ('torch.Tensor.polygamma', 'Gnn.tensor_polygamma'),
    ('torch.Tensor.masked_fill', 'Gnn.masked_fill'),
    ('torch.Tensor.tril', 'Gnn.tril'),
    ('torch.Tensor.triu', 'Gnn.triu'),
    ('torch.Tensor.scatter', 'Gnn.scatter'),
    ('torch.Tensor.scatter_add', 'Gnn.scatter_add'),
    ('torch.Tensor.scatter_reduce', 'Gnn.scatter_reduce'),
    ('torch.Tensor.index_copy', 'Gnn.index_copy'),
    ('torch.Tensor.index_fill', 'Gnn.index_fill'),
    # in place
    ('torch.Tensor.add_', 'Gnn.Tensor.add_'),
    ('torch.Tensor.sub_', 'Gnn.Tensor.sub_'),
    ('torch.Tensor.mul_', 'Gnn.Tensor.mul_'),
    ('torch.Tensor.div_', 'Gnn.Tensor.div_'),
    ('torch.Tensor.clamp_', 'Gnn.Tensor.clamp_'),
    ('torch.Tensor.lerp_', 'Gnn.Tensor.lerp_'),
    ('torch.Tensor.addcmul_', 'Gnn.Tensor.addcmul_'),
    ('torch.Tensor.addcdiv_', 'Gnn.Tensor.addcdiv_'),
    ('torch.Tensor.sqrt_', 'Gnn.Tensor.sqrt_'),
    ('torch.Tensor.zero_', 'Gnn.Tensor.zero_'),
    ('torch.Tensor.fill_', 'Gnn.Tensor.fill_'),
    ('torch.Tensor.copy_', 'Gnn.Tensor.copy_'),
    ('torch.Tensor.scatter_', 'Gnn.Tensor.scatter_'),
    ('torch.Tensor.scatter_add_', 'Gnn.Tensor.scatter_add_'),
    ('torch.Tensor.scatter_reduce_', 'Gnn.Tensor.scatter_reduce_'),
    ('torch.Tensor.index_copy_', 'Gnn.Tensor.index_copy_'),
    ('torch.Tensor.index_fill_', 'Gnn.Tensor.index_fill_'),
    ('torch.Tensor.abs_', _NO_INPLACE),
    ('torch.Tensor.exp_', _NO_INPLACE),
    ('torch.Tensor.clamp_min_', _NO_INPLACE),
    ('torch.Tensor.pow_', _NO_INPLACE),
    ('torch.Tensor.neg_', _NO_INPLACE),
    # matrix products (gnn-ops-linalg.c)
    ('torch.Tensor.addmm', 'Gnn.addmm'),
    ('torch.Tensor.baddbmm', 'Gnn.baddbmm'),
    ('torch.Tensor.addbmm', 'Gnn.addbmm'),
    ('torch.Tensor.mv', 'Gnn.mv'),
    ('torch.Tensor.dot', 'Gnn.dot'),
    ('torch.Tensor.outer', 'Gnn.outer'),
    ('torch.Tensor.ger', 'Gnn.ger'),
    ('torch.Tensor.kron', 'Gnn.kron'),
    # linear algebra (gnn-ops-lapack.c)
    ('torch.Tensor.inverse', 'Gnn.linalg_inv'),
    ('torch.Tensor.det', 'Gnn.linalg_det'),
    ('torch.Tensor.slogdet', 'Gnn.slogdet'),
    ('torch.Tensor.logdet', 'Gnn.logdet'),
    ('torch.Tensor.matrix_exp', 'Gnn.linalg_matrix_exp'),
    ('torch.Tensor.orgqr', 'Gnn.linalg_householder_product'),

    # ---- torch.linalg (gnn-ops-lapack.c) ----
    ('torch.linalg.solve', 'Gnn.linalg_solve'),
    ('torch.linalg.inv', 'Gnn.linalg_inv'),
    ('torch.linalg.det', 'Gnn.linalg_det'),
    ('torch.linalg.slogdet', 'Gnn.linalg_slogdet'),
    ('torch.linalg.matrix_exp', 'Gnn.linalg_matrix_exp'),
    ('torch.linalg.householder_product', 'Gnn.linalg_householder_product'),
    ('torch.linalg.cholesky', 'Gnn.linalg_cholesky'),

    # ---- torch.autograd ----
    ('torch.autograd.Function', 'Gnn.Function'),
    ('torch.autograd.no_grad', 'Gnn.no_grad'),
    ('torch.autograd.enable_grad', 'Gnn.enable_grad'),
    ('torch.autograd.set_grad_enabled', 'Gnn.set_grad_enabled'),
    ('torch.autograd.grad', 'Gnn.autograd_grad'),
    ('torch.autograd.backward', Missing('call backward () on each tensor')),
    ('torch.autograd.Variable', Missing('Variable is Tensor since torch 0.4: use a tensor with requires_grad=True')),
    ('torch.autograd.detect_anomaly', 'Gnn.detect_anomaly'),
    ('torch.autograd.set_detect_anomaly', 'Gnn.set_detect_anomaly'),

    # ---- torch.autograd.functional ----
    ('torch.autograd.functional.jacobian', 'Gnn.autograd_jacobian'),
    ('torch.autograd.functional.hessian', 'Gnn.autograd_hessian'),
    ('torch.autograd.functional.vjp', 'Gnn.autograd_vjp'),
    ('torch.autograd.functional.jvp', 'Gnn.autograd_jvp'),
    ('torch.autograd.functional.vhp', 'Gnn.autograd_vhp'),
    ('torch.autograd.functional.hvp', 'Gnn.autograd_hvp'),

    # ---- torch: files ----
    ('torch.save', 'Gnn.save'),
    ('torch.load', 'Gnn.load'),

    # ---- torch.linalg: norms (gnn-ops-norms.c) ----
    ('torch.linalg.vector_norm', 'Gnn.linalg_vector_norm'),
    ('torch.linalg.matrix_norm', 'Gnn.linalg_matrix_norm'),
    ('torch.linalg.norm', 'Gnn.linalg_norm'),

    # ---- torch.nn: modules, parameters, containers ----
    ('torch.nn.Module', 'Gnn.Module'),
    ('torch.nn.Parameter', 'Gnn.Parameter'),
    ('torch.nn.Sequential', 'Gnn.Sequential'),
    ('torch.nn.ModuleList', 'Gnn.ModuleList'),
    ('torch.nn.ModuleDict', 'Gnn.ModuleDict'),
    ('torch.nn.ParameterList', 'Gnn.ParameterList'),
    ('torch.nn.ParameterDict', 'Gnn.ParameterDict'),
    ('torch.nn.Identity', 'Gnn.Identity'),
    ('torch.nn.Linear', 'Gnn.Linear'),
    ('torch.nn.Bilinear', 'Gnn.Bilinear'),
    ('torch.nn.Flatten', 'Gnn.Flatten'),
    ('torch.nn.Unflatten', 'Gnn.Unflatten'),
    ('torch.nn.Embedding', 'Gnn.Embedding'),
    ('torch.nn.Conv1d', 'Gnn.Conv1d'),
    ('torch.nn.Conv2d', 'Gnn.Conv2d'),
    ('torch.nn.ConvTranspose2d', 'Gnn.ConvTranspose2d'),
    ('torch.nn.MaxPool2d', 'Gnn.MaxPool2d'),
    ('torch.nn.AvgPool2d', 'Gnn.AvgPool2d'),
    ('torch.nn.AdaptiveAvgPool2d', 'Gnn.AdaptiveAvgPool2d'),
    ('torch.nn.ConvTranspose1d', 'Gnn.ConvTranspose1d'),
    ('torch.nn.MaxPool1d', 'Gnn.MaxPool1d'),
    ('torch.nn.AvgPool1d', 'Gnn.AvgPool1d'),
    ('torch.nn.AdaptiveAvgPool1d', 'Gnn.AdaptiveAvgPool1d'),
    ('torch.nn.Dropout1d', 'Gnn.Dropout1d'),
    ('torch.nn.BatchNorm1d', 'Gnn.BatchNorm1d'),
    ('torch.nn.BatchNorm2d', 'Gnn.BatchNorm2d'),
    ('torch.nn.LayerNorm', 'Gnn.LayerNorm'),
    ('torch.nn.GroupNorm', 'Gnn.GroupNorm'),
    ('torch.nn.Dropout', 'Gnn.Dropout'),
    ('torch.nn.Dropout2d', 'Gnn.Dropout2d'),
    ('torch.nn.ReLU', 'Gnn.ReLU'),
    ('torch.nn.LeakyReLU', 'Gnn.LeakyReLU'),
    ('torch.nn.ELU', 'Gnn.ELU'),
    ('torch.nn.GELU', 'Gnn.GELU'),
    ('torch.nn.SiLU', 'Gnn.SiLU'),
    ('torch.nn.Sigmoid', 'Gnn.Sigmoid'),
    ('torch.nn.Tanh', 'Gnn.Tanh'),
    ('torch.nn.Softsign', 'Gnn.Softsign'),
    ('torch.nn.Softmax', 'Gnn.Softmax'),
    ('torch.nn.LogSoftmax', 'Gnn.LogSoftmax'),
    ('torch.nn.MSELoss', 'Gnn.MSELoss'),
    ('torch.nn.L1Loss', 'Gnn.L1Loss'),
    ('torch.nn.SmoothL1Loss', 'Gnn.SmoothL1Loss'),
    ('torch.nn.HuberLoss', 'Gnn.HuberLoss'),
    ('torch.nn.BCELoss', 'Gnn.BCELoss'),
    ('torch.nn.BCEWithLogitsLoss', 'Gnn.BCEWithLogitsLoss'),
    ('torch.nn.NLLLoss', 'Gnn.NLLLoss'),
    ('torch.nn.CrossEntropyLoss', 'Gnn.CrossEntropyLoss'),
    ('torch.nn.KLDivLoss', 'Gnn.KLDivLoss'),
    ('torch.nn.RNN', 'Gnn.RNN'),
    ('torch.nn.LSTM', 'Gnn.LSTM'),
    ('torch.nn.GRU', 'Gnn.GRU'),
    ('torch.nn.MultiheadAttention', _RECURRENT),
    ('torch.nn.Transformer', _RECURRENT),

    # ---- torch.nn.functional ----
    ('torch.nn.functional.relu', 'Gnn.functional_relu'),
    ('torch.nn.functional.relu6', 'Gnn.functional_relu6'),
    ('torch.nn.functional.hardtanh', 'Gnn.functional_hardtanh'),
    ('torch.nn.functional.leaky_relu', 'Gnn.functional_leaky_relu'),
    ('torch.nn.functional.elu', 'Gnn.functional_elu'),
    ('torch.nn.functional.gelu', 'Gnn.functional_gelu'),
    ('torch.nn.functional.silu', 'Gnn.functional_silu'),
    ('torch.nn.functional.sigmoid', 'Gnn.functional_sigmoid'),
    ('torch.nn.functional.tanh', 'Gnn.functional_tanh'),
    ('torch.nn.functional.softsign', 'Gnn.functional_softsign'),
    ('torch.nn.functional.softmax', 'Gnn.functional_softmax'),
    ('torch.nn.functional.log_softmax', 'Gnn.functional_log_softmax'),
    ('torch.nn.functional.linear', 'Gnn.functional_linear'),
    ('torch.nn.functional.conv1d', 'Gnn.functional_conv1d'),
    ('torch.nn.functional.conv2d', 'Gnn.functional_conv2d'),
    ('torch.nn.functional.conv_transpose2d', 'Gnn.functional_conv_transpose2d'),
    ('torch.nn.functional.max_pool2d', 'Gnn.functional_max_pool2d'),
    ('torch.nn.functional.avg_pool2d', 'Gnn.functional_avg_pool2d'),
    ('torch.nn.functional.adaptive_avg_pool2d', 'Gnn.functional_adaptive_avg_pool2d'),
    ('torch.nn.functional.one_hot', 'Gnn.functional_one_hot'),
    ('torch.nn.functional.mse_loss', 'Gnn.functional_mse_loss'),
    ('torch.nn.functional.l1_loss', 'Gnn.functional_l1_loss'),
    ('torch.nn.functional.smooth_l1_loss', 'Gnn.functional_smooth_l1_loss'),
    ('torch.nn.functional.huber_loss', 'Gnn.functional_huber_loss'),
    ('torch.nn.functional.binary_cross_entropy', 'Gnn.functional_binary_cross_entropy'),
    ('torch.nn.functional.binary_cross_entropy_with_logits', 'Gnn.functional_binary_cross_entropy_with_logits'),
    ('torch.nn.functional.nll_loss', 'Gnn.functional_nll_loss'),
    ('torch.nn.functional.cross_entropy', 'Gnn.functional_cross_entropy'),
    ('torch.nn.functional.kl_div', 'Gnn.functional_kl_div'),
    ('torch.nn.functional.dropout', 'Gnn.functional_dropout'),
    ('torch.nn.functional.dropout2d', 'Gnn.functional_dropout2d'),
    ('torch.nn.functional.batch_norm', 'Gnn.functional_batch_norm'),
    ('torch.nn.functional.layer_norm', 'Gnn.functional_layer_norm'),
    ('torch.nn.functional.group_norm', 'Gnn.functional_group_norm'),
    ('torch.nn.functional.embedding', 'Gnn.functional_embedding'),
    ('torch.nn.functional.pad', Missing(_NOT_IN_C % 'gnn_tensor_pad')),
    ('torch.nn.functional.softplus', Missing(_NOT_IN_C % 'gnn_tensor_softplus')),
    ('torch.nn.functional.hardswish', Missing(_NOT_IN_C % 'gnn_tensor_hardswish')),
    ('torch.nn.functional.mish', Missing(_NOT_IN_C % 'gnn_tensor_mish')),
    ('torch.nn.functional.normalize', 'Gnn.functional_normalize'),
    ('torch.nn.functional.interpolate', Missing(_NOT_IN_C % 'gnn_tensor_interpolate')),
    ('torch.nn.functional.instance_norm', 'Gnn.functional_instance_norm'),
    ('torch.nn.functional.conv_transpose1d', 'Gnn.functional_conv_transpose1d'),
    ('torch.nn.functional.max_pool1d', 'Gnn.functional_max_pool1d'),
    ('torch.nn.functional.avg_pool1d', 'Gnn.functional_avg_pool1d'),
    ('torch.nn.functional.adaptive_avg_pool1d', 'Gnn.functional_adaptive_avg_pool1d'),
    ('torch.nn.functional.lp_pool1d', 'Gnn.functional_lp_pool1d'),
    ('torch.nn.functional.lp_pool2d', 'Gnn.functional_lp_pool2d'),
    ('torch.nn.functional.dropout1d', 'Gnn.functional_dropout1d'),

    # ---- torch.nn.init ----
    ('torch.nn.init.calculate_gain', 'Gnn.nn_init_calculate_gain'),
    ('torch.nn.init.constant_', 'Gnn.nn_init_constant_'),
    ('torch.nn.init.eye_', 'Gnn.nn_init_eye_'),
    ('torch.nn.init.ones_', 'Gnn.nn_init_ones_'),
    ('torch.nn.init.zeros_', 'Gnn.nn_init_zeros_'),
    ('torch.nn.init.normal_', 'Gnn.nn_init_normal_'),
    ('torch.nn.init.uniform_', 'Gnn.nn_init_uniform_'),
    ('torch.nn.init.trunc_normal_', 'Gnn.nn_init_trunc_normal_'),
    ('torch.nn.init.orthogonal_', 'Gnn.nn_init_orthogonal_'),
    ('torch.nn.init.kaiming_normal_', 'Gnn.nn_init_kaiming_normal_'),
    ('torch.nn.init.kaiming_uniform_', 'Gnn.nn_init_kaiming_uniform_'),
    ('torch.nn.init.xavier_normal_', 'Gnn.nn_init_xavier_normal_'),
    ('torch.nn.init.xavier_uniform_', 'Gnn.nn_init_xavier_uniform_'),

    # ---- torch.optim ----
    ('torch.optim.Optimizer', 'Gnn.Optimizer'),
    ('torch.optim.SGD', 'Gnn.SGD'),
    ('torch.optim.Adam', 'Gnn.Adam'),
    ('torch.optim.AdamW', 'Gnn.AdamW'),
    ('torch.optim.RMSprop', 'Gnn.RMSprop'),
    ('torch.optim.Adagrad', 'Gnn.Adagrad'),

    # ---- torch.optim.lr_scheduler ----
    ('torch.optim.lr_scheduler.LRScheduler', 'Gnn.LRScheduler'),
    ('torch.optim.lr_scheduler.StepLR', 'Gnn.StepLR'),
    ('torch.optim.lr_scheduler.MultiStepLR', 'Gnn.MultiStepLR'),
    ('torch.optim.lr_scheduler.ExponentialLR', 'Gnn.ExponentialLR'),
    ('torch.optim.lr_scheduler.CosineAnnealingLR', 'Gnn.CosineAnnealingLR'),
    ('torch.optim.lr_scheduler.LinearLR', 'Gnn.LinearLR'),
    ('torch.optim.lr_scheduler.LambdaLR', 'Gnn.LambdaLR'),
    ('torch.optim.lr_scheduler.OneCycleLR', 'Gnn.OneCycleLR'),
    ('torch.optim.lr_scheduler.SequentialLR', 'Gnn.SequentialLR'),
    ('torch.optim.lr_scheduler.MultiplicativeLR', 'Gnn.MultiplicativeLR'),
    ('torch.optim.lr_scheduler.ConstantLR', 'Gnn.ConstantLR'),
    ('torch.optim.lr_scheduler.PolynomialLR', 'Gnn.PolynomialLR'),
    ('torch.optim.lr_scheduler.CosineAnnealingWarmRestarts', 'Gnn.CosineAnnealingWarmRestarts'),
    ('torch.optim.lr_scheduler.CyclicLR', 'Gnn.CyclicLR'),
    ('torch.optim.lr_scheduler.ChainedScheduler', 'Gnn.ChainedScheduler'),
    ('torch.optim.lr_scheduler.ReduceLROnPlateau', 'Gnn.ReduceLROnPlateau'),

    # ---- torch.nn.utils ----
    ('torch.nn.utils.clip_grad_norm_', 'Gnn.nn_utils_clip_grad_norm_'),
    ('torch.nn.utils.clip_grad_value_', 'Gnn.nn_utils_clip_grad_value_'),
    ('torch.nn.utils.parameters_to_vector', 'Gnn.nn_utils_parameters_to_vector'),
    ('torch.nn.utils.vector_to_parameters', 'Gnn.nn_utils_vector_to_parameters'),

    # ---- torch.optim.swa_utils ----
    ('torch.optim.swa_utils.AveragedModel', 'Gnn.AveragedModel'),
    ('torch.optim.swa_utils.SWALR', 'Gnn.SWALR'),
    ('torch.optim.swa_utils.update_bn', 'Gnn.update_bn'),
    ('torch.optim.swa_utils.get_ema_multi_avg_fn', 'Gnn.get_ema_multi_avg_fn'),
    ('torch.optim.swa_utils.get_swa_multi_avg_fn', 'Gnn.get_swa_multi_avg_fn'),
    ('torch.optim.swa_utils.get_ema_avg_fn', 'Gnn.get_ema_avg_fn'),
    ('torch.optim.swa_utils.get_swa_avg_fn', 'Gnn.get_swa_avg_fn'),

    # ---- torch.utils.data ----
    # Dataset is a plain Python base class (map-style datasets return any sample); a dataset
    # that C can batch implements the Gnn.Dataset interface (TensorDataset, FashionMNIST).
    ('torch.utils.data.Dataset', 'Gnn.MapDataset'),
    ('torch.utils.data.TensorDataset', 'Gnn.TensorDataset'),
    ('torch.utils.data.DataLoader', 'Gnn.DataLoader'),
    ('torch.utils.data.Subset', 'Gnn.Subset'),
    ('torch.utils.data.ConcatDataset', 'Gnn.ConcatDataset'),
    ('torch.utils.data.random_split', 'Gnn.random_split'),
    ('torch.utils.data.default_collate', 'Gnn.default_collate'),
    ('torch.utils.data.Sampler', 'Gnn.Sampler'),
    ('torch.utils.data.SequentialSampler', 'Gnn.SequentialSampler'),
    ('torch.utils.data.RandomSampler', 'Gnn.RandomSampler'),
    ('torch.utils.data.BatchSampler', 'Gnn.BatchSampler'),
    ('torch.utils.data.IterableDataset', Missing('iterable-style datasets are not built yet')),
    ('torch.utils.data.SubsetRandomSampler', Missing('not built yet: Subset with a RandomSampler '
                                                     'does the same')),
    ('torch.utils.data.WeightedRandomSampler', Missing('not built yet')),
    ('torch.utils.data.DistributedSampler', Missing('gnn has no distributed training; '
                                                    'DataLoader.set_epoch replays orders')),
    ('torch.utils.data.get_worker_info',
     Missing("gnn's DataLoader workers are C threads that run no per-worker Python setup (no "
             'worker_init_fn), so there is no worker info')),

    # ---- torchvision.datasets ----
    ('torchvision.datasets.FashionMNIST', 'Gnn.FashionMNIST'),
    ('torchvision.datasets.MNIST', Missing('not built yet: Gnn.TensorDataset.new_idx reads its '
                                           'files')),
    ('torchvision.datasets.CIFAR10', Missing('not built yet')),

    # ---- torchvision.transforms ----
    ('torchvision.transforms.ToTensor', 'Gnn.ToTensor'),
    ('torchvision.transforms.Normalize', 'Gnn.Normalize'),
    ('torchvision.transforms.Compose', 'Gnn.Compose'),
    ('torchvision.transforms.RandomCrop', 'Gnn.RandomCrop'),
    ('torchvision.transforms.RandomHorizontalFlip', 'Gnn.RandomHorizontalFlip'),
    ('torchvision.transforms.Lambda', 'Gnn.Lambda'),
    ('torchvision.transforms.Resize', Missing('gnn has no image resampling yet')),
    ('torchvision.transforms.CenterCrop', Missing('not built yet: RandomCrop without padding on '
                                                  'an image of its size')),
    ('torchvision.transforms.RandomResizedCrop', Missing('gnn has no image resampling yet')),
    ('torchvision.transforms.ColorJitter', Missing('not built yet')),
    ('torchvision.transforms.PILToTensor', Missing('gnn reads no PIL images: its images are '
                                                   'uint8 tensors, which ToTensor takes')),
]


def namespace_of(spelling):
    """'torch.nn.Linear' -> ('torch.nn', 'Linear')."""
    return tuple(spelling.rsplit('.', 1))


def resolve(target, lookup):
    """The object a row's target names; `lookup(name)` gives a top-level name of Gnn."""
    if isinstance(target, Missing) or not isinstance(target, str):
        return target
    parts = target.split('.')
    if parts[0] != 'Gnn' or len(parts) < 2:
        raise ValueError('a torch-name target is Gnn.<name>[.<member>], not %r' % target)
    value = lookup(parts[1])
    for part in parts[2:]:
        value = getattr(value, part)
    return value


def rows(namespace):
    """(name, target) of the rows of one torch namespace, in table order."""
    for spelling, target in ROWS:
        ns, name = namespace_of(spelling)
        if ns == namespace:
            yield name, target


def namespaces():
    """Every torch namespace the table names, in table order."""
    seen = []
    for spelling, _ in ROWS:
        ns = namespace_of(spelling)[0]
        if ns not in seen:
            seen.append(ns)
    return seen


def missing_message(namespace, module_name, name):
    """The AttributeError text for a name the gnn module of `namespace` does not have."""
    for row_name, target in rows(namespace):
        if row_name == name and isinstance(target, Missing):
            return "module '%s' has no attribute '%s': gnn lacks %s.%s (%s)" % (
                module_name, name, namespace, name, target.why)
    return "module '%s' has no attribute '%s' (%s.%s is not a name gnn knows)" % (
        module_name, name, namespace, name)


def missing_tensor_message(class_name, name):
    """The AttributeError text for a name Gnn.Tensor does not have: the reason of its Missing
    row, if it has one."""
    for row_name, target in rows('torch.Tensor'):
        if row_name == name and isinstance(target, Missing):
            return "'%s' object has no attribute '%s': gnn lacks torch.Tensor.%s (%s)" % (
                class_name, name, name, target.why)
    return "'%s' object has no attribute '%s'" % (class_name, name)


def install_tensor_methods(tensor_class, lookup):
    """Makes each row of torch.Tensor that the class does not define itself a method of it."""
    for name, target in rows('torch.Tensor'):
        if isinstance(target, Missing) or name in tensor_class.__dict__:
            continue
        setattr(tensor_class, name, resolve(target, lookup))


def fill_namespace(namespace, module_globals):
    """Puts the names of one torch namespace into a module of the package gnn, and returns the
    module's __getattr__, which names what gnn lacks."""
    from gi.repository import Gnn

    module_name = module_globals['__name__']
    exported = []
    for name, target in rows(namespace):
        if isinstance(target, Missing):
            continue
        module_globals[name] = resolve(target, lambda n: getattr(Gnn, n))
        exported.append(name)
    module_globals.setdefault('__all__', [])
    module_globals['__all__'] += exported

    def __getattr__(name):
        if name.startswith('__'):
            raise AttributeError(name)
        raise AttributeError(missing_message(namespace, module_name, name))
    return __getattr__
