// test-module.js: a GnnModule subclass written in gjs, created and called from JS and by
// type name through GObject, with forward hooks and signal handlers connected from JS.
//
// The subclass follows doc/design/module-construction.md: an explicit GTypeName, construct-only
// properties, parameters built in vfunc_setup (run from the C `constructed`), vfunc_forward and
// vfunc_extra_repr. Every call goes through the C wrapper gnn_module_forward (directly, or
// through forward_tensor), which runs the hooks and signals before and after the JS vfunc.
//
// Expected values come from plain JS loops over the same deterministic weights.
//
// Run: gjs -m tests/js/test-module.js (with GI_TYPELIB_PATH and LD_LIBRARY_PATH set to the build
// tree). Prints TAP; exits non-zero on any failure.
//
// SPDX-License-Identifier: LGPL-2.1-or-later

import GLib from 'gi://GLib';
import GObject from 'gi://GObject';
import Gnn from 'gi://Gnn?version=1.0';
import System from 'system';

import {assert, assertClose, assertShape, assertThrows, check, finish, tensor, values} from './testutil.js';

const TYPE_NAME = 'JsTestLinear';
const RW_CONSTRUCT_ONLY = GObject.ParamFlags.READWRITE | GObject.ParamFlags.CONSTRUCT_ONLY;

// the deterministic weights, as flat row-major arrays: weight is [in, out], bias [out]
function weightData(inF, outF) {
    const w = [];
    for (let i = 0; i < inF; i++) {
        for (let j = 0; j < outF; j++)
            w.push(0.1 * (i + 1) - 0.2 * j);
    }
    return w;
}

function biasData(outF) {
    return Array.from({length: outF}, (_, j) => 0.5 * j - 0.25);
}

// x [n, in] @ weight + bias, in plain JS
function reference(x, n, inF, outF) {
    const w = weightData(inF, outF), b = biasData(outF), out = [];
    for (let r = 0; r < n; r++) {
        for (let j = 0; j < outF; j++) {
            let s = b[j];
            for (let i = 0; i < inF; i++)
                s += x[r * inF + i] * w[i * outF + j];
            out.push(s);
        }
    }
    return out;
}

// y = x @ weight + bias; fails with a GLib.Error unless given exactly one value, and with a
// plain JS exception when the kwarg "explode" is present.
const JsTestLinear = GObject.registerClass({
    GTypeName: TYPE_NAME,
    Properties: {
        'in-features': GObject.ParamSpec.int('in-features', 'In features', 'Size of each input',
            RW_CONSTRUCT_ONLY, 0, GLib.MAXINT32, 0),
        'out-features': GObject.ParamSpec.int('out-features', 'Out features', 'Size of each output',
            RW_CONSTRUCT_ONLY, 0, GLib.MAXINT32, 0),
    },
}, class JsTestLinear extends Gnn.Module {
    get in_features() {
        return this._inFeatures ?? 0;
    }

    set in_features(v) {
        this._inFeatures = v;
    }

    get out_features() {
        return this._outFeatures ?? 0;
    }

    set out_features(v) {
        this._outFeatures = v;
    }

    vfunc_setup() {
        const inF = this.in_features, outF = this.out_features;
        this.setupCalls = (this.setupCalls ?? 0) + 1;
        this.weight = Gnn.Parameter.new(tensor(weightData(inF, outF), [inF, outF]), true);
        this.register_parameter('weight', this.weight);
        this.register_parameter('bias', Gnn.Parameter.new(tensor(biasData(outF), [outF]), true));
        return true;
    }

    vfunc_forward(input) {
        if (input.has_kwarg('explode'))
            throw new Error('JsTestLinear exploded on request');
        const n = input.get_n_values();
        if (n !== 1) {
            throw new GLib.Error(Gnn.error_quark(), Gnn.Error.INVALID_ARGUMENT,
                `JsTestLinear takes one input, got ${n}`);
        }
        const x = input.get_tensor(0);
        // this.weight (set in setup) and get_parameter must be the same object
        const y = x.matmul(this.weight).add(this.get_parameter('bias'), 1.0);
        return Gnn.Args.new_tensor(y);
    }

    vfunc_extra_repr() {
        return `in_features=${this.in_features}, out_features=${this.out_features}`;
    }
});

// a module made of two JsTestLinear layers, built in setup
const JsTestNet = GObject.registerClass({
    GTypeName: 'JsTestNet',
}, class JsTestNet extends Gnn.Module {
    vfunc_setup() {
        this.register_module('fc1', new JsTestLinear({in_features: 3, out_features: 4}));
        this.register_module('fc2', new JsTestLinear({in_features: 4, out_features: 2}));
        return true;
    }

    vfunc_forward(input) {
        const h = this.get_submodule('fc1').forward_tensor(input.get_tensor(0)).relu();
        return Gnn.Args.new_tensor(this.get_submodule('fc2').forward_tensor(h));
    }
});

// What a C loader does: look the type up by name and create it with properties. (In gjs both
// GObject.Object.new and GObject.Object.new_with_properties are overrides that end in the JS
// constructor; GObject.Object.newv, the plain C entry, cannot be called from gjs since
// GObject.Parameter.name is not writable.)
function createByName(typeName, names, vals) {
    const gtype = GObject.type_from_name(typeName);
    assert(gtype !== null && gtype !== GObject.TYPE_INVALID, `no type ${typeName}`);
    assert(GObject.type_is_a(gtype, Gnn.Module.$gtype), `${typeName} is not a Gnn.Module`);
    const m = GObject.Object.new_with_properties(gtype, names, vals);
    assert(m instanceof Gnn.Module, 'not a module');
    return m;
}

const X = [1, 2, 3, -1, 0.5, 2];   // [2, 3]

function checkLinear(m, inF, outF) {
    assert(m instanceof JsTestLinear, `${m} is not a JsTestLinear`);
    assert(m.setupCalls === 1, `setup ran ${m.setupCalls} times`);
    assert(m.in_features === inF && m.out_features === outF,
        `properties ${m.in_features}, ${m.out_features}`);
    assert(GObject.type_name(m.constructor.$gtype) === TYPE_NAME, 'wrong type name');
    const [params, names] = m.named_parameters(null, true, true);
    assert(names.join(',') === 'weight,bias', `named_parameters gave ${names}`);
    assertShape(params[0], [inF, outF], 'weight');
    assertShape(params[1], [outF], 'bias');
    assert(params[0] === m.weight, 'the weight set in setup is not the registered one');
    assert(params.every(p => p.get_requires_grad()), 'parameters do not require grad');
}

print('TAP version 13');

check('created from JS: setup builds the parameters', () => {
    checkLinear(new JsTestLinear({in_features: 3, out_features: 2}), 3, 2);
});

check('created by type name (GObject.Object.new_with_properties)', () => {
    checkLinear(createByName(TYPE_NAME, ['in-features', 'out-features'], [3, 2]), 3, 2);
});

check('created by type name (GObject.Object.new)', () => {
    const m = GObject.Object.new(GObject.type_from_name(TYPE_NAME), {in_features: 5, out_features: 1});
    checkLinear(m, 5, 1);
});

check('forward through the C wrapper and forward_tensor', () => {
    const m = createByName(TYPE_NAME, ['in-features', 'out-features'], [3, 2]);
    const want = reference(X, 2, 3, 2);
    const out = Gnn.Module.prototype.forward.call(m, Gnn.Args.new_tensor(tensor(X, [2, 3])));
    assert(out instanceof Gnn.Args && out.get_n_values() === 1, 'forward gave no single output');
    assertShape(out.get_tensor(0), [2, 2], 'forward output');
    assertClose(values(out.get_tensor(0)), want, 'forward');
    assertClose(values(m.forward(Gnn.Args.new_tensor(tensor(X, [2, 3]))).get_tensor(0)), want,
        'm.forward');
    assertClose(values(m.forward_tensor(tensor(X, [2, 3]))), want, 'forward_tensor');
});

check('to_string and extra_repr', () => {
    const m = new JsTestLinear({in_features: 3, out_features: 2});
    assert(m.extra_repr() === 'in_features=3, out_features=2', `extra_repr gave ${m.extra_repr()}`);
    assert(m.get_name() === TYPE_NAME, `get_name gave ${m.get_name()}`);
    const s = m.to_string();
    assert(s === `${TYPE_NAME}(in_features=3, out_features=2)`, `to_string gave ${s}`);
    const net = createByName('JsTestNet', [], []);
    const expected = 'JsTestNet(\n' +
        `  (fc1): ${TYPE_NAME}(in_features=3, out_features=4)\n` +
        `  (fc2): ${TYPE_NAME}(in_features=4, out_features=2)\n` +
        ')';
    assert(net.to_string() === expected, `to_string gave\n${net.to_string()}`);
});

check('named_parameters of a JS module holding JS modules', () => {
    const net = createByName('JsTestNet', [], []);
    const [params, names] = net.named_parameters(null, true, true);
    assert(names.join(',') === 'fc1.weight,fc1.bias,fc2.weight,fc2.bias', `names ${names}`);
    assertShape(params[2], [4, 2], 'fc2.weight');
    const [, prefixed] = net.named_parameters('net', true, true);
    assert(prefixed[0] === 'net.fc1.weight', `prefixed ${prefixed}`);
    const [, childNames] = net.named_children();
    assert(childNames.join(',') === 'fc1,fc2', `children ${childNames}`);
    // the submodules are the JS objects, with their JS state
    assert(net.get_submodule('fc2').setupCalls === 1, 'submodule lost its JS state');
    const h = reference(X, 2, 3, 4).map(v => Math.max(v, 0));
    assertClose(values(net.forward_tensor(tensor(X, [2, 3]))), reference(h, 2, 4, 2), 'net forward');
});

check('gradient through backward reaches the parameters', () => {
    const m = createByName(TYPE_NAME, ['in-features', 'out-features'], [3, 2]);
    const x = tensor(X, [2, 3]);
    const loss = m.forward_tensor(x).sum_all();
    assert(loss.get_requires_grad(), 'loss does not require grad');
    loss.backward(null, false);
    const wgrad = m.get_parameter('weight').get_grad();
    const bgrad = m.get_parameter('bias').get_grad();
    assert(wgrad !== null && bgrad !== null, 'no gradient');
    // d sum(x @ w + b) / d w[i][j] = sum_r x[r][i]; d / d b[j] = n
    const colSums = [X[0] + X[3], X[1] + X[4], X[2] + X[5]];
    assertClose(values(wgrad), colSums.flatMap(s => [s, s]), 'grad of weight');
    assertClose(values(bgrad), [2, 2], 'grad of bias');
    assert(m.zero_grad(true), 'zero_grad');
    assert(m.get_parameter('weight').get_grad() === null, 'zero_grad(set_to_none) left a gradient');
});

check('pre-hook, hook and forward-post handler change input and output', () => {
    const m = createByName(TYPE_NAME, ['in-features', 'out-features'], [3, 2]);
    const order = [];
    const pre = m.register_forward_pre_hook((module, input) => {
        assert(module === m, 'pre-hook got another module');
        order.push('pre');
        input.set_tensor(0, input.get_tensor(0).mul_scalar(2.0));
    }, false, false);
    const post = m.register_forward_hook((module, input, output) => {
        order.push('hook');
        // the hook sees the input after the pre-hook
        assertClose(values(input.get_tensor(0)), X.map(v => 2 * v), 'input seen by the hook');
        output.set_tensor(0, output.get_tensor(0).add_scalar(1.0));
    }, false, false, false);
    const sigPre = m.connect('forward-pre', (module, input) => {
        order.push('signal-pre');
        assertClose(values(input.get_tensor(0)), X.map(v => 2 * v), 'input seen by forward-pre');
    });
    const sigPost = m.connect('forward-post', (module, input, output) => {
        order.push('signal-post');
        output.set_tensor(0, output.get_tensor(0).mul_scalar(10.0));
    });
    assert(pre !== 0 && post !== 0 && pre !== post, `handles ${pre}, ${post}`);

    const want = reference(X.map(v => 2 * v), 2, 3, 2).map(v => (v + 1) * 10);
    const out = Gnn.Module.prototype.forward.call(m, Gnn.Args.new_tensor(tensor(X, [2, 3])));
    assertClose(values(out.get_tensor(0)), want, 'hooked forward');
    assert(order.join(',') === 'pre,signal-pre,hook,signal-post', `order ${order}`);
    assertClose(values(m.forward_tensor(tensor(X, [2, 3]))), want, 'hooked forward_tensor');

    assert(m.remove_hook(pre) && m.remove_hook(post), 'remove_hook');
    assert(!m.remove_hook(pre), 'removed a hook twice');
    m.disconnect(sigPre);
    m.disconnect(sigPost);
    order.length = 0;
    assertClose(values(m.forward_tensor(tensor(X, [2, 3]))), reference(X, 2, 3, 2), 'unhooked');
    assert(order.length === 0, `removed hooks ran: ${order}`);
});

check('prepend orders the pre-hooks; each sees the previous change', () => {
    const m = new JsTestLinear({in_features: 3, out_features: 2});
    const order = [];
    m.register_forward_pre_hook((_m, input) => {
        order.push('add');
        input.set_tensor(0, input.get_tensor(0).add_scalar(1.0));
    }, false, false);
    m.register_forward_pre_hook((_m, input) => {
        order.push('double');
        input.set_tensor(0, input.get_tensor(0).mul_scalar(2.0));
    }, true, false);
    const want = reference(X.map(v => 2 * v + 1), 2, 3, 2);
    assertClose(values(m.forward_tensor(tensor(X, [2, 3]))), want, 'prepended pre-hook first');
    assert(order.join(',') === 'double,add', `order ${order}`);
});

check('with_kwargs: hooks see keyword inputs only when asked', () => {
    const m = new JsTestLinear({in_features: 3, out_features: 2});
    const seen = [];
    m.register_forward_pre_hook((_m, input) => seen.push(`plain:${input.has_kwarg('scale')}`), false, false);
    m.register_forward_pre_hook((_m, input) => {
        seen.push(`kwargs:${input.has_kwarg('scale')}`);
        input.remove_kwarg('scale');
    }, false, true);
    const input = Gnn.Args.new_tensor(tensor(X, [2, 3]));
    input.set_kwarg_tensor('scale', tensor([2], [1]));
    m.forward(input);
    assert(seen.join(',') === 'plain:false,kwargs:true', `seen ${seen}`);
});

check('a GLib.Error thrown by vfunc_forward reaches the caller', () => {
    const m = createByName(TYPE_NAME, ['in-features', 'out-features'], [3, 2]);
    const input = Gnn.Args.new();
    input.add_tensor(tensor(X, [2, 3]));
    input.add_tensor(tensor(X, [2, 3]));
    const e = assertThrows(() => Gnn.Module.prototype.forward.call(m, input), 'forward of two inputs');
    assert(e instanceof GLib.Error, `expected a GLib.Error, got ${e}`);
    assert(e.matches(Gnn.error_quark(), Gnn.Error.INVALID_ARGUMENT), `got ${e.domain}:${e.code}`);
    assert(e.message === 'JsTestLinear takes one input, got 2', `message ${e.message}`);
});

// gjs turns the exception into a GError of its own domain on the way into C, and that GError
// back into a JS Error on the way out: the caller sees an Error with the original message.
check('a plain JS exception thrown by vfunc_forward comes back with its message', () => {
    const m = new JsTestLinear({in_features: 3, out_features: 2});
    const input = Gnn.Args.new_tensor(tensor(X, [2, 3]));
    input.set_kwarg_tensor('explode', tensor([1], [1]));
    const e = assertThrows(() => m.forward(input), 'forward asked to explode');
    assert(e instanceof Error, `expected an Error, got ${e}`);
    assert(e.message.includes('JsTestLinear exploded on request'), `message ${e.message}`);
    // the module still works afterwards
    input.remove_kwarg('explode');
    assertClose(values(m.forward(input).get_tensor(0)), reference(X, 2, 3, 2), 'forward after a failure');
});

check('always_call hooks see a failed forward with a null output; others do not run', () => {
    const m = new JsTestLinear({in_features: 3, out_features: 2});
    const calls = [];
    m.register_forward_hook((_m, _input, output) => calls.push(`always:${output}`), false, false, true);
    m.register_forward_hook(() => calls.push('normal'), false, false, false);
    m.connect('forward-post', () => calls.push('signal'));
    const e = assertThrows(() => m.forward(Gnn.Args.new()), 'forward of no inputs');
    assert(e.message === 'JsTestLinear takes one input, got 0', `message ${e.message}`);
    assert(calls.join(',') === 'always:null', `calls ${calls}`);
});

check('a failing setup is reported by forward', () => {
    const Broken = GObject.registerClass({GTypeName: 'JsTestBroken'}, class extends Gnn.Module {
        vfunc_setup() {
            throw new GLib.Error(Gnn.error_quark(), Gnn.Error.INVALID_ARGUMENT, 'JsTestBroken cannot be set up');
        }

        vfunc_forward(input) {
            return input;
        }
    });
    const m = createByName('JsTestBroken', [], []);
    assert(m instanceof Broken, 'not a JsTestBroken');
    const e = assertThrows(() => m.forward_tensor(tensor(X, [2, 3])), 'forward of a broken module');
    assert(e instanceof GLib.Error && e.message.includes('JsTestBroken cannot be set up'), `got ${e}`);
    const e2 = assertThrows(() => m.setup(), 'setup of a broken module');
    assert(e2.matches(Gnn.error_quark(), Gnn.Error.INVALID_ARGUMENT), `got ${e2.domain}:${e2.code}`);
});

// a module with non-tensor state, saved through get_extra_state (a GVariant) in its state dict
const JsTestCounter = GObject.registerClass({GTypeName: 'JsTestCounter'}, class JsTestCounter extends Gnn.Module {
    vfunc_setup() {
        this.count = 0;
        this.register_buffer('total', Gnn.Tensor.new_zeros([2], Gnn.Dtype.FLOAT32, null), true);
        return true;
    }

    vfunc_forward(input) {
        this.count++;
        return input;
    }

    vfunc_get_extra_state() {
        return new GLib.Variant('a{sv}', {count: new GLib.Variant('i', this.count)});
    }

    vfunc_set_extra_state(state) {
        this.count = state.deepUnpack().count.unpack();
        return true;
    }
});

check('extra state (GVariant) from JS goes through the state dict', () => {
    const m = new JsTestCounter();
    m.forward(Gnn.Args.new());
    m.forward(Gnn.Args.new());
    assert(m.has_extra_state(), 'has_extra_state');
    assert(m.get_extra_state().print(true) === "{'count': <2>}", `state ${m.get_extra_state().print(true)}`);
    const sd = m.state_dict(null, false);
    assert(sd.get_keys().join(',') === 'total,_extra_state', `keys ${sd.get_keys()}`);
    const copy = createByName('JsTestCounter', [], []);
    assert(copy instanceof JsTestCounter && copy.count === 0, 'fresh counter');
    const [ok, missing, unexpected] = copy.load_state_dict(sd, true, false);
    assert(ok && missing.length === 0 && unexpected.length === 0, `load: ${missing} / ${unexpected}`);
    assert(copy.count === 2, `count after load ${copy.count}`);
    assert(!new JsTestLinear({in_features: 1, out_features: 1}).has_extra_state(), 'a module without extra state has some');
});

check('the module survives garbage collection while held only by C', () => {
    const net = createByName('JsTestNet', [], []);
    System.gc();
    const fc1 = net.get_submodule('fc1');
    assert(fc1.setupCalls === 1 && fc1.weight === fc1.get_parameter('weight'), 'JS state lost after gc');
});

finish();
