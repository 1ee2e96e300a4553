// test-lstm-classifier.js: a small sequence classifier built in gjs from Gnn.LSTM and
// Gnn.Linear and trained a few Adam steps: the outputs have torch's shapes ((L, N, H) and the
// final states (layers, N, H)) and the cross-entropy loss falls.
//
// Run: gjs -m tests/js/test-lstm-classifier.js (with GI_TYPELIB_PATH and LD_LIBRARY_PATH set to
// the build tree). Prints TAP; exits non-zero on any failure.
//
// SPDX-License-Identifier: LGPL-2.1-or-later

import Gnn from 'gi://Gnn?version=1.0';

import {assert, assertShape, check, finish, tensor} from './testutil.js';

const L = 5, N = 8, IN = 3, HIDDEN = 8, LAYERS = 2, CLASSES = 2;

// the inputs (L, N, IN) from a fixed linear congruential sequence, and the class of each
// sequence: whether the sum of its first feature is positive
function data() {
    let state = 12345;
    const next = () => {
        state = (state * 1103515245 + 12345) % 2147483648;
        return state / 2147483648 * 2 - 1;
    };
    const x = [];
    for (let k = 0; k < L * N * IN; k++)
        x.push(next());
    const y = [];
    for (let n = 0; n < N; n++) {
        let sum = 0;
        for (let t = 0; t < L; t++)
            sum += x[(t * N + n) * IN];
        y.push(sum > 0 ? 1 : 0);
    }
    return [tensor(x, [L, N, IN]), Gnn.Tensor.new_from_int64s(y, [N])];
}

// the logits (N, CLASSES) from the last layer's final hidden state
function logits(lstm, head, x, shapes) {
    const out = lstm.forward(Gnn.Args.new_tensor(x));
    assert(out.get_n_values() === 3, `LSTM gave ${out.get_n_values()} values, expected 3`);
    if (shapes) {
        assertShape(out.get_tensor(0), [L, N, HIDDEN], 'output');
        assertShape(out.get_tensor(1), [LAYERS, N, HIDDEN], 'h_n');
        assertShape(out.get_tensor(2), [LAYERS, N, HIDDEN], 'c_n');
    }
    return head.forward_tensor(out.get_tensor(1).select(0, LAYERS - 1));
}

print('TAP version 13');

check('an LSTM classifier trains: the shapes are torch\'s and the loss falls', () => {
    Gnn.manual_seed(0);
    const lstm = Gnn.LSTM.new(IN, HIDDEN, LAYERS);
    const head = Gnn.Linear.new(HIDDEN, CLASSES, true);
    assert(lstm.get_num_layers() === LAYERS && lstm.get_hidden_size() === HIDDEN, 'LSTM properties');
    const params = Gnn.ParamGroup.new_from_module(lstm);
    const opt = Gnn.Adam.new(params, 0.05, 0.9, 0.999, 1e-8, 0, false, false);
    opt.add_param_group(Gnn.ParamGroup.new_from_module(head));
    const [x, y] = data();
    const losses = [];
    for (let step = 0; step < 30; step++) {
        opt.zero_grad(true);
        const out = logits(lstm, head, x, step === 0);
        assertShape(out, [N, CLASSES], 'logits');
        const loss = out.cross_entropy(y, null, -100, Gnn.Reduction.MEAN, 0.0);
        loss.backward(null, false);
        opt.step();
        losses.push(loss.item());
    }
    assert(losses.every(Number.isFinite), `a loss is not finite: [${losses}]`);
    assert(losses[losses.length - 1] < 0.5 * losses[0],
        `the loss fell from ${losses[0]} to only ${losses[losses.length - 1]}`);
});

check('a wrong input size is a GError naming both sizes', () => {
    const lstm = Gnn.LSTM.new(IN, HIDDEN, 1);
    let message = '';
    try {
        lstm.forward(Gnn.Args.new_tensor(tensor(new Array(L * N * 2).fill(0), [L, N, 2])));
    } catch (e) {
        message = e.message;
    }
    assert(message === 'LSTM: input.size(-1) must be equal to input_size. Expected 3, got 2',
        `error: '${message}'`);
});

finish();
