// testutil.js: the helpers the gjs tests share: a TAP runner (check, finish), assertions and
// float32 tensors to and from JS arrays.
//
// An ES module: the tests (run with `gjs -m`) import it relative to their own file,
//   import {check, finish, assert} from './testutil.js';
//
// SPDX-License-Identifier: LGPL-2.1-or-later

import GLib from 'gi://GLib';
import Gnn from 'gi://Gnn?version=1.0';
import System from 'system';

// torch's float32 tolerance, the project standard
export const RTOL = 1e-5, ATOL = 1e-6;

let failures = 0;
let testNumber = 0;

// runs one check and prints a TAP line
export function check(name, fn) {
    testNumber++;
    try {
        fn();
        print(`ok ${testNumber} ${name}`);
    } catch (e) {
        failures++;
        print(`not ok ${testNumber} ${name}`);
        const text = e instanceof GLib.Error ? `GLib.Error ${e.domain}:${e.code}: ${e.message}` : `${e}`;
        for (const line of `${text}\n${e.stack ?? ''}`.split('\n')) {
            if (line)
                print(`# ${line}`);
        }
    }
}

// prints the TAP plan; exits non-zero when a check failed
export function finish() {
    print(`1..${testNumber}`);
    if (failures > 0) {
        printerr(`${failures} of ${testNumber} checks failed`);
        System.exit(1);
    }
}

export function assert(cond, message) {
    if (!cond)
        throw new Error(message);
}

// runs fn, which must throw; returns what it threw
export function assertThrows(fn, what) {
    try {
        fn();
    } catch (e) {
        return e;
    }
    throw new Error(`${what} did not throw`);
}

// two doubles equal to 1e-12 (relative, or absolute below 1)
export function assertNear(got, want, what) {
    assert(Math.abs(got - want) <= 1e-12 * Math.max(1, Math.abs(want)), `${what}: got ${got}, expected ${want}`);
}

// a float32 tensor of the given shape from a JS array, through a Float32Array
export function tensor(data, shape, requiresGrad = false) {
    const t = Gnn.Tensor.new_from_floats(new Float32Array(data), shape);
    if (requiresGrad)
        t.set_requires_grad(true);
    return t;
}

// the elements of a float32 tensor, through GLib.Bytes, as a Float32Array
export function values(t) {
    assert(t.get_dtype() === Gnn.Dtype.FLOAT32, `expected a float32 tensor, got dtype ${t.get_dtype()}`);
    const u8 = t.get_bytes().toArray();
    // copy so that the Float32Array is aligned whatever the byte offset
    return new Float32Array(u8.slice().buffer, 0, u8.length / 4);
}

export function assertShape(t, shape, what) {
    const got = Array.from(t.get_shape(), Number);
    assert(got.length === shape.length && got.every((v, i) => v === shape[i]),
        `${what}: shape [${got}], expected [${shape}]`);
}

// every element of got within ATOL + RTOL * |want|; the message names the worst element
export function assertClose(got, want, what) {
    assert(got.length === want.length, `${what}: ${got.length} elements, expected ${want.length}`);
    let worst = -1, worstExcess = 0;
    for (let i = 0; i < want.length; i++) {
        const excess = Math.abs(got[i] - want[i]) - (ATOL + RTOL * Math.abs(want[i]));
        if (!(excess <= 0) && (worst < 0 || excess > worstExcess || Number.isNaN(excess))) {
            worst = i;
            worstExcess = excess;
        }
    }
    assert(worst < 0, `${what}: element ${worst} is ${got[worst]}, expected ${want[worst]} ` +
        `(rtol ${RTOL}, atol ${ATOL}; all: [${Array.from(got)}])`);
}
