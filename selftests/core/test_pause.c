// SPDX-License-Identifier: GPL-2.0
/* Unit tests of core/pause.c: override semantics and paused-time totals. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "core/pause.h"

static void expiry(void **state)
{
	struct fcq_pause p = { 0 };

	assert_false(fcq_pause_active(&p, 0));
	fcq_pause_set(&p, 100, 50);
	assert_true(fcq_pause_active(&p, 100));
	assert_true(fcq_pause_active(&p, 149));
	assert_false(fcq_pause_active(&p, 150));	/* quanta expiry */
	assert_int_equal(fcq_pause_total(&p, 120), 20);
	assert_int_equal(fcq_pause_total(&p, 1000), 50);
}

static void zero_quanta_resumes(void **state)
{
	struct fcq_pause p = { 0 };

	fcq_pause_set(&p, 100, 1000);
	fcq_pause_set(&p, 130, 0);
	assert_false(fcq_pause_active(&p, 130));
	assert_int_equal(fcq_pause_total(&p, 5000), 30);
}

static void pause_while_paused_overrides(void **state)
{
	struct fcq_pause p = { 0 };

	/* A refresh extends; a shorter pause shortens (it replaces). */
	fcq_pause_set(&p, 0, 100);
	fcq_pause_set(&p, 80, 100);
	assert_true(fcq_pause_active(&p, 170));
	fcq_pause_set(&p, 100, 10);
	assert_false(fcq_pause_active(&p, 110));
	assert_int_equal(fcq_pause_total(&p, 1000), 110);
}

static void gaps_are_not_paused(void **state)
{
	struct fcq_pause p = { 0 };

	fcq_pause_set(&p, 0, 10);
	fcq_pause_set(&p, 100, 10);
	fcq_pause_set(&p, 200, 10);
	assert_int_equal(fcq_pause_total(&p, 205), 25);
	assert_int_equal(fcq_pause_total(&p, 300), 30);
}

static void clock_skew_is_harmless(void **state)
{
	struct fcq_pause p = { 0 };

	/* `now` sampled before a lock may be a little older than `since`. */
	fcq_pause_set(&p, 100, 50);
	fcq_pause_set(&p, 90, 50);
	assert_true(fcq_pause_active(&p, 149));
	assert_int_equal(fcq_pause_total(&p, 95), 0);
	assert_int_equal(fcq_pause_total(&p, 1000), 50);
}

static void accumulating_pause_extends(void **state)
{
	struct fcq_pause p = { 0 };

	/* While paused, an accumulating pause adds to the expiry ... */
	fcq_pause_extend(&p, 100, 50);
	fcq_pause_extend(&p, 120, 50);
	assert_true(fcq_pause_active(&p, 199));
	assert_false(fcq_pause_active(&p, 200));
	/* ... and after expiry starts a new interval from now. */
	fcq_pause_extend(&p, 300, 10);
	assert_true(fcq_pause_active(&p, 309));
	assert_false(fcq_pause_active(&p, 310));
	assert_int_equal(fcq_pause_total(&p, 1000), 110);
	/* An override after accumulation still replaces it. */
	fcq_pause_extend(&p, 400, 100);
	fcq_pause_set(&p, 450, 0);
	assert_false(fcq_pause_active(&p, 450));
	assert_int_equal(fcq_pause_total(&p, 1000), 160);
}

/* Sender-side accumulation (override frames carrying until - now) and
 * receiver-side accumulation give the same pause at a constant delay.
 */
static void sender_side_equals_receiver_side(void **state)
{
	const u64 when[] = { 0, 30, 40, 200, 210, 500 };
	const u64 len[] = { 50, 50, 20, 100, 5, 70 };
	struct fcq_pause rx_acc = { 0 }, rx_ovr = { 0 };
	u64 shadow = 0, delay = 7;
	int k;

	for (k = 0; k < 6; k++) {
		shadow = fcq_max64(shadow, when[k]) + len[k];
		fcq_pause_extend(&rx_acc, when[k] + delay, len[k]);
		fcq_pause_set(&rx_ovr, when[k] + delay, shadow - when[k]);
		assert_int_equal(rx_acc.until, rx_ovr.until);
	}
	assert_int_equal(fcq_pause_total(&rx_acc, 10000),
			 fcq_pause_total(&rx_ovr, 10000));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(expiry),
		cmocka_unit_test(zero_quanta_resumes),
		cmocka_unit_test(pause_while_paused_overrides),
		cmocka_unit_test(gaps_are_not_paused),
		cmocka_unit_test(clock_skew_is_harmless),
		cmocka_unit_test(accumulating_pause_extends),
		cmocka_unit_test(sender_side_equals_receiver_side),
	};

	return cmocka_run_group_tests_name("core/pause", tests, NULL, NULL);
}
