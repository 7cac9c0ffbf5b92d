// SPDX-License-Identifier: GPL-2.0
/*
 * fcq-report - compare flow-control schemes run on the same experiment.
 *
 *   fcq-report [-o OUTDIR] [-t TITLE] DIR...
 *   fcq-report -h | --help
 *
 * Each DIR is one scheme's run of the experiment:
 *   scheme        one line, the scheme's name.
 *   fct.txt       one line per completed flow, the HPCC simulator's columns
 *                 "sip dip sport dport size start_ns fct_ns
 *                 standalone_fct_ns": sip/dip up to 8 hex digits, the rest
 *                 decimal integers (bytes, ns). Blank lines are skipped.
 *   summary.json  optional, from the experiment runner: {"incomplete":M,
 *                 "drops":D, "named":[{"name":"victim","mbps":12.3}], ...}.
 *   stats.json    optional: [{"netns","dev","role":"switch"|"host",
 *                 "tc":OBJ}] where OBJ is one fcq qdisc of
 *                 "tc -j -s qdisc show".
 *
 * Computation (selftests/tools/report_test.sh recomputes it):
 *   slowdown    = max(1, fct_ns / standalone_fct_ns) per flow, as HPCC's
 *                 analysis/fct_analysis.py; standalone_fct_ns must be > 0.
 *   groups      "all" flows; by size in bytes: "<10KB" (size < 10000),
 *               "10KB-100KB" (< 100000), "100KB-1MB" (< 1000000), ">=1MB"
 *               (the rest); "incast": dport 200 (HPCC: 100 is normal, 200
 *               incast), reported when any DIR has such a flow.
 *   per group   count; avg = arithmetic mean of the slowdowns; p50, p95,
 *               p99 by nearest rank: pP is the ceil(P/100 * n)-th smallest
 *               slowdown (1-based), computed in integers as
 *               rank = (P * n + 99) / 100. An empty group has count 0 and
 *               no statistics (null in JSON, "-" in text).
 *   completed   = number of flows (non-blank lines) in fct.txt.
 *   incomplete  = summary.json "incomplete".
 *   from stats.json, a missing key counting 0:
 *     pfc_tx         = sum of tc.prio[].pfc_tx over entries of role "switch"
 *     host_paused_ms = sum of tc.prio[].paused_ns over role "host", / 1e6
 *     drops          = sum of tc.drops over all entries
 *     drop_lossless  = sum of tc.drop_lossless over all entries
 *   Without stats.json these are null ("-"), except drops, which is then
 *   summary.json's "drops" if there is one.
 *   named       = summary.json "named" flows' Mbit/s, as written.
 *
 * Writes to OUTDIR (default "."): report.txt (also printed on stdout),
 * report.json, slowdown.gp with its data files slowdown-N.dat (N = the
 * DIR's position, from 1), and slowdown.png, which slowdown.gp draws with
 * gnuplot: p95 and p99 slowdown per size bucket, one line per scheme.
 * report.json: {"title", "schemes": [{"scheme", "dir", "completed",
 * "incomplete", "drops", "drop_lossless", "pfc_tx", "host_paused_ms",
 * "named": [{"name", "mbps"}], "groups": {GROUP: {"count", "avg", "p50",
 * "p95", "p99"}}, "summary": summary.json as read}]}, in the order of DIRs.
 *
 * Exit status: 0 done; 1 unreadable input (the message names the file and,
 * where there is one, the line), an output that cannot be written, or
 * gnuplot failed; 2 usage error.
 */
#include <ctype.h>
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

enum {
	G_ALL,
	G_LT10K,
	G_LT100K,
	G_LT1M,
	G_GE1M,
	G_INCAST,
	NGROUPS
};

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
	const char *name;
	double mbps;
};

struct scheme {
	const char *dir;
	char *name;
	struct flow *flows;
	size_t n, cap;
	struct gstat g[NGROUPS];

	json_object *summary;	/* owns the strings in named[] */
	bool has_incomplete, has_sdrops;
	uint64_t incomplete, sdrops;
	struct named *named;
	size_t nnamed;

	bool has_stats;
	uint64_t pfc_tx, paused_ns, drops, drop_lossless;
};

static struct scheme *schemes;
static size_t nschemes;
static bool any_incast;

static void usage(FILE *f)
{
	fprintf(f,
		"usage: fcq-report [-o OUTDIR] [-t TITLE] DIR...\n"
		"       fcq-report -h | --help\n"
		"  DIR: one scheme's run: scheme, fct.txt (HPCC columns),\n"
		"       optional summary.json and stats.json\n"
		"  -o OUTDIR  where to write report.txt, report.json,\n"
		"             slowdown.png (default: .)\n"
		"  -t TITLE   the figure's and the report's title\n"
		"  -h, --help print this help and exit\n");
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

static void read_scheme_name(struct scheme *s)
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

static void read_fct(struct scheme *s)
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

static void read_summary(struct scheme *s)
{
	char *path = path_of(s->dir, "summary.json");
	json_object *o = read_json(path), *named, *e, *v;
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
	if (json_object_object_get_ex(o, "drops", NULL)) {
		s->has_sdrops = true;
		s->sdrops = get_count(o, "drops", path, "");
	}
	if (!json_object_object_get_ex(o, "named", &named))
		goto out;
	if (!json_object_is_type(named, json_type_array))
		die("%s: \"named\": expected an array", path);
	n = json_object_array_length(named);
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

static void read_stats(struct scheme *s)
{
	char *path = path_of(s->dir, "stats.json");
	json_object *o = read_json(path), *e, *tc, *role, *prio, *p;
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

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static void group_stats(struct scheme *s)
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
		/* Nearest rank in integers: 0.95 * n is inexact in binary. */
		for (k = 0; k < NPCT; k++)
			gs->p[k] = v[(pct[k] * n + 99) / 100 - 1];
	}
	free(v);
}

static bool show_group(int g)
{
	return g != G_INCAST || any_incast;
}

/* Names of the named flows of every scheme, in order of appearance. */
static const char **all_named(size_t *np)
{
	const char **names = NULL;
	size_t n = 0, i, j, k;

	for (i = 0; i < nschemes; i++)
		for (j = 0; j < schemes[i].nnamed; j++) {
			for (k = 0; k < n; k++)
				if (!strcmp(names[k], schemes[i].named[j].name))
					break;
			if (k < n)
				continue;
			names = xrealloc(names, (n + 1) * sizeof(*names));
			names[n++] = schemes[i].named[j].name;
		}
	*np = n;
	return names;
}

static const struct named *find_named(const struct scheme *s, const char *name)
{
	size_t i;

	for (i = 0; i < s->nnamed; i++)
		if (!strcmp(s->named[i].name, name))
			return &s->named[i];
	return NULL;
}

static bool have_drops(const struct scheme *s)
{
	return s->has_stats || s->has_sdrops;
}

static uint64_t drops(const struct scheme *s)
{
	return s->has_stats ? s->drops : s->sdrops;
}

static void put_u64(FILE *f, int w, bool have, uint64_t v)
{
	if (have)
		fprintf(f, " %*" PRIu64, w, v);
	else
		fprintf(f, " %*s", w, "-");
}

static void put_dbl(FILE *f, int w, bool have, double v, int prec)
{
	if (have)
		fprintf(f, " %*.*f", w, prec, v);
	else
		fprintf(f, " %*s", w, "-");
}

static void write_text(FILE *f, const char *title)
{
	int w = 8, nw, k, g;
	const char **names;
	size_t i, j, nn;

	for (i = 0; i < nschemes; i++)
		if ((int)strlen(schemes[i].name) > w)
			w = strlen(schemes[i].name);
	if (title)
		fprintf(f, "%s\n", title);
	fprintf(f, "slowdown = max(1, FCT / standalone FCT); "
		"pP = nearest rank, the ceil(P/100 * n)-th smallest\n");

	for (g = 0; g < NGROUPS; g++) {
		if (!show_group(g))
			continue;
		fprintf(f, "\nslowdown: %s (%s)\n", group_name[g],
			group_desc[g]);
		fprintf(f, "%-*s %8s %10s", w, "scheme", "count", "avg");
		for (k = 0; k < NPCT; k++)
			fprintf(f, " %10s", pct_name[k]);
		fputc('\n', f);
		for (i = 0; i < nschemes; i++) {
			const struct gstat *gs = &schemes[i].g[g];

			fprintf(f, "%-*s %8zu", w, schemes[i].name, gs->count);
			put_dbl(f, 10, gs->count, gs->avg, 3);
			for (k = 0; k < NPCT; k++)
				put_dbl(f, 10, gs->count, gs->p[k], 3);
			fputc('\n', f);
		}
	}

	names = all_named(&nn);
	fprintf(f, "\ncounters (pfc_sent: PFC frames sent by switch ports; "
		"paused_ms: hosts' paused time; named flows in Mbit/s)\n");
	fprintf(f, "%-*s %9s %10s %9s %13s %9s %11s", w, "scheme", "completed",
		"incomplete", "drops", "drop_lossless", "pfc_sent", "paused_ms");
	for (j = 0; j < nn; j++) {
		nw = strlen(names[j]) > 8 ? (int)strlen(names[j]) : 8;
		fprintf(f, " %*s", nw, names[j]);
	}
	fputc('\n', f);
	for (i = 0; i < nschemes; i++) {
		const struct scheme *s = &schemes[i];

		fprintf(f, "%-*s %9zu", w, s->name, s->n);
		put_u64(f, 10, s->has_incomplete, s->incomplete);
		put_u64(f, 9, have_drops(s), drops(s));
		put_u64(f, 13, s->has_stats, s->drop_lossless);
		put_u64(f, 9, s->has_stats, s->pfc_tx);
		put_dbl(f, 11, s->has_stats, s->paused_ns / 1e6, 3);
		for (j = 0; j < nn; j++) {
			const struct named *nf = find_named(s, names[j]);

			nw = strlen(names[j]) > 8 ? (int)strlen(names[j]) : 8;
			put_dbl(f, nw, nf, nf ? nf->mbps : 0, 2);
		}
		fputc('\n', f);
	}
	free(names);
}

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

static void write_json(const char *path, const char *title)
{
	json_object *top = json_object_new_object(), *arr, *groups, *named;
	size_t i, j;
	int g, k;

	add(top, "title", title ? json_object_new_string(title) : NULL);
	add(top, "slowdown",
	    json_object_new_string("max(1, fct_ns / standalone_fct_ns)"));
	add(top, "percentile",
	    json_object_new_string("nearest rank: the ceil(P/100 * n)-th smallest"));
	arr = json_object_new_array();
	add(top, "schemes", arr);
	for (i = 0; i < nschemes; i++) {
		struct scheme *s = &schemes[i];
		json_object *o = json_object_new_object();

		json_object_array_add(arr, o);
		add(o, "scheme", json_object_new_string(s->name));
		add(o, "dir", json_object_new_string(s->dir));
		add(o, "completed", json_object_new_uint64(s->n));
		add(o, "incomplete", ju64(s->has_incomplete, s->incomplete));
		add(o, "drops", ju64(have_drops(s), drops(s)));
		add(o, "drop_lossless", ju64(s->has_stats, s->drop_lossless));
		add(o, "pfc_tx", ju64(s->has_stats, s->pfc_tx));
		add(o, "host_paused_ms", jnum(s->has_stats, s->paused_ns / 1e6));
		named = json_object_new_array();
		add(o, "named", named);
		for (j = 0; j < s->nnamed; j++) {
			json_object *nf = json_object_new_object();

			json_object_array_add(named, nf);
			add(nf, "name", json_object_new_string(s->named[j].name));
			add(nf, "mbps", json_object_new_double(s->named[j].mbps));
		}
		groups = json_object_new_object();
		add(o, "groups", groups);
		for (g = 0; g < NGROUPS; g++) {
			const struct gstat *gs = &s->g[g];
			json_object *go;

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
	}
	if (json_object_to_file_ext(path, top, JSON_C_TO_STRING_PRETTY |
				    JSON_C_TO_STRING_NOSLASHESCAPE))
		die("%s: %s", path, json_util_get_last_err());
	json_object_put(top);
}

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

static void close_out(FILE *f, const char *path)
{
	if (ferror(f) | fclose(f))
		die("%s: write error", path);
}

static void write_plot(const char *outdir, const char *title)
{
	/* Okabe-Ito colours, which stay apart for colour-blind readers. */
	static const char *const colour[] = {
		"#0072b2", "#d55e00", "#009e73", "#cc79a7",
		"#e69f00", "#56b4e9", "#000000", "#999999",
	};
	static const int point[] = { 7, 5, 9, 13, 11, 3, 1, 2 };
	double ymax = 1, room;
	bool any;
	char *path, dat[48];
	size_t i;
	int b, k, panel;
	FILE *f;

	for (i = 0; i < nschemes; i++) {
		const struct scheme *s = &schemes[i];

		snprintf(dat, sizeof(dat), "slowdown-%zu.dat", i + 1);
		path = path_of(outdir, dat);
		f = create(path);
		fprintf(f, "# fcq-report: %s (%s)\n", s->name, s->dir);
		fprintf(f, "# bucket label count avg p50 p95 p99; "
			"buckets without flows left out\n");
		for (b = 0; b < NBUCKETS; b++) {
			const struct gstat *gs = &s->g[FIRST_BUCKET + b];

			if (!gs->count)
				continue;
			fprintf(f, "%d \"%s\" %zu %.9g", b,
				group_name[FIRST_BUCKET + b], gs->count, gs->avg);
			for (k = 0; k < NPCT; k++)
				fprintf(f, " %.9g", gs->p[k]);
			fputc('\n', f);
			ymax = fmax(ymax, gs->p[NPCT - 1]);
		}
		close_out(f, path);
		free(path);
	}

	path = path_of(outdir, "slowdown.gp");
	f = create(path);
	fprintf(f, "# fcq-report: p95 and p99 slowdown per flow size; "
		"run: gnuplot slowdown.gp\n");
	fprintf(f, "if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {\n"
		   "\tset terminal pngcairo size 1200,500 noenhanced font 'sans,11'\n"
		   "} else {\n"
		   "\tset terminal png size 1200,500 noenhanced\n"
		   "}\n"
		   "set output 'slowdown.png'\n");
	fprintf(f, "set multiplot layout 1,2 title ");
	gp_str(f, title ? title : "slowdown by flow size");
	fprintf(f, " font ',14'\nset logscale y\n");
	/*
	 * The same y range in both panels, so that they compare. The floor
	 * is a little under 1 so that slowdowns of 1 stay off the border;
	 * above the highest point, room for the key's lines at the top left
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
		   "set ylabel 'slowdown (FCT / ideal FCT)'\n"
		   "set grid ytics mytics\n"
		   "set key top left reverse Left samplen 3\n");
	for (panel = 1; panel <= 2; panel++) {
		fprintf(f, "set title '%s slowdown'\nplot ", pct_name[panel]);
		any = false;
		for (i = 0; i < nschemes; i++) {
			const struct scheme *s = &schemes[i];

			for (b = 0, k = 0; b < NBUCKETS; b++)
				k += !!s->g[FIRST_BUCKET + b].count;
			fprintf(f, "%s", i ? ", \\\n\t" : "");
			/* A scheme without flows keeps its place in the key. */
			if (k)
				fprintf(f, "'slowdown-%zu.dat' using 1:%d", i + 1,
					5 + panel);
			else
				fprintf(f, "keyentry");
			fprintf(f, " with linespoints lw 2 lc rgb '%s' dt %zu pt %d ps 1.4 title ",
				colour[i % 8], i / 8 + 1, point[i % 8]);
			gp_str(f, s->name);
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

static void run_gnuplot(const char *outdir)
{
	char *png = path_of(outdir, "slowdown.png");
	struct stat st;
	int status;
	pid_t pid;

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
		execlp("gnuplot", "gnuplot", "slowdown.gp", (char *)NULL);
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
		die("gnuplot %s/slowdown.gp failed (%s %d): no slowdown.png; "
		    "report.txt and report.json are written",
		    outdir, WIFEXITED(status) ? "exit status" : "signal",
		    WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
	}
	if (stat(png, &st) || !st.st_size)
		die("gnuplot %s/slowdown.gp wrote no %s", outdir, png);
	free(png);
}

int main(int argc, char **argv)
{
	const char *outdir = ".", *title = NULL;
	char *txt, *path, *report = NULL;
	size_t len = 0, i, j;
	FILE *f;
	int c;

	static const struct option long_opts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};

	while ((c = getopt_long(argc, argv, "ho:t:", long_opts, NULL)) != -1) {
		switch (c) {
		case 'o':
			outdir = optarg;
			break;
		case 't':
			title = optarg;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind >= argc || !*outdir) {
		usage(stderr);
		return 2;
	}

	/* Read everything first: bad input leaves no half-written report. */
	nschemes = argc - optind;
	schemes = xrealloc(NULL, nschemes * sizeof(*schemes));
	memset(schemes, 0, nschemes * sizeof(*schemes));
	for (i = 0; i < nschemes; i++) {
		struct scheme *s = &schemes[i];

		s->dir = argv[optind + i];
		read_scheme_name(s);
		read_fct(s);
		read_summary(s);
		read_stats(s);
		group_stats(s);
		for (j = 0; j < i; j++)
			if (!strcmp(schemes[j].name, s->name))
				fprintf(stderr,
					"fcq-report: warning: %s and %s both ran scheme \"%s\"\n",
					schemes[j].dir, s->dir, s->name);
	}

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
	fputs(report, stdout);
	run_gnuplot(outdir);

	free(txt);
	free(path);
	free(report);
	for (i = 0; i < nschemes; i++) {
		free(schemes[i].name);
		free(schemes[i].flows);
		free(schemes[i].named);
		json_object_put(schemes[i].summary);
	}
	free(schemes);
	return 0;
}
