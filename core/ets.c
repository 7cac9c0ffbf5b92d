// SPDX-License-Identifier: GPL-2.0
/*
 * Strict priority + DRR selection (see ets.h).
 */
#include "ets.h"

int fcq_ets_pick(struct fcq_ets *e, u8 ready, const u32 len[FCQ_NUM_PRIO])
{
	u8 drr = ready & ~e->strict;
	int c;

	for (c = FCQ_NUM_PRIO - 1; c >= 0; c--)
		if (ready & e->strict & (1u << c))
			return c;

	/* A class out of the running starts its next turn from zero. */
	for (c = 0; c < FCQ_NUM_PRIO; c++)
		if (!(drr & (1u << c)))
			e->deficit[c] = 0;
	if (!drr)
		return -1;

	/* Terminates: each full turn adds a positive quantum to every ready
	 * class, and packets are bounded.
	 */
	for (;;) {
		c = e->cur;
		if (drr & (1u << c)) {
			if (len[c] <= e->deficit[c]) {
				e->deficit[c] -= len[c];
				return c;
			}
			e->deficit[c] += e->quantum[c];
		}
		e->cur = (c + 1) % FCQ_NUM_PRIO;
	}
}
