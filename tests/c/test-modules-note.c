/* test-modules-note.c: the examples of PyTorch's "Modules" note as C subclasses of GnnModule
 *
 * MyLinear, Net ("modules as building blocks"), BigNet (named_modules), DynamicNet (ModuleList
 * and ModuleDict, an activation chosen by a string argument), ModalModule (train / eval),
 * RunningMean (a buffer through the state dict) and the forward half of the hooks example.
 * Weights are set to fixed values and the outputs and gradients compared with numbers
 * computed by hand; names and printed forms with the note's (which are torch's).
 */
#include "config.h"

#include "gnn-test-util.h"

#define OK(expr) G_STMT_START { (expr); g_assert_no_error (error); } G_STMT_END
#define F64 GNN_DTYPE_FLOAT64

/* copies @data (shape @shape) into a module's parameter or buffer, without recording */
static void
set_values (GnnModule *m, const char *target, const double *data, gsize n, const gint64 *shape, guint ndim)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) src = gnn_tensor_new_from_doubles (data, n, shape, ndim, &error);
  GnnTensor *dst;
  gboolean prev;

  g_assert_no_error (error);
  dst = GNN_TENSOR (gnn_module_get_parameter (m, target, NULL));
  if (dst == NULL)
    OK (dst = gnn_module_get_buffer (m, target, &error));
  prev = gnn_set_grad_enabled (FALSE);
  OK (gnn_tensor_copy_ (dst, src, &error));
  gnn_set_grad_enabled (prev);
}

#define SET(m, target, shape, ...) \
  set_values ((m), (target), GNN_TEST_DATA (__VA_ARGS__), G_N_ELEMENTS (GNN_TEST_DATA (__VA_ARGS__)), \
              shape, G_N_ELEMENTS (shape))

static void
assert_grad (GnnModule *m, const char *target, const double *expected, gsize n)
{
  GnnParameter *p = gnn_module_get_parameter (m, target, NULL);
  GnnTensor *g;

  g_assert_nonnull (p);
  g = gnn_tensor_get_grad (GNN_TENSOR (p));
  g_assert_nonnull (g);
  gnn_test_assert_close (g, expected, n, 1e-12, 1e-12);
}

#define ASSERT_GRAD(m, target, ...) \
  assert_grad ((m), (target), GNN_TEST_DATA (__VA_ARGS__), G_N_ELEMENTS (GNN_TEST_DATA (__VA_ARGS__)))

static void
assert_names (GPtrArray *items, char **names, const char *const *expected)
{
  g_assert_cmpuint (items->len, ==, g_strv_length ((char **) expected));
  for (guint i = 0; i < items->len; i++)
    g_assert_cmpstr (names[i], ==, expected[i]);
}

static void
assert_repr (GnnModule *m, const char *expected)
{
  g_autofree char *text = gnn_module_to_string (m);
  g_assert_cmpstr (text, ==, expected);
}

/* ---- MyLinear: (input @ weight) + bias ---------------------------------------------------- */

typedef struct { GnnModule parent_instance; int in_features, out_features; } MyLinear;
typedef struct { GnnModuleClass parent_class; } MyLinearClass;
G_DEFINE_TYPE (MyLinear, my_linear, GNN_TYPE_MODULE)

enum { PROP_0, PROP_IN_FEATURES, PROP_OUT_FEATURES };

static gboolean
my_linear_setup (GnnModule *module, GError **error)
{
  MyLinear *self = (MyLinear *) module;
  g_autoptr(GnnTensor) w = NULL, b = NULL;
  g_autoptr(GnnParameter) wp = NULL, bp = NULL;

  /* the note's torch.randn; float64 here so that the hand-computed numbers are exact */
  if (!(w = gnn_tensor_new_randn ((gint64[]) { self->in_features, self->out_features }, 2, NULL, F64, NULL, error)) ||
      !(b = gnn_tensor_new_randn ((gint64[]) { self->out_features }, 1, NULL, F64, NULL, error)) ||
      !(wp = gnn_parameter_new (w, TRUE, error)) ||
      !(bp = gnn_parameter_new (b, TRUE, error)))
    return FALSE;
  return gnn_module_register_parameter (module, "weight", wp, error) &&
         gnn_module_register_parameter (module, "bias", bp, error);
}

static GnnArgs *
my_linear_forward (GnnModule *module, GnnArgs *input, GError **error)
{
  GnnTensor *x = gnn_args_get_tensor (input, 0, error);
  g_autoptr(GnnTensor) xw = NULL, y = NULL;

  if (x == NULL ||
      !(xw = gnn_tensor_matmul (x, GNN_TENSOR (gnn_module_get_parameter (module, "weight", NULL)), error)) ||
      !(y = gnn_tensor_add (xw, GNN_TENSOR (gnn_module_get_parameter (module, "bias", NULL)), 1.0, error)))
    return NULL;
  return gnn_args_new_tensor (y);
}

static void
my_linear_set_property (GObject *o, guint id, const GValue *v, GParamSpec *ps)
{
  if (id == PROP_IN_FEATURES)
    ((MyLinear *) o)->in_features = g_value_get_int (v);
  else
    ((MyLinear *) o)->out_features = g_value_get_int (v);
}

static void
my_linear_get_property (GObject *o, guint id, GValue *v, GParamSpec *ps)
{
  g_value_set_int (v, id == PROP_IN_FEATURES ? ((MyLinear *) o)->in_features : ((MyLinear *) o)->out_features);
}

static void
my_linear_class_init (MyLinearClass *klass)
{
  GObjectClass *oc = G_OBJECT_CLASS (klass);

  oc->set_property = my_linear_set_property;
  oc->get_property = my_linear_get_property;
  GNN_MODULE_CLASS (klass)->setup = my_linear_setup;
  GNN_MODULE_CLASS (klass)->forward = my_linear_forward;
  g_object_class_install_property (oc, PROP_IN_FEATURES,
    g_param_spec_int ("in-features", NULL, NULL, 0, G_MAXINT, 1,
                      G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));
  g_object_class_install_property (oc, PROP_OUT_FEATURES,
    g_param_spec_int ("out-features", NULL, NULL, 0, G_MAXINT, 1,
                      G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));
}

static void
my_linear_init (MyLinear *self)
{
}

static GnnModule *
my_linear_new (int in_features, int out_features)
{
  return g_object_new (my_linear_get_type (), "in-features", in_features, "out-features", out_features, NULL);
}

/* ---- Net: l0, relu, l1 ---------------------------------------------------------------------- */

typedef struct { GnnModule parent_instance; } Net;
typedef struct { GnnModuleClass parent_class; } NetClass;
G_DEFINE_TYPE (Net, net, GNN_TYPE_MODULE)

static gboolean
net_setup (GnnModule *module, GError **error)
{
  g_autoptr(GnnModule) l0 = my_linear_new (4, 3);
  g_autoptr(GnnModule) l1 = my_linear_new (3, 1);

  return gnn_module_register_module (module, "l0", l0, error) &&
         gnn_module_register_module (module, "l1", l1, error);
}

static GnnArgs *
net_forward (GnnModule *module, GnnArgs *input, GError **error)
{
  GnnTensor *x = gnn_args_get_tensor (input, 0, error);
  g_autoptr(GnnTensor) h = NULL, r = NULL, y = NULL;

  if (x == NULL ||
      !(h = gnn_module_forward_tensor (gnn_module_get_submodule (module, "l0", NULL), x, error)) ||
      !(r = gnn_tensor_relu (h, error)) ||
      !(y = gnn_module_forward_tensor (gnn_module_get_submodule (module, "l1", NULL), r, error)))
    return NULL;
  return gnn_args_new_tensor (y);
}

static void
net_class_init (NetClass *klass)
{
  GNN_MODULE_CLASS (klass)->setup = net_setup;
  GNN_MODULE_CLASS (klass)->forward = net_forward;
}

static void
net_init (Net *self)
{
}

/* ---- BigNet: l1, then a Net ----------------------------------------------------------------- */

typedef struct { GnnModule parent_instance; } BigNet;
typedef struct { GnnModuleClass parent_class; } BigNetClass;
G_DEFINE_TYPE (BigNet, big_net, GNN_TYPE_MODULE)

static gboolean
big_net_setup (GnnModule *module, GError **error)
{
  g_autoptr(GnnModule) l1 = my_linear_new (5, 4);
  g_autoptr(GnnModule) n = g_object_new (net_get_type (), NULL);

  return gnn_module_register_module (module, "l1", l1, error) &&
         gnn_module_register_module (module, "net", n, error);
}

static GnnArgs *
big_net_forward (GnnModule *module, GnnArgs *input, GError **error)
{
  g_autoptr(GnnArgs) h = gnn_module_forward (gnn_module_get_submodule (module, "l1", NULL), input, error);

  return h ? gnn_module_forward (gnn_module_get_submodule (module, "net", NULL), h, error) : NULL;
}

static void
big_net_class_init (BigNetClass *klass)
{
  GNN_MODULE_CLASS (klass)->setup = big_net_setup;
  GNN_MODULE_CLASS (klass)->forward = big_net_forward;
}

static void
big_net_init (BigNet *self)
{
}

/* ---- DynamicNet: a ModuleList of MyLinear, a ModuleDict of activations ------------------- */

typedef struct { GnnModule parent_instance; int num_layers; } DynamicNet;
typedef struct { GnnModuleClass parent_class; } DynamicNetClass;
G_DEFINE_TYPE (DynamicNet, dynamic_net, GNN_TYPE_MODULE)

static gboolean
dynamic_net_setup (GnnModule *module, GError **error)
{
  DynamicNet *self = (DynamicNet *) module;
  g_autoptr(GnnModuleList) linears = gnn_module_list_new (NULL, 0);
  g_autoptr(GnnModuleDict) activations = gnn_module_dict_new ();
  g_autoptr(GnnModule) relu = GNN_MODULE (gnn_relu_new ());
  g_autoptr(GnnModule) lrelu = GNN_MODULE (gnn_leaky_relu_new (0.01));
  g_autoptr(GnnModule) final = my_linear_new (4, 1);

  for (int i = 0; i < self->num_layers; i++)
    {
      g_autoptr(GnnModule) l = my_linear_new (4, 4);
      gnn_module_list_append (linears, l);
    }
  return gnn_module_dict_set (activations, "relu", relu, error) &&
         gnn_module_dict_set (activations, "lrelu", lrelu, error) &&
         gnn_module_register_module (module, "linears", GNN_MODULE (linears), error) &&
         gnn_module_register_module (module, "activations", GNN_MODULE (activations), error) &&
         gnn_module_register_module (module, "final", final, error);
}

/* forward (x, act): the activation is chosen by the string argument */
static GnnArgs *
dynamic_net_forward (GnnModule *module, GnnArgs *input, GError **error)
{
  GnnModuleList *linears = GNN_MODULE_LIST (gnn_module_get_submodule (module, "linears", NULL));
  GnnModuleDict *activations = GNN_MODULE_DICT (gnn_module_get_submodule (module, "activations", NULL));
  GnnTensor *x0 = gnn_args_get_tensor (input, 0, error);
  const char *act;
  GnnModule *activation;
  g_autoptr(GnnTensor) x = NULL;

  if (x0 == NULL || !(act = gnn_args_get_string (input, 1, error)) ||
      !(activation = gnn_module_dict_get (activations, act, error)))
    return NULL;
  x = g_object_ref (x0);
  for (guint i = 0; i < gnn_module_list_get_length (linears); i++)
    {
      g_autoptr(GnnTensor) h = gnn_module_forward_tensor (gnn_module_list_get (linears, i, NULL), x, error);
      g_autoptr(GnnTensor) a = h ? gnn_module_forward_tensor (activation, h, error) : NULL;

      if (a == NULL)
        return NULL;
      g_set_object (&x, a);
    }
  {
    g_autoptr(GnnTensor) y = gnn_module_forward_tensor (gnn_module_get_submodule (module, "final", NULL), x, error);
    return y ? gnn_args_new_tensor (y) : NULL;
  }
}

static void
dynamic_net_set_property (GObject *o, guint id, const GValue *v, GParamSpec *ps)
{
  ((DynamicNet *) o)->num_layers = g_value_get_int (v);
}

static void
dynamic_net_get_property (GObject *o, guint id, GValue *v, GParamSpec *ps)
{
  g_value_set_int (v, ((DynamicNet *) o)->num_layers);
}

static void
dynamic_net_class_init (DynamicNetClass *klass)
{
  GObjectClass *oc = G_OBJECT_CLASS (klass);

  oc->set_property = dynamic_net_set_property;
  oc->get_property = dynamic_net_get_property;
  GNN_MODULE_CLASS (klass)->setup = dynamic_net_setup;
  GNN_MODULE_CLASS (klass)->forward = dynamic_net_forward;
  g_object_class_install_property (oc, 1,
    g_param_spec_int ("num-layers", NULL, NULL, 0, 100, 1,
                      G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));
}

static void
dynamic_net_init (DynamicNet *self)
{
}

/* ---- ModalModule: x + 1 in training mode, x in evaluation mode ----------------------------- */

typedef struct { GnnModule parent_instance; } ModalModule;
typedef struct { GnnModuleClass parent_class; } ModalModuleClass;
G_DEFINE_TYPE (ModalModule, modal_module, GNN_TYPE_MODULE)

static GnnArgs *
modal_module_forward (GnnModule *module, GnnArgs *input, GError **error)
{
  GnnTensor *x = gnn_args_get_tensor (input, 0, error);
  g_autoptr(GnnTensor) y = NULL;

  if (x == NULL)
    return NULL;
  if (!gnn_module_get_training (module))
    return gnn_args_new_tensor (x);
  y = gnn_tensor_add_scalar (x, 1.0, error);
  return y ? gnn_args_new_tensor (y) : NULL;
}

static void
modal_module_class_init (ModalModuleClass *klass)
{
  GNN_MODULE_CLASS (klass)->forward = modal_module_forward;
}

static void
modal_module_init (ModalModule *self)
{
}

/* ---- RunningMean: a persistent buffer updated by forward ---------------------------------- */

typedef struct { GnnModule parent_instance; int num_features; double momentum; } RunningMean;
typedef struct { GnnModuleClass parent_class; } RunningMeanClass;
G_DEFINE_TYPE (RunningMean, running_mean, GNN_TYPE_MODULE)

static gboolean
running_mean_setup (GnnModule *module, GError **error)
{
  RunningMean *self = (RunningMean *) module;
  g_autoptr(GnnTensor) zeros = gnn_tensor_new_zeros ((gint64[]) { self->num_features }, 1, F64, NULL, error);

  return zeros && gnn_module_register_buffer (module, "mean", zeros, TRUE, error);
}

static GnnArgs *
running_mean_forward (GnnModule *module, GnnArgs *input, GError **error)
{
  RunningMean *self = (RunningMean *) module;
  GnnTensor *x = gnn_args_get_tensor (input, 0, error);
  GnnTensor *mean = gnn_module_get_buffer (module, "mean", NULL);
  g_autoptr(GnnTensor) a = NULL, b = NULL, m = NULL;

  /* self.mean = self.momentum * self.mean + (1.0 - self.momentum) * x */
  if (x == NULL ||
      !(a = gnn_tensor_mul_scalar (mean, self->momentum, error)) ||
      !(b = gnn_tensor_mul_scalar (x, 1.0 - self->momentum, error)) ||
      !(m = gnn_tensor_add (a, b, 1.0, error)) ||
      !gnn_module_register_buffer (module, "mean", m, TRUE, error))
    return NULL;
  return gnn_args_new_tensor (m);
}

static void
running_mean_set_property (GObject *o, guint id, const GValue *v, GParamSpec *ps)
{
  if (id == 1)
    ((RunningMean *) o)->num_features = g_value_get_int (v);
  else
    ((RunningMean *) o)->momentum = g_value_get_double (v);
}

static void
running_mean_get_property (GObject *o, guint id, GValue *v, GParamSpec *ps)
{
  if (id == 1)
    g_value_set_int (v, ((RunningMean *) o)->num_features);
  else
    g_value_set_double (v, ((RunningMean *) o)->momentum);
}

static void
running_mean_class_init (RunningMeanClass *klass)
{
  GObjectClass *oc = G_OBJECT_CLASS (klass);

  oc->set_property = running_mean_set_property;
  oc->get_property = running_mean_get_property;
  GNN_MODULE_CLASS (klass)->setup = running_mean_setup;
  GNN_MODULE_CLASS (klass)->forward = running_mean_forward;
  g_object_class_install_property (oc, 1,
    g_param_spec_int ("num-features", NULL, NULL, 0, G_MAXINT, 1,
                      G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));
  g_object_class_install_property (oc, 2,
    g_param_spec_double ("momentum", NULL, NULL, 0, 1, 0.9,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));
}

static void
running_mean_init (RunningMean *self)
{
}

/* ---- the tests ------------------------------------------------------------------------------ */

static GnnTensor *
input (const double *data, gsize n, const gint64 *shape, guint ndim, gboolean requires_grad)
{
  GnnTensor *x = gnn_test_tensor_d (data, n, shape, ndim);

  if (requires_grad)
    g_assert_true (gnn_tensor_set_requires_grad (x, TRUE, NULL));
  return x;
}

/* l0 of Net and the note's MyLinear(4, 3) */
static void
set_l0 (GnnModule *m)
{
  SET (m, "weight", GNN_TEST_SHAPE (4, 3), 1, 0, -1,  0, 1, 0,  1, 1, 1,  -1, 0, 2);
  SET (m, "bias", GNN_TEST_SHAPE (3), -0.5, -1, 2);
}

static void
test_my_linear (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnModule) m = my_linear_new (4, 3);
  g_autoptr(GnnTensor) x = input (GNN_TEST_DATA (1, 2, 3, 4), 4, GNN_TEST_SHAPE (4), 1, TRUE);
  g_autoptr(GnnTensor) y = NULL, s = NULL;
  g_autoptr(GPtrArray) params = NULL;
  g_auto(GStrv) names = NULL;

  params = gnn_module_named_parameters (m, NULL, TRUE, TRUE, &names);
  assert_names (params, names, (const char *[]) { "weight", "bias", NULL });
  gnn_test_assert_shape (params->pdata[0], GNN_TEST_SHAPE (4, 3), 2);
  gnn_test_assert_shape (params->pdata[1], GNN_TEST_SHAPE (3), 1);
  assert_repr (m, "MyLinear()");

  set_l0 (m);
  OK (y = gnn_module_forward_tensor (m, x, &error));
  /* x @ W = [0, 5, 10], + b */
  gnn_test_assert_close (y, GNN_TEST_DATA (-0.5, 4, 12), 3, 1e-12, 1e-12);
  g_assert_cmpstr (gnn_tensor_get_grad_fn_name (y), ==, "AddBackward0");
  OK (s = gnn_tensor_sum_all (y, &error));
  OK (gnn_tensor_backward (s, NULL, FALSE, &error));
  ASSERT_GRAD (m, "weight", 1, 1, 1,  2, 2, 2,  3, 3, 3,  4, 4, 4);
  ASSERT_GRAD (m, "bias", 1, 1, 1);
  gnn_test_assert_close (gnn_tensor_get_grad (x), GNN_TEST_DATA (0, 1, 3, 1), 4, 1e-12, 1e-12);
}

static void
set_net (GnnModule *net)
{
  GnnModule *l1 = gnn_module_get_submodule (net, "l1", NULL);

  set_l0 (gnn_module_get_submodule (net, "l0", NULL));
  SET (l1, "weight", GNN_TEST_SHAPE (3, 1), 2, 0.5, -0.25);
  SET (l1, "bias", GNN_TEST_SHAPE (1), 3);
}

static void
test_sequential_building_block (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnModule) a = my_linear_new (4, 3);
  g_autoptr(GnnModule) relu = GNN_MODULE (gnn_relu_new ());
  g_autoptr(GnnModule) b = my_linear_new (3, 1);
  g_autoptr(GnnSequential) seq = gnn_sequential_new ((GnnModule *[]) { a, relu, b }, 3);
  g_autoptr(GnnTensor) x = input (GNN_TEST_DATA (1, 2, 3, 4), 4, GNN_TEST_SHAPE (4), 1, FALSE);
  g_autoptr(GnnTensor) y = NULL;
  g_autoptr(GPtrArray) params = NULL;
  g_auto(GStrv) names = NULL;

  set_l0 (a);
  SET (b, "weight", GNN_TEST_SHAPE (3, 1), 2, 0.5, -0.25);
  SET (b, "bias", GNN_TEST_SHAPE (1), 3);
  OK (y = gnn_module_forward_tensor (GNN_MODULE (seq), x, &error));
  /* relu ([-0.5, 4, 12]) = [0, 4, 12]; 0 * 2 + 4 * 0.5 - 12 * 0.25 + 3 = 2 */
  gnn_test_assert_close (y, GNN_TEST_DATA (2), 1, 1e-12, 1e-12);
  params = gnn_module_named_parameters (GNN_MODULE (seq), NULL, TRUE, TRUE, &names);
  assert_names (params, names, (const char *[]) { "0.weight", "0.bias", "2.weight", "2.bias", NULL });
  assert_repr (GNN_MODULE (seq), "Sequential(\n  (0): MyLinear()\n  (1): ReLU()\n  (2): MyLinear()\n)");
}

static void
test_net (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnModule) net = g_object_new (net_get_type (), NULL);
  g_autoptr(GnnTensor) x = input (GNN_TEST_DATA (1, 2, 3, 4), 4, GNN_TEST_SHAPE (4), 1, TRUE);
  g_autoptr(GnnTensor) y = NULL, s = NULL;
  g_autoptr(GPtrArray) children = NULL;
  g_auto(GStrv) names = NULL;

  /* for child in net.named_children (): ('l0', MyLinear()) ('l1', MyLinear()) */
  children = gnn_module_named_children (net, &names);
  assert_names (children, names, (const char *[]) { "l0", "l1", NULL });
  for (guint i = 0; i < children->len; i++)
    assert_repr (children->pdata[i], "MyLinear()");

  set_net (net);
  OK (y = gnn_module_forward_tensor (net, x, &error));
  gnn_test_assert_close (y, GNN_TEST_DATA (2), 1, 1e-12, 1e-12);
  OK (s = gnn_tensor_sum_all (y, &error));
  OK (gnn_tensor_backward (s, NULL, FALSE, &error));
  /* dy/dh = W1 masked by relu (h0 = -0.5 < 0): [0, 0.5, -0.25] */
  ASSERT_GRAD (net, "l1.weight", 0, 4, 12);
  ASSERT_GRAD (net, "l1.bias", 1);
  ASSERT_GRAD (net, "l0.bias", 0, 0.5, -0.25);
  ASSERT_GRAD (net, "l0.weight", 0, 0.5, -0.25,  0, 1, -0.5,  0, 1.5, -0.75,  0, 2, -1);
  /* dy/dx = W0 @ [0, 0.5, -0.25] */
  gnn_test_assert_close (gnn_tensor_get_grad (x), GNN_TEST_DATA (0.25, 0.5, 0.25, -0.5), 4, 1e-12, 1e-12);
}

static void
test_big_net (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnModule) big = g_object_new (big_net_get_type (), NULL);
  g_autoptr(GPtrArray) mods = NULL;
  g_auto(GStrv) names = NULL;
  g_autoptr(GnnTensor) x = input (GNN_TEST_DATA (1, 1, 1, 1, 1), 5, GNN_TEST_SHAPE (5), 1, FALSE);
  g_autoptr(GnnTensor) y = NULL;
  /* the note's output of: for module in big_net.named_modules (): print (module) */
  const char *reprs[] = {
    "BigNet(\n"
    "  (l1): MyLinear()\n"
    "  (net): Net(\n"
    "    (l0): MyLinear()\n"
    "    (l1): MyLinear()\n"
    "  )\n"
    ")",
    "MyLinear()",
    "Net(\n"
    "  (l0): MyLinear()\n"
    "  (l1): MyLinear()\n"
    ")",
    "MyLinear()",
    "MyLinear()",
  };

  mods = gnn_module_named_modules (big, NULL, TRUE, &names);
  assert_names (mods, names, (const char *[]) { "", "l1", "net", "net.l0", "net.l1", NULL });
  for (guint i = 0; i < mods->len; i++)
    assert_repr (mods->pdata[i], reprs[i]);

  /* l1 = identity-like (5 -> 4: the first four inputs), bias 0: the Net sees [1, 2, 3, 4] */
  SET (big, "l1.weight", GNN_TEST_SHAPE (5, 4), 1, 0, 0, 0,  0, 2, 0, 0,  0, 0, 3, 0,  0, 0, 0, 4,  0, 0, 0, 0);
  SET (big, "l1.bias", GNN_TEST_SHAPE (4), 0, 0, 0, 0);
  set_net (gnn_module_get_submodule (big, "net", NULL));
  OK (y = gnn_module_forward_tensor (big, x, &error));
  gnn_test_assert_close (y, GNN_TEST_DATA (2), 1, 1e-12, 1e-12);
}

static GnnTensor *
dynamic_forward (GnnModule *m, GnnTensor *x, const char *act, GError **error)
{
  g_autoptr(GnnArgs) args = gnn_args_new_tensor (x);
  g_autoptr(GnnArgs) out = NULL;

  gnn_args_add_string (args, act);
  out = gnn_module_forward (m, args, error);
  return out ? g_object_ref (gnn_args_get_tensor (out, 0, error)) : NULL;
}

static void
test_dynamic_net (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnModule) net = g_object_new (dynamic_net_get_type (), "num-layers", 3, NULL);
  g_autoptr(GnnTensor) x = input (GNN_TEST_DATA (1, -2, 3, -4), 4, GNN_TEST_SHAPE (4), 1, FALSE);
  g_autoptr(GnnTensor) y = NULL, z = NULL, bad = NULL, y64 = NULL;
  g_autoptr(GPtrArray) params = NULL;
  g_auto(GStrv) names = NULL;

  /* the note's named_parameters output */
  params = gnn_module_named_parameters (net, NULL, TRUE, TRUE, &names);
  assert_names (params, names, (const char *[]) {
    "linears.0.weight", "linears.0.bias", "linears.1.weight", "linears.1.bias",
    "linears.2.weight", "linears.2.bias", "final.weight", "final.bias", NULL });
  assert_repr (net,
               "DynamicNet(\n"
               "  (linears): ModuleList(\n"
               "    (0): MyLinear()\n"
               "    (1): MyLinear()\n"
               "    (2): MyLinear()\n"
               "  )\n"
               "  (activations): ModuleDict(\n"
               "    (relu): ReLU()\n"
               "    (lrelu): LeakyReLU(negative_slope=0.01)\n"
               "  )\n"
               "  (final): MyLinear()\n"
               ")");

  for (int i = 0; i < 3; i++)
    {
      g_autofree char *w = g_strdup_printf ("linears.%d.weight", i);
      g_autofree char *b = g_strdup_printf ("linears.%d.bias", i);
      SET (net, w, GNN_TEST_SHAPE (4, 4), 1, 0, 0, 0,  0, 1, 0, 0,  0, 0, 1, 0,  0, 0, 0, 1);
      SET (net, b, GNN_TEST_SHAPE (4), 0.5, 0.5, 0.5, 0.5);
    }
  SET (net, "final.weight", GNN_TEST_SHAPE (4, 1), 1, 1, 1, 1);
  SET (net, "final.bias", GNN_TEST_SHAPE (1), 0);

  /* relu: [1.5, 0, 3.5, 0] -> [2, .5, 4, .5] -> [2.5, 1, 4.5, 1]: 9 */
  OK (y = dynamic_forward (net, x, "relu", &error));
  gnn_test_assert_close (y, GNN_TEST_DATA (9), 1, 1e-12, 1e-12);
  /* lrelu: [1.5, -.015, 3.5, -.035] -> [2, .485, 4, .465] -> [2.5, .985, 4.5, .965]: 8.95 */
  OK (z = dynamic_forward (net, x, "lrelu", &error));
  gnn_test_assert_close (z, GNN_TEST_DATA (8.95), 1, 1e-12, 1e-12);
  /* an activation that is not in the ModuleDict */
  bad = dynamic_forward (net, x, "tanh", &error);
  g_assert_null (bad);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INDEX);
  g_assert_nonnull (strstr (error->message, "tanh"));
  g_clear_error (&error);

  /* dynamic_net.to (dtype=torch.float64): already float64 here; float32 then back */
  OK (gnn_module_to_dtype (net, GNN_DTYPE_FLOAT32, &error));
  g_assert_cmpint (gnn_tensor_get_dtype (GNN_TENSOR (gnn_module_get_parameter (net, "final.weight", NULL))), ==,
                   GNN_DTYPE_FLOAT32);
  OK (gnn_module_to_dtype (net, F64, &error));
  OK (y64 = dynamic_forward (net, x, "relu", &error));
  g_assert_cmpint (gnn_tensor_get_dtype (y64), ==, F64);
  gnn_test_assert_close (y64, GNN_TEST_DATA (9), 1, 1e-12, 1e-12);
}

static void
test_modal_module (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnModule) m = g_object_new (modal_module_get_type (), NULL);
  g_autoptr(GnnTensor) x = input (GNN_TEST_DATA (0.5, -1, 2, 0), 4, GNN_TEST_SHAPE (4), 1, FALSE);
  g_autoptr(GnnTensor) t = NULL, e = NULL, t2 = NULL;

  g_assert_true (gnn_module_get_training (m));
  OK (t = gnn_module_forward_tensor (m, x, &error));
  gnn_test_assert_close (t, GNN_TEST_DATA (1.5, 0, 3, 1), 4, 0, 0);
  gnn_module_eval (m);
  g_assert_false (gnn_module_get_training (m));
  OK (e = gnn_module_forward_tensor (m, x, &error));
  gnn_test_assert_close (e, GNN_TEST_DATA (0.5, -1, 2, 0), 4, 0, 0);
  gnn_module_train (m, TRUE);
  OK (t2 = gnn_module_forward_tensor (m, x, &error));
  gnn_test_assert_close (t2, GNN_TEST_DATA (1.5, 0, 3, 1), 4, 0, 0);
}

static void
test_running_mean (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnModule) m = g_object_new (running_mean_get_type (), "num-features", 4, NULL);
  g_autoptr(GnnModule) loaded = g_object_new (running_mean_get_type (), "num-features", 4, NULL);
  g_autoptr(GnnStateDict) sd = NULL, sd2 = NULL;
  g_auto(GStrv) keys = NULL, missing = NULL, unexpected = NULL;
  const double inputs[3][4] = { { 10, 10, 10, 10 }, { 0, 0, 0, 0 }, { 10, 20, 30, 40 } };
  g_autoptr(GnnTensor) extra = gnn_tensor_new_zeros ((gint64[]) { 5 }, 1, F64, NULL, NULL);

  for (int k = 0; k < 3; k++)
    {
      g_autoptr(GnnTensor) x = input (inputs[k], 4, GNN_TEST_SHAPE (4), 1, FALSE);
      g_autoptr(GnnTensor) y = NULL;

      OK (y = gnn_module_forward_tensor (m, x, &error));
    }
  /* 0 -> 1 -> 0.9 -> 0.81 + [1, 2, 3, 4] */
  gnn_test_assert_close (gnn_module_get_buffer (m, "mean", NULL), GNN_TEST_DATA (1.81, 2.81, 3.81, 4.81), 4,
                         1e-12, 1e-12);

  OK (sd = gnn_module_state_dict (m, NULL, FALSE, &error));
  keys = gnn_state_dict_get_keys (sd);
  g_assert_cmpuint (g_strv_length (keys), ==, 1);
  g_assert_cmpstr (keys[0], ==, "mean");
  OK (gnn_module_load_state_dict (loaded, sd, TRUE, FALSE, &missing, &unexpected, &error));
  g_assert_true (missing == NULL || missing[0] == NULL);
  g_assert_true (unexpected == NULL || unexpected[0] == NULL);
  gnn_test_assert_close (gnn_module_get_buffer (loaded, "mean", NULL), GNN_TEST_DATA (1.81, 2.81, 3.81, 4.81), 4,
                         1e-12, 1e-12);

  /* a non-persistent buffer: a buffer, not in the state dict */
  OK (gnn_module_register_buffer (m, "unserialized_thing", extra, FALSE, &error));
  {
    g_autoptr(GPtrArray) bufs = NULL;
    g_auto(GStrv) names = NULL;
    g_auto(GStrv) keys2 = NULL;

    bufs = gnn_module_named_buffers (m, NULL, TRUE, TRUE, &names);
    assert_names (bufs, names, (const char *[]) { "mean", "unserialized_thing", NULL });
    OK (sd2 = gnn_module_state_dict (m, NULL, FALSE, &error));
    keys2 = gnn_state_dict_get_keys (sd2);
    g_assert_cmpuint (g_strv_length (keys2), ==, 1);
  }
}

/* the hooks example, forward half: gnn has no backward module hooks
 * (register_full_backward_hook) in this test, so the note's backward_hook is left out */
static void
add_one_pre_hook (GnnModule *m, GnnArgs *in, gpointer user_data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) x1 = gnn_tensor_add_scalar (gnn_args_get_tensor (in, 0, NULL), 1.0, &error);

  g_assert_no_error (error);
  OK (gnn_args_set_tensor (in, 0, x1, &error));
  (*(int *) user_data)++;
}

static void
residual_hook (GnnModule *m, GnnArgs *in, GnnArgs *out, gpointer user_data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) y = gnn_tensor_add (gnn_args_get_tensor (out, 0, NULL),
                                           gnn_args_get_tensor (in, 0, NULL), 1.0, &error);

  g_assert_no_error (error);
  OK (gnn_args_set_tensor (out, 0, y, &error));
  (*(int *) user_data)++;
}

static GnnTensor *
hooked_call (GnnModule *m, const double *expected, const double *expected_grad)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) x = input (GNN_TEST_DATA (1, 2, 3,  0, -1, 1), 6, GNN_TEST_SHAPE (2, 3), 2, TRUE);
  g_autoptr(GnnTensor) y = NULL, s = NULL;

  OK (y = gnn_module_forward_tensor (m, x, &error));
  gnn_test_assert_close (y, expected, 6, 1e-12, 1e-12);
  OK (s = gnn_tensor_sum_all (y, &error));
  OK (gnn_tensor_backward (s, NULL, FALSE, &error));
  gnn_test_assert_close (gnn_tensor_get_grad (x), expected_grad, 6, 1e-12, 1e-12);
  return g_steal_pointer (&y);
}

static void
test_forward_hooks (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnModule) m = NULL;
  g_autoptr(GnnTensor) a = NULL, b = NULL, c = NULL, d = NULL;
  int pre_calls = 0, post_calls = 0;
  guint pre, post;

  OK (m = GNN_MODULE (gnn_linear_new_with_dtype (3, 3, TRUE, F64, &error)));
  /* y = x W^T + b */
  SET (m, "weight", GNN_TEST_SHAPE (3, 3), 1, 0, 0,  0, 2, 0,  1, 1, 1);
  SET (m, "bias", GNN_TEST_SHAPE (3), 0, 1, -1);

  /* output with no forward hooks; dy/dx: the column sums of W */
  a = hooked_call (m, GNN_TEST_DATA (1, 5, 5,  0, -1, -1), GNN_TEST_DATA (2, 3, 1,  2, 3, 1));
  /* with the pre-hook: the module sees x + 1 */
  pre = gnn_module_register_forward_pre_hook (m, add_one_pre_hook, &pre_calls, NULL, FALSE, FALSE);
  b = hooked_call (m, GNN_TEST_DATA (2, 7, 8,  1, 1, 2), GNN_TEST_DATA (2, 3, 1,  2, 3, 1));
  /* with both: the forward hook adds the (changed) input: residual a la ResNet */
  post = gnn_module_register_forward_hook (m, residual_hook, &post_calls, NULL, FALSE, FALSE, FALSE);
  c = hooked_call (m, GNN_TEST_DATA (4, 10, 12,  2, 1, 4), GNN_TEST_DATA (3, 4, 2,  3, 4, 2));
  g_assert_cmpint (pre_calls, ==, 2);
  g_assert_cmpint (post_calls, ==, 1);
  /* after removing the hooks */
  g_assert_true (gnn_module_remove_hook (m, pre));
  g_assert_true (gnn_module_remove_hook (m, post));
  g_assert_false (gnn_module_remove_hook (m, pre));
  d = hooked_call (m, GNN_TEST_DATA (1, 5, 5,  0, -1, -1), GNN_TEST_DATA (2, 3, 1,  2, 3, 1));
  g_assert_cmpint (pre_calls, ==, 2);
  g_assert_cmpint (post_calls, ==, 1);
}

int
main (int argc, char **argv)
{
  gnn_test_init (&argc, &argv);
  gnn_manual_seed (0);
  g_test_add_func ("/modules-note/my-linear", test_my_linear);
  g_test_add_func ("/modules-note/sequential", test_sequential_building_block);
  g_test_add_func ("/modules-note/net", test_net);
  g_test_add_func ("/modules-note/big-net", test_big_net);
  g_test_add_func ("/modules-note/dynamic-net", test_dynamic_net);
  g_test_add_func ("/modules-note/modal-module", test_modal_module);
  g_test_add_func ("/modules-note/running-mean", test_running_mean);
  g_test_add_func ("/modules-note/forward-hooks", test_forward_hooks);
  return g_test_run ();
}
