// custom-module.js: a module subclass trained with SGD, averaged with an EMA, hooked, saved and
// loaded again. The same program is in examples/c, examples/python and examples/vala: all four
// print the same line, digit for digit.
//
// A TinyNet (Linear 4->hidden, ReLU, Linear hidden->3) learns y = tanh(x @ w.T) + 0.1 * noise
// from 64 samples drawn by a seeded Gnn.Generator, 200 full-batch steps of SGD with momentum,
// an EMA of its weights (Gnn.AveragedModel) updated after every step, and a forward-post handler
// counting the calls and recording the mean output. Its weights go to safetensors and its
// module tree to JSON: a fresh TinyNet rebuilt from both must give exactly the same outputs. A
// checkpoint of model, optimizer and EMA, loaded into fresh ones, must continue training
// exactly as the originals do. It prints
//
//   loss0 L0 loss L ema_loss E hook_calls N hook_mean M reloaded_max_diff D resumed_max_diff R
//
// (every float as C's %.9g) and exits with status 1 when the loss did not fall or a reload
// differs.
//
// Run from the build tree (see examples/README.md):
//   GI_TYPELIB_PATH=build/introspection LD_LIBRARY_PATH=build/gnn gjs -m examples/js/custom-module.js
//
// SPDX-License-Identifier: LGPL-2.1-or-later

import GLib from 'gi://GLib';
import GObject from 'gi://GObject';
import Gnn from 'gi://Gnn?version=1.0';
import System from 'system';

const N_SAMPLES = 64, N_IN = 4, N_OUT = 3, N_STEPS = 200;

// fc1 -> relu -> fc2, with a construct-only "hidden" width. GTypeName is the name the JSON
// holds: a TinyNet is rebuilt by it.
const TinyNet = GObject.registerClass({
    GTypeName: 'TinyNet',
    Properties: {
        'hidden': GObject.ParamSpec.int('hidden', 'Hidden', 'Width of the hidden layer',
            GObject.ParamFlags.READWRITE | GObject.ParamFlags.CONSTRUCT_ONLY, 1, GLib.MAXINT32, 16),
    },
}, class TinyNet extends Gnn.Module {
    get hidden() {
        return this._hidden ?? 16;
    }

    set hidden(v) {
        this._hidden = v;
    }

    vfunc_setup() {
        this.fc1 = Gnn.Linear.new(N_IN, this.hidden, true);
        this.act = Gnn.ReLU.new();
        this.fc2 = Gnn.Linear.new(this.hidden, N_OUT, true);
        this.register_module('fc1', this.fc1);
        this.register_module('act', this.act);
        this.register_module('fc2', this.fc2);
        return true;
    }

    vfunc_forward(input) {
        const h = this.fc1.forward_tensor(input.get_tensor(0));
        return Gnn.Args.new_tensor(this.fc2.forward_tensor(this.act.forward_tensor(h)));
    }
});

// C's printf ("%.9g", v): JS has toPrecision, whose exponents and trailing zeros differ
function formatG(v, precision = 9) {
    if (!Number.isFinite(v))
        return Number.isNaN(v) ? 'nan' : v > 0 ? 'inf' : '-inf';
    if (v === 0)
        return Object.is(v, -0) ? '-0' : '0';
    const [mantissa, exponentText] = v.toExponential(precision - 1).split('e');
    const exponent = Number(exponentText);
    const strip = s => s.includes('.') ? s.replace(/0+$/, '').replace(/\.$/, '') : s;
    if (exponent < -4 || exponent >= precision) {
        const sign = exponent < 0 ? '-' : '+';
        return `${strip(mantissa)}e${sign}${String(Math.abs(exponent)).padStart(2, '0')}`;
    }
    return strip(v.toFixed(precision - 1 - exponent));
}

function mse(model, x, y) {
    return model.forward_tensor(x).mse_loss(y, Gnn.Reduction.MEAN).item();
}

function withNoGrad(fn) {
    const previous = Gnn.set_grad_enabled(false);
    try {
        return fn();
    } finally {
        Gnn.set_grad_enabled(previous);
    }
}

// zero_grad, forward, MSE loss, backward, SGD step, EMA update; returns the loss
function trainStep(model, opt, ema, x, y) {
    opt.zero_grad(true);
    const loss = model.forward_tensor(x).mse_loss(y, Gnn.Reduction.MEAN);
    loss.backward(null, false);
    opt.step();
    ema.update_parameters(model);
    return loss.item();
}

// the largest absolute difference between the outputs of a and b on x
function maxDiff(a, b, x) {
    return withNoGrad(() => a.forward_tensor(x).sub(b.forward_tensor(x), 1.0).abs().max_all().item());
}

// the EMA of model (a copy made now) and its optimizer
function makeTraining(model) {
    const ema = Gnn.AveragedModel.new(model, null, null, Gnn.AverageFunction.new_ema_multi(0.9), false);
    const opt = Gnn.SGD.new(Gnn.ParamGroup.new_from_module(model), 0.05, 0.9, 0, 0, false, false);
    return {ema, opt};
}

// 1. the weights as safetensors and the module tree as JSON; a fresh TinyNet rebuilt from the
//    JSON (by its type name) and given the weights must compute what model does.
// 2. a checkpoint of the model, the optimizer and the EMA, loaded into fresh objects; one more
//    training step of each pair must give the same EMA.
function saveAndLoad(paths, model, opt, ema, x, y) {
    Gnn.safetensors_save(model.state_dict(null, false), null, paths.weights);
    GLib.file_set_contents(paths.json, model.to_json(true));
    const [, bytes] = GLib.file_get_contents(paths.json);
    const reloaded = Gnn.Module.new_from_json(new TextDecoder().decode(bytes), -1);
    const [state] = Gnn.safetensors_load(paths.weights);
    reloaded.load_state_dict(state, true, false);
    if (!(reloaded instanceof TinyNet))
        throw new Error(`the reloaded model is a ${reloaded.constructor.name}, expected a TinyNet`);
    const reloadedDiff = maxDiff(model, reloaded, x);

    const ckpt = Gnn.Checkpoint.new();
    ckpt.set_model(model);
    ckpt.set_optimizer(opt);
    ckpt.add_averaged_model('ema', ema);
    ckpt.save(paths.ckpt);
    const model2 = new TinyNet({hidden: 16});
    const {ema: ema2, opt: opt2} = makeTraining(model2);
    const resume = Gnn.Checkpoint.new();
    resume.set_model(model2);
    resume.set_optimizer(opt2);
    resume.add_averaged_model('ema', ema2);
    resume.load(paths.ckpt);
    trainStep(model, opt, ema, x, y);
    trainStep(model2, opt2, ema2, x, y);
    return {reloadedDiff, resumedDiff: maxDiff(ema, ema2, x)};
}

function main() {
    // the data: y = tanh(x @ w.T) + 0.1 * noise
    const gen = Gnn.Generator.new(42);
    const x = Gnn.Tensor.new_randn([N_SAMPLES, N_IN], gen, Gnn.Dtype.FLOAT32, null);
    const w = Gnn.Tensor.new_randn([N_OUT, N_IN], gen, Gnn.Dtype.FLOAT32, null);
    const noise = Gnn.Tensor.new_randn([N_SAMPLES, N_OUT], gen, Gnn.Dtype.FLOAT32, null);
    const y = x.matmul(w.t()).tanh().add(noise, 0.1);

    // the model, its EMA (a copy made now), the hook, the optimizer
    Gnn.manual_seed(0);
    const model = new TinyNet({hidden: 16});
    const {ema, opt} = makeTraining(model);
    const stats = {calls: 0, lastMean: 0};
    model.connect('forward-post', (module, input, output) => {
        withNoGrad(() => {
            stats.calls++;
            stats.lastMean = output.get_tensor(0).mean_all().item();
        });
    });

    let loss0 = null;
    for (let step = 0; step < N_STEPS; step++) {
        const loss = trainStep(model, opt, ema, x, y);
        if (step === 0)
            loss0 = loss;
    }
    const loss = withNoGrad(() => mse(model, x, y));
    const emaLoss = withNoGrad(() => mse(ema, x, y));

    // save to a new folder and load back; the folder goes whatever happens
    const folder = GLib.dir_make_tmp('gnn-custom-module-XXXXXX');
    const paths = {
        weights: GLib.build_filenamev([folder, 'tinynet.safetensors']),
        json: GLib.build_filenamev([folder, 'tinynet.json']),
        ckpt: GLib.build_filenamev([folder, 'tinynet.ckpt']),
    };
    let diffs;
    try {
        diffs = saveAndLoad(paths, model, opt, ema, x, y);
    } finally {
        for (const path of Object.values(paths))
            GLib.unlink(path);
        GLib.rmdir(folder);
    }

    print(`loss0 ${formatG(loss0)} loss ${formatG(loss)} ema_loss ${formatG(emaLoss)} ` +
        `hook_calls ${stats.calls} hook_mean ${formatG(stats.lastMean)} ` +
        `reloaded_max_diff ${formatG(diffs.reloadedDiff)} resumed_max_diff ${formatG(diffs.resumedDiff)}`);
    if (!(loss < loss0) || diffs.reloadedDiff !== 0 || diffs.resumedDiff !== 0) {
        printerr(`expected a lower loss and identical reloaded and resumed models, found loss ${loss0} -> ` +
            `${loss}, max differences ${diffs.reloadedDiff} and ${diffs.resumedDiff}`);
        System.exit(1);
    }
}

main();
