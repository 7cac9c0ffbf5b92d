// SPDX-License-Identifier: GPL-2.0
/*
 * fcqctl - talk to fcq.ko over its generic netlink family.
 *
 *   fcqctl [-j] switch [ID]
 *                          the switches of this network namespace (or
 *                          switch ID): buffer, occupancy, and per port its
 *                          ingress bytes per priority and which priorities
 *                          are in XOFF
 *   fcqctl [-j] monitor    pause events as they happen: PFC/PAUSE and fcq
 *                          pauses sent or honoured, keyed PAUSE/RESUME
 *                          frames sent or received
 *   fcqctl -h | --help     this, in short
 */
#include <net/if.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <netlink/genl/ctrl.h>
#include <netlink/genl/genl.h>

#include <uapi/linux/fcq.h>

#include "core/frames.h"

static bool json;
static bool first = true;
static long long cur_sw = -1;	/* the switch being printed */

static const char *devname(__u32 ifindex, char *buf)
{
	if (!if_indextoname(ifindex, buf))
		snprintf(buf, IF_NAMESIZE, "if%u", ifindex);
	return buf;
}

static void print_port(struct nlattr *a)
{
	struct nlattr *tb[FCQ_A_PORT_MAX + 1];
	char name[IF_NAMESIZE];
	__u32 *ingress = NULL;
	int p;

	if (nla_parse_nested(tb, FCQ_A_PORT_MAX, a, NULL) ||
	    !tb[FCQ_A_PORT_IFINDEX])
		return;
	if (tb[FCQ_A_PORT_INGRESS] &&
	    nla_len(tb[FCQ_A_PORT_INGRESS]) >= (int)(FCQ_NUM_PRIO * sizeof(__u32)))
		ingress = nla_data(tb[FCQ_A_PORT_INGRESS]);
	devname(nla_get_u32(tb[FCQ_A_PORT_IFINDEX]), name);
	if (json) {
		printf("%s{\"dev\":\"%s\",\"ifindex\":%u,\"kind\":\"%s\",\"xoff\":%u,\"headroom\":%u,\"ingress\":[",
		       first ? "" : ",", name,
		       nla_get_u32(tb[FCQ_A_PORT_IFINDEX]),
		       tb[FCQ_A_PORT_KIND] ? nla_get_string(tb[FCQ_A_PORT_KIND]) : "",
		       tb[FCQ_A_PORT_XOFF] ? nla_get_u8(tb[FCQ_A_PORT_XOFF]) : 0,
		       tb[FCQ_A_PORT_HEADROOM] ? nla_get_u32(tb[FCQ_A_PORT_HEADROOM]) : 0);
		for (p = 0; p < FCQ_NUM_PRIO; p++)
			printf("%s%u", p ? "," : "", ingress ? ingress[p] : 0);
		printf("]}");
		first = false;
		return;
	}
	printf("  port %-12s %-8s headroom %u xoff 0x%02x ingress", name,
	       tb[FCQ_A_PORT_KIND] ? nla_get_string(tb[FCQ_A_PORT_KIND]) : "?",
	       tb[FCQ_A_PORT_HEADROOM] ? nla_get_u32(tb[FCQ_A_PORT_HEADROOM]) : 0,
	       tb[FCQ_A_PORT_XOFF] ? nla_get_u8(tb[FCQ_A_PORT_XOFF]) : 0);
	for (p = 0; p < FCQ_NUM_PRIO; p++)
		printf(" %u", ingress ? ingress[p] : 0);
	printf("\n");
}

static int switch_cb(struct nl_msg *msg, void *arg)
{
	struct nlattr *tb[FCQ_A_MAX + 1], *a;
	int *nsw = arg, rem;

	if (genlmsg_parse(nlmsg_hdr(msg), 0, tb, FCQ_A_MAX, NULL) ||
	    !tb[FCQ_A_SWITCH])
		return NL_SKIP;
	/* A big switch comes in several messages: more of its ports. */
	if (nla_get_u32(tb[FCQ_A_SWITCH]) == cur_sw)
		goto ports;
	if (json && cur_sw >= 0)
		printf("]}");
	cur_sw = nla_get_u32(tb[FCQ_A_SWITCH]);
	if (json) {
		printf("%s{\"switch\":%u,\"buffer\":%llu,\"used\":%llu,\"used_max\":%llu,\"ports\":[",
		       (*nsw)++ ? "," : "", nla_get_u32(tb[FCQ_A_SWITCH]),
		       (unsigned long long)nla_get_u64(tb[FCQ_A_BUFFER]),
		       (unsigned long long)nla_get_u64(tb[FCQ_A_USED]),
		       (unsigned long long)nla_get_u64(tb[FCQ_A_USED_MAX]));
		first = true;
	} else {
		printf("switch %u buffer %llu used %llu used_max %llu\n",
		       nla_get_u32(tb[FCQ_A_SWITCH]),
		       (unsigned long long)nla_get_u64(tb[FCQ_A_BUFFER]),
		       (unsigned long long)nla_get_u64(tb[FCQ_A_USED]),
		       (unsigned long long)nla_get_u64(tb[FCQ_A_USED_MAX]));
	}
ports:
	nla_for_each_attr(a, genlmsg_attrdata(nlmsg_data(nlmsg_hdr(msg)), 0),
			  genlmsg_attrlen(nlmsg_data(nlmsg_hdr(msg)), 0), rem)
		if (nla_type(a) == FCQ_A_PORT)
			print_port(a);
	return NL_OK;
}

static const char *const event_names[] = {
	[FCQ_EVENT_PAUSE_TX] = "pause_tx",
	[FCQ_EVENT_PAUSE_RX] = "pause_rx",
	[FCQ_EVENT_KEYS_TX] = "keys_tx",
	[FCQ_EVENT_KEYS_RX] = "keys_rx",
};

/* A PFC/PAUSE or fcq pause: the classes and their quanta. */
static void print_pause(struct nlattr **tb)
{
	const __u16 *q = nla_data(tb[FCQ_A_QUANTA]);
	int p;

	printf(json ? ",\"prio_mask\":%u,\"quanta\":[" : " prios 0x%02x quanta",
	       tb[FCQ_A_PRIO_MASK] ? nla_get_u8(tb[FCQ_A_PRIO_MASK]) : 0);
	for (p = 0; p < FCQ_NUM_PRIO; p++)
		printf("%s%u", json ? (p ? "," : "") : " ", q[p]);
	if (json)
		printf("]");
}

/* A keyed PAUSE or RESUME: its header (the keys are on the wire). */
static void print_keys(struct nlattr **tb)
{
	__u8 type = nla_get_u8(tb[FCQ_A_FRAME]);
	__u8 flags = nla_get_u8(tb[FCQ_A_FLAGS]);
	const char *what = type == FCQ_EXT_KEYS_PAUSE ? "pause" :
			   type == FCQ_EXT_KEYS_RESUME ? "resume" : "?";
	__u8 mask = nla_get_u8(tb[FCQ_A_PRIO_MASK]);
	int prio = mask ? __builtin_ctz(mask) : -1;

	if (json)
		printf(",\"frame\":\"%s\",\"prio\":%d,\"all\":%s,\"keys\":%u,\"seq\":%u",
		       what, prio, flags & FCQ_EXT_F_ALL ? "true" : "false",
		       nla_get_u16(tb[FCQ_A_KEYS]), nla_get_u32(tb[FCQ_A_SEQ]));
	else
		printf(" %s prio %d%s keys %u seq %u", what, prio,
		       flags & FCQ_EXT_F_ALL ? " all" : "",
		       nla_get_u16(tb[FCQ_A_KEYS]), nla_get_u32(tb[FCQ_A_SEQ]));
}

static int event_cb(struct nl_msg *msg, void *arg)
{
	struct nlattr *tb[FCQ_A_MAX + 1];
	char name[IF_NAMESIZE];
	bool keys;
	__u8 ev;

	if (genlmsg_parse(nlmsg_hdr(msg), 0, tb, FCQ_A_MAX, NULL) ||
	    !tb[FCQ_A_EVENT] || !tb[FCQ_A_IFINDEX] || !tb[FCQ_A_TIME])
		return NL_SKIP;
	ev = nla_get_u8(tb[FCQ_A_EVENT]);
	keys = ev == FCQ_EVENT_KEYS_TX || ev == FCQ_EVENT_KEYS_RX;
	if (ev >= sizeof(event_names) / sizeof(event_names[0]) ||
	    !event_names[ev] ||
	    (keys ? !tb[FCQ_A_FRAME] || !tb[FCQ_A_FLAGS] || !tb[FCQ_A_SEQ] ||
		    !tb[FCQ_A_KEYS] || !tb[FCQ_A_PRIO_MASK] :
		    !tb[FCQ_A_QUANTA]))
		return NL_SKIP;		/* from a newer fcq.ko */
	devname(nla_get_u32(tb[FCQ_A_IFINDEX]), name);
	if (json)
		printf("{\"event\":\"%s\",\"dev\":\"%s\",\"time\":%llu",
		       event_names[ev], name,
		       (unsigned long long)nla_get_u64(tb[FCQ_A_TIME]));
	else
		printf("%llu %s %s",
		       (unsigned long long)nla_get_u64(tb[FCQ_A_TIME]),
		       event_names[ev], name);
	if (keys)
		print_keys(tb);
	else
		print_pause(tb);
	printf(json ? "}\n" : "\n");
	fflush(stdout);
	return NL_OK;
}

static void usage(FILE *f)
{
	fprintf(f,
		"usage: fcqctl [-j] switch [ID]\n"
		"       fcqctl [-j] monitor\n"
		"       fcqctl -h | --help\n"
		"  switch [ID]  the switches of this network namespace (or switch ID):\n"
		"               buffer, occupancy, and per port its ingress bytes per\n"
		"               priority and which priorities are in XOFF\n"
		"  monitor      pause events as they happen: PFC/PAUSE and fcq\n"
		"               pauses sent or honoured (pause_tx, pause_rx),\n"
		"               keyed PAUSE/RESUME frames sent or received\n"
		"               (keys_tx, keys_rx); events the socket could not\n"
		"               hold are reported on stderr\n"
		"  -j           JSON output\n"
		"  -h, --help   print this help and exit\n");
}

int main(int argc, char **argv)
{
	struct nl_sock *sk;
	struct nl_msg *msg;
	int family, i = 1, err, nsw = 0, a;
	long id = -1;

	for (a = 1; a < argc; a++)
		if (!strcmp(argv[a], "-h") || !strcmp(argv[a], "--help")) {
			usage(stdout);
			return 0;
		}
	if (argc > i && !strcmp(argv[i], "-j")) {
		json = true;
		i++;
	}
	if (argc == i + 2 && !strcmp(argv[i], "switch")) {
		char *end;

		id = strtol(argv[i + 1], &end, 0);
		if (*end || id < 0 || id > UINT32_MAX)
			id = -2;
		argc--;
	}
	if (argc != i + 1 || id == -2 ||
	    (strcmp(argv[i], "switch") && strcmp(argv[i], "monitor"))) {
		usage(stderr);
		return 2;
	}
	sk = nl_socket_alloc();
	if (!sk || genl_connect(sk)) {
		fprintf(stderr, "fcqctl: cannot open generic netlink\n");
		return 1;
	}
	family = genl_ctrl_resolve(sk, FCQ_GENL_NAME);
	if (family < 0) {
		fprintf(stderr, "fcqctl: family \"%s\" not found: is fcq.ko loaded?\n",
			FCQ_GENL_NAME);
		return 1;
	}

	if (!strcmp(argv[i], "monitor")) {
		int grp = genl_ctrl_resolve_grp(sk, FCQ_GENL_NAME,
						FCQ_GENL_MCGRP_EVENTS);

		if (grp < 0 || nl_socket_add_membership(sk, grp)) {
			fprintf(stderr, "fcqctl: cannot join the events group\n");
			return 1;
		}
		nl_socket_disable_seq_check(sk);
		nl_socket_modify_cb(sk, NL_CB_VALID, NL_CB_CUSTOM, event_cb, NULL);
		/* room for a burst of events while stdout blocks */
		nl_socket_set_buffer_size(sk, 4 << 20, 0);
		for (;;) {
			err = nl_recvmsgs_default(sk);
			if (err == -NLE_NOMEM) {	/* ENOBUFS: overrun */
				fprintf(stderr, "fcqctl: events lost: the socket buffer overflowed\n");
				continue;
			}
			if (err < 0) {
				fprintf(stderr, "fcqctl: %s\n", nl_geterror(err));
				return 1;
			}
		}
	}

	nl_socket_modify_cb(sk, NL_CB_VALID, NL_CB_CUSTOM, switch_cb, &nsw);
	if (json)
		printf("[");
	msg = nlmsg_alloc();
	if (!msg || !genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, family, 0,
				 NLM_F_DUMP, FCQ_CMD_SWITCH_GET, FCQ_GENL_VERSION) ||
	    (id >= 0 && nla_put_u32(msg, FCQ_A_SWITCH, id))) {
		fprintf(stderr, "fcqctl: cannot build the request\n");
		return 1;
	}
	err = nl_send_auto(sk, msg);
	nlmsg_free(msg);
	if (err >= 0)
		err = nl_recvmsgs_default(sk);
	if (json)
		printf("%s]\n", cur_sw >= 0 ? "]}" : "");
	if (err < 0) {
		fprintf(stderr, "fcqctl: %s\n", nl_geterror(err));
		return 1;
	}
	nl_socket_free(sk);
	return 0;
}
