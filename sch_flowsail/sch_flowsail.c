// SPDX-License-Identifier: GPL-2.0
/*
 * FlowSail: fine-grained per-flow flow control over a few queues, for a
 * Linux switch port or host NIC, with its baselines (bfc, ideal, pfc,
 * fifo) in the same qdisc.
 *
 * Each priority class is a queue group (sec. IV-D): `queues` FIFO lanes
 * (fcq/lanes.c) that core/flowsail.c maps flows to, marks and holds;
 * classes are served by ETS, a class's queues by DRR. A packet that
 * arrives from another port of the switch and makes its flow congested
 * asks that ingress port to hold the flow at its upstream (a keyed PAUSE
 * of fcq/kp.c, by 5-tuple), until the flow's last congested packet here
 * leaves (the RESUME). A port whose peer holds flows this way isolates
 * them in its reserved queue. Host ports do the same for their own flows,
 * with nobody upstream to pause.
 *
 * One flow table holds every class's flows (tag: the class), both the
 * paper's NFT and CFT halves of each.
 */
#include <linux/module.h>
#include <linux/random.h>
#include <linux/vmalloc.h>
#include <net/netlink.h>
#include <net/pkt_sched.h>
#include <uapi/linux/flowsail.h>

#include "../fcq/compat.h"
#include "../fcq/fcq.h"
#include "../fcq/lanes.h"
#include "../core/ets.h"
#include "../core/flowsail.h"

#define CREATE_TRACE_POINTS
#include "flowsail_trace.h"

#define FS_QUEUES_DEFAULT	8
#define FS_IDEAL_QUEUES		1024	/* a queue per flow, in practice */
#define FS_FLOWS_DEFAULT	4096
#define FS_FLOWS_MIN		64
#define FS_HRTT_DEFAULT		(200 * NSEC_PER_USEC) /* without a delay */
#define FS_HRTT_MAX		NSEC_PER_SEC
#define FS_MILLI_MAX		100000	/* 100 HBDP, 100 HRTT */
#define FS_TIMEOUT_MAX		(4 * NSEC_PER_SEC)
#define FS_GC_MIN		(50 * NSEC_PER_USEC)
#define FS_STATS_QUEUES_MAX	256
#define FS_BYTES_MAX		SZ_2G

struct flowsail_class {
	struct fcq_lanes l;
	struct fsail *s;
};

struct flowsail_sched {
	struct fcq_port port;		/* first: fcq_port() */
	struct fsail_cfg cfg;		/* the core reads it (root lock) */
	u8 mode;			/* enum flowsail_mode */
	u32 flows;
	u32 hrtt;			/* ns as given; 0: from the delay */
	u32 release;			/* T_rel, 1/1000 of HRTT */
	u32 pause_timeout;		/* ns */
	struct fcq_ftab tab;
	void *tab_mem;
	struct flowsail_class cls[FCQ_NUM_PRIO];
	struct fcq_ets ets;
	u64 now;			/* of the sync under way */
	u64 gc_at;
	u64 no_key;			/* lossless packets without a 5-tuple */
};

static const struct nla_policy flowsail_policy[TCA_FLOWSAIL_MAX + 1] = {
	[TCA_FLOWSAIL_MODE] = NLA_POLICY_MAX(NLA_U8, FLOWSAIL_MODE_FIFO),
	[TCA_FLOWSAIL_QUEUES] = { .type = NLA_U32 },
	[TCA_FLOWSAIL_FLOWS] = { .type = NLA_U32 },
	[TCA_FLOWSAIL_HRTT] = { .type = NLA_U32 },
	[TCA_FLOWSAIL_QL] = { .type = NLA_U32 },
	[TCA_FLOWSAIL_QH] = { .type = NLA_U32 },
	[TCA_FLOWSAIL_QL_BYTES] = { .type = NLA_U32 },
	[TCA_FLOWSAIL_QH_BYTES] = { .type = NLA_U32 },
	[TCA_FLOWSAIL_RELEASE] = { .type = NLA_U32 },
	[TCA_FLOWSAIL_FLAGS] = NLA_POLICY_BITFIELD32(FLOWSAIL_FL_ALL),
	[TCA_FLOWSAIL_QUANTUM] = { .type = NLA_U32 },
	[TCA_FLOWSAIL_PAUSE_TIMEOUT] = { .type = NLA_U32 },
	[TCA_FLOWSAIL_STRICT] = { .type = NLA_U8 },
};

static struct flowsail_sched *fs_of(struct fcq_port *port)
{
	return container_of(port, struct flowsail_sched, port);
}

static u32 head_len(void *arg, int lane)
{
	struct flowsail_class *c = arg;

	return qdisc_pkt_len(fcq_lanes_head(&c->l, lane));
}

/* What the core knows of a queued packet, from its control block. */
static struct fsail_pkt pkt_of(const struct sk_buff *skb, int lane)
{
	const struct fcq_skb_cb *cb = fcq_cb(skb);

	return (struct fsail_pkt){
		.lane = lane,
		.mark = cb->scheme,
		.slot = cb->flow ? cb->flow - 1 : 0,
	};
}

/*
 * Ask the ingress port @skb came in on to hold (@pause) or release flow @k
 * of class @p at its upstream peer: a keyed PAUSE until the RESUME.
 */
static void ask_upstream(struct fcq_port *port, const struct sk_buff *skb,
			 u8 p, const struct fcq_fkey *k, bool pause)
{
	struct fcq_port *ing = fcq_switch_input(port, skb);

	if (!ing)
		return;
	if (pause)
		fcq_kp_pause(ing, p, k, 1, false, FCQ_KP_UNTIL_RESUMED);
	else
		fcq_kp_resume(ing, p, k);
	fcq_port_kick(ing);
}

static void flowsail_queue(struct fcq_port *port, struct sk_buff *skb)
{
	struct flowsail_sched *q = fs_of(port);
	struct fcq_skb_cb *cb = fcq_cb(skb);
	struct flowsail_class *c = &q->cls[cb->prio];
	bool lossless = READ_ONCE(port->cfg.lossless) & BIT(cb->prio);
	u32 len = qdisc_pkt_len(skb);
	struct fsail_pkt fp;
	struct fcq_fkey k;
	bool keyed = false;

	if (lossless) {
		keyed = !fcq_skb_key(skb, FCQ_KEY_5TUPLE, &k);
		q->no_key += !keyed;
	}
	fsail_enqueue(c->s, keyed ? &k : NULL, len, cb->time, &fp);
	fcq_lanes_push(&c->l, fp.lane, skb);
	/* Only a switch's own ingress can be asked to pause its upstream */
	if (fsail_queued(c->s, &fp, len, lossless && cb->ingress >= 0)) {
		trace_flowsail_pause(port->dev, cb->prio, &k, fp.lane);
		ask_upstream(port, skb, cb->prio, &k, true);
	}
	cb->scheme = fp.mark;
	cb->flow = fp.mark & FSAIL_PKT_TRACKED ? fp.slot + 1 : 0;
}

/*
 * The head of lane @lane of class @p leaves (sent or flushed): account it
 * (Alg. 2) and resume its flow upstream if it was its last marked one.
 */
static struct sk_buff *take(struct flowsail_sched *q, u8 p, int lane,
			    u64 now, bool sent)
{
	struct flowsail_class *c = &q->cls[p];
	struct sk_buff *skb = fcq_lanes_pop(&c->l, lane);
	struct fsail_pkt fp = pkt_of(skb, lane);
	u32 len = qdisc_pkt_len(skb);
	struct fcq_fkey k;

	if (sent)
		fsail_charge(c->s, lane, len);
	if (fp.mark & FSAIL_PKT_CONG)	/* the entry may go in dequeue */
		k = fcq_ftab_at(&q->tab, fp.slot)->key;
	if (fsail_dequeue(c->s, &fp, len, now)) {
		trace_flowsail_resume(q->port.dev, p, &k, lane);
		ask_upstream(&q->port, skb, p, &k, false);
	}
	fcq_cb(skb)->flow = 0;
	return skb;
}

static int isolated_lane(struct flowsail_sched *q, u8 p,
			 const struct fcq_fkey *k)
{
	struct fsail_flow *e = fsail_flow(q->cls[p].s, k);

	if (!e)
		return -1;
	return e->cft == FSAIL_PINNED ? e->nq : q->cls[p].s->rsv;
}

static void kp_pause(void *arg, u8 p, const struct fcq_fkey *k)
{
	struct flowsail_sched *q = arg;

	fsail_pause(q->cls[p].s, k, q->now);
	if (k && trace_flowsail_isolate_enabled())
		trace_flowsail_isolate(q->port.dev, p, k,
				       isolated_lane(q, p, k));
}

static bool kp_resume(void *arg, u8 p, const struct fcq_fkey *k)
{
	struct flowsail_sched *q = arg;

	fsail_resume(q->cls[p].s, k, q->now);
	return true;
}

static const struct fcq_kprx_ops flowsail_kp_ops = {
	.pause = kp_pause,
	.resume = kp_resume,
};

/* Release idle flows of the CFT now and then (lazy otherwise, [F11]). */
static void gc(struct flowsail_sched *q, u64 now)
{
	int p;

	if (now < q->gc_at)
		return;
	for (p = 0; p < FCQ_NUM_PRIO; p++)
		fsail_gc(q->cls[p].s, now);
	q->gc_at = now + max_t(u64, q->cfg.release_ns, FS_GC_MIN);
}

static struct sk_buff *flowsail_pick(struct fcq_port *port, u64 now,
				     u64 *retry)
{
	struct flowsail_sched *q = fs_of(port);
	int lane[FCQ_NUM_PRIO];
	struct fcq_ready r = {};
	struct sk_buff *skb;
	int p;

	q->now = now;
	fcq_kp_sync(port, 0xff, &flowsail_kp_ops, q, now);
	gc(q, now);
	for (p = 0; p < FCQ_NUM_PRIO; p++) {
		lane[p] = fsail_pick(q->cls[p].s, head_len, &q->cls[p]);
		skb = lane[p] < 0 ? NULL : fcq_lanes_head(&q->cls[p].l, lane[p]);
		fcq_ready_offer(port, &r, p, skb, now, retry);
	}
	*retry = min(*retry, port->kp_expiry);
	p = fcq_ets_pick(&q->ets, r.mask, r.len);
	if (p < 0)
		return NULL;
	return take(q, p, lane[p], now, true);
}

static struct sk_buff *flowsail_flush(struct fcq_port *port)
{
	struct flowsail_sched *q = fs_of(port);
	struct flowsail_class *c;
	int p, i;

	for (p = 0; p < FCQ_NUM_PRIO; p++) {
		c = &q->cls[p];
		for (i = 0; c->l.iso && i < c->l.iso->n; i++)
			if (fcq_lanes_head(&c->l, i))
				return take(q, p, i, ktime_get_ns(), false);
	}
	return NULL;
}

static int flowsail_dump(struct fcq_port *port, struct sk_buff *skb)
{
	struct flowsail_sched *q = fs_of(port);
	struct nla_bitfield32 fl = {
		.value = READ_ONCE(q->cfg.flags),
		.selector = FLOWSAIL_FL_ALL,
	};

	if (nla_put_u8(skb, TCA_FLOWSAIL_MODE, q->mode) ||
	    nla_put_u32(skb, TCA_FLOWSAIL_QUEUES, q->cfg.queues) ||
	    nla_put_u32(skb, TCA_FLOWSAIL_FLOWS, q->flows) ||
	    nla_put_u32(skb, TCA_FLOWSAIL_HRTT, READ_ONCE(q->hrtt)) ||
	    nla_put_u32(skb, TCA_FLOWSAIL_QL, READ_ONCE(q->cfg.ql_milli)) ||
	    nla_put_u32(skb, TCA_FLOWSAIL_QH, READ_ONCE(q->cfg.qh_milli)) ||
	    nla_put_u32(skb, TCA_FLOWSAIL_QL_BYTES,
			READ_ONCE(q->cfg.ql_bytes)) ||
	    nla_put_u32(skb, TCA_FLOWSAIL_QH_BYTES,
			READ_ONCE(q->cfg.qh_bytes)) ||
	    nla_put_u32(skb, TCA_FLOWSAIL_RELEASE, READ_ONCE(q->release)) ||
	    nla_put_bitfield32(skb, TCA_FLOWSAIL_FLAGS, fl.value,
			       fl.selector) ||
	    nla_put_u32(skb, TCA_FLOWSAIL_QUANTUM,
			READ_ONCE(q->cfg.quantum)) ||
	    nla_put_u32(skb, TCA_FLOWSAIL_PAUSE_TIMEOUT,
			READ_ONCE(q->pause_timeout)) ||
	    nla_put_u8(skb, TCA_FLOWSAIL_STRICT, READ_ONCE(q->ets.strict)))
		return -EMSGSIZE;
	return 0;
}

struct flowsail_qstat {
	u8 prio;
	u16 index;
	u32 bytes, flows, holds;
};

static int put_queues(struct sk_buff *skb, const struct flowsail_qstat *qs,
		      int n)
{
	struct nlattr *nest, *one;
	int i;

	nest = nla_nest_start(skb, TCA_FLOWSAIL_STATS_QUEUES);
	if (!nest)
		return -EMSGSIZE;
	for (i = 0; i < n; i++) {
		one = nla_nest_start(skb, TCA_FLOWSAIL_Q);
		if (!one ||
		    nla_put_u8(skb, TCA_FLOWSAIL_Q_PRIO, qs[i].prio) ||
		    nla_put_u16(skb, TCA_FLOWSAIL_Q_INDEX, qs[i].index) ||
		    nla_put_u32(skb, TCA_FLOWSAIL_Q_BYTES, qs[i].bytes) ||
		    nla_put_u32(skb, TCA_FLOWSAIL_Q_FLOWS, qs[i].flows) ||
		    nla_put_u32(skb, TCA_FLOWSAIL_Q_HOLDS, qs[i].holds))
			return -EMSGSIZE;
		nla_nest_end(skb, one);
	}
	nla_nest_end(skb, nest);
	return 0;
}

static int flowsail_dump_stats(struct fcq_port *port, struct sk_buff *skb)
{
	struct flowsail_sched *q = fs_of(port);
	struct flowsail_qstat *qs;
	struct fsail_stats st = {};
	u64 no_key;
	int p, i, n = 0, err = 0;
	u32 flows;

	qs = kmalloc_array(FS_STATS_QUEUES_MAX, sizeof(*qs), GFP_KERNEL);
	if (!qs)
		return -ENOMEM;
	sch_tree_lock(port->sch);
	for (p = 0; p < FCQ_NUM_PRIO; p++) {
		struct flowsail_class *c = &q->cls[p];

		fsail_stats_add(&st, &c->s->st);
		for (i = 0; i < q->cfg.queues && n < FS_STATS_QUEUES_MAX; i++) {
			const struct fcq_iso_lane *l = &c->l.iso->lane[i];

			if (!l->bytes && !l->hold && !c->s->q[i].flows)
				continue;
			qs[n++] = (struct flowsail_qstat){
				.prio = p, .index = i, .bytes = l->bytes,
				.flows = c->s->q[i].flows, .holds = l->hold,
			};
		}
	}
	flows = q->tab.n;
	no_key = q->no_key;
	sch_tree_unlock(port->sch);

	{
		const struct { int attr; u64 val; } ctr[] = {
			{ TCA_FLOWSAIL_STATS_MARKS_QH, st.marks_qh },
			{ TCA_FLOWSAIL_STATS_MARKS_FAIR, st.marks_fair },
			{ TCA_FLOWSAIL_STATS_MARKS_LONE, st.marks_lone },
			{ TCA_FLOWSAIL_STATS_MARKS_QUEUE, st.marks_queue },
			{ TCA_FLOWSAIL_STATS_PAUSES, st.pauses },
			{ TCA_FLOWSAIL_STATS_RESUMES, st.resumes },
			{ TCA_FLOWSAIL_STATS_PAUSE_RX, st.pause_rx },
			{ TCA_FLOWSAIL_STATS_RESUME_RX, st.resume_rx },
			{ TCA_FLOWSAIL_STATS_CFT_INSERT, st.cft_insert },
			{ TCA_FLOWSAIL_STATS_CFT_DELETE, st.cft_delete },
			{ TCA_FLOWSAIL_STATS_OM_PAIRS, st.om_pairs },
			{ TCA_FLOWSAIL_STATS_PINNED, st.pinned },
			{ TCA_FLOWSAIL_STATS_UNTRACKED, st.untracked },
			{ TCA_FLOWSAIL_STATS_ALL_RX, st.all_rx },
			{ TCA_FLOWSAIL_STATS_NO_KEY, no_key },
		};

		for (i = 0; i < ARRAY_SIZE(ctr); i++)
			if (nla_put_u64_64bit(skb, ctr[i].attr, ctr[i].val,
					      TCA_FLOWSAIL_STATS_PAD)) {
				err = -EMSGSIZE;
				goto out;
			}
	}
	if (nla_put_u32(skb, TCA_FLOWSAIL_STATS_FLOWS, flows))
		err = -EMSGSIZE;
	else
		err = put_queues(skb, qs, n);
out:
	kfree(qs);
	return err;
}

static const struct fcq_scheme_ops flowsail_ops = {
	.queue = flowsail_queue,
	.pick = flowsail_pick,
	.flush = flowsail_flush,
	.dump = flowsail_dump,
	.dump_stats = flowsail_dump_stats,
};

/* What only the creation sets: refused on a live qdisc if it differs. */
static int fixed(struct flowsail_sched *q, struct nlattr **tb, u8 *mode,
		 u32 *queues, u32 *flows, struct netlink_ext_ack *extack)
{
	bool live = q->tab_mem;
	u32 min;

	if (tb[TCA_FLOWSAIL_MODE]) {
		*mode = nla_get_u8(tb[TCA_FLOWSAIL_MODE]);
		if (live && *mode != q->mode) {
			NL_SET_ERR_MSG_ATTR(extack, tb[TCA_FLOWSAIL_MODE],
					    "mode cannot change; delete and add the qdisc");
			return -EINVAL;
		}
		if (!live && !tb[TCA_FLOWSAIL_QUEUES])
			*queues = *mode == FLOWSAIL_MODE_IDEAL ?
				  FS_IDEAL_QUEUES : FS_QUEUES_DEFAULT;
	}
	if (tb[TCA_FLOWSAIL_QUEUES]) {
		*queues = nla_get_u32(tb[TCA_FLOWSAIL_QUEUES]);
		if (live && *queues != q->cfg.queues) {
			NL_SET_ERR_MSG_ATTR(extack, tb[TCA_FLOWSAIL_QUEUES],
					    "queues cannot change; delete and add the qdisc");
			return -EINVAL;
		}
	}
	min = *mode == FLOWSAIL_MODE_FLOWSAIL ? 2 : 1;
	if (*queues < min || *queues > FSAIL_QUEUES_MAX) {
		if (min == 2)
			NL_SET_ERR_MSG_ATTR(extack, tb[TCA_FLOWSAIL_QUEUES],
					    "queues must be 2..1024 in mode flowsail (rsvQ and a normal queue)");
		else
			NL_SET_ERR_MSG_ATTR(extack, tb[TCA_FLOWSAIL_QUEUES],
					    "queues must be 1..1024");
		return -EINVAL;
	}
	if (tb[TCA_FLOWSAIL_FLOWS]) {
		*flows = nla_get_u32(tb[TCA_FLOWSAIL_FLOWS]);
		if (live && *flows != q->flows) {
			NL_SET_ERR_MSG_ATTR(extack, tb[TCA_FLOWSAIL_FLOWS],
					    "flows cannot change; delete and add the qdisc");
			return -EINVAL;
		}
		if (*flows < FS_FLOWS_MIN || *flows > FCQ_FTAB_MAX_CAP) {
			NL_SET_ERR_MSG_ATTR(extack, tb[TCA_FLOWSAIL_FLOWS],
					    "flows must be 64..32768");
			return -EINVAL;
		}
	}
	return 0;
}

static u8 core_mode(u8 mode)
{
	switch (mode) {
	case FLOWSAIL_MODE_FLOWSAIL:
		return FSAIL_M_FLOWSAIL;
	case FLOWSAIL_MODE_BFC:
	case FLOWSAIL_MODE_IDEAL:
		return FSAIL_M_BFC;
	default:
		return FSAIL_M_STATIC;
	}
}

/* The tables and queues, at creation (nothing queued yet). */
static int flowsail_alloc(struct flowsail_sched *q, u32 flows, u32 timeout,
			  struct netlink_ext_ack *extack)
{
	struct fcq_kp_cfg kp = {
		.tx_cap = flows, .rx_cap = flows, .timeout = timeout,
		.key_type = FCQ_KEY_5TUPLE,
	};
	u16 queues = q->cfg.queues;
	u32 seed = get_random_u32();
	int p, err;

	q->tab_mem = kvzalloc(fcq_ftab_size(flows, sizeof(struct fsail_flow)),
			      GFP_KERNEL);
	if (!q->tab_mem)
		return -ENOMEM;
	fcq_ftab_init(&q->tab, q->tab_mem, flows, sizeof(struct fsail_flow),
		      seed);
	for (p = 0; p < FCQ_NUM_PRIO; p++) {
		struct flowsail_class *c = &q->cls[p];

		c->s = kvzalloc(fsail_size(queues), GFP_KERNEL);
		if (!c->s)
			return -ENOMEM;
		err = fcq_lanes_init(&c->l, q->port.dev, p, queues,
				     FSAIL_MARKS);
		if (err)
			return err;
		fsail_init(c->s, &q->cfg, c->l.iso, &q->tab, p, seed + p);
	}
	return fcq_kp_enable(&q->port, &kp, extack);
}

static int flowsail_change(struct Qdisc *sch, struct nlattr *opt,
			   struct netlink_ext_ack *extack)
{
	struct flowsail_sched *q = qdisc_priv(sch);
	struct nlattr *tb[TCA_FLOWSAIL_MAX + 1];
	u32 queues = q->cfg.queues, flows = q->flows;
	u32 timeout = q->pause_timeout, hrtt = q->hrtt;
	u32 release = q->release, eff_hrtt;
	struct fsail_cfg cfg = q->cfg;
	struct fcq_port_cfg pc;
	u8 mode = q->mode;
	int err;

	err = fcq_port_parse(&q->port, opt, flowsail_policy, TCA_FLOWSAIL_MAX,
			     tb, &pc, extack) ?:
	      fixed(q, tb, &mode, &queues, &flows, extack) ?:
	      fcq_get_u32(tb[TCA_FLOWSAIL_HRTT], 0, FS_HRTT_MAX, &hrtt,
			  "hrtt must be at most 1s", extack) ?:
	      fcq_get_u32(tb[TCA_FLOWSAIL_QL], 0, FS_MILLI_MAX, &cfg.ql_milli,
			  "ql must be at most 100 (HBDP)", extack) ?:
	      fcq_get_u32(tb[TCA_FLOWSAIL_QH], 0, FS_MILLI_MAX, &cfg.qh_milli,
			  "qh must be at most 100 (HBDP)", extack) ?:
	      fcq_get_u32(tb[TCA_FLOWSAIL_QL_BYTES], 0, FS_BYTES_MAX,
			  &cfg.ql_bytes, "ql_bytes must be at most 2gb",
			  extack) ?:
	      fcq_get_u32(tb[TCA_FLOWSAIL_QH_BYTES], 0, FS_BYTES_MAX,
			  &cfg.qh_bytes, "qh_bytes must be at most 2gb",
			  extack) ?:
	      fcq_get_u32(tb[TCA_FLOWSAIL_RELEASE], 0, FS_MILLI_MAX, &release,
			  "release must be at most 100 (HRTT)", extack) ?:
	      fcq_get_u32(tb[TCA_FLOWSAIL_QUANTUM], FCQ_QUANTUM_MIN,
			  FCQ_QUANTUM_MAX, &cfg.quantum,
			  "quantum must be 64..1048576 bytes", extack) ?:
	      fcq_get_u32(tb[TCA_FLOWSAIL_PAUSE_TIMEOUT], 0, FS_TIMEOUT_MAX,
			  &timeout, "pause_timeout must be at most 4s", extack);
	if (err)
		return err;
	if (tb[TCA_FLOWSAIL_FLAGS]) {
		struct nla_bitfield32 fl =
			nla_get_bitfield32(tb[TCA_FLOWSAIL_FLAGS]);

		cfg.flags = (cfg.flags & ~fl.selector) |
			    (fl.value & fl.selector);
	}
	cfg.mode = core_mode(mode);
	cfg.queues = queues;
	/* HBDP = HRTT * mu, mu the port's rate, HRTT twice its delay */
	eff_hrtt = hrtt ?: (pc.delay ? 2 * pc.delay : FS_HRTT_DEFAULT);
	cfg.hbdp = mul_u64_u64_div_u64(pc.rate, eff_hrtt, NSEC_PER_SEC);
	cfg.release_ns = div_u64((u64)release * eff_hrtt, 1000);
	switch (fsail_cfg_check(&cfg)) {
	case FSAIL_CFG_OK:
		break;
	case FSAIL_CFG_QUEUES:	/* fixed() said so already */
		return -EINVAL;
	case FSAIL_CFG_QL:
		NL_SET_ERR_MSG(extack, "ql is 0 or HBDP (rate x hrtt) under a byte: set ql, rate or hrtt, or ql_bytes");
		return -EINVAL;
	case FSAIL_CFG_QH:
		NL_SET_ERR_MSG(extack, "qh (Q_h) must not lie below ql (Q_l)");
		return -EINVAL;
	}
	if (!q->tab_mem) {
		q->cfg.queues = queues;
		q->cfg.mode = cfg.mode;
		err = flowsail_alloc(q, flows, timeout, extack);
		if (err)
			return err;
	}

	/* One section: no dequeue sees half of it. */
	sch_tree_lock(sch);
	fcq_port_apply(&q->port, &pc);
	WRITE_ONCE(q->port.sends_pfc, mode == FLOWSAIL_MODE_PFC);
	q->mode = mode;
	q->flows = flows;
	q->cfg.mode = cfg.mode;
	q->cfg.queues = cfg.queues;
	q->cfg.hbdp = cfg.hbdp;
	q->cfg.release_ns = cfg.release_ns;
	/* the dump reads these without the lock */
	WRITE_ONCE(q->cfg.flags, cfg.flags);
	WRITE_ONCE(q->cfg.ql_milli, cfg.ql_milli);
	WRITE_ONCE(q->cfg.qh_milli, cfg.qh_milli);
	WRITE_ONCE(q->cfg.ql_bytes, cfg.ql_bytes);
	WRITE_ONCE(q->cfg.qh_bytes, cfg.qh_bytes);
	WRITE_ONCE(q->cfg.quantum, cfg.quantum);
	WRITE_ONCE(q->hrtt, hrtt);
	WRITE_ONCE(q->release, release);
	WRITE_ONCE(q->pause_timeout, timeout);
	spin_lock(&q->port.pause_lock);
	q->port.kprx->timeout = timeout;
	/* The next pick finds what the new timeout ends, or stops looking */
	q->port.kp_expiry = timeout ? 0 : U64_MAX;
	spin_unlock(&q->port.pause_lock);
	if (tb[TCA_FLOWSAIL_STRICT])
		WRITE_ONCE(q->ets.strict, nla_get_u8(tb[TCA_FLOWSAIL_STRICT]));
	sch_tree_unlock(sch);
	return 0;
}

static int flowsail_init(struct Qdisc *sch, struct nlattr *opt,
			 struct netlink_ext_ack *extack)
{
	struct flowsail_sched *q = qdisc_priv(sch);
	u32 mtu = psched_mtu(qdisc_dev(sch));
	int err, p;

	BUILD_BUG_ON(FSAIL_F_OM != FLOWSAIL_FL_OM ||
		     FSAIL_F_PAUSE_ORIG != FLOWSAIL_FL_PAUSE_ORIG ||
		     FSAIL_F_MAP_SINGLE != FLOWSAIL_FL_MAP_SINGLE ||
		     FSAIL_F_NONPAUSED != FLOWSAIL_FL_NONPAUSED);
	/* a flow entry's slot + 1 in fcq_skb_cb.flow */
	BUILD_BUG_ON(FCQ_FTAB_MAX_CAP > U16_MAX);

	for (p = 0; p < FCQ_NUM_PRIO; p++)
		q->ets.quantum[p] = mtu;
	q->mode = FLOWSAIL_MODE_FLOWSAIL;
	q->cfg.mode = FSAIL_M_FLOWSAIL;
	q->cfg.flags = FSAIL_F_OM | FSAIL_F_PAUSE_ORIG;
	q->cfg.queues = FS_QUEUES_DEFAULT;
	q->cfg.quantum = mtu;
	q->cfg.ql_milli = 1000;		/* 1 HBDP (sec. IV-B) */
	q->cfg.qh_milli = 3000;		/* 3 HBDP */
	q->release = 2000;		/* T_rel = 2 HRTT (sec. IV-C) */
	q->flows = FS_FLOWS_DEFAULT;
	err = fcq_port_init(sch, &flowsail_ops, extack);
	if (err)
		return err;
	err = flowsail_change(sch, opt, extack);
	if (err)
		return err;
	return fcq_port_start(&q->port, extack);
}

static void flowsail_destroy(struct Qdisc *sch)
{
	struct flowsail_sched *q = qdisc_priv(sch);
	int p;

	fcq_port_destroy(sch);		/* empties the queues first */
	for (p = 0; p < FCQ_NUM_PRIO; p++) {
		fcq_lanes_free(&q->cls[p].l);
		kvfree(q->cls[p].s);
	}
	kvfree(q->tab_mem);
}

static struct Qdisc_ops flowsail_qdisc_ops __read_mostly = {
	.id		= "flowsail",
	.priv_size	= sizeof(struct flowsail_sched),
	.enqueue	= fcq_port_enqueue,
	.dequeue	= fcq_port_dequeue,
	.peek		= qdisc_peek_dequeued,
	.init		= flowsail_init,
	.reset		= fcq_port_reset,
	.destroy	= flowsail_destroy,
	.change		= flowsail_change,
	.dump		= fcq_port_dump,
	.dump_stats	= fcq_port_dump_stats,
	.owner		= THIS_MODULE,
};

static int __init flowsail_module_init(void)
{
	return register_qdisc(&flowsail_qdisc_ops);
}

static void __exit flowsail_module_exit(void)
{
	unregister_qdisc(&flowsail_qdisc_ops);
}

module_init(flowsail_module_init);
module_exit(flowsail_module_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("FlowSail: per-flow flow control over a few queues, switch port / host NIC qdisc (fcq)");
MODULE_ALIAS_NET_SCH("flowsail");
