// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of core/dsm.c, and of the DSM paper's model in tools/cnsim.c
 * running it: the sums S1 and S2 against their definition (eq. 25), the
 * regions of eq. 24 and its boundaries, eq. 27's bound, the paper's
 * default gains (sec. V.A) and the omega eq. 23 needs, the prediction
 * against the model's future with one constant delay (eqs. 9, 13: exact),
 * a change of horizon forgetting the steps but not the last queue, the
 * sums going on from the steps as they went out (dsm_cp_amend()),
 * the reaction point's rule (eq. 26, the CPID rule, its bounds), and in
 * the model one source converging to q0 for m = 1, 4 and 10 where the
 * law designed without delay (m = 0) oscillates; the room bound
 * (dsm_src_rate(), dsm_room_bound()), and in the model the paper's five
 * sources at 300 us held at q0 with it, starved without it; and the model
 * sampling per S bytes arrived, as the qdisc does.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "core/dsm.h"
#include "tools/cnsim.h"

/* The paper's defaults at 10 Gbit/s: T = 80 us, H = 20 kHz, m = 4. */
#define T_PAPER		80000
#define H_PAPER		20000000	/* mHz */

static struct dsm_cfg paper_cfg(u32 m)
{
	struct dsm_cfg c = {
		.q0 = 64000, .s = 100000, .m = m,
		.ga = dsm_gain(H_PAPER, T_PAPER, dsm_div_a(m)),
		.gb = dsm_gain(H_PAPER, T_PAPER, dsm_div_b(m)),
		.gc = dsm_gain(H_PAPER, T_PAPER, DSM_DIV_C),
	};

	c.omega = dsm_omega_min(c.gb);
	return c;
}

static void paper_gains(void **state)
{
	/* a T = 1.6 / 34, b T = 1.6 / 11, c T = 0.8, in Q20 */
	assert_int_equal(dsm_div_a(4), 34);
	assert_int_equal(dsm_div_b(4), 11);
	assert_int_equal(dsm_gain(H_PAPER, T_PAPER, 34), 49344);
	assert_int_equal(dsm_gain(H_PAPER, T_PAPER, 11), 152520);
	assert_int_equal(dsm_gain(H_PAPER, T_PAPER, DSM_DIV_C), 838860);
	/* H = 0.8 * 2 / T */
	assert_int_equal(dsm_h_default(T_PAPER), H_PAPER);
	/*
	 * eq. 23 wants b > 1 / ((omega + 1) T): 1 / (b T) - 1 = 5.875 for
	 * m = 4, so the paper's omega = 5 falls short and 6 is the least;
	 * 14 for m = 10 (b T = 1.6 / 23).
	 */
	assert_int_equal(dsm_omega_min(152520), 6 << DSM_OMEGA_SHIFT);
	assert_int_equal(dsm_omega_min(dsm_gain(H_PAPER, T_PAPER,
						dsm_div_b(10))),
			 14 << DSM_OMEGA_SHIFT);
	assert_int_equal(dsm_omega_min(2 << DSM_GAIN_SHIFT),
			 1 << DSM_OMEGA_SHIFT);
	assert_int_equal(dsm_omega_min(0), 0);
	/* F_b of a step of S = 100 kB per 80 us: C, 10 Gbit/s */
	assert_true(dsm_fb_bps(100000, T_PAPER) == 10000000000LL);
	assert_true(dsm_fb_bps(-100000, T_PAPER) == -10000000000LL);
}

/* The sums of eq. 25 kept by the recursion against their definition. */
static void sums_match_definition(void **state)
{
	u32 ms[] = { 1, 2, 4, 10, DSM_M_MAX }, rnd = 7, i, k;
	s64 u[4096];

	for (i = 0; i < sizeof(ms) / sizeof(ms[0]); i++) {
		struct dsm_cfg c = paper_cfg(ms[i]);
		struct dsm_cp cp;
		struct dsm_fb fb;

		dsm_cp_init(&cp);
		for (k = 0; k < 4096; k++) {
			s64 s1 = 0, s2 = 0;
			u32 j, q = fcq_xorshift32(&rnd) % 128000;

			for (j = 1; j <= c.m && j <= k; j++) {
				s1 += u[k - j];
				s2 += (s64)j * u[k - j];
			}
			u[k] = dsm_cp_sample(&cp, &c, q, &fb);
			assert_true(fb.qvh == fb.qv + s1);
			assert_true(fb.qfh == fb.qf + (s64)c.m * fb.qv + s2);
		}
	}
}

/* ^Q_f and ^Q_v as the caller wants them: a fresh CP, q_old set. */
static struct dsm_fb at(const struct dsm_cfg *c, s64 qfh, s64 qvh)
{
	struct dsm_cfg m0 = *c;
	struct dsm_cp cp;
	struct dsm_fb fb;

	m0.m = 0;		/* then ^Q = Q */
	dsm_cp_init(&cp);
	cp.q_old = (s64)c->q0 + qfh - qvh;
	dsm_cp_sample(&cp, &m0, (u32)(c->q0 + qfh), &fb);
	return fb;
}

static void regions_and_boundaries(void **state)
{
	struct dsm_cfg c = paper_cfg(4);
	struct dsm_fb fb;

	c.omega = 5 << DSM_OMEGA_SHIFT;
	c.q0 = 1000000;		/* room for negative offsets */
	c.s = 1 << 30;		/* no bound: the law's own steps */
	/* quadrants I and III: StateC, -c ^Q_f */
	fb = at(&c, 10000, 100);
	assert_int_equal(fb.region, DSM_STATE_C);
	assert_true(fb.u == -((10000LL * c.gc) >> 20));
	fb = at(&c, -10000, -100);
	assert_int_equal(fb.region, DSM_STATE_C);
	assert_true(fb.u == (10000LL * c.gc) >> 20);
	/* II below the line (delta < 0): StateA, an increase */
	fb = at(&c, -10000, 1000);
	assert_int_equal(fb.region, DSM_STATE_A);
	assert_true(fb.u == (10000LL * c.ga) >> 20);
	/* II above it (delta = -10000 + 5 * 3000 > 0): StateB, a decrease */
	fb = at(&c, -10000, 3000);
	assert_int_equal(fb.region, DSM_STATE_B);
	assert_true(fb.u == -((3000LL * c.gb) >> 20));
	/* IV: delta > 0 StateA (decrease), delta < 0 StateB (increase) */
	fb = at(&c, 10000, -1000);
	assert_int_equal(fb.region, DSM_STATE_A);
	assert_true(fb.u == -((10000LL * c.ga) >> 20));
	fb = at(&c, 10000, -3000);
	assert_int_equal(fb.region, DSM_STATE_B);
	assert_true(fb.u == (3000LL * c.gb) >> 20);
	/* on the axes and the line: A's law, but on the ^Q_v axis B's */
	fb = at(&c, 10000, 0);
	assert_int_equal(fb.region, DSM_STATE_A);
	fb = at(&c, 0, 3000);
	assert_int_equal(fb.region, DSM_STATE_B);
	assert_true(fb.u == -((3000LL * c.gb) >> 20));
	fb = at(&c, -10000, 2000);	/* delta = 0 */
	assert_int_equal(fb.region, DSM_STATE_A);
	assert_true(fb.u == (10000LL * c.ga) >> 20);
	fb = at(&c, 0, 0);
	assert_int_equal(fb.region, DSM_ORIGIN);
	assert_true(fb.u == 0);
	assert_false(fb.clamped);
}

/* eq. 27: a step of at most S bytes per sample, C. */
static void step_bounded(void **state)
{
	struct dsm_cfg c = paper_cfg(4);
	struct dsm_fb fb;

	c.q0 = 1000000;
	fb = at(&c, 500000, 500000);	/* StateC: -0.8 * 500 kB */
	assert_true(fb.clamped);
	assert_true(fb.u == -(s64)c.s);
	fb = at(&c, -500000, -500000);
	assert_true(fb.clamped);
	assert_true(fb.u == (s64)c.s);
	fb = at(&c, 100000, 100000);	/* -80 kB: within */
	assert_false(fb.clamped);
}

/*
 * The model with one constant delay of m samples (eq. 9, no disturbance):
 * a step U(k) changes Q_v from Q_v(k + m + 1) on. The prediction of eq. 25
 * is then the future exactly (eq. 13): ^Q_f(k) = Q_f(k + m) and ^Q_v(k) =
 * Q_v(k + m), sample by sample, in closed loop.
 */
static void prediction_exact(void **state)
{
	enum { K = 600 };
	u32 ms[] = { 1, 4, 10 }, i, k;
	s64 q[K + 32], qv[K + 32], u[K], qfh[K], qvh[K];

	for (i = 0; i < 3; i++) {
		struct dsm_cfg c = paper_cfg(ms[i]);
		struct dsm_cp cp;
		struct dsm_fb fb;

		c.q0 = 1 << 30;		/* far from empty or full */
		dsm_cp_init(&cp);
		cp.q_old = c.q0 + 50000;
		q[0] = c.q0 + 90000;	/* 90 kB over q0, rising 40 kB */
		qv[0] = 40000;
		for (k = 0; k < K; k++) {
			u[k] = dsm_cp_sample(&cp, &c, (u32)q[k], &fb);
			qfh[k] = fb.qfh;
			qvh[k] = fb.qvh;
			qv[k + 1] = qv[k] + (k >= c.m ? u[k - c.m] : 0);
			q[k + 1] = q[k] + qv[k + 1];
		}
		for (k = 0; k + c.m < K; k++) {
			assert_true(qfh[k] == q[k + c.m] - (s64)c.q0);
			assert_true(qvh[k] == qv[k + c.m]);
		}
		/* and it settles at q0 */
		assert_true(q[K - 1] - (s64)c.q0 < 64 &&
			    q[K - 1] - (s64)c.q0 > -64);
	}
}

/*
 * What went out replaces the law's step: the sums of eq. 25 over the
 * steps as amended, 0 for every third (no CNM), the rest rounded through
 * kbit/s.
 */
static void amend_keeps_sums(void **state)
{
	struct dsm_cfg c = paper_cfg(4);
	u32 rnd = 11, k, j;
	struct dsm_cp cp;
	struct dsm_fb fb;
	s64 kept[600];

	dsm_cp_init(&cp);
	for (k = 0; k < 600; k++) {
		s64 s1 = 0, s2 = 0, u;

		for (j = 1; j <= c.m && j <= k; j++) {
			s1 += kept[k - j];
			s2 += (s64)j * kept[k - j];
		}
		u = dsm_cp_sample(&cp, &c, fcq_xorshift32(&rnd) % 128000, &fb);
		assert_true(fb.qvh == fb.qv + s1);
		assert_true(fb.qfh == fb.qf + (s64)c.m * fb.qv + s2);
		kept[k] = k % 3 ? dsm_kbps_bytes((s32)(dsm_fb_bps(u, T_PAPER) /
						       1000), T_PAPER) : 0;
		dsm_cp_amend(&cp, &c, kept[k]);
	}
	/* 1 kbit/s for 80 us is 0.01 byte: rounded toward 0 */
	assert_true(dsm_kbps_bytes(-1234567, T_PAPER) == -12345);
	assert_true(dsm_kbps_bytes(1, T_PAPER) == 0);
}

/* A new horizon forgets the steps, not the last queue (Q_v goes on). */
static void forget_keeps_q_old(void **state)
{
	struct dsm_cfg c = paper_cfg(4);
	struct dsm_cp cp;
	struct dsm_fb fb;
	u32 k;

	dsm_cp_init(&cp);
	for (k = 0; k < 10; k++)
		dsm_cp_sample(&cp, &c, 100000 + 1000 * k, &fb);
	assert_true(cp.s1 != 0 && cp.s2 != 0);
	dsm_cp_forget(&cp);
	assert_true(cp.s1 == 0 && cp.s2 == 0 && cp.q_old == 109000);
	dsm_cp_sample(&cp, &c, 110000, &fb);
	assert_true(fb.qv == 1000);
	assert_true(fb.qfh == fb.qf + 4 * 1000 && fb.qvh == 1000);
}

static void rp_rule(void **state)
{
	static const u8 a[DSM_CPID_LEN] = { 1 }, b[DSM_CPID_LEN] = { 2 };
	struct dsm_rp_cfg c = { .line = 10000000000ULL, .r_min = 10000000 };
	struct dsm_rp rp;

	dsm_rp_init(&rp, &c);
	assert_true(rp.r == c.line);
	/* an increase before any decrease: no CPID kept, ignored */
	assert_int_equal(dsm_rp_cnm(&rp, &c, 1000000, a), DSM_RP_FOREIGN);
	assert_int_equal(dsm_rp_cnm(&rp, &c, 0, a), DSM_RP_NONE);
	/* eq. 26: r <- r + F_b */
	assert_int_equal(dsm_rp_cnm(&rp, &c, -3000000000LL, a), DSM_RP_DEC);
	assert_true(rp.r == 7000000000ULL);
	/* another CP's increase is ignored, its decrease applies */
	assert_int_equal(dsm_rp_cnm(&rp, &c, 1000000000, b), DSM_RP_FOREIGN);
	assert_true(rp.r == 7000000000ULL);
	assert_int_equal(dsm_rp_cnm(&rp, &c, -1000000000, b), DSM_RP_DEC);
	assert_int_equal(dsm_rp_cnm(&rp, &c, 500000000, a), DSM_RP_FOREIGN);
	assert_int_equal(dsm_rp_cnm(&rp, &c, 500000000, b), DSM_RP_INC);
	assert_true(rp.r == 6500000000ULL);
	/* the floor, counted as a cut short */
	assert_int_equal(dsm_rp_cnm(&rp, &c, -9000000000LL, b), DSM_RP_DEC);
	assert_true(rp.r == c.r_min);
	assert_true(rp.clamped == 1);
	/* back at line rate: capped, and the CPID forgotten */
	assert_int_equal(dsm_rp_cnm(&rp, &c, 20000000000LL, b), DSM_RP_INC);
	assert_true(rp.r == c.line);
	assert_true(rp.clamped == 2);
	assert_true(dsm_rp_idle(&rp, &c));
	assert_int_equal(dsm_rp_cnm(&rp, &c, 1000000, b), DSM_RP_FOREIGN);
	assert_true(rp.dec == 3 && rp.inc == 2 && rp.foreign == 4);
}

/*
 * One source behind a delay of @m T in cnsim (eqs. 7 and 8), starting at
 * 1.5 C with no rate ceiling, under DSM with horizon @law: into @r.
 */
static void one_source(u32 m, u32 law, struct cnsim_res *r)
{
	struct cnsim_cfg c;

	cnsim_dumbbell(&c, CNSIM_DSM, 10000000000ULL, 1, (u64)m * T_PAPER,
		       1 << 30, 64000, 100000, law, 0);
	c.dur_ns = 500000000;
	c.from_ns = 250000000;
	c.seed = 1;
	c.r0_bps = 15000000000ULL;
	c.dsm_rp.line = 1000000000000ULL;
	assert_int_equal(cnsim_run(&c, r, NULL, 0, NULL), 0);
}

/*
 * There DSM with horizon m converges to q0, where the same law designed
 * without delay (m = 0: no prediction, eq. 31's gains for m = 0) keeps
 * oscillating.
 */
static void converges_where_m0_oscillates(void **state)
{
	u32 ms[] = { 1, 4, 10 }, i;

	for (i = 0; i < 3; i++) {
		struct cnsim_res r, r0;

		one_source(ms[i], ms[i], &r);
		print_message("m %u: q %.0f sd %.0f util %.4f\n", ms[i],
			      r.q_mean, r.q_sd, r.util);
		assert_true(r.q_sd < 100);
		assert_true(r.q_mean > 63000 && r.q_mean < 65000);
		assert_true(r.util > 0.999);
		one_source(ms[i], 0, &r0);
		print_message("m %u, law of m 0: q %.0f sd %.0f empty %.3f\n",
			      ms[i], r0.q_mean, r0.q_sd, r0.p_empty);
		assert_true(r0.q_sd > 100 * r.q_sd + 20000);
		assert_true(r0.p_empty > 0.05);
	}
}

/* A step within [-r, S - r], r the source's bytes per period. */
static void room_bounds(void **state)
{
	struct dsm_cfg c = paper_cfg(4);

	/* 50 kB in half a period: 100 kB per period, capped at S */
	assert_int_equal(dsm_src_rate(&c, 50000, T_PAPER / 2, T_PAPER),
			 100000);
	assert_int_equal(dsm_src_rate(&c, 30000, T_PAPER * 2, T_PAPER),
			 15000);
	assert_int_equal(dsm_src_rate(&c, 30000, 0, T_PAPER), -1);
	/* a cut by at most the rate, a rise by at most the line's rest */
	assert_int_equal(dsm_room_bound(&c, -40000, 15000), -15000);
	assert_int_equal(dsm_room_bound(&c, 90000, 15000), 85000);
	assert_int_equal(dsm_room_bound(&c, -10000, 15000), -10000);
	assert_int_equal(dsm_room_bound(&c, 30000, 15000), 30000);
	/* a source at the line takes no rise, one at 0 no cut */
	assert_int_equal(dsm_room_bound(&c, 5000, 100000), 0);
	assert_int_equal(dsm_room_bound(&c, -5000, 0), 0);
	/* no rate known: the law's step */
	assert_int_equal(dsm_room_bound(&c, -90000, -1), -90000);
	(void)state;
}

/*
 * The paper's five sources at C behind a loop of @tau_ns in cnsim, DSM
 * with horizon @m, @room and @per_bytes as cnsim_cfg has them: into @r.
 */
static void five_sources(u64 tau_ns, u32 m, bool room, bool per_bytes,
			 struct cnsim_res *r)
{
	struct cnsim_cfg c;

	cnsim_dumbbell(&c, CNSIM_DSM, 10000000000ULL, 5, tau_ns, 128000,
		       64000, 100000, m, 0);
	c.dur_ns = 500000000;
	c.from_ns = 100000000;
	c.seed = 1;
	c.room = room;
	c.per_bytes = per_bytes;
	assert_int_equal(cnsim_run(&c, r, NULL, 0, NULL), 0);
	print_message("room %d per_bytes %d: q %.0f sd %.0f empty %.3f util %.4f samples %llu\n",
		      room, per_bytes, r->q_mean, r->q_sd, r->p_empty, r->util,
		      (unsigned long long)r->samples);
}

/*
 * The paper's E1 at 300 us in the model (five sources at C, feedback to
 * the sampled one): the paper's CP asks steps the sources cannot take and
 * leaves the link idle half of the time; bounded by their room, the
 * same law holds the queue at q0 with the link full.
 */
static void room_holds_q0(void **state)
{
	struct cnsim_res r[2];

	five_sources(300000, 4, false, false, &r[0]);
	five_sources(300000, 4, true, false, &r[1]);
	assert_true(r[0].p_empty > 0.3 && r[0].util < 0.8);
	assert_true(r[1].q_mean > 60000 && r[1].q_mean < 68000);
	assert_true(r[1].q_sd < 5000 && r[1].p_empty < 0.01);
	assert_true(r[1].util > 0.999);
	(void)state;
}

/*
 * Sampling every S bytes arrived, as the qdisc does (per_bytes): at the
 * paper's 100 us the paper's CP cuts every source to the floor and then
 * samples seldom, the link nearly idle (as on the wire), where a sample
 * every T keeps it 0.6 used; with room the law holds q0 either way.
 */
static void per_bytes_starves(void **state)
{
	struct cnsim_res r[3];

	five_sources(100000, 2, false, false, &r[0]);
	five_sources(100000, 2, false, true, &r[1]);
	five_sources(100000, 2, true, true, &r[2]);
	assert_true(r[0].util > 0.5);
	assert_true(r[1].util < 0.2 && r[1].p_empty > 0.8);
	assert_true(r[1].samples * 10 < r[0].samples);
	assert_true(r[2].util > 0.98 && r[2].p_empty < 0.05);
	(void)state;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(paper_gains),
		cmocka_unit_test(sums_match_definition),
		cmocka_unit_test(regions_and_boundaries),
		cmocka_unit_test(step_bounded),
		cmocka_unit_test(prediction_exact),
		cmocka_unit_test(amend_keeps_sums),
		cmocka_unit_test(forget_keeps_q_old),
		cmocka_unit_test(rp_rule),
		cmocka_unit_test(converges_where_m0_oscillates),
		cmocka_unit_test(room_bounds),
		cmocka_unit_test(room_holds_q0),
		cmocka_unit_test(per_bytes_starves),
	};

	return cmocka_run_group_tests_name("core/dsm", tests, NULL, NULL);
}
