/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A bounded flow table: entries named by (flow key, tag) in caller-provided
 * memory, 8 ways per bucket. An entry never moves (no cuckoo relocation), so
 * its slot number may be kept in a packet's control block for as long as
 * the entry lives. When a key's 8 ways are taken, a new entry is refused
 * and counted in `full`; the caller falls back to something coarser.
 *
 * The bucket is chosen by the key's hash alone and the tag is part of the
 * identity, so all entries of one key (one per tag) share its bucket and
 * fcq_ftab_for_each_key() finds them in one bucket scan.
 *
 * A bitmap of the used slots, after the entries in the same memory, lets a
 * walk of the table (fcq_ftab_for_each()) skip 64 free slots per word: it
 * costs the used entries and a word per 64 slots, not every slot.
 *
 * The caller's entry type embeds struct fcq_fent first; @esize is its size.
 * Slots are 0-based. The capacity is rounded up to a power of two (at least
 * one bucket of 8), so that the bucket is the hash masked, and is at most
 * FCQ_FTAB_MAX_CAP, so that a slot + 1 fits in a u16 with 0 left for "none".
 */
#ifndef FCQ_CORE_FTAB_H
#define FCQ_CORE_FTAB_H

#include "core.h"
#include "key.h"

#define FCQ_FTAB_WAYS		8
#define FCQ_FTAB_MAX_CAP	32768

/* The header of every entry. */
struct fcq_fent {
	struct fcq_fkey key;
	u32 hash;		/* fcq_key_hash(&key, seed) */
	u16 tag;
	u8 used;
	u8 pad;
};

struct fcq_ftab {
	void *mem;		/* nbuckets * FCQ_FTAB_WAYS entries */
	u64 *used;		/* a bit per slot, set while it is used */
	u32 esize;		/* bytes per entry, >= sizeof(struct fcq_fent) */
	u32 nbuckets;		/* a power of two */
	u32 seed;
	u32 n;			/* entries in use */
	u64 full;		/* entries refused: their bucket was full */
};

/*
 * The capacity a table asked for @cap entries gets; 0 if @cap is 0 or
 * above FCQ_FTAB_MAX_CAP.
 */
u32 fcq_ftab_cap(u32 cap);

/*
 * Bytes of memory for @cap entries of @esize bytes and their bitmap; 0 if
 * @cap is invalid.
 */
size_t fcq_ftab_size(u32 cap, u32 esize);

/*
 * Set up @t on @mem, fcq_ftab_size(@cap, @esize) bytes (which must be > 0),
 * aligned for the caller's entry type; zeroes it. @seed should be random.
 */
void fcq_ftab_init(struct fcq_ftab *t, void *mem, u32 cap, u32 esize,
		   u32 seed);

/* The entry of (@k, @tag), or NULL. */
struct fcq_fent *fcq_ftab_find(struct fcq_ftab *t, const struct fcq_fkey *k,
			       u16 tag);

/*
 * The entry of (@k, @tag), created if absent: *@created tells which, and a
 * new entry is zero beyond its header. NULL when the bucket is full
 * (counted in t->full).
 */
struct fcq_fent *fcq_ftab_get(struct fcq_ftab *t, const struct fcq_fkey *k,
			      u16 tag, bool *created);

/* Free @e, a used entry of @t: it is zeroed and its slot may be reused. */
void fcq_ftab_put(struct fcq_ftab *t, struct fcq_fent *e);

/* @e's 0-based slot: below the capacity, and stable until @e is put. */
static inline u16 fcq_ftab_slot(const struct fcq_ftab *t,
				const struct fcq_fent *e)
{
	return (u16)((u32)((const u8 *)e - (const u8 *)t->mem) / t->esize);
}

/* The entry at @slot (used or not), below the capacity. */
static inline struct fcq_fent *fcq_ftab_at(struct fcq_ftab *t, u16 slot)
{
	return (struct fcq_fent *)((u8 *)t->mem + (size_t)slot * t->esize);
}

/*
 * Behind the iterators: the first used entry at or after slot *@i (of @k,
 * within @k's bucket, for the key ones), with *@i set to its slot; NULL
 * when there is none.
 */
struct fcq_fent *fcq_ftab_next(struct fcq_ftab *t, u32 *i);
struct fcq_fent *fcq_ftab_key_first(struct fcq_ftab *t,
				    const struct fcq_fkey *k, u32 *i);
struct fcq_fent *fcq_ftab_key_next(struct fcq_ftab *t,
				   const struct fcq_fkey *k, u32 *i);

/*
 * Every used entry @e (struct fcq_fent *) of @t; @i (u32) is its slot.
 * Putting @e inside the loop is safe. Like the kernel's list iterators,
 * these evaluate their arguments more than once.
 */
#define fcq_ftab_for_each(t, e, i)					\
	for ((i) = 0; ((e) = fcq_ftab_next(t, &(i))); (i)++)

/* Every used entry of key @k, whatever its tag; safe as above. */
#define fcq_ftab_for_each_key(t, k, e, i)				\
	for ((e) = fcq_ftab_key_first(t, k, &(i)); (e);			\
	     (e) = fcq_ftab_key_next(t, k, &(i)))

#endif /* FCQ_CORE_FTAB_H */
