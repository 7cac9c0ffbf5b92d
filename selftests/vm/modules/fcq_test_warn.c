// SPDX-License-Identifier: GPL-2.0
/*
 * A deliberately broken module: WARN_ON(1) on load. It exists only so that
 * selftests/vm/runner_test.sh can prove that tools/vm/run fails when the guest
 * kernel warns. Never installed.
 */
#include <linux/module.h>
#include <linux/bug.h>

static int __init fcq_test_warn_init(void)
{
	WARN_ON(1);
	return 0;
}

static void __exit fcq_test_warn_exit(void)
{
}

module_init(fcq_test_warn_init);
module_exit(fcq_test_warn_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("fcq test: a module that warns on load");
