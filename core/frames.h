/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Build and parse the control frames fcq puts on the wire.
 * Pure byte work: callers hand in buffers, nothing is allocated.
 *
 * IEEE 802.3 Annex 31B (PAUSE) and 802.1Qbb (PFC) MAC Control frames:
 *
 *   0  DA 01:80:C2:00:00:01      12 EtherType 0x8808     14 opcode
 *   PAUSE (0x0001): 16 pause_time (quanta)
 *   PFC   (0x0101): 16 class-enable vector (low octet, bit p = priority p)
 *                   18 time[0..7], 16 bits each (quanta)
 *   padded with zeros to the 60-byte minimum (veth carries no FCS).
 *
 * fcq extension frames (EtherType 0x88B5, IEEE 802 Local Experimental 1),
 * to the same link-local address, so a bridge port without fcq drops them:
 *
 *  14  magic 0x4643 ("FC")   16 version 1   17 type   18 priority
 *  19  flags                 20 sequence (32 bits)     24 tx time (64, ns)
 *  32  body; zero padding to 60 bytes
 *
 *   FAFC pause (type 1): 32 pause time (32 bits, ns). Flag ACCUMULATE: the
 *   pause adds to the one running, else it replaces it (as PFC does).
 *
 *   Keyed pause and resume (types 2, 3): 32 key type (FCQ_WK_*, key.h;
 *   0 only without keys)  33 reserved  34 count (16 bits)  36 count keys
 *   in the key type's wire form; up to MTU + 14 bytes in all. Flags: ALL
 *   (the whole class; sent with count 0, keys with it are ignored), ORIGIN
 *   (sent by the congestion's origin), MORE (the list goes on in the next
 *   frame); ACCUMULATE and other bits are ignored. A frame pauses or
 *   resumes the keys it names; RESUME ALL ends everything the sender held
 *   of the class, named keys included.
 *
 * IEEE 802.1Qau Congestion Notification Messages (EtherType 0x22E7), sent
 * by a congestion point to the source of the frame it names (the culprit),
 * untagged:
 *
 *   0  DA: the culprit's source   6 SA: the congestion point's port
 *  12  EtherType 0x22E7
 *  14  version (4 bits) 0 or 1, reserved (6 bits), QntzFb (6 bits)
 *  16  CPID (8 bytes): the port's MAC, then a 16-bit index of its CP
 *  24  version 0 (QCN): cnmQOffset, 26 cnmQDelta: signed, in 64-byte units
 *      version 1 (DSM): F_b, the rate change asked (32 bits, signed,
 *      kbit/s); QntzFb is then informational, receivers ignore it
 *  28  encapsulated priority (3 bits, then 13 reserved)
 *  30  encapsulated DA (the culprit's destination: it selects the RL)
 *  36  encapsulated MSDU length (0 to 64)
 *  38  encapsulated MSDU: the culprit frame from its EtherType on
 *      zero padding to 60 bytes.
 */
#ifndef FCQ_CORE_FRAMES_H
#define FCQ_CORE_FRAMES_H

#include "core.h"
#include "key.h"

#define FCQ_NUM_PRIO		8
#define FCQ_ETH_ALEN		6
#define FCQ_ETH_HLEN		14
#define FCQ_ETH_ZLEN		60	/* minimum frame, without FCS */
#define FCQ_ETHERTYPE_MACCTL	0x8808
#define FCQ_MACCTL_PAUSE	0x0001
#define FCQ_MACCTL_PFC		0x0101
#define FCQ_ETHERTYPE_EXT	0x88b5
#define FCQ_EXT_MAGIC		0x4643
#define FCQ_EXT_VERSION		1
#define FCQ_EXT_PAUSE		1	/* type: a timed pause */
#define FCQ_EXT_KEYS_PAUSE	2	/* type: pause the flows listed */
#define FCQ_EXT_KEYS_RESUME	3	/* type: resume them */
#define FCQ_EXT_F_ACCUMULATE	0x01	/* type 1: add to the running pause */
/* Flags of keyed pauses (core/kp.h) */
#define FCQ_EXT_F_ALL		0x02	/* the whole class */
#define FCQ_EXT_F_ORIGIN	0x04	/* sent by the congestion's origin */
#define FCQ_EXT_F_MORE		0x08	/* the list goes on in another frame */

extern const u8 fcq_macctl_dst[FCQ_ETH_ALEN];

#define FCQ_ETHERTYPE_CNM	0x22e7
#define FCQ_CNM_HLEN		38	/* where the encapsulated MSDU begins */
#define FCQ_CNM_MSDU_MAX	64
#define FCQ_CNM_UNIT		64	/* bytes per cnmQOffset, cnmQDelta unit */
#define FCQ_CNM_VERSION_QCN	0	/* 802.1Qau: cnmQOffset, cnmQDelta */
#define FCQ_CNM_VERSION_DSM	1	/* DSM: F_b in their place */

/* A CNM's fields (its DA and SA are the frame's). */
struct fcq_cnm {
	u8 version;			/* FCQ_CNM_VERSION_* */
	u8 qfb;				/* QntzFb, 0..63 */
	u8 cpid[8];
	s16 qoffset;			/* QCN: 64-byte units; DSM: 0 */
	s16 qdelta;			/* QCN: 64-byte units; DSM: 0 */
	s32 fb_kbps;			/* DSM: F_b, kbit/s; QCN: 0 */
	u8 prio;			/* the culprit's priority */
	u8 encap_da[FCQ_ETH_ALEN];	/* the culprit's destination */
	u16 msdu_len;			/* bytes at FCQ_CNM_HLEN */
};

/* A MAC Control frame as the receiver must act on it. */
struct fcq_macctl {
	u16 opcode;
	u8 enable;			/* classes it applies to (PAUSE: all) */
	u16 quanta[FCQ_NUM_PRIO];	/* valid where enable has the bit */
};

/* An fcq extension frame. */
struct fcq_ext {
	u8 type;
	u8 prio;
	u8 flags;
	u32 seq;
	u64 tx_ns;
	u32 pause_ns;			/* FCQ_EXT_PAUSE */
	u8 key_type;			/* FCQ_EXT_KEYS_*: FCQ_WK_* */
	u16 count;			/* keys that follow */
};

#define FCQ_EXT_KEYS_HLEN	36	/* where a keyed frame's keys begin */

enum fcq_frame_err {
	FCQ_FRAME_OK = 0,
	FCQ_FRAME_TRUNCATED,		/* shorter than the 60-byte minimum */
	FCQ_FRAME_NOT_MACCTL,		/* EtherType is not the one expected */
	FCQ_FRAME_BAD_DST,		/* not sent to 01:80:C2:00:00:01 */
	FCQ_FRAME_BAD_OPCODE,		/* unknown opcode or extension type */
	FCQ_FRAME_BAD_HEADER,		/* extension magic, version, priority */
	FCQ_FRAME_BAD_KEYS,		/* unknown key type, or keys past the end */
	FCQ_FRAME_BAD_MSDU,		/* CNM: MSDU over 64 bytes or past the end */
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

/* Write an fcq extension frame; same contract as fcq_pfc_build(). */
size_t fcq_ext_build(u8 *buf, size_t size, const u8 *src,
		     const struct fcq_ext *f);

/*
 * Write a keyed frame (@f->type FCQ_EXT_KEYS_*) naming @f->count @keys,
 * each of wire type @f->key_type (FCQ_WK_NONE only with no keys). Returns
 * the frame length, at least FCQ_ETH_ZLEN, or 0 without writing if @size
 * is too small, the key type unknown, or a key of another type.
 */
size_t fcq_ext_keys_build(u8 *buf, size_t size, const u8 *src,
			  const struct fcq_ext *f, const struct fcq_fkey *keys);

/*
 * Parse a received frame of @len bytes starting at its destination MAC.
 * Only its first FCQ_EXT_KEYS_HLEN bytes are read: a keyed frame's keys are
 * at FCQ_EXT_KEYS_HLEN + i * fcq_key_wire_size(key_type), all within @len.
 */
enum fcq_frame_err fcq_ext_parse(const u8 *frame, size_t len,
				 struct fcq_ext *out);

/* @bytes in cnmQOffset's 64-byte units, saturated to 16 bits. */
s16 fcq_cnm_units(s64 bytes);

/*
 * Write a CNM to @dst from @src carrying @c and, at FCQ_CNM_HLEN,
 * @c->msdu_len bytes of @msdu; a DSM CNM carries @c->fb_kbps in place of
 * @c->qoffset and @c->qdelta, which are then ignored. Returns the frame
 * length (at least FCQ_ETH_ZLEN), or 0 without writing if @size is too
 * small, @c->version over 1, @c->qfb over 63, @c->prio over 7 or
 * @c->msdu_len over FCQ_CNM_MSDU_MAX.
 */
size_t fcq_cnm_build(u8 *buf, size_t size, const u8 *dst, const u8 *src,
		     const struct fcq_cnm *c, const u8 *msdu);

/*
 * Parse a received CNM of @len bytes starting at its DA; the reserved
 * bits are ignored, its MSDU is at FCQ_CNM_HLEN, within @len. Versions 0
 * and 1 only: the fields the other one carries are 0.
 */
enum fcq_frame_err fcq_cnm_parse(const u8 *frame, size_t len,
				 struct fcq_cnm *out);

#endif /* FCQ_CORE_FRAMES_H */
