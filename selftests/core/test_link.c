// SPDX-License-Identifier: GPL-2.0
/* Unit tests of core/link.h: serialization time and PFC quanta. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "core/link.h"

#define MBIT(x) ((x) * 1000000ULL / 8)	/* bytes per second */
#define GBIT(x) ((x) * 1000000000ULL / 8)

static void tx_time(void **state)
{
	/* A 1500-byte frame: 120 us at 100 Mbit/s, 1.2 us at 10 Gbit/s. */
	assert_int_equal(fcq_tx_ns(1500, MBIT(100)), 120000);
	assert_int_equal(fcq_tx_ns(1500, GBIT(10)), 1200);
	/* Rounded up, never down. */
	assert_int_equal(fcq_tx_ns(1, GBIT(10)), 1);
	assert_int_equal(fcq_bytes_in(1000000, MBIT(100)), 12500);
	/* 400 Gbit/s for a second does not overflow. */
	assert_true(fcq_bytes_in(FCQ_NS_PER_SEC, GBIT(400)) == GBIT(400));
}

static void quantum_durations(void **state)
{
	/* 802.1Qbb: 512 bit times. 51.2 ns at 10G (rounded up to 52),
	 * 20.48 ns at 25G, 5.12 us at 100M, 51.2 us at 10M.
	 */
	assert_int_equal(fcq_quanta_to_ns(1, GBIT(10)), 52);
	assert_int_equal(fcq_quanta_to_ns(1, GBIT(25)), 21);
	assert_int_equal(fcq_quanta_to_ns(1, MBIT(100)), 5120);
	assert_int_equal(fcq_quanta_to_ns(1, MBIT(10)), 51200);
	/* 65535 quanta: 3.355 ms at 10G, 335.5 ms at 100M. */
	assert_int_equal(fcq_quanta_to_ns(65535, GBIT(10)), 3355392);
	assert_int_equal(fcq_quanta_to_ns(65535, MBIT(100)), 335539200);
	assert_int_equal(fcq_quanta_to_ns(0, GBIT(1)), 0);
}

static void ns_to_quanta(void **state)
{
	const unsigned long long rates[] = {
		MBIT(10), MBIT(100), GBIT(1), GBIT(10), GBIT(25), GBIT(100),
	};
	unsigned int i, n;

	srand(1);
	for (i = 0; i < sizeof(rates) / sizeof(rates[0]); i++) {
		u64 r = rates[i];

		assert_int_equal(fcq_ns_to_quanta(0, r), 0);
		/* Capped at the 16-bit field. */
		assert_int_equal(fcq_ns_to_quanta(10ULL * FCQ_NS_PER_SEC, r),
				 0xffff);
		for (n = 0; n < 10000; n++) {
			u16 q = rand() % 65536;
			u64 ns = (u64)rand() * rand() % fcq_quanta_to_ns(0xffff, r);

			/* Round trip of an exact duration. */
			assert_int_equal(fcq_ns_to_quanta(fcq_quanta_to_ns(q, r), r), q);
			/* The smallest number of quanta that covers @ns. */
			q = fcq_ns_to_quanta(ns, r);
			assert_true(fcq_quanta_to_ns(q, r) >= ns);
			if (q)
				assert_true(fcq_quanta_to_ns(q - 1, r) < ns);
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(tx_time),
		cmocka_unit_test(quantum_durations),
		cmocka_unit_test(ns_to_quanta),
	};

	return cmocka_run_group_tests_name("core/link", tests, NULL, NULL);
}
