// SPDX-License-Identifier: GPL-2.0
/*
 * The paper's Fig. 1 example as a tick simulation built from the core/
 * pieces the kernel uses: OFC's decisions (ofc.c), its lanes (ofc.c over
 * iso.c), the keyed-pause books (kp.c) and the flow tables (ftab.c).
 *
 *   h0 --\                                /-- r0   (F0: h0 -> r0, port P_b)
 *         S_a ---- S_b ---- (P_a) S_c ---+
 *   h1 --/                         |      \-- r1   (F1: h1 -> r1, port P_d)
 *                          b2..b7 -+  (bursts to r1)
 *
 * Every link carries one 1 KB packet per tick and delays everything,
 * frames included, by DELAY ticks. F0 and F1 offer 45 % of a link; the
 * six bursters then send BURST packets each at line rate to r1, so P_d is
 * the original congestion point and F1 (with F2..F7) the congested flows.
 * Thresholds in packets: X_OFF 75, X^c_OFF 68, X_ON 45 (the paper's KB).
 *
 * Under OFC, S_c pauses F1 alone at S_b (ORIGIN), S_b forwards the pause
 * of F1 to S_a as a local congestion point, and F0 is never paused: it
 * keeps its rate through the burst. Under PFC (X_OFF / X_ON only) the
 * pause spreads to h0 and F0 stalls behind F1. Both stay lossless and in
 * order, and every table, book and lane is empty at the end.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "keys.h"

#include "core/ftab.h"
#include "core/kp.h"
#include "core/ofc.h"

#define PKT		1024
#define PRIO		3
#define FLOWS_TAB	64
#define RATE_PCT	45	/* F0 and F1, percent of a link */
#define LONG_PKTS	3000	/* F0 and F1 each */
#define BURSTERS	6
#define BURST		400
#define BURST_AT	500
#define TICKS		40000
#define QCAP		8192
#define WIRECAP		64
#define MAXKEYS		8	/* keys per frame: small, so MORE is used */
#define MAXPORTS	9

enum { H0, H1, R0, R1, B2, NODES = B2 + BURSTERS, SA = NODES, SB, SC,
	ALLNODES };

struct pkt {
	u8 flow;
	u32 seq;
	struct fcq_fkey key;
	int in;			/* ingress port at this switch; -1 at a host */
};

struct msg {
	u64 at;
	bool frame;
	struct pkt p;
	struct fcq_kp_frame f;
	struct fcq_fkey keys[MAXKEYS];
};

struct fifo {
	struct pkt *p;
	u32 h, t;
};

struct fit {
	struct fcq_fent f;	/* tag: ingress port + 1 */
	u32 pkts;
};

struct node;

struct port {
	struct node *n;
	int idx;
	struct port *peer;
	struct msg wire[WIRECAP];	/* toward the peer, in order */
	u32 wh, wt;
	/* egress */
	struct fcq_iso *iso;
	struct ofc_band band;
	struct fifo lane[OFC_LANES];
	struct fcq_ftab fit;
	struct fcq_kprx rx;
	/* ingress */
	u32 qin, max_qin;
	struct fcq_kptx tx;
	/* what this port was told by its peer */
	u64 pauses_rx;
};

struct node {
	int id;
	bool sw;
	int nports;
	struct port port[MAXPORTS];
	/* host: what it sends and has received */
	int flow;		/* -1: none */
	u32 to_send, sent, credit;
	u64 start;
	u32 next_seq[16];	/* receiver: next expected per flow */
};

struct frame_log {
	int from, to;
	bool resume;
	u8 flags;
	bool has_f0, has_f1;
	int n;
};

struct sim {
	struct ofc_cfg cfg;
	u32 delay;		/* ticks per link, each way */
	struct node node[ALLNODES];
	u64 now;
	u32 delivered[16];
	u32 f0_in_burst;	/* F0 packets r0 got in the burst window */
	u64 burst_end;		/* when the last burst packet reached r1 */
	struct frame_log log[4096];
	int nlog;
	u64 moved, drains;
};

static void port_init(struct node *n, int idx)
{
	struct port *pt = &n->port[idx];
	void *mem;
	int i;

	pt->n = n;
	pt->idx = idx;
	pt->iso = calloc(1, fcq_iso_size(OFC_LANES, OFC_MARKS));
	fcq_iso_init(pt->iso, OFC_LANES, OFC_MARKS);
	ofc_band_init(&pt->band, pt->iso);
	for (i = 0; i < OFC_LANES; i++)
		pt->lane[i].p = calloc(QCAP, sizeof(struct pkt));
	mem = calloc(1, fcq_ftab_size(FLOWS_TAB, sizeof(struct fit)));
	fcq_ftab_init(&pt->fit, mem, FLOWS_TAB, sizeof(struct fit), 1);
	fcq_kprx_init(&pt->rx, calloc(1, fcq_kprx_mem(FLOWS_TAB)), FLOWS_TAB,
		      2, 0);
	fcq_kptx_init(&pt->tx, calloc(1, fcq_kptx_mem(FLOWS_TAB)), FLOWS_TAB,
		      3);
}

static void port_free(struct port *pt)
{
	int i;

	free(pt->iso);
	for (i = 0; i < OFC_LANES; i++)
		free(pt->lane[i].p);
	free(pt->fit.mem);
	free(pt->rx.tab.mem);
	free(pt->tx.tab.mem);
}

static void link(struct sim *s, int a, int pa, int b, int pb)
{
	struct node *na = &s->node[a], *nb = &s->node[b];

	if (na->nports <= pa)
		na->nports = pa + 1;
	if (nb->nports <= pb)
		nb->nports = pb + 1;
	na->port[pa].peer = &nb->port[pb];
	nb->port[pb].peer = &na->port[pa];
}

/*
 * @beta scales X_OFF and X^c_OFF (E7; X_ON stays) with the link delay, as
 * slow emulated links need: the band between them must hold what arrives
 * while a pause is on its way.
 */
static void sim_init(struct sim *s, u8 mode, u32 beta)
{
	int i, j;

	memset(s, 0, sizeof(*s));
	s->delay = beta;
	s->cfg = (struct ofc_cfg){ .mode = mode, .flags = OFC_F_STRICT_ORIG,
				   .xoff = beta * 75 * PKT,
				   .xoff_c = beta * 68 * PKT, .xon = 45 * PKT };
	if (mode == OFC_M_CAPFC)	/* caPFC with no egress test: PFC */
		s->cfg.xegress = UINT32_MAX;
	for (i = 0; i < ALLNODES; i++) {
		s->node[i].id = i + 1;
		s->node[i].sw = i >= SA;
		s->node[i].flow = -1;
	}
	link(s, H0, 0, SA, 0);
	link(s, H1, 0, SA, 1);
	link(s, SA, 2, SB, 0);
	link(s, SB, 1, SC, 0);		/* P_a */
	link(s, SC, 1, R0, 0);		/* P_b */
	link(s, SC, 2, R1, 0);		/* P_d */
	for (i = 0; i < BURSTERS; i++)
		link(s, B2 + i, 0, SC, 3 + i);
	for (i = 0; i < ALLNODES; i++)
		for (j = 0; j < s->node[i].nports; j++)
			port_init(&s->node[i], j);

	s->node[H0].flow = 0;
	s->node[H1].flow = 1;
	s->node[H0].to_send = LONG_PKTS;
	s->node[H1].to_send = LONG_PKTS;
	for (i = 0; i < BURSTERS; i++) {
		s->node[B2 + i].flow = 2 + i;
		s->node[B2 + i].to_send = BURST;
		s->node[B2 + i].start = BURST_AT;
	}
}

static int dst_of(int flow)
{
	return flow == 0 ? R0 : R1;
}

/* Which port of @n leads to @dst. */
static int route(const struct node *n, int dst)
{
	if (!n->sw)
		return 0;
	if (n->id == SC + 1)
		return dst == R0 ? 1 : 2;
	return n->id == SA + 1 ? 2 : 1;
}

static u32 qout(const struct port *e)
{
	u32 b = 0;
	int i;

	for (i = 0; i < OFC_LANES; i++)
		b += e->iso->lane[i].bytes;
	return b;
}

static void wire_put(struct sim *s, struct port *pt, struct msg *m)
{
	assert_true(pt->wt - pt->wh < WIRECAP);
	m->at = s->now + s->delay;
	pt->wire[pt->wt++ % WIRECAP] = *m;
}

static bool in_cft(struct port *e, const struct fcq_fkey *k)
{
	return fcq_kprx_applied_all(&e->rx, PRIO) ||
	       fcq_kprx_applied(&e->rx, PRIO, k);
}

/* Alg. 1 as ofc_eval() decides it: what ingress @in asks upstream. */
static void eval(struct sim *s, struct port *in, struct port *e,
		 const struct pkt *p)
{
	struct ofc_view v = {
		.qin = in->qin, .qout = qout(e),
		.qout_drain = e->band.d ? e->iso->lane[e->band.d].bytes : 0,
		.cft_empty = fcq_kprx_empty(&e->rx, PRIO), .tracked = true,
		.in_cft = in_cft(e, &p->key),
		.pft_all = in->tx.all_want & (1 << PRIO),
		.pft_any = fcq_kptx_wants_any(&in->tx, PRIO),
		.pft_has = fcq_kptx_wants(&in->tx, PRIO, &p->key),
	};
	enum ofc_act act = ofc_eval(&s->cfg, &v);
	struct fcq_fent *fe;
	u32 i;

	switch (act) {
	case OFC_NONE:
		return;
	case OFC_PAUSE_ALL:
		fcq_kptx_want_all(&in->tx, PRIO);
		break;
	case OFC_SCAN_ORIG:
	case OFC_SCAN_EXTRA:
		fcq_ftab_for_each(&e->fit, fe, i)
			if (fe->tag == in->idx + 1)
				fcq_kptx_want(&in->tx, PRIO, &fe->key,
					      ofc_act_origin(act));
		break;
	default:
		fcq_kptx_want(&in->tx, PRIO, &p->key, ofc_act_origin(act));
	}
	fcq_kptx_arm(&in->tx, PRIO, s->cfg.xon);	/* E4 */
}

/* (A): a packet joins egress @e (its lane N). */
static void enqueue(struct sim *s, struct port *e, struct pkt p)
{
	struct fifo *q = &e->lane[OFC_LANE_N];
	struct port *in = NULL;
	struct fit *f;
	bool created;

	if (p.in >= 0) {
		in = &e->n->port[p.in];
		in->qin += PKT;
		if (in->qin > in->max_qin)
			in->max_qin = in->qin;
		/* lossless: the headroom must hold what was in flight */
		assert_true(in->qin <= s->cfg.xoff + (2 * s->delay + 2) * PKT);
	}
	f = (struct fit *)fcq_ftab_get(&e->fit, &p.key, p.in + 1, &created);
	assert_non_null(f);
	f->pkts++;
	assert_true(q->t - q->h < QCAP);
	q->p[q->t++ % QCAP] = p;
	fcq_iso_push(e->iso, OFC_LANE_N, PKT);
	if (in)
		eval(s, in, e, &p);
}

static void op_pause(void *arg, u8 prio, const struct fcq_fkey *k)
{
	struct port *e = arg;

	if (!k)
		ofc_band_pause_all(&e->band);
}

static bool op_resume(void *arg, u8 prio, const struct fcq_fkey *k)
{
	struct port *e = arg;

	if (!ofc_band_may_resume(&e->band))
		return false;		/* nested: after the drain */
	if (!k)
		ofc_band_resume_all(&e->band);
	return true;
}

static const struct fcq_kprx_ops ops = {
	.pause = op_pause, .resume = op_resume,
};

static void lane_move(struct port *e, int from)
{
	struct fifo *a = &e->lane[from], *b = &e->lane[e->band.p];

	b->p[b->t++ % QCAP] = a->p[a->h++ % QCAP];
	ofc_band_isolate(&e->band, from, PKT);
}

/* (D) and (E): the next packet egress @e may send, if any. */
static bool pick(struct sim *s, struct port *e, struct pkt *out)
{
	struct fifo *q;
	int lane;

	for (;;) {
		if (fcq_kprx_sync(&e->rx, 0xff, &ops, e) &&
		    ofc_band_resumed(&e->band))
			s->drains++;
		lane = ofc_band_lane(&e->band);
		if (lane == OFC_LANE_DRAINED)
			continue;
		if (lane == OFC_LANE_NONE)
			return false;
		q = &e->lane[lane];
		if (e->band.all || in_cft(e, &q->p[q->h % QCAP].key)) {
			lane_move(e, lane);
			s->moved++;
			continue;
		}
		*out = q->p[q->h++ % QCAP];
		fcq_iso_pop(e->iso, lane, PKT);
		return true;
	}
}

/* A packet leaves egress @e: FIT, q_in and (C), the resume check. */
static void sent(struct port *e, const struct pkt *p)
{
	struct fit *f = (struct fit *)fcq_ftab_find(&e->fit, &p->key,
						     p->in + 1);

	assert_non_null(f);
	if (!--f->pkts)
		fcq_ftab_put(&e->fit, &f->f);
	if (p->in >= 0) {
		struct port *in = &e->n->port[p->in];

		in->qin -= PKT;
		fcq_kptx_level(&in->tx, PRIO, in->qin);
	}
}

static void receive(struct sim *s, struct port *at, struct msg *m)
{
	struct node *n = at->n;
	u16 i;

	if (m->frame) {
		const struct fcq_kp_frame *f = &m->f;

		at->pauses_rx += !f->resume;
		if (f->flags & FCQ_EXT_F_ALL) {
			if (f->resume)
				fcq_kprx_resume(&at->rx, f->prio, NULL);
			else
				fcq_kprx_pause(&at->rx, f->prio, NULL, s->now);
		}
		for (i = 0; i < f->n; i++) {
			if (f->resume)
				fcq_kprx_resume(&at->rx, f->prio, &m->keys[i]);
			else
				fcq_kprx_pause(&at->rx, f->prio, &m->keys[i],
					       s->now);
		}
		return;
	}
	if (!n->sw) {
		/* a receiver: every flow in order, nothing lost */
		assert_int_equal(m->p.seq, n->next_seq[m->p.flow]);
		n->next_seq[m->p.flow]++;
		s->delivered[m->p.flow]++;
		if (m->p.flow == 0 && s->now >= BURST_AT + 200 &&
		    s->now < BURST_AT + 200 + 2000)
			s->f0_in_burst++;
		if (m->p.flow >= 2)
			s->burst_end = s->now;
		return;
	}
	m->p.in = at->idx;
	enqueue(s, &n->port[route(n, dst_of(m->p.flow))], m->p);
}

static void log_frame(struct sim *s, struct port *pt, struct msg *m)
{
	struct frame_log *l = &s->log[s->nlog++];
	struct fcq_fkey f0 = test_pair4(H0 + 1, R0 + 1);
	struct fcq_fkey f1 = test_pair4(H1 + 1, R1 + 1);
	u16 i;

	assert_true(s->nlog < 4096);
	l->from = pt->n->id - 1;
	l->to = pt->peer->n->id - 1;
	l->resume = m->f.resume;
	l->flags = m->f.flags;
	l->n = m->f.n;
	for (i = 0; i < m->f.n; i++) {
		l->has_f0 |= fcq_key_eq(&m->keys[i], &f0);
		l->has_f1 |= fcq_key_eq(&m->keys[i], &f1);
	}
}

static void host_source(struct sim *s, struct node *h)
{
	struct pkt p = { .in = -1 };

	if (h->flow < 0 || h->sent == h->to_send || s->now < h->start)
		return;
	h->credit += h->flow < 2 ? RATE_PCT : 100;
	if (h->credit < 100)
		return;
	h->credit -= 100;
	p.flow = h->flow;
	p.seq = h->sent++;
	p.key = test_pair4(h->id, dst_of(h->flow) + 1);
	enqueue(s, &h->port[0], p);
}

static void tick(struct sim *s)
{
	struct msg m;
	int i, j;

	for (i = 0; i < ALLNODES; i++)
		for (j = 0; j < s->node[i].nports; j++) {
			struct port *pt = &s->node[i].port[j];

			while (pt->wh != pt->wt &&
			       pt->wire[pt->wh % WIRECAP].at <= s->now) {
				m = pt->wire[pt->wh++ % WIRECAP];
				receive(s, pt->peer, &m);
			}
		}
	for (i = 0; i < ALLNODES; i++)
		host_source(s, &s->node[i]);
	for (i = 0; i < ALLNODES; i++)
		for (j = 0; j < s->node[i].nports; j++) {
			struct port *pt = &s->node[i].port[j];

			memset(&m, 0, sizeof(m));
			m.frame = true;
			while (fcq_kptx_next(&pt->tx, &m.f, m.keys, MAXKEYS)) {
				log_frame(s, pt, &m);
				wire_put(s, pt, &m);
			}
			memset(&m, 0, sizeof(m));
			if (pick(s, pt, &m.p)) {
				sent(pt, &m.p);
				wire_put(s, pt, &m);
			}
		}
	s->now++;
}

static void run(struct sim *s)
{
	int i;

	while (s->now < TICKS)
		tick(s);
	assert_int_equal(s->delivered[0], LONG_PKTS);
	assert_int_equal(s->delivered[1], LONG_PKTS);
	for (i = 0; i < BURSTERS; i++)
		assert_int_equal(s->delivered[2 + i], BURST);
}

/* Everything drained: no table, book, lane, hold or mark left over. */
static void check_empty(struct sim *s)
{
	int i, j, l;

	for (i = 0; i < ALLNODES; i++)
		for (j = 0; j < s->node[i].nports; j++) {
			struct port *pt = &s->node[i].port[j];

			assert_int_equal(pt->qin, 0);
			assert_int_equal(pt->fit.n, 0);
			assert_int_equal(pt->rx.tab.n, 0);
			assert_int_equal(pt->tx.tab.n, 0);
			assert_true(fcq_kprx_empty(&pt->rx, PRIO));
			assert_false(fcq_kptx_wants_any(&pt->tx, PRIO));
			assert_int_equal(pt->tx.all_sent | pt->tx.dirty, 0);
			assert_int_equal(pt->iso->nmarks, 0);
			assert_int_equal(pt->band.d, 0);
			for (l = 0; l < OFC_LANES; l++) {
				assert_int_equal(fcq_iso_pkts(pt->iso, l), 0);
				assert_int_equal(pt->iso->lane[l].hold,
						 l == pt->band.p);
			}
		}
}

static void sim_free(struct sim *s)
{
	int i, j;

	for (i = 0; i < ALLNODES; i++)
		for (j = 0; j < s->node[i].nports; j++)
			port_free(&s->node[i].port[j]);
}

/* The first PAUSE frame @from sent to @to, or NULL. */
static const struct frame_log *first_pause(const struct sim *s, int from,
					   int to)
{
	int i;

	for (i = 0; i < s->nlog; i++)
		if (s->log[i].from == from && s->log[i].to == to &&
		    !s->log[i].resume)
			return &s->log[i];
	return NULL;
}

static struct sim ofc_sim, pfc_sim;

static void fig1_ofc(u32 beta)
{
	struct sim *s = &ofc_sim;
	const struct frame_log *l;
	int i;

	sim_init(s, OFC_M_OFC, beta);
	run(s);
	/* S_c, the original congestion point, pauses F1 alone at S_b */
	l = first_pause(s, SC, SB);
	assert_non_null(l);
	assert_true(l->has_f1 && !l->has_f0 && l->n == 1);
	assert_int_equal(l->flags & FCQ_EXT_F_ORIGIN, FCQ_EXT_F_ORIGIN);
	/* S_b, a local congestion point, forwards F1's pause, no ORIGIN */
	l = first_pause(s, SB, SA);
	assert_non_null(l);
	assert_true(l->has_f1 && !l->has_f0);
	assert_int_equal(l->flags & FCQ_EXT_F_ORIGIN, 0);
	/*
	 * F0 is never named, nor covered by a whole-class pause (S_c may
	 * pause all of a burster that reaches X_OFF), and h0 never paused.
	 */
	for (i = 0; i < s->nlog; i++) {
		l = &s->log[i];
		assert_false(l->has_f0);
		assert_false(!l->resume && (l->flags & FCQ_EXT_F_ALL) &&
			     (l->to == SB || l->to == SA || l->to == H0));
	}
	assert_int_equal(s->node[H0].port[0].pauses_rx, 0);
	/* F0 keeps its 45 % through the burst */
	assert_true(s->f0_in_burst >= 2000 * RATE_PCT / 100 * 9 / 10);
	assert_true(s->drains > 0 && s->moved > 0);
	check_empty(s);
	print_message("ofc, beta %u: F0 %u in the burst window, %d frames, %llu drains, %llu moved\n",
		      beta, s->f0_in_burst, s->nlog, s->drains, s->moved);
	sim_free(s);
}

static void fig1_pfc(u32 beta)
{
	struct sim *s = &pfc_sim;
	u32 f0_ofc = ofc_sim.f0_in_burst;

	sim_init(s, OFC_M_CAPFC, beta);
	run(s);
	/* the pause spreads to h0 and F0 waits behind F1 (HoL) */
	assert_true(s->node[H0].port[0].pauses_rx > 0);
	assert_true(s->f0_in_burst * 3 < f0_ofc * 2);
	check_empty(s);
	print_message("pfc, beta %u: F0 %u in the burst window (ofc %u), %d frames, h0 paused %llu times\n",
		      beta, s->f0_in_burst, f0_ofc, s->nlog,
		      s->node[H0].port[0].pauses_rx);
	sim_free(s);
}

/* The paper's setting: a link delay far below a packet time. */
static void fig1_paper(void **state)
{
	fig1_ofc(1);
	fig1_pfc(1);
}

/* Links 4 packet times long, thresholds scaled by 4: as under QEMU. */
static void fig1_scaled(void **state)
{
	fig1_ofc(4);
	fig1_pfc(4);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(fig1_paper),
		cmocka_unit_test(fig1_scaled),
	};

	return cmocka_run_group_tests_name("core/ofc model", tests, NULL,
					   NULL);
}
