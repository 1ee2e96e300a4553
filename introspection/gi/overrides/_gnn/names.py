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

ROWS = [
    # ---- torch: tensors, factories, grad mode ----
    ('torch.Tensor', 'Gnn.Tensor'),
    ('torch.tensor', 'Gnn.tensor'),
    ('torch.from_numpy', 'Gnn.Tensor.from_numpy'),
    ('torch.device', 'Gnn.device'),
    ('torch.Generator', 'Gnn.Generator'),
    ('torch.manual_seed', 'Gnn.manual_seed'),
    ('torch.no_grad', 'Gnn.no_grad'),
    ('torch.enable_grad', 'Gnn.enable_grad'),
    ('torch.is_grad_enabled', 'Gnn.is_grad_enabled'),
    ('torch.set_grad_enabled', 'Gnn.set_grad_enabled'),
    ('torch.get_num_threads', 'Gnn.get_num_threads'),
    ('torch.set_num_threads', 'Gnn.set_num_threads'),
    ('torch.cat', 'Gnn.cat'),
    ('torch.stack', 'Gnn.stack'),
    ('torch.where', 'Gnn.where'),

    # ---- torch.Tensor: methods ----

    # ---- torch.autograd ----
    ('torch.autograd.Function', 'Gnn.Function'),

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
    ('torch.nn.RNN', _RECURRENT),
    ('torch.nn.LSTM', _RECURRENT),
    ('torch.nn.GRU', _RECURRENT),
    ('torch.nn.MultiheadAttention', _RECURRENT),
    ('torch.nn.Transformer', _RECURRENT),

    # ---- torch.nn.functional ----
    ('torch.nn.functional.mse_loss', 'Gnn.mse_loss'),
    ('torch.nn.functional.l1_loss', 'Gnn.l1_loss'),
    ('torch.nn.functional.smooth_l1_loss', 'Gnn.smooth_l1_loss'),
    ('torch.nn.functional.huber_loss', 'Gnn.huber_loss'),
    ('torch.nn.functional.binary_cross_entropy', 'Gnn.binary_cross_entropy'),
    ('torch.nn.functional.binary_cross_entropy_with_logits', 'Gnn.binary_cross_entropy_with_logits'),
    ('torch.nn.functional.nll_loss', 'Gnn.nll_loss'),
    ('torch.nn.functional.cross_entropy', 'Gnn.cross_entropy'),
    ('torch.nn.functional.kl_div', 'Gnn.kl_div'),

    # ---- torch.nn.init ----
    ('torch.nn.init.calculate_gain', 'Gnn.init_calculate_gain'),
    ('torch.nn.init.constant_', 'Gnn.init_constant_'),
    ('torch.nn.init.eye_', 'Gnn.init_eye_'),
    ('torch.nn.init.ones_', 'Gnn.init_ones_'),
    ('torch.nn.init.zeros_', 'Gnn.init_zeros_'),
    ('torch.nn.init.normal_', 'Gnn.init_normal_'),
    ('torch.nn.init.uniform_', 'Gnn.init_uniform_'),
    ('torch.nn.init.trunc_normal_', 'Gnn.init_trunc_normal_'),
    ('torch.nn.init.orthogonal_', 'Gnn.init_orthogonal_'),
    ('torch.nn.init.kaiming_normal_', 'Gnn.init_kaiming_normal_'),
    ('torch.nn.init.kaiming_uniform_', 'Gnn.init_kaiming_uniform_'),
    ('torch.nn.init.xavier_normal_', 'Gnn.init_xavier_normal_'),
    ('torch.nn.init.xavier_uniform_', 'Gnn.init_xavier_uniform_'),

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
    ('torch.utils.data.get_worker_info', Missing('gnn has no worker processes')),

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
