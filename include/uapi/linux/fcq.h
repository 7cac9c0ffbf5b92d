/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * fcq: lossless-Ethernet flow control qdiscs - user API.
 *
 * Shared by the kernel modules, the tc plugins and the tools. Only
 * <linux/types.h> is required; nothing here depends on attributes newer than
 * Linux 6.1. Attribute numbers are ABI: append, never renumber.
 */
#ifndef _UAPI_LINUX_FCQ_H
#define _UAPI_LINUX_FCQ_H

#include <linux/types.h>

#define FCQ_NUM_PRIO	8

/* Where a port takes a packet's priority (0..7) from. */
enum fcq_trust {
	FCQ_TRUST_DSCP,		/* IP DSCP through the DSCP map (DSCP >> 3) */
	FCQ_TRUST_PCP,		/* 802.1Q PCP of a VLAN tag, else 0 */
	FCQ_TRUST_SKB,		/* skb->priority & 7: a host's own traffic */
};

/*
 * TCA_OPTIONS of every fcq qdisc: these port attributes, then the scheme's
 * own attributes from TCA_FCQ_SCHEME_BASE on, in the same nest.
 */
enum {
	TCA_FCQ_UNSPEC,
	TCA_FCQ_PAD,
	TCA_FCQ_RATE,		/* u64, bytes/s: emulated line rate */
	TCA_FCQ_DELAY,		/* u32, ns: one-way wire delay */
	TCA_FCQ_OVERHEAD,	/* u32, bytes a frame costs beyond skb->len */
	TCA_FCQ_SWITCH,		/* u32: switch id within the netns */
	TCA_FCQ_TRUST,		/* u8: enum fcq_trust */
	TCA_FCQ_DSCP_MAP,	/* binary, 64 x u8: priority of each DSCP */
	TCA_FCQ_LIMIT,		/* u32, packets this port may hold, those on
				 * the wire and control frames included
				 */
	TCA_FCQ_LOSSLESS,	/* u8: mask of lossless priorities */
	TCA_FCQ_PAUSE_MAX,	/* u32, ns: longest pause a received frame may
				 * impose; longer ones are dropped (0 = any)
				 */
	/* Buffer model of the switch (see Documentation/pfc.rst). */
	TCA_FCQ_BUFFER,		/* u32, bytes: the switch's buffer (switch-wide) */
	TCA_FCQ_XOFF,		/* u32, bytes: static threshold; 0 = dynamic */
	TCA_FCQ_XON,		/* u32, bytes: static resume level */
	TCA_FCQ_ALPHA,		/* u32, Q16: dynamic threshold factor */
	TCA_FCQ_RESUME_OFFSET,	/* u32, bytes: dynamic resume hysteresis */
	TCA_FCQ_RESERVE,	/* u32, bytes guaranteed per (port, priority) */
	TCA_FCQ_HEADROOM,	/* u32, bytes per (port, lossless priority);
				 * 0 = computed from rate, delay, MTU, response
				 */
	TCA_FCQ_RESPONSE,	/* u32, ns: upstream reaction allowance */
	TCA_FCQ_PAUSE_QUANTA,	/* u16: quanta each XOFF frame asks for */
	TCA_FCQ_REFRESH,	/* u32, ns: XOFF refresh period; 0 = half of
				 * the pause
				 */
	/* ECN marking as a packet leaves a class's queue (RED-like, as the
	 * HPCC simulator's switch): never at or below kmin bytes, always at or
	 * above kmax, in between with probability up to pmax.
	 */
	TCA_FCQ_ECN_KMIN,	/* u32, bytes */
	TCA_FCQ_ECN_KMAX,	/* u32, bytes; 0 = no marking */
	TCA_FCQ_ECN_PMAX,	/* u32, Q16 probability */
	__TCA_FCQ_MAX
};
#define TCA_FCQ_MAX		(__TCA_FCQ_MAX - 1)
#define TCA_FCQ_SCHEME_BASE	32

#define FCQ_ALPHA_SHIFT		16	/* TCA_FCQ_ALPHA is alpha << 16 */

/* pfc: standard 802.1Qbb PFC */
enum {
	TCA_PFC_STRICT = TCA_FCQ_SCHEME_BASE,	/* u8: mask of strict priorities */
	TCA_PFC_QUANTA,		/* binary, 8 x u32: DRR quantum of each priority */
	TCA_PFC_SCHED,		/* u8, enum fcq_sched: within each class */
	__TCA_PFC_MAX
};
#define TCA_PFC_MAX		(__TCA_PFC_MAX - 1)

/* How a pfc port serves the packets of one class. */
enum fcq_sched {
	FCQ_SCHED_FIFO,		/* one FIFO: 802.1Qbb's queue */
	FCQ_SCHED_DRR,		/* DRR over the ingress ports (and local flows),
				 * the same scheduler as fafc's class
				 */
};

/*
 * fafc: FAFC (Lu et al.), see Documentation/fafc.rst. The first three are
 * the port's own; the rest are the algorithm's and switch-wide: an add or
 * change that names one sets it for every fafc port of the switch, and
 * every port dumps the value in effect.
 */
enum {
	TCA_FAFC_QUANTUM = TCA_FCQ_SCHEME_BASE,	/* u32, bytes: DRR quantum */
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

/*
 * xstats of every fcq qdisc: nested attributes in TCA_STATS_APP. Counters
 * are u64 unless noted; the scheme's own counters nest in
 * TCA_FCQ_STATS_SCHEME.
 */
enum {
	TCA_FCQ_STATS_UNSPEC,
	TCA_FCQ_STATS_PAD,
	TCA_FCQ_STATS_PRIO,		/* nested TCA_FCQ_PRIO_*, one per priority */
	TCA_FCQ_STATS_WIRE,		/* u32: frames on the wire now */
	TCA_FCQ_STATS_CTRL_TX,		/* control frames sent */
	TCA_FCQ_STATS_CTRL_NOMEM,	/* control frames not built: no memory */
	TCA_FCQ_STATS_RX_PAUSE,		/* 802.3x PAUSE frames received */
	TCA_FCQ_STATS_RX_MALFORMED,	/* truncated, not to 01:80:C2:00:00:01,
					 * or no Ethernet header
					 */
	TCA_FCQ_STATS_RX_BAD_OPCODE,	/* MAC Control opcode not PAUSE/PFC */
	TCA_FCQ_STATS_RX_NOT_LOSSLESS,	/* PFC for a priority not lossless here */
	TCA_FCQ_STATS_RX_OVER_MAX,	/* pause longer than pause_max */
	TCA_FCQ_STATS_DROP_LOSSLESS,	/* lossless packets dropped: headroom full */
	TCA_FCQ_STATS_DROP_LOSSY,	/* lossy packets over their threshold */
	TCA_FCQ_STATS_DROP_LIMIT,	/* packets over the port's limit */
	TCA_FCQ_STATS_DROP_GSO,		/* GSO packets that failed to segment */
	TCA_FCQ_STATS_HEADROOM,		/* u32: headroom in effect, bytes */
	TCA_FCQ_STATS_THRESHOLD,	/* u32: this port's pause threshold now */
	TCA_FCQ_STATS_SW_USED,		/* bytes buffered in the switch now */
	TCA_FCQ_STATS_SW_USED_MAX,	/* peak of the above */
	TCA_FCQ_STATS_ECN_MARKED,	/* packets marked CE */
	TCA_FCQ_STATS_RX_EXT,		/* fcq extension frames applied */
	TCA_FCQ_STATS_TX_LAG,		/* ns of link time lost to host stalls */
	TCA_FCQ_STATS_SCHEME = 32,	/* nested, scheme-specific */
	__TCA_FCQ_STATS_MAX
};
#define TCA_FCQ_STATS_MAX	(__TCA_FCQ_STATS_MAX - 1)

/* One priority of a port: as an egress (tx, pauses honoured) and as an
 * ingress (bytes it buffered in the switch, pauses it sent).
 */
enum {
	TCA_FCQ_PRIO_UNSPEC,
	TCA_FCQ_PRIO_PAD,
	TCA_FCQ_PRIO_ID,		/* u8: the priority */
	TCA_FCQ_PRIO_TX_PACKETS,	/* data frames sent */
	TCA_FCQ_PRIO_TX_BYTES,
	TCA_FCQ_PRIO_BACKLOG,		/* u32: bytes queued for this egress */
	TCA_FCQ_PRIO_DROPS,		/* packets dropped at this egress */
	TCA_FCQ_PRIO_PFC_RX,		/* PFC/PAUSE/fcq frames applied to it */
	TCA_FCQ_PRIO_PAUSED_NS,		/* time this egress class was paused */
	TCA_FCQ_PRIO_PFC_TX,		/* PFC frames (XOFF, refresh, XON, timed)
					 * and fcq frames sent for it
					 */
	TCA_FCQ_PRIO_XOFF,		/* XOFF transitions of this ingress */
	TCA_FCQ_PRIO_XON,		/* XON transitions */
	TCA_FCQ_PRIO_INGRESS,		/* u32: bytes buffered from this ingress */
	TCA_FCQ_PRIO_HEADROOM_MAX,	/* u32: peak headroom used */
	__TCA_FCQ_PRIO_MAX
};
#define TCA_FCQ_PRIO_MAX	(__TCA_FCQ_PRIO_MAX - 1)

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
 * Generic netlink family "fcq": switch state for tools, events for
 * monitors (multicast group "events").
 */
#define FCQ_GENL_NAME		"fcq"
#define FCQ_GENL_VERSION	1
#define FCQ_GENL_MCGRP_EVENTS	"events"
#define FCQ_GENL_MCGRP_FAFC	"fafc"		/* pause LP requests for fafcd */

enum {
	FCQ_CMD_UNSPEC,
	FCQ_CMD_SWITCH_GET,	/* dump: the switches of this netns */
	FCQ_CMD_EVENT,		/* multicast: something happened on a port */
	FCQ_CMD_FAFC_LP,	/* multicast to "fafc": a pause LP to solve */
	FCQ_CMD_FAFC_PAUSE,	/* do: its answer; the reply says what became
				 * of it (FCQ_A_FAFC_STATUS, _LATENCY)
				 */
	__FCQ_CMD_MAX
};
#define FCQ_CMD_MAX		(__FCQ_CMD_MAX - 1)

enum fcq_event {
	FCQ_EVENT_PAUSE_TX = 1,	/* a port sent PFC/PAUSE */
	FCQ_EVENT_PAUSE_RX,	/* a port honoured one */
};

enum {
	FCQ_A_UNSPEC,
	FCQ_A_PAD,
	FCQ_A_SWITCH,		/* u32: switch id (in a dump request: only it) */
	FCQ_A_BUFFER,		/* u64: buffer size, bytes */
	FCQ_A_USED,		/* u64: bytes buffered now */
	FCQ_A_USED_MAX,		/* u64 */
	FCQ_A_PORT,		/* nested FCQ_A_PORT_*, repeated */
	FCQ_A_EVENT,		/* u8: enum fcq_event */
	FCQ_A_IFINDEX,		/* u32 */
	FCQ_A_PRIO_MASK,	/* u8: classes the frame addressed */
	FCQ_A_QUANTA,		/* binary, 8 x u16 */
	FCQ_A_TIME,		/* u64, ns of CLOCK_MONOTONIC */
	FCQ_A_PAUSE_NS,		/* u32: an fcq frame's pause, ns */
	/* The pause LP (Documentation/fafc.rst): minimize sum R_i T_i
	 * subject to sum A_i T_i >= DEMAND * T_hop, 0 <= T_i <= T_hop.
	 */
	FCQ_A_FAFC_EGRESS,	/* u16: the egress port that triggered (slot) */
	FCQ_A_FAFC_SEQ,		/* u64: request id, echoed in the answer */
	FCQ_A_FAFC_THOP,	/* u64, ns */
	FCQ_A_FAFC_DEMAND,	/* s64, bytes */
	FCQ_A_FAFC_PORT,	/* nested FCQ_A_FAFC_PORT_*, repeated */
	FCQ_A_FAFC_STATUS,	/* u8: enum fcq_fafc_status */
	FCQ_A_FAFC_LATENCY,	/* u64, ns: request sent -> answer applied */
	__FCQ_A_MAX
};
#define FCQ_A_MAX		(__FCQ_A_MAX - 1)

enum {
	FCQ_A_PORT_UNSPEC,
	FCQ_A_PORT_IFINDEX,	/* u32 */
	FCQ_A_PORT_KIND,	/* string: the qdisc kind */
	FCQ_A_PORT_XOFF,	/* u8: priorities in XOFF toward the upstream */
	FCQ_A_PORT_INGRESS,	/* binary, 8 x u32: bytes buffered per priority */
	FCQ_A_PORT_HEADROOM,	/* u32 */
	__FCQ_A_PORT_MAX
};
#define FCQ_A_PORT_MAX		(__FCQ_A_PORT_MAX - 1)

enum {
	FCQ_A_FAFC_PORT_UNSPEC,
	FCQ_A_FAFC_PORT_PAD,
	FCQ_A_FAFC_PORT_IDX,	/* u16: slot (the LP variable i) */
	FCQ_A_FAFC_PORT_IFINDEX, /* u32 (request only) */
	FCQ_A_FAFC_PORT_A,	/* u64, bytes per T_hop: arrivals toward the egress */
	FCQ_A_FAFC_PORT_R,	/* u64, bytes per T_hop: toward uncongested ports */
	FCQ_A_FAFC_PORT_T_NS,	/* u64, ns: the pause (answer only) */
	__FCQ_A_FAFC_PORT_MAX
};
#define FCQ_A_FAFC_PORT_MAX	(__FCQ_A_FAFC_PORT_MAX - 1)

enum fcq_fafc_status {
	FCQ_FAFC_APPLIED,	/* the pauses went out */
	FCQ_FAFC_LATE,		/* after T_hop: discarded, counted */
	FCQ_FAFC_STALE,		/* not the request outstanding: discarded */
};

#endif /* _UAPI_LINUX_FCQ_H */
