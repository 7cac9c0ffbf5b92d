// SPDX-License-Identifier: GPL-2.0
/*
 * fcq/genl.c - the generic netlink family "fcq": a dump of each switch's
 * buffer and ports for tools, pause events multicast to the "events" group
 * for monitors, and FAFC's pause LPs: requests multicast to the "fafc"
 * group, answers (FCQ_CMD_FAFC_PAUSE) handed to sch_fafc. Multicasts cost
 * nothing without a listener.
 */
#include <net/genetlink.h>

#include "fcq.h"

const struct nla_policy fcq_fafc_port_policy[FCQ_A_FAFC_PORT_MAX + 1] = {
	[FCQ_A_FAFC_PORT_IDX] = NLA_POLICY_MAX(NLA_U16, FCQ_MAX_PORTS - 1),
	[FCQ_A_FAFC_PORT_IFINDEX] = { .type = NLA_U32 },
	[FCQ_A_FAFC_PORT_A] = { .type = NLA_U64 },
	[FCQ_A_FAFC_PORT_R] = { .type = NLA_U64 },
	[FCQ_A_FAFC_PORT_T_NS] = { .type = NLA_U64 },
};
EXPORT_SYMBOL_GPL(fcq_fafc_port_policy);

static const struct nla_policy fcq_genl_policy[FCQ_A_MAX + 1] = {
	[FCQ_A_SWITCH] = { .type = NLA_U32 },
	[FCQ_A_FAFC_EGRESS] = NLA_POLICY_MAX(NLA_U16, FCQ_MAX_PORTS - 1),
	[FCQ_A_FAFC_SEQ] = { .type = NLA_U64 },
	[FCQ_A_FAFC_PORT] = NLA_POLICY_NESTED(fcq_fafc_port_policy),
};

/* sch_fafc's handler of FCQ_CMD_FAFC_PAUSE, while it is loaded. */
struct fcq_genl_handler {
	int (*doit)(struct sk_buff *skb, struct genl_info *info);
	struct module *owner;
};

static struct fcq_genl_handler fafc_slot;
static struct fcq_genl_handler __rcu *fafc_handler;

/* Set the handler, or with @doit NULL clear it and wait for its callers. */
void fcq_genl_set_fafc(int (*doit)(struct sk_buff *, struct genl_info *),
		       struct module *owner)
{
	if (doit) {
		fafc_slot.doit = doit;
		fafc_slot.owner = owner;
		rcu_assign_pointer(fafc_handler, &fafc_slot);
	} else {
		RCU_INIT_POINTER(fafc_handler, NULL);
		synchronize_rcu();
	}
}
EXPORT_SYMBOL_GPL(fcq_genl_set_fafc);

static int fcq_genl_fafc_pause(struct sk_buff *skb, struct genl_info *info)
{
	struct fcq_genl_handler *h;
	int err;

	rcu_read_lock();
	h = rcu_dereference(fafc_handler);
	if (h && !try_module_get(h->owner))
		h = NULL;
	rcu_read_unlock();
	if (!h) {
		GENL_SET_ERR_MSG(info, "no fafc qdisc: sch_fafc is not loaded");
		return -ENOENT;
	}
	/* The module reference keeps h valid and lets doit sleep. */
	err = h->doit(skb, info);
	module_put(h->owner);
	return err;
}

static const struct genl_small_ops fcq_genl_ops[] = {
	{
		.cmd = FCQ_CMD_SWITCH_GET,
		.dumpit = fcq_switch_dump,
	},
	{
		.cmd = FCQ_CMD_FAFC_PAUSE,
		.doit = fcq_genl_fafc_pause,
		.flags = GENL_UNS_ADMIN_PERM,
	},
};

static const struct genl_multicast_group fcq_genl_mcgrps[] = {
	[FCQ_GENL_EVENTS] = { .name = FCQ_GENL_MCGRP_EVENTS },
	[FCQ_GENL_FAFC] = { .name = FCQ_GENL_MCGRP_FAFC },
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
EXPORT_SYMBOL_GPL(fcq_genl_family);

/*
 * A pause sent or honoured: PFC/PAUSE frames give @quanta per class in
 * @mask, fcq frames @pause_ns (ns) instead.
 */
void fcq_genl_pause_event(struct fcq_port *port, enum fcq_event ev, u8 mask,
			  const u16 *quanta, u32 pause_ns, u64 time)
{
	struct net *net = dev_net(port->dev);
	struct sk_buff *msg;
	void *hdr;

	if (!genl_has_listeners(&fcq_genl_family, net, FCQ_GENL_EVENTS))
		return;
	msg = genlmsg_new(NLMSG_DEFAULT_SIZE, GFP_ATOMIC);
	if (!msg)
		return;
	hdr = genlmsg_put(msg, 0, 0, &fcq_genl_family, 0, FCQ_CMD_EVENT);
	if (!hdr ||
	    nla_put_u8(msg, FCQ_A_EVENT, ev) ||
	    nla_put_u32(msg, FCQ_A_IFINDEX, port->dev->ifindex) ||
	    nla_put_u8(msg, FCQ_A_PRIO_MASK, mask) ||
	    nla_put(msg, FCQ_A_QUANTA, FCQ_NUM_PRIO * sizeof(u16), quanta) ||
	    (pause_ns && nla_put_u32(msg, FCQ_A_PAUSE_NS, pause_ns)) ||
	    nla_put_u64_64bit(msg, FCQ_A_TIME, time, FCQ_A_PAD)) {
		nlmsg_free(msg);
		return;
	}
	genlmsg_end(msg, hdr);
	genlmsg_multicast_netns(&fcq_genl_family, net, msg, 0, FCQ_GENL_EVENTS,
				GFP_ATOMIC);
}

int fcq_genl_register(void)
{
	return genl_register_family(&fcq_genl_family);
}

void fcq_genl_unregister(void)
{
	genl_unregister_family(&fcq_genl_family);
}
