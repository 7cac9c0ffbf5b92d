/* SPDX-License-Identifier: GPL-2.0 */
/*
 * How long a queue held how many bytes: a time-weighted histogram of its
 * length, updated at every change, so that its average and percentiles are
 * exact over any time, where sampling (the FlowSail paper's Fig. 18 reads
 * the queue every 1 ms) would miss what happens between samples.
 *
 * Levels 0 to 7 bytes have a bucket each; above, every power of two is cut
 * into 8 equal buckets, so a bucket is at most 1/8 of its lower edge wide.
 * The integrals of the level and of its square give the average and the
 * standard deviation exactly, which the buckets' widths would blur.
 */
#ifndef FCQ_CORE_QHIST_H
#define FCQ_CORE_QHIST_H

#include "core.h"

#define FCQ_QHIST_SUB_BITS	3
#define FCQ_QHIST_SUB		(1U << FCQ_QHIST_SUB_BITS)
#define FCQ_QHIST_BUCKETS	(FCQ_QHIST_SUB * (32 - FCQ_QHIST_SUB_BITS + 1))
#define FCQ_QHIST_AREA_SHIFT	10	/* area is in byte-ns / 1024 */
#define FCQ_QHIST_SQ_SHIFT	30	/* sq is in byte^2-ns / 2^30 */

struct fcq_qhist {
	u64 last;			/* ns: when level last changed */
	u64 area;			/* integral of level dt, byte-ns >> 10 */
	u64 sq;				/* of level^2 dt, byte^2-ns >> 30,
					 * saturated (levels over 256 MB
					 * count as 256 MB)
					 */
	u64 sq_rem;			/* ... the bits below, carried */
	u32 level;			/* bytes queued now */
	u32 max;			/* the most ever queued */
	u64 ns[FCQ_QHIST_BUCKETS];	/* time spent in each bucket */
};

/* The bucket of @level, and the levels a bucket holds: [lo, hi]. */
u32 fcq_qhist_bucket(u32 level);
u32 fcq_qhist_lo(u32 bucket);
u32 fcq_qhist_hi(u32 bucket);

/* Start empty at @now. */
void fcq_qhist_init(struct fcq_qhist *h, u64 now);

/*
 * The queue holds @level bytes from @now on: the time since the last
 * change goes to the old level. A @now before the last change (clocks
 * read on different CPUs) counts as no time.
 */
void fcq_qhist_set(struct fcq_qhist *h, u64 now, u32 level);

/*
 * The smallest level that the queue was at or under for @permille of the
 * time the histogram covers, as the upper edge of its bucket (at most
 * h->max); 0 if it covers no time.
 */
u32 fcq_qhist_permille(const struct fcq_qhist *h, u32 permille);

#endif /* FCQ_CORE_QHIST_H */
