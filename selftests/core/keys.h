/* SPDX-License-Identifier: GPL-2.0 */
/* Flow keys for the unit tests: the address pair 10.0.0.S > 10.0.0.D. */
#ifndef FCQ_TEST_KEYS_H
#define FCQ_TEST_KEYS_H

#include "core/key.h"

static inline struct fcq_fkey test_pair4(u8 s, u8 d)
{
	struct fcq_fkey k;

	memset(&k, 0, sizeof(k));
	k.type = FCQ_KEY_PAIR;
	k.family = 4;
	k.saddr[0] = 10;
	k.saddr[3] = s;
	k.daddr[0] = 10;
	k.daddr[3] = d;
	return k;
}

/* The same pair in IPv6 (10::S > 10::D, ends only). */
static inline struct fcq_fkey test_pair6(u8 s, u8 d)
{
	struct fcq_fkey k = test_pair4(s, d);

	k.family = 6;
	k.saddr[15] = s;
	k.daddr[15] = d;
	return k;
}

#endif /* FCQ_TEST_KEYS_H */
