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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(expiry),
		cmocka_unit_test(zero_quanta_resumes),
		cmocka_unit_test(pause_while_paused_overrides),
		cmocka_unit_test(gaps_are_not_paused),
		cmocka_unit_test(clock_skew_is_harmless),
	};

	return cmocka_run_group_tests_name("core/pause", tests, NULL, NULL);
}
