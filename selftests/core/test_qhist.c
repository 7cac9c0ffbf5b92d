// SPDX-License-Identifier: GPL-2.0
/* Unit tests of core/qhist.c: the time-weighted queue-length histogram. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "core/qhist.h"

#define MS 1000000ULL

static void buckets_tile_every_level(void **state)
{
	const u32 edges[] = { 0, 1, 7, 8, 9, 15, 16, 17, 1023, 1024, 1500,
			      25000, 65535, 65536, 12582912, 0x7fffffff,
			      0x80000000, 0xfffffffe, 0xffffffff };
	u32 b, i;

	/* Contiguous, from 0 to the largest u32, each at most 1/8 wide. */
	assert_int_equal(fcq_qhist_lo(0), 0);
	for (b = 0; b < FCQ_QHIST_BUCKETS; b++) {
		assert_true(fcq_qhist_hi(b) >= fcq_qhist_lo(b));
		assert_int_equal(fcq_qhist_bucket(fcq_qhist_lo(b)), b);
		assert_int_equal(fcq_qhist_bucket(fcq_qhist_hi(b)), b);
		if (b + 1 < FCQ_QHIST_BUCKETS)
			assert_int_equal(fcq_qhist_lo(b + 1),
					 fcq_qhist_hi(b) + 1);
		if (b >= FCQ_QHIST_SUB)
			assert_true(fcq_qhist_hi(b) - fcq_qhist_lo(b) + 1 <=
				    fcq_qhist_lo(b) / FCQ_QHIST_SUB);
	}
	assert_int_equal(fcq_qhist_hi(FCQ_QHIST_BUCKETS - 1), 0xffffffff);
	for (i = 0; i < sizeof(edges) / sizeof(edges[0]); i++) {
		b = fcq_qhist_bucket(edges[i]);
		assert_true(b < FCQ_QHIST_BUCKETS);
		assert_true(fcq_qhist_lo(b) <= edges[i]);
		assert_true(fcq_qhist_hi(b) >= edges[i]);
	}
	/* The first levels are exact. */
	for (i = 0; i < FCQ_QHIST_SUB; i++)
		assert_int_equal(fcq_qhist_bucket(i), i);
	/* 1500 is in [1408, 1535]. */
	assert_int_equal(fcq_qhist_lo(fcq_qhist_bucket(1500)), 1408);
	assert_int_equal(fcq_qhist_hi(fcq_qhist_bucket(1500)), 1535);
}

/* A burst of 100 frames of 1500 B queued at once, drained one per 120 us
 * (100 Mbit/s): the queue holds k frames for 120 us each, k = 100..1.
 */
static void drain_of_a_burst(void **state)
{
	struct fcq_qhist h;
	u64 t = 5 * MS, truth = 0;
	u32 k;

	fcq_qhist_init(&h, t);
	t += 10 * MS;				/* 10 ms empty */
	fcq_qhist_set(&h, t, 150000);
	for (k = 100; k > 0; k--) {
		truth += (u64)k * 1500 * 120000;
		t += 120000;
		fcq_qhist_set(&h, t, (k - 1) * 1500);
	}
	assert_int_equal(h.level, 0);
	assert_int_equal(h.max, 150000);
	/* The area: exact but for the >> 10 of each of 100 steps. */
	assert_true(h.area <= truth >> FCQ_QHIST_AREA_SHIFT);
	assert_true(h.area + 100 >= truth >> FCQ_QHIST_AREA_SHIFT);
	/* The square's: sum of (1500 k)^2 120 us, exactly (bits carried). */
	{
		unsigned __int128 sq = 0;

		for (k = 1; k <= 100; k++)
			sq += (unsigned __int128)(1500 * k) * (1500 * k) * 120000;
		assert_true(h.sq == (u64)(sq >> FCQ_QHIST_SQ_SHIFT));
		assert_true(h.sq_rem == (u64)(sq & ((1U << 30) - 1)));
	}
	/* 22 ms covered: 10 empty, 12 busy. */
	{
		u64 total = 0;
		u32 b;

		for (b = 0; b < FCQ_QHIST_BUCKETS; b++)
			total += h.ns[b];
		assert_true(total == 22 * MS);
		assert_true(h.ns[0] == 10 * MS);
	}
	/* Half the time empty; the median is 0, within 1/8 for the rest. */
	assert_int_equal(fcq_qhist_permille(&h, 450), 0);
	/* 90 % of 22 ms: empty 10 ms, then 9.8 ms in the 82 lowest
	 * levels: 82 frames, in the bucket [122880, 131071].
	 */
	assert_int_equal(fcq_qhist_permille(&h, 900), 131071);
	/* The top: capped at the most ever queued. */
	assert_int_equal(fcq_qhist_permille(&h, 1000), 150000);
}

static void time_going_back_counts_nothing(void **state)
{
	struct fcq_qhist h;

	fcq_qhist_init(&h, 10 * MS);
	fcq_qhist_set(&h, 11 * MS, 3000);
	/* a clock read on another CPU, a little behind */
	fcq_qhist_set(&h, 11 * MS - 500, 4500);
	assert_int_equal(h.level, 4500);
	assert_true(h.ns[0] == MS);
	assert_true(h.ns[fcq_qhist_bucket(3000)] == 0);
	fcq_qhist_set(&h, 12 * MS, 0);
	assert_true(h.ns[fcq_qhist_bucket(4500)] == MS);
	assert_int_equal(h.max, 4500);
	/* Nothing covered yet: no percentile. */
	fcq_qhist_init(&h, 0);
	assert_int_equal(fcq_qhist_permille(&h, 990), 0);
}

/*
 * A fast link: a million updates of 60 ns at 3000 bytes, each of which
 * (5.4e8 byte^2-ns) is below the 2^30 of a unit: they add up exactly.
 */
static void squares_of_short_steps(void **state)
{
	unsigned __int128 sq = (unsigned __int128)3000 * 3000 * 60 * 1000000;
	struct fcq_qhist h;
	u64 t = 0;
	u32 k;

	fcq_qhist_init(&h, 0);
	for (k = 0; k < 1000000; k++) {
		fcq_qhist_set(&h, t, 3000);
		t += 60;
	}
	fcq_qhist_set(&h, t, 0);
	assert_true(h.sq == (u64)(sq >> FCQ_QHIST_SQ_SHIFT));
}

static void no_overflow_at_the_extremes(void **state)
{
	struct fcq_qhist h;
	const u64 hour = 3600ULL * 1000 * MS;

	/* 2 GB queued for an hour: 2^31 * 3.6e12 / 1024 fits in 64 bits. */
	fcq_qhist_init(&h, 0);
	fcq_qhist_set(&h, 0, 0x80000000);
	fcq_qhist_set(&h, hour, 0);
	assert_true(h.area == (u64)(((unsigned __int128)hour << 31) >> 10));
	assert_true(h.ns[fcq_qhist_bucket(0x80000000)] == hour);
	assert_int_equal(fcq_qhist_permille(&h, 990), 0x80000000);
	/* Its square saturates, never wraps. */
	assert_true(h.sq == ~0ULL);
	/* 16 MB for an hour: (2^24)^2 * 3.6e12 >> 30 fits, in 4 s steps. */
	fcq_qhist_init(&h, 0);
	fcq_qhist_set(&h, 0, 1U << 24);
	fcq_qhist_set(&h, hour, 0);
	assert_true(h.sq == (u64)(((unsigned __int128)hour << 48) >> 30));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(buckets_tile_every_level),
		cmocka_unit_test(drain_of_a_burst),
		cmocka_unit_test(time_going_back_counts_nothing),
		cmocka_unit_test(squares_of_short_steps),
		cmocka_unit_test(no_overflow_at_the_extremes),
	};

	return cmocka_run_group_tests_name("core/qhist", tests, NULL, NULL);
}
