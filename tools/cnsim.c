// SPDX-License-Identifier: GPL-2.0
/*
 * cnsim - the DSM paper's discrete-time model of a congestion point and
 * its sources: see cnsim.h.
 */
#include <math.h>
#include <stdlib.h>

#include "cnsim.h"

#define FB_MAX		8192	/* feedbacks in flight */

struct fb {
	u64 at;			/* ns: when it reaches its source */
	u32 src;
	s64 fb_bps;		/* DSM */
	u8 qfb;			/* QCN */
};

struct src_state {
	u64 *hist;		/* bit/s sent per step, a ring of len */
	u32 len;
	u32 df;			/* forward delay, steps */
	double arrived;		/* bytes at the CP since the last sample
				 * (DSM) or in this step (QCN)
				 */
	double sent_frac;	/* bytes sent, not yet counted by QCN's RP */
	struct dsm_rp dsm;
	struct qcn_rp qcn;
	bool has_rl;		/* QCN: a CNM made its rate limiter */
};

struct sim {
	const struct cnsim_cfg *c;
	struct src_state s[CNSIM_SRC_MAX];
	struct fb fb[FB_MAX];
	u32 nfb;
	struct dsm_cp cp_dsm;
	struct qcn_cp cp_qcn;
	double arr_frac;	/* QCN: arrived bytes short of a whole one */
	double dsm_due;		/* DSM per_bytes: bytes arrived toward S */
	u64 last_ns;		/* DSM: the last sample */
	u32 rnd;
	u64 rate[CNSIM_SRC_MAX];
};

static const u8 cpid[DSM_CPID_LEN] = { 'c', 'n', 's', 'i', 'm' };

/* A uniform number in [0, 1) from the run's sequence. */
static double uniform(struct sim *m)
{
	return fcq_xorshift32(&m->rnd) / 4294967296.0;
}

static bool active(const struct cnsim_src *s, u64 t)
{
	return t >= s->start_ns && (!s->stop_ns || t < s->stop_ns);
}

/* The rate source @j sends at: its limiter's, or C without one. */
static u64 src_rate(const struct sim *m, u32 j)
{
	const struct src_state *s = &m->s[j];

	if (m->c->algo == CNSIM_DSM)
		return s->dsm.r;
	return s->has_rl ? s->qcn.cr : m->c->qcn_rp.line;
}

/* The source of a sampled frame: by the bytes each brought since. */
static int culprit(struct sim *m)
{
	double sum = 0, at;
	u32 j;

	for (j = 0; j < m->c->n; j++)
		sum += m->s[j].arrived;
	if (sum <= 0)
		return -1;

	at = uniform(m) * sum;
	for (j = 0; j < m->c->n; j++) {
		if (at < m->s[j].arrived)
			return j;
		at -= m->s[j].arrived;
	}
	return m->c->n - 1;
}

static void send_fb(struct sim *m, u64 now, int j, s64 fb_bps, u8 qfb)
{
	const struct cnsim_cfg *c = m->c;
	struct fb *f;

	if (j < 0 || m->nfb == FB_MAX)
		return;
	f = &m->fb[m->nfb++];
	f->at = now + c->src[j].tb_ns +
		(u64)(uniform(m) * (double)c->jitter_ns);
	f->src = j;
	f->fb_bps = fb_bps;
	f->qfb = qfb;
}

static void apply_fb(struct sim *m, const struct fb *f)
{
	const struct cnsim_cfg *c = m->c;
	struct src_state *s = &m->s[f->src];

	if (c->algo == CNSIM_DSM) {
		dsm_rp_cnm(&s->dsm, &c->dsm_rp, f->fb_bps, cpid);
		return;
	}
	if (!s->has_rl) {
		qcn_rp_init(&s->qcn, &c->qcn_rp, f->at, c->seed + f->src);
		s->has_rl = true;
	}
	qcn_rp_cnm(&s->qcn, &c->qcn_rp, f->qfb, f->at);
}

/* The feedbacks due by @now reach their sources. */
static void deliver(struct sim *m, u64 now)
{
	u32 i = 0;

	while (i < m->nfb) {
		if (m->fb[i].at > now) {
			i++;
			continue;
		}
		apply_fb(m, &m->fb[i]);
		m->fb[i] = m->fb[--m->nfb];
	}
}

/* QCN's RPs count what their sources sent in a step ending at @now. */
static void qcn_sent(struct sim *m, u32 j, double bytes, u64 now)
{
	struct src_state *s = &m->s[j];
	u32 whole;

	if (!s->has_rl)
		return;
	s->sent_frac += bytes;
	whole = (u32)s->sent_frac;
	s->sent_frac -= whole;
	qcn_rp_tx(&s->qcn, &m->c->qcn_rp, whole, now);
	if (qcn_rp_idle(&s->qcn, &m->c->qcn_rp))
		s->has_rl = false;
}

/* A sample at @now of a queue of @q; DSM's the first or @dt_ns after one. */
static void sample(struct sim *m, struct cnsim_res *r, u64 now, double q,
		   u64 dt_ns)
{
	const struct cnsim_cfg *c = m->c;
	u32 qb = q < 0 ? 0 : (u32)(q + 0.5);
	int j = culprit(m);

	if (j < 0)
		return;		/* nothing arrived: no frame to sample */
	r->samples++;
	if (c->algo == CNSIM_DSM) {
		struct dsm_fb fb;
		s64 u;

		u = dsm_cp_sample(&m->cp_dsm, &c->dsm, qb, &fb);
		if (c->room) {
			/* a sample every T: what j brought since is its rate */
			u = dsm_room_bound(&c->dsm, u,
					 dsm_src_rate(&c->dsm,
						      (u64)m->s[j].arrived,
						      dt_ns, c->t_ns));
			dsm_cp_amend(&m->cp_dsm, &c->dsm, u);
		}
		if (u) {
			send_fb(m, now, j, dsm_fb_bps(u, c->t_ns), 0);
			r->fbs++;
		}
	} else {
		struct qcn_fb fb;

		if (qcn_cp_sample(&m->cp_qcn, &c->qcn, qb, &fb) ==
		    QCN_CP_CNM) {
			send_fb(m, now, j, 0, fb.qfb);
			r->fbs++;
		}
	}
}

static void arrivals_reset(struct sim *m)
{
	u32 j;

	for (j = 0; j < m->c->n; j++)
		m->s[j].arrived = 0;
}

/* Time-weighted statistics of the queue from c->from_ns on. */
static void account(const struct cnsim_cfg *c, struct cnsim_res *r,
		    double q, double dt, double *sum, double *sq, double *t)
{
	u32 bin = c->buf ? (u32)(q * CNSIM_QBINS / c->buf) : 0;

	*sum += q * dt;
	*sq += q * q * dt;
	*t += dt;
	if (q < 1)
		r->p_empty += dt;
	if (q > r->q_max)
		r->q_max = q;
	r->qbin_ns[bin < CNSIM_QBINS ? bin : CNSIM_QBINS - 1] += dt;
}

int cnsim_run(const struct cnsim_cfg *c, struct cnsim_res *r,
	      cnsim_trace_fn fn, u32 every, void *arg)
{
	double q = 0, sum = 0, sq = 0, t = 0, dep_all = 0, arr_all = 0;
	double drop_all = 0, cap, bytes, arr, dep;
	u64 dt, steps, k, now, maxdf = 0;
	struct sim *m;
	u32 j, i;
	int ret = -1;

	if (!c->n || c->n > CNSIM_SRC_MAX || !c->t_ns || !c->c_bps ||
	    !c->sub || c->t_ns < c->sub)
		return -1;
	dt = c->t_ns / c->sub;
	for (j = 0; j < c->n; j++)
		maxdf = fcq_max64(maxdf, c->src[j].tf_ns / dt);
	if (maxdf > 100000000)
		return -1;
	m = calloc(1, sizeof(*m));
	if (!m)
		return -1;
	memset(r, 0, sizeof(*r));
	m->c = c;
	m->rnd = (c->seed * 2654435761U) | 1;
	dsm_cp_init(&m->cp_dsm);
	qcn_cp_init(&m->cp_qcn, &c->qcn, c->seed);
	for (j = 0; j < c->n; j++) {
		struct src_state *s = &m->s[j];

		s->df = (u32)((c->src[j].tf_ns + dt / 2) / dt);
		s->len = s->df + 1;
		s->hist = calloc(s->len, sizeof(*s->hist));
		if (!s->hist)
			goto out;
		dsm_rp_init(&s->dsm, &c->dsm_rp);
		/* every source starts at C (the paper's sec. V), or r0 */
		s->dsm.r = fcq_min64(c->dsm_rp.line, c->r0_bps ?: c->c_bps);
	}
	cap = (double)c->c_bps * dt / 8e9;
	steps = c->dur_ns / dt;
	for (k = 1; k <= steps; k++) {
		now = k * dt;
		/* this step's rates: the feedbacks that came by its start */
		deliver(m, now - dt);
		if (c->algo == CNSIM_QCN)
			arrivals_reset(m);
		arr = 0;
		for (j = 0; j < c->n; j++) {
			struct src_state *s = &m->s[j];
			u64 rate = active(&c->src[j], now - dt) ?
				   src_rate(m, j) : 0;

			m->rate[j] = rate;
			bytes = (double)rate * dt / 8e9;
			if (c->algo == CNSIM_QCN)
				qcn_sent(m, j, bytes, now);
			/* what it sent df steps ago arrives now */
			s->hist[k % s->len] = rate;
			bytes = (double)s->hist[(k + s->len - s->df) % s->len] *
				dt / 8e9;
			s->arrived += bytes;
			arr += bytes;
		}
		q += arr;
		dep = q < cap ? q : cap;
		q -= dep;
		if (q > c->buf) {
			if (now >= c->from_ns)
				drop_all += q - c->buf;
			q = c->buf;
		}
		if (c->algo == CNSIM_DSM) {
			/* every T (the model's), or every S bytes arrived */
			m->dsm_due += arr;
			if (c->per_bytes ? m->dsm_due >= c->dsm.s :
			    k % c->sub == 0) {
				m->dsm_due = c->per_bytes ?
					     m->dsm_due - c->dsm.s : 0;
				sample(m, r, now, q, now - m->last_ns);
				m->last_ns = now;
				arrivals_reset(m);
			}
		} else {
			u32 whole, n = 0;

			/* a sample per interval of bytes, the rest carried */
			m->arr_frac += arr;
			whole = (u32)m->arr_frac;
			m->arr_frac -= whole;
			if (qcn_cp_due(&m->cp_qcn, whole))
				do
					sample(m, r, now, q, 0);
				while (++n < 64 && qcn_cp_due(&m->cp_qcn, 0));
		}
		if (now >= c->from_ns) {
			account(c, r, q, (double)dt, &sum, &sq, &t);
			dep_all += dep;
			arr_all += arr;
		}
		if (fn && every && k % every == 0)
			fn(arg, now, q, m->rate, c->n);
	}
	if (t > 0) {
		r->q_mean = sum / t;
		r->q_sd = sqrt(fmax(0, sq / t - r->q_mean * r->q_mean));
		r->p_empty /= t;
		r->util = dep_all / ((double)c->c_bps * t / 8e9);
	}
	r->drop = arr_all > 0 ? drop_all / arr_all : 0;
	ret = 0;
out:
	for (i = 0; i < c->n; i++)
		free(m->s[i].hist);
	free(m);
	return ret;
}

void cnsim_dumbbell(struct cnsim_cfg *c, enum cnsim_algo algo, u64 c_bps,
		    u32 n, u64 tau_ns, u32 buf, u32 q0, u32 s, u32 m,
		    u32 omega_q16)
{
	u64 t_ns = fcq_mul_div(s, 8 * FCQ_NS_PER_SEC, c_bps), h;
	u32 j;

	memset(c, 0, sizeof(*c));
	c->algo = algo;
	c->c_bps = c_bps;
	c->t_ns = t_ns;
	c->sub = 10;
	c->buf = buf;
	c->n = n < CNSIM_SRC_MAX ? n : CNSIM_SRC_MAX;
	for (j = 0; j < c->n; j++) {
		c->src[j].tf_ns = tau_ns / 2;
		c->src[j].tb_ns = tau_ns - tau_ns / 2;
	}
	h = dsm_h_default(t_ns);
	c->dsm = (struct dsm_cfg){
		.q0 = q0, .s = s, .m = m,
		.ga = dsm_gain(h, t_ns, dsm_div_a(m)),
		.gb = dsm_gain(h, t_ns, dsm_div_b(m)),
		.gc = dsm_gain(h, t_ns, DSM_DIV_C),
	};
	c->dsm.omega = omega_q16 ? omega_q16 : dsm_omega_min(c->dsm.gb);
	c->dsm_rp = (struct dsm_rp_cfg){ .line = c_bps, .r_min = c_bps / 1000 };
	/* 802.1Qau's CP and RP (the MIB's defaults), Q_eq at q0 */
	c->qcn = (struct qcn_cp_cfg){
		.q_eq = q0, .w = 2, .i_s = QCN_STD_I_S, .sample = QCN_SAMPLE_STD,
	};
	c->qcn_rp = (struct qcn_rp_cfg){
		.line = c_bps, .r_min = 5000000, .r_ai = 5000000,
		.r_hai = 50000000, .t_ns = 15000000, .bc = 150000,
		.gd_log2 = 7, .min_dec_pct = 50, .f_thr = 5, .jitter = 1,
	};
}
