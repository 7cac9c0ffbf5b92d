// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of core/key.c: keys from IPv4/IPv6 headers, the hash and the
 * wire forms. Every parse reads from a heap copy of exactly the length it
 * is given, so that ASan catches a read past it.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "core/key.h"

#define ETH_IP	FCQ_ETHERTYPE_IPV4
#define ETH_IP6	FCQ_ETHERTYPE_IPV6

static const u8 a4[4] = { 10, 0, 0, 1 }, b4[4] = { 192, 168, 7, 200 };
static const u8 a6[16] = { 0x20, 0x01, 0x0d, 0xb8, [15] = 0x01 };
static const u8 b6[16] = { 0xfd, 0x00, 0x12, 0x34, [8] = 0xaa, [15] = 0x02 };

/* An IPv4 header of @ihl words, then ports 0x1234 -> 0xabcd. */
static size_t ip4(u8 *b, int ihl, u8 proto, u16 frag)
{
	size_t l4 = ihl * 4;

	memset(b, 0, l4 + 8);
	b[0] = 0x40 | ihl;
	b[6] = frag >> 8;	/* flags and fragment offset */
	b[7] = frag & 0xff;
	b[8] = 64;
	b[9] = proto;
	memcpy(b + 12, a4, 4);
	memcpy(b + 16, b4, 4);
	if (ihl > 5)
		b[20] = 1;	/* NOP options */
	memcpy(b + l4, "\x12\x34\xab\xcd", 4);
	return l4 + 8;
}

static size_t ip6(u8 *b, u8 next)
{
	memset(b, 0, 48);
	b[0] = 0x60;
	b[6] = next;
	b[7] = 64;
	memcpy(b + 8, a6, 16);
	memcpy(b + 24, b6, 16);
	memcpy(b + 40, "\x12\x34\xab\xcd", 4);
	return 48;
}

static int parse(const u8 *h, size_t len, u16 et, u8 type, struct fcq_fkey *k)
{
	u8 *copy = malloc(len ? len : 1);
	int rc;

	memcpy(copy, h, len);
	rc = fcq_key_parse(copy, len, et, type, k);
	free(copy);
	return rc;
}

static struct fcq_fkey key(u8 type, u8 family, u8 proto, u16 sp, u16 dp)
{
	struct fcq_fkey k;
	size_t alen = family == 4 ? 4 : 16;

	memset(&k, 0, sizeof(k));
	k.type = type;
	k.family = family;
	k.proto = proto;
	k.sport = sp;
	k.dport = dp;
	if (type != FCQ_KEY_DST)
		memcpy(k.saddr, family == 4 ? a4 : a6, alen);
	memcpy(k.daddr, family == 4 ? b4 : b6, alen);
	return k;
}

/* Parse @h whole, and check it against @want byte for byte. */
static void expect(const u8 *h, size_t len, u16 et, u8 type,
		   struct fcq_fkey want)
{
	struct fcq_fkey k;

	memset(&k, 0xee, sizeof(k));
	assert_int_equal(parse(h, len, et, type, &k), 0);
	assert_memory_equal(&k, &want, sizeof(k));
}

static void layout(void **state)
{
	assert_int_equal(sizeof(struct fcq_fkey), 40);
	assert_int_equal(offsetof(struct fcq_fkey, sport), 4);
	assert_int_equal(offsetof(struct fcq_fkey, saddr), 8);
	assert_int_equal(offsetof(struct fcq_fkey, daddr), 24);
}

static void ipv4_keys(void **state)
{
	u8 h[80];
	size_t n = ip4(h, 5, 6, 0);

	expect(h, n, ETH_IP, FCQ_KEY_PAIR, key(FCQ_KEY_PAIR, 4, 0, 0, 0));
	expect(h, n, ETH_IP, FCQ_KEY_DST, key(FCQ_KEY_DST, 4, 0, 0, 0));
	expect(h, n, ETH_IP, FCQ_KEY_5TUPLE,
	       key(FCQ_KEY_5TUPLE, 4, 6, 0x1234, 0xabcd));
	n = ip4(h, 5, 17, 0);
	expect(h, n, ETH_IP, FCQ_KEY_5TUPLE,
	       key(FCQ_KEY_5TUPLE, 4, 17, 0x1234, 0xabcd));
	/* Ports follow the options. */
	n = ip4(h, 15, 6, 0);
	assert_int_equal(n, FCQ_KEY_HDR_MAX + 4);
	expect(h, FCQ_KEY_HDR_MAX, ETH_IP, FCQ_KEY_5TUPLE,
	       key(FCQ_KEY_5TUPLE, 4, 6, 0x1234, 0xabcd));
	n = ip4(h, 7, 17, 0);
	expect(h, n, ETH_IP, FCQ_KEY_5TUPLE,
	       key(FCQ_KEY_5TUPLE, 4, 17, 0x1234, 0xabcd));
	/* Options play no part in a pair. */
	expect(h, n, ETH_IP, FCQ_KEY_PAIR, key(FCQ_KEY_PAIR, 4, 0, 0, 0));
	/* Other protocols: proto, no ports. */
	n = ip4(h, 5, 1, 0);
	expect(h, n, ETH_IP, FCQ_KEY_5TUPLE, key(FCQ_KEY_5TUPLE, 4, 1, 0, 0));
}

static void ipv4_fragments(void **state)
{
	u8 h[80];
	size_t n;

	/* Non-first fragments (offset != 0, with or without MF): no ports. */
	n = ip4(h, 5, 17, 0x2000 | 185);
	expect(h, n, ETH_IP, FCQ_KEY_5TUPLE, key(FCQ_KEY_5TUPLE, 4, 17, 0, 0));
	n = ip4(h, 5, 6, 0x1fff);
	expect(h, n, ETH_IP, FCQ_KEY_5TUPLE, key(FCQ_KEY_5TUPLE, 4, 6, 0, 0));
	n = ip4(h, 5, 6, 0x0100);
	expect(h, n, ETH_IP, FCQ_KEY_5TUPLE, key(FCQ_KEY_5TUPLE, 4, 6, 0, 0));
	/* ... and so need no bytes past the header. */
	expect(h, 20, ETH_IP, FCQ_KEY_5TUPLE, key(FCQ_KEY_5TUPLE, 4, 6, 0, 0));
	/* The first fragment (MF, offset 0) and DF carry the ports. */
	n = ip4(h, 5, 17, 0x2000);
	expect(h, n, ETH_IP, FCQ_KEY_5TUPLE,
	       key(FCQ_KEY_5TUPLE, 4, 17, 0x1234, 0xabcd));
	n = ip4(h, 5, 17, 0x4000);
	expect(h, n, ETH_IP, FCQ_KEY_5TUPLE,
	       key(FCQ_KEY_5TUPLE, 4, 17, 0x1234, 0xabcd));
}

static void ipv6_keys(void **state)
{
	u8 h[48];
	size_t n = ip6(h, 6);

	expect(h, n, ETH_IP6, FCQ_KEY_PAIR, key(FCQ_KEY_PAIR, 6, 0, 0, 0));
	expect(h, n, ETH_IP6, FCQ_KEY_DST, key(FCQ_KEY_DST, 6, 0, 0, 0));
	expect(h, n, ETH_IP6, FCQ_KEY_5TUPLE,
	       key(FCQ_KEY_5TUPLE, 6, 6, 0x1234, 0xabcd));
	n = ip6(h, 17);
	expect(h, n, ETH_IP6, FCQ_KEY_5TUPLE,
	       key(FCQ_KEY_5TUPLE, 6, 17, 0x1234, 0xabcd));
	/* No extension-header walk: a fragment header gives proto 44. */
	ip6(h, 44);
	expect(h, 40, ETH_IP6, FCQ_KEY_5TUPLE,
	       key(FCQ_KEY_5TUPLE, 6, 44, 0, 0));
	n = ip6(h, 58);
	expect(h, n, ETH_IP6, FCQ_KEY_5TUPLE,
	       key(FCQ_KEY_5TUPLE, 6, 58, 0, 0));
}

/* Every length short of @need gives no key, @need gives one. */
static void short_of(const u8 *h, size_t need, u16 et, u8 type)
{
	struct fcq_fkey k, zero;
	size_t len;

	memset(&zero, 0, sizeof(zero));
	for (len = 0; len < need; len++) {
		assert_int_equal(parse(h, len, et, type, &k), -1);
		assert_memory_equal(&k, &zero, sizeof(k));
	}
	assert_int_equal(parse(h, need, et, type, &k), 0);
}

static void truncated(void **state)
{
	u8 h[80];

	ip4(h, 5, 6, 0);
	short_of(h, 20, ETH_IP, FCQ_KEY_PAIR);
	short_of(h, 20, ETH_IP, FCQ_KEY_DST);
	short_of(h, 24, ETH_IP, FCQ_KEY_5TUPLE);
	ip4(h, 7, 17, 0);
	short_of(h, 32, ETH_IP, FCQ_KEY_5TUPLE);
	short_of(h, 20, ETH_IP, FCQ_KEY_PAIR);
	ip4(h, 15, 6, 0);
	short_of(h, FCQ_KEY_HDR_MAX, ETH_IP, FCQ_KEY_5TUPLE);
	ip4(h, 5, 47, 0);	/* GRE: no ports needed */
	short_of(h, 20, ETH_IP, FCQ_KEY_5TUPLE);
	ip6(h, 17);
	short_of(h, 40, ETH_IP6, FCQ_KEY_PAIR);
	short_of(h, 40, ETH_IP6, FCQ_KEY_DST);
	short_of(h, 44, ETH_IP6, FCQ_KEY_5TUPLE);
	ip6(h, 58);
	short_of(h, 40, ETH_IP6, FCQ_KEY_5TUPLE);
}

static void no_key(void **state)
{
	struct fcq_fkey k;
	u8 h[80];
	size_t n = ip4(h, 5, 6, 0);

	/* Not IP: ARP, a VLAN tag, 0. */
	assert_int_equal(parse(h, n, 0x0806, FCQ_KEY_PAIR, &k), -1);
	assert_int_equal(parse(h, n, 0x8100, FCQ_KEY_PAIR, &k), -1);
	assert_int_equal(parse(h, n, 0, FCQ_KEY_PAIR, &k), -1);
	/* No such key type. */
	assert_int_equal(parse(h, n, ETH_IP, FCQ_KEY_NONE, &k), -1);
	assert_int_equal(parse(h, n, ETH_IP, FCQ_KEY_5TUPLE + 1, &k), -1);
	/* An IPv4 header under the IPv6 EtherType, and the reverse. */
	assert_int_equal(parse(h, n, ETH_IP6, FCQ_KEY_PAIR, &k), -1);
	n = ip6(h, 6);
	assert_int_equal(parse(h, n, ETH_IP, FCQ_KEY_PAIR, &k), -1);
	/* Other versions; an IHL below 5. */
	n = ip4(h, 5, 6, 0);
	h[0] = 0x55;
	assert_int_equal(parse(h, n, ETH_IP, FCQ_KEY_PAIR, &k), -1);
	h[0] = 0x44;
	assert_int_equal(parse(h, n, ETH_IP, FCQ_KEY_PAIR, &k), -1);
	h[0] = 0x40;
	assert_int_equal(parse(h, n, ETH_IP, FCQ_KEY_PAIR, &k), -1);
	n = ip6(h, 6);
	h[0] = 0x70;
	assert_int_equal(parse(h, n, ETH_IP6, FCQ_KEY_PAIR, &k), -1);
}

static void hash(void **state)
{
	struct fcq_fkey k = key(FCQ_KEY_5TUPLE, 4, 6, 1000, 80), j;
	u32 h = fcq_key_hash(&k, 7), count[64] = { 0 };
	u8 raw[40];
	int i, bit;

	/* The kernel's jhash2() over the ten words (little-endian). */
	for (i = 0; i < 40; i++)
		raw[i] = i;
	memcpy(&j, raw, sizeof(j));
	assert_int_equal(fcq_key_hash(&j, 0), 0x1c9fa888);
	assert_int_equal(fcq_key_hash(&j, 0x12345678), 0xc2289b0a);

	j = key(FCQ_KEY_5TUPLE, 4, 6, 1000, 80);
	assert_int_equal(fcq_key_hash(&j, 7), h);
	assert_true(fcq_key_eq(&j, &k));
	for (i = 0; i < 16; i++)
		assert_int_not_equal(fcq_key_hash(&k, i), fcq_key_hash(&k, ~i));
	assert_int_not_equal(fcq_key_hash(&k, 7), fcq_key_hash(&k, 8));
	/* Every bit of the key counts. */
	for (bit = 0; bit < 320; bit++) {
		memcpy(&j, &k, sizeof(j));
		((u8 *)&j)[bit / 8] ^= 1 << (bit % 8);
		assert_false(fcq_key_eq(&j, &k));
		assert_int_not_equal(fcq_key_hash(&j, 7), h);
	}
	/* Sequential ports spread evenly over 64 buckets (mean 64). */
	for (i = 0; i < 4096; i++) {
		j.sport = i;
		count[fcq_key_hash(&j, 7) & 63]++;
	}
	for (i = 0; i < 64; i++)
		assert_in_range(count[i], 32, 96);
}

static void round_trip(const struct fcq_fkey *k, u8 wk, size_t size)
{
	struct fcq_fkey d;
	u8 buf[FCQ_WK_MAX_SIZE + 1];

	assert_int_equal(fcq_key_wire(k), wk);
	assert_int_equal(fcq_key_wire_size(wk), size);
	memset(buf, 0xee, sizeof(buf));
	assert_int_equal(fcq_key_encode(buf, k), size);
	assert_int_equal(buf[size], 0xee);	/* nothing past the entry */
	memset(&d, 0xee, sizeof(d));
	assert_int_equal(fcq_key_decode(buf, wk, &d), 0);
	assert_true(fcq_key_eq(&d, k));
}

static void wire(void **state)
{
	struct fcq_fkey k, d;
	u8 buf[FCQ_WK_MAX_SIZE];

	k = key(FCQ_KEY_PAIR, 4, 0, 0, 0);
	round_trip(&k, FCQ_WK_PAIR4, 8);
	fcq_key_encode(buf, &k);
	assert_memory_equal(buf, "\x0a\x00\x00\x01\xc0\xa8\x07\xc8", 8);
	k = key(FCQ_KEY_PAIR, 6, 0, 0, 0);
	round_trip(&k, FCQ_WK_PAIR6, 32);
	fcq_key_encode(buf, &k);
	assert_memory_equal(buf, a6, 16);
	assert_memory_equal(buf + 16, b6, 16);
	k = key(FCQ_KEY_DST, 4, 0, 0, 0);
	round_trip(&k, FCQ_WK_DST4, 4);
	fcq_key_encode(buf, &k);
	assert_memory_equal(buf, b4, 4);
	k = key(FCQ_KEY_DST, 6, 0, 0, 0);
	round_trip(&k, FCQ_WK_DST6, 16);
	k = key(FCQ_KEY_5TUPLE, 4, 17, 0x1234, 0xabcd);
	round_trip(&k, FCQ_WK_TUPLE4, 16);
	fcq_key_encode(buf, &k);
	assert_memory_equal(buf, "\x0a\x00\x00\x01\xc0\xa8\x07\xc8"
			    "\x12\x34\xab\xcd\x11\x00\x00\x00", 16);
	/* The pad is ignored on receipt. */
	buf[13] = 0xff;
	buf[15] = 0x01;
	assert_int_equal(fcq_key_decode(buf, FCQ_WK_TUPLE4, &d), 0);
	assert_true(fcq_key_eq(&d, &k));
	k = key(FCQ_KEY_5TUPLE, 6, 6, 443, 65535);
	round_trip(&k, FCQ_WK_TUPLE6, 40);
	fcq_key_encode(buf, &k);
	assert_memory_equal(buf + 32, "\x01\xbb\xff\xff\x06\x00\x00\x00", 8);

	/* Unknown wire types; keys without a wire form. */
	assert_int_equal(fcq_key_decode(buf, FCQ_WK_NONE, &d), -1);
	assert_int_equal(fcq_key_decode(buf, FCQ_WK_TUPLE6 + 1, &d), -1);
	assert_int_equal(fcq_key_decode(buf, 0xff, &d), -1);
	assert_int_equal(fcq_key_wire_size(FCQ_WK_NONE), 0);
	assert_int_equal(fcq_key_wire_size(FCQ_WK_TUPLE6 + 1), 0);
	memset(&k, 0, sizeof(k));
	assert_int_equal(fcq_key_wire(&k), FCQ_WK_NONE);
	assert_int_equal(fcq_key_encode(buf, &k), 0);
	k = key(FCQ_KEY_PAIR, 5, 0, 0, 0);
	assert_int_equal(fcq_key_wire(&k), FCQ_WK_NONE);

	/* A wire type's key type, whatever the family. */
	assert_int_equal(fcq_key_wire_type(FCQ_WK_PAIR4), FCQ_KEY_PAIR);
	assert_int_equal(fcq_key_wire_type(FCQ_WK_PAIR6), FCQ_KEY_PAIR);
	assert_int_equal(fcq_key_wire_type(FCQ_WK_DST6), FCQ_KEY_DST);
	assert_int_equal(fcq_key_wire_type(FCQ_WK_TUPLE4), FCQ_KEY_5TUPLE);
	assert_int_equal(fcq_key_wire_type(FCQ_WK_NONE), FCQ_KEY_NONE);
	assert_int_equal(fcq_key_wire_type(FCQ_WK_TUPLE6 + 1), FCQ_KEY_NONE);
	assert_int_equal(fcq_key_wire_type(0xff), FCQ_KEY_NONE);
}

/* Keys parsed from packets survive the wire unchanged. */
static void parsed_round_trip(void **state)
{
	static const struct {
		u16 et;
		u8 type, wk;
	} c[] = {
		{ ETH_IP, FCQ_KEY_PAIR, FCQ_WK_PAIR4 },
		{ ETH_IP6, FCQ_KEY_PAIR, FCQ_WK_PAIR6 },
		{ ETH_IP, FCQ_KEY_DST, FCQ_WK_DST4 },
		{ ETH_IP6, FCQ_KEY_DST, FCQ_WK_DST6 },
		{ ETH_IP, FCQ_KEY_5TUPLE, FCQ_WK_TUPLE4 },
		{ ETH_IP6, FCQ_KEY_5TUPLE, FCQ_WK_TUPLE6 },
	};
	struct fcq_fkey k;
	u8 h[80];
	size_t i, n;

	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		n = c[i].et == ETH_IP ? ip4(h, 6, 17, 0) : ip6(h, 17);
		assert_int_equal(parse(h, n, c[i].et, c[i].type, &k), 0);
		round_trip(&k, c[i].wk, fcq_key_wire_size(c[i].wk));
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(layout),
		cmocka_unit_test(ipv4_keys),
		cmocka_unit_test(ipv4_fragments),
		cmocka_unit_test(ipv6_keys),
		cmocka_unit_test(truncated),
		cmocka_unit_test(no_key),
		cmocka_unit_test(hash),
		cmocka_unit_test(wire),
		cmocka_unit_test(parsed_round_trip),
	};

	return cmocka_run_group_tests_name("core/key", tests, NULL, NULL);
}
