// SPDX-License-Identifier: GPL-2.0
/* Per-ingress deficit round robin for one class (drr.h). */
#include "drr.h"

void fcq_drr_init(struct fcq_drr *d, u32 quantum, u32 nlocal)
{
	int i;

	INIT_LIST_HEAD(&d->active);
	d->quantum = quantum;
	d->nlocal = clamp_t(u32, nlocal, 1, FCQ_DRR_LOCAL_MAX);
	for (i = 0; i < ARRAY_SIZE(d->flow); i++) {
		__skb_queue_head_init(&d->flow[i].q);
		INIT_LIST_HEAD(&d->flow[i].node);
		d->flow[i].deficit = 0;
	}
}
EXPORT_SYMBOL_GPL(fcq_drr_init);

void fcq_drr_enqueue(struct fcq_drr *d, struct sk_buff *skb)
{
	s16 in = fcq_cb(skb)->ingress;
	struct fcq_drr_flow *f;

	if (in >= 0)
		f = &d->flow[in];
	else
		f = &d->flow[FCQ_MAX_PORTS +
			     reciprocal_scale(skb_get_hash(skb), d->nlocal)];
	if (skb_queue_empty(&f->q)) {
		list_add_tail(&f->node, &d->active);
		f->deficit = 0;
	}
	__skb_queue_tail(&f->q, skb);
}
EXPORT_SYMBOL_GPL(fcq_drr_enqueue);

struct sk_buff *fcq_drr_peek(struct fcq_drr *d)
{
	s32 quantum = d->quantum;
	struct fcq_drr_flow *f;

	/* Terminates: each turn adds a quantum to the head's deficit. */
	while ((f = list_first_entry_or_null(&d->active, struct fcq_drr_flow,
					     node))) {
		struct sk_buff *skb = skb_peek(&f->q);

		if (f->deficit >= (s32)qdisc_pkt_len(skb))
			return skb;
		f->deficit += quantum;
		list_move_tail(&f->node, &d->active);
	}
	return NULL;
}
EXPORT_SYMBOL_GPL(fcq_drr_peek);

static struct sk_buff *flow_dequeue(struct fcq_drr_flow *f)
{
	struct sk_buff *skb = __skb_dequeue(&f->q);

	f->deficit -= qdisc_pkt_len(skb);
	if (skb_queue_empty(&f->q))
		list_del_init(&f->node);
	return skb;
}

struct sk_buff *fcq_drr_dequeue(struct fcq_drr *d)
{
	struct fcq_drr_flow *f;

	f = list_first_entry_or_null(&d->active, struct fcq_drr_flow, node);
	return f ? flow_dequeue(f) : NULL;
}
EXPORT_SYMBOL_GPL(fcq_drr_dequeue);
