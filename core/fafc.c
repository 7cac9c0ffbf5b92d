// SPDX-License-Identifier: GPL-2.0
/*
 * FAFC's switch-side algorithms (see fafc.h). Comments cite
 * the paper's equations and algorithm lines, and the fixes [Ax] numbered in
 * Documentation/fafc.rst, "Differences from the paper".
 */
#include "fafc.h"

/* x * f, f in Q16; x * f fits s64 for |x| < 2^47. */
static s64 qmul(s64 x, u32 f)
{
	return fcq_sdiv64(x * (s64)f, FAFC_ONE);
}

static s64 smax(s64 a, s64 b)
{
	return a > b ? a : b;
}

static s64 smin(s64 a, s64 b)
{
	return a < b ? a : b;
}

static void bit_set(u64 *w, int b)
{
	w[b / 64] |= 1ULL << (b % 64);
}

static void bit_clear(u64 *w, int b)
{
	w[b / 64] &= ~(1ULL << (b % 64));
}

/* The lowest bit set in @w (@words words) from @b on, or -1. */
static int bit_next(const u64 *w, int words, int b)
{
	int k = b / 64;
	u64 m;

	if (k >= words)
		return -1;
	m = w[k] & (~0ULL << (b % 64));
	while (!m) {
		if (++k >= words)
			return -1;
		m = w[k];
	}
	return k * 64 + fcq_ctz64(m);
}

/* For each bit set in @w below @n, from the lowest: @b (int). */
#define for_each_bit(b, w, words, n)					\
	for ((b) = bit_next(w, words, 0); (b) >= 0 && (b) < (n);	\
	     (b) = bit_next(w, words, (b) + 1))

static u64 *active_row(const struct fafc_state *s, int i)
{
	return &s->active[i * s->words];
}

/* The block: pairs, then bitmaps, egress and ingress arrays, each aligned. */
static size_t block_words(int cap)
{
	return (size_t)cap * ((cap + 63) / 64) + (cap + 63) / 64;
}

size_t fafc_state_size(int cap)
{
	return (size_t)cap * cap * sizeof(struct fafc_pair) +
	       block_words(cap) * sizeof(u64) +
	       (size_t)cap * sizeof(struct fafc_egress) +
	       (size_t)cap * sizeof(struct fafc_ingress);
}

void fafc_state_init(struct fafc_state *s, void *mem, int cap)
{
	char *m = mem;

	*s = (struct fafc_state){ .cap = cap, .words = (cap + 63) / 64 };
	s->p = (struct fafc_pair *)m;
	m += (size_t)cap * cap * sizeof(struct fafc_pair);
	s->active = (u64 *)m;
	s->eg_active = s->active + (size_t)cap * s->words;
	m += block_words(cap) * sizeof(u64);
	s->eg = (struct fafc_egress *)m;
	m += (size_t)cap * sizeof(struct fafc_egress);
	s->in = (struct fafc_ingress *)m;
}

void fafc_state_move(struct fafc_state *to, const struct fafc_state *from)
{
	int i;

	to->n = from->n;
	to->step = from->step;
	for (i = 0; i < from->cap; i++) {
		memcpy(fafc_pair(to, i, 0), fafc_pair(from, i, 0),
		       from->cap * sizeof(struct fafc_pair));
		memcpy(active_row(to, i), active_row(from, i),
		       from->words * sizeof(u64));
	}
	memcpy(to->eg_active, from->eg_active, from->words * sizeof(u64));
	memcpy(to->eg, from->eg, from->cap * sizeof(struct fafc_egress));
	memcpy(to->in, from->in, from->cap * sizeof(struct fafc_ingress));
}

void fafc_enqueue(struct fafc_state *s, const struct fafc_cfg *c, int i,
		  int e, u32 len, bool e_paused)
{
	struct fafc_pair *p = fafc_pair(s, i, e);

	bit_set(active_row(s, i), e);
	bit_set(s->eg_active, e);
	p->qr += len;			/* Alg. 1 l.2 */
	p->bin += len;			/* l.3 */
	s->eg[e].qr += len;
	/* Alg. 4 l.1-3: growth caused by our own pause is no congestion. */
	if ((c->flags & FAFC_F_ECNOF) && e_paused)
		s->eg[e].ecnof += len;
}

void fafc_drop(struct fafc_state *s, int i, int e, u32 len)
{
	fafc_pair(s, i, e)->qr -= len;
	s->eg[e].qr -= len;
}

s64 fafc_predict(const struct fafc_state *s, const struct fafc_cfg *c, int e)
{
	const struct fafc_egress *g = &s->eg[e];

	/* Alg. 1 l.15 (eq. 1 with h = horizon), pausOf_*e [A8] */
	return g->q + (s64)c->horizon * g->r + g->pausof;
}

unsigned int fafc_dequeue(struct fafc_state *s, const struct fafc_cfg *c,
			  int i, int e, u32 len)
{
	struct fafc_pair *p = fafc_pair(s, i, e);
	struct fafc_egress *g = &s->eg[e];
	unsigned int res = 0;
	s64 qpred;

	p->qr -= len;			/* Alg. 1 l.6; l.14 dropped [A6] */
	p->bout += len;			/* [A11] */
	g->qr -= len;

	/* CheckCong (l.13-19) */
	qpred = (c->flags & FAFC_F_PRED) ? fafc_predict(s, c, e) : g->qr;
	if ((c->flags & FAFC_F_ECN) && qpred > c->th_e + g->ecnof)
		res |= FAFC_MARK;
	if (qpred > c->th_p)
		res |= FAFC_TRIGGER;

	/* Alg. 4 l.4-7: the offset decays to the smallest raw queue seen
	 * after the pause ends [A17].
	 */
	if ((c->flags & FAFC_F_ECNOF) && g->ecnof)
		g->ecnof = smax(0, smin(g->qr, g->ecnof));
	return res;
}

/* One Holt step on a raw observation qr: eqs. (2), (3) / Alg. 1 l.23-26. */
/* A growth over @open ns, per T_hop (@open 0: it was one step). */
static s64 per_step(s64 growth, u64 open, u64 thop)
{
	if (!open || open == thop)
		return growth;
	if (growth < 0)
		return -(s64)fcq_mul_div((u64)-growth, thop, open);
	return (s64)fcq_mul_div((u64)growth, thop, open);
}

static void holt(s64 *q, s64 *r, s64 *qlast, s64 qr, u64 dt, u64 thop,
		 const struct fafc_cfg *c)
{
	s64 qprev = *q, qest = *q + *r;

	*q = qmul(qr, c->alpha) + qmul(qest, FAFC_ONE - c->alpha);
	if (c->flags & FAFC_F_TREND_HOLT)	/* eq. (3): smoothed level */
		*r = qmul(per_step(*q - qprev, dt, thop), c->beta) +
		     qmul(*r, FAFC_ONE - c->beta);
	else					/* Alg. 1 l.25: raw difference */
		*r = qmul(per_step(qr - *qlast, dt, thop), c->beta) +
		     qmul(*r, FAFC_ONE - c->beta);
	*qlast = qr;			/* l.26: q'_ie [A7] */
}

/*
 * A rate as a beta-EWMA of a byte counter's growth per step (l.27-28),
 * counted over the @open ns the sender could send.
 */
static void ewma_rate(s64 *rate, u64 *last, u64 now, u64 open, u64 thop,
		      u32 beta)
{
	*rate = qmul(per_step((s64)(now - *last), open, thop), beta) +
		qmul(*rate, FAFC_ONE - beta);
	*last = now;
}

/* ns of [a, b) inside [lo, hi) */
static u64 overlap(u64 a, u64 b, u64 lo, u64 hi)
{
	a = a > lo ? a : lo;
	b = b < hi ? b : hi;
	return b > a ? b - a : 0;
}

/* ns of ingress @in's step [step, now) in which its sender was paused. */
static u64 paused_in_step(struct fafc_ingress *in, u64 step, u64 now)
{
	u64 off = in->off_carry + overlap(in->off_start, in->off_end, step, now);

	in->off_carry = 0;
	return off < now - step ? off : now - step;
}

/*
 * A step leaves @p unchanged: queue, level, trend and rates all 0 (and no
 * bytes counted since the step, which sets binlast = bin, boutlast = bout).
 */
static bool pair_quiet(const struct fafc_pair *p)
{
	return !(p->qr | p->q | p->r | p->qlast | p->rin | p->rout);
}

void fafc_update_rate(struct fafc_state *s, const struct fafc_cfg *c, u64 now,
		      u64 thop)
{
	u64 dt = s->step && now > s->step ? now - s->step : 0;
	int i, e;

	for (i = 0; i < s->n; i++) {
		struct fafc_ingress *in = &s->in[i];
		u64 *act = active_row(s, i);
		u64 off;
		bool hold;

		in->rin = 0;
		in->qi = 0;
		if (bit_next(act, s->words, 0) < 0) {
			if (dt)		/* as paused_in_step() does */
				in->off_carry = 0;
			continue;
		}
		off = dt ? paused_in_step(in, s->step, now) : 0;
		/* Paused nearly throughout: no news of its rate, keep it. */
		hold = off && off * 8 >= dt * 7;
		/* Pairs all 0 stay 0 through this step: skipped, exactly. */
		for_each_bit(e, act, s->words, s->n) {
			struct fafc_pair *p = fafc_pair(s, i, e);

			holt(&p->q, &p->r, &p->qlast, p->qr, dt, thop, c);
			if (hold)
				p->binlast = p->bin;
			else
				ewma_rate(&p->rin, &p->binlast, p->bin,
					  dt - off, thop, c->beta);
			ewma_rate(&p->rout, &p->boutlast, p->bout, dt, thop,
				  c->beta);
			in->rin += p->rin;
			in->qi += smax(p->q, 0);
			if (pair_quiet(p))
				bit_clear(act, e);
		}
	}
	for_each_bit(e, s->eg_active, s->words, s->n) {
		struct fafc_egress *g = &s->eg[e];

		holt(&g->q, &g->r, &g->qlast, g->qr, dt, thop, c);
		if (!(g->qr | g->q | g->r | g->qlast))
			bit_clear(s->eg_active, e);
	}
	s->step = now;
}

s64 fafc_lp_build(struct fafc_state *s, const struct fafc_cfg *c, int e,
		  u64 now, u64 thop, s64 *a, s64 *R, s64 *raw)
{
	struct fafc_egress *g = &s->eg[e];
	s64 in = 0, out = 0;
	bool dec;
	int i, k;

	*raw = 0;
	if (g->r <= 0)			/* Alg. 2 l.2-3: not growing */
		return 0;
	/* l.8-10: consecutive triggers within dec_win T_hop [A12, A13] */
	dec = g->trig_valid && now - g->last_trig <= (u64)c->dec_win * thop;
	g->last_trig = now;
	g->trig_valid = true;

	for (i = 0; i < s->n; i++) {
		R[i] = 0;
		a[i] = 0;
		if (i == e)
			continue;
		/*
		 * l.4-7: rates toward uncongested pairs, k != e [A3]. A pair
		 * out of the active bits is all 0: it adds nothing.
		 */
		for_each_bit(k, active_row(s, i), s->words, s->n)
			if (k != e && fafc_pair(s, i, k)->q <= c->th_c)
				R[i] += smax(fafc_pair(s, i, k)->rout, 0);
		a[i] = smax(fafc_pair(s, i, e)->rin, 0);
		in += a[i];
		out += smax(fafc_pair(s, i, e)->rout, 0);
		if (dec)
			a[i] = qmul(a[i], c->fdec);
		/* The solver multiplies R by a: keep both below 2^31. */
		R[i] = smin(R[i], FAFC_RATE_MAX);
		a[i] = smin(a[i], FAFC_RATE_MAX);
	}
	/* l.13: r_*e * T_hop + pausOf_*e */
	*raw = g->r + g->pausof;
	/*
	 * [A39] In one T_hop the queue grows by at most its arrivals at their
	 * unpaused rates less its departures, sum r^i_ie - r^o_*e: the
	 * identity that makes (10) always satiable (Sec. II.D). pausOf_*e and
	 * rate noise break it [A15]; capping D restores it, and with it the
	 * LP's choice: a port with traffic elsewhere is paused only where the
	 * cheaper ports cannot cover the growth. The bound is physical, so
	 * f_dec (a model of senders slowing down) does not lower it, and with
	 * f_dec < 1 an LP can still be infeasible.
	 */
	if (c->flags & FAFC_F_DEMAND_CAP)
		return smin(*raw, in - out);
	return *raw;
}

int fafc_ratio_cmp(const s64 *a, const s64 *R, int i, int j)
{
	/* R, a <= FAFC_RATE_MAX: the products fit. */
	u64 li = (u64)R[i] * (u64)a[j], lj = (u64)R[j] * (u64)a[i];

	return li < lj ? -1 : li > lj;
}

/* Order for the greedy: ratio, then (vertex ties) a descending, index. */
static bool before(const s64 *a, const s64 *R, int i, int j, bool vertex)
{
	int r = fafc_ratio_cmp(a, R, i, j);

	if (r)
		return r < 0;
	if (vertex && a[i] != a[j])
		return a[i] > a[j];
	return i < j;
}

/*
 * ceil(num * X_ONE / den), at most X_ONE (num <= den). num reaches 2^39
 * (256 ports at FAFC_RATE_MAX), so the product needs 128 bits; the
 * remainder is below den and so exact in u64 even where the product wraps.
 */
static u32 frac(s64 num, s64 den)
{
	u64 x = fcq_mul_div(num, FAFC_X_ONE, den);

	return (u32)x + ((u64)num * FAFC_X_ONE - x * (u64)den != 0);
}

int fafc_lp_solve(int n, const s64 *a, const s64 *R, s64 D, bool vertex,
		  u32 *x, u16 *order)
{
	int m = 0, g, h, i, j;
	s64 sum = 0, rem = D;

	for (i = 0; i < n; i++) {
		x[i] = 0;
		if (a[i] <= 0)
			continue;
		/* Insertion sort of the ports that can help: few, in place. */
		for (j = m; j > 0 && before(a, R, i, order[j - 1], vertex); j--)
			order[j] = order[j - 1];
		order[j] = i;
		m++;
		sum += a[i];
	}
	if (D <= 0)
		return 0;
	if (sum < D) {			/* infeasible [A15]: pause them all */
		for (j = 0; j < m; j++)
			x[order[j]] = FAFC_X_ONE;
		return -1;
	}

	for (g = 0; g < m && rem > 0; g = h) {
		s64 A = 0;

		/* The tie group [g, h): equal cost ratio. */
		for (h = g; h < m &&
		     !fafc_ratio_cmp(a, R, order[g], order[h]); h++)
			A += a[order[h]];
		if (A <= rem) {
			for (j = g; j < h; j++)
				x[order[j]] = FAFC_X_ONE;
			rem -= A;
			continue;
		}
		/* The marginal group covers what is left. */
		for (j = g; j < h && rem > 0; j++) {
			i = order[j];
			if (!vertex) {		/* spread: all the same share */
				x[i] = frac(rem, A);
			} else if (a[i] <= rem) {	/* vertex: whole, then one part */
				x[i] = FAFC_X_ONE;
				rem -= a[i];
			} else {
				x[i] = frac(rem, a[i]);
				rem = 0;
			}
		}
		rem = 0;
	}
	return 0;
}

/*
 * pausOf_ie = (pausOld_i - pausNext_i) * q_ie / q_i*  (Alg. 1 l.37, Alg. 2
 * l.27-29), by the arrival-rate share when i's queues are empty [A14], and
 * pausOf_*e kept as the running sum.
 */
static void recompute_pausof(struct fafc_state *s, int i)
{
	struct fafc_ingress *in = &s->in[i];
	s64 d = in->old - in->next;
	int e;

	for (e = 0; e < s->n; e++) {
		struct fafc_pair *p = fafc_pair(s, i, e);
		s64 v = 0;

		if (in->qi > 0)
			v = fcq_sdiv64(d * smax(p->q, 0), in->qi);
		else if (in->rin > 0)
			v = fcq_sdiv64(d * smax(p->rin, 0), in->rin);
		s->eg[e].pausof += v - p->pausof;
		p->pausof = v;
	}
}

/* Bytes i sends in @ns at its arrival rate r^i_i* (bytes per @thop). */
static s64 bytes_in(const struct fafc_ingress *in, u64 ns, u64 thop)
{
	return in->rin > 0 ? (s64)fcq_mul_div((u64)in->rin, ns, thop) : 0;
}

bool fafc_paused(struct fafc_state *s, int i, u64 pause_ns, u64 now,
		 u64 thop)
{
	struct fafc_ingress *in = &s->in[i];
	bool started = false;
	u64 avail, tnext;

	/* Its sender stops one T_hop from now, after what it already has. */
	if (in->off_end >= now + thop) {
		in->off_end += pause_ns;
	} else {
		in->off_carry += overlap(in->off_start, in->off_end, s->step,
					 now + thop);
		in->off_start = now + thop;
		in->off_end = now + thop + pause_ns;
	}

	if (!in->slot) {		/* Alg. 2 l.17-19 */
		in->next = bytes_in(in, pause_ns, thop);
		in->slot_end = now + thop;
		in->slot = true;
		started = true;
	} else {
		/* l.21-22: what is left of the slot and not yet paused */
		avail = in->slot_end > now ? in->slot_end - now : 0;
		if (in->rin > 0) {
			s64 covered = (s64)fcq_mul_div((u64)smax(in->next, 0),
						       thop, (u64)in->rin);

			avail = fcq_min64(avail, covered < (s64)thop ?
						 thop - covered : 0);
		}
		tnext = fcq_min64(avail, pause_ns);	/* l.23 */
		in->next += bytes_in(in, tnext, thop);	/* l.24 */
		/* l.25-26: the residue of this pause, T_i - tNext [A10] */
		in->pending += bytes_in(in, pause_ns - tnext, thop);
	}
	recompute_pausof(s, i);
	return started;
}

bool fafc_slot_expire(struct fafc_state *s, int i, u64 thop)
{
	struct fafc_ingress *in = &s->in[i];
	bool more;

	in->old = in->next;		/* Alg. 1 l.31-33 */
	in->next = in->pending;
	in->pending = 0;
	more = in->old || in->next;	/* l.34: "or" [A9] */
	if (more)
		in->slot_end += thop;
	else
		in->slot = false;
	recompute_pausof(s, i);
	return more;
}

void fafc_egress_reset(struct fafc_state *s, int e)
{
	int i;

	for (i = 0; i < s->cap; i++) {
		struct fafc_pair *p = fafc_pair(s, i, e);

		s->in[i].qi -= smax(p->q, 0);
		s->in[i].rin -= p->rin;
		memset(p, 0, sizeof(*p));
		bit_clear(active_row(s, i), e);
	}
	bit_clear(s->eg_active, e);
	memset(&s->eg[e], 0, sizeof(s->eg[e]));
}

void fafc_ingress_reset(struct fafc_state *s, int i)
{
	int e;

	for (e = 0; e < s->cap; e++) {
		struct fafc_pair *p = fafc_pair(s, i, e);

		s->eg[e].pausof -= p->pausof;
		s->eg[e].qr -= p->qr;
		memset(p, 0, sizeof(*p));
	}
	memset(active_row(s, i), 0, s->words * sizeof(u64));
	memset(&s->in[i], 0, sizeof(s->in[i]));
}
