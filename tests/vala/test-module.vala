/* test-module.vala: a GnnModule subclass written in Vala, created and called from Vala and by
 * type name through GObject (g_object_new / g_object_new_with_properties, the path a C loader
 * takes), with forward hooks and signal handlers connected from Vala.
 *
 * The subclass follows doc/design/module-construction.md: `{ get; construct; }` properties,
 * parameters built in `setup` (run from the C `constructed`), `forward` and `extra_repr`
 * overridden. Calling `forward` on a module from Vala calls the C wrapper gnn_module_forward,
 * which runs the hooks and signals around the overridden virtual method.
 *
 * Expected values come from plain loops over the same deterministic weights.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

const double RTOL = 1e-5;
const double ATOL = 1e-6;
const string TYPE_NAME = "ValaTestLinear";
const float[] X = { 1.0f, 2.0f, 3.0f, -1.0f, 0.5f, 2.0f };   /* [2, 3] */

/* the deterministic weights, row-major: weight is [in, out], bias [out] */
float[] weight_data (int in_f, int out_f) {
    var w = new float[in_f * out_f];
    for (int i = 0; i < in_f; i++)
        for (int j = 0; j < out_f; j++)
            w[i * out_f + j] = (float) (0.1 * (i + 1) - 0.2 * j);
    return w;
}

float[] bias_data (int out_f) {
    var b = new float[out_f];
    for (int j = 0; j < out_f; j++)
        b[j] = (float) (0.5 * j - 0.25);
    return b;
}

/* x [n, in] @ weight + bias, in plain loops */
float[] reference (float[] x, int n, int in_f, int out_f) {
    var w = weight_data (in_f, out_f);
    var b = bias_data (out_f);
    var result = new float[n * out_f];
    for (int r = 0; r < n; r++)
        for (int j = 0; j < out_f; j++) {
            double s = b[j];
            for (int i = 0; i < in_f; i++)
                s += (double) x[r * in_f + i] * w[i * out_f + j];
            result[r * out_f + j] = (float) s;
        }
    return result;
}

float[] map_values (float[] x, double mul, double add) {
    var result = new float[x.length];
    for (int i = 0; i < x.length; i++)
        result[i] = (float) (x[i] * mul + add);
    return result;
}

/* y = x @ weight + bias; fails with Gnn.Error.INVALID_ARGUMENT unless given exactly one value */
public class ValaTestLinear : Gnn.Module {
    public int in_features { get; construct; }
    public int out_features { get; construct; }
    public int setup_calls;
    public Gnn.Parameter? weight;

    public ValaTestLinear (int in_features, int out_features) {
        Object (in_features: in_features, out_features: out_features);
    }

    public override bool setup () throws Error {
        setup_calls++;
        weight = new Gnn.Parameter (new Gnn.Tensor.from_floats (weight_data (in_features, out_features),
                                                                { in_features, out_features }), true);
        register_parameter ("weight", weight);
        register_parameter ("bias", new Gnn.Parameter (new Gnn.Tensor.from_floats (bias_data (out_features),
                                                                                   { out_features }), true));
        return true;
    }

    public override Gnn.Args forward (Gnn.Args input) throws Error {
        uint n = input.get_n_values ();
        if (n != 1)
            throw new Gnn.Error.INVALID_ARGUMENT ("ValaTestLinear takes one input, got %u", n);
        var y = input.get_tensor (0).matmul (weight).add (get_parameter ("bias"), 1.0);
        return new Gnn.Args.tensor (y);
    }

    public override string extra_repr () {
        return "in_features=%d, out_features=%d".printf (in_features, out_features);
    }
}

/* a module made of two ValaTestLinear layers, built in setup */
public class ValaTestNet : Gnn.Module {
    public override bool setup () throws Error {
        register_module ("fc1", new ValaTestLinear (3, 4));
        register_module ("fc2", new ValaTestLinear (4, 2));
        return true;
    }

    public override Gnn.Args forward (Gnn.Args input) throws Error {
        var h = get_submodule ("fc1").forward_tensor (input.get_tensor (0)).relu ();
        return new Gnn.Args.tensor (get_submodule ("fc2").forward_tensor (h));
    }
}

/* a module whose setup fails */
public class ValaTestBroken : Gnn.Module {
    public override bool setup () throws Error {
        throw new Gnn.Error.INVALID_ARGUMENT ("ValaTestBroken cannot be set up");
    }

    public override Gnn.Args forward (Gnn.Args input) throws Error {
        return input;
    }
}

/* a module with non-tensor state, saved through get_extra_state (a GVariant) in its state dict */
public class ValaTestCounter : Gnn.Module {
    public int count;

    public override bool setup () throws Error {
        register_buffer ("total", new Gnn.Tensor.zeros ({ 2 }, Gnn.Dtype.FLOAT32, null), true);
        return true;
    }

    public override Gnn.Args forward (Gnn.Args input) throws Error {
        count++;
        return input;
    }

    public override Variant? get_extra_state () throws Error {
        var builder = new VariantBuilder (new VariantType ("a{sv}"));
        builder.add ("{sv}", "count", new Variant.int32 (count));
        return builder.end ();
    }

    public override bool set_extra_state (Variant state) throws Error {
        Variant? value = state.lookup_value ("count", VariantType.INT32);
        if (value == null)
            throw new Gnn.Error.INVALID_ARGUMENT ("ValaTestCounter: no count in %s", state.print (true));
        count = value.get_int32 ();
        return true;
    }
}

/* What a C loader does: the type by name, created with properties through
 * g_object_new_with_properties, used only as a Gnn.Module. */
Gnn.Module create_by_name (string type_name, string[] names, Value[] values) {
    Type type = Type.from_name (type_name);
    assert (type != Type.INVALID);
    assert (type.is_a (typeof (Gnn.Module)));
    return (Gnn.Module) Object.new_with_properties (type, names, values);
}

Gnn.Module create_linear_by_name (int in_f, int out_f) {
    return create_by_name (TYPE_NAME, { "in-features", "out-features" }, { in_f, out_f });
}

Gnn.Tensor input_x () throws Error {
    return new Gnn.Tensor.from_floats (X, { 2, 3 });
}

float[] values (Gnn.Tensor t) throws Error {
    assert (t.get_dtype () == Gnn.Dtype.FLOAT32);
    Bytes bytes = t.get_bytes ();
    unowned uint8[] data = bytes.get_data ();
    var result = new float[data.length / sizeof (float)];
    Memory.copy (result, data, data.length);
    return result;
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

bool same_shape (Gnn.Tensor t, int64[] shape, string what) {
    unowned int64[] got = t.get_shape ();
    bool same = got.length == shape.length;
    for (int i = 0; same && i < shape.length; i++)
        same = got[i] == shape[i];
    if (!same)
        Test.message ("%s: wrong shape (%d dimensions, expected %d)", what, got.length, shape.length);
    return same;
}

bool equal (string got, string want, string what) {
    if (got != want)
        Test.message ("%s: got \"%s\", expected \"%s\"", what, got, want);
    return got == want;
}

string join (string[] names) {
    return string.joinv (",", names);
}

void check (bool ok) {
    if (!ok)
        Test.fail ();
}

void report (Error e) {
    Test.message ("unexpected error %s: %d: %s", e.domain.to_string (), e.code, e.message);
    Test.fail ();
}

bool check_linear (Gnn.Module module, int in_f, int out_f) throws Error {
    var m = module as ValaTestLinear;
    if (m == null) {
        Test.message ("%s is not a ValaTestLinear", module.get_type ().name ());
        return false;
    }
    bool ok = m.setup_calls == 1 && m.in_features == in_f && m.out_features == out_f;
    if (!ok)
        Test.message ("setup ran %d times, properties %d, %d", m.setup_calls, m.in_features, m.out_features);
    string[] names;
    var params = m.named_parameters (null, true, true, out names);
    ok &= equal (join (names), "weight,bias", "named_parameters");
    ok &= params.length == 2 && params[0] == m.weight;
    ok &= same_shape (params[0], { in_f, out_f }, "weight");
    ok &= same_shape (params[1], { out_f }, "bias");
    ok &= params[0].get_requires_grad () && params[1].get_requires_grad ();
    return ok;
}

void test_create_from_vala () {
    try {
        check (check_linear (new ValaTestLinear (3, 2), 3, 2));
        check (check_linear ((Gnn.Module) Object.new (typeof (ValaTestLinear), "in-features", 5, "out-features", 1), 5, 1));
    } catch (Error e) {
        report (e);
    }
}

void test_create_by_name () {
    try {
        check (check_linear (create_linear_by_name (3, 2), 3, 2));
    } catch (Error e) {
        report (e);
    }
}

void test_forward () {
    try {
        var m = create_linear_by_name (3, 2);
        var want = reference (X, 2, 3, 2);
        var result = m.forward (new Gnn.Args.tensor (input_x ()));
        check (result.get_n_values () == 1);
        check (same_shape (result.get_tensor (0), { 2, 2 }, "forward"));
        check (all_close (values (result.get_tensor (0)), want, "forward"));
        check (all_close (values (m.forward_tensor (input_x ())), want, "forward_tensor"));
    } catch (Error e) {
        report (e);
    }
}

void test_to_string () {
    var m = new ValaTestLinear (3, 2);
    check (equal (m.extra_repr (), "in_features=3, out_features=2", "extra_repr"));
    check (equal (m.get_name (), TYPE_NAME, "get_name"));
    check (equal (m.to_string (), TYPE_NAME + "(in_features=3, out_features=2)", "to_string"));
    var net = create_by_name ("ValaTestNet", {}, {});
    check (equal (net.to_string (),
                  "ValaTestNet(\n" +
                  "  (fc1): ValaTestLinear(in_features=3, out_features=4)\n" +
                  "  (fc2): ValaTestLinear(in_features=4, out_features=2)\n" +
                  ")", "to_string of a net"));
}

void test_net () {
    try {
        var net = create_by_name ("ValaTestNet", {}, {});
        string[] names;
        var params = net.named_parameters (null, true, true, out names);
        check (equal (join (names), "fc1.weight,fc1.bias,fc2.weight,fc2.bias", "named_parameters"));
        check (same_shape (params[2], { 4, 2 }, "fc2.weight"));
        string[] prefixed;
        net.named_parameters ("net", true, true, out prefixed);
        check (equal (prefixed[0], "net.fc1.weight", "prefixed name"));
        string[] child_names;
        net.named_children (out child_names);
        check (equal (join (child_names), "fc1,fc2", "named_children"));
        /* the submodules are the Vala objects, held only by the net */
        var fc2 = net.get_submodule ("fc2") as ValaTestLinear;
        check (fc2 != null && fc2.setup_calls == 1 && fc2.weight == fc2.get_parameter ("weight"));
        var h = reference (X, 2, 3, 4);
        for (int i = 0; i < h.length; i++)
            h[i] = float.max (h[i], 0.0f);
        check (all_close (values (net.forward_tensor (input_x ())), reference (h, 2, 4, 2), "net forward"));
    } catch (Error e) {
        report (e);
    }
}

void test_backward () {
    try {
        var m = create_linear_by_name (3, 2);
        var loss = m.forward_tensor (input_x ()).sum_all ();
        check (loss.get_requires_grad ());
        loss.backward (null, false);
        /* d sum (x @ w + b) / d w[i][j] = sum_r x[r][i]; d / d b[j] = n */
        float[] col = { X[0] + X[3], X[1] + X[4], X[2] + X[5] };
        check (all_close (values (m.get_parameter ("weight").get_grad ()),
                      { col[0], col[0], col[1], col[1], col[2], col[2] }, "grad of weight"));
        check (all_close (values (m.get_parameter ("bias").get_grad ()), { 2.0f, 2.0f }, "grad of bias"));
        check (m.zero_grad (true));
        check (m.get_parameter ("weight").get_grad () == null);
    } catch (Error e) {
        report (e);
    }
}

void test_hooks () {
    try {
        var m = create_linear_by_name (3, 2);
        var order = new GenericArray<string> ();
        bool hook_ok = true;
        uint pre = m.register_forward_pre_hook ((module, input) => {
            hook_ok &= module == m;
            order.add ("pre");
            try {
                input.set_tensor (0, input.get_tensor (0).mul_scalar (2.0));
            } catch (Error e) {
                hook_ok = false;
            }
        }, false, false);
        uint post = m.register_forward_hook ((module, input, output) => {
            order.add ("hook");
            try {
                /* the hook sees the input after the pre-hook */
                hook_ok &= all_close (values (input.get_tensor (0)), map_values (X, 2.0, 0.0), "input seen by the hook");
                output.set_tensor (0, output.get_tensor (0).add_scalar (1.0));
            } catch (Error e) {
                hook_ok = false;
            }
        }, false, false, false);
        ulong sig_pre = m.forward_pre.connect ((input) => {
            order.add ("signal-pre");
            try {
                hook_ok &= all_close (values (input.get_tensor (0)), map_values (X, 2.0, 0.0), "input seen by forward-pre");
            } catch (Error e) {
                hook_ok = false;
            }
        });
        ulong sig_post = m.forward_post.connect ((input, output) => {
            order.add ("signal-post");
            try {
                output.set_tensor (0, output.get_tensor (0).mul_scalar (10.0));
            } catch (Error e) {
                hook_ok = false;
            }
        });
        check (pre != 0 && post != 0 && pre != post);

        var want = map_values (reference (map_values (X, 2.0, 0.0), 2, 3, 2), 10.0, 10.0);
        var result = m.forward (new Gnn.Args.tensor (input_x ()));
        check (all_close (values (result.get_tensor (0)), want, "hooked forward"));
        check (equal (join (order.data), "pre,signal-pre,hook,signal-post", "order"));
        check (all_close (values (m.forward_tensor (input_x ())), want, "hooked forward_tensor"));
        check (hook_ok);

        check (m.remove_hook (pre) && m.remove_hook (post));
        check (!m.remove_hook (pre));
        m.disconnect (sig_pre);
        m.disconnect (sig_post);
        order.remove_range (0, order.length);
        check (all_close (values (m.forward_tensor (input_x ())), reference (X, 2, 3, 2), "unhooked"));
        check (order.length == 0);
    } catch (Error e) {
        report (e);
    }
}

void test_prepend () {
    try {
        var m = new ValaTestLinear (3, 2);
        var order = new GenericArray<string> ();
        m.register_forward_pre_hook ((module, input) => {
            order.add ("add");
            try {
                input.set_tensor (0, input.get_tensor (0).add_scalar (1.0));
            } catch (Error e) {
                order.add ("error");
            }
        }, false, false);
        m.register_forward_pre_hook ((module, input) => {
            order.add ("double");
            try {
                input.set_tensor (0, input.get_tensor (0).mul_scalar (2.0));
            } catch (Error e) {
                order.add ("error");
            }
        }, true, false);
        check (all_close (values (m.forward_tensor (input_x ())), reference (map_values (X, 2.0, 1.0), 2, 3, 2),
                      "prepended pre-hook first"));
        check (equal (join (order.data), "double,add", "order"));
    } catch (Error e) {
        report (e);
    }
}

void test_with_kwargs () {
    try {
        var m = new ValaTestLinear (3, 2);
        var seen = new GenericArray<string> ();
        m.register_forward_pre_hook ((module, input) => {
            seen.add ("plain:%s".printf (input.has_kwarg ("scale").to_string ()));
        }, false, false);
        m.register_forward_pre_hook ((module, input) => {
            seen.add ("kwargs:%s".printf (input.has_kwarg ("scale").to_string ()));
            input.remove_kwarg ("scale");
        }, false, true);
        var input = new Gnn.Args.tensor (input_x ());
        input.set_kwarg_tensor ("scale", new Gnn.Tensor.from_floats ({ 2.0f }, { 1 }));
        m.forward (input);
        check (equal (join (seen.data), "plain:false,kwargs:true", "seen"));
    } catch (Error e) {
        report (e);
    }
}

void test_error () {
    var m = create_linear_by_name (3, 2);
    var calls = new GenericArray<string> ();
    m.register_forward_hook ((module, input, output) => {
        calls.add (output == null ? "always:null" : "always:output");
    }, false, false, true);
    m.register_forward_hook ((module, input, output) => calls.add ("normal"), false, false, false);
    m.forward_post.connect (() => calls.add ("signal"));
    try {
        var input = new Gnn.Args ();
        input.add_tensor (input_x ());
        input.add_tensor (input_x ());
        m.forward (input);
        Test.message ("forward of two inputs did not throw");
        Test.fail ();
    } catch (Gnn.Error.INVALID_ARGUMENT e) {
        check (equal (e.message, "ValaTestLinear takes one input, got 2", "message"));
    } catch (Error e) {
        report (e);
    }
    check (equal (join (calls.data), "always:null", "hooks run on failure"));
}

void test_broken_setup () {
    var m = create_by_name ("ValaTestBroken", {}, {});
    check (m is ValaTestBroken);
    try {
        m.forward_tensor (input_x ());
        Test.message ("forward of a broken module did not throw");
        Test.fail ();
    } catch (Error e) {
        check (e.message.contains ("ValaTestBroken cannot be set up"));
    }
    try {
        m.setup ();
        Test.message ("setup of a broken module did not throw");
        Test.fail ();
    } catch (Gnn.Error.INVALID_ARGUMENT e) {
        /* expected */
    } catch (Error e) {
        report (e);
    }
}

void test_extra_state () {
    try {
        var m = new ValaTestCounter ();
        m.forward (new Gnn.Args ());
        m.forward (new Gnn.Args ());
        check (m.has_extra_state ());
        check (equal (m.get_extra_state ().print (true), "{'count': <2>}", "extra state"));
        var sd = m.state_dict (null, false);
        check (equal (join (sd.get_keys ()), "total,_extra_state", "state dict keys"));
        var copy = create_by_name ("ValaTestCounter", {}, {}) as ValaTestCounter;
        check (copy != null && copy.count == 0);
        string[] missing, unexpected;
        check (copy.load_state_dict (sd, true, false, out missing, out unexpected));
        check (missing.length == 0 && unexpected.length == 0);
        check (copy.count == 2);
        check (!new ValaTestLinear (1, 1).has_extra_state ());
    } catch (Error e) {
        report (e);
    }
}

int main (string[] args) {
    Test.init (ref args);
    /* the Vala types exist once typeof ran: a loader by name needs them registered */
    typeof (ValaTestLinear).ensure ();
    typeof (ValaTestNet).ensure ();
    typeof (ValaTestBroken).ensure ();
    typeof (ValaTestCounter).ensure ();
    Test.add_func ("/vala/module/create/vala", test_create_from_vala);
    Test.add_func ("/vala/module/create/by-name", test_create_by_name);
    Test.add_func ("/vala/module/forward", test_forward);
    Test.add_func ("/vala/module/to-string", test_to_string);
    Test.add_func ("/vala/module/net", test_net);
    Test.add_func ("/vala/module/backward", test_backward);
    Test.add_func ("/vala/module/hooks/change-input-output", test_hooks);
    Test.add_func ("/vala/module/hooks/prepend", test_prepend);
    Test.add_func ("/vala/module/hooks/with-kwargs", test_with_kwargs);
    Test.add_func ("/vala/module/errors/forward", test_error);
    Test.add_func ("/vala/module/errors/setup", test_broken_setup);
    Test.add_func ("/vala/module/extra-state", test_extra_state);
    return Test.run ();
}
