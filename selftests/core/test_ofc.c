// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of core/ofc.c: the regions of E2-E5 around each threshold,
 * original vs local congestion, deltas only, and the coarse fallbacks.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "core/ofc.h"

#define XOFF	76800		/* the paper's 75 KB, 68 KB and 45 KB */
#define XOFF_C	69632
#define XON	46080

static const struct ofc_cfg ofc = {
	.mode = OFC_M_OFC, .flags = OFC_F_STRICT_ORIG,
	.xoff = XOFF, .xoff_c = XOFF_C, .xon = XON,
};

/* An arrival that a clean original congestion point sees. */
static struct ofc_view view(u32 qin, u32 qout)
{
	return (struct ofc_view){ .qin = qin, .qout = qout,
				  .cft_empty = true, .tracked = true };
}

static void thresholds_e2_e3(void **state)
{
	struct ofc_view v;

	/* E2 is inclusive at X^c_OFF on both queues */
	v = view(XOFF_C, XOFF_C);
	assert_int_equal(ofc_eval(&ofc, &v), OFC_SCAN_ORIG);
	v = view(XOFF_C - 1, XOFF_C);
	assert_int_equal(ofc_eval(&ofc, &v), OFC_NONE);
	/* [O4] q_in in the band but E itself not congested: nothing */
	v = view(XOFF - 1, XOFF_C - 1);
	assert_int_equal(ofc_eval(&ofc, &v), OFC_NONE);
	/* E3 from X_OFF on, whatever E's queue [O3], [O8] */
	v = view(XOFF, 0);
	assert_int_equal(ofc_eval(&ofc, &v), OFC_PAUSE_ALL);
	v.pft_all = true;
	assert_int_equal(ofc_eval(&ofc, &v), OFC_NONE);
	/* hysteresis band and below X_ON: no pause here (E4 is elsewhere) */
	v = view(XON + 1, XOFF);
	assert_int_equal(ofc_eval(&ofc, &v), OFC_NONE);
	v = view(0, XOFF);
	assert_int_equal(ofc_eval(&ofc, &v), OFC_NONE);
}

static void original_then_deltas(void **state)
{
	struct ofc_view v = view(XOFF_C + 10, XOFF_C + 10);

	assert_int_equal(ofc_eval(&ofc, &v), OFC_SCAN_ORIG);
	/* once I pauses some flows, each new flow is decided alone */
	v.pft_any = true;
	assert_int_equal(ofc_eval(&ofc, &v), OFC_KEY_ORIG);
	v.pft_has = true;		/* [O10] no second PAUSE */
	assert_int_equal(ofc_eval(&ofc, &v), OFC_NONE);
	/* a whole-class pause already covers every flow */
	v.pft_has = false;
	v.pft_all = true;
	assert_int_equal(ofc_eval(&ofc, &v), OFC_NONE);
}

static void local_forwards_cft_only(void **state)
{
	struct ofc_view v = view(XOFF_C, XOFF_C);

	v.cft_empty = false;		/* E holds a pause from downstream */
	assert_int_equal(ofc_eval(&ofc, &v), OFC_NONE);	/* not in CFT */
	v.in_cft = true;		/* flow by flow, never a scan [O7] */
	assert_int_equal(ofc_eval(&ofc, &v), OFC_KEY_LOCAL);
	v.pft_any = true;
	assert_int_equal(ofc_eval(&ofc, &v), OFC_KEY_LOCAL);
	v.pft_has = true;
	assert_int_equal(ofc_eval(&ofc, &v), OFC_NONE);
	assert_false(ofc_act_origin(OFC_KEY_LOCAL));
	assert_true(ofc_act_origin(OFC_KEY_ORIG));
}

static void strict_orig_off_adds_own_congestion(void **state)
{
	struct ofc_cfg c = ofc;
	struct ofc_view v = view(XOFF_C, 2 * XOFF_C);

	c.flags = 0;
	v.cft_empty = false;
	/* half of E is paused from downstream: the rest alone is X^c_OFF */
	v.qout_paused = XOFF_C;
	assert_int_equal(ofc_eval(&c, &v), OFC_SCAN_EXTRA);
	assert_int_equal(ofc_eval(&ofc, &v), OFC_NONE);	/* strict: local */
	v.pft_any = true;
	assert_int_equal(ofc_eval(&c, &v), OFC_KEY_EXTRA);
	assert_true(ofc_act_origin(OFC_KEY_EXTRA));
	/* one byte more paused: E's own part is below X^c_OFF */
	v.qout_paused = XOFF_C + 1;
	assert_int_equal(ofc_eval(&c, &v), OFC_NONE);
	v.pft_any = false;
	assert_int_equal(ofc_eval(&c, &v), OFC_NONE);
}

/* [O18]: a drain's backlog is not original congestion. */
static void drain_backlog_is_not_original(void **state)
{
	struct ofc_view v = view(XOFF_C, XOFF_C + 100);

	v.qout_drain = 101;
	assert_int_equal(ofc_eval(&ofc, &v), OFC_NONE);
	v.qout_drain = 100;
	assert_int_equal(ofc_eval(&ofc, &v), OFC_SCAN_ORIG);
	/* a local point forwards its downstream's flows all the same */
	v.qout_drain = XOFF_C;
	v.cft_empty = false;
	v.in_cft = true;
	assert_int_equal(ofc_eval(&ofc, &v), OFC_KEY_LOCAL);
	/* E3 does not look at the egress at all */
	v.qin = XOFF;
	v.cft_empty = true;
	assert_int_equal(ofc_eval(&ofc, &v), OFC_PAUSE_ALL);
}

static void untracked_escalates(void **state)
{
	struct ofc_view v = view(XOFF_C, XOFF_C);

	v.tracked = false;		/* no key, or the flow table full */
	assert_int_equal(ofc_eval(&ofc, &v), OFC_PAUSE_ALL);
	v.cft_empty = false;		/* local: its flow cannot be in CFT */
	assert_int_equal(ofc_eval(&ofc, &v), OFC_NONE);
	v.in_cft = true;		/* unless CFT pauses all */
	assert_int_equal(ofc_eval(&ofc, &v), OFC_PAUSE_ALL);
}

static void capfc_and_pfc_modes(void **state)
{
	struct ofc_cfg c = ofc;
	struct ofc_view v = view(XOFF_C, XOFF_C);

	c.mode = OFC_M_CAPFC;
	assert_int_equal(ofc_eval(&c, &v), OFC_PAUSE_ALL);
	v.qout = XOFF_C - 1;
	assert_int_equal(ofc_eval(&c, &v), OFC_NONE);
	c.xegress = XOFF_C - 1;	/* its own egress threshold */
	assert_int_equal(ofc_eval(&c, &v), OFC_PAUSE_ALL);
	v = view(XOFF, 0);
	assert_int_equal(ofc_eval(&c, &v), OFC_PAUSE_ALL);

	c.mode = OFC_M_PFC;
	assert_int_equal(ofc_eval(&c, &v), OFC_NONE);
}

static void cfg_e5_e7(void **state)
{
	struct ofc_cfg c = ofc;

	/* the paper's alpha: 68 KB at 75 KB, exactly, and at beta = 4 */
	assert_int_equal(ofc_xoff_c(XOFF), XOFF_C);
	assert_int_equal(ofc_xoff_c(4 * XOFF), 4 * XOFF_C);
	assert_int_equal(ofc_xoff_c(75), 68);
	assert_int_equal(ofc_xoff_c(0xffffffff), 3894103680U); /* no overflow */

	assert_int_equal(ofc_cfg_check(&c), OFC_CFG_OK);
	c.xoff_c = XOFF;
	assert_int_equal(ofc_cfg_check(&c), OFC_CFG_XOFF_C);
	c.xoff_c = XON;
	assert_int_equal(ofc_cfg_check(&c), OFC_CFG_XON);
	c.xoff = 0;
	assert_int_equal(ofc_cfg_check(&c), OFC_CFG_NO_XOFF);
	c.mode = OFC_M_PFC;		/* pfc takes the port's thresholds */
	assert_int_equal(ofc_cfg_check(&c), OFC_CFG_OK);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(thresholds_e2_e3),
		cmocka_unit_test(original_then_deltas),
		cmocka_unit_test(local_forwards_cft_only),
		cmocka_unit_test(strict_orig_off_adds_own_congestion),
		cmocka_unit_test(drain_backlog_is_not_original),
		cmocka_unit_test(untracked_escalates),
		cmocka_unit_test(capfc_and_pfc_modes),
		cmocka_unit_test(cfg_e5_e7),
	};

	return cmocka_run_group_tests_name("core/ofc", tests, NULL, NULL);
}
