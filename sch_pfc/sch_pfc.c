// SPDX-License-Identifier: GPL-2.0
/*
 * IEEE 802.1Qbb Priority-based Flow Control for a Linux switch
 * port or host NIC: the baseline every fcq scheme is compared with.
 *
 * Principles
 * ----------
 * Eight priority classes, each a FIFO, or with `sched drr` each served by
 * DRR over the switch's ingress ports (fcq/drr.c: the scheduler fafc uses,
 * so that a comparison differs only in flow control). Transmission
 * selection is 802.1Qaz ETS: the classes in `strict` go first (higher
 * priority first), the rest share the link by DRR with per-class quanta
 * (core/ets.c).
 *
 * As a switch port, every packet queued here is charged to the (ingress
 * port, priority) it came in on (fcq/switch.c). A lossless queue that
 * crosses its static or dynamic threshold makes its ingress port send a PFC
 * XOFF upstream, refreshed while it holds, and XON (quanta 0) when it drains
 * (core/pfc.c). Headroom absorbs what was already on the wire.
 *
 * As any port, received PFC and 802.3x PAUSE frames stop the paused
 * classes from starting on the serializer until their quanta expire or a
 * zero-quanta frame resumes them (fcq/rx.c, fcq/link.c). A host NIC is the
 * same qdisc on a device whose traffic is locally generated: it honours
 * pauses and never sends them.
 */
#include <linux/module.h>
#include <net/netlink.h>
#include <net/pkt_sched.h>

#include "../fcq/compat.h"
#include "../fcq/fcq.h"
#include "../fcq/drr.h"
#include "../core/ets.h"

struct pfc_sched {
	struct fcq_port port;		/* first: fcq_port() */
	u8 sched;			/* enum fcq_sched */
	struct sk_buff_head q[FCQ_NUM_PRIO];	/* FCQ_SCHED_FIFO */
	struct fcq_drr *drr;		/* [FCQ_NUM_PRIO], once drr was asked */
	struct fcq_ets ets;
};

static const struct nla_policy pfc_quanta_policy[TCA_PFC_QUANTA_MAX + 1] = {
	[TCA_PFC_QUANTUM] = { .type = NLA_U32 },	/* bytes: checked by hand */
};

/* In TCA_FCQ_SCHEME. */
static const struct nla_policy pfc_policy[TCA_PFC_MAX + 1] = {
	[TCA_PFC_STRICT] = { .type = NLA_U8 },
	[TCA_PFC_QUANTA] = NLA_POLICY_NESTED(pfc_quanta_policy),
	[TCA_PFC_SCHED] = NLA_POLICY_MAX(NLA_U8, FCQ_SCHED_DRR),
};

static struct pfc_sched *pfc_of(struct fcq_port *port)
{
	return container_of(port, struct pfc_sched, port);
}

static void pfc_queue(struct fcq_port *port, struct sk_buff *skb)
{
	struct pfc_sched *q = pfc_of(port);
	u8 p = fcq_cb(skb)->prio;

	if (q->sched == FCQ_SCHED_DRR)
		fcq_drr_enqueue(&q->drr[p], skb);
	else
		__skb_queue_tail(&q->q[p], skb);
}

/* The packet class @p sends next, left queued. */
static struct sk_buff *class_peek(struct pfc_sched *q, int p)
{
	if (q->sched == FCQ_SCHED_DRR)
		return fcq_drr_peek(&q->drr[p]);
	return skb_peek(&q->q[p]);
}

static struct sk_buff *class_dequeue(struct pfc_sched *q, int p)
{
	if (q->sched == FCQ_SCHED_DRR)
		return fcq_drr_dequeue(&q->drr[p]);
	return __skb_dequeue(&q->q[p]);
}

static struct sk_buff *pfc_pick(struct fcq_port *port, u64 now, u64 *retry)
{
	struct pfc_sched *q = pfc_of(port);
	struct fcq_ready r = {};
	int p;

	for (p = 0; p < FCQ_NUM_PRIO; p++)
		fcq_ready_offer(port, &r, p, class_peek(q, p), now, retry);
	p = fcq_ets_pick(&q->ets, r.mask, r.len);
	return p < 0 ? NULL : class_dequeue(q, p);
}

static struct sk_buff *pfc_flush(struct fcq_port *port)
{
	struct pfc_sched *q = pfc_of(port);
	struct sk_buff *skb;
	int p;

	for (p = 0; p < FCQ_NUM_PRIO; p++) {
		skb = class_dequeue(q, p);
		if (skb)
			return skb;
	}
	return NULL;
}

/*
 * Move what is queued to the other scheduler, each ingress port's (or
 * local flow's) packets in their order. Tree lock held.
 */
static void set_sched(struct pfc_sched *q, u8 sched)
{
	struct sk_buff *skb;
	int p;

	if (sched == q->sched)
		return;
	for (p = 0; p < FCQ_NUM_PRIO; p++) {
		while ((skb = class_dequeue(q, p))) {
			if (sched == FCQ_SCHED_DRR)
				fcq_drr_enqueue(&q->drr[p], skb);
			else
				__skb_queue_tail(&q->q[p], skb);
		}
	}
	WRITE_ONCE(q->sched, sched);
}

static int pfc_dump(struct fcq_port *port, struct sk_buff *skb)
{
	struct pfc_sched *q = pfc_of(port);
	struct nlattr *quanta;
	int p;

	if (nla_put_u8(skb, TCA_PFC_STRICT, READ_ONCE(q->ets.strict)) ||
	    nla_put_u8(skb, TCA_PFC_SCHED, READ_ONCE(q->sched)))
		return -EMSGSIZE;
	quanta = nla_nest_start(skb, TCA_PFC_QUANTA);
	if (!quanta)
		return -EMSGSIZE;
	for (p = 0; p < FCQ_NUM_PRIO; p++)
		if (nla_put_u32(skb, TCA_PFC_QUANTUM,
				READ_ONCE(q->ets.quantum[p])))
			return -EMSGSIZE;
	nla_nest_end(skb, quanta);
	return 0;
}

static const struct fcq_scheme_ops pfc_ops = {
	.queue = pfc_queue,
	.pick = pfc_pick,
	.flush = pfc_flush,
	.dump = pfc_dump,
};

static int pfc_change(struct Qdisc *sch, struct nlattr *opt,
		      struct netlink_ext_ack *extack)
{
	struct pfc_sched *q = qdisc_priv(sch);
	u32 quanta[FCQ_NUM_PRIO];
	struct nlattr *tb[TCA_PFC_MAX + 1];
	struct fcq_port_cfg cfg;
	u8 sched = q->sched;
	int err, p;

	err = fcq_port_parse(&q->port, opt, pfc_policy, TCA_PFC_MAX, tb, &cfg,
			     extack);
	if (err)
		return err;

	memcpy(quanta, q->ets.quantum, sizeof(quanta));
	if (tb[TCA_PFC_QUANTA]) {
		err = fcq_get_u32s(tb[TCA_PFC_QUANTA], TCA_PFC_QUANTUM,
				   FCQ_QUANTUM_MIN, FCQ_QUANTUM_MAX, quanta,
				   FCQ_NUM_PRIO,
				   "quanta must be 64..1048576 bytes each, at most 8",
				   extack);
		if (err < 0)
			return err;
	}
	if (tb[TCA_PFC_SCHED])
		sched = nla_get_u8(tb[TCA_PFC_SCHED]);
	/* Kept once made: a port may go back and forth. */
	if (sched == FCQ_SCHED_DRR && !q->drr) {
		q->drr = kvcalloc(FCQ_NUM_PRIO, sizeof(*q->drr), GFP_KERNEL);
		if (!q->drr) {
			NL_SET_ERR_MSG(extack, "no memory for the sched drr queues");
			return -ENOMEM;
		}
		for (p = 0; p < FCQ_NUM_PRIO; p++)
			fcq_drr_init(&q->drr[p], psched_mtu(qdisc_dev(sch)),
				     FCQ_DRR_LOCAL_MAX);
	}

	/* One section: no dequeue sees half of it. */
	sch_tree_lock(sch);
	fcq_port_apply(&q->port, &cfg);
	if (tb[TCA_PFC_STRICT])
		WRITE_ONCE(q->ets.strict, nla_get_u8(tb[TCA_PFC_STRICT]));
	for (p = 0; p < FCQ_NUM_PRIO; p++)
		WRITE_ONCE(q->ets.quantum[p], quanta[p]);
	set_sched(q, sched);
	sch_tree_unlock(sch);
	return 0;
}

static int pfc_init(struct Qdisc *sch, struct nlattr *opt,
		    struct netlink_ext_ack *extack)
{
	struct pfc_sched *q = qdisc_priv(sch);
	int err, p;

	for (p = 0; p < FCQ_NUM_PRIO; p++) {
		__skb_queue_head_init(&q->q[p]);
		q->ets.quantum[p] = psched_mtu(qdisc_dev(sch));
	}
	err = fcq_port_init(sch, &pfc_ops, extack);
	if (err)
		return err;
	q->port.sends_pfc = true;
	err = pfc_change(sch, opt, extack);
	if (err)
		return err;
	return fcq_port_start(&q->port, extack);
}

static void pfc_destroy(struct Qdisc *sch)
{
	struct pfc_sched *q = qdisc_priv(sch);

	fcq_port_destroy(sch);		/* empties the queues first */
	kvfree(q->drr);
}

static struct Qdisc_ops pfc_qdisc_ops __read_mostly = {
	.id		= "pfc",
	.priv_size	= sizeof(struct pfc_sched),
	.enqueue	= fcq_port_enqueue,
	.dequeue	= fcq_port_dequeue,
	.peek		= qdisc_peek_dequeued,
	.init		= pfc_init,
	.reset		= fcq_port_reset,
	.destroy	= pfc_destroy,
	.change		= pfc_change,
	.dump		= fcq_port_dump,
	.dump_stats	= fcq_port_dump_stats,
	.owner		= THIS_MODULE,
};

static int __init pfc_module_init(void)
{
	return register_qdisc(&pfc_qdisc_ops);
}

static void __exit pfc_module_exit(void)
{
	unregister_qdisc(&pfc_qdisc_ops);
}

module_init(pfc_module_init);
module_exit(pfc_module_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("IEEE 802.1Qbb PFC switch port / host NIC qdisc (fcq)");
MODULE_ALIAS_NET_SCH("pfc");
