/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fcq_top.h - what fcq-top's BPF programs (fcq_top.bpf.c) and the tool
 * (fcq-top.c) share: the records of the tracepoints they read, as the
 * kernel lays them out from TP_STRUCT__entry (fcq/trace.h,
 * sch_qcn/qcn_trace.h, sch_flowsail/flowsail_trace.h) after the 8-byte
 * common header, and the event the programs put in the ring buffer.
 * Each record ends in the netns field, the inode of its device's network
 * namespace, so the whole record is laid out here.
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
	__u64 start;
	__u64 release;
	__u32 netns;
};

struct fcq_top_tp_pause_rx {
	struct fcq_top_tp_common c;
	char dev[FCQ_TOP_DEVSZ];
	__u16 opcode;
	__u8 enable;
	__u16 quanta[FCQ_TOP_NPRIO];
	__u64 now;
	__u64 stop;
	__u32 netns;
};

struct fcq_top_tp_pause_request {
	struct fcq_top_tp_common c;
	char dev[FCQ_TOP_DEVSZ];
	__u8 prio;
	__u64 ns;
	__u64 until;
	__u32 netns;
};

/* kp_tx, kp_rx */
struct fcq_top_tp_kp {
	struct fcq_top_tp_common c;
	char dev[FCQ_TOP_DEVSZ];
	__u8 type;
	__u8 prio;
	__u8 flags;
	__u16 n;
	__u32 seq;
	__u64 now;
	__u32 netns;
};

/* isolate, resume: four 32-bit fields after the class */
struct fcq_top_tp_lane {
	struct fcq_top_tp_common c;
	char dev[FCQ_TOP_DEVSZ];
	__u8 prio;
	__u32 a, b, d;
	__u32 netns;
};

struct fcq_top_tp_drop {
	struct fcq_top_tp_common c;
	char dev[FCQ_TOP_DEVSZ];
	__u8 prio;
	int reason;
	__u32 len;
	__u32 netns;
};

struct fcq_top_tp_pfcwd {
	struct fcq_top_tp_common c;
	char dev[FCQ_TOP_DEVSZ];
	__u8 prio;
	_Bool storm;
	__u8 action;
	__u64 now;
	__u32 netns;
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
	__u32 netns;
};

struct fcq_top_tp_cnm_rx {
	struct fcq_top_tp_common c;
	char dev[FCQ_TOP_DEVSZ];
	__u8 da[6];
	__u8 prio;
	__u8 qfb;
	__u64 cr;
	__u64 tr;
	__u64 now;
	__s32 fb;
	__u32 netns;
};

/* flowsail_pause, flowsail_resume, flowsail_isolate */
struct fcq_top_tp_flowsail {
	struct fcq_top_tp_common c;
	char dev[FCQ_TOP_DEVSZ];
	__u8 prio;
	__u8 proto;
	__u8 src[28];		/* struct sockaddr_in6 */
	__u8 dst[28];
	int lane;
	__u32 netns;
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
	__u32 netns;		/* the device's namespace: its inode number */
	__u8 type;		/* enum fcq_top_ev */
	__u8 prio;
	__u8 mask;		/* PAUSE_*: the classes the frame names */
	__u8 arg;		/* PAUSE_TX: those with quanta; DROP: reason */
};

/* fcq/trace.h's enum fcq_drop_reason, in its order */
#define FCQ_TOP_DROP_REASONS { "limit", "lossy", "lossless", "gso", "scheme", \
			       "pfcwd", "rx_malformed" }
#define FCQ_TOP_NREASON	7
#define FCQ_TOP_RX_MALFORMED	6	/* frames refused on receive */

#endif
