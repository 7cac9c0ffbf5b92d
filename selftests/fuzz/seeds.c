// SPDX-License-Identifier: GPL-2.0
/*
 * seeds DIR: the fuzzers' starting corpus, well-formed frames built by
 * core/'s own builders, into DIR/macctl, DIR/ext, DIR/cnm and DIR/key
 * (which exist). Without them a fuzzer spends its minute finding the
 * destination MAC and the EtherType.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/frames.h"
#include "core/key.h"

static const char *dir;
static int n;

static void put(const char *target, const u8 *buf, size_t len)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s/seed-%03d", dir, target, n++);
	f = fopen(path, "wb");
	if (!f || fwrite(buf, 1, len, f) != len || fclose(f)) {
		perror(path);
		exit(1);
	}
}

static const u8 src[FCQ_ETH_ALEN] = { 0x02, 0, 0, 0, 0, 0x01 };

static void macctl(void)
{
	u16 q[FCQ_NUM_PRIO] = { 0, 0, 0, 65535, 0, 0, 0, 1 };
	u8 buf[FCQ_ETH_ZLEN];

	put("macctl", buf, fcq_pfc_build(buf, sizeof(buf), src, 0x88, q));
	put("macctl", buf, fcq_pfc_build(buf, sizeof(buf), src, 0x08, q));
	put("macctl", buf, fcq_pause_build(buf, sizeof(buf), src, 2000));
}

static void ext(void)
{
	struct fcq_fkey k[3] = {
		{ .type = FCQ_KEY_PAIR, .family = 4,
		  .saddr = { 10, 0, 0, 1 }, .daddr = { 10, 0, 0, 2 } },
		{ .type = FCQ_KEY_DST, .family = 6, .daddr = { 0xfd, [15] = 1 } },
		{ .type = FCQ_KEY_5TUPLE, .family = 4, .proto = 17,
		  .sport = 1000, .dport = 2000,
		  .saddr = { 10, 0, 0, 1 }, .daddr = { 10, 0, 0, 3 } },
	};
	struct fcq_ext f = { .type = FCQ_EXT_PAUSE, .prio = 3, .seq = 7,
			     .tx_ns = 123456789, .pause_ns = 50000,
			     .flags = FCQ_EXT_F_ACCUMULATE };
	u8 buf[256];
	int i;

	put("ext", buf, fcq_ext_build(buf, sizeof(buf), src, &f));
	f.type = FCQ_EXT_KEYS_PAUSE;
	f.flags = FCQ_EXT_F_ALL;
	f.count = 0;
	f.key_type = FCQ_WK_NONE;
	put("ext", buf, fcq_ext_keys_build(buf, sizeof(buf), src, &f, NULL));
	for (i = 0; i < 3; i++) {
		f.type = i ? FCQ_EXT_KEYS_RESUME : FCQ_EXT_KEYS_PAUSE;
		f.flags = FCQ_EXT_F_ORIGIN;
		f.count = 1;
		f.key_type = fcq_key_wire(&k[i]);
		put("ext", buf, fcq_ext_keys_build(buf, sizeof(buf), src, &f,
						   &k[i]));
	}
}

static void cnm(void)
{
	static const u8 dst[FCQ_ETH_ALEN] = { 0x02, 0, 0, 0, 0, 0x02 };
	struct fcq_cnm c = { .version = FCQ_CNM_VERSION_QCN, .qfb = 40,
			     .qoffset = -20, .qdelta = 5, .prio = 3,
			     .encap_da = { 0x02, 0, 0, 0, 0, 0x03 },
			     .msdu_len = 22 };
	u8 msdu[FCQ_CNM_MSDU_MAX] = { 0x08, 0x00, 0x45 }, buf[256];

	put("cnm", buf, fcq_cnm_build(buf, sizeof(buf), dst, src, &c, msdu));
	c.version = FCQ_CNM_VERSION_DSM;
	c.fb_kbps = -1234;
	c.msdu_len = FCQ_CNM_MSDU_MAX;
	put("cnm", buf, fcq_cnm_build(buf, sizeof(buf), dst, src, &c, msdu));
}

/* EtherType, key type, then an IPv4 UDP and an IPv6 TCP header. */
static void key(void)
{
	u8 v4[3 + 28] = { 0x08, 0x00, FCQ_KEY_5TUPLE,
			  0x45, 0, 0, 28, 0, 0, 0, 0, 64, 17, 0, 0,
			  10, 0, 0, 1, 10, 0, 0, 2, 0x03, 0xe8, 0x07, 0xd0 };
	u8 v6[3 + 44] = { 0x86, 0xdd, FCQ_KEY_5TUPLE, 0x60, 0, 0, 0, 0, 20, 6,
			  64, 0xfd, [26] = 1, 0xfd, [42] = 2, 0x04, 0x00,
			  0x00, 0x50 };

	put("key", v4, sizeof(v4));
	put("key", v6, sizeof(v6));
	v4[2] = FCQ_KEY_PAIR;
	put("key", v4, sizeof(v4));
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: seeds DIR\n");
		return 2;
	}
	dir = argv[1];
	macctl();
	ext();
	cnm();
	key();
	return 0;
}
