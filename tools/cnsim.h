/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cnsim - the DSM paper's discrete-time model of one congestion point and
 * its sources (its eqs. 7 and 8), driving core/dsm.c's or core/qcn.c's
 * congestion point and reaction points: the same code the qdiscs run.
 *
 * Time moves in steps of T / sub. Source j sends at its rate r_j, which
 * reaches the CP's queue tf_j later (the forward delay); the queue drains
 * at C and drops what would take it past B. DSM samples the queue every T
 * (the model's t_k = k T) and QCN each time its sampling interval of bytes
 * has arrived; a sample's feedback goes to one source, drawn with the
 * probability of its share of the bytes that arrived meanwhile (the source
 * of a sampled frame), and reaches it tb_j later plus a delay drawn from
 * U(0, jitter) per feedback (the paper's time-varying feedback latency).
 * With room, DSM bounds each step by what its source can take; with
 * per_bytes it samples every S bytes arrived, as the qdisc does.
 * Every source starts at C (or r0), as in the paper's experiments.
 */
#ifndef FCQ_CNSIM_H
#define FCQ_CNSIM_H

#include "core/dsm.h"
#include "core/qcn.h"

#define CNSIM_SRC_MAX		64
#define CNSIM_QBINS		64	/* the queue's distribution: bins of B/64 */

enum cnsim_algo {
	CNSIM_DSM,
	CNSIM_QCN,
};

struct cnsim_src {
	u64 tf_ns;		/* source to CP */
	u64 tb_ns;		/* CP to source */
	u64 start_ns;		/* it sends from here */
	u64 stop_ns;		/* to here; 0: to the end */
};

struct cnsim_cfg {
	enum cnsim_algo algo;
	u64 c_bps;		/* the bottleneck's rate C, bit/s */
	u64 t_ns;		/* T: DSM's sampling period, S * 8 / C */
	u32 sub;		/* steps per T, >= 1 */
	u32 buf;		/* B, bytes */
	u64 dur_ns;
	u64 from_ns;		/* statistics from here to the end */
	u64 jitter_ns;		/* a feedback's extra delay: U(0, jitter) */
	u32 seed;
	u64 r0_bps;		/* every source's first rate; 0: C */
	bool room;		/* DSM: each step bounded by dsm_room_bound() */
	bool per_bytes;		/* DSM: a sample every S bytes arrived */
	u32 n;			/* sources */
	struct cnsim_src src[CNSIM_SRC_MAX];
	struct dsm_cfg dsm;
	struct dsm_rp_cfg dsm_rp;
	struct qcn_cp_cfg qcn;
	struct qcn_rp_cfg qcn_rp;
};

struct cnsim_res {
	double q_mean, q_sd;	/* bytes, over time */
	double p_empty;		/* the share of the time the queue was empty */
	double util;		/* what left over what C could carry */
	double drop;		/* bytes dropped over bytes arrived */
	double q_max;
	u64 samples, fbs;	/* samples; feedbacks sent */
	double qbin_ns[CNSIM_QBINS];	/* time with q in [i B/64, (i+1) B/64) */
};

/* Each step: its end (ns), the queue (bytes), every source's rate. */
typedef void (*cnsim_trace_fn)(void *arg, u64 t_ns, double q,
			       const u64 *rate_bps, u32 n);

/*
 * Run @c into @r, calling @fn (if not NULL) every @every steps. -1 if @c
 * is not runnable (no source, T or C 0, a delay too long for memory).
 */
int cnsim_run(const struct cnsim_cfg *c, struct cnsim_res *r,
	      cnsim_trace_fn fn, u32 every, void *arg);

/*
 * @c for the paper's dumbbell (sec. V): @n sources with loop delay
 * @tau_ns split evenly between the two ways, buffer @buf, set point @q0,
 * a DSM sample every @s bytes, at @c_bps; DSM with horizon @m and the
 * paper's default gains (H = 0.8 * 2 / T), omega @omega_q16 (0: the
 * smallest consistent one, dsm_omega_min()), or QCN with 802.1Qau's
 * defaults (Q_eq @q0) for @algo CNSIM_QCN.
 */
void cnsim_dumbbell(struct cnsim_cfg *c, enum cnsim_algo algo, u64 c_bps,
		    u32 n, u64 tau_ns, u32 buf, u32 q0, u32 s, u32 m,
		    u32 omega_q16);

#endif
