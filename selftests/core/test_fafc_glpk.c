// SPDX-License-Identifier: GPL-2.0
/*
 * test_fafc_glpk - the core's greedy pause LP (fafc_lp_solve()) against
 * GLPK's simplex (tools/fafc_glpk.c, the paper's solver) on random
 * instances: the same optimum, the same feasibility verdict, and a greedy
 * answer that is feasible. Ties have many optima, so the solutions are
 * compared by objective, not vector.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <glpk.h>

#include "core/fafc.h"
#include "tools/fafc_glpk.h"

#define INSTANCES	10000
#define REL		1e-6

/* splitmix64: the same instances on every libc */
static u64 rng_state = 0xfafc2023;

static u64 rng(void)
{
	u64 z = (rng_state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static s64 uniform(s64 lo, s64 hi)
{
	return lo + (s64)(rng() % (u64)(hi - lo + 1));
}

static bool chance(int percent)
{
	return (int)(rng() % 100) < percent;
}

/* A rate of magnitude class @mag, at most the core's clamp. */
static s64 rate(int mag)
{
	switch (mag) {
	case 0:
		return uniform(1, 100);
	case 1:
		return uniform(1, 1000000);
	case 2:		/* log-uniform over the whole range */
		return uniform(1, fcq_min64(FAFC_RATE_MAX,
					    1LL << uniform(1, 31)));
	default:
		return uniform(FAFC_RATE_MAX - 1000, FAFC_RATE_MAX);
	}
}

struct inst {
	int n;
	s64 a[FAFC_PORTS_MAX], R[FAFC_PORTS_MAX], D, sum;
};

static void generate(struct inst *t)
{
	int pa0 = (int[]){ 0, 10, 50 }[rng() % 3];
	int pr0 = (int[]){ 0, 20, 60 }[rng() % 3];
	int ptie = (int[]){ 0, 30 }[rng() % 2];
	int amag = rng() % 4, rmag = rng() % 4, i;

	t->n = uniform(1, FAFC_PORTS_MAX);
	t->sum = 0;
	for (i = 0; i < t->n; i++) {
		t->a[i] = chance(pa0) ? 0 : rate(amag);
		t->R[i] = chance(pr0) ? 0 : rate(rmag);
		if (i && chance(ptie)) {
			/* the cost ratio of an earlier port, scaled by p */
			int j = uniform(0, i - 1), p = uniform(1, 4);

			if (t->a[j] * p > FAFC_RATE_MAX ||
			    t->R[j] * p > FAFC_RATE_MAX)
				p = 1;
			t->a[i] = t->a[j] * p;
			t->R[i] = t->R[j] * p;
		}
		t->sum += t->a[i];
	}
	switch (rng() % 10) {
	case 0:				/* not growing */
		t->D = -uniform(0, 1000);
		break;
	case 1:				/* infeasible, by 1 byte */
		t->D = t->sum + 1;
		break;
	case 2:				/* infeasible by more */
		t->D = t->sum + uniform(1, t->sum / 8 + 1);
		break;
	case 3:				/* just feasible: all paused */
		t->D = t->sum;
		break;
	case 4:				/* a single byte */
		t->D = 1;
		break;
	default:
		t->D = t->sum ? uniform(1, t->sum) : 1;
		break;
	}
}

/* Two ports with a > 0 and the same cost ratio. */
static bool has_tie(const struct inst *t)
{
	int i, j;

	for (i = 0; i < t->n; i++)
		for (j = i + 1; j < t->n; j++)
			if (t->a[i] > 0 && t->a[j] > 0 &&
			    !fafc_ratio_cmp(t->a, t->R, i, j))
				return true;
	return false;
}

static void dump(const struct inst *t, int k, bool vertex)
{
	int i;

	print_error("instance %d (%s): n %d D %lld sum %lld\n", k,
		    vertex ? "vertex" : "spread", t->n, t->D, t->sum);
	for (i = 0; i < t->n; i++)
		print_error("  a[%d] %lld R[%d] %lld\n", i, t->a[i], i,
			    t->R[i]);
}

#define CHECK(cond) do {					\
	if (!(cond)) {						\
		dump(t, k, vertex);				\
		fail_msg("%s", #cond);				\
	}							\
} while (0)

/*
 * One tie rule on one instance whose GLPK answer is (rc_l, xl, obj_l).
 * Returns whether the objectives needed the Q30 allowance; counts in
 * *split the spread answers that share a fraction among several ports.
 */
static bool check_greedy(const struct inst *t, int k, bool vertex, int rc_l,
			 const double *xl, double obj_l, int *split)
{
	unsigned __int128 cover = 0;
	double obj = 0, q = 0, tol;
	u32 x[FAFC_PORTS_MAX], xm = 0;
	u16 order[FAFC_PORTS_MAX];
	int i, rc, frac = 0;

	rc = fafc_lp_solve(t->n, t->a, t->R, t->D, vertex, x, order);
	CHECK(rc == rc_l);
	for (i = 0; i < t->n; i++) {
		CHECK(x[i] <= FAFC_X_ONE);
		if (t->a[i] == 0 || t->D <= 0)
			CHECK(x[i] == 0);
		else if (rc)
			CHECK(x[i] == FAFC_X_ONE);
	}
	if (rc || t->D <= 0)
		return false;

	for (i = 0; i < t->n; i++) {
		cover += (unsigned __int128)t->a[i] * x[i];
		obj += (double)t->R[i] * x[i] / FAFC_X_ONE;
		if (x[i] && x[i] < FAFC_X_ONE) {
			/* a fraction rounded up to the next 2^-30 */
			q += (double)t->R[i] / FAFC_X_ONE;
			frac++;
			/* spread: the marginal tie group shares one fraction */
			if (!vertex)
				CHECK(!xm || x[i] == xm);
			xm = x[i];
		}
	}
	CHECK(cover >= (unsigned __int128)t->D << 30);
	if (vertex)
		CHECK(frac <= 1);
	else
		*split += frac > 1;
	/* GLPK's answer may undershoot the optimum by its tolerance; the
	 * greedy's (feasible) one never, and overshoots by at most q.
	 */
	tol = REL * fmax(obj_l, 1);
	if (obj < obj_l - tol || obj > obj_l + tol + q)
		print_error("objective %.12g, GLPK's %.12g, Q30 rounding %g\n",
			    obj, obj_l, q);
	CHECK(obj >= obj_l - tol);
	CHECK(obj <= obj_l + tol + q);
	return obj > obj_l + tol;
}

/*
 * GLPK's answer with its ties spread (fafcd's default): the members of
 * each tie group (equal R_i / a_i, exactly) share one fraction, and the
 * cover and objective are those of GLPK's vertex (xl, obj_l), so it is as
 * optimal. Returns whether spreading changed the vertex.
 */
static bool check_spread(const struct inst *t, int k, int rc_l,
			 const double *xl, double obj_l)
{
	double xs[FAFC_PORTS_MAX], cover = 0, cover_l = 0, obj = 0;
	bool changed = false, vertex = false;
	int i, j, rc;

	rc = fafc_glpk_solve(t->n, t->a, t->R, t->D, vertex, xs);
	CHECK(rc == rc_l);
	for (i = 0; i < t->n; i++) {
		CHECK(xs[i] >= 0 && xs[i] <= 1);
		if (t->a[i] == 0 || rc || t->D <= 0) {
			CHECK(xs[i] == xl[i]);
			continue;
		}
		for (j = 0; j < i; j++)
			if (t->a[j] > 0 && !fafc_ratio_cmp(t->a, t->R, i, j))
				CHECK(xs[i] == xs[j]);
		changed |= fabs(xs[i] - xl[i]) > REL;
		cover += t->a[i] * xs[i];
		cover_l += t->a[i] * xl[i];
		obj += t->R[i] * xs[i];
	}
	if (rc || t->D <= 0)
		return false;
	CHECK(fabs(cover - cover_l) <= REL * fmax(cover_l, 1));
	CHECK(fabs(obj - obj_l) <= REL * fmax(obj_l, 1));
	return changed;
}

static void greedy_vs_glpk(void **state)
{
	int k, i, rc, infeasible = 0, idle = 0, ties = 0, free_groups = 0;
	int zero_a = 0, rounded = 0, total_ports = 0, split = 0;
	int spread_differs = 0;
	double xl[FAFC_PORTS_MAX], obj;
	bool vertex = false;
	struct inst inst, *t = &inst;

	for (k = 0; k < INSTANCES; k++) {
		int nfree = 0, nzero = 0;

		generate(t);
		total_ports += t->n;
		for (i = 0; i < t->n; i++) {
			nzero += t->a[i] == 0;
			nfree += t->a[i] > 0 && t->R[i] == 0;
		}
		rc = fafc_glpk_solve(t->n, t->a, t->R, t->D, true, xl);
		CHECK(rc == (t->D > 0 && t->sum < t->D ? -1 : 0));
		obj = 0;
		for (i = 0; i < t->n; i++) {
			CHECK(xl[i] >= 0 && xl[i] <= 1);
			if (t->a[i] == 0 || t->D <= 0)
				CHECK(xl[i] == 0);
			else if (rc)
				CHECK(xl[i] == 1);
			obj += t->R[i] * xl[i];
		}
		if (!rc && t->D > 0) {
			double cover = 0;

			for (i = 0; i < t->n; i++)
				cover += t->a[i] * xl[i];
			CHECK(cover >= t->D * (1 - REL));
		}

		for (vertex = false; ; vertex = true) {
			rounded += check_greedy(t, k, vertex, rc, xl, obj,
						&split);
			if (vertex)
				break;
		}
		spread_differs += check_spread(t, k, rc, xl, obj);

		if (t->D <= 0) {
			idle++;
		} else if (rc) {
			infeasible++;
		} else {
			ties += has_tie(t);
			free_groups += nfree > 1;
			zero_a += nzero > 0;
		}
	}
	print_message("%d instances (%d ports, both tie rules): %d with D <= 0, "
		      "%d infeasible; of the %d feasible, %d with ties (%d "
		      "spread over a tie at the margin), %d with an R = 0 "
		      "group, %d with a = 0 ports; %d greedy answers within "
		      "Q30 rounding but over %g relative; GLPK's vertex "
		      "spread over a tie in %d\n",
		      INSTANCES, total_ports, idle, infeasible,
		      INSTANCES - idle - infeasible, ties, split, free_groups,
		      zero_a, rounded, REL, spread_differs);
	assert_true(infeasible > INSTANCES / 10 && ties > INSTANCES / 10 &&
		    split > INSTANCES / 100 && spread_differs > INSTANCES / 100);
}

static int free_glpk(void **state)
{
	glp_free_env();
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(greedy_vs_glpk),
	};

	return cmocka_run_group_tests(tests, NULL, free_glpk);
}
