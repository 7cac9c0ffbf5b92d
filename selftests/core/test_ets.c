// SPDX-License-Identifier: GPL-2.0
/* Unit tests of core/ets.c: strict priority and DRR shares. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "core/ets.h"

static void init(struct fcq_ets *e, u8 strict, u32 quantum)
{
	int c;

	memset(e, 0, sizeof(*e));
	e->strict = strict;
	for (c = 0; c < FCQ_NUM_PRIO; c++)
		e->quantum[c] = quantum;
}

static void nothing_ready(void **state)
{
	const u32 len[8] = { 0 };
	struct fcq_ets e;

	init(&e, 0x80, 1500);
	assert_int_equal(fcq_ets_pick(&e, 0, len), -1);
}

static void strict_highest_first(void **state)
{
	const u32 len[8] = { 100, 100, 100, 100, 100, 100, 100, 100 };
	struct fcq_ets e;

	init(&e, 0xa0, 1500);			/* 5 and 7 strict */
	assert_int_equal(fcq_ets_pick(&e, 0xff, len), 7);
	assert_int_equal(fcq_ets_pick(&e, 0x7f, len), 5);
	/* Paused strict classes (not ready) let DRR classes through. */
	assert_int_not_equal(fcq_ets_pick(&e, 0x5f, len), 5);
	assert_int_equal(fcq_ets_pick(&e, 0x08, len), 3);
}

static void drr_shares_follow_quanta(void **state)
{
	const u32 len[8] = { 1000, 1000, 1000, 300, 1000, 1000, 1000, 1000 };
	unsigned long long bytes[8] = { 0 };
	struct fcq_ets e;
	int i, c;

	init(&e, 0, 1500);
	e.quantum[1] = 4500;			/* three times class 0 */
	for (i = 0; i < 100000; i++) {
		c = fcq_ets_pick(&e, 0x0b, len);	/* 0, 1, 3 */
		assert_true(c == 0 || c == 1 || c == 3);
		bytes[c] += len[c];
	}
	/* Byte shares 1:3:1 within 1%, whatever the packet sizes. */
	assert_true(bytes[1] > 2.97 * bytes[0] && bytes[1] < 3.03 * bytes[0]);
	assert_true(bytes[3] > 0.99 * bytes[0] && bytes[3] < 1.01 * bytes[0]);
}

static void paused_class_is_skipped(void **state)
{
	const u32 len[8] = { 1000, 1000 };
	struct fcq_ets e;
	int i;

	init(&e, 0, 1500);
	for (i = 0; i < 100; i++)
		assert_int_equal(fcq_ets_pick(&e, 0x02, len), 1);
	/* Back in the running, class 0 earns no credit for the pause. */
	assert_int_equal(e.deficit[0], 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(nothing_ready),
		cmocka_unit_test(strict_highest_first),
		cmocka_unit_test(drr_shares_follow_quanta),
		cmocka_unit_test(paused_class_is_skipped),
	};

	return cmocka_run_group_tests_name("core/ets", tests, NULL, NULL);
}
