"""What the Python halves of the benchmarks share: timing a set of functions the way the C
benchmarks do, and reading a C benchmark's tab-separated output."""
import argparse
import os
import statistics
import subprocess
import time

N_BATCHES = 7


def calibrate(fn, seconds):
    """How many calls of fn take about seconds (warming fn up on the way)."""
    iterations = 1
    while True:
        t0 = time.perf_counter()
        for _ in range(iterations):
            fn()
        dt = time.perf_counter() - t0
        if dt >= seconds * 0.5:
            return max(1, int(iterations * seconds / dt))
        iterations *= min(10, max(2, int(seconds / dt))) if dt > 0 else 10


def measure_set(fns, batch_time, settle):
    """Seconds per call of each function, as the C benchmarks measure: batches of the functions
    alternate, N_BATCHES batches each of about batch_time, the median batch counts; before each
    batch, settle seconds of sleep let spinning BLAS / OpenMP threads of the previous one sleep."""
    iterations = [calibrate(fn, batch_time) for fn in fns]
    times = [[] for _ in fns]
    for _ in range(N_BATCHES):
        for k, fn in enumerate(fns):
            time.sleep(settle)
            t0 = time.perf_counter()
            for _ in range(iterations[k]):
                fn()
            times[k].append((time.perf_counter() - t0) / iterations[k])
    return [statistics.median(t) for t in times]


# the sleep before each batch of the side-by-side Python benchmarks
SIDE_BY_SIDE_SETTLE = 0.05


def side_by_side_args(doc, add_arguments=None, known_only=False):
    """The command line every gnn-next-to-torch Python benchmark takes: --threads (default
    $GNN_NUM_THREADS or 2), --min-time seconds per measurement set, --quick (0.4 s), and --sizes,
    which run-bench.sh passes to all of them and only bench_vs_torch.py reads; add_arguments
    (a function of the parser) adds a benchmark's own, and known_only ignores options it does
    not know (run-bench.sh passes bench_vs_torch.py's to every script)."""
    ap = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--threads', type=int, default=int(os.environ.get('GNN_NUM_THREADS', '2') or 2))
    ap.add_argument('--min-time', type=float, default=2.0, help='seconds per measurement set')
    ap.add_argument('--quick', action='store_true', help='0.4 s per measurement set')
    ap.add_argument('--sizes', help='ignored (the matmul sizes of bench_vs_torch.py)')
    if add_arguments:
        add_arguments(ap)
    args = ap.parse_known_args()[0] if known_only else ap.parse_args()
    if args.quick:
        args.min_time = 0.4
    return args


def measure_side_by_side(fns, min_time):
    """Seconds per call of each of fns, the whole set taking about min_time (measure_set's
    alternating batches)."""
    return measure_set(fns, min_time / N_BATCHES / len(fns), SIDE_BY_SIDE_SETTLE)


def run_c(cmd):
    """Runs a C benchmark; its results by name (lines `name<TAB>value<TAB>unit`) and its
    comment lines (`# ...`)."""
    proc = subprocess.run([str(c) for c in cmd], stdout=subprocess.PIPE, text=True, check=True)
    results, comments = {}, []
    for line in proc.stdout.splitlines():
        if line.startswith('#'):
            comments.append(line[1:].strip())
            continue
        name, value, _unit = line.split('\t')
        results[name] = float(value)
    return results, comments
