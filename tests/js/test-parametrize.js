// test-parametrize.js: parametrizations from gjs: a JS module subclass as a parametrization
// (vfunc_forward), a right inverse given as a JS function, the built-in weight-norm
// parametrization, transfer_parametrizations_and_params, and an error from JS
//
// Run: gjs -m tests/js/test-parametrize.js (with GI_TYPELIB_PATH and LD_LIBRARY_PATH set to
// the build tree). Prints TAP; exits non-zero on any failure.
//
// SPDX-License-Identifier: LGPL-2.1-or-later

import GObject from 'gi://GObject';
import Gnn from 'gi://Gnn?version=1.0';

import {assert, assertClose, assertThrows, check, finish, tensor, values} from './testutil.js';

const W = [1, 2, 3, 4, 5, 6, 7, 8, 9];
const SYM = [1, 2, 3, 2, 5, 6, 3, 6, 9];

// the parametrizations tutorial's Symmetric: X -> triu (X) + triu (X, 1)ᵀ
const JsSymmetric = GObject.registerClass({
    GTypeName: 'JsParametrizeSymmetric',
}, class JsSymmetric extends Gnn.Module {
    vfunc_forward(input) {
        const x = input.get_tensor(0);
        return Gnn.Args.new_tensor(x.triu(0).add(x.triu(1).t(), 1.0));
    }
});

// X -> 2 X, with its right inverse X / 2 given from JS
const JsDouble = GObject.registerClass({
    GTypeName: 'JsParametrizeDouble',
}, class JsDouble extends Gnn.Module {
    vfunc_forward(input) {
        return Gnn.Args.new_tensor(input.get_tensor(0).mul_scalar(2.0));
    }
});

function linear() {
    const m = Gnn.Linear.new(3, 3, true);
    m.get_parameter('weight').set_data(tensor(W, [3, 3]));
    return m;
}

function keys(m) {
    return m.state_dict(null, false).get_keys().join(',');
}

check('a JS module as a parametrization: weight reads Symmetric (original)', () => {
    const m = linear();
    const w = m.get_parameter('weight');
    assert(Gnn.register_parametrization(m, 'weight', new JsSymmetric(), false), 'registered');
    assert(Gnn.is_parametrized(m, 'weight') && !Gnn.is_parametrized(m, 'bias'), 'is_parametrized');
    assert(keys(m) === 'bias,parametrizations.weight.original', `keys ${keys(m)}`);
    assert(m.get_parameter('parametrizations.weight.original') === w, 'the same parameter object');
    assertClose(values(m.get_tensor('weight')), SYM, 'the symmetric weight');
    // the gradient flows through the JS forward to original
    m.forward_tensor(tensor([1, 2, 3], [1, 3], true)).sum_all().backward(null, false);
    assert(w.get_grad() !== null, 'original has a gradient');
    assert(Gnn.remove_parametrizations(m, 'weight', true), 'removed');
    assert(keys(m) === 'bias,weight', `keys after removal ${keys(m)}`);
    assertClose(values(m.get_parameter('weight')), SYM, 'left parametrized');
});

check('a right inverse from JS runs at registration and on assignment', () => {
    const m = linear();
    const p = new JsDouble();
    let calls = 0;
    Gnn.parametrization_set_right_inverse(p, (_p, value, out) => {
        calls++;
        out.add_tensor(value.div_scalar(2.0));
        return true;
    });
    assert(Gnn.parametrization_has_right_inverse(p), 'has_right_inverse');
    assert(Gnn.register_parametrization(m, 'weight', p, false), 'registered');
    assert(calls === 1, `right_inverse ran ${calls} times at registration`);
    assertClose(values(m.get_parameter('parametrizations.weight.original')), W.map(v => v / 2), 'original = W / 2');
    assertClose(values(m.get_tensor('weight')), W, 'weight still reads W');
    assert(Gnn.parametrize_set_tensor(m, 'weight', tensor(SYM, [3, 3])), 'assigned');
    assertClose(values(m.get_parameter('parametrizations.weight.original')), SYM.map(v => v / 2), 'original = SYM / 2');
    assertClose(values(m.get_tensor('weight')), SYM, 'weight reads SYM');
});

check('weight_norm as a parametrization: original0 (g) and original1 (v)', () => {
    const m = linear();
    assert(Gnn.parametrizations_weight_norm(m, 'weight', 0), 'registered');
    assert(keys(m) === 'bias,parametrizations.weight.original0,parametrizations.weight.original1',
        `keys ${keys(m)}`);
    const norms = [0, 1, 2].map(i => Math.hypot(W[3 * i], W[3 * i + 1], W[3 * i + 2]));
    assertClose(values(m.get_parameter('parametrizations.weight.original0')), norms, 'g: the row norms');
    assertClose(values(m.get_parameter('parametrizations.weight.original1')), W, 'v: the weight');
    assertClose(values(m.get_tensor('weight')), W, 'the weight reads as before');
    const wn = m.get_submodule('parametrizations.weight.0');
    assert(wn instanceof Gnn.WeightNorm && wn.get_dim() === 0, 'a Gnn.WeightNorm of dim 0');
});

check('transfer_parametrizations_and_params shares the chain and the original', () => {
    const from = linear();
    const sym = new JsSymmetric();
    Gnn.register_parametrization(from, 'weight', sym, false);
    const to = Gnn.Linear.new(3, 3, true);
    assert(Gnn.transfer_parametrizations_and_params(from, to, null), 'transferred');
    assert(to.get_submodule('parametrizations.weight.0') === sym, 'the same parametrization');
    assert(to.get_parameter('parametrizations.weight.original') ===
        from.get_parameter('parametrizations.weight.original'), 'the same original');
    assertClose(values(to.get_tensor('weight')), SYM, 'the target reads the same weight');
    assert(Gnn.type_before_parametrizations(to) === Gnn.Linear.$gtype, 'type_before_parametrizations');
});

check('a bad registration throws a GLib.Error and leaves the module as it was', () => {
    const m = linear();
    const missing = assertThrows(() => Gnn.register_parametrization(m, 'wieght', new JsSymmetric(), false),
        'a missing name');
    assert(missing.matches(Gnn.error_quark(), Gnn.Error.INVALID_ARGUMENT) && missing.message.includes("'wieght'"),
        `a missing name: ${missing}`);
    const range = assertThrows(() => Gnn.parametrizations_weight_norm(m, 'weight', 2), 'dim out of range');
    assert(range.matches(Gnn.error_quark(), Gnn.Error.INDEX) && range.message.includes('[-2, 1], but got 2'),
        `dim out of range: ${range}`);
    assert(keys(m) === 'weight,bias', `keys ${keys(m)}`);
    assert(!Gnn.is_parametrized(m, null), 'not parametrized');
});

finish();
