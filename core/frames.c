// SPDX-License-Identifier: GPL-2.0
/*
 * Byte layouts of the MAC Control, fcq extension and 802.1Qau CNM frames
 * (see frames.h).
 */
#include "frames.h"

const u8 fcq_macctl_dst[FCQ_ETH_ALEN] = { 0x01, 0x80, 0xc2, 0x00, 0x00, 0x01 };

static void put_be16(u8 *p, u16 v)
{
	p[0] = v >> 8;
	p[1] = v & 0xff;
}

static u16 get_be16(const u8 *p)
{
	return (u16)(p[0] << 8 | p[1]);
}

static void put_be32(u8 *p, u32 v)
{
	put_be16(p, v >> 16);
	put_be16(p + 2, v & 0xffff);
}

static u32 get_be32(const u8 *p)
{
	return (u32)get_be16(p) << 16 | get_be16(p + 2);
}

/* The 60 bytes from @buf zeroed, then the Ethernet header; its payload. */
static u8 *eth_header(u8 *buf, const u8 *dst, const u8 *src, u16 ethertype)
{
	memset(buf, 0, FCQ_ETH_ZLEN);
	memcpy(buf, dst, FCQ_ETH_ALEN);
	memcpy(buf + FCQ_ETH_ALEN, src, FCQ_ETH_ALEN);
	put_be16(buf + 12, ethertype);
	return buf + FCQ_ETH_HLEN;
}

static u8 *macctl_header(u8 *buf, const u8 *src, u16 opcode)
{
	put_be16(eth_header(buf, fcq_macctl_dst, src, FCQ_ETHERTYPE_MACCTL),
		 opcode);
	return buf + 16;
}

/*
 * The checks every received control frame passes first; @dst NULL: any
 * destination (a CNM's is unicast).
 */
static enum fcq_frame_err eth_check(const u8 *frame, size_t len, u16 type,
				    const u8 *dst)
{
	if (len < FCQ_ETH_ZLEN)
		return FCQ_FRAME_TRUNCATED;
	if (get_be16(frame + 12) != type)
		return FCQ_FRAME_NOT_MACCTL;
	if (dst && memcmp(frame, dst, FCQ_ETH_ALEN))
		return FCQ_FRAME_BAD_DST;
	return FCQ_FRAME_OK;
}

size_t fcq_pfc_build(u8 *buf, size_t size, const u8 *src, u8 enable,
		     const u16 quanta[FCQ_NUM_PRIO])
{
	u8 *p;
	int i;

	if (size < FCQ_ETH_ZLEN)
		return 0;
	p = macctl_header(buf, src, FCQ_MACCTL_PFC);
	put_be16(p, enable);	/* high octet reserved, zero */
	for (i = 0; i < FCQ_NUM_PRIO; i++)
		put_be16(p + 2 + 2 * i, enable & (1u << i) ? quanta[i] : 0);
	return FCQ_ETH_ZLEN;
}

size_t fcq_pause_build(u8 *buf, size_t size, const u8 *src, u16 quanta)
{
	u8 *p;

	if (size < FCQ_ETH_ZLEN)
		return 0;
	p = macctl_header(buf, src, FCQ_MACCTL_PAUSE);
	put_be16(p, quanta);
	return FCQ_ETH_ZLEN;
}

enum fcq_frame_err fcq_macctl_parse(const u8 *frame, size_t len,
				    struct fcq_macctl *out)
{
	enum fcq_frame_err err = eth_check(frame, len, FCQ_ETHERTYPE_MACCTL,
					   fcq_macctl_dst);
	const u8 *p = frame + 16;
	int i;

	if (err)
		return err;
	memset(out, 0, sizeof(*out));
	out->opcode = get_be16(frame + 14);
	switch (out->opcode) {
	case FCQ_MACCTL_PAUSE:
		/* 802.3x pauses the whole link: every class. */
		out->enable = 0xff;
		for (i = 0; i < FCQ_NUM_PRIO; i++)
			out->quanta[i] = get_be16(p);
		return FCQ_FRAME_OK;
	case FCQ_MACCTL_PFC:
		/* 802.1Qbb: the reserved octet and disabled times are ignored. */
		out->enable = p[1];
		for (i = 0; i < FCQ_NUM_PRIO; i++)
			if (out->enable & (1u << i))
				out->quanta[i] = get_be16(p + 2 + 2 * i);
		return FCQ_FRAME_OK;
	default:
		return FCQ_FRAME_BAD_OPCODE;
	}
}

size_t fcq_ext_build(u8 *buf, size_t size, const u8 *src,
		     const struct fcq_ext *f)
{
	u8 *p;

	if (size < FCQ_ETH_ZLEN)
		return 0;
	p = eth_header(buf, fcq_macctl_dst, src, FCQ_ETHERTYPE_EXT);
	put_be16(p, FCQ_EXT_MAGIC);
	p[2] = FCQ_EXT_VERSION;
	p[3] = f->type;
	p[4] = f->prio;
	p[5] = f->flags;
	put_be32(p + 6, f->seq);
	put_be32(p + 10, f->tx_ns >> 32);
	put_be32(p + 14, f->tx_ns & 0xffffffff);
	if (f->type == FCQ_EXT_PAUSE)
		put_be32(p + 18, f->pause_ns);
	return FCQ_ETH_ZLEN;
}

size_t fcq_ext_keys_build(u8 *buf, size_t size, const u8 *src,
			  const struct fcq_ext *f, const struct fcq_fkey *keys)
{
	size_t ksize = fcq_key_wire_size(f->key_type);
	size_t len = FCQ_EXT_KEYS_HLEN + f->count * ksize;
	u8 *p;
	u16 i;

	/* Refuse what fcq_ext_parse() would, before writing anything. */
	if (!ksize && (f->key_type || f->count))
		return 0;
	for (i = 0; i < f->count; i++)
		if (fcq_key_wire(&keys[i]) != f->key_type)
			return 0;
	if (len < FCQ_ETH_ZLEN)
		len = FCQ_ETH_ZLEN;
	if (size < len)
		return 0;
	fcq_ext_build(buf, size, src, f);
	p = buf + FCQ_ETH_HLEN;
	p[18] = f->key_type;
	put_be16(p + 20, f->count);
	for (i = 0, p = buf + FCQ_EXT_KEYS_HLEN; i < f->count; i++)
		p += fcq_key_encode(p, &keys[i]);
	return len;
}

enum fcq_frame_err fcq_ext_parse(const u8 *frame, size_t len,
				 struct fcq_ext *out)
{
	enum fcq_frame_err err = eth_check(frame, len, FCQ_ETHERTYPE_EXT,
					   fcq_macctl_dst);
	const u8 *p = frame + FCQ_ETH_HLEN;
	size_t ksize;

	if (err)
		return err;
	if (get_be16(p) != FCQ_EXT_MAGIC || p[2] != FCQ_EXT_VERSION ||
	    p[4] >= FCQ_NUM_PRIO)
		return FCQ_FRAME_BAD_HEADER;
	memset(out, 0, sizeof(*out));
	out->type = p[3];
	out->prio = p[4];
	out->flags = p[5];
	out->seq = get_be32(p + 6);
	out->tx_ns = (u64)get_be32(p + 10) << 32 | get_be32(p + 14);
	switch (out->type) {
	case FCQ_EXT_PAUSE:
		out->pause_ns = get_be32(p + 18);
		return FCQ_FRAME_OK;
	case FCQ_EXT_KEYS_PAUSE:
	case FCQ_EXT_KEYS_RESUME:
		out->key_type = p[18];
		out->count = get_be16(p + 20);
		ksize = fcq_key_wire_size(out->key_type);
		/* Key type 0 (none) only in a frame without keys. */
		if (!ksize && (out->key_type || out->count))
			return FCQ_FRAME_BAD_KEYS;
		/* So that the caller may read every key within @len. */
		if (FCQ_EXT_KEYS_HLEN + out->count * ksize > len)
			return FCQ_FRAME_BAD_KEYS;
		return FCQ_FRAME_OK;
	default:
		return FCQ_FRAME_BAD_OPCODE;
	}
}

s16 fcq_cnm_units(s64 bytes)
{
	s64 u = fcq_sdiv64(bytes, FCQ_CNM_UNIT);

	if (u > 0x7fff)
		return 0x7fff;
	if (u < -0x8000)
		return -0x8000;
	return (s16)u;
}

size_t fcq_cnm_build(u8 *buf, size_t size, const u8 *dst, const u8 *src,
		     const struct fcq_cnm *c, const u8 *msdu)
{
	size_t len = FCQ_CNM_HLEN + c->msdu_len;

	if (c->version > FCQ_CNM_VERSION_DSM || c->qfb > 63 ||
	    c->prio >= FCQ_NUM_PRIO || c->msdu_len > FCQ_CNM_MSDU_MAX)
		return 0;
	if (len < FCQ_ETH_ZLEN)
		len = FCQ_ETH_ZLEN;
	if (size < len)
		return 0;
	/* Past 60 bytes the frame is all MSDU: nothing else to zero. */
	eth_header(buf, dst, src, FCQ_ETHERTYPE_CNM);
	put_be16(buf + 14, c->version << 12 | c->qfb);	/* reserved 0 */
	memcpy(buf + 16, c->cpid, sizeof(c->cpid));
	if (c->version == FCQ_CNM_VERSION_DSM) {
		put_be32(buf + 24, (u32)c->fb_kbps);
	} else {
		put_be16(buf + 24, (u16)c->qoffset);
		put_be16(buf + 26, (u16)c->qdelta);
	}
	put_be16(buf + 28, (u16)(c->prio << 13));
	memcpy(buf + 30, c->encap_da, FCQ_ETH_ALEN);
	put_be16(buf + 36, c->msdu_len);
	memcpy(buf + FCQ_CNM_HLEN, msdu, c->msdu_len);
	return len;
}

enum fcq_frame_err fcq_cnm_parse(const u8 *frame, size_t len,
				 struct fcq_cnm *out)
{
	enum fcq_frame_err err = eth_check(frame, len, FCQ_ETHERTYPE_CNM, NULL);
	u8 version;

	if (err)
		return err;
	version = frame[14] >> 4;
	if (version > FCQ_CNM_VERSION_DSM)
		return FCQ_FRAME_BAD_HEADER;	/* a version we do not know */
	memset(out, 0, sizeof(*out));
	out->version = version;
	/* In a DSM CNM only a summary of F_b, returned all the same. */
	out->qfb = frame[15] & 0x3f;
	memcpy(out->cpid, frame + 16, sizeof(out->cpid));
	if (version == FCQ_CNM_VERSION_DSM) {
		out->fb_kbps = (s32)get_be32(frame + 24);
	} else {
		out->qoffset = (s16)get_be16(frame + 24);
		out->qdelta = (s16)get_be16(frame + 26);
	}
	out->prio = frame[28] >> 5;
	memcpy(out->encap_da, frame + 30, FCQ_ETH_ALEN);
	out->msdu_len = get_be16(frame + 36);
	if (out->msdu_len > FCQ_CNM_MSDU_MAX ||
	    (size_t)FCQ_CNM_HLEN + out->msdu_len > len)
		return FCQ_FRAME_BAD_MSDU;
	return FCQ_FRAME_OK;
}
