/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The PFC watchdog of one (port, priority), after SONiC's pfcwd.
 *
 * A storm is a class that holds packets, is paused by its link peer, and
 * sends nothing for `detect`: a peer that streams XOFF, or a cyclic buffer
 * dependency (a deadlock) that no pause will ever end. The port then acts
 * on the class (drop, forward or only alert; the caller's business) for at
 * least `restore`, and goes back to normal once the peer has sent no pause
 * of the class for `restore` and no pause of it is in effect.
 *
 * The caller polls at every dequeue and when the returned deadline comes;
 * detection is therefore late by at most the latency of that timer.
 */
#ifndef FCQ_CORE_PFCWD_H
#define FCQ_CORE_PFCWD_H

#include "core.h"

struct fcq_pfcwd_cfg {
	u64 detect;	/* ns a class must stay stuck; 0: watchdog off */
	u64 restore;	/* ns a storm lasts at least, and of quiet after */
};

/* What the port tells the watchdog of one class at a poll. */
struct fcq_pfcwd_seen {
	u64 paused_until; /* the peer's pause in effect ends (U64_MAX: at
			   * its resume); not paused if not after now
			   */
	bool backlog;	/* packets wait in the class */
	u64 tx;		/* packets of the class sent, ever */
	u64 pause_rx;	/* when the peer last sent a pause of it (ns) */
};

struct fcq_pfcwd {
	u64 stuck_since;	/* valid while watching */
	u64 tx;			/* packets sent when watching started */
	u64 storm_at;		/* the storm began (valid in storm) */
	bool watching, storm;
	u64 storms;		/* ever */
};

enum fcq_pfcwd_event {
	FCQ_PFCWD_NONE,
	FCQ_PFCWD_STORM,		/* the class is now in storm */
	FCQ_PFCWD_RESTORE,		/* back to normal */
};

/*
 * Poll class @w at @now with what the port @seen of it. Lowers *@next to
 * when a poll could change the state without anything else happening.
 */
enum fcq_pfcwd_event fcq_pfcwd_poll(struct fcq_pfcwd *w,
				     const struct fcq_pfcwd_cfg *c,
				     const struct fcq_pfcwd_seen *seen,
				     u64 now, u64 *next);

#endif /* FCQ_CORE_PFCWD_H */
