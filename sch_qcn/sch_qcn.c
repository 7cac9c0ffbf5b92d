// SPDX-License-Identifier: GPL-2.0
/*
 * IEEE 802.1Qau QCN congestion points on a switch port, at its output
 * (the standard's) or at the input it is for the frames that come in on
 * it (Unbiased QCN, N. Chrysos et al., IEEE Micro 36(6), 2016), with the
 * paper's culprit choices. The reaction points are the hosts' (qcnrp).
 *
 * Queues: per class, DRR over the ingress ports (fcq/drr.c), the paper's
 * round-robin output arbitration; classes by ETS (core/ets.c). The buffer
 * is fcq's switch: each input's bytes per class over every output queue,
 * which is the paper's shared input buffer, and PFC on its thresholds is
 * the paper's STOP/GO.
 *
 * A congestion point (struct qcn_cpoint) is a port's own: with `cp egress`
 * it watches the port's class `prio` as an output queue, with `cp ingress`
 * the input buffer of the frames of that class that came in on the port,
 * wherever they are queued. A frame's arrival at a CP (the enqueue, in the
 * softirq that received it) charges its flow (SA, DA, prio) and, for
 * occupancy_rand, the buffer units it holds (core/qcn.c's CulpritArray);
 * its departure returns them. A sample that asks for a CNM names a
 * culprit (core/qcn.c) and asks the port the culprit's frames came in by
 * to send it (fcq_port_frame_request(): no frame is sent under another
 * port's lock).
 *
 * With `b_out`, the port is the paper's two-stage switch for class `prio`:
 * its frames wait in the inputs' queues (the DRR flows) and move to an
 * output buffer of b_out bytes as room frees up in it (the paper's
 * credits), in the round robin's order, leaving their input's buffer as
 * they move; an output CP samples them as they enter that buffer, with Q
 * its bytes (ob_fill()).
 *
 * With `algo dsm` a CP runs DSM's law instead (core/dsm.c): a sample every
 * i_s bytes, a CNM (version 1) with a signed rate step F_b for the sampled
 * frame's source whenever the step is not 0, T being i_s at the port's
 * rate.
 *
 * The culprit's source is a frame's source MAC: valid where the switch
 * bridges. A routed switch rewrites it, so its CNMs go to the previous
 * router, which has no reaction point: QCN is an L2 protocol.
 */
#include <linux/etherdevice.h>
#include <linux/module.h>
#include <net/netlink.h>
#include <net/pkt_sched.h>
#include <uapi/linux/qcn.h>

#include "../fcq/compat.h"
#include "../fcq/fcq.h"
#include "../fcq/drr.h"
#include "../core/ets.h"
#include "../core/dsm.h"
#include "../core/frames.h"
#include "../core/qcn.h"
#include "qcn.h"
#define CREATE_TRACE_POINTS
#include "qcn_trace.h"

#define QCN_CB_INGRESS		0x80	/* scheme mark: charged to the input's CP */
#define QCN_CB_FLOW		0x7f	/* scheme mark: flow index + 1 */
/*
 * fcq_cb()->flow: the CP's generation (a CP replaced while frames charged
 * to the old one wait elsewhere must not take their returns) and the head
 * unit + 1, 0 for none.
 */
#define QCN_CB_GEN_SHIFT	12
#define QCN_CB_HEAD		0xfff
#define QCN_UNITS_LIMIT		QCN_CB_HEAD	/* units per CP, at most */

static atomic_t qcn_generation = ATOMIC_INIT(0);

struct qcn_flow {
	u8 sa[ETH_ALEN];
	u8 da[ETH_ALEN];
	u8 prio;
	u8 msdu_len;
	u32 bytes;			/* buffered */
	u32 arrived;			/* bytes since the CP's last sample */
	/* bytes and arrived 0: the entry is free */
	u8 msdu[FCQ_CNM_MSDU_MAX];	/* the start of the frame that made it */
};

/* A congestion point and what it knows of the flows in its buffer. */
struct qcn_cpoint {
	struct qcn_cp cp;
	struct qcn_flow flow[QCN_FLOWS];
	u32 nflows;			/* entries in use */
	struct qcn_units units;
	u16 *owner, *link;		/* the CulpritArray's words */
	u8 *head_flow;			/* per head unit: its frame's flow */
	u16 gen;			/* differs from the previous CP's */
	u32 rnd;			/* xorshift32: byte picks */
	u64 samples, cnm_tx, cnm_refused, no_culprit, untracked;
	u64 fb_hist[QCN_QFB_MAX / 8 + 1];
	u64 first_ns, last_ns;		/* the first and the last sample */
	u64 dt_ns;			/* from the sample before to the last */
	struct dsm_cp dsm;
	u64 dsm_region[DSM_REGIONS], dsm_clamped, dsm_bounded;
	s64 dsm_qfh, dsm_qvh, dsm_fb;	/* the last sample's, F_b in kbit/s */
};

struct qcn_sched {
	struct fcq_port port;		/* first: fcq_port() */
	/*
	 * cpt, and the options other ports' enqueues read: written under the
	 * tree lock and cp_lock, read under either. Taken in BH.
	 */
	spinlock_t cp_lock;
	u8 cp_at;			/* enum qcn_cp_at */
	u8 culprit;			/* enum qcn_culprit */
	u8 prio;
	u8 encap;			/* MSDU bytes a CNM carries */
	u8 algo;			/* enum qcn_algo */
	u8 dsm_room;			/* room on: each step within its source's */
	u8 dsm_clock;			/* enum qcn_dsm_clock */
	struct qcn_cp_cfg cfg;
	struct dsm_cfg dsm;		/* q0 and S are cfg's q_eq and i_s */
	u64 dsm_t_ns;			/* T: i_s at the port's rate */
	u64 line_bps;
	u32 dsm_h[3];			/* H_a, H_b, H_c as set, mHz; 0: default */
	u32 dsm_h_eff[3];		/* ... and in effect */
	u32 dsm_omega;			/* omega as set, Q16; 0: default */
	u32 probes;
	u32 seed;
	/* fixed at creation */
	u32 unit;
	u32 nunits;
	/* under the root lock; ob_bytes read by dumps */
	u32 b_out;			/* output buffer of class prio; 0: none */
	struct sk_buff_head ob;		/* frames moved to the output buffer */
	u32 ob_bytes;
	u8 ob_prio;			/* their class */
	struct fcq_drr *drr;		/* [FCQ_NUM_PRIO] */
	struct fcq_ets ets;
	struct qcn_cpoint *cpt;
};

static const struct nla_policy qcn_policy[TCA_QCN_MAX + 1] = {
	[TCA_QCN_CP] = NLA_POLICY_MAX(NLA_U8, QCN_CP_AT_INGRESS),
	[TCA_QCN_SAMPLE] = NLA_POLICY_MAX(NLA_U8, QCN_CULPRIT_OCC_BYTES),
	[TCA_QCN_PRIO] = NLA_POLICY_MAX(NLA_U32, FCQ_NUM_PRIO - 1),
	[TCA_QCN_Q_EQ] = { .type = NLA_U32 },
	[TCA_QCN_W] = NLA_POLICY_MAX(NLA_U32, 64),
	[TCA_QCN_I_S] = { .type = NLA_U32 },
	[TCA_QCN_TABLE] = NLA_POLICY_MAX(NLA_U8, QCN_TABLE_STD),
	[TCA_QCN_UNIT] = { .type = NLA_U32 },
	[TCA_QCN_UNITS] = { .type = NLA_U32 },
	[TCA_QCN_PROBES] = NLA_POLICY_RANGE(NLA_U32, 1, 1024),
	[TCA_QCN_ENCAP] = NLA_POLICY_MAX(NLA_U32, FCQ_CNM_MSDU_MAX),
	[TCA_QCN_SEED] = { .type = NLA_U32 },
	[TCA_QCN_B_OUT] = { .type = NLA_U32 },
	[TCA_QCN_ALGO] = NLA_POLICY_MAX(NLA_U8, QCN_ALGO_DSM),
	[TCA_QCN_DSM_M] = { .type = NLA_U32 },		/* by hand: 0 .. 128 */
	[TCA_QCN_DSM_HA] = { .type = NLA_U32 },
	[TCA_QCN_DSM_HB] = { .type = NLA_U32 },
	[TCA_QCN_DSM_HC] = { .type = NLA_U32 },
	[TCA_QCN_DSM_OMEGA] = { .type = NLA_U32 },	/* by hand: 0 .. 1000.0 */
	[TCA_QCN_DSM_ROOM] = NLA_POLICY_MAX(NLA_U8, 1),
	[TCA_QCN_DSM_CLOCK] = NLA_POLICY_MAX(NLA_U8, QCN_DSM_CLOCK_TIME),
};

static const struct fcq_scheme_ops qcn_ops;

static struct qcn_sched *qcn_of(struct fcq_port *port)
{
	return container_of(port, struct qcn_sched, port);
}

/* The first bytes of @skb's MSDU into @buf; how many. */
static u8 msdu_copy(const struct sk_buff *skb, u8 *buf)
{
	u32 n;

	if (skb->len <= ETH_HLEN)
		return 0;
	n = min_t(u32, FCQ_CNM_MSDU_MAX, skb->len - ETH_HLEN);
	return skb_copy_bits(skb, ETH_HLEN, buf, n) ? 0 : n;
}

/*
 * The flow entry of @skb's (SA, DA, prio), made if new; QCN_FLOWS: none.
 * An entry is in use while its flow has bytes buffered or has brought
 * some since the last sample (DSM's room needs each source's arrivals
 * also where the queue is empty). The scan ends once it has passed every
 * entry in use and a free one: a port whose buffer holds a flow or two
 * looks at a few entries per frame, not all QCN_FLOWS.
 */
static u32 flow_charge(struct qcn_cpoint *c, struct sk_buff *skb, u8 p,
		       u32 len)
{
	const struct ethhdr *eth = eth_hdr(skb);
	u32 i, seen = 0, free = QCN_FLOWS;
	struct qcn_flow *f;

	for (i = 0; i < QCN_FLOWS; i++) {
		f = &c->flow[i];
		if (f->bytes || f->arrived) {
			if (f->prio == p &&
			    ether_addr_equal(f->sa, eth->h_source) &&
			    ether_addr_equal(f->da, eth->h_dest)) {
				f->bytes += len;
				f->arrived += len;
				return i;
			}
			seen++;
		} else if (free == QCN_FLOWS) {
			free = i;
		}
		if (seen == c->nflows && free != QCN_FLOWS)
			break;
	}
	if (free == QCN_FLOWS)
		return QCN_FLOWS;
	f = &c->flow[free];
	ether_addr_copy(f->sa, eth->h_source);
	ether_addr_copy(f->da, eth->h_dest);
	f->prio = p;
	/* Its frames differ past the headers a CNM needs (Dev. 14). */
	f->msdu_len = msdu_copy(skb, f->msdu);
	f->bytes = len;
	f->arrived = len;
	c->nflows++;
	return free;
}

/* The flow a CNM names, by @culprit; @arrived the arriving frame's. */
static u32 culprit_of(struct qcn_cpoint *c, u8 culprit, u32 arrived,
		      u32 probes)
{
	u32 bytes[QCN_FLOWS], i, head;

	if (culprit == QCN_CULPRIT_ARRIVAL)
		return arrived;
	if (culprit == QCN_CULPRIT_OCC_RAND) {
		head = qcn_units_pick(&c->units, probes);
		return head == QCN_UNIT_NONE ? QCN_FLOWS : c->head_flow[head];
	}
	for (i = 0; i < QCN_FLOWS; i++)
		bytes[i] = c->flow[i].bytes;
	if (culprit == QCN_CULPRIT_OCC_DET)
		return qcn_pick_max(bytes, QCN_FLOWS);
	return qcn_pick_bytes(bytes, QCN_FLOWS, fcq_xorshift32(&c->rnd));
}

/*
 * A CNM with the feedback of @m to flow @f's source from CP @cp (its MAC
 * @mac) into @buf, with @msdu_len bytes of @msdu, cut at @encap.
 */
static size_t cnm_build(u8 *buf, size_t size, const struct qcn_flow *f,
			const u8 *msdu, u8 msdu_len, struct fcq_cnm *m,
			const u8 *mac, u16 index, u8 encap)
{
	m->prio = f->prio;
	m->msdu_len = min(msdu_len, encap);
	memcpy(m->cpid, mac, ETH_ALEN);
	m->cpid[6] = index >> 8;
	m->cpid[7] = index & 0xff;
	ether_addr_copy(m->encap_da, f->da);
	return fcq_cnm_build(buf, size, f->sa, mac, m, msdu);
}

/*
 * A sample of a buffer of @q bytes by the law of @owner's CP @c: whether
 * it asks for a CNM, whose feedback it writes into @m (Q_off and Q_delta,
 * bytes, into @qoff and @qdelta for the trace); DSM's into @dfb, for
 * dsm_cnm() and dsm_sent(). Under cp_lock.
 */
static bool cp_sample(struct qcn_sched *owner, struct qcn_cpoint *c, u32 q,
		      struct fcq_cnm *m, s64 *qoff, s64 *qdelta,
		      struct dsm_fb *dfb)
{
	u64 now = ktime_get_ns();
	struct qcn_fb fb;
	s64 bps;

	c->first_ns = c->samples ? c->first_ns : now;
	c->dt_ns = c->samples ? now - c->last_ns : 0;
	c->last_ns = now;
	c->samples++;
	if (owner->algo == QCN_ALGO_QCN) {
		if (qcn_cp_sample(&c->cp, &owner->cfg, q, &fb) != QCN_CP_CNM)
			return false;
		c->fb_hist[fb.qfb / 8]++;
		m->qfb = fb.qfb;
		m->qoffset = fcq_cnm_units(fb.qoff);
		m->qdelta = fcq_cnm_units(fb.qdelta);
		*qoff = fb.qoff;
		*qdelta = fb.qdelta;
		return true;
	}
	/* DSM: a sample every i_s bytes, whatever the last one found */
	c->cp.next = owner->cfg.i_s;
	dsm_cp_sample(&c->dsm, &owner->dsm, q, dfb);
	bps = dsm_fb_bps(dfb->u, owner->dsm_t_ns);
	c->dsm_region[dfb->region]++;
	c->dsm_clamped += dfb->clamped;
	c->dsm_qfh = dfb->qfh;
	c->dsm_qvh = dfb->qvh;
	c->dsm_fb = clamp_t(s64, div_s64(bps, 1000), S32_MIN, S32_MAX);
	*qoff = dfb->qf;
	*qdelta = dfb->qv;
	return c->dsm_fb;
}

/*
 * DSM's CNM for flow @f of the sample @dfb into @m: its step, with
 * room on, bounded by what @f can take (@room: its bytes per period,
 * else -1; deviation 17). False if the step is 0. Under cp_lock.
 */
static bool dsm_cnm(struct qcn_sched *owner, struct qcn_cpoint *c,
		    const struct qcn_flow *f, const struct dsm_fb *dfb,
		    struct fcq_cnm *m, s64 *room)
{
	s64 u = dfb->u, bps;

	if (owner->dsm_room) {
		*room = dsm_src_rate(&owner->dsm, f->arrived, c->dt_ns,
				     owner->dsm_t_ns);
		u = dsm_room_bound(&owner->dsm, u, *room);
		c->dsm_bounded += u != dfb->u;
	}
	bps = dsm_fb_bps(u, owner->dsm_t_ns);
	m->fb_kbps = (s32)clamp_t(s64, div_s64(bps, 1000), S32_MIN, S32_MAX);
	if (!m->fb_kbps)
		return false;
	m->version = FCQ_CNM_VERSION_DSM;
	m->qfb = min_t(u64, QCN_QFB_MAX,
		       fcq_mul_div(abs(bps), QCN_QFB_MAX, owner->line_bps));
	c->fb_hist[m->qfb / 8]++;
	return true;
}

/*
 * A sample was taken: each flow's arrivals count from here, and the
 * entries of flows with nothing buffered are free.
 */
static void arrivals_restart(struct qcn_cpoint *c)
{
	struct qcn_flow *f;
	u32 i;

	for (i = 0; i < QCN_FLOWS; i++) {
		f = &c->flow[i];
		if (f->arrived && !f->bytes)
			c->nflows--;
		f->arrived = 0;
	}
}

/*
 * DSM's sample of @q bytes (@dfb) sent its source @fb_kbps (0: no CNM went
 * out), @room as dsm_cnm() found it: the prediction counts that, as the
 * source takes it. Under cp_lock.
 */
static void dsm_sent(struct qcn_sched *owner, struct qcn_cpoint *c, u32 q,
		     const struct dsm_fb *dfb, s32 fb_kbps, s64 room)
{
	s64 sent = dsm_kbps_bytes(fb_kbps, owner->dsm_t_ns);

	dsm_cp_amend(&c->dsm, &owner->dsm, sent);
	trace_dsm_sample(owner->port.dev, q, dfb->qfh, dfb->qvh, dfb->u, sent,
			 dfb->region, room);
}

/*
 * The bytes in the buffer @owner's CP watches, @skb (class @p) included:
 * its input's (@mark QCN_CB_INGRESS), under the switch's lock, only when a
 * sample asks; else its output buffer, which holds @skb already (two
 * stages: ob_fill()); else its class backlog at the output, which counts
 * @skb once queue() returns.
 */
static u32 cp_buffer(struct qcn_sched *owner, const struct sk_buff *skb,
		     u8 p, u8 mark)
{
	struct fcq_port *ing;

	if (mark)
		return fcq_switch_ingress(&owner->port, skb, &ing);
	if (owner->b_out)
		return owner->ob_bytes;
	return owner->port.st.backlog[p] + qdisc_pkt_len(skb);
}

/*
 * Whether a frame of @len bytes arriving at @owner's CP @c is sampled:
 * every i_s bytes, or with DSM's clock time the first frame T or more
 * after the last sample (deviation 18), so that the period stays T where
 * the port is not full. Under cp_lock.
 */
static bool cp_due(const struct qcn_sched *owner, struct qcn_cpoint *c,
		   u32 len)
{
	if (owner->algo != QCN_ALGO_DSM ||
	    owner->dsm_clock != QCN_DSM_CLOCK_TIME)
		return qcn_cp_due(&c->cp, len);
	return !c->samples || ktime_get_ns() - c->last_ns >= owner->dsm_t_ns;
}

/*
 * @skb (class @p) arrived at the CP of @owner; a CNM goes out of @to,
 * where the frames it may name came in. @mark QCN_CB_INGRESS: @owner is
 * the input, and its own cp and prio (read under its cp_lock) say whether
 * it watches. Under the egress port's root lock, in BH; the switch's lock
 * nests inside cp_lock.
 */
static void cp_arrival(struct qcn_sched *owner, struct fcq_port *to,
		       struct sk_buff *skb, u8 p, u8 mark)
{
	u8 frame[FCQ_FR_LEN], buf[FCQ_CNM_MSDU_MAX], msdu_len;
	struct fcq_skb_cb *cb = fcq_cb(skb);
	u32 fi, head, cul, len = qdisc_pkt_len(skb);
	const struct qcn_flow *f;
	struct fcq_cnm m = {};
	struct dsm_fb dfb;
	const u8 *msdu;
	bool sent = false;
	struct qcn_cpoint *c;
	s64 qoff, qdelta, room = -1;
	size_t flen = 0;
	u32 qs;

	spin_lock(&owner->cp_lock);
	c = owner->cpt;
	/* no CP there, or not one of this class; or still starting */
	if (!c || (mark && (owner->cp_at != QCN_CP_AT_INGRESS ||
			    owner->prio != p))) {
		spin_unlock(&owner->cp_lock);
		return;
	}
	fi = flow_charge(c, skb, p, len);
	if (fi == QCN_FLOWS) {
		c->untracked++;
	} else {
		cb->scheme = mark | (fi + 1);
		cb->flow = c->gen << QCN_CB_GEN_SHIFT;
		if (owner->culprit == QCN_CULPRIT_OCC_RAND) {
			head = qcn_units_take(&c->units,
					      DIV_ROUND_UP(len, owner->unit));
			if (head == QCN_UNIT_NONE) {
				c->untracked++;
			} else {
				c->head_flow[head] = fi;
				cb->flow |= head + 1;
			}
		}
	}
	if (!cp_due(owner, c, len))
		goto unlock;
	qs = cp_buffer(owner, skb, p, mark);
	if (!cp_sample(owner, c, qs, &m, &qoff, &qdelta, &dfb))
		goto sampled;
	cul = culprit_of(c, owner->culprit, fi, owner->probes);
	if (cul == QCN_FLOWS || !to) {
		c->no_culprit++;
		goto sampled;
	}
	f = &c->flow[cul];
	if (owner->algo == QCN_ALGO_DSM &&
	    !dsm_cnm(owner, c, f, &dfb, &m, &room))
		goto sampled;
	msdu = f->msdu;
	msdu_len = f->msdu_len;
	/* By arrival, the frame sampled is the one at hand. */
	if (owner->culprit == QCN_CULPRIT_ARRIVAL) {
		msdu_len = msdu_copy(skb, buf);
		msdu = buf;
	}
	flen = cnm_build(frame, sizeof(frame), f, msdu, msdu_len, &m,
			 owner->port.dev->dev_addr, owner->port.index,
			 owner->encap);
	if (flen)
		sent = fcq_port_frame_request(to, frame, flen,
					      htons(FCQ_ETHERTYPE_CNM));
sampled:
	arrivals_restart(c);
	if (owner->algo == QCN_ALGO_DSM)
		dsm_sent(owner, c, qs, &dfb, sent ? m.fb_kbps : 0, room);
	if (flen) {
		if (sent)
			c->cnm_tx++;
		else
			c->cnm_refused++;
		trace_cnm_tx(owner->port.dev, f->sa, f->da, f->prio, m.qfb,
			     qoff, qdelta, sent);
	}
unlock:
	spin_unlock(&owner->cp_lock);
	if (flen)
		fcq_port_kick(to);
}

/* @skb leaves (or is flushed): what its arrival charged, returned. */
static void cp_departure(struct qcn_sched *q, struct sk_buff *skb)
{
	struct fcq_skb_cb *cb = fcq_cb(skb);
	struct qcn_sched *owner = q;
	struct qcn_cpoint *c;
	struct fcq_port *ing;
	struct qcn_flow *f;
	u32 fi;

	if (!cb->scheme)
		return;
	if (cb->scheme & QCN_CB_INGRESS) {
		ing = fcq_switch_input(&q->port, skb);
		if (!ing || ing->ops != &qcn_ops)
			goto out;	/* its input is gone, and its CP */
		owner = qcn_of(ing);
	}
	fi = (cb->scheme & QCN_CB_FLOW) - 1;
	spin_lock(&owner->cp_lock);
	c = owner->cpt;
	/*
	 * The generation wraps after 16 CPs: a return that still reaches the
	 * wrong CP miscounts, and qcn_units_put() frees no unit twice.
	 */
	if (c && fi < QCN_FLOWS && c->gen == cb->flow >> QCN_CB_GEN_SHIFT) {
		f = &c->flow[fi];
		if (f->bytes) {
			f->bytes -= min(f->bytes, qdisc_pkt_len(skb));
			if (!f->bytes && !f->arrived)
				c->nflows--;
		}
		if (cb->flow & QCN_CB_HEAD)
			qcn_units_put(&c->units,
				      (cb->flow & QCN_CB_HEAD) - 1);
	}
	spin_unlock(&owner->cp_lock);
out:
	cb->scheme = 0;
	cb->flow = 0;
}

static void qcn_queue(struct fcq_port *port, struct sk_buff *skb)
{
	struct qcn_sched *q = qcn_of(port);
	u8 p = fcq_cb(skb)->prio;
	struct fcq_port *ing;

	fcq_drr_enqueue(&q->drr[p], skb);
	ing = fcq_switch_input(port, skb);
	/*
	 * A frame is charged to one CP: this output's, if it has one for the
	 * class (with two stages, as it enters the output buffer), else its
	 * input's, if that has one (cp_arrival() asks).
	 */
	if (q->cp_at == QCN_CP_AT_EGRESS && p == q->prio) {
		if (!q->b_out)
			cp_arrival(q, ing, skb, p, 0);
	} else if (ing && ing->ops == &qcn_ops) {
		cp_arrival(qcn_of(ing), ing, skb, p, QCN_CB_INGRESS);
	}
}

/*
 * The second stage: frames of class prio leave the inputs' queues in the
 * round robin's order for the output buffer while it has room for them,
 * the first always (no frame is too big to move). Leaving, a frame returns
 * what its input's CP charged and leaves its input's buffer (which may
 * then resume its upstream); entering, it arrives at this port's CP. A
 * buffer still holding another class (prio changed) drains first.
 */
static void ob_fill(struct qcn_sched *q, u64 now)
{
	struct fcq_drr *d = &q->drr[q->prio];
	struct fcq_port *ing;
	struct sk_buff *skb;
	u32 len;

	if (!skb_queue_empty(&q->ob) && q->ob_prio != q->prio)
		return;
	q->ob_prio = q->prio;
	while ((skb = fcq_drr_peek(d))) {
		len = qdisc_pkt_len(skb);
		if (q->ob_bytes && q->ob_bytes + len > q->b_out)
			break;
		fcq_drr_dequeue(d);
		cp_departure(q, skb);
		ing = fcq_switch_input(&q->port, skb);
		fcq_switch_release(&q->port, skb, now);
		__skb_queue_tail(&q->ob, skb);
		WRITE_ONCE(q->ob_bytes, q->ob_bytes + len);
		if (q->cp_at == QCN_CP_AT_EGRESS)
			cp_arrival(q, ing, skb, q->prio, 0);
	}
}

/* Whether the output buffer holds frames of class @p. */
static bool ob_holds(const struct qcn_sched *q, int p)
{
	return p == q->ob_prio && !skb_queue_empty(&q->ob);
}

/* Class @p's next frame: its output buffer's first, if it holds @p. */
static struct sk_buff *class_peek(struct qcn_sched *q, int p)
{
	if (ob_holds(q, p))
		return skb_peek(&q->ob);
	return fcq_drr_peek(&q->drr[p]);
}

static struct sk_buff *class_dequeue(struct qcn_sched *q, int p)
{
	struct sk_buff *skb;

	if (!ob_holds(q, p))
		return fcq_drr_dequeue(&q->drr[p]);
	skb = __skb_dequeue(&q->ob);
	WRITE_ONCE(q->ob_bytes, q->ob_bytes - qdisc_pkt_len(skb));
	return skb;
}

static struct sk_buff *qcn_pick(struct fcq_port *port, u64 now, u64 *retry)
{
	struct qcn_sched *q = qcn_of(port);
	struct fcq_ready r = {};
	struct sk_buff *skb;
	int p;

	if (q->b_out)
		ob_fill(q, now);
	for (p = 0; p < FCQ_NUM_PRIO; p++)
		fcq_ready_offer(port, &r, p, class_peek(q, p), now, retry);
	p = fcq_ets_pick(&q->ets, r.mask, r.len);
	if (p < 0)
		return NULL;
	skb = class_dequeue(q, p);
	if (skb)
		cp_departure(q, skb);
	return skb;
}

static struct sk_buff *qcn_flush(struct fcq_port *port)
{
	struct qcn_sched *q = qcn_of(port);
	struct sk_buff *skb;
	int p;

	for (p = 0; q->drr && p < FCQ_NUM_PRIO; p++) {
		skb = class_dequeue(q, p);
		if (skb) {
			cp_departure(q, skb);
			return skb;
		}
	}
	return NULL;
}

static int qcn_dump(struct fcq_port *port, struct sk_buff *skb)
{
	struct qcn_sched *q = qcn_of(port);

	if (nla_put_u8(skb, TCA_QCN_CP, q->cp_at) ||
	    nla_put_u8(skb, TCA_QCN_SAMPLE, q->culprit) ||
	    nla_put_u32(skb, TCA_QCN_PRIO, q->prio) ||
	    nla_put_u32(skb, TCA_QCN_Q_EQ, q->cfg.q_eq) ||
	    nla_put_u32(skb, TCA_QCN_W, q->cfg.w) ||
	    nla_put_u32(skb, TCA_QCN_I_S, q->cfg.i_s) ||
	    nla_put_u8(skb, TCA_QCN_TABLE, q->cfg.sample) ||
	    nla_put_u32(skb, TCA_QCN_UNIT, q->unit) ||
	    nla_put_u32(skb, TCA_QCN_UNITS, q->nunits) ||
	    nla_put_u32(skb, TCA_QCN_PROBES, q->probes) ||
	    nla_put_u32(skb, TCA_QCN_ENCAP, q->encap) ||
	    nla_put_u32(skb, TCA_QCN_SEED, q->seed) ||
	    nla_put_u32(skb, TCA_QCN_B_OUT, q->b_out) ||
	    nla_put_u8(skb, TCA_QCN_ALGO, q->algo))
		return -EMSGSIZE;
	if (q->algo != QCN_ALGO_DSM)
		return 0;
	/* the values in effect, defaults included */
	if (nla_put_u32(skb, TCA_QCN_DSM_M, q->dsm.m) ||
	    nla_put_u32(skb, TCA_QCN_DSM_HA, q->dsm_h_eff[0]) ||
	    nla_put_u32(skb, TCA_QCN_DSM_HB, q->dsm_h_eff[1]) ||
	    nla_put_u32(skb, TCA_QCN_DSM_HC, q->dsm_h_eff[2]) ||
	    nla_put_u32(skb, TCA_QCN_DSM_OMEGA, q->dsm.omega) ||
	    nla_put_u8(skb, TCA_QCN_DSM_ROOM, q->dsm_room) ||
	    nla_put_u8(skb, TCA_QCN_DSM_CLOCK, q->dsm_clock))
		return -EMSGSIZE;
	return 0;
}

static int qcn_dump_stats(struct fcq_port *port, struct sk_buff *skb)
{
	struct qcn_sched *q = qcn_of(port);
	struct qcn_cpoint *c = q->cpt;
	u64 hist[ARRAY_SIZE(c->fb_hist)], ctr[5], region[DSM_REGIONS], span;
	s64 last[3];
	struct nlattr *nest;
	u64 clamped, bounded;
	size_t i;

	spin_lock_bh(&q->cp_lock);
	ctr[0] = c->samples;
	ctr[1] = c->cnm_tx;
	ctr[2] = c->cnm_refused;
	ctr[3] = c->no_culprit;
	ctr[4] = c->untracked;
	memcpy(hist, c->fb_hist, sizeof(hist));
	memcpy(region, c->dsm_region, sizeof(region));
	clamped = c->dsm_clamped;
	bounded = c->dsm_bounded;
	last[0] = c->dsm_qfh;
	last[1] = c->dsm_qvh;
	last[2] = c->dsm_fb;
	span = c->last_ns - c->first_ns;
	spin_unlock_bh(&q->cp_lock);
	for (i = 0; i < ARRAY_SIZE(ctr); i++)
		if (nla_put_u64_64bit(skb, TCA_QCN_STATS_SAMPLES + i, ctr[i],
				      TCA_QCN_STATS_PAD))
			return -EMSGSIZE;
	nest = nla_nest_start(skb, TCA_QCN_STATS_FB_HIST);
	if (!nest)
		return -EMSGSIZE;
	for (i = 0; i < ARRAY_SIZE(hist); i++)
		if (nla_put_u64_64bit(skb, i + 1, hist[i], 0))
			return -EMSGSIZE;
	nla_nest_end(skb, nest);
	if (nla_put_u64_64bit(skb, TCA_QCN_STATS_OB_BYTES,
			      READ_ONCE(q->ob_bytes), TCA_QCN_STATS_PAD) ||
	    nla_put_u64_64bit(skb, TCA_QCN_STATS_SAMPLE_NS, span,
			      TCA_QCN_STATS_PAD))
		return -EMSGSIZE;
	if (q->algo != QCN_ALGO_DSM)
		return 0;
	if (nla_put_u64_64bit(skb, TCA_QCN_STATS_DSM_T, q->dsm_t_ns,
			      TCA_QCN_STATS_PAD) ||
	    nla_put_u64_64bit(skb, TCA_QCN_STATS_DSM_CLAMPED, clamped,
			      TCA_QCN_STATS_PAD) ||
	    nla_put_u64_64bit(skb, TCA_QCN_STATS_DSM_BOUNDED, bounded,
			      TCA_QCN_STATS_PAD))
		return -EMSGSIZE;
	for (i = 0; i < ARRAY_SIZE(last); i++)
		if (nla_put_s64(skb, TCA_QCN_STATS_DSM_QFH + i, last[i],
				TCA_QCN_STATS_PAD))
			return -EMSGSIZE;
	nest = nla_nest_start(skb, TCA_QCN_STATS_DSM_REGION);
	if (!nest)
		return -EMSGSIZE;
	for (i = 0; i < ARRAY_SIZE(region); i++)
		if (nla_put_u64_64bit(skb, i + 1, region[i], 0))
			return -EMSGSIZE;
	nla_nest_end(skb, nest);
	return 0;
}

static const struct fcq_scheme_ops qcn_ops = {
	.queue = qcn_queue,
	.pick = qcn_pick,
	.flush = qcn_flush,
	.dump = qcn_dump,
	.dump_stats = qcn_dump_stats,
};

/*
 * DSM's configuration for @algo from @tb over @q's: T from i_s (@cfg) and
 * the port's rate (@pcfg), the gains from H_a, H_b, H_c (each below 2/T;
 * 0.8 * 2 / T unless set, the paper's defaults) and m (eq. 31's forms),
 * omega unless set the least with which eq. 23 holds for b. Into @d, @t_ns,
 * @h (as set) and @h_eff (in effect).
 */
static int dsm_config(const struct qcn_sched *q, struct nlattr **tb,
		      u8 algo, const struct qcn_cp_cfg *cfg,
		      const struct fcq_port_cfg *pcfg, struct dsm_cfg *d,
		      u64 *t_ns, u32 *h, u32 *h_eff, u32 *omega,
		      struct netlink_ext_ack *extack)
{
	static const u32 attr[3] = {
		TCA_QCN_DSM_HA, TCA_QCN_DSM_HB, TCA_QCN_DSM_HC,
	};
	u32 div[3], i;
	u64 h_max;

	d->m = q->dsm.m;
	if (fcq_get_u32(tb[TCA_QCN_DSM_M], 0, DSM_M_MAX, &d->m,
			"m must be 0 to 128 samples", extack))
		return -EINVAL;
	*omega = q->dsm_omega;
	if (fcq_get_u32(tb[TCA_QCN_DSM_OMEGA], 0, DSM_OMEGA_MAX, omega,
			"omega must be 0 (the default) to 1000", extack))
		return -EINVAL;
	/* H as set, whatever the law: kept for a later algo dsm */
	for (i = 0; i < 3; i++)
		h[i] = tb[attr[i]] ? nla_get_u32(tb[attr[i]]) : q->dsm_h[i];
	memcpy(h_eff, h, sizeof(*h) * 3);
	*t_ns = div64_u64((u64)cfg->i_s * NSEC_PER_SEC, pcfg->rate);
	if (algo != QCN_ALGO_DSM)
		return 0;
	if (cfg->i_s < psched_mtu(qdisc_dev(q->port.sch))) {
		/* a sample comes at most once a frame: T would be a frame's */
		NL_SET_ERR_MSG_ATTR(extack, tb[TCA_QCN_I_S],
				    "algo dsm: i_s must be at least the device's MTU");
		return -EINVAL;
	}
	if (cfg->sample != QCN_SAMPLE_FIXED) {
		NL_SET_ERR_MSG_MOD(extack,
				   "algo dsm samples every i_s bytes: table std is QCN's");
		return -EINVAL;
	}
	if (*t_ns < 1000 || *t_ns > 10 * NSEC_PER_SEC) {
		NL_SET_ERR_MSG_MOD(extack,
				   "algo dsm: i_s at the port's rate (T) must take 1us to 10s");
		return -EINVAL;
	}
	h_max = div64_u64(2000ULL * NSEC_PER_SEC, *t_ns);	/* 2 / T, mHz */
	div[0] = dsm_div_a(d->m);
	div[1] = dsm_div_b(d->m);
	div[2] = DSM_DIV_C;
	for (i = 0; i < 3; i++) {
		if (h[i] >= h_max) {
			NL_SET_ERR_MSG_ATTR(extack, tb[attr[i]] ?: tb[TCA_QCN_I_S],
					    "ha, hb and hc must be below 2/T (T: i_s at the port's rate)");
			return -EINVAL;
		}
		h_eff[i] = h[i] ?: (u32)min_t(u64, dsm_h_default(*t_ns), U32_MAX);
	}
	d->q0 = cfg->q_eq;
	d->s = cfg->i_s;
	d->ga = dsm_gain(h_eff[0], *t_ns, div[0]);
	d->gb = dsm_gain(h_eff[1], *t_ns, div[1]);
	d->gc = dsm_gain(h_eff[2], *t_ns, div[2]);
	d->omega = *omega ?: dsm_omega_min(d->gb);
	return 0;
}

static int qcn_change(struct Qdisc *sch, struct nlattr *opt,
		      struct netlink_ext_ack *extack)
{
	struct qcn_sched *q = qdisc_priv(sch);
	struct nlattr *tb[TCA_QCN_MAX + 1];
	struct qcn_cp_cfg cfg = q->cfg;
	u32 probes = q->probes, encap = q->encap, b_out = q->b_out;
	u32 unit, nunits, seed, h[3] = {}, h_eff[3] = {}, omega;
	struct fcq_port_cfg pcfg;
	struct dsm_cfg dsm = {};
	u8 algo = q->algo, room = q->dsm_room, clock = q->dsm_clock;
	u64 t_ns;
	int err;

	err = fcq_port_parse(&q->port, opt, qcn_policy, TCA_QCN_MAX, tb, &pcfg,
			     extack);
	if (err)
		return err;
	if (fcq_get_u32(tb[TCA_QCN_Q_EQ], 64, 1 << 30, &cfg.q_eq,
			"q_eq must be 64 bytes to 1 GB", extack) ||
	    fcq_get_u32(tb[TCA_QCN_I_S], 64, 1 << 30, &cfg.i_s,
			"i_s must be 64 bytes to 1 GB", extack))
		return -EINVAL;
	if (tb[TCA_QCN_B_OUT]) {
		b_out = nla_get_u32(tb[TCA_QCN_B_OUT]);
		if (b_out && (b_out < 2048 || b_out > 1 << 30)) {
			NL_SET_ERR_MSG_ATTR(extack, tb[TCA_QCN_B_OUT],
					    "b_out must be 0 (one stage) or 2 kB to 1 GB");
			return -EINVAL;
		}
	}
	if (tb[TCA_QCN_W])
		cfg.w = nla_get_u32(tb[TCA_QCN_W]);
	if (tb[TCA_QCN_TABLE])
		cfg.sample = nla_get_u8(tb[TCA_QCN_TABLE]);
	if (tb[TCA_QCN_PROBES])
		probes = nla_get_u32(tb[TCA_QCN_PROBES]);
	if (tb[TCA_QCN_ENCAP])
		encap = nla_get_u32(tb[TCA_QCN_ENCAP]);
	unit = q->unit;
	nunits = q->nunits;
	seed = tb[TCA_QCN_SEED] ? nla_get_u32(tb[TCA_QCN_SEED]) : q->seed;
	if (fcq_get_u32(tb[TCA_QCN_UNIT], 64, 65536, &unit,
			"unit must be 64 to 65536 bytes", extack) ||
	    fcq_get_u32(tb[TCA_QCN_UNITS], 16, QCN_UNITS_LIMIT, &nunits,
			"units must be 16 to 4095", extack))
		return -EINVAL;
	if ((tb[TCA_QCN_CP] ? nla_get_u8(tb[TCA_QCN_CP]) : q->cp_at) ==
	    QCN_CP_AT_EGRESS &&
	    (tb[TCA_QCN_SAMPLE] ? nla_get_u8(tb[TCA_QCN_SAMPLE]) :
	     q->culprit) != QCN_CULPRIT_ARRIVAL) {
		NL_SET_ERR_MSG_MOD(extack,
				   "cp egress samples by arrival only (its culprits come in on many ports)");
		return -EINVAL;
	}
	if (q->cpt && (unit != q->unit || nunits != q->nunits ||
		       seed != q->seed)) {
		NL_SET_ERR_MSG_MOD(extack,
				   "unit, units and seed cannot change; delete and add the qdisc");
		return -EINVAL;
	}
	if (tb[TCA_QCN_ALGO])
		algo = nla_get_u8(tb[TCA_QCN_ALGO]);
	if (tb[TCA_QCN_DSM_ROOM])
		room = nla_get_u8(tb[TCA_QCN_DSM_ROOM]);
	if (tb[TCA_QCN_DSM_CLOCK])
		clock = nla_get_u8(tb[TCA_QCN_DSM_CLOCK]);
	err = dsm_config(q, tb, algo, &cfg, &pcfg, &dsm, &t_ns, h, h_eff,
			 &omega, extack);
	if (err)
		return err;

	/* One section: no enqueue or dequeue sees half of it. */
	sch_tree_lock(sch);
	spin_lock_bh(&q->cp_lock);
	fcq_port_apply(&q->port, &pcfg);
	if (tb[TCA_QCN_CP])
		q->cp_at = nla_get_u8(tb[TCA_QCN_CP]);
	if (tb[TCA_QCN_SAMPLE])
		q->culprit = nla_get_u8(tb[TCA_QCN_SAMPLE]);
	if (tb[TCA_QCN_PRIO])
		q->prio = nla_get_u32(tb[TCA_QCN_PRIO]);
	q->seed = seed;
	q->cfg = cfg;
	q->probes = probes;
	q->encap = encap;
	q->b_out = b_out;
	q->unit = unit;
	q->nunits = nunits;
	/* a new law, or a new horizon: DSM's history starts over */
	if (q->cpt && (algo != q->algo || dsm.m != q->dsm.m))
		dsm_cp_forget(&q->cpt->dsm);
	q->algo = algo;
	q->dsm = dsm;
	q->dsm_t_ns = t_ns;
	q->line_bps = pcfg.rate * 8;
	memcpy(q->dsm_h, h, sizeof(h));
	memcpy(q->dsm_h_eff, h_eff, sizeof(h_eff));
	q->dsm_omega = omega;
	q->dsm_room = room;
	q->dsm_clock = clock;
	spin_unlock_bh(&q->cp_lock);
	sch_tree_unlock(sch);
	return 0;
}

static int cpoint_alloc(struct qcn_sched *q)
{
	struct qcn_cpoint *c;

	c = kvzalloc(sizeof(*c), GFP_KERNEL);
	if (!c)
		return -ENOMEM;
	c->owner = kvcalloc(q->nunits, sizeof(*c->owner), GFP_KERNEL);
	c->link = kvcalloc(q->nunits, sizeof(*c->link), GFP_KERNEL);
	c->head_flow = kvcalloc(q->nunits, sizeof(*c->head_flow), GFP_KERNEL);
	if (!c->owner || !c->link || !c->head_flow) {
		kvfree(c->owner);
		kvfree(c->link);
		kvfree(c->head_flow);
		kvfree(c);
		return -ENOMEM;
	}
	qcn_cp_init(&c->cp, &q->cfg, q->seed);
	qcn_units_init(&c->units, c->owner, c->link, q->nunits, q->seed ^ 1);
	c->rnd = q->seed | 1;
	c->gen = atomic_inc_return(&qcn_generation) &
		 (U16_MAX >> QCN_CB_GEN_SHIFT);
	spin_lock_bh(&q->cp_lock);
	q->cpt = c;
	spin_unlock_bh(&q->cp_lock);
	return 0;
}

static int qcn_init(struct Qdisc *sch, struct nlattr *opt,
		    struct netlink_ext_ack *extack)
{
	struct qcn_sched *q = qdisc_priv(sch);
	int err, p;

	/* TCA_QCN_TABLE is core's enum qcn_sample */
	BUILD_BUG_ON((int)QCN_SAMPLE_FIXED != QCN_TABLE_FIXED ||
		     (int)QCN_SAMPLE_STD != QCN_TABLE_STD);
	spin_lock_init(&q->cp_lock);
	__skb_queue_head_init(&q->ob);	/* before anything can fail */
	for (p = 0; p < FCQ_NUM_PRIO; p++)
		q->ets.quantum[p] = psched_mtu(qdisc_dev(sch));
	err = fcq_port_init(sch, &qcn_ops, extack);
	if (err)
		return err;
	q->port.sends_pfc = true;
	q->drr = kvcalloc(FCQ_NUM_PRIO, sizeof(*q->drr), GFP_KERNEL);
	if (!q->drr)
		return -ENOMEM;
	for (p = 0; p < FCQ_NUM_PRIO; p++)
		fcq_drr_init(&q->drr[p], psched_mtu(qdisc_dev(sch)),
			     FCQ_DRR_LOCAL_MAX);
	/* The paper's CP: Q_eq 60 kB (of a 150 kB input buffer), w 2, */
	/* a sample per 150 kB arrived; 256-byte units of 150 kB. */
	q->cfg = (struct qcn_cp_cfg){
		.q_eq = 60000, .w = 2, .i_s = QCN_STD_I_S,
		.sample = QCN_SAMPLE_FIXED,
	};
	q->cp_at = QCN_CP_AT_INGRESS;
	q->culprit = QCN_CULPRIT_OCC_RAND;
	q->dsm.m = 4;			/* DSM's default (its sec. V.A) */
	q->probes = 64;
	q->encap = 22;
	q->unit = 256;
	q->nunits = 600;
	q->seed = get_random_u32();
	err = qcn_change(sch, opt, extack);
	if (err)
		return err;
	err = cpoint_alloc(q);
	if (err)
		return err;
	err = fcq_port_frames_enable(&q->port);
	if (err)
		return err;
	return fcq_port_start(&q->port, extack);
}

static void qcn_destroy(struct Qdisc *sch)
{
	struct qcn_sched *q = qdisc_priv(sch);
	struct qcn_cpoint *c = q->cpt;

	fcq_port_destroy(sch);		/* empties the queues first */
	kvfree(q->drr);
	/* Gone from the switch, it may still be an enqueue's input. */
	spin_lock_bh(&q->cp_lock);
	q->cpt = NULL;
	spin_unlock_bh(&q->cp_lock);
	if (c) {
		kvfree(c->owner);
		kvfree(c->link);
		kvfree(c->head_flow);
		kvfree(c);
	}
}

struct Qdisc_ops qcn_qdisc_ops __read_mostly = {
	.id		= "qcn",
	.priv_size	= sizeof(struct qcn_sched),
	.enqueue	= fcq_port_enqueue,
	.dequeue	= fcq_port_dequeue,
	.peek		= qdisc_peek_dequeued,
	.init		= qcn_init,
	.reset		= fcq_port_reset,
	.destroy	= qcn_destroy,
	.change		= qcn_change,
	.dump		= fcq_port_dump,
	.dump_stats	= fcq_port_dump_stats,
	.owner		= THIS_MODULE,
};
