/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * qcn: IEEE 802.1Qau congestion points on switch ports, at the outputs or
 * (Unbiased QCN) the inputs, sending CNMs. qcnrp: the reaction point of a
 * host NIC, per-flow rate limiters driven by CNMs. Their options nest in
 * TCA_FCQ_SCHEME (see fcq.h), their xstats in TCA_FCQ_STATS_SCHEME.
 * Attribute numbers are ABI: append, never renumber.
 */
#ifndef _UAPI_LINUX_QCN_H
#define _UAPI_LINUX_QCN_H

#include <linux/types.h>

#define QCNRP_MAX_RPS		64	/* rate limiters a port may hold */

#define QCNRP_FL_JITTER		0x1	/* cycles drawn from U(0.85, 1.15) */
#define QCNRP_FL_TR_REDUCE	0x2	/* TR / 8 when over 10 CR */
#define QCNRP_FL_ALL		0x3

enum {
	TCA_QCNRP_UNSPEC,
	TCA_QCNRP_PAD,
	TCA_QCNRP_MAX_RPS,	/* u32: rate limiters, 1..QCNRP_MAX_RPS */
	TCA_QCNRP_RL_LIMIT,	/* u32, packets: an RL's queue */
	TCA_QCNRP_GD_LOG2,	/* u32: Gd = 2^-gd_log2, 1..16 */
	TCA_QCNRP_MIN_DEC,	/* u32, %: the largest cut, 1..100 */
	TCA_QCNRP_R_MIN,	/* u64, bytes/s: the lowest rate */
	TCA_QCNRP_R_AI,		/* u64, bytes/s: active increase step */
	TCA_QCNRP_R_HAI,	/* u64, bytes/s: hyper-active increase step */
	TCA_QCNRP_BC,		/* u32, bytes: byte counter cycle */
	TCA_QCNRP_T,		/* u32, ns: timer cycle */
	TCA_QCNRP_F_THR,	/* u32: fast recovery cycles, 1..100 */
	TCA_QCNRP_FLAGS,	/* bitfield32: QCNRP_FL_* */
	TCA_QCNRP_SEED,		/* u32: the jitter's random sequence */
	TCA_QCNRP_REACT,	/* u32, ns: a CNM takes effect this late */
	TCA_QCNRP_ALGO,		/* u8: enum qcn_algo, the CNMs it applies */
	TCA_QCNRP_REACT_JITTER,	/* u32, ns: plus up to this, drawn per CNM */
	__TCA_QCNRP_MAX
};
#define TCA_QCNRP_MAX		(__TCA_QCNRP_MAX - 1)

/* xstats, in TCA_FCQ_STATS_SCHEME: u64 counters unless noted */
enum {
	TCA_QCNRP_STATS_UNSPEC,
	TCA_QCNRP_STATS_PAD,
	TCA_QCNRP_STATS_CNM_RX,		/* CNMs applied */
	TCA_QCNRP_STATS_CNM_ZERO,	/* CNMs with QntzFb 0: ignored */
	TCA_QCNRP_STATS_CNM_NOT_OURS,	/* CNMs to another address: dropped */
	TCA_QCNRP_STATS_CNM_BAD,	/* malformed CNMs: dropped */
	TCA_QCNRP_STATS_CNM_LATE,	/* CNMs the dequeue had no room for */
	TCA_QCNRP_STATS_RL_FULL,	/* CNMs for a new flow, max_rps in use */
	TCA_QCNRP_STATS_RL_CREATED,	/* rate limiters made */
	TCA_QCNRP_STATS_RL_FREED,	/* back at line rate and empty: freed */
	TCA_QCNRP_STATS_DROP_RL,	/* packets over an RL's limit */
	TCA_QCNRP_STATS_RLS,		/* nested: TCA_QCNRP_RL per RL in use */
	TCA_QCNRP_STATS_CNM_ALGO,	/* CNMs of the other algorithm: dropped */
	TCA_QCNRP_STATS_DSM_IGNORED,	/* DSM increases with no RL, or from a
					 * CP other than its last decrease's
					 */
	TCA_QCNRP_STATS_DSM_CLAMPED,	/* DSM steps cut short at r_min or line */
	TCA_QCNRP_STATS_CNM_FLUSHED,	/* CNMs waiting when the algo changed:
					 * dropped
					 */
	__TCA_QCNRP_STATS_MAX
};
#define TCA_QCNRP_STATS_MAX	(__TCA_QCNRP_STATS_MAX - 1)

enum {
	TCA_QCNRP_RL_UNSPEC,
	TCA_QCNRP_RL,			/* nested: the attributes below */
	TCA_QCNRP_RL_PAD,
	TCA_QCNRP_RL_DA,		/* 6 bytes: the flow's destination */
	TCA_QCNRP_RL_PRIO,		/* u8 */
	TCA_QCNRP_RL_CR,		/* u64, bytes/s: current rate */
	TCA_QCNRP_RL_TR,		/* u64, bytes/s: target rate */
	TCA_QCNRP_RL_CNMS,		/* u64: CNMs that cut it */
	TCA_QCNRP_RL_BACKLOG,		/* u32, packets */
	TCA_QCNRP_RL_CPID,		/* 8 bytes, DSM: the CP of its last cut */
	__TCA_QCNRP_RL_MAX
};
#define TCA_QCNRP_RL_MAX	(__TCA_QCNRP_RL_MAX - 1)

/* The control law of a CP and of an RP: what its CNMs carry. */
enum qcn_algo {
	QCN_ALGO_QCN,		/* 802.1Qau: QntzFb, the RP's own recovery */
	QCN_ALGO_DSM,		/* DSM: a signed rate step, r <- r + F_b */
};

/* When a DSM CP samples. */
enum qcn_dsm_clock {
	QCN_DSM_CLOCK_BYTES,	/* every i_s bytes arrived (the default) */
	QCN_DSM_CLOCK_TIME,	/* at the first arrival T after the last */
};

enum qcn_cp_at {
	QCN_CP_AT_NONE,	/* no congestion point: PAUSE only */
	QCN_CP_AT_EGRESS,	/* the standard's: each output class */
	QCN_CP_AT_INGRESS,	/* Unbiased QCN's: each input's buffer */
};

enum qcn_culprit {
	QCN_CULPRIT_ARRIVAL,	/* the frame that completed the sample */
	QCN_CULPRIT_OCC_RAND,	/* the owner of a random buffer unit */
	QCN_CULPRIT_OCC_DET,	/* the flow holding the most bytes */
	QCN_CULPRIT_OCC_BYTES,	/* the owner of a random buffered byte */
};

enum qcn_table {
	QCN_TABLE_FIXED,	/* a sample every I_s bytes */
	QCN_TABLE_STD,		/* 802.1Qau's table of intervals, jittered */
};

#define QCN_FLOWS		64	/* flows a congestion point tells apart */

enum {
	TCA_QCN_UNSPEC,
	TCA_QCN_PAD,
	TCA_QCN_CP,		/* u8: enum qcn_cp_at */
	TCA_QCN_SAMPLE,	/* u8: enum qcn_culprit */
	TCA_QCN_PRIO,		/* u32: the class the CPs watch */
	TCA_QCN_Q_EQ,		/* u32, bytes: Q_eq */
	TCA_QCN_W,		/* u32: weight of Q_delta */
	TCA_QCN_I_S,		/* u32, bytes: sampling interval */
	TCA_QCN_TABLE,		/* u8: enum qcn_table */
	TCA_QCN_UNIT,		/* u32, bytes: a CulpritArray unit */
	TCA_QCN_UNITS,		/* u32: units per CP */
	TCA_QCN_PROBES,		/* u32: random probes before a scan */
	TCA_QCN_ENCAP,		/* u32, bytes of the culprit's MSDU in a CNM */
	TCA_QCN_SEED,		/* u32 */
	TCA_QCN_B_OUT,		/* u32, bytes: output buffer of class prio, 0: none */
	TCA_QCN_ALGO,		/* u8: enum qcn_algo */
	TCA_QCN_DSM_M,		/* u32: DSM's prediction horizon, samples */
	TCA_QCN_DSM_HA,		/* u32, mHz: DSM's H_a; 0: 0.8 * 2 / T */
	TCA_QCN_DSM_HB,		/* u32, mHz: H_b; 0: the same */
	TCA_QCN_DSM_HC,		/* u32, mHz: H_c; 0: the same */
	TCA_QCN_DSM_OMEGA,	/* u32, Q16: omega; 0: the least consistent */
	TCA_QCN_DSM_ROOM,	/* u8: 1, each step bounded by its source's
				 * room; 0, the paper's (the default)
				 */
	TCA_QCN_DSM_CLOCK,	/* u8: enum qcn_dsm_clock */
	__TCA_QCN_MAX
};
#define TCA_QCN_MAX		(__TCA_QCN_MAX - 1)

/* xstats, in TCA_FCQ_STATS_SCHEME: u64 counters of this port's CPs */
enum {
	TCA_QCN_STATS_UNSPEC,
	TCA_QCN_STATS_PAD,
	TCA_QCN_STATS_SAMPLES,		/* samples taken */
	TCA_QCN_STATS_CNM_TX,		/* CNMs asked of a port */
	TCA_QCN_STATS_CNM_REFUSED,	/* ... that it had no room for */
	TCA_QCN_STATS_NO_CULPRIT,	/* CNMs wanted, no flow to name */
	TCA_QCN_STATS_UNTRACKED,	/* frames beyond QCN_FLOWS or units */
	TCA_QCN_STATS_FB_HIST,		/* nested: u64, type QntzFb / 8 + 1 */
	TCA_QCN_STATS_OB_BYTES,		/* bytes in the output buffer now */
	TCA_QCN_STATS_DSM_T,		/* ns: DSM's T, i_s at the port's rate */
	TCA_QCN_STATS_DSM_REGION,	/* nested: u64 samples per region, type
					 * 1 StateA, 2 StateB, 3 StateC, 4 origin
					 */
	TCA_QCN_STATS_DSM_CLAMPED,	/* samples whose step eq. 27 bounded */
	TCA_QCN_STATS_DSM_QFH,		/* s64, bytes: the last ^Q_f */
	TCA_QCN_STATS_DSM_QVH,		/* s64, bytes: the last ^Q_v */
	TCA_QCN_STATS_DSM_FB,		/* s64, kbit/s: the last F_b */
	TCA_QCN_STATS_SAMPLE_NS,	/* ns from the first sample to the last */
	TCA_QCN_STATS_DSM_BOUNDED,	/* steps the room bound cut */
	__TCA_QCN_STATS_MAX
};
#define TCA_QCN_STATS_MAX	(__TCA_QCN_STATS_MAX - 1)

#endif /* _UAPI_LINUX_QCN_H */
