// SPDX-License-Identifier: GPL-2.0
/* Unit tests of core/ecn.c: RED-like and step ECN marking. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "core/ecn.h"

static void off_marks_nothing(void **state)
{
	const struct fcq_ecn e = { 0 };

	assert_false(fcq_ecn_mark(&e, 1 << 30, 0));
}

static void step_at_k(void **state)
{
	/* DCTCP: kmin = kmax = K. */
	const struct fcq_ecn e = { 30000, 30000, FCQ_ECN_PROB_ONE };

	assert_false(fcq_ecn_mark(&e, 30000, 0));
	assert_true(fcq_ecn_mark(&e, 30001, 65535));
}

static void linear_between(void **state)
{
	/* kmin 10 kB, kmax 50 kB, pmax 0.2: at 30 kB, p = 0.1. */
	const struct fcq_ecn e = { 10000, 50000, FCQ_ECN_PROB_ONE / 5 };
	int i, marked = 0;

	assert_false(fcq_ecn_mark(&e, 10000, 0));
	assert_true(fcq_ecn_mark(&e, 50000, 65535));
	srand(3);
	for (i = 0; i < 100000; i++)
		marked += fcq_ecn_mark(&e, 30000, rand() % 65536);
	assert_true(marked > 9500 && marked < 10500);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(off_marks_nothing),
		cmocka_unit_test(step_at_k),
		cmocka_unit_test(linear_between),
	};

	return cmocka_run_group_tests_name("core/ecn", tests, NULL, NULL);
}
