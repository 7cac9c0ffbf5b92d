// SPDX-License-Identifier: GPL-2.0
/* Isolation lanes (lanes.h): sk_buff FIFOs kept in step with core/iso.c. */
#include <linux/vmalloc.h>

#include "lanes.h"
#include "trace.h"

int fcq_lanes_init(struct fcq_lanes *l, const struct net_device *dev,
		   u8 prio, u16 lanes, u16 marks)
{
	int i;

	l->dev = dev;
	l->prio = prio;
	l->iso = kvzalloc(fcq_iso_size(lanes, marks), GFP_KERNEL);
	l->q = kvcalloc(lanes, sizeof(*l->q), GFP_KERNEL);
	if (!l->iso || !l->q) {
		fcq_lanes_free(l);
		return -ENOMEM;
	}
	fcq_iso_init(l->iso, lanes, marks);
	for (i = 0; i < lanes; i++)
		__skb_queue_head_init(&l->q[i]);
	return 0;
}
EXPORT_SYMBOL_GPL(fcq_lanes_init);

void fcq_lanes_free(struct fcq_lanes *l)
{
	kvfree(l->iso);
	kvfree(l->q);
	l->iso = NULL;
	l->q = NULL;
}
EXPORT_SYMBOL_GPL(fcq_lanes_free);

void fcq_lanes_push(struct fcq_lanes *l, int lane, struct sk_buff *skb)
{
	__skb_queue_tail(&l->q[lane], skb);
	fcq_iso_push(l->iso, lane, qdisc_pkt_len(skb));
}
EXPORT_SYMBOL_GPL(fcq_lanes_push);

struct sk_buff *fcq_lanes_pop(struct fcq_lanes *l, int lane)
{
	struct sk_buff *skb = __skb_dequeue(&l->q[lane]);

	if (skb)
		fcq_iso_pop(l->iso, lane, qdisc_pkt_len(skb));
	return skb;
}
EXPORT_SYMBOL_GPL(fcq_lanes_pop);

void fcq_lanes_move(struct fcq_lanes *l, int from, int to)
{
	struct sk_buff *skb = __skb_dequeue(&l->q[from]);

	__skb_queue_tail(&l->q[to], skb);
	fcq_iso_move(l->iso, from, to, qdisc_pkt_len(skb));
	trace_isolate(l->dev, l->prio, from, to, qdisc_pkt_len(skb));
}
EXPORT_SYMBOL_GPL(fcq_lanes_move);

void fcq_lanes_resumed(const struct fcq_lanes *l, int lane)
{
	trace_resume(l->dev, l->prio, lane, skb_queue_len(&l->q[lane]),
		     fcq_lanes_bytes(l, lane));
}
EXPORT_SYMBOL_GPL(fcq_lanes_resumed);

struct sk_buff *fcq_lanes_flush(struct fcq_lanes *l)
{
	int i;

	if (!l->iso)		/* never set up: a failed init's destroy */
		return NULL;
	for (i = 0; i < l->iso->n; i++)
		if (!skb_queue_empty(&l->q[i]))
			return fcq_lanes_pop(l, i);
	return NULL;
}
EXPORT_SYMBOL_GPL(fcq_lanes_flush);
