// test-averaged-model.js: Gnn.Module.copy of a module subclass written in gjs, and
// Gnn.AveragedModel with averaging functions written in JS (a function of one tensor and one of
// lists, which may throw a GLib.Error), next to the built-in EMA.
//
// Expected values come from plain JS arithmetic on the values read back.
//
// Run: gjs -m tests/js/test-averaged-model.js (with GI_TYPELIB_PATH and LD_LIBRARY_PATH set to
// the build tree). Prints TAP; exits non-zero on any failure.
//
// SPDX-License-Identifier: LGPL-2.1-or-later

import GLib from 'gi://GLib';
import GObject from 'gi://GObject';
import Gnn from 'gi://Gnn?version=1.0';
import System from 'system';

import {assert, assertClose, assertThrows, check, finish, tensor, values} from './testutil.js';

const RW_CONSTRUCT_ONLY = GObject.ParamFlags.READWRITE | GObject.ParamFlags.CONSTRUCT_ONLY;

// y = (x * scale) @ inner, with a construct-only width; setup keeps this.scale and this.inner
const JsAvgNet = GObject.registerClass({
    GTypeName: 'JsAvgNet',
    Properties: {
        'width': GObject.ParamSpec.int('width', 'Width', 'Size of the input', RW_CONSTRUCT_ONLY, 0, 1000, 2),
    },
}, class JsAvgNet extends Gnn.Module {
    get width() {
        return this._width ?? 2;
    }

    set width(v) {
        this._width = v;
    }

    vfunc_setup() {
        this.setupCalls = (this.setupCalls ?? 0) + 1;
        this.scale = Gnn.Parameter.new(tensor(Array.from({length: this.width}, (_, i) => i + 1), [this.width]), true);
        this.register_parameter('scale', this.scale);
        this.inner = Gnn.Linear.new(this.width, 2, true);
        this.register_module('inner', this.inner);
        return true;
    }

    vfunc_forward(input) {
        const x = input.get_tensor(0).mul(this.scale);
        return Gnn.Args.new_tensor(this.inner.forward_tensor(x));
    }
});

function setValues(t, data) {
    const prev = Gnn.set_grad_enabled(false);
    try {
        t.copy_(tensor(data, Array.from(t.get_shape(), Number)));
    } finally {
        Gnn.set_grad_enabled(prev);
    }
}

function makeNet() {
    const net = new JsAvgNet({width: 3});
    setValues(net.scale, [0.5, -1, 2]);
    setValues(net.get_parameter('inner.weight'), [1, 2, 3, 4, 5, 6]);
    setValues(net.get_parameter('inner.bias'), [0.25, -0.25]);
    return net;
}

// every float of the net's parameters, in order
function flat(module) {
    return module.parameters(true).flatMap(p => Array.from(values(p)));
}

check('copy of a gjs subclass', () => {
    const net = makeNet();
    net.register_parameter('tied', net.get_parameter('inner.weight'));
    const copy = net.copy();
    assert(copy instanceof JsAvgNet, `copy is a ${copy.constructor.name}`);
    assert(copy.width === 3, `width ${copy.width}`);
    assert(copy.setupCalls === 1, `setup ran ${copy.setupCalls} times`);
    // setup's objects stay the module's, with the original's values
    assert(copy.scale === copy.get_parameter('scale'), 'this.scale is not the scale parameter');
    assert(copy.inner === copy.get_submodule('inner'), 'this.inner is not the inner module');
    assertClose(values(copy.scale), [0.5, -1, 2], 'scale');
    assert(!copy.scale.shares_storage(net.scale), 'the copy shares memory with the original');
    assert(copy.get_parameter('tied') === copy.get_parameter('inner.weight'), 'tied parameter not shared');
    const x = tensor([1, 2, 3, -1, 0, 1], [2, 3]);
    assertClose(values(copy.forward_tensor(x)), values(net.forward_tensor(x)), 'outputs');
    setValues(copy.scale, [0, 0, 0]);
    assertClose(values(net.scale), [0.5, -1, 2], 'original after changing the copy');
});

check('AveragedModel with a JS avg_fn', () => {
    const net = makeNet();
    let calls = 0;
    const fn = Gnn.AverageFunction.new_callback((averaged, current, nAveraged) => {
        calls++;
        assert(nAveraged.item() === 1, `n_averaged ${nAveraged.item()}`);
        return averaged.add(current, 1).mul_scalar(0.5);
    });
    assert(!fn.get_multi(), 'a function of one tensor reports multi');
    const avg = Gnn.AveragedModel.new(net, null, fn, null, false);
    const first = flat(net);
    avg.update_parameters(net);
    setValues(net.scale, [1, 1, 1]);
    const second = flat(net);
    avg.update_parameters(net);
    assert(calls === 3, `avg_fn called ${calls} times`);
    assert(avg.get_n_averaged() === 2, `n_averaged ${avg.get_n_averaged()}`);
    assertClose(flat(avg.get_module()), first.map((v, i) => 0.5 * (v + second[i])), 'averaged values');
    // the average of a JS subclass is a JS subclass
    assert(avg.get_module() instanceof JsAvgNet, 'the averaged copy is not a JsAvgNet');
});

check('AveragedModel with a JS multi_avg_fn that may throw', () => {
    const net = makeNet();
    const seen = [];
    const fn = Gnn.AverageFunction.new_multi_callback((averaged, current, nAveraged) => {
        seen.push(averaged.length);
        if (nAveraged.item() >= 2)
            throw new GLib.Error(Gnn.error_quark(), Gnn.Error.INVALID_ARGUMENT, 'JS multi_avg_fn: enough');
        for (let i = 0; i < averaged.length; i++)
            averaged[i].copy_(averaged[i].maximum(current[i]));
        return true;
    });
    assert(fn.get_multi(), 'a list function does not report multi');
    const avg = Gnn.AveragedModel.new(net, 'cpu', null, fn, false);
    const first = flat(net);
    avg.update_parameters(net);
    setValues(net.scale, [2, -2, 0]);
    const second = flat(net);
    avg.update_parameters(net);
    assert(seen.length === 1 && seen[0] === 3, `calls: [${seen}]`);
    assertClose(flat(avg.get_module()), first.map((v, i) => Math.max(v, second[i])), 'max values');
    const e = assertThrows(() => avg.update_parameters(net), 'a throwing multi_avg_fn');
    assert(e instanceof GLib.Error && e.matches(Gnn.error_quark(), Gnn.Error.INVALID_ARGUMENT),
        `wrong error: ${e}`);
    assert(e.message === 'JS multi_avg_fn: enough', `message: ${e.message}`);
    assert(avg.get_n_averaged() === 2, 'n_averaged moved on a failed update');
});

check('avg_fn returning null, and the built-in EMA', () => {
    const net = makeNet();
    const avg = Gnn.AveragedModel.new(net, null, Gnn.AverageFunction.new_callback(() => null), null, false);
    avg.update_parameters(net);
    const e = assertThrows(() => avg.update_parameters(net), 'an avg_fn returning null');
    assert(e instanceof GLib.Error && e.matches(Gnn.error_quark(), Gnn.Error.FAILED), `wrong error: ${e}`);

    const ema = Gnn.AveragedModel.new(net, null, null, Gnn.AverageFunction.new_ema_multi(0.75), true);
    const first = flat(net);
    ema.update_parameters(net);
    setValues(net.scale, [4, 4, 4]);
    const second = flat(net);
    ema.update_parameters(net);
    assertClose(flat(ema.get_module()), first.map((v, i) => 0.75 * v + 0.25 * second[i]), 'EMA values');
    const bad = assertThrows(() => Gnn.AverageFunction.new_ema(1.5), 'decay 1.5');
    assert(bad.matches(Gnn.error_quark(), Gnn.Error.INVALID_ARGUMENT), `wrong error: ${bad}`);
    const both = assertThrows(() => Gnn.AveragedModel.new(net, null, Gnn.AverageFunction.new_swa(),
        Gnn.AverageFunction.new_swa_multi(), false), 'both functions');
    assert(both.message === 'Only one of avg_fn and multi_avg_fn should be provided', `message: ${both.message}`);
});

System.gc();
finish();
