/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Transmission selection among the 8 priority classes of a
 * port, as IEEE 802.1Qaz ETS does it: classes in the strict mask go first,
 * the higher priority number first; the rest share what is left by deficit
 * round robin with per-class quanta (Shreedhar & Varghese, DRR).
 *
 * Only classes that may transmit now (backlogged and not paused) take part:
 * a paused class is skipped and loses its deficit, as an empty one does.
 */
#ifndef FCQ_CORE_ETS_H
#define FCQ_CORE_ETS_H

#include "core.h"
#include "frames.h"

struct fcq_ets {
	u8 strict;			/* mask of strict classes */
	u8 cur;				/* DRR position */
	u32 quantum[FCQ_NUM_PRIO];	/* bytes per round, > 0 */
	u32 deficit[FCQ_NUM_PRIO];
};

/*
 * Pick the class to send from. @ready: classes with a packet that may start
 * now; @len: each ready class's head packet length. Returns the class and
 * charges its deficit, or -1 if nothing is ready.
 */
int fcq_ets_pick(struct fcq_ets *e, u8 ready, const u32 len[FCQ_NUM_PRIO]);

#endif /* FCQ_CORE_ETS_H */
