// SPDX-License-Identifier: GPL-2.0
/*
 * fcq-frame - put PFC or 802.3x PAUSE frames on a device, well-formed or
 * deliberately broken, to exercise a port's receive path.
 *
 *   fcq-frame DEV FRAME [MUTATION...] [--wait TIME FRAME [MUTATION...]]...
 *
 *   FRAME    := pfc PRIO:QUANTA[,PRIO:QUANTA...] | pause QUANTA
 *   MUTATION := --len N (send only N bytes) | --opcode HEX | --dst MAC
 *             | --count N (send N copies)
 *   TIME     := a number with s, ms or us
 *
 * Frames in one invocation are sent --wait apart, more precisely than
 * separate invocations could. They are built by core/frames.c, the same
 * code the qdiscs use. Prints the CLOCK_MONOTONIC time (ns) at which each
 * frame was sent, one per line.
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

static void usage(void)
{
	fprintf(stderr,
		"usage: fcq-frame DEV FRAME [MUTATION...] [--wait TIME FRAME [MUTATION...]]...\n"
		"FRAME:    pfc PRIO:QUANTA[,PRIO:QUANTA...] | pause QUANTA\n"
		"MUTATION: --len N | --opcode HEX | --dst MAC | --count N\n");
	exit(2);
}

static long num(const char *s, long max)
{
	char *end;
	long v = strtol(s, &end, 0);

	if (*end || end == s || v < 0 || v > max) {
		fprintf(stderr, "fcq-frame: bad number \"%s\"\n", s);
		exit(2);
	}
	return v;
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

/* Build the frame at argv[*i] with its mutations; send it. */
static void send_one(int fd, struct sockaddr_ll *sll, const u8 *src,
		     int argc, char **argv, int *i)
{
	u16 quanta[FCQ_NUM_PRIO] = { 0 };
	u8 frame[FCQ_ETH_ZLEN], enable = 0;
	long count = 1;
	size_t len;

	if (*i + 1 >= argc)
		usage();
	if (!strcmp(argv[*i], "pfc")) {
		pfc_arg(argv[*i + 1], &enable, quanta);
		len = fcq_pfc_build(frame, sizeof(frame), src, enable, quanta);
	} else if (!strcmp(argv[*i], "pause")) {
		len = fcq_pause_build(frame, sizeof(frame), src,
				      num(argv[*i + 1], 0xffff));
	} else {
		usage();
	}
	for (*i += 2; *i + 1 < argc && strcmp(argv[*i], "--wait"); *i += 2) {
		const char *opt = argv[*i], *val = argv[*i + 1];

		if (!strcmp(opt, "--len")) {
			len = num(val, sizeof(frame));
		} else if (!strcmp(opt, "--opcode")) {
			long op = strtol(val, NULL, 16);

			frame[14] = op >> 8;
			frame[15] = op & 0xff;
		} else if (!strcmp(opt, "--dst")) {
			unsigned int m[6];
			int k;

			if (sscanf(val, "%x:%x:%x:%x:%x:%x", &m[0], &m[1],
				   &m[2], &m[3], &m[4], &m[5]) != 6)
				usage();
			for (k = 0; k < 6; k++)
				frame[k] = m[k];
		} else if (!strcmp(opt, "--count")) {
			count = num(val, 1000000);
		} else {
			usage();
		}
	}
	if (*i < argc && strcmp(argv[*i], "--wait"))
		usage();	/* a mutation without its value */

	memcpy(sll->sll_addr, frame, FCQ_ETH_ALEN);
	while (count--) {
		struct timespec ts;

		if (sendto(fd, frame, len, 0, (struct sockaddr *)sll,
			   sizeof(*sll)) != (ssize_t)len) {
			perror("fcq-frame: sendto");
			exit(1);
		}
		clock_gettime(CLOCK_MONOTONIC, &ts);
		printf("%lld\n", ts.tv_sec * 1000000000LL + ts.tv_nsec);
	}
}

int main(int argc, char **argv)
{
	struct sockaddr_ll sll = { .sll_family = AF_PACKET,
				   .sll_halen = FCQ_ETH_ALEN };
	struct ifreq ifr = { 0 };
	u8 src[FCQ_ETH_ALEN];
	int fd, i = 2;

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
