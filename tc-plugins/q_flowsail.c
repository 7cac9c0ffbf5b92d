// SPDX-License-Identifier: GPL-2.0
/*
 * The tc plugin for the fcq `flowsail` qdisc: FlowSail per-flow flow
 * control over a few queues, and its baselines. See tc-flowsail(8).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fcq_opts.h"
#include <uapi/linux/fcq.h>
#include <uapi/linux/flowsail.h>

static void explain(void)
{
	fprintf(stderr,
		"Usage: ... flowsail [ mode flowsail | bfc | ideal | pfc | fifo ]\n"
		"  [ queues N ] [ flows N ] [ hrtt TIME | auto ]\n"
		"  [ ql HBDP ] [ qh HBDP | off ] [ ql_bytes SIZE | auto ]\n"
		"  [ qh_bytes SIZE | auto ] [ release HRTT ] [ quantum SIZE ]\n"
		"  [ om on | off ] [ pause_orig on | off ] [ map dynamic | single ]\n"
		"  [ nactive active | nonpaused ] [ pause_timeout TIME | off ]\n"
		"  [ strict PRIOS ]\n"
		FCQ_PORT_USAGE
		"HBDP, HRTT: multiples of the one-hop BDP (rate x hrtt) and RTT,\n"
		"to 1/1000 (ql 0.5). mode, queues and flows are fixed when the\n"
		"qdisc is created.\n");
}

/* In enum flowsail_mode order. */
static const char *const modes[] = {
	"flowsail", "bfc", "ideal", "pfc", "fifo", NULL
};

/* A multiple of HBDP or HRTT, in thousandths: "1", "0.5", "2.25". */
static int milli_arg(const char *opt, const char *arg, __u32 *v)
{
	char *end;
	double d;

	errno = 0;
	d = strtod(arg, &end);
	if (errno || end == arg || *end || !(d >= 0) || d > 100)
		return fcq_bad(opt, arg, "expected a number from 0 to 100");
	*v = (__u32)(d * 1000 + 0.5);
	return 0;
}

static const struct fcq_u32_opt u32_opts[] = {
	{ "queues", TCA_FLOWSAIL_QUEUES, fcq_uint_arg, NULL },
	{ "flows", TCA_FLOWSAIL_FLOWS, fcq_uint_arg, NULL },
	{ "hrtt", TCA_FLOWSAIL_HRTT, fcq_time_arg, "auto" },
	{ "ql", TCA_FLOWSAIL_QL, milli_arg, NULL },
	{ "qh", TCA_FLOWSAIL_QH, milli_arg, "off" },
	{ "ql_bytes", TCA_FLOWSAIL_QL_BYTES, fcq_size_arg, "auto" },
	{ "qh_bytes", TCA_FLOWSAIL_QH_BYTES, fcq_size_arg, "auto" },
	{ "release", TCA_FLOWSAIL_RELEASE, milli_arg, NULL },
	{ "quantum", TCA_FLOWSAIL_QUANTUM, fcq_size_arg, NULL },
	{ "pause_timeout", TCA_FLOWSAIL_PAUSE_TIMEOUT, fcq_time_arg, "off" },
};

static const struct fcq_word_opt word_opts[] = {
	{ "mode", TCA_FLOWSAIL_MODE, modes, FLOWSAIL_MODE_FLOWSAIL },
};

static const struct fcq_flag_opt flag_opts[] = {
	{ "om", FLOWSAIL_FL_OM, "off", "on" },
	{ "pause_orig", FLOWSAIL_FL_PAUSE_ORIG, "off", "on" },
	{ "map", FLOWSAIL_FL_MAP_SINGLE, "dynamic", "single" },
	{ "nactive", FLOWSAIL_FL_NONPAUSED, "active", "nonpaused" },
};

static int flowsail_parse_opt(struct qdisc_util *qu, int argc, char **argv,
			      struct nlmsghdr *n, const char *dev)
{
	static const struct fcq_scheme_parser parser = {
		.u32s = u32_opts,
		.nu32s = ARRAY_SIZE(u32_opts),
		.words = word_opts,
		.nwords = ARRAY_SIZE(word_opts),
		.flags = flag_opts,
		.nflags = ARRAY_SIZE(flag_opts),
		.strict_type = TCA_FLOWSAIL_STRICT,
		.flags_type = TCA_FLOWSAIL_FLAGS,
		.explain = explain,
	};

	return fcq_parse_qopt(argc, argv, n, &parser);
}

static bool u32_of(struct rtattr *a, __u32 *v)
{
	if (!a || RTA_PAYLOAD(a) < 4)
		return false;
	*v = *(__u32 *)RTA_DATA(a);
	return true;
}

/* A thousandths attribute as "key 1.5 " (JSON: 1.5); 0 as @zero. */
static void print_milli(const char *key, struct rtattr *a, const char *zero)
{
	char fmt[32];
	__u32 v;

	if (!u32_of(a, &v))
		return;
	if (!v && zero) {
		snprintf(fmt, sizeof(fmt), "%s %%s ", key);
		print_string(PRINT_ANY, key, fmt, zero);
		return;
	}
	snprintf(fmt, sizeof(fmt), "%s %%g ", key);
	print_float(PRINT_ANY, key, fmt, v / 1000.0);
}

static int flowsail_print_opt(struct qdisc_util *qu, FILE *f,
			      struct rtattr *opt)
{
	struct rtattr *tb[TCA_FLOWSAIL_MAX + 1];
	__u32 v;

	if (!fcq_print_port_opts(opt, tb, TCA_FLOWSAIL_MAX))
		return 0;
	fcq_print_word("mode", tb[TCA_FLOWSAIL_MODE], modes,
		       FLOWSAIL_MODE_FLOWSAIL);
	if (u32_of(tb[TCA_FLOWSAIL_QUEUES], &v))
		print_uint(PRINT_ANY, "queues", "queues %u ", v);
	if (u32_of(tb[TCA_FLOWSAIL_FLOWS], &v))
		print_uint(PRINT_ANY, "flows", "flows %u ", v);
	fcq_print_time("hrtt", tb[TCA_FLOWSAIL_HRTT], "auto");
	print_milli("ql", tb[TCA_FLOWSAIL_QL], NULL);
	print_milli("qh", tb[TCA_FLOWSAIL_QH], "off");
	fcq_print_size("ql_bytes", tb[TCA_FLOWSAIL_QL_BYTES], "auto");
	fcq_print_size("qh_bytes", tb[TCA_FLOWSAIL_QH_BYTES], "auto");
	print_milli("release", tb[TCA_FLOWSAIL_RELEASE], NULL);
	fcq_print_size("quantum", tb[TCA_FLOWSAIL_QUANTUM], NULL);
	fcq_print_flag_words(tb[TCA_FLOWSAIL_FLAGS], flag_opts,
			     ARRAY_SIZE(flag_opts));
	fcq_print_time("pause_timeout", tb[TCA_FLOWSAIL_PAUSE_TIMEOUT], "off");
	if (tb[TCA_FLOWSAIL_STRICT])
		fcq_print_prios("strict",
				*(__u8 *)RTA_DATA(tb[TCA_FLOWSAIL_STRICT]));
	return 0;
}

/* The queues that are not idle: "prio/index bytes flows holds". */
static void print_queues(struct rtattr *nest)
{
	struct rtattr *q[TCA_FLOWSAIL_Q_MAX + 1], *a;
	int rem = RTA_PAYLOAD(nest);

	open_json_array(PRINT_JSON, "queues");
	for (a = RTA_DATA(nest); RTA_OK(a, rem); a = RTA_NEXT(a, rem)) {
		__u32 bytes = 0, flows = 0, holds = 0;
		__u8 prio = 0;
		__u16 idx = 0;

		if ((a->rta_type & ~NLA_F_NESTED) != TCA_FLOWSAIL_Q)
			continue;
		parse_rtattr_nested(q, TCA_FLOWSAIL_Q_MAX, a);
		if (q[TCA_FLOWSAIL_Q_PRIO])
			prio = *(__u8 *)RTA_DATA(q[TCA_FLOWSAIL_Q_PRIO]);
		if (q[TCA_FLOWSAIL_Q_INDEX])
			idx = *(__u16 *)RTA_DATA(q[TCA_FLOWSAIL_Q_INDEX]);
		u32_of(q[TCA_FLOWSAIL_Q_BYTES], &bytes);
		u32_of(q[TCA_FLOWSAIL_Q_FLOWS], &flows);
		u32_of(q[TCA_FLOWSAIL_Q_HOLDS], &holds);
		print_nl();
		open_json_object(NULL);
		print_uint(PRINT_ANY, "prio", "  queue %u", prio);
		print_uint(PRINT_ANY, "index", "/%u", idx);
		print_uint(PRINT_ANY, "bytes", " bytes %u", bytes);
		print_uint(PRINT_ANY, "flows", " flows %u", flows);
		print_uint(PRINT_ANY, "holds", " holds %u", holds);
		close_json_object();
	}
	close_json_array(PRINT_JSON, NULL);
}

static int flowsail_print_xstats(struct qdisc_util *qu, FILE *f,
				 struct rtattr *xstats)
{
	static const struct fcq_counter cnt[] = {
		{ TCA_FLOWSAIL_STATS_MARKS_QH, "marks_qh", false },
		{ TCA_FLOWSAIL_STATS_MARKS_FAIR, "marks_fair", false },
		{ TCA_FLOWSAIL_STATS_MARKS_LONE, "marks_lone", false },
		{ TCA_FLOWSAIL_STATS_MARKS_QUEUE, "marks_queue", false },
		{ TCA_FLOWSAIL_STATS_PAUSES, "pauses", true },
		{ TCA_FLOWSAIL_STATS_RESUMES, "resumes", false },
		{ TCA_FLOWSAIL_STATS_PAUSE_RX, "pause_rx", false },
		{ TCA_FLOWSAIL_STATS_RESUME_RX, "resume_rx", false },
		{ TCA_FLOWSAIL_STATS_CFT_INSERT, "cft_insert", true },
		{ TCA_FLOWSAIL_STATS_CFT_DELETE, "cft_delete", false },
		{ TCA_FLOWSAIL_STATS_OM_PAIRS, "om_pairs", false },
		{ TCA_FLOWSAIL_STATS_PINNED, "pinned", false },
		{ TCA_FLOWSAIL_STATS_ALL_RX, "all_rx", false },
		{ TCA_FLOWSAIL_STATS_UNTRACKED, "untracked", true },
		{ TCA_FLOWSAIL_STATS_NO_KEY, "no_key", false },
	};
	struct rtattr *tb[TCA_FLOWSAIL_STATS_MAX + 1], *scheme;
	__u32 v;

	scheme = fcq_print_xstats_open(f, xstats, "flowsail");
	if (!scheme)
		return 0;
	parse_rtattr_nested(tb, TCA_FLOWSAIL_STATS_MAX, scheme);
	if (u32_of(tb[TCA_FLOWSAIL_STATS_FLOWS], &v))
		print_uint(PRINT_ANY, "flows", " flows %u", v);
	fcq_print_counters(tb, cnt, ARRAY_SIZE(cnt));
	if (tb[TCA_FLOWSAIL_STATS_QUEUES])
		print_queues(tb[TCA_FLOWSAIL_STATS_QUEUES]);
	close_json_object();
	return 0;
}

struct qdisc_util flowsail_qdisc_util __attribute__((visibility("default"))) = {
	.id = "flowsail",
	.parse_qopt = flowsail_parse_opt,
	.print_qopt = flowsail_print_opt,
	.print_xstats = flowsail_print_xstats,
};
