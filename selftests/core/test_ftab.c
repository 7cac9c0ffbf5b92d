// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of core/ftab.c: bounded buckets, identity by (key, tag),
 * stable slots and the iterators.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "core/ftab.h"

#define SEED	0x5eed1234

/* A caller's entry: the header first, then its payload. */
struct ent {
	struct fcq_fent f;
	u32 pkts;
	u64 bytes;
};

struct tab {
	struct fcq_ftab t;
	void *mem;
};

static struct tab *tab_new(u32 cap)
{
	struct tab *x = malloc(sizeof(*x));
	size_t size = fcq_ftab_size(cap, sizeof(struct ent));

	assert_true(size > 0);
	x->mem = malloc(size);
	memset(x->mem, 0xaa, size);
	fcq_ftab_init(&x->t, x->mem, cap, sizeof(struct ent), SEED);
	return x;
}

static void tab_free(struct tab *x)
{
	free(x->mem);
	free(x);
}

/* The @i-th test key: an IPv4 5-tuple. */
static struct fcq_fkey key(u32 i)
{
	struct fcq_fkey k;

	memset(&k, 0, sizeof(k));
	k.type = FCQ_KEY_5TUPLE;
	k.family = 4;
	k.proto = 17;
	k.sport = i & 0xffff;
	k.dport = 4791;
	memcpy(k.saddr, "\x0a\x00\x00\x01", 4);
	k.daddr[0] = 10;
	k.daddr[3] = i >> 16;
	return k;
}

static u32 bucket_of(const struct fcq_ftab *t, const struct fcq_fkey *k)
{
	return fcq_key_hash(k, t->seed) & (t->nbuckets - 1);
}

/* Fill @out with @n distinct keys that land in bucket @b of @t. */
static void colliding(const struct fcq_ftab *t, u32 b, struct fcq_fkey *out,
		      int n)
{
	struct fcq_fkey k;
	int got = 0;
	u32 i;

	for (i = 0; got < n; i++) {
		assert_true(i < 100000);
		k = key(i);
		if (bucket_of(t, &k) == b)
			out[got++] = k;
	}
}

static struct fcq_fent *get(struct fcq_ftab *t, const struct fcq_fkey *k,
			    u16 tag, bool want_created)
{
	struct fcq_fent *e;
	bool created;

	e = fcq_ftab_get(t, k, tag, &created);
	assert_non_null(e);
	assert_int_equal(created, want_created);
	assert_true(e->used);
	assert_int_equal(e->tag, tag);
	assert_true(fcq_key_eq(&e->key, k));
	return e;
}

static void sizes(void **state)
{
	struct tab *x;

	assert_int_equal(fcq_ftab_cap(0), 0);
	assert_int_equal(fcq_ftab_cap(1), 8);
	assert_int_equal(fcq_ftab_cap(8), 8);
	assert_int_equal(fcq_ftab_cap(9), 16);
	assert_int_equal(fcq_ftab_cap(1000), 1024);
	assert_int_equal(fcq_ftab_cap(1024), 1024);
	assert_int_equal(fcq_ftab_cap(FCQ_FTAB_MAX_CAP), FCQ_FTAB_MAX_CAP);
	assert_int_equal(fcq_ftab_cap(FCQ_FTAB_MAX_CAP + 1), 0);
	/* Slot + 1 fits in a u16, 0 kept for none. */
	assert_true(FCQ_FTAB_MAX_CAP <= 65535);
	/* the entries, then a bit per slot */
	assert_int_equal(fcq_ftab_size(1000, 64), 1024 * 64 + 1024 / 8);
	assert_int_equal(fcq_ftab_size(8, 12), 96 + 8);
	assert_int_equal(fcq_ftab_size(8, 13), 104 + 8);	/* aligned */
	assert_int_equal(fcq_ftab_size(0, 64), 0);
	assert_int_equal(fcq_ftab_size(FCQ_FTAB_MAX_CAP + 1, 64), 0);

	x = tab_new(1000);
	assert_int_equal(x->t.nbuckets, 128);
	assert_int_equal(x->t.n, 0);
	assert_int_equal(x->t.full, 0);
	tab_free(x);

	/* The largest table: the last slot is 32767 and reachable. */
	x = tab_new(FCQ_FTAB_MAX_CAP);
	assert_int_equal(x->t.nbuckets, FCQ_FTAB_MAX_CAP / 8);
	assert_int_equal(fcq_ftab_slot(&x->t, fcq_ftab_at(&x->t, 32767)),
			 32767);
	tab_free(x);
}

static void ninth_key_is_refused(void **state)
{
	struct tab *x = tab_new(64);
	struct fcq_fent *e[8];
	struct fcq_fkey k[9], other;
	u32 b = 0, i;
	bool created;

	colliding(&x->t, 3, k, 9);
	for (i = 0; i < 8; i++) {
		e[i] = get(&x->t, &k[i], 0, true);
		b = bucket_of(&x->t, &k[i]);
		assert_int_equal(fcq_ftab_slot(&x->t, e[i]) / 8, b);
	}
	assert_int_equal(x->t.n, 8);
	assert_null(fcq_ftab_get(&x->t, &k[8], 0, &created));
	assert_false(created);
	assert_int_equal(x->t.full, 1);
	assert_null(fcq_ftab_get(&x->t, &k[8], 3, &created));
	assert_int_equal(x->t.full, 2);
	assert_null(fcq_ftab_find(&x->t, &k[8], 0));
	assert_int_equal(x->t.n, 8);
	/* The known keys are still found, without counting. */
	for (i = 0; i < 8; i++) {
		assert_ptr_equal(get(&x->t, &k[i], 0, false), e[i]);
		assert_ptr_equal(fcq_ftab_find(&x->t, &k[i], 0), e[i]);
	}
	assert_int_equal(x->t.full, 2);
	/* Other buckets still take keys. */
	for (i = 1;; i++) {
		other = key(i);
		if (bucket_of(&x->t, &other) != b)
			break;
	}
	get(&x->t, &other, 0, true);
	assert_int_equal(x->t.n, 9);

	/* Put then get: the 9th takes the freed way. */
	fcq_ftab_put(&x->t, e[5]);
	assert_int_equal(x->t.n, 8);
	assert_null(fcq_ftab_find(&x->t, &k[5], 0));
	assert_ptr_equal(get(&x->t, &k[8], 0, true), e[5]);
	assert_int_equal(x->t.n, 9);
	assert_int_equal(x->t.full, 2);
	tab_free(x);
}

static void get_twice(void **state)
{
	struct tab *x = tab_new(64);
	struct fcq_fkey k = key(42), k2 = key(43);
	struct fcq_fent *e = get(&x->t, &k, 7, true);

	assert_ptr_equal(get(&x->t, &k, 7, false), e);
	assert_ptr_equal(fcq_ftab_find(&x->t, &k, 7), e);
	assert_int_equal(e->hash, fcq_key_hash(&k, SEED));
	assert_int_equal(x->t.n, 1);
	assert_null(fcq_ftab_find(&x->t, &k, 8));
	assert_null(fcq_ftab_find(&x->t, &k2, 7));
	tab_free(x);
}

static void tags_share_a_bucket(void **state)
{
	struct tab *x = tab_new(64);
	struct fcq_fkey k[2];
	struct fcq_fent *e, *byt[8] = { NULL };
	u32 i, b, seen;
	bool created;
	u16 tag;

	colliding(&x->t, 5, k, 2);
	b = bucket_of(&x->t, &k[0]);
	/* Key 0 with tags 0..4, key 1 with tags 0..2: 8 ways. */
	for (tag = 0; tag < 5; tag++) {
		byt[tag] = get(&x->t, &k[0], tag, true);
		assert_int_equal(fcq_ftab_slot(&x->t, byt[tag]) / 8, b);
	}
	for (tag = 0; tag < 3; tag++)
		get(&x->t, &k[1], tag, true);
	assert_int_equal(x->t.n, 8);
	for (tag = 0; tag < 5; tag++)
		assert_ptr_equal(fcq_ftab_find(&x->t, &k[0], tag), byt[tag]);
	assert_null(fcq_ftab_get(&x->t, &k[0], 5, &created));
	assert_int_equal(x->t.full, 1);

	seen = 0;
	fcq_ftab_for_each_key(&x->t, &k[0], e, i) {
		assert_true(fcq_key_eq(&e->key, &k[0]));
		assert_ptr_equal(e, fcq_ftab_at(&x->t, i));
		assert_ptr_equal(e, byt[e->tag]);
		seen |= 1u << e->tag;
	}
	assert_int_equal(seen, 0x1f);
	seen = 0;
	fcq_ftab_for_each_key(&x->t, &k[1], e, i)
		seen |= 1u << e->tag;
	assert_int_equal(seen, 0x07);

	/* Putting while iterating is safe and reaches every entry. */
	fcq_ftab_for_each_key(&x->t, &k[0], e, i)
		fcq_ftab_put(&x->t, e);
	assert_int_equal(x->t.n, 3);
	fcq_ftab_for_each_key(&x->t, &k[0], e, i)
		fail();
	seen = 0;
	fcq_ftab_for_each_key(&x->t, &k[1], e, i)
		seen |= 1u << e->tag;
	assert_int_equal(seen, 0x07);
	tab_free(x);
}

/*
 * A key scan ends with its bucket: in the last bucket, where memory ends
 * (ASan checks), and with the key in the last way.
 */
static void key_scan_stays_in_bucket(void **state)
{
	struct tab *x = tab_new(64);
	u32 i, count = 0, last = x->t.nbuckets - 1;
	struct fcq_fent *e, *e7 = NULL;
	struct fcq_fkey k[8];

	colliding(&x->t, last, k, 8);
	for (i = 0; i < 8; i++)
		e7 = get(&x->t, &k[i], 0, true);
	assert_int_equal(fcq_ftab_slot(&x->t, e7), 8 * last + 7);
	fcq_ftab_for_each_key(&x->t, &k[7], e, i) {
		assert_int_equal(i, 8 * last + 7);
		count++;
	}
	assert_int_equal(count, 1);
	fcq_ftab_put(&x->t, e7);
	fcq_ftab_for_each_key(&x->t, &k[7], e, i)
		fail();
	tab_free(x);
}

static void slots_are_stable(void **state)
{
	struct tab *x = tab_new(256);
	struct fcq_fent *e[100];
	u16 slot[100];
	struct fcq_fkey k;
	bool created;
	u32 i;

	for (i = 0; i < 100; i++) {
		k = key(i);
		e[i] = fcq_ftab_get(&x->t, &k, i % 3, &created);
		assert_non_null(e[i]);
		slot[i] = fcq_ftab_slot(&x->t, e[i]);
		assert_true(slot[i] < 256);
		assert_ptr_equal(fcq_ftab_at(&x->t, slot[i]), e[i]);
	}
	for (i = 0; i < 100; i += 2)
		fcq_ftab_put(&x->t, e[i]);
	assert_int_equal(x->t.n, 50);
	/* New entries fill holes, never move the others. */
	for (i = 100; i < 140; i++) {
		k = key(i);
		assert_non_null(fcq_ftab_get(&x->t, &k, 0, &created));
	}
	for (i = 1; i < 100; i += 2) {
		k = key(i);
		assert_ptr_equal(fcq_ftab_find(&x->t, &k, i % 3),
				 fcq_ftab_at(&x->t, slot[i]));
		assert_int_equal(fcq_ftab_slot(&x->t, e[i]), slot[i]);
	}
	tab_free(x);
}

static void iterate_visits_the_used(void **state)
{
	struct tab *x = tab_new(128);
	u8 used[128] = { 0 };
	struct fcq_fent *e;
	struct fcq_fkey k;
	u32 i, count = 0;
	bool created;

	fcq_ftab_for_each(&x->t, e, i)
		fail();
	for (i = 0; i < 90; i++) {
		k = key(i);
		e = fcq_ftab_get(&x->t, &k, 0, &created);
		if (e)
			used[fcq_ftab_slot(&x->t, e)] = 1;
	}
	for (i = 0; i < 90; i += 3) {
		k = key(i);
		e = fcq_ftab_find(&x->t, &k, 0);
		if (e) {
			used[fcq_ftab_slot(&x->t, e)] = 0;
			fcq_ftab_put(&x->t, e);
		}
	}
	fcq_ftab_for_each(&x->t, e, i) {
		assert_int_equal(fcq_ftab_slot(&x->t, e), i);
		assert_true(used[i]);
		used[i] = 2;
		count++;
	}
	assert_int_equal(count, x->t.n);
	for (i = 0; i < 128; i++)
		assert_int_not_equal(used[i], 1);
	/* Putting every entry while iterating empties the table. */
	fcq_ftab_for_each(&x->t, e, i)
		fcq_ftab_put(&x->t, e);
	assert_int_equal(x->t.n, 0);
	fcq_ftab_for_each(&x->t, e, i)
		fail();
	tab_free(x);
}

/*
 * The walk against the entries' own used flags, from every start slot,
 * through churn that fills and empties whole bitmap words: 200 rounds of
 * gets and puts of random keys and tags in a table of 256 slots (4 words).
 */
static void walk_matches_used_flags(void **state)
{
	struct tab *x = tab_new(256);
	struct fcq_fent *e;
	struct fcq_fkey k;
	u32 r, j, i, want, rnd = 12345;
	bool created;

	for (r = 0; r < 200; r++) {
		for (j = 0; j < 40; j++) {
			rnd = rnd * 1103515245 + 12345;
			k = key((rnd >> 8) % 400);
			if ((rnd >> 4) % 3 == 0 || r % 50 >= 40) {
				e = fcq_ftab_find(&x->t, &k, rnd % 2);
				if (e)
					fcq_ftab_put(&x->t, e);
			} else {
				fcq_ftab_get(&x->t, &k, rnd % 2, &created);
			}
		}
		for (i = 0; i <= 256; i++) {
			for (want = i; want < 256; want++)
				if (fcq_ftab_at(&x->t, want)->used)
					break;
			j = i;
			e = fcq_ftab_next(&x->t, &j);
			assert_int_equal(j, want);
			if (want == 256)
				assert_null(e);
			else
				assert_ptr_equal(e, fcq_ftab_at(&x->t, want));
		}
	}
	tab_free(x);
}

static void payload_is_zeroed(void **state)
{
	struct tab *x = tab_new(8);
	struct fcq_fkey k = key(1), k2 = key(2);
	struct ent *a, *b;
	u8 *p;
	size_t i;

	/* init zeroed the 0xaa fill */
	for (p = x->mem, i = 0; i < fcq_ftab_size(8, sizeof(*a)); i++)
		assert_int_equal(p[i], 0);
	a = (struct ent *)get(&x->t, &k, 1, true);
	assert_int_equal(a->pkts, 0);
	assert_int_equal(a->bytes, 0);
	a->pkts = 0xffffffff;
	a->bytes = ~0ULL;
	fcq_ftab_put(&x->t, &a->f);
	for (p = (u8 *)a, i = 0; i < sizeof(*a); i++)
		assert_int_equal(p[i], 0);
	/* One bucket: the new entry takes the freed way, with no payload. */
	b = (struct ent *)get(&x->t, &k2, 1, true);
	assert_ptr_equal(b, a);
	assert_int_equal(b->pkts, 0);
	assert_int_equal(b->bytes, 0);
	tab_free(x);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(sizes),
		cmocka_unit_test(ninth_key_is_refused),
		cmocka_unit_test(get_twice),
		cmocka_unit_test(tags_share_a_bucket),
		cmocka_unit_test(key_scan_stays_in_bucket),
		cmocka_unit_test(slots_are_stable),
		cmocka_unit_test(iterate_visits_the_used),
		cmocka_unit_test(walk_matches_used_flags),
		cmocka_unit_test(payload_is_zeroed),
	};

	return cmocka_run_group_tests_name("core/ftab", tests, NULL, NULL);
}
