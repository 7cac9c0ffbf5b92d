/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * fcq: lossless-Ethernet flow control qdiscs - user API.
 *
 * Shared by the kernel modules, the tc plugins and the tools. Only
 * <linux/types.h> is required; nothing here depends on attributes newer than
 * Linux 6.1. Attribute numbers are ABI: append, never renumber.
 */
#ifndef _UAPI_LINUX_FCQ_H
#define _UAPI_LINUX_FCQ_H

#include <linux/types.h>

#define FCQ_NUM_PRIO	8

/* Where a port takes a packet's priority (0..7) from. */
enum fcq_trust {
	FCQ_TRUST_DSCP,		/* IP DSCP through the DSCP map (DSCP >> 3) */
	FCQ_TRUST_PCP,		/* 802.1Q PCP of a VLAN tag, else 0 */
	FCQ_TRUST_SKB,		/* skb->priority & 7: a host's own traffic */
};

/*
 * TCA_OPTIONS of every fcq qdisc: these port attributes, and the scheme's
 * own attributes nested in TCA_FCQ_SCHEME (TCA_PFC_*, TCA_FAFC_*).
 */
enum {
	TCA_FCQ_UNSPEC,
	TCA_FCQ_PAD,
	TCA_FCQ_RATE,		/* u64, bytes/s: emulated line rate */
	TCA_FCQ_DELAY,		/* u32, ns: one-way wire delay */
	TCA_FCQ_OVERHEAD,	/* u32, bytes a frame costs beyond skb->len */
	TCA_FCQ_SWITCH,		/* u32: switch id within the netns */
	TCA_FCQ_TRUST,		/* u8: enum fcq_trust */
	TCA_FCQ_DSCP_MAP,	/* nested: TCA_FCQ_DSCP_PRIO of DSCP 0, 1, ...
				 * (up to 64; the DSCPs not named keep theirs)
				 */
	TCA_FCQ_LIMIT,		/* u32, packets this port may hold, those on
				 * the wire and control frames included
				 */
	TCA_FCQ_LOSSLESS,	/* u8: mask of lossless priorities */
	TCA_FCQ_PAUSE_MAX,	/* u32, ns: longest pause a received frame may
				 * impose; longer ones are dropped (0 = any)
				 */
	/* Buffer model of the switch (see Documentation/pfc.rst). */
	TCA_FCQ_BUFFER,		/* u32, bytes: the switch's buffer (switch-wide) */
	TCA_FCQ_XOFF,		/* u32, bytes: static threshold; 0 = dynamic */
	TCA_FCQ_XON,		/* u32, bytes: static resume level */
	TCA_FCQ_ALPHA,		/* u32, Q16: dynamic threshold factor */
	TCA_FCQ_RESUME_OFFSET,	/* u32, bytes: dynamic resume hysteresis */
	TCA_FCQ_RESERVE,	/* u32, bytes guaranteed per (port, priority) */
	TCA_FCQ_HEADROOM,	/* u32, bytes per (port, lossless priority);
				 * 0 = computed from rate, delay, MTU, response
				 */
	TCA_FCQ_RESPONSE,	/* u32, ns: upstream reaction allowance */
	TCA_FCQ_PAUSE_QUANTA,	/* u16: quanta each XOFF frame asks for */
	TCA_FCQ_REFRESH,	/* u32, ns: XOFF refresh period; 0 = half of
				 * the pause
				 */
	/* ECN marking as a packet leaves a class's queue (RED-like, as the
	 * HPCC simulator's switch): never at or below kmin bytes, always at or
	 * above kmax, in between with probability up to pmax.
	 */
	TCA_FCQ_ECN_KMIN,	/* u32, bytes */
	TCA_FCQ_ECN_KMAX,	/* u32, bytes; 0 = no marking */
	TCA_FCQ_ECN_PMAX,	/* u32, Q16 probability */
	TCA_FCQ_SCHEME,		/* nested: the scheme's own attributes */
	/* The PFC watchdog (Documentation/operations.rst): a class that its
	 * peer pauses while it holds packets and that sends none for
	 * PFCWD_DETECT is in storm; the port applies PFCWD_ACTION to it for
	 * at least PFCWD_RESTORE, until the peer has sent no pause of it for
	 * PFCWD_RESTORE and none is in effect.
	 */
	TCA_FCQ_PFCWD_DETECT,	/* u32, ns; 0 = watchdog off */
	TCA_FCQ_PFCWD_RESTORE,	/* u32, ns */
	TCA_FCQ_PFCWD_ACTION,	/* u8: enum fcq_pfcwd_action */
	__TCA_FCQ_MAX
};
#define TCA_FCQ_MAX		(__TCA_FCQ_MAX - 1)

/* What a port does with a class in storm. */
enum fcq_pfcwd_action {
	FCQ_PFCWD_DROP,		/* drop its queued and arriving packets */
	FCQ_PFCWD_FORWARD,	/* send them, ignoring the peer's pauses */
	FCQ_PFCWD_ALERT,	/* only count and report the storm */
};

/* In TCA_FCQ_DSCP_MAP, repeated. */
enum {
	TCA_FCQ_DSCP_UNSPEC,
	TCA_FCQ_DSCP_PRIO,	/* u8, 0..7 */
	__TCA_FCQ_DSCP_MAX
};
#define TCA_FCQ_DSCP_MAX	(__TCA_FCQ_DSCP_MAX - 1)

/* pfc: standard 802.1Qbb PFC, in TCA_FCQ_SCHEME */
enum {
	TCA_PFC_UNSPEC,
	TCA_PFC_STRICT,		/* u8: mask of strict priorities */
	TCA_PFC_QUANTA,		/* nested: TCA_PFC_QUANTUM of priority 0, 1, ...
				 * (up to 8; the priorities not named keep theirs)
				 */
	TCA_PFC_SCHED,		/* u8, enum fcq_sched: within each class */
	__TCA_PFC_MAX
};
#define TCA_PFC_MAX		(__TCA_PFC_MAX - 1)

/* In TCA_PFC_QUANTA, repeated. */
enum {
	TCA_PFC_QUANTA_UNSPEC,
	TCA_PFC_QUANTUM,	/* u32, bytes: DRR quantum, 64..1048576 */
	__TCA_PFC_QUANTA_MAX
};
#define TCA_PFC_QUANTA_MAX	(__TCA_PFC_QUANTA_MAX - 1)

/* How a pfc port serves the packets of one class. */
enum fcq_sched {
	FCQ_SCHED_FIFO,		/* one FIFO: 802.1Qbb's queue */
	FCQ_SCHED_DRR,		/* DRR over the ingress ports (and local flows),
				 * the same scheduler as fafc's class
				 */
};

/*
 * xstats of every fcq qdisc: nested attributes in TCA_STATS_APP. Counters
 * are u64 unless noted; the scheme's own counters nest in
 * TCA_FCQ_STATS_SCHEME.
 */
enum {
	TCA_FCQ_STATS_UNSPEC,
	TCA_FCQ_STATS_PAD,
	TCA_FCQ_STATS_PRIO,		/* nested TCA_FCQ_PRIO_*, one per priority */
	TCA_FCQ_STATS_WIRE,		/* u32: frames on the wire now */
	TCA_FCQ_STATS_CTRL_TX,		/* control frames sent */
	TCA_FCQ_STATS_CTRL_NOMEM,	/* control frames not built: no memory */
	TCA_FCQ_STATS_RX_PAUSE,		/* 802.3x PAUSE frames received */
	TCA_FCQ_STATS_RX_MALFORMED,	/* truncated, not to 01:80:C2:00:00:01,
					 * or no Ethernet header
					 */
	TCA_FCQ_STATS_RX_BAD_OPCODE,	/* MAC Control opcode not PAUSE/PFC */
	TCA_FCQ_STATS_RX_NOT_LOSSLESS,	/* PFC for a priority not lossless here */
	TCA_FCQ_STATS_RX_OVER_MAX,	/* pause longer than pause_max */
	TCA_FCQ_STATS_DROP_LOSSLESS,	/* lossless packets dropped: headroom full */
	TCA_FCQ_STATS_DROP_LOSSY,	/* lossy packets over their threshold */
	TCA_FCQ_STATS_DROP_LIMIT,	/* packets over the port's limit */
	TCA_FCQ_STATS_DROP_GSO,		/* GSO packets that failed to segment */
	TCA_FCQ_STATS_HEADROOM,		/* u32: headroom in effect, bytes */
	TCA_FCQ_STATS_THRESHOLD,	/* u32: this port's pause threshold now */
	TCA_FCQ_STATS_SW_USED,		/* bytes buffered in the switch now */
	TCA_FCQ_STATS_SW_USED_MAX,	/* peak of the above */
	TCA_FCQ_STATS_ECN_MARKED,	/* packets marked CE */
	TCA_FCQ_STATS_RX_EXT,		/* fcq extension frames applied */
	TCA_FCQ_STATS_TX_LAG,		/* ns of link time lost to host stalls */
	TCA_FCQ_STATS_KP,		/* nested TCA_FCQ_KP_*: keyed pauses */
	TCA_FCQ_STATS_QHIST,		/* nested TCA_FCQ_QHIST_*: queue length */
	TCA_FCQ_STATS_PFCWD_STORM,	/* u8: classes in storm now */
	TCA_FCQ_STATS_DROP_PFCWD,	/* packets of classes in storm dropped */
	TCA_FCQ_STATS_PFCWD_IGNORED,	/* keyed pauses ignored in a storm */
	TCA_FCQ_STATS_SCHEME = 32,	/* nested, scheme-specific */
	__TCA_FCQ_STATS_MAX
};
#define TCA_FCQ_STATS_MAX	(__TCA_FCQ_STATS_MAX - 1)

/* One priority of a port: as an egress (tx, pauses honoured) and as an
 * ingress (bytes it buffered in the switch, pauses it sent).
 */
enum {
	TCA_FCQ_PRIO_UNSPEC,
	TCA_FCQ_PRIO_PAD,
	TCA_FCQ_PRIO_ID,		/* u8: the priority */
	TCA_FCQ_PRIO_TX_PACKETS,	/* data frames sent */
	TCA_FCQ_PRIO_TX_BYTES,
	TCA_FCQ_PRIO_BACKLOG,		/* u32: bytes queued for this egress */
	TCA_FCQ_PRIO_DROPS,		/* packets dropped at this egress */
	TCA_FCQ_PRIO_PFC_RX,		/* PFC/PAUSE/fcq frames applied to it */
	TCA_FCQ_PRIO_PAUSED_NS,		/* time this egress class was paused */
	TCA_FCQ_PRIO_PFC_TX,		/* PFC frames (XOFF, refresh, XON, timed)
					 * and fcq frames sent for it
					 */
	TCA_FCQ_PRIO_XOFF,		/* XOFF transitions of this ingress */
	TCA_FCQ_PRIO_XON,		/* XON transitions */
	TCA_FCQ_PRIO_INGRESS,		/* u32: bytes buffered from this ingress */
	TCA_FCQ_PRIO_HEADROOM_MAX,	/* u32: peak headroom used */
	TCA_FCQ_PRIO_PFCWD_STORMS,	/* storms the watchdog detected */
	__TCA_FCQ_PRIO_MAX
};
#define TCA_FCQ_PRIO_MAX	(__TCA_FCQ_PRIO_MAX - 1)

/*
 * Keyed pauses (flows of a class paused until resumed): what a port sent
 * upstream as a switch ingress (TX) and what its peer sent it (RX).
 * Counters are u64 unless noted.
 */
enum {
	TCA_FCQ_KP_UNSPEC,
	TCA_FCQ_KP_PAD,
	TCA_FCQ_KP_TX_PAUSE,		/* keyed PAUSE frames sent */
	TCA_FCQ_KP_TX_RESUME,		/* keyed RESUME frames sent */
	TCA_FCQ_KP_TX_KEYS,		/* keys they carried */
	TCA_FCQ_KP_TX_ALL,		/* PAUSE ALL frames sent */
	TCA_FCQ_KP_TX_FULL,		/* flows with no room: the class paused */
	TCA_FCQ_KP_TX_HELD,		/* u32: keys held upstream now */
	TCA_FCQ_KP_RX_PAUSE,		/* keyed PAUSE frames taken */
	TCA_FCQ_KP_RX_RESUME,		/* keyed RESUME frames taken */
	TCA_FCQ_KP_RX_KEYS,		/* keys they carried */
	TCA_FCQ_KP_RX_ALL,		/* PAUSE ALL frames taken */
	TCA_FCQ_KP_RX_DUP,		/* PAUSE of a key already paused */
	TCA_FCQ_KP_RX_ORPHAN,		/* RESUME of a key not paused */
	TCA_FCQ_KP_RX_FULL,		/* keys with no room: the class paused */
	TCA_FCQ_KP_RX_EXPIRED,		/* pauses ended by the timeout */
	TCA_FCQ_KP_RX_DEFERRED,		/* resumes the scheme put off */
	TCA_FCQ_KP_RX_COARSE,		/* keyed frames honoured per class */
	TCA_FCQ_KP_RX_BAD,		/* keyed frames with a bad key list */
	TCA_FCQ_KP_RX_APPLIED,		/* u32: keys paused here now */
	__TCA_FCQ_KP_MAX
};
#define TCA_FCQ_KP_MAX	(__TCA_FCQ_KP_MAX - 1)

/*
 * How long the port's data queues (every class, not the wire) held how
 * many bytes, since the qdisc was created: a time-weighted histogram.
 */
enum {
	TCA_FCQ_QHIST_UNSPEC,
	TCA_FCQ_QHIST_PAD,
	TCA_FCQ_QHIST_NS,		/* u64: time the histogram covers */
	TCA_FCQ_QHIST_AREA,		/* u64: integral of the length over
					 * time, byte-ns / 1024
					 */
	TCA_FCQ_QHIST_LEVEL,		/* u32: bytes queued now */
	TCA_FCQ_QHIST_PEAK,		/* u32: the most bytes ever queued */
	TCA_FCQ_QHIST_BUCKETS,		/* struct tc_fcq_qhist_bucket[]: the
					 * buckets with time in them, by level
					 */
	TCA_FCQ_QHIST_SQ,		/* u64: integral of the length squared
					 * over time, byte^2-ns / 2^30
					 */
	__TCA_FCQ_QHIST_MAX
};
#define TCA_FCQ_QHIST_MAX	(__TCA_FCQ_QHIST_MAX - 1)

/* The time the queue held from lo to hi bytes (both included). */
struct tc_fcq_qhist_bucket {
	__u32 lo;
	__u32 hi;
	__u64 ns;
};

/*
 * Generic netlink family "fcq": switch state for tools, events for
 * monitors (multicast group "events").
 */
#define FCQ_GENL_NAME		"fcq"
#define FCQ_GENL_VERSION	1
#define FCQ_GENL_MCGRP_EVENTS	"events"

enum {
	FCQ_CMD_UNSPEC,
	FCQ_CMD_SWITCH_GET,	/* dump: the switches of this netns */
	FCQ_CMD_EVENT,		/* multicast: something happened on a port */
	FCQ_CMD_BOOK_GET,	/* dump: a port's keyed-pause books (FCQ_A_IFINDEX) */
	__FCQ_CMD_MAX
};
#define FCQ_CMD_MAX		(__FCQ_CMD_MAX - 1)

enum fcq_event {
	FCQ_EVENT_PAUSE_TX = 1,	/* a port sent PFC/PAUSE */
	FCQ_EVENT_PAUSE_RX,	/* a port honoured one */
	FCQ_EVENT_KEYS_TX,	/* a port sent a keyed PAUSE or RESUME */
	FCQ_EVENT_KEYS_RX,	/* a port received one */
	FCQ_EVENT_PFCWD_STORM,	/* the PFC watchdog found classes in storm */
	FCQ_EVENT_PFCWD_RESTORE, /* it put them back to normal */
};

enum {
	FCQ_A_UNSPEC,
	FCQ_A_PAD,
	FCQ_A_SWITCH,		/* u32: switch id (in a dump request: only it) */
	FCQ_A_BUFFER,		/* u64: buffer size, bytes */
	FCQ_A_USED,		/* u64: bytes buffered now */
	FCQ_A_USED_MAX,		/* u64 */
	FCQ_A_PORT,		/* nested FCQ_A_PORT_*, repeated */
	FCQ_A_EVENT,		/* u8: enum fcq_event */
	FCQ_A_IFINDEX,		/* u32 */
	FCQ_A_PRIO_MASK,	/* u8: classes the frame addressed */
	FCQ_A_QUANTA,		/* binary, 8 x u16 (PAUSE_* events) */
	FCQ_A_TIME,		/* u64, ns of CLOCK_MONOTONIC */
	FCQ_A_PAUSE_NS,		/* u32: an fcq frame's pause, ns */
	FCQ_A_FRAME,		/* u8: fcq frame type (KEYS_* events) */
	FCQ_A_FLAGS,		/* u8: its flags (ALL: the whole class) */
	FCQ_A_SEQ,		/* u32: its sequence number */
	FCQ_A_KEYS,		/* u16: keys it listed */
	FCQ_A_BOOK,		/* u8: enum fcq_book (BOOK_GET replies) */
	FCQ_A_PRIO,		/* u8: the class */
	FCQ_A_KEY_TYPE,		/* u8: the key's wire type (wire-format.rst) */
	FCQ_A_KEY,		/* binary: the key, wire form; none: the class */
	FCQ_A_STATE,		/* u8: FCQ_BOOK_* flags */
	FCQ_A_SINCE,		/* u64: the peer paused it at, ns (RX) */
	FCQ_A_ACTION,		/* u8: enum fcq_pfcwd_action (PFCWD_*) */
	__FCQ_A_MAX
};
#define FCQ_A_MAX		(__FCQ_A_MAX - 1)

/*
 * Keyed-pause books (FCQ_CMD_BOOK_GET): one message per entry, a flow
 * key or a whole class.
 */
enum fcq_book {
	FCQ_BOOK_TX = 1,	/* what the port asks its link peer to hold */
	FCQ_BOOK_RX,		/* what its link peer asked it to hold */
};

#define FCQ_BOOK_WANT		0x01	/* TX: to be held upstream */
#define FCQ_BOOK_SENT		0x02	/* TX: the peer was told so */
#define FCQ_BOOK_ORIGIN		0x04	/* TX: asked as the congestion's origin */
#define FCQ_BOOK_PEER		0x08	/* RX: the peer asks for it held */
#define FCQ_BOOK_APPLIED	0x10	/* RX: the port's queues hold it */
#define FCQ_BOOK_DEFERRED	0x20	/* RX: its resume is put off */

enum {
	FCQ_A_PORT_UNSPEC,
	FCQ_A_PORT_IFINDEX,	/* u32 */
	FCQ_A_PORT_KIND,	/* string: the qdisc kind */
	FCQ_A_PORT_XOFF,	/* u8: priorities in XOFF toward the upstream */
	FCQ_A_PORT_INGRESS,	/* binary, 8 x u32: bytes buffered per priority */
	FCQ_A_PORT_HEADROOM,	/* u32 */
	__FCQ_A_PORT_MAX
};
#define FCQ_A_PORT_MAX		(__FCQ_A_PORT_MAX - 1)

#endif /* _UAPI_LINUX_FCQ_H */
