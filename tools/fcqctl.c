// SPDX-License-Identifier: GPL-2.0
/*
 * fcqctl - talk to fcq.ko over its generic netlink family.
 *
 *   fcqctl [-j] switch [ID]
 *                          the switches of this network namespace (or
 *                          switch ID): buffer, occupancy, and per port its
 *                          ingress bytes per priority and which priorities
 *                          are in XOFF
 *   fcqctl [-j] book DEV   the keyed pauses of the fcq port on DEV: what it
 *                          asks its link peer to hold, and what it holds
 *                          for its peer
 *   fcqctl [-j] monitor    pause events as they happen: PFC/PAUSE and fcq
 *                          pauses sent or honoured, keyed PAUSE/RESUME
 *                          frames sent or received, PFC watchdog storms
 *                          and restores
 *   fcqctl -h | --help     this, in short
 */
#include <arpa/inet.h>
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
#include "core/key.h"

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
	static int nsw;		/* switches printed */
	int rem;

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
		       nsw++ ? "," : "", nla_get_u32(tb[FCQ_A_SWITCH]),
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
	[FCQ_EVENT_PFCWD_STORM] = "pfcwd_storm",
	[FCQ_EVENT_PFCWD_RESTORE] = "pfcwd_restore",
};

/* A PFC watchdog event: the classes and the port's action. */
static void print_pfcwd(struct nlattr **tb)
{
	static const char *const act[] = { "drop", "forward", "alert" };
	__u8 a = nla_get_u8(tb[FCQ_A_ACTION]);

	printf(json ? ",\"prio_mask\":%u,\"action\":\"%s\"" :
		      " prios 0x%02x action %s",
	       nla_get_u8(tb[FCQ_A_PRIO_MASK]), a < 3 ? act[a] : "?");
}

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
	bool keys, wd;
	__u8 ev;

	if (genlmsg_parse(nlmsg_hdr(msg), 0, tb, FCQ_A_MAX, NULL) ||
	    !tb[FCQ_A_EVENT] || !tb[FCQ_A_IFINDEX] || !tb[FCQ_A_TIME])
		return NL_SKIP;
	ev = nla_get_u8(tb[FCQ_A_EVENT]);
	keys = ev == FCQ_EVENT_KEYS_TX || ev == FCQ_EVENT_KEYS_RX;
	wd = ev == FCQ_EVENT_PFCWD_STORM || ev == FCQ_EVENT_PFCWD_RESTORE;
	if (ev >= sizeof(event_names) / sizeof(event_names[0]) ||
	    !event_names[ev] ||
	    (keys ? !tb[FCQ_A_FRAME] || !tb[FCQ_A_FLAGS] || !tb[FCQ_A_SEQ] ||
		    !tb[FCQ_A_KEYS] || !tb[FCQ_A_PRIO_MASK] :
	     wd ? !tb[FCQ_A_PRIO_MASK] || !tb[FCQ_A_ACTION] :
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
	else if (wd)
		print_pfcwd(tb);
	else
		print_pause(tb);
	printf(json ? "}\n" : "\n");
	fflush(stdout);
	return NL_OK;
}

/*
 * A key as fcq-frame takes it: SRC>DST, >DST, SRC:SPORT>DST:DPORT/PROTO
 * (an IPv6 address of a 5-tuple in brackets).
 */
static void key_str(const struct fcq_fkey *k, char *buf, size_t size)
{
	char s[INET6_ADDRSTRLEN], d[INET6_ADDRSTRLEN], proto[8];
	bool v6 = k->family == 6;

	inet_ntop(v6 ? AF_INET6 : AF_INET, k->saddr, s, sizeof(s));
	inet_ntop(v6 ? AF_INET6 : AF_INET, k->daddr, d, sizeof(d));
	if (k->proto == 6 || k->proto == 17)
		snprintf(proto, sizeof(proto), k->proto == 6 ? "tcp" : "udp");
	else
		snprintf(proto, sizeof(proto), "%u", k->proto);
	if (k->type == FCQ_KEY_DST)
		snprintf(buf, size, ">%s", d);
	else if (k->type == FCQ_KEY_5TUPLE)
		snprintf(buf, size, v6 ? "[%s]:%u>[%s]:%u/%s" : "%s:%u>%s:%u/%s",
			 s, k->sport, d, k->dport, proto);
	else
		snprintf(buf, size, "%s>%s", s, d);
}

static const char *const book_state[] = {
	"want", "sent", "origin", "peer", "applied", "deferred",
};

static int book_cb(struct nl_msg *msg, void *arg)
{
	struct nlattr *tb[FCQ_A_MAX + 1];
	char name[IF_NAMESIZE], key[128] = "all";
	struct fcq_fkey k;
	bool any = false;
	__u8 book, st;
	unsigned int b;

	if (genlmsg_parse(nlmsg_hdr(msg), 0, tb, FCQ_A_MAX, NULL) ||
	    !tb[FCQ_A_IFINDEX] || !tb[FCQ_A_BOOK] || !tb[FCQ_A_PRIO] ||
	    !tb[FCQ_A_STATE])
		return NL_SKIP;
	if (tb[FCQ_A_KEY]) {
		if (!tb[FCQ_A_KEY_TYPE] ||
		    nla_len(tb[FCQ_A_KEY]) !=
		    (int)fcq_key_wire_size(nla_get_u8(tb[FCQ_A_KEY_TYPE])) ||
		    fcq_key_decode(nla_data(tb[FCQ_A_KEY]),
				   nla_get_u8(tb[FCQ_A_KEY_TYPE]), &k))
			snprintf(key, sizeof(key), "?");
		else
			key_str(&k, key, sizeof(key));
	}
	book = nla_get_u8(tb[FCQ_A_BOOK]);
	st = nla_get_u8(tb[FCQ_A_STATE]);
	devname(nla_get_u32(tb[FCQ_A_IFINDEX]), name);
	if (json)
		printf("%s{\"dev\":\"%s\",\"book\":\"%s\",\"prio\":%u,\"key\":\"%s\",\"state\":[",
		       first ? "" : ",", name, book == FCQ_BOOK_TX ? "tx" : "rx",
		       nla_get_u8(tb[FCQ_A_PRIO]), key);
	else
		printf("%s %s prio %u %s", name, book == FCQ_BOOK_TX ? "tx" : "rx",
		       nla_get_u8(tb[FCQ_A_PRIO]), key);
	first = false;
	for (b = 0; b < sizeof(book_state) / sizeof(book_state[0]); b++)
		if (st & (1U << b)) {
			printf(json ? "%s\"%s\"" : "%s%s",
			       json ? (any ? "," : "") : " ", book_state[b]);
			any = true;
		}
	if (json)
		printf("]");
	if (tb[FCQ_A_SINCE])
		printf(json ? ",\"since\":%llu" : " since %llu",
		       (unsigned long long)nla_get_u64(tb[FCQ_A_SINCE]));
	printf(json ? "}" : "\n");
	return NL_OK;
}

static void usage(FILE *f)
{
	fprintf(f,
		"usage: fcqctl [-j] switch [ID]\n"
		"       fcqctl [-j] book DEV\n"
		"       fcqctl [-j] monitor\n"
		"       fcqctl -h | --help\n"
		"  switch [ID]  the switches of this network namespace (or switch ID):\n"
		"               buffer, occupancy, and per port its ingress bytes per\n"
		"               priority and which priorities are in XOFF\n"
		"  book DEV     the keyed pauses of the fcq port on DEV, a line per\n"
		"               flow key or whole class (all): tx, what it asks its\n"
		"               link peer to hold (want, sent, origin); rx, what its\n"
		"               peer asked it to hold (peer, applied, deferred; since:\n"
		"               ns of CLOCK_MONOTONIC)\n"
		"  monitor      pause events as they happen: PFC/PAUSE and fcq\n"
		"               pauses sent or honoured (pause_tx, pause_rx),\n"
		"               keyed PAUSE/RESUME frames sent or received\n"
		"               (keys_tx, keys_rx), PFC watchdog storms and\n"
		"               restores (pfcwd_storm, pfcwd_restore); events the\n"
		"               socket could not hold are reported on stderr\n"
		"  -j           JSON output\n"
		"  -h, --help   print this help and exit\n");
}

static int monitor(struct nl_sock *sk)
{
	int grp = genl_ctrl_resolve_grp(sk, FCQ_GENL_NAME,
					FCQ_GENL_MCGRP_EVENTS);
	int err;

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

/* A dump of @cmd, with @attr = @val unless @val < 0; each reply to @cb. */
static int dump(struct nl_sock *sk, int family, __u8 cmd, int attr, long val,
		nl_recvmsg_msg_cb_t cb)
{
	struct nl_msg *msg = nlmsg_alloc();
	int err;

	nl_socket_modify_cb(sk, NL_CB_VALID, NL_CB_CUSTOM, cb, NULL);
	if (!msg || !genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, family, 0,
				 NLM_F_DUMP, cmd, FCQ_GENL_VERSION) ||
	    (val >= 0 && nla_put_u32(msg, attr, val))) {
		fprintf(stderr, "fcqctl: cannot build the request\n");
		exit(1);
	}
	err = nl_send_auto(sk, msg);
	nlmsg_free(msg);
	return err < 0 ? err : nl_recvmsgs_default(sk);
}

int main(int argc, char **argv)
{
	const char *cmd, *dev = NULL;
	struct nl_sock *sk;
	int family, i = 1, err, a;
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
	cmd = argc > i ? argv[i] : "";
	if (!strcmp(cmd, "switch") && argc == i + 2) {
		char *end;

		id = strtol(argv[i + 1], &end, 0);
		if (*end || id < 0 || id > UINT32_MAX) {
			fprintf(stderr, "fcqctl: switch ID '%s': not a number from 0 to %u\n",
				argv[i + 1], UINT32_MAX);
			return 2;
		}
	} else if (!strcmp(cmd, "book") && argc == i + 2) {
		dev = argv[i + 1];
		id = if_nametoindex(dev);
		if (!id) {
			fprintf(stderr, "fcqctl: no device '%s' in this network namespace\n",
				dev);
			return 1;
		}
	} else if (argc != i + 1 ||
		   (strcmp(cmd, "switch") && strcmp(cmd, "monitor"))) {
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
	if (!strcmp(cmd, "monitor"))
		return monitor(sk);

	if (json)
		printf("[");
	if (dev)
		err = dump(sk, family, FCQ_CMD_BOOK_GET, FCQ_A_IFINDEX, id,
			   book_cb);
	else
		err = dump(sk, family, FCQ_CMD_SWITCH_GET, FCQ_A_SWITCH, id,
			   switch_cb);
	if (json)
		printf("%s]\n", !dev && cur_sw >= 0 ? "]}" : "");
	if (err == -NLE_OBJ_NOTFOUND && dev) {
		fprintf(stderr, "fcqctl: %s has no fcq qdisc\n", dev);
		return 1;
	}
	if (err < 0) {
		fprintf(stderr, "fcqctl: %s\n", nl_geterror(err));
		return 1;
	}
	nl_socket_free(sk);
	return 0;
}
