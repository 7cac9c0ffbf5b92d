// SPDX-License-Identifier: GPL-2.0
/*
 * The tc plugin for the fcq `pfc` qdisc (IEEE 802.1Qbb PFC).
 * See tc-pfc(8).
 */
#include <stdlib.h>
#include <string.h>

#include "fcq_opts.h"
#include <uapi/linux/fcq.h>

static void explain(void)
{
	fprintf(stderr,
		"Usage: ... pfc [ strict PRIOS ] [ quanta Q0 Q1 Q2 Q3 Q4 Q5 Q6 Q7 ]\n"
		"  [ sched fifo | drr ]\n"
		FCQ_PORT_USAGE);
}

static int pfc_opt(int *argcp, char ***argvp, struct fcq_scheme_req *own)
{
	char **argv = *argvp;
	int argc = *argcp;

	if (!strcmp(*argv, "strict")) {
		__u8 mask;

		NEXT_ARG();
		if (fcq_get_prios("strict", *argv, &mask))
			return -1;
		fcq_put_u8(&own->n, TCA_PFC_STRICT, mask);
	} else if (!strcmp(*argv, "quanta")) {
		__u32 q[FCQ_NUM_PRIO];
		int i;

		for (i = 0; i < FCQ_NUM_PRIO; i++) {
			NEXT_ARG();
			if (fcq_size_arg("quanta", *argv, &q[i]))
				return -1;
		}
		fcq_put_array(&own->n, TCA_PFC_QUANTA, TCA_PFC_QUANTUM,
			      sizeof(__u32), q, FCQ_NUM_PRIO);
	} else if (!strcmp(*argv, "sched")) {
		/* in enum fcq_sched order */
		static const char *const words[] = { "fifo", "drr", NULL };
		int s;

		NEXT_ARG();
		s = fcq_word_arg("sched", *argv, words);
		if (s < 0)
			return -1;
		fcq_put_u8(&own->n, TCA_PFC_SCHED, s);
	} else {
		return 0;
	}
	*argcp = argc - 1;
	*argvp = argv + 1;
	return 1;
}

static int pfc_parse_opt(struct qdisc_util *qu, int argc, char **argv,
			 struct nlmsghdr *n, const char *dev)
{
	static const struct fcq_scheme_parser parser = {
		.opt = pfc_opt,
		.explain = explain,
	};

	return fcq_parse_qopt(argc, argv, n, &parser);
}

static int pfc_print_opt(struct qdisc_util *qu, FILE *f, struct rtattr *opt)
{
	struct rtattr *tb[TCA_PFC_MAX + 1];

	if (!fcq_print_port_opts(opt, tb, TCA_PFC_MAX))
		return 0;
	if (tb[TCA_PFC_STRICT])
		fcq_print_prios("strict", *(__u8 *)RTA_DATA(tb[TCA_PFC_STRICT]));
	if (tb[TCA_PFC_QUANTA]) {
		__u32 q[FCQ_NUM_PRIO];
		int i, n;

		n = fcq_get_array(tb[TCA_PFC_QUANTA], TCA_PFC_QUANTUM, q,
				  FCQ_NUM_PRIO);
		open_json_array(PRINT_ANY, "quanta");
		for (i = 0; i < n; i++)
			print_uint(PRINT_ANY, NULL, " %u", q[i]);
		close_json_array(PRINT_ANY, " ");
	}
	if (tb[TCA_PFC_SCHED] && RTA_PAYLOAD(tb[TCA_PFC_SCHED]) >= 1)
		print_string(PRINT_ANY, "sched", "sched %s ",
			     *(__u8 *)RTA_DATA(tb[TCA_PFC_SCHED]) ==
			     FCQ_SCHED_DRR ? "drr" : "fifo");
	return 0;
}

static int pfc_print_xstats(struct qdisc_util *qu, FILE *f,
			    struct rtattr *xstats)
{
	return fcq_print_xstats(f, xstats);
}

struct qdisc_util pfc_qdisc_util __attribute__((visibility("default"))) = {
	.id = "pfc",
	.parse_qopt = pfc_parse_opt,
	.print_qopt = pfc_print_opt,
	.print_xstats = pfc_print_xstats,
};
