"""Imported for its effect, before numpy or torch: torch (and numpy) reach OpenBLAS through
libblas.so.3, which reads OPENBLAS_NUM_THREADS once, when it is loaded. Sets it from the
script's --threads (else GNN_NUM_THREADS, else the processor count) unless it is given."""
import os
import sys


def _threads_from_argv():
    for i, a in enumerate(sys.argv):
        if a == '--threads' and i + 1 < len(sys.argv):
            return sys.argv[i + 1]
        if a.startswith('--threads='):
            return a.split('=', 1)[1]
    return os.environ.get('GNN_NUM_THREADS') or str(os.cpu_count())


os.environ.setdefault('OPENBLAS_NUM_THREADS', _threads_from_argv())
