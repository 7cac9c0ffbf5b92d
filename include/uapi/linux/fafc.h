/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * fafc: FAFC flow control (sch_fafc) - user API: its tc options and xstats,
 * and the generic netlink family "fafc" over which fafcd solves pause LPs.
 * Attribute numbers are ABI: append, never renumber.
 */
#ifndef _UAPI_LINUX_FAFC_H
#define _UAPI_LINUX_FAFC_H

#include <linux/types.h>
#include "fcq.h"

/*
 * fafc: FAFC (Lu et al.), see Documentation/fafc.rst, in TCA_FCQ_SCHEME.
 * The first three are the port's own; the rest are the algorithm's and
 * switch-wide: an add or change that names one sets it for every fafc port
 * of the switch, and every port dumps the value in effect.
 */
enum {
	TCA_FAFC_UNSPEC,
	TCA_FAFC_QUANTUM,	/* u32, bytes: DRR quantum */
	TCA_FAFC_FALLBACK,	/* u8, 0/1: PFC safety net on the ingress queues */
	TCA_FAFC_CWR,		/* u8, 0/1: as a host, answer the first packet
				 * after a received pause NET_XMIT_CN (TCP CWR)
				 */
	TCA_FAFC_PRIO,		/* u8: the class FAFC controls */
	TCA_FAFC_THOP,		/* u32, ns: T_hop; 0 = the time the slowest port
				 * takes for 3125 bytes (25 Gbit/s x 1 us)
				 */
	TCA_FAFC_TH_P,		/* u32, bytes: pause threshold th_p */
	TCA_FAFC_TH_E,		/* u32, bytes: ECN threshold th_e */
	TCA_FAFC_TH_C,		/* u32, bytes: congested pair th_c; 0 = one
				 * hop BDP (slowest rate x T_hop)
				 */
	TCA_FAFC_ALPHA,		/* u32, Q16: Holt level factor */
	TCA_FAFC_BETA,		/* u32, Q16: Holt trend and rate factor */
	TCA_FAFC_FDEC,		/* u32, Q16: rate decrease factor f_dec */
	TCA_FAFC_DEC_WIN,	/* u32, T_hops: f_dec window */
	TCA_FAFC_HORIZON,	/* u32, T_hops: prediction horizon */
	TCA_FAFC_SOLVER,	/* u8: enum fafc_solver */
	TCA_FAFC_FRAME,		/* u8: enum fafc_frame */
	TCA_FAFC_FLAGS,		/* bitfield32 of FAFC_FL_* */
	__TCA_FAFC_MAX
};
#define TCA_FAFC_MAX		(__TCA_FAFC_MAX - 1)

enum fafc_solver {
	FAFC_SOLVER_KERNEL,	/* exact greedy, inline */
	FAFC_SOLVER_USER,	/* fafcd over generic netlink */
};

enum fafc_frame {
	FAFC_FRAME_PFC,		/* 802.1Qbb, sender-side accumulation */
	FAFC_FRAME_FCQ,		/* fcq extension frame: 32-bit ns, accumulating */
};

#define FAFC_FL_ECN		0x01	/* mark CE on the prediction */
#define FAFC_FL_ECNOF		0x02	/* ECN offset while paused (Alg. 4) */
#define FAFC_FL_PRED		0x04	/* trigger on the Holt prediction */
#define FAFC_FL_TREND_HOLT	0x08	/* trend from the smoothed level, eq. (3) */
#define FAFC_FL_TIE_VERTEX	0x10	/* LP ties: a vertex, not an even spread */
#define FAFC_FL_DEMAND_CAP	0x20	/* LP demand <= arrivals - departures */
#define FAFC_FL_ALL		0x3f

/* fafc's own xstats, in TCA_FCQ_STATS_SCHEME. Counters are u64. */
enum {
	TCA_FAFC_STATS_UNSPEC,
	TCA_FAFC_STATS_PAD,
	/* the switch */
	TCA_FAFC_STATS_THOP,		/* u32, ns: T_hop in effect */
	TCA_FAFC_STATS_TH_C,		/* u32, bytes: th_c in effect */
	/* this port as an egress */
	TCA_FAFC_STATS_QPRED,		/* s64, bytes: predicted queue now */
	TCA_FAFC_STATS_QUEUE,		/* s64, bytes: raw FAFC queue now */
	TCA_FAFC_STATS_ECNOF,		/* s64, bytes: ECN offset now */
	TCA_FAFC_STATS_TRIGGERS,	/* departures with the prediction over th_p */
	TCA_FAFC_STATS_LP_SOLVES,	/* pause LPs solved, by either solver */
	TCA_FAFC_STATS_LP_IDLE,		/* triggers with no demand (not growing) */
	TCA_FAFC_STATS_LP_INFEASIBLE,	/* LPs with every contributor paused */
	TCA_FAFC_STATS_SOLVE_NS,	/* total trigger-to-applied time, ns */
	TCA_FAFC_STATS_SOLVE_NS_MAX,
	TCA_FAFC_STATS_USER_SENT,	/* LPs sent to fafcd */
	TCA_FAFC_STATS_USER_BUSY,	/* triggers while one was outstanding */
	TCA_FAFC_STATS_USER_LATE,	/* answers after T_hop */
	TCA_FAFC_STATS_USER_LOST,	/* requests with no listener or no memory */
	/* this port as an ingress */
	TCA_FAFC_STATS_PAUSES,		/* pauses the LP gave it */
	TCA_FAFC_STATS_PAUSE_NS,	/* their total duration, ns (Fig. 3) */
	/* as a host NIC */
	TCA_FAFC_STATS_CWR,		/* enqueues answered NET_XMIT_CN */
	/* this port as an egress, added later */
	TCA_FAFC_STATS_LP_CAPPED,	/* LPs whose demand was capped at
					 * arrivals - departures
					 */
	TCA_FAFC_STATS_USER_STALE,	/* answers to no outstanding request */
	__TCA_FAFC_STATS_MAX
};
#define TCA_FAFC_STATS_MAX	(__TCA_FAFC_STATS_MAX - 1)

/*
 * Generic netlink family "fafc": fafc qdiscs with `solver user` multicast
 * each pause LP (FAFC_CMD_LP) to the group "lp"; fafcd answers with
 * FAFC_CMD_PAUSE, and the reply says what became of the answer.
 * The LP (Documentation/fafc.rst): minimize sum R_i T_i subject to
 * sum A_i T_i >= DEMAND * T_hop, 0 <= T_i <= T_hop.
 */
#define FAFC_GENL_NAME		"fafc"
#define FAFC_GENL_VERSION	1
#define FAFC_GENL_MCGRP_LP	"lp"

enum {
	FAFC_CMD_UNSPEC,
	FAFC_CMD_LP,		/* multicast to "lp": a pause LP to solve */
	FAFC_CMD_PAUSE,		/* do: its answer; the reply has
				 * FAFC_A_STATUS and FAFC_A_LATENCY
				 */
	__FAFC_CMD_MAX
};
#define FAFC_CMD_MAX		(__FAFC_CMD_MAX - 1)

enum {
	FAFC_A_UNSPEC,
	FAFC_A_PAD,
	FAFC_A_SWITCH,		/* u32: switch id */
	FAFC_A_IFINDEX,		/* u32: the egress port's device (request) */
	FAFC_A_TIME,		/* u64, ns of CLOCK_MONOTONIC: request sent */
	FAFC_A_EGRESS,		/* u16: the egress port that triggered (slot) */
	FAFC_A_SEQ,		/* u64: request id, echoed in the answer */
	FAFC_A_THOP,		/* u64, ns */
	FAFC_A_DEMAND,		/* s64, bytes */
	FAFC_A_PORT,		/* nested FAFC_A_PORT_*, repeated */
	FAFC_A_STATUS,		/* u8: enum fafc_status (reply) */
	FAFC_A_LATENCY,		/* u64, ns: request sent -> answer applied */
	FAFC_A_TIE_VERTEX,	/* flag (request): ties as a vertex, not spread */
	__FAFC_A_MAX
};
#define FAFC_A_MAX		(__FAFC_A_MAX - 1)

enum {
	FAFC_A_PORT_UNSPEC,
	FAFC_A_PORT_PAD,
	FAFC_A_PORT_IDX,	/* u16: slot (the LP variable i) */
	FAFC_A_PORT_IFINDEX,	/* u32 (request only) */
	FAFC_A_PORT_A,		/* u64, bytes per T_hop: arrivals toward the egress */
	FAFC_A_PORT_R,		/* u64, bytes per T_hop: toward uncongested ports */
	FAFC_A_PORT_T_NS,	/* u64, ns: the pause (answer only) */
	__FAFC_A_PORT_MAX
};
#define FAFC_A_PORT_MAX		(__FAFC_A_PORT_MAX - 1)

enum fafc_status {
	FAFC_APPLIED,		/* the pauses went out */
	FAFC_LATE,		/* after T_hop: discarded, counted */
	FAFC_STALE,		/* not the request outstanding: discarded */
};

#endif /* _UAPI_LINUX_FAFC_H */
