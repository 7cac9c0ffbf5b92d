// SPDX-License-Identifier: GPL-2.0
/*
 * FAFC's pause LP by GLPK's primal simplex.
 */
#include <math.h>
#include <stdlib.h>
#include <glpk.h>

#include "fafc_glpk.h"

/*
 * Any optimum stays one when a tie group's members trade pause among
 * themselves: they cost the same per byte of demand. Each member gets the
 * group's covered share, sum a_i x_i / sum a_i, so the cover and the
 * objective are unchanged.
 */
static void spread_ties(int n, const s64 *a, const s64 *R, double *x)
{
	bool done[FAFC_PORTS_MAX] = { false };
	int i, j;

	for (i = 0; i < n; i++) {
		double cover = 0, A = 0;

		if (a[i] <= 0 || done[i])
			continue;
		for (j = i; j < n; j++)
			if (a[j] > 0 && !fafc_ratio_cmp(a, R, i, j)) {
				cover += a[j] * x[j];
				A += a[j];
			}
		for (j = i; j < n; j++)
			if (a[j] > 0 && !fafc_ratio_cmp(a, R, i, j)) {
				x[j] = fmin(cover / A, 1);
				done[j] = true;
			}
	}
}

int fafc_glpk_solve(int n, const s64 *a, const s64 *R, s64 D, bool vertex,
		    double *x)
{
	double cmin = 0, *val;
	int i, j, m = 0, ret = -2, *ind, *port;
	glp_smcp parm;
	glp_prob *lp;
	s64 sum = 0;

	for (i = 0; i < n; i++) {
		x[i] = 0;
		if (a[i] > 0)
			sum += a[i];
	}
	if (D <= 0)
		return 0;
	/*
	 * Feasibility is decided here, exactly: GLPK's primal tolerance is
	 * relative to D and would accept a deficit of a few bytes.
	 */
	if (sum < D) {
		for (i = 0; i < n; i++)
			x[i] = a[i] > 0;
		return -1;
	}

	/* GLPK's arrays count from 1. */
	ind = malloc((n + 1) * sizeof(*ind));
	port = malloc((n + 1) * sizeof(*port));
	val = malloc((n + 1) * sizeof(*val));
	if (!ind || !port || !val)
		goto out;

	/*
	 * Solved in y_i = a_i x_i / D, the share of the demand port i
	 * covers: min sum c_i y_i, sum y_i >= 1, 0 <= y_i <= a_i / D, the
	 * row all ones. The cost ratios R_i / a_i span 2^62 (rates are 1 to
	 * 2^31 bytes per T_hop), and GLPK 5 scales the objective to a
	 * largest coefficient of 1000 before its dual tolerance (1e-7)
	 * applies: costs under 1e-10 of the largest then look free, and the
	 * simplex keeps dear ports paused while a free one has room. With
	 * one row and box bounds, the optima depend only on the order of the
	 * costs and on which are 0 (the cheapest fill first), so the
	 * increasing map c_i = 1 + ln(ratio / smallest nonzero ratio), 0 for
	 * 0, has the same optima in [1, 44]; ratios within 1e-7 of each other
	 * may be taken for a tie, at that relative cost at most.
	 */
	for (i = 0; i < n; i++) {
		if (a[i] <= 0)		/* cannot help: stays unpaused */
			continue;
		port[++m] = i;
		if (R[i] > 0 && (!cmin || (double)R[i] / a[i] < cmin))
			cmin = (double)R[i] / a[i];
	}
	lp = glp_create_prob();
	glp_set_obj_dir(lp, GLP_MIN);
	glp_add_rows(lp, 1);
	glp_set_row_bnds(lp, 1, GLP_LO, 1, 0);
	glp_add_cols(lp, m);
	for (j = 1; j <= m; j++) {
		i = port[j];
		glp_set_col_bnds(lp, j, GLP_DB, 0, (double)a[i] / D);
		glp_set_obj_coef(lp, j, R[i] > 0 ?
				 1 + log((double)R[i] / a[i] / cmin) : 0);
		ind[j] = j;
		val[j] = 1;
	}
	glp_set_mat_row(lp, 1, m, ind, val);

	glp_init_smcp(&parm);
	parm.msg_lev = GLP_MSG_OFF;
	parm.tol_bnd = 1e-12;
	if (!glp_simplex(lp, &parm) && glp_get_status(lp) == GLP_OPT) {
		for (j = 1; j <= m; j++) {
			double v = glp_get_col_prim(lp, j) * D / a[port[j]];

			/* within the bound tolerance: clamp */
			x[port[j]] = v < 0 ? 0 : v > 1 ? 1 : v;
		}
		if (!vertex)
			spread_ties(n, a, R, x);
		ret = 0;
	}
	glp_delete_prob(lp);
out:
	free(ind);
	free(port);
	free(val);
	return ret;
}
