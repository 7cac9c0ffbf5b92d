// SPDX-License-Identifier: GPL-2.0
/*
 * Switches: the fcq ports of one network namespace with the
 * same switch id, whether the namespace bridges or routes between them.
 *
 * A switch accounts every byte queued on any of its egress ports to the
 * (ingress port, priority) it arrived on, found from skb->skb_iif, which the
 * receive path sets and neither bridging nor IP forwarding changes. That is
 * the ingress accounting of a real switch MMU (core/pfc.c holds the model);
 * when a queue crosses its threshold the ingress port is asked to send XOFF.
 *
 * A port's slot keeps its thresholds after the port leaves, until every
 * byte charged to it has left the other ports' queues: only then can a new
 * port take the slot.
 *
 * A slot belongs to a device, not to a qdisc: `tc qdisc replace` starts the
 * new qdisc before the old one leaves, and the new one takes over the old
 * one's slot, with the bytes charged to it and its XOFF state.
 */
#include <linux/netdevice.h>
#include <linux/slab.h>
#include <linux/xarray.h>
#include <net/genetlink.h>
#include <net/net_namespace.h>
#include <net/sock.h>
#include <net/netns/generic.h>

#include "compat.h"
#include "fcq.h"
#include "../core/link.h"

struct fcq_switch {
	struct list_head node;		/* in fcq_net.switches (RTNL, RCU) */
	u32 id;
	possible_net_t net;
	int nports;			/* RTNL */
	struct xarray ifindex;		/* ifindex -> slot (RCU readers) */
	struct list_head exts;		/* schemes' state (RTNL, RCU) */

	spinlock_t lock;		/* the books below */
	u32 size;			/* buffer, bytes */
	struct fcq_buf buf;
	/*
	 * Slot i's port; NULL: free or leaving. Written under the lock, read
	 * without it by fcq_switch_input(), hence a fixed array.
	 */
	struct fcq_port *ports[FCQ_MAX_PORTS];
	/* Slots 0..nslots-1, grown by join (RTNL and the lock). */
	int nslots;
	struct fcq_slot {
		struct fcq_buf_cfg cfg;	/* the ingress port's thresholds */
		u32 headroom;
		u8 lossless;
		struct fcq_buf_q q[FCQ_NUM_PRIO];
		u64 xoff[FCQ_NUM_PRIO];	/* transitions */
		u64 xon[FCQ_NUM_PRIO];
	} *slot;
};

/* A switch starts with this many slots and doubles up to FCQ_MAX_PORTS. */
#define FCQ_SLOTS_MIN	8

struct fcq_net {
	struct list_head switches;
};

static unsigned int fcq_net_id;
/* Its own cache: rmmod then warns if a switch ever leaked. */
static struct kmem_cache *fcq_switch_cache;

static bool slot_drained(const struct fcq_slot *s)
{
	int p;

	for (p = 0; p < FCQ_NUM_PRIO; p++)
		if (s->q[p].bytes)
			return false;
	return true;
}

/* Reserve and headroom totals and the shared pool in use. sw->lock held. */
static void recount(struct fcq_switch *sw)
{
	int i, p;

	sw->buf.reserve_total = 0;
	sw->buf.headroom_total = 0;
	sw->buf.shared_used = 0;
	for (i = 0; i < sw->nslots; i++) {
		struct fcq_slot *s = &sw->slot[i];

		for (p = 0; p < FCQ_NUM_PRIO; p++)
			sw->buf.shared_used += fcq_buf_q_shared(&s->cfg, &s->q[p]);
		if (!sw->ports[i])
			continue;
		sw->buf.reserve_total += (u64)s->cfg.reserve * FCQ_NUM_PRIO;
		sw->buf.headroom_total += (u64)s->headroom * hweight8(s->lossless);
	}
}

/* Copy a port's configuration into its slot. sw->lock held. */
static void load_slot(struct fcq_switch *sw, struct fcq_port *port)
{
	struct fcq_slot *s = &sw->slot[port->index];
	const struct fcq_port_cfg *c = &port->cfg;
	int i;

	if (c->buffer) {
		WRITE_ONCE(sw->size, c->buffer);
		for (i = 0; i < sw->nslots; i++)
			sw->slot[i].cfg.size = sw->size;
	}
	s->cfg.size = sw->size;
	s->cfg.xoff = c->xoff;
	s->cfg.xon = c->xon;
	s->cfg.alpha = c->alpha;
	s->cfg.resume_offset = c->resume_offset;
	s->cfg.reserve = c->reserve;
	s->headroom = port->headroom;
	s->lossless = c->lossless;
	recount(sw);
}

static struct fcq_switch *switch_get(struct net *net, u32 id)
{
	struct fcq_net *fn = net_generic(net, fcq_net_id);
	struct fcq_switch *sw;

	list_for_each_entry(sw, &fn->switches, node)
		if (sw->id == id)
			return sw;

	sw = kmem_cache_zalloc(fcq_switch_cache, GFP_KERNEL);
	if (!sw)
		return NULL;
	sw->id = id;
	write_pnet(&sw->net, net);
	sw->size = FCQ_DEFAULT_BUFFER;
	spin_lock_init(&sw->lock);
	xa_init(&sw->ifindex);
	INIT_LIST_HEAD(&sw->exts);
	list_add_tail_rcu(&sw->node, &fn->switches);
	return sw;
}

static void switch_put(struct fcq_switch *sw)
{
	if (sw->nports)
		return;
	/* A scheme's state goes before its last port leaves the switch. */
	WARN_ON_ONCE(!list_empty(&sw->exts));
	list_del_rcu(&sw->node);
	synchronize_rcu();	/* fcq_switch_ext_find_rcu() */
	xa_destroy(&sw->ifindex);
	kvfree(sw->slot);
	kmem_cache_free(fcq_switch_cache, sw);
}

/*
 * Room for more ports: twice the slots, up to FCQ_MAX_PORTS. The new
 * array replaces the old one inside the lock, so the data path, which
 * reads it only under it, sees one or the other whole. RTNL held.
 */
static int switch_grow(struct fcq_switch *sw)
{
	int n = sw->nslots ? min(2 * sw->nslots, FCQ_MAX_PORTS) : FCQ_SLOTS_MIN;
	struct fcq_slot *slot, *old_slot;

	if (n == sw->nslots)
		return -ENOSPC;
	slot = kvcalloc(n, sizeof(*slot), GFP_KERNEL);
	if (!slot)
		return -ENOMEM;
	spin_lock_bh(&sw->lock);
	old_slot = sw->slot;
	if (sw->nslots)
		memcpy(slot, old_slot, sw->nslots * sizeof(*slot));
	sw->slot = slot;
	sw->nslots = n;
	spin_unlock_bh(&sw->lock);
	kvfree(old_slot);
	return 0;
}

/* The first free slot, claimed for @port, or -1. RTNL held. */
static int claim_slot(struct fcq_switch *sw, struct fcq_port *port)
{
	int i;

	spin_lock_bh(&sw->lock);
	for (i = 0; i < sw->nslots; i++)
		if (!sw->ports[i] && slot_drained(&sw->slot[i]))
			break;
	if (i < sw->nslots) {
		/* A previous user of the slot may have left counters. */
		memset(&sw->slot[i], 0, sizeof(sw->slot[i]));
		WRITE_ONCE(sw->ports[i], port);
	} else {
		i = -1;
	}
	spin_unlock_bh(&sw->lock);
	return i;
}

/*
 * Hand slot @i to @port, on the same device as its holder (`tc qdisc
 * replace`, or back after a replacement failed): what is buffered stays
 * charged to the slot, and the XOFFs in effect upstream are @port's to
 * refresh and to end. sw->lock held.
 */
static void hand_over(struct fcq_switch *sw, int i, struct fcq_port *port)
{
	int p;

	WRITE_ONCE(sw->ports[i], port);
	for (p = 0; p < FCQ_NUM_PRIO; p++)
		if (sw->slot[i].q[p].xoff)
			set_bit(p, &port->xoff_want);
		else
			clear_bit(p, &port->xoff_want);
	WRITE_ONCE(port->xoff_since, ktime_get_ns());
	load_slot(sw, port);
}

int fcq_switch_join(struct fcq_port *port, struct netlink_ext_ack *extack)
{
	struct net_device *dev = port->dev;
	struct fcq_switch *sw;
	void *entry;
	int i, err;

	ASSERT_RTNL();
	sw = switch_get(dev_net(dev), port->cfg.switch_id);
	if (!sw)
		return -ENOMEM;

	entry = xa_load(&sw->ifindex, dev->ifindex);
	if (entry) {			/* tc qdisc replace */
		i = xa_to_value(entry);
		port->index = i;
		port->prev = sw->ports[i];
		spin_lock_bh(&sw->lock);
		hand_over(sw, i, port);
		spin_unlock_bh(&sw->lock);
		goto joined;
	}

	while ((i = claim_slot(sw, port)) < 0) {
		err = switch_grow(sw);
		if (err == -ENOSPC)
			NL_SET_ERR_MSG_MOD(extack,
					   "switch has no free port slot (" __stringify(FCQ_MAX_PORTS) " ports)");
		if (err)
			goto out_put;
	}

	err = xa_err(xa_store(&sw->ifindex, dev->ifindex, xa_mk_value(i),
			      GFP_KERNEL));
	if (err) {
		spin_lock_bh(&sw->lock);
		WRITE_ONCE(sw->ports[i], NULL);
		spin_unlock_bh(&sw->lock);
		goto out_put;
	}
joined:
	port->index = i;
	port->sw = sw;
	sw->nports++;
	fcq_switch_update(port);
	if (!fcq_switch_pool(port))
		NL_SET_ERR_MSG_MOD(extack,
				   "no shared buffer: the ports' headroom and reserves take the whole buffer, so every packet of a lossless class crosses XOFF; raise buffer");
	return 0;

out_put:
	switch_put(sw);
	return err;
}

void fcq_switch_leave(struct fcq_port *port)
{
	struct fcq_switch *sw = port->sw;
	struct fcq_port *holder;

	ASSERT_RTNL();
	if (!sw)
		return;
	holder = sw->ports[port->index];
	if (holder != port) {
		/* Replaced: the successor holds the slot and keeps it. */
		if (holder->prev == port)
			holder->prev = NULL;
	} else if (port->prev) {
		/* A replacement whose init failed: the slot goes back. */
		spin_lock_bh(&sw->lock);
		hand_over(sw, port->index, port->prev);
		spin_unlock_bh(&sw->lock);
		port->prev = NULL;
	} else {
		xa_erase(&sw->ifindex, port->dev->ifindex);
		spin_lock_bh(&sw->lock);
		WRITE_ONCE(sw->ports[port->index], NULL);
		recount(sw);
		spin_unlock_bh(&sw->lock);
	}
	/*
	 * Replaced or gone, it no longer sends: what it holds paused
	 * upstream ends now. A successor pauses again what it must, and its
	 * frames go out once the device is active again, after this one.
	 */
	fcq_kp_goodbye(port);
	/* Other ports' enqueues may still hold this port to kick it. */
	synchronize_net();
	port->sw = NULL;
	port->index = -1;
	sw->nports--;
	switch_put(sw);
}

void fcq_switch_update(struct fcq_port *port)
{
	struct fcq_switch *sw = port->sw;

	if (!sw)
		return;
	spin_lock_bh(&sw->lock);
	load_slot(sw, port);
	spin_unlock_bh(&sw->lock);
}

/* The shared pool of the port's switch; U64_MAX with static thresholds. */
u64 fcq_switch_pool(const struct fcq_port *port)
{
	struct fcq_switch *sw = port->sw;
	struct fcq_slot *s;
	u64 pool;

	spin_lock_bh(&sw->lock);
	s = &sw->slot[port->index];
	pool = s->cfg.xoff ? U64_MAX : fcq_buf_pool(&s->cfg, &sw->buf);
	spin_unlock_bh(&sw->lock);
	return pool;
}

u32 fcq_switch_buffer(const struct fcq_port *port)
{
	return port->sw ? READ_ONCE(port->sw->size) : FCQ_DEFAULT_BUFFER;
}

/* Ask @ing to tell its upstream (sw->lock held; kicked after unlock). */
static struct fcq_port *want_pause(struct fcq_port *ing, u8 prio, bool xoff,
				   u64 now)
{
	if (!ing || !READ_ONCE(ing->sends_pfc))
		return NULL;
	if (xoff)
		set_bit(prio, &ing->xoff_want);
	else
		clear_bit(prio, &ing->xoff_want);
	WRITE_ONCE(ing->xoff_since, now);
	return ing;
}

enum fcq_admit fcq_switch_admit(struct fcq_port *egress, struct sk_buff *skb)
{
	struct fcq_skb_cb *cb = fcq_cb(skb);
	struct fcq_switch *sw = egress->sw;
	struct fcq_port *notify = NULL;
	enum fcq_buf_event ev;
	struct fcq_slot *s;
	bool lossless, ok;
	void *entry;
	int i;

	cb->ingress = -1;
	entry = xa_load(&sw->ifindex, skb->skb_iif);
	if (!entry)
		return FCQ_ADMIT;	/* local traffic: the host role */
	i = xa_to_value(entry);

	spin_lock(&sw->lock);
	s = &sw->slot[i];
	lossless = s->lossless & BIT(cb->prio);
	ok = fcq_buf_admit(&s->cfg, &sw->buf, &s->q[cb->prio], s->headroom,
			   lossless, qdisc_pkt_len(skb), &ev);
	if (ok)
		cb->ingress = i;
	if (ev == FCQ_BUF_XOFF) {
		s->xoff[cb->prio]++;
		notify = want_pause(sw->ports[i], cb->prio, true, cb->time);
	}
	spin_unlock(&sw->lock);
	fcq_port_kick(notify);

	if (ok)
		return FCQ_ADMIT;
	return lossless ? FCQ_DROP_LOSSLESS_Q : FCQ_DROP_LOSSY_Q;
}

void fcq_switch_release(struct fcq_port *egress, struct sk_buff *skb,
			u64 now)
{
	struct fcq_skb_cb *cb = fcq_cb(skb);
	struct fcq_switch *sw = egress->sw;
	struct fcq_port *notify = NULL, *ing;
	struct fcq_slot *s;

	if (cb->ingress < 0)
		return;
	spin_lock(&sw->lock);
	s = &sw->slot[cb->ingress];
	if (fcq_buf_release(&s->cfg, &sw->buf, &s->q[cb->prio],
			    qdisc_pkt_len(skb)) == FCQ_BUF_XON) {
		s->xon[cb->prio]++;
		notify = want_pause(sw->ports[cb->ingress], cb->prio, false, now);
	}
	/* Keyed pauses of the ingress end at their level (E4 of OFC). */
	ing = sw->ports[cb->ingress];
	if (ing && fcq_kp_level(ing, cb->prio, s->q[cb->prio].bytes))
		notify = ing;
	spin_unlock(&sw->lock);
	fcq_port_kick(notify);
	cb->ingress = -1;
}
EXPORT_SYMBOL_GPL(fcq_switch_release);

u32 fcq_switch_ingress(struct fcq_port *egress, const struct sk_buff *skb,
		       struct fcq_port **ing)
{
	const struct fcq_skb_cb *cb = fcq_cb(skb);
	struct fcq_switch *sw = egress->sw;
	u32 bytes;

	*ing = NULL;
	if (cb->ingress < 0)
		return 0;
	spin_lock(&sw->lock);
	bytes = sw->slot[cb->ingress].q[cb->prio].bytes;
	*ing = sw->ports[cb->ingress];
	spin_unlock(&sw->lock);
	return bytes;
}
EXPORT_SYMBOL_GPL(fcq_switch_ingress);

struct fcq_port *fcq_switch_input(const struct fcq_port *egress,
				  const struct sk_buff *skb)
{
	const struct fcq_skb_cb *cb = fcq_cb(skb);

	/* Ports are freed an RCU grace period after they leave. */
	return cb->ingress < 0 ? NULL :
	       READ_ONCE(egress->sw->ports[cb->ingress]);
}
EXPORT_SYMBOL_GPL(fcq_switch_input);

void fcq_switch_stats(struct fcq_port *port, struct fcq_ingress_stats *st)
{
	struct fcq_switch *sw = port->sw;
	struct fcq_slot *s;
	int p;

	memset(st, 0, sizeof(*st));
	if (!sw)
		return;
	spin_lock_bh(&sw->lock);
	s = &sw->slot[port->index];
	for (p = 0; p < FCQ_NUM_PRIO; p++) {
		st->bytes[p] = s->q[p].bytes;
		st->hdrm_max[p] = s->q[p].hdrm_max;
		st->xoff[p] = s->xoff[p];
		st->xon[p] = s->xon[p];
	}
	st->threshold = min_t(u64, fcq_buf_threshold(&s->cfg, &sw->buf), U32_MAX);
	st->used = sw->buf.used;
	st->used_max = sw->buf.used_max;
	spin_unlock_bh(&sw->lock);
}

/*
 * Generic netlink dump of one switch, from slot cb->args[1] on. A switch
 * with more ports than one message holds goes out in several messages,
 * each with the switch's attributes and the next ports (readers merge
 * messages of the same switch). Returns -EMSGSIZE when the message is full
 * before the last port, with cb->args[1] where to go on.
 */
static int dump_switch(struct fcq_switch *sw, struct sk_buff *skb,
		       struct netlink_callback *cb)
{
	int i = cb->args[1], put = 0;
	void *hdr;

	hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid, cb->nlh->nlmsg_seq,
			  &fcq_genl_family, NLM_F_MULTI, FCQ_CMD_SWITCH_GET);
	if (!hdr)
		return -EMSGSIZE;

	spin_lock_bh(&sw->lock);
	if (nla_put_u32(skb, FCQ_A_SWITCH, sw->id) ||
	    nla_put_u64_64bit(skb, FCQ_A_BUFFER, sw->size, FCQ_A_PAD) ||
	    nla_put_u64_64bit(skb, FCQ_A_USED, sw->buf.used, FCQ_A_PAD) ||
	    nla_put_u64_64bit(skb, FCQ_A_USED_MAX, sw->buf.used_max, FCQ_A_PAD))
		goto fail;
	for (; i < sw->nslots; i++) {
		struct fcq_port *port = sw->ports[i];
		struct fcq_slot *s = &sw->slot[i];
		u32 ingress[FCQ_NUM_PRIO];
		struct nlattr *nest;
		u8 xoff = 0;
		int p;

		if (!port)
			continue;
		for (p = 0; p < FCQ_NUM_PRIO; p++) {
			ingress[p] = s->q[p].bytes;
			if (s->q[p].xoff)
				xoff |= BIT(p);
		}
		nest = nla_nest_start(skb, FCQ_A_PORT);
		if (!nest ||
		    nla_put_u32(skb, FCQ_A_PORT_IFINDEX, port->dev->ifindex) ||
		    nla_put_string(skb, FCQ_A_PORT_KIND, port->sch->ops->id) ||
		    nla_put_u8(skb, FCQ_A_PORT_XOFF, xoff) ||
		    nla_put(skb, FCQ_A_PORT_INGRESS, sizeof(ingress), ingress) ||
		    nla_put_u32(skb, FCQ_A_PORT_HEADROOM, s->headroom)) {
			if (!put)
				goto fail;	/* all of it in the next one */
			nla_nest_cancel(skb, nest);
			break;
		}
		nla_nest_end(skb, nest);
		put++;
	}
	spin_unlock_bh(&sw->lock);
	genlmsg_end(skb, hdr);
	cb->args[1] = i;
	return i < sw->nslots ? -EMSGSIZE : 0;

fail:
	spin_unlock_bh(&sw->lock);
	genlmsg_cancel(skb, hdr);
	return -EMSGSIZE;
}

int fcq_switch_dump(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct fcq_net *fn = net_generic(sock_net(skb->sk), fcq_net_id);
	struct nlattr *only = fcq_genl_dump_attrs(cb)[FCQ_A_SWITCH];
	struct fcq_switch *sw;
	long n = 0;

	rtnl_lock();
	list_for_each_entry(sw, &fn->switches, node) {
		if (n++ < cb->args[0])
			continue;
		if (only && nla_get_u32(only) != sw->id) {
			cb->args[0] = n;
			continue;
		}
		if (dump_switch(sw, skb, cb))
			break;
		cb->args[0] = n;
		cb->args[1] = 0;
	}
	rtnl_unlock();
	return skb->len;
}

u32 fcq_switch_id(const struct fcq_switch *sw)
{
	return sw->id;
}
EXPORT_SYMBOL_GPL(fcq_switch_id);

struct net *fcq_switch_net(const struct fcq_switch *sw)
{
	return read_pnet(&sw->net);
}
EXPORT_SYMBOL_GPL(fcq_switch_net);

/*
 * The state @ops keeps for the switch @port has joined, made by
 * @ops->create for the first such port, with one more user. RTNL held.
 */
struct fcq_switch_ext *fcq_switch_ext_get(struct fcq_port *port,
					  const struct fcq_switch_ext_ops *ops,
					  struct netlink_ext_ack *extack)
{
	struct fcq_switch *sw = port->sw;
	struct fcq_switch_ext *ext;

	ASSERT_RTNL();
	list_for_each_entry(ext, &sw->exts, node)
		if (ext->ops == ops)
			goto found;
	ext = ops->create(port, extack);
	if (IS_ERR(ext))
		return ext;
	ext->ops = ops;
	ext->sw = sw;
	ext->users = 0;
	list_add_tail_rcu(&ext->node, &sw->exts);
found:
	ext->users++;
	return ext;
}
EXPORT_SYMBOL_GPL(fcq_switch_ext_get);

/* One user less; the last one unlinks it and has ops->destroy free it. */
void fcq_switch_ext_put(struct fcq_switch_ext *ext)
{
	ASSERT_RTNL();
	if (--ext->users)
		return;
	list_del_rcu(&ext->node);
	ext->ops->destroy(ext);
}
EXPORT_SYMBOL_GPL(fcq_switch_ext_put);

/*
 * The state @ops keeps for switch @id of @net, for a netlink request.
 * rcu_read_lock() held: ops->destroy waits for a grace period.
 */
struct fcq_switch_ext *fcq_switch_ext_find_rcu(struct net *net, u32 id,
					       const struct fcq_switch_ext_ops *ops)
{
	struct fcq_net *fn = net_generic(net, fcq_net_id);
	struct fcq_switch_ext *ext;
	struct fcq_switch *sw;

	list_for_each_entry_rcu(sw, &fn->switches, node) {
		if (sw->id != id)
			continue;
		list_for_each_entry_rcu(ext, &sw->exts, node)
			if (ext->ops == ops)
				return ext;
	}
	return NULL;
}
EXPORT_SYMBOL_GPL(fcq_switch_ext_find_rcu);

/* The port on @dev, if @dev is a switch port. RTNL held. */
struct fcq_port *fcq_switch_port_of(struct net_device *dev)
{
	struct fcq_net *fn = net_generic(dev_net(dev), fcq_net_id);
	struct fcq_switch *sw;
	void *slot;

	list_for_each_entry(sw, &fn->switches, node) {
		slot = xa_load(&sw->ifindex, dev->ifindex);
		if (slot)
			return sw->ports[xa_to_value(slot)];
	}
	return NULL;
}

/* A new MTU changes the computed headroom. */
static int fcq_netdev_event(struct notifier_block *nb, unsigned long event,
			    void *ptr)
{
	struct fcq_port *port;

	if (event != NETDEV_CHANGEMTU)
		return NOTIFY_DONE;
	port = fcq_switch_port_of(netdev_notifier_info_to_dev(ptr));
	if (port)
		fcq_port_refresh_headroom(port);
	return NOTIFY_DONE;
}

static struct notifier_block fcq_netdev_notifier = {
	.notifier_call = fcq_netdev_event,
};

static int __net_init fcq_net_init(struct net *net)
{
	struct fcq_net *fn = net_generic(net, fcq_net_id);

	INIT_LIST_HEAD(&fn->switches);
	return 0;
}

static void __net_exit fcq_net_exit(struct net *net)
{
	struct fcq_net *fn = net_generic(net, fcq_net_id);

	/* Devices, and with them the qdiscs, are gone before pernet exit. */
	WARN_ON_ONCE(!list_empty(&fn->switches));
}

static struct pernet_operations fcq_net_ops = {
	.init = fcq_net_init,
	.exit = fcq_net_exit,
	.id = &fcq_net_id,
	.size = sizeof(struct fcq_net),
};

int fcq_switch_register(void)
{
	int err;

	fcq_switch_cache = KMEM_CACHE(fcq_switch, 0);
	if (!fcq_switch_cache)
		return -ENOMEM;
	err = register_pernet_subsys(&fcq_net_ops);
	if (err)
		goto err_cache;
	err = register_netdevice_notifier(&fcq_netdev_notifier);
	if (err)
		goto err_pernet;
	return 0;

err_pernet:
	unregister_pernet_subsys(&fcq_net_ops);
err_cache:
	kmem_cache_destroy(fcq_switch_cache);
	return err;
}

void fcq_switch_unregister(void)
{
	unregister_netdevice_notifier(&fcq_netdev_notifier);
	unregister_pernet_subsys(&fcq_net_ops);
	kmem_cache_destroy(fcq_switch_cache);
}
