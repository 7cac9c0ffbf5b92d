/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Isolation lanes: a few FIFOs of one class whose order core/iso.c keeps
 * (holds, order marks), for schemes that move a paused flow's packets
 * aside without sending them. Caller holds the qdisc root lock.
 */
#ifndef FCQ_LANES_H
#define FCQ_LANES_H

#include "fcq.h"
#include "../core/iso.h"

struct fcq_lanes {
	struct fcq_iso *iso;
	struct sk_buff_head *q;		/* [iso->n] */
	const struct net_device *dev;	/* for the tracepoints */
	u8 prio;
};

int fcq_lanes_init(struct fcq_lanes *l, const struct net_device *dev,
		   u8 prio, u16 lanes, u16 marks);
void fcq_lanes_free(struct fcq_lanes *l);

static inline struct sk_buff *fcq_lanes_head(struct fcq_lanes *l, int lane)
{
	return skb_peek(&l->q[lane]);
}

static inline u32 fcq_lanes_bytes(const struct fcq_lanes *l, int lane)
{
	return l->iso->lane[lane].bytes;
}

void fcq_lanes_push(struct fcq_lanes *l, int lane, struct sk_buff *skb);
struct sk_buff *fcq_lanes_pop(struct fcq_lanes *l, int lane);
/* The head of @from joins the tail of @to, unsent (fcq:isolate). */
void fcq_lanes_move(struct fcq_lanes *l, int from, int to);
/* A resume starts to drain @lane (fcq:resume). */
void fcq_lanes_resumed(const struct fcq_lanes *l, int lane);
/* Any queued packet, unlinked (reset, teardown); NULL when empty. */
struct sk_buff *fcq_lanes_flush(struct fcq_lanes *l);

#endif /* FCQ_LANES_H */
