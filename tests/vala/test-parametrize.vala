/* test-parametrize.vala: parametrizations from Vala: a Gnn.Module subclass written in Vala as
 * the parametrization (`override forward`), a right inverse given as a Vala closure, the
 * built-in weight-norm parametrization (original0 = g, original1 = v), transfer between
 * modules, and the errors as Vala exceptions.
 *
 * Expected values come from plain loops over the same weights.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

const double RTOL = 1e-5;
const double ATOL = 1e-6;
const float[] W = { 1, 2, 3, 4, 5, 6, 7, 8, 9 };
const float[] SYM = { 1, 2, 3, 2, 5, 6, 3, 6, 9 };

/* the parametrizations tutorial's Symmetric: X -> triu (X) + triu (X, 1)ᵀ */
public class ValaSymmetric : Gnn.Module {
    public override Gnn.Args forward (Gnn.Args input) throws Error {
        var x = input.get_tensor (0);
        return new Gnn.Args.tensor (x.triu (0).add (x.triu (1).t (), 1.0));
    }
}

/* X -> 2 X; its right inverse is set from the test */
public class ValaDouble : Gnn.Module {
    public override Gnn.Args forward (Gnn.Args input) throws Error {
        return new Gnn.Args.tensor (input.get_tensor (0).mul_scalar (2.0));
    }
}

float[] values (Gnn.Tensor t) throws Error {
    assert (t.get_dtype () == Gnn.Dtype.FLOAT32);
    Bytes bytes = t.get_bytes ();
    unowned uint8[] data = bytes.get_data ();
    var result = new float[data.length / sizeof (float)];
    Memory.copy (result, data, data.length);
    return result;
}

void assert_close (float[] got, float[] want, string what) {
    if (got.length != want.length)
        error ("%s: %d elements, expected %d", what, got.length, want.length);
    for (int i = 0; i < want.length; i++) {
        double diff = ((double) got[i] - want[i]).abs ();
        if (!(diff <= ATOL + RTOL * ((double) want[i]).abs ()))
            error ("%s: element %d is %.9g, expected %.9g", what, i, got[i], want[i]);
    }
}

string keys (Gnn.Module m) throws Error {
    return string.joinv (",", m.state_dict (null, false).get_keys ());
}

Gnn.Module linear () throws Error {
    var m = new Gnn.Linear (3, 3, true);
    m.get_parameter ("weight").set_data (new Gnn.Tensor.from_floats (W, { 3, 3 }));
    return m;
}

void test_vala_parametrization () {
    try {
        var m = linear ();
        var w = m.get_parameter ("weight");
        assert (Gnn.register_parametrization (m, "weight", new ValaSymmetric (), false));
        assert (Gnn.is_parametrized (m, "weight"));
        assert (keys (m) == "bias,parametrizations.weight.original");
        assert (m.get_parameter ("parametrizations.weight.original") == w);
        assert_close (values (m.get_tensor ("weight")), SYM, "the symmetric weight");
        assert (Gnn.remove_parametrizations (m, "weight", true));
        assert (keys (m) == "bias,weight");
        assert_close (values (m.get_parameter ("weight")), SYM, "left parametrized");
    } catch (Error e) {
        error ("%s", e.message);
    }
}

void test_vala_right_inverse () {
    try {
        var m = linear ();
        var p = new ValaDouble ();
        int calls = 0;
        Gnn.parametrization_set_right_inverse (p, (parametrization, value, @out) => {
            calls++;
            @out.add_tensor (value.div_scalar (2.0));
            return true;
        });
        assert (Gnn.parametrization_has_right_inverse (p));
        assert (Gnn.register_parametrization (m, "weight", p, false));
        assert (calls == 1);
        var half = new float[9];
        for (int i = 0; i < 9; i++)
            half[i] = W[i] / 2;
        assert_close (values (m.get_parameter ("parametrizations.weight.original")), half, "original = W / 2");
        assert_close (values (m.get_tensor ("weight")), W, "weight still reads W");
        assert (Gnn.parametrize_set_tensor (m, "weight", new Gnn.Tensor.from_floats (SYM, { 3, 3 })));
        assert_close (values (m.get_tensor ("weight")), SYM, "weight reads SYM after assignment");
    } catch (Error e) {
        error ("%s", e.message);
    }
}

void test_weight_norm () {
    try {
        var m = linear ();
        assert (Gnn.parametrizations_weight_norm (m, "weight", 0));
        assert (keys (m) == "bias,parametrizations.weight.original0,parametrizations.weight.original1");
        /* the rows' norms: √14, √77, √194 */
        float[] norms = { 3.74165738677f, 8.77496438739f, 13.9283882772f };
        assert_close (values (m.get_parameter ("parametrizations.weight.original0")), norms, "g");
        assert_close (values (m.get_parameter ("parametrizations.weight.original1")), W, "v");
        assert_close (values (m.get_tensor ("weight")), W, "the weight reads as before");
        var wn = m.get_submodule ("parametrizations.weight.0") as Gnn.WeightNorm;
        assert (wn != null && wn.get_dim () == 0);
    } catch (Error e) {
        error ("%s", e.message);
    }
}

void test_transfer () {
    try {
        var from = linear ();
        var sym = new ValaSymmetric ();
        assert (Gnn.register_parametrization (from, "weight", sym, false));
        var to = new Gnn.Linear (3, 3, true);
        assert (Gnn.transfer_parametrizations_and_params (from, to, null));
        assert (to.get_submodule ("parametrizations.weight.0") == sym);
        assert (to.get_parameter ("parametrizations.weight.original") ==
                from.get_parameter ("parametrizations.weight.original"));
        assert_close (values (to.get_tensor ("weight")), SYM, "the target reads the same weight");
        assert (Gnn.type_before_parametrizations (to) == typeof (Gnn.Linear));
    } catch (Error e) {
        error ("%s", e.message);
    }
}

void test_errors () {
    try {
        var m = linear ();
        try {
            Gnn.register_parametrization (m, "wieght", new ValaSymmetric (), false);
            assert_not_reached ();
        } catch (Gnn.Error.INVALID_ARGUMENT e) {
            assert ("'wieght'" in e.message);
        }
        try {
            Gnn.parametrizations_weight_norm (m, "weight", 2);
            assert_not_reached ();
        } catch (Gnn.Error.INDEX e) {
            assert ("[-2, 1], but got 2" in e.message);
        }
        assert (keys (m) == "weight,bias");
        assert (!Gnn.is_parametrized (m, null));
    } catch (Error e) {
        error ("%s", e.message);
    }
}

int main (string[] args) {
    Test.init (ref args);
    Test.add_func ("/vala/parametrize/vala-parametrization", test_vala_parametrization);
    Test.add_func ("/vala/parametrize/vala-right-inverse", test_vala_right_inverse);
    Test.add_func ("/vala/parametrize/weight-norm", test_weight_norm);
    Test.add_func ("/vala/parametrize/transfer", test_transfer);
    Test.add_func ("/vala/parametrize/errors", test_errors);
    return Test.run ();
}
