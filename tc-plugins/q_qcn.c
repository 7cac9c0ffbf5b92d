// SPDX-License-Identifier: GPL-2.0
/*
 * The tc plugin for the fcq `qcn` qdisc: IEEE 802.1Qau congestion points
 * on a switch port, at its output or its input (Unbiased QCN), with QCN's
 * or DSM's law. See tc-qcn(8).
 */
#include <stdlib.h>
#include <string.h>

#include "fcq_opts.h"
#include <uapi/linux/fcq.h>
#include <uapi/linux/qcn.h>

static void explain(void)
{
	fprintf(stderr,
		"Usage: ... qcn [ cp none | egress | ingress ]\n"
		"  [ sample arrival | occupancy_rand | occupancy_det | occupancy_bytes ]\n"
		"  [ prio PRIO ] [ q_eq SIZE ] [ w N ] [ i_s SIZE ] [ table fixed | std ]\n"
		"  [ b_out SIZE ] [ unit SIZE ] [ units N ] [ probes N ] [ encap BYTES ]\n"
		"  [ seed N ] [ algo qcn | dsm ] [ m N ] [ ha FREQ ] [ hb FREQ ]\n"
		"  [ hc FREQ ] [ omega W ] [ room off | on ] [ clock bytes | time ]\n"
		FCQ_PORT_USAGE
		"FREQ := 160hz | 20khz ... | default   (DSM's H_a, H_b, H_c; each below 2/T)\n"
		"W := 5 | 5.875 ... | default\n"
		"unit, units and seed are fixed when the qdisc is created.\n");
}

/* The uapi's values; NULL ends each list. */
static const char *const cps[] = {
	[QCN_CP_AT_NONE] = "none",
	[QCN_CP_AT_EGRESS] = "egress",
	[QCN_CP_AT_INGRESS] = "ingress",
	[QCN_CP_AT_INGRESS + 1] = NULL,
};
static const char *const samples[] = {
	[QCN_CULPRIT_ARRIVAL] = "arrival",
	[QCN_CULPRIT_OCC_RAND] = "occupancy_rand",
	[QCN_CULPRIT_OCC_DET] = "occupancy_det",
	[QCN_CULPRIT_OCC_BYTES] = "occupancy_bytes",
	[QCN_CULPRIT_OCC_BYTES + 1] = NULL,
};
static const char *const algos[] = {
	[QCN_ALGO_QCN] = "qcn",
	[QCN_ALGO_DSM] = "dsm",
	[QCN_ALGO_DSM + 1] = NULL,
};

static const char *const offon[] = { "off", "on", NULL };
static const char *const clocks[] = {
	[QCN_DSM_CLOCK_BYTES] = "bytes",
	[QCN_DSM_CLOCK_TIME] = "time",
	[QCN_DSM_CLOCK_TIME + 1] = NULL,
};
static const char *const tables[] = {
	[QCN_TABLE_FIXED] = "fixed",
	[QCN_TABLE_STD] = "std",
	[QCN_TABLE_STD + 1] = NULL,
};

/* omega: a positive number, Q16; "default" (0) for the kernel's. */
static int omega_arg(const char *opt, const char *arg, __u32 *v)
{
	if (!strcmp(arg, "default")) {
		*v = 0;
		return 0;
	}
	return fcq_q16_arg(opt, arg, v);
}

static const struct fcq_u32_opt u32_opts[] = {
	{ "prio", TCA_QCN_PRIO, fcq_uint_arg, NULL },
	{ "q_eq", TCA_QCN_Q_EQ, fcq_size_arg, NULL },
	{ "w", TCA_QCN_W, fcq_uint_arg, NULL },
	{ "i_s", TCA_QCN_I_S, fcq_size_arg, NULL },
	{ "b_out", TCA_QCN_B_OUT, fcq_size_arg, NULL },
	{ "unit", TCA_QCN_UNIT, fcq_size_arg, NULL },
	{ "units", TCA_QCN_UNITS, fcq_uint_arg, NULL },
	{ "probes", TCA_QCN_PROBES, fcq_uint_arg, NULL },
	{ "encap", TCA_QCN_ENCAP, fcq_size_arg, NULL },
	{ "seed", TCA_QCN_SEED, fcq_uint_arg, NULL },
	{ "m", TCA_QCN_DSM_M, fcq_uint_arg, NULL },
	{ "ha", TCA_QCN_DSM_HA, fcq_freq_arg, NULL },
	{ "hb", TCA_QCN_DSM_HB, fcq_freq_arg, NULL },
	{ "hc", TCA_QCN_DSM_HC, fcq_freq_arg, NULL },
	{ "omega", TCA_QCN_DSM_OMEGA, omega_arg, NULL },
};

static const struct fcq_word_opt word_opts[] = {
	{ "cp", TCA_QCN_CP, cps, 0 },
	{ "sample", TCA_QCN_SAMPLE, samples, 0 },
	{ "table", TCA_QCN_TABLE, tables, 0 },
	{ "algo", TCA_QCN_ALGO, algos, 0 },
	{ "room", TCA_QCN_DSM_ROOM, offon, 0 },
	{ "clock", TCA_QCN_DSM_CLOCK, clocks, 0 },
};

static int qcn_parse_opt(struct qdisc_util *qu, int argc, char **argv,
			 struct nlmsghdr *n, const char *dev)
{
	static const struct fcq_scheme_parser parser = {
		.u32s = u32_opts,
		.nu32s = ARRAY_SIZE(u32_opts),
		.words = word_opts,
		.nwords = ARRAY_SIZE(word_opts),
		.explain = explain,
	};

	return fcq_parse_qopt(argc, argv, n, &parser);
}

static int qcn_print_opt(struct qdisc_util *qu, FILE *f, struct rtattr *opt)
{
	struct rtattr *tb[TCA_QCN_MAX + 1];

	if (!fcq_print_port_opts(opt, tb, TCA_QCN_MAX))
		return 0;
	fcq_print_word("cp", tb[TCA_QCN_CP], cps, 0);
	fcq_print_word("sample", tb[TCA_QCN_SAMPLE], samples, 0);
	fcq_print_u32("prio", tb[TCA_QCN_PRIO]);
	fcq_print_size("q_eq", tb[TCA_QCN_Q_EQ], NULL);
	fcq_print_u32("w", tb[TCA_QCN_W]);
	fcq_print_size("i_s", tb[TCA_QCN_I_S], NULL);
	fcq_print_word("table", tb[TCA_QCN_TABLE], tables, 0);
	fcq_print_size("b_out", tb[TCA_QCN_B_OUT], NULL);
	fcq_print_size("unit", tb[TCA_QCN_UNIT], NULL);
	fcq_print_u32("units", tb[TCA_QCN_UNITS]);
	fcq_print_u32("probes", tb[TCA_QCN_PROBES]);
	fcq_print_u32("encap", tb[TCA_QCN_ENCAP]);
	fcq_print_u32("seed", tb[TCA_QCN_SEED]);
	fcq_print_word("algo", tb[TCA_QCN_ALGO], algos, 0);
	fcq_print_u32("m", tb[TCA_QCN_DSM_M]);
	fcq_print_freq("ha", tb[TCA_QCN_DSM_HA]);
	fcq_print_freq("hb", tb[TCA_QCN_DSM_HB]);
	fcq_print_freq("hc", tb[TCA_QCN_DSM_HC]);
	fcq_print_q16("omega", tb[TCA_QCN_DSM_OMEGA]);
	fcq_print_word("room", tb[TCA_QCN_DSM_ROOM], offon, 0);
	fcq_print_word("clock", tb[TCA_QCN_DSM_CLOCK], clocks, 0);
	return 0;
}

/*
 * A nest of u64 counters, one attribute each from type 1 on, as " key N N
 * ..." (JSON: an array), skipping pads (type 0).
 */
static void print_u64_nest(const char *key, struct rtattr *nest)
{
	struct rtattr *a;
	__u64 v;
	int rem;

	if (!nest)
		return;
	print_string(PRINT_FP, NULL, " %s", key);
	open_json_array(PRINT_JSON, key);
	rem = RTA_PAYLOAD(nest);
	for (a = RTA_DATA(nest); RTA_OK(a, rem); a = RTA_NEXT(a, rem)) {
		if (!a->rta_type || RTA_PAYLOAD(a) < sizeof(v))
			continue;
		memcpy(&v, RTA_DATA(a), sizeof(v));
		print_u64(PRINT_ANY, NULL, " %llu", v);
	}
	close_json_array(PRINT_JSON, NULL);
}

static int qcn_print_xstats(struct qdisc_util *qu, FILE *f,
			    struct rtattr *xstats)
{
	static const struct fcq_counter cnt[] = {
		{ TCA_QCN_STATS_SAMPLES, "samples", false },
		{ TCA_QCN_STATS_CNM_TX, "cnm_tx", false },
		{ TCA_QCN_STATS_CNM_REFUSED, "cnm_refused", false },
		{ TCA_QCN_STATS_NO_CULPRIT, "no_culprit", false },
		{ TCA_QCN_STATS_UNTRACKED, "untracked", false },
		{ TCA_QCN_STATS_OB_BYTES, "ob_bytes", false },
		{ TCA_QCN_STATS_SAMPLE_NS, "sample_ns", false },
		{ TCA_QCN_STATS_DSM_T, "dsm_t_ns", true },
		{ TCA_QCN_STATS_DSM_CLAMPED, "dsm_clamped", false },
		{ TCA_QCN_STATS_DSM_BOUNDED, "dsm_bounded", false },
	};
	static const struct {
		int type;
		const char *key;
	} last[] = {
		{ TCA_QCN_STATS_DSM_QFH, "dsm_qfh" },
		{ TCA_QCN_STATS_DSM_QVH, "dsm_qvh" },
		{ TCA_QCN_STATS_DSM_FB, "dsm_fb_kbps" },
	};
	char fmt[32];
	size_t i;
	__s64 s;
	struct rtattr *tb[TCA_QCN_STATS_MAX + 1], *scheme;

	scheme = fcq_print_xstats_open(f, xstats, "qcn");
	if (!scheme)
		return 0;
	parse_rtattr_nested(tb, TCA_QCN_STATS_MAX, scheme);
	fcq_print_counters(tb, cnt, ARRAY_SIZE(cnt));
	/* bins 1..8: QntzFb / 8 + 1 */
	print_u64_nest("fb_hist", tb[TCA_QCN_STATS_FB_HIST]);
	for (i = 0; i < ARRAY_SIZE(last); i++) {
		if (!tb[last[i].type] ||
		    RTA_PAYLOAD(tb[last[i].type]) < sizeof(s))
			continue;
		memcpy(&s, RTA_DATA(tb[last[i].type]), sizeof(s));
		snprintf(fmt, sizeof(fmt), " %s %%lld", last[i].key);
		print_s64(PRINT_ANY, last[i].key, fmt, s);
	}
	/* StateA, StateB, StateC, the origin */
	print_u64_nest("dsm_regions", tb[TCA_QCN_STATS_DSM_REGION]);
	close_json_object();
	return 0;
}

struct qdisc_util qcn_qdisc_util __attribute__((visibility("default"))) = {
	.id = "qcn",
	.parse_qopt = qcn_parse_opt,
	.print_qopt = qcn_print_opt,
	.print_xstats = qcn_print_xstats,
};
