// SPDX-License-Identifier: GPL-2.0
/*
 * The PFC watchdog of every fcq port (core/pfcwd.h has the state machine).
 *
 * Each dequeue polls the classes of its port; the deadline of the next
 * decision joins the port's timer, so a storm is found `detect` after the
 * class got stuck, late by no more than that timer. A class in storm is
 * handled by the port's action:
 *
 *  - drop: the peer's pauses of the class are ignored and every packet of
 *    it is dropped, the queued ones as the serializer reaches them (at no
 *    cost of link time) and the arriving ones at enqueue;
 *  - forward: the pauses are ignored and the packets sent;
 *  - alert: nothing changes but the counters and the events.
 *
 * Ignoring covers class pauses (PFC, 802.3x, fcq timed pauses), which
 * fcq_port_paused() stops honouring, and keyed pauses: the class's keys
 * are released at once, as a RESUME ALL would, and the peer's keyed PAUSEs
 * of it are not applied while the storm lasts (pfcwd_ignored).
 */
#include "fcq.h"
#include "trace.h"

/* The peer's pause of class @p in effect, as the watchdog judges it. */
static u64 paused_until(struct fcq_port *port, u8 p, u64 now)
{
	u64 until = READ_ONCE(port->pause[p].until);

	if (until > now)
		return until;
	/* Keyed pauses last until resumed; ignored ones are not held. */
	if (port->kprx && !(port->pfcwd_free & BIT(p)) &&
	    !fcq_kprx_empty(port->kprx, p))
		return U64_MAX;
	return 0;
}

/* Let go of what the peer holds of the classes in @mask (keyed pauses). */
static void release_keys(struct fcq_port *port, u8 mask)
{
	struct fcq_kprx *b = port->kprx;
	int p;

	if (!b || !mask)
		return;
	spin_lock(&port->pause_lock);
	for (p = 0; p < FCQ_NUM_PRIO; p++)
		if (mask & BIT(p))
			fcq_kprx_resume(b, p, NULL);
	WRITE_ONCE(port->kp_pending, b->pending);
	spin_unlock(&port->pause_lock);
}

static void report(struct fcq_port *port, u8 mask, bool storm, u8 action,
		   u64 now)
{
	int p;

	if (!mask)
		return;
	for (p = 0; p < FCQ_NUM_PRIO; p++)
		if (mask & BIT(p))
			trace_pfcwd(port->dev, p, storm, action, now);
	fcq_genl_pfcwd_event(port, storm ? FCQ_EVENT_PFCWD_STORM :
					   FCQ_EVENT_PFCWD_RESTORE,
			     mask, action, now);
}

u64 fcq_pfcwd_run(struct fcq_port *port, u64 now)
{
	const struct fcq_pfcwd_cfg c = {
		.detect = port->cfg.pfcwd_detect,
		.restore = port->cfg.pfcwd_restore,
	};
	u8 action = port->cfg.pfcwd_action, storm = 0, restore = 0, free;
	struct fcq_pfcwd_seen seen;
	u64 next = U64_MAX;
	int p;

	for (p = 0; p < FCQ_NUM_PRIO; p++) {
		struct fcq_pfcwd *w = &port->pfcwd[p];

		/* Off: a storm in progress ends now. */
		if (!c.detect && w->storm) {
			w->storm = false;
			w->watching = false;
			restore |= BIT(p);
			continue;
		}
		seen = (struct fcq_pfcwd_seen){
			.paused_until = paused_until(port, p, now),
			.backlog = port->st.backlog[p] != 0,
			.tx = port->st.tx_packets[p],
			.pause_rx = READ_ONCE(port->pfcwd_rx[p]),
		};
		switch (fcq_pfcwd_poll(w, &c, &seen, now, &next)) {
		case FCQ_PFCWD_STORM:
			storm |= BIT(p);
			break;
		case FCQ_PFCWD_RESTORE:
			restore |= BIT(p);
			break;
		case FCQ_PFCWD_NONE:
			break;
		}
	}
	if (storm | restore)
		WRITE_ONCE(port->pfcwd_storm,
			   (port->pfcwd_storm | storm) & ~restore);
	/* A change of the action applies to storms in progress too. */
	free = action == FCQ_PFCWD_ALERT ? 0 : port->pfcwd_storm;
	if (free != port->pfcwd_free) {
		release_keys(port, free & ~port->pfcwd_free);
		WRITE_ONCE(port->pfcwd_free, free);
	}
	port->pfcwd_drop = action == FCQ_PFCWD_DROP ? port->pfcwd_storm : 0;
	report(port, storm, true, action, now);
	report(port, restore, false, action, now);
	return next;
}

bool fcq_pfcwd_ignores(const struct fcq_port *port, u8 p)
{
	return READ_ONCE(port->pfcwd_free) & BIT(p);
}

/* The port was reset (its queues flushed): no class is stuck or in storm. */
void fcq_pfcwd_reset(struct fcq_port *port)
{
	int p;

	for (p = 0; p < FCQ_NUM_PRIO; p++) {
		port->pfcwd[p].watching = false;
		port->pfcwd[p].storm = false;
	}
	WRITE_ONCE(port->pfcwd_storm, 0);
	WRITE_ONCE(port->pfcwd_free, 0);
	port->pfcwd_drop = 0;
}
