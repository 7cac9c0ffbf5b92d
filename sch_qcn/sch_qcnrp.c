// SPDX-License-Identifier: GPL-2.0
/*
 * The IEEE 802.1Qau QCN reaction point of a host NIC: per-flow rate
 * limiters driven by the CNMs that congestion points send back. Unbiased
 * QCN (N. Chrysos et al., IEEE Micro 36(6), 2016) keeps this reaction
 * point as the standard has it; only its congestion points differ.
 *
 * A flow is (destination MAC, priority), what a CNM's encapsulated DA and
 * priority name. A CNM for a flow without a rate limiter (RL) creates one
 * at line rate, up to max_rps of them; core/qcn.c then cuts its rate and
 * recovers it (fast recovery, active and hyper-active increase on a byte
 * counter and a timer). The flow's packets wait in the RL's own FIFO, the
 * "set-aside queue" (those already queued move there in order), and leave
 * at the RL's current rate. Every other packet waits in its class's FIFO.
 * Within a class the FIFO and the RLs that may send take turns; across
 * classes, ETS as pfc has it (core/ets.c). An RL back at line rate is
 * freed, its queue joining the FIFO.
 *
 * With `algo dsm` the RLs follow DSM instead (core/dsm.c): a CNM of version
 * 1 carries a signed step F_b, r <- r + F_b; a cut makes the flow's RL,
 * which is freed once increases bring it back to line rate.
 *
 * CNMs arrive in the receive hook (softirq), which only records them: the
 * dequeue, under the root lock, applies them, so that the queues and the
 * RLs have one owner. Each takes effect `react` after it came, plus a
 * delay drawn from U(0, react_jitter), never before the one before it.
 */
#include <linux/etherdevice.h>
#include <linux/module.h>
#include <net/netlink.h>
#include <net/pkt_sched.h>
#include <uapi/linux/qcn.h>

#include "../fcq/compat.h"
#include "../fcq/fcq.h"
#include "../core/dsm.h"
#include "../core/ets.h"
#include "../core/frames.h"
#include "../core/qcn.h"
#include "qcn.h"
#include "qcn_trace.h"

#define QCNRP_PENDING	64	/* CNMs received, not yet applied */

struct qcnrp_rl {
	bool used;
	u8 prio;
	u8 da[ETH_ALEN];
	struct qcn_rp rp;	/* algo qcn */
	struct dsm_rp dsm;	/* algo dsm */
	u64 next_tx;		/* its next packet may start then */
	struct sk_buff_head q;
};

/* A CNM the receive hook took, for the dequeue to apply. */
struct qcnrp_cnm {
	u8 da[ETH_ALEN];
	u8 prio;
	u8 qfb;
	s32 fb_kbps;		/* DSM */
	u8 cpid[DSM_CPID_LEN];	/* DSM */
	u64 due;		/* when it takes effect */
};

struct qcnrp_stats {
	u64 cnm_rx;
	u64 cnm_zero;
	u64 cnm_not_ours;
	u64 cnm_bad;
	u64 cnm_late;
	u64 rl_full;
	u64 rl_created;
	u64 rl_freed;
	u64 drop_rl;
	u64 cnm_algo;
	u64 dsm_ignored;
	u64 dsm_clamped;
	u64 cnm_flushed;
};

struct qcnrp_sched {
	struct fcq_port port;		/* first: fcq_port() */
	struct qcn_rp_cfg rp;		/* rates in bit/s; line from the port */
	struct dsm_rp_cfg dsm;		/* the same line and r_min */
	u8 algo;			/* enum qcn_algo */
	u32 max_rps;
	u32 limit;			/* packets per RL queue */
	u32 react_ns;			/* a CNM's delay to take effect */
	u32 react_jitter_ns;		/* ... plus up to this, per CNM */
	u32 seed;
	struct fcq_ets ets;
	struct sk_buff_head q[FCQ_NUM_PRIO];
	struct qcnrp_rl *rl;		/* [QCNRP_MAX_RPS] */
	u8 turn[FCQ_NUM_PRIO];		/* 0: the FIFO; i + 1: RL i */
	u8 rls[FCQ_NUM_PRIO];		/* RLs in use per class */

	spinlock_t cnm_lock;		/* pend, npend, the cnm_* counters */
	struct qcnrp_cnm pend[QCNRP_PENDING];	/* a ring, in order of due */
	u32 head, npend;
	u64 last_due;			/* the last CNM's due time */
	u32 rnd;			/* xorshift32: the jitter */
	bool cnm_want;			/* READ_ONCE */
	struct qcnrp_stats st;
};

static const struct nla_policy qcnrp_policy[TCA_QCNRP_MAX + 1] = {
	[TCA_QCNRP_MAX_RPS] = NLA_POLICY_RANGE(NLA_U32, 1, QCNRP_MAX_RPS),
	[TCA_QCNRP_RL_LIMIT] = { .type = NLA_U32 },
	[TCA_QCNRP_GD_LOG2] = NLA_POLICY_RANGE(NLA_U32, 1, 16),
	[TCA_QCNRP_MIN_DEC] = NLA_POLICY_RANGE(NLA_U32, 1, 100),
	[TCA_QCNRP_R_MIN] = { .type = NLA_U64 },	/* bytes/s: by hand */
	[TCA_QCNRP_R_AI] = { .type = NLA_U64 },
	[TCA_QCNRP_R_HAI] = { .type = NLA_U64 },
	[TCA_QCNRP_BC] = { .type = NLA_U32 },
	[TCA_QCNRP_T] = { .type = NLA_U32 },
	[TCA_QCNRP_F_THR] = NLA_POLICY_RANGE(NLA_U32, 1, 100),
	[TCA_QCNRP_FLAGS] = NLA_POLICY_BITFIELD32(QCNRP_FL_ALL),
	[TCA_QCNRP_SEED] = { .type = NLA_U32 },
	[TCA_QCNRP_REACT] = { .type = NLA_U32 },
	[TCA_QCNRP_ALGO] = NLA_POLICY_MAX(NLA_U8, QCN_ALGO_DSM),
	[TCA_QCNRP_REACT_JITTER] = { .type = NLA_U32 },
};

static struct qcnrp_sched *qcnrp_of(struct fcq_port *port)
{
	return container_of(port, struct qcnrp_sched, port);
}

static struct qcnrp_rl *rl_find(struct qcnrp_sched *q, const u8 *da, u8 p)
{
	u32 i;

	if (!q->rls[p])
		return NULL;
	for (i = 0; i < q->max_rps; i++)
		if (q->rl[i].used && q->rl[i].prio == p &&
		    ether_addr_equal(q->rl[i].da, da))
			return &q->rl[i];
	return NULL;
}

/* The rate @rl sends at, bit/s. */
static u64 rl_rate(const struct qcnrp_sched *q, const struct qcnrp_rl *rl)
{
	return q->algo == QCN_ALGO_DSM ? rl->dsm.r : rl->rp.cr;
}

static bool rl_idle(const struct qcnrp_sched *q, const struct qcnrp_rl *rl)
{
	return q->algo == QCN_ALGO_DSM ? dsm_rp_idle(&rl->dsm, &q->dsm) :
					 qcn_rp_idle(&rl->rp, &q->rp);
}

static const u8 *skb_da(const struct sk_buff *skb)
{
	return skb_mac_header(skb);
}

/*
 * An RL's queue holds at most `limit` packets: the rest are dropped. The
 * packet's mark names its RL (index + 1) for queue(), under the same
 * root lock: one lookup per packet.
 */
static bool qcnrp_full(struct fcq_port *port, struct sk_buff *skb)
{
	struct qcnrp_sched *q = qcnrp_of(port);
	struct qcnrp_rl *rl = rl_find(q, skb_da(skb), fcq_cb(skb)->prio);

	if (!rl)
		return false;
	if (skb_queue_len(&rl->q) >= q->limit) {
		q->st.drop_rl++;
		return true;
	}
	fcq_cb(skb)->scheme = rl - q->rl + 1;
	return false;
}

static void qcnrp_queue(struct fcq_port *port, struct sk_buff *skb)
{
	struct qcnrp_sched *q = qcnrp_of(port);
	u8 rl = fcq_cb(skb)->scheme;

	__skb_queue_tail(rl ? &q->rl[rl - 1].q : &q->q[fcq_cb(skb)->prio],
			 skb);
}

/*
 * Back at line rate: the flow's packets that wait join its class's FIFO,
 * which holds none of its own (they all went to the RL), so its order
 * holds.
 */
static void rl_free(struct qcnrp_sched *q, struct qcnrp_rl *rl)
{
	skb_queue_splice_tail_init(&rl->q, &q->q[rl->prio]);
	rl->used = false;
	q->rls[rl->prio]--;
	q->st.rl_freed++;
}

/*
 * @rl's flow sent @len bytes at @now (0: its timer's cycles catch up);
 * true if that brought it back to line rate, and it is freed. DSM's RLs
 * count nothing: only CNMs move them.
 */
static bool rl_counted(struct qcnrp_sched *q, struct qcnrp_rl *rl, u32 len,
		       u64 now)
{
	if (q->algo == QCN_ALGO_QCN)
		qcn_rp_tx(&rl->rp, &q->rp, len, now);
	if (!rl_idle(q, rl))
		return false;
	rl_free(q, rl);
	return true;
}

/*
 * A free RL at @now, or NULL. With none free, the RLs whose flows have
 * nothing queued count their timer's cycles up to @now (qcn_rp_tx() does
 * so only when an RL sends): one back at line rate is freed and taken.
 */
static struct qcnrp_rl *rl_slot(struct qcnrp_sched *q, u64 now)
{
	struct qcnrp_rl *rl;
	u32 i;

	for (i = 0; i < q->max_rps; i++)
		if (!q->rl[i].used)
			return &q->rl[i];
	for (i = 0; i < q->max_rps; i++) {
		rl = &q->rl[i];
		if (skb_queue_empty(&rl->q) && rl_counted(q, rl, 0, now))
			return rl;
	}
	return NULL;
}

/*
 * A new RL for (@da, @p) at @now; the flow's packets in its class's FIFO
 * move to it, in order. NULL when max_rps are in use.
 */
static struct qcnrp_rl *rl_create(struct qcnrp_sched *q, const u8 *da, u8 p,
				  u64 now)
{
	struct qcnrp_rl *rl = rl_slot(q, now);
	struct sk_buff *skb, *tmp;

	if (!rl) {
		q->st.rl_full++;
		return NULL;
	}
	rl->used = true;
	rl->prio = p;
	q->rls[p]++;
	ether_addr_copy(rl->da, da);
	rl->next_tx = now;
	if (q->algo == QCN_ALGO_DSM)
		dsm_rp_init(&rl->dsm, &q->dsm);
	else
		qcn_rp_init(&rl->rp, &q->rp, now, q->seed + (u32)(rl - q->rl));
	skb_queue_walk_safe(&q->q[p], skb, tmp) {
		if (ether_addr_equal(skb_da(skb), da)) {
			__skb_unlink(skb, &q->q[p]);
			__skb_queue_tail(&rl->q, skb);
		}
	}
	q->st.rl_created++;
	return rl;
}

/*
 * @rl's rate went from @old to its rate now: the wait for its next packet,
 * computed at the old rate, scales to the new one (a cut to r_min would
 * else hold the flow for a frame's time at r_min after the rate is back).
 */
static void rl_rescale(struct qcnrp_sched *q, struct qcnrp_rl *rl, u64 old,
		       u64 now)
{
	u64 r = rl_rate(q, rl);

	if (rl->next_tx > now && r && r != old)
		rl->next_tx = now + fcq_mul_div(rl->next_tx - now, old, r);
}

/* A DSM CNM @c at @now: a cut makes the flow's RL, which line rate frees. */
static void dsm_apply(struct qcnrp_sched *q, const struct qcnrp_cnm *c,
		      u64 now)
{
	struct qcnrp_rl *rl = rl_find(q, c->da, c->prio);
	u64 clamped, old;

	if (!rl && c->fb_kbps < 0)
		rl = rl_create(q, c->da, c->prio, now);	/* or rl_full */
	if (!rl) {
		if (c->fb_kbps > 0)	/* an increase for a flow at line rate */
			q->st.dsm_ignored++;
		return;
	}
	clamped = rl->dsm.clamped;
	old = rl->dsm.r;
	if (dsm_rp_cnm(&rl->dsm, &q->dsm, (s64)c->fb_kbps * 1000, c->cpid) ==
	    DSM_RP_FOREIGN)
		q->st.dsm_ignored++;
	q->st.dsm_clamped += rl->dsm.clamped - clamped;
	rl_rescale(q, rl, old, now);
	trace_cnm_rx(q->port.dev, rl->da, rl->prio, c->qfb, rl->dsm.r, 0, now,
		     c->fb_kbps);
	if (dsm_rp_idle(&rl->dsm, &q->dsm))
		rl_free(q, rl);
}

/*
 * The CNMs the receive hook took that are due (`react` after they came,
 * plus their jitter); *@retry is lowered to when the next one is. Root
 * lock held.
 */
static void cnms_apply(struct qcnrp_sched *q, u64 now, u64 *retry)
{
	struct qcnrp_cnm c;
	struct qcnrp_rl *rl;

	if (!READ_ONCE(q->cnm_want))
		return;
	for (;;) {
		spin_lock_bh(&q->cnm_lock);
		/* in order of due: the first is due first */
		if (!q->npend || q->pend[q->head].due > now) {
			if (q->npend)
				*retry = min(*retry, q->pend[q->head].due);
			else
				WRITE_ONCE(q->cnm_want, false);
			spin_unlock_bh(&q->cnm_lock);
			return;
		}
		c = q->pend[q->head];
		q->head = (q->head + 1) % QCNRP_PENDING;
		q->npend--;
		spin_unlock_bh(&q->cnm_lock);

		if (q->algo == QCN_ALGO_DSM) {
			dsm_apply(q, &c, now);
			continue;
		}
		rl = rl_find(q, c.da, c.prio) ?: rl_create(q, c.da, c.prio, now);
		if (!rl)
			continue;
		qcn_rp_cnm(&rl->rp, &q->rp, c.qfb, c.due);
		trace_cnm_rx(q->port.dev, rl->da, rl->prio, c.qfb, rl->rp.cr,
			     rl->rp.tr, now, 0);
	}
}

/* @rl's next packet may start at @now; lowers *@retry otherwise. */
static bool rl_ready(struct qcnrp_rl *rl, u64 now, u64 *retry)
{
	if (!rl->used || skb_queue_empty(&rl->q))
		return false;
	if (rl->next_tx <= now)
		return true;
	*retry = min(*retry, rl->next_tx);
	return false;
}

/* Class @p's queue whose turn it is: 0 the FIFO, i + 1 RL i; -1 none. */
static int class_turn(struct qcnrp_sched *q, u8 p, u64 now, u64 *retry)
{
	u32 k, n = q->max_rps + 1, at;

	/* no RL: the FIFO alone, without a round over every RL's slot */
	if (!q->rls[p])
		return skb_queue_empty(&q->q[p]) ? -1 : 0;
	for (k = 0; k < n; k++) {
		at = (q->turn[p] + k) % n;
		if (!at) {
			if (!skb_queue_empty(&q->q[p]))
				return 0;
		} else if (q->rl[at - 1].prio == p &&
			   rl_ready(&q->rl[at - 1], now, retry)) {
			return at;
		}
	}
	return -1;
}

static struct sk_buff_head *turn_queue(struct qcnrp_sched *q, u8 p, int at)
{
	return at ? &q->rl[at - 1].q : &q->q[p];
}

/* An RL sent @skb at @now: its next may start one gap later. */
static void rl_sent(struct qcnrp_sched *q, struct qcnrp_rl *rl,
		    struct sk_buff *skb, u64 now)
{
	u32 wire = qdisc_pkt_len(skb) + q->port.cfg.overhead;

	/* r_min is at least 1 bit/s: no rate is 0 */
	if (!rl_counted(q, rl, qdisc_pkt_len(skb), now))
		rl->next_tx = max(now, rl->next_tx) +
			      fcq_mul_div((u64)wire * 8, NSEC_PER_SEC,
					  max_t(u64, rl_rate(q, rl), 1));
}

static struct sk_buff *qcnrp_pick(struct fcq_port *port, u64 now, u64 *retry)
{
	struct qcnrp_sched *q = qcnrp_of(port);
	int turn[FCQ_NUM_PRIO], p, at;
	struct fcq_ready r = {};
	struct sk_buff *skb;

	cnms_apply(q, now, retry);
	for (p = 0; p < FCQ_NUM_PRIO; p++) {
		turn[p] = class_turn(q, p, now, retry);
		if (turn[p] >= 0)
			fcq_ready_offer(port, &r, p,
					skb_peek(turn_queue(q, p, turn[p])),
					now, retry);
	}
	p = fcq_ets_pick(&q->ets, r.mask, r.len);
	if (p < 0)
		return NULL;
	at = turn[p];
	skb = __skb_dequeue(turn_queue(q, p, at));
	q->turn[p] = (at + 1) % (q->max_rps + 1);
	port->held_until = 0;
	if (at) {
		port->held_until = q->rl[at - 1].next_tx;
		rl_sent(q, &q->rl[at - 1], skb, now);
	}
	return skb;
}

static struct sk_buff *qcnrp_flush(struct fcq_port *port)
{
	struct qcnrp_sched *q = qcnrp_of(port);
	struct sk_buff *skb;
	u32 i;
	int p;

	for (p = 0; p < FCQ_NUM_PRIO; p++) {
		skb = __skb_dequeue(&q->q[p]);
		if (skb)
			return skb;
	}
	for (i = 0; q->rl && i < QCNRP_MAX_RPS; i++) {
		skb = __skb_dequeue(&q->rl[i].q);
		if (skb)
			return skb;
	}
	return NULL;
}

/*
 * A CNM, in the receive hook: checked and recorded for the dequeue. One to
 * another address (a CNM is unicast to the culprit's source) is dropped.
 */
static unsigned int qcnrp_rx(struct fcq_port *port, const u8 *frame,
			     unsigned int len, unsigned int full)
{
	struct qcnrp_sched *q = qcnrp_of(port);
	unsigned int verdict = NF_DROP;
	u64 now = ktime_get_ns(), jitter;
	struct qcnrp_cnm *c;
	struct fcq_cnm cnm;
	u8 algo;

	spin_lock(&q->cnm_lock);
	algo = READ_ONCE(q->algo);
	if (fcq_cnm_parse(frame, len, &cnm)) {
		q->st.cnm_bad++;
	} else if (!ether_addr_equal(frame, port->dev->dev_addr)) {
		q->st.cnm_not_ours++;
	} else if (cnm.version != (algo == QCN_ALGO_DSM ? FCQ_CNM_VERSION_DSM :
						     FCQ_CNM_VERSION_QCN)) {
		q->st.cnm_algo++;
		verdict = NF_STOLEN;
	} else if (algo == QCN_ALGO_DSM ? !cnm.fb_kbps : !cnm.qfb) {
		q->st.cnm_zero++;
		verdict = NF_STOLEN;
	} else if (q->npend == QCNRP_PENDING) {
		q->st.cnm_late++;
		verdict = NF_STOLEN;
	} else {
		c = &q->pend[(q->head + q->npend++) % QCNRP_PENDING];
		ether_addr_copy(c->da, cnm.encap_da);
		c->prio = cnm.prio;
		c->qfb = cnm.qfb;
		c->fb_kbps = cnm.fb_kbps;
		memcpy(c->cpid, cnm.cpid, DSM_CPID_LEN);
		jitter = fcq_mul_shr(READ_ONCE(q->react_jitter_ns),
				     fcq_xorshift32(&q->rnd), 32);
		/* never before the CNM before it: they take effect in order */
		c->due = max(q->last_due,
			     now + READ_ONCE(q->react_ns) + jitter);
		q->last_due = c->due;
		q->st.cnm_rx++;
		WRITE_ONCE(q->cnm_want, true);
		verdict = NF_STOLEN;
	}
	spin_unlock(&q->cnm_lock);
	if (verdict == NF_STOLEN)
		fcq_port_kick(port);
	return verdict;
}

static int qcnrp_dump(struct fcq_port *port, struct sk_buff *skb)
{
	struct qcnrp_sched *q = qcnrp_of(port);
	const struct qcn_rp_cfg *c = &q->rp;

	if (nla_put_u32(skb, TCA_QCNRP_MAX_RPS, READ_ONCE(q->max_rps)) ||
	    nla_put_u32(skb, TCA_QCNRP_RL_LIMIT, READ_ONCE(q->limit)) ||
	    nla_put_u32(skb, TCA_QCNRP_GD_LOG2, READ_ONCE(c->gd_log2)) ||
	    nla_put_u32(skb, TCA_QCNRP_MIN_DEC, READ_ONCE(c->min_dec_pct)) ||
	    nla_put_u64_64bit(skb, TCA_QCNRP_R_MIN, READ_ONCE(c->r_min) / 8,
			      TCA_QCNRP_PAD) ||
	    nla_put_u64_64bit(skb, TCA_QCNRP_R_AI, READ_ONCE(c->r_ai) / 8,
			      TCA_QCNRP_PAD) ||
	    nla_put_u64_64bit(skb, TCA_QCNRP_R_HAI, READ_ONCE(c->r_hai) / 8,
			      TCA_QCNRP_PAD) ||
	    nla_put_u32(skb, TCA_QCNRP_BC, READ_ONCE(c->bc)) ||
	    nla_put_u32(skb, TCA_QCNRP_T, (u32)READ_ONCE(c->t_ns)) ||
	    nla_put_u32(skb, TCA_QCNRP_F_THR, READ_ONCE(c->f_thr)) ||
	    nla_put_bitfield32(skb, TCA_QCNRP_FLAGS,
			       (READ_ONCE(c->jitter) ? QCNRP_FL_JITTER : 0) |
			       (READ_ONCE(c->tr_reduce) ? QCNRP_FL_TR_REDUCE : 0),
			       QCNRP_FL_ALL) ||
	    nla_put_u32(skb, TCA_QCNRP_REACT, READ_ONCE(q->react_ns)) ||
	    nla_put_u32(skb, TCA_QCNRP_REACT_JITTER,
			READ_ONCE(q->react_jitter_ns)) ||
	    nla_put_u8(skb, TCA_QCNRP_ALGO, READ_ONCE(q->algo)) ||
	    nla_put_u32(skb, TCA_QCNRP_SEED, READ_ONCE(q->seed)))
		return -EMSGSIZE;
	return 0;
}

/* The RLs in use, under the root lock (dump_stats holds it). */
static int dump_rls(struct qcnrp_sched *q, struct sk_buff *skb)
{
	struct nlattr *nest, *one;
	struct qcnrp_rl *rl;
	u32 i;

	nest = nla_nest_start(skb, TCA_QCNRP_STATS_RLS);
	if (!nest)
		return -EMSGSIZE;
	for (i = 0; i < q->max_rps; i++) {
		rl = &q->rl[i];
		if (!rl->used)
			continue;
		one = nla_nest_start(skb, TCA_QCNRP_RL);
		if (!one ||
		    nla_put(skb, TCA_QCNRP_RL_DA, ETH_ALEN, rl->da) ||
		    nla_put_u8(skb, TCA_QCNRP_RL_PRIO, rl->prio) ||
		    nla_put_u64_64bit(skb, TCA_QCNRP_RL_CR, rl_rate(q, rl) / 8,
				      TCA_QCNRP_RL_PAD) ||
		    nla_put_u32(skb, TCA_QCNRP_RL_BACKLOG,
				skb_queue_len(&rl->q)))
			return -EMSGSIZE;
		if (q->algo == QCN_ALGO_DSM ?
		    nla_put_u64_64bit(skb, TCA_QCNRP_RL_CNMS,
				      rl->dsm.dec + rl->dsm.inc,
				      TCA_QCNRP_RL_PAD) ||
		    (rl->dsm.has_cpid &&
		     nla_put(skb, TCA_QCNRP_RL_CPID, DSM_CPID_LEN,
			     rl->dsm.cpid)) :
		    nla_put_u64_64bit(skb, TCA_QCNRP_RL_TR, rl->rp.tr / 8,
				      TCA_QCNRP_RL_PAD) ||
		    nla_put_u64_64bit(skb, TCA_QCNRP_RL_CNMS, rl->rp.cnms,
				      TCA_QCNRP_RL_PAD))
			return -EMSGSIZE;
		nla_nest_end(skb, one);
	}
	nla_nest_end(skb, nest);
	return 0;
}

/* Under the root lock, as every qdisc stats dump is. */
static int qcnrp_dump_stats(struct fcq_port *port, struct sk_buff *skb)
{
	struct qcnrp_sched *q = qcnrp_of(port);
	struct qcnrp_stats st;
	size_t i;

	spin_lock_bh(&q->cnm_lock);
	st = q->st;
	spin_unlock_bh(&q->cnm_lock);
	{
		const struct {
			int attr;
			u64 val;
		} ctr[] = {
			{ TCA_QCNRP_STATS_CNM_RX, st.cnm_rx },
			{ TCA_QCNRP_STATS_CNM_ZERO, st.cnm_zero },
			{ TCA_QCNRP_STATS_CNM_NOT_OURS, st.cnm_not_ours },
			{ TCA_QCNRP_STATS_CNM_BAD, st.cnm_bad },
			{ TCA_QCNRP_STATS_CNM_LATE, st.cnm_late },
			{ TCA_QCNRP_STATS_RL_FULL, st.rl_full },
			{ TCA_QCNRP_STATS_RL_CREATED, st.rl_created },
			{ TCA_QCNRP_STATS_RL_FREED, st.rl_freed },
			{ TCA_QCNRP_STATS_DROP_RL, st.drop_rl },
			{ TCA_QCNRP_STATS_CNM_ALGO, st.cnm_algo },
			{ TCA_QCNRP_STATS_DSM_IGNORED, st.dsm_ignored },
			{ TCA_QCNRP_STATS_DSM_CLAMPED, st.dsm_clamped },
			{ TCA_QCNRP_STATS_CNM_FLUSHED, st.cnm_flushed },
		};

		for (i = 0; i < ARRAY_SIZE(ctr); i++)
			if (nla_put_u64_64bit(skb, ctr[i].attr, ctr[i].val,
					      TCA_QCNRP_STATS_PAD))
				return -EMSGSIZE;
	}
	return dump_rls(q, skb);
}

static const struct fcq_scheme_ops qcnrp_ops = {
	.full = qcnrp_full,
	.queue = qcnrp_queue,
	.pick = qcnrp_pick,
	.flush = qcnrp_flush,
	.dump = qcnrp_dump,
	.dump_stats = qcnrp_dump_stats,
	.rx = qcnrp_rx,
	.rx_proto = htons(FCQ_ETHERTYPE_CNM),
};

/*
 * A rate option in bytes/s, 1 up to the line's, as bit/s in *@dst; @msg
 * names it (a macro: extack messages are string literals).
 */
#define rate_take(attr, line_bps, dst, msg, extack)			\
	({								\
		const struct nlattr *__a = (attr);			\
		u64 __v = __a ? nla_get_u64(__a) : 0;			\
		int __err = 0;						\
									\
		if (__a && (!__v || __v > div_u64(line_bps, 8))) {	\
			NL_SET_ERR_MSG_ATTR(extack, __a, msg);		\
			__err = -EINVAL;				\
		} else if (__a) {					\
			*(dst) = __v * 8;				\
		}							\
		__err;							\
	})

static int qcnrp_change(struct Qdisc *sch, struct nlattr *opt,
			struct netlink_ext_ack *extack)
{
	struct qcnrp_sched *q = qdisc_priv(sch);
	struct nlattr *tb[TCA_QCNRP_MAX + 1];
	struct qcn_rp_cfg rp = q->rp;
	u32 max_rps = q->max_rps, limit = q->limit, react = q->react_ns, t, i;
	u32 jitter = q->react_jitter_ns;
	struct fcq_port_cfg cfg;
	u8 algo = q->algo;
	int err;

	err = fcq_port_parse(&q->port, opt, qcnrp_policy, TCA_QCNRP_MAX, tb,
			     &cfg, extack);
	if (err)
		return err;
	rp.line = cfg.rate * 8;
	if (rate_take(tb[TCA_QCNRP_R_MIN], rp.line, &rp.r_min,
		      "r_min must be 1 byte/s up to the port's rate", extack) ||
	    rate_take(tb[TCA_QCNRP_R_AI], rp.line, &rp.r_ai,
		      "r_ai must be 1 byte/s up to the port's rate", extack) ||
	    rate_take(tb[TCA_QCNRP_R_HAI], rp.line, &rp.r_hai,
		      "r_hai must be 1 byte/s up to the port's rate", extack))
		return -EINVAL;
	if (fcq_get_u32(tb[TCA_QCNRP_BC], 1500, 100000000, &rp.bc,
			"bc must be 1500 bytes to 100 MB", extack))
		return -EINVAL;
	t = (u32)rp.t_ns;
	if (fcq_get_u32(tb[TCA_QCNRP_T], 1000, 10 * NSEC_PER_SEC / 4, &t,
			"t must be 1us to 2.5s", extack))
		return -EINVAL;
	rp.t_ns = t;
	if (fcq_get_u32(tb[TCA_QCNRP_RL_LIMIT], 1, 65535, &limit,
			"rl_limit must be 1 to 65535 packets", extack))
		return -EINVAL;
	if (fcq_get_u32(tb[TCA_QCNRP_REACT], 0, NSEC_PER_SEC, &react,
			"react must be 0 to 1s", extack) ||
	    fcq_get_u32(tb[TCA_QCNRP_REACT_JITTER], 0, NSEC_PER_SEC, &jitter,
			"react_jitter must be 0 to 1s", extack))
		return -EINVAL;
	if (tb[TCA_QCNRP_ALGO])
		algo = nla_get_u8(tb[TCA_QCNRP_ALGO]);
	if (tb[TCA_QCNRP_MAX_RPS])
		max_rps = nla_get_u32(tb[TCA_QCNRP_MAX_RPS]);
	if (tb[TCA_QCNRP_GD_LOG2])
		rp.gd_log2 = nla_get_u32(tb[TCA_QCNRP_GD_LOG2]);
	if (tb[TCA_QCNRP_MIN_DEC])
		rp.min_dec_pct = nla_get_u32(tb[TCA_QCNRP_MIN_DEC]);
	if (tb[TCA_QCNRP_F_THR])
		rp.f_thr = nla_get_u32(tb[TCA_QCNRP_F_THR]);
	if (tb[TCA_QCNRP_FLAGS]) {
		struct nla_bitfield32 fl = nla_get_bitfield32(tb[TCA_QCNRP_FLAGS]);

		if (fl.selector & QCNRP_FL_JITTER)
			rp.jitter = !!(fl.value & QCNRP_FL_JITTER);
		if (fl.selector & QCNRP_FL_TR_REDUCE)
			rp.tr_reduce = !!(fl.value & QCNRP_FL_TR_REDUCE);
	}
	if (rp.r_min > rp.line) {
		NL_SET_ERR_MSG_MOD(extack, "r_min must not exceed the port's rate");
		return -EINVAL;
	}
	/* One section: no dequeue sees half of it, nor makes an RL meanwhile. */
	sch_tree_lock(sch);
	for (i = max_rps; q->rl && i < QCNRP_MAX_RPS; i++) {
		if (q->rl[i].used) {
			sch_tree_unlock(sch);
			NL_SET_ERR_MSG_ATTR(extack, tb[TCA_QCNRP_MAX_RPS],
					    "max_rps is below a rate limiter in use");
			return -EBUSY;
		}
	}
	fcq_port_apply(&q->port, &cfg);
	/* Another law: its RLs and the CNMs waiting go, their flows to line. */
	if (algo != q->algo) {
		for (i = 0; q->rl && i < QCNRP_MAX_RPS; i++)
			if (q->rl[i].used)
				rl_free(q, &q->rl[i]);
		spin_lock_bh(&q->cnm_lock);
		q->st.cnm_flushed += q->npend;
		q->npend = 0;
		q->last_due = 0;
		WRITE_ONCE(q->algo, algo);
		spin_unlock_bh(&q->cnm_lock);
	}
	q->rp = rp;
	q->dsm.line = rp.line;
	q->dsm.r_min = rp.r_min;
	if (tb[TCA_QCNRP_SEED]) {
		WRITE_ONCE(q->seed, nla_get_u32(tb[TCA_QCNRP_SEED]));
		/* the jitter's sequence starts over from the seed */
		spin_lock_bh(&q->cnm_lock);
		q->rnd = q->seed | 1;
		spin_unlock_bh(&q->cnm_lock);
	}
	WRITE_ONCE(q->limit, limit);
	WRITE_ONCE(q->react_ns, react);
	WRITE_ONCE(q->react_jitter_ns, jitter);
	WRITE_ONCE(q->max_rps, max_rps);
	sch_tree_unlock(sch);
	return 0;
}

static int qcnrp_init(struct Qdisc *sch, struct nlattr *opt,
		      struct netlink_ext_ack *extack)
{
	struct qcnrp_sched *q = qdisc_priv(sch);
	u64 line;
	int err, p;
	u32 i;

	spin_lock_init(&q->cnm_lock);
	for (p = 0; p < FCQ_NUM_PRIO; p++) {
		__skb_queue_head_init(&q->q[p]);
		q->ets.quantum[p] = psched_mtu(qdisc_dev(sch));
	}
	err = fcq_port_init(sch, &qcnrp_ops, extack);
	if (err)
		return err;
	q->rl = kvcalloc(QCNRP_MAX_RPS, sizeof(*q->rl), GFP_KERNEL);
	if (!q->rl)
		return -ENOMEM;
	for (i = 0; i < QCNRP_MAX_RPS; i++)
		__skb_queue_head_init(&q->rl[i].q);
	/* 802.1Qau's defaults, rates scaled to the port's (below) */
	q->max_rps = 8;
	q->limit = 128;
	q->seed = get_random_u32();
	q->rp = (struct qcn_rp_cfg){
		.bc = 150000, .t_ns = 15 * NSEC_PER_MSEC, .gd_log2 = 7,
		.min_dec_pct = 50, .f_thr = 5, .jitter = 1, .tr_reduce = 1,
	};
	err = qcnrp_change(sch, opt, extack);
	if (err)
		return err;
	q->rnd = q->seed | 1;
	/* R_min 5, R_AI 5 and R_HAI 50 Mb/s at 10 Gb/s, scaled (§5.6); */
	/* R_min at least 1 bit/s: a rate limiter never stops */
	line = q->rp.line;
	if (!q->rp.r_min)
		q->rp.r_min = max_t(u64, div_u64(line, 2000), 1);
	q->dsm.r_min = q->rp.r_min;
	if (!q->rp.r_ai)
		q->rp.r_ai = div_u64(line, 2000);
	if (!q->rp.r_hai)
		q->rp.r_hai = div_u64(line, 200);
	return fcq_port_start(&q->port, extack);
}

static void qcnrp_destroy(struct Qdisc *sch)
{
	struct qcnrp_sched *q = qdisc_priv(sch);

	fcq_port_destroy(sch);		/* empties the queues first */
	kvfree(q->rl);
}

struct Qdisc_ops qcnrp_qdisc_ops __read_mostly = {
	.id		= "qcnrp",
	.priv_size	= sizeof(struct qcnrp_sched),
	.enqueue	= fcq_port_enqueue,
	.dequeue	= fcq_port_dequeue,
	.peek		= qdisc_peek_dequeued,
	.init		= qcnrp_init,
	.reset		= fcq_port_reset,
	.destroy	= qcnrp_destroy,
	.change		= qcnrp_change,
	.dump		= fcq_port_dump,
	.dump_stats	= fcq_port_dump_stats,
	.owner		= THIS_MODULE,
};
