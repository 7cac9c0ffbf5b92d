// SPDX-License-Identifier: GPL-2.0
/*
 * Receive-side pause state (see pause.h).
 */
#include "pause.h"

void fcq_pause_set(struct fcq_pause *p, u64 now, u64 ns)
{
	/* Callers sample `now` before taking their lock: keep it monotonic. */
	now = fcq_max64(now, p->since);
	/* Close the interval opened by the previous frame. */
	if (p->until > p->since)
		p->total += fcq_min64(now, p->until) - p->since;
	p->since = now;
	FCQ_WRITE_ONCE(p->until, now + ns);	/* the data path reads it */
}

void fcq_pause_extend(struct fcq_pause *p, u64 now, u64 ns)
{
	now = fcq_max64(now, p->since);
	if (now < p->until) {
		/* the running interval goes on */
		FCQ_WRITE_ONCE(p->until, p->until + ns);
		return;
	}
	fcq_pause_set(p, now, ns);
}

u64 fcq_pause_total(const struct fcq_pause *p, u64 now)
{
	if (p->until > p->since && now > p->since)
		return p->total + fcq_min64(now, p->until) - p->since;
	return p->total;
}
