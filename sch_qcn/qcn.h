/* SPDX-License-Identifier: GPL-2.0 */
/* The two qdiscs of sch_qcn.ko: switch ports' CPs, hosts' RPs. */
#ifndef FCQ_SCH_QCN_H
#define FCQ_SCH_QCN_H

#include <net/sch_generic.h>

extern struct Qdisc_ops qcn_qdisc_ops;
extern struct Qdisc_ops qcnrp_qdisc_ops;

#endif /* FCQ_SCH_QCN_H */
