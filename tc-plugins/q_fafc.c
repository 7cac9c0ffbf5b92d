// SPDX-License-Identifier: GPL-2.0
/*
 * The tc plugin for the fcq `fafc` qdisc: FAFC (Lu, Chen, Zhang, Lu,
 * "FAFC: Fast and Accurate Flow Control in Data Center Networks").
 * See tc-fafc(8).
 *
 * The port options are fcq_parse_port_opt()'s; they own the word `alpha`
 * (the dynamic PFC threshold), so FAFC's Holt factors are holt_alpha and
 * holt_beta here.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "fcq_opts.h"
#include <uapi/linux/fafc.h>

static void explain(void)
{
	fprintf(stderr,
		"Usage: ... fafc [ quantum BYTES ] [ fallback on | off ] [ cwr on | off ]\n"
		FCQ_PORT_USAGE
		"Switch-wide (set for every fafc port of the switch):\n"
		"  [ prio P ] [ thop TIME | auto ] [ th_p SIZE ] [ th_e SIZE ]\n"
		"  [ th_c SIZE | auto ] [ holt_alpha F ] [ holt_beta F ] [ fdec F ]\n"
		"  [ dec_win N ] [ horizon N ] [ solver kernel | user ]\n"
		"  [ frame pfc | fcq ] [ ecn_pred on | off ] [ ecnof on | off ]\n"
		"  [ pred on | off ] [ trend alg1 | holt ] [ tie spread | vertex ]\n"
		"  [ demand_cap on | off ]\n"
		"F := a fraction in (0,1], like 0.8 or 4/5\n");
}

/* One of two words: returns 0 for @w0, 1 for @w1, else -1 (reported). */
/* The switch-wide flags. */
static const struct fcq_flag_opt flag_opts[] = {
	{ "ecn_pred", FAFC_FL_ECN, "off", "on" },
	{ "ecnof", FAFC_FL_ECNOF, "off", "on" },
	{ "pred", FAFC_FL_PRED, "off", "on" },
	{ "trend", FAFC_FL_TREND_HOLT, "alg1", "holt" },
	{ "tie", FAFC_FL_TIE_VERTEX, "spread", "vertex" },
	{ "demand_cap", FAFC_FL_DEMAND_CAP, "off", "on" },
};

static const struct fcq_u32_opt u32_opts[] = {
	{ "quantum", TCA_FAFC_QUANTUM, fcq_size_arg, NULL },
	{ "thop", TCA_FAFC_THOP, fcq_time_arg, "auto" },
	{ "th_p", TCA_FAFC_TH_P, fcq_size_arg, NULL },
	{ "th_e", TCA_FAFC_TH_E, fcq_size_arg, NULL },
	{ "th_c", TCA_FAFC_TH_C, fcq_size_arg, "auto" },
	{ "holt_alpha", TCA_FAFC_ALPHA, fcq_q16_arg, NULL },
	{ "holt_beta", TCA_FAFC_BETA, fcq_q16_arg, NULL },
	{ "fdec", TCA_FAFC_FDEC, fcq_q16_arg, NULL },
	{ "dec_win", TCA_FAFC_DEC_WIN, fcq_uint_arg, NULL },
	{ "horizon", TCA_FAFC_HORIZON, fcq_uint_arg, NULL },
};

static const char *const off_on[] = { "off", "on", NULL };
static const char *const solvers[] = { "kernel", "user", NULL };
static const char *const frames[] = { "pfc", "fcq", NULL };

static const struct fcq_word_opt word_opts[] = {
	{ "fallback", TCA_FAFC_FALLBACK, off_on, 0 },
	{ "cwr", TCA_FAFC_CWR, off_on, 0 },
	{ "solver", TCA_FAFC_SOLVER, solvers, FAFC_SOLVER_KERNEL },
	{ "frame", TCA_FAFC_FRAME, frames, FAFC_FRAME_PFC },
};

static int fafc_opt(int *argcp, char ***argvp, struct fcq_scheme_req *own)
{
	char **argv = *argvp;
	int argc = *argcp;
	__u8 p;

	if (strcmp(**argvp, "prio"))
		return 0;
	NEXT_ARG();
	if (get_u8(&p, *argv, 0) || p > 7)
		return fcq_bad("prio", *argv, "expected a priority 0..7");
	fcq_put_u8(&own->n, TCA_FAFC_PRIO, p);
	*argcp = argc - 1;
	*argvp = argv + 1;
	return 1;
}

static int fafc_parse_opt(struct qdisc_util *qu, int argc, char **argv,
			  struct nlmsghdr *n, const char *dev)
{
	static const struct fcq_scheme_parser parser = {
		.u32s = u32_opts,
		.nu32s = ARRAY_SIZE(u32_opts),
		.words = word_opts,
		.nwords = ARRAY_SIZE(word_opts),
		.flags = flag_opts,
		.nflags = ARRAY_SIZE(flag_opts),
		.opt = fafc_opt,
		.flags_type = TCA_FAFC_FLAGS,
		.explain = explain,
	};

	return fcq_parse_qopt(argc, argv, n, &parser);
}

static bool has(struct rtattr *a, size_t len)
{
	return a && RTA_PAYLOAD(a) >= len;
}

static __u8 get8(struct rtattr *a)
{
	return *(__u8 *)RTA_DATA(a);
}

static __u32 get32(struct rtattr *a)
{
	return *(__u32 *)RTA_DATA(a);
}

/*
 * A Q16 fraction, rounded to 4 significant digits (52429 -> 0.8) in text
 * and JSON alike.
 */
static void print_q16(const char *key, struct rtattr *a)
{
	char fmt[32], num[32];

	if (!has(a, sizeof(__u32)))
		return;
	snprintf(num, sizeof(num), "%.4g", get32(a) / 65536.0);
	snprintf(fmt, sizeof(fmt), "%s %%g ", key);
	print_float(PRINT_ANY, key, fmt, strtod(num, NULL));
}

static void print_u8_on_off(const char *key, struct rtattr *a)
{
	char fmt[32];

	if (!has(a, sizeof(__u8)))
		return;
	snprintf(fmt, sizeof(fmt), "%s %%s ", key);
	print_on_off(PRINT_ANY, key, fmt, get8(a));
}

static int fafc_print_opt(struct qdisc_util *qu, FILE *f, struct rtattr *opt)
{
	struct rtattr *tb[TCA_FAFC_MAX + 1];
	unsigned int i;

	if (!fcq_print_port_opts(opt, tb, TCA_FAFC_MAX))
		return 0;

	fcq_print_u32("quantum", tb[TCA_FAFC_QUANTUM]);
	print_u8_on_off("fallback", tb[TCA_FAFC_FALLBACK]);
	print_u8_on_off("cwr", tb[TCA_FAFC_CWR]);
	if (has(tb[TCA_FAFC_PRIO], sizeof(__u8)))
		print_uint(PRINT_ANY, "prio", "prio %u ",
			   get8(tb[TCA_FAFC_PRIO]));
	if (has(tb[TCA_FAFC_THOP], sizeof(__u32)))
		fcq_print_time("thop", tb[TCA_FAFC_THOP], "auto");
	if (has(tb[TCA_FAFC_TH_P], sizeof(__u32)))
		fcq_print_size("th_p", tb[TCA_FAFC_TH_P], NULL);
	if (has(tb[TCA_FAFC_TH_E], sizeof(__u32)))
		fcq_print_size("th_e", tb[TCA_FAFC_TH_E], NULL);
	if (has(tb[TCA_FAFC_TH_C], sizeof(__u32)))
		fcq_print_size("th_c", tb[TCA_FAFC_TH_C], "auto");
	print_q16("holt_alpha", tb[TCA_FAFC_ALPHA]);
	print_q16("holt_beta", tb[TCA_FAFC_BETA]);
	print_q16("fdec", tb[TCA_FAFC_FDEC]);
	fcq_print_u32("dec_win", tb[TCA_FAFC_DEC_WIN]);
	fcq_print_u32("horizon", tb[TCA_FAFC_HORIZON]);
	fcq_print_word("solver", tb[TCA_FAFC_SOLVER], solvers,
		       FAFC_SOLVER_KERNEL);
	fcq_print_word("frame", tb[TCA_FAFC_FRAME], frames, FAFC_FRAME_PFC);
	if (has(tb[TCA_FAFC_FLAGS], sizeof(struct nla_bitfield32))) {
		const struct nla_bitfield32 *bf = RTA_DATA(tb[TCA_FAFC_FLAGS]);
		__u32 sel = bf->selector ?: FAFC_FL_ALL;
		char fmt[32];

		/* A dump selects every flag; a request only those it sets. */
		for (i = 0; i < ARRAY_SIZE(flag_opts); i++) {
			bool set = bf->value & flag_opts[i].bit;

			if (!(sel & flag_opts[i].bit))
				continue;
			snprintf(fmt, sizeof(fmt), "%s %%s ", flag_opts[i].name);
			if (!strcmp(flag_opts[i].w1, "on"))
				print_on_off(PRINT_ANY, flag_opts[i].name, fmt,
					     set);
			else
				print_string(PRINT_ANY, flag_opts[i].name, fmt,
					     set ? flag_opts[i].w1 :
					     flag_opts[i].w0);
		}
	}
	return 0;
}

static __u64 get64(struct rtattr **tb, int type)
{
	if (!tb[type])
		return 0;
	if (RTA_PAYLOAD(tb[type]) >= sizeof(__u64))
		return *(__u64 *)RTA_DATA(tb[type]);
	if (RTA_PAYLOAD(tb[type]) >= sizeof(__u32))
		return get32(tb[type]);
	return 0;
}

static int fafc_print_xstats(struct qdisc_util *qu, FILE *f,
			     struct rtattr *xstats)
{
	static const struct {
		int type;
		const char *key;
		bool nl;	/* a new line before it */
	} cnt[] = {
		{ TCA_FAFC_STATS_TRIGGERS, "triggers", true },
		{ TCA_FAFC_STATS_LP_SOLVES, "lp_solves", false },
		{ TCA_FAFC_STATS_LP_IDLE, "lp_idle", false },
		{ TCA_FAFC_STATS_LP_INFEASIBLE, "lp_infeasible", false },
		{ TCA_FAFC_STATS_LP_CAPPED, "lp_capped", false },
		{ TCA_FAFC_STATS_SOLVE_NS, "solve_ns", false },
		{ TCA_FAFC_STATS_SOLVE_NS_MAX, "solve_ns_max", false },
		{ TCA_FAFC_STATS_USER_SENT, "user_sent", true },
		{ TCA_FAFC_STATS_USER_BUSY, "user_busy", false },
		{ TCA_FAFC_STATS_USER_LATE, "user_late", false },
		{ TCA_FAFC_STATS_USER_STALE, "user_stale", false },
		{ TCA_FAFC_STATS_USER_LOST, "user_lost", false },
		{ TCA_FAFC_STATS_PAUSES, "pauses", true },
		{ TCA_FAFC_STATS_PAUSE_NS, "pause_ns", false },
		{ TCA_FAFC_STATS_CWR, "cwr", false },
	};
	static const struct {
		int type;
		const char *key;
	} s64s[] = {
		{ TCA_FAFC_STATS_QPRED, "qpred" },
		{ TCA_FAFC_STATS_QUEUE, "queue" },
		{ TCA_FAFC_STATS_ECNOF, "ecnof" },
	};
	struct rtattr *tb[TCA_FAFC_STATS_MAX + 1], *scheme;
	unsigned int i;

	if (!xstats)
		return 0;
	fcq_print_xstats(f, xstats);
	scheme = fcq_xstats_scheme(xstats);
	if (!scheme)
		return 0;
	parse_rtattr_nested(tb, TCA_FAFC_STATS_MAX, scheme);

	print_nl();
	open_json_object("fafc");
	print_string(PRINT_FP, NULL, "%s", " fafc: ");
	if (has(tb[TCA_FAFC_STATS_THOP], sizeof(__u32)))
		fcq_print_time("thop", tb[TCA_FAFC_STATS_THOP], NULL);
	if (has(tb[TCA_FAFC_STATS_TH_C], sizeof(__u32)))
		fcq_print_size("th_c", tb[TCA_FAFC_STATS_TH_C], NULL);
	for (i = 0; i < ARRAY_SIZE(s64s); i++) {
		char fmt[32];

		if (!has(tb[s64s[i].type], sizeof(__s64)))
			continue;
		snprintf(fmt, sizeof(fmt), "%s %%" PRId64 " ", s64s[i].key);
		print_s64(PRINT_ANY, s64s[i].key, fmt,
			  *(__s64 *)RTA_DATA(tb[s64s[i].type]));
	}
	for (i = 0; i < ARRAY_SIZE(cnt); i++) {
		if (!tb[cnt[i].type])
			continue;
		if (cnt[i].nl)
			print_nl();
		print_string(PRINT_FP, NULL, " %s", cnt[i].key);
		print_u64(PRINT_ANY, cnt[i].key, " %llu",
			  get64(tb, cnt[i].type));
	}
	close_json_object();
	return 0;
}

struct qdisc_util fafc_qdisc_util __attribute__((visibility("default"))) = {
	.id = "fafc",
	.parse_qopt = fafc_parse_opt,
	.print_qopt = fafc_print_opt,
	.print_xstats = fafc_print_xstats,
};
