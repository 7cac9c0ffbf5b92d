/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Every kernel-version shim fcq needs, in one place.
 * Tested in CI: Debian's 6.1 LTS, 6.12 LTS and the newest Debian kernel.
 * Feature tests, not version checks, because stable kernels backport:
 * Kbuild greps the headers (FCQ_HAVE_*), and the kernel's own macros are
 * tested where they exist.
 */
#ifndef FCQ_COMPAT_H
#define FCQ_COMPAT_H

#include <linux/hrtimer.h>
#include <linux/module.h>
#include <net/genetlink.h>
#include <net/pkt_sched.h>

/* 6.9 added MODULE_ALIAS_NET_SCH and autoloads "net-sch-<kind>"; 6.1
 * requests "sch_<kind>", which the module file name already satisfies.
 */
#ifndef MODULE_ALIAS_NET_SCH
#define MODULE_ALIAS_NET_SCH(id) MODULE_ALIAS("net-sch-" id)
#endif

/* 6.5 moved skb_gso_segment() to its own header. (Tested by Kbuild:
 * sparse does not know __has_include.)
 */
#ifdef FCQ_HAVE_NET_GSO_H
#include <net/gso.h>
#endif

/* A generic netlink dump's request attributes: 6.6 moved them into the
 * struct genl_info of struct genl_dumpit_info.
 */
static inline struct nlattr **fcq_genl_dump_attrs(struct netlink_callback *cb)
{
#ifdef FCQ_HAVE_GENL_INFO_DUMP
	return genl_info_dump(cb)->attrs;
#else
	return genl_dumpit_info(cb)->attrs;
#endif
}

/* 6.13 added hrtimer_setup(), which sets the callback with the timer;
 * 6.15 removed hrtimer_init() and made hrtimer.function private.
 */
#ifndef FCQ_HAVE_HRTIMER_SETUP
static inline void hrtimer_setup(struct hrtimer *timer,
				 enum hrtimer_restart (*function)(struct hrtimer *),
				 clockid_t clock_id, enum hrtimer_mode mode)
{
	hrtimer_init(timer, clock_id, mode);
	timer->function = function;
}
#endif

#endif /* FCQ_COMPAT_H */
