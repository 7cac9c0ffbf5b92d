/* SPDX-License-Identifier: GPL-2.0 */
/*
 * QCN: the IEEE 802.1Qau congestion point (CP) and reaction point (RP),
 * and the culprit choices of Unbiased QCN (N. Chrysos et al., "Unbiased QCN
 * for Scalable Server-Fabrics", IEEE Micro 36(6), 2016: "the paper").
 *
 * CP (the paper's sec. I.A). Each time I_s bytes have arrived at the
 * monitored buffer, a sample reads its occupancy Q and computes
 *
 *	Q_off = Q - Q_eq,  Q_delta = Q - Q_old,  Fb = Q_off + w * Q_delta
 *
 * (Q_old: Q at the previous sample). Fb > 0 is congestion: a CNM carries Fb
 * quantized to 6 bits, QntzFb = min(63, Fb * 63 / (Q_eq * (2w + 1))), to
 * the culprit's source. 802.1Qau writes Fb with the opposite sign and
 * congestion as Fb < 0; the paper's sign is kept here. A sample whose Fb
 * quantizes to 0 sends nothing, as the RP would ignore it.
 *
 * The interval between samples is I_s bytes (QCN_SAMPLE_FIXED: the paper's
 * "in response to the arrival of I_s bytes"), or 802.1Qau's table indexed
 * by the last sample's QntzFb / 8, scaled to I_s and each drawn from
 * U(0.85, 1.15) times the table's value (QCN_SAMPLE_STD).
 *
 * The culprit (the paper's sec. "Occupancy sampling"): standard QCN names
 * the source of the frame that completed the sample (arrival sampling, the
 * caller's arriving frame). Occupancy sampling names flow n with
 * probability q_n / q, the owner of a random occupied buffer unit
 * (qcn_units_pick(), the paper's CulpritArray) or of a random queued byte
 * (qcn_pick_bytes()), or the flow with the largest q_n (qcn_pick_max(),
 * deterministic).
 *
 * RP (802.1Qau; the paper keeps the standard RP). A rate limiter per flow
 * has a current rate CR and a target rate TR. A CNM with QntzFb > 0 sets
 * TR to CR (unless the RL is still recovering from a CNM that no byte
 * counter cycle has followed) and cuts CR by the factor 1 - Gd * QntzFb,
 * at most by MinDecFac. Then a byte counter (a cycle per BC bytes sent)
 * and a timer (a cycle per T) each count cycles; every cycle moves CR half
 * way to TR (fast recovery), and once either count passes F_thr first
 * raises TR by R_AI (active increase), once both do by R_HAI times the
 * smaller count's excess (hyper-active increase). In the first cycle after
 * a decrease, TR more than 10 times CR is cut to TR / 8 instead. Cycles
 * past F_thr last half as long; with jitter, every cycle is drawn from
 * U(0.85, 1.15) times its length.
 */
#ifndef FCQ_CORE_QCN_H
#define FCQ_CORE_QCN_H

#include "core.h"

#define QCN_QFB_MAX		63
#define QCN_STD_TABLE_LEN	8
#define QCN_STD_I_S		150000	/* bytes: the table's base interval */

enum qcn_sample {
	QCN_SAMPLE_FIXED,	/* every I_s bytes */
	QCN_SAMPLE_STD,		/* 802.1Qau's table, jittered */
};

struct qcn_cp_cfg {
	u32 q_eq;		/* Q_eq, bytes, > 0 */
	u32 w;			/* weight of Q_delta (802.1Qau: 2) */
	u32 i_s;		/* (base) sampling interval, bytes, > 0 */
	u8 sample;		/* enum qcn_sample */
};

struct qcn_cp {
	u32 q_old;		/* Q at the previous sample */
	u32 cnt;		/* bytes arrived since it */
	u32 next;		/* bytes between it and the next sample */
	u32 rnd;		/* xorshift32 state: the std interval's jitter */
};

/* What a sample found. */
struct qcn_fb {
	s64 qoff;		/* Q - Q_eq */
	s64 qdelta;		/* Q - Q_old */
	s64 fb;			/* Q_off + w * Q_delta */
	u8 qfb;			/* Fb quantized, 0 when Fb <= 0 */
};

enum qcn_cp_res {
	QCN_CP_NONE,		/* no sample at this arrival */
	QCN_CP_CALM,		/* a sample that asks for no CNM */
	QCN_CP_CNM,		/* a sample that asks for a CNM */
};

/* 802.1Qau's sampling intervals, bytes, for QntzFb / 8 = 0..7. */
extern const u32 qcn_std_table[QCN_STD_TABLE_LEN];

void qcn_cp_init(struct qcn_cp *cp, const struct qcn_cp_cfg *c, u32 seed);

/* @fb quantized to 6 bits: 0 if @fb <= 0, at most QCN_QFB_MAX. */
u8 qcn_quantize(s64 fb, const struct qcn_cp_cfg *c);

/*
 * The bytes to the next sample after one that found @qfb; @rnd is a
 * uniform 32-bit number (used by QCN_SAMPLE_STD only).
 */
u32 qcn_interval(const struct qcn_cp_cfg *c, u8 qfb, u32 rnd);

/*
 * A frame of @len bytes arrived: whether it completes a sample. Only then
 * does the caller need the buffer's bytes, for qcn_cp_sample().
 */
bool qcn_cp_due(struct qcn_cp *cp, u32 len);

/*
 * The sample that qcn_cp_due() asked for, of a buffer holding @q bytes
 * (the frame included): *@fb says what it found (Fb above). QCN_CP_CNM
 * asks the caller to choose the culprit and send it a CNM with fb->qfb;
 * never QCN_CP_NONE.
 */
enum qcn_cp_res qcn_cp_sample(struct qcn_cp *cp, const struct qcn_cp_cfg *c,
			      u32 q, struct qcn_fb *fb);

/*
 * Occupancy sampling over @n flows holding @bytes[i] each. qcn_pick_bytes()
 * returns i with probability bytes[i] / sum (@r a uniform 32-bit number),
 * qcn_pick_max() the first largest; both return @n when every flow is empty.
 */
u32 qcn_pick_bytes(const u32 *bytes, u32 n, u32 r);
u32 qcn_pick_max(const u32 *bytes, u32 n);

/*
 * The paper's CulpritArray: one word per buffer unit naming the first unit
 * (the "head") of the frame that holds it, in caller memory of two u16
 * arrays of @n words (QCN_UNITS_MAX at most). A frame takes
 * ceil(len / unit) units from a free list and returns them when it leaves;
 * a pick probes random units until one is held and names its frame's head,
 * so a frame is named in proportion to its units. After @probes misses a
 * pick scans on from a random unit (counted in `fallbacks`).
 */
#define QCN_UNIT_NONE		0xffff
#define QCN_UNITS_MAX		0xfffe

struct qcn_units {
	u16 *owner;		/* per unit: its frame's head, or NONE */
	u16 *link;		/* per unit: the next of its frame or free list */
	u32 n;			/* units */
	u32 nfree;		/* units on the free list */
	u16 free;		/* the free list's first unit, or NONE */
	u32 rnd;		/* xorshift32 state of the picks */
	u64 fallbacks;		/* picks that scanned after their probes */
};

void qcn_units_init(struct qcn_units *u, u16 *owner, u16 *link, u32 n,
		    u32 seed);

/*
 * Take @count (> 0) units for a frame: its head unit, or QCN_UNIT_NONE
 * (nothing taken) when fewer are free.
 */
u32 qcn_units_take(struct qcn_units *u, u32 count);

/*
 * Return the units of the frame whose head is @head. A head out of range,
 * or units already free (a stale return), are left alone: the free list
 * never takes a unit twice.
 */
void qcn_units_put(struct qcn_units *u, u32 head);

/* The head of the frame holding a random held unit, or QCN_UNIT_NONE. */
u32 qcn_units_pick(struct qcn_units *u, u32 probes);

/* Reaction point: rates in bit/s, times in ns. */
struct qcn_rp_cfg {
	u64 line;		/* the port's rate: CR's ceiling */
	u64 r_min;		/* CR's floor */
	u64 r_ai;		/* active increase step */
	u64 r_hai;		/* hyper-active increase step */
	u64 t_ns;		/* timer cycle T */
	u32 bc;			/* byte counter cycle BC, bytes */
	u8 gd_log2;		/* Gd = 2^-gd_log2 (802.1Qau: 7) */
	u8 min_dec_pct;		/* MinDecFac, % (802.1Qau: 50) */
	u8 f_thr;		/* fast recovery cycles F_thr (802.1Qau: 5) */
	u8 jitter;		/* cycles drawn from U(0.85, 1.15) of theirs */
	u8 tr_reduce;		/* TR / 8 when TR > 10 CR in the 1st cycle */
};

struct qcn_rp {
	u64 cr;			/* current rate */
	u64 tr;			/* target rate */
	s64 bc_left;		/* bytes to the end of this byte cycle */
	u64 t_next;		/* end of this timer cycle */
	u32 bc_cnt;		/* byte cycles since the last decrease */
	u32 t_cnt;		/* timer cycles since it */
	u32 rnd;		/* xorshift32 state: the jitter */
	u64 cnms;		/* CNMs that cut the rate */
};

/* A new rate limiter at line rate (what a flow's first CNM creates). */
void qcn_rp_init(struct qcn_rp *rp, const struct qcn_rp_cfg *c, u64 now,
		 u32 seed);

/* A CNM with @qfb at @now: false (and nothing changes) if @qfb is 0. */
bool qcn_rp_cnm(struct qcn_rp *rp, const struct qcn_rp_cfg *c, u8 qfb,
		u64 now);

/*
 * The limited flow sent @len bytes at @now: the cycles that ended. The
 * timer's cycles since the last call are caught up here, at most
 * QCN_RP_CATCHUP_MAX of them (an RL whose steps cannot bring it back to
 * line rate, idle for longer, skips the rest).
 */
#define QCN_RP_CATCHUP_MAX	1024

void qcn_rp_tx(struct qcn_rp *rp, const struct qcn_rp_cfg *c, u32 len,
	       u64 now);

/* ns that @wire bytes take at the limiter's current rate. */
static inline u64 qcn_rp_gap_ns(const struct qcn_rp *rp, u32 wire)
{
	return fcq_mul_div((u64)wire * 8, FCQ_NS_PER_SEC, rp->cr);
}

/* Back at line rate: the limiter may be freed. */
static inline bool qcn_rp_idle(const struct qcn_rp *rp,
			       const struct qcn_rp_cfg *c)
{
	return rp->cr >= c->line;
}

#endif /* FCQ_CORE_QCN_H */
