// SPDX-License-Identifier: GPL-2.0
/*
 * Shared-buffer accounting and PFC XOFF/XON (see pfc.h).
 */
#include "pfc.h"
#include "link.h"

/* Bytes of a queue above its reserve, outside headroom. */
static u32 shared_part(const struct fcq_buf_cfg *cfg, u32 bytes, u32 hdrm)
{
	u32 nonhdrm = bytes - hdrm;

	return nonhdrm > cfg->reserve ? nonhdrm - cfg->reserve : 0;
}

u32 fcq_buf_q_shared(const struct fcq_buf_cfg *cfg, const struct fcq_buf_q *q)
{
	return shared_part(cfg, q->bytes, q->hdrm);
}

/* The shared pool: what reserves and headroom leave of the buffer. */
u64 fcq_buf_pool(const struct fcq_buf_cfg *cfg, const struct fcq_buf *b)
{
	u64 fixed = b->reserve_total + b->headroom_total;

	return cfg->size > fixed ? cfg->size - fixed : 0;
}

u64 fcq_buf_threshold(const struct fcq_buf_cfg *cfg, const struct fcq_buf *b)
{
	u64 pool = fcq_buf_pool(cfg, b);

	if (cfg->xoff)
		return cfg->xoff;
	if (b->shared_used >= pool)
		return 0;
	/* DT: alpha times the free shared buffer. */
	return fcq_mul_div(pool - b->shared_used, cfg->alpha, FCQ_ALPHA_ONE);
}

static bool should_xon(const struct fcq_buf_cfg *cfg, const struct fcq_buf *b,
		       const struct fcq_buf_q *q)
{
	u64 sh = shared_part(cfg, q->bytes, q->hdrm);

	if (q->hdrm)
		return false;
	if (cfg->xoff)
		return sh <= cfg->xon;
	return sh == 0 || sh + cfg->resume_offset <= fcq_buf_threshold(cfg, b);
}

bool fcq_buf_admit(const struct fcq_buf_cfg *cfg, struct fcq_buf *b,
		   struct fcq_buf_q *q, u32 headroom, bool lossless, u32 len,
		   enum fcq_buf_event *ev)
{
	u64 thresh = fcq_buf_threshold(cfg, b);
	u32 sh_old = shared_part(cfg, q->bytes, q->hdrm);
	u32 sh_new = shared_part(cfg, q->bytes + len, q->hdrm);

	*ev = FCQ_BUF_NONE;
	if (sh_new <= thresh &&
	    b->shared_used + sh_new - sh_old <= fcq_buf_pool(cfg, b)) {
		/* Reserve, or shared below the threshold. */
		b->shared_used += sh_new - sh_old;
	} else if (lossless && q->hdrm + len <= headroom) {
		/* Over the threshold: the packet was already in flight. */
		q->hdrm += len;
		if (q->hdrm > q->hdrm_max)
			q->hdrm_max = q->hdrm;
	} else {
		return false;
	}
	q->bytes += len;
	b->used += len;
	if (b->used > b->used_max)
		b->used_max = b->used;

	if (lossless && !q->xoff &&
	    (q->hdrm || shared_part(cfg, q->bytes, q->hdrm) >=
			fcq_buf_threshold(cfg, b))) {
		q->xoff = true;
		*ev = FCQ_BUF_XOFF;
	}
	return true;
}

enum fcq_buf_event fcq_buf_release(const struct fcq_buf_cfg *cfg,
				   struct fcq_buf *b, struct fcq_buf_q *q,
				   u32 len)
{
	u32 sh_old, from_hdrm;

	if (len > q->bytes)	/* never underflow on a config race */
		len = q->bytes;
	sh_old = shared_part(cfg, q->bytes, q->hdrm);
	from_hdrm = len < q->hdrm ? len : q->hdrm;
	q->hdrm -= from_hdrm;
	q->bytes -= len;
	b->shared_used -= sh_old - shared_part(cfg, q->bytes, q->hdrm);
	b->used -= len;

	if (q->xoff && should_xon(cfg, b, q)) {
		q->xoff = false;
		return FCQ_BUF_XON;
	}
	return FCQ_BUF_NONE;
}

u32 fcq_pfc_headroom(u64 rate, u64 delay_ns, u32 frame, u32 ctl,
		     u64 response_ns)
{
	u64 h = 3ULL * frame + ctl + fcq_bytes_in(2 * delay_ns + response_ns,
						 rate);

	return h > 0xffffffffULL ? 0xffffffffU : (u32)h;
}
