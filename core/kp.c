// SPDX-License-Identifier: GPL-2.0
/*
 * Keyed pauses: the TX and RX books (see kp.h). Both walk their table
 * when a class changed, per frame or per change, never per packet; a walk
 * costs the entries in use (the table's bitmap skips the free slots), not
 * its capacity, which may be thousands of flows.
 */
#include "kp.h"
#include "key.h"

#define BIT_P(p)	((u8)(1U << (p)))

/* The next used entry of class @p from slot *@i on (entries begin with f) */
static void *next_of(struct fcq_ftab *t, u8 p, u32 *i)
{
	struct fcq_fent *e;

	while ((e = fcq_ftab_next(t, i)) && e->tag != p)
		(*i)++;
	return e;
}

#define kp_for_each(b, p, e, i)						\
	for ((i) = 0; ((e) = next_of(&(b)->tab, (p), &(i))); (i)++)

size_t fcq_kptx_mem(u32 cap)
{
	return fcq_ftab_size(cap, sizeof(struct fcq_kptx_ent));
}

void fcq_kptx_init(struct fcq_kptx *b, void *mem, u32 cap, u32 seed)
{
	memset(b, 0, sizeof(*b));
	fcq_ftab_init(&b->tab, mem, cap, sizeof(struct fcq_kptx_ent), seed);
}

static void tx_put_idle(struct fcq_kptx *b, struct fcq_kptx_ent *e)
{
	if (!e->want && !e->sent)
		fcq_ftab_put(&b->tab, &e->f);
}

int fcq_kptx_want(struct fcq_kptx *b, u8 p, const struct fcq_fkey *k,
		  bool origin)
{
	struct fcq_kptx_ent *e;
	bool created;

	e = (struct fcq_kptx_ent *)fcq_ftab_get(&b->tab, k, p, &created);
	if (!e) {
		b->st.full++;
		fcq_kptx_want_all(b, p);
		return -1;
	}
	if (e->want)
		return 0;
	e->want = 1;
	e->origin = origin;
	b->nwant[p]++;
	b->dirty |= BIT_P(p);
	return 1;
}

void fcq_kptx_want_all(struct fcq_kptx *b, u8 p)
{
	b->all_want |= BIT_P(p);
	b->dirty |= BIT_P(p);
}

void fcq_kptx_unwant(struct fcq_kptx *b, u8 p, const struct fcq_fkey *k)
{
	struct fcq_kptx_ent *e;

	e = (struct fcq_kptx_ent *)fcq_ftab_find(&b->tab, k, p);
	if (!e || !e->want)
		return;
	e->want = 0;
	b->nwant[p]--;
	b->dirty |= BIT_P(p);
	tx_put_idle(b, e);
}

void fcq_kptx_clear(struct fcq_kptx *b, u8 p)
{
	struct fcq_kptx_ent *e;
	u32 i;

	b->all_want &= ~BIT_P(p);
	b->armed &= ~BIT_P(p);
	if (b->nwant[p]) {
		kp_for_each(b, p, e, i) {
			e->want = 0;
			tx_put_idle(b, e);
		}
		b->nwant[p] = 0;
	}
	b->dirty |= BIT_P(p);
}

void fcq_kptx_arm(struct fcq_kptx *b, u8 p, u32 level)
{
	b->level[p] = level;
	b->armed |= BIT_P(p);
}

bool fcq_kptx_level(struct fcq_kptx *b, u8 p, u32 bytes)
{
	if (!(b->armed & BIT_P(p)) || bytes > b->level[p])
		return false;
	fcq_kptx_clear(b, p);
	return true;
}

bool fcq_kptx_wants(struct fcq_kptx *b, u8 p, const struct fcq_fkey *k)
{
	struct fcq_kptx_ent *e;

	e = (struct fcq_kptx_ent *)fcq_ftab_find(&b->tab, k, p);
	return e && e->want;
}

/*
 * Move up to @max keys of @p that are owed one way into @keys: all of one
 * wire type (and, for pauses, one origin). *more: some are left for
 * another frame.
 */
static u16 tx_collect(struct fcq_kptx *b, u8 p, bool resume,
		      struct fcq_fkey *keys, u16 max, bool *more, bool *origin)
{
	struct fcq_kptx_ent *e;
	u8 wk = 0;
	u16 n = 0;
	u32 i;

	*more = false;
	kp_for_each(b, p, e, i) {
		if (resume ? !e->sent || e->want : !e->want || e->sent)
			continue;
		if (!n) {
			wk = fcq_key_wire(&e->f.key);
			*origin = e->origin;
		} else if (n == max || fcq_key_wire(&e->f.key) != wk ||
			   (!resume && e->origin != *origin)) {
			*more = true;
			continue;
		}
		keys[n++] = e->f.key;
		if (resume) {
			e->sent = 0;
			b->nsent[p]--;
			tx_put_idle(b, e);
		} else {
			e->sent = 1;
			b->nsent[p]++;
		}
	}
	return n;
}

/* RESUME ALL: the peer forgets everything of @p this side had sent. */
static void tx_resume_all(struct fcq_kptx *b, u8 p)
{
	struct fcq_kptx_ent *e;
	u32 i;

	b->all_sent &= ~BIT_P(p);
	if (b->nsent[p]) {
		kp_for_each(b, p, e, i) {
			e->sent = 0;
			tx_put_idle(b, e);
		}
		b->nsent[p] = 0;
	}
}

void fcq_kptx_resend(struct fcq_kptx *b, u8 mask)
{
	b->all_sent = (b->all_sent & ~mask) | (mask & ~b->all_want);
	b->dirty |= mask;
}

bool fcq_kptx_next(struct fcq_kptx *b, struct fcq_kp_frame *f,
		   struct fcq_fkey *keys, u16 max)
{
	bool more, origin = false;
	u8 p, bit;

	for (p = 0; b->dirty && p < FCQ_NUM_PRIO; p++) {
		bit = BIT_P(p);
		if (!(b->dirty & bit))
			continue;
		memset(f, 0, sizeof(*f));
		f->prio = p;
		if (b->all_want & ~b->all_sent & bit) {
			b->all_sent |= bit;
			f->flags = FCQ_EXT_F_ALL;
			b->st.pause_frames++;
			b->st.all++;
			return true;
		}
		if ((b->all_sent & ~b->all_want & bit) ||
		    (!(b->all_want & bit) && !b->nwant[p] && b->nsent[p])) {
			tx_resume_all(b, p);
			f->resume = true;
			f->flags = FCQ_EXT_F_ALL;
			b->st.resume_frames++;
			return true;
		}
		/* Under ALL, named keys would be forgotten at its RESUME */
		if (!(b->all_sent & bit)) {
			f->n = tx_collect(b, p, true, keys, max, &more, &origin);
			if (f->n) {
				f->resume = true;
				b->st.resume_frames++;
			} else {
				f->n = tx_collect(b, p, false, keys, max, &more,
						  &origin);
				b->st.pause_frames += !!f->n;
			}
			if (f->n) {
				f->flags = (more ? FCQ_EXT_F_MORE : 0) |
					   (origin && !f->resume ?
					    FCQ_EXT_F_ORIGIN : 0);
				b->st.keys += f->n;
				return true;
			}
		}
		b->dirty &= ~bit;
	}
	return false;
}

size_t fcq_kprx_mem(u32 cap)
{
	return fcq_ftab_size(cap, sizeof(struct fcq_kprx_ent));
}

void fcq_kprx_init(struct fcq_kprx *b, void *mem, u32 cap, u32 seed,
		   u64 timeout)
{
	memset(b, 0, sizeof(*b));
	fcq_ftab_init(&b->tab, mem, cap, sizeof(struct fcq_kprx_ent), seed);
	b->timeout = timeout;
}

static void rx_pause_all(struct fcq_kprx *b, u8 p, u64 now)
{
	if (b->all_peer & BIT_P(p)) {
		b->st.dup++;
		return;
	}
	b->all_peer |= BIT_P(p);
	b->all_since[p] = now;
	b->pending |= BIT_P(p);
}

void fcq_kprx_pause(struct fcq_kprx *b, u8 p, const struct fcq_fkey *k,
		    u64 now)
{
	struct fcq_kprx_ent *e;
	bool created;

	if (!k) {
		b->st.all++;
		rx_pause_all(b, p, now);
		return;
	}
	b->st.keys++;
	e = (struct fcq_kprx_ent *)fcq_ftab_get(&b->tab, k, p, &created);
	if (!e) {
		/* Held as a class until the peer resumes all of it */
		b->st.full++;
		if (!(b->all_peer & BIT_P(p)))
			rx_pause_all(b, p, now);
		return;
	}
	if (e->peer) {
		b->st.dup++;
		return;
	}
	e->peer = 1;
	e->since = now;
	b->pending |= BIT_P(p);
}

void fcq_kprx_resume(struct fcq_kprx *b, u8 p, const struct fcq_fkey *k)
{
	struct fcq_kprx_ent *e;
	u32 i;

	if (!k) {
		b->all_peer &= ~BIT_P(p);
		kp_for_each(b, p, e, i)
			e->peer = 0;
		b->pending |= BIT_P(p);
		return;
	}
	b->st.keys++;
	e = (struct fcq_kprx_ent *)fcq_ftab_find(&b->tab, k, p);
	if (!e || !e->peer) {
		b->st.orphan++;
		return;
	}
	e->peer = 0;
	b->pending |= BIT_P(p);
}

void fcq_kprx_resume_all(struct fcq_kprx *b)
{
	struct fcq_fent *e;
	u32 i;

	b->all_peer = 0;
	fcq_ftab_for_each(&b->tab, e, i)
		((struct fcq_kprx_ent *)e)->peer = 0;
	b->pending = 0xff;
}

/* Settle class @p; false if a resume was declined. */
static bool rx_sync_prio(struct fcq_kprx *b, u8 p,
			 const struct fcq_kprx_ops *ops, void *arg,
			 u8 *resumed)
{
	u8 bit = BIT_P(p);
	struct fcq_kprx_ent *e;
	bool settled = true;
	u32 i;

	if (b->all_peer & ~b->all_applied & bit) {
		ops->pause(arg, p, NULL);
		b->all_applied |= bit;
	}
	kp_for_each(b, p, e, i) {
		if (e->peer && !e->applied) {
			ops->pause(arg, p, &e->f.key);
			e->applied = 1;
			b->napplied[p]++;
		}
	}
	kp_for_each(b, p, e, i) {
		if (e->peer)
			continue;
		if (e->applied) {
			if (!ops->resume(arg, p, &e->f.key)) {
				settled = false;
				b->st.deferred += !e->deferred;
				e->deferred = 1;
				continue;
			}
			b->napplied[p]--;
			*resumed |= bit;
		}
		fcq_ftab_put(&b->tab, &e->f);
	}
	if (b->all_applied & ~b->all_peer & bit) {
		if (ops->resume(arg, p, NULL)) {
			b->all_applied &= ~bit;
			b->all_deferred &= ~bit;
			*resumed |= bit;
		} else {
			settled = false;
			b->st.deferred += !(b->all_deferred & bit);
			b->all_deferred |= bit;
		}
	}
	return settled;
}

u8 fcq_kprx_sync(struct fcq_kprx *b, u8 mask, const struct fcq_kprx_ops *ops,
		 void *arg)
{
	u8 resumed = 0, p;

	for (p = 0; p < FCQ_NUM_PRIO; p++) {
		if ((b->pending & mask & BIT_P(p)) &&
		    rx_sync_prio(b, p, ops, arg, &resumed))
			b->pending &= ~BIT_P(p);
	}
	return resumed;
}

/* Keep the earliest expiry in *next (0: none yet). */
static bool rx_expired(const struct fcq_kprx *b, u64 since, u64 now,
		       u64 *next)
{
	u64 at = since + b->timeout;

	if (now >= at)
		return true;
	if (!*next || at < *next)
		*next = at;
	return false;
}

u64 fcq_kprx_expire(struct fcq_kprx *b, u64 now)
{
	struct fcq_kprx_ent *e;
	u64 next = 0;
	u32 i;
	u8 p;

	if (!b->timeout)
		return 0;
	for (p = 0; p < FCQ_NUM_PRIO; p++) {
		if ((b->all_peer & BIT_P(p)) &&
		    rx_expired(b, b->all_since[p], now, &next)) {
			b->all_peer &= ~BIT_P(p);
			b->pending |= BIT_P(p);
			b->st.expired++;
		}
	}
	for (i = 0; (e = (void *)fcq_ftab_next(&b->tab, &i)); i++) {
		if (e->peer && rx_expired(b, e->since, now, &next)) {
			e->peer = 0;
			b->pending |= BIT_P(e->f.tag);
			b->st.expired++;
		}
	}
	return next;
}

bool fcq_kprx_applied(struct fcq_kprx *b, u8 p, const struct fcq_fkey *k)
{
	struct fcq_kprx_ent *e;

	e = (struct fcq_kprx_ent *)fcq_ftab_find(&b->tab, k, p);
	return e && e->applied;
}
