"""torch.multinomial: gnn's draws come from its own generator, so they are compared with
torch's distribution, not with torch's numbers: category frequencies over many draws with a
fixed seed, within six standard deviations of the expected counts (fixed draws cannot
flake; a wrong distribution is off by tens of deviations)."""
import numpy as np
import torch

from gnntest import ParityTest, main, to_np
import gnn


class MultinomialTest(ParityTest):
    def assert_frequencies(self, draws, p, what):
        n = draws.size
        counts = np.bincount(draws.ravel(), minlength=len(p))
        for j, pj in enumerate(p):
            if pj == 0:
                self.assertEqual(counts[j], 0, '%s: category %d has weight zero' % (what, j))
            else:
                sd = np.sqrt(n * pj * (1 - pj))
                self.assertLess(abs(counts[j] - n * pj), 6 * sd, '%s: category %d' % (what, j))

    def test_with_replacement(self):
        w = np.array([[1.0, 3.0, 0.0, 4.0], [0.0, 2.0, 1.0, 1.0]], np.float32)
        g = gnn.Generator(); g.manual_seed(3)
        out = gnn.multinomial(gnn.tensor(w), 20000, replacement=True, generator=g)
        ref = torch.multinomial(torch.from_numpy(w), 20000, replacement=True)
        self.assertEqual(tuple(out.shape), tuple(ref.shape))
        self.assertEqual(out.dtype, gnn.int64)
        draws = to_np(out)
        for r in range(2):
            self.assert_frequencies(draws[r], w[r] / w[r].sum(), 'row %d' % r)

    def test_without_replacement(self):
        q = np.array([0.1, 0.2, 0.3, 0.4])
        gnn.manual_seed(5)
        rows = gnn.tensor(np.tile(q, (5000, 1)))
        draws = to_np(rows.multinomial(4))
        self.assertTrue((np.sort(draws, axis=1) == np.arange(4)).all(), 'each row a permutation')
        self.assert_frequencies(draws[:, 0], q, 'first draw')
        second = np.array([sum(q[i] * q[j] / (1 - q[i]) for i in range(4) if i != j) for j in range(4)])
        self.assert_frequencies(draws[:, 1], second, 'second draw')

    def test_one_dim_and_seed(self):
        p = gnn.tensor(np.array([0.0, 2.0, 1.0, 1.0]))
        gnn.manual_seed(11)
        a = to_np(gnn.multinomial(p, 3))
        gnn.manual_seed(11)
        b = to_np(p.multinomial(3, False))
        self.assertEqual(a.shape, (3,))
        np.testing.assert_array_equal(a, b)
        self.assertEqual(sorted(a.tolist()), [1, 2, 3])


if __name__ == '__main__':
    main()
