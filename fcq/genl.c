// SPDX-License-Identifier: GPL-2.0
/*
 * The generic netlink family "fcq": a dump of each switch's buffer and
 * ports and of a port's keyed-pause books for tools, and pause events
 * multicast to the "events" group for monitors (nothing is built without a
 * listener). A scheme with requests of its own registers its own family.
 */
#include <net/genetlink.h>
#include <net/sock.h>

#include "compat.h"
#include "fcq.h"

static const struct nla_policy fcq_genl_policy[FCQ_A_MAX + 1] = {
	[FCQ_A_SWITCH] = { .type = NLA_U32 },
	[FCQ_A_IFINDEX] = { .type = NLA_U32 },
};

/* BOOK_GET: the books of the port on FCQ_A_IFINDEX, under RTNL. */
static int fcq_book_dump(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct nlattr *ifindex = fcq_genl_dump_attrs(cb)[FCQ_A_IFINDEX];
	struct net_device *dev;
	struct fcq_port *port;
	int err;

	if (!ifindex) {
		NL_SET_ERR_MSG_MOD(cb->extack, "FCQ_A_IFINDEX is missing: the port to dump");
		return -EINVAL;
	}
	if (cb->args[1] == 2)		/* done */
		return 0;
	rtnl_lock();
	dev = __dev_get_by_index(sock_net(skb->sk), nla_get_u32(ifindex));
	port = dev ? fcq_switch_port_of(dev) : NULL;
	if (port) {
		err = fcq_kp_dump_book(port, skb, cb);
	} else {
		NL_SET_ERR_MSG_MOD(cb->extack, "FCQ_A_IFINDEX: no fcq qdisc on that device");
		err = -ENODEV;
	}
	rtnl_unlock();
	if (err == -EMSGSIZE && skb->len)
		return skb->len;	/* the rest in the next message */
	return err ?: skb->len;
}

static const struct genl_small_ops fcq_genl_ops[] = {
	{
		.cmd = FCQ_CMD_SWITCH_GET,
		.dumpit = fcq_switch_dump,
	},
	{
		.cmd = FCQ_CMD_BOOK_GET,
		.dumpit = fcq_book_dump,
	},
};

static const struct genl_multicast_group fcq_genl_mcgrps[] = {
	[FCQ_GENL_EVENTS] = { .name = FCQ_GENL_MCGRP_EVENTS },
};

struct genl_family fcq_genl_family __ro_after_init = {
	.name = FCQ_GENL_NAME,
	.version = FCQ_GENL_VERSION,
	.maxattr = FCQ_A_MAX,
	.policy = fcq_genl_policy,
	.netnsok = true,
	.module = THIS_MODULE,
	.small_ops = fcq_genl_ops,
	.n_small_ops = ARRAY_SIZE(fcq_genl_ops),
	.resv_start_op = FCQ_CMD_SWITCH_GET,	/* all strictly validated */
	.mcgrps = fcq_genl_mcgrps,
	.n_mcgrps = ARRAY_SIZE(fcq_genl_mcgrps),
};

/*
 * An event message for @port, or NULL when nobody listens (or memory is
 * short: a monitor then misses one event, the data path goes on).
 */
static struct sk_buff *event_start(struct fcq_port *port, enum fcq_event ev,
				   u64 time, void **hdr)
{
	struct sk_buff *msg;

	if (!genl_has_listeners(&fcq_genl_family, dev_net(port->dev),
				FCQ_GENL_EVENTS))
		return NULL;
	msg = genlmsg_new(NLMSG_DEFAULT_SIZE, GFP_ATOMIC);
	if (!msg)
		return NULL;
	*hdr = genlmsg_put(msg, 0, 0, &fcq_genl_family, 0, FCQ_CMD_EVENT);
	if (!*hdr ||
	    nla_put_u8(msg, FCQ_A_EVENT, ev) ||
	    nla_put_u32(msg, FCQ_A_IFINDEX, port->dev->ifindex) ||
	    nla_put_u64_64bit(msg, FCQ_A_TIME, time, FCQ_A_PAD)) {
		nlmsg_free(msg);
		return NULL;
	}
	return msg;
}

static void event_send(struct fcq_port *port, struct sk_buff *msg, void *hdr)
{
	genlmsg_end(msg, hdr);
	genlmsg_multicast_netns(&fcq_genl_family, dev_net(port->dev), msg, 0,
				FCQ_GENL_EVENTS, GFP_ATOMIC);
}

/*
 * A pause sent or honoured: PFC/PAUSE frames give @quanta per class in
 * @mask, fcq frames @pause_ns (ns) instead.
 */
void fcq_genl_pause_event(struct fcq_port *port, enum fcq_event ev, u8 mask,
			  const u16 *quanta, u32 pause_ns, u64 time)
{
	struct sk_buff *msg;
	void *hdr;

	msg = event_start(port, ev, time, &hdr);
	if (!msg)
		return;
	if (nla_put_u8(msg, FCQ_A_PRIO_MASK, mask) ||
	    nla_put(msg, FCQ_A_QUANTA, FCQ_NUM_PRIO * sizeof(u16), quanta) ||
	    (pause_ns && nla_put_u32(msg, FCQ_A_PAUSE_NS, pause_ns))) {
		nlmsg_free(msg);
		return;
	}
	event_send(port, msg, hdr);
}

/* A keyed PAUSE or RESUME @f sent or received: its header, not its keys. */
void fcq_genl_keys_event(struct fcq_port *port, enum fcq_event ev,
			 const struct fcq_ext *f, u64 time)
{
	struct sk_buff *msg;
	void *hdr;

	msg = event_start(port, ev, time, &hdr);
	if (!msg)
		return;
	if (nla_put_u8(msg, FCQ_A_PRIO_MASK, BIT(f->prio)) ||
	    nla_put_u8(msg, FCQ_A_FRAME, f->type) ||
	    nla_put_u8(msg, FCQ_A_FLAGS, f->flags) ||
	    nla_put_u32(msg, FCQ_A_SEQ, f->seq) ||
	    nla_put_u16(msg, FCQ_A_KEYS, f->count)) {
		nlmsg_free(msg);
		return;
	}
	event_send(port, msg, hdr);
}

/* The PFC watchdog put classes @mask in storm, or back to normal. */
void fcq_genl_pfcwd_event(struct fcq_port *port, enum fcq_event ev, u8 mask,
			  u8 action, u64 time)
{
	struct sk_buff *msg;
	void *hdr;

	msg = event_start(port, ev, time, &hdr);
	if (!msg)
		return;
	if (nla_put_u8(msg, FCQ_A_PRIO_MASK, mask) ||
	    nla_put_u8(msg, FCQ_A_ACTION, action)) {
		nlmsg_free(msg);
		return;
	}
	event_send(port, msg, hdr);
}

int fcq_genl_register(void)
{
	return genl_register_family(&fcq_genl_family);
}

void fcq_genl_unregister(void)
{
	genl_unregister_family(&fcq_genl_family);
}
