/* custom-module.vala: a module subclass trained with SGD, averaged with an EMA, hooked, saved
 * and loaded again. The same program is in examples/c, examples/python and examples/js: all
 * four print the same line, digit for digit.
 *
 * A TinyNet (Linear 4->hidden, ReLU, Linear hidden->3) learns y = tanh(x @ w.T) + 0.1 * noise
 * from 64 samples drawn by a seeded Gnn.Generator, 200 full-batch steps of SGD with momentum,
 * an EMA of its weights (Gnn.AveragedModel) updated after every step, and a forward_post
 * handler counting the calls and recording the mean output. Its weights go to safetensors and
 * its module tree to JSON: a fresh TinyNet rebuilt from both must give exactly the same
 * outputs. A checkpoint of model, optimizer and EMA, loaded into fresh ones, must continue
 * training exactly as the originals do. It prints
 *
 *   loss0 L0 loss L ema_loss E hook_calls N hook_mean M reloaded_max_diff D resumed_max_diff R
 *
 * (every float as %.9g) and exits with status 1 when the loss did not fall or a reload
 * differs.
 *
 * Build tree: ./build/examples/custom-module-vala
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

const int N_SAMPLES = 64;
const int N_IN = 4;
const int N_OUT = 3;
const int N_STEPS = 200;

/* fc1 -> relu -> fc2, with a construct-only "hidden" width; its GType name, TinyNet, is the
 * name the JSON holds */
public class TinyNet : Gnn.Module {
    public int hidden { get; construct; default = 16; }

    public TinyNet (int hidden) {
        Object (hidden: hidden);
    }

    private Gnn.Module fc1;
    private Gnn.Module act;
    private Gnn.Module fc2;

    public override bool setup () throws Error {
        fc1 = new Gnn.Linear (N_IN, hidden, true);
        act = new Gnn.ReLU ();
        fc2 = new Gnn.Linear (hidden, N_OUT, true);
        register_module ("fc1", fc1);
        register_module ("act", act);
        register_module ("fc2", fc2);
        return true;
    }

    public override Gnn.Args forward (Gnn.Args input) throws Error {
        var h = fc1.forward_tensor (input.get_tensor (0));
        return new Gnn.Args.tensor (fc2.forward_tensor (act.forward_tensor (h)));
    }
}

double mse (Gnn.Module model, Gnn.Tensor x, Gnn.Tensor y) throws Error {
    return model.forward_tensor (x).mse_loss (y, Gnn.Reduction.MEAN).item ();
}

/* zero_grad, forward, MSE loss, backward, SGD step, EMA update; returns the loss */
double train_step (Gnn.Module model, Gnn.Optimizer opt, Gnn.AveragedModel ema, Gnn.Tensor x, Gnn.Tensor y) throws Error {
    opt.zero_grad (true);
    var loss = model.forward_tensor (x).mse_loss (y, Gnn.Reduction.MEAN);
    loss.backward (null, false);
    opt.step ();
    ema.update_parameters (model);
    return loss.item ();
}

/* the largest absolute difference between the outputs of a and b on x */
double max_diff (Gnn.Module a, Gnn.Module b, Gnn.Tensor x) throws Error {
    bool previous = Gnn.set_grad_enabled (false);
    try {
        return a.forward_tensor (x).sub (b.forward_tensor (x), 1.0).abs ().max_all ().item ();
    } finally {
        Gnn.set_grad_enabled (previous);
    }
}

/* the EMA of model (a copy made now) and its optimizer */
Gnn.AveragedModel make_ema (Gnn.Module model) throws Error {
    return new Gnn.AveragedModel (model, null, null, new Gnn.AverageFunction.ema_multi (0.9), false);
}

Gnn.Optimizer make_optimizer (Gnn.Module model) throws Error {
    return new Gnn.SGD (new Gnn.ParamGroup.from_module (model), 0.05, 0.9, 0.0, 0.0, false, false);
}

const string[] FILE_NAMES = { "tinynet.safetensors", "tinynet.json", "tinynet.ckpt" };

/* 1. the weights as safetensors and the module tree as JSON; a fresh TinyNet rebuilt from the
 *    JSON (by its type name) and given the weights must compute what model does.
 * 2. a checkpoint of the model, the optimizer and the EMA, loaded into fresh objects; one more
 *    training step of each pair must give the same EMA. */
void save_and_load (string folder, Gnn.Module model, Gnn.Optimizer opt, Gnn.AveragedModel ema,
                    Gnn.Tensor x, Gnn.Tensor y, out double reloaded_diff, out double resumed_diff) throws Error {
    var weights_path = Path.build_filename (folder, FILE_NAMES[0]);
    var json_path = Path.build_filename (folder, FILE_NAMES[1]);
    var ckpt_path = Path.build_filename (folder, FILE_NAMES[2]);

    Gnn.safetensors_save (model.state_dict (null, false), null, weights_path);
    FileUtils.set_contents (json_path, model.to_json (true));
    string json;
    FileUtils.get_contents (json_path, out json);
    var reloaded = new Gnn.Module.from_json (json, -1);
    reloaded.load_state_dict (Gnn.safetensors_load (weights_path, null), true, false, null, null);
    if (!(reloaded is TinyNet))
        throw new Gnn.Error.FAILED ("the reloaded model is a %s, expected a TinyNet", reloaded.get_type ().name ());
    reloaded_diff = max_diff (model, reloaded, x);

    var ckpt = new Gnn.Checkpoint ();
    ckpt.set_model (model);
    ckpt.set_optimizer (opt);
    ckpt.add_averaged_model ("ema", ema);
    ckpt.save (ckpt_path);
    var model2 = new TinyNet (16);
    var ema2 = make_ema (model2);
    var opt2 = make_optimizer (model2);
    var resume = new Gnn.Checkpoint ();
    resume.set_model (model2);
    resume.set_optimizer (opt2);
    resume.add_averaged_model ("ema", ema2);
    resume.load (ckpt_path);
    train_step (model, opt, ema, x, y);
    train_step (model2, opt2, ema2, x, y);
    resumed_diff = max_diff (ema, ema2, x);
}

int main (string[] args) {
    try {
        /* the data: y = tanh(x @ w.T) + 0.1 * noise */
        var gen = new Gnn.Generator (42);
        var x = new Gnn.Tensor.randn ({ N_SAMPLES, N_IN }, gen, Gnn.Dtype.FLOAT32, null);
        var w = new Gnn.Tensor.randn ({ N_OUT, N_IN }, gen, Gnn.Dtype.FLOAT32, null);
        var noise = new Gnn.Tensor.randn ({ N_SAMPLES, N_OUT }, gen, Gnn.Dtype.FLOAT32, null);
        var y = x.matmul (w.t ()).tanh ().add (noise, 0.1);

        /* the model, its EMA (a copy made now), the hook, the optimizer */
        Gnn.manual_seed (0);
        var model = new TinyNet (16);
        var ema = make_ema (model);
        var opt = make_optimizer (model);
        int hook_calls = 0;
        double hook_mean = 0.0;
        model.forward_post.connect ((input, output) => {
            bool previous = Gnn.set_grad_enabled (false);
            try {
                hook_calls++;
                hook_mean = output.get_tensor (0).mean_all ().item ();
            } catch (Error e) {
                printerr ("forward_post: %s\n", e.message);
            } finally {
                Gnn.set_grad_enabled (previous);
            }
        });

        double loss0 = double.NAN;
        for (int step = 0; step < N_STEPS; step++) {
            double step_loss = train_step (model, opt, ema, x, y);
            if (step == 0)
                loss0 = step_loss;
        }
        bool previous = Gnn.set_grad_enabled (false);
        double loss = double.NAN, ema_loss = double.NAN;
        try {
            loss = mse (model, x, y);
            ema_loss = mse (ema, x, y);
        } finally {
            Gnn.set_grad_enabled (previous);
        }

        /* save to a new folder and load back; the folder goes whatever happens */
        var folder = DirUtils.make_tmp ("gnn-custom-module-XXXXXX");
        double reloaded_diff, resumed_diff;
        try {
            save_and_load (folder, model, opt, ema, x, y, out reloaded_diff, out resumed_diff);
        } finally {
            foreach (unowned string name in FILE_NAMES)
                FileUtils.unlink (Path.build_filename (folder, name));
            DirUtils.remove (folder);
        }

        print ("loss0 %.9g loss %.9g ema_loss %.9g hook_calls %d hook_mean %.9g reloaded_max_diff %.9g resumed_max_diff %.9g\n",
               loss0, loss, ema_loss, hook_calls, hook_mean, reloaded_diff, resumed_diff);
        if (!(loss < loss0) || reloaded_diff != 0.0 || resumed_diff != 0.0) {
            printerr ("expected a lower loss and identical reloaded and resumed models, found loss %g -> %g, max differences %g and %g\n",
                      loss0, loss, reloaded_diff, resumed_diff);
            return 1;
        }
    } catch (Error e) {
        printerr ("custom-module: %s\n", e.message);
        return 1;
    }
    return 0;
}
