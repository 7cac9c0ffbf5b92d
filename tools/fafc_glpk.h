/* SPDX-License-Identifier: GPL-2.0 */
/*
 * FAFC's pause LP solved by GLPK's simplex, as the paper
 * solves it: fafcd's default solver, and the reference the core's greedy
 * (fafc_lp_solve()) is tested against.
 */
#ifndef FCQ_TOOLS_FAFC_GLPK_H
#define FCQ_TOOLS_FAFC_GLPK_H

/*
 * min sum R_i x_i  s.t.  sum a_i x_i >= D, 0 <= x_i <= 1, with a_i, R_i >= 0.
 * Returns 0 with an optimal x (D <= 0: all zero); -1 if infeasible
 * (sum a_i < D: x_i = 1 where a_i > 0, else 0); -2 if GLPK found no optimum
 * (x all zero).
 */
int fafc_glpk_solve(int n, const double *a, const double *R, double D,
		    double *x);

#endif /* FCQ_TOOLS_FAFC_GLPK_H */
