// SPDX-License-Identifier: GPL-2.0
/*
 * Time-weighted histogram of a queue's length (see qhist.h).
 */
#include "qhist.h"

static u32 fls32(u32 x)
{
	return x ? 32 - __builtin_clz(x) : 0;
}

u32 fcq_qhist_bucket(u32 level)
{
	u32 shift;

	if (level < FCQ_QHIST_SUB)
		return level;
	/* the top FCQ_QHIST_SUB_BITS + 1 bits: 1, then the sub-bucket */
	shift = fls32(level) - FCQ_QHIST_SUB_BITS - 1;
	return FCQ_QHIST_SUB * (shift + 1) +
	       ((level >> shift) & (FCQ_QHIST_SUB - 1));
}

u32 fcq_qhist_lo(u32 bucket)
{
	u32 shift;

	if (bucket < FCQ_QHIST_SUB)
		return bucket;
	shift = bucket / FCQ_QHIST_SUB - 1;
	return (FCQ_QHIST_SUB + bucket % FCQ_QHIST_SUB) << shift;
}

u32 fcq_qhist_hi(u32 bucket)
{
	if (bucket + 1 >= FCQ_QHIST_BUCKETS)
		return ~0U;
	return fcq_qhist_lo(bucket + 1) - 1;
}

#define SQ_MASK		((1ULL << FCQ_QHIST_SQ_SHIFT) - 1)

/*
 * @level^2 @dt added to the integral, in O(1): its part >> 30 to sq
 * (saturated) and the 30 bits below to sq_rem, carried over, so that
 * short updates on a fast link add up exactly. Levels over 256 MB count
 * as 256 MB.
 */
static void sq_add(struct fcq_qhist *h, u32 level, u64 dt)
{
	u64 l = fcq_min64(level, 1U << 28), l2 = l * l, hi = l2 >> 30;
	u64 lo = l2 & SQ_MASK, v, w;

	if (!l2 || !dt)
		return;
	/* hi * dt + lo * dt >> 30, and what lo * dt leaves below 2^30 */
	if (hi && dt > ~0ULL / hi)
		goto full;
	v = hi * dt;
	w = dt >> 32 ? fcq_mul_div(lo, dt, 1ULL << FCQ_QHIST_SQ_SHIFT) :
		       (lo * dt) >> FCQ_QHIST_SQ_SHIFT;
	h->sq_rem += (lo * (dt & SQ_MASK)) & SQ_MASK;
	w += h->sq_rem >> FCQ_QHIST_SQ_SHIFT;
	h->sq_rem &= SQ_MASK;
	if (v + w < v || h->sq + v + w < h->sq)
		goto full;
	h->sq += v + w;
	return;
full:
	h->sq = ~0ULL;
}

void fcq_qhist_init(struct fcq_qhist *h, u64 now)
{
	memset(h, 0, sizeof(*h));
	h->last = now;
}

void fcq_qhist_set(struct fcq_qhist *h, u64 now, u32 level)
{
	if (now > h->last) {
		u64 dt = now - h->last;

		h->ns[fcq_qhist_bucket(h->level)] += dt;
		h->area += fcq_mul_shr(dt, h->level, FCQ_QHIST_AREA_SHIFT);
		sq_add(h, h->level, dt);
		h->last = now;
	}
	h->level = level;
	if (level > h->max)
		h->max = level;
}

u32 fcq_qhist_permille(const struct fcq_qhist *h, u32 permille)
{
	u64 total = 0, sum = 0, want;
	u32 b;

	for (b = 0; b < FCQ_QHIST_BUCKETS; b++)
		total += h->ns[b];
	if (!total)
		return 0;
	/* the first bucket where the time at or under it reaches the share */
	want = fcq_mul_div(total, permille, 1000);
	for (b = 0; b < FCQ_QHIST_BUCKETS; b++) {
		sum += h->ns[b];
		if (h->ns[b] && sum >= want)
			break;
	}
	if (b == FCQ_QHIST_BUCKETS)
		b--;
	return fcq_qhist_hi(b) < h->max ? fcq_qhist_hi(b) : h->max;
}
