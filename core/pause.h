/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The receive side of a pause: one class of an egress
 * serializer, paused until a time, with the total time it has been paused.
 *
 * A PFC/PAUSE frame overrides the previous one (IEEE 802.1Qbb: the new
 * pause_time replaces the running timer; 0 resumes at once), so the state is
 * just the expiry. An accumulating pause (FAFC's fcq frame) extends the
 * running one instead. The total integrates the union of paused intervals.
 */
#ifndef FCQ_CORE_PAUSE_H
#define FCQ_CORE_PAUSE_H

#include "core.h"

struct fcq_pause {
	u64 until;	/* paused while now < until */
	u64 since;	/* start of the interval not yet added to total */
	u64 total;	/* ns paused, up to `since` */
};

static inline bool fcq_pause_active(const struct fcq_pause *p, u64 now)
{
	return now < p->until;
}

/* Apply a frame received at @now that pauses for @ns (0 = resume). */
void fcq_pause_set(struct fcq_pause *p, u64 now, u64 ns);

/* Apply an accumulating pause of @ns received at @now (FAFC, sec. II.F). */
void fcq_pause_extend(struct fcq_pause *p, u64 now, u64 ns);

/* Total time paused up to @now. */
u64 fcq_pause_total(const struct fcq_pause *p, u64 now);

#endif /* FCQ_CORE_PAUSE_H */
