/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ECN marking on an egress queue, RED-like as the HPCC
 * simulator's switch does it (switch-mmu.cc ShouldSendCN): a packet leaving
 * a queue of q bytes is marked with probability
 *
 *   0                                  q <= kmin
 *   pmax * (q - kmin) / (kmax - kmin)  kmin < q < kmax
 *   1                                  q >= kmax
 *
 * kmin = kmax gives DCTCP's step marking at K.
 */
#ifndef FCQ_CORE_ECN_H
#define FCQ_CORE_ECN_H

#include "core.h"

#define FCQ_ECN_PROB_ONE	65536	/* pmax is Q16 */

struct fcq_ecn {
	u32 kmin;	/* bytes */
	u32 kmax;	/* bytes; 0: marking off */
	u32 pmax;	/* Q16 */
};

/* Whether to mark; @rnd is uniform in [0, 65536). */
bool fcq_ecn_mark(const struct fcq_ecn *e, u32 qbytes, u32 rnd);

#endif /* FCQ_CORE_ECN_H */
