/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * qcnrp: the IEEE 802.1Qau reaction point of a host NIC, per-flow rate
 * limiters driven by CNMs. Its options nest in TCA_FCQ_SCHEME (see fcq.h),
 * its xstats in TCA_FCQ_STATS_SCHEME. Attribute numbers are ABI: append,
 * never renumber.
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
	__TCA_QCNRP_RL_MAX
};
#define TCA_QCNRP_RL_MAX	(__TCA_QCNRP_RL_MAX - 1)

#endif /* _UAPI_LINUX_QCN_H */
