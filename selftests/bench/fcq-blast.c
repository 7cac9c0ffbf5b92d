// SPDX-License-Identifier: GPL-2.0
/*
 * fcq-blast - minimum-size UDP packets for the benchmark (selftests/bench).
 *
 *   fcq-blast send -i DEV -m DST_MAC -s SRC_IP -d DST_IP [-p DPORT]
 *                  [-f FLOWS] [-l PAYLOAD] [-t TOS] -T SECONDS
 *       builds Ethernet/IPv4/UDP frames (PAYLOAD bytes of UDP payload,
 *       default 18: a 60-byte frame, 64 bytes with the FCS) and sends them
 *       through an AF_PACKET socket on DEV, in batches of 64 (sendmmsg), as
 *       fast as the CPU allows, for SECONDS. The packets go through DEV's
 *       qdisc like any other. FLOWS (default 1, at most 65000) distinct
 *       5-tuples: the UDP source port cycles through 1024..1024+FLOWS-1,
 *       one step per packet. The sender costs the same per packet whatever
 *       FLOWS is. Prints {"sent":N,"refused":N} on exit.
 *
 *   fcq-blast sink [-p PORT] [-w WARMUP_S] -T SECONDS
 *       a UDP socket on PORT (default 9000) that counts the datagrams
 *       received between WARMUP_S (default 1) and WARMUP_S + SECONDS after
 *       it started, and prints {"packets":N,"ns":WINDOW_NS,"pps":X}.
 *
 *   --help prints this.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <linux/if_packet.h>
#include <net/ethernet.h>
#include <net/if.h>
#include <netinet/ip.h>
#include <netinet/udp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define BATCH	64
#define FRAME	2048

static const char usage_text[] =
	"usage: fcq-blast send -i DEV -m DST_MAC -s SRC_IP -d DST_IP [-p DPORT]\n"
	"                      [-f FLOWS] [-l PAYLOAD] [-t TOS] -T SECONDS\n"
	"       fcq-blast sink [-p PORT] [-w WARMUP_S] -T SECONDS\n"
	"\n"
	"send: minimum-size UDP frames (PAYLOAD 18 = 64 bytes on the wire with\n"
	"      FCS) through an AF_PACKET socket on DEV, FLOWS source ports in\n"
	"      turn, as fast as possible; prints {\"sent\":N,\"refused\":N}.\n"
	"sink: counts UDP datagrams on PORT (default 9000) in the window\n"
	"      [WARMUP_S, WARMUP_S + SECONDS) after its start; prints\n"
	"      {\"packets\":N,\"ns\":WINDOW_NS,\"pps\":X}.\n";

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static void die(const char *what)
{
	fprintf(stderr, "fcq-blast: %s: %s\n", what, strerror(errno));
	exit(1);
}

static void usage(int rc)
{
	fputs(usage_text, rc ? stderr : stdout);
	exit(rc);
}

static uint16_t csum(const void *p, int len)
{
	const uint16_t *w = p;
	uint32_t s = 0;

	for (; len > 1; len -= 2)
		s += *w++;
	while (s >> 16)
		s = (s & 0xffff) + (s >> 16);
	return ~s;
}

static int do_send(int argc, char **argv)
{
	const char *dev = NULL, *mac = NULL, *src = NULL, *dst = NULL;
	unsigned int dport = 9000, flows = 1, payload = 18, tos = 0, flow = 0;
	static uint8_t frames[BATCH][FRAME];
	struct mmsghdr msg[BATCH];
	struct iovec iov[BATCH];
	struct sockaddr_ll sll = { 0 };
	unsigned long long sent = 0, refused = 0;
	uint8_t dmac[6], smac[6];
	struct ether_header *eh;
	struct iphdr *ip;
	uint64_t end;
	double secs = 0;
	int fd, opt, i, len;
	FILE *f;
	char path[128];

	while ((opt = getopt(argc, argv, "i:m:s:d:p:f:l:t:T:")) != -1) {
		switch (opt) {
		case 'i': dev = optarg; break;
		case 'm': mac = optarg; break;
		case 's': src = optarg; break;
		case 'd': dst = optarg; break;
		case 'p': dport = atoi(optarg); break;
		case 'f': flows = atoi(optarg); break;
		case 'l': payload = atoi(optarg); break;
		case 't': tos = strtol(optarg, NULL, 0); break;
		case 'T': secs = atof(optarg); break;
		default: usage(2);
		}
	}
	if (!dev || !mac || !src || !dst || secs <= 0 || !flows ||
	    flows > 65000 || payload > 1472)
		usage(2);
	if (sscanf(mac, "%hhx:%hhx:%hhx:%hhx:%hhx:%hhx", &dmac[0], &dmac[1],
		   &dmac[2], &dmac[3], &dmac[4], &dmac[5]) != 6)
		usage(2);
	snprintf(path, sizeof(path), "/sys/class/net/%s/address", dev);
	f = fopen(path, "r");
	if (!f || fscanf(f, "%hhx:%hhx:%hhx:%hhx:%hhx:%hhx", &smac[0], &smac[1],
			 &smac[2], &smac[3], &smac[4], &smac[5]) != 6)
		die(path);
	fclose(f);

	fd = socket(AF_PACKET, SOCK_RAW, 0);	/* send only: no protocol */
	if (fd < 0)
		die("socket");
	sll.sll_family = AF_PACKET;
	sll.sll_ifindex = if_nametoindex(dev);
	if (!sll.sll_ifindex)
		die(dev);
	if (bind(fd, (struct sockaddr *)&sll, sizeof(sll)))
		die("bind");

	len = sizeof(*eh) + sizeof(*ip) + sizeof(struct udphdr) + payload;
	for (i = 0; i < BATCH; i++) {
		struct udphdr *uh;

		eh = (struct ether_header *)frames[i];
		memcpy(eh->ether_dhost, dmac, 6);
		memcpy(eh->ether_shost, smac, 6);
		eh->ether_type = htons(ETHERTYPE_IP);
		ip = (struct iphdr *)(eh + 1);
		ip->version = 4;
		ip->ihl = 5;
		ip->tos = tos;
		ip->tot_len = htons(len - sizeof(*eh));
		ip->frag_off = htons(IP_DF);
		ip->ttl = 64;
		ip->protocol = IPPROTO_UDP;
		if (inet_pton(AF_INET, src, &ip->saddr) != 1 ||
		    inet_pton(AF_INET, dst, &ip->daddr) != 1)
			usage(2);
		ip->check = csum(ip, sizeof(*ip));
		uh = (struct udphdr *)(ip + 1);
		uh->dest = htons(dport);
		uh->len = htons(sizeof(*uh) + payload);
		uh->check = 0;		/* none: allowed over IPv4 */
		iov[i].iov_base = frames[i];
		iov[i].iov_len = len;
		memset(&msg[i], 0, sizeof(msg[i]));
		msg[i].msg_hdr.msg_iov = &iov[i];
		msg[i].msg_hdr.msg_iovlen = 1;
	}

	end = now_ns() + (uint64_t)(secs * 1e9);
	while (now_ns() < end) {
		int n;

		for (i = 0; i < BATCH; i++) {
			struct udphdr *uh = (struct udphdr *)(frames[i] +
					sizeof(*eh) + sizeof(*ip));

			uh->source = htons(1024 + flow);
			if (++flow == flows)
				flow = 0;
		}
		n = sendmmsg(fd, msg, BATCH, 0);
		if (n < 0) {
			if (errno != ENOBUFS && errno != EAGAIN)
				die("sendmmsg");
			refused++;
			continue;
		}
		sent += n;
		refused += BATCH - n;
	}
	printf("{\"sent\":%llu,\"refused\":%llu}\n", sent, refused);
	return 0;
}

static int do_sink(int argc, char **argv)
{
	static char buf[BATCH][64];
	struct mmsghdr msg[BATCH];
	struct iovec iov[BATCH];
	struct sockaddr_in sa = { 0 };
	struct timeval tv = { 0, 100000 };
	unsigned long long packets = 0;
	double secs = 0, warm = 1;
	uint64_t t0, from, to;
	int fd, opt, i, port = 9000, rcvbuf = 4 << 20;

	while ((opt = getopt(argc, argv, "p:w:T:")) != -1) {
		switch (opt) {
		case 'p': port = atoi(optarg); break;
		case 'w': warm = atof(optarg); break;
		case 'T': secs = atof(optarg); break;
		default: usage(2);
		}
	}
	if (secs <= 0 || warm < 0)
		usage(2);
	fd = socket(AF_INET, SOCK_DGRAM, 0);
	if (fd < 0)
		die("socket");
	setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof(rcvbuf));
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	sa.sin_family = AF_INET;
	sa.sin_port = htons(port);
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)))
		die("bind");
	for (i = 0; i < BATCH; i++) {
		iov[i].iov_base = buf[i];
		iov[i].iov_len = sizeof(buf[i]);
		memset(&msg[i], 0, sizeof(msg[i]));
		msg[i].msg_hdr.msg_iov = &iov[i];
		msg[i].msg_hdr.msg_iovlen = 1;
	}
	t0 = now_ns();
	from = t0 + (uint64_t)(warm * 1e9);
	to = from + (uint64_t)(secs * 1e9);
	for (;;) {
		int n = recvmmsg(fd, msg, BATCH, 0, NULL);
		uint64_t t = now_ns();

		if (t >= to)
			break;
		if (n > 0 && t >= from)
			packets += n;
	}
	printf("{\"packets\":%llu,\"ns\":%llu,\"pps\":%.0f}\n", packets,
	       (unsigned long long)(to - from), packets / secs);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc < 2)
		usage(2);
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))
		usage(0);
	if (!strcmp(argv[1], "send"))
		return do_send(argc - 1, argv + 1);
	if (!strcmp(argv[1], "sink"))
		return do_sink(argc - 1, argv + 1);
	usage(2);
	return 2;
}
