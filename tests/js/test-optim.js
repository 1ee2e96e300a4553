// test-optim.js: Gnn.SGD from gjs, training a Linear layer a few steps, checked against the
// same updates computed in plain JS loops; parameter groups and a constructor error.
//
// Run: gjs -m tests/js/test-optim.js (with GI_TYPELIB_PATH and LD_LIBRARY_PATH set to the build
// tree). Prints TAP; exits non-zero on any failure.
//
// SPDX-License-Identifier: LGPL-2.1-or-later

import Gnn from 'gi://Gnn?version=1.0';

import {assert, assertClose, check, finish, tensor, values} from './testutil.js';

const N = 4, IN = 3, OUT = 2;
const X = [1.0, 2.0, -1.0, 0.5, -0.5, 1.5, 2.0, 0.0, 1.0, -1.0, 1.0, 0.25];   // [4, 3]
const Y = [0.5, -1.0, 1.0, 0.0, -0.5, 2.0, 0.25, 0.75];                        // [4, 2]
const W0 = [0.1, -0.2, 0.3, 0.4, 0.0, -0.1];                                   // [2, 3]
const B0 = [0.05, -0.05];

function newLinear() {
    const lin = Gnn.Linear.new(IN, OUT, true);
    const sd = Gnn.StateDict.new();
    sd.set_tensor('weight', tensor(W0, [OUT, IN]));
    sd.set_tensor('bias', tensor(B0, [OUT]));
    const [ok] = lin.load_state_dict(sd, true, false);
    assert(ok, 'load_state_dict failed');
    return lin;
}

// the gradients of mean((x W^T + b - y)^2) with respect to W and b, in plain loops
function gradients(w, b) {
    const gw = new Array(OUT * IN).fill(0), gb = new Array(OUT).fill(0);
    for (let r = 0; r < N; r++) {
        for (let o = 0; o < OUT; o++) {
            let out = b[o];
            for (let i = 0; i < IN; i++)
                out += X[r * IN + i] * w[o * IN + i];
            const g = 2 * (out - Y[r * OUT + o]) / (N * OUT);
            gb[o] += g;
            for (let i = 0; i < IN; i++)
                gw[o * IN + i] += g * X[r * IN + i];
        }
    }
    return [gw, gb];
}

print('TAP version 13');

check('SGD with momentum trains a Linear layer as the update rule says', () => {
    const lr = 0.1, momentum = 0.9;
    const lin = newLinear();
    const opt = Gnn.SGD.new(Gnn.ParamGroup.new_from_module(lin), lr, momentum, 0, 0, false, false);
    assert(opt instanceof Gnn.SGD && opt instanceof Gnn.Optimizer, 'not an SGD optimizer');
    const x = tensor(X, [N, IN]), y = tensor(Y, [N, OUT]);
    let w = W0.slice(), b = B0.slice();
    let bufW = null, bufB = null;
    for (let step = 0; step < 5; step++) {
        opt.zero_grad(true);
        const loss = lin.forward_tensor(x).mse_loss(y, Gnn.Reduction.MEAN);
        loss.backward(null, false);
        opt.step();

        const [gw, gb] = gradients(w, b);
        bufW = bufW === null ? gw : bufW.map((v, k) => momentum * v + gw[k]);
        bufB = bufB === null ? gb : bufB.map((v, k) => momentum * v + gb[k]);
        w = w.map((v, k) => v - lr * bufW[k]);
        b = b.map((v, k) => v - lr * bufB[k]);
        assertClose(values(lin.get_parameter('weight')), w, `weight after step ${step + 1}`);
        assertClose(values(lin.get_parameter('bias')), b, `bias after step ${step + 1}`);
    }
    const buf = opt.get_state(lin.get_parameter('weight')).get_tensor('momentum_buffer');
    assertClose(values(buf), bufW, 'momentum buffer');
});

check('parameter groups: options, defaults, a per-group learning rate', () => {
    const lin = newLinear();
    const weight = lin.get_parameter('weight'), bias = lin.get_parameter('bias');
    const opt = Gnn.SGD.new(Gnn.ParamGroup.new([weight]), 0.1, 0, 0, 0, false, false);
    const biasGroup = Gnn.ParamGroup.new([bias]);
    biasGroup.set_double('lr', 0.0);
    opt.add_param_group(biasGroup);
    assert(opt.get_n_param_groups() === 2, 'two groups');
    assert(opt.get_param_group(0).get_double('lr') === 0.1, 'lr of group 0');
    assert(opt.get_param_group(1).get_double('lr') === 0.0, 'lr of group 1');
    assert(opt.get_param_group(1).get_boolean('nesterov') === false, 'a default filled in');
    lin.forward_tensor(tensor(X, [N, IN])).mse_loss(tensor(Y, [N, OUT]), Gnn.Reduction.MEAN).backward(null, false);
    opt.step();
    assertClose(values(bias), B0, 'bias with lr 0');
    const [gw] = gradients(W0, B0);
    assertClose(values(weight), W0.map((v, k) => v - 0.1 * gw[k]), 'weight');
});

check('invalid arguments throw PyTorch\'s messages as Gnn.Error', () => {
    const lin = newLinear();
    let error = null;
    try {
        Gnn.SGD.new(Gnn.ParamGroup.new_from_module(lin), -0.1, 0, 0, 0, false, false);
    } catch (e) {
        error = e;
    }
    assert(error !== null, 'no error');
    assert(error.matches(Gnn.Error, Gnn.Error.INVALID_ARGUMENT), `wrong error ${error}`);
    assert(error.message === 'Invalid learning rate: -0.1', `message ${error.message}`);
});

finish();
