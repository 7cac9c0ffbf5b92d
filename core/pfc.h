/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The switch buffer model behind 802.1Qbb PFC.
 *
 * A shared-buffer MMU as Broadcom-style switches and the HPCC simulator
 * (switch-mmu.cc) implement it. Every byte buffered in the switch is charged
 * to the (ingress port, priority) it arrived on, in three parts:
 *
 *   reserve   the first `reserve` bytes of each (port, priority): guaranteed
 *   shared    bytes above the reserve, from the switch-wide shared pool
 *   headroom  bytes that arrive after the queue crossed its threshold: they
 *             were already on the wire when XOFF went out. Lossless classes
 *             only; each (port, priority) owns `headroom` bytes of it.
 *
 * The pause threshold T on a queue's shared part is either static (xoff) or
 * dynamic, a fraction alpha of the shared pool still free:
 *
 *   T = alpha * (size - reserve_total - headroom_total - shared_used)   (DT)
 *
 * XOFF when headroom is in use or shared >= T; XON when headroom is empty
 * and shared is 0 or shared + resume_offset <= T (dynamic), or shared <= xon
 * (static).
 * A lossless packet is dropped only when its queue is over T and its
 * headroom is full; that drop means the headroom was sized wrong.
 */
#ifndef FCQ_CORE_PFC_H
#define FCQ_CORE_PFC_H

#include "core.h"

#define FCQ_ALPHA_ONE	65536		/* alpha is Q16 */

struct fcq_buf_cfg {
	u64 size;		/* switch buffer, bytes */
	u32 xoff;		/* static threshold, bytes; 0 = dynamic */
	u32 xon;		/* static resume level, bytes */
	u32 alpha;		/* dynamic threshold factor, Q16 */
	u32 resume_offset;	/* dynamic XON hysteresis, bytes */
	u32 reserve;		/* guaranteed bytes per (port, priority) */
};

/* Switch-wide occupancy. */
struct fcq_buf {
	u64 shared_used;	/* sum of every queue's shared part */
	u64 reserve_total;	/* reserve allotted: ports x priorities */
	u64 headroom_total;	/* headroom allotted: ports x lossless prios */
	u64 used;		/* every buffered byte */
	u64 used_max;		/* peak of used */
};

/* One (ingress port, priority) queue. */
struct fcq_buf_q {
	u32 bytes;		/* buffered, all parts */
	u32 hdrm;		/* of which headroom */
	u32 hdrm_max;		/* peak headroom use */
	bool xoff;		/* XOFF in effect toward the upstream */
};

enum fcq_buf_event {
	FCQ_BUF_NONE,
	FCQ_BUF_XOFF,		/* start pausing the upstream */
	FCQ_BUF_XON,		/* stop pausing it */
};

/* The shared part of @q (bytes above its reserve, outside headroom). */
u32 fcq_buf_q_shared(const struct fcq_buf_cfg *cfg, const struct fcq_buf_q *q);

/* The shared pool: what the reserves and headroom leave of the buffer. */
u64 fcq_buf_pool(const struct fcq_buf_cfg *cfg, const struct fcq_buf *b);

/* The current pause threshold on a queue's shared part. */
u64 fcq_buf_threshold(const struct fcq_buf_cfg *cfg, const struct fcq_buf *b);

/*
 * Charge @len bytes arriving on @q. Lossy classes are admitted below the
 * threshold only; lossless ones may use up to @headroom bytes of headroom.
 * Returns false (and changes nothing) if the packet must be dropped; sets
 * *ev to the XOFF transition this arrival causes.
 */
bool fcq_buf_admit(const struct fcq_buf_cfg *cfg, struct fcq_buf *b,
		   struct fcq_buf_q *q, u32 headroom, bool lossless, u32 len,
		   enum fcq_buf_event *ev);

/* Release @len bytes of @q (headroom first); returns an XON transition. */
enum fcq_buf_event fcq_buf_release(const struct fcq_buf_cfg *cfg,
				   struct fcq_buf *b, struct fcq_buf_q *q,
				   u32 len);

/*
 * Headroom one (port, lossless priority) needs so that XOFF loses nothing.
 * After the queue crosses its threshold, the XOFF frame waits for the frame
 * being sent (@frame bytes), crosses the wire (@delay_ns); the upstream
 * reacts (@response_ns) and finishes the frame it is sending (@frame),
 * while data already on the wire back keeps arriving (@delay_ns). And the
 * switch counts a frame when its last bit is in (store and forward), so the
 * one arriving as the threshold is crossed is counted whole: one @frame
 * more.
 *
 *   headroom = 3 * frame + ctl + rate * (2 * delay + response)
 *
 * @frame and @ctl are wire sizes (with Ethernet overhead) of the largest
 * data frame and of the PFC frame.
 */
u32 fcq_pfc_headroom(u64 rate, u64 delay_ns, u32 frame, u32 ctl,
		     u64 response_ns);

#endif /* FCQ_CORE_PFC_H */
