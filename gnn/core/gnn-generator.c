/* gnn-generator.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"
#include "gnn-generator.h"
#include "gnn-error.h"

/**
 * GnnGenerator:
 *
 * A seeded random number generator, as `torch.Generator`.
 *
 * gnn draws random numbers from a counter-based Philox4x32-10 stream: a generator is a seed
 * and an offset into the stream, so its whole state is two integers
 * ([method@Gnn.Generator.get_seed], [method@Gnn.Generator.get_offset]) and every backend
 * draws the same numbers for the same state. The numbers differ from PyTorch's.
 *
 * The default generator is seeded by [func@Gnn.manual_seed].
 */
struct _GnnGenerator
{
  GObject parent_instance;
  GMutex lock;
  guint64 seed;
  guint64 offset;
};

enum {
  PROP_0,
  PROP_SEED,
  PROP_OFFSET,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (GnnGenerator, gnn_generator, G_TYPE_OBJECT)

static void
gnn_generator_finalize (GObject *object)
{
  GnnGenerator *self = GNN_GENERATOR (object);

  g_mutex_clear (&self->lock);
  G_OBJECT_CLASS (gnn_generator_parent_class)->finalize (object);
}

static void
gnn_generator_get_property (GObject    *object,
                            guint       prop_id,
                            GValue     *value,
                            GParamSpec *pspec)
{
  GnnGenerator *self = GNN_GENERATOR (object);

  switch (prop_id)
    {
    case PROP_SEED:
      g_value_set_uint64 (value, gnn_generator_get_seed (self));
      break;
    case PROP_OFFSET:
      g_value_set_uint64 (value, gnn_generator_get_offset (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
gnn_generator_set_property (GObject      *object,
                            guint         prop_id,
                            const GValue *value,
                            GParamSpec   *pspec)
{
  GnnGenerator *self = GNN_GENERATOR (object);

  switch (prop_id)
    {
    case PROP_SEED:
      gnn_generator_manual_seed (self, g_value_get_uint64 (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
gnn_generator_class_init (GnnGeneratorClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = gnn_generator_finalize;
  object_class->get_property = gnn_generator_get_property;
  object_class->set_property = gnn_generator_set_property;

  /**
   * GnnGenerator:seed:
   *
   * The seed. Setting it restarts the stream at offset 0, as `manual_seed` does.
   */
  properties[PROP_SEED] =
    g_param_spec_uint64 ("seed", NULL, NULL, 0, G_MAXUINT64, 67280421310721,
                         G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  /**
   * GnnGenerator:offset:
   *
   * How many numbers have been drawn from the stream.
   */
  properties[PROP_OFFSET] =
    g_param_spec_uint64 ("offset", NULL, NULL, 0, G_MAXUINT64, 0,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
gnn_generator_init (GnnGenerator *self)
{
  g_mutex_init (&self->lock);
  self->seed = 67280421310721;  /* PyTorch's default seed */
}

/**
 * gnn_generator_new:
 * @seed: the seed
 *
 * Creates a random number generator seeded with @seed.
 *
 * Returns: (transfer full): a new generator at the start of the stream for @seed
 */
GnnGenerator *
gnn_generator_new (guint64 seed)
{
  GnnGenerator *self = g_object_new (GNN_TYPE_GENERATOR, NULL);
  self->seed = seed;
  return self;
}

/**
 * gnn_generator_get_default:
 *
 * The generator that random creation functions use when given none.
 *
 * Returns: (transfer none): the default generator
 *
 * MT safe.
 */
GnnGenerator *
gnn_generator_get_default (void)
{
  static gsize default_generator;

  if (g_once_init_enter (&default_generator))
    g_once_init_leave (&default_generator, (gsize) g_object_new (GNN_TYPE_GENERATOR, NULL));
  return (GnnGenerator *) default_generator;
}

/**
 * gnn_generator_manual_seed:
 * @self: a generator
 * @seed: the seed
 *
 * Seeds the generator and restarts its stream, as `torch.Generator.manual_seed`.
 *
 * MT safe.
 */
void
gnn_generator_manual_seed (GnnGenerator *self,
                           guint64       seed)
{
  g_return_if_fail (GNN_IS_GENERATOR (self));
  gnn_generator_set_state (self, seed, 0);
}

/**
 * gnn_generator_get_seed:
 * @self: a generator
 *
 * Gets [property@Gnn.Generator:seed].
 *
 * Returns: the seed
 *
 * MT safe.
 */
guint64
gnn_generator_get_seed (GnnGenerator *self)
{
  guint64 v;

  g_return_val_if_fail (GNN_IS_GENERATOR (self), 0);
  g_mutex_lock (&self->lock);
  v = self->seed;
  g_mutex_unlock (&self->lock);
  return v;
}

/**
 * gnn_generator_get_offset:
 * @self: a generator
 *
 * Gets [property@Gnn.Generator:offset].
 *
 * Returns: how far into its stream the generator is
 *
 * MT safe.
 */
guint64
gnn_generator_get_offset (GnnGenerator *self)
{
  guint64 v;

  g_return_val_if_fail (GNN_IS_GENERATOR (self), 0);
  g_mutex_lock (&self->lock);
  v = self->offset;
  g_mutex_unlock (&self->lock);
  return v;
}

/**
 * gnn_generator_set_state:
 * @self: a generator
 * @seed: the seed
 * @offset: the offset into the stream
 *
 * Restores a state read with [method@Gnn.Generator.get_seed] and
 * [method@Gnn.Generator.get_offset], so that the same numbers follow.
 *
 * MT safe.
 */
void
gnn_generator_set_state (GnnGenerator *self,
                         guint64       seed,
                         guint64       offset)
{
  gboolean seed_changed, offset_changed;

  g_return_if_fail (GNN_IS_GENERATOR (self));
  g_mutex_lock (&self->lock);
  seed_changed = self->seed != seed;
  offset_changed = self->offset != offset;
  self->seed = seed;
  self->offset = offset;
  g_mutex_unlock (&self->lock);
  if (seed_changed)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SEED]);
  if (offset_changed)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_OFFSET]);
}

/**
 * gnn_generator_reserve:
 * @self: a generator
 * @count: how many counter values to take
 *
 * Takes @count values of the stream for a kernel and advances the offset past them.
 * Kernels call this; users need not.
 *
 * Returns: the offset of the first value taken
 *
 * MT safe.
 */
guint64
gnn_generator_reserve (GnnGenerator *self,
                       guint64       count)
{
  guint64 start;

  g_return_val_if_fail (GNN_IS_GENERATOR (self), 0);
  g_mutex_lock (&self->lock);
  start = self->offset;
  self->offset += count;
  g_mutex_unlock (&self->lock);
  return start;
}

/**
 * gnn_manual_seed:
 * @seed: the seed
 *
 * Seeds the default generator, as `torch.manual_seed`.
 *
 * MT safe.
 */
void
gnn_manual_seed (guint64 seed)
{
  gnn_generator_manual_seed (gnn_generator_get_default (), seed);
}
