/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fcq_top.h - what fcq-top's BPF programs (fcq_top.bpf.c) and the tool
 * (fcq-top.c) share: the records of the tracepoints they read, as the
 * kernel lays them out from TP_STRUCT__entry (fcq/trace.h,
 * sch_qcn/qcn_trace.h, sch_flowsail/flowsail_trace.h) after the 8-byte
 * common header, and the event the programs put in the ring buffer.
 * `fcq-top --layout` prints the offsets below; the fcq-top suite checks
 * them against the kernel's events/SYSTEM/EVENT/format files.
 */
#ifndef FCQ_TOP_H
#define FCQ_TOP_H

#include <linux/types.h>

#define FCQ_TOP_DEVSZ	16	/* IFNAMSIZ */
#define FCQ_TOP_NPRIO	8

struct fcq_top_tp_common {
	__u16 type;
	__u8 flags;
	__u8 preempt_count;
	__s32 pid;
};

struct fcq_top_tp_pause_tx {
	struct fcq_top_tp_common c;
	char dev[FCQ_TOP_DEVSZ];
	__u8 enable;
	__u16 quanta[FCQ_TOP_NPRIO];
};

struct fcq_top_tp_pause_rx {
	struct fcq_top_tp_common c;
	char dev[FCQ_TOP_DEVSZ];
	__u16 opcode;
	__u8 enable;
	__u16 quanta[FCQ_TOP_NPRIO];
};

/* pause_request, isolate, resume, pfcwd, flowsail_*: the class first */
struct fcq_top_tp_prio {
	struct fcq_top_tp_common c;
	char dev[FCQ_TOP_DEVSZ];
	__u8 prio;
};

/* kp_tx, kp_rx */
struct fcq_top_tp_kp {
	struct fcq_top_tp_common c;
	char dev[FCQ_TOP_DEVSZ];
	__u8 type;
	__u8 prio;
};

struct fcq_top_tp_drop {
	struct fcq_top_tp_common c;
	char dev[FCQ_TOP_DEVSZ];
	__u8 prio;
	int reason;
};

struct fcq_top_tp_pfcwd {
	struct fcq_top_tp_common c;
	char dev[FCQ_TOP_DEVSZ];
	__u8 prio;
	_Bool storm;
};

struct fcq_top_tp_cnm_tx {
	struct fcq_top_tp_common c;
	char dev[FCQ_TOP_DEVSZ];
	__u8 sa[6];
	__u8 da[6];
	__u8 prio;
	__u8 qfb;
	__s64 qoff;
	__s64 qdelta;
	_Bool sent;
};

struct fcq_top_tp_cnm_rx {
	struct fcq_top_tp_common c;
	char dev[FCQ_TOP_DEVSZ];
	__u8 da[6];
	__u8 prio;
};

/* What fcq-top counts, per port and class. */
enum fcq_top_ev {
	FCQ_TOP_PAUSE_TX,	/* PFC/PAUSE frames sent (each class it names) */
	FCQ_TOP_XOFF_TX,	/* of those, the classes with quanta > 0 */
	FCQ_TOP_PAUSE_RX,	/* PFC/PAUSE frames honoured */
	FCQ_TOP_PAUSE_REQ,	/* timed pauses a scheme asked for */
	FCQ_TOP_KP_TX,		/* keyed PAUSE/RESUME frames sent */
	FCQ_TOP_KP_RX,		/* and taken */
	FCQ_TOP_ISOLATE,	/* paused packets stepped aside */
	FCQ_TOP_RESUME,		/* isolation lanes drained */
	FCQ_TOP_DROP,		/* packets dropped (reason: fcq_top_event.arg) */
	FCQ_TOP_STORM,		/* the PFC watchdog found a storm */
	FCQ_TOP_RESTORE,	/* and put the class back */
	FCQ_TOP_CNM_TX,		/* CNMs a congestion point sent */
	FCQ_TOP_CNM_REFUSED,	/* that found the port's ring full */
	FCQ_TOP_CNM_RX,		/* CNMs a reaction point applied */
	FCQ_TOP_FS_PAUSE,	/* FlowSail: flows it asked paused */
	FCQ_TOP_FS_RESUME,	/* resumed */
	FCQ_TOP_FS_ISOLATE,	/* isolated at the peer's pause */
	FCQ_TOP_NEV
};

/* An event in the ring buffer: @prio's bits in @mask (pause_*), or @prio. */
struct fcq_top_event {
	char dev[FCQ_TOP_DEVSZ];
	__u8 type;		/* enum fcq_top_ev */
	__u8 prio;
	__u8 mask;		/* PAUSE_*: the classes the frame names */
	__u8 arg;		/* PAUSE_TX: those with quanta; DROP: reason */
};

/* fcq/trace.h's enum fcq_drop_reason, in its order */
#define FCQ_TOP_DROP_REASONS { "limit", "lossy", "lossless", "gso", "scheme", \
			       "pfcwd", "rx_malformed" }
#define FCQ_TOP_NREASON	7

#endif
