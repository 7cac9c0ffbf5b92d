/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Order-preserving isolation of paused flows: the bookkeeping of a few FIFO
 * lanes, without the packets themselves.
 *
 * Keyed pauses (OFC, FlowSail) move a paused flow's packets out of their
 * normal lane so that other flows keep going, and must still deliver every
 * flow in order once it resumes. Both schemes need the same three things:
 *
 * - positions: a lane counts the entries ever pushed (tail) and popped
 *   (head), so "the entry at position x" names a packet without a pointer;
 * - holds: a count of reasons a lane may not send (a paused lane, OFC's
 *   pause ALL, FlowSail's rsvQ and the original queue of a paused flow);
 * - order marks: the entries of lane L from position @at on may not leave
 *   before lane P has popped up to position @until. Everything a flow had
 *   in P sits below @until, everything it put in L later sits at or after
 *   @at, so the flow stays in order across the two lanes. This replaces
 *   the papers' marker packets (OFC's RESUME in the paused queue, FlowSail's
 *   Order Mark pair).
 *
 * OFC: lane 0 = N, 1 and 2 = the alternating paused lanes; on a resume the
 * paused lane p becomes the drain lane d, and N waits at its head for d:
 * fcq_iso_order(s, 0, head(N), d, tail(d)). FlowSail: normal lanes and a
 * reserved lane; a flow paused with packets in lane q orders the reserved
 * lane's tail after the flow's newest packet in q:
 * fcq_iso_order(s, rsv, tail(rsv), q, that packet's position + 1).
 *
 * The caller owns the memory (fcq_iso_size()) and keeps the packets; it
 * calls push/pop for every packet it queues or dequeues, and sends from a
 * lane only while fcq_iso_servable() says so. Positions are u32 and wrap;
 * they are compared by signed difference, valid while a lane holds fewer
 * than 2^31 entries. Cost: a mark is found by a scan of the live marks,
 * done only for a lane that has marks (servable) or is awaited (pop).
 */
#ifndef FCQ_CORE_ISO_H
#define FCQ_CORE_ISO_H

#include "core.h"

struct fcq_iso_lane {
	u32 head;	/* entries ever popped: the oldest entry's position */
	u32 tail;	/* entries ever pushed: the next entry's position */
	u32 bytes;
	u16 hold;	/* reasons not to send; 0: may send */
	u16 nblock;	/* live marks on this lane */
	u16 nawait;	/* live marks that wait for this lane */
};

/* Entries of @lane from @at on wait until lane @partner's head is @until. */
struct fcq_iso_mark {
	u16 lane, partner;
	u32 at, until;
};

struct fcq_iso {
	u16 n;			/* lanes */
	u16 nmarks_max;
	u16 nmarks;		/* live marks, first in the mark array */
	u64 marks_full;		/* fcq_iso_order() refused: no free mark */
	struct fcq_iso_lane lane[];	/* [n], then the marks [nmarks_max] */
};

/* The marks follow the lanes in the caller's block (no pointer: the block
 * may be copied).
 */
static inline struct fcq_iso_mark *fcq_iso_marks(const struct fcq_iso *s)
{
	return (struct fcq_iso_mark *)&s->lane[s->n];
}

static inline u32 fcq_iso_head(const struct fcq_iso *s, int lane)
{
	return s->lane[lane].head;
}

static inline u32 fcq_iso_tail(const struct fcq_iso *s, int lane)
{
	return s->lane[lane].tail;
}

/* Entries in @lane. */
static inline u32 fcq_iso_pkts(const struct fcq_iso *s, int lane)
{
	return s->lane[lane].tail - s->lane[lane].head;
}

/* Bytes of the block for @lanes lanes and @marks marks. */
size_t fcq_iso_size(u16 lanes, u16 marks);

/* Lay @s out over fcq_iso_size(lanes, marks) bytes: all empty, no hold. */
void fcq_iso_init(struct fcq_iso *s, u16 lanes, u16 marks);

/* An entry of @len bytes joins the tail of @lane; returns its position. */
u32 fcq_iso_push(struct fcq_iso *s, int lane, u32 len);

/* The head entry of @lane, @len bytes, leaves (sent, dropped or moved). */
void fcq_iso_pop(struct fcq_iso *s, int lane, u32 len);

/* Move the head of @from to the tail of @to without sending it (OFC's
 * isolation of a paused head); returns its new position.
 */
static inline u32 fcq_iso_move(struct fcq_iso *s, int from, int to, u32 len)
{
	fcq_iso_pop(s, from, len);
	return fcq_iso_push(s, to, len);
}

/* Add @delta (+1 or -1) to the holds of @lane. */
void fcq_iso_hold(struct fcq_iso *s, int lane, int delta);

/* @lane has an entry, no hold, and its head is not behind a live mark. */
bool fcq_iso_servable(const struct fcq_iso *s, int lane);

/*
 * Entries of lane @newer at positions from @at on (at most its tail) may
 * not leave before lane @older's head reaches @until (at most its tail).
 * The mark is dropped as soon as it does. Returns 0, also when nothing
 * below @until is left; -1 if every mark is in use (marks_full counts it),
 * and the caller must then not rely on order across the two lanes.
 */
int fcq_iso_order(struct fcq_iso *s, int newer, u32 at, int older,
		  u32 until);

/* Every lane empties and every mark goes (a flush). Holds stay: they
 * mirror pause state that the flush does not end.
 */
void fcq_iso_reset(struct fcq_iso *s);

#endif /* FCQ_CORE_ISO_H */
