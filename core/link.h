/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Arithmetic of the emulated link: a serializer at `rate`
 * (bytes per second) and PFC pause quanta, which are defined in bit times of
 * that rate (IEEE 802.1Qbb: 1 quantum = 512 bit times = 64 byte times).
 */
#ifndef FCQ_CORE_LINK_H
#define FCQ_CORE_LINK_H

#include "core.h"

#define FCQ_QUANTUM_BYTES	64	/* 512 bit times */
#define FCQ_QUANTA_MAX		0xffff
/* Preamble 8 + FCS 4 + inter-frame gap 12: what a frame costs beyond skb->len. */
#define FCQ_ETH_OVERHEAD	24

/* Time to serialize @bytes at @rate, rounded up. */
static inline u64 fcq_tx_ns(u64 bytes, u64 rate)
{
	return fcq_div64(bytes * FCQ_NS_PER_SEC + rate - 1, rate);
}

/* Bytes the link carries in @ns (what is "in flight" over a delay). */
static inline u64 fcq_bytes_in(u64 ns, u64 rate)
{
	return fcq_mul_div(ns, rate, FCQ_NS_PER_SEC);
}

static inline u64 fcq_quanta_to_ns(u32 quanta, u64 rate)
{
	return fcq_tx_ns((u64)quanta * FCQ_QUANTUM_BYTES, rate);
}

/* The smallest quanta whose pause lasts at least @ns, capped at 16 bits. */
static inline u16 fcq_ns_to_quanta(u64 ns, u64 rate)
{
	u64 q = fcq_mul_div(ns, rate, FCQ_NS_PER_SEC * FCQ_QUANTUM_BYTES);

	while (q < FCQ_QUANTA_MAX && fcq_quanta_to_ns(q, rate) < ns)
		q++;
	return q > FCQ_QUANTA_MAX ? FCQ_QUANTA_MAX : (u16)q;
}

#endif /* FCQ_CORE_LINK_H */
