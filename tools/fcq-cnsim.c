// SPDX-License-Identifier: GPL-2.0
/*
 * fcq-cnsim - the DSM paper's model of a bottleneck and its sources (its
 * eqs. 7 and 8, tools/cnsim.c) running fcq's own DSM and QCN code
 * (core/dsm.c, core/qcn.c), at any rate: the paper's 10 to 100 Gbit/s in
 * milliseconds, where the guest runs at a few Mbit/s.
 *
 *   fcq-cnsim [OPTIONS]              one configuration, over --seeds
 *   fcq-cnsim --sweep fig5|fig7|fig8 the paper's experiments as tables
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cnsim.h"
#include "rate.h"
#include "tstat.h"

#define SEEDS_MAX	100

struct opts {
	enum cnsim_algo algo;
	u64 c_bps, tau_ns, lo_ns, hi_ns, jitter_ns, dur_ns, from_ns, r0_bps;
	u32 n, buf, q0, s, seeds, seed;
	int m;			/* -1: ceil(the longest delay / T) */
	u64 h[3];		/* mHz, 0: the paper's default */
	u32 omega;		/* Q16, 0: the least consistent */
	bool room;		/* DSM's steps bounded by their sources' room */
	bool per_bytes;		/* DSM samples every S bytes arrived */
	const char *trace, *cdf, *sweep;
};

static void usage(FILE *f, int status)
{
	fprintf(f,
		"usage: fcq-cnsim [OPTIONS]\n"
		"       fcq-cnsim --sweep fig5|fig7|fig8 [--seeds N]\n"
		"The DSM paper's model of one bottleneck of rate C and its sources\n"
		"(its eqs. 7-8), running fcq's DSM or QCN code; every source starts\n"
		"at C. Prints the queue's time-weighted mean and standard deviation,\n"
		"the share of the time it was empty, the bottleneck's utilization and\n"
		"the share of bytes dropped, as means with 95 %% intervals over the\n"
		"seeds.\n"
		"  -a, --algo dsm|qcn     the control law (default dsm)\n"
		"  -c, --rate RATE        C, as 10Gbps (default 10Gbps)\n"
		"  -n, --sources N        sources (default 5)\n"
		"  -d, --delay TIME       each source's loop delay, half each way\n"
		"                         (default 300us)\n"
		"  -D, --delays MIN:MAX   each source's own, uniform in [MIN, MAX]\n"
		"                         per seed (heterogeneous)\n"
		"  -j, --jitter TIME      each feedback's extra delay, from U(0, TIME)\n"
		"                         (time-varying; default 0)\n"
		"  -b, --buffer BYTES     B (default 128000)\n"
		"  -q, --q0 BYTES         q0, and QCN's Q_eq (default 64000)\n"
		"  -S, --sample BYTES     DSM's bytes per sample; T = S / C\n"
		"                         (default 100000)\n"
		"  -m, --m N              DSM's horizon (default: the longest loop\n"
		"                         delay over T, rounded up; 0: no prediction)\n"
		"      --ha, --hb, --hc FREQ  DSM's H_a, H_b, H_c as 20khz (default\n"
		"                         0.8 * 2 / T)\n"
		"  -w, --omega W          DSM's omega (default: the least with which\n"
		"                         eq. 23 holds)\n"
		"  -R, --room             DSM's steps bounded by what their source\n"
		"                         can take (tc-qcn's room on; sweeps show both)\n"
		"  -P, --per-bytes        DSM samples every S bytes arrived, as the\n"
		"                         qdisc does, not every T\n"
		"  -r, --start-rate RATE  the sources' first rate (default C)\n"
		"  -t, --duration TIME    (default 0.5s)\n"
		"  -f, --from TIME        statistics from here (default duration / 5)\n"
		"  -s, --seed N           the first seed (default 1)\n"
		"  -N, --seeds N          seeds, from --seed on (default 1; sweeps 5)\n"
		"      --trace FILE       every T: time (us), queue (bytes), each\n"
		"                         source's rate (Gbit/s); first seed only\n"
		"      --cdf FILE         the queue's distribution: bytes, fraction\n"
		"                         of the time at or below; first seed only\n"
		"      --sweep NAME       fig5: stability, 10 and 100 Gbit/s;\n"
		"                         fig7: utilization from 1 to 100 Gbit/s;\n"
		"                         fig8: heterogeneous, time-varying delays\n"
		"  -h, --help\n"
		"TIME: 300us, 5ms, 0.5s. FREQ: 160hz, 20khz.\n");
	exit(status);
}

static void __attribute__((noreturn)) bad(const char *opt, const char *arg)
{
	fprintf(stderr, "fcq-cnsim: %s: bad value \"%s\" (see --help)\n", opt,
		arg);
	exit(2);
}

static u64 parse_time(const char *opt, const char *s)
{
	char *end;
	double v = strtod(s, &end);

	if (end == s || v < 0)
		bad(opt, s);
	if (!strcmp(end, "s"))
		v *= 1e9;
	else if (!strcmp(end, "ms"))
		v *= 1e6;
	else if (!strcmp(end, "us"))
		v *= 1e3;
	else if (strcmp(end, "ns") && (*end || v))	/* 0 needs no unit */
		bad(opt, s);
	return (u64)(v + 0.5);
}

static u64 parse_u(const char *opt, const char *s, u64 max)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(s, &end, 10);
	if (end == s || *end || errno || v > max || *s == '-')
		bad(opt, s);
	return v;
}

static u64 parse_bps(const char *opt, const char *s)
{
	double v = parse_rate(s);

	if (v <= 0)
		bad(opt, s);
	return (u64)(v * 8 + 0.5);
}

static u64 parse_freq(const char *opt, const char *s)
{
	char *end;
	double v = strtod(s, &end);

	if (end == s || v <= 0)
		bad(opt, s);
	if (!strcasecmp(end, "khz"))
		v *= 1e3;
	else if (*end && strcasecmp(end, "hz"))
		bad(opt, s);
	return (u64)(v * 1000 + 0.5);
}

/* The configuration of seed @seed. */
static void config(const struct opts *o, u32 seed, struct cnsim_cfg *c)
{
	u64 t_ns = fcq_mul_div(o->s, 8 * FCQ_NS_PER_SEC, o->c_bps);
	u64 tau_max = o->hi_ns ? o->hi_ns : o->tau_ns, h;
	u32 m, j, rnd = ((seed * 2654435761U) ^ 0x5bd1e995) | 1;

	tau_max += o->jitter_ns;
	m = o->m >= 0 ? (u32)o->m : (u32)((tau_max + t_ns - 1) / t_ns);
	if (o->m < 0 && !m)
		m = 1;		/* eq. 6: m is at least 1 */
	if (m > DSM_M_MAX)
		m = DSM_M_MAX;
	cnsim_dumbbell(c, o->algo, o->c_bps, o->n, o->tau_ns, o->buf, o->q0,
		       o->s, m, o->omega);
	for (j = 0; o->hi_ns && j < c->n; j++) {
		u64 tau = o->lo_ns + (u64)((double)(o->hi_ns - o->lo_ns) *
					   (fcq_xorshift32(&rnd) /
					    4294967296.0));

		c->src[j].tf_ns = tau / 2;
		c->src[j].tb_ns = tau - tau / 2;
	}
	h = dsm_h_default(t_ns);
	c->dsm.ga = dsm_gain(o->h[0] ?: h, t_ns, dsm_div_a(m));
	c->dsm.gb = dsm_gain(o->h[1] ?: h, t_ns, dsm_div_b(m));
	c->dsm.gc = dsm_gain(o->h[2] ?: h, t_ns, DSM_DIV_C);
	c->dsm.omega = o->omega ?: dsm_omega_min(c->dsm.gb);
	c->jitter_ns = o->jitter_ns;
	c->dur_ns = o->dur_ns;
	c->from_ns = o->from_ns != (u64)-1 ? o->from_ns : o->dur_ns / 5;
	c->seed = seed;
	c->r0_bps = o->r0_bps;
	c->room = o->room;
	c->per_bytes = o->per_bytes;
}

static FILE *trace_f;

static void trace_step(void *arg, u64 t_ns, double q, const u64 *rate,
		       u32 n)
{
	u32 j;

	fprintf(trace_f, "%.1f %.0f", t_ns / 1e3, q);
	for (j = 0; j < n; j++)
		fprintf(trace_f, " %.4f", rate[j] / 1e9);
	fputc('\n', trace_f);
}

static void write_cdf(const char *path, const struct cnsim_cfg *c,
		      const struct cnsim_res *r)
{
	double total = 0, at = 0;
	FILE *f = fopen(path, "w");
	u32 i;

	if (!f) {
		perror(path);
		exit(1);
	}
	for (i = 0; i < CNSIM_QBINS; i++)
		total += r->qbin_ns[i];
	fprintf(f, "# queue (bytes, a bin's upper edge) fraction of the time at or below\n");
	for (i = 0; i < CNSIM_QBINS && total > 0; i++) {
		at += r->qbin_ns[i];
		fprintf(f, "%u %.6f\n", (u32)((u64)(i + 1) * c->buf / CNSIM_QBINS),
			at / total);
	}
	fclose(f);
}

/* Mean and 95 % half-width of @n values. */
static void mean_ci(const double *v, u32 n, double *mean, double *half)
{
	double s = 0, ss = 0;
	u32 i;

	for (i = 0; i < n; i++)
		s += v[i];
	*mean = n ? s / n : 0;
	for (i = 0; i < n; i++)
		ss += (v[i] - *mean) * (v[i] - *mean);
	*half = n > 1 ? t975(n - 1) * sqrt(ss / (n - 1) / n) : 0;
}

enum { M_Q, M_SD, M_EMPTY, M_UTIL, M_DROP, METRICS };

/* @o over its seeds: each metric's mean and half-width; the m it used. */
static u32 run(const struct opts *o, double mean[METRICS],
	       double half[METRICS])
{
	static double v[METRICS][SEEDS_MAX];
	struct cnsim_cfg c;
	struct cnsim_res r;
	u32 i, k;

	for (i = 0; i < o->seeds; i++) {
		config(o, o->seed + i, &c);
		if (o->trace && !i) {
			trace_f = fopen(o->trace, "w");
			if (!trace_f) {
				perror(o->trace);
				exit(1);
			}
		}
		if (cnsim_run(&c, &r, o->trace && !i ? trace_step : NULL,
			      c.sub, NULL)) {
			fprintf(stderr, "fcq-cnsim: this configuration cannot run\n");
			exit(1);
		}
		if (o->trace && !i)
			fclose(trace_f);
		if (o->cdf && !i)
			write_cdf(o->cdf, &c, &r);
		v[M_Q][i] = r.q_mean;
		v[M_SD][i] = r.q_sd;
		v[M_EMPTY][i] = r.p_empty;
		v[M_UTIL][i] = r.util;
		v[M_DROP][i] = r.drop;
	}
	for (k = 0; k < METRICS; k++)
		mean_ci(v[k], o->seeds, &mean[k], &half[k]);
	return c.algo == CNSIM_DSM ? c.dsm.m : 0;
}

static const char *algo_name(const struct opts *o, int m0)
{
	if (o->algo == CNSIM_QCN)
		return "qcn";
	if (m0)
		return o->room ? "dsm-m0-room" : "dsm-m0";
	return o->room ? "dsm-room" : "dsm";
}

static void print_row(const char *label, const char *algo, u32 m,
		      const double *mean, const double *half)
{
	printf("%-22s %-9s %3u  %6.1f ± %-5.1f %6.1f ± %-5.1f %.3f ± %.3f  %.4f ± %.4f  %.4f ± %.4f\n",
	       label, algo, m, mean[M_Q] / 1e3, half[M_Q] / 1e3,
	       mean[M_SD] / 1e3, half[M_SD] / 1e3, mean[M_EMPTY],
	       half[M_EMPTY], mean[M_UTIL], half[M_UTIL], mean[M_DROP],
	       half[M_DROP]);
	fflush(stdout);
}

static void header(void)
{
	printf("%-22s %-9s %3s  %-14s %-14s %-13s  %-15s  %s\n", "config", "algo",
	       "m", "q (kB)", "sd (kB)", "P(q = 0)", "utilization", "dropped");
}

/*
 * DSM (m as the delays need), with room, without prediction, QCN: one
 * row each.
 */
static void rows(struct opts o, const char *label)
{
	double mean[METRICS], half[METRICS];
	u32 m;

	o.algo = CNSIM_DSM;
	o.m = -1;
	o.room = false;
	m = run(&o, mean, half);
	print_row(label, algo_name(&o, 0), m, mean, half);
	o.room = true;
	m = run(&o, mean, half);
	print_row(label, algo_name(&o, 0), m, mean, half);
	o.room = false;
	o.m = 0;
	m = run(&o, mean, half);
	print_row(label, algo_name(&o, 1), m, mean, half);
	o.algo = CNSIM_QCN;
	run(&o, mean, half);
	print_row(label, algo_name(&o, 0), 0, mean, half);
}

static void sweep(const struct opts *base)
{
	static const u64 fig5[][2] = {	/* Gbit/s, us */
		{ 10, 100 }, { 10, 300 }, { 10, 500 },
		{ 100, 40 }, { 100, 80 }, { 100, 160 },
	};
	static const u64 rates[] = { 1, 10, 40, 100 };
	static const u64 taus[] = { 80, 160, 320 };
	struct opts o = *base;
	char label[64];
	size_t i, j;

	printf("# fcq-cnsim --sweep %s: %u sources, B %u, q0 %u, S %u bytes, %.3f s from %.3f s, seeds %u..%u\n",
	       base->sweep, o.n, o.buf, o.q0, o.s, o.dur_ns / 1e9,
	       (o.from_ns != (u64)-1 ? o.from_ns : o.dur_ns / 5) / 1e9,
	       o.seed, o.seed + o.seeds - 1);
	header();
	if (!strcmp(base->sweep, "fig5")) {
		for (i = 0; i < sizeof(fig5) / sizeof(fig5[0]); i++) {
			o.c_bps = fig5[i][0] * 1000000000ULL;
			o.tau_ns = fig5[i][1] * 1000;
			snprintf(label, sizeof(label), "%lluG %lluus",
				 (unsigned long long)fig5[i][0],
				 (unsigned long long)fig5[i][1]);
			rows(o, label);
		}
	} else if (!strcmp(base->sweep, "fig7")) {
		for (i = 0; i < 4; i++)
			for (j = 0; j < 3; j++) {
				o.c_bps = rates[i] * 1000000000ULL;
				o.tau_ns = taus[j] * 1000;
				snprintf(label, sizeof(label), "%lluG %lluus",
					 (unsigned long long)rates[i],
					 (unsigned long long)taus[j]);
				rows(o, label);
			}
	} else if (!strcmp(base->sweep, "fig8")) {
		/*
		 * loop delays in [400, 800] us: [400, 600] per source, plus
		 * up to 200 us per feedback
		 */
		o.lo_ns = 400000;
		o.hi_ns = 600000;
		o.jitter_ns = 200000;
		rows(o, "10G 400-800us");
	} else {
		bad("--sweep", base->sweep);
	}
}

int main(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "algo", 1, NULL, 'a' }, { "rate", 1, NULL, 'c' },
		{ "sources", 1, NULL, 'n' }, { "delay", 1, NULL, 'd' },
		{ "delays", 1, NULL, 'D' }, { "jitter", 1, NULL, 'j' },
		{ "buffer", 1, NULL, 'b' }, { "q0", 1, NULL, 'q' },
		{ "sample", 1, NULL, 'S' }, { "m", 1, NULL, 'm' },
		{ "ha", 1, NULL, 1 }, { "hb", 1, NULL, 2 }, { "hc", 1, NULL, 3 },
		{ "omega", 1, NULL, 'w' }, { "start-rate", 1, NULL, 'r' },
		{ "duration", 1, NULL, 't' }, { "from", 1, NULL, 'f' },
		{ "seed", 1, NULL, 's' }, { "seeds", 1, NULL, 'N' },
		{ "trace", 1, NULL, 4 }, { "cdf", 1, NULL, 5 },
		{ "sweep", 1, NULL, 6 }, { "room", 0, NULL, 'R' },
		{ "per-bytes", 0, NULL, 'P' },
		{ "help", 0, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct opts o = {
		.algo = CNSIM_DSM, .c_bps = 10000000000ULL, .tau_ns = 300000,
		.dur_ns = 500000000, .from_ns = (u64)-1, .n = 5,
		.buf = 128000, .q0 = 64000, .s = 100000, .seed = 1, .m = -1,
	};
	bool seeds_set = false;
	double mean[METRICS], half[METRICS], w;
	char *colon;
	int c;
	u32 m;

	while ((c = getopt_long(argc, argv, "a:c:n:d:D:j:b:q:S:m:w:r:t:f:s:N:RPh",
				lo, NULL)) != -1) {
		switch (c) {
		case 'a':
			if (!strcmp(optarg, "dsm"))
				o.algo = CNSIM_DSM;
			else if (!strcmp(optarg, "qcn"))
				o.algo = CNSIM_QCN;
			else
				bad("--algo", optarg);
			break;
		case 'c':
			o.c_bps = parse_bps("--rate", optarg);
			break;
		case 'n':
			o.n = parse_u("--sources", optarg, CNSIM_SRC_MAX);
			if (!o.n)
				bad("--sources", optarg);
			break;
		case 'd':
			o.tau_ns = parse_time("--delay", optarg);
			break;
		case 'D':
			colon = strchr(optarg, ':');
			if (!colon)
				bad("--delays", optarg);
			*colon = 0;
			o.lo_ns = parse_time("--delays", optarg);
			o.hi_ns = parse_time("--delays", colon + 1);
			if (o.hi_ns < o.lo_ns)
				bad("--delays", optarg);
			break;
		case 'j':
			o.jitter_ns = parse_time("--jitter", optarg);
			break;
		case 'b':
			o.buf = parse_u("--buffer", optarg, 1U << 30);
			break;
		case 'q':
			o.q0 = parse_u("--q0", optarg, 1U << 30);
			break;
		case 'S':
			o.s = parse_u("--sample", optarg, 1U << 30);
			if (!o.s)
				bad("--sample", optarg);
			break;
		case 'm':
			o.m = (int)parse_u("--m", optarg, DSM_M_MAX);
			break;
		case 1:
		case 2:
		case 3:
			o.h[c - 1] = parse_freq(lo[10 + c - 1].name, optarg);
			break;
		case 'w':
			w = strtod(optarg, &colon);
			if (colon == optarg || *colon || w <= 0 || w > 1000)
				bad("--omega", optarg);
			o.omega = (u32)(w * 65536 + 0.5);
			break;
		case 'r':
			o.r0_bps = parse_bps("--start-rate", optarg);
			break;
		case 't':
			o.dur_ns = parse_time("--duration", optarg);
			break;
		case 'f':
			o.from_ns = parse_time("--from", optarg);
			break;
		case 's':
			o.seed = parse_u("--seed", optarg, 1U << 31);
			break;
		case 'N':
			o.seeds = parse_u("--seeds", optarg, SEEDS_MAX);
			if (!o.seeds)
				bad("--seeds", optarg);
			seeds_set = true;
			break;
		case 4:
			o.trace = optarg;
			break;
		case 5:
			o.cdf = optarg;
			break;
		case 6:
			o.sweep = optarg;
			break;
		case 'R':
			o.room = true;
			break;
		case 'P':
			o.per_bytes = true;
			break;
		case 'h':
			usage(stdout, 0);
			break;
		default:
			usage(stderr, 2);
		}
	}
	if (optind < argc)
		usage(stderr, 2);
	if (!seeds_set)
		o.seeds = o.sweep ? 5 : 1;
	if (o.sweep) {
		sweep(&o);
		return 0;
	}
	m = run(&o, mean, half);
	header();
	print_row("", algo_name(&o, o.m == 0), m, mean, half);
	return 0;
}
