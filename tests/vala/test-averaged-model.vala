/* test-averaged-model.vala: Gnn.Module.copy of a module subclass written in Vala, and
 * Gnn.AveragedModel with averaging functions written in Vala (a lambda of one tensor, and one
 * of lists that may throw), next to the built-in EMA.
 *
 * Expected values come from plain arithmetic on the values read back.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

const double RTOL = 1e-5;
const double ATOL = 1e-6;

/* y = (x * scale) @ inner with a construct-only width; setup keeps scale and inner */
public class ValaAvgNet : Gnn.Module {
    public int width { get; construct; default = 2; }
    public int setup_calls;
    public Gnn.Parameter? scale;
    public Gnn.Module? inner;

    public override bool setup () throws Error {
        setup_calls++;
        var data = new float[width];
        for (int i = 0; i < width; i++)
            data[i] = i + 1;
        scale = new Gnn.Parameter (new Gnn.Tensor.from_floats (data, { width }), true);
        register_parameter ("scale", scale);
        inner = new Gnn.Linear (width, 2, true);
        register_module ("inner", inner);
        return true;
    }

    public override Gnn.Args forward (Gnn.Args input) throws Error {
        var x = input.get_tensor (0).mul (scale);
        return new Gnn.Args.tensor (inner.forward_tensor (x));
    }
}

float[] values (Gnn.Tensor t) throws Error {
    Bytes bytes = t.get_bytes ();
    unowned uint8[] data = bytes.get_data ();
    var result = new float[data.length / sizeof (float)];
    Memory.copy (result, data, data.length);
    return result;
}

/* every float of the module's parameters, in order */
float[] flat (Gnn.Module m) throws Error {
    float[] all = {};
    var params = m.parameters (true);
    for (uint i = 0; i < params.length; i++)
        foreach (var v in values (params[i]))
            all += v;
    return all;
}

void set_values (Gnn.Tensor t, float[] data) throws Error {
    bool previous = Gnn.set_grad_enabled (false);
    try {
        t.copy_ (new Gnn.Tensor.from_floats (data, t.get_shape ()));
    } finally {
        Gnn.set_grad_enabled (previous);
    }
}

bool all_close (float[] got, float[] want, string what) {
    if (got.length != want.length) {
        Test.message ("%s: %d elements, expected %d", what, got.length, want.length);
        return false;
    }
    for (int i = 0; i < want.length; i++) {
        double diff = ((double) got[i] - want[i]).abs ();
        if (!(diff <= ATOL + RTOL * ((double) want[i]).abs ())) {
            Test.message ("%s: element %d is %.9g, expected %.9g", what, i, got[i], want[i]);
            return false;
        }
    }
    return true;
}

void check (bool ok, string what) {
    if (!ok) {
        Test.message ("failed: %s", what);
        Test.fail ();
    }
}

void report (Error e) {
    Test.message ("unexpected error %s: %d: %s", e.domain.to_string (), e.code, e.message);
    Test.fail ();
}

ValaAvgNet make_net () throws Error {
    var net = (ValaAvgNet) Object.new (typeof (ValaAvgNet), "width", 3);
    set_values (net.scale, { 0.5f, -1f, 2f });
    set_values (net.get_parameter ("inner.weight"), { 1, 2, 3, 4, 5, 6 });
    set_values (net.get_parameter ("inner.bias"), { 0.25f, -0.25f });
    return net;
}

void test_copy () {
    try {
        var net = make_net ();
        net.register_parameter ("tied", net.get_parameter ("inner.weight"));
        var copy = net.copy () as ValaAvgNet;
        check (copy != null, "the copy is a ValaAvgNet");
        check (copy.width == 3, "width");
        check (copy.setup_calls == 1, "setup ran once");
        check (copy.scale == copy.get_parameter ("scale"), "setup's scale is the module's");
        check (copy.inner == copy.get_submodule ("inner"), "setup's inner is the module's");
        check (all_close (values (copy.scale), { 0.5f, -1f, 2f }, "scale"), "scale values");
        check (!copy.scale.shares_storage (net.scale), "separate memory");
        check (copy.get_parameter ("tied") == copy.get_parameter ("inner.weight"), "tied stays shared");
        var x = new Gnn.Tensor.from_floats ({ 1, 2, 3, -1, 0, 1 }, { 2, 3 });
        check (all_close (values (copy.forward_tensor (x)), values (net.forward_tensor (x)), "outputs"), "outputs");
    } catch (Error e) {
        report (e);
    }
}

void test_avg_fn () {
    try {
        var net = make_net ();
        int calls = 0;
        var fn = new Gnn.AverageFunction.callback ((averaged, current, n_averaged) => {
            calls++;
            try {
                return averaged.add (current, 1.0).mul_scalar (0.5);
            } catch (Error e) {
                return null;
            }
        });
        var avg = new Gnn.AveragedModel (net, null, fn, null, false);
        var first = flat (net);
        avg.update_parameters (net);
        set_values (net.scale, { 1, 1, 1 });
        var second = flat (net);
        avg.update_parameters (net);
        check (calls == 3, "avg_fn called once per parameter");
        check (avg.get_n_averaged () == 2, "n_averaged");
        var want = new float[first.length];
        for (int i = 0; i < first.length; i++)
            want[i] = 0.5f * (first[i] + second[i]);
        check (all_close (flat (avg.get_module ()), want, "averaged"), "averaged values");
        check (avg.get_module () is ValaAvgNet, "the averaged copy is a ValaAvgNet");
    } catch (Error e) {
        report (e);
    }
}

void test_multi_avg_fn () {
    try {
        var net = make_net ();
        int calls = 0;
        var fn = new Gnn.AverageFunction.multi_callback ((averaged, current, n_averaged) => {
            calls++;
            if (n_averaged.item () >= 2)
                throw new Gnn.Error.INVALID_ARGUMENT ("Vala multi_avg_fn: enough");
            for (int i = 0; i < averaged.length; i++)
                averaged[i].copy_ (averaged[i].maximum (current[i]));
            return true;
        });
        var avg = new Gnn.AveragedModel (net, "cpu", null, fn, false);
        var first = flat (net);
        avg.update_parameters (net);
        set_values (net.scale, { 2, -2, 0 });
        var second = flat (net);
        avg.update_parameters (net);
        check (calls == 1, "one call for the one device and dtype");
        var want = new float[first.length];
        for (int i = 0; i < first.length; i++)
            want[i] = float.max (first[i], second[i]);
        check (all_close (flat (avg.get_module ()), want, "max"), "max values");
        try {
            avg.update_parameters (net);
            check (false, "a throwing multi_avg_fn gave no error");
        } catch (Gnn.Error.INVALID_ARGUMENT e) {
            check (e.message == "Vala multi_avg_fn: enough", "the callback's message");
        }
        check (avg.get_n_averaged () == 2, "n_averaged unchanged by a failed update");
    } catch (Error e) {
        report (e);
    }
}

void test_ema () {
    try {
        var net = make_net ();
        var ema = new Gnn.AveragedModel (net, null, null, new Gnn.AverageFunction.ema_multi (0.75), true);
        var first = flat (net);
        ema.update_parameters (net);
        set_values (net.scale, { 4, 4, 4 });
        var second = flat (net);
        ema.update_parameters (net);
        var want = new float[first.length];
        for (int i = 0; i < first.length; i++)
            want[i] = 0.75f * first[i] + 0.25f * second[i];
        check (all_close (flat (ema.get_module ()), want, "EMA"), "EMA values");
        try {
            new Gnn.AverageFunction.ema (-1.0);
            check (false, "decay -1 accepted");
        } catch (Gnn.Error.INVALID_ARGUMENT e) {
        }
    } catch (Error e) {
        report (e);
    }
}

int main (string[] args) {
    Test.init (ref args);
    Test.add_func ("/vala/averaged-model/copy", test_copy);
    Test.add_func ("/vala/averaged-model/avg-fn", test_avg_fn);
    Test.add_func ("/vala/averaged-model/multi-avg-fn", test_multi_avg_fn);
    Test.add_func ("/vala/averaged-model/ema", test_ema);
    return Test.run ();
}
