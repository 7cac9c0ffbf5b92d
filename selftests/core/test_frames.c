// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of core/frames.c: PFC, PAUSE, fcq extension and 802.1Qau CNM
 * frames' byte layouts and parsing, CNMs of version 0 (QCN) and 1 (DSM's
 * signed F_b in place of cnmQOffset and cnmQDelta).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "keys.h"

#include "core/frames.h"

static const u8 src[6] = { 0x02, 0x00, 0x00, 0x00, 0x00, 0x07 };

static void pfc_layout(void **state)
{
	const u16 quanta[8] = { 1, 2, 3, 0xffff, 5, 6, 7, 8 };
	u8 f[64];
	int i;

	memset(f, 0xaa, sizeof(f));
	assert_int_equal(fcq_pfc_build(f, sizeof(f), src, 0x09, quanta), 60);
	assert_memory_equal(f, "\x01\x80\xc2\x00\x00\x01", 6);
	assert_memory_equal(f + 6, src, 6);
	assert_int_equal(f[12], 0x88);
	assert_int_equal(f[13], 0x08);
	assert_int_equal(f[14], 0x01);	/* opcode 0x0101 */
	assert_int_equal(f[15], 0x01);
	assert_int_equal(f[16], 0x00);	/* reserved octet */
	assert_int_equal(f[17], 0x09);	/* classes 0 and 3 */
	assert_int_equal(f[18], 0x00);	/* time[0] = 1 */
	assert_int_equal(f[19], 0x01);
	for (i = 20; i < 24; i++)	/* classes 1, 2 disabled: zero */
		assert_int_equal(f[i], 0);
	assert_int_equal(f[24], 0xff);	/* time[3] = 0xffff */
	assert_int_equal(f[25], 0xff);
	for (i = 26; i < 60; i++)
		assert_int_equal(f[i], 0);
	assert_int_equal(f[60], 0xaa);	/* nothing past 60 bytes */
}

static void pause_layout(void **state)
{
	u8 f[60];
	int i;

	assert_int_equal(fcq_pause_build(f, sizeof(f), src, 0x1234), 60);
	assert_int_equal(f[14], 0x00);	/* opcode 0x0001 */
	assert_int_equal(f[15], 0x01);
	assert_int_equal(f[16], 0x12);
	assert_int_equal(f[17], 0x34);
	for (i = 18; i < 60; i++)
		assert_int_equal(f[i], 0);
}

static void build_needs_room(void **state)
{
	const u16 quanta[8] = { 0 };
	u8 f[59];

	assert_int_equal(fcq_pfc_build(f, sizeof(f), src, 1, quanta), 0);
	assert_int_equal(fcq_pause_build(f, sizeof(f), src, 1), 0);
}

static void pfc_round_trip(void **state)
{
	const u16 quanta[8] = { 10, 20, 30, 40, 50, 60, 70, 0 };
	struct fcq_macctl m;
	u8 f[60];
	int i;

	for (i = 0; i < 256; i++) {
		int c;

		fcq_pfc_build(f, sizeof(f), src, i, quanta);
		assert_int_equal(fcq_macctl_parse(f, 60, &m), FCQ_FRAME_OK);
		assert_int_equal(m.opcode, FCQ_MACCTL_PFC);
		assert_int_equal(m.enable, i);
		for (c = 0; c < 8; c++)
			assert_int_equal(m.quanta[c], i & (1 << c) ? quanta[c] : 0);
	}
}

static void pause_applies_to_all(void **state)
{
	struct fcq_macctl m;
	u8 f[60];
	int c;

	fcq_pause_build(f, sizeof(f), src, 777);
	assert_int_equal(fcq_macctl_parse(f, 60, &m), FCQ_FRAME_OK);
	assert_int_equal(m.opcode, FCQ_MACCTL_PAUSE);
	assert_int_equal(m.enable, 0xff);
	for (c = 0; c < 8; c++)
		assert_int_equal(m.quanta[c], 777);
}

static void parse_rejects(void **state)
{
	const u16 quanta[8] = { 0 };
	struct fcq_macctl m;
	u8 f[60];

	fcq_pfc_build(f, sizeof(f), src, 1, quanta);
	assert_int_equal(fcq_macctl_parse(f, 59, &m), FCQ_FRAME_TRUNCATED);
	assert_int_equal(fcq_macctl_parse(f, 20, &m), FCQ_FRAME_TRUNCATED);

	f[5] = 0x02;	/* 01:80:c2:00:00:02 (slow protocols) */
	assert_int_equal(fcq_macctl_parse(f, 60, &m), FCQ_FRAME_BAD_DST);
	f[5] = 0x01;

	f[15] = 0x02;	/* opcode 0x0102 */
	assert_int_equal(fcq_macctl_parse(f, 60, &m), FCQ_FRAME_BAD_OPCODE);
	f[15] = 0x01;

	f[13] = 0x00;	/* EtherType 0x8800 */
	assert_int_equal(fcq_macctl_parse(f, 60, &m), FCQ_FRAME_NOT_MACCTL);
}

static void parse_ignores_reserved(void **state)
{
	const u16 quanta[8] = { 0, 0, 0, 100 };
	struct fcq_macctl m;
	u8 f[60];

	fcq_pfc_build(f, sizeof(f), src, 0x08, quanta);
	f[16] = 0xff;		/* reserved octet: ignored on receipt */
	f[18] = 0x12;		/* time of a disabled class: ignored */
	assert_int_equal(fcq_macctl_parse(f, 60, &m), FCQ_FRAME_OK);
	assert_int_equal(m.enable, 0x08);
	assert_int_equal(m.quanta[0], 0);
	assert_int_equal(m.quanta[3], 100);
}

static void ext_layout(void **state)
{
	const struct fcq_ext f = {
		.type = FCQ_EXT_PAUSE, .prio = 3,
		.flags = FCQ_EXT_F_ACCUMULATE, .seq = 0x01020304,
		.tx_ns = 0x1122334455667788ULL, .pause_ns = 2500000,
	};
	u8 b[64];
	int i;

	memset(b, 0xaa, sizeof(b));
	assert_int_equal(fcq_ext_build(b, sizeof(b), src, &f), 60);
	assert_memory_equal(b, "\x01\x80\xc2\x00\x00\x01", 6);
	assert_memory_equal(b + 6, src, 6);
	assert_memory_equal(b + 12, "\x88\xb5" "FC" "\x01\x01\x03\x01", 8);
	assert_memory_equal(b + 20, "\x01\x02\x03\x04", 4);
	assert_memory_equal(b + 24, "\x11\x22\x33\x44\x55\x66\x77\x88", 8);
	assert_memory_equal(b + 32, "\x00\x26\x25\xa0", 4);	/* 2500000 */
	for (i = 36; i < 60; i++)
		assert_int_equal(b[i], 0);
	assert_int_equal(b[60], 0xaa);
}

static void ext_round_trip_and_errors(void **state)
{
	const struct fcq_ext f = {
		.type = FCQ_EXT_PAUSE, .prio = 7, .seq = 9,
		.tx_ns = 123456789, .pause_ns = 0xffffffff,
	};
	struct fcq_ext g;
	struct fcq_macctl m;
	u8 b[60], c[60];

	fcq_ext_build(b, sizeof(b), src, &f);
	assert_int_equal(fcq_ext_parse(b, 60, &g), FCQ_FRAME_OK);
	assert_memory_equal(&f, &g, sizeof(f));
	/* An extension frame is not a MAC Control frame, and vice versa. */
	assert_int_equal(fcq_macctl_parse(b, 60, &m), FCQ_FRAME_NOT_MACCTL);
	fcq_pause_build(c, sizeof(c), src, 1);
	assert_int_equal(fcq_ext_parse(c, 60, &g), FCQ_FRAME_NOT_MACCTL);

	assert_int_equal(fcq_ext_parse(b, 59, &g), FCQ_FRAME_TRUNCATED);
	memcpy(c, b, 60);
	c[5] = 0x02;
	assert_int_equal(fcq_ext_parse(c, 60, &g), FCQ_FRAME_BAD_DST);
	memcpy(c, b, 60);
	c[14] = 'X';
	assert_int_equal(fcq_ext_parse(c, 60, &g), FCQ_FRAME_BAD_HEADER);
	memcpy(c, b, 60);
	c[16] = 2;	/* version */
	assert_int_equal(fcq_ext_parse(c, 60, &g), FCQ_FRAME_BAD_HEADER);
	memcpy(c, b, 60);
	c[18] = 8;	/* priority */
	assert_int_equal(fcq_ext_parse(c, 60, &g), FCQ_FRAME_BAD_HEADER);
	memcpy(c, b, 60);
	c[17] = 0x42;	/* type */
	assert_int_equal(fcq_ext_parse(c, 60, &g), FCQ_FRAME_BAD_OPCODE);
	assert_int_equal(fcq_ext_build(c, 59, src, &f), 0);
}

static void keys_layout(void **state)
{
	const struct fcq_ext h = {
		.type = FCQ_EXT_KEYS_PAUSE, .prio = 3,
		.flags = FCQ_EXT_F_ORIGIN | FCQ_EXT_F_MORE, .seq = 7,
		.key_type = FCQ_WK_PAIR4, .count = 3,
	};
	struct fcq_fkey k[3] = {
		test_pair4(1, 9), test_pair4(2, 9), test_pair4(3, 9),
	};
	struct fcq_fkey d;
	struct fcq_ext out;
	u8 f[128];
	int i;

	memset(f, 0xaa, sizeof(f));
	assert_int_equal(fcq_ext_keys_build(f, sizeof(f), src, &h, k), 60);
	assert_int_equal(f[17], FCQ_EXT_KEYS_PAUSE);
	assert_int_equal(f[18], 3);
	assert_int_equal(f[19], 0x0c);
	assert_int_equal(f[32], FCQ_WK_PAIR4);
	assert_int_equal(f[33], 0);		/* reserved */
	assert_int_equal(f[34], 0);		/* count 3 */
	assert_int_equal(f[35], 3);
	/* 10.0.0.1 > 10.0.0.9, then the next two */
	assert_memory_equal(f + 36, "\x0a\x00\x00\x01\x0a\x00\x00\x09", 8);
	assert_int_equal(f[52], 10);
	assert_int_equal(f[55], 3);
	for (i = 60; i < 128; i++)		/* 36 + 24 bytes: no padding */
		assert_int_equal(f[i], 0xaa);

	assert_int_equal(fcq_ext_parse(f, 60, &out), FCQ_FRAME_OK);
	assert_int_equal(out.type, FCQ_EXT_KEYS_PAUSE);
	assert_int_equal(out.flags, h.flags);
	assert_int_equal(out.key_type, FCQ_WK_PAIR4);
	assert_int_equal(out.count, 3);
	for (i = 0; i < 3; i++) {
		assert_int_equal(fcq_key_decode(f + FCQ_EXT_KEYS_HLEN + 8 * i,
						out.key_type, &d), 0);
		assert_true(fcq_key_eq(&d, &k[i]));
	}
}

static void keys_sizes_and_errors(void **state)
{
	struct fcq_ext h = {
		.type = FCQ_EXT_KEYS_RESUME, .key_type = FCQ_WK_PAIR4,
		.count = 184,
	};
	static struct fcq_fkey k[185];
	static u8 f[1600];
	struct fcq_ext out;
	u8 *head;
	int i;

	for (i = 0; i < 185; i++)
		k[i] = test_pair4(i, 200);
	/* 184 pairs fill a 1500-byte MTU: 36 + 184 * 8 = 1508 <= 1514 */
	assert_int_equal(fcq_ext_keys_build(f, 1514, src, &h, k), 1508);
	h.count = 185;
	assert_int_equal(fcq_ext_keys_build(f, 1514, src, &h, k), 0);
	h.count = 184;
	fcq_ext_keys_build(f, sizeof(f), src, &h, k);
	assert_int_equal(fcq_ext_parse(f, 1508, &out), FCQ_FRAME_OK);
	/* fcq/rx.c hands in a 60-byte copy and the frame's length */
	head = malloc(FCQ_ETH_ZLEN);
	memcpy(head, f, FCQ_ETH_ZLEN);
	assert_int_equal(fcq_ext_parse(head, 1508, &out), FCQ_FRAME_OK);
	assert_int_equal(out.count, 184);
	free(head);
	/* the list runs past the frame: truncated in flight or a liar */
	assert_int_equal(fcq_ext_parse(f, 1507, &out), FCQ_FRAME_BAD_KEYS);
	f[32] = 7;				/* no such key type */
	assert_int_equal(fcq_ext_parse(f, 1508, &out), FCQ_FRAME_BAD_KEYS);

	/* ALL: no keys, key type 0 allowed */
	h.flags = FCQ_EXT_F_ALL;
	h.count = 0;
	h.key_type = 0;
	assert_int_equal(fcq_ext_keys_build(f, sizeof(f), src, &h, k), 60);
	assert_int_equal(fcq_ext_parse(f, 60, &out), FCQ_FRAME_OK);
	assert_int_equal(out.flags, FCQ_EXT_F_ALL);
	f[35] = 1;				/* one key of no type */
	assert_int_equal(fcq_ext_parse(f, 60, &out), FCQ_FRAME_BAD_KEYS);

	/* a key of another type than the frame's, or an unknown key type,
	 * is refused, and nothing is written
	 */
	memset(f, 0xaa, sizeof(f));
	h.key_type = FCQ_WK_PAIR6;
	h.count = 1;
	h.flags = 0;
	assert_int_equal(fcq_ext_keys_build(f, sizeof(f), src, &h, k), 0);
	h.key_type = 7;
	h.count = 0;
	assert_int_equal(fcq_ext_keys_build(f, sizeof(f), src, &h, k), 0);
	assert_int_equal(f[0], 0xaa);
	/* other extension types stay unknown */
	h.type = 4;
	h.count = 0;
	fcq_ext_build(f, sizeof(f), src, &h);
	assert_int_equal(fcq_ext_parse(f, 60, &out), FCQ_FRAME_BAD_OPCODE);
}

/* The keys a frame of up to 1514 bytes (MTU 1500) holds, per key type */
static void keys_capacity(void **state)
{
	static const struct {
		u8 wk;
		u16 n;
	} cap[] = {
		{ FCQ_WK_PAIR4, 184 }, { FCQ_WK_PAIR6, 46 },
		{ FCQ_WK_DST4, 369 }, { FCQ_WK_DST6, 92 },
		{ FCQ_WK_TUPLE4, 92 }, { FCQ_WK_TUPLE6, 36 },
	};
	static const u8 entry[FCQ_WK_MAX_SIZE];
	struct fcq_ext h = { .type = FCQ_EXT_KEYS_PAUSE };
	static struct fcq_fkey k[370];
	static u8 f[1514];
	size_t i, j;

	for (i = 0; i < sizeof(cap) / sizeof(cap[0]); i++) {
		for (j = 0; j <= cap[i].n; j++)
			fcq_key_decode(entry, cap[i].wk, &k[j]);
		h.key_type = cap[i].wk;
		h.count = cap[i].n;
		assert_int_equal(fcq_ext_keys_build(f, sizeof(f), src, &h, k),
				 36 + cap[i].n * fcq_key_wire_size(cap[i].wk));
		h.count++;
		assert_int_equal(fcq_ext_keys_build(f, sizeof(f), src, &h, k),
				 0);
	}
}

/* A CNM naming a 1518-byte frame of 02:..:01 to 02:..:05, priority 3. */
static const u8 cnm_golden[64] = {
	0x02, 0x00, 0x00, 0x00, 0x00, 0x01,	/* DA: the culprit's source */
	0x02, 0x00, 0x00, 0x00, 0x00, 0x07,	/* SA: the CP's port */
	0x22, 0xe7,				/* EtherType */
	0x00, 0x2a,				/* version 0, QntzFb 42 */
	0x02, 0x00, 0x00, 0x00, 0x00, 0x07, 0x00, 0x1b, /* CPID */
	0x02, 0x71,				/* cnmQOffset 625 (40 000 B) */
	0xff, 0x83,				/* cnmQDelta -125 (-8 000 B) */
	0x60, 0x00,				/* priority 3 */
	0x02, 0x00, 0x00, 0x00, 0x00, 0x05,	/* encapsulated DA */
	0x00, 0x16,				/* MSDU length 22 */
	0x88, 0xb5, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88,
	0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff, 0x10, 0x20, 0x30,
	0x40, 0x50,				/* MSDU: from the EtherType */
	0xa5, 0xa5, 0xa5, 0xa5,			/* past the frame */
};

static const struct fcq_cnm cnm_fields = {
	.qfb = 42,
	.cpid = { 0x02, 0x00, 0x00, 0x00, 0x00, 0x07, 0x00, 0x1b },
	.qoffset = 625, .qdelta = -125, .prio = 3,
	.encap_da = { 0x02, 0x00, 0x00, 0x00, 0x00, 0x05 },
	.msdu_len = 22,
};

static void cnm_golden_bytes(void **state)
{
	const u8 dst[6] = { 0x02, 0x00, 0x00, 0x00, 0x00, 0x01 };
	struct fcq_cnm c;
	u8 f[64];

	memset(f, 0xa5, sizeof(f));
	assert_int_equal(fcq_cnm_build(f, sizeof(f), dst, src, &cnm_fields,
				       cnm_golden + FCQ_CNM_HLEN), 60);
	assert_memory_equal(f, cnm_golden, sizeof(f));
	assert_int_equal(fcq_cnm_parse(cnm_golden, 60, &c), FCQ_FRAME_OK);
	assert_memory_equal(&c, &cnm_fields, sizeof(c));
	/* 64-byte units, saturated */
	assert_int_equal(fcq_cnm_units(40000), 625);
	assert_int_equal(fcq_cnm_units(-8000), -125);
	assert_int_equal(fcq_cnm_units(63), 0);
	assert_int_equal(fcq_cnm_units(1LL << 30), 0x7fff);
	assert_int_equal(fcq_cnm_units(-(1LL << 30)), -0x8000);
}

static void cnm_sizes_and_errors(void **state)
{
	const u8 dst[6] = { 0x02, 0x00, 0x00, 0x00, 0x00, 0x01 };
	struct fcq_cnm c = cnm_fields, g;
	u8 msdu[FCQ_CNM_MSDU_MAX], f[128];

	memset(msdu, 0x5a, sizeof(msdu));
	/* 64 bytes of MSDU: 102 bytes, over the minimum */
	c.msdu_len = FCQ_CNM_MSDU_MAX;
	assert_int_equal(fcq_cnm_build(f, sizeof(f), dst, src, &c, msdu),
			 FCQ_CNM_HLEN + FCQ_CNM_MSDU_MAX);
	assert_int_equal(fcq_cnm_parse(f, 102, &g), FCQ_FRAME_OK);
	assert_int_equal(g.msdu_len, 64);
	assert_int_equal(fcq_cnm_parse(f, 101, &g), FCQ_FRAME_BAD_MSDU);
	assert_int_equal(fcq_cnm_build(f, 101, dst, src, &c, msdu), 0);
	/* None: padded to 60 */
	c.msdu_len = 0;
	assert_int_equal(fcq_cnm_build(f, 60, dst, src, &c, msdu), 60);
	assert_int_equal(fcq_cnm_parse(f, 60, &g), FCQ_FRAME_OK);
	assert_int_equal(fcq_cnm_parse(f, 59, &g), FCQ_FRAME_TRUNCATED);
	/* What the fields cannot hold is refused. */
	c.msdu_len = 65;
	assert_int_equal(fcq_cnm_build(f, sizeof(f), dst, src, &c, msdu), 0);
	c.msdu_len = 0;
	c.qfb = 64;
	assert_int_equal(fcq_cnm_build(f, sizeof(f), dst, src, &c, msdu), 0);
	c.qfb = 1;
	c.prio = 8;
	assert_int_equal(fcq_cnm_build(f, sizeof(f), dst, src, &c, msdu), 0);
	/* Received: a length over 64, another version, another EtherType */
	c.prio = 0;
	fcq_cnm_build(f, sizeof(f), dst, src, &c, msdu);
	f[37] = 65;
	assert_int_equal(fcq_cnm_parse(f, 128, &g), FCQ_FRAME_BAD_MSDU);
	f[37] = 0;
	f[14] = 0x20;
	assert_int_equal(fcq_cnm_parse(f, 60, &g), FCQ_FRAME_BAD_HEADER);
	/* the reserved bits are ignored */
	f[14] = 0x0f;
	f[15] = 0xc0 | 7;
	assert_int_equal(fcq_cnm_parse(f, 60, &g), FCQ_FRAME_OK);
	assert_int_equal(g.qfb, 7);
	f[13] = 0xe9;
	assert_int_equal(fcq_cnm_parse(f, 60, &g), FCQ_FRAME_NOT_MACCTL);
}

/*
 * The CNM of cnm_golden from a DSM CP: version 1, F_b -1234567 kbit/s
 * (0xffed2979) where cnmQOffset and cnmQDelta were.
 */
static const u8 dsm_golden[64] = {
	0x02, 0x00, 0x00, 0x00, 0x00, 0x01,	/* DA: the culprit's source */
	0x02, 0x00, 0x00, 0x00, 0x00, 0x07,	/* SA: the CP's port */
	0x22, 0xe7,				/* EtherType */
	0x10, 0x07,				/* version 1, QntzFb 7 */
	0x02, 0x00, 0x00, 0x00, 0x00, 0x07, 0x00, 0x1b, /* CPID */
	0xff, 0xed, 0x29, 0x79,			/* F_b -1234567 kbit/s */
	0x60, 0x00,				/* priority 3 */
	0x02, 0x00, 0x00, 0x00, 0x00, 0x05,	/* encapsulated DA */
	0x00, 0x16,				/* MSDU length 22 */
	0x88, 0xb5, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88,
	0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff, 0x10, 0x20, 0x30,
	0x40, 0x50,				/* MSDU: from the EtherType */
	0xa5, 0xa5, 0xa5, 0xa5,			/* past the frame */
};

/* QntzFb 7 = 1234567 * 63 / 10 Gbit/s, which only the sender knows. */
static const struct fcq_cnm dsm_fields = {
	.version = FCQ_CNM_VERSION_DSM, .qfb = 7,
	.cpid = { 0x02, 0x00, 0x00, 0x00, 0x00, 0x07, 0x00, 0x1b },
	.fb_kbps = -1234567, .prio = 3,
	.encap_da = { 0x02, 0x00, 0x00, 0x00, 0x00, 0x05 },
	.msdu_len = 22,
};

/* An increase: F_b +5000000 kbit/s (0x004c4b40), no MSDU, priority 5. */
static const u8 dsm_golden_up[64] = {
	0x02, 0x00, 0x00, 0x00, 0x00, 0x01,	/* DA: the culprit's source */
	0x02, 0x00, 0x00, 0x00, 0x00, 0x07,	/* SA: the CP's port */
	0x22, 0xe7,				/* EtherType */
	0x10, 0x1f,				/* version 1, QntzFb 31 */
	0x02, 0x00, 0x00, 0x00, 0x00, 0x07, 0x01, 0x02, /* CPID */
	0x00, 0x4c, 0x4b, 0x40,			/* F_b +5000000 kbit/s */
	0xa0, 0x00,				/* priority 5 */
	0x02, 0x00, 0x00, 0x00, 0x00, 0x05,	/* encapsulated DA */
	0x00, 0x00,				/* MSDU length 0 */
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00,				/* zero padding to 60 */
	0xa5, 0xa5, 0xa5, 0xa5,			/* past the frame */
};

static const struct fcq_cnm dsm_fields_up = {
	.version = FCQ_CNM_VERSION_DSM, .qfb = 31,
	.cpid = { 0x02, 0x00, 0x00, 0x00, 0x00, 0x07, 0x01, 0x02 },
	.fb_kbps = 5000000, .prio = 5,
	.encap_da = { 0x02, 0x00, 0x00, 0x00, 0x00, 0x05 },
};

/*
 * Build @want with cnmQOffset and cnmQDelta set, which a DSM CNM has no
 * room for: the bytes must still be @golden's, and parsing them gives
 * @want back, with those two 0.
 */
static void dsm_golden_check(const struct fcq_cnm *want, const u8 *golden)
{
	const u8 dst[6] = { 0x02, 0x00, 0x00, 0x00, 0x00, 0x01 };
	struct fcq_cnm c = *want;
	u8 f[64];

	c.qoffset = 625;
	c.qdelta = -125;
	memset(f, 0xa5, sizeof(f));
	assert_int_equal(fcq_cnm_build(f, sizeof(f), dst, src, &c,
				       golden + FCQ_CNM_HLEN), 60);
	assert_memory_equal(f, golden, sizeof(f));
	memset(&c, 0x5a, sizeof(c));
	assert_int_equal(fcq_cnm_parse(golden, 60, &c), FCQ_FRAME_OK);
	assert_memory_equal(&c, want, sizeof(c));
}

static void dsm_golden_bytes(void **state)
{
	dsm_golden_check(&dsm_fields, dsm_golden);
	dsm_golden_check(&dsm_fields_up, dsm_golden_up);
}

static void dsm_round_trip_and_versions(void **state)
{
	static const s32 fbs[] = {
		0, 1, -1, 0x7fffffff, -0x7fffffff - 1, -1234567, 40000000,
	};
	const u8 dst[6] = { 0x02, 0x00, 0x00, 0x00, 0x00, 0x01 };
	struct fcq_cnm c = dsm_fields, g;
	u8 f[64];
	size_t i;

	for (i = 0; i < sizeof(fbs) / sizeof(fbs[0]); i++) {
		c.fb_kbps = fbs[i];
		assert_int_equal(fcq_cnm_build(f, sizeof(f), dst, src, &c,
					       dsm_golden + FCQ_CNM_HLEN), 60);
		assert_int_equal(fcq_cnm_parse(f, 60, &g), FCQ_FRAME_OK);
		assert_int_equal(g.version, FCQ_CNM_VERSION_DSM);
		assert_int_equal(g.fb_kbps, fbs[i]);
		assert_int_equal(g.qoffset, 0);
		assert_int_equal(g.qdelta, 0);
		assert_int_equal(g.qfb, 7);
		assert_memory_equal(g.cpid, c.cpid, sizeof(c.cpid));
	}
	/* the reserved bits of a DSM CNM are ignored as well */
	memcpy(f, dsm_golden, 60);
	f[14] = 0x1f;
	f[15] = 0xc0 | 7;
	assert_int_equal(fcq_cnm_parse(f, 60, &g), FCQ_FRAME_OK);
	assert_int_equal(g.version, FCQ_CNM_VERSION_DSM);
	assert_int_equal(g.fb_kbps, -1234567);

	/* Version 0 is read as before: no F_b, however bytes 24-27 read. */
	assert_int_equal(fcq_cnm_parse(cnm_golden, 60, &g), FCQ_FRAME_OK);
	assert_int_equal(g.version, FCQ_CNM_VERSION_QCN);
	assert_int_equal(g.fb_kbps, 0);
	assert_int_equal(g.qoffset, 625);
	assert_int_equal(g.qdelta, -125);

	/* Versions 2 and up: refused by both, and nothing is written. */
	memcpy(f, dsm_golden, 60);
	f[14] = 0x20;
	assert_int_equal(fcq_cnm_parse(f, 60, &g), FCQ_FRAME_BAD_HEADER);
	f[14] = 0xf0;
	assert_int_equal(fcq_cnm_parse(f, 60, &g), FCQ_FRAME_BAD_HEADER);
	memset(f, 0xa5, sizeof(f));
	c.version = 2;
	assert_int_equal(fcq_cnm_build(f, sizeof(f), dst, src, &c,
				       dsm_golden + FCQ_CNM_HLEN), 0);
	c.version = 0xff;
	assert_int_equal(fcq_cnm_build(f, sizeof(f), dst, src, &c,
				       dsm_golden + FCQ_CNM_HLEN), 0);
	for (i = 0; i < sizeof(f); i++)
		assert_int_equal(f[i], 0xa5);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(ext_layout),
		cmocka_unit_test(ext_round_trip_and_errors),
		cmocka_unit_test(keys_layout),
		cmocka_unit_test(keys_sizes_and_errors),
		cmocka_unit_test(keys_capacity),
		cmocka_unit_test(pfc_layout),
		cmocka_unit_test(cnm_golden_bytes),
		cmocka_unit_test(cnm_sizes_and_errors),
		cmocka_unit_test(dsm_golden_bytes),
		cmocka_unit_test(dsm_round_trip_and_versions),
		cmocka_unit_test(pause_layout),
		cmocka_unit_test(build_needs_room),
		cmocka_unit_test(pfc_round_trip),
		cmocka_unit_test(pause_applies_to_all),
		cmocka_unit_test(parse_rejects),
		cmocka_unit_test(parse_ignores_reserved),
	};

	return cmocka_run_group_tests_name("core/frames", tests, NULL, NULL);
}
