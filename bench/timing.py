"""What the Python halves of the benchmarks share: timing a set of functions the way the C
benchmarks do, and reading a C benchmark's tab-separated output."""
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
