// test-lr-scheduler.js: learning-rate schedulers driven from gjs: LambdaLR with JavaScript
// functions (of the epoch, and of the epoch and the group's index), a GnnLRScheduler subclass
// written in JavaScript, and the built-in schedulers with their states.
//
// LambdaLR takes the JavaScript function as a GClosure (new_with_closure): gjs 1.74 turns a
// floating-point value that a callback returns into an integer, so the plain GnnLRLambdaFunc
// constructors cannot be used from gjs.
//
// Expected values are the schedules computed by hand.
//
// Run: gjs -m tests/js/test-lr-scheduler.js (with GI_TYPELIB_PATH and LD_LIBRARY_PATH set to
// the build tree). Prints TAP; exits non-zero on any failure.
//
// SPDX-License-Identifier: LGPL-2.1-or-later

import GLib from 'gi://GLib';
import GObject from 'gi://GObject';
import Gnn from 'gi://Gnn?version=1.0';
import System from 'system';

import {assert, assertNear, check, finish} from './testutil.js';

// an optimizer that only holds groups: schedulers read and write their options
const NoOpOptimizer = GObject.registerClass({GTypeName: 'JsTestLRNoOpOptimizer'},
    class NoOpOptimizer extends Gnn.Optimizer {
        vfunc_step() {
            return true;
        }
    });

function makeOptimizer(lrs) {
    const opt = new NoOpOptimizer();
    opt.set_default('lr', new GLib.Variant('d', lrs[0]));
    for (const lr of lrs) {
        const t = Gnn.Tensor.new_from_floats(new Float32Array([0, 0]), [2]);
        const group = Gnn.ParamGroup.new([t]);
        group.set_double('lr', lr);
        opt.add_param_group(group);
    }
    return opt;
}

function lrOf(opt, g) {
    return opt.get_param_group(g).get_double('lr');
}

// steps sched through the epochs of want (the first is the construction) and checks every group
function assertSchedule(sched, opt, want) {
    for (let e = 0; e < want.length; e++) {
        if (e > 0)
            sched.step();
        assert(sched.get_last_epoch() === e, `last_epoch ${sched.get_last_epoch()}, expected ${e}`);
        for (let g = 0; g < want[e].length; g++)
            assertNear(lrOf(opt, g), want[e][g], `epoch ${e} group ${g}`);
    }
}

check('LambdaLR with a JavaScript function for every group', () => {
    const opt = makeOptimizer([1.0, 2.0]);
    const seen = [];
    const sched = Gnn.LambdaLR.new_with_closure(opt, epoch => {
        seen.push(epoch);
        return 1 / (epoch + 1);
    }, -1);
    assertSchedule(sched, opt, [[1, 2], [0.5, 1], [1 / 3, 2 / 3], [0.25, 0.5]]);
    assert(seen.join(',') === '0,0,1,1,2,2,3,3', `epochs passed: ${seen}`);
    const last = sched.get_last_lr();
    assert(last.length === 2, `get_last_lr ${last}`);
    assertNear(last[1], 0.5, 'get_last_lr');
    assertNear(sched.get_base_lrs()[1], 2.0, 'base_lrs');
});

check('LambdaLR with a function of the group index too (a list of lr_lambdas)', () => {
    const opt = makeOptimizer([1.0, 1.0]);
    const factors = [e => 0.5 ** e, e => e + 1];
    const sched = Gnn.LambdaLR.new_with_closure(opt, (epoch, group) => factors[group](epoch), -1);
    assertSchedule(sched, opt, [[1, 1], [0.5, 2], [0.25, 3]]);
});

check('the JavaScript function survives garbage collection while held only by C', () => {
    const opt = makeOptimizer([0.1]);
    const sched = Gnn.LambdaLR.new_with_closure(opt, epoch => 0.9 ** epoch, -1);
    System.gc();
    sched.step();
    sched.step();
    assertNear(lrOf(opt, 0), 0.1 * 0.9 ** 2, 'after gc');
});

check('built-in schedulers from JavaScript', () => {
    const opt = makeOptimizer([1.0]);
    const step = Gnn.StepLR.new(opt, 2, 0.5, -1);
    assertSchedule(step, opt, [[1], [1], [0.5], [0.5], [0.25]]);
    assert(step.step_size === 2 && step.gamma === 0.5, 'properties');
    const state = step.state_dict();
    assert(state.lookup_value('last_epoch', null).get_int64() === 4, `state ${state.print(true)}`);

    const opt2 = makeOptimizer([1.0]);
    const warm = Gnn.LinearLR.new(opt2, 0.5, 1.0, 2, -1);
    const decay = Gnn.ExponentialLR.new(opt2, 0.5, -1);
    const seq = Gnn.SequentialLR.new(opt2, [warm, decay], [3], -1);
    assertSchedule(seq, opt2, [[0.5], [0.75], [1.0], [1.0], [0.5]]);

    const opt3 = makeOptimizer([1.0]);
    const swa = Gnn.SWALR.new(opt3, [0.5], 2, 'linear', -1);
    assertSchedule(swa, opt3, [[1.0], [0.75], [0.5], [0.5]]);

    let error = null;
    try {
        Gnn.SWALR.new(opt3, [0.5], 2, 'step', -1);
    } catch (e) {
        error = e;
    }
    assert(error instanceof GLib.Error && error.matches(Gnn.Error, Gnn.Error.INVALID_ARGUMENT) &&
           error.message === "anneal_strategy must by one of 'cos' or 'linear', instead got step",
    `error ${error}`);
});

// a scheduler written in JavaScript: halves the base rates every epoch
const Halving = GObject.registerClass({GTypeName: 'JsTestHalvingLR'},
    class Halving extends Gnn.LRScheduler {
        vfunc_get_lr() {
            return this.get_base_lrs().map(base => base * 0.5 ** this.get_last_epoch());
        }
    });

check('a GnnLRScheduler subclass written in JavaScript', () => {
    const opt = makeOptimizer([4.0, 8.0]);
    const sched = new Halving({optimizer: opt});
    sched.init(null);   // the initial step
    assertSchedule(sched, opt, [[4, 8], [2, 4], [1, 2]]);
    assert(sched.get_step_count() === 3, `step count ${sched.get_step_count()}`);
    const state = sched.state_dict();
    const other = new Halving({optimizer: makeOptimizer([4.0, 8.0])});
    other.init(null);
    other.load_state_dict(state);
    assert(other.get_last_epoch() === 2, `loaded last_epoch ${other.get_last_epoch()}`);
});

finish();
