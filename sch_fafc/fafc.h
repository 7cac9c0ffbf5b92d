/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the fafc qdisc (sch_fafc.c) and FAFC's switch-wide
 * state (fafc_switch.c) share.
 *
 * Each fafc port is an fcq port (fcq/fcq.h) plus queues: per ingress port
 * for the class FAFC controls (the paper's port-based WFQ, as DRR), and for
 * locally sent packets per flow (as an RDMA NIC arbitrates its queue
 * pairs); one FIFO for each other class; ETS between classes. The FAFC algorithm
 * (core/fafc.c) runs on one state per fcq switch: its ports are the LP's
 * ingress and egress ports, indexed by their fcq switch slot.
 */
#ifndef FCQ_SCH_FAFC_H
#define FCQ_SCH_FAFC_H

#include <uapi/linux/fafc.h>

#include "../fcq/fcq.h"
#include "../fcq/drr.h"
#include "../core/ets.h"
#include "../core/fafc.h"

/* T_hop, set or derived: the timers run every T_hop, under a lock. */
#define FAFC_THOP_MIN	NSEC_PER_USEC
#define FAFC_THOP_MAX	(100 * NSEC_PER_MSEC)
#define FAFC_COUNTED	0x01		/* fcq_cb()->scheme: in FAFC's books */

/* The switch-wide parameters (TCA_FAFC_PRIO ... TCA_FAFC_FLAGS). */
struct fafc_params {
	u8 prio;
	u8 solver;
	u8 frame;
	u32 thop;		/* ns, 0 = auto */
	u32 th_p;
	u32 th_e;
	u32 th_c;		/* 0 = one hop BDP */
	u32 alpha;
	u32 beta;
	u32 fdec;
	u32 dec_win;
	u32 horizon;
	u32 flags;
};

/* A configuration's switch-wide part: which parameters it names. */
struct fafc_change {
	struct fafc_params set;
	u32 named;			/* FAFC_NAMED() bits */
	u32 flags_sel;			/* which flags it sets */
};

/* Which of struct fafc_params a configuration names (bit = TCA_FAFC_x). */
#define FAFC_NAMED(attr)	BIT((attr) - TCA_FAFC_PRIO)

/* A port's FAFC counters, kept by the switch (see the uapi for each). */
struct fafc_port_stats {
	u64 triggers;
	u64 lp_solves;
	u64 lp_idle;
	u64 lp_infeasible;
	u64 lp_capped;
	u64 solve_ns;
	u64 solve_ns_max;
	u64 user_sent;
	u64 user_busy;
	u64 user_late;
	u64 user_stale;
	u64 user_lost;
	u64 pauses;
	u64 pause_ns;
};

/* What a port's xstats show of the switch. */
struct fafc_port_view {
	struct fafc_port_stats st;
	u32 thop;
	u32 th_c;
	s64 qpred;
	s64 queue;
	s64 ecnof;
};

struct fafc_switch;

struct fafc_sched {
	struct fcq_port port;		/* first: fcq_port() */
	struct fafc_switch *fsw;	/* NULL until joined */

	/* the FAFC class: DRR over the ingress ports and local flows */
	struct fcq_drr drr;
	/* the other classes; ETS between all eight */
	struct sk_buff_head fifo[FCQ_NUM_PRIO];
	struct fcq_ets ets;

	/* a host's reaction to pauses (Alg. 3) */
	bool cwr;
	u32 cwr_seen;			/* port.pauses_rx at the last signal */
	u64 cwr_signals;
};

/* fafc_switch.c */
void fafc_params_default(struct fafc_params *p);
int fafc_switch_join(struct fafc_sched *q, const struct fafc_change *c,
		     struct netlink_ext_ack *extack);
void fafc_switch_leave(struct fafc_sched *q);
void fafc_switch_configure(struct fafc_sched *q, const struct fafc_change *c);
void fafc_switch_params(struct fafc_sched *q, struct fafc_params *p);
u8 fafc_switch_prio(struct fafc_sched *q);
bool fafc_switch_enqueue(struct fafc_sched *q, struct sk_buff *skb, u64 now);
void fafc_switch_dequeue(struct fafc_sched *q, struct sk_buff *skb, u64 now);
void fafc_switch_release(struct fafc_sched *q, struct sk_buff *skb);
void fafc_switch_view(struct fafc_sched *q, struct fafc_port_view *v);
int fafc_genl_register(void);
void fafc_genl_unregister(void);

#endif /* FCQ_SCH_FAFC_H */
