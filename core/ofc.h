/* SPDX-License-Identifier: GPL-2.0 */
/*
 * OFC's pause decisions (Original-congestion-based Fine-grained PFC):
 * given one arriving packet's view of its switch, what to ask of the
 * upstream behind the packet's ingress port I.
 *
 * Equation numbers are the paper's; [On] is difference n from the paper in
 * Documentation/ofc.rst. The thresholds order as
 *
 *   X_ON < X^c_OFF < X_OFF,  X^c_OFF = alpha * X_OFF,  X_ON/X_OFF < alpha < 1
 *
 * and the checks run on every arrival at an egress queue E:
 *
 *   q_in >= X_OFF                              pause all of the priority (E3)
 *   X^c_OFF <= q_in < X_OFF, q_out >= X^c_OFF  pause the congested flows (E2)
 *   q_in <= X_ON                               resume what I paused (E4)
 *
 * where q_in is every byte that entered through I, in any egress queue of
 * the switch (E1, [O2]), and q_out the bytes of the packet's own
 * egress queue for its priority, paused ones included. E is the original
 * congestion point when it holds no pause from its own downstream (an
 * empty CFT) and pauses every flow it holds from I; otherwise it is a local
 * congestion point and forwards only the flows its downstream paused
 * (Alg. 1, [O6], [O7]). The resume check (E4) is not here: it runs
 * on every departure of I's bytes, wherever they leave ([O5]).
 *
 * [O18]: bytes that a resume just released (the drain
 * lane below) do not make E an original congestion point. Right after the
 * last pause from downstream ends, E's queue is the backlog that pause
 * built, leaving at line rate; taken literally, Alg. 1 then finds the CFT
 * empty and the queue long, and pauses every flow E holds from I, also
 * those that were never congested (F0 of the paper's Fig. 1 would be).
 */
#ifndef FCQ_CORE_OFC_H
#define FCQ_CORE_OFC_H

#include "core.h"
#include "iso.h"

/* Modes: the same accounting, three ways of pausing. */
#define OFC_M_OFC	0	/* the paper's fine-grained pause */
#define OFC_M_CAPFC	1	/* congestion-aware PFC: whole class (sec. IV) */
#define OFC_M_PFC	2	/* 802.1Qbb only: X_OFF / X_ON */

#define OFC_F_STRICT_ORIG	0x1	/* original iff the CFT is empty */

struct ofc_cfg {
	u8 mode;
	u32 flags;
	u32 xoff;	/* X_OFF, bytes */
	u32 xoff_c;	/* X^c_OFF, bytes */
	u32 xon;	/* X_ON, bytes */
	u32 xegress;	/* caPFC's egress threshold, bytes; 0 = X^c_OFF */
};

/* What one arriving packet sees. */
struct ofc_view {
	u32 qin;		/* bytes from its ingress port I, whole switch */
	u32 qout;		/* bytes in its egress queue, this priority */
	u32 qout_paused;	/* of which held by a pause from downstream */
	u32 qout_drain;		/* of which resumed and draining */
	bool cft_empty;		/* E holds no pause from downstream (CFT) */
	bool tracked;		/* the packet has a flow entry */
	bool in_cft;		/* its flow is paused downstream (or all is) */
	bool pft_all;		/* I already pauses all of the class */
	bool pft_any;		/* I already pauses some flows of the class */
	bool pft_has;		/* I already pauses this packet's flow */
};

enum ofc_act {
	OFC_NONE,
	OFC_PAUSE_ALL,		/* pause the whole class upstream of I */
	OFC_SCAN_ORIG,		/* pause every flow of E from I */
	OFC_SCAN_EXTRA,		/* pause E's flows from I, CFT or not */
	OFC_KEY_ORIG,		/* pause this packet's flow: original */
	OFC_KEY_LOCAL,		/* pause this packet's flow: local */
	OFC_KEY_EXTRA,		/* pause this packet's flow: not in the CFT */
};

/*
 * The decision for one arrival (Alg. 1 lines 3-14 as [O3], [O4], [O6]-[O10]
 * and 15 fix them). A full scan of E's flow table is asked for only when I
 * pauses nothing of the class yet; after that, each flow that keeps feeding
 * E shows up with its own packets and is decided alone. An untracked
 * packet (no flow key, or the flow table full) that ought to be paused
 * escalates to the whole class: it cannot be named.
 */
enum ofc_act ofc_eval(const struct ofc_cfg *c, const struct ofc_view *v);

/* Whether an action pauses as the original congestion point. */
static inline bool ofc_act_origin(enum ofc_act act)
{
	return act == OFC_SCAN_ORIG || act == OFC_KEY_ORIG ||
	       act == OFC_SCAN_EXTRA || act == OFC_KEY_EXTRA;
}

/* X^c_OFF = alpha * X_OFF (E7) with the paper's alpha, 68 KB / 75 KB. */
u32 ofc_xoff_c(u32 xoff);

enum ofc_cfg_err {
	OFC_CFG_OK,
	OFC_CFG_NO_XOFF,	/* ofc and caPFC need a static X_OFF */
	OFC_CFG_XOFF_C,		/* X^c_OFF not below X_OFF */
	OFC_CFG_XON,		/* X_ON not below X^c_OFF */
};

/* E5 for @c; pfc mode takes the port's thresholds as they are. */
enum ofc_cfg_err ofc_cfg_check(const struct ofc_cfg *c);

/*
 * One priority of an egress port: a normal lane N that every arrival joins
 * and two paused lanes that alternate (Alg. 3 as [O12], [O13] and [O15]
 * fix it). A paused head moves from the lane being served to the paused
 * lane p without being sent, so the packets behind it never wait on it. A
 * resume taken while p holds packets turns p into the drain lane d (served
 * first: resumed packets leave, still-paused ones move on to the other
 * lane, now p) and makes N wait at its head until d is empty, which is
 * the paper's Order Mark. Resumes that arrive during a drain wait for its
 * end ([O14]). A pause of the whole class holds N, never d, so a
 * drain always ends.
 */
#define OFC_LANE_N	0
#define OFC_LANES	3	/* N and the two paused lanes */
#define OFC_MARKS	1	/* N's mark behind d */
#define OFC_LANE_NONE	(-1)	/* nothing may be sent */
#define OFC_LANE_DRAINED (-2)	/* d just emptied: sync again */

struct ofc_band {
	struct fcq_iso *iso;	/* OFC_LANES lanes, OFC_MARKS marks */
	u8 p;			/* the paused lane, 1 or 2, always held */
	u8 d;			/* the drain lane, 0: none */
	bool all;		/* the whole class is paused: N held */
};

/* @iso: fcq_iso_init(@iso, OFC_LANES, OFC_MARKS) done, nothing queued. */
void ofc_band_init(struct ofc_band *b, struct fcq_iso *iso);

void ofc_band_pause_all(struct ofc_band *b);

/* Whether a resume may be taken now: not while a drain runs. */
static inline bool ofc_band_may_resume(const struct ofc_band *b)
{
	return !b->d;
}

void ofc_band_resume_all(struct ofc_band *b);

/* After a sync that took resumes: start a drain if p holds packets. */
bool ofc_band_resumed(struct ofc_band *b);

/*
 * The lane to send from: d while it drains, else N if it may send;
 * OFC_LANE_NONE, or OFC_LANE_DRAINED once when d has emptied (the caller
 * syncs again: deferred resumes may start the next drain at once).
 */
int ofc_band_lane(struct ofc_band *b);

/* Keep the head of @lane, @len bytes, paused: it moves to p. */
static inline void ofc_band_isolate(struct ofc_band *b, int lane, u32 len)
{
	fcq_iso_move(b->iso, lane, b->p, len);
}

#endif /* FCQ_CORE_OFC_H */
