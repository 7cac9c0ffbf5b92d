// SPDX-License-Identifier: GPL-2.0
/*
 * Module fcq.ko: the port/link/switch layer shared by the fcq
 * qdiscs (see fcq.h), with the core/ algorithms compiled in and exported to
 * the scheme modules.
 */
#include <linux/module.h>

#include "fcq.h"
#include "../core/ets.h"
#include "../core/frames.h"
#include "../core/ftab.h"
#include "../core/iso.h"
#include "../core/key.h"

/* core/ functions the schemes call. */
EXPORT_SYMBOL_GPL(fcq_ets_pick);
EXPORT_SYMBOL_GPL(fcq_cnm_parse);
EXPORT_SYMBOL_GPL(fcq_cnm_build);
EXPORT_SYMBOL_GPL(fcq_cnm_units);
EXPORT_SYMBOL_GPL(fcq_ftab_size);
EXPORT_SYMBOL_GPL(fcq_ftab_init);
EXPORT_SYMBOL_GPL(fcq_ftab_find);
EXPORT_SYMBOL_GPL(fcq_ftab_get);
EXPORT_SYMBOL_GPL(fcq_ftab_put);
EXPORT_SYMBOL_GPL(fcq_ftab_next);
EXPORT_SYMBOL_GPL(fcq_ftab_key_first);
EXPORT_SYMBOL_GPL(fcq_ftab_key_next);
EXPORT_SYMBOL_GPL(fcq_iso_hold);
EXPORT_SYMBOL_GPL(fcq_iso_servable);
EXPORT_SYMBOL_GPL(fcq_iso_order);
EXPORT_SYMBOL_GPL(fcq_iso_pop);
EXPORT_SYMBOL_GPL(fcq_iso_push);
EXPORT_SYMBOL_GPL(fcq_key_hash);

static int __init fcq_module_init(void)
{
	int err;

	err = fcq_switch_register();
	if (err)
		return err;
	err = fcq_genl_register();
	if (err)
		fcq_switch_unregister();
	return err;
}

static void __exit fcq_module_exit(void)
{
	fcq_genl_unregister();
	fcq_switch_unregister();
}

module_init(fcq_module_init);
module_exit(fcq_module_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("fcq: emulated lossless-Ethernet links and switches for flow-control qdiscs");
