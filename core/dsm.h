/* SPDX-License-Identifier: GPL-2.0 */
/*
 * DSM: the delay-tolerant sliding-mode congestion control of W. Cheng et
 * al., "Congestion Control in Converged Ethernet with Heterogeneous and
 * Time-Varying Delays" ("the paper"), on QCN's framework: a congestion
 * point (CP) samples its queue every S bytes, at k T when the link is
 * busy, and sends the sampled frame's source a signed rate change F_b; the
 * reaction point (RP) adds it to its rate, r <- r + F_b (eq. 26).
 *
 * The CP predicts its state m samples ahead from its last m feedbacks
 * (eq. 25), Q_f = q - q0 and Q_v = q(k) - q(k-1) being the queue's offset
 * and change:
 *
 *	^Q_f(k) = Q_f(k) + m Q_v(k) + T sum_{i=1..m} i F_b(k-i)
 *	^Q_v(k) = Q_v(k) + T sum_{i=1..m} F_b(k-i)
 *
 * and applies the sliding-mode law of eq. 24 with the switching line
 * delta = ^Q_f + omega ^Q_v (eq. 19):
 *
 *	F_b = -a ^Q_f  if ^Q_v delta < 0    (StateA)
 *	      -b ^Q_v  if ^Q_f delta < 0    (StateB)
 *	      -c ^Q_f  if ^Q_f ^Q_v > 0     (StateC, the reaching law)
 *
 * Here everything is in bytes per sampling period: U(k) = F_b(k) T, and
 * the gains are per sample, G_a = a T, G_b = b T, G_c = c T (Q20), so the
 * law is U = -G_a ^Q_f and so on, and |U| <= S is eq. 27's |u| <= C. The
 * paper's parameters (eq. 31 and its defaults) are H_a = (m^2 + 4m + 2) a,
 * H_b = (2m + 3) b, H_c = 2c, each below 2/T; dsm_gain() turns them into
 * G. Where the paper leaves the law undefined (on an axis or on the line)
 * ^Q_v = 0 and delta = 0 take StateA's law, ^Q_f = 0 StateB's.
 *
 * The sums follow S1(k+1) = S1(k) + U(k) - U(k-m) and S2(k+1) = S2(k) +
 * S1(k+1) - m U(k-m), O(1) per sample: the paper prints S1(k) where
 * S1(k+1) belongs, which does not give eq. 25's sum.
 *
 * m = 0 predicts nothing: ^Q = Q, a delay-unaware sliding-mode law.
 */
#ifndef FCQ_CORE_DSM_H
#define FCQ_CORE_DSM_H

#include "core.h"

#define DSM_M_MAX		128	/* samples of prediction */
#define DSM_GAIN_SHIFT		20	/* G_a, G_b, G_c: Q20 */
#define DSM_OMEGA_SHIFT		16	/* omega: Q16 */
#define DSM_OMEGA_MAX		(1000U << DSM_OMEGA_SHIFT)

struct dsm_cfg {
	u32 q0;			/* the queue's set point q0, bytes */
	u32 s;			/* bytes between samples (the paper's 1/p frames) */
	u32 m;			/* prediction horizon, samples, <= DSM_M_MAX */
	u32 ga, gb, gc;		/* a T, b T, c T, Q20 */
	u32 omega;		/* the switching line's omega, Q16 */
};

/* Where a sample's (^Q_f, ^Q_v) lies: which law eq. 24 applied. */
enum dsm_region {
	DSM_STATE_A,		/* U = -G_a ^Q_f: sliding, toward the line */
	DSM_STATE_B,		/* U = -G_b ^Q_v: along straight lines to it */
	DSM_STATE_C,		/* U = -G_c ^Q_f: quadrants I and III */
	DSM_ORIGIN,		/* ^Q_f = ^Q_v = 0: U = 0 */
	DSM_REGIONS
};

struct dsm_cp {
	s64 q_old;		/* q at the previous sample */
	s64 s1;			/* sum_{i=1..m} U(k-i) */
	s64 s2;			/* sum_{i=1..m} i U(k-i) */
	u32 at;			/* hist[at] is U(k-m) */
	s64 hist[DSM_M_MAX];	/* the last m U, a ring */
};

/* What a sample found and decided. */
struct dsm_fb {
	s64 qf, qv;		/* Q_f(k), Q_v(k) */
	s64 qfh, qvh;		/* ^Q_f(k), ^Q_v(k) */
	s64 u;			/* U(k) = F_b(k) T, bytes, |U| <= S */
	u8 region;		/* enum dsm_region */
	bool clamped;		/* eq. 27 bounded U */
};

/*
 * The per-sample gain G = h T / div in Q20, for the paper's H in mHz
 * (H_a with div = m^2 + 4m + 2, H_b with 2m + 3, H_c with 2), T in ns.
 */
u32 dsm_gain(u64 h_mhz, u64 t_ns, u32 div);
u32 dsm_div_a(u32 m);
u32 dsm_div_b(u32 m);
#define DSM_DIV_C		2

/*
 * The smallest whole omega (Q16) with which eq. 23's lower bound on b,
 * b > 1 / ((omega + 1) T), holds for the gain @gb (Q20): 1 / (b T) - 1,
 * rounded up past it. 0 if @gb is 0.
 */
u32 dsm_omega_min(u32 gb);

/* H = 0.8 * 2 / T, the paper's default for T = 80 us, in mHz. */
u64 dsm_h_default(u64 t_ns);

void dsm_cp_init(struct dsm_cp *cp);

/* The feedback history forgotten (a new law or horizon); q_old kept. */
void dsm_cp_forget(struct dsm_cp *cp);

/*
 * The last sample's step as it went out, @u bytes per period (what its CNM
 * carried, rounded; 0 if none went out): the prediction counts what the
 * sources were asked, not what the law computed.
 */
void dsm_cp_amend(struct dsm_cp *cp, const struct dsm_cfg *c, s64 u);

/* The bytes per period @t_ns of a step of @fb_kbps, rounded toward 0. */
s64 dsm_kbps_bytes(s32 fb_kbps, u64 t_ns);

/*
 * A sample of a queue of @q bytes: eq. 25, eq. 24 and eq. 27 into *@fb,
 * and U(k) into the history (dsm_cp_amend() may change it). Always
 * returns fb->u.
 */
s64 dsm_cp_sample(struct dsm_cp *cp, const struct dsm_cfg *c, u32 q,
		  struct dsm_fb *fb);

/*
 * A source's rate in bytes per period of @t_ns, r = @arrived T / dt, from
 * the @arrived bytes it brought in the @dt_ns since the last sample; at
 * most S (the line). -1 if @dt_ns is 0 (no sample before).
 */
s64 dsm_src_rate(const struct dsm_cfg *c, u64 arrived, u64 dt_ns, u64 t_ns);

/*
 * fcq's room (deviation 17 of Documentation/dsm.rst): the step @u
 * bounded by what a source of rate @r (bytes per period) can take, no
 * source sending below 0 or above the line: -r <= U <= S - r. The paper's
 * CP asks the step its law computes whatever the source can do. @r < 0:
 * @u unchanged.
 */
s64 dsm_room_bound(const struct dsm_cfg *c, s64 u, s64 r);

/* F_b in bit/s of @u bytes per sampling period of @t_ns. */
s64 dsm_fb_bps(s64 u, u64 t_ns);

/*
 * Reaction point, rates in bit/s. A decrease (F_b < 0) always applies and
 * keeps its CP's CPID; an increase applies only with the CPID kept (the
 * paper's rule for several bottlenecks), which back at line rate is
 * forgotten. r stays in [r_min, line].
 */
#define DSM_CPID_LEN		8

struct dsm_rp_cfg {
	u64 line;		/* the port's rate: r's ceiling and start */
	u64 r_min;		/* r's floor */
};

struct dsm_rp {
	u64 r;			/* the rate */
	u8 cpid[DSM_CPID_LEN];	/* the CP of the last decrease */
	bool has_cpid;
	u64 dec, inc;		/* F_b applied */
	u64 foreign;		/* increases from another CP: ignored */
	u64 clamped;		/* F_b cut short by r_min or line */
};

enum dsm_rp_res {
	DSM_RP_NONE,		/* F_b 0 */
	DSM_RP_DEC,
	DSM_RP_INC,
	DSM_RP_FOREIGN,		/* an increase not from the CP kept */
};

void dsm_rp_init(struct dsm_rp *rp, const struct dsm_rp_cfg *c);
enum dsm_rp_res dsm_rp_cnm(struct dsm_rp *rp, const struct dsm_rp_cfg *c,
			   s64 fb_bps, const u8 *cpid);

static inline bool dsm_rp_idle(const struct dsm_rp *rp,
			       const struct dsm_rp_cfg *c)
{
	return rp->r >= c->line;
}

#endif /* FCQ_CORE_DSM_H */
