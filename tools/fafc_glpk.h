/* SPDX-License-Identifier: GPL-2.0 */
/*
 * FAFC's pause LP solved by GLPK's simplex, as the paper
 * solves it: fafcd's default solver, and the reference the core's greedy
 * (fafc_lp_solve()) is tested against.
 */
#ifndef FCQ_TOOLS_FAFC_GLPK_H
#define FCQ_TOOLS_FAFC_GLPK_H

#include <stdbool.h>

#include "core/fafc.h"

/*
 * min sum R_i x_i  s.t.  sum a_i x_i >= D, 0 <= x_i <= 1, with
 * 0 <= a_i, R_i <= FAFC_RATE_MAX. Returns 0 with an optimal x (D <= 0: all
 * zero); -1 if infeasible (sum a_i < D: x_i = 1 where a_i > 0, else 0); -2
 * if GLPK found no optimum (x all zero). Ties (ports of equal R_i / a_i)
 * as fafc_lp_solve() resolves them: @vertex, the simplex's vertex as it
 * is; else spread, every member of a tie group paused the same fraction.
 */
int fafc_glpk_solve(int n, const s64 *a, const s64 *R, s64 D, bool vertex,
		    double *x);

#endif /* FCQ_TOOLS_FAFC_GLPK_H */
