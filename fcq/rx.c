// SPDX-License-Identifier: GPL-2.0
/*
 * fcq/rx.c - control frames in.
 *
 * One NF_NETDEV_INGRESS hook per fcq port, on the port's own device. It runs
 * in __netif_receive_skb_core() before the rx_handler, so it sees MAC
 * Control frames that a Linux bridge would drop. PFC and 802.3x PAUSE are
 * parsed (core/frames.c), checked against this port's configuration,
 * applied to the pause state that gates its serializer, and consumed; bad
 * ones are counted and dropped. Other frames pass untouched.
 */
#include <linux/etherdevice.h>
#include <linux/netfilter_netdev.h>

#include "fcq.h"
#include "trace.h"
#include "../core/frames.h"
#include "../core/link.h"

static unsigned int drop_malformed(struct fcq_port *port, u64 *counter)
{
	spin_lock(&port->pause_lock);
	(*counter)++;
	spin_unlock(&port->pause_lock);
	trace_drop(port->dev, 0, FCQ_DROP_RX_MALFORMED, 0);
	return NF_DROP;
}

static unsigned int fcq_rx_hook(void *priv, struct sk_buff *skb,
				const struct nf_hook_state *state)
{
	struct fcq_port *port = priv;
	u8 frame[FCQ_ETH_ZLEN] = { 0 };
	u64 now, ns, rate, max, stop;
	bool sooner = false;
	struct fcq_macctl m;
	u8 lossless, applied = 0;
	unsigned int len;
	int p;

	if (skb->protocol != htons(ETH_P_PAUSE))
		return NF_ACCEPT;

	/* The frame from its destination MAC: the mac header is linear. */
	len = skb_mac_header_len(skb) + skb->len;
	if (skb_mac_header_len(skb) != ETH_HLEN)
		return drop_malformed(port, &port->st.rx_malformed);
	memcpy(frame, skb_mac_header(skb), ETH_HLEN);
	if (skb_copy_bits(skb, 0, frame + ETH_HLEN,
			  min_t(unsigned int, len, FCQ_ETH_ZLEN) - ETH_HLEN))
		return drop_malformed(port, &port->st.rx_malformed);

	switch (fcq_macctl_parse(frame, len, &m)) {
	case FCQ_FRAME_OK:
		break;
	case FCQ_FRAME_BAD_OPCODE:
		return drop_malformed(port, &port->st.rx_bad_opcode);
	default:
		return drop_malformed(port, &port->st.rx_malformed);
	}

	now = ktime_get_ns();
	rate = READ_ONCE(port->cfg.rate);
	max = READ_ONCE(port->cfg.pause_max);
	lossless = READ_ONCE(port->cfg.lossless);

	spin_lock(&port->pause_lock);
	if (m.opcode == FCQ_MACCTL_PAUSE)
		port->st.rx_pause++;
	for (p = 0; p < FCQ_NUM_PRIO; p++) {
		if (!(m.enable & BIT(p)))
			continue;
		/* 802.3x PAUSE stops the whole link, lossless or not. */
		if (m.opcode == FCQ_MACCTL_PFC && !(lossless & BIT(p))) {
			port->st.rx_not_lossless++;
			continue;
		}
		ns = fcq_quanta_to_ns(m.quanta[p], rate);
		if (max && ns > max) {
			port->st.rx_over_max++;
			continue;
		}
		/* Override semantics: a resume or shorter pause wakes us. */
		if (now + ns < port->pause[p].until)
			sooner = true;
		fcq_pause_set(&port->pause[p], now, ns);
		port->st.pfc_rx[p]++;
		applied |= BIT(p);
	}
	spin_unlock(&port->pause_lock);

	if (applied) {
		/* The paused classes fall silent once the frame being
		 * serialized, if any, is out.
		 */
		stop = max(now, READ_ONCE(port->tx_free));
		trace_pause_rx(port->dev, m.opcode, applied, m.quanta, now, stop);
		fcq_genl_pause_event(port, FCQ_EVENT_PAUSE_RX, applied,
				     m.quanta, now);
	}
	if (sooner)
		fcq_port_kick(port);
	consume_skb(skb);
	return NF_STOLEN;
}

int fcq_rx_register(struct fcq_port *port, struct netlink_ext_ack *extack)
{
	int err;

	port->nfho = (struct nf_hook_ops){
		.hook = fcq_rx_hook,
		.pf = NFPROTO_NETDEV,
		.hooknum = NF_NETDEV_INGRESS,
		.priority = INT_MIN + 1,	/* before any nftables chain */
		.dev = port->dev,
		.priv = port,
	};
	err = nf_register_net_hook(dev_net(port->dev), &port->nfho);
	if (err) {
		NL_SET_ERR_MSG_MOD(extack, "cannot hook the device's ingress");
		return err;
	}
	port->hooked = true;
	return 0;
}

void fcq_rx_unregister(struct fcq_port *port)
{
	if (!port->hooked)
		return;
	/* Waits for hooks in flight: the port outlives them. */
	nf_unregister_net_hook(dev_net(port->dev), &port->nfho);
	port->hooked = false;
}
