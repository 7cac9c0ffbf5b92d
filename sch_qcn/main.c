// SPDX-License-Identifier: GPL-2.0
/*
 * sch_qcn.ko: IEEE 802.1Qau QCN and Unbiased QCN. `qcn` runs the
 * congestion points on switch ports, `qcnrp` the reaction point on host
 * NICs; both on core/qcn.c, compiled in once.
 */
#include <linux/module.h>
#include <net/pkt_sched.h>

#include "../fcq/compat.h"
#include "qcn.h"

static int __init qcn_module_init(void)
{
	int err;

	err = register_qdisc(&qcn_qdisc_ops);
	if (err)
		return err;
	err = register_qdisc(&qcnrp_qdisc_ops);
	if (err)
		unregister_qdisc(&qcn_qdisc_ops);
	return err;
}

static void __exit qcn_module_exit(void)
{
	unregister_qdisc(&qcnrp_qdisc_ops);
	unregister_qdisc(&qcn_qdisc_ops);
}

module_init(qcn_module_init);
module_exit(qcn_module_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("IEEE 802.1Qau QCN and Unbiased QCN qdiscs: switch congestion points, host reaction points (fcq)");
MODULE_ALIAS_NET_SCH("qcn");
MODULE_ALIAS_NET_SCH("qcnrp");
