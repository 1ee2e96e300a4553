/* test-op-observer.c: the FLOP formulas of the op table, which the op observers of the
 * kernel dispatcher report
 */
#include "config.h"

#include "gnn-test-util.h"
#include "backend/gnn-backend-impl.h"

#define F32 GNN_DTYPE_FLOAT32
#define OP(x) GNN_BACKEND_OP_##x

/* ---- FLOP formulas ------------------------------------------------------------------ */

static void
test_flops (void)
{
  /* only shapes count: the data pointers stay NULL */
  GnnKernelTensor a = { NULL, F32, 3, { 2, 3, 4 } };    /* (batch, m, k) */
  GnnKernelTensor b = { NULL, F32, 3, { 2, 4, 5 } };    /* (batch, k, n) */
  GnnKernelTensor c = { NULL, F32, 3, { 2, 3, 5 } };    /* (batch, m, n) */
  GnnKernelTensor x = { NULL, F32, 4, { 2, 3, 6, 7 } };
  GnnKernelTensor pooled = { NULL, F32, 4, { 2, 3, 3, 6 } };
  GnnKernelTensor scalar = { NULL, F32, 0 };
  GnnKernelTensor pairs_out[2] = { { NULL, F32, 2, { 3, 4 } }, { NULL, F32, 1, { 5 } } };
  GnnKernelTensor pairs_in[2] = { { NULL, F32, 2, { 3, 4 } }, { NULL, F32, 1, { 5 } } };
  GnnKernelArgs args = { 0 };

  args.op = OP (GEMM);
  args.out = &c;
  args.in[0] = &a;
  args.in[1] = &b;
  args.n_in = 2;
  g_assert_cmpuint (gnn_backend_op_count_flops (&args), ==, 2 * 2 * 3 * 5 * 4);

  /* elementwise: one per element of out */
  args.op = OP (ADD);
  args.in[0] = args.in[1] = &c;
  g_assert_cmpuint (gnn_backend_op_count_flops (&args), ==, 30);
  args.op = OP (GELU_BACKWARD);
  g_assert_cmpuint (gnn_backend_op_count_flops (&args), ==, 30);
  args.out = &scalar;
  g_assert_cmpuint (gnn_backend_op_count_flops (&args), ==, 1);
  /* moving or choosing values costs none */
  args.op = OP (COPY);
  args.out = &c;
  g_assert_cmpuint (gnn_backend_op_count_flops (&args), ==, 0);
  args.op = OP (WHERE);
  g_assert_cmpuint (gnn_backend_op_count_flops (&args), ==, 0);

  /* reductions: per element of in0 and pass */
  memset (&args, 0, sizeof args);
  args.op = OP (SUM);
  args.out = &scalar;
  args.in[0] = &a;
  args.n_in = 1;
  args.params.reduce = (GnnKernelReduce) { 2, 3, 4, 0 };
  g_assert_cmpuint (gnn_backend_op_count_flops (&args), ==, 24);
  args.op = OP (VAR);
  g_assert_cmpuint (gnn_backend_op_count_flops (&args), ==, 48);
  args.op = OP (SOFTMAX);
  args.out = &a;
  g_assert_cmpuint (gnn_backend_op_count_flops (&args), ==, 72);

  /* windows: kh · kw per pooled element forward, per gradient element backward */
  memset (&args, 0, sizeof args);
  args.op = OP (MAX_POOL2D);
  args.out = &pooled;
  args.in[0] = &x;
  args.n_in = 1;
  args.params.window = (GnnKernelWindow) { { 3, 2 }, { 2, 1 }, { 1, 1 }, { 1, 1 } };
  g_assert_cmpuint (gnn_backend_op_count_flops (&args), ==, 2 * 3 * 3 * 6 * 3 * 2);
  args.op = OP (AVG_POOL2D_BACKWARD);
  args.out = &x;
  args.in[0] = &pooled;
  g_assert_cmpuint (gnn_backend_op_count_flops (&args), ==, 2 * 3 * 3 * 6 * 3 * 2);
  args.op = OP (COL2IM);
  g_assert_cmpuint (gnn_backend_op_count_flops (&args), ==, 2 * 3 * 3 * 6);
  args.op = OP (IM2COL);
  g_assert_cmpuint (gnn_backend_op_count_flops (&args), ==, 0);

  /* batch normalisation: the backward form of CHANNEL_AFFINE (with in2) does twice the work */
  memset (&args, 0, sizeof args);
  args.op = OP (CHANNEL_AFFINE);
  args.out = &c;
  args.in[0] = &c;
  args.in[1] = &b;
  args.n_in = 2;
  g_assert_cmpuint (gnn_backend_op_count_flops (&args), ==, 2 * 30);
  args.in[2] = &c;
  args.n_in = 3;
  g_assert_cmpuint (gnn_backend_op_count_flops (&args), ==, 4 * 30);

  /* multi-tensor kernels: the elements of every pair */
  memset (&args, 0, sizeof args);
  args.op = OP (FOREACH_LERP);
  args.list_out = pairs_out;
  args.list_in = pairs_in;
  args.n_list = 2;
  g_assert_cmpuint (gnn_backend_op_count_flops (&args), ==, 12 + 5);

  /* a malformed call (observers see calls before any backend checks them) counts as empty */
  memset (&args, 0, sizeof args);
  for (int op = 0; op <= GNN_BACKEND_OP_N_OPS; op++)
    {
      args.op = op;
      g_assert_cmpuint (gnn_backend_op_count_flops (&args), ==, 0);
    }
  args.op = OP (GEMM);
  args.out = &c;
  args.in[0] = &x;                                       /* not 3-d */
  g_assert_cmpuint (gnn_backend_op_count_flops (&args), ==, 0);
}

int
main (int argc, char *argv[])
{
  gnn_test_init (&argc, &argv);

  g_test_add_func ("/op-observer/flops", test_flops);

  return g_test_run ();
}
