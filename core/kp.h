/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Keyed pauses: flow sets a port pauses at its link peer, and back.
 *
 * PFC pauses a class for a time. Fine-grained schemes (OFC, FlowSail)
 * pause named flows of a class until a RESUME names them again, so both
 * ends keep state, not timers, and each side is a book of flow keys:
 *
 *   TX book, at an ingress port: the flows it *wants* held upstream and the
 *   ones it has *sent* as held. The difference is what it still owes its
 *   peer, read off as frames by fcq_kptx_next() when the link can take one.
 *   A PAUSE and its RESUME between two frames cost nothing, and a frame that
 *   could not be sent is simply owed again.
 *
 *   RX book, at an egress port: the flows the *peer* holds paused and the
 *   ones the scheme has *applied* to its queues. fcq_kprx_sync() hands the
 *   difference to the scheme, which may decline a resume for now (OFC
 *   defers RESUMEs while a drain runs) and gets it again at the next sync.
 *
 * Both books are per class, and a key set may also be "all": the whole
 * class. A RESUME for "all" ends everything the sender held of the class,
 * named keys included, so a TX book whose wanted set empties sends that one
 * frame, which a peer that knows no keys can also honour exactly. A book
 * that is full pauses the whole class instead of losing a key (counted).
 */
#ifndef FCQ_CORE_KP_H
#define FCQ_CORE_KP_H

#include "core.h"
#include "frames.h"
#include "ftab.h"

/* One keyed frame, as the TX book owes it and the RX side receives it. */
struct fcq_kp_frame {
	u8 prio;
	bool resume;		/* else pause */
	u8 flags;		/* FCQ_EXT_F_ALL | _ORIGIN | _MORE */
	u16 n;			/* keys that go with it (0 with ALL) */
};

struct fcq_kptx_ent {
	struct fcq_fent f;	/* tag: the class */
	u8 want, sent, origin;
};

struct fcq_kptx_stats {
	u64 pause_frames, resume_frames;
	u64 keys;		/* keys carried, either way */
	u64 all;		/* PAUSE ALL frames */
	u64 full;		/* a key the book had no room for: ALL */
};

struct fcq_kptx {
	struct fcq_ftab tab;
	u8 all_want, all_sent;	/* bit p: the whole class */
	u8 dirty;		/* bit p: a frame may be owed */
	u8 armed;		/* bit p: release all at level[p] */
	u32 level[FCQ_NUM_PRIO];
	u32 nwant[FCQ_NUM_PRIO], nsent[FCQ_NUM_PRIO];
	struct fcq_kptx_stats st;
};

size_t fcq_kptx_mem(u32 cap);
void fcq_kptx_init(struct fcq_kptx *b, void *mem, u32 cap, u32 seed);

/*
 * Want @k of class @p held upstream; @origin marks the frame as sent by
 * the congestion's origin. 1: newly wanted, 0: already, -1: no room, the
 * whole class is wanted instead.
 */
int fcq_kptx_want(struct fcq_kptx *b, u8 p, const struct fcq_fkey *k,
		  bool origin);
void fcq_kptx_want_all(struct fcq_kptx *b, u8 p);
void fcq_kptx_unwant(struct fcq_kptx *b, u8 p, const struct fcq_fkey *k);
/* Want nothing of @p any more (and disarm). */
void fcq_kptx_clear(struct fcq_kptx *b, u8 p);
/*
 * The frames sent of the classes in @mask may not have arrived (dropped
 * unsent): owe what sets the peer's state again, a PAUSE ALL if the class
 * is wanted whole, else a RESUME ALL and then the keys still wanted.
 */
void fcq_kptx_resend(struct fcq_kptx *b, u8 mask);

/* Release everything of @p once its queue falls to @level bytes. */
void fcq_kptx_arm(struct fcq_kptx *b, u8 p, u32 level);
/* The queue of @p holds @bytes: release it if armed and at its level. */
bool fcq_kptx_level(struct fcq_kptx *b, u8 p, u32 bytes);

bool fcq_kptx_wants(struct fcq_kptx *b, u8 p, const struct fcq_fkey *k);

static inline bool fcq_kptx_wants_any(const struct fcq_kptx *b, u8 p)
{
	return (b->all_want & (1U << p)) || b->nwant[p];
}

/*
 * The next frame owed, lowest class first: PAUSE ALL; then RESUME ALL
 * (the class released, or nothing named is wanted any more); then
 * RESUMEs of keys no longer wanted; then PAUSEs of new keys. Keys of one
 * frame share their wire type and origin; at most @max of them go in
 * @keys, with MORE set when others wait. The book takes the frame as sent.
 * false: nothing is owed.
 */
bool fcq_kptx_next(struct fcq_kptx *b, struct fcq_kp_frame *f,
		   struct fcq_fkey *keys, u16 max);

struct fcq_kprx_ent {
	struct fcq_fent f;	/* tag: the class */
	u8 peer, applied;
	u8 deferred;		/* a declined resume, counted once */
	u64 since;		/* peer paused it at (ns) */
};

struct fcq_kprx_stats {
	u64 pause_frames, resume_frames;
	u64 keys;		/* keys received */
	u64 all;		/* PAUSE ALL received */
	u64 dup;		/* PAUSE of a key already paused */
	u64 orphan;		/* RESUME of a key not paused */
	u64 full;		/* no room for a key: the whole class held */
	u64 expired;		/* pauses ended by the timeout */
	u64 deferred;		/* resumes the scheme declined for a while */
};

struct fcq_kprx {
	struct fcq_ftab tab;
	u8 all_peer, all_applied;	/* bit p: the whole class */
	u8 all_deferred;
	u8 pending;			/* bit p: peer and applied differ */
	u64 all_since[FCQ_NUM_PRIO];
	u64 timeout;			/* ns; 0: a pause lasts until resumed */
	u32 napplied[FCQ_NUM_PRIO];
	struct fcq_kprx_stats st;
};

/* What the scheme does with a change; @k NULL is the whole class. */
struct fcq_kprx_ops {
	void (*pause)(void *arg, u8 p, const struct fcq_fkey *k);
	bool (*resume)(void *arg, u8 p, const struct fcq_fkey *k); /* false: not now */
};

size_t fcq_kprx_mem(u32 cap);
void fcq_kprx_init(struct fcq_kprx *b, void *mem, u32 cap, u32 seed,
		   u64 timeout);

/* Apply a received frame's key, @k NULL for ALL, at @now. */
void fcq_kprx_pause(struct fcq_kprx *b, u8 p, const struct fcq_fkey *k,
		    u64 now);
void fcq_kprx_resume(struct fcq_kprx *b, u8 p, const struct fcq_fkey *k);
/* Every pause of every class ended, as if by a RESUME ALL of each. */
void fcq_kprx_resume_all(struct fcq_kprx *b);

/*
 * Hand the classes in @mask that changed to @ops: the whole class first,
 * then each key, pauses before resumes. Returns the classes in which a
 * resume was taken.
 */
u8 fcq_kprx_sync(struct fcq_kprx *b, u8 mask, const struct fcq_kprx_ops *ops,
		 void *arg);

/* End the peer's pauses older than the timeout; the next expiry, or 0. */
u64 fcq_kprx_expire(struct fcq_kprx *b, u64 now);

/* The scheme holds @k of @p (for itself, not for the whole class). */
bool fcq_kprx_applied(struct fcq_kprx *b, u8 p, const struct fcq_fkey *k);

static inline bool fcq_kprx_applied_all(const struct fcq_kprx *b, u8 p)
{
	return b->all_applied & (1U << p);
}

/* The scheme holds nothing of @p: no ALL, no key. */
static inline bool fcq_kprx_empty(const struct fcq_kprx *b, u8 p)
{
	return !fcq_kprx_applied_all(b, p) && !b->napplied[p];
}

#endif /* FCQ_CORE_KP_H */
