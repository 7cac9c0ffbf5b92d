// SPDX-License-Identifier: GPL-2.0
/*
 * Control frames in.
 *
 * One NF_NETDEV_INGRESS hook per fcq port, on the port's own device. It runs
 * in __netif_receive_skb_core() before the rx_handler, so it sees MAC
 * Control frames that a Linux bridge would drop. PFC, 802.3x PAUSE and fcq
 * extension frames are parsed (core/frames.c), checked against this port's
 * configuration, applied to the pause state that gates its serializer, and
 * consumed; bad ones are counted and dropped. Other frames pass untouched.
 */
#include <linux/etherdevice.h>
#include <linux/netfilter_netdev.h>

#include "fcq.h"
#include "trace.h"
#include "../core/frames.h"
#include "../core/link.h"

/* A frame the parser refused: counted by why, and dropped. */
static unsigned int drop_malformed(struct fcq_port *port,
				   enum fcq_frame_err err)
{
	spin_lock(&port->pause_lock);
	if (err == FCQ_FRAME_BAD_OPCODE)
		port->st.rx_bad_opcode++;
	else if (err == FCQ_FRAME_BAD_KEYS)
		port->st.rx_keys_bad++;
	else
		port->st.rx_malformed++;
	spin_unlock(&port->pause_lock);
	trace_drop(port->dev, 0, FCQ_DROP_RX_MALFORMED, 0);
	return NF_DROP;
}

/*
 * Copy the first @max bytes of the frame, from its destination MAC (the
 * mac header is linear), into @frame; returns its length, or 0 if it has
 * no Ethernet header.
 */
static unsigned int frame_copy(struct sk_buff *skb, u8 *frame,
			       unsigned int max)
{
	unsigned int len = skb_mac_header_len(skb) + skb->len;

	if (skb_mac_header_len(skb) != ETH_HLEN)
		return 0;
	memcpy(frame, skb_mac_header(skb), ETH_HLEN);
	if (skb_copy_bits(skb, 0, frame + ETH_HLEN,
			  min(len, max) - ETH_HLEN))
		return 0;
	return len;
}

/* Whether class @p may be paused for @ns here; counts why not. */
static bool acceptable(struct fcq_port *port, bool pfc, int p, u64 ns)
{
	u64 max = READ_ONCE(port->cfg.pause_max);

	/* 802.3x PAUSE stops the whole link, lossless or not. */
	if (pfc && !(READ_ONCE(port->cfg.lossless) & BIT(p))) {
		port->st.rx_not_lossless++;
		return false;
	}
	if (max && ns > max) {
		port->st.rx_over_max++;
		return false;
	}
	return true;
}

/* The paused classes fall silent once the frame being serialized is out. */
static u64 stop_time(struct fcq_port *port, u64 now)
{
	return max(now, READ_ONCE(port->tx_free));
}

/* 802.1Qbb PFC and 802.3x PAUSE: override semantics. */
static unsigned int rx_macctl(struct fcq_port *port, const u8 *frame,
			      unsigned int len)
{
	bool pfc, sooner = false, stops = false;
	enum fcq_frame_err err;
	struct fcq_macctl m;
	u8 applied = 0;
	u64 now, ns;
	int p;

	err = fcq_macctl_parse(frame, len, &m);
	if (err)
		return drop_malformed(port, err);
	pfc = m.opcode == FCQ_MACCTL_PFC;
	now = ktime_get_ns();

	spin_lock(&port->pause_lock);
	if (!pfc)
		port->st.rx_pause++;
	for (p = 0; p < FCQ_NUM_PRIO; p++) {
		if (!(m.enable & BIT(p)))
			continue;
		ns = fcq_quanta_to_ns(m.quanta[p], READ_ONCE(port->cfg.rate));
		if (!acceptable(port, pfc, p, ns))
			continue;
		/* A resume or shorter pause wakes us. */
		if (now + ns < port->pause[p].until)
			sooner = true;
		fcq_pause_set(&port->pause[p], now, ns);
		port->st.pfc_rx[p]++;
		applied |= BIT(p);
		stops |= ns != 0;
		if (ns)
			WRITE_ONCE(port->pfcwd_rx[p], now);
	}
	if (stops)
		WRITE_ONCE(port->pauses_rx, port->pauses_rx + 1);
	spin_unlock(&port->pause_lock);

	if (applied) {
		trace_pause_rx(port->dev, m.opcode, applied, m.quanta, now,
			       stop_time(port, now));
		fcq_genl_pause_event(port, FCQ_EVENT_PAUSE_RX, applied,
				     m.quanta, 0, now);
	}
	if (sooner)
		fcq_port_kick(port);
	return NF_STOLEN;
}

/*
 * fcq extension frames: a timed pause, accumulating or overriding, or a
 * keyed pause or resume (kp.c).
 */
static unsigned int rx_ext(struct fcq_port *port, struct sk_buff *skb,
			   const u8 *frame, unsigned int len)
{
	const u16 none[FCQ_NUM_PRIO] = { 0 };
	struct fcq_pause *pause;
	bool applied = false;
	enum fcq_frame_err err;
	struct fcq_ext f;
	u64 now;

	err = fcq_ext_parse(frame, len, &f);
	if (err)
		return drop_malformed(port, err);
	if (f.type != FCQ_EXT_PAUSE)
		return fcq_kp_rx(port, skb, &f);
	now = ktime_get_ns();
	pause = &port->pause[f.prio];

	spin_lock(&port->pause_lock);
	if (acceptable(port, true, f.prio, f.pause_ns)) {
		if (f.flags & FCQ_EXT_F_ACCUMULATE)
			fcq_pause_extend(pause, now, f.pause_ns);
		else
			fcq_pause_set(pause, now, f.pause_ns);
		port->st.rx_ext++;
		port->st.pfc_rx[f.prio]++;
		if (f.pause_ns) {
			WRITE_ONCE(port->pauses_rx, port->pauses_rx + 1);
			WRITE_ONCE(port->pfcwd_rx[f.prio], now);
		}
		applied = true;
	}
	spin_unlock(&port->pause_lock);

	if (applied)
		fcq_genl_pause_event(port, FCQ_EVENT_PAUSE_RX, BIT(f.prio),
				     none, f.pause_ns, now);
	/* An override may end the pause sooner: let the port look. */
	if (applied && !(f.flags & FCQ_EXT_F_ACCUMULATE))
		fcq_port_kick(port);
	return NF_STOLEN;
}

/* A frame of the EtherType the port's scheme takes (a QCN CNM, say). */
static bool for_scheme(const struct fcq_port *port, const struct sk_buff *skb)
{
	return port->ops->rx && skb->protocol == port->ops->rx_proto;
}

/*
 * A MAC Control or fcq frame, or one for the scheme: out of line, off
 * every data packet's path.
 */
static noinline unsigned int rx_ctrl(struct fcq_port *port,
				     struct sk_buff *skb)
{
	bool scheme = for_scheme(port, skb);
	u8 frame[FCQ_RX_LEN] = { 0 };
	unsigned int len, verdict;

	len = frame_copy(skb, frame, scheme ? FCQ_RX_LEN : FCQ_ETH_ZLEN);
	if (!len)
		return drop_malformed(port, FCQ_FRAME_TRUNCATED);
	if (scheme)
		verdict = port->ops->rx(port, frame,
					min_t(unsigned int, len, FCQ_RX_LEN),
					len);
	else if (skb->protocol == htons(ETH_P_PAUSE))
		verdict = rx_macctl(port, frame, len);
	else
		verdict = rx_ext(port, skb, frame, len);
	if (verdict == NF_STOLEN)
		consume_skb(skb);
	return verdict;
}

static unsigned int fcq_rx_hook(void *priv, struct sk_buff *skb,
				const struct nf_hook_state *state)
{
	struct fcq_port *port = priv;

	if (likely(skb->protocol != htons(ETH_P_PAUSE) &&
		   skb->protocol != htons(FCQ_ETHERTYPE_EXT) &&
		   !for_scheme(port, skb)))
		return NF_ACCEPT;
	return rx_ctrl(port, skb);
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

/* The pauses in effect on @prev, the qdisc @port replaces, go on. RTNL. */
void fcq_rx_take_over(struct fcq_port *port, struct fcq_port *prev)
{
	u64 until[FCQ_NUM_PRIO], now = ktime_get_ns();
	int p;

	spin_lock_bh(&prev->pause_lock);
	for (p = 0; p < FCQ_NUM_PRIO; p++)
		until[p] = prev->pause[p].until;
	spin_unlock_bh(&prev->pause_lock);

	spin_lock_bh(&port->pause_lock);
	for (p = 0; p < FCQ_NUM_PRIO; p++)
		if (until[p] > now)
			fcq_pause_set(&port->pause[p], now, until[p] - now);
	spin_unlock_bh(&port->pause_lock);
}

void fcq_rx_unregister(struct fcq_port *port)
{
	if (!port->hooked)
		return;
	/* Waits for hooks in flight: the port outlives them. */
	nf_unregister_net_hook(dev_net(port->dev), &port->nfho);
	port->hooked = false;
}
