// SPDX-License-Identifier: GPL-2.0
/*
 * DSM's congestion point and reaction point: see dsm.h.
 */
#include "dsm.h"

#define MHZ_NS		1000000000000ULL	/* mHz x ns in one */

u32 dsm_gain(u64 h_mhz, u64 t_ns, u32 div)
{
	u64 g;

	if (!div)
		return 0;
	g = fcq_mul_div(h_mhz << DSM_GAIN_SHIFT, t_ns, MHZ_NS * div);
	return (u32)fcq_min64(g, 0xffffffffULL);
}

u32 dsm_div_a(u32 m)
{
	return m * m + 4 * m + 2;
}

u32 dsm_div_b(u32 m)
{
	return 2 * m + 3;
}

u32 dsm_omega_min(u32 gb)
{
	u64 w;

	if (!gb)
		return 0;
	/* the whole numbers above 1 / (b T) - 1 start at floor(1 / (b T)) */
	w = fcq_max64(1, (1U << DSM_GAIN_SHIFT) / gb);
	return (u32)fcq_min64(w << DSM_OMEGA_SHIFT, DSM_OMEGA_MAX);
}

u64 dsm_h_default(u64 t_ns)
{
	return t_ns ? fcq_div64(16 * MHZ_NS / 10, t_ns) : 0;
}

void dsm_cp_init(struct dsm_cp *cp)
{
	memset(cp, 0, sizeof(*cp));
}

void dsm_cp_forget(struct dsm_cp *cp)
{
	s64 q_old = cp->q_old;

	dsm_cp_init(cp);
	cp->q_old = q_old;
}

void dsm_cp_amend(struct dsm_cp *cp, const struct dsm_cfg *c, s64 u)
{
	u32 m = c->m < DSM_M_MAX ? c->m : DSM_M_MAX, last;
	s64 d;

	if (!m)
		return;
	/* the last step has weight 1 in S1 and in S2 until the next sample */
	last = cp->at ? cp->at - 1 : m - 1;
	d = u - cp->hist[last];
	cp->hist[last] = u;
	cp->s1 += d;
	cp->s2 += d;
}

s64 dsm_kbps_bytes(s32 fb_kbps, u64 t_ns)
{
	u64 mag = fcq_mul_div(fb_kbps < 0 ? -(s64)fb_kbps : fb_kbps, t_ns,
			      8000000);

	return fb_kbps < 0 ? -(s64)mag : (s64)mag;
}

static int sgn(s64 v)
{
	return (v > 0) - (v < 0);
}

/*
 * The sign of delta = ^Q_f + omega ^Q_v (eq. 19; @omega Q16), asked where
 * the two do not share a sign: by comparing magnitudes, which fit in 64
 * bits (|^Q_f| < 2^44 and |^Q_v| < 2^38 for queues and S up to 2^32 and
 * 2^30 and m up to 128; omega < 2^26), where their Q16 sum may not.
 */
static int delta_sign(s64 qfh, s64 qvh, u32 omega)
{
	u64 f = (qfh < 0 ? -(u64)qfh : (u64)qfh) << DSM_OMEGA_SHIFT;
	u64 v = (qvh < 0 ? -(u64)qvh : (u64)qvh) * omega;

	if (f > v)
		return sgn(qfh);
	return f < v ? sgn(qvh) : 0;
}

/* -@g (Q20) times @v, rounded toward 0. */
static s64 law(u32 g, s64 v)
{
	u64 mag = fcq_mul_shr(v < 0 ? -(u64)v : (u64)v, g, DSM_GAIN_SHIFT);

	return v < 0 ? (s64)mag : -(s64)mag;
}

s64 dsm_cp_sample(struct dsm_cp *cp, const struct dsm_cfg *c, u32 q,
		  struct dsm_fb *fb)
{
	u32 m = c->m < DSM_M_MAX ? c->m : DSM_M_MAX;
	s64 old;
	int d;

	fb->qf = (s64)q - c->q0;
	fb->qv = (s64)q - cp->q_old;
	cp->q_old = q;

	/* eq. 25 */
	fb->qfh = fb->qf + (s64)m * fb->qv + cp->s2;
	fb->qvh = fb->qv + cp->s1;
	/* eq. 24, and the boundaries it leaves open */
	if (sgn(fb->qfh) * sgn(fb->qvh) > 0) {
		fb->region = DSM_STATE_C;
		fb->u = law(c->gc, fb->qfh);
		goto bound;
	}
	/* eq. 19: only the sign of delta is used */
	d = delta_sign(fb->qfh, fb->qvh, c->omega);
	if (sgn(fb->qvh) * d < 0) {
		fb->region = DSM_STATE_A;
		fb->u = law(c->ga, fb->qfh);
	} else if (sgn(fb->qfh) * d < 0) {
		fb->region = DSM_STATE_B;
		fb->u = law(c->gb, fb->qvh);
	} else if (fb->qfh) {		/* on the ^Q_f axis or the line */
		fb->region = DSM_STATE_A;
		fb->u = law(c->ga, fb->qfh);
	} else if (fb->qvh) {		/* on the ^Q_v axis */
		fb->region = DSM_STATE_B;
		fb->u = law(c->gb, fb->qvh);
	} else {
		fb->region = DSM_ORIGIN;
		fb->u = 0;
	}
bound:
	/* eq. 27: a step of at most the link's rate */
	fb->clamped = fb->u > (s64)c->s || fb->u < -(s64)c->s;
	if (fb->u > (s64)c->s)
		fb->u = c->s;
	else if (fb->u < -(s64)c->s)
		fb->u = -(s64)c->s;

	if (!m)
		return fb->u;
	old = cp->hist[cp->at];
	cp->hist[cp->at] = fb->u;
	cp->at = cp->at + 1 < m ? cp->at + 1 : 0;
	cp->s1 += fb->u - old;
	cp->s2 += cp->s1 - (s64)m * old;
	return fb->u;
}

s64 dsm_src_rate(const struct dsm_cfg *c, u64 arrived, u64 dt_ns, u64 t_ns)
{
	if (!dt_ns)
		return -1;
	return (s64)fcq_min64(fcq_mul_div(arrived, t_ns, dt_ns), c->s);
}

s64 dsm_room_bound(const struct dsm_cfg *c, s64 u, s64 r)
{
	if (r < 0)
		return u;
	if (u < -r)
		return -r;
	return u > (s64)c->s - r ? (s64)c->s - r : u;
}

s64 dsm_fb_bps(s64 u, u64 t_ns)
{
	u64 mag;

	if (!t_ns)
		return 0;
	mag = fcq_mul_div(u < 0 ? -(u64)u : (u64)u, 8 * FCQ_NS_PER_SEC, t_ns);
	mag = fcq_min64(mag, (u64)1 << 62);
	return u < 0 ? -(s64)mag : (s64)mag;
}

void dsm_rp_init(struct dsm_rp *rp, const struct dsm_rp_cfg *c)
{
	memset(rp, 0, sizeof(*rp));
	rp->r = c->line;
}

enum dsm_rp_res dsm_rp_cnm(struct dsm_rp *rp, const struct dsm_rp_cfg *c,
			   s64 fb_bps, const u8 *cpid)
{
	u64 step;

	if (!fb_bps)
		return DSM_RP_NONE;
	if (fb_bps < 0) {
		step = -(u64)fb_bps;
		memcpy(rp->cpid, cpid, DSM_CPID_LEN);
		rp->has_cpid = true;
		rp->dec++;
		if (rp->r < c->r_min + step) {
			rp->clamped++;
			rp->r = c->r_min;
		} else {
			rp->r -= step;
		}
		return DSM_RP_DEC;
	}
	if (!rp->has_cpid || memcmp(rp->cpid, cpid, DSM_CPID_LEN)) {
		rp->foreign++;
		return DSM_RP_FOREIGN;
	}
	rp->inc++;
	step = (u64)fb_bps;
	if (rp->r + step >= c->line) {
		rp->clamped += rp->r + step > c->line;
		rp->r = c->line;
		rp->has_cpid = false;	/* back at line rate */
	} else {
		rp->r += step;
	}
	return DSM_RP_INC;
}
