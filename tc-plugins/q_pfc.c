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

static int pfc_parse_opt(struct qdisc_util *qu, int argc, char **argv,
			 struct nlmsghdr *n, const char *dev)
{
	struct rtattr *tail = addattr_nest(n, FCQ_MAXLEN, TCA_OPTIONS | NLA_F_NESTED);
	struct fcq_scheme_req own;
	int ret;

	fcq_scheme_begin(&own);
	while (argc > 0) {
		ret = fcq_parse_port_opt(&argc, &argv, n);
		if (ret < 0)
			return -1;
		if (ret)
			continue;
		if (!strcmp(*argv, "strict")) {
			__u8 mask;

			NEXT_ARG();
			if (fcq_get_prios("strict", *argv, &mask))
				return -1;
			fcq_put_u8(&own.n, TCA_PFC_STRICT, mask);
		} else if (!strcmp(*argv, "quanta")) {
			struct rtattr *nest;
			__u32 q[FCQ_NUM_PRIO];
			int i;

			for (i = 0; i < FCQ_NUM_PRIO; i++) {
				NEXT_ARG();
				if (fcq_size_arg("quanta", *argv, &q[i]))
					return -1;
			}
			nest = addattr_nest(&own.n, FCQ_MAXLEN,
					    TCA_PFC_QUANTA | NLA_F_NESTED);
			for (i = 0; i < FCQ_NUM_PRIO; i++)
				fcq_put_u32(&own.n, TCA_PFC_QUANTUM, q[i]);
			addattr_nest_end(&own.n, nest);
		} else if (!strcmp(*argv, "sched")) {
			/* in enum fcq_sched order */
			static const char *const words[] = { "fifo", "drr", NULL };
			int s;

			NEXT_ARG();
			s = fcq_word_arg("sched", *argv, words);
			if (s < 0)
				return -1;
			fcq_put_u8(&own.n, TCA_PFC_SCHED, s);
		} else if (!strcmp(*argv, "help")) {
			explain();
			return -1;
		} else {
			fprintf(stderr, "What is \"%s\"?\n", *argv);
			explain();
			return -1;
		}
		argc--;
		argv++;
	}
	fcq_scheme_end(n, &own);
	addattr_nest_end(n, tail);
	return 0;
}

static int pfc_print_opt(struct qdisc_util *qu, FILE *f, struct rtattr *opt)
{
	struct rtattr *tb[TCA_PFC_MAX + 1], *own;

	if (!opt)
		return 0;
	own = fcq_print_port_opts(opt);
	if (!own)
		return 0;
	parse_rtattr_nested(tb, TCA_PFC_MAX, own);
	if (tb[TCA_PFC_STRICT])
		fcq_print_prios("strict", *(__u8 *)RTA_DATA(tb[TCA_PFC_STRICT]));
	if (tb[TCA_PFC_QUANTA]) {
		struct rtattr *a;
		int rem = RTA_PAYLOAD(tb[TCA_PFC_QUANTA]);

		open_json_array(PRINT_ANY, "quanta");
		for (a = RTA_DATA(tb[TCA_PFC_QUANTA]); RTA_OK(a, rem);
		     a = RTA_NEXT(a, rem))
			if (a->rta_type == TCA_PFC_QUANTUM &&
			    RTA_PAYLOAD(a) >= sizeof(__u32))
				print_uint(PRINT_ANY, NULL, " %u",
					   *(__u32 *)RTA_DATA(a));
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
