// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer targets for core/'s frame parsers, the code every received
 * control frame meets first in the kernel: one per parser, chosen at
 * build time (-DFUZZ_MACCTL, _EXT, _CNM, _KEY). Besides the sanitizers'
 * findings (a read past the frame, undefined behaviour), each checks what
 * the parser promises: a frame it accepts, built again from what it read,
 * reads the same; an error is one of enum fcq_frame_err.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/frames.h"
#include "core/key.h"

#define CHECK(c)		\
	do {			\
		if (!(c))	\
			abort();\
	} while (0)

#ifndef FUZZ_KEY
/* A parser's verdict is OK or one of its errors, never anything else. */
static void known(enum fcq_frame_err e)
{
	CHECK(e >= FCQ_FRAME_OK && e <= FCQ_FRAME_BAD_MSDU);
}
#endif

#ifdef FUZZ_MACCTL
static void one(const u8 *d, size_t n)
{
	struct fcq_macctl m, m2;
	u8 buf[FCQ_ETH_ZLEN];
	enum fcq_frame_err e = fcq_macctl_parse(d, n, &m);
	size_t len;

	known(e);
	if (e)
		return;
	CHECK(n >= FCQ_ETH_ZLEN);
	if (m.opcode == FCQ_MACCTL_PAUSE) {
		CHECK(m.enable == 0xff);
		len = fcq_pause_build(buf, sizeof(buf), d + FCQ_ETH_ALEN,
				      m.quanta[0]);
	} else {
		CHECK(m.opcode == FCQ_MACCTL_PFC);
		len = fcq_pfc_build(buf, sizeof(buf), d + FCQ_ETH_ALEN,
				    m.enable, m.quanta);
	}
	CHECK(len == FCQ_ETH_ZLEN);
	CHECK(fcq_macctl_parse(buf, len, &m2) == FCQ_FRAME_OK);
	CHECK(m2.opcode == m.opcode && m2.enable == m.enable);
	for (int p = 0; p < FCQ_NUM_PRIO; p++)
		CHECK(!(m.enable & (1u << p)) || m2.quanta[p] == m.quanta[p]);
}
#endif

#ifdef FUZZ_EXT
static void one(const u8 *d, size_t n)
{
	struct fcq_ext f, f2;
	struct fcq_fkey k, k2;
	u8 buf[FCQ_ETH_ZLEN], w[64];
	enum fcq_frame_err e = fcq_ext_parse(d, n, &f);
	size_t size;

	known(e);
	if (e)
		return;
	CHECK(f.prio < FCQ_NUM_PRIO);
	if (f.type == FCQ_EXT_PAUSE) {
		CHECK(fcq_ext_build(buf, sizeof(buf), d + FCQ_ETH_ALEN, &f) ==
		      FCQ_ETH_ZLEN);
		CHECK(fcq_ext_parse(buf, sizeof(buf), &f2) == FCQ_FRAME_OK);
		CHECK(f2.type == f.type && f2.prio == f.prio &&
		      f2.flags == f.flags && f2.seq == f.seq &&
		      f2.tx_ns == f.tx_ns && f2.pause_ns == f.pause_ns);
		return;
	}
	CHECK(f.type == FCQ_EXT_KEYS_PAUSE || f.type == FCQ_EXT_KEYS_RESUME);
	if (!f.count)
		return;
	/* The keys the parser vouched for are within the frame. */
	size = fcq_key_wire_size(f.key_type);
	CHECK(size && size <= sizeof(w));
	CHECK(FCQ_EXT_KEYS_HLEN + f.count * size <= n);
	for (unsigned int i = 0; i < f.count; i++) {
		const u8 *p = d + FCQ_EXT_KEYS_HLEN + i * size;

		if (fcq_key_decode(p, f.key_type, &k))
			continue;
		CHECK(fcq_key_encode(w, &k) == size);
		CHECK(fcq_key_decode(w, f.key_type, &k2) == 0);
		CHECK(fcq_key_eq(&k, &k2));
	}
}
#endif

#ifdef FUZZ_CNM
static void one(const u8 *d, size_t n)
{
	struct fcq_cnm c, c2;
	u8 buf[FCQ_CNM_HLEN + FCQ_CNM_MSDU_MAX + FCQ_ETH_ZLEN];
	enum fcq_frame_err e = fcq_cnm_parse(d, n, &c);
	size_t len;

	known(e);
	if (e)
		return;
	CHECK(c.msdu_len <= FCQ_CNM_MSDU_MAX);
	CHECK(FCQ_CNM_HLEN + c.msdu_len <= n);
	len = fcq_cnm_build(buf, sizeof(buf), d, d + FCQ_ETH_ALEN, &c,
			    d + FCQ_CNM_HLEN);
	CHECK(len >= FCQ_ETH_ZLEN);
	CHECK(fcq_cnm_parse(buf, len, &c2) == FCQ_FRAME_OK);
	CHECK(c2.version == c.version && c2.qfb == c.qfb &&
	      !memcmp(c2.cpid, c.cpid, sizeof(c.cpid)) &&
	      c2.qoffset == c.qoffset && c2.qdelta == c.qdelta &&
	      c2.fb_kbps == c.fb_kbps && c2.prio == c.prio &&
	      !memcmp(c2.encap_da, c.encap_da, sizeof(c.encap_da)) &&
	      c2.msdu_len == c.msdu_len);
	CHECK(!memcmp(buf + FCQ_CNM_HLEN, d + FCQ_CNM_HLEN, c.msdu_len));
}
#endif

#ifdef FUZZ_KEY
/* Input: EtherType (2 bytes), key type (1), then the network header. */
static void one(const u8 *d, size_t n)
{
	struct fcq_fkey k, k2;
	u8 w[64];
	size_t size;

	if (n < 3)
		return;
	if (fcq_key_parse(d + 3, n - 3, (u16)(d[0] << 8 | d[1]), d[2] % 4, &k))
		return;
	size = fcq_key_encode(w, &k);
	if (!size)
		return;
	CHECK(size == fcq_key_wire_size(fcq_key_wire(&k)));
	CHECK(fcq_key_decode(w, fcq_key_wire(&k), &k2) == 0);
	CHECK(fcq_key_eq(&k, &k2));
}
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	one(data, size);
	return 0;
}
