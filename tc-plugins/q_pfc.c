// SPDX-License-Identifier: GPL-2.0
/*
 * q_pfc.c - tc plugin for the fcq `pfc` qdisc (IEEE 802.1Qbb PFC).
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

	while (argc > 0) {
		if (fcq_parse_port_opt(&argc, &argv, n))
			continue;
		if (!strcmp(*argv, "strict")) {
			__u8 mask;

			NEXT_ARG();
			mask = fcq_get_prios("strict", *argv);
			fcq_put_u8(n, TCA_PFC_STRICT, mask);
		} else if (!strcmp(*argv, "quanta")) {
			__u32 quanta[FCQ_NUM_PRIO];
			unsigned int q;
			int i;

			for (i = 0; i < FCQ_NUM_PRIO; i++) {
				NEXT_ARG();
				if (get_size(&q, *argv))
					fcq_bad("quanta", *argv,
						"expected 8 sizes in bytes, one per priority");
				quanta[i] = q;
			}
			addattr_l(n, FCQ_MAXLEN, TCA_PFC_QUANTA, quanta, sizeof(quanta));
		} else if (!strcmp(*argv, "sched")) {
			/* in enum fcq_sched order */
			static const char *const words[] = { "fifo", "drr", NULL };
			__u8 s;

			NEXT_ARG();
			s = fcq_word_arg("sched", *argv, words);
			fcq_put_u8(n, TCA_PFC_SCHED, s);
		} else if (!strcmp(*argv, "help")) {
			explain();
			return -1;
		} else {
			fprintf(stderr, "What is \"%s\"?\n", *argv);
			explain();
			exit(2);
		}
		argc--;
		argv++;
	}
	addattr_nest_end(n, tail);
	return 0;
}

static int pfc_print_opt(struct qdisc_util *qu, FILE *f, struct rtattr *opt)
{
	struct rtattr *tb[TCA_PFC_MAX + 1];
	int i;

	if (!opt)
		return 0;
	parse_rtattr_nested(tb, TCA_PFC_MAX, opt);
	fcq_print_port_opts(tb);
	if (tb[TCA_PFC_STRICT])
		fcq_print_prios("strict", *(__u8 *)RTA_DATA(tb[TCA_PFC_STRICT]));
	if (tb[TCA_PFC_QUANTA] &&
	    RTA_PAYLOAD(tb[TCA_PFC_QUANTA]) >= FCQ_NUM_PRIO * sizeof(__u32)) {
		const __u32 *q = RTA_DATA(tb[TCA_PFC_QUANTA]);

		open_json_array(PRINT_ANY, "quanta");
		for (i = 0; i < FCQ_NUM_PRIO; i++)
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
