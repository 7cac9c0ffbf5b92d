// SPDX-License-Identifier: GPL-2.0
/*
 * OFC: Original-congestion-based Fine-grained PFC, for a Linux switch
 * port or host NIC.
 *
 * Principles
 * ----------
 * PFC pauses a whole class when an ingress queue fills, so flows that
 * only share a link with the congested ones stop too, and the pause
 * spreads upstream. OFC pauses flows instead (core/ofc.c has the rules):
 * an egress whose queue and whose ingress's share of the switch buffer
 * both reach X^c_OFF is the *original* congestion point if its own
 * downstream holds nothing of it paused, and asks that ingress's upstream
 * to hold every flow it buffers from there; otherwise it is a *local*
 * congestion point and forwards only the flows its downstream paused. At
 * X_OFF it pauses the whole class, as PFC does, and everything resumes
 * when the ingress's share falls to X_ON. caPFC (`mode capfc`) is the
 * paper's coarse baseline on the same accounting; `mode pfc` is fcq's
 * 802.1Qbb path.
 *
 * The flows are held by keyed pauses (fcq/kp.c): state on both ends, a
 * PAUSE until its RESUME. The port that honours them keeps each class in
 * three lanes (core/ofc.c: N and two alternating paused lanes), so a
 * paused flow's packets step aside unsent and a resumed flow's older
 * packets leave before its newer ones.
 *
 * Tables: the FIT holds the flows this egress buffers, per (key, class,
 * ingress), with their packet count and whether the peer holds them (the
 * paper's CFT, cached from the RX book); the PFT is the ingress port's TX
 * book.
 */
#include <linux/module.h>
#include <linux/random.h>
#include <linux/vmalloc.h>
#include <net/netlink.h>
#include <net/pkt_sched.h>
#include <uapi/linux/ofc.h>

#include "../fcq/compat.h"
#include "../fcq/fcq.h"
#include "../fcq/lanes.h"
#include "../core/ets.h"
#include "../core/ofc.h"

#define OFC_XOFF_DEFAULT	76800	/* X_OFF, the paper's 75 KB */
#define OFC_XON_DEFAULT		46080	/* X_ON, 45 KB */
#define OFC_FLOWS_DEFAULT	1024
#define OFC_FLOWS_MIN		64
#define OFC_TIMEOUT_MAX		(4 * NSEC_PER_SEC)
#define OFC_SCAN_KEYS		8	/* keys asked for at a time */

struct ofc_fit {
	struct fcq_fent f;	/* tag: ofc_tag(class, ingress) */
	u32 pkts;		/* queued here */
	u8 paused;		/* the peer holds its key (the CFT) */
};

struct ofc_class {
	struct fcq_lanes l;
	struct ofc_band band;
};

struct ofc_stats {
	u64 orig, local, extra, all, coarse;
	u64 moved, drains, fit_full, untracked;
};

struct ofc_sched {
	struct fcq_port port;		/* first: fcq_port() */
	struct ofc_cfg cfg;
	bool xoff_c_set;		/* else X^c_OFF follows X_OFF (E7) */
	u8 key;				/* enum ofc_key */
	u32 flows;
	u32 pause_timeout;		/* ns */
	struct fcq_ftab fit;
	void *fit_mem;
	struct ofc_class cls[FCQ_NUM_PRIO];
	struct fcq_ets ets;
	struct ofc_stats st;
};

static const struct nla_policy ofc_quanta_policy[TCA_OFC_QUANTA_MAX + 1] = {
	[TCA_OFC_QUANTUM] = { .type = NLA_U32 },	/* checked by hand */
};

static const struct nla_policy ofc_policy[TCA_OFC_MAX + 1] = {
	[TCA_OFC_MODE] = NLA_POLICY_MAX(NLA_U8, OFC_MODE_PFC),
	[TCA_OFC_KEY] = NLA_POLICY_RANGE(NLA_U8, OFC_KEY_PAIR, OFC_KEY_5TUPLE),
	[TCA_OFC_FLOWS] = { .type = NLA_U32 },
	[TCA_OFC_XOFF_C] = { .type = NLA_U32 },
	[TCA_OFC_XEGRESS] = { .type = NLA_U32 },
	[TCA_OFC_PAUSE_TIMEOUT] = { .type = NLA_U32 },
	[TCA_OFC_FLAGS] = NLA_POLICY_BITFIELD32(OFC_FL_STRICT_ORIG),
	[TCA_OFC_STRICT] = { .type = NLA_U8 },
	[TCA_OFC_QUANTA] = NLA_POLICY_NESTED(ofc_quanta_policy),
};

static struct ofc_sched *ofc_of(struct fcq_port *port)
{
	return container_of(port, struct ofc_sched, port);
}

/* FIT tags: the class and the switch slot of the ingress (-1: local). */
static u16 ofc_tag(u8 p, s16 ingress)
{
	return p << 9 | (ingress + 1);
}

static u8 tag_prio(u16 tag)
{
	return tag >> 9;
}

static struct ofc_fit *fit_of(struct ofc_sched *q, const struct sk_buff *skb)
{
	u16 flow = fcq_cb(skb)->flow;

	return flow ? (struct ofc_fit *)fcq_ftab_at(&q->fit, flow - 1) : NULL;
}

static u32 class_bytes(const struct ofc_class *c)
{
	int i;
	u32 b = 0;

	for (i = 0; i < OFC_LANES; i++)
		b += fcq_lanes_bytes(&c->l, i);
	return b;
}

/* Ask @ing to hold, of class @p, every flow of this egress from @in. */
static int scan(struct ofc_sched *q, struct fcq_port *ing, u8 p, s16 in,
		enum ofc_act act)
{
	struct fcq_fkey keys[OFC_SCAN_KEYS];
	bool origin = ofc_act_origin(act);
	u16 tag = ofc_tag(p, in);
	struct fcq_fent *fe;
	int n = 0, added = 0;
	u32 i;

	fcq_ftab_for_each(&q->fit, fe, i) {
		if (fe->tag != tag)
			continue;
		keys[n++] = fe->key;
		if (n == OFC_SCAN_KEYS) {
			added += fcq_kp_pause(ing, p, keys, n, origin,
					      q->cfg.xon);
			n = 0;
		}
	}
	if (n)
		added += fcq_kp_pause(ing, p, keys, n, origin, q->cfg.xon);
	return added;
}

static void count(struct ofc_sched *q, enum ofc_act act)
{
	switch (act) {
	case OFC_SCAN_ORIG:
	case OFC_KEY_ORIG:
		q->st.orig++;
		break;
	case OFC_KEY_LOCAL:
		q->st.local++;
		break;
	default:
		q->st.extra++;
	}
}

/* Alg. 1 for an arrival from another port of the switch (core/ofc.c). */
static void decide(struct ofc_sched *q, struct ofc_class *c,
		   struct sk_buff *skb, const struct ofc_fit *e,
		   const struct fcq_fkey *k)
{
	struct fcq_skb_cb *cb = fcq_cb(skb);
	struct fcq_port *port = &q->port, *ing;
	struct ofc_view v = {};
	enum ofc_act act;
	u8 p = cb->prio;
	int added;
	u8 w;

	v.qin = fcq_switch_ingress(port, skb, &ing);
	/* Below X^c_OFF nothing is decided here (E4 runs on release) */
	if (!ing || v.qin < q->cfg.xoff_c)
		return;
	v.qout = class_bytes(c);
	v.qout_paused = fcq_lanes_bytes(&c->l, c->band.p);
	v.qout_drain = c->band.d ? fcq_lanes_bytes(&c->l, c->band.d) : 0;
	v.cft_empty = fcq_kprx_empty(port->kprx, p);
	v.tracked = e;
	v.in_cft = c->band.all || (e && e->paused);
	w = fcq_kp_wants(ing, p, e ? k : NULL);
	v.pft_all = w & FCQ_KP_WANTS_ALL;
	v.pft_any = w & FCQ_KP_WANTS_ANY;
	v.pft_has = w & FCQ_KP_WANTS_KEY;

	act = ofc_eval(&q->cfg, &v);
	switch (act) {
	case OFC_NONE:
		return;
	case OFC_PAUSE_ALL:
		fcq_kp_pause(ing, p, NULL, 0, false, q->cfg.xon);
		if (e || v.qin >= q->cfg.xoff)
			q->st.all++;
		else
			q->st.coarse++;
		break;
	case OFC_SCAN_ORIG:
	case OFC_SCAN_EXTRA:
		added = scan(q, ing, p, cb->ingress, act);
		if (added)
			count(q, act);
		break;
	default:
		if (fcq_kp_pause(ing, p, k, 1, ofc_act_origin(act),
				 q->cfg.xon))
			count(q, act);
	}
	fcq_port_kick(ing);
}

static void ofc_queue(struct fcq_port *port, struct sk_buff *skb)
{
	struct ofc_sched *q = ofc_of(port);
	struct fcq_skb_cb *cb = fcq_cb(skb);
	struct ofc_class *c = &q->cls[cb->prio];
	bool lossless = READ_ONCE(port->cfg.lossless) & BIT(cb->prio);
	struct ofc_fit *e = NULL;
	struct fcq_fkey k;
	bool created;

	if (lossless && !fcq_skb_key(skb, q->key, &k)) {
		e = (struct ofc_fit *)fcq_ftab_get(&q->fit, &k,
						   ofc_tag(cb->prio,
							   cb->ingress),
						   &created);
		if (!e) {
			q->st.fit_full++;
		} else {
			if (created)
				e->paused = fcq_kp_applied(port, cb->prio, &k);
			e->pkts++;
			cb->flow = fcq_ftab_slot(&q->fit, &e->f) + 1;
		}
	} else if (lossless) {
		q->st.untracked++;
	}
	fcq_lanes_push(&c->l, OFC_LANE_N, skb);
	if (cb->ingress >= 0 && lossless && q->cfg.mode != OFC_M_PFC)
		decide(q, c, skb, e, &k);
}

/* The packet leaves: its flow entry counts one fewer. */
static void fit_put(struct ofc_sched *q, struct sk_buff *skb)
{
	struct ofc_fit *e = fit_of(q, skb);

	if (e && !--e->pkts)
		fcq_ftab_put(&q->fit, &e->f);
	fcq_cb(skb)->flow = 0;
}

/* The CFT, from what the peer holds (fcq_kp_sync(), root lock). */
static void mark(struct ofc_sched *q, u8 p, const struct fcq_fkey *k,
		 u8 paused)
{
	struct fcq_fent *fe;
	u32 i;

	fcq_ftab_for_each_key(&q->fit, k, fe, i)
		if (tag_prio(fe->tag) == p)
			((struct ofc_fit *)fe)->paused = paused;
}

static void kp_pause(void *arg, u8 p, const struct fcq_fkey *k)
{
	struct ofc_sched *q = arg;

	if (k)
		mark(q, p, k, 1);
	else
		ofc_band_pause_all(&q->cls[p].band);
}

static bool kp_resume(void *arg, u8 p, const struct fcq_fkey *k)
{
	struct ofc_sched *q = arg;
	struct ofc_class *c = &q->cls[p];

	/* [O14] a resume during a drain waits for its end */
	if (!ofc_band_may_resume(&c->band))
		return false;
	if (k)
		mark(q, p, k, 0);
	else
		ofc_band_resume_all(&c->band);
	return true;
}

static const struct fcq_kprx_ops ofc_kp_ops = {
	.pause = kp_pause,
	.resume = kp_resume,
};

static void sync(struct ofc_sched *q, u8 mask, u64 now)
{
	u8 resumed = fcq_kp_sync(&q->port, mask, &ofc_kp_ops, q, now);
	int p;

	for (p = 0; resumed && p < FCQ_NUM_PRIO; p++)
		if ((resumed & BIT(p)) && ofc_band_resumed(&q->cls[p].band)) {
			q->st.drains++;
			fcq_lanes_resumed(&q->cls[p].l, q->cls[p].band.d);
		}
}

static bool paused(struct ofc_sched *q, struct ofc_class *c,
		   const struct sk_buff *skb)
{
	const struct ofc_fit *e = fit_of(q, skb);

	return c->band.all || (e && e->paused);
}

/*
 * The packet class @p may send next (Alg. 3 as core/ofc.c fixes it): a
 * paused head steps aside to the paused lane, unsent, and the one behind
 * it is looked at.
 */
static struct sk_buff *head(struct ofc_sched *q, u8 p, u64 now)
{
	struct ofc_class *c = &q->cls[p];
	struct sk_buff *skb;
	int lane;

	for (;;) {
		lane = ofc_band_lane(&c->band);
		if (lane == OFC_LANE_DRAINED) {
			/*
			 * Its deferred resumes may go now; only this class's,
			 * so that the heads already offered stay valid.
			 */
			sync(q, BIT(p), now);
			continue;
		}
		if (lane == OFC_LANE_NONE)
			return NULL;
		skb = fcq_lanes_head(&c->l, lane);
		if (!paused(q, c, skb))
			return skb;
		fcq_lanes_move(&c->l, lane, c->band.p);
		q->st.moved++;
	}
}

static struct sk_buff *ofc_pick(struct fcq_port *port, u64 now, u64 *retry)
{
	struct ofc_sched *q = ofc_of(port);
	struct fcq_ready r = {};
	struct sk_buff *skb;
	int p, lane;

	sync(q, 0xff, now);
	for (p = 0; p < FCQ_NUM_PRIO; p++)
		fcq_ready_offer(port, &r, p, head(q, p, now), now, retry);
	*retry = min(*retry, port->kp_expiry);
	p = fcq_ets_pick(&q->ets, r.mask, r.len);
	if (p < 0)
		return NULL;
	/* The lane head() served: nothing changed since */
	lane = ofc_band_lane(&q->cls[p].band);
	if (WARN_ON_ONCE(lane < 0))
		return NULL;
	skb = fcq_lanes_pop(&q->cls[p].l, lane);
	fit_put(q, skb);
	return skb;
}

static struct sk_buff *ofc_flush(struct fcq_port *port)
{
	struct ofc_sched *q = ofc_of(port);
	struct sk_buff *skb;
	int p;

	for (p = 0; p < FCQ_NUM_PRIO; p++) {
		skb = fcq_lanes_flush(&q->cls[p].l);
		if (skb) {
			fit_put(q, skb);
			return skb;
		}
	}
	return NULL;
}

static int ofc_dump(struct fcq_port *port, struct sk_buff *skb)
{
	struct ofc_sched *q = ofc_of(port);
	struct nla_bitfield32 fl = {
		.value = READ_ONCE(q->cfg.flags),
		.selector = OFC_FL_STRICT_ORIG,
	};
	struct nlattr *quanta;
	int p;

	if (nla_put_u8(skb, TCA_OFC_MODE, q->cfg.mode) ||
	    nla_put_u8(skb, TCA_OFC_KEY, q->key) ||
	    nla_put_u32(skb, TCA_OFC_FLOWS, q->flows) ||
	    nla_put_u32(skb, TCA_OFC_XOFF_C, READ_ONCE(q->cfg.xoff_c)) ||
	    nla_put_u32(skb, TCA_OFC_XEGRESS, READ_ONCE(q->cfg.xegress)) ||
	    nla_put_u32(skb, TCA_OFC_PAUSE_TIMEOUT,
			READ_ONCE(q->pause_timeout)) ||
	    nla_put_bitfield32(skb, TCA_OFC_FLAGS, fl.value, fl.selector) ||
	    nla_put_u8(skb, TCA_OFC_STRICT, READ_ONCE(q->ets.strict)))
		return -EMSGSIZE;
	quanta = nla_nest_start(skb, TCA_OFC_QUANTA);
	if (!quanta)
		return -EMSGSIZE;
	for (p = 0; p < FCQ_NUM_PRIO; p++)
		if (nla_put_u32(skb, TCA_OFC_QUANTUM,
				READ_ONCE(q->ets.quantum[p])))
			return -EMSGSIZE;
	nla_nest_end(skb, quanta);
	return 0;
}

static int ofc_dump_stats(struct fcq_port *port, struct sk_buff *skb)
{
	struct ofc_sched *q = ofc_of(port);
	struct ofc_stats st;
	u8 all = 0, drain = 0;
	u32 flows;
	int p, i;

	sch_tree_lock(port->sch);
	st = q->st;
	flows = q->fit.n;
	for (p = 0; p < FCQ_NUM_PRIO; p++) {
		all |= q->cls[p].band.all ? BIT(p) : 0;
		drain |= q->cls[p].band.d ? BIT(p) : 0;
	}
	sch_tree_unlock(port->sch);

	{
		const struct { int attr; u64 val; } c[] = {
			{ TCA_OFC_STATS_ORIG, st.orig },
			{ TCA_OFC_STATS_LOCAL, st.local },
			{ TCA_OFC_STATS_EXTRA, st.extra },
			{ TCA_OFC_STATS_ALL, st.all },
			{ TCA_OFC_STATS_COARSE, st.coarse },
			{ TCA_OFC_STATS_MOVED, st.moved },
			{ TCA_OFC_STATS_DRAINS, st.drains },
			{ TCA_OFC_STATS_FIT_FULL, st.fit_full },
			{ TCA_OFC_STATS_UNTRACKED, st.untracked },
		};

		for (i = 0; i < ARRAY_SIZE(c); i++)
			if (nla_put_u64_64bit(skb, c[i].attr, c[i].val,
					      TCA_OFC_STATS_PAD))
				return -EMSGSIZE;
	}
	if (nla_put_u32(skb, TCA_OFC_STATS_FIT_FLOWS, flows) ||
	    nla_put_u8(skb, TCA_OFC_STATS_PAUSED_MASK, all) ||
	    nla_put_u8(skb, TCA_OFC_STATS_DRAIN_MASK, drain))
		return -EMSGSIZE;
	return 0;
}

static const struct fcq_scheme_ops ofc_ops = {
	.queue = ofc_queue,
	.pick = ofc_pick,
	.flush = ofc_flush,
	.dump = ofc_dump,
	.dump_stats = ofc_dump_stats,
};

/* What only the creation sets: refused on a live qdisc if it differs. */
static int fixed(struct ofc_sched *q, struct nlattr **tb, u8 *mode, u8 *key,
		 u32 *flows, struct netlink_ext_ack *extack)
{
	bool live = q->fit_mem;

	if (tb[TCA_OFC_MODE]) {
		*mode = nla_get_u8(tb[TCA_OFC_MODE]);
		if (live && *mode != q->cfg.mode) {
			NL_SET_ERR_MSG_ATTR(extack, tb[TCA_OFC_MODE],
					    "mode cannot change; delete and add the qdisc");
			return -EINVAL;
		}
	}
	if (tb[TCA_OFC_KEY]) {
		*key = nla_get_u8(tb[TCA_OFC_KEY]);
		if (live && *key != q->key) {
			NL_SET_ERR_MSG_ATTR(extack, tb[TCA_OFC_KEY],
					    "key cannot change; delete and add the qdisc");
			return -EINVAL;
		}
	}
	if (tb[TCA_OFC_FLOWS]) {
		*flows = nla_get_u32(tb[TCA_OFC_FLOWS]);
		if (live && *flows != q->flows) {
			NL_SET_ERR_MSG_ATTR(extack, tb[TCA_OFC_FLOWS],
					    "flows cannot change; delete and add the qdisc");
			return -EINVAL;
		}
		if (*flows < OFC_FLOWS_MIN || *flows > FCQ_FTAB_MAX_CAP) {
			NL_SET_ERR_MSG_ATTR(extack, tb[TCA_OFC_FLOWS],
					    "flows must be 64..32768");
			return -EINVAL;
		}
	}
	return 0;
}

/* The tables and lanes, at creation (nothing queued yet). */
static int ofc_alloc(struct ofc_sched *q, u8 key, u32 flows, u32 timeout,
		     struct netlink_ext_ack *extack)
{
	struct fcq_kp_cfg kp = {
		.tx_cap = flows, .rx_cap = flows, .timeout = timeout,
		.key_type = key,
	};
	int p, err;

	q->fit_mem = kvzalloc(fcq_ftab_size(flows, sizeof(struct ofc_fit)),
			      GFP_KERNEL);
	if (!q->fit_mem)
		return -ENOMEM;
	fcq_ftab_init(&q->fit, q->fit_mem, flows, sizeof(struct ofc_fit),
		      get_random_u32());
	for (p = 0; p < FCQ_NUM_PRIO; p++) {
		err = fcq_lanes_init(&q->cls[p].l, q->port.dev, p,
				     OFC_LANES, OFC_MARKS);
		if (err)
			return err;
		ofc_band_init(&q->cls[p].band, q->cls[p].l.iso);
	}
	return fcq_kp_enable(&q->port, &kp, extack);
}

static int ofc_change(struct Qdisc *sch, struct nlattr *opt,
		      struct netlink_ext_ack *extack)
{
	struct ofc_sched *q = qdisc_priv(sch);
	struct nlattr *tb[TCA_OFC_MAX + 1];
	u32 quanta[FCQ_NUM_PRIO], flows = q->flows;
	u32 timeout = q->pause_timeout;
	struct ofc_cfg cfg = q->cfg;
	bool xoff_c_set = q->xoff_c_set;
	struct fcq_port_cfg pc;
	u8 mode = cfg.mode, key = q->key;
	int err, p;

	err = fcq_port_parse(&q->port, opt, ofc_policy, TCA_OFC_MAX, tb, &pc,
			     extack) ?:
	      fixed(q, tb, &mode, &key, &flows, extack);
	if (err)
		return err;
	cfg.mode = mode;
	cfg.xoff = pc.xoff;
	cfg.xon = pc.xon;
	/* xoff_c 0 (auto) follows X_OFF as E7 does, with the paper's alpha */
	if (tb[TCA_OFC_XOFF_C]) {
		cfg.xoff_c = nla_get_u32(tb[TCA_OFC_XOFF_C]);
		xoff_c_set = cfg.xoff_c;
	}
	if (!xoff_c_set)
		cfg.xoff_c = ofc_xoff_c(cfg.xoff);
	if (tb[TCA_OFC_XEGRESS])
		cfg.xegress = nla_get_u32(tb[TCA_OFC_XEGRESS]);
	if (tb[TCA_OFC_FLAGS]) {
		struct nla_bitfield32 fl = nla_get_bitfield32(tb[TCA_OFC_FLAGS]);

		cfg.flags = (cfg.flags & ~fl.selector) |
			    (fl.value & fl.selector);
	}
	err = fcq_get_u32(tb[TCA_OFC_PAUSE_TIMEOUT], 0, OFC_TIMEOUT_MAX,
			  &timeout, "pause_timeout must be at most 4s", extack);
	if (err)
		return err;
	switch (ofc_cfg_check(&cfg)) {
	case OFC_CFG_OK:
		break;
	case OFC_CFG_NO_XOFF:
		NL_SET_ERR_MSG(extack, "ofc and capfc need a static xoff (X_OFF)");
		return -EINVAL;
	case OFC_CFG_XOFF_C:
		NL_SET_ERR_MSG(extack, "xoff_c (X^c_OFF) must lie below xoff (X_OFF)");
		return -EINVAL;
	case OFC_CFG_XON:
		NL_SET_ERR_MSG(extack, "xon (X_ON) must lie below xoff_c (X^c_OFF)");
		return -EINVAL;
	}
	memcpy(quanta, q->ets.quantum, sizeof(quanta));
	if (tb[TCA_OFC_QUANTA]) {
		err = fcq_get_u32s(tb[TCA_OFC_QUANTA], TCA_OFC_QUANTUM,
				   FCQ_QUANTUM_MIN, FCQ_QUANTUM_MAX, quanta,
				   FCQ_NUM_PRIO,
				   "quanta must be 64..1048576 bytes each, at most 8",
				   extack);
		if (err < 0)
			return err;
	}
	if (!q->fit_mem) {
		err = ofc_alloc(q, key, flows, timeout, extack);
		if (err)
			return err;
	}

	/* One section: no dequeue sees half of it. */
	sch_tree_lock(sch);
	fcq_port_apply(&q->port, &pc);
	WRITE_ONCE(q->port.sends_pfc, mode == OFC_M_PFC);
	q->cfg.mode = cfg.mode;
	q->cfg.xoff = cfg.xoff;
	q->cfg.xon = cfg.xon;
	/* the dump reads these without the lock */
	WRITE_ONCE(q->cfg.xoff_c, cfg.xoff_c);
	WRITE_ONCE(q->cfg.xegress, cfg.xegress);
	WRITE_ONCE(q->cfg.flags, cfg.flags);
	q->xoff_c_set = xoff_c_set;
	q->key = key;
	q->flows = flows;
	WRITE_ONCE(q->pause_timeout, timeout);
	spin_lock(&q->port.pause_lock);
	q->port.kprx->timeout = timeout;
	/* The next pick finds what the new timeout ends, or stops looking */
	q->port.kp_expiry = timeout ? 0 : U64_MAX;
	spin_unlock(&q->port.pause_lock);
	if (tb[TCA_OFC_STRICT])
		WRITE_ONCE(q->ets.strict, nla_get_u8(tb[TCA_OFC_STRICT]));
	for (p = 0; p < FCQ_NUM_PRIO; p++)
		WRITE_ONCE(q->ets.quantum[p], quanta[p]);
	sch_tree_unlock(sch);
	return 0;
}

static int ofc_init(struct Qdisc *sch, struct nlattr *opt,
		    struct netlink_ext_ack *extack)
{
	struct ofc_sched *q = qdisc_priv(sch);
	int err, p;

	BUILD_BUG_ON(OFC_M_OFC != OFC_MODE_OFC ||
		     OFC_M_CAPFC != OFC_MODE_CAPFC ||
		     OFC_M_PFC != OFC_MODE_PFC);
	BUILD_BUG_ON((int)OFC_KEY_PAIR != FCQ_KEY_PAIR ||
		     (int)OFC_KEY_DST != FCQ_KEY_DST ||
		     (int)OFC_KEY_5TUPLE != FCQ_KEY_5TUPLE);
	BUILD_BUG_ON(OFC_F_STRICT_ORIG != OFC_FL_STRICT_ORIG);
	/* ofc_tag(): a class and a switch slot + 1 in 16 bits */
	BUILD_BUG_ON(FCQ_MAX_PORTS + 1 > 1 << 9);

	for (p = 0; p < FCQ_NUM_PRIO; p++)
		q->ets.quantum[p] = psched_mtu(qdisc_dev(sch));
	q->cfg.mode = OFC_M_OFC;
	q->cfg.flags = OFC_F_STRICT_ORIG;
	q->key = OFC_KEY_PAIR;
	q->flows = OFC_FLOWS_DEFAULT;
	err = fcq_port_init(sch, &ofc_ops, extack);
	if (err)
		return err;
	/* The paper's thresholds, on every byte from an ingress (E1) */
	q->port.cfg.xoff = OFC_XOFF_DEFAULT;
	q->port.cfg.xon = OFC_XON_DEFAULT;
	q->port.cfg.reserve = 0;
	err = ofc_change(sch, opt, extack);
	if (err)
		return err;
	return fcq_port_start(&q->port, extack);
}

static void ofc_destroy(struct Qdisc *sch)
{
	struct ofc_sched *q = qdisc_priv(sch);
	int p;

	fcq_port_destroy(sch);		/* empties the queues first */
	for (p = 0; p < FCQ_NUM_PRIO; p++)
		fcq_lanes_free(&q->cls[p].l);
	kvfree(q->fit_mem);
}

static struct Qdisc_ops ofc_qdisc_ops __read_mostly = {
	.id		= "ofc",
	.priv_size	= sizeof(struct ofc_sched),
	.enqueue	= fcq_port_enqueue,
	.dequeue	= fcq_port_dequeue,
	.peek		= qdisc_peek_dequeued,
	.init		= ofc_init,
	.reset		= fcq_port_reset,
	.destroy	= ofc_destroy,
	.change		= ofc_change,
	.dump		= fcq_port_dump,
	.dump_stats	= fcq_port_dump_stats,
	.owner		= THIS_MODULE,
};

static int __init ofc_module_init(void)
{
	return register_qdisc(&ofc_qdisc_ops);
}

static void __exit ofc_module_exit(void)
{
	unregister_qdisc(&ofc_qdisc_ops);
}

module_init(ofc_module_init);
module_exit(ofc_module_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("OFC: original-congestion-based fine-grained PFC switch port / host NIC qdisc (fcq)");
MODULE_ALIAS_NET_SCH("ofc");
