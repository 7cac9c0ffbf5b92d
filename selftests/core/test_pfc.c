// SPDX-License-Identifier: GPL-2.0
/* Unit tests of core/pfc.c: shared-buffer admission, XOFF/XON, headroom. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "core/pfc.h"
#include "core/link.h"

#define MBIT(x) ((x) * 1000000ULL / 8)

static const struct fcq_buf_cfg dyn = {
	.size = 1000000, .alpha = FCQ_ALPHA_ONE / 8, .resume_offset = 3072,
};

static void dynamic_threshold(void **state)
{
	struct fcq_buf b = { .reserve_total = 100000, .headroom_total = 100000 };

	/* alpha * (size - reserves - headroom - shared_used) */
	assert_int_equal(fcq_buf_threshold(&dyn, &b), 800000 / 8);
	b.shared_used = 400000;
	assert_int_equal(fcq_buf_threshold(&dyn, &b), 400000 / 8);
	b.shared_used = 800000;
	assert_int_equal(fcq_buf_threshold(&dyn, &b), 0);
}

static void xoff_at_threshold_then_headroom(void **state)
{
	struct fcq_buf b = { 0 };
	struct fcq_buf_q q = { 0 };
	enum fcq_buf_event ev;
	int n = 0;

	/* Fill until XOFF. T = (1e6 - S) / 8: 111 kB fit under it; the
	 * packet that would cross it goes to headroom and triggers XOFF.
	 */
	do {
		assert_true(fcq_buf_admit(&dyn, &b, &q, 10000, true, 1000, &ev));
		n++;
	} while (ev == FCQ_BUF_NONE);
	assert_int_equal(ev, FCQ_BUF_XOFF);
	assert_true(q.xoff);
	assert_int_equal(n, 112);
	assert_int_equal(q.bytes - q.hdrm, 111000);
	assert_int_equal(q.hdrm, 1000);

	/* Headroom takes the rest of its 10 kB... */
	for (n = 0; n < 9; n++) {
		assert_true(fcq_buf_admit(&dyn, &b, &q, 10000, true, 1000, &ev));
		assert_int_equal(ev, FCQ_BUF_NONE);	/* already XOFF */
	}
	assert_int_equal(q.hdrm, 10000);
	assert_int_equal(q.hdrm_max, 10000);
	/* ...and when it is full, the lossless drop (counted by the caller). */
	assert_false(fcq_buf_admit(&dyn, &b, &q, 10000, true, 1000, &ev));
	assert_int_equal(q.hdrm, 10000);
	assert_int_equal(b.used, q.bytes);
}

static void xon_needs_empty_headroom_and_offset(void **state)
{
	struct fcq_buf b = { 0 };
	struct fcq_buf_q q = { 0 };
	enum fcq_buf_event ev;
	int i;

	for (i = 0; i < 130; i++)
		fcq_buf_admit(&dyn, &b, &q, 100000, true, 1000, &ev);
	assert_true(q.xoff && q.hdrm > 0);

	/* Headroom drains first and XON waits for it. */
	while (q.hdrm) {
		assert_int_equal(fcq_buf_release(&dyn, &b, &q, 1000), FCQ_BUF_NONE);
	}
	/* Then the shared part must fall resume_offset below T. */
	for (;;) {
		u64 sh = q.bytes;

		ev = fcq_buf_release(&dyn, &b, &q, 1000);
		if (ev == FCQ_BUF_XON) {
			assert_true(q.bytes + dyn.resume_offset <=
				    fcq_buf_threshold(&dyn, &b));
			assert_true(sh - 1000 + dyn.resume_offset <=
				    fcq_buf_threshold(&dyn, &b));
			break;
		}
		assert_true(q.bytes + dyn.resume_offset >
			    fcq_buf_threshold(&dyn, &b));
	}
	assert_false(q.xoff);
	assert_int_equal(q.hdrm_max, 130000 - 111000);
}

static void static_thresholds(void **state)
{
	const struct fcq_buf_cfg st = {
		.size = 1 << 30, .xoff = 50000, .xon = 47000,
	};
	struct fcq_buf b = { 0 };
	struct fcq_buf_q q = { 0 };
	enum fcq_buf_event ev;
	int i;

	for (i = 0; i < 49; i++) {
		fcq_buf_admit(&st, &b, &q, 9000, true, 1000, &ev);
		assert_int_equal(ev, FCQ_BUF_NONE);
	}
	fcq_buf_admit(&st, &b, &q, 9000, true, 1000, &ev);
	assert_int_equal(ev, FCQ_BUF_XOFF);		/* at 50000 */
	assert_int_equal(fcq_buf_release(&st, &b, &q, 1000), FCQ_BUF_NONE);
	assert_int_equal(fcq_buf_release(&st, &b, &q, 1000), FCQ_BUF_NONE);
	assert_int_equal(fcq_buf_release(&st, &b, &q, 1000), FCQ_BUF_XON);
	assert_int_equal(q.bytes, 47000);
}

static void reserve_is_not_shared(void **state)
{
	struct fcq_buf_cfg c = dyn;
	struct fcq_buf b = { .reserve_total = 16 * 4096 };
	struct fcq_buf_q q = { 0 };
	enum fcq_buf_event ev;

	c.reserve = 4096;
	fcq_buf_admit(&c, &b, &q, 0, true, 4000, &ev);
	assert_int_equal(b.shared_used, 0);
	fcq_buf_admit(&c, &b, &q, 0, true, 1000, &ev);
	assert_int_equal(b.shared_used, 904);
	assert_int_equal(fcq_buf_q_shared(&c, &q), 904);
	fcq_buf_release(&c, &b, &q, 5000);
	assert_int_equal(b.shared_used, 0);
	assert_int_equal(b.used, 0);
}

static void lossy_drops_at_threshold(void **state)
{
	const struct fcq_buf_cfg st = { .size = 1 << 20, .xoff = 5000 };
	struct fcq_buf b = { 0 };
	struct fcq_buf_q q = { 0 };
	enum fcq_buf_event ev;
	int i;

	for (i = 0; i < 5; i++)
		assert_true(fcq_buf_admit(&st, &b, &q, 100000, false, 1000, &ev));
	/* No headroom and no XOFF for lossy classes. */
	assert_false(fcq_buf_admit(&st, &b, &q, 100000, false, 1000, &ev));
	assert_int_equal(ev, FCQ_BUF_NONE);
	assert_false(q.xoff);
	assert_int_equal(q.hdrm, 0);
}

static void static_pool_is_bounded(void **state)
{
	/* Static thresholds cannot promise more than the buffer holds. */
	const struct fcq_buf_cfg st = { .size = 10000, .xoff = 8000 };
	struct fcq_buf b = { 0 };
	struct fcq_buf_q q1 = { 0 }, q2 = { 0 };
	enum fcq_buf_event ev;
	int i;

	for (i = 0; i < 8; i++)
		fcq_buf_admit(&st, &b, &q1, 0, false, 1000, &ev);
	assert_true(fcq_buf_admit(&st, &b, &q2, 0, false, 1000, &ev));
	assert_true(fcq_buf_admit(&st, &b, &q2, 0, false, 1000, &ev));
	assert_false(fcq_buf_admit(&st, &b, &q2, 0, false, 1000, &ev));
	assert_true(b.shared_used <= st.size);
}

/* Random arrivals and departures keep the books balanced. */
static void random_invariants(void **state)
{
	struct fcq_buf_cfg c = dyn;
	struct fcq_buf b = { .reserve_total = 8 * 2000, .headroom_total = 80000 };
	struct fcq_buf_q q[8] = { { 0 } };
	u32 queued[8][512], head[8] = { 0 }, tail[8] = { 0 };
	int i, k;

	c.reserve = 2000;
	srand(7);
	for (i = 0; i < 200000; i++) {
		int j = rand() % 8;
		enum fcq_buf_event ev;
		u64 sh = 0, used = 0;

		if (rand() % 2 && tail[j] - head[j] < 512) {
			u32 len = 64 + rand() % 1450;
			bool was = q[j].xoff;

			if (fcq_buf_admit(&c, &b, &q[j], 10000, true, len, &ev))
				queued[j][tail[j]++ % 512] = len;
			assert_true(ev != FCQ_BUF_XOFF || !was);
			assert_true(ev == FCQ_BUF_XOFF || q[j].xoff == was);
		} else if (tail[j] != head[j]) {
			bool was = q[j].xoff;

			ev = fcq_buf_release(&c, &b, &q[j],
					     queued[j][head[j]++ % 512]);
			assert_true(ev != FCQ_BUF_XON || (was && !q[j].xoff));
		}
		for (k = 0; k < 8; k++) {
			assert_true(q[k].hdrm <= 10000);
			assert_true(q[k].hdrm <= q[k].bytes);
			assert_true(q[k].hdrm == 0 || q[k].xoff);
			sh += fcq_buf_q_shared(&c, &q[k]);
			used += q[k].bytes;
		}
		assert_true(b.shared_used == sh);
		assert_true(b.used == used);
	}
}

static void headroom_formula(void **state)
{
	/* 100 Mbit/s, 10 us wire, 1538-byte frames, 84-byte PFC frame, no
	 * response time: 3 * 1538 + 84 + 12.5 MB/s * 20 us = 4948 bytes.
	 */
	assert_int_equal(fcq_pfc_headroom(MBIT(100), 10000, 1538, 84, 0), 4948);
	/* A response allowance adds rate * time. */
	assert_int_equal(fcq_pfc_headroom(MBIT(100), 10000, 1538, 84, 100000),
			 4948 + 1250);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(dynamic_threshold),
		cmocka_unit_test(xoff_at_threshold_then_headroom),
		cmocka_unit_test(xon_needs_empty_headroom_and_offset),
		cmocka_unit_test(static_thresholds),
		cmocka_unit_test(reserve_is_not_shared),
		cmocka_unit_test(lossy_drops_at_threshold),
		cmocka_unit_test(static_pool_is_bounded),
		cmocka_unit_test(random_invariants),
		cmocka_unit_test(headroom_formula),
	};

	return cmocka_run_group_tests_name("core/pfc", tests, NULL, NULL);
}
