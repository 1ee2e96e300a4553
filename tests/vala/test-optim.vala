/* test-optim.vala: Gnn.SGD from Vala, training a Linear layer a few steps, checked against
 * the same updates computed in plain loops; a constructor error as a Gnn.Error.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

const double RTOL = 1e-5;
const double ATOL = 1e-6;
const int N = 4;
const int IN = 3;
const int OUT = 2;
const float[] X = { 1.0f, 2.0f, -1.0f, 0.5f, -0.5f, 1.5f, 2.0f, 0.0f, 1.0f, -1.0f, 1.0f, 0.25f };  /* [4, 3] */
const float[] Y = { 0.5f, -1.0f, 1.0f, 0.0f, -0.5f, 2.0f, 0.25f, 0.75f };                          /* [4, 2] */
const float[] W0 = { 0.1f, -0.2f, 0.3f, 0.4f, 0.0f, -0.1f };                                       /* [2, 3] */
const float[] B0 = { 0.05f, -0.05f };

static float[] values (Gnn.Tensor t) throws Error {
    Bytes bytes = t.get_bytes ();
    unowned uint8[] data = bytes.get_data ();
    var result = new float[data.length / sizeof (float)];
    Memory.copy (result, data, data.length);
    return result;
}

static bool all_close (float[] got, double[] want, string what) {
    if (got.length != want.length) {
        Test.message ("%s: %d elements, expected %d", what, got.length, want.length);
        return false;
    }
    for (int i = 0; i < want.length; i++) {
        if (Math.fabs (got[i] - want[i]) > ATOL + RTOL * Math.fabs (want[i])) {
            Test.message ("%s: element %d is %g, expected %g", what, i, got[i], want[i]);
            return false;
        }
    }
    return true;
}

static Gnn.Linear new_linear () throws Error {
    var lin = new Gnn.Linear (IN, OUT, true);
    var sd = new Gnn.StateDict ();
    sd.set_tensor ("weight", new Gnn.Tensor.from_floats (W0, { OUT, IN }));
    sd.set_tensor ("bias", new Gnn.Tensor.from_floats (B0, { OUT }));
    string[] missing, unexpected;
    lin.load_state_dict (sd, true, false, out missing, out unexpected);
    return lin;
}

/* the gradients of mean((x W^T + b - y)^2) with respect to W and b, in plain loops */
static void gradients (double[] w, double[] b, double[] gw, double[] gb) {
    for (int k = 0; k < gw.length; k++)
        gw[k] = 0;
    for (int k = 0; k < gb.length; k++)
        gb[k] = 0;
    for (int r = 0; r < N; r++) {
        for (int o = 0; o < OUT; o++) {
            double out_value = b[o];
            for (int i = 0; i < IN; i++)
                out_value += X[r * IN + i] * w[o * IN + i];
            double g = 2 * (out_value - Y[r * OUT + o]) / (N * OUT);
            gb[o] += g;
            for (int i = 0; i < IN; i++)
                gw[o * IN + i] += g * X[r * IN + i];
        }
    }
}

static void test_sgd_linear () {
    try {
        double lr = 0.1, momentum = 0.9;
        var lin = new_linear ();
        var opt = new Gnn.SGD (new Gnn.ParamGroup.from_module (lin), lr, momentum, 0, 0, false, false);
        assert (opt is Gnn.SGD);
        var x = new Gnn.Tensor.from_floats (X, { N, IN });
        var y = new Gnn.Tensor.from_floats (Y, { N, OUT });
        var w = new double[OUT * IN];
        var b = new double[OUT];
        var gw = new double[OUT * IN];
        var gb = new double[OUT];
        var buf_w = new double[OUT * IN];
        var buf_b = new double[OUT];
        for (int k = 0; k < w.length; k++)
            w[k] = W0[k];
        for (int k = 0; k < b.length; k++)
            b[k] = B0[k];

        for (int step = 0; step < 5; step++) {
            opt.zero_grad (true);
            lin.forward_tensor (x).mse_loss (y, Gnn.Reduction.MEAN).backward (null, false);
            opt.step ();

            /* the first buffer is the gradient itself, then momentum · buf + grad */
            gradients (w, b, gw, gb);
            for (int k = 0; k < w.length; k++) {
                buf_w[k] = step == 0 ? gw[k] : momentum * buf_w[k] + gw[k];
                w[k] -= lr * buf_w[k];
            }
            for (int k = 0; k < b.length; k++) {
                buf_b[k] = step == 0 ? gb[k] : momentum * buf_b[k] + gb[k];
                b[k] -= lr * buf_b[k];
            }
            if (!all_close (values (lin.get_parameter ("weight")), w, "weight after step %d".printf (step + 1)) ||
                !all_close (values (lin.get_parameter ("bias")), b, "bias after step %d".printf (step + 1)))
                Test.fail ();
        }
        if (!all_close (values (opt.get_state (lin.get_parameter ("weight")).get_tensor ("momentum_buffer")), buf_w,
                    "momentum buffer"))
            Test.fail ();
        assert (opt.get_param_group (0).get_double ("lr") == lr);
    } catch (Error e) {
        Test.message ("%s: %d: %s", e.domain.to_string (), e.code, e.message);
        Test.fail ();
    }
}

static void test_sgd_error () {
    try {
        var lin = new_linear ();
        new Gnn.SGD (new Gnn.ParamGroup.from_module (lin), 0.1, 0, 0, 0, true, false);
        Test.message ("nesterov without momentum did not throw");
        Test.fail ();
    } catch (Gnn.Error.INVALID_ARGUMENT e) {
        if (e.message != "Nesterov momentum requires a momentum and zero dampening")
            Test.fail ();
    } catch (Error e) {
        Test.message ("wrong error %s: %d: %s", e.domain.to_string (), e.code, e.message);
        Test.fail ();
    }
}

int main (string[] args) {
    Test.init (ref args);
    Test.add_func ("/vala/optim/sgd/linear", test_sgd_linear);
    Test.add_func ("/vala/optim/sgd/error", test_sgd_error);
    return Test.run ();
}
