// SPDX-License-Identifier: GPL-2.0
/*
 * The tc plugin for the fcq `ofc` qdisc: OFC, original-congestion-based
 * fine-grained PFC. See tc-ofc(8).
 */
#include <stdlib.h>
#include <string.h>

#include "fcq_opts.h"
#include <uapi/linux/fcq.h>
#include <uapi/linux/ofc.h>

static void explain(void)
{
	fprintf(stderr,
		"Usage: ... ofc [ mode ofc | capfc | pfc ] [ key pair | dst | 5tuple ]\n"
		"  [ flows N ] [ xoff_c SIZE | auto ] [ xegress SIZE | auto ]\n"
		"  [ pause_timeout TIME | off ] [ strict_orig on | off ]\n"
		"  [ strict PRIOS ] [ quanta Q0 Q1 Q2 Q3 Q4 Q5 Q6 Q7 ]\n"
		FCQ_PORT_USAGE
		"mode, key and flows are fixed when the qdisc is created.\n");
}

/* In enum ofc_mode and enum ofc_key order (keys from 1). */
static const char *const modes[] = { "ofc", "capfc", "pfc", NULL };
static const char *const keys[] = { "pair", "dst", "5tuple", NULL };

static const struct fcq_u32_opt u32_opts[] = {
	{ "flows", TCA_OFC_FLOWS, fcq_uint_arg, NULL },
	{ "xoff_c", TCA_OFC_XOFF_C, fcq_size_arg, "auto" },
	{ "xegress", TCA_OFC_XEGRESS, fcq_size_arg, "auto" },
	{ "pause_timeout", TCA_OFC_PAUSE_TIMEOUT, fcq_time_arg, "off" },
};

static const struct fcq_flag_opt flag_opts[] = {
	{ "strict_orig", OFC_FL_STRICT_ORIG, "off", "on" },
};

static const struct fcq_word_opt word_opts[] = {
	{ "mode", TCA_OFC_MODE, modes, OFC_MODE_OFC },
	{ "key", TCA_OFC_KEY, keys, OFC_KEY_PAIR },
};

static int ofc_opt(int *argcp, char ***argvp, struct fcq_scheme_req *own)
{
	char **argv = *argvp;
	int argc = *argcp;
	__u32 q[FCQ_NUM_PRIO];
	int i;

	if (strcmp(**argvp, "quanta"))
		return 0;
	for (i = 0; i < FCQ_NUM_PRIO; i++) {
		NEXT_ARG();
		if (fcq_size_arg("quanta", *argv, &q[i]))
			return -1;
	}
	fcq_put_array(&own->n, TCA_OFC_QUANTA, TCA_OFC_QUANTUM,
		      sizeof(__u32), q, FCQ_NUM_PRIO);
	*argcp = argc - 1;
	*argvp = argv + 1;
	return 1;
}

static int ofc_parse_opt(struct qdisc_util *qu, int argc, char **argv,
			 struct nlmsghdr *n, const char *dev)
{
	static const struct fcq_scheme_parser parser = {
		.u32s = u32_opts,
		.nu32s = ARRAY_SIZE(u32_opts),
		.words = word_opts,
		.nwords = ARRAY_SIZE(word_opts),
		.flags = flag_opts,
		.nflags = ARRAY_SIZE(flag_opts),
		.strict_type = TCA_OFC_STRICT,
		.opt = ofc_opt,
		.flags_type = TCA_OFC_FLAGS,
		.explain = explain,
	};

	return fcq_parse_qopt(argc, argv, n, &parser);
}

static int ofc_print_opt(struct qdisc_util *qu, FILE *f, struct rtattr *opt)
{
	struct rtattr *tb[TCA_OFC_MAX + 1];

	if (!fcq_print_port_opts(opt, tb, TCA_OFC_MAX))
		return 0;
	fcq_print_word("mode", tb[TCA_OFC_MODE], modes, OFC_MODE_OFC);
	fcq_print_word("key", tb[TCA_OFC_KEY], keys, OFC_KEY_PAIR);
	if (tb[TCA_OFC_FLOWS] && RTA_PAYLOAD(tb[TCA_OFC_FLOWS]) >= 4)
		print_uint(PRINT_ANY, "flows", "flows %u ",
			   *(__u32 *)RTA_DATA(tb[TCA_OFC_FLOWS]));
	fcq_print_size("xoff_c", tb[TCA_OFC_XOFF_C], NULL);
	fcq_print_size("xegress", tb[TCA_OFC_XEGRESS], "auto");
	fcq_print_time("pause_timeout", tb[TCA_OFC_PAUSE_TIMEOUT], "off");
	if (tb[TCA_OFC_FLAGS] &&
	    RTA_PAYLOAD(tb[TCA_OFC_FLAGS]) >= sizeof(struct nla_bitfield32)) {
		struct nla_bitfield32 *fl = RTA_DATA(tb[TCA_OFC_FLAGS]);

		print_string(PRINT_ANY, "strict_orig", "strict_orig %s ",
			     fl->value & OFC_FL_STRICT_ORIG ? "on" : "off");
	}
	if (tb[TCA_OFC_STRICT])
		fcq_print_prios("strict", *(__u8 *)RTA_DATA(tb[TCA_OFC_STRICT]));
	if (tb[TCA_OFC_QUANTA]) {
		__u32 q[FCQ_NUM_PRIO];
		int i, n;

		n = fcq_get_array(tb[TCA_OFC_QUANTA], TCA_OFC_QUANTUM, q,
				  FCQ_NUM_PRIO);
		open_json_array(PRINT_ANY, "quanta");
		for (i = 0; i < n; i++)
			print_uint(PRINT_ANY, NULL, " %u", q[i]);
		close_json_array(PRINT_ANY, " ");
	}
	return 0;
}

static int ofc_print_xstats(struct qdisc_util *qu, FILE *f,
			    struct rtattr *xstats)
{
	static const struct fcq_counter cnt[] = {
		{ TCA_OFC_STATS_ORIG, "orig", false },
		{ TCA_OFC_STATS_LOCAL, "local", false },
		{ TCA_OFC_STATS_EXTRA, "extra", false },
		{ TCA_OFC_STATS_ALL, "all", false },
		{ TCA_OFC_STATS_COARSE, "coarse", false },
		{ TCA_OFC_STATS_MOVED, "moved", true },
		{ TCA_OFC_STATS_DRAINS, "drains", false },
		{ TCA_OFC_STATS_FIT_FULL, "fit_full", false },
		{ TCA_OFC_STATS_UNTRACKED, "untracked", false },
	};
	struct rtattr *tb[TCA_OFC_STATS_MAX + 1], *scheme;

	scheme = fcq_print_xstats_open(f, xstats, "ofc");
	if (!scheme)
		return 0;
	parse_rtattr_nested(tb, TCA_OFC_STATS_MAX, scheme);
	if (tb[TCA_OFC_STATS_FIT_FLOWS])
		print_uint(PRINT_ANY, "fit_flows", " fit_flows %u",
			   *(__u32 *)RTA_DATA(tb[TCA_OFC_STATS_FIT_FLOWS]));
	if (tb[TCA_OFC_STATS_PAUSED_MASK])
		print_uint(PRINT_ANY, "paused_mask", " paused_mask 0x%02x",
			   *(__u8 *)RTA_DATA(tb[TCA_OFC_STATS_PAUSED_MASK]));
	if (tb[TCA_OFC_STATS_DRAIN_MASK])
		print_uint(PRINT_ANY, "drain_mask", " drain_mask 0x%02x",
			   *(__u8 *)RTA_DATA(tb[TCA_OFC_STATS_DRAIN_MASK]));
	fcq_print_counters(tb, cnt, ARRAY_SIZE(cnt));
	close_json_object();
	return 0;
}

struct qdisc_util ofc_qdisc_util __attribute__((visibility("default"))) = {
	.id = "ofc",
	.parse_qopt = ofc_parse_opt,
	.print_qopt = ofc_print_opt,
	.print_xstats = ofc_print_xstats,
};
