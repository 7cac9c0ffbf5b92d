// SPDX-License-Identifier: GPL-2.0
/*
 * Bounded set-associative flow table (see ftab.h).
 */
#include "ftab.h"

u32 fcq_ftab_cap(u32 cap)
{
	u32 c = FCQ_FTAB_WAYS;

	if (!cap || cap > FCQ_FTAB_MAX_CAP)
		return 0;
	while (c < cap)
		c <<= 1;
	return c;
}

/* Where the bitmap starts in the table's memory: after the entries. */
static size_t used_offset(u32 cap, u32 esize)
{
	return ((size_t)cap * esize + 7) & ~(size_t)7;
}

size_t fcq_ftab_size(u32 cap, u32 esize)
{
	u32 c = fcq_ftab_cap(cap);

	return c ? used_offset(c, esize) + (c + 63) / 64 * sizeof(u64) : 0;
}

void fcq_ftab_init(struct fcq_ftab *t, void *mem, u32 cap, u32 esize,
		   u32 seed)
{
	memset(mem, 0, fcq_ftab_size(cap, esize));
	t->mem = mem;
	t->used = (u64 *)((u8 *)mem + used_offset(fcq_ftab_cap(cap), esize));
	t->esize = esize;
	t->nbuckets = fcq_ftab_cap(cap) / FCQ_FTAB_WAYS;
	t->seed = seed;
	t->n = 0;
	t->full = 0;
}

/* The first slot of the bucket of @hash. */
static u32 bucket(const struct fcq_ftab *t, u32 hash)
{
	return (hash & (t->nbuckets - 1)) * FCQ_FTAB_WAYS;
}

static bool match(const struct fcq_fent *e, const struct fcq_fkey *k,
		  u32 hash)
{
	return e->used && e->hash == hash && fcq_key_eq(&e->key, k);
}

struct fcq_fent *fcq_ftab_find(struct fcq_ftab *t, const struct fcq_fkey *k,
			       u16 tag)
{
	u32 hash = fcq_key_hash(k, t->seed);
	u32 i, b = bucket(t, hash);
	struct fcq_fent *e;

	for (i = b; i < b + FCQ_FTAB_WAYS; i++) {
		e = fcq_ftab_at(t, i);
		if (match(e, k, hash) && e->tag == tag)
			return e;
	}
	return NULL;
}

struct fcq_fent *fcq_ftab_get(struct fcq_ftab *t, const struct fcq_fkey *k,
			      u16 tag, bool *created)
{
	u32 hash = fcq_key_hash(k, t->seed);
	u32 i, b = bucket(t, hash);
	struct fcq_fent *e, *hole = NULL;

	*created = false;
	for (i = b; i < b + FCQ_FTAB_WAYS; i++) {
		e = fcq_ftab_at(t, i);
		if (match(e, k, hash) && e->tag == tag)
			return e;
		if (!e->used && !hole)
			hole = e;
	}
	if (!hole) {
		t->full++;
		return NULL;
	}
	/* A put entry is zero already; the caller's payload stays so. */
	hole->key = *k;
	hole->hash = hash;
	hole->tag = tag;
	hole->used = 1;
	i = fcq_ftab_slot(t, hole);
	t->used[i / 64] |= 1ULL << (i % 64);
	t->n++;
	*created = true;
	return hole;
}

void fcq_ftab_put(struct fcq_ftab *t, struct fcq_fent *e)
{
	u32 i = fcq_ftab_slot(t, e);

	t->used[i / 64] &= ~(1ULL << (i % 64));
	memset(e, 0, t->esize);
	t->n--;
}

/* A word of the bitmap at a time: slots past the capacity are never set. */
struct fcq_fent *fcq_ftab_next(struct fcq_ftab *t, u32 *i)
{
	u32 end = t->nbuckets * FCQ_FTAB_WAYS, w = *i / 64;
	u64 bits;

	if (*i >= end)
		return NULL;
	bits = t->used[w] & (~0ULL << (*i % 64));
	while (!bits) {
		if (++w >= (end + 63) / 64) {
			*i = end;
			return NULL;
		}
		bits = t->used[w];
	}
	*i = w * 64 + fcq_ctz64(bits);
	return fcq_ftab_at(t, *i);
}

/* The entries of @k from slot *@i to the end of its bucket. */
static struct fcq_fent *key_scan(struct fcq_ftab *t, const struct fcq_fkey *k,
				 u32 *i)
{
	struct fcq_fent *e;

	for (;; (*i)++) {
		e = fcq_ftab_at(t, *i);
		if (e->used && fcq_key_eq(&e->key, k))
			return e;
		if ((*i & (FCQ_FTAB_WAYS - 1)) == FCQ_FTAB_WAYS - 1)
			return NULL;
	}
}

struct fcq_fent *fcq_ftab_key_first(struct fcq_ftab *t,
				    const struct fcq_fkey *k, u32 *i)
{
	*i = bucket(t, fcq_key_hash(k, t->seed));
	return key_scan(t, k, i);
}

struct fcq_fent *fcq_ftab_key_next(struct fcq_ftab *t,
				   const struct fcq_fkey *k, u32 *i)
{
	if ((*i & (FCQ_FTAB_WAYS - 1)) == FCQ_FTAB_WAYS - 1)
		return NULL;
	(*i)++;
	return key_scan(t, k, i);
}
