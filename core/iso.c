// SPDX-License-Identifier: GPL-2.0
/*
 * Isolation lanes with holds and order marks (see iso.h).
 *
 * Every live mark still waits: its partner's head is below @until. A mark
 * is dropped by the pop that takes its partner's head to @until, or not
 * created at all if that already happened, so fcq_iso_servable() need not
 * look at the partner.
 */
#include "iso.h"

/* Position @a is at or after @b. */
static bool pos_ge(u32 a, u32 b)
{
	return (s32)(a - b) >= 0;
}

size_t fcq_iso_size(u16 lanes, u16 marks)
{
	return sizeof(struct fcq_iso) + lanes * sizeof(struct fcq_iso_lane) +
	       marks * sizeof(struct fcq_iso_mark);
}

void fcq_iso_init(struct fcq_iso *s, u16 lanes, u16 marks)
{
	memset(s, 0, fcq_iso_size(lanes, marks));
	s->n = lanes;
	s->nmarks_max = marks;
}

u32 fcq_iso_push(struct fcq_iso *s, int lane, u32 len)
{
	struct fcq_iso_lane *l = &s->lane[lane];

	l->bytes += len;
	return l->tail++;
}

static void drop_mark(struct fcq_iso *s, int i)
{
	struct fcq_iso_mark *m = fcq_iso_marks(s);

	s->lane[m[i].lane].nblock--;
	s->lane[m[i].partner].nawait--;
	m[i] = m[--s->nmarks];
}

void fcq_iso_pop(struct fcq_iso *s, int lane, u32 len)
{
	struct fcq_iso_lane *l = &s->lane[lane];
	struct fcq_iso_mark *m = fcq_iso_marks(s);
	int i = 0;

	l->head++;
	l->bytes -= len;
	while (l->nawait && i < s->nmarks) {
		if (m[i].partner == lane && pos_ge(l->head, m[i].until))
			drop_mark(s, i);	/* m[i] is now another mark */
		else
			i++;
	}
}

void fcq_iso_hold(struct fcq_iso *s, int lane, int delta)
{
	s->lane[lane].hold += delta;
}

bool fcq_iso_servable(const struct fcq_iso *s, int lane)
{
	const struct fcq_iso_lane *l = &s->lane[lane];
	const struct fcq_iso_mark *m = fcq_iso_marks(s);
	int i;

	if (l->head == l->tail || l->hold)
		return false;
	/* Past @at still blocks: an entry popped anyway (a flush, a move)
	 * does not make the newer ones behind it any older.
	 */
	for (i = 0; l->nblock && i < s->nmarks; i++)
		if (m[i].lane == lane && pos_ge(l->head, m[i].at))
			return false;
	return true;
}

int fcq_iso_order(struct fcq_iso *s, int newer, u32 at, int older,
		  u32 until)
{
	struct fcq_iso_mark *m;

	if (pos_ge(s->lane[older].head, until))
		return 0;
	if (s->nmarks == s->nmarks_max) {
		s->marks_full++;
		return -1;
	}
	m = &fcq_iso_marks(s)[s->nmarks++];
	m->lane = newer;
	m->partner = older;
	m->at = at;
	m->until = until;
	s->lane[newer].nblock++;
	s->lane[older].nawait++;
	return 0;
}

void fcq_iso_reset(struct fcq_iso *s)
{
	int i;

	for (i = 0; i < s->n; i++) {
		s->lane[i].head = s->lane[i].tail;
		s->lane[i].bytes = 0;
		s->lane[i].nblock = 0;
		s->lane[i].nawait = 0;
	}
	s->nmarks = 0;
}
