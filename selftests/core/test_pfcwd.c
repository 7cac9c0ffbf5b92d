// SPDX-License-Identifier: GPL-2.0
/* Unit tests of core/pfcwd.c: the PFC watchdog's detection and restoration. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "core/pfcwd.h"

#define MS 1000000ULL
#define NEVER (~0ULL)

static const struct fcq_pfcwd_cfg cfg = {
	.detect = 10 * MS,
	.restore = 50 * MS,
};

/* Paused until @until, with packets, @tx sent, last pause frame at @rx. */
static enum fcq_pfcwd_event poll(struct fcq_pfcwd *w, u64 now, u64 until,
				  bool q, u64 tx, u64 rx, u64 *next)
{
	struct fcq_pfcwd_seen s = {
		.paused_until = until, .backlog = q, .tx = tx, .pause_rx = rx,
	};

	*next = NEVER;
	return fcq_pfcwd_poll(w, &cfg, &s, now, next);
}

static void storm_after_detect(void **state)
{
	struct fcq_pfcwd w = { 0 };
	u64 next;

	assert_int_equal(poll(&w, 100 * MS, NEVER, true, 7, 100 * MS, &next),
			 FCQ_PFCWD_NONE);
	assert_int_equal(next, 110 * MS);	/* the poll that decides */
	assert_int_equal(poll(&w, 109 * MS, NEVER, true, 7, 109 * MS, &next),
			 FCQ_PFCWD_NONE);
	assert_int_equal(poll(&w, 110 * MS, NEVER, true, 7, 110 * MS, &next),
			 FCQ_PFCWD_STORM);
	assert_true(w.storm);
	assert_int_equal(w.storms, 1);
	assert_int_equal(next, 160 * MS);
}

static void progress_is_no_storm(void **state)
{
	struct fcq_pfcwd w = { 0 };
	u64 next, t;

	/* Paused at every poll, but a packet goes out between polls. */
	for (t = 0; t < 100; t++)
		assert_int_equal(poll(&w, (100 + t * 5) * MS, NEVER, true, t,
				      0, &next), FCQ_PFCWD_NONE);
	assert_int_equal(w.storms, 0);
	/* The clock starts at the poll that saw the last packet out. */
	assert_int_equal(poll(&w, 604 * MS, NEVER, true, 99, 0, &next),
			 FCQ_PFCWD_NONE);
	assert_int_equal(poll(&w, 605 * MS, NEVER, true, 99, 0, &next),
			 FCQ_PFCWD_STORM);
}

static void not_paused_or_empty_is_no_storm(void **state)
{
	struct fcq_pfcwd w = { 0 };
	u64 next;

	/* An empty class, paused for ever: nothing held up. */
	assert_int_equal(poll(&w, 0, NEVER, false, 0, 0, &next), FCQ_PFCWD_NONE);
	assert_int_equal(poll(&w, 20 * MS, NEVER, false, 0, 0, &next),
			 FCQ_PFCWD_NONE);
	/* A class not paused, not sending (another class's turn). */
	assert_int_equal(poll(&w, 40 * MS, 40 * MS, true, 0, 0, &next),
			 FCQ_PFCWD_NONE);
	assert_int_equal(poll(&w, 60 * MS, 0, true, 0, 0, &next), FCQ_PFCWD_NONE);
	assert_int_equal(next, NEVER);
	/* A gap unpaused restarts the clock. */
	poll(&w, 100 * MS, NEVER, true, 0, 0, &next);
	poll(&w, 105 * MS, 0, true, 0, 0, &next);
	assert_int_equal(poll(&w, 112 * MS, NEVER, true, 0, 0, &next),
			 FCQ_PFCWD_NONE);
	assert_int_equal(next, 122 * MS);
}

static void off_never_fires(void **state)
{
	const struct fcq_pfcwd_cfg off = { .detect = 0, .restore = 50 * MS };
	struct fcq_pfcwd_seen s = { .paused_until = NEVER, .backlog = true };
	struct fcq_pfcwd w = { 0 };
	u64 next = NEVER;

	assert_int_equal(fcq_pfcwd_poll(&w, &off, &s, 0, &next), FCQ_PFCWD_NONE);
	assert_int_equal(fcq_pfcwd_poll(&w, &off, &s, 1000 * MS, &next),
			 FCQ_PFCWD_NONE);
	assert_int_equal(next, NEVER);
}

static void restore_after_quiet(void **state)
{
	struct fcq_pfcwd w = { 0 };
	u64 next;

	poll(&w, 0, NEVER, true, 0, 0, &next);
	assert_int_equal(poll(&w, 10 * MS, NEVER, true, 0, 10 * MS, &next),
			 FCQ_PFCWD_STORM);
	/* The peer goes on pausing: the storm goes on past restore. */
	assert_int_equal(poll(&w, 60 * MS, NEVER, true, 0, 58 * MS, &next),
			 FCQ_PFCWD_NONE);
	assert_int_equal(next, NEVER);	/* in effect until a resume */
	assert_int_equal(poll(&w, 70 * MS, 80 * MS, true, 0, 58 * MS, &next),
			 FCQ_PFCWD_NONE);
	assert_int_equal(next, 108 * MS);	/* 50 ms after its last pause */
	/* It stopped at 58 ms: quiet for 50 ms and no pause in effect. */
	assert_int_equal(poll(&w, 107 * MS, 80 * MS, true, 0, 58 * MS, &next),
			 FCQ_PFCWD_NONE);
	assert_int_equal(poll(&w, 108 * MS, 80 * MS, false, 0, 58 * MS, &next),
			 FCQ_PFCWD_RESTORE);
	assert_false(w.storm);
	/* Back to normal: a new storm needs detect again. */
	assert_int_equal(poll(&w, 200 * MS, NEVER, true, 0, 200 * MS, &next),
			 FCQ_PFCWD_NONE);
	assert_int_equal(poll(&w, 210 * MS, NEVER, true, 0, 210 * MS, &next),
			 FCQ_PFCWD_STORM);
	assert_int_equal(w.storms, 2);
}

static void storm_lasts_restore_at_least(void **state)
{
	struct fcq_pfcwd w = { 0 };
	u64 next;

	poll(&w, 0, NEVER, true, 0, 0, &next);
	poll(&w, 10 * MS, NEVER, true, 0, 0, &next);
	assert_true(w.storm);
	/* The peer fell silent before the storm began: still restore. */
	assert_int_equal(poll(&w, 59 * MS, 0, false, 0, 0, &next),
			 FCQ_PFCWD_NONE);
	assert_int_equal(next, 60 * MS);
	assert_int_equal(poll(&w, 60 * MS, 0, false, 0, 0, &next),
			 FCQ_PFCWD_RESTORE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(storm_after_detect),
		cmocka_unit_test(progress_is_no_storm),
		cmocka_unit_test(not_paused_or_empty_is_no_storm),
		cmocka_unit_test(off_never_fires),
		cmocka_unit_test(restore_after_quiet),
		cmocka_unit_test(storm_lasts_restore_at_least),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
