#!/bin/sh
# run-mpi.sh NP PROGRAM ARGS...: PROGRAM under `mpirun -np NP` on this machine, over shared
# memory and loopback; exit 77 (a skip) when mpirun or the MPI module is absent.
# SPDX-License-Identifier: LGPL-2.1-or-later
np=$1; shift
command -v mpirun >/dev/null 2>&1 || { echo "mpirun not found: skipped"; exit 77; }
found=
for d in $(echo "${GNN_DISTRIBUTED_PATH:-}" | tr ':' ' '); do
  [ -e "$d/libgnn-distributed-mpi.so" ] && found=1
done
[ -n "$found" ] || { echo "the MPI module was not built: skipped"; exit 77; }
# Under LeakSanitizer (the sanitizer setup asan), full stacks: Open MPI is built without frame
# pointers, and tests/lsan.supp matches its leaks by the libraries up the stack
case "${ASAN_OPTIONS:-}" in
  *detect_leaks=1*) export ASAN_OPTIONS="$ASAN_OPTIONS:fast_unwind_on_malloc=0" ;;
esac
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
exec mpirun -np "$np" --oversubscribe --bind-to none --mca btl self,vader \
  --mca mpi_yield_when_idle 1 --mca btl_vader_single_copy_mechanism none "$@"
