/* test-lr-scheduler.vala: learning-rate schedulers driven from Vala: LambdaLR with Vala
 * lambdas (one for every group, and one of the group's index), a GnnLRScheduler subclass
 * written in Vala, and built-in schedulers with their errors.
 *
 * Expected values are the schedules computed by hand.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* an optimizer that only holds groups: schedulers read and write their options */
public class ValaLRNoOpOptimizer : Gnn.Optimizer {
    public override bool step () throws GLib.Error {
        return true;
    }
}

Gnn.Optimizer make_optimizer (double[] lrs) {
    var opt = new ValaLRNoOpOptimizer ();
    opt.set_default ("lr", new Variant.double (lrs[0]));
    foreach (var lr in lrs) {
        try {
            Gnn.Tensor[] params = { new Gnn.Tensor.from_floats ({ 0.0f, 0.0f }, { 2 }) };
            var group = new Gnn.ParamGroup (params);
            group.set_double ("lr", lr);
            opt.add_param_group (group);
        } catch (Error e) {
            error ("a parameter group: %s", e.message);
        }
    }
    return opt;
}

/* (the test binary does not link libm) */
double absolute (double x) {
    return x < 0 ? -x : x;
}

double power (double x, int n) {
    double r = 1.0;
    for (int i = 0; i < n; i++)
        r *= x;
    return r;
}

void assert_near (double got, double want) {
    if (!(absolute (got - want) <= 1e-12 * double.max (1.0, absolute (want))))
        error ("got %.17g, expected %.17g", got, want);
}

/* steps sched through the epochs of want[epoch, group] (epoch 0 is the construction) */
void assert_schedule (Gnn.LRScheduler sched, Gnn.Optimizer opt, double[,] want) throws Error {
    for (int e = 0; e < want.length[0]; e++) {
        if (e > 0)
            sched.step ();
        assert (sched.get_last_epoch () == e);
        for (int g = 0; g < want.length[1]; g++)
            assert_near (opt.get_param_group (g).get_double ("lr"), want[e, g]);
    }
}

void test_lambda () {
    try {
        var opt = make_optimizer ({ 1.0, 2.0 });
        int calls = 0;
        var sched = new Gnn.LambdaLR (opt, (epoch) => {
            calls++;
            return 1.0 / (epoch + 1);
        }, -1);
        assert_schedule (sched, opt, { { 1.0, 2.0 }, { 0.5, 1.0 }, { 1.0 / 3, 2.0 / 3 } });
        assert (calls == 6);
        var last = sched.get_last_lr ();
        assert (last.length == 2);
        assert_near (last[1], 2.0 / 3);
    } catch (Error e) {
        error ("%s", e.message);
    }
}

void test_lambda_per_group () {
    try {
        var opt = make_optimizer ({ 1.0, 1.0 });
        double half = 0.5;
        var sched = new Gnn.LambdaLR.per_group (opt, (group, epoch) => {
            return group == 0 ? power (half, epoch) : epoch + 1.0;
        }, -1);
        assert_schedule (sched, opt, { { 1.0, 1.0 }, { 0.5, 2.0 }, { 0.25, 3.0 } });
    } catch (Error e) {
        error ("%s", e.message);
    }
}

/* halves the base rates every epoch */
public class ValaHalvingLR : Gnn.LRScheduler {
    public int calls { get; private set; }

    public override GLib.Array<double>? get_lr () throws GLib.Error {
        calls++;
        var lrs = new GLib.Array<double> ();
        foreach (var base_lr in get_base_lrs ()) {
            double v = base_lr * power (0.5, get_last_epoch ());
            lrs.append_val (v);
        }
        return lrs;
    }
}

void test_subclass () {
    try {
        var opt = make_optimizer ({ 4.0, 8.0 });
        var sched = (ValaHalvingLR) Object.new (typeof (ValaHalvingLR), "optimizer", opt);
        sched.init (null);   /* the initial step */
        assert (sched.calls == 1);
        assert_schedule (sched, opt, { { 4.0, 8.0 }, { 2.0, 4.0 }, { 1.0, 2.0 } });
        assert (sched.get_step_count () == 3);
    } catch (Error e) {
        error ("%s", e.message);
    }
}

void test_builtin () {
    try {
        var opt = make_optimizer ({ 1.0 });
        var warm = new Gnn.LinearLR (opt, 0.5, 1.0, 2, -1);
        var decay = new Gnn.ExponentialLR (opt, 0.5, -1);
        var seq = new Gnn.SequentialLR (opt, { warm, decay }, { 3 }, -1);
        assert_schedule (seq, opt, { { 0.5 }, { 0.75 }, { 1.0 }, { 1.0 }, { 0.5 } });
        var state = seq.state_dict ();
        int64 last_epoch = 0;
        assert (state.lookup ("last_epoch", "x", out last_epoch));
        assert (last_epoch == 4);
    } catch (Error e) {
        error ("%s", e.message);
    }
    try {
        new Gnn.SWALR (make_optimizer ({ 1.0 }), { 0.5 }, -1, "cos", -1);
        assert_not_reached ();
    } catch (Gnn.Error.INVALID_ARGUMENT e) {
        assert (e.message == "anneal_epochs must be equal or greater than 0, got -1");
    } catch (Error e) {
        error ("unexpected error %s", e.message);
    }
}

int main (string[] args) {
    Test.init (ref args);
    Test.add_func ("/vala/lr-scheduler/lambda", test_lambda);
    Test.add_func ("/vala/lr-scheduler/lambda-per-group", test_lambda_per_group);
    Test.add_func ("/vala/lr-scheduler/subclass", test_subclass);
    Test.add_func ("/vala/lr-scheduler/builtin", test_builtin);
    return Test.run ();
}
