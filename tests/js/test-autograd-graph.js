// test-autograd-graph.js: the autograd graph from gjs: a tensor's grad_fn and its next
// functions walked to the leaves, anomaly detection naming the node whose backward gave NaN,
// gradients through Gnn.autograd_grad, and inference mode.
//
// Run: gjs -m tests/js/test-autograd-graph.js (with GI_TYPELIB_PATH and LD_LIBRARY_PATH set to
// the build tree). Prints TAP; exits non-zero on any failure.
//
// SPDX-License-Identifier: LGPL-2.1-or-later

import Gnn from 'gi://Gnn?version=1.0';

import {assert, assertClose, check, finish, tensor, values} from './testutil.js';

check('grad_fn and next_functions walk the graph to the leaves', () => {
    const x = tensor([1.0, 2.0], [2], true);
    const w = tensor([3.0, 4.0], [2]);
    const y = x.mul(w).add(x.exp(), 1.0).sum_all();
    const names = [];
    const walk = (node, depth) => {
        if (node === null) {
            names.push(`${depth}:none`);
            return;
        }
        names.push(`${depth}:${node.get_name()}`);
        for (let i = 0; i < node.get_n_next_functions(); i++) {
            const [next] = node.get_next_function(i);
            walk(next, depth + 1);
        }
    };
    assert(x.get_grad_fn() === null, 'a leaf has no grad_fn');
    walk(y.get_grad_fn(), 0);
    assert(names.join(' ') === '0:SumBackward0 1:AddBackward0 2:MulBackward0 3:AccumulateGrad 3:none ' +
           '2:ExpBackward0 3:AccumulateGrad', names.join(' '));
    const [mul] = y.get_grad_fn().get_next_function(0)[0].get_next_function(0);
    const [acc, inputNr] = mul.get_next_function(0);
    assert(inputNr === 0, 'input_nr');
    assert(acc.get_variable() === x, 'AccumulateGrad accumulates into x');
});

check('anomaly detection names the node whose backward gave NaN', () => {
    const x = tensor([0.0, 1.0], [2], true);
    Gnn.autograd_set_anomaly_enabled(true, true);
    try {
        const y = x.sqrt().mul_scalar(0.0).sum_all();
        let message = '';
        try {
            y.backward(null, false);
        } catch (e) {
            message = e.message;
        }
        assert(message.includes("Function 'SqrtBackward0' returned nan values in its 0th output."),
            message);
        const report = Gnn.autograd_take_anomaly_report();
        assert(report !== null && report.startsWith('Error detected in SqrtBackward0.'), `${report}`);
    } finally {
        Gnn.autograd_set_anomaly_enabled(false, true);
    }
    assert(!Gnn.autograd_is_anomaly_enabled(), 'off again');
});

check('autograd_grad gives d(sum x³)/dx = 3x²', () => {
    const x = tensor([1.0, -2.0], [2], true);
    const y = x.mul(x).mul(x).sum_all();
    const [g] = Gnn.autograd_grad([y], [], [x], false, false, false);
    assertClose(values(g), [3.0, 12.0], 'gradient');
    assert(x.get_grad() === null, 'nothing accumulated');
});

check('inference mode: no graph, inference tensors refused outside', () => {
    const w = tensor([1.0, 2.0], [2], true);
    const [prev, gradWas] = Gnn.set_inference_mode_enabled(true);
    let y;
    try {
        assert(prev === false && gradWas === true, `previous modes ${prev} ${gradWas}`);
        assert(Gnn.is_inference_mode_enabled() && !Gnn.is_grad_enabled(), 'on, grad off');
        y = w.mul(w);
        assert(y.get_grad_fn() === null && !y.get_requires_grad(), 'no graph');
        assert(y.is_inference() && !w.is_inference(), 'made inside: an inference tensor');
    } finally {
        Gnn.set_inference_mode_enabled(prev);
        Gnn.set_grad_enabled(gradWas);
    }
    assert(!Gnn.is_inference_mode_enabled() && Gnn.is_grad_enabled(), 'restored');
    let message = '';
    try {
        y.add_scalar_(1.0);
    } catch (e) {
        message = e.message;
    }
    assert(message.startsWith('Inplace update to inference tensor outside InferenceMode'), message);
    assertClose(values(y), [1.0, 4.0], 'not written');
    assert(!y.clone().is_inference(), 'a clone is a normal tensor');
});

finish();
