// SPDX-License-Identifier: GPL-2.0
/*
 * The PFC watchdog's state machine (see pfcwd.h).
 */
#include "pfcwd.h"

static void lower(u64 *next, u64 t)
{
	if (t < *next)
		*next = t;
}

/* Storm over: `restore` since it began and since the peer's last pause. */
static enum fcq_pfcwd_event in_storm(struct fcq_pfcwd *w,
				     const struct fcq_pfcwd_cfg *c,
				     const struct fcq_pfcwd_seen *seen,
				     u64 now, u64 *next)
{
	u64 quiet = fcq_max64(w->storm_at, seen->pause_rx) + c->restore;
	u64 end = fcq_max64(quiet, seen->paused_until);

	if (now < end) {
		/* U64_MAX: a resume ends it, and the port polls then */
		lower(next, end);
		return FCQ_PFCWD_NONE;
	}
	w->storm = false;
	w->watching = false;
	return FCQ_PFCWD_RESTORE;
}

enum fcq_pfcwd_event fcq_pfcwd_poll(struct fcq_pfcwd *w,
				     const struct fcq_pfcwd_cfg *c,
				     const struct fcq_pfcwd_seen *seen,
				     u64 now, u64 *next)
{
	if (w->storm)
		return in_storm(w, c, seen, now, next);
	if (!c->detect || seen->paused_until <= now || !seen->backlog) {
		w->watching = false;
		return FCQ_PFCWD_NONE;
	}
	/* A packet sent since the last poll: the class is not stuck yet. */
	if (!w->watching || seen->tx != w->tx) {
		w->watching = true;
		w->stuck_since = now;
		w->tx = seen->tx;
	}
	if (now - w->stuck_since < c->detect) {
		lower(next, w->stuck_since + c->detect);
		return FCQ_PFCWD_NONE;
	}
	w->storm = true;
	w->storm_at = now;
	w->storms++;
	lower(next, now + c->restore);
	return FCQ_PFCWD_STORM;
}
