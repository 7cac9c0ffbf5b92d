/* SPDX-License-Identifier: GPL-2.0 */
/*
 * core/frames.h - build and parse the control frames fcq puts on the wire.
 * Pure byte work: callers hand in buffers, nothing is allocated.
 *
 * IEEE 802.3 Annex 31B (PAUSE) and 802.1Qbb (PFC) MAC Control frames:
 *
 *   0  DA 01:80:C2:00:00:01      12 EtherType 0x8808     14 opcode
 *   PAUSE (0x0001): 16 pause_time (quanta)
 *   PFC   (0x0101): 16 class-enable vector (low octet, bit p = priority p)
 *                   18 time[0..7], 16 bits each (quanta)
 *   padded with zeros to the 60-byte minimum (veth carries no FCS).
 */
#ifndef FCQ_CORE_FRAMES_H
#define FCQ_CORE_FRAMES_H

#include "core.h"

#define FCQ_NUM_PRIO		8
#define FCQ_ETH_ALEN		6
#define FCQ_ETH_HLEN		14
#define FCQ_ETH_ZLEN		60	/* minimum frame, without FCS */
#define FCQ_ETHERTYPE_MACCTL	0x8808
#define FCQ_MACCTL_PAUSE	0x0001
#define FCQ_MACCTL_PFC		0x0101

extern const u8 fcq_macctl_dst[FCQ_ETH_ALEN];

/* A MAC Control frame as the receiver must act on it. */
struct fcq_macctl {
	u16 opcode;
	u8 enable;			/* classes it applies to (PAUSE: all) */
	u16 quanta[FCQ_NUM_PRIO];	/* valid where enable has the bit */
};

enum fcq_frame_err {
	FCQ_FRAME_OK = 0,
	FCQ_FRAME_TRUNCATED,		/* shorter than the 60-byte minimum */
	FCQ_FRAME_NOT_MACCTL,		/* EtherType is not 0x8808 */
	FCQ_FRAME_BAD_DST,		/* not sent to 01:80:C2:00:00:01 */
	FCQ_FRAME_BAD_OPCODE,		/* neither PAUSE nor PFC */
};

/*
 * Write a PFC frame from @src pausing the classes in @enable for @quanta
 * (quanta 0 = XON). Returns the frame length (FCQ_ETH_ZLEN), or 0 if @size
 * is too small.
 */
size_t fcq_pfc_build(u8 *buf, size_t size, const u8 *src, u8 enable,
		     const u16 quanta[FCQ_NUM_PRIO]);

/* Write an 802.3x PAUSE frame; same contract as fcq_pfc_build(). */
size_t fcq_pause_build(u8 *buf, size_t size, const u8 *src, u16 quanta);

/* Parse a received frame of @len bytes starting at its destination MAC. */
enum fcq_frame_err fcq_macctl_parse(const u8 *frame, size_t len,
				    struct fcq_macctl *out);

const char *fcq_frame_err_str(enum fcq_frame_err err);

#endif /* FCQ_CORE_FRAMES_H */
