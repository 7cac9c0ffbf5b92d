// SPDX-License-Identifier: GPL-2.0
/*
 * fcq-report - compare flow-control schemes run on the same experiment,
 * each run once per seed.
 *
 *   fcq-report [-o OUTDIR] [-t TITLE] [-p nearest|hpcc] [-s LABEL] DIR...
 *   fcq-report -h | --help
 *
 * Each DIR is a run (it holds fct.txt) or holds runs: its immediate
 * subdirectories that hold fct.txt, in version order (seed-2 before
 * seed-10); a DIR with neither is an error. A run is one scheme with one
 * seed:
 *   scheme        one line, the scheme's name: runs of the same name are
 *                 samples of the same scheme (schemes in order of first
 *                 appearance).
 *   fct.txt       one line per completed flow, the HPCC simulator's columns
 *                 "sip dip sport dport size start_ns fct_ns
 *                 standalone_fct_ns": sip/dip up to 8 hex digits, the rest
 *                 decimal integers (bytes, ns). Blank lines are skipped.
 *   summary.json  optional, from the experiment runner: {"incomplete":M,
 *                 "reorders":R (or null), "drops":D, "named":[{"name":"victim","mbps":12.3}],
 *                 "seed":S, "flows_md5":"...", "cpu_idle":0.8,
 *                 "start_lag":{"p99_ns":N, "max_ns":N, "late":N},
 *                 "trusted":false, "untrusted":["why", ...],
 *                 "phases":[{"phase":1, "dst":5, "flows":4, "J":0.998,
 *                 "M":1.01, "E":0.006, "U":0.97}],
 *                 "phase_streams":[{"phase":1, "name":"f1", "mbps":4.6,
 *                 "fair_mbps":4.65, "share":0.99}], ...}.
 *   seed          optional, one line: the seed, when summary.json has none.
 *   stats.json    optional: [{"netns","dev","role":"switch"|"host",
 *                 "tc":OBJ}] where OBJ is one fcq qdisc of
 *                 "tc -j -s qdisc show".
 *   pfc.txt       optional, HPCC's: "time_ns node_id node_type ifindex
 *                 type" a line, in time order, type 1 a pause, 0 a
 *                 resume received (fcq-exp's pfc_trace).
 *   qlen.txt      optional, HPCC's: "time: T" then "switch port c0 c1
 *                 ..." per switch port, cK the samples of the queue in
 *                 [K, K + 1) kB so far (fcq-exp's qlen_trace).
 *
 * Per run (selftests/tools/report_test.sh recomputes it):
 *   slowdown    = max(1, fct_ns / standalone_fct_ns) per flow, as HPCC's
 *                 analysis/fct_analysis.py; standalone_fct_ns must be > 0.
 *   groups      "all" flows; by size in bytes: "<10KB" (size < 10000),
 *               "10KB-100KB" (< 100000), "100KB-1MB" (< 1000000), ">=1MB"
 *               (the rest); "incast": dport 200 (HPCC: 100 is normal, 200
 *               incast), reported when any run has such a flow.
 *   per group   count; avg = arithmetic mean of the slowdowns; p50, p95,
 *               p99 of the n sorted slowdowns v[1..n] by the rule -p says:
 *                 nearest (default): v[ceil(P/100 * n)], in integers
 *                   v[(P * n + 99) / 100];
 *                 hpcc: fct_analysis.py's a[int(len(a) * p)] (0-based),
 *                   i.e. v[floor(P * n / 100) + 1], at most v[n].
 *               An empty group has count 0 and no statistics.
 *   completed   = number of flows (non-blank lines) in fct.txt.
 *   incomplete  = summary.json "incomplete".
 *   stuck       = 1 if incomplete > 0, else 0: over a scheme's runs, the
 *                 share of them with flows never completed (in a lossless
 *                 fabric, a deadlock).
 *   reorders    = summary.json "reorders" when a number (UDP flows'
 *                 datagrams the sinks saw out of order).
 *   from stats.json, a missing key counting 0:
 *     pfc_tx         = sum of tc.prio[].pfc_tx over entries of role "switch"
 *     kp_tx          = sum of tc.kp.tx_pause (keyed PAUSE frames) over
 *                      entries of role "switch"
 *     cnm_tx         = sum of tc.qcn.cnm_tx (QCN's congestion
 *                      notifications) over entries of role "switch";
 *                      absent unless some switch port is a qcn qdisc
 *     host_paused_ms = sum of tc.prio[].paused_ns over role "host", / 1e6
 *     drops          = sum of tc.drops over all entries
 *     drop_lossless  = sum of tc.drop_lossless over all entries
 *   Without stats.json these are absent, except drops, which is then
 *   summary.json's "drops" if there is one.
 *   named       = summary.json "named" flows' Mbit/s, as written.
 *   paced       = summary.json "paced" streams, as written: [{"name",
 *                 "mbps" (goodput while the flows ran), "fct_ms" (last
 *                 byte in, from the scheduled start; null for a stream
 *                 that got nothing through), "lost", "reorders",
 *                 "dups", "src_pauses" (802.3x, PFC and keyed pause
 *                 frames the stream's source received)}].
 *   phases      = summary.json "phases", as written: per phase (from 1)
 *                 and receiver of paced streams (dst, its host number),
 *                 over the last 70 % of the phase: "flows" (the streams
 *                 to it active in the phase, an integer), Jain's index
 *                 "J", max/min "M", the deviation from the max-min fair
 *                 shares "E" and the receiver's goodput (of every
 *                 paced stream) over its link's payload capacity "U";
 *                 any of J, M, E, U null: the run has no
 *                 such value (M when a stream got nothing).
 *   phase_streams = summary.json "phase_streams", as written: per paced
 *                 stream and phase it was active in, its goodput "mbps",
 *                 its max-min fair share "fair_mbps" and "share" = mbps /
 *                 fair_mbps (a victim's efficiency).
 *   lag_p99_ms, lag_max_ms, late, cpu_idle: from summary.json's start_lag
 *               and cpu_idle, when there.
 *   queue_avg_kb, queue_p99_kb, queue_sd_kb, queue_empty, queue_util:
 *               summary.json "queue" {"avg_bytes", "p99_bytes",
 *               "sd_bytes"} / 1000, "empty_share", "util", when there:
 *               the switch port whose queue was longest on average while
 *               the flows ran.
 *   incast_queue_avg_kb, incast_queue_p99_kb: the same of summary.json
 *               "queue_incast", when there: the switch port toward the
 *               incast's receiver.
 *   paced_jain  = Jain's index of the paced streams' mbps, (sum x)^2 /
 *               (n sum x^2), when the run has two or more and one got
 *               something through.
 *
 * Per scheme, every statistic over the runs that have it (n of them): the
 * mean, and the half-width of its 95 % confidence interval, Student t with
 * n - 1 degrees of freedom: t(0.975, n - 1) * s / sqrt(n), s the sample
 * standard deviation (t from a table to 30 degrees of freedom, then the
 * Cornish-Fisher expansion); no interval when n < 2. And, for every
 * scheme after the first, the paired comparison with the first: all flows'
 * avg, p50, p95 and p99 minus the first scheme's in the run of the same
 * seed (the same flows), mean and 95 % half-width over the seeds both ran.
 *
 * Warnings (a line starting "WARNING:" at the top of report.txt and on
 * stderr): a run whose summary.json says "trusted": false (its dir and
 * why), and runs of different schemes with the same seed whose flows_md5
 * differ (they did not replay the same flows: not a fair comparison).
 *
 * Writes to OUTDIR (default "."): report.txt (also printed on stdout),
 * report.json, slowdown.gp with its data files slowdown-N.dat (N = the
 * scheme's position, from 1), and slowdown.png, which slowdown.gp draws
 * with gnuplot: p95 and p99 slowdown per size bucket, one line per scheme,
 * each point the mean over runs with its 95 % interval as an error bar.
 * report.json: {"title", "slowdown", "percentile", "interval", "trusted",
 * "warnings": [...], "schemes": [{"scheme", "runs": [{"dir", "seed",
 * "completed", "incomplete", "stuck", "reorders", "drops", "drop_lossless",
 * "pfc_tx", "kp_tx", "cnm_tx",
 * "host_paused_ms", "lag_p99_ms", "lag_max_ms", "late", "cpu_idle",
 * "queue_avg_kb", "queue_p99_kb", "queue_sd_kb", "queue_empty",
 * "queue_util", "incast_queue_avg_kb",
 * "incast_queue_p99_kb", "paced_jain", "trusted", "named": [{"name", "mbps"}], "paced": [{"name", "mbps",
 * "fct_ms", "lost", "reorders", "dups", "src_pauses"}], "phases":
 * [{"phase", "dst", "flows", "J", "M", "E", "U"}], "phase_streams":
 * [{"phase", "name", "mbps", "fair_mbps", "share"}], "groups": {GROUP:
 * {"count", "avg", "p50", "p95", "p99"}}, "summary": summary.json as
 * read}], and each statistic aggregated as {"mean", "ci95", "n"} (ci95
 * null when n < 2; the statistic null when no run has it): "completed",
 * ..., "named": [{"name", "mbps"}], "paced": [{"name", "mbps", ...}],
 * "phases": [{"phase", "dst", "flows", "J", ...}], "phase_streams":
 * [{"phase", "name", "mbps", ...}] (every (phase, dst) and (phase, name)
 * of any run, by phase and dst, and by stream as "paced" orders them,
 * then phase; "phases" and "phase_streams", in runs and schemes, only
 * when some run's summary.json has them), "groups": {GROUP: {"count",
 * "avg", ...}},
 * and after the first scheme "paired": {"vs": FIRST, "avg", "p50", "p95",
 * "p99"}}]}.
 *
 * With -s LABEL, a sweep: a scheme named SERIES-N, or SERIES-N followed by
 * letters ("flowsail-8q"), N >= 1, is the point of SERIES at LABEL = N
 * (two schemes at one point, or no scheme so named, is an error); the
 * other schemes are references. report.txt then has, for the <10KB avg,
 * the <10KB p99 and all flows' avg slowdown, a table with a row per
 * series and a column per N (the references' values in its title);
 * report.json "sweep": {"label", "series": [{"name", "points": [{"x",
 * "scheme"}]}]}; sweep.gp, with sweep-S.dat per series, draws sweep.png:
 * a panel per statistic against N on a log2 axis, a line per series with
 * its 95 % intervals, the references as dashed lines at their means.
 * Without -s, an old sweep.png in OUTDIR is removed.
 *
 * With a pfc.txt in some run, pauses.gp (pauses-S.dat) draws pauses.png:
 * of each scheme's first run with one, a row per port that received PFC
 * ("node/ifindex"), a bar from each pause line to the port's next resume
 * line of any class (pfc.txt names none: other classes may still be
 * paused), or the file's last time. With a qlen.txt, qlen.gp (qlen-S.dat)
 * draws qlen.png: per scheme, the share of the samples of its last dump,
 * every switch port and run pooled, below each bucket's upper edge (kB).
 * Without them, an old pauses.png or qlen.png is removed.
 *
 * Exit status: 0 done; 1 unreadable input (the message names the file and,
 * where there is one, the line), an output that cannot be written, or
 * gnuplot failed; 2 usage error; 3 done, with a warning above.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <json.h>

#include "tstat.h"

enum {
	G_ALL,
	G_LT10K,
	G_LT100K,
	G_LT1M,
	G_GE1M,
	G_INCAST,
	NGROUPS
};

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define FIRST_BUCKET	G_LT10K
#define NBUCKETS	4
#define NPCT		3
#define INCAST_DPORT	200

static const char *const group_name[NGROUPS] = {
	"all", "<10KB", "10KB-100KB", "100KB-1MB", ">=1MB", "incast",
};

static const char *const group_desc[NGROUPS] = {
	"all flows",
	"size < 10000 B",
	"10000 <= size < 100000 B",
	"100000 <= size < 1000000 B",
	"size >= 1000000 B",
	"dport 200",
};

static const unsigned int pct[NPCT] = { 50, 95, 99 };
static const char *const pct_name[NPCT] = { "p50", "p95", "p99" };

static bool hpcc_rule;		/* -p hpcc */

struct flow {
	double slow;
	unsigned char bucket;	/* G_LT10K .. G_GE1M */
	bool incast;
};

struct gstat {
	size_t count;
	double avg;
	double p[NPCT];
};

struct named {
	const char *name;	/* first: find_name() */
	double mbps;
};

/* A paced stream's results, as summary.json "paced" has them. */
enum { P_MBPS, P_FCT, P_LOST, P_REORDERS, P_DUPS, P_PAUSES, NPACED };
static const char *const paced_key[NPACED] = {
	"mbps", "fct_ms", "lost", "reorders", "dups", "src_pauses",
};

struct paced {
	const char *name;	/* first: find_name() */
	double v[NPACED];
	unsigned int has;	/* bit k: v[k] is there (a starved stream
				 * never completed: no fct_ms) */
};

/*
 * summary.json's records of a phase: "phases" one per receiver of paced
 * streams (dst), "phase_streams" one per paced stream (name) active in it.
 */
enum { PH_RECV, PH_STREAM, NPH };
#define PH_MAXV		5

struct phrec {
	uint64_t phase;
	uint64_t dst;		/* PH_RECV */
	const char *name;	/* PH_STREAM */
	size_t rank;		/* all_phrecs(): the stream's place */
	double v[PH_MAXV];
	unsigned int has;	/* bit k: v[k] is a number, not null */
};

static const struct ph_array {
	const char *key;		/* summary.json's */
	const char *col[2];		/* what tells its records apart */
	int nv;
	const char *vkey[PH_MAXV];
	int digits[PH_MAXV];
	unsigned int counts;		/* bit k: vkey[k] is an integer */
	unsigned int nullable;		/* bit k: vkey[k] may be null */
	const char *head;		/* of its table in report.txt */
} ph_array[NPH] = {
	[PH_RECV] = {
		"phases", { "phase", "to" },
		5, { "flows", "J", "M", "E", "U" }, { 0, 3, 3, 3, 3 },
		0x01, 0x1e,
		"phases (per phase and receiver of paced streams, over the "
		"last 70 % of the phase; to: the receiver host; flows: its "
		"paced streams; J: Jain's index of their goodputs; M: max/min; "
		"E: deviation from their max-min fair shares; U: the "
		"receiver's goodput over its link's payload capacity; "
		"\"(K of N)\": over the K of N runs where it is defined, M "
		"being none when a stream got nothing)",
	},
	[PH_STREAM] = {
		"phase_streams", { "stream", "phase" },
		3, { "mbps", "fair_mbps", "share" }, { 2, 2, 3 },
		0, 0,
		"phase shares (per paced stream and phase, over the last 70 % "
		"of the phase; mbps: goodput; fair_mbps: its max-min fair "
		"share; share: mbps / fair_mbps)",
	},
};

/*
 * A switch port's queue over the flows' window (summary.json), bytes; its
 * deviation, the share of the window it was empty and its link's
 * utilization when the summary has them (has_more).
 */
struct queue {
	bool has, has_more, has_util;
	double avg, p99, sd, empty, util;
	double (*cdf)[2];	/* [bytes, share at or below], rising */
	size_t ncdf;
};

/*
 * A paused interval of a port that received PFC (pfc.txt): from a pause
 * line to the port's next resume line, or to the file's last time.
 */
struct pause_iv {
	uint64_t node, ifindex, from, to;
};

/* One scheme with one seed. */
struct run {
	char *dir;
	char *name;
	struct flow *flows;
	size_t n, cap;
	struct gstat g[NGROUPS];

	json_object *summary;	/* owns the strings below */
	bool has_incomplete, has_sdrops, has_reorders;
	uint64_t incomplete, sdrops, reorders;
	struct named *named;
	size_t nnamed;
	struct paced *paced;
	size_t npaced;
	struct phrec *ph[NPH];
	size_t nph[NPH];
	bool has_seed, has_lag, has_late, has_idle, untrusted;
	uint64_t seed, late;
	double lag_p99_ms, lag_max_ms, idle;
	struct queue queue;		/* the deepest switch queue */
	struct queue queue_incast;	/* toward the incast's receiver */
	const char *md5;
	json_object *why;	/* "untrusted" reasons */

	bool has_stats, has_cnm;
	uint64_t pfc_tx, kp_tx, cnm_tx, paused_ns, drops, drop_lossless;

	bool has_pfc, has_qlen;
	struct pause_iv *pauses;	/* pfc.txt's paused intervals */
	size_t npauses;
	uint64_t *qlen;		/* qlen.txt's last dump, every port's counts
				 * added up per 1 kB bucket
				 */
	size_t nqlen;
};

/* The runs of one scheme name: the samples of its statistics. */
struct scheme {
	const char *name;
	size_t *run;
	size_t nrun;
};

static struct run *runs;
static size_t nruns;
static struct scheme *schemes;
static size_t nschemes;
static bool any_incast, any_lag, any_queue, any_cnm;
static bool any_ph[NPH];	/* some summary.json has ph_array[].key */

static void usage(FILE *f)
{
	fprintf(f,
		"usage: fcq-report [-o OUTDIR] [-t TITLE] [-p nearest|hpcc] [-s LABEL]\n"
		"                  DIR...\n"
		"       fcq-report -h | --help\n"
		"  DIR: a run (scheme, fct.txt in HPCC's columns, optional\n"
		"       summary.json, stats.json, seed), or a directory of runs\n"
		"       (e.g. scheme-1-pfc/ holding seed-1/, seed-2/...); runs of\n"
		"       one scheme name are its samples: mean and 95 %% interval\n"
		"  -o OUTDIR  where to write report.txt, report.json,\n"
		"             slowdown.png (default: .)\n"
		"  -t TITLE   the figure's and the report's title\n"
		"  -p RULE    percentiles: nearest (default, the ceil(P/100*n)-th\n"
		"             smallest) or hpcc (fct_analysis.py's a[int(n*p)])\n"
		"  -s LABEL   a sweep: schemes named SERIES-N (flowsail-8q) plotted\n"
		"             against LABEL = N in sweep.png, tabulated in the report\n"
		"  -h, --help print this help and exit\n"
		"Exit status: 0 done, 1 error, 2 usage, 3 done with a warning\n"
		"(an untrusted run, schemes that replayed different flows).\n");
}

static void __attribute__((noreturn, format(printf, 1, 2)))
die(const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fputs("fcq-report: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

static void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ?: 1);
	if (!p)
		die("out of memory");
	return p;
}

static char *path_of(const char *dir, const char *file)
{
	char *p;

	if (asprintf(&p, "%s/%s", dir, file) < 0)
		die("out of memory");
	return p;
}

static bool parse_dec(const char *s, uint64_t *v)
{
	char *end;

	/* strtoull would take a sign and leading blanks: refuse both. */
	if (!isdigit((unsigned char)*s))
		return false;
	errno = 0;
	*v = strtoull(s, &end, 10);
	return !errno && !*end;
}

static bool is_ip_hex(const char *s)
{
	size_t n = strspn(s, "0123456789abcdefABCDEF");

	return n && n <= 8 && !s[n];
}

static void read_scheme_name(struct run *s)
{
	char *path = path_of(s->dir, "scheme"), *line = NULL;
	size_t cap = 0;
	ssize_t len;
	FILE *f;

	f = fopen(path, "r");
	if (!f)
		die("%s: %s", path, strerror(errno));
	len = getline(&line, &cap, f);
	if (ferror(f))
		die("%s: %s", path, strerror(errno));
	fclose(f);
	while (len > 0 && isspace((unsigned char)line[len - 1]))
		line[--len] = '\0';
	if (len <= 0)
		die("%s:1: expected the scheme's name", path);
	s->name = line;
	free(path);
}

static void read_fct(struct run *s)
{
	static const char *const col[] = {
		"sip", "dip", "sport", "dport", "size", "start_ns", "fct_ns",
		"standalone_fct_ns",
	};
	char *path = path_of(s->dir, "fct.txt"), *line = NULL;
	unsigned long lineno = 0;
	size_t cap = 0;
	FILE *f;

	f = fopen(path, "r");
	if (!f)
		die("%s: %s", path, strerror(errno));
	while (getline(&line, &cap, f) >= 0) {
		char *tok[8], *save = NULL, *t;
		uint64_t v[8];
		struct flow *fl;
		int n = 0, i;

		lineno++;
		for (t = strtok_r(line, " \t\r\n", &save); t;
		     t = strtok_r(NULL, " \t\r\n", &save))
			if (n++ < 8)
				tok[n - 1] = t;
		if (!n)
			continue;
		if (n != 8)
			die("%s:%lu: %d columns, expected 8: sip dip sport dport size start_ns fct_ns standalone_fct_ns",
			    path, lineno, n);
		for (i = 0; i < 2; i++)
			if (!is_ip_hex(tok[i]))
				die("%s:%lu: %s \"%s\": expected up to 8 hex digits",
				    path, lineno, col[i], tok[i]);
		for (i = 2; i < 8; i++)
			if (!parse_dec(tok[i], &v[i]))
				die("%s:%lu: %s \"%s\": expected a non-negative integer",
				    path, lineno, col[i], tok[i]);
		if (v[3] > 65535)
			die("%s:%lu: dport %" PRIu64 ": not a port number",
			    path, lineno, v[3]);
		if (!v[7])
			die("%s:%lu: standalone_fct_ns is 0: no slowdown to compute",
			    path, lineno);

		if (s->n == s->cap) {
			s->cap = s->cap ? 2 * s->cap : 1024;
			s->flows = xrealloc(s->flows,
					    s->cap * sizeof(*s->flows));
		}
		fl = &s->flows[s->n++];
		fl->slow = fmax(1.0, (double)v[6] / (double)v[7]);
		fl->bucket = v[4] < 10000 ? G_LT10K :
			     v[4] < 100000 ? G_LT100K :
			     v[4] < 1000000 ? G_LT1M : G_GE1M;
		fl->incast = v[3] == INCAST_DPORT;
		any_incast |= fl->incast;
	}
	if (ferror(f))
		die("%s: %s", path, strerror(errno));
	fclose(f);
	free(line);
	free(path);
}

/*
 * Parse a whole JSON file; NULL if it does not exist. A syntax error is
 * reported at its line, which json-c does not count for us.
 */
static json_object *read_json(const char *path)
{
	json_tokener *tok;
	json_object *obj;
	char *buf = NULL;
	size_t len = 0, end, i;
	unsigned long line = 1;
	FILE *f, *m;
	char chunk[65536];
	size_t got;

	f = fopen(path, "r");
	if (!f) {
		if (errno == ENOENT)
			return NULL;
		die("%s: %s", path, strerror(errno));
	}
	m = open_memstream(&buf, &len);
	if (!m)
		die("out of memory");
	while ((got = fread(chunk, 1, sizeof(chunk), f)) > 0)
		fwrite(chunk, 1, got, m);
	if (ferror(f))
		die("%s: %s", path, strerror(errno));
	fclose(f);
	if (fclose(m))
		die("out of memory");

	tok = json_tokener_new();
	if (!tok)
		die("out of memory");
	obj = json_tokener_parse_ex(tok, buf, len);
	end = json_tokener_get_parse_end(tok);
	for (i = 0; i < end && i < len; i++)
		line += buf[i] == '\n';
	if (json_tokener_get_error(tok) == json_tokener_continue)
		die("%s:%lu: unexpected end of file", path, line);
	if (!obj && json_tokener_get_error(tok) != json_tokener_success)
		die("%s:%lu: %s", path, line,
		    json_tokener_error_desc(json_tokener_get_error(tok)));
	for (i = end; i < len; i++) {
		if (buf[i] == '\n')
			line++;
		else if (!isspace((unsigned char)buf[i]))
			die("%s:%lu: text after the JSON value", path, line);
	}
	json_tokener_free(tok);
	free(buf);
	return obj;
}

/* A counter: a non-negative JSON integer; absent counts 0. */
static uint64_t get_count(json_object *o, const char *key, const char *path,
			  const char *where)
{
	json_object *v;

	if (!json_object_object_get_ex(o, key, &v) ||
	    json_object_is_type(v, json_type_null))
		return 0;
	if (!json_object_is_type(v, json_type_int) ||
	    json_object_get_int64(v) < 0)
		die("%s: %s\"%s\": expected a non-negative integer",
		    path, where, key);
	return json_object_get_uint64(v);
}

static bool get_number(json_object *o, const char *key, double *d)
{
	json_object *v;

	if (!json_object_object_get_ex(o, key, &v))
		return false;
	if (!json_object_is_type(v, json_type_int) &&
	    !json_object_is_type(v, json_type_double))
		return false;
	*d = json_object_get_double(v);
	return true;
}

/* A string in summary.json; NULL if absent, an error if not a string. */
static const char *get_string(json_object *o, const char *key,
			      const char *path)
{
	json_object *v;

	if (!json_object_object_get_ex(o, key, &v) ||
	    json_object_is_type(v, json_type_null))
		return NULL;
	if (!json_object_is_type(v, json_type_string))
		die("%s: \"%s\": expected a string", path, key);
	return json_object_get_string(v);
}

/* A queue's "cdf" of [bytes, share] pairs, when there. */
static void read_cdf(json_object *v, struct queue *q, const char *path,
		     const char *key)
{
	json_object *arr, *pt;
	size_t i, j;

	if (!json_object_object_get_ex(v, "cdf", &arr))
		return;
	if (!json_object_is_type(arr, json_type_array))
		die("%s: \"%s\".cdf: expected an array", path, key);
	q->ncdf = json_object_array_length(arr);
	q->cdf = xrealloc(NULL, (q->ncdf ? q->ncdf : 1) * sizeof(*q->cdf));
	for (i = 0; i < q->ncdf; i++) {
		pt = json_object_array_get_idx(arr, i);
		if (!json_object_is_type(pt, json_type_array) ||
		    json_object_array_length(pt) != 2)
			die("%s: \"%s\".cdf[%zu]: expected [bytes, share]",
			    path, key, i);
		for (j = 0; j < 2; j++)
			q->cdf[i][j] = json_object_get_double(
				json_object_array_get_idx(pt, j));
	}
}

/* summary.json's queue @key, when there (null: none). */
static void read_queue(json_object *o, const char *key, struct queue *q,
		       const char *path)
{
	json_object *v;

	if (!json_object_object_get_ex(o, key, &v) ||
	    !json_object_is_type(v, json_type_object))
		return;
	if (!get_number(v, "avg_bytes", &q->avg) ||
	    !get_number(v, "p99_bytes", &q->p99))
		die("%s: \"%s\": expected avg_bytes and p99_bytes", path, key);
	q->has = true;
	/* older summaries have neither */
	q->has_more = get_number(v, "sd_bytes", &q->sd) &&
		      get_number(v, "empty_share", &q->empty);
	q->has_util = get_number(v, "util", &q->util);
	read_cdf(v, q, path, key);
	any_queue = true;
}

/* summary.json's array @key (*@n records), or NULL when it has none. */
static json_object *get_array(json_object *o, const char *key, size_t *n,
			      const char *path)
{
	json_object *arr;

	*n = 0;
	if (!json_object_object_get_ex(o, key, &arr))
		return NULL;
	if (!json_object_is_type(arr, json_type_array))
		die("%s: \"%s\": expected an array", path, key);
	*n = json_object_array_length(arr);
	return arr;
}

/* Record @where's "name", a string that it must have. */
static const char *get_name(json_object *e, const char *path,
			    const char *where)
{
	json_object *v;

	if (!json_object_is_type(e, json_type_object) ||
	    !json_object_object_get_ex(e, "name", &v) ||
	    !json_object_is_type(v, json_type_string))
		die("%s: %s: expected {\"name\": STRING, ...}", path, where);
	return json_object_get_string(v);
}

/* Record @where's @key, an integer >= @min that it must have. */
static uint64_t get_uint(json_object *e, const char *key, int64_t min,
			 const char *path, const char *where)
{
	json_object *v;

	if (!json_object_object_get_ex(e, key, &v) ||
	    !json_object_is_type(v, json_type_int) ||
	    json_object_get_int64(v) < min)
		die("%s: %s.%s: expected an integer >= %" PRId64, path, where,
		    key, min);
	return json_object_get_uint64(v);
}

/*
 * Record @where's numbers @key[0..@n) into @v: each must be there, those
 * of the bits of @nullable may be null (no value: its bit of the result
 * clear).
 */
static unsigned int get_numbers(json_object *e, const char *const *key,
				int n, double *v, unsigned int nullable,
				const char *path, const char *where)
{
	unsigned int has = 0;
	json_object *x;
	int k;

	for (k = 0; k < n; k++) {
		if (get_number(e, key[k], &v[k])) {
			has |= 1u << k;
			continue;
		}
		v[k] = 0;
		if (!(nullable & 1u << k))
			die("%s: %s.%s: expected a number", path, where,
			    key[k]);
		/* json-c: a null value is a NULL object */
		if (!json_object_object_get_ex(e, key[k], &x) || x)
			die("%s: %s.%s: expected a number or null", path, where,
			    key[k]);
	}
	return has;
}

/* summary.json "paced": every stream with every number of paced_key. */
static void read_paced(struct run *s, json_object *o, const char *path)
{
	json_object *arr = get_array(o, "paced", &s->npaced, path), *e;
	char where[64];
	size_t i;

	s->paced = xrealloc(NULL, s->npaced * sizeof(*s->paced));
	for (i = 0; i < s->npaced; i++) {
		struct paced *p = &s->paced[i];

		snprintf(where, sizeof(where), "paced[%zu]", i);
		e = json_object_array_get_idx(arr, i);
		p->name = get_name(e, path, where);
		p->has = get_numbers(e, paced_key, NPACED, p->v, 1u << P_FCT,
				     path, where);
	}
}

/*
 * summary.json's per-phase records ph_array[@a]: each with its phase
 * (from 1), its receiver or its stream, and every number of the kind.
 */
static void read_phrecs(struct run *s, json_object *o, int a,
			const char *path)
{
	const struct ph_array *d = &ph_array[a];
	json_object *arr = get_array(o, d->key, &s->nph[a], path), *e;
	char where[64];
	size_t i;
	int k;

	any_ph[a] |= arr != NULL;
	s->ph[a] = xrealloc(NULL, s->nph[a] * sizeof(*s->ph[a]));
	for (i = 0; i < s->nph[a]; i++) {
		struct phrec *r = &s->ph[a][i];

		snprintf(where, sizeof(where), "%s[%zu]", d->key, i);
		e = json_object_array_get_idx(arr, i);
		memset(r, 0, sizeof(*r));
		if (a == PH_STREAM)
			r->name = get_name(e, path, where);
		else if (!json_object_is_type(e, json_type_object))
			die("%s: %s: expected {\"phase\": INTEGER, ...}", path,
			    where);
		r->phase = get_uint(e, "phase", 1, path, where);
		if (a == PH_RECV)
			r->dst = get_uint(e, "dst", 0, path, where);
		for (k = 0; k < d->nv; k++)
			if (d->counts & 1u << k)
				get_uint(e, d->vkey[k], 0, path, where);
		r->has = get_numbers(e, d->vkey, d->nv, r->v, d->nullable,
				     path, where);
	}
}

static void read_summary(struct run *s)
{
	char *path = path_of(s->dir, "summary.json");
	json_object *o = read_json(path), *named, *e, *v, *lag;
	char where[64];
	size_t i, n;

	if (!o)
		goto out;
	if (!json_object_is_type(o, json_type_object))
		die("%s: expected a JSON object", path);
	s->summary = o;
	if (json_object_object_get_ex(o, "incomplete", NULL)) {
		s->has_incomplete = true;
		s->incomplete = get_count(o, "incomplete", path, "");
	}
	if (json_object_object_get_ex(o, "reorders", &v) &&
	    !json_object_is_type(v, json_type_null)) {
		s->has_reorders = true;
		s->reorders = get_count(o, "reorders", path, "");
	}
	if (json_object_object_get_ex(o, "drops", NULL)) {
		s->has_sdrops = true;
		s->sdrops = get_count(o, "drops", path, "");
	}
	if (json_object_object_get_ex(o, "seed", &v) &&
	    !json_object_is_type(v, json_type_null)) {
		s->has_seed = true;
		s->seed = get_count(o, "seed", path, "");
	}
	s->has_idle = get_number(o, "cpu_idle", &s->idle);
	s->md5 = get_string(o, "flows_md5", path);
	if (json_object_object_get_ex(o, "start_lag", &lag) &&
	    json_object_is_type(lag, json_type_object)) {
		double ns;

		if (get_number(lag, "p99_ns", &ns)) {
			s->has_lag = true;
			s->lag_p99_ms = ns / 1e6;
			s->lag_max_ms = get_number(lag, "max_ns", &ns) ?
					ns / 1e6 : s->lag_p99_ms;
		}
		if (json_object_object_get_ex(lag, "late", NULL)) {
			s->has_late = true;
			s->late = get_count(lag, "late", path, "start_lag.");
		}
		any_lag |= s->has_lag;
	}
	read_queue(o, "queue", &s->queue, path);
	read_queue(o, "queue_incast", &s->queue_incast, path);
	if (json_object_object_get_ex(o, "trusted", &v)) {
		if (!json_object_is_type(v, json_type_boolean))
			die("%s: \"trusted\": expected true or false", path);
		s->untrusted = !json_object_get_boolean(v);
		if (json_object_object_get_ex(o, "untrusted", &s->why) &&
		    !json_object_is_type(s->why, json_type_array))
			die("%s: \"untrusted\": expected an array of reasons",
			    path);
	}
	read_paced(s, o, path);
	read_phrecs(s, o, PH_RECV, path);
	read_phrecs(s, o, PH_STREAM, path);
	named = get_array(o, "named", &n, path);
	s->named = xrealloc(NULL, n * sizeof(*s->named));
	for (i = 0; i < n; i++) {
		snprintf(where, sizeof(where), "named[%zu]", i);
		e = json_object_array_get_idx(named, i);
		if (!json_object_is_type(e, json_type_object) ||
		    !json_object_object_get_ex(e, "name", &v) ||
		    !json_object_is_type(v, json_type_string))
			die("%s: %s: expected {\"name\": STRING, \"mbps\": NUMBER}",
			    path, where);
		s->named[s->nnamed].name = json_object_get_string(v);
		if (!get_number(e, "mbps", &s->named[s->nnamed].mbps))
			die("%s: %s.mbps: expected a number", path, where);
		s->nnamed++;
	}
out:
	free(path);
}

/* The seed file, for a run whose summary.json does not say. */
static void read_seed(struct run *s)
{
	char *path = path_of(s->dir, "seed"), *line = NULL;
	size_t cap = 0;
	ssize_t len;
	FILE *f;

	if (s->has_seed)
		goto out;
	f = fopen(path, "r");
	if (!f) {
		if (errno != ENOENT)
			die("%s: %s", path, strerror(errno));
		goto out;
	}
	len = getline(&line, &cap, f);
	fclose(f);
	while (len > 0 && isspace((unsigned char)line[len - 1]))
		line[--len] = '\0';
	if (len <= 0 || !parse_dec(line, &s->seed))
		die("%s:1: expected the seed, a non-negative integer", path);
	s->has_seed = true;
	free(line);
out:
	free(path);
}

static void read_stats(struct run *s)
{
	char *path = path_of(s->dir, "stats.json");
	json_object *o = read_json(path), *e, *tc, *role, *prio, *kp, *qcn, *p;
	char where[64];
	size_t i, j, n;

	if (!o)
		goto out;
	if (!json_object_is_type(o, json_type_array))
		die("%s: expected a JSON array of {netns, dev, role, tc}", path);
	s->has_stats = true;
	n = json_object_array_length(o);
	for (i = 0; i < n; i++) {
		const char *r = "";

		e = json_object_array_get_idx(o, i);
		if (!json_object_is_type(e, json_type_object))
			die("%s: [%zu]: expected an object", path, i);
		if (json_object_object_get_ex(e, "role", &role)) {
			if (!json_object_is_type(role, json_type_string))
				die("%s: [%zu].role: expected a string", path, i);
			r = json_object_get_string(role);
		}
		if (!json_object_object_get_ex(e, "tc", &tc))
			continue;
		if (!json_object_is_type(tc, json_type_object))
			die("%s: [%zu].tc: expected a qdisc object", path, i);
		snprintf(where, sizeof(where), "[%zu].tc.", i);
		s->drops += get_count(tc, "drops", path, where);
		s->drop_lossless += get_count(tc, "drop_lossless", path, where);
		if (!strcmp(r, "switch") &&
		    json_object_object_get_ex(tc, "kp", &kp)) {
			if (!json_object_is_type(kp, json_type_object))
				die("%s: %skp: expected an object", path, where);
			snprintf(where, sizeof(where), "[%zu].tc.kp.", i);
			s->kp_tx += get_count(kp, "tx_pause", path, where);
		}
		if (!strcmp(r, "switch") &&
		    json_object_object_get_ex(tc, "qcn", &qcn)) {
			snprintf(where, sizeof(where), "[%zu].tc.", i);
			if (!json_object_is_type(qcn, json_type_object))
				die("%s: %sqcn: expected an object", path, where);
			snprintf(where, sizeof(where), "[%zu].tc.qcn.", i);
			s->cnm_tx += get_count(qcn, "cnm_tx", path, where);
			s->has_cnm = any_cnm = true;
		}
		if (!json_object_object_get_ex(tc, "prio", &prio))
			continue;
		if (!json_object_is_type(prio, json_type_array))
			die("%s: [%zu].tc.prio: expected an array", path, i);
		for (j = 0; j < json_object_array_length(prio); j++) {
			p = json_object_array_get_idx(prio, j);
			snprintf(where, sizeof(where), "[%zu].tc.prio[%zu].",
				 i, j);
			if (!json_object_is_type(p, json_type_object))
				die("%s: %s: expected an object", path, where);
			/* Switches send PFC to their upstreams; hosts obey. */
			if (!strcmp(r, "switch"))
				s->pfc_tx += get_count(p, "pfc_tx", path,
						       where);
			else if (!strcmp(r, "host"))
				s->paused_ns += get_count(p, "paused_ns", path,
							  where);
		}
	}
	json_object_put(o);
out:
	free(path);
}

/* Split @line at blanks into at most @max of @tok; the number of words. */
static int words(char *line, char **tok, int max)
{
	char *save = NULL, *t;
	int n = 0;

	for (t = strtok_r(line, " \t\r\n", &save); t;
	     t = strtok_r(NULL, " \t\r\n", &save))
		if (n++ < max)
			tok[n - 1] = t;
	return n;
}

/*
 * pfc.txt (HPCC's): "time_ns node_id node_type ifindex type" a line, in
 * time order; each port's paused intervals. The file names no class: a
 * port's interval ends at its first resume line, of whichever class,
 * though its other classes may still be paused.
 */
static void read_pfc(struct run *s)
{
	char *path = path_of(s->dir, "pfc.txt"), *line = NULL, *tok[5];
	struct pause_iv *open_iv = NULL;
	size_t cap = 0, nopen = 0, i;
	unsigned long lineno = 0;
	uint64_t v[5], last = 0;
	FILE *f;
	int n, k;

	f = fopen(path, "r");
	if (!f) {
		if (errno != ENOENT)
			die("%s: %s", path, strerror(errno));
		goto out;
	}
	s->has_pfc = true;
	while (getline(&line, &cap, f) >= 0) {
		lineno++;
		n = words(line, tok, 5);
		if (!n)
			continue;
		if (n != 5)
			die("%s:%lu: %d columns, expected 5: time_ns node_id node_type ifindex type",
			    path, lineno, n);
		for (k = 0; k < 5; k++)
			if (!parse_dec(tok[k], &v[k]))
				die("%s:%lu: column %d: \"%s\" is not a non-negative integer",
				    path, lineno, k + 1, tok[k]);
		if (v[2] > 1 || v[4] > 1)
			die("%s:%lu: node_type and type are 0 or 1", path,
			    lineno);
		if (v[0] < last)
			die("%s:%lu: time %" PRIu64 " before the line above's",
			    path, lineno, v[0]);
		last = v[0];
		for (i = 0; i < nopen; i++)
			if (open_iv[i].node == v[1] &&
			    open_iv[i].ifindex == v[3])
				break;
		if (v[4] && i == nopen) {
			open_iv = xrealloc(open_iv, ++nopen * sizeof(*open_iv));
			open_iv[i] = (struct pause_iv){ v[1], v[3], v[0], 0 };
		} else if (!v[4] && i < nopen) {
			s->pauses = xrealloc(s->pauses, (s->npauses + 1) *
					     sizeof(*s->pauses));
			s->pauses[s->npauses] = open_iv[i];
			s->pauses[s->npauses++].to = v[0];
			open_iv[i] = open_iv[--nopen];
		}
	}
	if (ferror(f))
		die("%s: %s", path, strerror(errno));
	fclose(f);
	for (i = 0; i < nopen; i++) {
		s->pauses = xrealloc(s->pauses, (s->npauses + 1) *
				     sizeof(*s->pauses));
		s->pauses[s->npauses] = open_iv[i];
		s->pauses[s->npauses++].to = last;
	}
	free(open_iv);
	free(line);
out:
	free(path);
}

/*
 * qlen.txt (HPCC's): "time: T" then "switch port c0 c1 ..." per port, the
 * counts cumulative; the last dump's, every port's added up per bucket.
 */
static void read_qlen(struct run *s)
{
	char *path = path_of(s->dir, "qlen.txt"), *line = NULL, *tok[2];
	unsigned long lineno = 0;
	bool dumped = false;
	uint64_t t, last = 0, v;
	size_t cap = 0, b;
	char *w, *save;
	FILE *f;

	f = fopen(path, "r");
	if (!f) {
		if (errno != ENOENT)
			die("%s: %s", path, strerror(errno));
		goto out;
	}
	while (getline(&line, &cap, f) >= 0) {
		lineno++;
		if (!strncmp(line, "time:", 5)) {
			if (words(line + 5, tok, 2) != 1 || !parse_dec(tok[0], &t) ||
			    (dumped && t <= last))
				die("%s:%lu: expected \"time: T\", T in ns after the last dump's",
				    path, lineno);
			last = t;
			dumped = true;
			s->nqlen = 0;	/* cumulative: the last dump has all */
			continue;
		}
		save = NULL;
		w = strtok_r(line, " \t\r\n", &save);
		if (!w)
			continue;
		if (!dumped)
			die("%s:%lu: a port's line before the first \"time:\"",
			    path, lineno);
		for (b = 0; w; w = strtok_r(NULL, " \t\r\n", &save), b++) {
			if (!parse_dec(w, &v))
				die("%s:%lu: \"%s\" is not a non-negative integer",
				    path, lineno, w);
			if (b < 2)	/* switch and port */
				continue;
			if (b - 2 >= s->nqlen) {
				s->qlen = xrealloc(s->qlen, (b - 1) *
						   sizeof(*s->qlen));
				s->qlen[s->nqlen++] = 0;
			}
			s->qlen[b - 2] += v;
		}
		if (b < 3)
			die("%s:%lu: expected \"switch port c0 c1 ...\"", path,
			    lineno);
	}
	if (ferror(f))
		die("%s: %s", path, strerror(errno));
	fclose(f);
	if (!dumped)
		die("%s: no \"time:\" line: not HPCC's qlen.txt", path);
	s->has_qlen = true;
	free(line);
out:
	free(path);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The P-th percentile of the n > 0 sorted @v, by the rule of -p. */
static double percentile(const double *v, size_t n, unsigned int p)
{
	size_t i;

	if (hpcc_rule) {
		i = p * n / 100;	/* a[int(len(a) * p)] */
		return v[i < n ? i : n - 1];
	}
	/* Nearest rank in integers: 0.95 * n is inexact in binary. */
	return v[(p * n + 99) / 100 - 1];
}

static void group_stats(struct run *s)
{
	double *v = xrealloc(NULL, s->n * sizeof(*v)), sum;
	size_t i, n, k;
	int g;

	for (g = 0; g < NGROUPS; g++) {
		struct gstat *gs = &s->g[g];

		for (i = n = 0; i < s->n; i++)
			if (g == G_ALL || s->flows[i].bucket == g ||
			    (g == G_INCAST && s->flows[i].incast))
				v[n++] = s->flows[i].slow;
		gs->count = n;
		if (!n)
			continue;
		qsort(v, n, sizeof(*v), cmp_double);
		for (i = 0, sum = 0; i < n; i++)
			sum += v[i];
		gs->avg = sum / n;
		for (k = 0; k < NPCT; k++)
			gs->p[k] = percentile(v, n, pct[k]);
	}
	free(v);
}

/* ---- a run's statistics, and their aggregates over a scheme's runs ---- */

enum {
	S_COMPLETED,
	S_INCOMPLETE,
	S_STUCK,
	S_REORDERS,
	S_DROPS,
	S_DROP_LOSSLESS,
	S_PFC_TX,
	S_KP_TX,
	S_PAUSED_MS,
	S_LAG_P99,
	S_LAG_MAX,
	S_LATE,
	S_IDLE,
	S_QUEUE_AVG,
	S_QUEUE_P99,
	S_QUEUE_SD,
	S_QUEUE_EMPTY,
	S_QUEUE_UTIL,
	S_INCAST_QUEUE_AVG,
	S_INCAST_QUEUE_P99,
	S_CNM_TX,
	S_PACED_JAIN,
	NSTATS
};

static const char *const stat_key[NSTATS] = {
	"completed", "incomplete", "stuck", "reorders", "drops", "drop_lossless",
	"pfc_tx", "kp_tx", "host_paused_ms", "lag_p99_ms", "lag_max_ms", "late", "cpu_idle",
	"queue_avg_kb", "queue_p99_kb", "queue_sd_kb", "queue_empty",
	"queue_util", "incast_queue_avg_kb", "incast_queue_p99_kb", "cnm_tx",
	"paced_jain",
};

/*
 * What to take of a run: a counter, a group's statistic, a named flow, a
 * paced stream's number or one of a per-phase record.
 */
struct key {
	enum { K_STAT, K_GROUP, K_NAMED, K_PACED, K_PHASE } kind;
	int id;			/* S_*, the group, P_* or ph_array vkey[] */
	int field;		/* K_GROUP: 0 count, 1 avg, 2 + k: p[k];
				 * K_PHASE: PH_* */
	const char *name;	/* K_NAMED, K_PACED */
	const struct phrec *rec;	/* K_PHASE: the one like it */
};

static bool have_drops(const struct run *s)
{
	return s->has_stats || s->has_sdrops;
}

static uint64_t drops(const struct run *s)
{
	return s->has_stats ? s->drops : s->sdrops;
}

/*
 * The element of @arr (@n of @size bytes, each beginning with its name,
 * as struct named and struct paced do) named @name, or NULL.
 */
static const void *find_name(const void *arr, size_t n, size_t size,
			     const char *name)
{
	const char *e = arr;
	size_t i;

	for (i = 0; i < n; i++, e += size)
		if (!strcmp(*(const char *const *)e, name))
			return e;
	return NULL;
}

/* The same phase and receiver, or the same phase and stream. */
static bool same_phrec(const struct phrec *p, const struct phrec *q)
{
	return p->phase == q->phase && p->dst == q->dst &&
	       !strcmp(p->name ?: "", q->name ?: "");
}

/* The record of @a in @s like @like, or NULL. */
static const struct phrec *find_phrec(const struct run *s, int a,
				      const struct phrec *like)
{
	size_t i;

	for (i = 0; i < s->nph[a]; i++)
		if (same_phrec(&s->ph[a][i], like))
			return &s->ph[a][i];
	return NULL;
}

/*
 * Jain's index of the goodputs of @s's paced streams, (sum x)^2 / (n sum
 * x^2); false with fewer than two streams or none that got through.
 */
static bool paced_jain(const struct run *s, double *v)
{
	double sum = 0, sq = 0;
	size_t i;

	for (i = 0; i < s->npaced; i++) {
		sum += s->paced[i].v[P_MBPS];
		sq += s->paced[i].v[P_MBPS] * s->paced[i].v[P_MBPS];
	}
	*v = sq > 0 ? sum * sum / (s->npaced * sq) : 0;
	return s->npaced >= 2 && sq > 0;
}

/* The value of @k in run @s; false if the run does not have it. */
static bool get(const struct run *s, const struct key *k, double *v)
{
	const struct gstat *gs;
	const struct named *nf;
	const struct paced *pc;
	const struct phrec *pr;

	switch (k->kind) {
	case K_GROUP:
		gs = &s->g[k->id];
		*v = k->field == 0 ? gs->count :
		     k->field == 1 ? gs->avg : gs->p[k->field - 2];
		return k->field == 0 || gs->count;
	case K_NAMED:
		nf = find_name(s->named, s->nnamed, sizeof(*nf), k->name);
		*v = nf ? nf->mbps : 0;
		return nf;
	case K_PACED:
		pc = find_name(s->paced, s->npaced, sizeof(*pc), k->name);
		*v = pc ? pc->v[k->id] : 0;
		return pc && pc->has & 1u << k->id;
	case K_PHASE:
		pr = find_phrec(s, k->field, k->rec);
		*v = pr ? pr->v[k->id] : 0;
		return pr && pr->has & 1u << k->id;
	case K_STAT:
		break;
	}
	switch (k->id) {
	case S_COMPLETED: *v = s->n; return true;
	case S_INCOMPLETE: *v = s->incomplete; return s->has_incomplete;
	case S_STUCK: *v = s->incomplete > 0; return s->has_incomplete;
	case S_REORDERS: *v = s->reorders; return s->has_reorders;
	case S_DROPS: *v = drops(s); return have_drops(s);
	case S_DROP_LOSSLESS: *v = s->drop_lossless; return s->has_stats;
	case S_PFC_TX: *v = s->pfc_tx; return s->has_stats;
	case S_KP_TX: *v = s->kp_tx; return s->has_stats;
	case S_PAUSED_MS: *v = s->paused_ns / 1e6; return s->has_stats;
	case S_LAG_P99: *v = s->lag_p99_ms; return s->has_lag;
	case S_LAG_MAX: *v = s->lag_max_ms; return s->has_lag;
	case S_LATE: *v = s->late; return s->has_late;
	case S_IDLE: *v = s->idle; return s->has_idle;
	case S_QUEUE_AVG: *v = s->queue.avg / 1e3; return s->queue.has;
	case S_QUEUE_P99: *v = s->queue.p99 / 1e3; return s->queue.has;
	case S_QUEUE_SD: *v = s->queue.sd / 1e3; return s->queue.has_more;
	case S_QUEUE_EMPTY: *v = s->queue.empty; return s->queue.has_more;
	case S_QUEUE_UTIL: *v = s->queue.util; return s->queue.has_util;
	case S_INCAST_QUEUE_AVG:
		*v = s->queue_incast.avg / 1e3;
		return s->queue_incast.has;
	case S_INCAST_QUEUE_P99:
		*v = s->queue_incast.p99 / 1e3;
		return s->queue_incast.has;
	case S_CNM_TX: *v = s->cnm_tx; return s->has_cnm;
	case S_PACED_JAIN: return paced_jain(s, v);
	}
	return false;
}

struct agg {
	size_t n;		/* runs that have it */
	double mean, half;	/* half: of the 95 % interval, n >= 2 */
};

/* Mean and 95 % half-width of @n samples. */
static struct agg sample(const double *v, size_t n)
{
	struct agg a = { .n = n };
	double ss = 0;
	size_t i;

	if (!n)
		return a;
	for (i = 0; i < n; i++)
		a.mean += v[i];
	a.mean /= n;
	for (i = 0; i < n; i++)
		ss += (v[i] - a.mean) * (v[i] - a.mean);
	if (n >= 2)
		a.half = t975(n - 1) * sqrt(ss / (n - 1) / n);
	return a;
}

static struct agg aggregate(const struct scheme *sc, const struct key *k)
{
	double v[sc->nrun];
	size_t i, n = 0;

	for (i = 0; i < sc->nrun; i++)
		n += get(&runs[sc->run[i]], k, &v[n]);
	return sample(v, n);
}

/*
 * @k of @sc minus @k of @ref, seed by seed, over the seeds both ran: the
 * same seed replays the same flows, so the difference leaves out what the
 * seeds alone vary (a paired comparison).
 */
static struct agg paired(const struct scheme *sc, const struct scheme *ref,
			 const struct key *k)
{
	double v[sc->nrun], x, y;
	size_t i, j, n = 0;

	for (i = 0; i < sc->nrun; i++) {
		const struct run *a = &runs[sc->run[i]];

		for (j = 0; j < ref->nrun; j++) {
			const struct run *b = &runs[ref->run[j]];

			if (a->has_seed && b->has_seed && a->seed == b->seed &&
			    get(a, k, &x) && get(b, k, &y)) {
				v[n++] = x - y;
				break;
			}
		}
	}
	return sample(v, n);
}

static struct agg agg_stat(const struct scheme *sc, int id)
{
	struct key k = { .kind = K_STAT, .id = id };

	return aggregate(sc, &k);
}

static struct agg agg_group(const struct scheme *sc, int g, int field)
{
	struct key k = { .kind = K_GROUP, .id = g, .field = field };

	return aggregate(sc, &k);
}

static struct agg agg_named(const struct scheme *sc, const char *name)
{
	struct key k = { .kind = K_NAMED, .name = name };

	return aggregate(sc, &k);
}

static struct agg agg_paced(const struct scheme *sc, const char *name, int id)
{
	struct key k = { .kind = K_PACED, .id = id, .name = name };

	return aggregate(sc, &k);
}

static struct agg agg_phase(const struct scheme *sc, int a,
			    const struct phrec *rec, int id)
{
	struct key k = { .kind = K_PHASE, .id = id, .field = a, .rec = rec };

	return aggregate(sc, &k);
}

static bool show_group(int g)
{
	return g != G_INCAST || any_incast;
}

/*
 * Names of the named flows (@paced: the paced streams) of every run, in
 * order of appearance.
 */
static const char **all_names(bool paced, size_t *np)
{
	const char **names = NULL, *name;
	size_t n = 0, i, j, k;

	for (i = 0; i < nruns; i++)
		for (j = 0; j < (paced ? runs[i].npaced : runs[i].nnamed); j++) {
			name = paced ? runs[i].paced[j].name :
				       runs[i].named[j].name;
			for (k = 0; k < n; k++)
				if (!strcmp(names[k], name))
					break;
			if (k < n)
				continue;
			names = xrealloc(names, (n + 1) * sizeof(*names));
			names[n++] = name;
		}
	*np = n;
	return names;
}

/* Report order: by stream, then phase, then receiver. */
static int cmp_phrec(const void *a, const void *b)
{
	const struct phrec *p = a, *q = b;

	if (p->rank != q->rank)
		return p->rank < q->rank ? -1 : 1;
	if (p->phase != q->phase)
		return p->phase < q->phase ? -1 : 1;
	return (p->dst > q->dst) - (p->dst < q->dst);
}

/*
 * Every (phase, dst), or (phase, name), of @a's records over all runs,
 * once, in report order: by phase and receiver; or by stream, as
 * all_names() orders the paced streams (then those "paced" lacks, as they
 * come), and phase. Only what tells them apart counts: v[] is some run's.
 */
static struct phrec *all_phrecs(int a, size_t *np)
{
	struct phrec *all = NULL;
	const char **names;
	size_t n = 0, nn, i, j, k;

	names = all_names(true, &nn);
	for (i = 0; i < nruns; i++)
		for (j = 0; j < runs[i].nph[a]; j++) {
			const struct phrec *r = &runs[i].ph[a][j];

			for (k = 0; k < n; k++)
				if (same_phrec(&all[k], r))
					break;
			if (k < n)
				continue;
			all = xrealloc(all, (n + 1) * sizeof(*all));
			all[n] = *r;
			all[n].rank = 0;
			if (r->name) {
				for (k = 0; k < nn; k++)
					if (!strcmp(names[k], r->name))
						break;
				if (k == nn) {
					names = xrealloc(names, (nn + 1) *
							 sizeof(*names));
					names[nn++] = r->name;
				}
				all[n].rank = k;
			}
			n++;
		}
	free(names);
	if (n)		/* qsort's base must not be NULL, even for none */
		qsort(all, n, sizeof(*all), cmp_phrec);
	*np = n;
	return all;
}

/* ---- warnings --------------------------------------------------------- */

static char **warnings;
static size_t nwarnings;

static void __attribute__((format(printf, 1, 2))) warn(const char *fmt, ...)
{
	va_list ap;
	char *w;

	va_start(ap, fmt);
	if (vasprintf(&w, fmt, ap) < 0)
		die("out of memory");
	va_end(ap);
	warnings = xrealloc(warnings, (nwarnings + 1) * sizeof(*warnings));
	warnings[nwarnings++] = w;
}

static void find_warnings(void)
{
	size_t i, j, k;

	for (i = 0; i < nruns; i++) {
		const struct run *r = &runs[i];
		char *why = NULL;
		size_t len = 0;
		FILE *m;

		if (!r->untrusted)
			continue;
		m = open_memstream(&why, &len);
		if (!m)
			die("out of memory");
		for (k = 0; r->why && k < json_object_array_length(r->why); k++)
			fprintf(m, "%s%s", k ? "; " : "",
				json_object_get_string(
					json_object_array_get_idx(r->why, k)));
		if (fclose(m))
			die("out of memory");
		warn("%s (%s) is not trusted: %s", r->dir, r->name,
		     len ? why : "the runner said so without a reason");
		free(why);
	}
	/* The same seed must mean the same flows, for every scheme. */
	for (i = 0; i < nruns; i++)
		for (j = 0; j < i; j++) {
			const struct run *a = &runs[j], *b = &runs[i];

			if (!a->has_seed || !b->has_seed || a->seed != b->seed ||
			    !a->md5 || !b->md5 || !strcmp(a->md5, b->md5) ||
			    !strcmp(a->name, b->name))
				continue;
			warn("%s (%s) and %s (%s) both ran seed %" PRIu64
			     " but replayed different flows (flows_md5): not a fair comparison",
			     a->dir, a->name, b->dir, b->name, a->seed);
			break;
		}
}

/* ---- report.txt ------------------------------------------------------- */

/* A text table: cells as strings, each column as wide as its widest. */
struct table {
	int ncol;
	size_t ncell;
	char **cell;
};

static void t_cell(struct table *t, char *s)
{
	if (!s)
		die("out of memory");
	t->cell = xrealloc(t->cell, (t->ncell + 1) * sizeof(*t->cell));
	t->cell[t->ncell++] = s;
}

static void __attribute__((format(printf, 2, 3)))
t_add(struct table *t, const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		s = NULL;
	va_end(ap);
	t_cell(t, s);
}

/* @fmt appended to the last cell. */
static void __attribute__((format(printf, 2, 3)))
t_suffix(struct table *t, const char *fmt, ...)
{
	char *add, *s, **last = &t->cell[t->ncell - 1];
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = vasprintf(&add, fmt, ap);
	va_end(ap);
	if (r < 0)
		return;
	if (asprintf(&s, "%s%s", *last, add) >= 0) {
		free(*last);
		*last = s;
	}
	free(add);
}

/* "-", the mean alone (one run), or mean±half. */
static void t_agg(struct table *t, const struct agg *a, int prec1, int precn)
{
	if (!a->n)
		t_add(t, "-");
	else if (a->n < 2)
		t_add(t, "%.*f", prec1, a->mean);
	else
		t_add(t, "%.*f\u00b1%.*f", precn, a->mean, precn, a->half);
}

/* Columns on the terminal: UTF-8 continuation bytes take none. */
static int cols(const char *s)
{
	int n = 0;

	for (; *s; s++)
		n += ((unsigned char)*s & 0xc0) != 0x80;
	return n;
}

static void t_print(FILE *f, struct table *t)
{
	int w[t->ncol], c;
	size_t i;

	for (c = 0; c < t->ncol; c++)
		w[c] = 0;
	for (i = 0; i < t->ncell; i++)
		if (cols(t->cell[i]) > w[i % t->ncol])
			w[i % t->ncol] = cols(t->cell[i]);
	for (i = 0; i < t->ncell; i++) {
		int pad = w[i % t->ncol] - cols(t->cell[i]);

		c = i % t->ncol;
		if (c)
			fprintf(f, " %*s%s", pad, "", t->cell[i]);
		else
			fprintf(f, "%s%*s", t->cell[i], pad, "");
		if (c == t->ncol - 1)
			fputc('\n', f);
		free(t->cell[i]);
	}
	free(t->cell);
	t->cell = NULL;
	t->ncell = 0;
}

/* ---- the sweep (-s LABEL) --------------------------------------------- */

/*
 * With -s, a scheme named SERIES-N, or SERIES-N followed by letters
 * ("flowsail-8q"), is the point of SERIES at LABEL = N (N >= 1); the
 * others are references. What the sweep shows of each point: the short
 * flows' avg and p99 and all flows' avg slowdown.
 */
static const struct {
	int group, field;	/* field: as agg_group()'s */
	const char *name;
} sweep_metric[] = {
	{ G_LT10K, 1, "<10KB avg" },
	{ G_LT10K, 4, "<10KB p99" },
	{ G_ALL, 1, "all avg" },
};

#define NSWEEP_METRICS	ARRAY_SIZE(sweep_metric)

struct sweep_pt {
	unsigned long x;
	size_t scheme;
};

struct series {
	char *name;
	struct sweep_pt *pt;	/* ascending x */
	size_t npt;
};

static const char *sweep_label;	/* -s */
static struct series *series;
static size_t nseries;
static unsigned long *sweep_x;	/* every series' N, ascending, once */
static size_t nsweep_x;

static bool parse_point(const char *name, size_t *len, unsigned long *x)
{
	const char *dash = strrchr(name, '-');
	char *end;

	if (!dash || dash == name || !isdigit((unsigned char)dash[1]))
		return false;
	errno = 0;
	*x = strtoul(dash + 1, &end, 10);
	if (errno || !*x)
		return false;
	for (; *end; end++)
		if (!isalpha((unsigned char)*end))
			return false;
	*len = dash - name;
	return true;
}

static int cmp_point(const void *a, const void *b)
{
	const struct sweep_pt *p = a, *q = b;

	return (p->x > q->x) - (p->x < q->x);
}

static int cmp_ulong(const void *a, const void *b)
{
	unsigned long x = *(const unsigned long *)a, y = *(const unsigned long *)b;

	return (x > y) - (x < y);
}

static bool in_sweep(size_t scheme)
{
	size_t s, j;

	for (s = 0; s < nseries; s++)
		for (j = 0; j < series[s].npt; j++)
			if (series[s].pt[j].scheme == scheme)
				return true;
	return false;
}

static void find_series(void)
{
	unsigned long x;
	size_t i, s, len;

	for (i = 0; i < nschemes; i++) {
		const char *name = schemes[i].name;
		struct series *se;

		if (!parse_point(name, &len, &x))
			continue;
		for (s = 0; s < nseries; s++)
			if (strlen(series[s].name) == len &&
			    !strncmp(series[s].name, name, len))
				break;
		if (s == nseries) {
			series = xrealloc(series, (nseries + 1) * sizeof(*series));
			series[nseries] = (struct series){
				.name = strndup(name, len) };
			if (!series[nseries++].name)
				die("out of memory");
		}
		se = &series[s];
		se->pt = xrealloc(se->pt, (se->npt + 1) * sizeof(*se->pt));
		se->pt[se->npt++] = (struct sweep_pt){ .x = x, .scheme = i };
	}
	if (!nseries)
		die("-s %s: no scheme is named SERIES-N (flowsail-8q: series flowsail at %s 8)",
		    sweep_label, sweep_label);
	sweep_x = xrealloc(NULL, nschemes * sizeof(*sweep_x));
	for (s = 0; s < nseries; s++) {
		qsort(series[s].pt, series[s].npt, sizeof(*series[s].pt),
		      cmp_point);
		for (i = 1; i < series[s].npt; i++)
			if (series[s].pt[i].x == series[s].pt[i - 1].x)
				die("-s %s: schemes %s and %s are both %s at %lu",
				    sweep_label,
				    schemes[series[s].pt[i - 1].scheme].name,
				    schemes[series[s].pt[i].scheme].name,
				    series[s].name, series[s].pt[i].x);
		for (i = 0; i < series[s].npt; i++)
			sweep_x[nsweep_x++] = series[s].pt[i].x;
	}
	qsort(sweep_x, nsweep_x, sizeof(*sweep_x), cmp_ulong);
	for (i = 1, len = 1; i < nsweep_x; i++)
		if (sweep_x[i] != sweep_x[len - 1])
			sweep_x[len++] = sweep_x[i];
	nsweep_x = len;
}

static struct agg sweep_agg(size_t scheme, size_t m)
{
	return agg_group(&schemes[scheme], sweep_metric[m].group,
			 sweep_metric[m].field);
}

/* One table per metric: a row per series, a column per value of LABEL. */
/* Digits of statistic @k: of a single run's value, and with an interval. */
static void stat_digits(int k, int *one, int *many)
{
	switch (k) {
	case S_LATE:
		*one = 0;
		*many = 1;
		break;
	case S_QUEUE_AVG:
	case S_QUEUE_P99:
	case S_QUEUE_SD:
	case S_INCAST_QUEUE_AVG:
	case S_INCAST_QUEUE_P99:
		*one = *many = 2;
		break;
	case S_QUEUE_EMPTY:
	case S_QUEUE_UTIL:
	case S_PACED_JAIN:
		*one = *many = 4;
		break;
	default:
		*one = *many = 3;
	}
}

/* After @head, statistics @from to @to: a column each, a row per scheme. */
static void stat_table(FILE *f, struct table *t, const char *head, int from,
		       int to)
{
	int k, one, many;
	struct agg a;
	size_t i;

	fprintf(f, "\n%s\n", head);
	t->ncol = 1 + to - from + 1;
	t_add(t, "scheme");
	for (k = from; k <= to; k++)
		t_add(t, "%s", stat_key[k]);
	for (i = 0; i < nschemes; i++) {
		t_add(t, "%s", schemes[i].name);
		for (k = from; k <= to; k++) {
			a = agg_stat(&schemes[i], k);
			stat_digits(k, &one, &many);
			t_agg(t, &a, one, many);
		}
	}
	t_print(f, t);
}

/* The records of @a: a row per scheme and record, when some run has one. */
static void phase_table(FILE *f, struct table *t, int a)
{
	const struct ph_array *d = &ph_array[a];
	size_t i, j, n, have;
	struct phrec *all = all_phrecs(a, &n);
	struct agg ag;
	int k;

	if (!n)
		goto out;
	fprintf(f, "\n%s\n", d->head);
	t->ncol = 3 + d->nv;
	t_add(t, "scheme");
	t_add(t, "%s", d->col[0]);
	t_add(t, "%s", d->col[1]);
	for (k = 0; k < d->nv; k++)
		t_add(t, "%s", d->vkey[k]);
	for (i = 0; i < nschemes; i++)
		for (j = 0; j < n; j++) {
			t_add(t, "%s", schemes[i].name);
			if (a == PH_RECV) {
				t_add(t, "%" PRIu64, all[j].phase);
				t_add(t, "%" PRIu64, all[j].dst);
			} else {
				t_add(t, "%s", all[j].name);
				t_add(t, "%" PRIu64, all[j].phase);
			}
			for (k = 0; k < d->nv; k++) {
				ag = agg_phase(&schemes[i], a, &all[j], k);
				/* the runs with this record: vkey[0] is never null */
				if (!k)
					have = ag.n;
				/* a count: as the counters table has them */
				t_agg(t, &ag, d->digits[k],
				      d->counts & 1u << k ? 1 : d->digits[k]);
				/* a null (M: a stream got nothing) is no sample */
				if (ag.n && ag.n < have)
					t_suffix(t, " (%zu of %zu)", ag.n, have);
			}
		}
	t_print(f, t);
out:
	free(all);
}

static void write_sweep_text(FILE *f)
{
	struct table t = { 0 };
	size_t m, s, j, k, i;
	struct agg a;

	for (m = 0; m < NSWEEP_METRICS; m++) {
		fprintf(f, "\nsweep: %s slowdown against %s", sweep_metric[m].name,
			sweep_label);
		for (i = 0, k = 0; i < nschemes; i++) {
			if (in_sweep(i))
				continue;
			a = sweep_agg(i, m);
			fprintf(f, "%s %s ", k++ ? "," : " (others:",
				schemes[i].name);
			if (a.n >= 2)
				fprintf(f, "%.3f\u00b1%.3f", a.mean, a.half);
			else if (a.n)
				fprintf(f, "%.3f", a.mean);
			else
				fputc('-', f);
		}
		fprintf(f, "%s\n", k ? ")" : "");
		t.ncol = 1 + nsweep_x;
		t_add(&t, "series");
		for (k = 0; k < nsweep_x; k++)
			t_add(&t, "%lu", sweep_x[k]);
		for (s = 0; s < nseries; s++) {
			t_add(&t, "%s", series[s].name);
			for (k = 0, j = 0; k < nsweep_x; k++) {
				if (j < series[s].npt &&
				    series[s].pt[j].x == sweep_x[k]) {
					a = sweep_agg(series[s].pt[j++].scheme, m);
					t_agg(&t, &a, 3, 3);
				} else {
					t_add(&t, "-");
				}
			}
		}
		t_print(f, &t);
	}
}

static const char *rule_text(void)
{
	return hpcc_rule ?
	       "HPCC fct_analysis.py's a[int(n * P/100)], the (floor(P/100 * n) + 1)-th smallest" :
	       "nearest rank, the ceil(P/100 * n)-th smallest";
}

/* The counters table's columns, in order. */
static const struct {
	int stat;
	const char *head;
} counter_col[] = {
	{ S_COMPLETED, "completed" }, { S_INCOMPLETE, "incomplete" },
	{ S_STUCK, "stuck" }, { S_REORDERS, "reorders" }, { S_DROPS, "drops" },
	{ S_DROP_LOSSLESS, "drop_lossless" }, { S_PFC_TX, "pfc_sent" },
	{ S_KP_TX, "keyed_sent" }, { S_CNM_TX, "cnm_sent" },
	{ S_PAUSED_MS, "paused_ms" },
};

/* cnm_sent only when a run has QCN's counts */
static bool counter_shown(size_t c)
{
	return counter_col[c].stat != S_CNM_TX || any_cnm;
}

static void write_text(FILE *f, const char *title)
{
	struct table t = { 0 };
	const char **names;
	size_t i, j, nn, c;
	struct agg a;
	int k, g;

	if (title)
		fprintf(f, "%s\n", title);
	for (i = 0; i < nwarnings; i++)
		fprintf(f, "WARNING: %s\n", warnings[i]);
	fprintf(f, "slowdown = max(1, FCT / standalone FCT); pP = %s\n",
		rule_text());
	fprintf(f, "each cell: the mean over a scheme's runs \u00b1 the half-width of its 95 %% confidence\n"
		"interval (Student t); a scheme with one run: its value\n");
	fprintf(f, "runs:");
	for (i = 0; i < nschemes; i++) {
		const struct scheme *sc = &schemes[i];
		bool any = false;

		fprintf(f, "%s %s %zu", i ? "," : "", sc->name, sc->nrun);
		for (j = 0; j < sc->nrun; j++) {
			const struct run *r = &runs[sc->run[j]];

			if (!r->has_seed)
				continue;
			fprintf(f, "%s%" PRIu64, any ? " " : " (seeds ", r->seed);
			any = true;
		}
		if (any)
			fputc(')', f);
	}
	fputc('\n', f);

	for (g = 0; g < NGROUPS; g++) {
		if (!show_group(g))
			continue;
		fprintf(f, "\nslowdown: %s (%s)\n", group_name[g],
			group_desc[g]);
		t.ncol = 3 + NPCT;
		t_add(&t, "scheme");
		t_add(&t, "count");
		t_add(&t, "avg");
		for (k = 0; k < NPCT; k++)
			t_add(&t, "%s", pct_name[k]);
		for (i = 0; i < nschemes; i++) {
			t_add(&t, "%s", schemes[i].name);
			for (k = 0; k < 2 + NPCT; k++) {
				a = agg_group(&schemes[i], g, k);
				t_agg(&t, &a, k ? 3 : 0, k ? 3 : 1);
			}
		}
		t_print(f, &t);
	}

	if (sweep_label)
		write_sweep_text(f);

	if (nschemes > 1) {
		fprintf(f, "\nslowdown of all flows minus %s's, seed by seed (paired: the same seed replays\n"
			"the same flows), mean \u00b1 95 %% half-width over the seeds both ran; n: those seeds\n",
			schemes[0].name);
		t.ncol = 3 + NPCT;
		t_add(&t, "scheme");
		t_add(&t, "n");
		t_add(&t, "avg");
		for (k = 0; k < NPCT; k++)
			t_add(&t, "%s", pct_name[k]);
		for (i = 1; i < nschemes; i++) {
			struct key key = { .kind = K_GROUP, .id = G_ALL };

			t_add(&t, "%s", schemes[i].name);
			key.field = 1;
			a = paired(&schemes[i], &schemes[0], &key);
			t_add(&t, "%zu", a.n);
			for (k = 1; k < 2 + NPCT; k++) {
				key.field = k;
				a = paired(&schemes[i], &schemes[0], &key);
				if (a.n >= 2)
					t_add(&t, "%+.3f\u00b1%.3f", a.mean, a.half);
				else if (a.n)
					t_add(&t, "%+.3f", a.mean);
				else
					t_add(&t, "-");
			}
		}
		t_print(f, &t);
	}

	names = all_names(false, &nn);
	fprintf(f, "\ncounters (stuck: the share of runs with flows never "
		"completed, a deadlock in a lossless fabric; reorders: "
		"datagrams of completed UDP flows that arrived out of order, "
		"- over TCP; pfc_sent: PFC frames sent by switch ports; "
		"keyed_sent: keyed PAUSEs sent by switch ports; %spaused_ms: "
		"hosts' time paused by PFC or PAUSE frames, not by keyed "
		"ones; named flows in Mbit/s)\n",
		any_cnm ? "cnm_sent: QCN's congestion notifications sent by "
			  "switch ports; " : "");
	t.ncol = 1 + nn;
	for (c = 0; c < ARRAY_SIZE(counter_col); c++)
		t.ncol += counter_shown(c);
	t_add(&t, "scheme");
	for (c = 0; c < ARRAY_SIZE(counter_col); c++)
		if (counter_shown(c))
			t_add(&t, "%s", counter_col[c].head);
	for (j = 0; j < nn; j++)
		t_add(&t, "%s", names[j]);
	for (i = 0; i < nschemes; i++) {
		t_add(&t, "%s", schemes[i].name);
		for (c = 0; c < ARRAY_SIZE(counter_col); c++) {
			if (!counter_shown(c))
				continue;
			k = counter_col[c].stat;
			a = agg_stat(&schemes[i], k);
			/* a share of runs: two places over several */
			t_agg(&t, &a, k == S_PAUSED_MS ? 3 : 0,
			      k == S_PAUSED_MS ? 3 : k == S_STUCK ? 2 : 1);
		}
		for (j = 0; j < nn; j++) {
			a = agg_named(&schemes[i], names[j]);
			t_agg(&t, &a, 2, 2);
		}
	}
	t_print(f, &t);
	free(names);

	names = all_names(true, &nn);
	if (nn) {
		fprintf(f, "\npaced streams (mbps: goodput while the flows ran; "
			"fct_ms: its last byte in, from its scheduled start; "
			"src_pauses: pause frames its source received)\n");
		t.ncol = 2 + NPACED;
		t_add(&t, "scheme");
		t_add(&t, "stream");
		for (k = 0; k < NPACED; k++)
			t_add(&t, "%s", paced_key[k]);
		for (i = 0; i < nschemes; i++)
			for (j = 0; j < nn; j++) {
				t_add(&t, "%s", schemes[i].name);
				t_add(&t, "%s", names[j]);
				for (k = 0; k < NPACED; k++) {
					a = agg_paced(&schemes[i], names[j], k);
					t_agg(&t, &a, k <= P_FCT ? 2 : 0,
					      k <= P_FCT ? 2 : 1);
				}
			}
		t_print(f, &t);
		stat_table(f, &t, "paced fairness (paced_jain: Jain's index "
			   "of a run's paced streams' goodputs, (sum x)^2 / "
			   "(n sum x^2), 1 when they are equal)",
			   S_PACED_JAIN, S_PACED_JAIN);
	}
	free(names);
	phase_table(f, &t, PH_RECV);
	phase_table(f, &t, PH_STREAM);

	if (any_queue)
		stat_table(f, &t, "queue (the switch port whose data queue was "
			   "longest on average while the flows ran: that "
			   "average, its p99 and its standard deviation, "
			   "time-weighted, in kB, the share of the time it "
			   "was empty, and its link's utilization; "
			   "incast_queue: the average and p99 of the switch "
			   "port toward the host most incast flows go to)",
			   S_QUEUE_AVG, S_INCAST_QUEUE_P99);
	if (any_lag)
		stat_table(f, &t, "start lag (lag_ms: how late flows started, "
			   "p99 and max of a run; late: flows started later "
			   "than their own standalone FCT; cpu_idle: the CPU's "
			   "idle share during the traffic)",
			   S_LAG_P99, S_IDLE);
}

/* ---- report.json ------------------------------------------------------ */

static json_object *jnum(bool have, double v)
{
	return have ? json_object_new_double(v) : NULL;
}

static json_object *ju64(bool have, uint64_t v)
{
	return have ? json_object_new_uint64(v) : NULL;
}

static void add(json_object *o, const char *key, json_object *v)
{
	if (!o || json_object_object_add(o, key, v))
		die("out of memory");
}

static json_object *jagg(const struct agg *a)
{
	json_object *o;

	if (!a->n)
		return NULL;
	o = json_object_new_object();
	add(o, "mean", json_object_new_double(a->mean));
	add(o, "ci95", jnum(a->n >= 2, a->half));
	add(o, "n", json_object_new_uint64(a->n));
	return o;
}

/* A record of @a, by what identifies it: {"phase", "dst" or "name"}. */
static json_object *phrec_json(int a, const struct phrec *r)
{
	json_object *o = json_object_new_object();

	add(o, "phase", json_object_new_uint64(r->phase));
	if (a == PH_RECV)
		add(o, "dst", json_object_new_uint64(r->dst));
	else
		add(o, "name", json_object_new_string(r->name));
	return o;
}

static json_object *run_json(const struct run *s)
{
	json_object *o = json_object_new_object(), *named, *groups, *go;
	size_t j;
	int a, g, k;
	double v;
	bool has;

	add(o, "dir", json_object_new_string(s->dir));
	add(o, "seed", ju64(s->has_seed, s->seed));
	add(o, "completed", json_object_new_uint64(s->n));
	add(o, "incomplete", ju64(s->has_incomplete, s->incomplete));
	add(o, "stuck", ju64(s->has_incomplete, s->incomplete > 0));
	add(o, "reorders", ju64(s->has_reorders, s->reorders));
	add(o, "drops", ju64(have_drops(s), drops(s)));
	add(o, "drop_lossless", ju64(s->has_stats, s->drop_lossless));
	add(o, "pfc_tx", ju64(s->has_stats, s->pfc_tx));
	add(o, "kp_tx", ju64(s->has_stats, s->kp_tx));
	if (any_cnm)
		add(o, "cnm_tx", ju64(s->has_cnm, s->cnm_tx));
	add(o, "host_paused_ms", jnum(s->has_stats, s->paused_ns / 1e6));
	add(o, "lag_p99_ms", jnum(s->has_lag, s->lag_p99_ms));
	add(o, "lag_max_ms", jnum(s->has_lag, s->lag_max_ms));
	add(o, "late", ju64(s->has_late, s->late));
	add(o, "cpu_idle", jnum(s->has_idle, s->idle));
	add(o, "queue_avg_kb", jnum(s->queue.has, s->queue.avg / 1e3));
	add(o, "queue_p99_kb", jnum(s->queue.has, s->queue.p99 / 1e3));
	add(o, "queue_sd_kb", jnum(s->queue.has_more, s->queue.sd / 1e3));
	add(o, "queue_empty", jnum(s->queue.has_more, s->queue.empty));
	add(o, "queue_util", jnum(s->queue.has_util, s->queue.util));
	add(o, "incast_queue_avg_kb",
	    jnum(s->queue_incast.has, s->queue_incast.avg / 1e3));
	add(o, "incast_queue_p99_kb",
	    jnum(s->queue_incast.has, s->queue_incast.p99 / 1e3));
	has = paced_jain(s, &v);
	add(o, "paced_jain", jnum(has, v));
	add(o, "trusted", json_object_new_boolean(!s->untrusted));
	named = json_object_new_array();
	add(o, "named", named);
	for (j = 0; j < s->nnamed; j++) {
		json_object *nf = json_object_new_object();

		json_object_array_add(named, nf);
		add(nf, "name", json_object_new_string(s->named[j].name));
		add(nf, "mbps", json_object_new_double(s->named[j].mbps));
	}
	named = json_object_new_array();
	add(o, "paced", named);
	for (j = 0; j < s->npaced; j++) {
		json_object *pc = json_object_new_object();

		json_object_array_add(named, pc);
		add(pc, "name", json_object_new_string(s->paced[j].name));
		for (k = 0; k < NPACED; k++)
			add(pc, paced_key[k],
			    jnum(s->paced[j].has & 1u << k, s->paced[j].v[k]));
	}
	for (a = 0; a < NPH; a++) {
		const struct ph_array *d = &ph_array[a];

		if (!any_ph[a])
			continue;
		named = json_object_new_array();
		add(o, d->key, named);
		for (j = 0; j < s->nph[a]; j++) {
			const struct phrec *r = &s->ph[a][j];
			json_object *pr = phrec_json(a, r);

			json_object_array_add(named, pr);
			for (k = 0; k < d->nv; k++)
				add(pr, d->vkey[k],
				    jnum(r->has & 1u << k, r->v[k]));
		}
	}
	groups = json_object_new_object();
	add(o, "groups", groups);
	for (g = 0; g < NGROUPS; g++) {
		const struct gstat *gs = &s->g[g];

		if (!show_group(g))
			continue;
		go = json_object_new_object();
		add(groups, group_name[g], go);
		add(go, "count", json_object_new_uint64(gs->count));
		add(go, "avg", jnum(gs->count, gs->avg));
		for (k = 0; k < NPCT; k++)
			add(go, pct_name[k], jnum(gs->count, gs->p[k]));
	}
	/* The runner's own summary, verbatim, for what is not above. */
	add(o, "summary", json_object_get(s->summary));
	return o;
}

static json_object *sweep_json(void)
{
	json_object *o = json_object_new_object(), *arr, *se, *pts, *pt;
	size_t s, j;

	add(o, "label", json_object_new_string(sweep_label));
	arr = json_object_new_array();
	for (s = 0; s < nseries; s++) {
		se = json_object_new_object();
		add(se, "name", json_object_new_string(series[s].name));
		pts = json_object_new_array();
		for (j = 0; j < series[s].npt; j++) {
			const struct sweep_pt *p = &series[s].pt[j];

			pt = json_object_new_object();
			add(pt, "x", json_object_new_uint64(p->x));
			add(pt, "scheme",
			    json_object_new_string(schemes[p->scheme].name));
			json_object_array_add(pts, pt);
		}
		add(se, "points", pts);
		json_object_array_add(arr, se);
	}
	add(o, "series", arr);
	return o;
}

static void write_json(const char *path, const char *title)
{
	json_object *top = json_object_new_object(), *arr, *w, *rs, *groups;
	json_object *named, *go, *nf;
	const char **names, **pnames;
	struct phrec *ph[NPH];
	size_t i, j, nn, np, nph[NPH];
	struct agg a;
	int g, k, p;

	add(top, "title", title ? json_object_new_string(title) : NULL);
	add(top, "slowdown",
	    json_object_new_string("max(1, fct_ns / standalone_fct_ns)"));
	add(top, "percentile", json_object_new_string(rule_text()));
	add(top, "interval",
	    json_object_new_string("95 % Student t over a scheme's runs: ci95 is its half-width"));
	add(top, "trusted", json_object_new_boolean(!nwarnings));
	if (sweep_label)
		add(top, "sweep", sweep_json());
	w = json_object_new_array();
	add(top, "warnings", w);
	for (i = 0; i < nwarnings; i++)
		json_object_array_add(w, json_object_new_string(warnings[i]));
	arr = json_object_new_array();
	add(top, "schemes", arr);
	names = all_names(false, &nn);
	pnames = all_names(true, &np);
	for (p = 0; p < NPH; p++)
		ph[p] = all_phrecs(p, &nph[p]);
	for (i = 0; i < nschemes; i++) {
		const struct scheme *sc = &schemes[i];
		json_object *o = json_object_new_object();

		json_object_array_add(arr, o);
		add(o, "scheme", json_object_new_string(sc->name));
		rs = json_object_new_array();
		add(o, "runs", rs);
		for (j = 0; j < sc->nrun; j++)
			json_object_array_add(rs, run_json(&runs[sc->run[j]]));
		for (k = 0; k < NSTATS; k++) {
			if (k == S_CNM_TX && !any_cnm)
				continue;
			a = agg_stat(sc, k);
			add(o, stat_key[k], jagg(&a));
		}
		named = json_object_new_array();
		add(o, "named", named);
		for (j = 0; j < nn; j++) {
			a = agg_named(sc, names[j]);
			if (!a.n)
				continue;
			nf = json_object_new_object();
			json_object_array_add(named, nf);
			add(nf, "name", json_object_new_string(names[j]));
			add(nf, "mbps", jagg(&a));
		}
		named = json_object_new_array();
		add(o, "paced", named);
		for (j = 0; j < np; j++) {
			nf = json_object_new_object();
			json_object_array_add(named, nf);
			add(nf, "name", json_object_new_string(pnames[j]));
			for (k = 0; k < NPACED; k++) {
				a = agg_paced(sc, pnames[j], k);
				add(nf, paced_key[k], jagg(&a));
			}
		}
		for (p = 0; p < NPH; p++) {
			if (!any_ph[p])
				continue;
			named = json_object_new_array();
			add(o, ph_array[p].key, named);
			for (j = 0; j < nph[p]; j++) {
				nf = phrec_json(p, &ph[p][j]);
				json_object_array_add(named, nf);
				for (k = 0; k < ph_array[p].nv; k++) {
					a = agg_phase(sc, p, &ph[p][j], k);
					add(nf, ph_array[p].vkey[k], jagg(&a));
				}
			}
		}
		groups = json_object_new_object();
		add(o, "groups", groups);
		for (g = 0; g < NGROUPS; g++) {
			if (!show_group(g))
				continue;
			go = json_object_new_object();
			add(groups, group_name[g], go);
			for (k = 0; k < 2 + NPCT; k++) {
				a = agg_group(sc, g, k);
				add(go, k == 0 ? "count" : k == 1 ? "avg" :
					pct_name[k - 2], jagg(&a));
			}
		}
		if (!i)
			continue;
		/* all flows' slowdown minus the first scheme's, seed by seed */
		go = json_object_new_object();
		add(o, "paired", go);
		add(go, "vs", json_object_new_string(schemes[0].name));
		for (k = 1; k < 2 + NPCT; k++) {
			struct key key = { .kind = K_GROUP, .id = G_ALL,
					   .field = k };

			a = paired(sc, &schemes[0], &key);
			add(go, k == 1 ? "avg" : pct_name[k - 2], jagg(&a));
		}
	}
	free(names);
	free(pnames);
	for (p = 0; p < NPH; p++)
		free(ph[p]);
	if (json_object_to_file_ext(path, top, JSON_C_TO_STRING_PRETTY |
				    JSON_C_TO_STRING_NOSLASHESCAPE))
		die("%s: %s", path, json_util_get_last_err());
	json_object_put(top);
}

/* ---- slowdown.png ----------------------------------------------------- */

/* A gnuplot single-quoted string: '' is the only escape there. */
static void gp_str(FILE *f, const char *s)
{
	fputc('\'', f);
	for (; *s; s++) {
		if (*s == '\'')
			fputc('\'', f);
		fputc(*s == '\n' || *s == '\r' ? ' ' : *s, f);
	}
	fputc('\'', f);
}

static FILE *create(const char *path)
{
	FILE *f = fopen(path, "w");

	if (!f)
		die("%s: %s", path, strerror(errno));
	return f;
}

/* @png's terminal, @w x @h pixels, as every plot here sets it. */
static void gp_terminal(FILE *f, int w, int h, const char *png)
{
	fprintf(f, "if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {\n"
		   "\tset terminal pngcairo size %d,%d noenhanced font 'sans,11'\n"
		   "} else {\n"
		   "\tset terminal png size %d,%d noenhanced\n"
		   "}\n"
		   "set output '%s'\n", w, h, w, h, png);
}

static void close_out(FILE *f, const char *path)
{
	if (ferror(f) | fclose(f))
		die("%s: write error", path);
}

/* Okabe-Ito colours, which stay apart for colour-blind readers. */
static const char *const colour[] = {
	"#0072b2", "#d55e00", "#009e73", "#cc79a7",
	"#e69f00", "#56b4e9", "#000000", "#999999",
};

static const int point[] = { 7, 5, 9, 13, 11, 3, 1, 2 };

static void write_plot(const char *outdir, const char *title)
{
	double ymax = 1, room;
	bool any;
	char *path, dat[48];
	size_t i;
	int b, k, panel;
	FILE *f;

	for (i = 0; i < nschemes; i++) {
		const struct scheme *sc = &schemes[i];

		snprintf(dat, sizeof(dat), "slowdown-%zu.dat", i + 1);
		path = path_of(outdir, dat);
		f = create(path);
		fprintf(f, "# fcq-report: %s (%zu runs)\n", sc->name, sc->nrun);
		fprintf(f, "# bucket label count avg p50 p95 p99 p95_low p95_high "
			"p99_low p99_high runs: means over the runs with the bucket, "
			"low/high their 95 %% interval (at least 1, as a slowdown); "
			"buckets without flows left out\n");
		for (b = 0; b < NBUCKETS; b++) {
			struct agg a[2 + NPCT];

			for (k = 0; k < 2 + NPCT; k++)
				a[k] = agg_group(sc, FIRST_BUCKET + b, k);
			if (!a[1].n)
				continue;
			fprintf(f, "%d \"%s\"", b, group_name[FIRST_BUCKET + b]);
			for (k = 0; k < 2 + NPCT; k++)
				fprintf(f, " %.9g", a[k].mean);
			for (k = 3; k < 2 + NPCT; k++)
				fprintf(f, " %.9g %.9g",
					fmax(1, a[k].mean - a[k].half),
					a[k].mean + a[k].half);
			fprintf(f, " %zu\n", a[1].n);
			ymax = fmax(ymax, a[1 + NPCT].mean + a[1 + NPCT].half);
		}
		close_out(f, path);
		free(path);
	}

	path = path_of(outdir, "slowdown.gp");
	f = create(path);
	fprintf(f, "# fcq-report: p95 and p99 slowdown per flow size, means "
		"over runs with 95 %% intervals; run: gnuplot slowdown.gp\n");
	gp_terminal(f, 1200, 500, "slowdown.png");
	fprintf(f, "set multiplot layout 1,2 title ");
	gp_str(f, title ? title : "slowdown by flow size");
	fprintf(f, " font ',14'\nset logscale y\n");
	/*
	 * The same y range in both panels, so that they compare. The floor
	 * is a little under 1 so that slowdowns of 1 stay off the border;
	 * above the highest bar, room for the key's lines at the top left
	 * (about 17 of 360 pixels each).
	 */
	room = fmin(0.6, (nschemes * 17.0 + 16) / 360);
	fprintf(f, "set yrange [0.9:%.6g]\n",
		pow(10, fmax(0.3, (log10(ymax) + 0.1) / (1 - room))));
	fprintf(f, "set format y '%%g'\n");
	fprintf(f, "set xrange [-0.4:%.1f]\n", NBUCKETS - 0.6);
	fprintf(f, "set xtics (");
	for (b = 0; b < NBUCKETS; b++)
		fprintf(f, "%s'%s' %d", b ? ", " : "",
			group_name[FIRST_BUCKET + b], b);
	fprintf(f, ")\n");
	fprintf(f, "set xlabel 'flow size'\n"
		   "set ylabel 'slowdown (FCT / ideal FCT), mean and 95%% CI'\n"
		   "set grid ytics mytics\n"
		   "set bars 2\n"
		   "set key top left reverse Left samplen 3\n");
	for (panel = 1; panel <= 2; panel++) {
		fprintf(f, "set title '%s slowdown'\nplot ", pct_name[panel]);
		any = false;
		for (i = 0; i < nschemes; i++) {
			const struct scheme *sc = &schemes[i];

			for (b = 0, k = 0; b < NBUCKETS; b++)
				k += !!agg_group(sc, FIRST_BUCKET + b, 1).n;
			fprintf(f, "%s", i ? ", \\\n\t" : "");
			/* A scheme without flows keeps its place in the key. */
			/* side by side, so that the error bars stay apart */
			if (k)
				fprintf(f, "'slowdown-%zu.dat' using ($1%+.3f):%d:%d:%d with yerrorlines",
					i + 1, 0.06 * (i - (nschemes - 1) / 2.0),
					5 + panel, 6 + 2 * panel, 7 + 2 * panel);
			else
				fprintf(f, "keyentry with linespoints");
			fprintf(f, " lw 2 lc rgb '%s' dt %zu pt %d ps 1.4 title ",
				colour[i % 8], i / 8 + 1, point[i % 8]);
			gp_str(f, sc->name);
			any |= k;
		}
		/* gnuplot refuses a plot without points: draw the frame. */
		if (!any)
			fprintf(f, ", 1/0 notitle");
		fputc('\n', f);
	}
	fprintf(f, "unset multiplot\n");
	close_out(f, path);
	free(path);
}

/* P(q <= @x) of @q's distribution: the share at the last edge at or below. */
static double cdf_at(const struct queue *q, double x)
{
	double p = 0;
	size_t i;

	for (i = 0; i < q->ncdf && q->cdf[i][0] <= x; i++)
		p = q->cdf[i][1];
	return p;
}

/*
 * queue.gp and queue-S.dat (S = the scheme's position, from 1): the
 * deepest switch queue's distribution while the flows ran, P(q <= x), a
 * line per scheme, the mean over its runs; false if no run has one.
 */
static bool write_queue_plot(const char *outdir, const char *title)
{
	double xmax = 0, x, p;
	char *path, dat[48];
	size_t i, j, n, k;
	FILE *f;

	/* up to where every run has 99.9 % of its time */
	for (i = 0; i < nruns; i++) {
		const struct queue *q = &runs[i].queue;

		for (k = 0; k < q->ncdf; k++)
			if (q->cdf[k][1] >= 0.999 || k + 1 == q->ncdf) {
				xmax = fmax(xmax, q->cdf[k][0]);
				break;
			}
	}
	if (xmax <= 0)
		return false;
	for (i = 0; i < nschemes; i++) {
		const struct scheme *sc = &schemes[i];

		snprintf(dat, sizeof(dat), "queue-%zu.dat", i + 1);
		path = path_of(outdir, dat);
		f = create(path);
		fprintf(f, "# fcq-report: %s: kB P(q <= kB), the deepest switch "
			"queue's time at or below, mean over runs\n", sc->name);
		for (k = 0; k <= 200; k++) {
			x = xmax * k / 200;
			for (j = 0, n = 0, p = 0; j < sc->nrun; j++) {
				const struct queue *q = &runs[sc->run[j]].queue;

				if (!q->ncdf)
					continue;
				p += cdf_at(q, x);
				n++;
			}
			if (n)
				fprintf(f, "%.6g %.6g\n", x / 1e3, p / n);
		}
		close_out(f, path);
		free(path);
	}
	path = path_of(outdir, "queue.gp");
	f = create(path);
	fprintf(f, "# fcq-report: the deepest switch queue's distribution, "
		"mean over runs; run: gnuplot queue.gp\n");
	gp_terminal(f, 800, 500, "queue.png");
	fprintf(f, "set title ");
	gp_str(f, title ? title : "the deepest switch queue");
	fprintf(f, "\nset xlabel 'queue (kB)'\n"
		   "set ylabel 'share of the time at or below'\n"
		   "set yrange [0:1.02]\nset grid\n"
		   "set key bottom right\nplot ");
	for (i = 0; i < nschemes; i++) {
		fprintf(f, "%s'queue-%zu.dat' using 1:2 with steps lw 2 lc rgb '%s' dt %zu title ",
			i ? ", \\\n\t" : "", i + 1, colour[i % 8], i / 8 + 1);
		gp_str(f, schemes[i].name);
	}
	fputc('\n', f);
	close_out(f, path);
	free(path);
	return true;
}

/*
 * @base.gp in @outdir, created (its path in *@path), up to its plot's
 * title: a comment saying @what it draws, the terminal of @base.png, @w x
 * @h pixels, and the title, -t's or @title.
 */
static FILE *gp_begin(const char *outdir, const char *base, const char *what,
		      int w, int h, const char *title, char **path)
{
	char name[32];
	FILE *f;

	snprintf(name, sizeof(name), "%s.gp", base);
	*path = path_of(outdir, name);
	f = create(*path);
	fprintf(f, "# fcq-report: %s; run: gnuplot %s\n", what, name);
	snprintf(name, sizeof(name), "%s.png", base);
	gp_terminal(f, w, h, name);
	fprintf(f, "set title ");
	gp_str(f, title);
	fputc('\n', f);
	return f;
}

/*
 * pauses.gp and pauses-S.dat: per scheme, its first run with a pfc.txt,
 * each port that received PFC a row, its paused intervals as bars over
 * time (s, on fct.txt's clock); false if no run has a pfc.txt.
 */
static bool write_pause_plot(const char *outdir, const char *title)
{
	size_t i, j, k, rows = 0, nrows;
	char *gpath, *path, dat[48];
	bool any = false;
	FILE *f, *gp;

	for (i = 0; i < nruns && !runs[i].has_pfc; i++)
		;
	if (i == nruns)
		return false;
	gp = gp_begin(outdir, "pauses", "the ports paused by PFC (pfc.txt), "
		      "a scheme's first run", 1000, 600,
		      title ? title : "ports paused by PFC", &gpath);
	fprintf(gp, "set xlabel 'time (s, on fct.txt''s clock)'\n"
		    "set ylabel 'receiving port'\n"
		    "set grid x\nset key outside top center horizontal\n"
		    "set offsets 0, 0, 1, 1\nplot ");
	for (i = 0; i < nschemes; i++) {
		const struct scheme *sc = &schemes[i];
		const struct run *r = NULL;
		struct pause_iv *seen = NULL;

		for (j = 0; j < sc->nrun && !r; j++)
			if (runs[sc->run[j]].has_pfc)
				r = &runs[sc->run[j]];
		if (!r)
			continue;
		snprintf(dat, sizeof(dat), "pauses-%zu.dat", i + 1);
		path = path_of(outdir, dat);
		f = create(path);
		fprintf(f, "# fcq-report: %s (%s): from_s row length_s \"port\"\n",
			sc->name, r->dir);
		/* a row per port (node/ifindex), in the order it first paused */
		for (k = 0, nrows = 0; k < r->npauses; k++) {
			const struct pause_iv *p = &r->pauses[k];

			for (j = 0; j < nrows; j++)
				if (seen[j].node == p->node &&
				    seen[j].ifindex == p->ifindex)
					break;
			if (j == nrows) {
				seen = xrealloc(seen, ++nrows * sizeof(*seen));
				seen[j] = *p;
			}
			fprintf(f, "%.9f %zu %.9f \"%s %" PRIu64 "/%" PRIu64 "\"\n",
				p->from / 1e9, rows + j, (p->to - p->from) / 1e9,
				sc->name, p->node, p->ifindex);
		}
		close_out(f, path);
		free(path);
		free(seen);
		fprintf(gp, any ? ", \\\n\t" : "");
		if (nrows)
			fprintf(gp, "'%s' using 1:2:3:(0):ytic(4) with vectors nohead lw 5",
				dat);
		else
			fprintf(gp, "keyentry with lines lw 5");
		fprintf(gp, " lc rgb '%s' title ", colour[i % 8]);
		gp_str(gp, sc->name);
		rows += nrows;
		any = true;
	}
	/* gnuplot refuses a plot without points: draw the frame. */
	if (any && !rows)
		fprintf(gp, ", 1/0 notitle");
	fputc('\n', gp);
	close_out(gp, gpath);
	free(gpath);
	return any;
}

/*
 * qlen.gp and qlen-S.dat: per scheme, the share of qlen.txt's samples at
 * or below each 1 kB bucket's upper edge, every switch port and run of the
 * scheme pooled; false if no run has a qlen.txt.
 */
static bool write_qlen_plot(const char *outdir, const char *title)
{
	uint64_t *cnt = NULL, total, sum;
	char *gpath, *path, dat[48];
	size_t i, j, b, nb;
	bool any = false;
	FILE *f, *gp;

	for (i = 0; i < nruns && !runs[i].has_qlen; i++)
		;
	if (i == nruns)
		return false;
	gp = gp_begin(outdir, "qlen", "switch queues sampled (qlen.txt), "
		      "every port and run pooled", 800, 500,
		      title ? title : "switch queue length, sampled", &gpath);
	fprintf(gp, "set xlabel 'queue (kB)'\n"
		    "set ylabel 'share of the samples below'\n"
		    "set yrange [0:1.02]\nset grid\n"
		    "set key bottom right\nplot ");
	for (i = 0; i < nschemes; i++) {
		const struct scheme *sc = &schemes[i];

		for (j = 0, nb = 0; j < sc->nrun; j++) {
			const struct run *r = &runs[sc->run[j]];

			if (!r->has_qlen)
				continue;
			if (r->nqlen > nb) {
				cnt = xrealloc(cnt, r->nqlen * sizeof(*cnt));
				memset(cnt + nb, 0, (r->nqlen - nb) * sizeof(*cnt));
				nb = r->nqlen;
			}
			for (b = 0; b < r->nqlen; b++)
				cnt[b] += r->qlen[b];
		}
		for (b = 0, total = 0; b < nb; b++)
			total += cnt[b];
		if (!total)
			continue;
		snprintf(dat, sizeof(dat), "qlen-%zu.dat", i + 1);
		path = path_of(outdir, dat);
		f = create(path);
		fprintf(f, "# fcq-report: %s: kB P(q < kB), of qlen.txt's samples\n",
			sc->name);
		fprintf(f, "0 0\n");
		for (b = 0, sum = 0; b < nb; b++) {
			sum += cnt[b];
			cnt[b] = 0;
			fprintf(f, "%zu %.6g\n", b + 1, (double)sum / total);
		}
		close_out(f, path);
		free(path);
		fprintf(gp, "%s'%s' using 1:2 with steps lw 2 lc rgb '%s' dt %zu title ",
			any ? ", \\\n\t" : "", dat, colour[i % 8], i / 8 + 1);
		gp_str(gp, sc->name);
		any = true;
	}
	free(cnt);
	fputc('\n', gp);
	close_out(gp, gpath);
	free(gpath);
	return any;
}

/*
 * sweep.gp and its data files sweep-S.dat (S = the series' position, from
 * 1): a panel per metric against LABEL on a log2 axis, a line per series
 * with the 95 % intervals as error bars, the other schemes as dashed
 * horizontal lines at their means.
 */
static void write_sweep_plot(const char *outdir, const char *title)
{
	size_t s, j, m, i, n;
	double ymax = 1;
	char *path, dat[48];
	struct agg a;
	FILE *f;

	for (s = 0; s < nseries; s++) {
		snprintf(dat, sizeof(dat), "sweep-%zu.dat", s + 1);
		path = path_of(outdir, dat);
		f = create(path);
		fprintf(f, "# fcq-report: series %s against %s\n# x", series[s].name,
			sweep_label);
		for (m = 0; m < NSWEEP_METRICS; m++)
			fprintf(f, " \"%s\" low high", sweep_metric[m].name);
		fprintf(f, ": means over the runs, low/high their 95 %% interval (at least 1)\n");
		for (j = 0; j < series[s].npt; j++) {
			fprintf(f, "%lu", series[s].pt[j].x);
			for (m = 0; m < NSWEEP_METRICS; m++) {
				a = sweep_agg(series[s].pt[j].scheme, m);
				if (!a.n) {
					fprintf(f, " NaN NaN NaN");
					continue;
				}
				fprintf(f, " %.9g %.9g %.9g", a.mean,
					fmax(1, a.mean - a.half), a.mean + a.half);
				ymax = fmax(ymax, a.mean + a.half);
			}
			fputc('\n', f);
		}
		close_out(f, path);
		free(path);
	}
	for (i = 0; i < nschemes; i++) {
		if (in_sweep(i))
			continue;
		for (m = 0; m < NSWEEP_METRICS; m++)
			ymax = fmax(ymax, sweep_agg(i, m).mean);
	}

	path = path_of(outdir, "sweep.gp");
	f = create(path);
	fprintf(f, "# fcq-report: slowdown against %s, means over runs with 95 %% "
		"intervals; run: gnuplot sweep.gp\n", sweep_label);
	gp_terminal(f, 1500, 500, "sweep.png");
	fprintf(f, "set multiplot layout 1,3 title ");
	gp_str(f, title ? title : "slowdown");
	fprintf(f, " font ',14'\nset logscale xy 2\nset format y '%%g'\n");
	fprintf(f, "set yrange [0.9:%.6g]\n", pow(2, ceil(log2(ymax) + 0.5)));
	fprintf(f, "set xrange [%.6g:%.6g]\n", sweep_x[0] / 1.4,
		sweep_x[nsweep_x - 1] * 1.4);
	fprintf(f, "set xtics (");
	for (j = 0; j < nsweep_x; j++)
		fprintf(f, "%s'%lu' %lu", j ? ", " : "", sweep_x[j], sweep_x[j]);
	fprintf(f, ")\nset xlabel ");
	gp_str(f, sweep_label);
	fprintf(f, "\nset ylabel 'slowdown (FCT / ideal FCT), mean and 95%% CI'\n"
		   "set grid xtics ytics\n"
		   "set bars 2\n"
		   "set key top right opaque samplen 3\n");
	for (m = 0; m < NSWEEP_METRICS; m++) {
		fprintf(f, "set title '%s slowdown'\nplot ", sweep_metric[m].name);
		for (s = 0; s < nseries; s++) {
			fprintf(f, "%s'sweep-%zu.dat' using 1:%zu:%zu:%zu with yerrorlines",
				s ? ", \\\n\t" : "", s + 1, 2 + 3 * m,
				3 + 3 * m, 4 + 3 * m);
			fprintf(f, " lw 2 lc rgb '%s' pt %d ps 1.4 title ",
				colour[s % 8], point[s % 8]);
			gp_str(f, series[s].name);
		}
		for (i = 0, n = 0; i < nschemes; i++) {
			if (in_sweep(i))
				continue;
			a = sweep_agg(i, m);
			if (!a.n)
				continue;
			fprintf(f, ", \\\n\t%.9g with lines lw 2 dt 2 lc rgb '%s' title ",
				a.mean, colour[(nseries + n++) % 8]);
			gp_str(f, schemes[i].name);
		}
		fputc('\n', f);
	}
	fprintf(f, "unset multiplot\n");
	close_out(f, path);
	free(path);
}

/* gnuplot @base.gp in @outdir, which draws @base.png. */
static void run_gnuplot(const char *outdir, const char *base)
{
	char gp[32], name[32], *png;
	struct stat st;
	int status;
	pid_t pid;

	snprintf(gp, sizeof(gp), "%s.gp", base);
	snprintf(name, sizeof(name), "%s.png", base);
	png = path_of(outdir, name);

	/* Never leave an old figure behind that looks like this run's. */
	if (unlink(png) && errno != ENOENT)
		die("%s: %s", png, strerror(errno));
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		die("fork: %s", strerror(errno));
	if (!pid) {
		if (chdir(outdir)) {
			fprintf(stderr, "fcq-report: %s: %s\n", outdir,
				strerror(errno));
			_exit(127);
		}
		execlp("gnuplot", "gnuplot", gp, (char *)NULL);
		fprintf(stderr, "fcq-report: cannot run gnuplot (Debian: gnuplot-nox): %s\n",
			strerror(errno));
		_exit(127);
	}
	if (waitpid(pid, &status, 0) < 0)
		die("waitpid: %s", strerror(errno));
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		/* A figure cut short by an error is no result either. */
		unlink(png);
		free(png);
		die("gnuplot %s/%s failed (%s %d): no %s; "
		    "report.txt and report.json are written",
		    outdir, gp, WIFEXITED(status) ? "exit status" : "signal",
		    WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status), name);
	}
	if (stat(png, &st) || !st.st_size)
		die("gnuplot %s/%s wrote no %s", outdir, gp, png);
	free(png);
}

/* gnuplot @base.gp if @drawn, else remove an older @base.png. */
static void gnuplot_if(const char *outdir, const char *base, bool drawn)
{
	char name[32], *png;

	if (drawn) {
		run_gnuplot(outdir, base);
		return;
	}
	snprintf(name, sizeof(name), "%s.png", base);
	png = path_of(outdir, name);
	if (unlink(png) && errno != ENOENT)	/* not this report's */
		die("%s: %s", png, strerror(errno));
	free(png);
}

/* ---- input: runs, grouped into schemes ------------------------------ */

static bool has_fct(const char *dir)
{
	char *p = path_of(dir, "fct.txt");
	bool r = !access(p, F_OK);

	free(p);
	return r;
}

static void add_run(const char *dir)
{
	size_t len = strlen(dir);

	runs = xrealloc(runs, (nruns + 1) * sizeof(*runs));
	memset(&runs[nruns], 0, sizeof(*runs));
	runs[nruns].dir = strdup(dir);
	if (!runs[nruns].dir)
		die("out of memory");
	/* "dir/" and "dir" are one run: no "//" in what we print */
	while (len > 1 && runs[nruns].dir[len - 1] == '/')
		runs[nruns].dir[--len] = '\0';
	nruns++;
}

static int not_hidden(const struct dirent *d)
{
	return d->d_name[0] != '.';
}

/* A run, or the runs among the subdirectories of @dir. */
static void expand(const char *dir)
{
	struct dirent **ls;
	size_t before = nruns;
	int n, i;

	if (has_fct(dir)) {
		add_run(dir);
		return;
	}
	n = scandir(dir, &ls, not_hidden, versionsort);
	if (n < 0)
		die("%s: %s", dir, strerror(errno));
	for (i = 0; i < n; i++) {
		char *sub = path_of(dir, ls[i]->d_name);

		if (has_fct(sub))
			add_run(sub);
		free(sub);
		free(ls[i]);
	}
	free(ls);
	if (nruns == before)
		die("%s: neither a run (no fct.txt) nor a directory of runs",
		    dir);
}

static void group_runs(void)
{
	size_t i, j;

	for (i = 0; i < nruns; i++) {
		for (j = 0; j < nschemes; j++)
			if (!strcmp(schemes[j].name, runs[i].name))
				break;
		if (j == nschemes) {
			schemes = xrealloc(schemes,
					   (nschemes + 1) * sizeof(*schemes));
			schemes[nschemes++] = (struct scheme){
				.name = runs[i].name };
		}
		schemes[j].run = xrealloc(schemes[j].run, (schemes[j].nrun + 1) *
					  sizeof(*schemes[j].run));
		schemes[j].run[schemes[j].nrun++] = i;
	}
}

int main(int argc, char **argv)
{
	const char *outdir = ".", *title = NULL;
	char *txt, *path, *path2, *report = NULL;
	size_t len = 0, i;
	bool queue_plot, pause_plot, qlen_plot;
	FILE *f;
	int c;

	static const struct option long_opts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};

	while ((c = getopt_long(argc, argv, "ho:t:p:s:", long_opts, NULL)) != -1) {
		switch (c) {
		case 'o':
			outdir = optarg;
			break;
		case 's':
			sweep_label = optarg;
			break;
		case 't':
			title = optarg;
			break;
		case 'p':
			if (strcmp(optarg, "nearest") && strcmp(optarg, "hpcc")) {
				fprintf(stderr, "fcq-report: -p %s: nearest or hpcc\n",
					optarg);
				usage(stderr);
				return 2;
			}
			hpcc_rule = !strcmp(optarg, "hpcc");
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind >= argc || !*outdir || (sweep_label && !*sweep_label)) {
		usage(stderr);
		return 2;
	}

	/* Read everything first: bad input leaves no half-written report. */
	for (; optind < argc; optind++)
		expand(argv[optind]);
	for (i = 0; i < nruns; i++) {
		struct run *s = &runs[i];

		read_scheme_name(s);
		read_fct(s);
		read_summary(s);
		read_seed(s);
		read_stats(s);
		read_pfc(s);
		read_qlen(s);
		group_stats(s);
	}
	group_runs();
	if (sweep_label)
		find_series();
	find_warnings();

	if (mkdir(outdir, 0777) && errno != EEXIST)
		die("%s: %s", outdir, strerror(errno));
	f = open_memstream(&report, &len);
	if (!f)
		die("out of memory");
	write_text(f, title);
	if (fclose(f))
		die("out of memory");
	txt = path_of(outdir, "report.txt");
	f = create(txt);
	fputs(report, f);
	close_out(f, txt);
	path = path_of(outdir, "report.json");
	json_c_set_serialization_double_format("%.15g", JSON_C_OPTION_GLOBAL);
	write_json(path, title);
	write_plot(outdir, title);
	if (sweep_label)
		write_sweep_plot(outdir, title);
	queue_plot = write_queue_plot(outdir, title);
	pause_plot = write_pause_plot(outdir, title);
	qlen_plot = write_qlen_plot(outdir, title);
	fputs(report, stdout);
	run_gnuplot(outdir, "slowdown");
	gnuplot_if(outdir, "queue", queue_plot);
	gnuplot_if(outdir, "pauses", pause_plot);
	gnuplot_if(outdir, "qlen", qlen_plot);
	path2 = path_of(outdir, "sweep.png");
	if (sweep_label)
		run_gnuplot(outdir, "sweep");
	else if (unlink(path2) && errno != ENOENT)	/* not this report's */
		die("%s: %s", path2, strerror(errno));
	free(path2);
	for (i = 0; i < nwarnings; i++)
		fprintf(stderr, "fcq-report: WARNING: %s\n", warnings[i]);

	free(txt);
	free(path);
	free(report);
	for (i = 0; i < nruns; i++) {
		free(runs[i].dir);
		free(runs[i].name);
		free(runs[i].flows);
		free(runs[i].named);
		free(runs[i].paced);
		free(runs[i].ph[PH_RECV]);
		free(runs[i].ph[PH_STREAM]);
		free(runs[i].queue.cdf);
		free(runs[i].queue_incast.cdf);
		json_object_put(runs[i].summary);
	}
	for (i = 0; i < nschemes; i++)
		free(schemes[i].run);
	free(schemes);
	for (i = 0; i < nseries; i++) {
		free(series[i].name);
		free(series[i].pt);
	}
	free(series);
	free(sweep_x);
	free(runs);
	for (i = 0; i < nwarnings; i++)
		free(warnings[i]);
	free(warnings);
	return nwarnings ? 3 : 0;
}
