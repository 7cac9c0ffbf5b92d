// SPDX-License-Identifier: GPL-2.0
/*
 * RED-like ECN marking (see ecn.h).
 */
#include "ecn.h"

bool fcq_ecn_mark(const struct fcq_ecn *e, u32 qbytes, u32 rnd)
{
	u64 p;

	if (!e->kmax || qbytes <= e->kmin)
		return false;
	if (qbytes >= e->kmax)
		return true;
	p = fcq_div64((u64)e->pmax * (qbytes - e->kmin), e->kmax - e->kmin);
	return rnd < p;
}
