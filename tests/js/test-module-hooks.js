// test-module-hooks.js: module hooks registered from gjs in one call. gjs cannot leave out
// arguments, so register_forward_hook needs its three flags written out
// (m.register_forward_hook (fn, false, false, false)); add_forward_pre_hook (fn),
// add_forward_hook (fn), add_full_backward_pre_hook (fn) and add_full_backward_hook (fn)
// register with PyTorch's defaults (appended; the forward ones see the positional inputs only
// and do not run when forward fails).
//
// Run: gjs -m tests/js/test-module-hooks.js (with GI_TYPELIB_PATH and LD_LIBRARY_PATH set to
// the build tree). Prints TAP; exits non-zero on any failure.
//
// SPDX-License-Identifier: LGPL-2.1-or-later

import Gnn from 'gi://Gnn?version=1.0';

import {assert, assertClose, assertThrows, check, finish, tensor, values} from './testutil.js';

check('add_forward_pre_hook and add_forward_hook take only the function', () => {
    const m = Gnn.ReLU.new();
    const order = [];
    const pre = m.add_forward_pre_hook((module, input) => {
        assert(module === m, 'the pre-hook got another module');
        assert(!input.has_kwarg('scale'), 'the pre-hook saw a keyword input');
        order.push('pre');
        input.set_tensor(0, input.get_tensor(0).mul_scalar(2.0));
    });
    const post = m.add_forward_hook((_module, input, output) => {
        order.push('post');
        output.set_tensor(0, output.get_tensor(0).add_scalar(1.0));
    });
    assert(pre !== 0 && post !== 0 && pre !== post, 'handles');
    const args = Gnn.Args.new_tensor(tensor([-1.0, 2.0], [2]));
    args.set_kwarg_tensor('scale', tensor([3.0], [1]));
    const out = m.forward(args);
    assertClose(values(out.get_tensor(0)), [1.0, 5.0], 'relu (2x) + 1');
    assert(order.join(',') === 'pre,post', `order ${order}`);
    assert(m.remove_hook(pre) && m.remove_hook(post), 'removed');
    assert(!m.remove_hook(post), 'removed twice');
});

check('the added forward hook does not run when forward fails', () => {
    const m = Gnn.ReLU.new();
    let ran = false;
    m.add_forward_hook(() => {
        ran = true;
    });
    const bad = Gnn.Args.new();
    bad.add_string('not a tensor');
    assertThrows(() => m.forward(bad), 'a string input');
    assert(!ran, 'the hook ran after a failed forward');
});

check('add_full_backward_pre_hook and add_full_backward_hook take only the function', () => {
    const m = Gnn.Linear.new(2, 1, false);
    const order = [];
    const x = tensor([1.0, 2.0], [1, 2], true);
    // the added hooks are appended: they fire after the ones registered before them
    m.register_full_backward_pre_hook(() => {
        order.push('pre-first');
    }, false);
    const pre = m.add_full_backward_pre_hook((module, gradOutput) => {
        assert(module === m, 'the backward pre-hook got another module');
        order.push(`pre(${gradOutput.get_n_values()})`);
    });
    const post = m.add_full_backward_hook((_module, gradInput, _gradOutput) => {
        order.push('post');
        gradInput.set_tensor(0, gradInput.get_tensor(0).mul_scalar(10.0));
    });
    m.forward_tensor(x).sum_all().backward(null, false);
    assert(order.join(',') === 'pre-first,pre(1),post', `order ${order}`);
    const w = values(m.get_parameter('weight'));
    assertClose(values(x.get_grad()), [10 * w[0], 10 * w[1]], 'the input gradient scaled by the hook');
    assert(m.remove_hook(pre) && m.remove_hook(post) && !m.remove_hook(post), 'removed');
});

check('the module methods that torch chains return the module in gjs', () => {
    // as torch's, so that `const model = new Net().to_device('cpu')` keeps the module
    const m = Gnn.Linear.new(2, 3, true);
    assert(m.to_device('cpu') === m, 'to_device');
    assert(m.train(false) === m && !m.get_training(), 'train (false)');
    assert(m.train(true).eval() === m && !m.get_training(), 'train (true).eval ()');
    assert(m.to_dtype(Gnn.Dtype.FLOAT64) === m && m.get_parameter('weight').get_dtype() === Gnn.Dtype.FLOAT64,
        'to_dtype');
    assert(m.to_tensor(tensor([1.0], [1])) === m && m.get_parameter('weight').get_dtype() === Gnn.Dtype.FLOAT32,
        'to_tensor');
    assert(m.requires_grad_(false) === m && !m.get_parameter('weight').get_requires_grad(), 'requires_grad_');
    assert(m.to_empty('cpu', true) === m, 'to_empty');
    const seen = [];
    assert(m.apply(module => seen.push(module)) === m && seen.length === 1 && seen[0] === m, 'apply');
    assertThrows(() => m.to_dtype(Gnn.Dtype.INT64), 'to_dtype (int64)');
    assertThrows(() => m.to_device('no-such-device'), 'to_device (no-such-device)');
});

check('gjs makes int32 tensors through the Gnn.Dtype enum', () => {
    const t = Gnn.Tensor.new_full([3], 2147483647, Gnn.Dtype.INT32, null);
    assert(t.get_dtype() === Gnn.Dtype.INT32 && t.to_string() === 'tensor([2147483647, 2147483647, 2147483647], dtype=torch.int32)',
        `int32 tensor: ${t.to_string()}`);
});

finish();
