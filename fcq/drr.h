/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One class of an egress port served by ingress port: deficit
 * round robin over the switch's ingress ports (port-based WFQ, as pause
 * schemes assume, and that a fair comparison gives every scheme), and
 * over a few hashed flows for locally sent packets (as an RDMA NIC serves
 * its queue pairs). Caller holds the qdisc root lock.
 */
#ifndef FCQ_DRR_H
#define FCQ_DRR_H

#include "fcq.h"

#define FCQ_DRR_LOCAL_MAX	16	/* queues of locally sent flows */

struct fcq_drr_flow {
	struct sk_buff_head q;
	struct list_head node;		/* in active, while backlogged */
	s32 deficit;
};

struct fcq_drr {
	struct list_head active;
	u32 quantum;			/* bytes per turn */
	u32 nlocal;			/* local flow queues in use */
	struct fcq_drr_flow flow[FCQ_MAX_PORTS + FCQ_DRR_LOCAL_MAX];
};

void fcq_drr_init(struct fcq_drr *d, u32 quantum, u32 nlocal);
/* By fcq_cb(skb)->ingress, or by flow hash if it has none. */
void fcq_drr_enqueue(struct fcq_drr *d, struct sk_buff *skb);
/* The packet DRR serves next (turning the round as DRR does), or NULL. */
struct sk_buff *fcq_drr_peek(struct fcq_drr *d);
/* Unlink the first packet of the flow at the head of the round: what
 * fcq_drr_peek() returned; or NULL if there is none.
 */
struct sk_buff *fcq_drr_dequeue(struct fcq_drr *d);

#endif /* FCQ_DRR_H */
