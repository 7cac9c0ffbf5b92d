// SPDX-License-Identifier: GPL-2.0
/*
 * Flow keys from IP headers, their hash and their wire forms (see key.h).
 */
#include "key.h"

#define IPV4_HLEN	20
#define IPV6_HLEN	40
#define PROTO_TCP	6
#define PROTO_UDP	17

static u16 get_be16(const u8 *p)
{
	return (u16)(p[0] << 8 | p[1]);
}

static void put_be16(u8 *p, u16 v)
{
	p[0] = v >> 8;
	p[1] = v & 0xff;
}

int fcq_key_parse(const u8 *nh, size_t len, u16 ethertype, u8 type,
		  struct fcq_fkey *k)
{
	size_t hlen, l4, alen;
	const u8 *sa, *da;
	u8 proto, family;
	bool ports;

	memset(k, 0, sizeof(*k));
	if (type != FCQ_KEY_PAIR && type != FCQ_KEY_DST &&
	    type != FCQ_KEY_5TUPLE)
		return -1;
	switch (ethertype) {
	case FCQ_ETHERTYPE_IPV4:
		if (len < IPV4_HLEN || nh[0] >> 4 != 4)
			return -1;
		l4 = (nh[0] & 0xf) * 4;
		if (l4 < IPV4_HLEN)
			return -1;
		hlen = IPV4_HLEN;
		family = 4;
		alen = 4;
		sa = nh + 12;
		da = nh + 16;
		proto = nh[9];
		/* Only the first fragment carries the transport header. */
		ports = !((nh[6] & 0x1f) | nh[7]);
		break;
	case FCQ_ETHERTYPE_IPV6:
		if (len < IPV6_HLEN || nh[0] >> 4 != 6)
			return -1;
		hlen = IPV6_HLEN;
		l4 = IPV6_HLEN;
		family = 6;
		alen = 16;
		sa = nh + 8;
		da = nh + 24;
		proto = nh[6];
		ports = true;
		break;
	default:
		return -1;
	}
	ports = ports && type == FCQ_KEY_5TUPLE &&
		(proto == PROTO_TCP || proto == PROTO_UDP);
	if (len < (ports ? l4 + 4 : hlen))
		return -1;

	k->type = type;
	k->family = family;
	memcpy(k->daddr, da, alen);
	if (type == FCQ_KEY_DST)
		return 0;
	memcpy(k->saddr, sa, alen);
	if (type == FCQ_KEY_5TUPLE)
		k->proto = proto;
	if (ports) {
		k->sport = get_be16(nh + l4);
		k->dport = get_be16(nh + l4 + 2);
	}
	return 0;
}

/*
 * Bob Jenkins' lookup3 hashword() (public domain), the kernel's jhash2():
 * for a key of ten 32-bit words it returns what jhash2() does on a
 * little-endian CPU. Written out because core/ may not use linux/jhash.h.
 * The words are assembled from bytes since the key is only 2-byte aligned.
 * A random per-table seed keeps senders from aiming flows at one bucket.
 */
static u32 rol(u32 x, int s)
{
	return x << s | x >> (32 - s);
}

static u32 get_le32(const u8 *p)
{
	return (u32)p[0] | (u32)p[1] << 8 | (u32)p[2] << 16 | (u32)p[3] << 24;
}

static void jmix(u32 *a, u32 *b, u32 *c)
{
	*a -= *c;
	*a ^= rol(*c, 4);
	*c += *b;
	*b -= *a;
	*b ^= rol(*a, 6);
	*a += *c;
	*c -= *b;
	*c ^= rol(*b, 8);
	*b += *a;
	*a -= *c;
	*a ^= rol(*c, 16);
	*c += *b;
	*b -= *a;
	*b ^= rol(*a, 19);
	*a += *c;
	*c -= *b;
	*c ^= rol(*b, 4);
	*b += *a;
}

static void jfinal(u32 *a, u32 *b, u32 *c)
{
	*c ^= *b;
	*c -= rol(*b, 14);
	*a ^= *c;
	*a -= rol(*c, 11);
	*b ^= *a;
	*b -= rol(*a, 25);
	*c ^= *b;
	*c -= rol(*b, 16);
	*a ^= *c;
	*a -= rol(*c, 4);
	*b ^= *a;
	*b -= rol(*a, 14);
	*c ^= *b;
	*c -= rol(*b, 24);
}

u32 fcq_key_hash(const struct fcq_fkey *k, u32 seed)
{
	const u8 *p = (const u8 *)k;
	u32 a, b, c;
	size_t i;

	a = 0xdeadbeef + sizeof(*k) + seed;
	b = a;
	c = a;
	/* 40 bytes: three rounds of 12, then the last word alone. */
	for (i = 0; i + 12 < sizeof(*k); i += 12) {
		a += get_le32(p + i);
		b += get_le32(p + i + 4);
		c += get_le32(p + i + 8);
		jmix(&a, &b, &c);
	}
	a += get_le32(p + i);
	jfinal(&a, &b, &c);
	return c;
}

/* The wire forms, indexed by wire key type; entry 0 is none. */
static const struct {
	u8 type, family, alen;
} wire_forms[FCQ_WK_TUPLE6 + 1] = {
	[FCQ_WK_PAIR4] = { FCQ_KEY_PAIR, 4, 4 },
	[FCQ_WK_PAIR6] = { FCQ_KEY_PAIR, 6, 16 },
	[FCQ_WK_DST4] = { FCQ_KEY_DST, 4, 4 },
	[FCQ_WK_DST6] = { FCQ_KEY_DST, 6, 16 },
	[FCQ_WK_TUPLE4] = { FCQ_KEY_5TUPLE, 4, 4 },
	[FCQ_WK_TUPLE6] = { FCQ_KEY_5TUPLE, 6, 16 },
};

u8 fcq_key_wire(const struct fcq_fkey *k)
{
	u8 wk;

	for (wk = FCQ_WK_PAIR4; wk <= FCQ_WK_TUPLE6; wk++)
		if (wire_forms[wk].type == k->type &&
		    wire_forms[wk].family == k->family)
			return wk;
	return FCQ_WK_NONE;
}

u8 fcq_key_wire_type(u8 wk)
{
	return wk <= FCQ_WK_TUPLE6 ? wire_forms[wk].type : FCQ_KEY_NONE;
}

size_t fcq_key_wire_size(u8 wk)
{
	size_t alen;

	if (wk == FCQ_WK_NONE || wk > FCQ_WK_TUPLE6)
		return 0;
	alen = wire_forms[wk].alen;
	switch (wire_forms[wk].type) {
	case FCQ_KEY_DST:
		return alen;
	case FCQ_KEY_PAIR:
		return 2 * alen;
	default:
		return 2 * alen + 8;	/* ports, proto, pad */
	}
}

size_t fcq_key_encode(u8 *p, const struct fcq_fkey *k)
{
	u8 wk = fcq_key_wire(k);
	size_t alen = wire_forms[wk].alen;
	u8 *q = p;

	if (wk == FCQ_WK_NONE)
		return 0;
	if (k->type != FCQ_KEY_DST) {
		memcpy(q, k->saddr, alen);
		q += alen;
	}
	memcpy(q, k->daddr, alen);
	q += alen;
	if (k->type == FCQ_KEY_5TUPLE) {
		put_be16(q, k->sport);
		put_be16(q + 2, k->dport);
		q[4] = k->proto;
		memset(q + 5, 0, 3);
		q += 8;
	}
	return q - p;
}

int fcq_key_decode(const u8 *p, u8 wk, struct fcq_fkey *k)
{
	size_t alen;

	memset(k, 0, sizeof(*k));
	if (wk == FCQ_WK_NONE || wk > FCQ_WK_TUPLE6)
		return -1;
	k->type = wire_forms[wk].type;
	k->family = wire_forms[wk].family;
	alen = wire_forms[wk].alen;
	if (k->type != FCQ_KEY_DST) {
		memcpy(k->saddr, p, alen);
		p += alen;
	}
	memcpy(k->daddr, p, alen);
	p += alen;
	if (k->type == FCQ_KEY_5TUPLE) {
		k->sport = get_be16(p);
		k->dport = get_be16(p + 2);
		k->proto = p[4];
	}
	return 0;
}
