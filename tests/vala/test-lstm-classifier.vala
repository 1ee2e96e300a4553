/* test-lstm-classifier.vala: a small sequence classifier built in Vala from Gnn.LSTM and
 * Gnn.Linear and trained a few Adam steps: the outputs have torch's shapes ((L, N, H) and the
 * final states (layers, N, H)) and the cross-entropy loss falls; a wrong input size is a
 * Gnn.Error naming both sizes.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

const int L = 5;
const int N = 8;
const int IN = 3;
const int HIDDEN = 8;
const int LAYERS = 2;
const int CLASSES = 2;

static bool same_shape (Gnn.Tensor t, int64[] want, string what) {
    unowned int64[] got = t.get_shape ();
    bool same = got.length == want.length;
    for (int k = 0; same && k < want.length; k++)
        same = got[k] == want[k];
    if (!same)
        Test.message ("%s: %d dimensions, not the shape expected", what, got.length);
    return same;
}

/* the inputs (L, N, IN) from a fixed linear congruential sequence, and the class of each
 * sequence: whether the sum of its first feature is positive */
static void make_data (out Gnn.Tensor x, out Gnn.Tensor y) throws Error {
    var data = new float[L * N * IN];
    var labels = new int64[N];
    uint32 state = 12345;
    for (int k = 0; k < data.length; k++) {
        state = state * 1103515245 + 12345;
        data[k] = (float) ((state >> 8) / 16777216.0 * 2 - 1);
    }
    for (int n = 0; n < N; n++) {
        double sum = 0;
        for (int t = 0; t < L; t++)
            sum += data[(t * N + n) * IN];
        labels[n] = sum > 0 ? 1 : 0;
    }
    x = new Gnn.Tensor.from_floats (data, { L, N, IN });
    y = new Gnn.Tensor.from_int64s (labels, { N });
}

static void test_train () {
    try {
        Gnn.manual_seed (0);
        var lstm = new Gnn.LSTM (IN, HIDDEN, LAYERS);
        var head = new Gnn.Linear (HIDDEN, CLASSES, true);
        assert (lstm.get_num_layers () == LAYERS && lstm.get_hidden_size () == HIDDEN);
        var opt = new Gnn.Adam (new Gnn.ParamGroup.from_module (lstm), 0.05, 0.9, 0.999, 1e-8, 0, false, false);
        opt.add_param_group (new Gnn.ParamGroup.from_module (head));
        Gnn.Tensor x, y;
        make_data (out x, out y);
        double first = 0, last = 0;
        for (int step = 0; step < 30; step++) {
            opt.zero_grad (true);
            var out_args = lstm.forward (new Gnn.Args.tensor (x));
            if (out_args.get_n_values () != 3 ||
                !same_shape (out_args.get_tensor (0), { L, N, HIDDEN }, "output") ||
                !same_shape (out_args.get_tensor (1), { LAYERS, N, HIDDEN }, "h_n") ||
                !same_shape (out_args.get_tensor (2), { LAYERS, N, HIDDEN }, "c_n"))
                Test.fail ();
            var logits = head.forward_tensor (out_args.get_tensor (1).select (0, LAYERS - 1));
            if (!same_shape (logits, { N, CLASSES }, "logits"))
                Test.fail ();
            var loss = logits.cross_entropy (y, null, -100, Gnn.Reduction.MEAN, 0.0);
            loss.backward (null, false);
            opt.step ();
            last = loss.item ();
            if (step == 0)
                first = last;
            if (!last.is_finite ())
                Test.fail ();
        }
        if (!(last < 0.5 * first)) {
            Test.message ("the loss fell from %g to only %g", first, last);
            Test.fail ();
        }
    } catch (Error e) {
        Test.message ("%s: %d: %s", e.domain.to_string (), e.code, e.message);
        Test.fail ();
    }
}

static void test_error () {
    try {
        var lstm = new Gnn.LSTM (IN, HIDDEN, 1);
        lstm.forward (new Gnn.Args.tensor (new Gnn.Tensor.from_floats (new float[L * N * 2], { L, N, 2 })));
        Test.message ("a wrong input size did not throw");
        Test.fail ();
    } catch (Gnn.Error.SHAPE e) {
        if (e.message != "LSTM: input.size(-1) must be equal to input_size. Expected 3, got 2") {
            Test.message ("error: %s", e.message);
            Test.fail ();
        }
    } catch (Error e) {
        Test.message ("wrong error %s: %d: %s", e.domain.to_string (), e.code, e.message);
        Test.fail ();
    }
}

int main (string[] args) {
    Test.init (ref args);
    Test.add_func ("/vala/lstm-classifier/train", test_train);
    Test.add_func ("/vala/lstm-classifier/error", test_error);
    return Test.run ();
}
