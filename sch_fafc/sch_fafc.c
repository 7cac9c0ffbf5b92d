// SPDX-License-Identifier: GPL-2.0
/*
 * FAFC: Fast and Accurate Flow Control (Lu, Chen, Zhang, Lu),
 * for a Linux switch port or host NIC.
 *
 * Principles
 * ----------
 * PFC pauses a whole ingress port when its ingress queue is long, and so
 * stops uncongested "victim" flows that share the port with incast
 * traffic. FAFC triggers from the egress queue instead, on a Holt
 * prediction of it one hop round trip ahead, and gives each ingress port
 * its own pause time from a linear program that removes the egress queue's
 * growth at the least cost to traffic bound elsewhere (fafc_switch.c,
 * core/fafc.c). Pauses are re-sent while congestion lasts and need no
 * resume; the switch books them in per-port time slots so that it does not
 * over-react. A PFC safety net on the ingress queues (fcq/switch.c) guards
 * the buffer when the prediction is wrong.
 *
 * This file is the qdisc: options, dumps, and the queues of a port. The
 * class FAFC controls is queued per ingress port and served by DRR (the
 * paper's port-based WFQ, which its LP assumes), locally sent packets per
 * flow (hashed, as an RDMA NIC serves its queue pairs round robin; see
 * fcq/drr.c); the other classes have a FIFO each; ETS shares the
 * link among the classes. A host NIC is the
 * same qdisc: it honours the pauses, and with `cwr` answers the first
 * packet after one NET_XMIT_CN, which makes TCP reduce its window: the
 * endpoint reaction of Alg. 3.
 */
#include <linux/module.h>
#include <net/netlink.h>
#include <net/pkt_sched.h>

#include "../fcq/compat.h"
#include "fafc.h"

#define FAFC_BYTES_MAX		(1U << 31)

/* In TCA_FCQ_SCHEME; values with a unit are checked by hand. */
static const struct nla_policy fafc_policy[TCA_FAFC_MAX + 1] = {
	[TCA_FAFC_QUANTUM] = { .type = NLA_U32 },
	[TCA_FAFC_FALLBACK] = NLA_POLICY_MAX(NLA_U8, 1),
	[TCA_FAFC_CWR] = NLA_POLICY_MAX(NLA_U8, 1),
	[TCA_FAFC_PRIO] = NLA_POLICY_MAX(NLA_U8, FCQ_NUM_PRIO - 1),
	[TCA_FAFC_THOP] = { .type = NLA_U32 },
	[TCA_FAFC_TH_P] = { .type = NLA_U32 },
	[TCA_FAFC_TH_E] = { .type = NLA_U32 },
	[TCA_FAFC_TH_C] = { .type = NLA_U32 },
	[TCA_FAFC_ALPHA] = { .type = NLA_U32 },
	[TCA_FAFC_BETA] = { .type = NLA_U32 },
	[TCA_FAFC_FDEC] = { .type = NLA_U32 },
	[TCA_FAFC_DEC_WIN] = { .type = NLA_U32 },
	[TCA_FAFC_HORIZON] = { .type = NLA_U32 },
	[TCA_FAFC_SOLVER] = NLA_POLICY_MAX(NLA_U8, FAFC_SOLVER_USER),
	[TCA_FAFC_FRAME] = NLA_POLICY_MAX(NLA_U8, FAFC_FRAME_FCQ),
	[TCA_FAFC_FLAGS] = NLA_POLICY_BITFIELD32(FAFC_FL_ALL),
};

static struct fafc_sched *fafc_of(struct fcq_port *port)
{
	return container_of(port, struct fafc_sched, port);
}

/* ---- queues ---------------------------------------------------------- */

static void fafc_queue(struct fcq_port *port, struct sk_buff *skb)
{
	struct fafc_sched *q = fafc_of(port);
	struct fcq_skb_cb *cb = fcq_cb(skb);

	if (cb->prio != fafc_switch_prio(q)) {
		__skb_queue_tail(&q->fifo[cb->prio], skb);
		return;
	}
	if (fafc_switch_enqueue(q, skb, cb->time))
		cb->scheme |= FAFC_COUNTED;
	fcq_drr_enqueue(&q->drr, skb);
}

static struct sk_buff *fafc_pick(struct fcq_port *port, u64 now, u64 *retry)
{
	struct fafc_sched *q = fafc_of(port);
	struct sk_buff *skb = fcq_drr_peek(&q->drr);
	struct fcq_ready r = {};
	int p, fp = -1;

	/* The controlled class's head is its DRR's next packet. */
	if (skb && fcq_ready_offer(port, &r, fcq_cb(skb)->prio, skb, now, retry))
		fp = fcq_cb(skb)->prio;
	for (p = 0; p < FCQ_NUM_PRIO; p++)
		if (!(r.mask & BIT(p)))
			fcq_ready_offer(port, &r, p, skb_peek(&q->fifo[p]), now,
					retry);
	p = fcq_ets_pick(&q->ets, r.mask, r.len);
	if (p < 0)
		return NULL;
	if (p != fp)
		return __skb_dequeue(&q->fifo[p]);

	skb = fcq_drr_dequeue(&q->drr);
	if (fcq_cb(skb)->scheme & FAFC_COUNTED && READ_ONCE(q->fsw))
		fafc_switch_dequeue(q, skb, now);
	return skb;
}

static struct sk_buff *fafc_flush(struct fcq_port *port)
{
	struct fafc_sched *q = fafc_of(port);
	struct sk_buff *skb = fcq_drr_dequeue(&q->drr);
	int p;

	if (skb) {
		if (fcq_cb(skb)->scheme & FAFC_COUNTED && READ_ONCE(q->fsw))
			fafc_switch_release(q, skb);
		return skb;
	}
	for (p = 0; p < FCQ_NUM_PRIO; p++)
		if (!skb_queue_empty(&q->fifo[p]))
			return __skb_dequeue(&q->fifo[p]);
	return NULL;
}

/* ---- statistics ------------------------------------------------------ */

static int put_counters(struct sk_buff *skb, const struct fafc_port_view *v,
			u64 cwr)
{
	const struct {
		int type;
		u64 val;
	} ctr[] = {
		{ TCA_FAFC_STATS_TRIGGERS, v->st.triggers },
		{ TCA_FAFC_STATS_LP_SOLVES, v->st.lp_solves },
		{ TCA_FAFC_STATS_LP_IDLE, v->st.lp_idle },
		{ TCA_FAFC_STATS_LP_INFEASIBLE, v->st.lp_infeasible },
		{ TCA_FAFC_STATS_LP_CAPPED, v->st.lp_capped },
		{ TCA_FAFC_STATS_SOLVE_NS, v->st.solve_ns },
		{ TCA_FAFC_STATS_SOLVE_NS_MAX, v->st.solve_ns_max },
		{ TCA_FAFC_STATS_USER_SENT, v->st.user_sent },
		{ TCA_FAFC_STATS_USER_BUSY, v->st.user_busy },
		{ TCA_FAFC_STATS_USER_LATE, v->st.user_late },
		{ TCA_FAFC_STATS_USER_STALE, v->st.user_stale },
		{ TCA_FAFC_STATS_USER_LOST, v->st.user_lost },
		{ TCA_FAFC_STATS_PAUSES, v->st.pauses },
		{ TCA_FAFC_STATS_PAUSE_NS, v->st.pause_ns },
		{ TCA_FAFC_STATS_CWR, cwr },
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(ctr); i++)
		if (nla_put_u64_64bit(skb, ctr[i].type, ctr[i].val,
				      TCA_FAFC_STATS_PAD))
			return -EMSGSIZE;
	return 0;
}

static int fafc_dump_stats(struct fcq_port *port, struct sk_buff *skb)
{
	struct fafc_sched *q = fafc_of(port);
	struct fafc_port_view v;

	fafc_switch_view(q, &v);
	if (nla_put_u32(skb, TCA_FAFC_STATS_THOP, v.thop) ||
	    nla_put_u32(skb, TCA_FAFC_STATS_TH_C, v.th_c) ||
	    nla_put_s64(skb, TCA_FAFC_STATS_QPRED, v.qpred, TCA_FAFC_STATS_PAD) ||
	    nla_put_s64(skb, TCA_FAFC_STATS_QUEUE, v.queue, TCA_FAFC_STATS_PAD) ||
	    nla_put_s64(skb, TCA_FAFC_STATS_ECNOF, v.ecnof, TCA_FAFC_STATS_PAD))
		return -EMSGSIZE;
	return put_counters(skb, &v, READ_ONCE(q->cwr_signals));
}

static int fafc_dump(struct fcq_port *port, struct sk_buff *skb)
{
	struct fafc_sched *q = fafc_of(port);
	struct nla_bitfield32 fl;
	struct fafc_params p;

	fafc_switch_params(q, &p);
	fl.value = p.flags;
	fl.selector = FAFC_FL_ALL;
	if (nla_put_u32(skb, TCA_FAFC_QUANTUM, READ_ONCE(q->drr.quantum)) ||
	    nla_put_u8(skb, TCA_FAFC_FALLBACK, READ_ONCE(q->port.sends_pfc)) ||
	    nla_put_u8(skb, TCA_FAFC_CWR, READ_ONCE(q->cwr)) ||
	    nla_put_u8(skb, TCA_FAFC_PRIO, p.prio) ||
	    nla_put_u32(skb, TCA_FAFC_THOP, p.thop) ||
	    nla_put_u32(skb, TCA_FAFC_TH_P, p.th_p) ||
	    nla_put_u32(skb, TCA_FAFC_TH_E, p.th_e) ||
	    nla_put_u32(skb, TCA_FAFC_TH_C, p.th_c) ||
	    nla_put_u32(skb, TCA_FAFC_ALPHA, p.alpha) ||
	    nla_put_u32(skb, TCA_FAFC_BETA, p.beta) ||
	    nla_put_u32(skb, TCA_FAFC_FDEC, p.fdec) ||
	    nla_put_u32(skb, TCA_FAFC_DEC_WIN, p.dec_win) ||
	    nla_put_u32(skb, TCA_FAFC_HORIZON, p.horizon) ||
	    nla_put_u8(skb, TCA_FAFC_SOLVER, p.solver) ||
	    nla_put_u8(skb, TCA_FAFC_FRAME, p.frame) ||
	    nla_put(skb, TCA_FAFC_FLAGS, sizeof(fl), &fl))
		return -EMSGSIZE;
	return 0;
}

static const struct fcq_scheme_ops fafc_ops = {
	.queue = fafc_queue,
	.pick = fafc_pick,
	.flush = fafc_flush,
	.dump = fafc_dump,
	.dump_stats = fafc_dump_stats,
};

/* ---- configuration --------------------------------------------------- */

/* The switch-wide options in @tb, validated, into @c. */
static int parse_switch(struct nlattr **tb, struct fafc_change *c,
			struct netlink_ext_ack *extack)
{
	struct fafc_params *s = &c->set;
	int a, err;

	memset(c, 0, sizeof(*c));
	for (a = TCA_FAFC_PRIO; a < TCA_FAFC_FLAGS; a++)
		if (tb[a])
			c->named |= FAFC_NAMED(a);
	/* The policy checked the enums, the priority and the flags. */
	if (tb[TCA_FAFC_PRIO])
		s->prio = nla_get_u8(tb[TCA_FAFC_PRIO]);
	if (tb[TCA_FAFC_SOLVER])
		s->solver = nla_get_u8(tb[TCA_FAFC_SOLVER]);
	if (tb[TCA_FAFC_FRAME])
		s->frame = nla_get_u8(tb[TCA_FAFC_FRAME]);
	if (tb[TCA_FAFC_FLAGS]) {
		struct nla_bitfield32 fl = nla_get_bitfield32(tb[TCA_FAFC_FLAGS]);

		s->flags = fl.value & fl.selector;
		c->flags_sel = fl.selector;
	}
	err = fcq_get_u32(tb[TCA_FAFC_THOP], 0, FAFC_THOP_MAX, &s->thop,
			  "thop must be 1us..100ms, or 0 (auto)", extack) ?:
	      fcq_get_u32(tb[TCA_FAFC_TH_P], 1, FAFC_BYTES_MAX, &s->th_p,
			  "th_p must be 1 byte..2GiB", extack) ?:
	      fcq_get_u32(tb[TCA_FAFC_TH_E], 0, FAFC_BYTES_MAX, &s->th_e,
			  "th_e must be at most 2GiB", extack) ?:
	      fcq_get_u32(tb[TCA_FAFC_TH_C], 0, FAFC_BYTES_MAX, &s->th_c,
			  "th_c must be at most 2GiB", extack) ?:
	      fcq_get_u32(tb[TCA_FAFC_ALPHA], 1, FAFC_ONE, &s->alpha,
			  "holt_alpha must be in (0, 1]", extack) ?:
	      fcq_get_u32(tb[TCA_FAFC_BETA], 1, FAFC_ONE, &s->beta,
			  "holt_beta must be in (0, 1]", extack) ?:
	      fcq_get_u32(tb[TCA_FAFC_FDEC], 1, FAFC_ONE, &s->fdec,
			  "fdec must be in (0, 1]", extack) ?:
	      fcq_get_u32(tb[TCA_FAFC_DEC_WIN], 0, 1000, &s->dec_win,
			  "dec_win must be 0..1000 T_hop", extack) ?:
	      fcq_get_u32(tb[TCA_FAFC_HORIZON], 0, 100, &s->horizon,
			  "horizon must be 0..100 T_hop", extack);
	if (err)
		return err;
	if (s->thop && s->thop < FAFC_THOP_MIN) {
		NL_SET_ERR_MSG_ATTR(extack, tb[TCA_FAFC_THOP],
				    "thop must be 1us..100ms, or 0 (auto)");
		return -EINVAL;
	}
	return 0;
}

/*
 * Validate every option, then apply them in one lock section: the port's
 * own and, once the port has joined, the switch-wide ones (at init, the
 * join applies those from @c). Nothing changes if anything is invalid.
 */
static int fafc_configure(struct Qdisc *sch, struct nlattr *opt,
			  struct fafc_change *c, struct netlink_ext_ack *extack)
{
	struct fafc_sched *q = qdisc_priv(sch);
	struct nlattr *tb[TCA_FAFC_MAX + 1];
	bool fallback = q->port.sends_pfc, cwr = q->cwr;
	u32 quantum = q->drr.quantum;
	struct fcq_port_cfg cfg;
	int err;

	err = fcq_port_parse(&q->port, opt, fafc_policy, TCA_FAFC_MAX, tb, &cfg,
			     extack);
	if (err)
		return err;
	err = fcq_get_u32(tb[TCA_FAFC_QUANTUM], FCQ_QUANTUM_MIN,
			  FCQ_QUANTUM_MAX, &quantum,
			  "quantum must be 64..1048576 bytes", extack);
	if (err)
		return err;
	if (tb[TCA_FAFC_FALLBACK])
		fallback = nla_get_u8(tb[TCA_FAFC_FALLBACK]);
	if (tb[TCA_FAFC_CWR])
		cwr = nla_get_u8(tb[TCA_FAFC_CWR]);
	err = parse_switch(tb, c, extack);
	if (err)
		return err;

	/* One section: no dequeue sees half of it. A joined port's switch
	 * takes the switch-wide part (a new rate may change T_hop auto);
	 * at init the join does.
	 */
	sch_tree_lock(sch);
	fcq_port_apply(&q->port, &cfg);
	WRITE_ONCE(q->drr.quantum, quantum);
	WRITE_ONCE(q->port.sends_pfc, fallback);
	WRITE_ONCE(q->cwr, cwr);
	if (q->fsw)
		fafc_switch_configure(q, c);
	sch_tree_unlock(sch);
	return 0;
}

static int fafc_change(struct Qdisc *sch, struct nlattr *opt,
		       struct netlink_ext_ack *extack)
{
	struct fafc_sched *q = qdisc_priv(sch);
	struct fafc_change c;
	int err;

	err = fafc_configure(sch, opt, &c, extack);
	if (err)
		return err;
	fcq_port_kick(&q->port);
	return 0;
}

static int fafc_init(struct Qdisc *sch, struct nlattr *opt,
		     struct netlink_ext_ack *extack)
{
	struct fafc_sched *q = qdisc_priv(sch);
	u32 mtu = psched_mtu(qdisc_dev(sch));
	struct fafc_change c;
	int err, i;

	BUILD_BUG_ON(FAFC_F_ECN != FAFC_FL_ECN || FAFC_F_ECNOF != FAFC_FL_ECNOF ||
		     FAFC_F_PRED != FAFC_FL_PRED ||
		     FAFC_F_TREND_HOLT != FAFC_FL_TREND_HOLT ||
		     FAFC_F_TIE_VERTEX != FAFC_FL_TIE_VERTEX ||
		     FAFC_F_DEMAND_CAP != FAFC_FL_DEMAND_CAP);
	fcq_drr_init(&q->drr, mtu, FCQ_DRR_LOCAL_MAX);
	for (i = 0; i < FCQ_NUM_PRIO; i++) {
		__skb_queue_head_init(&q->fifo[i]);
		q->ets.quantum[i] = mtu;
	}
	q->cwr = true;
	err = fcq_port_init(sch, &fafc_ops, extack);
	if (err)
		return err;
	q->port.sends_pfc = true;
	err = fafc_configure(sch, opt, &c, extack);
	if (err)
		return err;
	err = fcq_port_start(&q->port, extack);
	if (err)
		return err;
	return fafc_switch_join(q, &c, extack);
}

static void fafc_destroy(struct Qdisc *sch)
{
	struct fafc_sched *q = qdisc_priv(sch);

	/* First, so that no other port asks this one for a pause. */
	fafc_switch_leave(q);
	fcq_port_destroy(sch);
}

static int fafc_qdisc_enqueue(struct sk_buff *skb, struct Qdisc *sch,
			      struct sk_buff **to_free)
{
	struct fafc_sched *q = qdisc_priv(sch);
	bool signal = false;
	u32 seen;
	int ret;

	/* Alg. 3: a paused host slows down; TCP by one CWR per pause. */
	if (q->cwr && !skb->skb_iif) {
		seen = READ_ONCE(q->port.pauses_rx);
		signal = seen != q->cwr_seen;
	}
	ret = fcq_port_enqueue(skb, sch, to_free);
	/* A dropped packet carries no signal: the next one will. */
	if (signal && ret == NET_XMIT_SUCCESS) {
		q->cwr_seen = seen;
		WRITE_ONCE(q->cwr_signals, q->cwr_signals + 1);
		return NET_XMIT_CN;
	}
	return ret;
}

static struct Qdisc_ops fafc_qdisc_ops __read_mostly = {
	.id		= "fafc",
	.priv_size	= sizeof(struct fafc_sched),
	.enqueue	= fafc_qdisc_enqueue,
	.dequeue	= fcq_port_dequeue,
	.peek		= qdisc_peek_dequeued,
	.init		= fafc_init,
	.reset		= fcq_port_reset,
	.destroy	= fafc_destroy,
	.change		= fafc_change,
	.dump		= fcq_port_dump,
	.dump_stats	= fcq_port_dump_stats,
	.owner		= THIS_MODULE,
};

static int __init fafc_module_init(void)
{
	int err = fafc_genl_register();

	if (err)
		return err;
	err = register_qdisc(&fafc_qdisc_ops);
	if (err)
		fafc_genl_unregister();
	return err;
}

static void __exit fafc_module_exit(void)
{
	unregister_qdisc(&fafc_qdisc_ops);
	fafc_genl_unregister();
}

module_init(fafc_module_init);
module_exit(fafc_module_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("FAFC flow control switch port / host NIC qdisc (fcq)");
MODULE_ALIAS_NET_SCH("fafc");
