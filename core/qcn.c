// SPDX-License-Identifier: GPL-2.0
/*
 * QCN congestion point, occupancy sampling and reaction point: see qcn.h.
 */
#include "qcn.h"

/* 802.1Qau's sampling table (cpSampleBase for QntzFb / 8 = 0..7). */
const u32 qcn_std_table[QCN_STD_TABLE_LEN] = {
	150000, 75000, 50000, 37500, 30000, 25000, 21500, 18500,
};

/* @v times a factor drawn from U(0.85, 1.15) by @r, at least 1. */
static u64 jittered(u64 v, u32 r)
{
	u64 milli = 850 + (((u64)r * 301) >> 32);

	return fcq_max64(1, fcq_div64(v * milli, 1000));
}

void qcn_cp_init(struct qcn_cp *cp, const struct qcn_cp_cfg *c, u32 seed)
{
	memset(cp, 0, sizeof(*cp));
	cp->rnd = seed | 1;
	cp->next = qcn_interval(c, 0, fcq_xorshift32(&cp->rnd));
}

u8 qcn_quantize(s64 fb, const struct qcn_cp_cfg *c)
{
	u64 fb_max = (u64)c->q_eq * (2 * (u64)c->w + 1);
	u64 q;

	if (fb <= 0)
		return 0;
	if (!fb_max)
		return QCN_QFB_MAX;
	q = fcq_div64((u64)fb * QCN_QFB_MAX, fb_max);
	return q > QCN_QFB_MAX ? QCN_QFB_MAX : (u8)q;
}

u32 qcn_interval(const struct qcn_cp_cfg *c, u8 qfb, u32 rnd)
{
	u64 v;

	if (c->sample != QCN_SAMPLE_STD)
		return c->i_s ? c->i_s : 1;
	if (qfb > QCN_QFB_MAX)
		qfb = QCN_QFB_MAX;
	v = fcq_div64((u64)qcn_std_table[qfb >> 3] * c->i_s, QCN_STD_I_S);
	return (u32)fcq_min64(jittered(v, rnd), 0xffffffffULL);
}

bool qcn_cp_due(struct qcn_cp *cp, u32 len)
{
	cp->cnt += len;
	if (cp->cnt < cp->next)
		return false;
	/* Carry the excess, so that samples average one per interval. */
	cp->cnt -= cp->next;
	return true;
}

enum qcn_cp_res qcn_cp_sample(struct qcn_cp *cp, const struct qcn_cp_cfg *c,
			      u32 q, struct qcn_fb *fb)
{
	fb->qoff = (s64)q - c->q_eq;
	fb->qdelta = (s64)q - cp->q_old;
	fb->fb = fb->qoff + (s64)c->w * fb->qdelta;
	fb->qfb = qcn_quantize(fb->fb, c);
	cp->q_old = q;
	cp->next = qcn_interval(c, fb->qfb, fcq_xorshift32(&cp->rnd));
	return fb->qfb ? QCN_CP_CNM : QCN_CP_CALM;
}

u32 qcn_pick_bytes(const u32 *bytes, u32 n, u32 r)
{
	u64 sum = 0, at;
	u32 i;

	for (i = 0; i < n; i++)
		sum += bytes[i];
	if (!sum)
		return n;
	/* A uniform byte of the sum; the flow that holds it. */
	at = fcq_mul_div(r, sum, 1ULL << 32);
	for (i = 0; i < n; i++) {
		if (at < bytes[i])
			return i;
		at -= bytes[i];
	}
	return n;	/* not reached: at < sum */
}

u32 qcn_pick_max(const u32 *bytes, u32 n)
{
	u32 i, best = n;

	for (i = 0; i < n; i++)
		if (bytes[i] && (best == n || bytes[i] > bytes[best]))
			best = i;
	return best;
}

void qcn_units_init(struct qcn_units *u, u16 *owner, u16 *link, u32 n,
		    u32 seed)
{
	u32 i;

	memset(u, 0, sizeof(*u));
	if (n > QCN_UNITS_MAX)
		n = QCN_UNITS_MAX;
	u->owner = owner;
	u->link = link;
	u->n = n;
	u->nfree = n;
	u->free = n ? 0 : QCN_UNIT_NONE;
	u->rnd = seed | 1;
	for (i = 0; i < n; i++) {
		owner[i] = QCN_UNIT_NONE;
		link[i] = i + 1 < n ? (u16)(i + 1) : QCN_UNIT_NONE;
	}
}

u32 qcn_units_take(struct qcn_units *u, u32 count)
{
	u16 head = u->free, x = head;
	u32 i;

	if (!count || count > u->nfree)
		return QCN_UNIT_NONE;
	/* The frame keeps the free list's first @count units, chained. */
	for (i = 0; i < count; i++) {
		u->owner[x] = head;
		if (i + 1 < count)
			x = u->link[x];
	}
	u->free = u->link[x];
	u->link[x] = QCN_UNIT_NONE;
	u->nfree -= count;
	return head;
}

void qcn_units_put(struct qcn_units *u, u32 head)
{
	u16 x = head < u->n ? (u16)head : QCN_UNIT_NONE, next;

	while (x != QCN_UNIT_NONE && u->owner[x] != QCN_UNIT_NONE) {
		next = u->link[x];
		u->owner[x] = QCN_UNIT_NONE;
		u->link[x] = u->free;
		u->free = x;
		u->nfree++;
		x = next;
	}
}

static u32 unit_at_random(struct qcn_units *u)
{
	return (u32)(((u64)fcq_xorshift32(&u->rnd) * u->n) >> 32);
}

u32 qcn_units_pick(struct qcn_units *u, u32 probes)
{
	u32 i, a;

	if (u->nfree == u->n)
		return QCN_UNIT_NONE;
	for (i = 0; i < probes; i++) {
		a = unit_at_random(u);
		if (u->owner[a] != QCN_UNIT_NONE)
			return u->owner[a];
	}
	/* The paper's fallback: scan on, here from a random unit. */
	u->fallbacks++;
	a = unit_at_random(u);
	for (i = 0; i < u->n; i++, a = a + 1 < u->n ? a + 1 : 0)
		if (u->owner[a] != QCN_UNIT_NONE)
			return u->owner[a];
	return QCN_UNIT_NONE;	/* not reached: a unit is held */
}

void qcn_rp_init(struct qcn_rp *rp, const struct qcn_rp_cfg *c, u64 now,
		 u32 seed)
{
	memset(rp, 0, sizeof(*rp));
	rp->cr = c->line;
	rp->tr = c->line;
	rp->bc_left = c->bc;
	rp->t_next = now + c->t_ns;
	rp->rnd = seed | 1;
}

bool qcn_rp_cnm(struct qcn_rp *rp, const struct qcn_rp_cfg *c, u8 qfb,
		u64 now)
{
	u64 cut, floor;

	if (!qfb)
		return false;	/* 802.1Qau: not a useful CNM */
	/*
	 * A CNM that finds the RL still in the first byte cycle after the
	 * last one keeps that one's target (QCN pseudo-code v2.2).
	 */
	if (rp->cr >= c->line || rp->bc_cnt) {
		rp->tr = rp->cr;
		rp->bc_left = c->bc;
	}
	rp->bc_cnt = 0;
	rp->t_cnt = 0;
	cut = (rp->cr * fcq_min64(qfb, QCN_QFB_MAX)) >> c->gd_log2;
	floor = fcq_div64(rp->cr * (100 - fcq_min64(c->min_dec_pct, 100)),
			  100);
	rp->cr = cut < rp->cr ? rp->cr - cut : 0;
	rp->cr = fcq_max64(rp->cr, floor);
	rp->cr = fcq_max64(rp->cr, c->r_min);
	rp->t_next = now + c->t_ns;
	rp->cnms++;
	return true;
}

static void increase(struct qcn_rp *rp, const struct qcn_rp_cfg *c)
{
	u32 lo = rp->bc_cnt < rp->t_cnt ? rp->bc_cnt : rp->t_cnt;
	u32 hi = rp->bc_cnt < rp->t_cnt ? rp->t_cnt : rp->bc_cnt;
	u64 inc = 0;

	if (lo > c->f_thr)
		inc = c->r_hai * (lo - c->f_thr);	/* hyper-active */
	else if (hi > c->f_thr)
		inc = c->r_ai;				/* active */
	/* else fast recovery: TR stays */
	if (c->tr_reduce && (rp->bc_cnt == 1 || rp->t_cnt == 1) &&
	    rp->tr > 10 * rp->cr)
		rp->tr /= 8;
	else
		rp->tr += inc;
	rp->cr = fcq_min64(c->line, (rp->cr + rp->tr) / 2);
}

/* The length of the next cycle of a counter at @cnt cycles. */
static u64 cycle(struct qcn_rp *rp, const struct qcn_rp_cfg *c, u64 full,
		 u32 cnt)
{
	u64 v = cnt > c->f_thr ? full / 2 : full;

	return c->jitter ? jittered(v, fcq_xorshift32(&rp->rnd)) :
			   fcq_max64(v, 1);
}

void qcn_rp_tx(struct qcn_rp *rp, const struct qcn_rp_cfg *c, u32 len,
	       u64 now)
{
	u32 n = 0;

	rp->bc_left -= len;
	/*
	 * The timer's cycles since the last transmission. Back at line rate,
	 * further cycles change nothing a CNM would not reset: stop there.
	 */
	while (now >= rp->t_next) {
		if (qcn_rp_idle(rp, c) || n++ == QCN_RP_CATCHUP_MAX) {
			rp->t_next = now + c->t_ns;
			break;
		}
		rp->t_cnt++;
		rp->t_next += cycle(rp, c, c->t_ns, rp->t_cnt);
		increase(rp, c);
	}
	if (rp->bc_left < 0) {
		rp->bc_cnt++;
		rp->bc_left = (s64)cycle(rp, c, c->bc, rp->bc_cnt);
		increase(rp, c);
	}
}
