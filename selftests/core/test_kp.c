// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of core/kp.c: the frames a TX book owes for each change of
 * what it wants, and what an RX book hands its scheme at a sync.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "keys.h"

#include "core/key.h"
#include "core/kp.h"

#define CAP	64

struct tx {
	struct fcq_kptx b;
	void *mem;
	struct fcq_kp_frame f;
	struct fcq_fkey keys[256];
};

static struct tx *tx_new(u32 cap)
{
	struct tx *t = calloc(1, sizeof(*t));

	t->mem = malloc(fcq_kptx_mem(cap));
	fcq_kptx_init(&t->b, t->mem, cap, 1);
	return t;
}

static void tx_free(struct tx *t)
{
	free(t->mem);
	free(t);
}

static bool tx_next(struct tx *t, u16 max)
{
	return fcq_kptx_next(&t->b, &t->f, t->keys, max);
}

static void tx_pause_then_resume_all(void **state)
{
	struct tx *t = tx_new(CAP);
	struct fcq_fkey a = test_pair4(1, 9), b = test_pair4(2, 9);

	assert_int_equal(fcq_kptx_want(&t->b, 3, &a, true), 1);
	assert_int_equal(fcq_kptx_want(&t->b, 3, &a, true), 0);
	assert_int_equal(fcq_kptx_want(&t->b, 3, &b, true), 1);
	assert_true(fcq_kptx_wants(&t->b, 3, &b));
	assert_true(tx_next(t, 16));
	assert_int_equal(t->f.prio, 3);
	assert_false(t->f.resume);
	assert_int_equal(t->f.flags, FCQ_EXT_F_ORIGIN);
	assert_int_equal(t->f.n, 2);
	assert_false(tx_next(t, 16));		/* owed once */
	/* one key released of two: a partial RESUME */
	fcq_kptx_unwant(&t->b, 3, &a);
	assert_true(tx_next(t, 16));
	assert_true(t->f.resume);
	assert_int_equal(t->f.flags, 0);
	assert_int_equal(t->f.n, 1);
	assert_true(fcq_key_eq(&t->keys[0], &a));
	/* the last released: RESUME ALL, which a keyless peer honours too */
	fcq_kptx_unwant(&t->b, 3, &b);
	assert_true(tx_next(t, 16));
	assert_true(t->f.resume);
	assert_int_equal(t->f.flags, FCQ_EXT_F_ALL);
	assert_int_equal(t->f.n, 0);
	assert_false(tx_next(t, 16));
	assert_int_equal(t->b.tab.n, 0);	/* nothing left behind */
	assert_int_equal(t->b.st.pause_frames, 1);
	assert_int_equal(t->b.st.resume_frames, 2);
	assert_int_equal(t->b.st.keys, 3);
	tx_free(t);
}

/* Frames lost unsent: the peer's state is set again, whatever it holds. */
static void tx_resend(void **state)
{
	struct tx *t = tx_new(CAP);
	struct fcq_fkey a = test_pair4(1, 9), b = test_pair4(2, 9);

	fcq_kptx_want(&t->b, 3, &a, false);
	fcq_kptx_want(&t->b, 3, &b, false);
	assert_true(tx_next(t, 16));		/* PAUSE {a, b} */
	fcq_kptx_unwant(&t->b, 3, &b);
	fcq_kptx_resend(&t->b, 1 << 3);		/* the RESUME {b} may be lost */
	assert_true(tx_next(t, 16));
	assert_true(t->f.resume);
	assert_int_equal(t->f.flags, FCQ_EXT_F_ALL);
	assert_true(tx_next(t, 16));		/* then what is still wanted */
	assert_false(t->f.resume);
	assert_int_equal(t->f.n, 1);
	assert_true(fcq_key_eq(&t->keys[0], &a));
	assert_false(tx_next(t, 16));
	/* the whole class wanted: its PAUSE ALL again, no RESUME before it */
	fcq_kptx_want_all(&t->b, 3);
	assert_true(tx_next(t, 16));
	assert_int_equal(t->f.flags, FCQ_EXT_F_ALL);
	assert_false(t->f.resume);
	fcq_kptx_resend(&t->b, 1 << 3);
	assert_true(tx_next(t, 16));
	assert_int_equal(t->f.flags, FCQ_EXT_F_ALL);
	assert_false(t->f.resume);
	assert_false(tx_next(t, 16));
	/* nothing ever sent: a RESUME ALL, harmless to a peer holding none */
	fcq_kptx_resend(&t->b, 1 << 5);
	assert_true(tx_next(t, 16));
	assert_int_equal(t->f.prio, 5);
	assert_true(t->f.resume);
	assert_false(tx_next(t, 16));
	tx_free(t);
}

static void tx_change_between_frames_is_free(void **state)
{
	struct tx *t = tx_new(CAP);
	struct fcq_fkey a = test_pair4(1, 9);

	fcq_kptx_want(&t->b, 0, &a, false);
	fcq_kptx_unwant(&t->b, 0, &a);
	assert_false(tx_next(t, 16));
	assert_int_equal(t->b.tab.n, 0);
	/* sent, then released and wanted again before the RESUME left */
	fcq_kptx_want(&t->b, 0, &a, false);
	assert_true(tx_next(t, 16));
	fcq_kptx_unwant(&t->b, 0, &a);
	fcq_kptx_want(&t->b, 0, &a, false);
	assert_false(tx_next(t, 16));
	assert_int_equal(t->b.st.pause_frames, 1);
	assert_int_equal(t->b.st.resume_frames, 0);
	tx_free(t);
}

static void tx_all_covers_keys(void **state)
{
	struct tx *t = tx_new(CAP);
	struct fcq_fkey a = test_pair4(1, 9);

	fcq_kptx_want(&t->b, 5, &a, false);
	fcq_kptx_want_all(&t->b, 5);
	assert_true(fcq_kptx_wants_any(&t->b, 5));
	assert_true(tx_next(t, 16));		/* ALL goes first */
	assert_int_equal(t->f.flags, FCQ_EXT_F_ALL);
	assert_false(t->f.resume);
	assert_false(tx_next(t, 16));		/* the key is covered */
	fcq_kptx_clear(&t->b, 5);
	assert_true(tx_next(t, 16));
	assert_true(t->f.resume);
	assert_int_equal(t->f.flags, FCQ_EXT_F_ALL);
	assert_false(tx_next(t, 16));
	assert_false(fcq_kptx_wants_any(&t->b, 5));
	assert_int_equal(t->b.tab.n, 0);
	assert_int_equal(t->b.st.all, 1);
	tx_free(t);
}

static void tx_level_releases_at_or_below(void **state)
{
	struct tx *t = tx_new(CAP);
	struct fcq_fkey a = test_pair4(1, 9);

	fcq_kptx_want(&t->b, 2, &a, true);
	fcq_kptx_arm(&t->b, 2, 46080);		/* X_ON, E4: q_in <= X_ON */
	assert_true(tx_next(t, 16));
	assert_false(fcq_kptx_level(&t->b, 2, 46081));
	assert_false(fcq_kptx_level(&t->b, 1, 0));	/* another class */
	assert_true(fcq_kptx_level(&t->b, 2, 46080));
	assert_false(fcq_kptx_level(&t->b, 2, 0));	/* disarmed */
	assert_true(tx_next(t, 16));
	assert_true(t->f.resume);
	assert_int_equal(t->f.flags, FCQ_EXT_F_ALL);
	tx_free(t);
}

static void tx_packs_by_max_type_origin(void **state)
{
	struct tx *t = tx_new(CAP);
	struct fcq_fkey k;
	int i, frames = 0, keys = 0;

	for (i = 0; i < 10; i++) {
		k = test_pair4(i, 200);
		fcq_kptx_want(&t->b, 1, &k, true);
	}
	/* 4 per frame: 4, 4, 2, MORE on all but the last */
	while (tx_next(t, 4)) {
		frames++;
		keys += t->f.n;
		assert_int_equal(!!(t->f.flags & FCQ_EXT_F_MORE), keys < 10);
	}
	assert_int_equal(frames, 3);
	assert_int_equal(keys, 10);

	/* one frame per wire type and per origin */
	k = test_pair6(1, 2);
	fcq_kptx_want(&t->b, 4, &k, true);
	k = test_pair4(1, 2);
	fcq_kptx_want(&t->b, 4, &k, true);
	k = test_pair4(3, 2);
	fcq_kptx_want(&t->b, 4, &k, false);
	frames = 0;
	while (tx_next(t, 16)) {
		frames++;
		assert_int_equal(t->f.n, 1);
		assert_int_equal(!!(t->f.flags & FCQ_EXT_F_MORE), frames < 3);
	}
	assert_int_equal(frames, 3);
	tx_free(t);
}

static void tx_lowest_class_first(void **state)
{
	struct tx *t = tx_new(CAP);
	struct fcq_fkey a = test_pair4(1, 9);

	fcq_kptx_want(&t->b, 6, &a, false);
	fcq_kptx_want_all(&t->b, 2);
	assert_true(tx_next(t, 16));
	assert_int_equal(t->f.prio, 2);
	assert_true(tx_next(t, 16));
	assert_int_equal(t->f.prio, 6);
	assert_false(tx_next(t, 16));
	assert_int_equal(t->b.dirty, 0);
	tx_free(t);
}

static void tx_full_wants_all(void **state)
{
	struct tx *t = tx_new(8);	/* one bucket: the ninth key is out */
	struct fcq_fkey k;
	int i;

	for (i = 0; i < 8; i++) {
		k = test_pair4(i, 1);
		assert_int_equal(fcq_kptx_want(&t->b, 0, &k, true), 1);
	}
	k = test_pair4(8, 1);
	assert_int_equal(fcq_kptx_want(&t->b, 0, &k, true), -1);
	assert_int_equal(t->b.st.full, 1);
	assert_true(tx_next(t, 16));
	assert_int_equal(t->f.flags, FCQ_EXT_F_ALL);
	tx_free(t);
}

/* An RX book and a scheme that records what it is told. */
struct rx {
	struct fcq_kprx b;
	void *mem;
	int pauses, resumes, all_pauses, all_resumes;
	bool decline;
};

static void rec_pause(void *arg, u8 p, const struct fcq_fkey *k)
{
	struct rx *r = arg;

	if (k)
		r->pauses++;
	else
		r->all_pauses++;
}

static bool rec_resume(void *arg, u8 p, const struct fcq_fkey *k)
{
	struct rx *r = arg;

	if (r->decline)
		return false;
	if (k)
		r->resumes++;
	else
		r->all_resumes++;
	return true;
}

static const struct fcq_kprx_ops rec_ops = {
	.pause = rec_pause, .resume = rec_resume,
};

static struct rx *rx_new(u32 cap, u64 timeout)
{
	struct rx *r = calloc(1, sizeof(*r));

	r->mem = malloc(fcq_kprx_mem(cap));
	fcq_kprx_init(&r->b, r->mem, cap, 7, timeout);
	return r;
}

static void rx_free(struct rx *r)
{
	free(r->mem);
	free(r);
}

static u8 rx_sync(struct rx *r)
{
	return fcq_kprx_sync(&r->b, 0xff, &rec_ops, r);
}

static void rx_pause_resume(void **state)
{
	struct rx *r = rx_new(CAP, 0);
	struct fcq_fkey a = test_pair4(1, 9);

	fcq_kprx_pause(&r->b, 3, &a, 10);
	fcq_kprx_pause(&r->b, 3, &a, 20);
	assert_int_equal(r->b.st.dup, 1);
	assert_false(fcq_kprx_applied(&r->b, 3, &a));	/* not yet synced */
	assert_int_equal(rx_sync(r), 0);
	assert_int_equal(r->pauses, 1);
	assert_true(fcq_kprx_applied(&r->b, 3, &a));
	assert_false(fcq_kprx_empty(&r->b, 3));
	assert_false(fcq_kprx_applied(&r->b, 2, &a));	/* the class counts */
	fcq_kprx_resume(&r->b, 3, &a);
	fcq_kprx_resume(&r->b, 3, &a);
	assert_int_equal(r->b.st.orphan, 1);
	assert_int_equal(rx_sync(r), 1 << 3);
	assert_int_equal(r->resumes, 1);
	assert_true(fcq_kprx_empty(&r->b, 3));
	assert_int_equal(r->b.tab.n, 0);
	assert_int_equal(r->b.pending, 0);
	rx_free(r);
}

static void rx_declined_resume_waits(void **state)
{
	struct rx *r = rx_new(CAP, 0);
	struct fcq_fkey a = test_pair4(1, 9);

	fcq_kprx_pause(&r->b, 0, &a, 0);
	fcq_kprx_pause(&r->b, 0, NULL, 0);
	rx_sync(r);
	assert_int_equal(r->all_pauses, 1);
	fcq_kprx_resume(&r->b, 0, NULL);	/* ends the keys too */
	r->decline = true;
	assert_int_equal(rx_sync(r), 0);
	assert_int_equal(rx_sync(r), 0);
	assert_int_equal(r->b.st.deferred, 2);	/* the key and ALL, once */
	assert_true(fcq_kprx_applied(&r->b, 0, &a));
	assert_int_equal(r->b.pending, 1);
	r->decline = false;
	assert_int_equal(rx_sync(r), 1);
	assert_int_equal(r->resumes, 1);
	assert_int_equal(r->all_resumes, 1);
	assert_true(fcq_kprx_empty(&r->b, 0));
	assert_int_equal(r->b.tab.n, 0);
	rx_free(r);
}

/*
 * A RESUME then a PAUSE of one flow while the first is still declined:
 * the flow stays held. A log of events replayed later would resume it
 * although the peer holds it paused.
 */
static void rx_pause_cancels_pending_resume(void **state)
{
	struct rx *r = rx_new(CAP, 0);
	struct fcq_fkey a = test_pair4(1, 9);

	fcq_kprx_pause(&r->b, 1, &a, 0);
	rx_sync(r);
	fcq_kprx_resume(&r->b, 1, &a);
	r->decline = true;
	rx_sync(r);
	fcq_kprx_pause(&r->b, 1, &a, 5);
	r->decline = false;
	rx_sync(r);
	assert_int_equal(r->resumes, 0);
	assert_int_equal(r->pauses, 1);
	assert_true(fcq_kprx_applied(&r->b, 1, &a));
	assert_int_equal(r->b.pending, 0);
	rx_free(r);
}

static void rx_full_holds_class(void **state)
{
	struct rx *r = rx_new(8, 0);
	struct fcq_fkey k;
	int i;

	for (i = 0; i < 9; i++) {
		k = test_pair4(i, 1);
		fcq_kprx_pause(&r->b, 0, &k, 0);
	}
	assert_int_equal(r->b.st.full, 1);
	rx_sync(r);
	assert_int_equal(r->pauses, 8);
	assert_int_equal(r->all_pauses, 1);
	/* the peer's RESUME ALL, owed once its set empties, ends it all */
	fcq_kprx_resume(&r->b, 0, NULL);
	rx_sync(r);
	assert_int_equal(r->resumes, 8);
	assert_int_equal(r->all_resumes, 1);
	assert_int_equal(r->b.tab.n, 0);
	rx_free(r);
}

static void rx_timeout(void **state)
{
	struct rx *r = rx_new(CAP, 1000);
	struct fcq_fkey a = test_pair4(1, 9);

	fcq_kprx_pause(&r->b, 2, &a, 100);
	fcq_kprx_pause(&r->b, 2, NULL, 500);
	rx_sync(r);
	assert_int_equal(fcq_kprx_expire(&r->b, 1099), 1100);
	assert_int_equal(r->b.pending, 0);
	assert_int_equal(fcq_kprx_expire(&r->b, 1100), 1500);
	assert_int_equal(r->b.st.expired, 1);
	assert_int_equal(rx_sync(r), 1 << 2);
	assert_int_equal(r->resumes, 1);
	assert_int_equal(fcq_kprx_expire(&r->b, 1500), 0);
	rx_sync(r);
	assert_int_equal(r->all_resumes, 1);
	assert_int_equal(r->b.st.expired, 2);
	rx_free(r);

	r = rx_new(CAP, 0);			/* off: never */
	fcq_kprx_pause(&r->b, 2, &a, 0);
	assert_int_equal(fcq_kprx_expire(&r->b, ~0ULL), 0);
	assert_int_equal(r->b.st.expired, 0);
	rx_free(r);
}

static void rx_sync_mask(void **state)
{
	struct rx *r = rx_new(CAP, 0);
	struct fcq_fkey a = test_pair4(1, 9);

	fcq_kprx_pause(&r->b, 1, &a, 0);
	fcq_kprx_pause(&r->b, 4, &a, 0);
	fcq_kprx_sync(&r->b, 1 << 4, &rec_ops, r);
	assert_int_equal(r->pauses, 1);
	assert_int_equal(r->b.pending, 1 << 1);
	rx_free(r);
}

/* A link that went down: every class's pauses end, keys and ALL alike. */
static void rx_resume_all(void **state)
{
	struct rx *r = rx_new(CAP, 0);
	struct fcq_fkey a = test_pair4(1, 9), b = test_pair4(2, 9);

	fcq_kprx_pause(&r->b, 1, &a, 0);
	fcq_kprx_pause(&r->b, 3, &a, 0);
	fcq_kprx_pause(&r->b, 3, &b, 0);
	fcq_kprx_pause(&r->b, 6, NULL, 0);
	assert_int_equal(rx_sync(r), 0);
	assert_int_equal(r->pauses, 3);
	assert_int_equal(r->all_pauses, 1);
	fcq_kprx_resume_all(&r->b);
	assert_int_equal(rx_sync(r), 1 << 1 | 1 << 3 | 1 << 6);
	assert_int_equal(r->resumes, 3);
	assert_int_equal(r->all_resumes, 1);
	assert_int_equal(r->b.tab.n, 0);
	assert_int_equal(r->b.pending, 0);
	assert_true(fcq_kprx_empty(&r->b, 3));
	rx_free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(tx_pause_then_resume_all),
		cmocka_unit_test(tx_resend),
		cmocka_unit_test(tx_change_between_frames_is_free),
		cmocka_unit_test(tx_all_covers_keys),
		cmocka_unit_test(tx_level_releases_at_or_below),
		cmocka_unit_test(tx_packs_by_max_type_origin),
		cmocka_unit_test(tx_lowest_class_first),
		cmocka_unit_test(tx_full_wants_all),
		cmocka_unit_test(rx_pause_resume),
		cmocka_unit_test(rx_declined_resume_waits),
		cmocka_unit_test(rx_pause_cancels_pending_resume),
		cmocka_unit_test(rx_full_holds_class),
		cmocka_unit_test(rx_timeout),
		cmocka_unit_test(rx_sync_mask),
		cmocka_unit_test(rx_resume_all),
	};

	return cmocka_run_group_tests_name("core/kp", tests, NULL, NULL);
}
