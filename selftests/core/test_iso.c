// SPDX-License-Identifier: GPL-2.0
/*
 * Unit and property tests of core/iso.c. The property test runs OFC over
 * the engine with the packets kept here, and checks that every flow leaves
 * in order, that no paused flow leaves, and that nothing is stranded or
 * left counted once everything resumes. FlowSail's use of the engine is
 * tested through core/flowsail.c itself (test_flowsail.c).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "core/iso.h"
#include "core/ofc.h"

static u64 mem[64];

static struct fcq_iso *iso(u16 lanes, u16 marks)
{
	assert_true(fcq_iso_size(lanes, marks) <= sizeof(mem));
	fcq_iso_init((struct fcq_iso *)mem, lanes, marks);
	return (struct fcq_iso *)mem;
}

/* Start an empty lane at @pos, as if @pos entries had passed: pushing
 * 2^32 of them would take too long.
 */
static void start_at(struct fcq_iso *s, int lane, u32 pos)
{
	s->lane[lane].head = pos;
	s->lane[lane].tail = pos;
}

static void push_n(struct fcq_iso *s, int lane, int n)
{
	while (n--)
		fcq_iso_push(s, lane, 100);
}

static void pop_n(struct fcq_iso *s, int lane, int n)
{
	while (n--)
		fcq_iso_pop(s, lane, 100);
}

static void mark_blocks_from_at_until(void **state)
{
	struct fcq_iso *s = iso(2, 4);

	push_n(s, 1, 3);	/* older */
	push_n(s, 0, 2);	/* in lane 0 before the mark: may go */
	assert_int_equal(fcq_iso_order(s, 0, fcq_iso_tail(s, 0), 1,
				       fcq_iso_tail(s, 1)), 0);
	assert_int_equal(s->nmarks, 1);
	push_n(s, 0, 2);
	assert_true(fcq_iso_servable(s, 0));
	pop_n(s, 0, 1);
	assert_true(fcq_iso_servable(s, 0));
	pop_n(s, 0, 1);
	assert_false(fcq_iso_servable(s, 0));	/* head == at */
	assert_true(fcq_iso_servable(s, 1));
	pop_n(s, 1, 2);
	assert_false(fcq_iso_servable(s, 0));
	pop_n(s, 1, 1);				/* head == until */
	assert_int_equal(s->nmarks, 0);
	assert_true(fcq_iso_servable(s, 0));
	assert_int_equal(s->lane[0].nblock + s->lane[1].nawait, 0);
}

static void mark_at_head(void **state)
{
	struct fcq_iso *s = iso(2, 4);

	/* OFC's rotation: N waits at its head until the drain lane is empty;
	 * what joins the drain lane later does not count.
	 */
	push_n(s, 0, 2);
	push_n(s, 1, 2);
	fcq_iso_order(s, 0, fcq_iso_head(s, 0), 1, fcq_iso_tail(s, 1));
	assert_false(fcq_iso_servable(s, 0));
	push_n(s, 1, 1);
	pop_n(s, 1, 2);
	assert_true(fcq_iso_servable(s, 0));
	assert_int_equal(fcq_iso_pkts(s, 1), 1);
}

static void mark_until_one_entry(void **state)
{
	struct fcq_iso *s = iso(2, 4);
	u32 last;

	/* FlowSail: the flow's newest packet in lane 1 is the second; the
	 * third belongs to another flow and need not be waited for.
	 */
	push_n(s, 1, 1);
	last = fcq_iso_push(s, 1, 100);
	push_n(s, 1, 1);
	fcq_iso_order(s, 0, fcq_iso_tail(s, 0), 1, last + 1);
	push_n(s, 0, 1);
	pop_n(s, 1, 1);
	assert_false(fcq_iso_servable(s, 0));
	pop_n(s, 1, 1);
	assert_true(fcq_iso_servable(s, 0));
	assert_int_equal(fcq_iso_pkts(s, 1), 1);
}

static void nothing_older_no_mark(void **state)
{
	struct fcq_iso *s = iso(2, 4);

	assert_int_equal(fcq_iso_order(s, 0, 0, 1, fcq_iso_tail(s, 1)), 0);
	push_n(s, 1, 2);
	pop_n(s, 1, 2);
	assert_int_equal(fcq_iso_order(s, 0, 0, 1, 1), 0);	/* passed */
	assert_int_equal(s->nmarks, 0);
	push_n(s, 0, 1);
	assert_true(fcq_iso_servable(s, 0));
}

static void past_at_still_blocks(void **state)
{
	struct fcq_iso *s = iso(2, 4);

	/* The entry at @at leaves without service (flushed, moved): the ones
	 * behind it are still newer than lane 1's.
	 */
	push_n(s, 1, 1);
	fcq_iso_order(s, 0, fcq_iso_tail(s, 0), 1, fcq_iso_tail(s, 1));
	push_n(s, 0, 2);
	pop_n(s, 0, 1);
	assert_false(fcq_iso_servable(s, 0));
	pop_n(s, 1, 1);
	assert_true(fcq_iso_servable(s, 0));
}

static void holds(void **state)
{
	struct fcq_iso *s = iso(1, 0);

	fcq_iso_hold(s, 0, 1);
	assert_false(fcq_iso_servable(s, 0));	/* empty and held */
	push_n(s, 0, 1);
	fcq_iso_hold(s, 0, 1);
	assert_false(fcq_iso_servable(s, 0));
	fcq_iso_hold(s, 0, -1);
	assert_false(fcq_iso_servable(s, 0));	/* one reason left */
	fcq_iso_hold(s, 0, -1);
	assert_true(fcq_iso_servable(s, 0));
	assert_int_equal(s->lane[0].hold, 0);
}

static void marks_full(void **state)
{
	struct fcq_iso *s = iso(3, 1);

	push_n(s, 1, 1);
	push_n(s, 2, 1);
	assert_int_equal(fcq_iso_order(s, 0, 0, 1, fcq_iso_tail(s, 1)), 0);
	assert_int_equal(fcq_iso_order(s, 0, 0, 2, fcq_iso_tail(s, 2)), -1);
	assert_int_equal(s->marks_full, 1);
	/* Nothing to wait for needs no mark, full or not. */
	assert_int_equal(fcq_iso_order(s, 0, 0, 2, fcq_iso_head(s, 2)), 0);
	pop_n(s, 1, 1);
	assert_int_equal(fcq_iso_order(s, 0, 0, 2, fcq_iso_tail(s, 2)), 0);
	assert_int_equal(s->marks_full, 1);
}

static void several_marks_one_lane(void **state)
{
	struct fcq_iso *s = iso(3, 4);

	push_n(s, 1, 1);
	fcq_iso_order(s, 0, fcq_iso_tail(s, 0), 1, fcq_iso_tail(s, 1));
	push_n(s, 0, 1);
	push_n(s, 2, 1);
	fcq_iso_order(s, 0, fcq_iso_tail(s, 0), 2, fcq_iso_tail(s, 2));
	push_n(s, 0, 1);
	pop_n(s, 2, 1);		/* the later mark goes first: still blocked */
	assert_int_equal(s->nmarks, 1);
	assert_false(fcq_iso_servable(s, 0));
	pop_n(s, 1, 1);
	assert_true(fcq_iso_servable(s, 0));
	assert_int_equal(s->nmarks, 0);
}

static void move_head(void **state)
{
	struct fcq_iso *s = iso(3, 4);

	fcq_iso_push(s, 0, 10);
	fcq_iso_push(s, 0, 20);
	push_n(s, 2, 1);
	fcq_iso_order(s, 2, fcq_iso_head(s, 2), 0, fcq_iso_tail(s, 0));
	assert_int_equal(fcq_iso_move(s, 0, 1, 10), 0);
	assert_int_equal(fcq_iso_move(s, 0, 1, 20), 1);
	assert_int_equal(s->lane[0].bytes, 0);
	assert_int_equal(s->lane[1].bytes, 30);
	assert_int_equal(fcq_iso_pkts(s, 1), 2);
	/* Moved out is gone from lane 0: the mark waited for nothing else. */
	assert_int_equal(s->nmarks, 0);
	assert_true(fcq_iso_servable(s, 2));
}

static void reset_keeps_holds(void **state)
{
	struct fcq_iso *s = iso(2, 4);

	push_n(s, 0, 3);
	push_n(s, 1, 2);
	fcq_iso_order(s, 0, fcq_iso_head(s, 0), 1, fcq_iso_tail(s, 1));
	fcq_iso_hold(s, 1, 1);
	fcq_iso_reset(s);
	assert_int_equal(fcq_iso_pkts(s, 0) + fcq_iso_pkts(s, 1), 0);
	assert_int_equal(s->lane[0].bytes + s->lane[1].bytes, 0);
	assert_int_equal(s->nmarks, 0);
	assert_int_equal(s->lane[0].nblock + s->lane[1].nawait, 0);
	assert_int_equal(s->lane[1].hold, 1);
	assert_int_equal(fcq_iso_tail(s, 0), 3);	/* positions go on */
	push_n(s, 0, 1);
	assert_true(fcq_iso_servable(s, 0));
}

static void positions_wrap(void **state)
{
	struct fcq_iso *s = iso(2, 4);

	start_at(s, 0, UINT32_MAX - 1);
	start_at(s, 1, UINT32_MAX);
	push_n(s, 1, 3);			/* MAX, 0, 1 */
	push_n(s, 0, 2);			/* MAX - 1, MAX */
	assert_int_equal(fcq_iso_tail(s, 0), 0);
	fcq_iso_order(s, 0, fcq_iso_tail(s, 0), 1, fcq_iso_tail(s, 1));
	assert_int_equal(fcq_iso_push(s, 0, 100), 0);
	push_n(s, 0, 1);
	assert_int_equal(fcq_iso_pkts(s, 0), 4);
	assert_true(fcq_iso_servable(s, 0));	/* MAX - 1 is before 0 */
	pop_n(s, 0, 2);
	assert_false(fcq_iso_servable(s, 0));
	pop_n(s, 1, 2);
	assert_false(fcq_iso_servable(s, 0));
	pop_n(s, 1, 1);
	assert_true(fcq_iso_servable(s, 0));
	assert_int_equal(s->nmarks, 0);
}

/* ---- property tests: the two schemes over the engine ------------------ */

#define RUNS		10000
#define MAX_OPS		200
#define NFLOWS		6
#define MAX_LANES	5
#define QCAP		256	/* > MAX_OPS: a ring never overfills */

struct pkt {
	u8 flow;
	u16 seq;
	u32 len;
};

struct fifo {
	struct pkt p[QCAP];
	u32 h, t, bytes;
};

/* The packets, the flows' sequence numbers and what is paused. */
struct world {
	struct fcq_iso *s;
	int lanes;
	u64 rng;
	struct fifo q[MAX_LANES];
	u16 seq[NFLOWS];	/* next to queue */
	u16 next[NFLOWS];	/* next expected at the output */
	bool paused[NFLOWS], all;
	u64 ops, sent;
};

/* xorshift64 (Marsaglia): deterministic on every libc. */
static u32 rnd(struct world *w)
{
	w->rng ^= w->rng << 13;
	w->rng ^= w->rng >> 7;
	w->rng ^= w->rng << 17;
	return w->rng >> 32;
}

static void world_init(struct world *w, u64 seed, int lanes, u16 marks)
{
	int i;

	memset(w, 0, sizeof(*w));
	w->rng = seed * 0x9e3779b97f4a7c15ULL + 1;
	w->lanes = lanes;
	w->s = iso(lanes, marks);
	/* Even runs start just below the u32 wrap, odd ones anywhere: the
	 * lanes' positions are unrelated.
	 */
	for (i = 0; i < lanes; i++)
		start_at(w->s, i, seed & 1 ? rnd(w) :
			 UINT32_MAX - rnd(w) % (2 * MAX_OPS));
}

static bool empty(const struct world *w, int lane)
{
	return w->q[lane].h == w->q[lane].t;
}

static const struct pkt *head(const struct world *w, int lane)
{
	return &w->q[lane].p[w->q[lane].h % QCAP];
}

static u32 put(struct world *w, int lane, struct pkt p)
{
	struct fifo *q = &w->q[lane];

	q->p[q->t++ % QCAP] = p;
	q->bytes += p.len;
	return fcq_iso_push(w->s, lane, p.len);
}

static u32 enqueue(struct world *w, int lane, int f)
{
	struct pkt p = { .flow = f, .seq = w->seq[f]++ };

	p.len = 64 + rnd(w) % 1437;
	return put(w, lane, p);
}

static struct pkt take(struct world *w, int lane)
{
	struct fifo *q = &w->q[lane];
	struct pkt p = q->p[q->h++ % QCAP];

	q->bytes -= p.len;
	fcq_iso_pop(w->s, lane, p.len);
	return p;
}

static void move(struct world *w, int from, int to)
{
	put(w, to, take(w, from));
}

static void deliver(struct world *w, struct pkt p)
{
	assert_false(w->all || w->paused[p.flow]);
	assert_int_equal(p.seq, w->next[p.flow]);	/* in order, no gap */
	w->next[p.flow]++;
	w->sent++;
}

/* The engine agrees with the packets and with the holds the scheme
 * expects, and every live mark still waits.
 */
static void check(const struct world *w, const u16 *hold)
{
	const struct fcq_iso *s = w->s;
	const struct fcq_iso_mark *m = fcq_iso_marks(s);
	u16 nblock[MAX_LANES] = { 0 }, nawait[MAX_LANES] = { 0 };
	int i;

	for (i = 0; i < s->nmarks; i++) {
		const struct fcq_iso_lane *p = &s->lane[m[i].partner];

		assert_true(m[i].lane != m[i].partner);
		assert_true((s32)(p->head - m[i].until) < 0);
		assert_true((s32)(p->tail - m[i].until) >= 0);
		nblock[m[i].lane]++;
		nawait[m[i].partner]++;
	}
	for (i = 0; i < w->lanes; i++) {
		const struct fcq_iso_lane *l = &s->lane[i];

		assert_true(l->tail - l->head == w->q[i].t - w->q[i].h &&
			    l->bytes == w->q[i].bytes && l->hold == hold[i] &&
			    l->nblock == nblock[i] && l->nawait == nawait[i]);
	}
}

/* Everything sent, nothing left counted. */
static void check_done(const struct world *w, const u16 *hold)
{
	int i;

	check(w, hold);
	assert_int_equal(w->s->nmarks, 0);
	for (i = 0; i < w->lanes; i++)
		assert_int_equal(fcq_iso_pkts(w->s, i), 0);
	for (i = 0; i < NFLOWS; i++)
		assert_int_equal(w->next[i], w->seq[i]);
}

/*
 * OFC, one band (core/ofc.c): everything is queued to N; pick isolates a
 * paused head into the paused lane. Frames only change the peer state;
 * pick applies it (sync), and declines resumes while a drain runs
 * (deferred nested RESUMEs).
 */
struct ofc {
	struct world w;
	struct ofc_band b;
	bool peer[NFLOWS], peer_all;
	u64 rotations, moved, declined;
};

static void ofc_holds(const struct ofc *o, u16 *hold)
{
	hold[OFC_LANE_N] = o->b.all;
	hold[o->b.p] = 1;
	hold[3 - o->b.p] = 0;
}

static void ofc_sync(struct ofc *o)
{
	struct world *w = &o->w;
	bool took = false, pending = false;
	int f;

	if (o->peer_all && !o->b.all) {
		ofc_band_pause_all(&o->b);
		w->all = true;
	}
	for (f = 0; f < NFLOWS; f++) {
		if (o->peer[f])
			w->paused[f] = true;
		else if (w->paused[f])
			pending = true;
	}
	pending |= o->b.all && !o->peer_all;
	if (!pending)
		return;
	if (!ofc_band_may_resume(&o->b)) {
		o->declined++;
		return;
	}
	if (o->b.all && !o->peer_all) {
		ofc_band_resume_all(&o->b);
		w->all = false;
		took = true;
	}
	for (f = 0; f < NFLOWS; f++) {
		took |= w->paused[f] && !o->peer[f];
		w->paused[f] = o->peer[f];
	}
	if (took && ofc_band_resumed(&o->b)) {
		assert_false(fcq_iso_servable(w->s, OFC_LANE_N));
		o->rotations++;
	}
}

/* One pick: sends one packet, or returns false when nothing may go. */
static bool ofc_pick(struct ofc *o)
{
	struct world *w = &o->w;
	int lane;

	for (;;) {
		ofc_sync(o);
		assert_false(fcq_iso_servable(w->s, o->b.p));
		lane = ofc_band_lane(&o->b);
		if (lane == OFC_LANE_DRAINED) {
			/* the implicit mark was reached */
			assert_int_equal(w->s->nmarks, 0);
			continue;
		}
		if (lane == OFC_LANE_NONE) {
			assert_true(empty(w, OFC_LANE_N) || w->all);
			return false;
		}
		assert_false(empty(w, lane));
		if (lane == OFC_LANE_N)
			assert_int_equal(w->s->nmarks, 0);
		else
			assert_false(fcq_iso_servable(w->s, OFC_LANE_N));
		if (w->all || w->paused[head(w, lane)->flow]) {
			move(w, lane, o->b.p);
			o->moved++;
			continue;
		}
		deliver(w, take(w, lane));
		return true;
	}
}

static void ofc_run(struct ofc *o, u64 seed)
{
	struct world *w = &o->w;
	u16 hold[MAX_LANES];
	int n, f;

	memset(o, 0, sizeof(*o));
	world_init(w, seed, OFC_LANES, OFC_MARKS);
	ofc_band_init(&o->b, w->s);
	for (n = 1 + rnd(w) % MAX_OPS; n; n--) {
		u32 r = rnd(w) % 100;

		f = rnd(w) % NFLOWS;
		if (r < 40) {
			enqueue(w, 0, f);
		} else if (r < 50) {
			o->peer[f] = true;
		} else if (r < 60) {
			o->peer[f] = false;
		} else if (r < 63) {
			o->peer_all = true;
		} else if (r < 66) {
			/* RESUME ALL: the peer releases all it paused */
			o->peer_all = false;
			memset(o->peer, 0, sizeof(o->peer));
		} else {
			ofc_pick(o);
		}
		ofc_holds(o, hold);
		check(w, hold);
		w->ops++;
	}
	o->peer_all = false;
	memset(o->peer, 0, sizeof(o->peer));
	while (ofc_pick(o))
		;
	ofc_holds(o, hold);
	check_done(w, hold);
}

static void ofc_random(void **state)
{
	u64 seed, ops = 0, sent = 0, rot = 0, moved = 0, declined = 0;
	static struct ofc o;

	for (seed = 0; seed < RUNS; seed++) {
		ofc_run(&o, seed);
		ops += o.w.ops;
		sent += o.w.sent;
		rot += o.rotations;
		moved += o.moved;
		declined += o.declined;
	}
	print_message("ofc: %d runs, %llu ops, %llu sent\n", RUNS, ops, sent);
	print_message("ofc: %llu drains, %llu moved, %llu declined resumes\n",
		      rot, moved, declined);
	assert_true(rot > RUNS && moved > RUNS && declined > RUNS / 10);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(mark_blocks_from_at_until),
		cmocka_unit_test(mark_at_head),
		cmocka_unit_test(mark_until_one_entry),
		cmocka_unit_test(nothing_older_no_mark),
		cmocka_unit_test(past_at_still_blocks),
		cmocka_unit_test(holds),
		cmocka_unit_test(marks_full),
		cmocka_unit_test(several_marks_one_lane),
		cmocka_unit_test(move_head),
		cmocka_unit_test(reset_keeps_holds),
		cmocka_unit_test(positions_wrap),
		cmocka_unit_test(ofc_random),
	};

	return cmocka_run_group_tests_name("core/iso", tests, NULL, NULL);
}
