// SPDX-License-Identifier: GPL-2.0
/* A packet's flow key, from its IP header by core/key.c. */
#include "fcq.h"

int fcq_skb_key(const struct sk_buff *skb, u8 type, struct fcq_fkey *k)
{
	int off = skb_network_offset(skb);
	int len = min_t(int, skb->len - off, FCQ_KEY_HDR_MAX);
	u8 buf[FCQ_KEY_HDR_MAX];
	const u8 *nh;

	if (len <= 0)
		return -1;
	nh = skb_header_pointer(skb, off, len, buf);
	if (!nh)
		return -1;
	return fcq_key_parse(nh, len, ntohs(skb_protocol(skb, true)), type, k);
}
EXPORT_SYMBOL_GPL(fcq_skb_key);
