// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of core/qcn.c: Fb and its 6-bit quantization at the edges,
 * the sample count per I_s, 802.1Qau's interval table and its jitter,
 * occupancy sampling (chi-squared against q_n / q, by bytes and by buffer
 * unit; the argmax), the CulpritArray's bookkeeping, the paper's Fig. 3
 * case at one input (arrival sampling notifies the victim, occupancy
 * sampling does not), and reaction point trajectories against values
 * worked out by hand from the 802.1Qau rules.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "core/qcn.h"

/* The paper's CP: Q_eq 60 KB, I_s 150 KB; 802.1Qau's w = 2. */
static const struct qcn_cp_cfg cp_paper = {
	.q_eq = 60000, .w = 2, .i_s = 150000, .sample = QCN_SAMPLE_FIXED,
};

/*
 * Pearson's statistic of @obs against @p (per mille) over @n cells with
 * @total draws.
 */
static double chi2(const u32 *obs, const u32 *p, u32 n, u32 total)
{
	double x = 0;
	u32 i;

	for (i = 0; i < n; i++) {
		double e = (double)total * p[i] / 1000;

		x += (obs[i] - e) * (obs[i] - e) / e;
	}
	return x;
}

/* chi-squared quantile for 3 degrees of freedom at p = 0.001 */
#define CHI2_3DF_P001	16.27

static void quantize_edges(void **state)
{
	/* Fb_max = Q_eq (2w + 1) = 300 000 B; a step is 4 761.9 B. */
	assert_int_equal(qcn_quantize(0, &cp_paper), 0);
	assert_int_equal(qcn_quantize(-5, &cp_paper), 0);
	assert_int_equal(qcn_quantize(4761, &cp_paper), 0);
	assert_int_equal(qcn_quantize(4762, &cp_paper), 1);
	/* Q = Q_high = 110 KB, still: Fb = 50 KB, QntzFb 10 */
	assert_int_equal(qcn_quantize(50000, &cp_paper), 10);
	assert_int_equal(qcn_quantize(299999, &cp_paper), 62);
	assert_int_equal(qcn_quantize(300000, &cp_paper), 63);
	assert_int_equal(qcn_quantize(1LL << 40, &cp_paper), 63);
}

/* A frame of @len bytes arrives at a buffer of @q bytes, as sch_qcn calls. */
static enum qcn_cp_res arrive(struct qcn_cp *cp, const struct qcn_cp_cfg *c,
			      u32 q, u32 len, struct qcn_fb *fb)
{
	return qcn_cp_due(cp, len) ? qcn_cp_sample(cp, c, q, fb) : QCN_CP_NONE;
}

static void sample_feedback(void **state)
{
	enum qcn_cp_res res;
	struct qcn_cp cp;
	struct qcn_fb fb;
	int i;

	qcn_cp_init(&cp, &cp_paper, 1);
	/* 99 frames of 1500 B: no sample; the 100th completes I_s. */
	for (i = 0; i < 99; i++) {
		res = arrive(&cp, &cp_paper, 100000, 1500, &fb);
		assert_int_equal(res, QCN_CP_NONE);
	}
	assert_int_equal(arrive(&cp, &cp_paper, 100000, 1500, &fb),
			 QCN_CP_CNM);
	/* Q_off 40 000, Q_delta 100 000: Fb 240 000, QntzFb 50 */
	assert_int_equal(fb.qoff, 40000);
	assert_int_equal(fb.qdelta, 100000);
	assert_int_equal(fb.fb, 240000);
	assert_int_equal(fb.qfb, 50);
	/* Falling past Q_eq: Fb 10 000 - 2 * 30 000 < 0, no CNM */
	for (i = 0; i < 99; i++)
		arrive(&cp, &cp_paper, 70000, 1500, &fb);
	assert_int_equal(arrive(&cp, &cp_paper, 70000, 1500, &fb),
			 QCN_CP_CALM);
	assert_int_equal(fb.fb, -50000);
	assert_int_equal(fb.qfb, 0);
	/* Above Q_eq but falling fast: Fb = 1 000 - 2 * 9 000 < 0 */
	for (i = 0; i < 99; i++)
		arrive(&cp, &cp_paper, 61000, 1500, &fb);
	assert_int_equal(arrive(&cp, &cp_paper, 61000, 1500, &fb),
			 QCN_CP_CALM);
	assert_int_equal(fb.fb, 1000 - 2 * 9000);
	/* Below Q_eq but rising fast: Fb = -2 000 + 2 * 8 000, QntzFb 2 */
	for (i = 0; i < 100; i++)
		arrive(&cp, &cp_paper, 50000, 1500, &fb);
	for (i = 0; i < 99; i++)
		arrive(&cp, &cp_paper, 58000, 1500, &fb);
	assert_int_equal(arrive(&cp, &cp_paper, 58000, 1500, &fb),
			 QCN_CP_CNM);
	assert_int_equal(fb.fb, 14000);
	assert_int_equal(fb.qfb, 2);
}

static void samples_per_interval(void **state)
{
	struct qcn_cp cp;
	struct qcn_fb fb;
	u64 total = 0;
	u32 r = 7, samples = 0, len;
	int i;

	/* Frames of 64 to 1518 B: one sample per I_s, the excess carried. */
	qcn_cp_init(&cp, &cp_paper, 3);
	for (i = 0; i < 200000; i++) {
		len = 64 + fcq_xorshift32(&r) % 1455;
		total += len;
		if (arrive(&cp, &cp_paper, 0, len, &fb) != QCN_CP_NONE)
			samples++;
	}
	assert_int_equal(samples, total / cp_paper.i_s);
}

static void std_table_and_jitter(void **state)
{
	struct qcn_cp_cfg c = cp_paper;
	u32 lo[QCN_STD_TABLE_LEN], hi[QCN_STD_TABLE_LEN], v, r = 11;
	int qfb, k, i;

	c.sample = QCN_SAMPLE_STD;
	for (k = 0; k < QCN_STD_TABLE_LEN; k++) {
		lo[k] = ~0u;
		hi[k] = 0;
	}
	for (qfb = 0; qfb <= QCN_QFB_MAX; qfb++)
		for (i = 0; i < 2000; i++) {
			v = qcn_interval(&c, qfb, fcq_xorshift32(&r));
			k = qfb >> 3;
			lo[k] = v < lo[k] ? v : lo[k];
			hi[k] = v > hi[k] ? v : hi[k];
		}
	for (k = 0; k < QCN_STD_TABLE_LEN; k++) {
		u64 t = qcn_std_table[k];

		/* within U(0.85, 1.15) of the table, and spread over it */
		assert_true(lo[k] >= t * 85 / 100);
		assert_true(hi[k] <= t * 115 / 100);
		assert_true(lo[k] < t * 86 / 100);
		assert_true(hi[k] > t * 114 / 100);
	}
	/* The table scales with I_s; fixed sampling ignores QntzFb. */
	c.i_s = 75000;
	v = qcn_interval(&c, 0, 0);
	assert_int_equal(v, 75000 * 85 / 100);
	c.sample = QCN_SAMPLE_FIXED;
	assert_int_equal(qcn_interval(&c, 63, 12345), 75000);
}

static void std_next_sample(void **state)
{
	struct qcn_cp_cfg c = cp_paper;
	struct qcn_cp cp;
	struct qcn_fb fb;
	u32 n = 0;

	/*
	 * A first sample at Q = 90 000 (Q_old 0): Fb = 210 000, QntzFb 44,
	 * row 5 of the table: the next sample 25 000 B +-15 % on, less the
	 * excess carried (under a frame).
	 */
	c.sample = QCN_SAMPLE_STD;
	qcn_cp_init(&cp, &c, 5);
	while (arrive(&cp, &c, 90000, 100, &fb) == QCN_CP_NONE)
		;
	assert_int_equal(fb.qfb, 44);
	do {
		n += 100;
	} while (arrive(&cp, &c, 90000, 100, &fb) == QCN_CP_NONE);
	assert_true(n >= 25000 * 85 / 100 - 100);
	assert_true(n <= 25000 * 115 / 100 + 100);
}

static void pick_max(void **state)
{
	const u32 a[] = { 5, 9, 9, 1 }, zero[] = { 0, 0, 0 };

	assert_int_equal(qcn_pick_max(a, 4), 1);
	assert_int_equal(qcn_pick_max(zero, 3), 3);
	assert_int_equal(qcn_pick_max(a, 0), 0);
}

static void pick_bytes_proportional(void **state)
{
	const u32 bytes[] = { 1000, 0, 2000, 3000, 4000 };
	const u32 p[] = { 100, 200, 300, 400 };
	u32 obs[5] = { 0 }, got[4], r = 9;
	int i;

	for (i = 0; i < 100000; i++)
		obs[qcn_pick_bytes(bytes, 5, fcq_xorshift32(&r))]++;
	assert_int_equal(obs[1], 0);	/* an empty flow is never named */
	got[0] = obs[0];
	got[1] = obs[2];
	got[2] = obs[3];
	got[3] = obs[4];
	assert_true(chi2(got, p, 4, 100000) < CHI2_3DF_P001);
	/* The ends of the range: the first and the last byte. */
	assert_int_equal(qcn_pick_bytes(bytes, 5, 0), 0);
	assert_int_equal(qcn_pick_bytes(bytes, 5, ~0u), 4);
	assert_int_equal(qcn_pick_bytes(bytes, 1, 0), 0);
	assert_int_equal(qcn_pick_bytes(bytes + 1, 1, 5), 1);	/* empty */
}

#define NU	10

static void units_bookkeeping(void **state)
{
	u16 owner[NU], link[NU];
	struct qcn_units u;
	u32 a, b, c, i, held;

	qcn_units_init(&u, owner, link, NU, 1);
	assert_int_equal(qcn_units_pick(&u, 64), QCN_UNIT_NONE);
	a = qcn_units_take(&u, 3);
	b = qcn_units_take(&u, 4);
	assert_int_equal(a, 0);
	assert_int_equal(b, 3);
	assert_int_equal(u.nfree, 3);
	/* Not enough free: nothing taken. */
	assert_int_equal(qcn_units_take(&u, 4), QCN_UNIT_NONE);
	assert_int_equal(u.nfree, 3);
	assert_int_equal(qcn_units_take(&u, 0), QCN_UNIT_NONE);
	qcn_units_put(&u, a);
	assert_int_equal(u.nfree, 6);
	/* The freed units are reused: 5 of the 6 free, all named c. */
	c = qcn_units_take(&u, 5);
	assert_int_not_equal(c, QCN_UNIT_NONE);
	held = 0;
	for (i = 0; i < NU; i++) {
		if (owner[i] == c)
			held++;
		else
			assert_true(owner[i] == b || owner[i] == QCN_UNIT_NONE);
	}
	assert_int_equal(held, 5);
	assert_int_equal(u.nfree, 1);
	qcn_units_put(&u, b);
	qcn_units_put(&u, c);
	assert_int_equal(u.nfree, NU);
	/* A stale return (again, or out of range) frees nothing twice. */
	qcn_units_put(&u, c);
	qcn_units_put(&u, NU);
	assert_int_equal(u.nfree, NU);
	for (i = 0; i < NU; i++)
		assert_int_equal(owner[i], QCN_UNIT_NONE);
	/* Everything back: one frame may take all of them. */
	assert_int_not_equal(qcn_units_take(&u, NU), QCN_UNIT_NONE);
	assert_int_equal(u.nfree, 0);
}

static void units_pick_proportional(void **state)
{
	const u32 p[] = { 100, 200, 300, 400 };
	u16 owner[NU], link[NU];
	u32 head[4], obs[4] = { 0 }, i, k, h;
	struct qcn_units u;

	/* Frames of 1, 2, 3 and 4 units fill the array. */
	qcn_units_init(&u, owner, link, NU, 2);
	for (k = 0; k < 4; k++)
		head[k] = qcn_units_take(&u, k + 1);
	for (i = 0; i < 100000; i++) {
		h = qcn_units_pick(&u, 64);
		for (k = 0; k < 4 && head[k] != h; k++)
			;
		assert_true(k < 4);
		obs[k]++;
	}
	assert_true(chi2(obs, p, 4, 100000) < CHI2_3DF_P001);
	assert_int_equal(u.fallbacks, 0);	/* full: every probe hits */
}

static void units_fallback(void **state)
{
	u16 owner[1000], link[1000];
	struct qcn_units u;
	u32 a, i;

	/* 1 unit held of 1000: 4 probes mostly miss and the scan finds it. */
	qcn_units_init(&u, owner, link, 1000, 3);
	qcn_units_take(&u, 500);
	a = qcn_units_take(&u, 1);
	qcn_units_put(&u, 0);
	for (i = 0; i < 1000; i++)
		assert_int_equal(qcn_units_pick(&u, 4), a);
	assert_true(u.fallbacks > 950);
	u.fallbacks = 0;
	assert_int_equal(qcn_units_pick(&u, 0), a);
	assert_int_equal(u.fallbacks, 1);
}

/*
 * The paper's Fig. 3 at input 1, in frame times of the 10 Gb/s link: f1
 * arrives at 0.3 and leaves at 0.25 (its share of the hotspot), the victim
 * f6 arrives at 0.7 and leaves as it arrives (an idle output); arrivals
 * are Bernoulli, as periodic ones would alias with I_s. Arrival
 * sampling names f6 in 70 % of the CNMs; occupancy sampling names f1,
 * whose backlog grows while f6's stays within a frame.
 */
enum marking { ARRIVAL, OCC_BYTES, OCC_DET };

static u32 victim_cnms(enum marking m, u32 *total)
{
	struct qcn_cp cp;
	struct qcn_fb fb;
	u32 q[2] = { 0, 0 }, r = 17, cnms[2] = { 0, 0 }, who;
	/* rates in thousandths of a frame per step */
	const u32 in[2] = { 300, 700 }, out[2] = { 250, 1000 };
	u32 acc_out[2] = { 0, 0 };
	int t, f;

	qcn_cp_init(&cp, &cp_paper, 1);
	for (t = 0; t < 400000; t++) {
		for (f = 0; f < 2; f++) {
			if (fcq_xorshift32(&r) % 1000 >= in[f])
				continue;
			q[f] += 1500;
			if (arrive(&cp, &cp_paper, q[0] + q[1], 1500,
					   &fb) != QCN_CP_CNM)
				continue;
			if (m == ARRIVAL)
				who = f;
			else if (m == OCC_BYTES)
				who = qcn_pick_bytes(q, 2, fcq_xorshift32(&r));
			else
				who = qcn_pick_max(q, 2);
			cnms[who]++;
		}
		for (f = 0; f < 2; f++) {
			acc_out[f] += out[f];
			if (acc_out[f] >= 1000 && q[f]) {
				acc_out[f] -= 1000;
				q[f] -= 1500;
			} else if (!q[f]) {
				acc_out[f] = 0;	/* an idle output: no credit */
			}
		}
	}
	*total = cnms[0] + cnms[1];
	return cnms[1];
}

static void fig3_culprit_and_victim(void **state)
{
	u32 total, v;

	v = victim_cnms(ARRIVAL, &total);
	assert_true(total > 100);
	/* P(f6) = lambda_6 / lambda = 0.7 */
	assert_true(v * 100 >= total * 65 && v * 100 <= total * 75);
	v = victim_cnms(OCC_BYTES, &total);
	assert_true(total > 100);
	assert_true(v * 100 <= total * 1);
	v = victim_cnms(OCC_DET, &total);
	assert_true(total > 100);
	assert_int_equal(v, 0);
}

/* 802.1Qau's RP at 1 Gb/s, no jitter: the values below are by hand. */
static const struct qcn_rp_cfg rp_std = {
	.line = 1000000000, .r_min = 1000000, .r_ai = 5000000,
	.r_hai = 50000000, .t_ns = 15000000, .bc = 150000,
	.gd_log2 = 7, .min_dec_pct = 50, .f_thr = 5, .jitter = 0,
	.tr_reduce = 1,
};

#define T_NS	15000000ULL

static void rp_decrease_and_recovery(void **state)
{
	const u64 cr[] = { 875000000, 937500000, 968750000, 984375000,
			   992187500 };
	struct qcn_rp rp;
	int i;

	qcn_rp_init(&rp, &rp_std, 0, 1);
	assert_false(qcn_rp_cnm(&rp, &rp_std, 0, 0));	/* ignored */
	assert_int_equal(rp.cr, 1000000000);
	/* QntzFb 32: CR (1 - 32/128) = 750 Mb/s, TR = the old CR */
	assert_true(qcn_rp_cnm(&rp, &rp_std, 32, 0));
	assert_int_equal(rp.cr, 750000000);
	assert_int_equal(rp.tr, 1000000000);
	/* BC bytes end no cycle; one more does */
	qcn_rp_tx(&rp, &rp_std, 150000, 1000);
	assert_int_equal(rp.bc_cnt, 0);
	/* Five fast recovery cycles: CR half way to TR each time. */
	for (i = 0; i < 5; i++) {
		qcn_rp_tx(&rp, &rp_std, i ? 150001 : 1, 1000);
		assert_int_equal(rp.cr, cr[i]);
		assert_int_equal(rp.tr, 1000000000);
	}
	/* The 6th is active increase: TR + R_AI; the next cycle is BC/2. */
	qcn_rp_tx(&rp, &rp_std, 150001, 1000);
	assert_int_equal(rp.tr, 1005000000);
	assert_int_equal(rp.cr, (992187500 + 1005000000) / 2);
	assert_int_equal(rp.bc_left, 75000);
	/* The timer's 1st cycle at T: TR + R_AI again, CR capped at line. */
	qcn_rp_tx(&rp, &rp_std, 0, T_NS);
	assert_int_equal(rp.t_cnt, 1);
	assert_int_equal(rp.tr, 1010000000);
	assert_int_equal(rp.cr, 1000000000);
	assert_true(qcn_rp_idle(&rp, &rp_std));
}

static void rp_hyper_active(void **state)
{
	struct qcn_rp rp;

	qcn_rp_init(&rp, &rp_std, 0, 1);
	qcn_rp_cnm(&rp, &rp_std, 63, 0);		/* 507 812 500 */
	qcn_rp_tx(&rp, &rp_std, 150001, 0);		/* 753 906 250 */
	assert_int_equal(rp.cr, 753906250);
	/* After a byte cycle a CNM resets TR to CR. */
	qcn_rp_cnm(&rp, &rp_std, 63, 0);
	assert_int_equal(rp.tr, 753906250);
	assert_int_equal(rp.cr, 382843018);
	/* Five timer cycles of fast recovery, caught up at 5T. */
	qcn_rp_tx(&rp, &rp_std, 0, 5 * T_NS);
	assert_int_equal(rp.t_cnt, 5);
	assert_int_equal(rp.cr, 742310524);
	assert_int_equal(rp.t_next, 6 * T_NS);
	/* Six byte cycles: the 6th is active increase (the timer's at 5). */
	qcn_rp_tx(&rp, &rp_std, 150001, 5 * T_NS);
	qcn_rp_tx(&rp, &rp_std, 150001, 5 * T_NS);
	qcn_rp_tx(&rp, &rp_std, 150001, 5 * T_NS);
	qcn_rp_tx(&rp, &rp_std, 150001, 5 * T_NS);
	qcn_rp_tx(&rp, &rp_std, 150001, 5 * T_NS);
	assert_int_equal(rp.cr, 753543883);
	qcn_rp_tx(&rp, &rp_std, 150001, 5 * T_NS);
	assert_int_equal(rp.tr, 758906250);
	assert_int_equal(rp.cr, 756225066);
	/* Both past F_thr: TR + R_HAI (6 - 5), then T/2 cycles. */
	qcn_rp_tx(&rp, &rp_std, 0, 6 * T_NS);
	assert_int_equal(rp.tr, 808906250);
	assert_int_equal(rp.cr, 782565658);
	assert_int_equal(rp.t_next, 6 * T_NS + T_NS / 2);
	qcn_rp_tx(&rp, &rp_std, 0, 6 * T_NS + T_NS / 2);
	assert_int_equal(rp.t_cnt, 7);
	assert_int_equal(rp.tr, 858906250);
	assert_int_equal(rp.cr, 820735954);
}

static void rp_target_reduction(void **state)
{
	struct qcn_rp_cfg c = rp_std;
	struct qcn_rp rp;
	int i;

	/* Four CNMs in a row keep TR at line; CR falls to 66.5 Mb/s. */
	qcn_rp_init(&rp, &c, 0, 1);
	for (i = 0; i < 4; i++)
		qcn_rp_cnm(&rp, &c, 63, 0);
	assert_int_equal(rp.tr, 1000000000);
	assert_int_equal(rp.cr, 66498761);
	/* The 1st cycle finds TR > 10 CR: TR / 8, CR half way to it. */
	qcn_rp_tx(&rp, &c, 150001, 0);
	assert_int_equal(rp.tr, 125000000);
	assert_int_equal(rp.cr, (66498761 + 125000000) / 2);
	/* Without the rule: CR half way to line. */
	c.tr_reduce = 0;
	qcn_rp_init(&rp, &c, 0, 1);
	for (i = 0; i < 4; i++)
		qcn_rp_cnm(&rp, &c, 63, 0);
	qcn_rp_tx(&rp, &c, 150001, 0);
	assert_int_equal(rp.tr, 1000000000);
	assert_int_equal(rp.cr, (66498761 + 1000000000) / 2);
}

static void rp_bounds(void **state)
{
	struct qcn_rp_cfg c = rp_std;
	struct qcn_rp rp;
	int i;

	/* Gd 1/2 at QntzFb 63 would cut everything: MinDecFac caps at 50 %. */
	c.gd_log2 = 1;
	qcn_rp_init(&rp, &c, 0, 1);
	qcn_rp_cnm(&rp, &c, 63, 0);
	assert_int_equal(rp.cr, 500000000);
	/* Never below R_min. */
	for (i = 0; i < 100; i++)
		qcn_rp_cnm(&rp, &c, 63, 0);
	assert_int_equal(rp.cr, c.r_min);
	assert_int_equal(rp.cnms, 101);
	/* 800 ns for 100 B at 1 Mb/s */
	assert_int_equal(qcn_rp_gap_ns(&rp, 100), 800000);
	/* A long idle: the timer's cycles bring it back to line rate. */
	qcn_rp_tx(&rp, &c, 0, 1000ULL * FCQ_NS_PER_SEC);
	assert_true(qcn_rp_idle(&rp, &c));
	assert_int_equal(rp.t_next, 1000ULL * FCQ_NS_PER_SEC + T_NS);
	/* Without increase steps it never gets there: the catch-up stops. */
	c.r_ai = 0;
	qcn_rp_init(&rp, &c, 0, 1);
	qcn_rp_cnm(&rp, &c, 63, 0);
	qcn_rp_tx(&rp, &c, 150001, 0);
	qcn_rp_cnm(&rp, &c, 63, 0);
	qcn_rp_tx(&rp, &c, 0, 1000ULL * FCQ_NS_PER_SEC);
	assert_false(qcn_rp_idle(&rp, &c));
	assert_int_equal(rp.t_cnt, QCN_RP_CATCHUP_MAX);
	assert_true(rp.t_next > 1000ULL * FCQ_NS_PER_SEC);
}

static void rp_jitter(void **state)
{
	struct qcn_rp_cfg c = rp_std;
	u64 lo = ~0ULL, hi = 0, prev, d;
	struct qcn_rp rp;
	int i;

	/* Timer cycles drawn from U(0.85, 1.15) T (T/2 past F_thr). */
	c.jitter = 1;
	c.r_ai = 0;
	c.r_hai = 0;
	qcn_rp_init(&rp, &c, 0, 7);
	qcn_rp_cnm(&rp, &c, 63, 0);
	qcn_rp_tx(&rp, &c, 150001, 0);
	qcn_rp_cnm(&rp, &c, 63, 0);	/* TR = 753.9 Mb/s: below line */
	prev = rp.t_next;
	for (i = 0; i < 5; i++) {
		qcn_rp_tx(&rp, &c, 0, rp.t_next);
		d = rp.t_next - prev;
		prev = rp.t_next;
		lo = d < lo ? d : lo;
		hi = d > hi ? d : hi;
	}
	assert_true(lo >= T_NS * 85 / 100 && hi <= T_NS * 115 / 100);
	assert_true(lo != hi);
	qcn_rp_tx(&rp, &c, 0, rp.t_next);	/* the 6th: T/2 on */
	d = rp.t_next - prev;
	assert_true(d >= T_NS / 2 * 85 / 100 && d <= T_NS / 2 * 115 / 100);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(quantize_edges),
		cmocka_unit_test(sample_feedback),
		cmocka_unit_test(samples_per_interval),
		cmocka_unit_test(std_table_and_jitter),
		cmocka_unit_test(std_next_sample),
		cmocka_unit_test(pick_max),
		cmocka_unit_test(pick_bytes_proportional),
		cmocka_unit_test(units_bookkeeping),
		cmocka_unit_test(units_pick_proportional),
		cmocka_unit_test(units_fallback),
		cmocka_unit_test(fig3_culprit_and_victim),
		cmocka_unit_test(rp_decrease_and_recovery),
		cmocka_unit_test(rp_hyper_active),
		cmocka_unit_test(rp_target_reduction),
		cmocka_unit_test(rp_bounds),
		cmocka_unit_test(rp_jitter),
	};

	return cmocka_run_group_tests_name("core/qcn", tests, NULL, NULL);
}
