#!/usr/bin/python3
"""Generates the inputs, weights and torch-computed expected values of the Quickstart-shaped
module tests (tests/js/test-quickstart-module.js, tests/vala/test-quickstart-module.vala),
and rewrites the block between the BEGIN GENERATED / END GENERATED lines of both files, as
gen-mlp-expected.py does for the MLP tests (whose formatting it reuses).

    /usr/bin/python3 tests/js/gen-quickstart-expected.py          # rewrite both files
    /usr/bin/python3 tests/js/gen-quickstart-expected.py --print  # show the blocks only

The model is PyTorch's Quickstart NeuralNetwork, smaller (float32):
    flatten            (N, 1, H, W) -> (N, D_IN)
    linear_relu_stack  Linear (D_IN, HIDDEN), ReLU, Linear (HIDDEN, HIDDEN), ReLU,
                       Linear (HIDDEN, D_OUT)
    loss               CrossEntropyLoss (logits, y), y int64 class indices
and one step of SGD (lr=LR) after loss.backward (). Inputs and weights are multiples of 1/64
(exact in float32 and in decimal), chosen so that no pre-activation of a ReLU is within 1e-3
of zero. Besides the loss before and after the step and the parameters after it, the blocks
hold what the backward hooks see: the gradient of the logits (the grad_output of a full
backward pre-hook on the model; torch 1.13 has no such hook, so it is read as the grad_output
of a full backward hook) and the gradient of the last Linear's input (the grad_input
of a full backward hook on that layer).
"""
import importlib.util
import os
import sys

import numpy as np
import torch
from torch import nn

N, H, W, HIDDEN, D_OUT = 4, 2, 3, 5, 3
D_IN = H * W
LR = 0.1
HERE = os.path.dirname(os.path.abspath(__file__))
TARGETS = {
    'js': os.path.join(HERE, 'test-quickstart-module.js'),
    'vala': os.path.join(HERE, '..', 'vala', 'test-quickstart-module.vala'),
}
# the state dict keys of the model, in its order, and the names the blocks give them
PARAMS = [('linear_relu_stack.0.weight', 'w1'), ('linear_relu_stack.0.bias', 'b1'),
          ('linear_relu_stack.2.weight', 'w2'), ('linear_relu_stack.2.bias', 'b2'),
          ('linear_relu_stack.4.weight', 'w3'), ('linear_relu_stack.4.bias', 'b3')]


def load_mlp_generator():
    spec = importlib.util.spec_from_file_location('gen_mlp_expected', os.path.join(HERE, 'gen-mlp-expected.py'))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class NeuralNetwork(nn.Module):
    def __init__(self):
        super().__init__()
        self.flatten = nn.Flatten()
        self.linear_relu_stack = nn.Sequential(
            nn.Linear(D_IN, HIDDEN), nn.ReLU(),
            nn.Linear(HIDDEN, HIDDEN), nn.ReLU(),
            nn.Linear(HIDDEN, D_OUT))

    def forward(self, x):
        x = self.flatten(x)
        logits = self.linear_relu_stack(x)
        return logits


def build(d):
    model = NeuralNetwork()
    with torch.no_grad():
        for key, name in PARAMS:
            model.get_parameter(key).copy_(torch.from_numpy(d[name]))
    return model


def pre_activations(model, x):
    stack = model.linear_relu_stack
    h1 = stack[0](model.flatten(x))
    h2 = stack[2](torch.relu(h1))
    return np.concatenate([h1.detach().numpy().ravel(), h2.detach().numpy().ravel()])


def make_data(g):
    for seed in range(1000):
        rng = np.random.default_rng(seed)
        d = {
            'x': g.dyadic(rng, (N, 1, H, W), 96),
            'w1': g.dyadic(rng, (HIDDEN, D_IN), 26),     # about U(-1/sqrt(6), 1/sqrt(6))
            'b1': g.dyadic(rng, (HIDDEN,), 26),
            'w2': g.dyadic(rng, (HIDDEN, HIDDEN), 28),   # about U(-1/sqrt(5), 1/sqrt(5))
            'b2': g.dyadic(rng, (HIDDEN,), 28),
            'w3': g.dyadic(rng, (D_OUT, HIDDEN), 28),
            'b3': g.dyadic(rng, (D_OUT,), 28),
        }
        d['y'] = rng.integers(0, D_OUT, size=(N,)).astype(np.int64)
        pre = pre_activations(build(d), torch.from_numpy(d['x']))
        if np.abs(pre).min() > 1e-3 and (pre > 0).mean() > 0.3 and (pre < 0).any():
            return d
    raise SystemExit('no seed gives pre-activations away from zero')


def expected(d):
    model = build(d)
    seen = {}
    # torch 1.13 has no register_full_backward_pre_hook: the grad_output of a full backward
    # hook is what a backward pre-hook sees
    model.register_full_backward_hook(
        lambda m, grad_input, grad_output: seen.__setitem__('grad_logits', grad_output[0]))
    model.linear_relu_stack[4].register_full_backward_hook(
        lambda m, grad_input, grad_output: seen.__setitem__('grad_last_input', grad_input[0]))
    loss_fn = nn.CrossEntropyLoss()
    optimizer = torch.optim.SGD(model.parameters(), lr=LR)
    x, y = torch.from_numpy(d['x']), torch.from_numpy(d['y'])

    model.train()
    pred = model(x)
    loss = loss_fn(pred, y)
    optimizer.zero_grad(set_to_none=True)
    loss.backward()
    optimizer.step()
    e = {'loss0': np.float32(loss.item()), 'logits0': pred.detach().numpy(),
         'grad_logits': seen['grad_logits'].numpy(), 'grad_last_input': seen['grad_last_input'].numpy()}
    for key, name in PARAMS:
        e[name] = model.get_parameter(key).detach().numpy()
    model.eval()
    with torch.no_grad():
        e['loss1'] = np.float32(loss_fn(model(x), y).item())
    return e


ARRAYS = ['logits0', 'grad_logits', 'grad_last_input'] + [name for _, name in PARAMS]


def js_block(g, d, e):
    out = ['// BEGIN GENERATED by gen-quickstart-expected.py (torch %s); do not edit by hand' % torch.__version__,
           'const N = %d, H = %d, W = %d, D_IN = %d, HIDDEN = %d, D_OUT = %d, LR = %s;'
           % (N, H, W, D_IN, HIDDEN, D_OUT, g.fmt(LR)),
           'const DATA = {']
    for k in ['x'] + [name for _, name in PARAMS]:
        out.append('    %s: %s,' % (k, g.js_list(d[k], 4)))
    out.append('    y: [%s],' % ', '.join(str(int(v)) for v in d['y']))
    out.append('};')
    out.append('const EXPECTED = {')
    out.append('    loss0: %s,' % g.fmt(e['loss0']))
    out.append('    loss1: %s,' % g.fmt(e['loss1']))
    for k in ARRAYS:
        out.append('    %s: %s,' % (k, g.js_list(e[k], 4)))
    out.append('};')
    out.append('// END GENERATED')
    return '\n'.join(out)


def vala_block(g, d, e):
    out = ['// BEGIN GENERATED by gen-quickstart-expected.py (torch %s); do not edit by hand' % torch.__version__,
           'const int N = %d;' % N, 'const int H = %d;' % H, 'const int W = %d;' % W,
           'const int D_IN = %d;' % D_IN, 'const int HIDDEN = %d;' % HIDDEN, 'const int D_OUT = %d;' % D_OUT,
           'const double LR = %s;' % g.fmt(LR)]
    for k in ['x'] + [name for _, name in PARAMS]:
        out.append('const float[] DATA_%s = %s;' % (k.upper(), g.vala_list(d[k], 0)))
    out.append('const int64[] DATA_Y = { %s };' % ', '.join(str(int(v)) for v in d['y']))
    out.append('const float EXPECTED_LOSS0 = %sf;' % g.fmt(e['loss0']))
    out.append('const float EXPECTED_LOSS1 = %sf;' % g.fmt(e['loss1']))
    for k in ARRAYS:
        out.append('const float[] EXPECTED_%s = %s;' % (k.upper(), g.vala_list(e[k], 0)))
    out.append('// END GENERATED')
    return '\n'.join(out)


def main():
    torch.set_num_threads(1)
    g = load_mlp_generator()
    d = make_data(g)
    e = expected(d)
    blocks = {'js': js_block(g, d, e), 'vala': vala_block(g, d, e)}
    if '--print' in sys.argv:
        for b in blocks.values():
            print(b)
        return
    for lang, path in TARGETS.items():
        g.rewrite(path, blocks[lang])


if __name__ == '__main__':
    main()
