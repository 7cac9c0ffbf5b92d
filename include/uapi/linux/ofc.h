/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * ofc: Original-congestion-based Fine-grained PFC. Its options nest in
 * TCA_FCQ_SCHEME (see fcq.h), its xstats in TCA_FCQ_STATS_SCHEME.
 * Attribute numbers are ABI: append, never renumber.
 */
#ifndef _UAPI_LINUX_OFC_H
#define _UAPI_LINUX_OFC_H

#include <linux/types.h>

enum ofc_mode {
	OFC_MODE_OFC,		/* the paper's fine-grained pause */
	OFC_MODE_CAPFC,		/* congestion-aware PFC: whole class */
	OFC_MODE_PFC,		/* 802.1Qbb only */
};

enum ofc_key {
	OFC_KEY_PAIR = 1,	/* IP source and destination */
	OFC_KEY_DST,		/* IP destination */
	OFC_KEY_5TUPLE,		/* addresses, protocol, ports */
};

#define OFC_FL_STRICT_ORIG	0x1	/* original congestion iff no CFT */

enum {
	TCA_OFC_UNSPEC,
	TCA_OFC_MODE,		/* u8: enum ofc_mode, fixed at creation */
	TCA_OFC_KEY,		/* u8: enum ofc_key, fixed at creation */
	TCA_OFC_FLOWS,		/* u32: flow table size, fixed at creation */
	TCA_OFC_XOFF_C,		/* u32, bytes: X^c_OFF; 0: alpha * X_OFF */
	TCA_OFC_XEGRESS,	/* u32, bytes: caPFC's egress threshold */
	TCA_OFC_PAUSE_TIMEOUT,	/* u32, ns: a pause lasts at most; 0: off */
	TCA_OFC_FLAGS,		/* bitfield32: OFC_FL_* */
	TCA_OFC_STRICT,		/* u8: mask of strict priorities */
	TCA_OFC_QUANTA,		/* nested: TCA_OFC_QUANTUM per priority */
	__TCA_OFC_MAX
};
#define TCA_OFC_MAX		(__TCA_OFC_MAX - 1)

enum {
	TCA_OFC_QUANTA_UNSPEC,
	TCA_OFC_QUANTUM,	/* u32, bytes */
	__TCA_OFC_QUANTA_MAX
};
#define TCA_OFC_QUANTA_MAX	(__TCA_OFC_QUANTA_MAX - 1)

/* xstats, in TCA_FCQ_STATS_SCHEME: u64 counters unless noted */
enum {
	TCA_OFC_STATS_UNSPEC,
	TCA_OFC_STATS_PAD,
	TCA_OFC_STATS_ORIG,		/* pauses as original congestion */
	TCA_OFC_STATS_LOCAL,		/* pauses as local congestion */
	TCA_OFC_STATS_EXTRA,		/* own congestion, strict_orig off */
	TCA_OFC_STATS_ALL,		/* whole-class pauses (X_OFF, caPFC) */
	TCA_OFC_STATS_COARSE,		/* unnameable packets: whole class */
	TCA_OFC_STATS_MOVED,		/* paused heads moved aside */
	TCA_OFC_STATS_DRAINS,		/* drains begun by a resume */
	TCA_OFC_STATS_FIT_FULL,		/* packets with no room in the FIT */
	TCA_OFC_STATS_UNTRACKED,	/* lossless packets without a key */
	TCA_OFC_STATS_FIT_FLOWS,	/* u32: flows in the FIT now */
	TCA_OFC_STATS_PAUSED_MASK,	/* u8: classes paused whole (CFT ALL) */
	TCA_OFC_STATS_DRAIN_MASK,	/* u8: classes draining */
	__TCA_OFC_STATS_MAX
};
#define TCA_OFC_STATS_MAX	(__TCA_OFC_STATS_MAX - 1)

#endif /* _UAPI_LINUX_OFC_H */
