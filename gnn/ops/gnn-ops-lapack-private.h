/* gnn-ops-lapack-private.h: the LAPACK entry points gnn-ops-lapack.c calls
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The Fortran routines that OpenBLAS exports (nm -D libopenblas.so.0 lists them), declared
 * here so that no LAPACKE header or library is needed: every argument by address, matrices in
 * column-major order, a character argument followed by its hidden length at the end (the
 * gfortran convention; OpenBLAS's C reimplementations ignore it).
 */
#pragma once

#include <stddef.h>

void sgesv_  (const int *n, const int *nrhs, float *a, const int *lda, int *ipiv, float *b, const int *ldb,
              int *info);
void dgesv_  (const int *n, const int *nrhs, double *a, const int *lda, int *ipiv, double *b, const int *ldb,
              int *info);
void sgetrf_ (const int *m, const int *n, float *a, const int *lda, int *ipiv, int *info);
void dgetrf_ (const int *m, const int *n, double *a, const int *lda, int *ipiv, int *info);
void sgetri_ (const int *n, float *a, const int *lda, const int *ipiv, float *work, const int *lwork, int *info);
void dgetri_ (const int *n, double *a, const int *lda, const int *ipiv, double *work, const int *lwork, int *info);
void spotrf_ (const char *uplo, const int *n, float *a, const int *lda, int *info, size_t uplo_len);
void dpotrf_ (const char *uplo, const int *n, double *a, const int *lda, int *info, size_t uplo_len);
void sorgqr_ (const int *m, const int *n, const int *k, float *a, const int *lda, const float *tau, float *work,
              const int *lwork, int *info);
void dorgqr_ (const int *m, const int *n, const int *k, double *a, const int *lda, const double *tau,
              double *work, const int *lwork, int *info);
void sgeqrf_ (const int *m, const int *n, float *a, const int *lda, float *tau, float *work, const int *lwork,
              int *info);
void dgeqrf_ (const int *m, const int *n, double *a, const int *lda, double *tau, double *work, const int *lwork,
              int *info);
void ssyevd_ (const char *jobz, const char *uplo, const int *n, float *a, const int *lda, float *w, float *work,
              const int *lwork, int *iwork, const int *liwork, int *info, size_t jobz_len, size_t uplo_len);
void dsyevd_ (const char *jobz, const char *uplo, const int *n, double *a, const int *lda, double *w, double *work,
              const int *lwork, int *iwork, const int *liwork, int *info, size_t jobz_len, size_t uplo_len);
void sgesdd_ (const char *jobz, const int *m, const int *n, float *a, const int *lda, float *s, float *u,
              const int *ldu, float *vt, const int *ldvt, float *work, const int *lwork, int *iwork, int *info,
              size_t jobz_len);
void dgesdd_ (const char *jobz, const int *m, const int *n, double *a, const int *lda, double *s, double *u,
              const int *ldu, double *vt, const int *ldvt, double *work, const int *lwork, int *iwork, int *info,
              size_t jobz_len);
