/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Flow keys: what a keyed pause names. A key is taken from a packet's IPv4
 * or IPv6 header at one of three granularities (address pair, destination,
 * 5-tuple), hashed and compared for the flow tables, and carried in keyed
 * PAUSE/RESUME frames in the wire forms below.
 *
 * The key is parsed from raw header bytes rather than by the kernel's flow
 * dissector, so the unit tests run the very code the kernel runs. There is
 * no extension-header walk: an IPv6 packet's 5-tuple uses the next header
 * of the fixed header, and carries ports only when that is TCP or UDP.
 *
 * Wire forms (addresses and ports in network order, pad zero on send and
 * ignored on receipt):
 *
 *   1 PAIR4   8 B: saddr(4) daddr(4)
 *   2 PAIR6  32 B: saddr(16) daddr(16)
 *   3 DST4    4 B: daddr(4)
 *   4 DST6   16 B: daddr(16)
 *   5 TUPLE4 16 B: saddr(4) daddr(4) sport(2) dport(2) proto(1) pad(3)
 *   6 TUPLE6 40 B: saddr(16) daddr(16) sport(2) dport(2) proto(1) pad(3)
 */
#ifndef FCQ_CORE_KEY_H
#define FCQ_CORE_KEY_H

#include "core.h"

#define FCQ_ETHERTYPE_IPV4	0x0800
#define FCQ_ETHERTYPE_IPV6	0x86dd

/*
 * Network header bytes that always suffice for fcq_key_parse(): a 60-byte
 * IPv4 header (IHL 15) and the two ports after it.
 */
#define FCQ_KEY_HDR_MAX		64

enum fcq_key_type {
	FCQ_KEY_NONE,
	FCQ_KEY_PAIR,		/* saddr, daddr */
	FCQ_KEY_DST,		/* daddr */
	FCQ_KEY_5TUPLE,		/* saddr, daddr, proto, sport, dport */
};

/* Wire key types (keyed frames' key_type byte); 0 is none. */
#define FCQ_WK_NONE		0
#define FCQ_WK_PAIR4		1
#define FCQ_WK_PAIR6		2
#define FCQ_WK_DST4		3
#define FCQ_WK_DST6		4
#define FCQ_WK_TUPLE4		5
#define FCQ_WK_TUPLE6		6
#define FCQ_WK_MAX_SIZE		40	/* the largest entry, TUPLE6 */

/*
 * 40 bytes, always fully zero-filled (fields a type does not use included),
 * so that the hash and the compare may work on the raw bytes.
 */
struct fcq_fkey {
	u8 type;		/* enum fcq_key_type */
	u8 family;		/* 4 or 6 */
	u8 proto;		/* 5-tuple only */
	u8 pad;
	u16 sport, dport;	/* 5-tuple only, host order */
	u8 saddr[16];		/* network order; IPv4 in the first 4 bytes */
	u8 daddr[16];		/* DST leaves saddr zero */
};

/*
 * Take the key of @type (enum fcq_key_type) from the network header at @nh,
 * of which @len bytes are available, carried in a frame of @ethertype.
 * Returns 0, or -1 when the packet has no such key: not IPv4/IPv6, a bad
 * version or IHL, or fewer bytes than the key needs (@k is then zero).
 * The 5-tuple of a non-first IPv4 fragment has the protocol but no ports,
 * as has that of a protocol other than TCP and UDP.
 */
int fcq_key_parse(const u8 *nh, size_t len, u16 ethertype, u8 type,
		  struct fcq_fkey *k);

/* Hash of @k, different for each @seed. Local only: never on the wire. */
u32 fcq_key_hash(const struct fcq_fkey *k, u32 seed);

static inline bool fcq_key_eq(const struct fcq_fkey *a,
			      const struct fcq_fkey *b)
{
	return !memcmp(a, b, sizeof(*a));
}

/* The wire key type of @k (FCQ_WK_*), FCQ_WK_NONE if it has none. */
u8 fcq_key_wire(const struct fcq_fkey *k);

/* The key type (enum fcq_key_type) of wire key type @wk; NONE if unknown. */
u8 fcq_key_wire_type(u8 wk);

/* Bytes of one entry of wire key type @wk; 0 for an unknown type. */
size_t fcq_key_wire_size(u8 wk);

/* Write @k's wire form at @p; returns the bytes written (0: no wire form). */
size_t fcq_key_encode(u8 *p, const struct fcq_fkey *k);

/*
 * Read one entry of wire key type @wk at @p (fcq_key_wire_size(@wk) bytes)
 * into @k. Returns 0, or -1 for an unknown wire key type.
 */
int fcq_key_decode(const u8 *p, u8 wk, struct fcq_fkey *k);

#endif /* FCQ_CORE_KEY_H */
