/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * flowsail: FlowSail per-flow flow control over a few queues, with the
 * bfc, ideal, pfc and fifo baselines. Its options nest in TCA_FCQ_SCHEME
 * (see fcq.h), its xstats in TCA_FCQ_STATS_SCHEME. Attribute numbers are
 * ABI: append, never renumber.
 */
#ifndef _UAPI_LINUX_FLOWSAIL_H
#define _UAPI_LINUX_FLOWSAIL_H

#include <linux/types.h>

enum flowsail_mode {
	FLOWSAIL_MODE_FLOWSAIL,	/* the paper's scheme */
	FLOWSAIL_MODE_BFC,	/* queue-collective marking, queue pauses */
	FLOWSAIL_MODE_IDEAL,	/* bfc, a queue per flow */
	FLOWSAIL_MODE_PFC,	/* flows hashed to queues, 802.1Qbb pauses */
	FLOWSAIL_MODE_FIFO,	/* flows hashed to queues, no flow control */
};

#define FLOWSAIL_FL_OM		0x1	/* order marks (in-order delivery) */
#define FLOWSAIL_FL_PAUSE_ORIG	0x2	/* hold a paused flow's old queue */
#define FLOWSAIL_FL_MAP_SINGLE	0x4	/* every normal flow in queue 0 */
#define FLOWSAIL_FL_NONPAUSED	0x8	/* N_active: every queue not held */
#define FLOWSAIL_FL_ALL		0xf

enum {
	TCA_FLOWSAIL_UNSPEC,
	TCA_FLOWSAIL_MODE,	/* u8: enum flowsail_mode, fixed at creation */
	TCA_FLOWSAIL_QUEUES,	/* u32: queues per class, fixed at creation */
	TCA_FLOWSAIL_FLOWS,	/* u32: flow table size, fixed at creation */
	TCA_FLOWSAIL_HRTT,	/* u32, ns: one-hop RTT; 0: twice the delay */
	TCA_FLOWSAIL_QL,	/* u32: Q_l in 1/1000 of HBDP */
	TCA_FLOWSAIL_QH,	/* u32: Q_h in 1/1000 of HBDP; 0: none */
	TCA_FLOWSAIL_QL_BYTES,	/* u32, bytes: Q_l as is; 0: from QL */
	TCA_FLOWSAIL_QH_BYTES,	/* u32, bytes: Q_h as is; 0: from QH */
	TCA_FLOWSAIL_RELEASE,	/* u32: T_rel in 1/1000 of HRTT */
	TCA_FLOWSAIL_FLAGS,	/* bitfield32: FLOWSAIL_FL_* */
	TCA_FLOWSAIL_QUANTUM,	/* u32, bytes: DRR among a class's queues */
	TCA_FLOWSAIL_PAUSE_TIMEOUT, /* u32, ns: a pause lasts at most; 0: on */
	TCA_FLOWSAIL_STRICT,	/* u8: mask of strict priorities */
	__TCA_FLOWSAIL_MAX
};
#define TCA_FLOWSAIL_MAX	(__TCA_FLOWSAIL_MAX - 1)

/* xstats, in TCA_FCQ_STATS_SCHEME: u64 counters unless noted */
enum {
	TCA_FLOWSAIL_STATS_UNSPEC,
	TCA_FLOWSAIL_STATS_PAD,
	TCA_FLOWSAIL_STATS_MARKS_QH,	/* packets congested over Q_h */
	TCA_FLOWSAIL_STATS_MARKS_FAIR,	/* over Q_l, above S_fair */
	TCA_FLOWSAIL_STATS_MARKS_LONE,	/* over Q_l, alone in the queue */
	TCA_FLOWSAIL_STATS_MARKS_QUEUE,	/* bfc: over the queue threshold */
	TCA_FLOWSAIL_STATS_PAUSES,	/* flows paused upstream */
	TCA_FLOWSAIL_STATS_RESUMES,	/* flows resumed upstream */
	TCA_FLOWSAIL_STATS_PAUSE_RX,	/* pauses applied from the peer */
	TCA_FLOWSAIL_STATS_RESUME_RX,	/* resumes applied from the peer */
	TCA_FLOWSAIL_STATS_CFT_INSERT,	/* flows moved to rsvQ */
	TCA_FLOWSAIL_STATS_CFT_DELETE,	/* flows released from rsvQ */
	TCA_FLOWSAIL_STATS_OM_PAIRS,	/* order marks set */
	TCA_FLOWSAIL_STATS_PINNED,	/* pauses held in the flow's queue */
	TCA_FLOWSAIL_STATS_UNTRACKED,	/* packets with no flow entry */
	TCA_FLOWSAIL_STATS_ALL_RX,	/* whole-class holds */
	TCA_FLOWSAIL_STATS_NO_KEY,	/* lossless packets without a 5-tuple */
	TCA_FLOWSAIL_STATS_FLOWS,	/* u32: flow entries in use */
	TCA_FLOWSAIL_STATS_QUEUES,	/* nested: TCA_FLOWSAIL_Q per queue */
	__TCA_FLOWSAIL_STATS_MAX
};
#define TCA_FLOWSAIL_STATS_MAX	(__TCA_FLOWSAIL_STATS_MAX - 1)

/*
 * The queues that are not idle (bytes, flows or holds), at most 256, in
 * class order, then queue order; rsvQ is the last of a flowsail class.
 */
enum {
	TCA_FLOWSAIL_Q_UNSPEC,
	TCA_FLOWSAIL_Q,			/* nested: the attributes below */
	TCA_FLOWSAIL_Q_PRIO,		/* u8 */
	TCA_FLOWSAIL_Q_INDEX,		/* u16 */
	TCA_FLOWSAIL_Q_BYTES,		/* u32 */
	TCA_FLOWSAIL_Q_FLOWS,		/* u32: flowNum */
	TCA_FLOWSAIL_Q_HOLDS,		/* u32: cfNum */
	__TCA_FLOWSAIL_Q_MAX
};
#define TCA_FLOWSAIL_Q_MAX	(__TCA_FLOWSAIL_Q_MAX - 1)

#endif /* _UAPI_LINUX_FLOWSAIL_H */
