/* SPDX-License-Identifier: GPL-2.0 */
/*
 * FlowSail's per-flow flow control over a few FIFO queues (Li et al.,
 * "FLOWSAIL: Fine-Grained and Practical Flow Control for Datacenter
 * Networks", IEEE/ACM ToN 32(5), 2024), and the baselines it is measured
 * against, for one queue group (one priority class) of a port.
 *
 * The group's queues are isolation lanes (iso.h); the caller keeps the
 * packets and pushes/pops them, this code decides. One flow entry
 * (struct fsail_flow, in a flow table the caller shares between groups,
 * tagged by group) holds both of the paper's tables for a flow:
 *
 *   NFT: the flow in a normal queue: its queue, buffered bytes and the
 *        number of those packets marked congested (pauseNum);
 *   CFT: the flow paused by the downstream peer and sent to the reserved
 *        queue rsvQ (the last lane): its bytes there, its marked packets,
 *        paused or resumed, when it last moved.
 *
 * Enqueue (Alg. 1): a flow in the CFT joins rsvQ; a new active flow (no
 * bytes buffered) takes an empty normal queue, else a random one; an old
 * flow keeps its queue. The packet is marked congested when its queue Q
 * exceeds Q_h, or exceeds Q_l while its flow holds more than
 * S_fair = Q >> ceil(log2(flowNum)) (eq. 1), or is alone in it [F4];
 * Q_l = ql * HBDP / N_active, Q_h = qh * HBDP / N_active (sec. IV-B). The
 * flow's first marked packet asks for a PAUSE of it upstream, its last
 * marked packet's departure for the RESUME (sec. IV-C, one edge detector
 * over NFT and CFT [F2]).
 *
 * Control frames (Alg. 3): a PAUSE moves the flow to the CFT and holds
 * rsvQ; if the flow still has packets in its normal queue q, q is held
 * too and rsvQ may not send the flow's new packets before its last one
 * in q has left (Order Mark Matching, Alg. 2, as an order mark of iso.h
 * [F6]). A RESUME undoes exactly that. A resumed flow leaves the CFT once
 * it has nothing in rsvQ and has not moved for T_rel = release * HRTT.
 *
 * Baselines, on the same queues, mapping and edges: bfc judges a queue as
 * a whole (Q > Q_l marks every packet) and answers a PAUSE by holding the
 * queue the flow is in, pinning the flow to it; ideal is bfc with a
 * queue per flow (the caller's queue count); static maps flows by hash
 * and decides nothing (the port's PFC, or none, does the rest).
 *
 * [Fn] is difference n from the paper in Documentation/flowsail.rst.
 */
#ifndef FCQ_CORE_FLOWSAIL_H
#define FCQ_CORE_FLOWSAIL_H

#include "core.h"
#include "ftab.h"
#include "iso.h"

#define FSAIL_M_FLOWSAIL	0
#define FSAIL_M_BFC		1	/* also ideal: bfc, a queue per flow */
#define FSAIL_M_STATIC		2	/* hash mapping, no decision (pfc, fifo) */

#define FSAIL_F_OM		0x01	/* order marks (else reorders allowed) */
#define FSAIL_F_PAUSE_ORIG	0x02	/* hold a paused flow's old queue */
#define FSAIL_F_MAP_SINGLE	0x04	/* every normal flow in queue 0 */
#define FSAIL_F_NONPAUSED	0x08	/* N_active: every queue not held */

#define FSAIL_QUEUES_MAX	1024
#define FSAIL_MARKS		64	/* flows reordered across lanes at once */
#define FSAIL_GC_SLOTS		64	/* flow entries one fsail_gc() looks at */
#define FSAIL_INF		0xffffffffU	/* no threshold */

/* Packet marks, kept with the packet (the paper's metadata). */
#define FSAIL_PKT_CFT		0x1	/* counted in the CFT half, in rsvQ */
#define FSAIL_PKT_CONG		0x2	/* pkt.ifCongested */
#define FSAIL_PKT_TRACKED	0x4	/* counted in a flow entry */

struct fsail_cfg {
	u8 mode;
	u32 flags;
	u16 queues;		/* lanes, rsvQ (flowsail) included, >= 1 */
	u32 quantum;		/* DRR bytes per turn, >= the largest packet */
	u64 hbdp;		/* HRTT * mu, bytes */
	u32 ql_milli;		/* Q_l in thousandths of HBDP */
	u32 qh_milli;		/* Q_h likewise; 0: no Q_h */
	u32 ql_bytes;		/* absolute Q_l, 0: from ql_milli */
	u32 qh_bytes;		/* absolute Q_h, 0: from qh_milli */
	u64 release_ns;		/* T_rel */
};

enum fsail_cft {
	FSAIL_NORMAL,		/* not in the CFT */
	FSAIL_PAUSED,		/* in the CFT, paused by the peer */
	FSAIL_RESUMED,		/* in the CFT, resumed, not yet released */
	FSAIL_PINNED,		/* paused in its normal queue (bfc; no mark) */
};

struct fsail_flow {
	struct fcq_fent f;	/* tag: the group */
	u32 nbytes;		/* NFT size */
	u32 npause;		/* NFT pauseNum */
	u32 nlast;		/* position of its newest packet in nq */
	u32 cbytes;		/* CFT size */
	u32 cpause;		/* CFT pauseNum */
	u16 nq;			/* NFT qIdx */
	s16 orig;		/* the queue its pause holds, -1: none */
	u8 cft;			/* enum fsail_cft */
	u64 ts;			/* CFT timestamp */
};

struct fsail_q {
	u32 ubytes;		/* bytes of packets without a flow entry */
	u16 flows;		/* flowNum: flows with bytes in it */
	u16 next;		/* DRR list of backlogged queues */
	s32 deficit;
	bool listed;		/* in the DRR list */
};

struct fsail_stats {
	u64 marks_qh;		/* packets marked over Q_h */
	u64 marks_fair;		/* over Q_l and above S_fair */
	u64 marks_lone;		/* over Q_l, alone in its queue [F4] */
	u64 marks_queue;	/* bfc: over its queue's threshold */
	u64 pauses, resumes;	/* PAUSE / RESUME edges asked for */
	u64 pause_rx, resume_rx;	/* applied from the peer */
	u64 cft_insert, cft_delete;
	u64 om_pairs;		/* order marks set */
	u64 pinned;		/* pauses held in the flow's own queue */
	u64 untracked;		/* packets without a flow entry */
	u64 all_rx;		/* whole-group pauses (no entry for a key) */
};

struct fsail {
	const struct fsail_cfg *cfg;
	struct fcq_iso *iso;	/* cfg->queues lanes, FSAIL_MARKS marks */
	struct fcq_ftab *tab;	/* entries of struct fsail_flow */
	u16 tag;		/* this group's entries */
	u16 rsv;		/* rsvQ (flowsail), else queues */
	u16 nnormal;		/* normal queues */
	u16 nbusy;		/* queues with bytes and no hold */
	u16 rhead, rtail, rn;	/* DRR list: first, last, length */
	u16 all;		/* whole-group pauses in force */
	u16 all_keys;		/* of which keys without a flow entry */
	u32 nresumed;		/* entries FSAIL_RESUMED: fsail_gc()'s work */
	u32 rnd;		/* random queue choice (xorshift32) */
	u32 gc;			/* next flow slot fsail_gc() looks at */
	struct fsail_stats st;
	struct fsail_q q[];	/* [cfg->queues] */
};

/* What the caller learns of a packet (fsail_enqueue(), fsail_dequeue()). */
struct fsail_pkt {
	u16 lane;
	u8 mark;		/* FSAIL_PKT_* */
	u16 slot;		/* flow entry, with FSAIL_PKT_TRACKED */
};

enum fsail_cfg_err {
	FSAIL_CFG_OK,
	FSAIL_CFG_QUEUES,	/* flowsail needs rsvQ and a normal queue */
	FSAIL_CFG_QL,		/* no Q_l */
	FSAIL_CFG_QH,		/* Q_h below Q_l */
};

enum fsail_cfg_err fsail_cfg_check(const struct fsail_cfg *c);

size_t fsail_size(u16 queues);

/*
 * Set up @s (fsail_size(@c->queues) bytes) over @iso (fcq_iso_init()
 * with @c->queues lanes and FSAIL_MARKS marks, nothing queued) and @tab
 * (entries of sizeof(struct fsail_flow)), its entries tagged @tag.
 */
void fsail_init(struct fsail *s, const struct fsail_cfg *c,
		struct fcq_iso *iso, struct fcq_ftab *tab, u16 tag, u32 seed);

/* Q_l and Q_h (FSAIL_INF: none) for the group as it is now. */
u32 fsail_ql(const struct fsail *s);
u32 fsail_qh(const struct fsail *s);

/* S_fair (eq. 1): @q >> ceil(log2(@flows)). */
static inline u32 fsail_fair(u32 q, u32 flows)
{
	int sh = 0;

	while (sh < 31 && (1U << sh) < flows)
		sh++;
	return q >> sh;
}

/*
 * Alg. 1, lines 1-16: the lane of a packet of flow @k (NULL: none, e.g.
 * not IP), of @len bytes, at @now, in @p. The caller then pushes it to
 * that lane and calls fsail_queued().
 */
void fsail_enqueue(struct fsail *s, const struct fcq_fkey *k, u32 len,
		   u64 now, struct fsail_pkt *p);

/*
 * Alg. 1, lines 17-27, once the packet is in its lane: marks it if
 * @detect (the switch must pause its sender; a host's own packets have
 * nobody to pause). True: its flow is newly congested, pause it upstream.
 */
bool fsail_queued(struct fsail *s, struct fsail_pkt *p, u32 len,
		  bool detect);

/*
 * The lane to send from next, by deficit round robin over the lanes that
 * may send (holds, order marks); @head_len(@arg, lane) is the length of
 * a lane's head packet. -1: none may. The lane stays first until its head
 * is sent and charged (fsail_charge()), so asking again, e.g. when another
 * class was sent instead, gives the same lane.
 */
int fsail_pick(struct fsail *s, u32 (*head_len)(void *arg, int lane),
	       void *arg);
void fsail_charge(struct fsail *s, int lane, u32 len);

/*
 * Alg. 2: packet @p of @len bytes has left its lane (sent, or flushed),
 * which the caller has popped. True: it was its flow's last marked one,
 * resume the flow upstream.
 */
bool fsail_dequeue(struct fsail *s, const struct fsail_pkt *p, u32 len,
		   u64 now);

/* Alg. 3: the peer pauses / resumes flow @k (NULL: the whole group). */
void fsail_pause(struct fsail *s, const struct fcq_fkey *k, u64 now);
void fsail_resume(struct fsail *s, const struct fcq_fkey *k, u64 now);

/*
 * Release idle CFT entries among the next FSAIL_GC_SLOTS slots; nothing
 * to do (and nothing looked at) while no entry is resumed.
 */
void fsail_gc(struct fsail *s, u64 now);

/* The flow entry of @k, or NULL (tests, dumps). */
struct fsail_flow *fsail_flow(struct fsail *s, const struct fcq_fkey *k);

/* Sum the counters of one group into @sum (a port's groups, or runs) */
void fsail_stats_add(struct fsail_stats *sum, const struct fsail_stats *st);

#endif /* FCQ_CORE_FLOWSAIL_H */
