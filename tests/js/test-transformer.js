// test-transformer.js: a TransformerEncoder from gjs: built from an encoder layer (copies
// under torch's keys), run on a batch, trained two steps with Adam.
//
// Run: gjs -m tests/js/test-transformer.js (with GI_TYPELIB_PATH and LD_LIBRARY_PATH set to
// the build tree). Prints TAP; exits non-zero on any failure.
//
// SPDX-License-Identifier: LGPL-2.1-or-later

import Gnn from 'gi://Gnn?version=1.0';

import {assert, assertShape, check, finish, tensor, values} from './testutil.js';

const S = 5, N = 3, E = 8;

function wave(n, a, b) {
    const v = [];
    for (let i = 0; i < n; i++)
        v.push(Math.sin(a * i + b));
    return v;
}

print('TAP version 13');

check('a TransformerEncoder runs and trains two steps', () => {
    Gnn.manual_seed(0);
    const layer = new Gnn.TransformerEncoderLayer({d_model: E, nhead: 2, dim_feedforward: 16, dropout: 0.0});
    const encoder = Gnn.TransformerEncoder.new(layer, 2, null);
    const [params, names] = encoder.named_parameters(null, true, true);
    assert(params.length === 24, `${params.length} parameters, expected 24`);
    assert(names[0] === 'layers.0.self_attn.in_proj_weight' && names[12] === 'layers.1.self_attn.in_proj_weight',
        `names: ${names.slice(0, 13)}`);
    const x = tensor(wave(S * N * E, 0.7, 0.1), [S, N, E]);
    const w = tensor(wave(S * N * E, 1.3, 0.5), [S, N, E]);
    const mask = Gnn.Transformer.generate_square_subsequent_mask(S, Gnn.Dtype.FLOAT32, null);
    const opt = Gnn.Adam.new(Gnn.ParamGroup.new_from_module(encoder), 0.01, 0.9, 0.999, 1e-8, 0, false, false);
    const before = values(encoder.get_parameter('layers.1.linear2.weight'));
    const losses = [];
    for (let step = 0; step < 3; step++) {
        const args = Gnn.Args.new_tensor(x);
        args.add_tensor(mask);
        const out = encoder.forward(args).get_tensor(0);
        assertShape(out, [S, N, E], 'output');
        const loss = out.mul(w).sum_all();
        losses.push(loss.item());
        if (step === 2)
            break;
        opt.zero_grad(true);
        loss.backward(null, false);
        opt.step();
    }
    assert(losses.every(Number.isFinite), `a loss is not finite: [${losses}]`);
    assert(losses[2] < losses[1] && losses[1] < losses[0], `the loss did not fall: [${losses}]`);
    const after = values(encoder.get_parameter('layers.1.linear2.weight'));
    assert(after.some((v, i) => v !== before[i]), 'the parameters did not change');
    const first = values(layer.get_parameter('linear2.weight'));
    assert(first.every((v, i) => v === before[i]), 'the encoder layer itself changed: the copies share it');
});

check('a wrong feature size is a GError naming the layer and the shape', () => {
    const encoder = Gnn.TransformerEncoder.new(Gnn.TransformerEncoderLayer.new(E, 2), 1, null);
    let message = '';
    try {
        encoder.forward_tensor(tensor(new Array(S * N * 6).fill(0), [S, N, 6]));
    } catch (e) {
        message = e.message;
    }
    assert(message === 'TransformerEncoder: layers.0: TransformerEncoderLayer: expected src with d_model=8 ' +
        'features in its last dimension, got src of shape [5, 3, 6]', `error: '${message}'`);
});

finish();
