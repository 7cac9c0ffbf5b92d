// SPDX-License-Identifier: GPL-2.0
/*
 * The tc plugin for the fcq `qcnrp` qdisc: the IEEE 802.1Qau QCN reaction
 * point of a host NIC, or DSM's. See tc-qcnrp(8).
 */
#include <stdlib.h>
#include <string.h>

#include "fcq_opts.h"
#include <uapi/linux/fcq.h>
#include <uapi/linux/qcn.h>

static void explain(void)
{
	fprintf(stderr,
		"Usage: ... qcnrp [ max_rps N ] [ rl_limit PACKETS ] [ gd_log2 N ]\n"
		"  [ min_dec PERCENT ] [ r_min RATE ] [ r_ai RATE ] [ r_hai RATE ]\n"
		"  [ bc SIZE ] [ t TIME ] [ f_thr N ] [ jitter on | off ]\n"
		"  [ tr_reduce on | off ] [ react TIME ] [ react_jitter TIME ]\n"
		"  [ algo qcn | dsm ] [ seed N ]\n"
		FCQ_PORT_USAGE);
}

static const struct fcq_u32_opt u32_opts[] = {
	{ "max_rps", TCA_QCNRP_MAX_RPS, fcq_uint_arg, NULL },
	{ "rl_limit", TCA_QCNRP_RL_LIMIT, fcq_uint_arg, NULL },
	{ "gd_log2", TCA_QCNRP_GD_LOG2, fcq_uint_arg, NULL },
	{ "min_dec", TCA_QCNRP_MIN_DEC, fcq_uint_arg, NULL },
	{ "bc", TCA_QCNRP_BC, fcq_size_arg, NULL },
	{ "t", TCA_QCNRP_T, fcq_time_arg, NULL },
	{ "f_thr", TCA_QCNRP_F_THR, fcq_uint_arg, NULL },
	{ "react", TCA_QCNRP_REACT, fcq_time_arg, NULL },
	{ "react_jitter", TCA_QCNRP_REACT_JITTER, fcq_time_arg, NULL },
	{ "seed", TCA_QCNRP_SEED, fcq_uint_arg, NULL },
};

static const char *const algos[] = {
	[QCN_ALGO_QCN] = "qcn",
	[QCN_ALGO_DSM] = "dsm",
	[QCN_ALGO_DSM + 1] = NULL,
};

static const struct fcq_word_opt word_opts[] = {
	{ "algo", TCA_QCNRP_ALGO, algos, 0 },
};

static const struct fcq_flag_opt flag_opts[] = {
	{ "jitter", QCNRP_FL_JITTER, "off", "on" },
	{ "tr_reduce", QCNRP_FL_TR_REDUCE, "off", "on" },
};

/* The u64 rate options: r_min, r_ai, r_hai. */
static int rate_opt(int *argcp, char ***argvp, struct fcq_scheme_req *own)
{
	static const struct {
		const char *name;
		int type;
	} rates[] = {
		{ "r_min", TCA_QCNRP_R_MIN },
		{ "r_ai", TCA_QCNRP_R_AI },
		{ "r_hai", TCA_QCNRP_R_HAI },
	};
	char **argv = *argvp;
	int argc = *argcp;
	size_t i;
	__u64 v;

	for (i = 0; i < ARRAY_SIZE(rates); i++)
		if (!strcmp(*argv, rates[i].name))
			break;
	if (i == ARRAY_SIZE(rates))
		return 0;
	NEXT_ARG();
	if (get_rate64(&v, *argv) || **argv == '-')
		return fcq_bad(rates[i].name, *argv,
			       "expected a rate like 100kbit, 5mbit");
	addattr_l(&own->n, FCQ_MAXLEN, rates[i].type, &v, sizeof(v));
	*argcp = argc - 1;
	*argvp = argv + 1;
	return 1;
}

static int qcnrp_parse_opt(struct qdisc_util *qu, int argc, char **argv,
			   struct nlmsghdr *n, const char *dev)
{
	static const struct fcq_scheme_parser parser = {
		.u32s = u32_opts,
		.nu32s = ARRAY_SIZE(u32_opts),
		.words = word_opts,
		.nwords = ARRAY_SIZE(word_opts),
		.flags = flag_opts,
		.nflags = ARRAY_SIZE(flag_opts),
		.opt = rate_opt,
		.flags_type = TCA_QCNRP_FLAGS,
		.explain = explain,
	};

	return fcq_parse_qopt(argc, argv, n, &parser);
}

static void print_rate(const char *key, struct rtattr *a)
{
	char fmt[32];

	if (!a || RTA_PAYLOAD(a) < 8)
		return;
	snprintf(fmt, sizeof(fmt), "%s %%s ", key);
	tc_print_rate(PRINT_ANY, key, fmt, *(__u64 *)RTA_DATA(a));
}

static int qcnrp_print_opt(struct qdisc_util *qu, FILE *f, struct rtattr *opt)
{
	struct rtattr *tb[TCA_QCNRP_MAX + 1];

	if (!fcq_print_port_opts(opt, tb, TCA_QCNRP_MAX))
		return 0;
	fcq_print_u32("max_rps", tb[TCA_QCNRP_MAX_RPS]);
	fcq_print_u32("rl_limit", tb[TCA_QCNRP_RL_LIMIT]);
	fcq_print_u32("gd_log2", tb[TCA_QCNRP_GD_LOG2]);
	fcq_print_u32("min_dec", tb[TCA_QCNRP_MIN_DEC]);
	print_rate("r_min", tb[TCA_QCNRP_R_MIN]);
	print_rate("r_ai", tb[TCA_QCNRP_R_AI]);
	print_rate("r_hai", tb[TCA_QCNRP_R_HAI]);
	fcq_print_size("bc", tb[TCA_QCNRP_BC], NULL);
	fcq_print_time("t", tb[TCA_QCNRP_T], NULL);
	fcq_print_u32("f_thr", tb[TCA_QCNRP_F_THR]);
	fcq_print_flag_words(tb[TCA_QCNRP_FLAGS], flag_opts,
			     ARRAY_SIZE(flag_opts));
	fcq_print_time("react", tb[TCA_QCNRP_REACT], NULL);
	fcq_print_time("react_jitter", tb[TCA_QCNRP_REACT_JITTER], NULL);
	fcq_print_word("algo", tb[TCA_QCNRP_ALGO], algos, 0);
	fcq_print_u32("seed", tb[TCA_QCNRP_SEED]);
	return 0;
}

/*
 * The RLs in use: "rl DA prio P cr RATE tr RATE cnms N backlog N"; DSM's
 * have no target rate, and may name the CP of their last cut.
 */
static void print_rls(struct rtattr *nest)
{
	struct rtattr *r[TCA_QCNRP_RL_MAX + 1], *a;
	int rem = RTA_PAYLOAD(nest);
	char mac[32];

	open_json_array(PRINT_JSON, "rls");
	for (a = RTA_DATA(nest); RTA_OK(a, rem); a = RTA_NEXT(a, rem)) {
		if ((a->rta_type & ~NLA_F_NESTED) != TCA_QCNRP_RL)
			continue;
		parse_rtattr_nested(r, TCA_QCNRP_RL_MAX, a);
		if (!r[TCA_QCNRP_RL_DA] || RTA_PAYLOAD(r[TCA_QCNRP_RL_DA]) < 6 ||
		    !r[TCA_QCNRP_RL_PRIO] || !r[TCA_QCNRP_RL_CR] ||
		    !r[TCA_QCNRP_RL_CNMS] || !r[TCA_QCNRP_RL_BACKLOG])
			continue;
		ll_addr_n2a(RTA_DATA(r[TCA_QCNRP_RL_DA]), 6, 0, mac,
			    sizeof(mac));
		print_nl();
		open_json_object(NULL);
		print_string(PRINT_ANY, "da", "  rl %s", mac);
		print_uint(PRINT_ANY, "prio", " prio %u",
			   *(__u8 *)RTA_DATA(r[TCA_QCNRP_RL_PRIO]));
		tc_print_rate(PRINT_ANY, "cr", " cr %s",
			      *(__u64 *)RTA_DATA(r[TCA_QCNRP_RL_CR]));
		if (r[TCA_QCNRP_RL_TR])
			tc_print_rate(PRINT_ANY, "tr", " tr %s",
				      *(__u64 *)RTA_DATA(r[TCA_QCNRP_RL_TR]));
		print_u64(PRINT_ANY, "cnms", " cnms %llu",
			  *(__u64 *)RTA_DATA(r[TCA_QCNRP_RL_CNMS]));
		print_uint(PRINT_ANY, "backlog", " backlog %u",
			   *(__u32 *)RTA_DATA(r[TCA_QCNRP_RL_BACKLOG]));
		if (r[TCA_QCNRP_RL_CPID] &&
		    RTA_PAYLOAD(r[TCA_QCNRP_RL_CPID]) >= 8) {
			ll_addr_n2a(RTA_DATA(r[TCA_QCNRP_RL_CPID]), 8, 0, mac,
				    sizeof(mac));
			print_string(PRINT_ANY, "cpid", " cpid %s", mac);
		}
		close_json_object();
	}
	close_json_array(PRINT_JSON, NULL);
}

static int qcnrp_print_xstats(struct qdisc_util *qu, FILE *f,
			      struct rtattr *xstats)
{
	static const struct fcq_counter cnt[] = {
		{ TCA_QCNRP_STATS_CNM_RX, "cnm_rx", false },
		{ TCA_QCNRP_STATS_CNM_ZERO, "cnm_zero", false },
		{ TCA_QCNRP_STATS_CNM_NOT_OURS, "cnm_not_ours", false },
		{ TCA_QCNRP_STATS_CNM_BAD, "cnm_bad", false },
		{ TCA_QCNRP_STATS_CNM_LATE, "cnm_late", true },
		{ TCA_QCNRP_STATS_RL_FULL, "rl_full", false },
		{ TCA_QCNRP_STATS_RL_CREATED, "rl_created", false },
		{ TCA_QCNRP_STATS_RL_FREED, "rl_freed", false },
		{ TCA_QCNRP_STATS_DROP_RL, "drop_rl", false },
		{ TCA_QCNRP_STATS_CNM_ALGO, "cnm_algo", false },
		{ TCA_QCNRP_STATS_DSM_IGNORED, "dsm_ignored", false },
		{ TCA_QCNRP_STATS_DSM_CLAMPED, "dsm_clamped", false },
		{ TCA_QCNRP_STATS_CNM_FLUSHED, "cnm_flushed", false },
	};
	struct rtattr *tb[TCA_QCNRP_STATS_MAX + 1], *scheme;

	scheme = fcq_print_xstats_open(f, xstats, "qcnrp");
	if (!scheme)
		return 0;
	parse_rtattr_nested(tb, TCA_QCNRP_STATS_MAX, scheme);
	fcq_print_counters(tb, cnt, ARRAY_SIZE(cnt));
	if (tb[TCA_QCNRP_STATS_RLS])
		print_rls(tb[TCA_QCNRP_STATS_RLS]);
	close_json_object();
	return 0;
}

struct qdisc_util qcnrp_qdisc_util __attribute__((visibility("default"))) = {
	.id = "qcnrp",
	.parse_qopt = qcnrp_parse_opt,
	.print_qopt = qcnrp_print_opt,
	.print_xstats = qcnrp_print_xstats,
};
