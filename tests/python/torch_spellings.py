"""The spellings of PyTorch's "Learn the Basics" tutorials and of its Modules note, as snippets
that test_torch_spellings runs with `torch` bound to gnn (import gnn as torch) and to torch
1.13, and that tools/gen-pytorch-names.py lists in doc/pytorch-names.md.

Each snippet is (tutorial, code, expected). The code runs with the names torch, nn (torch.nn),
F (torch.nn.functional) and np; what it leaves in `result` is compared between the two
libraries (tensors by values, dtype and shape; other values by type and value). expected is
RUNS, or Fails(exception class name, text of its message, reason): gnn cannot run it yet, and
the test checks that it fails that way, so that a fix shows up as a failure to update here.

This file imports nothing, so that the page generator can read it without gnn or torch.

SPDX-License-Identifier: LGPL-2.1-or-later
"""

RUNS = None


class Fails:
    """A snippet gnn cannot run yet: the exception it raises and why."""
    __slots__ = ('exception', 'text', 'why')

    def __init__(self, exception, text, why):
        self.exception = exception
        self.text = text
        self.why = why


TENSORS = 'Tensors'
DATA = 'Datasets & DataLoaders'
TRANSFORMS = 'Transforms'
MODEL = 'Build the Neural Network'
AUTOGRAD = 'Automatic Differentiation'
OPTIM = 'Optimizing Model Parameters'
SAVE = 'Save and Load the Model'
NOTE = 'Modules note'

SNIPPETS = [
    # ---- Tensors ----
    (TENSORS, 'data = [[1, 2], [3, 4]]\nresult = torch.tensor(data)', RUNS),
    (TENSORS, 'np_array = np.array([[1, 2], [3, 4]])\nresult = torch.from_numpy(np_array)', RUNS),
    (TENSORS, 'x_data = torch.tensor([[1, 2], [3, 4]])\nresult = torch.ones_like(x_data)', RUNS),
    (TENSORS, 'x_data = torch.tensor([[1, 2], [3, 4]])\nresult = torch.rand_like(x_data, dtype=torch.float).shape',
     RUNS),
    (TENSORS, 'shape = (2, 3,)\nresult = [torch.rand(shape).shape, torch.ones(shape), torch.zeros(shape)]', RUNS),
    (TENSORS, 'tensor = torch.rand(3, 4)\nresult = [tensor.shape, tensor.dtype, str(tensor.device)]', RUNS),
    (TENSORS, 'tensor = torch.rand(3, 4)\nif torch.cuda.is_available():\n    tensor = tensor.to("cuda")\n'
              'result = str(tensor.device)', RUNS),
    (TENSORS, 'tensor = torch.ones(4, 4)\ntensor[:, 1] = 0\n'
              'result = [tensor[0], tensor[:, 0], tensor[..., -1], tensor]', RUNS),
    (TENSORS, 'tensor = torch.ones(4, 4)\nresult = torch.cat([tensor, tensor, tensor], dim=1)', RUNS),
    (TENSORS, 'tensor = torch.arange(16.).reshape(4, 4)\ny1 = tensor @ tensor.T\ny2 = tensor.matmul(tensor.T)\n'
              'y3 = torch.rand_like(y1)\ntorch.matmul(tensor, tensor.T, out=y3)\nresult = [y1, y2, y3]',
     Fails('TypeError', 'out', "gnn's ops return new tensors: out= is not an argument of its functions")),
    (TENSORS, 'tensor = torch.arange(16.).reshape(4, 4)\ny1 = tensor @ tensor.T\ny2 = tensor.matmul(tensor.T)\n'
              'result = [y1, y2]', RUNS),
    (TENSORS, 'tensor = torch.arange(16.).reshape(4, 4)\nz1 = tensor * tensor\nz2 = tensor.mul(tensor)\n'
              'result = [z1, z2]', RUNS),
    (TENSORS, 'tensor = torch.arange(16.).reshape(4, 4)\nagg = tensor.sum()\nagg_item = agg.item()\n'
              'result = [agg_item, type(agg_item)]', RUNS),
    (TENSORS, 'tensor = torch.ones(4, 4)\ntensor.add_(5)\nresult = tensor', RUNS),
    (TENSORS, 't = torch.ones(5)\nn = t.numpy()\nt.add_(1)\nresult = [t, n.tolist()]', RUNS),
    (TENSORS, 'n = np.ones(5)\nt = torch.from_numpy(n)\nnp.add(n, 1, out=n)\nresult = [t, n.tolist()]', RUNS),
    # ---- Datasets & DataLoaders ----
    (DATA, 'from gnn_or_torch.utils.data import Dataset, DataLoader\nresult = [Dataset.__name__, DataLoader.__name__]',
     RUNS),
    (DATA, 'from gnn_or_torchvision import datasets\nresult = datasets.FashionMNIST.__name__', RUNS),
    (DATA, 'from gnn_or_torchvision.transforms import ToTensor\nresult = ToTensor.__name__', RUNS),
    (DATA, 'labels_map = {0: "T-Shirt", 1: "Trouser"}\nsample_idx = torch.randint(len(labels_map), size=(1,)).item()\n'
           'result = type(sample_idx)', RUNS),
    (DATA, 'x = torch.arange(12.).reshape(6, 2)\ny = torch.arange(6)\n'
           'ds = torch.utils.data.TensorDataset(x, y)\nloader = torch.utils.data.DataLoader(ds, batch_size=4)\n'
           'features, labels = next(iter(loader))\nresult = [features, labels, features.size(), labels.size()]', RUNS),
    (DATA, 'img = torch.arange(4.).reshape(1, 2, 2)\nresult = img.squeeze()', RUNS),
    # ---- Transforms ----
    (TRANSFORMS, 'y = 3\nresult = torch.zeros(10, dtype=torch.float).scatter_(0, torch.tensor(y), value=1)', RUNS),
    # ---- Build the Neural Network ----
    (MODEL, 'device = "cuda" if torch.cuda.is_available() else "mps" if torch.backends.mps.is_available() '
            'else "cpu"\nresult = device', RUNS),
    (MODEL, 'class NeuralNetwork(nn.Module):\n    def __init__(self):\n        super().__init__()\n'
            '        self.flatten = nn.Flatten()\n        self.linear_relu_stack = nn.Sequential(\n'
            '            nn.Linear(28*28, 512), nn.ReLU(), nn.Linear(512, 512), nn.ReLU(), nn.Linear(512, 10))\n'
            '    def forward(self, x):\n        x = self.flatten(x)\n        return self.linear_relu_stack(x)\n'
            'model = NeuralNetwork()\nresult = model(torch.rand(1, 28, 28)).shape', RUNS),
    (MODEL, 'X = torch.rand(1, 28, 28)\nlogits = torch.rand(1, 10)\npred_probab = nn.Softmax(dim=1)(logits)\n'
            'y_pred = pred_probab.argmax(1)\nresult = [y_pred.shape, y_pred.dtype, pred_probab.sum(1)]', RUNS),
    (MODEL, 'input_image = torch.rand(3, 28, 28)\nflatten = nn.Flatten()\nflat_image = flatten(input_image)\n'
            'layer1 = nn.Linear(in_features=28*28, out_features=20)\nhidden1 = layer1(flat_image)\n'
            'result = [flat_image.size(), hidden1.size(), nn.ReLU()(hidden1).shape]', RUNS),
    (MODEL, 'seq_modules = nn.Sequential(nn.Flatten(), nn.Linear(28*28, 20), nn.ReLU(), nn.Linear(20, 10))\n'
            'logits = seq_modules(torch.rand(3, 28, 28))\nsoftmax = nn.Softmax(dim=1)\n'
            'result = softmax(logits).sum(1).shape', RUNS),
    (MODEL, 'model = nn.Sequential(nn.Linear(4, 3))\n'
            'result = [(name, param.size()) for name, param in model.named_parameters()]', RUNS),
    # ---- Automatic Differentiation ----
    (AUTOGRAD, 'x = torch.ones(5)\ny = torch.zeros(3)\nw = torch.randn(5, 3, requires_grad=True)\n'
               'b = torch.randn(3, requires_grad=True)\nz = torch.matmul(x, w) + b\n'
               'loss = torch.nn.functional.binary_cross_entropy_with_logits(z, y)\nloss.backward()\n'
               'result = [type(z.grad_fn).__name__, w.grad.shape, b.grad.shape]', RUNS),
    (AUTOGRAD, 'x = torch.ones(5)\ny = torch.zeros(3)\nw = torch.randn(5, 3, requires_grad=True)\n'
               'b = torch.randn(3, requires_grad=True)\nz = torch.matmul(x, w) + b\n'
               'loss = torch.nn.functional.binary_cross_entropy_with_logits(z, y)\n'
               'name = type(loss.grad_fn).__name__\n'
               'assert name == "BinaryCrossEntropyWithLogitsBackward0", name\nresult = name',
     Fails('AssertionError', 'MeanBackward0', "gnn composes binary_cross_entropy_with_logits from ops, so "
           "loss.grad_fn is its last op's node (MeanBackward0), not one fused node; the gradients agree")),
    (AUTOGRAD, 'x = torch.ones(5)\nw = torch.randn(5, 3, requires_grad=True)\nb = torch.randn(3, requires_grad=True)\n'
               'z = torch.matmul(x, w) + b\nr = [z.requires_grad]\nwith torch.no_grad():\n'
               '    z = torch.matmul(x, w) + b\nr.append(z.requires_grad)\nz = torch.matmul(x, w) + b\n'
               'z_det = z.detach()\nr.append(z_det.requires_grad)\nresult = r', RUNS),
    (AUTOGRAD, 'inp = torch.eye(4, 5, requires_grad=True)\nout = (inp+1).pow(2).t()\n'
               'out.backward(torch.ones_like(out), retain_graph=True)\ng1 = inp.grad.clone()\n'
               'out.backward(torch.ones_like(out), retain_graph=True)\ng2 = inp.grad.clone()\n'
               'inp.grad.zero_()\nout.backward(torch.ones_like(out), retain_graph=True)\n'
               'result = [g1, g2, inp.grad]', RUNS),
    # ---- Optimizing Model Parameters ----
    (OPTIM, 'learning_rate = 1e-3\nbatch_size = 64\nepochs = 5\nloss_fn = nn.CrossEntropyLoss()\n'
            'model = nn.Sequential(nn.Linear(4, 3))\n'
            'optimizer = torch.optim.SGD(model.parameters(), lr=learning_rate)\nresult = type(optimizer).__name__',
     RUNS),
    (OPTIM, 'torch.manual_seed(0)\nmodel = nn.Sequential(nn.Linear(4, 3))\nloss_fn = nn.CrossEntropyLoss()\n'
            'optimizer = torch.optim.SGD(model.parameters(), lr=0.1)\nX = torch.rand(8, 4)\n'
            'y = torch.randint(3, (8,))\nmodel.train()\npred = model(X)\nloss = loss_fn(pred, y)\n'
            'loss.backward()\noptimizer.step()\noptimizer.zero_grad()\nloss, current = loss.item(), 8\n'
            'result = [type(loss), (pred.argmax(1) == y).type(torch.float).sum().item() <= 8]', RUNS),
    (OPTIM, 'model = nn.Sequential(nn.Linear(4, 3))\nmodel.eval()\nloss_fn = nn.CrossEntropyLoss()\n'
            'X = torch.rand(8, 4)\ny = torch.randint(3, (8,))\ntest_loss, correct = 0, 0\n'
            'with torch.no_grad():\n    pred = model(X)\n    test_loss += loss_fn(pred, y).item()\n'
            '    correct += (pred.argmax(1) == y).type(torch.float).sum().item()\n'
            'result = [type(test_loss), type(correct), 0 <= correct <= 8]', RUNS),
    # ---- Save and Load the Model ----
    (SAVE, 'import tempfile, os\nmodel = nn.Sequential(nn.Linear(4, 3))\n'
           'path = os.path.join(tempfile.mkdtemp(), "model_weights.pth")\ntorch.save(model.state_dict(), path)\n'
           'model2 = nn.Sequential(nn.Linear(4, 3))\nmodel2.load_state_dict(torch.load(path))\nmodel2.eval()\n'
           'result = sorted(model2.state_dict())', RUNS),
    # ---- Modules note ----
    (NOTE, 'torch.manual_seed(0)\nresult = [torch.randn(4, 3).shape, torch.randn(3).dtype]', RUNS),
    (NOTE, 'w = nn.Parameter(torch.randn(4, 3))\nx = torch.randn(2, 4)\nresult = (x @ w).relu().shape', RUNS),
    (NOTE, 'net = nn.Sequential(nn.Linear(4, 2), nn.ReLU())\nfor param in net.parameters():\n'
           '    param.requires_grad_(False)\nresult = [p.requires_grad for p in net.parameters()]', RUNS),
    (NOTE, 'net = nn.Linear(4, 2)\nwith torch.no_grad():\n    net.weight.fill_(1.0)\n'
           'result = [net.weight.sum().item(), net(torch.ones(1, 4)).shape]', RUNS),
    (NOTE, 'x = torch.randn(8, 4)\nresult = [x.abs().max() >= 0, x.mean(0).shape, x.view(-1, 2).shape]', RUNS),
    (NOTE, 'm = nn.Sequential(nn.Linear(4, 2))\n'
           'result = [name for name, _ in m.named_modules()]', RUNS),
    (NOTE, 'class MyLinear(nn.Module):\n    def __init__(self, in_features, out_features):\n'
           '        super().__init__()\n        self.weight = nn.Parameter(torch.randn(in_features, out_features))\n'
           '        self.bias = nn.Parameter(torch.randn(out_features))\n    def forward(self, input):\n'
           '        return (input @ self.weight) + self.bias\nm = MyLinear(4, 3)\n'
           'result = m(torch.randn(2, 4)).shape', RUNS),
]
