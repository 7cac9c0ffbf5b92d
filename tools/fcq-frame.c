// SPDX-License-Identifier: GPL-2.0
/*
 * fcq-frame - put PFC, 802.3x PAUSE or fcq extension frames on a device,
 * well-formed or deliberately broken, to exercise a port's receive path.
 *
 *   fcq-frame DEV FRAME [MUTATION...] [--wait TIME FRAME [MUTATION...]]...
 *   fcq-frame -h | --help
 *
 *   FRAME    := pfc PRIO:QUANTA[,PRIO:QUANTA...] | pause QUANTA
 *             | fafc PRIO:NS[:acc]  (FAFC pause of NS ns; acc: ACCUMULATE)
 *   MUTATION := --len N (send only N bytes) | --dst MAC
 *             | --count N (send N copies)
 *             | --opcode HEX                        (pfc, pause)
 *             | --magic HEX | --version N | --type N (fafc)
 *   TIME     := a number with s, ms or us
 *
 * Frames in one invocation are sent --wait apart, more precisely than
 * separate invocations could. They are built by core/frames.c, the same
 * code the qdiscs use, anew for each copy: extension frames are numbered
 * 1, 2, ... across the invocation, copies included, so a capture shows
 * losses and reordering. Prints the CLOCK_MONOTONIC time (ns) at which
 * each frame was sent, one per line, read just before it is handed to the
 * device; an extension frame carries the same time as its tx time.
 */
#include <errno.h>
#include <net/if.h>
#include <netpacket/packet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "core/frames.h"

/* The mutations given after a frame; -1: not given. */
struct mutation {
	long len;
	long word;		/* bytes 14-15: --opcode or --magic */
	long version;
	long type;
	long count;		/* copies to send, 1 if not given */
	int set_dst;
	u8 dst[FCQ_ETH_ALEN];
};

static u32 ext_seq;

static void __attribute__((noreturn)) usage_to(FILE *f, int status)
{
	fprintf(f,
		"usage: fcq-frame DEV FRAME [MUTATION...] [--wait TIME FRAME [MUTATION...]]...\n"
		"       fcq-frame -h | --help\n"
		"FRAME:    pfc PRIO:QUANTA[,PRIO:QUANTA...] | pause QUANTA | fafc PRIO:NS[:acc]\n"
		"MUTATION: --len N | --dst MAC | --count N\n"
		"          pfc, pause: --opcode HEX\n"
		"          fafc:       --magic HEX | --version N | --type N\n"
		"TIME:     a number with s, ms or us\n"
		"Prints the CLOCK_MONOTONIC time (ns) at which each frame was sent.\n");
	exit(status);
}

static void __attribute__((noreturn)) usage(void)
{
	usage_to(stderr, 2);
}

static long num_base(const char *s, int base, long max)
{
	char *end;
	long v = strtol(s, &end, base);

	if (*end || end == s || v < 0 || v > max) {
		fprintf(stderr, "fcq-frame: bad number \"%s\"\n", s);
		exit(2);
	}
	return v;
}

static long num(const char *s, long max)
{
	return num_base(s, 0, max);
}

static void wait_arg(const char *s)
{
	char *unit;
	double t = strtod(s, &unit);
	struct timespec ts;

	if (!strcmp(unit, "us"))
		t /= 1e6;
	else if (!strcmp(unit, "ms"))
		t /= 1e3;
	else if (strcmp(unit, "s"))
		usage();
	ts.tv_sec = t;
	ts.tv_nsec = (t - ts.tv_sec) * 1e9;
	nanosleep(&ts, NULL);
}

static void pfc_arg(const char *arg, u8 *enable, u16 quanta[FCQ_NUM_PRIO])
{
	char *copy = strdup(arg), *tok, *save = NULL, *colon;

	for (tok = strtok_r(copy, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		long p;

		colon = strchr(tok, ':');
		if (!colon)
			usage();
		*colon = '\0';
		p = num(tok, 7);
		quanta[p] = num(colon + 1, 0xffff);
		*enable |= 1u << p;
	}
	free(copy);
}

static void fafc_arg(const char *arg, struct fcq_ext *f)
{
	char *copy = strdup(arg), *ns, *acc;

	ns = strchr(copy, ':');
	if (!ns)
		usage();
	*ns++ = '\0';
	acc = strchr(ns, ':');
	if (acc) {
		*acc++ = '\0';
		if (strcmp(acc, "acc"))
			usage();
		f->flags = FCQ_EXT_F_ACCUMULATE;
	}
	f->type = FCQ_EXT_PAUSE;
	f->prio = num(copy, 7);
	f->pause_ns = num(ns, 0xffffffff);
	free(copy);
}

/* A mutation of a header the frame does not have is an error. */
static void applies(const char *opt, const char *kind, int to_ext)
{
	int ext = !strcmp(kind, "fafc");

	if (ext == to_ext)
		return;
	fprintf(stderr, "fcq-frame: %s does not apply to a %s frame\n",
		opt, kind);
	exit(2);
}

/* Parse the mutations from argv[*i] up to the next --wait. */
static void mutation_args(int argc, char **argv, int *i, const char *kind,
			  struct mutation *m)
{
	*m = (struct mutation){ .len = -1, .word = -1, .version = -1,
				.type = -1, .count = 1 };
	for (; *i + 1 < argc && strcmp(argv[*i], "--wait"); *i += 2) {
		const char *opt = argv[*i], *val = argv[*i + 1];

		if (!strcmp(opt, "--len")) {
			m->len = num(val, FCQ_ETH_ZLEN);
		} else if (!strcmp(opt, "--opcode")) {
			applies(opt, kind, 0);
			m->word = num_base(val, 16, 0xffff);
		} else if (!strcmp(opt, "--magic")) {
			applies(opt, kind, 1);
			m->word = num_base(val, 16, 0xffff);
		} else if (!strcmp(opt, "--version")) {
			applies(opt, kind, 1);
			m->version = num(val, 0xff);
		} else if (!strcmp(opt, "--type")) {
			applies(opt, kind, 1);
			m->type = num(val, 0xff);
		} else if (!strcmp(opt, "--dst")) {
			unsigned int d[6];
			int k;

			if (sscanf(val, "%x:%x:%x:%x:%x:%x", &d[0], &d[1],
				   &d[2], &d[3], &d[4], &d[5]) != 6)
				usage();
			for (k = 0; k < 6; k++)
				m->dst[k] = d[k];
			m->set_dst = 1;
		} else if (!strcmp(opt, "--count")) {
			m->count = num(val, 1000000);
		} else {
			usage();
		}
	}
	if (*i < argc && strcmp(argv[*i], "--wait"))
		usage();	/* a mutation without its value */
}

/* Returns the number of bytes to send. */
static size_t mutate(u8 *frame, size_t len, const struct mutation *m)
{
	if (m->word >= 0) {
		frame[14] = m->word >> 8;
		frame[15] = m->word & 0xff;
	}
	if (m->version >= 0)
		frame[16] = m->version;
	if (m->type >= 0)
		frame[17] = m->type;
	if (m->set_dst)
		memcpy(frame, m->dst, FCQ_ETH_ALEN);
	return m->len >= 0 ? (size_t)m->len : len;
}

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* Build the frame at argv[*i] with its mutations; send it. */
static void send_one(int fd, struct sockaddr_ll *sll, const u8 *src,
		     int argc, char **argv, int *i)
{
	u16 quanta[FCQ_NUM_PRIO] = { 0 };
	struct fcq_ext ext = { 0 };
	u8 frame[FCQ_ETH_ZLEN], enable = 0;
	const char *kind = argv[*i];
	struct mutation m;

	if (*i + 1 >= argc)
		usage();
	if (!strcmp(kind, "pfc"))
		pfc_arg(argv[*i + 1], &enable, quanta);
	else if (!strcmp(kind, "pause"))
		quanta[0] = num(argv[*i + 1], 0xffff);
	else if (!strcmp(kind, "fafc"))
		fafc_arg(argv[*i + 1], &ext);
	else
		usage();
	*i += 2;
	mutation_args(argc, argv, i, kind, &m);

	while (m.count--) {
		long long sent = now_ns();
		size_t len;

		if (!strcmp(kind, "fafc")) {
			ext.seq = ++ext_seq;
			ext.tx_ns = sent;
			len = fcq_ext_build(frame, sizeof(frame), src, &ext);
		} else if (!strcmp(kind, "pfc")) {
			len = fcq_pfc_build(frame, sizeof(frame), src, enable,
					    quanta);
		} else {
			len = fcq_pause_build(frame, sizeof(frame), src,
					      quanta[0]);
		}
		len = mutate(frame, len, &m);
		memcpy(sll->sll_addr, frame, FCQ_ETH_ALEN);
		if (sendto(fd, frame, len, 0, (struct sockaddr *)sll,
			   sizeof(*sll)) != (ssize_t)len) {
			perror("fcq-frame: sendto");
			exit(1);
		}
		printf("%lld\n", sent);
	}
}

int main(int argc, char **argv)
{
	struct sockaddr_ll sll = { .sll_family = AF_PACKET,
				   .sll_halen = FCQ_ETH_ALEN };
	struct ifreq ifr = { 0 };
	u8 src[FCQ_ETH_ALEN];
	int fd, i = 2, a;

	/* Anywhere: no value (MAC, number, HEX, TIME) can be one of these. */
	for (a = 1; a < argc; a++)
		if (!strcmp(argv[a], "-h") || !strcmp(argv[a], "--help"))
			usage_to(stdout, 0);
	if (argc < 4)
		usage();
	fd = socket(AF_PACKET, SOCK_RAW, 0);
	if (fd < 0) {
		perror("fcq-frame: socket");
		return 1;
	}
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", argv[1]);
	if (ioctl(fd, SIOCGIFINDEX, &ifr)) {
		fprintf(stderr, "fcq-frame: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	sll.sll_ifindex = ifr.ifr_ifindex;
	if (ioctl(fd, SIOCGIFHWADDR, &ifr)) {
		fprintf(stderr, "fcq-frame: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	memcpy(src, ifr.ifr_hwaddr.sa_data, FCQ_ETH_ALEN);

	for (;;) {
		send_one(fd, &sll, src, argc, argv, &i);
		if (i >= argc)
			break;
		if (i + 2 >= argc)	/* --wait TIME FRAME ... */
			usage();
		wait_arg(argv[i + 1]);
		i += 2;
	}
	close(fd);
	return 0;
}
