"""torch versions of the RunningMean and StatefulModule examples of PyTorch's "Modules" note
(docs/source/notes/modules.rst), which test_module, test_modules_note and test_state_dict
compare their gnn counterparts with. test_modules_note_torch keeps the note's own text."""
import torch
from torch import nn


class RunningMean(nn.Module):
    def __init__(self, num_features, momentum=0.9):
        super().__init__()
        self.momentum = momentum
        self.register_buffer('mean', torch.zeros(num_features))

    def forward(self, x):
        self.mean = self.momentum * self.mean + (1.0 - self.momentum) * x
        return self.mean


class StatefulModule(nn.Module):
    def __init__(self):
        super().__init__()
        self.param1 = nn.Parameter(torch.randn(2))
        self.register_parameter('param2', nn.Parameter(torch.randn(3)))
        self.register_parameter('param3', None)
        self.param_list = nn.ParameterList([nn.Parameter(torch.randn(2)) for i in range(3)])
        self.param_dict = nn.ParameterDict({
            'foo': nn.Parameter(torch.randn(3)),
            'bar': nn.Parameter(torch.randn(4))
        })
        self.register_buffer('buffer1', torch.randn(4), persistent=True)
        self.register_buffer('buffer2', torch.randn(5), persistent=False)
        self.register_buffer('buffer3', None)
        self.linear = nn.Linear(2, 3)
