/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The port/link/switch layer every fcq qdisc is built on.
 *
 * A scheme (sch_pfc, ...) embeds a struct fcq_port as the first member of
 * its qdisc private data and supplies struct fcq_scheme_ops: where packets
 * wait (queue) and which one may go next (pick). fcq provides the rest:
 *
 *  - the link: a serializer at `rate` that a paused class cannot start on,
 *    then a wire delay line of `delay`; control frames go first and are
 *    never paused (link.c);
 *  - pause transmission for this port as the switch's ingress: PFC XOFF/XON
 *    from buffer thresholds, and timed pauses a scheme asks for (link.c);
 *  - the receive hook that honours PFC/PAUSE and fcq extension frames
 *    before the bridge drops them (rx.c);
 *  - switch membership and per-(ingress port, priority) buffer accounting
 *    keyed by skb->skb_iif (switch.c);
 *  - options, classification and statistics common to all (port.c).
 *
 * Locking: a port's queues, link and tx-side PFC state are under its qdisc
 * root lock. Buffer accounting is under the switch's lock, taken inside a
 * root lock and never the other way round. Pause state written by the
 * receive hook is under the port's pause_lock and read locklessly. Timed
 * pause requests are under the asked port's tp_lock, taken inside any of
 * the above.
 *
 * Lockless reads: a field that anything reads without the lock its writer
 * holds (the receive hook, another port, a timer, a dump) is written with
 * WRITE_ONCE() at every store and read with READ_ONCE() there; reads under
 * the writer's lock are plain. Nothing else is annotated.
 */
#ifndef FCQ_FCQ_H
#define FCQ_FCQ_H

#include <linux/netdevice.h>
#include <linux/netfilter.h>
#include <linux/skbuff.h>
#include <linux/sizes.h>
#include <net/pkt_sched.h>
#include <net/genetlink.h>
#include <net/sch_generic.h>
#include <uapi/linux/fcq.h>

#include "../core/ecn.h"
#include "../core/kp.h"
#include "../core/pause.h"
#include "../core/pfc.h"
#include "../core/pfcwd.h"
#include "../core/qhist.h"

#define FCQ_MAX_PORTS		256		/* per switch */
#define FCQ_DEFAULT_BUFFER	(12 << 20)	/* as the HPCC simulator's MMU */
#define FCQ_QUANTUM_MIN		64		/* bytes: a DRR or ETS quantum */
#define FCQ_QUANTUM_MAX		SZ_1M
#define FCQ_KP_TX_MIN		64		/* keys any port can hold paused */
#define FCQ_KP_FRAME_KEYS	64		/* keys per keyed frame, at most */
#define FCQ_KP_COARSE_NS	(10 * NSEC_PER_MSEC) /* a keyed PAUSE without
						      * an RX book
						      */
#define FCQ_RX_LEN		128		/* bytes of a received frame
						 * a scheme's rx sees
						 */
#define FCQ_FR_LEN		128		/* bytes of a requested frame */
#define FCQ_FR_SLOTS		16		/* requested frames a port holds */

struct fcq_port;
struct fcq_switch;

/* Per-skb state, in qdisc_skb_cb()->data. */
struct fcq_skb_cb {
	u64 time;	/* enqueue time; on the wire: release time */
	s16 ingress;	/* switch slot it was charged to, -1: none */
	u16 flow;	/* the scheme's flow entry + 1, 0: none */
	u8 prio;
	bool ctrl;	/* a control frame fcq built */
	u8 scheme;	/* the scheme's own mark */
};

/* What the switch says about a packet offered to an egress queue. */
enum fcq_admit {
	FCQ_ADMIT,
	FCQ_DROP_LOSSLESS_Q,	/* its lossless ingress queue is out of headroom */
	FCQ_DROP_LOSSY_Q,	/* its lossy ingress queue is over threshold */
};

/* A port seen as a switch ingress, for its statistics. */
struct fcq_ingress_stats {
	u32 bytes[FCQ_NUM_PRIO];
	u32 hdrm_max[FCQ_NUM_PRIO];
	u64 xoff[FCQ_NUM_PRIO];
	u64 xon[FCQ_NUM_PRIO];
	u32 threshold;
	u64 used;
	u64 used_max;
};

static inline struct fcq_skb_cb *fcq_cb(const struct sk_buff *skb)
{
	qdisc_cb_private_validate(skb, sizeof(struct fcq_skb_cb));
	/* ingress, a signed field, holds every slot (and -1) */
	BUILD_BUG_ON(FCQ_MAX_PORTS >
		     1 << (8 * sizeof_field(struct fcq_skb_cb, ingress) - 1));
	return (struct fcq_skb_cb *)qdisc_skb_cb(skb)->data;
}

struct fcq_scheme_ops {
	/*
	 * Optional: whether the scheme's own limit refuses @skb (its class
	 * is set), before the switch admits it; the scheme counts the drop.
	 * What it found it may keep in fcq_cb(@skb)->scheme for queue().
	 */
	bool (*full)(struct fcq_port *port, struct sk_buff *skb);
	/* Queue an admitted packet (fcq_cb(skb)->prio is set). */
	void (*queue)(struct fcq_port *port, struct sk_buff *skb);
	/*
	 * Unlink and return the data packet to serialize next, given that
	 * fcq_port_paused() says which classes may not start at @now. If
	 * none, return NULL and lower *@retry to when one might (a pause
	 * ending); queued packets that are all paused must do so.
	 */
	struct sk_buff *(*pick)(struct fcq_port *port, u64 now, u64 *retry);
	/* Unlink and return any queued data packet (reset, teardown). */
	struct sk_buff *(*flush)(struct fcq_port *port);
	/* Put the scheme's options in the open TCA_FCQ_SCHEME nest. */
	int (*dump)(struct fcq_port *port, struct sk_buff *skb);
	/* Optional: put the scheme's xstats in TCA_FCQ_STATS_SCHEME. */
	int (*dump_stats)(struct fcq_port *port, struct sk_buff *skb);
	/*
	 * Optional: a frame of EtherType @rx_proto received on the port's
	 * device, before a bridge or the stack sees it: its first @len bytes
	 * from the DA (at most FCQ_RX_LEN) in @frame, @full its length.
	 * Returns NF_STOLEN (consumed) or NF_DROP (the scheme counted why).
	 * Softirq, no lock held.
	 */
	unsigned int (*rx)(struct fcq_port *port, const u8 *frame,
			   unsigned int len, unsigned int full);
	__be16 rx_proto;
};

/* How a port sends the timed pauses a scheme asks of it. */
enum fcq_tp_frame {
	FCQ_TP_PFC,	/* 802.1Qbb frames, the pause accumulated by the sender */
	FCQ_TP_EXT,	/* fcq extension frames (0x88B5): the receiver adds up */
};

/* Options common to every scheme (TCA_FCQ_*). */
struct fcq_port_cfg {
	u64 rate;		/* bytes/s */
	u32 delay;		/* ns */
	u32 overhead;		/* bytes */
	u32 switch_id;
	u32 limit;		/* packets */
	u32 pause_max;		/* ns, 0 = any */
	u8 trust;
	u8 lossless;
	u8 dscp_map[64];
	/* buffer model, as this port's ingress queues use it */
	u32 buffer;		/* switch-wide; set only by the change naming it */
	u32 xoff;
	u32 xon;
	u32 alpha;
	u32 resume_offset;
	u32 reserve;
	u32 headroom;		/* 0 = computed */
	u32 response;		/* ns */
	u16 pause_quanta;
	u32 refresh;		/* ns, 0 = half the pause */
	struct fcq_ecn ecn;
	/* the PFC watchdog (pfcwd.c) */
	u32 pfcwd_detect;	/* ns, 0 = off */
	u32 pfcwd_restore;	/* ns */
	u8 pfcwd_action;	/* enum fcq_pfcwd_action */
};

/*
 * Frames schemes ask a port to send (a CNM to the source of a frame that
 * came in on it, say): copies, under the port's tp_lock, that its own
 * dequeue turns into control frames, as it does timed pauses. A full ring
 * refuses the request.
 */
struct fcq_fr_slot {
	__be16 proto;
	u16 len;
	u8 data[FCQ_FR_LEN];
};

struct fcq_fr {
	u32 head, tail;			/* free-running; tail - head queued */
	struct fcq_fr_slot slot[FCQ_FR_SLOTS];
};

struct fcq_port_stats {
	/* under the root lock */
	u64 ctrl_tx;
	u64 ctrl_nomem;
	u64 tx_lag_ns;		/* link time lost to stalls, fcq_link_dequeue */
	u64 drop_lossless;
	u64 drop_lossy;
	u64 drop_limit;
	u64 drop_gso;
	u64 drop_pfcwd;
	u64 ecn_marked;
	u64 tx_packets[FCQ_NUM_PRIO];
	u64 tx_bytes[FCQ_NUM_PRIO];
	u64 drops[FCQ_NUM_PRIO];
	u64 pfc_tx[FCQ_NUM_PRIO];
	u32 backlog[FCQ_NUM_PRIO];
	/* under pause_lock */
	u64 rx_pause;
	u64 rx_malformed;
	u64 rx_bad_opcode;
	u64 rx_not_lossless;
	u64 rx_over_max;
	u64 rx_ext;
	u64 rx_keys_bad;	/* keyed frames with a bad key list */
	u64 kp_rx_coarse;	/* keyed frames honoured as class pauses */
	u64 pfcwd_ignored;	/* keyed pauses of a class in storm */
	u64 pfc_rx[FCQ_NUM_PRIO];
};

struct fcq_port {
	struct Qdisc *sch;
	struct net_device *dev;
	const struct fcq_scheme_ops *ops;
	struct fcq_port_cfg cfg;	/* fcq_port_apply(); dumps and the
					 * receive hook read it locklessly
					 */
	u32 headroom;			/* in effect: cfg or computed */

	/* the link, under the root lock */
	u64 tx_free;			/* serializer idle from this time;
					 * the receive hook reads it
					 */
	u64 held_until;			/* pick's frame was the scheme's to
					 * hold until then (a rate limiter)
					 */
	struct sk_buff_head wire;	/* serialized, not yet delivered */
	struct sk_buff_head ctrl;	/* control frames to serialize */
	struct sk_buff_head kp_ctrl;	/* at most one keyed frame, after them */
	struct qdisc_watchdog wd;

	/* PFC this port sends upstream as a switch ingress */
	struct fcq_switch *sw;
	int index;			/* in sw->ports[], -1: not joined */
	struct fcq_port *prev;		/* the qdisc this one replaces, until
					 * it leaves (RTNL)
					 */
	bool sends_pfc;			/* on buffer thresholds; other
					 * ports read it locklessly
					 */
	unsigned long xoff_want;	/* bit p: XOFF wanted (sw->lock) */
	u64 xoff_since;			/* when the want last changed */
	u8 xoff_sent;			/* last sent state (root lock) */
	u64 refresh_at;			/* next XOFF refresh */

	/* Timed pauses a scheme asks this port to send upstream. The
	 * sender accumulates: tp_until is when, by our account, the
	 * upstream resumes; tp_add what was asked since the last frame.
	 */
	spinlock_t tp_lock;
	u8 tp_want;			/* classes with something to send */
	u8 tp_frame;			/* enum fcq_tp_frame (READ_ONCE) */
	u64 tp_until[FCQ_NUM_PRIO];
	u64 tp_add[FCQ_NUM_PRIO];
	u32 ext_seq;			/* fcq frames sent (root lock) */
	struct fcq_fr *fr;		/* frames asked of it; NULL: none may be */
	bool fr_want;			/* fr holds some (READ_ONCE) */

	/*
	 * Keyed pauses this port sends upstream (kp.c): flows that egress
	 * ports of the switch ask it to hold there, under tp_lock; the two
	 * bytes mirror the book's bits for lockless checks.
	 */
	struct fcq_kptx *kptx;
	u8 kp_dirty;			/* classes that may owe a frame */
	u8 kp_armed;			/* classes released at a level */
	u8 kp_sent;			/* classes it ever sent keyed frames of */
	u64 kp_retry_at;		/* a frame found no memory: try then */
	u64 kp_resumed_at;		/* a keyed resume last released flows */
	struct fcq_fkey *kp_keys;	/* one frame's keys (root lock) */

	/* pauses this port honours, from the receive hook */
	spinlock_t pause_lock;
	struct fcq_pause pause[FCQ_NUM_PRIO];
	u32 pauses_rx;			/* pauses (not resumes) applied, ever */
	struct fcq_kprx *kprx;		/* keyed pauses honoured; NULL: as
					 * class pauses (fcq_kp_enable())
					 */
	u8 kp_pending;			/* classes the peer changed */
	u8 key_type;			/* of the keys kprx honours */
	u64 kp_expiry;			/* next pause timeout (root lock) */
	struct nf_hook_ops nfho;
	bool hooked;

	/*
	 * The PFC watchdog (pfcwd.c), under the root lock. Classes in storm
	 * whose peer's pauses are ignored (drop, forward) are in pfcwd_free,
	 * which fcq_port_paused() reads; pfcwd_rx is when the peer last sent
	 * a pause of the class (the receive hook's, READ_ONCE).
	 */
	struct fcq_pfcwd pfcwd[FCQ_NUM_PRIO];
	u8 pfcwd_storm;			/* classes in storm (READ_ONCE) */
	u8 pfcwd_free;			/* of them, pauses ignored */
	u8 pfcwd_drop;			/* of them, packets dropped */
	u64 pfcwd_rx[FCQ_NUM_PRIO];

	struct fcq_port_stats st;
	struct fcq_qhist qhist;		/* data queued, bytes (root lock) */
};

static inline struct fcq_port *fcq_port(struct Qdisc *sch)
{
	return qdisc_priv(sch);
}

/* Whether class @prio may not start serializing at @now. */
static inline bool fcq_port_paused(const struct fcq_port *port, u8 prio,
				   u64 now)
{
	return now < READ_ONCE(port->pause[prio].until) &&
	       !(READ_ONCE(port->pfcwd_free) & BIT(prio));
}

/*
 * The classes a scheme's pick offers to transmission selection
 * (fcq_ets_pick()): each with its head packet's length.
 */
struct fcq_ready {
	u8 mask;
	u32 len[FCQ_NUM_PRIO];
};

/*
 * Offer class @prio, whose next packet is @skb (NULL: nothing queued):
 * ready unless paused at @now, in which case *@retry is lowered to when
 * the pause ends. True if the class was made ready.
 */
static inline bool fcq_ready_offer(struct fcq_port *port, struct fcq_ready *r,
				   u8 prio, const struct sk_buff *skb, u64 now,
				   u64 *retry)
{
	if (!skb)
		return false;
	if (fcq_port_paused(port, prio, now)) {
		*retry = min(*retry, READ_ONCE(port->pause[prio].until));
		return false;
	}
	r->mask |= BIT(prio);
	r->len[prio] = qdisc_pkt_len(skb);
	return true;
}

/* port.c: a scheme's qdisc operations are these plus its own options */
int fcq_port_init(struct Qdisc *sch, const struct fcq_scheme_ops *ops,
		  struct netlink_ext_ack *extack);
int fcq_port_parse(struct fcq_port *port, struct nlattr *opt,
		   const struct nla_policy *policy, unsigned int maxtype,
		   struct nlattr **tb, struct fcq_port_cfg *cfg,
		   struct netlink_ext_ack *extack);
void fcq_port_apply(struct fcq_port *port, const struct fcq_port_cfg *cfg);
void fcq_port_refresh_headroom(struct fcq_port *port);
void fcq_port_kick(struct fcq_port *port);
void fcq_port_qlen(struct fcq_port *port, u64 now, u32 level);
int fcq_port_start(struct fcq_port *port, struct netlink_ext_ack *extack);
void fcq_port_destroy(struct Qdisc *sch);
void fcq_port_reset(struct Qdisc *sch);
int fcq_port_enqueue(struct sk_buff *skb, struct Qdisc *sch,
		     struct sk_buff **to_free);
struct sk_buff *fcq_port_dequeue(struct Qdisc *sch);
int fcq_port_dump(struct Qdisc *sch, struct sk_buff *skb);
int fcq_port_dump_stats(struct Qdisc *sch, struct gnet_dump *d);

/* link.c */
struct sk_buff *fcq_link_dequeue(struct fcq_port *port);
void fcq_link_purge(struct fcq_port *port);
void fcq_port_pause_request(struct fcq_port *port, u8 prio, u64 ns, u64 now);
/* Let @port send frames others ask of it; at init (may sleep). */
int fcq_port_frames_enable(struct fcq_port *port);
/*
 * Ask @port to send the @len bytes of @frame (from its DA; at most
 * FCQ_FR_LEN) as a control frame of EtherType @proto. Callable with other
 * ports' locks held; the caller kicks @port afterwards. False when it has
 * no room (or takes no frames): the caller counts what it lost.
 */
bool fcq_port_frame_request(struct fcq_port *port, const u8 *frame, u16 len,
			    __be16 proto);

/*
 * pfcwd.c: poll the PFC watchdog of every class at @now (root lock);
 * returns when it must next be polled, U64_MAX: at no particular time.
 */
u64 fcq_pfcwd_run(struct fcq_port *port, u64 now);
/* The watchdog ignores the peer's pauses of class @p (lockless). */
bool fcq_pfcwd_ignores(const struct fcq_port *port, u8 p);
void fcq_pfcwd_reset(struct fcq_port *port);

/* rx.c */
int fcq_rx_register(struct fcq_port *port, struct netlink_ext_ack *extack);
void fcq_rx_unregister(struct fcq_port *port);
void fcq_rx_take_over(struct fcq_port *port, struct fcq_port *prev);

/* kp.c: keyed pauses (see core/kp.h) */
struct fcq_kp_cfg {
	u32 tx_cap, rx_cap;	/* flows the books hold */
	u64 timeout;		/* ns a received pause lasts at most; 0: on */
	u8 key_type;		/* enum fcq_key_type of the keys honoured */
};

#define FCQ_KP_WANTS_ALL	0x1	/* the whole class */
#define FCQ_KP_WANTS_ANY	0x2	/* something of the class */
#define FCQ_KP_WANTS_KEY	0x4	/* the key asked about */

int fcq_kp_init(struct fcq_port *port);
void fcq_kp_free(struct fcq_port *port);
/* Give @port an RX book and a TX book of its size; before it starts. */
int fcq_kp_enable(struct fcq_port *port, const struct fcq_kp_cfg *c,
		  struct netlink_ext_ack *extack);
/*
 * Ask ingress @ing to hold @n @keys of class @p (NULL: all of it) at its
 * upstream until the class's queue falls to @level bytes, or with
 * FCQ_KP_UNTIL_RESUMED until fcq_kp_resume() names them; the caller kicks
 * @ing. Returns how many keys were new.
 */
#define FCQ_KP_UNTIL_RESUMED	U32_MAX
int fcq_kp_pause(struct fcq_port *ing, u8 p, const struct fcq_fkey *keys,
		 int n, bool origin, u32 level);
/* @ing no longer holds @k of @p upstream; the caller kicks @ing. */
void fcq_kp_resume(struct fcq_port *ing, u8 p, const struct fcq_fkey *k);
/* What @ing holds of class @p: FCQ_KP_WANTS_*. */
u8 fcq_kp_wants(struct fcq_port *ing, u8 p, const struct fcq_fkey *k);
bool fcq_kp_level(struct fcq_port *ing, u8 p, u32 bytes);
size_t fcq_kp_build(struct fcq_port *port, u8 *buf, size_t size, u64 now);
unsigned int fcq_kp_rx(struct fcq_port *port, struct sk_buff *skb,
		       const struct fcq_ext *f);
/* Apply what the peer changed in classes @mask (root lock); those resumed. */
u8 fcq_kp_sync(struct fcq_port *port, u8 mask,
	       const struct fcq_kprx_ops *ops, void *arg, u64 now);
bool fcq_kp_applied(struct fcq_port *port, u8 p, const struct fcq_fkey *k);
/*
 * The qdisc was reset (ifdown, carrier loss): the keyed frames it had not
 * sent are gone, and its book counts them sent. It sets the peer's state
 * again, for every class it ever sent frames of, when it next sends; and
 * it forgets what its peer held, whose RESUME may be lost as well (the
 * peer's own reset sets it again).
 */
void fcq_kp_reset(struct fcq_port *port);
/* A port deleted or replaced ends its keyed pauses upstream (RTNL). */
void fcq_kp_goodbye(struct fcq_port *port);
int fcq_kp_dump_stats(struct fcq_port *port, struct sk_buff *skb);
/* BOOK_GET: @port's books, an entry per message (RTNL held). */
int fcq_kp_dump_book(struct fcq_port *port, struct sk_buff *skb,
		     struct netlink_callback *cb);

/* key.c: the flow key (core/key.h) of a packet's IP header; 0 or -1 */
int fcq_skb_key(const struct sk_buff *skb, u8 type, struct fcq_fkey *k);

/* switch.c */
int fcq_switch_register(void);
void fcq_switch_unregister(void);
int fcq_switch_join(struct fcq_port *port, struct netlink_ext_ack *extack);
void fcq_switch_leave(struct fcq_port *port);
struct fcq_port *fcq_switch_port_of(struct net_device *dev);
void fcq_switch_update(struct fcq_port *port);
u64 fcq_switch_pool(const struct fcq_port *port);
u32 fcq_switch_buffer(const struct fcq_port *port);
enum fcq_admit fcq_switch_admit(struct fcq_port *egress, struct sk_buff *skb);
/*
 * @skb leaves the buffer of its (ingress port, priority); once only. The
 * port's dequeue does it, or earlier a scheme whose egress keeps a buffer
 * of its own (an output buffer) that @skb moves to. fcq_switch_input()
 * then knows its input no more.
 */
void fcq_switch_release(struct fcq_port *egress, struct sk_buff *skb,
			u64 now);
/*
 * The bytes buffered in the switch from @skb's (ingress port, priority),
 * and in *@ing that port (valid until the caller's BH section ends), or 0
 * and NULL if it has none.
 */
u32 fcq_switch_ingress(struct fcq_port *egress, const struct sk_buff *skb,
		       struct fcq_port **ing);
/* The same port without the lock that the bytes need: for every frame. */
struct fcq_port *fcq_switch_input(const struct fcq_port *egress,
				  const struct sk_buff *skb);
void fcq_switch_stats(struct fcq_port *port, struct fcq_ingress_stats *st);
int fcq_switch_dump(struct sk_buff *skb, struct netlink_callback *cb);

/*
 * A scheme's state of a whole switch (books of every port pair, say, that
 * its netlink requests find by switch id): one per switch and scheme, made
 * when the scheme's first port joins and freed when its last leaves. The
 * scheme embeds struct fcq_switch_ext in its own structure.
 */
struct fcq_switch_ext;

struct fcq_switch_ext_ops {
	/* A new state for the switch @port has joined (RTNL, may sleep). */
	struct fcq_switch_ext *(*create)(struct fcq_port *port,
					 struct netlink_ext_ack *extack);
	/*
	 * Free it: its last user is gone and it is unlinked, but an RCU
	 * reader (fcq_switch_ext_find_rcu()) may still hold it. RTNL held.
	 */
	void (*destroy)(struct fcq_switch_ext *ext);
};

struct fcq_switch_ext {
	struct list_head node;		/* in the switch's list (RTNL, RCU) */
	const struct fcq_switch_ext_ops *ops;
	struct fcq_switch *sw;
	int users;			/* RTNL */
};

u32 fcq_switch_id(const struct fcq_switch *sw);
struct net *fcq_switch_net(const struct fcq_switch *sw);
struct fcq_switch_ext *fcq_switch_ext_get(struct fcq_port *port,
					  const struct fcq_switch_ext_ops *ops,
					  struct netlink_ext_ack *extack);
void fcq_switch_ext_put(struct fcq_switch_ext *ext);
struct fcq_switch_ext *fcq_switch_ext_find_rcu(struct net *net, u32 id,
					       const struct fcq_switch_ext_ops *ops);

/* genl.c */
enum fcq_genl_mcgrp {
	FCQ_GENL_EVENTS,
};

extern struct genl_family fcq_genl_family;
int fcq_genl_register(void);
void fcq_genl_unregister(void);
void fcq_genl_pause_event(struct fcq_port *port, enum fcq_event ev, u8 mask,
			  const u16 *quanta, u32 pause_ns, u64 time);
void fcq_genl_keys_event(struct fcq_port *port, enum fcq_event ev,
			 const struct fcq_ext *f, u64 time);
void fcq_genl_pfcwd_event(struct fcq_port *port, enum fcq_event ev, u8 mask,
			  u8 action, u64 time);

/* Option parsing, shared by the schemes. */

/*
 * Store an optional u32 in *@dst if it lies in [@lo, @hi]: 0 when stored
 * or absent, -EINVAL when out of range (nothing stored).
 */
static inline int fcq_u32_take(const struct nlattr *attr, u32 lo, u32 hi,
			       u32 *dst)
{
	u32 v;

	if (!attr)
		return 0;
	v = nla_get_u32(attr);
	if (v < lo || v > hi)
		return -EINVAL;
	*dst = v;
	return 0;
}

/*
 * An array option, a nest with one @type attribute (NLA_U8 or NLA_U32, as
 * its policy says) per element: the values, each in [@lo, @hi], into
 * @val[0..@max - 1] in order. Their number (fewer than @max is fine), or
 * -EINVAL with *@bad at the first element of another size, out of range
 * or beyond @max.
 */
int fcq_u32s_take(const struct nlattr *nest, int type, u32 lo, u32 hi,
		  u32 *val, int max, const struct nlattr **bad);

/* fcq_u32s_take(), with @msg on the bad element in @extack (see below). */
#define fcq_get_u32s(nest, type, lo, hi, val, max, msg, extack)	\
	({								\
		const struct nlattr *__bad = NULL;			\
		int __n = fcq_u32s_take(nest, type, lo, hi, val, max,	\
					&__bad);			\
									\
		if (__n < 0)						\
			NL_SET_ERR_MSG_ATTR(extack, __bad, msg);	\
		__n;							\
	})

/*
 * An option that carries a unit (bytes, ns, a Q16 fraction), whose range
 * a policy cannot put in the user's terms: fcq_u32_take(), and on -EINVAL
 * @msg on @attr in @extack. @msg names the option and its range, e.g.
 * "delay must be at most 1s". Options without a unit (enums, flags,
 * booleans, priorities) are checked by their policy instead. A macro
 * because extack messages must be string literals.
 */
#define fcq_get_u32(attr, lo, hi, dst, msg, extack)			\
	({								\
		const struct nlattr *__attr = (attr);			\
		int __err = fcq_u32_take(__attr, lo, hi, dst);		\
									\
		if (__err)						\
			NL_SET_ERR_MSG_ATTR(extack, __attr, msg);	\
		__err;							\
	})

#endif /* FCQ_FCQ_H */
