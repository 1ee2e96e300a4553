#!/usr/bin/python3
"""custom-module.py: a module subclass trained with SGD, averaged with an EMA, hooked, saved and
loaded again. The same program is in examples/c, examples/js and examples/vala: all four print
the same line, digit for digit.

A TinyNet (Linear 4->hidden, ReLU, Linear hidden->3) learns y = tanh(x @ w.T) + 0.1 * noise
from 64 samples drawn by a seeded Gnn.Generator, 200 full-batch steps of SGD with momentum, an
EMA of its weights (Gnn.AveragedModel) updated after every step, and a forward-post handler
counting the calls and recording the mean output. Its weights go to safetensors and its module
tree to JSON: a fresh TinyNet rebuilt from both must give exactly the same outputs. A checkpoint
of model, optimizer and EMA, loaded into fresh ones, must continue training exactly as the
originals do. It prints

    loss0 L0 loss L ema_loss E hook_calls N hook_mean M reloaded_max_diff D resumed_max_diff R

(every float as %.9g) and exits with status 1 when the loss did not fall or a reload differs.

Run from the build tree (see examples/README.md):
    GI_TYPELIB_PATH=build/introspection LD_LIBRARY_PATH=build/gnn PYTHONPATH=introspection \\
        /usr/bin/python3 examples/python/custom-module.py

SPDX-License-Identifier: LGPL-2.1-or-later
"""
import os
import sys
import tempfile

import gi

gi.require_version('Gnn', '1.0')
from gi.repository import GLib, GObject, Gnn  # noqa: E402

N_SAMPLES, N_IN, N_OUT, N_STEPS = 64, 4, 3, 200


class TinyNet(Gnn.Module):
    """fc1 -> relu -> fc2, with a construct-only "hidden" width. __gtype_name__ is the name the
    JSON holds: a TinyNet is rebuilt by it."""
    __gtype_name__ = 'TinyNet'

    hidden = GObject.Property(type=int, default=16, minimum=1, maximum=GLib.MAXINT32,
                              flags=GObject.ParamFlags.READWRITE | GObject.ParamFlags.CONSTRUCT_ONLY)

    def do_setup(self):
        # assigning a module registers it as a child, as in torch.nn
        self.fc1 = Gnn.Linear.new(N_IN, self.hidden, True)
        self.act = Gnn.ReLU.new()
        self.fc2 = Gnn.Linear.new(self.hidden, N_OUT, True)
        return True

    def do_forward(self, args):
        return Gnn.Args.new_tensor(self.fc2(self.act(self.fc1(args.get_tensor(0)))))


class HookStats:
    def __init__(self):
        self.calls = 0
        self.last_mean = 0.0

    def on_forward_post(self, module, inputs, output):
        with Gnn.no_grad():
            self.calls += 1
            self.last_mean = output.get_tensor(0).mean_all().item()


def mse(model, x, y):
    return Gnn.mse_loss(model(x), y, Gnn.Reduction.MEAN).item()


def train_step(model, opt, ema, x, y):
    """zero_grad, forward, MSE loss, backward, SGD step, EMA update; returns the loss"""
    opt.zero_grad()
    loss = Gnn.mse_loss(model(x), y, Gnn.Reduction.MEAN)
    loss.backward()
    opt.step()
    ema.update_parameters(model)
    return loss.item()


def max_diff(a, b, x):
    """the largest absolute difference between the outputs of a and b on x"""
    with Gnn.no_grad():
        return a(x).sub(b(x), 1.0).abs().max_all().item()


def make_training(model):
    """the EMA of model (a copy made now) and its optimizer"""
    ema = Gnn.AveragedModel(model, multi_avg_fn=Gnn.get_ema_multi_avg_fn(0.9))
    opt = Gnn.SGD(model, lr=0.05, momentum=0.9)
    return ema, opt


def save_and_load(folder, model, opt, ema, x, y):
    """1. the weights as safetensors and the module tree as JSON; a fresh TinyNet rebuilt from
    the JSON (by its type name) and given the weights must compute what model does.
    2. a checkpoint of the model, the optimizer and the EMA, loaded into fresh objects; one more
    training step of each pair must give the same EMA."""
    weights_path = os.path.join(folder, 'tinynet.safetensors')
    json_path = os.path.join(folder, 'tinynet.json')
    ckpt_path = os.path.join(folder, 'tinynet.ckpt')

    Gnn.safetensors_save(model.state_dict(), None, weights_path)
    with open(json_path, 'w') as f:
        f.write(model.to_json(True))
    with open(json_path) as f:
        reloaded = Gnn.Module.new_from_json(f.read(), -1)
    state, _metadata = Gnn.safetensors_load(weights_path)
    reloaded.load_state_dict(state, strict=True)
    if not isinstance(reloaded, TinyNet):
        raise TypeError('the reloaded model is a %s, expected a TinyNet' % type(reloaded).__name__)
    reloaded_diff = max_diff(model, reloaded, x)

    Gnn.Checkpoint(model=model, optimizer=opt, averaged={'ema': ema}).save(ckpt_path)
    model2 = TinyNet(hidden=16)
    ema2, opt2 = make_training(model2)
    Gnn.Checkpoint(model=model2, optimizer=opt2, averaged={'ema': ema2}).load(ckpt_path)
    train_step(model, opt, ema, x, y)
    train_step(model2, opt2, ema2, x, y)
    return reloaded_diff, max_diff(ema, ema2, x)


def main():
    # the data: y = tanh(x @ w.T) + 0.1 * noise
    gen = Gnn.Generator.new(42)
    x = Gnn.Tensor.new_randn([N_SAMPLES, N_IN], gen, Gnn.Dtype.FLOAT32, None)
    w = Gnn.Tensor.new_randn([N_OUT, N_IN], gen, Gnn.Dtype.FLOAT32, None)
    noise = Gnn.Tensor.new_randn([N_SAMPLES, N_OUT], gen, Gnn.Dtype.FLOAT32, None)
    y = x.matmul(w.t()).tanh().add(noise, 0.1)

    # the model, its EMA (a copy made now), the hook, the optimizer
    Gnn.manual_seed(0)
    model = TinyNet(hidden=16)
    ema, opt = make_training(model)
    stats = HookStats()
    model.connect('forward-post', stats.on_forward_post)

    loss0 = None
    for step in range(N_STEPS):
        loss = train_step(model, opt, ema, x, y)
        if step == 0:
            loss0 = loss

    with Gnn.no_grad():
        loss = mse(model, x, y)
        ema_loss = mse(ema, x, y)

    # save to a new folder and load back; the folder goes whatever happens
    with tempfile.TemporaryDirectory(prefix='gnn-custom-module-') as folder:
        reloaded_diff, resumed_diff = save_and_load(folder, model, opt, ema, x, y)

    print('loss0 %.9g loss %.9g ema_loss %.9g hook_calls %d hook_mean %.9g '
          'reloaded_max_diff %.9g resumed_max_diff %.9g'
          % (loss0, loss, ema_loss, stats.calls, stats.last_mean, reloaded_diff, resumed_diff))
    if not (loss < loss0) or reloaded_diff != 0.0 or resumed_diff != 0.0:
        sys.exit('expected a lower loss and identical reloaded and resumed models, found loss '
                 '%g -> %g, max differences %g and %g' % (loss0, loss, reloaded_diff, resumed_diff))


if __name__ == '__main__':
    main()
