// SPDX-License-Identifier: GPL-2.0
/*
 * Keyed pauses in the kernel: the books of core/kp.c on fcq ports.
 *
 * Every port has a TX book, so that whichever scheme runs on an ingress
 * port, a fine-grained egress of the same switch can have it pause flows
 * upstream; a scheme that honours keyed pauses gives its port an RX book
 * (fcq_kp_enable()). A port without one honours a keyed PAUSE as a pause
 * of the whole class and a RESUME ALL as its end (coarse, but lossless).
 *
 * Locks: the TX book is under the port's tp_lock (asked by any egress of
 * the switch, read off by the port's own dequeue); the RX book under its
 * pause_lock (written by the receive hook; the scheme's sync, under the
 * root lock, applies it). kp_dirty, kp_armed and kp_pending mirror the
 * books' bits for lockless checks on every dequeue and release.
 */
#include <linux/etherdevice.h>
#include <linux/random.h>
#include <linux/vmalloc.h>

#include "fcq.h"
#include "trace.h"

/* A keyed frame's keys start this far into the skb's data (not the MAC). */
#define KEYS_OFF	(FCQ_EXT_KEYS_HLEN - ETH_HLEN)

static struct fcq_kptx *kptx_alloc(u32 cap)
{
	struct fcq_kptx *b;

	b = kvzalloc(sizeof(*b) + fcq_kptx_mem(cap), GFP_KERNEL);
	if (b)
		fcq_kptx_init(b, b + 1, cap, get_random_u32());
	return b;
}

static struct fcq_kprx *kprx_alloc(u32 cap, u64 timeout)
{
	struct fcq_kprx *b;

	b = kvzalloc(sizeof(*b) + fcq_kprx_mem(cap), GFP_KERNEL);
	if (b)
		fcq_kprx_init(b, b + 1, cap, get_random_u32(), timeout);
	return b;
}

int fcq_kp_init(struct fcq_port *port)
{
	port->kptx = kptx_alloc(FCQ_KP_TX_MIN);
	port->kp_keys = kvmalloc_array(FCQ_KP_FRAME_KEYS,
				       sizeof(*port->kp_keys), GFP_KERNEL);
	port->kp_expiry = U64_MAX;
	return port->kptx && port->kp_keys ? 0 : -ENOMEM;
}

void fcq_kp_free(struct fcq_port *port)
{
	kvfree(port->kptx);
	kvfree(port->kprx);
	kvfree(port->kp_keys);
	port->kptx = NULL;
	port->kprx = NULL;
	port->kp_keys = NULL;
}

int fcq_kp_enable(struct fcq_port *port, const struct fcq_kp_cfg *c,
		  struct netlink_ext_ack *extack)
{
	struct fcq_kptx *tx;
	struct fcq_kprx *rx;

	ASSERT_RTNL();
	if (port->index >= 0) {
		NL_SET_ERR_MSG_MOD(extack, "keyed pauses are set up before the port starts");
		return -EBUSY;
	}
	tx = kptx_alloc(c->tx_cap);
	rx = kprx_alloc(c->rx_cap, c->timeout);
	if (!tx || !rx) {
		kvfree(tx);
		kvfree(rx);
		return -ENOMEM;
	}
	kvfree(port->kptx);
	kvfree(port->kprx);
	port->kptx = tx;
	port->kprx = rx;
	port->key_type = c->key_type;
	return 0;
}
EXPORT_SYMBOL_GPL(fcq_kp_enable);

/* The books' bits, for the lockless checks (tp_lock held). */
static void tx_mirror(struct fcq_port *ing)
{
	WRITE_ONCE(ing->kp_dirty, ing->kptx->dirty);
	WRITE_ONCE(ing->kp_armed, ing->kptx->armed);
}

int fcq_kp_pause(struct fcq_port *ing, u8 p, const struct fcq_fkey *keys,
		 int n, bool origin, u32 level)
{
	int i, added = 0;

	spin_lock(&ing->tp_lock);
	if (!keys)
		fcq_kptx_want_all(ing->kptx, p);
	for (i = 0; keys && i < n; i++)
		added += fcq_kptx_want(ing->kptx, p, &keys[i], origin) > 0;
	if (level != FCQ_KP_UNTIL_RESUMED)
		fcq_kptx_arm(ing->kptx, p, level);
	tx_mirror(ing);
	spin_unlock(&ing->tp_lock);
	return added;
}
EXPORT_SYMBOL_GPL(fcq_kp_pause);

void fcq_kp_resume(struct fcq_port *ing, u8 p, const struct fcq_fkey *k)
{
	spin_lock(&ing->tp_lock);
	fcq_kptx_unwant(ing->kptx, p, k);
	tx_mirror(ing);
	spin_unlock(&ing->tp_lock);
}
EXPORT_SYMBOL_GPL(fcq_kp_resume);

u8 fcq_kp_wants(struct fcq_port *ing, u8 p, const struct fcq_fkey *k)
{
	u8 w = 0;

	spin_lock(&ing->tp_lock);
	if (ing->kptx->all_want & BIT(p))
		w |= FCQ_KP_WANTS_ALL;
	if (fcq_kptx_wants_any(ing->kptx, p))
		w |= FCQ_KP_WANTS_ANY;
	if (k && fcq_kptx_wants(ing->kptx, p, k))
		w |= FCQ_KP_WANTS_KEY;
	spin_unlock(&ing->tp_lock);
	return w;
}
EXPORT_SYMBOL_GPL(fcq_kp_wants);

bool fcq_kp_level(struct fcq_port *ing, u8 p, u32 bytes)
{
	bool released;

	if (!(READ_ONCE(ing->kp_armed) & BIT(p)))
		return false;
	spin_lock(&ing->tp_lock);
	released = fcq_kptx_level(ing->kptx, p, bytes);
	tx_mirror(ing);
	spin_unlock(&ing->tp_lock);
	return released;
}

/* The most keys a frame of @size bytes may carry, whatever their type. */
static u16 frame_keys(size_t size)
{
	size_t room = size - FCQ_EXT_KEYS_HLEN;

	return min_t(size_t, FCQ_KP_FRAME_KEYS, room / FCQ_WK_MAX_SIZE);
}

size_t fcq_kp_build(struct fcq_port *port, u8 *buf, size_t size, u64 now)
{
	struct fcq_ext e = { .tx_ns = now };
	struct fcq_kp_frame f;
	size_t len;
	bool owed;

	spin_lock(&port->tp_lock);
	owed = fcq_kptx_next(port->kptx, &f, port->kp_keys, frame_keys(size));
	tx_mirror(port);
	spin_unlock(&port->tp_lock);
	if (!owed)
		return 0;
	e.type = f.resume ? FCQ_EXT_KEYS_RESUME : FCQ_EXT_KEYS_PAUSE;
	e.prio = f.prio;
	WRITE_ONCE(port->kp_sent, port->kp_sent | BIT(f.prio));
	e.flags = f.flags;
	e.seq = ++port->ext_seq;
	e.count = f.n;
	e.key_type = f.n ? fcq_key_wire(&port->kp_keys[0]) : FCQ_WK_NONE;
	len = fcq_ext_keys_build(buf, size, port->dev->dev_addr, &e,
				 port->kp_keys);
	/* frame_keys() left room for keys of any type */
	WARN_ON_ONCE(!len);
	trace_kp_tx(port->dev, e.type, e.prio, e.flags, e.count, e.seq, now);
	fcq_genl_keys_event(port, FCQ_EVENT_KEYS_TX, &e, now);
	return len;
}

/* A port without an RX book: PAUSE pauses the class, RESUME ALL ends it. */
static void rx_coarse(struct fcq_port *port, const struct fcq_ext *f, u64 now)
{
	u32 max = READ_ONCE(port->cfg.pause_max);

	port->st.kp_rx_coarse++;
	if (f->type == FCQ_EXT_KEYS_PAUSE)
		fcq_pause_set(&port->pause[f->prio], now,
			      max ?: FCQ_KP_COARSE_NS);
	else if (f->flags & FCQ_EXT_F_ALL)
		fcq_pause_set(&port->pause[f->prio], now, 0);
}

unsigned int fcq_kp_rx(struct fcq_port *port, struct sk_buff *skb,
		       const struct fcq_ext *f)
{
	size_t size = fcq_key_wire_size(f->key_type);
	struct fcq_kprx *b = port->kprx;
	bool pause = f->type == FCQ_EXT_KEYS_PAUSE;
	u8 buf[FCQ_WK_MAX_SIZE];
	struct fcq_fkey k;
	const u8 *entry;
	u64 now = ktime_get_ns();
	u16 i;

	spin_lock(&port->pause_lock);
	/*
	 * A lossy class is not paused; but a class made lossy after a pause
	 * still takes its resumes, or what was held stays held.
	 */
	if (pause && !(READ_ONCE(port->cfg.lossless) & BIT(f->prio))) {
		port->st.rx_not_lossless++;
		spin_unlock(&port->pause_lock);
		return NF_STOLEN;
	}
	if (pause)
		WRITE_ONCE(port->pfcwd_rx[f->prio], now);
	if (!b || (f->count && fcq_key_wire_type(f->key_type) != port->key_type)) {
		rx_coarse(port, f, now);
		goto out;
	}
	/* A class in storm holds nothing for its peer (pfcwd.c). */
	if (pause && fcq_pfcwd_ignores(port, f->prio)) {
		port->st.pfcwd_ignored++;
		goto out;
	}
	if (pause)
		b->st.pause_frames++;
	else
		b->st.resume_frames++;
	if (f->flags & FCQ_EXT_F_ALL) {
		if (pause)
			fcq_kprx_pause(b, f->prio, NULL, now);
		else
			fcq_kprx_resume(b, f->prio, NULL);
	}
	for (i = 0; i < f->count; i++) {
		/* fcq_ext_parse() checked that every key is in the frame */
		entry = skb_header_pointer(skb, KEYS_OFF + i * size, size, buf);
		if (!entry || fcq_key_decode(entry, f->key_type, &k))
			break;
		if (pause)
			fcq_kprx_pause(b, f->prio, &k, now);
		else
			fcq_kprx_resume(b, f->prio, &k);
	}
	WRITE_ONCE(port->kp_pending, b->pending);
out:
	spin_unlock(&port->pause_lock);
	trace_kp_rx(port->dev, f->type, f->prio, f->flags, f->count, f->seq, now);
	fcq_genl_keys_event(port, FCQ_EVENT_KEYS_RX, f, now);
	fcq_port_kick(port);
	return NF_STOLEN;
}

u8 fcq_kp_sync(struct fcq_port *port, u8 mask,
	       const struct fcq_kprx_ops *ops, void *arg, u64 now)
{
	struct fcq_kprx *b = port->kprx;
	u8 resumed = 0;

	if (!READ_ONCE(port->kp_pending) && now < port->kp_expiry)
		return 0;
	spin_lock(&port->pause_lock);
	port->kp_expiry = b->timeout ? fcq_kprx_expire(b, now) ?: U64_MAX :
				       U64_MAX;
	resumed = fcq_kprx_sync(b, mask, ops, arg);
	WRITE_ONCE(port->kp_pending, b->pending);
	spin_unlock(&port->pause_lock);
	/* Held packets are eligible from now on, not from their arrival. */
	if (resumed)
		port->kp_resumed_at = now;
	return resumed;
}
EXPORT_SYMBOL_GPL(fcq_kp_sync);

bool fcq_kp_applied(struct fcq_port *port, u8 p, const struct fcq_fkey *k)
{
	bool applied;

	spin_lock(&port->pause_lock);
	applied = fcq_kprx_applied(port->kprx, p, k);
	spin_unlock(&port->pause_lock);
	return applied;
}
EXPORT_SYMBOL_GPL(fcq_kp_applied);

void fcq_kp_reset(struct fcq_port *port)
{
	u8 sent = READ_ONCE(port->kp_sent);

	if (port->kptx && sent) {
		spin_lock_bh(&port->tp_lock);
		fcq_kptx_resend(port->kptx, sent);
		tx_mirror(port);
		spin_unlock_bh(&port->tp_lock);
	}
	if (!port->kprx)
		return;
	spin_lock_bh(&port->pause_lock);
	fcq_kprx_resume_all(port->kprx);
	WRITE_ONCE(port->kp_pending, port->kprx->pending);
	spin_unlock_bh(&port->pause_lock);
}

void fcq_kp_goodbye(struct fcq_port *port)
{
	struct fcq_ext e = { .type = FCQ_EXT_KEYS_RESUME,
			     .flags = FCQ_EXT_F_ALL };
	struct sk_buff *skb;
	u8 held;

	ASSERT_RTNL();
	/* A link that is down (a device going away) has no peer to tell. */
	if (!port->kptx || !netif_running(port->dev) ||
	    !netif_carrier_ok(port->dev))
		return;
	/*
	 * Classes whose keyed pauses the upstream may hold: every class this
	 * port ever sent a keyed frame of. Its book alone would not do: it
	 * counts a frame sent once built, and a RESUME still in this qdisc
	 * (waiting, or on the emulated wire) is lost with it.
	 */
	held = READ_ONCE(port->kp_sent);
	/*
	 * Keyed pauses have no timer: a port that leaves for good ends what
	 * it holds upstream, or it would stay held. The device is between
	 * qdiscs (qdisc_graft() destroys the old one before dev_activate()):
	 * dev_queue_xmit() would hand the frame to noop_qdisc, which drops
	 * it, so it goes to the driver directly. Not under a qdisc lock.
	 */
	for (e.prio = 0; e.prio < FCQ_NUM_PRIO; e.prio++) {
		if (!(held & BIT(e.prio)))
			continue;
		skb = alloc_skb(LL_RESERVED_SPACE(port->dev) + ETH_ZLEN,
				GFP_KERNEL);
		if (!skb)
			return;
		skb_reserve(skb, LL_RESERVED_SPACE(port->dev));
		e.seq = ++port->ext_seq;
		e.tx_ns = ktime_get_ns();
		fcq_ext_build(skb_put(skb, ETH_ZLEN), ETH_ZLEN,
			      port->dev->dev_addr, &e);
		skb_reset_mac_header(skb);
		skb->dev = port->dev;
		skb->protocol = htons(FCQ_ETHERTYPE_EXT);
		skb->priority = TC_PRIO_CONTROL;
		if (dev_direct_xmit(skb, 0) != NETDEV_TX_OK)
			net_warn_ratelimited("%s: fcq: RESUME ALL of class %u not sent: the peer holds its flows until its pause_timeout\n",
					     port->dev->name, e.prio);
	}
}

int fcq_kp_dump_stats(struct fcq_port *port, struct sk_buff *skb)
{
	struct fcq_kprx_stats rs = { 0 };
	u64 coarse, bad, held = 0, applied = 0;
	struct fcq_kptx_stats ts;
	struct nlattr *nest;
	int p, i;

	spin_lock_bh(&port->tp_lock);
	ts = port->kptx->st;
	for (p = 0; p < FCQ_NUM_PRIO; p++)
		held += port->kptx->nsent[p];
	spin_unlock_bh(&port->tp_lock);
	spin_lock_bh(&port->pause_lock);
	if (port->kprx) {
		rs = port->kprx->st;
		for (p = 0; p < FCQ_NUM_PRIO; p++)
			applied += port->kprx->napplied[p];
	}
	coarse = port->st.kp_rx_coarse;
	bad = port->st.rx_keys_bad;
	spin_unlock_bh(&port->pause_lock);

	{
		const struct { int attr; u64 val; } c[] = {
			{ TCA_FCQ_KP_TX_PAUSE, ts.pause_frames },
			{ TCA_FCQ_KP_TX_RESUME, ts.resume_frames },
			{ TCA_FCQ_KP_TX_KEYS, ts.keys },
			{ TCA_FCQ_KP_TX_ALL, ts.all },
			{ TCA_FCQ_KP_TX_FULL, ts.full },
			{ TCA_FCQ_KP_RX_PAUSE, rs.pause_frames },
			{ TCA_FCQ_KP_RX_RESUME, rs.resume_frames },
			{ TCA_FCQ_KP_RX_KEYS, rs.keys },
			{ TCA_FCQ_KP_RX_ALL, rs.all },
			{ TCA_FCQ_KP_RX_DUP, rs.dup },
			{ TCA_FCQ_KP_RX_ORPHAN, rs.orphan },
			{ TCA_FCQ_KP_RX_FULL, rs.full },
			{ TCA_FCQ_KP_RX_EXPIRED, rs.expired },
			{ TCA_FCQ_KP_RX_DEFERRED, rs.deferred },
			{ TCA_FCQ_KP_RX_COARSE, coarse },
			{ TCA_FCQ_KP_RX_BAD, bad },
		};

		nest = nla_nest_start_noflag(skb, TCA_FCQ_STATS_KP);
		if (!nest)
			return -EMSGSIZE;
		for (i = 0; i < ARRAY_SIZE(c); i++)
			if (nla_put_u64_64bit(skb, c[i].attr, c[i].val,
					      TCA_FCQ_KP_PAD))
				return -EMSGSIZE;
	}
	if (nla_put_u32(skb, TCA_FCQ_KP_TX_HELD, held) ||
	    nla_put_u32(skb, TCA_FCQ_KP_RX_APPLIED, applied))
		return -EMSGSIZE;
	nla_nest_end(skb, nest);
	return 0;
}

/* One book entry as a BOOK_GET message; @k NULL: the whole class. */
static int book_put(struct sk_buff *skb, struct netlink_callback *cb,
		    struct fcq_port *port, u8 book, u8 p,
		    const struct fcq_fkey *k, u8 state, u64 since)
{
	u8 key[FCQ_WK_MAX_SIZE];
	size_t len = k ? fcq_key_encode(key, k) : 0;
	void *hdr;

	hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid, cb->nlh->nlmsg_seq,
			  &fcq_genl_family, NLM_F_MULTI, FCQ_CMD_BOOK_GET);
	if (!hdr)
		return -EMSGSIZE;
	if (nla_put_u32(skb, FCQ_A_IFINDEX, port->dev->ifindex) ||
	    nla_put_u8(skb, FCQ_A_BOOK, book) ||
	    nla_put_u8(skb, FCQ_A_PRIO, p) ||
	    nla_put_u8(skb, FCQ_A_STATE, state) ||
	    (len && (nla_put_u8(skb, FCQ_A_KEY_TYPE, fcq_key_wire(k)) ||
		     nla_put(skb, FCQ_A_KEY, len, key))) ||
	    (since && nla_put_u64_64bit(skb, FCQ_A_SINCE, since, FCQ_A_PAD))) {
		genlmsg_cancel(skb, hdr);
		return -EMSGSIZE;
	}
	genlmsg_end(skb, hdr);
	return 0;
}

/* A book's state of class @p held whole, and of entry @e; *@since: RX */
static u8 tx_all_state(struct fcq_port *port, u8 p, u64 *since)
{
	struct fcq_kptx *b = port->kptx;

	return (b->all_want & BIT(p) ? FCQ_BOOK_WANT : 0) |
	       (b->all_sent & BIT(p) ? FCQ_BOOK_SENT : 0);
}

static u8 tx_state(const struct fcq_fent *f, u64 *since)
{
	const struct fcq_kptx_ent *e = (const struct fcq_kptx_ent *)f;

	return (e->want ? FCQ_BOOK_WANT : 0) | (e->sent ? FCQ_BOOK_SENT : 0) |
	       (e->origin ? FCQ_BOOK_ORIGIN : 0);
}

static u8 rx_all_state(struct fcq_port *port, u8 p, u64 *since)
{
	struct fcq_kprx *b = port->kprx;

	*since = b->all_peer & BIT(p) ? b->all_since[p] : 0;
	return (b->all_peer & BIT(p) ? FCQ_BOOK_PEER : 0) |
	       (b->all_applied & BIT(p) ? FCQ_BOOK_APPLIED : 0) |
	       (b->all_deferred & BIT(p) ? FCQ_BOOK_DEFERRED : 0);
}

static u8 rx_state(const struct fcq_fent *f, u64 *since)
{
	const struct fcq_kprx_ent *e = (const struct fcq_kprx_ent *)f;

	*since = e->peer ? e->since : 0;
	return (e->peer ? FCQ_BOOK_PEER : 0) |
	       (e->applied ? FCQ_BOOK_APPLIED : 0) |
	       (e->deferred ? FCQ_BOOK_DEFERRED : 0);
}

/*
 * Book @book (table @t) from position *@i on: the classes held whole
 * (0-7), then the table's slots (8 + slot). *@i is where a full message
 * stopped.
 */
static int book_walk(struct fcq_port *port, struct sk_buff *skb,
		     struct netlink_callback *cb, long *i, u8 book,
		     struct fcq_ftab *t,
		     u8 (*all)(struct fcq_port *port, u8 p, u64 *since),
		     u8 (*ent)(const struct fcq_fent *f, u64 *since))
{
	struct fcq_fent *e;
	u64 since = 0;
	u32 slot;
	u8 st;

	for (; *i < FCQ_NUM_PRIO; (*i)++) {
		st = all(port, *i, &since);
		if (st && book_put(skb, cb, port, book, *i, NULL, st, since))
			return -EMSGSIZE;
	}
	for (slot = *i - FCQ_NUM_PRIO; (e = fcq_ftab_next(t, &slot)); slot++) {
		st = ent(e, &since);
		if (book_put(skb, cb, port, book, e->tag, &e->key, st, since)) {
			*i = FCQ_NUM_PRIO + slot;
			return -EMSGSIZE;
		}
	}
	return 0;
}

/*
 * @port's books into @skb, one message per entry, from where the last
 * call stopped: cb->args[1] the book (0 TX, 1 RX, 2 done), cb->args[2]
 * the position in it. A dump that takes several calls is not a snapshot:
 * entries may change between them. RTNL held (the books are not swapped).
 */
int fcq_kp_dump_book(struct fcq_port *port, struct sk_buff *skb,
		     struct netlink_callback *cb)
{
	long *book = &cb->args[1], *i = &cb->args[2];
	int err = 0;

	if (*book == 0) {
		spin_lock_bh(&port->tp_lock);
		err = book_walk(port, skb, cb, i, FCQ_BOOK_TX,
				&port->kptx->tab, tx_all_state, tx_state);
		spin_unlock_bh(&port->tp_lock);
		if (err)
			return err;
		*book = 1;
		*i = 0;
	}
	if (*book == 1 && port->kprx) {
		spin_lock_bh(&port->pause_lock);
		err = book_walk(port, skb, cb, i, FCQ_BOOK_RX,
				&port->kprx->tab, rx_all_state, rx_state);
		spin_unlock_bh(&port->pause_lock);
		if (err)
			return err;
	}
	*book = 2;
	return 0;
}
