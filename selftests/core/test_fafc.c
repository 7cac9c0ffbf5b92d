// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of core/fafc.c: Holt prediction, egress triggering, the ECN
 * offset, the pause LP and the time-slot accounting (Documentation/fafc.rst, "Testing").
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "core/fafc.h"

#define THOP 250000ULL		/* ns */

static struct fafc_state st;

/* The LP's objective sum R_i x_i, in bytes (x in Q30). */
static s64 lp_objective(int n, const s64 *R, const u32 *x)
{
	s64 obj = 0;
	int i;

	for (i = 0; i < n; i++)
		obj += (s64)((u64)R[i] * x[i] >> 30);
	return obj;
}
static void *st_mem;

/* A zeroed state of @cap ports in memory of its own. */
static void *state_new(struct fafc_state *s, int cap)
{
	void *mem = calloc(1, fafc_state_size(cap));

	assert_non_null(mem);
	fafc_state_init(s, mem, cap);
	return mem;
}

static struct fafc_cfg cfg(u32 flags)
{
	struct fafc_cfg c = {
		.alpha = FAFC_ONE * 8 / 10, .beta = FAFC_ONE * 8 / 10,
		.fdec = FAFC_ONE * 8 / 10, .dec_win = 4, .horizon = 2,
		.th_p = 350000, .th_e = 200000, .th_c = 3125,
		.flags = flags,
	};
	return c;
}

static void reset(int n)
{
	free(st_mem);
	st_mem = state_new(&st, n);
	st.n = n;
}

/* A constant queue: the level converges to it, the trend to 0. */
static void holt_step(void **state)
{
	struct fafc_cfg c = cfg(FAFC_F_PRED);
	int t;

	reset(2);
	fafc_enqueue(&st, &c, 0, 1, 10000, false);
	for (t = 0; t < 40; t++)
		fafc_update_rate(&st, &c, 0, THOP);
	assert_true(fafc_pair(&st, 0, 1)->q > 9990 && fafc_pair(&st, 0, 1)->q <= 10000);
	assert_true(fafc_pair(&st, 0, 1)->r > -5 && fafc_pair(&st, 0, 1)->r < 5);
	assert_true(fafc_predict(&st, &c, 1) > 9980);
}

/* A ramp of 1000 bytes per T_hop: trend 1000, prediction 2 steps ahead. */
static void holt_ramp(void **state)
{
	u32 variants[] = { FAFC_F_PRED, FAFC_F_PRED | FAFC_F_TREND_HOLT };
	unsigned int v;
	int t;

	for (v = 0; v < 2; v++) {
		struct fafc_cfg c = cfg(variants[v]);

		reset(2);
		for (t = 0; t < 60; t++) {
			fafc_enqueue(&st, &c, 0, 1, 1000, false);
			fafc_update_rate(&st, &c, 0, THOP);
		}
		/* Rates are bytes per T_hop. */
		assert_true(st.eg[1].r > 990 && st.eg[1].r < 1010);
		assert_true(fafc_pair(&st, 0, 1)->rin > 990 && fafc_pair(&st, 0, 1)->rin < 1010);
		/* qPred = q + 2 r: the queue two steps from now. */
		assert_true(fafc_predict(&st, &c, 1) > 61000 &&
			    fafc_predict(&st, &c, 1) < 63000);
	}
}

static void trigger_and_mark(void **state)
{
	struct fafc_cfg c = cfg(FAFC_F_PRED | FAFC_F_ECN);
	unsigned int r;
	int t;

	reset(2);
	/* 250 kB queued and growing 60 kB per step: predicted 370 kB. */
	for (t = 0; t < 30; t++) {
		fafc_enqueue(&st, &c, 0, 1, 60000, false);
		fafc_dequeue(&st, &c, 0, 1, 60000);
		fafc_update_rate(&st, &c, 0, THOP);
	}
	r = fafc_dequeue(&st, &c, 0, 1, 0);
	assert_int_equal(r, 0);
	fafc_enqueue(&st, &c, 0, 1, 250000, false);
	for (t = 0; t < 8; t++) {
		fafc_enqueue(&st, &c, 0, 1, 60000, false);
		fafc_update_rate(&st, &c, 0, THOP);
	}
	r = fafc_dequeue(&st, &c, 0, 1, 1500);
	assert_true(r & FAFC_TRIGGER);
	assert_true(r & FAFC_MARK);
	/* Without prediction the raw queue decides. */
	c.flags = FAFC_F_ECN;
	r = fafc_dequeue(&st, &c, 0, 1, 1500);
	assert_int_equal(r, FAFC_TRIGGER | FAFC_MARK);
}

/* A reset queue gives its bytes back without counting as departures. */
static void drop_is_not_departure(void **state)
{
	struct fafc_cfg c = cfg(FAFC_F_PRED);

	reset(2);
	fafc_enqueue(&st, &c, 0, 1, 3000, false);
	fafc_drop(&st, 0, 1, 3000);
	assert_int_equal(fafc_pair(&st, 0, 1)->qr, 0);
	assert_int_equal(st.eg[1].qr, 0);
	assert_int_equal(fafc_pair(&st, 0, 1)->bout, 0);
	assert_int_equal(fafc_pair(&st, 0, 1)->bin, 3000);
}

/* Alg. 4: bytes queued while paused do not count toward marking. */
static void ecn_offset(void **state)
{
	struct fafc_cfg c = cfg(FAFC_F_ECN | FAFC_F_ECNOF);
	unsigned int r;

	reset(2);
	fafc_enqueue(&st, &c, 0, 1, 300000, true);	/* paused downstream */
	assert_int_equal(st.eg[1].ecnof, 300000);
	r = fafc_dequeue(&st, &c, 0, 1, 10000);	/* raw 290 kB < 200 + 290 */
	assert_false(r & FAFC_MARK);
	assert_int_equal(st.eg[1].ecnof, 290000);	/* min(q, ECNof) */
	fafc_enqueue(&st, &c, 0, 1, 250000, false);	/* real growth */
	r = fafc_dequeue(&st, &c, 0, 1, 10000);	/* 530 kB > 200 + 290 */
	assert_true(r & FAFC_MARK);
	/* Once the queue drains the offset is gone. */
	fafc_dequeue(&st, &c, 0, 1, 530000);
	assert_int_equal(st.eg[1].ecnof, 0);
}

static void lp_basics(void **state)
{
	/* Port 1 carries only incast (R = 0), port 2 also a victim. */
	const s64 a[3] = { 0, 1000, 1000 }, R[3] = { 5, 0, 800 };
	u32 x[3];
	u16 order[3];

	assert_int_equal(fafc_lp_solve(3, a, R, 0, false, x, order), 0);
	assert_int_equal(x[1] + x[2], 0);		/* D <= 0: no pause */

	assert_int_equal(fafc_lp_solve(3, a, R, 700, false, x, order), 0);
	assert_int_equal(x[0], 0);			/* a = 0: never */
	assert_true(x[1] >= FAFC_X_ONE / 10 * 7);	/* incast port first */
	assert_int_equal(x[2], 0);			/* victim spared */

	assert_int_equal(fafc_lp_solve(3, a, R, 1500, false, x, order), 0);
	assert_int_equal(x[1], FAFC_X_ONE);
	assert_true(x[2] >= FAFC_X_ONE / 2 && x[2] < FAFC_X_ONE / 2 + 4);
	assert_int_equal(lp_objective(3, R, x), 400);

	/* Infeasible: everyone who sends toward e, for a whole T_hop. */
	assert_int_equal(fafc_lp_solve(3, a, R, 2500, false, x, order), -1);
	assert_int_equal(x[1], FAFC_X_ONE);
	assert_int_equal(x[2], FAFC_X_ONE);
	assert_int_equal(x[0], 0);
}

static void lp_ties(void **state)
{
	const s64 a[4] = { 1000, 3000, 2000, 5000 }, R[4] = { 0, 0, 0, 100 };
	u32 x[4];
	u16 order[4];
	int i;

	/* spread: the three R = 0 ports share the pause equally. */
	assert_int_equal(fafc_lp_solve(4, a, R, 3000, false, x, order), 0);
	for (i = 0; i < 3; i++)
		assert_true(x[i] >= FAFC_X_ONE / 2 && x[i] <= FAFC_X_ONE / 2 + 1);
	assert_int_equal(x[3], 0);
	/* vertex: the biggest contributor first, one fractional port. */
	assert_int_equal(fafc_lp_solve(4, a, R, 3000, true, x, order), 0);
	assert_int_equal(x[1], FAFC_X_ONE);
	assert_int_equal(x[0] + x[2] + x[3], 0);
	assert_int_equal(fafc_lp_solve(4, a, R, 4000, true, x, order), 0);
	assert_int_equal(x[1], FAFC_X_ONE);
	assert_true(x[2] >= FAFC_X_ONE / 2 && x[2] <= FAFC_X_ONE / 2 + 1);
}

/*
 * The greedy is optimal: on random instances it is feasible, and a cost
 * ratio splits the ports into paused (below), idle (above) and at most one
 * partial tie group at it (the LP's dual certificate).
 */
static void lp_random_optimal(void **state)
{
	s64 a[FAFC_PORTS_MAX], R[FAFC_PORTS_MAX], cover;
	u32 x[FAFC_PORTS_MAX];
	u16 order[FAFC_PORTS_MAX];
	int t, i, j, n;

	srand(11);
	for (t = 0; t < 20000; t++) {
		s64 sum = 0, D;
		int rc;

		n = 1 + rand() % FAFC_PORTS_MAX;
		for (i = 0; i < n; i++) {
			a[i] = rand() % 4 ? rand() % 100000 : 0;
			R[i] = rand() % 3 ? rand() % 100000 : 0;
			sum += a[i];
		}
		D = (s64)(rand() % 1000) * (sum + 1) / 800 - sum / 10;
		rc = fafc_lp_solve(n, a, R, D, t & 1, x, order);
		if (D <= 0) {
			for (i = 0; i < n; i++)
				assert_int_equal(x[i], 0);
			continue;
		}
		if (sum < D) {
			assert_int_equal(rc, -1);
			continue;
		}
		assert_int_equal(rc, 0);
		cover = 0;
		for (i = 0; i < n; i++)
			cover += (s64)((u64)a[i] * x[i] >> 30) + 1;
		assert_true(cover >= D);
		/* No port with a partial or no pause is cheaper than a port
		 * paused more: exchange arguments find no improvement.
		 */
		for (i = 0; i < n; i++)
			for (j = 0; j < n; j++)
				if (a[i] && a[j] && x[i] < FAFC_X_ONE && x[j] > 0)
					assert_true((u64)R[i] * a[j] >= (u64)R[j] * a[i]);
	}
}

/* Alg. 1/2 slots: a lone pause is deducted, then added back, then gone
 * exactly two slots later ("or", not "and" [A9]).
 */
static void slots(void **state)
{
	struct fafc_cfg c = cfg(FAFC_F_PRED);
	int t;

	reset(2);
	for (t = 0; t < 40; t++) {	/* port 0 sends 10 kB per T_hop to 1 */
		fafc_enqueue(&st, &c, 0, 1, 10000, false);
		fafc_dequeue(&st, &c, 0, 1, 10000);
		fafc_update_rate(&st, &c, 0, THOP);
	}
	fafc_enqueue(&st, &c, 0, 1, 5000, false);	/* q_01 > 0: share 1 */
	/* Half a T_hop at 10 kB per T_hop: 5 kB deferred. */
	assert_true(fafc_paused(&st, 0, THOP / 2, 1000000, THOP));
	assert_true(st.in[0].next > 4900 && st.in[0].next < 5100);
	assert_true(st.eg[1].pausof < -4900);	/* deducted */
	assert_true(fafc_slot_expire(&st, 0, THOP));
	assert_true(st.eg[1].pausof > 4900);	/* added back */
	assert_false(fafc_slot_expire(&st, 0, THOP));
	assert_int_equal(st.eg[1].pausof, 0);
	assert_false(st.in[0].slot);
}

/* A pause late in a slot spills its residue T_i - tNext [A10]. */
static void slot_residue(void **state)
{
	struct fafc_cfg c = cfg(FAFC_F_PRED);
	int t;

	reset(2);
	for (t = 0; t < 40; t++) {
		fafc_enqueue(&st, &c, 0, 1, 10000, false);
		fafc_update_rate(&st, &c, 0, THOP);
	}
	fafc_paused(&st, 0, THOP / 4, 0, THOP);		/* 2.5 kB */
	/* 3/4 into the slot, another whole T_hop: 1/4 now, 3/4 next. */
	assert_false(fafc_paused(&st, 0, THOP, THOP * 3 / 4, THOP));
	assert_true(st.in[0].next > 4900 && st.in[0].next < 5100);
	assert_true(st.in[0].pending > 7400 && st.in[0].pending < 7600);
}

static void lp_build(void **state)
{
	struct fafc_cfg c = cfg(FAFC_F_PRED);
	s64 a[3], R[3], D, raw;
	int t;

	/* Ports 0 and 1 send to 2 (congested); port 1 also to 0, idle. */
	reset(3);
	for (t = 0; t < 40; t++) {
		fafc_enqueue(&st, &c, 0, 2, 20000, false);
		fafc_enqueue(&st, &c, 1, 2, 20000, false);
		fafc_dequeue(&st, &c, 1, 2, 20000);	/* drains half */
		fafc_enqueue(&st, &c, 1, 0, 5000, false);
		fafc_dequeue(&st, &c, 1, 0, 5000);
		fafc_update_rate(&st, &c, 0, THOP);
	}
	D = fafc_lp_build(&st, &c, 2, 1000, THOP, a, R, &raw);
	assert_true(D > 19000 && D < 21000);	/* growth per T_hop */
	assert_int_equal(D, raw);		/* no cap: the flag is off */
	assert_true(a[0] > 19000 && a[1] > 19000);
	assert_int_equal(R[0], 0);		/* only toward 2 */
	assert_true(R[1] > 4900);		/* also toward idle 0 */
	assert_int_equal(a[2], 0);
	/* Within dec_win T_hop of the last trigger: a * f_dec. */
	fafc_lp_build(&st, &c, 2, 1000 + THOP, THOP, a, R, &raw);
	assert_true(a[0] > 15000 && a[0] < 17000);
}

/*
 * E1 in small [A39]: port 0 sends 5000 per T_hop to the congested egress 2
 * and 20000 to port 3, port 1 20000 only to 2; 2 drains 20000. A large
 * pausOf_*e (bytes due back after a pause) makes Alg. 2's demand exceed
 * what pausing both removes. Uncapped, the LP is infeasible and pauses
 * port 0 too [A15]; capped at arrivals - departures (5000), port 1 alone
 * covers it and port 0 keeps sending.
 */
static void demand_cap(void **state)
{
	s64 a[4], R[4], D, raw;
	u32 x[4];
	u16 order[4];
	int cap, t;

	for (cap = 0; cap < 2; cap++) {
		struct fafc_cfg c = cfg(FAFC_F_PRED |
					(cap ? FAFC_F_DEMAND_CAP : 0));

		reset(4);
		for (t = 0; t < 40; t++) {
			fafc_enqueue(&st, &c, 0, 2, 5000, false);
			fafc_enqueue(&st, &c, 1, 2, 20000, false);
			fafc_dequeue(&st, &c, 1, 2, 20000);
			fafc_enqueue(&st, &c, 0, 3, 20000, false);
			fafc_dequeue(&st, &c, 0, 3, 20000);
			fafc_update_rate(&st, &c, 0, THOP);
		}
		st.eg[2].pausof = 30000;
		D = fafc_lp_build(&st, &c, 2, 1000, THOP, a, R, &raw);
		assert_true(raw > 34000 && raw < 36000);
		assert_true(a[0] + a[1] < raw);
		if (!cap) {
			assert_int_equal(D, raw);
			assert_int_equal(fafc_lp_solve(4, a, R, D, false, x, order), -1);
			assert_int_equal(x[0], FAFC_X_ONE);
			continue;
		}
		assert_true(D > 4900 && D < 5100);
		assert_int_equal(fafc_lp_solve(4, a, R, D, false, x, order), 0);
		assert_int_equal(x[0], 0);
		assert_true(x[1] > FAFC_X_ONE / 5 && x[1] < FAFC_X_ONE / 10 * 3);
		/* Within dec_win: a_i * f_dec, but the bound is physical. */
		D = fafc_lp_build(&st, &c, 2, 1000 + THOP, THOP, a, R, &raw);
		assert_true(a[1] > 15900 && a[1] < 16100);
		assert_true(D > 4900 && D < 5100);
	}
}

/* A late timer: growth is still counted per T_hop. */
static void late_step(void **state)
{
	struct fafc_cfg c = cfg(FAFC_F_PRED);
	u64 now = THOP;
	int t;

	reset(2);
	fafc_update_rate(&st, &c, now, THOP);
	for (t = 0; t < 60; t++) {
		/* 1000 bytes per T_hop, seen every 1.5 T_hop */
		fafc_enqueue(&st, &c, 0, 1, 1500, false);
		now += THOP * 3 / 2;
		fafc_update_rate(&st, &c, now, THOP);
	}
	assert_true(st.eg[1].r > 990 && st.eg[1].r < 1010);
	assert_true(fafc_pair(&st, 0, 1)->rin > 990 && fafc_pair(&st, 0, 1)->rin < 1010);
}

/*
 * [A38] An ingress we pause sends less: its rate is what it sends while
 * it may, not the dip the pause caused, so the next LP still knows what
 * pausing it removes. Paused throughout a step, its rate is kept.
 */
static void paused_rate(void **state)
{
	struct fafc_cfg c = cfg(FAFC_F_PRED);
	u64 now = THOP;
	int t;

	reset(2);
	fafc_update_rate(&st, &c, now, THOP);
	for (t = 0; t < 40; t++) {	/* 3000 bytes per T_hop */
		fafc_enqueue(&st, &c, 0, 1, 3000, false);
		now += THOP;
		fafc_update_rate(&st, &c, now, THOP);
	}
	/* Paused for half of each step (from one T_hop on): 1500 arrive. */
	fafc_paused(&st, 0, THOP / 2, now - THOP, THOP);
	for (t = 0; t < 20; t++) {
		fafc_enqueue(&st, &c, 0, 1, 1500, false);
		now += THOP;
		fafc_update_rate(&st, &c, now, THOP);
		fafc_paused(&st, 0, THOP / 2, now - THOP / 2, THOP);
	}
	assert_true(fafc_pair(&st, 0, 1)->rin > 2970 && fafc_pair(&st, 0, 1)->rin < 3030);
	/* Paused throughout (accumulated pauses): nothing arrives, rate kept. */
	fafc_paused(&st, 0, 20 * THOP, now - THOP / 2, THOP);
	for (t = 0; t < 10; t++) {
		if (!t)		/* the half step before the pause */
			fafc_enqueue(&st, &c, 0, 1, 1500, false);
		now += THOP;
		fafc_update_rate(&st, &c, now, THOP);
	}
	assert_true(fafc_pair(&st, 0, 1)->rin > 2970 && fafc_pair(&st, 0, 1)->rin < 3030);
	/* Port 1, never paused, measures plainly. */
	reset(2);
	now = THOP;
	fafc_update_rate(&st, &c, now, THOP);
	for (t = 0; t < 40; t++) {
		fafc_enqueue(&st, &c, 1, 0, 1500, false);
		now += THOP;
		fafc_update_rate(&st, &c, now, THOP);
	}
	assert_true(fafc_pair(&st, 1, 0)->rin > 1490 && fafc_pair(&st, 1, 0)->rin < 1510);
}

/*
 * One step of random traffic among @port: bursts for 100 steps of every
 * 300, then idle spells long enough for the rates to decay to 0; pauses,
 * drops, and an ingress whose packets leave at once (rates, no queue).
 */
static void traffic(struct fafc_state *s, const struct fafc_cfg *c,
		    const int *port, int t, u64 now)
{
	struct fafc_pair *p;
	int k, i, e;

	for (k = 0; t % 300 < 100 && k < 20; k++) {
		i = port[rand() % 8];
		e = port[rand() % 8];
		fafc_enqueue(s, c, i, e, 64 + rand() % 1500, false);
		p = fafc_pair(s, i, e);
		if (i == 0)
			fafc_dequeue(s, c, i, e, p->qr);
		else if (p->qr > 3000 && rand() % 2)
			fafc_dequeue(s, c, i, e, 1000);
		else if (p->qr > 3000)
			fafc_drop(s, i, e, 1000);
	}
	/* drain during the idle spell */
	for (i = 0; t % 300 >= 100 && i < 8; i++)
		for (e = 0; e < 8; e++) {
			p = fafc_pair(s, port[i], port[e]);
			if (p->qr)
				fafc_dequeue(s, c, port[i], port[e], p->qr);
		}
	if (t % 50 == 7)
		fafc_paused(s, port[rand() % 8], THOP, now, THOP);
}

/*
 * The rate update skips pairs whose values are all 0: against an update of
 * every pair, on random traffic with bursts, idle spells long enough for
 * the rates to decay to 0, pauses, drops and an ingress whose packets leave
 * at once (rates without a queue), the states stay identical.
 */
static void sparse_update(void **state)
{
	/* Ports on both sides of a bitmap word's edge. */
	static const int port[8] = { 0, 3, 31, 62, 63, 64, 65, 69 };
	u32 flags[] = { FAFC_F_PRED, FAFC_F_PRED | FAFC_F_TREND_HOLT };
	u64 now = THOP, skipped = 0;
	struct fafc_state full;
	void *full_mem;
	unsigned int v;
	int t, i, e;

	srand(7);
	for (v = 0; v < 2; v++) {
		struct fafc_cfg c = cfg(flags[v]);

		reset(70);
		full_mem = state_new(&full, 70);
		for (t = 0; t < 3000; t++) {
			traffic(&st, &c, port, t, now);
			fafc_state_move(&full, &st);
			memset(full.active, 0xff,
			       (size_t)full.cap * full.words * sizeof(u64));
			memset(full.eg_active, 0xff, full.words * sizeof(u64));
			now += THOP;
			fafc_update_rate(&st, &c, now, THOP);
			fafc_update_rate(&full, &c, now, THOP);
			for (i = 0; i < 8; i++)
				for (e = 0; e < 8; e++)
					skipped += !(st.active[port[i] * st.words +
							       port[e] / 64] &
						     1ULL << (port[e] % 64));
			assert_memory_equal(st.p, full.p,
					    70 * 70 * sizeof(*st.p));
			assert_memory_equal(st.eg, full.eg, 70 * sizeof(*st.eg));
			assert_memory_equal(st.in, full.in, 70 * sizeof(*st.in));
		}
		free(full_mem);
	}
	/* The idle spells must have let pairs decay to 0 and be skipped. */
	assert_true(skipped > 3000 * 8);
}

/*
 * A switch whose ports outgrow its block moves to a larger one and goes on
 * exactly as a switch sized for them from the start: a state of 70 ports
 * that moves to room for 256 halfway through random traffic ends with every
 * value equal to one that had room for 200 all along.
 */
static void grow_moves_state(void **state)
{
	static const int port[8] = { 0, 3, 31, 62, 63, 64, 65, 69 };
	struct fafc_cfg c = cfg(FAFC_F_PRED);
	struct fafc_state big, ref;
	void *big_mem, *ref_mem;
	u64 now = THOP;
	int t, i;

	srand(3);
	reset(70);
	ref_mem = state_new(&ref, 200);
	ref.n = 70;
	for (t = 0; t < 2000; t++) {
		unsigned int seed = rand();

		if (t == 1000) {	/* the 71st port joins */
			big_mem = state_new(&big, FAFC_PORTS_MAX);
			fafc_state_move(&big, &st);
			free(st_mem);
			st = big;
			st_mem = big_mem;
		}
		srand(seed);
		traffic(&st, &c, port, t, now);
		srand(seed);
		traffic(&ref, &c, port, t, now);
		now += THOP;
		fafc_update_rate(&st, &c, now, THOP);
		fafc_update_rate(&ref, &c, now, THOP);
	}
	assert_int_equal(st.cap, FAFC_PORTS_MAX);
	for (i = 0; i < 70; i++)
		assert_memory_equal(fafc_pair(&st, i, 0), fafc_pair(&ref, i, 0),
				    70 * sizeof(struct fafc_pair));
	assert_memory_equal(st.eg, ref.eg, 70 * sizeof(*st.eg));
	assert_memory_equal(st.in, ref.in, 70 * sizeof(*st.in));
	/* and the traffic did reach the pairs across the word's edge */
	assert_true(fafc_pair(&st, 65, 64)->bin > 0);
	free(ref_mem);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(holt_step),
		cmocka_unit_test(holt_ramp),
		cmocka_unit_test(trigger_and_mark),
		cmocka_unit_test(drop_is_not_departure),
		cmocka_unit_test(ecn_offset),
		cmocka_unit_test(lp_basics),
		cmocka_unit_test(lp_ties),
		cmocka_unit_test(lp_random_optimal),
		cmocka_unit_test(slots),
		cmocka_unit_test(slot_residue),
		cmocka_unit_test(lp_build),
		cmocka_unit_test(demand_cap),
		cmocka_unit_test(late_step),
		cmocka_unit_test(paused_rate),
		cmocka_unit_test(sparse_update),
		cmocka_unit_test(grow_moves_state),
	};

	return cmocka_run_group_tests_name("core/fafc", tests, NULL, NULL);
}
