// SPDX-License-Identifier: GPL-2.0
/*
 * Port options and xstats shared by the fcq tc plugins.
 *
 * The plugin rejects what it cannot encode (not a number, a negative time,
 * an unknown word); ranges are the kernel's to check, so that every client
 * gets the same answer and the message names the option either way.
 */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "fcq_opts.h"
#include "core/qhist.h"
#include <uapi/linux/fcq.h>

int fcq_bad(const char *opt, const char *value, const char *why)
{
	fprintf(stderr, "Error: %s \"%s\": %s\n", opt, value, why);
	return -1;
}

int fcq_get_prios(const char *opt, const char *arg, __u8 *mask)
{
	char *copy, *tok, *save = NULL, *end;
	int err = 0;

	*mask = 0;
	if (!strcmp(arg, "all")) {
		*mask = 0xff;
		return 0;
	}
	if (!strcmp(arg, "none"))
		return 0;
	copy = strdup(arg);
	if (!copy)
		return fcq_bad(opt, arg, "out of memory");
	for (tok = strtok_r(copy, ",", &save); tok && !err;
	     tok = strtok_r(NULL, ",", &save)) {
		long p = strtol(tok, &end, 10);

		if (*end || end == tok || p < 0 || p > 7)
			err = fcq_bad(opt, arg, "expected all, none or priorities 0..7 like 3,4");
		else
			*mask |= 1u << p;
	}
	free(copy);
	return err;
}

void fcq_put_u8(struct nlmsghdr *n, int type, __u8 v)
{
	addattr_l(n, FCQ_MAXLEN, type, &v, sizeof(v));
}

void fcq_put_u32(struct nlmsghdr *n, int type, __u32 v)
{
	addattr_l(n, FCQ_MAXLEN, type, &v, sizeof(v));
}

void fcq_put_array(struct nlmsghdr *n, int nest, int type, int size,
		   const __u32 *v, int count)
{
	struct rtattr *a = addattr_nest(n, FCQ_MAXLEN, nest | NLA_F_NESTED);
	int i;

	for (i = 0; i < count; i++) {
		if (size == 1)
			fcq_put_u8(n, type, v[i]);
		else
			fcq_put_u32(n, type, v[i]);
	}
	addattr_nest_end(n, a);
}

int fcq_get_array(struct rtattr *nest, int type, __u32 *v, int max)
{
	int rem = RTA_PAYLOAD(nest), i = 0;
	struct rtattr *a;

	for (a = RTA_DATA(nest); RTA_OK(a, rem) && i < max;
	     a = RTA_NEXT(a, rem)) {
		if ((a->rta_type & ~NLA_F_NESTED) != type)
			continue;
		if (RTA_PAYLOAD(a) == sizeof(__u8))
			v[i++] = *(__u8 *)RTA_DATA(a);
		else if (RTA_PAYLOAD(a) >= sizeof(__u32))
			v[i++] = *(__u32 *)RTA_DATA(a);
	}
	return i;
}

int fcq_size_arg(const char *opt, const char *arg, __u32 *v)
{
	unsigned int s;

	if (get_size(&s, arg))
		return fcq_bad(opt, arg, "expected a size like 1500, 64kb, 12mb");
	*v = s;
	return 0;
}

int fcq_time_arg(const char *opt, const char *arg, __u32 *v)
{
	__s64 t;

	if (get_time64(&t, arg) || t < 0 || t > UINT32_MAX)
		return fcq_bad(opt, arg, "expected a time like 250us, 1ms (at most 4s)");
	*v = t;
	return 0;
}

int fcq_uint_arg(const char *opt, const char *arg, __u32 *v)
{
	if (get_u32(v, arg, 0))
		return fcq_bad(opt, arg, "expected a non-negative integer");
	return 0;
}

int fcq_word_arg(const char *opt, const char *arg, const char *const *words)
{
	char why[128] = "expected ";
	int i;

	for (i = 0; words[i]; i++)
		if (!strcmp(arg, words[i]))
			return i;
	for (i = 0; words[i]; i++) {
		if (i)
			strncat(why, words[i + 1] ? ", " : " or ",
				sizeof(why) - strlen(why) - 1);
		strncat(why, words[i], sizeof(why) - strlen(why) - 1);
	}
	return fcq_bad(opt, arg, why);
}

/* A non-negative fraction, as 0.125 or 1/8. */
static int fraction(const char *opt, const char *arg, double *v)
{
	char *end;
	double a = strtod(arg, &end), d;

	if (*end == '/') {
		d = strtod(end + 1, &end);
		if (d <= 0)
			return fcq_bad(opt, arg, "expected a fraction like 0.125 or 1/8");
		a /= d;
	}
	if (*end || end == arg || !isfinite(a) || a < 0 || a * 65536 > UINT32_MAX)
		return fcq_bad(opt, arg, "expected a fraction like 0.125 or 1/8");
	*v = a;
	return 0;
}

int fcq_q16_arg(const char *opt, const char *arg, __u32 *v)
{
	double a;

	if (fraction(opt, arg, &a))
		return -1;
	if (a <= 0)
		return fcq_bad(opt, arg, "expected a fraction above 0, like 0.125 or 1/8");
	*v = (__u32)(a * 65536 + 0.5) ?: 1;
	return 0;
}

int fcq_freq_arg(const char *opt, const char *arg, __u32 *v)
{
	char *end;
	double a = strtod(arg, &end), mul = 1000;

	if (!strcmp(arg, "default")) {
		*v = 0;
		return 0;
	}
	if (!strcasecmp(end, "khz"))
		mul = 1e6;
	else if (*end && strcasecmp(end, "hz"))
		end = (char *)arg;	/* not a frequency */
	if (end == arg || !isfinite(a) || a <= 0 || a * mul > UINT32_MAX ||
	    a * mul < 1)
		return fcq_bad(opt, arg, "expected a frequency like 160hz or 20khz (1mHz to 4MHz), or default");
	*v = (__u32)(a * mul + 0.5);
	return 0;
}

/* A probability, sent as Q16 (the kernel checks it is at most 1). */
static int prob_arg(const char *opt, const char *arg, __u32 *v)
{
	double a;

	if (fraction(opt, arg, &a))
		return -1;
	*v = a * 65536 + 0.5;
	return 0;
}

/* DSCP:PRIO pairs on top of the default map (DSCP >> 3), all 64 sent. */
static int dscp_map_arg(const char *opt, const char *arg, struct nlmsghdr *n)
{
	char *copy = strdup(arg), *tok, *save = NULL, *end;
	__u32 map[64];
	int i, err = 0;

	if (!copy)
		return fcq_bad(opt, arg, "out of memory");
	for (i = 0; i < 64; i++)
		map[i] = i >> 3;
	for (tok = strtok_r(copy, ",", &save); tok && !err;
	     tok = strtok_r(NULL, ",", &save)) {
		long d = strtol(tok, &end, 0), p = -1;

		if (*end == ':' && end != tok)
			p = strtol(end + 1, &end, 0);
		if (*end || d < 0 || d > 63 || p < 0 || p > 7)
			err = fcq_bad(opt, arg,
				      "expected DSCP:PRIO pairs like 26:3,46:5 (DSCP 0..63, PRIO 0..7)");
		else
			map[d] = p;
	}
	free(copy);
	if (err)
		return err;
	fcq_put_array(n, TCA_FCQ_DSCP_MAP, TCA_FCQ_DSCP_PRIO, sizeof(__u8), map,
		      64);
	return 0;
}

int fcq_parse_port_opt(int *argcp, char ***argvp, struct nlmsghdr *n)
{
	/* zero: the word for 0, as fcq_print_port_opts() shows it */
	static const struct {
		const char *name;
		int type;
		int (*get)(const char *opt, const char *arg, __u32 *v);
		const char *zero;
	} u32_opts[] = {
		{ "delay", TCA_FCQ_DELAY, fcq_time_arg, NULL },
		{ "overhead", TCA_FCQ_OVERHEAD, fcq_size_arg, NULL },
		{ "switch", TCA_FCQ_SWITCH, fcq_uint_arg, NULL },
		{ "limit", TCA_FCQ_LIMIT, fcq_uint_arg, NULL },
		{ "pause_max", TCA_FCQ_PAUSE_MAX, fcq_time_arg, "any" },
		{ "buffer", TCA_FCQ_BUFFER, fcq_size_arg, NULL },
		{ "xoff", TCA_FCQ_XOFF, fcq_size_arg, "dynamic" },
		{ "xon", TCA_FCQ_XON, fcq_size_arg, NULL },
		{ "alpha", TCA_FCQ_ALPHA, fcq_q16_arg, NULL },
		{ "resume_offset", TCA_FCQ_RESUME_OFFSET, fcq_size_arg, NULL },
		{ "reserve", TCA_FCQ_RESERVE, fcq_size_arg, NULL },
		{ "headroom", TCA_FCQ_HEADROOM, fcq_size_arg, "auto" },
		{ "response", TCA_FCQ_RESPONSE, fcq_time_arg, NULL },
		{ "refresh", TCA_FCQ_REFRESH, fcq_time_arg, "auto" },
		{ "pfcwd", TCA_FCQ_PFCWD_DETECT, fcq_time_arg, "off" },
		{ "pfcwd_restore", TCA_FCQ_PFCWD_RESTORE, fcq_time_arg, NULL },
	};
	int argc = *argcp;
	char **argv = *argvp;
	const char *opt = *argv;
	unsigned int i;
	__u32 v = 0, k;

	for (i = 0; i < ARRAY_SIZE(u32_opts); i++)
		if (!strcmp(opt, u32_opts[i].name))
			break;

	if (i < ARRAY_SIZE(u32_opts)) {
		NEXT_ARG();
		if (u32_opts[i].zero && !strcmp(*argv, u32_opts[i].zero))
			v = 0;
		else if (u32_opts[i].get(opt, *argv, &v))
			return -1;
		fcq_put_u32(n, u32_opts[i].type, v);
	} else if (!strcmp(opt, "rate")) {
		__u64 rate;

		NEXT_ARG();
		if (get_rate64(&rate, *argv) || **argv == '-')
			return fcq_bad(opt, *argv, "expected a rate like 100mbit, 10gbit");
		addattr_l(n, FCQ_MAXLEN, TCA_FCQ_RATE, &rate, sizeof(rate));
	} else if (!strcmp(opt, "trust")) {
		/* in enum fcq_trust order */
		static const char *const words[] = { "dscp", "pcp", "skb", NULL };
		int t;

		NEXT_ARG();
		t = fcq_word_arg(opt, *argv, words);
		if (t < 0)
			return -1;
		fcq_put_u8(n, TCA_FCQ_TRUST, t);
	} else if (!strcmp(opt, "dscp_map")) {
		NEXT_ARG();
		if (dscp_map_arg(opt, *argv, n))
			return -1;
	} else if (!strcmp(opt, "lossless")) {
		__u8 mask;

		NEXT_ARG();
		if (fcq_get_prios(opt, *argv, &mask))
			return -1;
		fcq_put_u8(n, TCA_FCQ_LOSSLESS, mask);
	} else if (!strcmp(opt, "ecn")) {
		NEXT_ARG();
		if (!strcmp(*argv, "off")) {
			fcq_put_u32(n, TCA_FCQ_ECN_KMAX, 0);
		} else {
			if (fcq_size_arg("ecn KMIN", *argv, &k))
				return -1;
			NEXT_ARG();
			if (fcq_size_arg("ecn KMAX", *argv, &v))
				return -1;
			fcq_put_u32(n, TCA_FCQ_ECN_KMIN, k);
			fcq_put_u32(n, TCA_FCQ_ECN_KMAX, v);
			NEXT_ARG();
			if (prob_arg("ecn PMAX", *argv, &v))
				return -1;
			fcq_put_u32(n, TCA_FCQ_ECN_PMAX, v);
		}
	} else if (!strcmp(opt, "pfcwd_action")) {
		/* in enum fcq_pfcwd_action order */
		static const char *const words[] = { "drop", "forward", "alert",
						     NULL };
		int a;

		NEXT_ARG();
		a = fcq_word_arg(opt, *argv, words);
		if (a < 0)
			return -1;
		fcq_put_u8(n, TCA_FCQ_PFCWD_ACTION, a);
	} else if (!strcmp(opt, "pause_quanta")) {
		__u16 q;

		NEXT_ARG();
		if (get_u16(&q, *argv, 0) || !q)
			return fcq_bad(opt, *argv, "expected quanta 1..65535");
		addattr_l(n, FCQ_MAXLEN, TCA_FCQ_PAUSE_QUANTA, &q, sizeof(q));
	} else {
		return 0;
	}
	*argcp = argc - 1;
	*argvp = argv + 1;
	return 1;
}

/* One of the scheme's table-driven words, as fcq_parse_port_opt(). */
static int table_opt(int *argcp, char ***argvp, struct fcq_scheme_req *own,
		     const struct fcq_scheme_parser *p)
{
	const char *opt = **argvp;
	char **argv = *argvp;
	int argc = *argcp;
	int i, w;
	__u32 v;

	for (i = 0; i < p->nu32s; i++) {
		if (strcmp(opt, p->u32s[i].name))
			continue;
		NEXT_ARG();
		if (p->u32s[i].zero && !strcmp(*argv, p->u32s[i].zero))
			v = 0;
		else if (p->u32s[i].get(opt, *argv, &v))
			return -1;
		fcq_put_u32(&own->n, p->u32s[i].type, v);
		goto took;
	}
	for (i = 0; i < p->nwords; i++) {
		if (strcmp(opt, p->words[i].name))
			continue;
		NEXT_ARG();
		w = fcq_word_arg(opt, *argv, p->words[i].words);
		if (w < 0)
			return -1;
		fcq_put_u8(&own->n, p->words[i].type, p->words[i].first + w);
		goto took;
	}
	if (p->strict_type && !strcmp(opt, "strict")) {
		__u8 mask;

		NEXT_ARG();
		if (fcq_get_prios(opt, *argv, &mask))
			return -1;
		fcq_put_u8(&own->n, p->strict_type, mask);
		goto took;
	}
	for (i = 0; i < p->nflags; i++) {
		if (strcmp(opt, p->flags[i].name))
			continue;
		NEXT_ARG();
		w = fcq_word_arg(opt, *argv, (const char *const []){
				 p->flags[i].w0, p->flags[i].w1, NULL });
		if (w < 0)
			return -1;
		own->flags.selector |= p->flags[i].bit;
		if (w)
			own->flags.value |= p->flags[i].bit;
		else
			own->flags.value &= ~p->flags[i].bit;
		goto took;
	}
	return 0;
took:
	*argcp = argc - 1;
	*argvp = argv + 1;
	return 1;
}

int fcq_parse_qopt(int argc, char **argv, struct nlmsghdr *n,
		   const struct fcq_scheme_parser *p)
{
	struct rtattr *tail = addattr_nest(n, FCQ_MAXLEN,
					   TCA_OPTIONS | NLA_F_NESTED);
	struct fcq_scheme_req own = { .n.nlmsg_len = NLMSG_LENGTH(0) };
	int ret;

	while (argc > 0) {
		ret = fcq_parse_port_opt(&argc, &argv, n);
		if (!ret)
			ret = table_opt(&argc, &argv, &own, p);
		if (!ret && p->opt)
			ret = p->opt(&argc, &argv, &own);
		if (ret < 0)
			return -1;
		if (ret)
			continue;
		if (strcmp(*argv, "help"))
			fprintf(stderr, "What is \"%s\"?\n", *argv);
		p->explain();
		return -1;
	}
	if (p->flags_type && own.flags.selector)
		addattr_l(&own.n, FCQ_MAXLEN, p->flags_type, &own.flags,
			  sizeof(own.flags));
	addattr_l(n, FCQ_MAXLEN, TCA_FCQ_SCHEME | NLA_F_NESTED,
		  NLMSG_DATA(&own.n), own.n.nlmsg_len - NLMSG_LENGTH(0));
	addattr_nest_end(n, tail);
	return 0;
}

void fcq_print_word(const char *key, struct rtattr *a,
		    const char *const *words, int first)
{
	char fmt[32];
	int v, n = 0;

	if (!a || RTA_PAYLOAD(a) < 1)
		return;
	while (words[n])
		n++;
	v = *(__u8 *)RTA_DATA(a) - first;
	snprintf(fmt, sizeof(fmt), "%s %%s ", key);
	print_string(PRINT_ANY, key, fmt, v >= 0 && v < n ? words[v] : "?");
}

void fcq_print_prios(const char *key, __u8 mask)
{
	char buf[32] = "", *p = buf;
	int i;

	if (mask == 0xff)
		strcpy(buf, "all");
	else if (!mask)
		strcpy(buf, "none");
	for (i = 0; i < 8 && mask != 0xff; i++)
		if (mask & (1u << i))
			p += sprintf(p, "%s%d", p == buf ? "" : ",", i);
	print_uint(PRINT_JSON, key, NULL, mask);
	print_string(PRINT_FP, NULL, "%s ", key);
	print_string(PRINT_FP, NULL, "%s ", buf);
}

static __u32 get32(struct rtattr *a)
{
	return *(__u32 *)RTA_DATA(a);
}

void fcq_print_time(const char *key, struct rtattr *a, const char *zero)
{
	char b[SPRINT_BSIZE];
	__u32 t;

	if (!a)
		return;
	t = get32(a);
	print_uint(PRINT_JSON, key, NULL, t);
	print_string(PRINT_FP, NULL, "%s ", key);
	print_string(PRINT_FP, NULL, "%s ", !t && zero ? zero : sprint_time64(t, b));
}

void fcq_print_size(const char *key, struct rtattr *a, const char *zero)
{
	char b[SPRINT_BSIZE];
	__u32 v;

	if (!a)
		return;
	v = get32(a);
	print_uint(PRINT_JSON, key, NULL, v);
	print_string(PRINT_FP, NULL, "%s ", key);
	print_string(PRINT_FP, NULL, "%s ", !v && zero ? zero : sprint_size(v, b));
}

void fcq_print_u32(const char *key, struct rtattr *a)
{
	char fmt[32];

	if (!a || RTA_PAYLOAD(a) < sizeof(__u32))
		return;
	snprintf(fmt, sizeof(fmt), "%s %%u ", key);
	print_uint(PRINT_ANY, key, fmt, get32(a));
}

void fcq_print_freq(const char *key, struct rtattr *a)
{
	char fmt[32];
	double hz;

	if (!a || RTA_PAYLOAD(a) < sizeof(__u32))
		return;
	hz = get32(a) / 1000.0;
	print_float(PRINT_JSON, key, NULL, hz);
	if (hz >= 1000) {
		snprintf(fmt, sizeof(fmt), "%s %%gkHz ", key);
		print_float(PRINT_FP, NULL, fmt, hz / 1000);
	} else {
		snprintf(fmt, sizeof(fmt), "%s %%gHz ", key);
		print_float(PRINT_FP, NULL, fmt, hz);
	}
}

void fcq_print_q16(const char *key, struct rtattr *a)
{
	char fmt[32];

	if (!a || RTA_PAYLOAD(a) < sizeof(__u32))
		return;
	snprintf(fmt, sizeof(fmt), "%s %%g ", key);
	print_float(PRINT_ANY, key, fmt, get32(a) / 65536.0);
}

void fcq_print_flag_words(struct rtattr *a, const struct fcq_flag_opt *o,
			  int n)
{
	struct nla_bitfield32 *fl;
	char fmt[32];
	int i;

	if (!a || RTA_PAYLOAD(a) < sizeof(*fl))
		return;
	fl = RTA_DATA(a);
	for (i = 0; i < n; i++) {
		snprintf(fmt, sizeof(fmt), "%s %%s ", o[i].name);
		print_string(PRINT_ANY, o[i].name, fmt,
			     fl->value & o[i].bit ? o[i].w1 : o[i].w0);
	}
}

bool fcq_print_port_opts(struct rtattr *opt, struct rtattr **own, int max)
{
	static const char *const trust[] = { "dscp", "pcp", "skb" };
	struct rtattr *tb[TCA_FCQ_MAX + 1];
	__u8 t;
	int i;

	if (!opt)
		return false;
	parse_rtattr_nested(tb, TCA_FCQ_MAX, opt);

	if (tb[TCA_FCQ_RATE])
		tc_print_rate(PRINT_ANY, "rate", "rate %s ",
			      *(__u64 *)RTA_DATA(tb[TCA_FCQ_RATE]));
	fcq_print_time("delay", tb[TCA_FCQ_DELAY], NULL);
	if (tb[TCA_FCQ_OVERHEAD])
		print_uint(PRINT_ANY, "overhead", "overhead %u ",
			   get32(tb[TCA_FCQ_OVERHEAD]));
	if (tb[TCA_FCQ_SWITCH])
		print_uint(PRINT_ANY, "switch", "switch %u ",
			   get32(tb[TCA_FCQ_SWITCH]));
	if (tb[TCA_FCQ_TRUST]) {
		t = *(__u8 *)RTA_DATA(tb[TCA_FCQ_TRUST]);
		print_string(PRINT_ANY, "trust", "trust %s ",
			     t < 3 ? trust[t] : "?");
	}
	if (tb[TCA_FCQ_DSCP_MAP]) {
		__u32 map[64];
		bool first = true;

		for (i = 0; i < 64; i++)
			map[i] = i >> 3;
		fcq_get_array(tb[TCA_FCQ_DSCP_MAP], TCA_FCQ_DSCP_PRIO, map, 64);

		/* JSON: the whole map; text: where it differs from DSCP>>3. */
		open_json_array(PRINT_JSON, "dscp_map");
		for (i = 0; i < 64; i++) {
			print_uint(PRINT_JSON, NULL, NULL, map[i]);
			if (map[i] == (__u32)i >> 3)
				continue;
			print_string(PRINT_FP, NULL, "%s", first ? "dscp_map " : ",");
			print_uint(PRINT_FP, NULL, "%u:", i);
			print_uint(PRINT_FP, NULL, "%u", map[i]);
			first = false;
		}
		close_json_array(PRINT_JSON, NULL);
		if (!first)
			print_string(PRINT_FP, NULL, "%s", " ");
	}
	if (tb[TCA_FCQ_LIMIT])
		print_uint(PRINT_ANY, "limit", "limit %up ",
			   get32(tb[TCA_FCQ_LIMIT]));
	if (tb[TCA_FCQ_LOSSLESS])
		fcq_print_prios("lossless", *(__u8 *)RTA_DATA(tb[TCA_FCQ_LOSSLESS]));
	fcq_print_time("pause_max", tb[TCA_FCQ_PAUSE_MAX], "any");
	fcq_print_size("buffer", tb[TCA_FCQ_BUFFER], NULL);
	fcq_print_size("xoff", tb[TCA_FCQ_XOFF], "dynamic");
	if (tb[TCA_FCQ_XOFF] && get32(tb[TCA_FCQ_XOFF]))
		fcq_print_size("xon", tb[TCA_FCQ_XON], NULL);
	else if (tb[TCA_FCQ_ALPHA])
		print_float(PRINT_ANY, "alpha", "alpha %g ",
			    get32(tb[TCA_FCQ_ALPHA]) / 65536.0);
	fcq_print_size("resume_offset", tb[TCA_FCQ_RESUME_OFFSET], NULL);
	fcq_print_size("reserve", tb[TCA_FCQ_RESERVE], NULL);
	fcq_print_size("headroom", tb[TCA_FCQ_HEADROOM], "auto");
	fcq_print_time("response", tb[TCA_FCQ_RESPONSE], NULL);
	if (tb[TCA_FCQ_PAUSE_QUANTA])
		print_uint(PRINT_ANY, "pause_quanta", "pause_quanta %u ",
			   *(__u16 *)RTA_DATA(tb[TCA_FCQ_PAUSE_QUANTA]));
	fcq_print_time("refresh", tb[TCA_FCQ_REFRESH], "auto");
	if (tb[TCA_FCQ_ECN_KMAX] && !get32(tb[TCA_FCQ_ECN_KMAX])) {
		print_string(PRINT_ANY, "ecn", "ecn %s ", "off");
	} else if (tb[TCA_FCQ_ECN_KMAX] && tb[TCA_FCQ_ECN_KMIN] &&
		   tb[TCA_FCQ_ECN_PMAX]) {
		char b1[SPRINT_BSIZE], b2[SPRINT_BSIZE];

		print_uint(PRINT_JSON, "ecn_kmin", NULL, get32(tb[TCA_FCQ_ECN_KMIN]));
		print_uint(PRINT_JSON, "ecn_kmax", NULL, get32(tb[TCA_FCQ_ECN_KMAX]));
		print_float(PRINT_JSON, "ecn_pmax", NULL,
			    get32(tb[TCA_FCQ_ECN_PMAX]) / 65536.0);
		print_string(PRINT_FP, NULL, "ecn %s ",
			     sprint_size(get32(tb[TCA_FCQ_ECN_KMIN]), b1));
		print_string(PRINT_FP, NULL, "%s ",
			     sprint_size(get32(tb[TCA_FCQ_ECN_KMAX]), b2));
		print_float(PRINT_FP, NULL, "%g ",
			    get32(tb[TCA_FCQ_ECN_PMAX]) / 65536.0);
	}
	fcq_print_time("pfcwd", tb[TCA_FCQ_PFCWD_DETECT], "off");
	if (tb[TCA_FCQ_PFCWD_DETECT] && get32(tb[TCA_FCQ_PFCWD_DETECT])) {
		static const char *const act[] = { "drop", "forward", "alert",
						   NULL };

		fcq_print_time("pfcwd_restore", tb[TCA_FCQ_PFCWD_RESTORE], NULL);
		fcq_print_word("pfcwd_action", tb[TCA_FCQ_PFCWD_ACTION], act, 0);
	}
	if (!tb[TCA_FCQ_SCHEME])
		return false;
	parse_rtattr_nested(own, max, tb[TCA_FCQ_SCHEME]);
	return true;
}

static __u64 get64(struct rtattr **tb, int type)
{
	if (!tb[type])
		return 0;
	if (RTA_PAYLOAD(tb[type]) >= sizeof(__u64))
		return *(__u64 *)RTA_DATA(tb[type]);
	return get32(tb[type]);
}

static void print_prio_table(struct rtattr *xstats)
{
	static const struct {
		int type;
		const char *key;
		int width;
	} cols[] = {
		{ TCA_FCQ_PRIO_TX_PACKETS, "tx_packets", 11 },
		{ TCA_FCQ_PRIO_TX_BYTES, "tx_bytes", 13 },
		{ TCA_FCQ_PRIO_BACKLOG, "backlog", 9 },
		{ TCA_FCQ_PRIO_DROPS, "drops", 7 },
		{ TCA_FCQ_PRIO_PFC_RX, "pfc_rx", 8 },
		{ TCA_FCQ_PRIO_PAUSED_NS, "paused_ns", 13 },
		{ TCA_FCQ_PRIO_PFC_TX, "pfc_tx", 8 },
		{ TCA_FCQ_PRIO_XOFF, "xoff", 7 },
		{ TCA_FCQ_PRIO_XON, "xon", 7 },
		{ TCA_FCQ_PRIO_INGRESS, "ingress", 9 },
		{ TCA_FCQ_PRIO_HEADROOM_MAX, "headroom_max", 13 },
		{ TCA_FCQ_PRIO_PFCWD_STORMS, "pfcwd_storms", 13 },
	};
	struct rtattr *a;
	unsigned int i, rem;

	open_json_array(PRINT_JSON, "prio");
	if (!is_json_context()) {
		print_string(PRINT_FP, NULL, "%s", "\n prio");
		for (i = 0; i < ARRAY_SIZE(cols); i++)
			fprintf(stdout, "%*s", cols[i].width, cols[i].key);
	}
	rem = RTA_PAYLOAD(xstats);
	for (a = RTA_DATA(xstats); RTA_OK(a, rem); a = RTA_NEXT(a, rem)) {
		struct rtattr *tb[TCA_FCQ_PRIO_MAX + 1];

		if ((a->rta_type & ~NLA_F_NESTED) != TCA_FCQ_STATS_PRIO)
			continue;
		parse_rtattr_nested(tb, TCA_FCQ_PRIO_MAX, a);
		if (!tb[TCA_FCQ_PRIO_ID])
			continue;
		open_json_object(NULL);
		print_uint(PRINT_JSON, "prio", NULL,
			   *(__u8 *)RTA_DATA(tb[TCA_FCQ_PRIO_ID]));
		if (!is_json_context())
			fprintf(stdout, "\n %4u", *(__u8 *)RTA_DATA(tb[TCA_FCQ_PRIO_ID]));
		for (i = 0; i < ARRAY_SIZE(cols); i++) {
			__u64 v = get64(tb, cols[i].type);

			print_u64(PRINT_JSON, cols[i].key, NULL, v);
			if (!is_json_context())
				fprintf(stdout, "%*llu", cols[i].width,
					(unsigned long long)v);
		}
		close_json_object();
	}
	close_json_array(PRINT_JSON, NULL);
}

void fcq_print_counters(struct rtattr **tb, const struct fcq_counter *c,
			int n)
{
	int i;

	for (i = 0; i < n; i++) {
		if (!tb[c[i].type])
			continue;
		if (c[i].nl)
			print_nl();
		print_string(PRINT_FP, NULL, " %s", c[i].key);
		print_u64(PRINT_ANY, c[i].key, " %llu", get64(tb, c[i].type));
	}
}

/*
 * Keyed pauses, on their own line when the port sent or took any (every
 * port has the books; a pfc switch without fine-grained neighbours never
 * uses them): always in JSON.
 */
static void print_kp(struct rtattr *nest)
{
	static const struct fcq_counter kp[] = {
		{ TCA_FCQ_KP_TX_PAUSE, "tx_pause", false },
		{ TCA_FCQ_KP_TX_RESUME, "tx_resume", false },
		{ TCA_FCQ_KP_TX_KEYS, "tx_keys", false },
		{ TCA_FCQ_KP_TX_ALL, "tx_all", false },
		{ TCA_FCQ_KP_TX_FULL, "tx_full", false },
		{ TCA_FCQ_KP_RX_PAUSE, "rx_pause", true },
		{ TCA_FCQ_KP_RX_RESUME, "rx_resume", false },
		{ TCA_FCQ_KP_RX_KEYS, "rx_keys", false },
		{ TCA_FCQ_KP_RX_ALL, "rx_all", false },
		{ TCA_FCQ_KP_RX_DUP, "rx_dup", false },
		{ TCA_FCQ_KP_RX_ORPHAN, "rx_orphan", false },
		{ TCA_FCQ_KP_RX_FULL, "rx_full", false },
		{ TCA_FCQ_KP_RX_EXPIRED, "rx_expired", false },
		{ TCA_FCQ_KP_RX_DEFERRED, "rx_deferred", false },
		{ TCA_FCQ_KP_RX_COARSE, "rx_coarse", false },
		{ TCA_FCQ_KP_RX_BAD, "rx_bad", false },
	};
	struct rtattr *tb[TCA_FCQ_KP_MAX + 1];
	__u32 held = 0, applied = 0;
	bool used = false;
	unsigned int i;

	parse_rtattr_nested(tb, TCA_FCQ_KP_MAX, nest);
	for (i = 0; i < ARRAY_SIZE(kp); i++)
		used |= get64(tb, kp[i].type) != 0;
	if (tb[TCA_FCQ_KP_TX_HELD])
		held = get32(tb[TCA_FCQ_KP_TX_HELD]);
	if (tb[TCA_FCQ_KP_RX_APPLIED])
		applied = get32(tb[TCA_FCQ_KP_RX_APPLIED]);
	if (!used && !held && !applied && !is_json_context())
		return;
	print_nl();
	open_json_object("kp");
	print_string(PRINT_FP, NULL, "%s", " keyed:");
	print_uint(PRINT_ANY, "tx_held", " tx_held %u", held);
	print_uint(PRINT_ANY, "rx_applied", " rx_applied %u", applied);
	fcq_print_counters(tb, kp, ARRAY_SIZE(kp));
	close_json_object();
}

/*
 * The queue-length histogram: average and percentiles over the qdisc's
 * life on a line of their own; in JSON also the integral and the buckets,
 * for tools that take them over a window of their own.
 */
static void print_qhist(struct rtattr *nest)
{
	static const struct {
		unsigned int permille;
		const char *key;
	} pct[] = { { 500, "p50" }, { 900, "p90" }, { 990, "p99" },
		    { 999, "p999" } };
	struct rtattr *tb[TCA_FCQ_QHIST_MAX + 1];
	const struct tc_fcq_qhist_bucket *b = NULL;
	struct fcq_qhist h = { 0 };
	unsigned int i, n = 0;
	__u64 total = 0;
	double avg, sq;

	parse_rtattr_nested(tb, TCA_FCQ_QHIST_MAX, nest);
	if (tb[TCA_FCQ_QHIST_BUCKETS]) {
		b = RTA_DATA(tb[TCA_FCQ_QHIST_BUCKETS]);
		n = RTA_PAYLOAD(tb[TCA_FCQ_QHIST_BUCKETS]) / sizeof(*b);
	}
	h.area = get64(tb, TCA_FCQ_QHIST_AREA);
	h.max = get64(tb, TCA_FCQ_QHIST_PEAK);
	for (i = 0; i < n; i++) {
		h.ns[fcq_qhist_bucket(b[i].lo)] += b[i].ns;
		total += b[i].ns;
	}
	print_nl();
	open_json_object("qhist");
	print_string(PRINT_FP, NULL, "%s", " queue:");
	/* byte-seconds: the average over any window is this over its length */
	print_float(PRINT_JSON, "byte_s", NULL,
		    (double)h.area * (1 << FCQ_QHIST_AREA_SHIFT) / 1e9);
	avg = total ? (double)h.area * (1 << FCQ_QHIST_AREA_SHIFT) / total : 0;
	sq = total ? (double)get64(tb, TCA_FCQ_QHIST_SQ) *
		     (1ULL << FCQ_QHIST_SQ_SHIFT) / total : 0;
	/* byte^2-seconds: with byte_s, the deviation over any window */
	print_float(PRINT_JSON, "byte2_s", NULL,
		    (double)get64(tb, TCA_FCQ_QHIST_SQ) *
		    (1ULL << FCQ_QHIST_SQ_SHIFT) / 1e9);
	print_u64(PRINT_ANY, "avg", " avg %llu", (__u64)avg);
	print_u64(PRINT_ANY, "sd", " sd %llu",
		  (__u64)sqrt(sq > avg * avg ? sq - avg * avg : 0));
	/* bucket 0 is level 0 alone */
	print_float(PRINT_ANY, "empty", " empty %.4f",
		    total ? (double)h.ns[0] / total : 0);
	for (i = 0; i < ARRAY_SIZE(pct); i++) {
		print_string(PRINT_FP, NULL, " %s", pct[i].key);
		print_uint(PRINT_ANY, pct[i].key, " %u",
			   fcq_qhist_permille(&h, pct[i].permille));
	}
	print_uint(PRINT_ANY, "max", " max %u", h.max);
	print_u64(PRINT_ANY, "now", " now %llu", get64(tb, TCA_FCQ_QHIST_LEVEL));
	print_u64(PRINT_ANY, "ns", " bytes over %llu ns", total);
	open_json_array(PRINT_JSON, "buckets");
	for (i = 0; i < n; i++) {
		open_json_object(NULL);
		print_uint(PRINT_JSON, "lo", NULL, b[i].lo);
		print_uint(PRINT_JSON, "hi", NULL, b[i].hi);
		print_u64(PRINT_JSON, "ns", NULL, b[i].ns);
		close_json_object();
	}
	close_json_array(PRINT_JSON, NULL);
	close_json_object();
}

int fcq_print_xstats(FILE *f, struct rtattr *xstats)
{
	static const struct {
		int type;
		const char *key;
	} port[] = {
		{ TCA_FCQ_STATS_WIRE, "wire" },
		{ TCA_FCQ_STATS_CTRL_TX, "ctrl_tx" },
		{ TCA_FCQ_STATS_CTRL_NOMEM, "ctrl_nomem" },
		{ TCA_FCQ_STATS_TX_LAG, "tx_lag_ns" },
		{ TCA_FCQ_STATS_RX_PAUSE, "rx_pause" },
		{ TCA_FCQ_STATS_RX_EXT, "rx_ext" },
		{ TCA_FCQ_STATS_RX_MALFORMED, "rx_malformed" },
		{ TCA_FCQ_STATS_RX_BAD_OPCODE, "rx_bad_opcode" },
		{ TCA_FCQ_STATS_RX_NOT_LOSSLESS, "rx_not_lossless" },
		{ TCA_FCQ_STATS_RX_OVER_MAX, "rx_over_max" },
		{ TCA_FCQ_STATS_DROP_LOSSLESS, "drop_lossless" },
		{ TCA_FCQ_STATS_DROP_LOSSY, "drop_lossy" },
		{ TCA_FCQ_STATS_DROP_LIMIT, "drop_limit" },
		{ TCA_FCQ_STATS_DROP_GSO, "drop_gso" },
		{ TCA_FCQ_STATS_DROP_PFCWD, "drop_pfcwd" },
		{ TCA_FCQ_STATS_PFCWD_IGNORED, "pfcwd_ignored" },
		{ TCA_FCQ_STATS_HEADROOM, "headroom" },
		{ TCA_FCQ_STATS_THRESHOLD, "threshold" },
		{ TCA_FCQ_STATS_SW_USED, "sw_used" },
		{ TCA_FCQ_STATS_SW_USED_MAX, "sw_used_max" },
		{ TCA_FCQ_STATS_ECN_MARKED, "ecn_marked" },
	};
	struct rtattr *tb[TCA_FCQ_STATS_MAX + 1];
	unsigned int i;

	if (!xstats)
		return 0;
	parse_rtattr_nested(tb, TCA_FCQ_STATS_MAX, xstats);
	for (i = 0; i < ARRAY_SIZE(port); i++) {
		if (!tb[port[i].type])
			continue;
		/* drops on a line of their own */
		if (port[i].type == TCA_FCQ_STATS_DROP_LOSSLESS)
			print_nl();
		print_string(PRINT_FP, NULL, " %s", port[i].key);
		print_u64(PRINT_ANY, port[i].key, " %llu",
			  get64(tb, port[i].type));
	}
	if (tb[TCA_FCQ_STATS_PFCWD_STORM]) {
		print_string(PRINT_FP, NULL, "%s", " ");
		fcq_print_prios("pfcwd_storm",
				*(__u8 *)RTA_DATA(tb[TCA_FCQ_STATS_PFCWD_STORM]));
	}
	if (tb[TCA_FCQ_STATS_KP])
		print_kp(tb[TCA_FCQ_STATS_KP]);
	if (tb[TCA_FCQ_STATS_QHIST])
		print_qhist(tb[TCA_FCQ_STATS_QHIST]);
	print_prio_table(xstats);
	return 0;
}

struct rtattr *fcq_xstats_scheme(struct rtattr *xstats)
{
	struct rtattr *tb[TCA_FCQ_STATS_MAX + 1];

	if (!xstats)
		return NULL;
	parse_rtattr_nested(tb, TCA_FCQ_STATS_MAX, xstats);
	return tb[TCA_FCQ_STATS_SCHEME];
}

struct rtattr *fcq_print_xstats_open(FILE *f, struct rtattr *xstats,
				     const char *name)
{
	struct rtattr *scheme;

	if (!xstats)
		return NULL;
	fcq_print_xstats(f, xstats);
	scheme = fcq_xstats_scheme(xstats);
	if (!scheme)
		return NULL;
	print_nl();
	open_json_object(name);
	print_string(PRINT_FP, NULL, " %s:", name);
	return scheme;
}
