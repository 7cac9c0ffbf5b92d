// SPDX-License-Identifier: GPL-2.0
/*
 * fcq-gen - open-loop traffic with exact flow completion times.
 *
 *   fcq-gen server [-p PORT[,PORT...]] [-t TOS] [-c CC] [-b MS] [-T SECONDS]
 *       sink on TCP and UDP PORT (each of them): a flow announces its size
 *       in a 16-byte header, sends that many bytes, and gets one byte back
 *       once they all arrived. A UDP flow's datagrams carry their payload
 *       offset in its first 8 bytes, and the reply adds (8 bytes, big
 *       endian) how many arrived below the highest offset received before
 *       them: the flow's reorders. -c: the listeners' congestion control (a
 *       DCTCP sender gets ECN only from a DCTCP listener). Paced streams
 *       (below) are followed apart, keyed by source address, port and
 *       flow id: datagrams and new bytes received, new bytes per -b MS bin
 *       (default 10) from the first datagram, duplicates (a bit per
 *       datagram), reorders (a datagram whose offset is below the highest
 *       received before it) and the one-way delay from the send time
 *       (meaningful when sender and sink share a clock: namespaces of one
 *       machine). A stream ends when every byte is in; or 1 s after its
 *       last datagram once an end marker came (stragglers the marker
 *       overtook still count); or after -T SECONDS (default 60) of silence
 *       without a marker. Then a JSON line on stdout, sent = the marker's
 *       offset (size without one), lost = sent - bytes received; what
 *       comes later (markers, duplicates) is ignored.
 *
 *   fcq-gen flows [-u] [-p PORT] [-t TOS] [-c CC] [-e EPOCH_NS] [-T SECONDS]
 *                 FLOW...
 *       FLOW = DST:BYTES[@SECONDS]: start each flow at EPOCH + SECONDS
 *       (CLOCK_MONOTONIC; default: now), all concurrently, over TCP or,
 *       with -u, as UDP sent as fast as the socket takes it (the host's
 *       qdisc paces it at the link rate and backpressures it when paused).
 *       Prints one JSON line per completed flow (UDP: with the reorders
 *       its sink counted); the flow completion time
 *       runs from its start to the sink's reply (TCP connect included). A
 *       flow not done after -T seconds (default 60) is reported with
 *       "error" and makes the exit status 1: over UDP, that is a loss.
 *
 *   fcq-gen bulk [-p PORT] [-t TOS] [-c CC] [-i SECONDS] DST SECONDS
 *       one long TCP flow; every interval prints the bytes the receiver has
 *       acknowledged so far (TCP_INFO), i.e. its goodput over time.
 *
 *   fcq-gen paced [-p PORT] [-s SPORT] [-t TOS] [-e EPOCH_NS] [-d SECONDS]
 *                 DST RATE START BYTES
 *       one UDP stream of BYTES payload bytes at RATE (payload bits/s, as
 *       fcq-net's rates: 45Mbps) from EPOCH_NS + START seconds, in
 *       datagrams that fill the path MTU. Each carries a struct phdr: flow
 *       id (random), BYTES, the offset of its first payload byte, its send
 *       time and the payload size. Datagram k is due at
 *       start + k * payload / RATE on CLOCK_MONOTONIC, absolute, so that
 *       the pace does not drift; a due datagram is sent at once, so a
 *       sender held back catches up back to back with what it missed and
 *       never sends ahead of its schedule. With -d, it stops once SECONDS
 *       have passed since START (a backlogged source that leaves: its
 *       send time, not its schedule, decides). PACED_MARKS end markers
 *       follow, one interval apart: no payload, their offset where the
 *       stream ended (BYTES, or what was sent when -d stopped it), each
 *       at least an interval after what went before. Prints
 *       one JSON line; "late" counts datagrams sent more than an interval
 *       late.
 *
 *   fcq-gen now
 *       CLOCK_MONOTONIC in ns, to compute an epoch shared by the generators
 *       of several hosts on one machine.
 *
 *   fcq-gen [COMMAND] -h | --help
 *       the usage of every command, or of COMMAND, on stdout.
 *
 *   fcq-gen workload -n NET -w CDF -l LOAD -d SECONDS [-s SEED]
 *                    [-i FANIN:BYTES:PERIOD[:FLOWS[:MAX]]] [-g PG]
 *       an HPCC-simulator flow.txt on stdout (line 1: the number of flows,
 *       then "src dst pg dport size start_s" by start time), as HPCC's
 *       traffic_gen.py makes it: each host of NET draws Poisson arrivals
 *       over SECONDS from 2 s on (the simulator's flows start at 2 s) with
 *       mean gap avg_size * 8 / (rate_bits * LOAD), where avg_size is the
 *       CDF's trapezoid mean (HPCC's getAvg), a size by inverse transform
 *       with linear interpolation (truncated to bytes, at least 1), a
 *       destination uniform among the other hosts; pg PG (default 3),
 *       dport 100. -i adds an incast every PERIOD s from 2 + PERIOD/2 s
 *       on: FANIN distinct random hosts each send BYTES (FLOWS flows of
 *       U[BYTES, MAX] each) to one random receiver at once, dport 200.
 *       Same SEED (default 1), same output: each host has its own PRNG
 *       stream, seeded from SEED and its id. CDF lines: "size percent",
 *       from 0 % to 100 %, '#' comments.
 *
 *   fcq-gen burst -n NET -m PACKETS -k SHIFT [-s SEED] [-g PG]
 *       an HPCC-simulator flow.txt on stdout: PACKETS datagrams split at
 *       random among NET's hosts, every split into non-negative parts
 *       equally likely (stars and bars: n - 1 distinct bars among
 *       PACKETS + n - 1 places), and host i (in NET's order) sending its
 *       share at once, at 2 s, as one flow of share * (mtu - 44) bytes
 *       (full UDP datagrams, as "run -u" sends them) to host i + SHIFT
 *       (modulo n), dport 200; a host with no share sends nothing. The
 *       CBD ring of OFC's Experiment B: a trial per seed.
 *
 *   fcq-gen run -n NET -f FLOW_TXT -s SELF (-e EPOCH_NS | -R DIR)
 *               [-k SCALE] [-u] [-c CC] [-T DRAIN_S] [-L LAG_FILE]
 *       the flows of FLOW_TXT whose src is host SELF, open loop as in
 *       "flows". FLOW_TXT is read as the HPCC simulator reads it: line 1
 *       the number of flows N, then exactly N lines "src dst pg dport size
 *       start_s" in ascending start_s (anything after them is ignored, as
 *       the simulator ignores it). Flow i starts at
 *       EPOCH_NS + (start_s - first) * SCALE * 1e9, first being the first
 *       flow's start (HPCC's files begin at 2 s), to dst's address in NET,
 *       TCP (UDP with -u) port dport, IP TOS pg << 5 (DSCP pg << 3).
 *       -R DIR: a rendezvous instead of a fixed epoch, so that many
 *       generators start on one clock however long each took to start:
 *       once ready, append "SELF\n" to DIR/ready, then wait (inotify) for
 *       DIR/epoch, which holds EPOCH_NS (create it by rename).
 *       Prints a line of HPCC's fct.txt per completed flow:
 *         sip dip sport dport size start_ns fct_ns standalone_fct_ns
 *       on the flow file's clock, as the simulator writes it: start_ns =
 *       start_s * 1e9 (absolute, not from the epoch), fct_ns and
 *       standalone_fct_ns the measured and ideal times divided by SCALE
 *       (addresses as %08x, fct_ns from the scheduled start to the sink's
 *       reply, so that a late start counts against the flow). The
 *       standalone (ideal) FCT, from NET's "rtt SELF dst base_rtt_ns
 *       bottleneck_Bps" line and the mtu of SELF's "host" line:
 *         TCP: hdr = 52 (IPv4 + TCP with timestamps), k = 2 (handshake)
 *         UDP: hdr = 44 (IPv4 + UDP + our 16-byte header), k = 1
 *         packets = ceil(size / (mtu - hdr))
 *         wire    = size + packets * (hdr + 14 + 24)    (Ethernet header,
 *                   FCS, preamble and inter-frame gap: 38 bytes)
 *         ideal   = k * base_rtt_ns + floor(wire * 1e9 / bottleneck_Bps)
 *       -L LAG_FILE: a line "src dst size start_ns lag_ns standalone_ns"
 *       per flow as it starts: how late it was started and its ideal FCT,
 *       both in real ns (not divided by SCALE), start_ns as in fct.txt.
 *       A flow not done DRAIN_S s (default 60) after the last one started,
 *       or whose socket failed, goes to stderr as
 *       "incomplete src dst size start_ns" and makes the exit status 1.
 *       A completed UDP flow whose sink saw datagrams out of order goes
 *       to stderr too, as "reordered src dst size start_ns reorders".
 *
 * NET (written by the topology tool), one item a line, '#' comments:
 *   host <id> <netns> <dev> <ip> <rate_Bps> <mtu>
 *   switch <id> <netns>
 *   port <netns> <dev> <rate_Bps> <delay_ns> <peer_id>
 *   rtt <src_id> <dst_id> <base_rtt_ns> <bottleneck_Bps> [<links>]
 */
#include <arpa/inet.h>
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <getopt.h>
#include <linux/tcp.h>
#include <netinet/in.h>
#include <netinet/ip.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/inotify.h>
#include <sys/prctl.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "cmd_usage.h"
#include "rate.h"

#define MAGIC		0x46435147u	/* "FCQG" */
#define DEFAULT_PORT	5201
#define CHUNK		(64 << 10)
#define UNTIL_CLOSE	UINT64_MAX
#define MAX_UDP_FLOWS	4096
#define MAX_PORTS	16
#define NSEC		1000000000ULL
#define UDP_IDLE_NS	(60 * NSEC)	/* a UDP flow this silent lost data */
#define PACED_MAGIC	0x46435150u	/* "FCQP" */
#define PACED_MARKS	3		/* end markers: one may be lost */
#define MAX_PACED	1024		/* streams a sink follows at once */
#define MAX_PACED_DGRAMS (128 << 20)	/* a stream's bitmap: 16 MB at most */
#define PACED_LINGER_NS	NSEC		/* after a marker: stragglers */
#define SWEEP_MS	100		/* how often the sink looks for ends */

struct hdr {
	uint32_t magic;
	uint32_t flow;
	uint64_t size;		/* payload bytes after the header(s) */
} __attribute__((packed));

/*
 * A paced stream's datagram header. In network byte order, unlike struct
 * hdr: tc's u32 filters and captures read it as toolkit.rst documents it.
 */
struct phdr {
	uint32_t magic;
	uint32_t flow;
	uint64_t size;		/* the stream's payload bytes */
	uint64_t off;		/* of the first payload byte; end marker: the end */
	uint64_t sent;		/* CLOCK_MONOTONIC ns, when sent */
	uint32_t seg;		/* payload bytes of each datagram but the last */
	uint32_t zero;		/* sent as 0: 40 bytes, aligned, not packed */
};

struct opts {
	int port;
	int tos;
	const char *cc;
	bool udp;
	uint64_t epoch;
	double interval;
	double timeout;
	int sport;		/* paced: the source port, 0: any */
	bool fct;		/* run: fct.txt lines; a failed flow: not fatal */
	double scale;		/* run: real time per flow-file time */
	FILE *lag;		/* run: each flow's start lag, or NULL */
	uint64_t bin;		/* server: paced streams' goodput bin, ns */
};

static char zeros[CHUNK];

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static void die(const char *what)
{
	fprintf(stderr, "fcq-gen: %s: %s\n", what, strerror(errno));
	exit(1);
}

/* Each command's usage, after "usage: ", as its --help prints it. */
static const struct cmd_usage usages[] = {
	{ "server",
	  "fcq-gen server [-p PORT[,PORT...]] [-t TOS] [-c CC] [-b MS] [-T SECONDS]\n"
	  "    a sink on TCP and UDP port PORT, each of them (default 5201)\n"
	  "    -t TOS  IP TOS of what it sends   -c CC  TCP congestion control\n"
	  "    a JSON line per paced stream, once every byte is in, or 1 s after\n"
	  "    its end marker, or after -T SECONDS (default 60) of silence, or\n"
	  "    at SIGUSR1 (\"end\":\"cut\", every stream it follows then):\n"
	  "    bytes, sent (as the end marker says), lost, dups, reorders,\n"
	  "    goodput per -b MS bin (default 10)\n" },
	{ "flows",
	  "fcq-gen flows [-u] [-p PORT] [-t TOS] [-c CC] [-e EPOCH_NS] [-T SECONDS]\n"
	  "                     DST:BYTES[@SECONDS]...\n"
	  "    flows to sinks, each started at EPOCH_NS (CLOCK_MONOTONIC, default\n"
	  "    now) + SECONDS; a JSON line per flow with its completion time\n"
	  "    -u  UDP, not TCP                  -p PORT  the sinks' (default 5201)\n"
	  "    -t TOS  IP TOS                    -c CC    TCP congestion control\n"
	  "    -T SECONDS  a flow not done by then fails (default 60)\n" },
	{ "bulk",
	  "fcq-gen bulk [-p PORT] [-t TOS] [-c CC] [-i SECONDS] DST SECONDS\n"
	  "    one long TCP flow; every -i SECONDS (default 0.1) a JSON line with\n"
	  "    the bytes acknowledged so far\n" },
	{ "paced",
	  "fcq-gen paced [-p PORT] [-s SPORT] [-t TOS] [-e EPOCH_NS] [-d SECONDS]\n"
	  "    DST RATE START BYTES\n"
	  "    one UDP stream of BYTES payload bytes to DST's sink, paced at RATE\n"
	  "    (payload bits/s: 45Mbps, 1Gbps) from EPOCH_NS (CLOCK_MONOTONIC,\n"
	  "    default now) + START seconds; each datagram carries its byte\n"
	  "    offset. A JSON line with what was sent, and how many datagrams\n"
	  "    went out more than one interval late (they are sent at once)\n"
	  "    -p PORT  the sink's (default 5201)   -t TOS  IP TOS\n"
	  "    -s SPORT its own (default: any free one), so that the stream's\n"
	  "             5-tuple is known before it starts\n"
	  "    -d SECONDS  stop sending SECONDS after START, sent or not\n" },
	{ "now",
	  "fcq-gen now\n"
	  "    CLOCK_MONOTONIC in ns\n" },
	{ "workload",
	  "fcq-gen workload -n NET -w CDF -l LOAD -d SECONDS [-s SEED]\n"
	  "                        [-i FANIN:BYTES:PERIOD[:FLOWS[:MAX]]] [-g PG]\n"
	  "    an HPCC-simulator flow.txt on stdout: per host of NET, Poisson\n"
	  "    arrivals for SECONDS at LOAD (a fraction of its link rate), sizes\n"
	  "    from the CDF file; -s SEED (default 1), -i an incast of FANIN\n"
	  "    senders every PERIOD s (FLOWS flows each, of U[BYTES, MAX]),\n"
	  "    -g PG the flows' pg (default 3)\n" },
	{ "burst",
	  "fcq-gen burst -n NET -m PACKETS -k SHIFT [-s SEED] [-g PG]\n"
	  "    an HPCC-simulator flow.txt on stdout: PACKETS full UDP datagrams\n"
	  "    split at random among NET's hosts (each split equally likely),\n"
	  "    host i sending its share at once to host i + SHIFT, at 2 s;\n"
	  "    -s SEED (default 1), -g PG the flows' pg (default 3)\n" },
	{ "run",
	  "fcq-gen run -n NET -f FLOW_TXT -s SELF (-e EPOCH_NS | -R DIR) [-k SCALE]\n"
	  "                   [-u] [-c CC] [-T DRAIN_S] [-L LAG_FILE]\n"
	  "    the flows of FLOW_TXT (HPCC's: its declared count, ascending start)\n"
	  "    from host SELF of NET, open loop from EPOCH_NS, or from the epoch\n"
	  "    written to DIR/epoch once ready (-R: \"SELF\" is appended to\n"
	  "    DIR/ready first), their start times stretched by SCALE (default 1);\n"
	  "    a line of HPCC's fct.txt per completed flow, on the flow file's\n"
	  "    clock; -u UDP, -c CC TCP congestion control, -T DRAIN_S wait for\n"
	  "    the last flows (default 60), -L each flow's start lag to LAG_FILE\n" },
};
#define NUSAGES	(sizeof(usages) / sizeof(usages[0]))

/* Every command's usage, or @cmd's only; exits with @status. */
static void __attribute__((noreturn))
usage_to(FILE *f, const char *cmd, int status)
{
	cmd_usage(f, "usage: fcq-gen COMMAND [OPTION...] [ARG...]\n"
		  "       fcq-gen [COMMAND] -h | --help\n",
		  usages, NUSAGES, cmd, status);
}

static void __attribute__((noreturn)) usage(void)
{
	usage_to(stderr, NULL, 2);
}

static const struct option long_opts[] = {
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static void __attribute__((noreturn, format(printf, 1, 2)))
fail(const char *fmt, ...)
{
	va_list ap;

	fputs("fcq-gen: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

static void set_opts(int fd, const struct opts *o, int tos, bool tcp)
{
	int one = 1;

	if (tos >= 0 && setsockopt(fd, IPPROTO_IP, IP_TOS, &tos, sizeof(tos)))
		die("IP_TOS");
	if (!tcp)
		return;
	if (o->cc && setsockopt(fd, IPPROTO_TCP, TCP_CONGESTION, o->cc,
				strlen(o->cc)))
		die("TCP_CONGESTION");
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
}

static void nonblock(int fd)
{
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
}

static int parse_dst(struct sockaddr_in *a, const char *host, int port)
{
	a->sin_family = AF_INET;
	a->sin_port = htons(port);
	return inet_pton(AF_INET, host, &a->sin_addr) == 1 ? 0 : -1;
}

/* ---- server ---------------------------------------------------------- */

/* What an epoll event of the server is about. */
enum { SOCK_LISTEN, SOCK_UDP, SOCK_CONN };

struct sock {
	int kind;
	int fd;
};

struct conn {
	struct sock s;		/* first: epoll hands us &s */
	size_t hdr_got;
	struct hdr h;
	uint64_t got;
};

struct udp_flow {
	struct sockaddr_in6 from;
	uint32_t flow;
	uint64_t size;
	uint64_t got;
	uint64_t high;		/* the highest payload offset received */
	uint64_t reorders;	/* datagrams that came below it */
	uint64_t seen;		/* last datagram, CLOCK_MONOTONIC ns */
	bool used;
};

/* A paced stream, as the sink follows it. */
enum { PS_FREE, PS_OPEN, PS_MARKED, PS_DONE };

struct pstream {
	struct sockaddr_in6 from;
	uint32_t flow;
	uint32_t seg;
	uint64_t size;
	uint64_t end;		/* the end marker's offset; size without one */
	uint64_t *have;		/* a bit per datagram received */
	uint64_t *bins;		/* new payload bytes per bin from first */
	uint64_t nbins, cap;	/* bins used, allocated */
	uint64_t bytes;		/* new payload bytes */
	uint64_t dgrams;	/* with payload, duplicates included */
	uint64_t dups, reorders;
	uint64_t high;		/* the highest offset received */
	uint64_t first, last;	/* first datagram, last new byte (ns) */
	uint64_t seen;		/* last datagram (ns) */
	uint64_t owd_sum, owd_max;
	int state;
};

struct psink {
	struct pstream s[MAX_PACED];
	int n;			/* slots in use are below it */
	uint64_t bin, idle;	/* ns */
};

static bool same_from(const struct sockaddr_in6 *a,
		      const struct sockaddr_in6 *b)
{
	return a->sin6_port == b->sin6_port &&
	       !memcmp(&a->sin6_addr, &b->sin6_addr, sizeof(a->sin6_addr));
}

/* The stream of a datagram, made on its first; NULL: not to follow. */
static struct pstream *pstream_get(struct psink *p,
				   const struct sockaddr_in6 *from,
				   uint32_t flow, uint64_t size, uint32_t seg,
				   uint64_t now)
{
	static bool warned;
	struct pstream *s = NULL;
	int i;

	for (i = 0; i < p->n; i++) {
		if (p->s[i].state == PS_FREE) {
			s = s ?: &p->s[i];
		} else if (p->s[i].flow == flow &&
			   same_from(&p->s[i].from, from)) {
			s = &p->s[i];
			/* another size or segment: not this stream's */
			return s->size == size && s->seg == seg ? s : NULL;
		}
	}
	if (!s && p->n < MAX_PACED)
		s = &p->s[p->n++];
	if (!s) {
		if (!warned)
			fprintf(stderr, "fcq-gen: %d paced streams: others ignored\n",
				MAX_PACED);
		warned = true;
		return NULL;
	}
	*s = (struct pstream){ .from = *from, .flow = flow, .seg = seg,
			       .size = size, .end = size, .first = now,
			       .last = now, .state = PS_OPEN };
	s->have = calloc((size - 1) / seg / 64 + 1, sizeof(*s->have));
	if (!s->have)
		die("calloc");
	return s;
}

static void pstream_bin(struct pstream *s, uint64_t i, uint64_t bytes)
{
	if (i >= s->cap) {
		uint64_t cap = s->cap ?: 64;

		while (cap <= i)
			cap *= 2;
		s->bins = realloc(s->bins, cap * sizeof(*s->bins));
		if (!s->bins)
			die("realloc");
		memset(s->bins + s->cap, 0, (cap - s->cap) * sizeof(*s->bins));
		s->cap = cap;
	}
	s->bins[i] += bytes;
	if (i >= s->nbins)
		s->nbins = i + 1;
}

/* Its JSON line; the slot stays, ignoring late datagrams, for a while. */
static void pstream_end(const struct psink *p, struct pstream *s,
			const char *how)
{
	const uint8_t *a = s->from.sin6_addr.s6_addr;
	uint64_t got = s->dgrams - s->dups, i;
	char src[INET6_ADDRSTRLEN];

	if (IN6_IS_ADDR_V4MAPPED(&s->from.sin6_addr))
		inet_ntop(AF_INET, a + 12, src, sizeof(src));
	else
		inet_ntop(AF_INET6, a, src, sizeof(src));
	printf("{\"proto\":\"paced\",\"src\":\"%s\",\"sport\":%u,\"flow\":%u,",
	       src, ntohs(s->from.sin6_port), s->flow);
	printf("\"end\":\"%s\",\"size\":%llu,\"sent\":%llu,\"bytes\":%llu,",
	       how, (unsigned long long)s->size, (unsigned long long)s->end,
	       (unsigned long long)s->bytes);
	printf("\"lost\":%llu,", (unsigned long long)(s->end > s->bytes ?
						   s->end - s->bytes : 0));
	printf("\"dgrams\":%llu,\"dups\":%llu,\"reorders\":%llu,",
	       (unsigned long long)s->dgrams, (unsigned long long)s->dups,
	       (unsigned long long)s->reorders);
	printf("\"first_ns\":%llu,\"last_ns\":%llu,\"fct_ns\":%llu,",
	       (unsigned long long)s->first, (unsigned long long)s->last,
	       (unsigned long long)(s->last - s->first));
	printf("\"owd_mean_ns\":%llu,\"owd_max_ns\":%llu,\"bin_ns\":%llu,\"bins\":[",
	       (unsigned long long)(got ? s->owd_sum / got : 0),
	       (unsigned long long)s->owd_max, (unsigned long long)p->bin);
	for (i = 0; i < s->nbins; i++)
		printf("%s%llu", i ? "," : "", (unsigned long long)s->bins[i]);
	printf("]}\n");
	fflush(stdout);
	free(s->have);
	free(s->bins);
	s->state = PS_DONE;
}

/* A datagram of a paced stream, @len payload bytes; ignored if malformed. */
static void paced_rx(struct psink *p, const struct phdr *h, size_t len,
		     const struct sockaddr_in6 *from, uint64_t now)
{
	uint64_t size = be64toh(h->size), off = be64toh(h->off);
	uint64_t sent = be64toh(h->sent), owd, k, bit;
	uint32_t seg = ntohl(h->seg);
	struct pstream *s;

	/*
	 * An end marker's offset is the size, a multiple of seg or not, or
	 * where a stopped stream ended, a multiple of seg.
	 */
	if (!seg || !size || off > size || (off % seg && off != size) ||
	    (size - 1) / seg >= MAX_PACED_DGRAMS ||
	    (len && len != (size - off < seg ? size - off : seg)))
		return;
	s = pstream_get(p, from, ntohl(h->flow), size, seg, now);
	if (!s)
		return;
	s->seen = now;
	if (s->state == PS_DONE)
		return;
	if (!len) {
		/*
		 * A sender's markers all say where it ended, past every
		 * datagram it sent: one below what came, or contradicting an
		 * earlier one, is not its (spoofed, or another sender's).
		 */
		if ((s->dgrams && off <= s->high) ||
		    (s->state == PS_MARKED && off != s->end))
			return;
		s->state = PS_MARKED;
		s->end = off;
		if (s->bytes == s->end)
			pstream_end(p, s, "complete");
		return;
	}
	s->dgrams++;
	k = off / seg;
	bit = (uint64_t)1 << (k % 64);
	if (s->have[k / 64] & bit) {
		s->dups++;
		return;
	}
	s->have[k / 64] |= bit;
	owd = now > sent ? now - sent : 0;
	s->owd_sum += owd;
	if (owd > s->owd_max)
		s->owd_max = owd;
	if (off < s->high)
		s->reorders++;
	else
		s->high = off;
	s->bytes += len;
	s->last = now;
	pstream_bin(s, (now - s->first) / p->bin, len);
	if (s->bytes == s->end)
		pstream_end(p, s, "complete");
}

/* SIGUSR1: every stream followed is to be reported as it stands. */
static volatile sig_atomic_t paced_cut;

static void on_usr1(int sig)
{
	paced_cut = 1;
}

/*
 * Streams whose end has come: by their marker, by silence, or (@cut) by
 * the caller's say-so.
 */
static void paced_sweep(struct psink *p, uint64_t now, bool cut)
{
	int i;

	for (i = 0; i < p->n; i++) {
		struct pstream *s = &p->s[i];
		uint64_t quiet = now - s->seen;

		if (cut && (s->state == PS_OPEN || s->state == PS_MARKED))
			pstream_end(p, s, "cut");
		else if (s->state == PS_MARKED && quiet >= PACED_LINGER_NS)
			pstream_end(p, s, "marker");
		else if (s->state == PS_OPEN && quiet >= p->idle)
			pstream_end(p, s, "silent");
		else if (s->state == PS_DONE && quiet >= PACED_LINGER_NS)
			s->state = PS_FREE;
	}
	while (p->n && p->s[p->n - 1].state == PS_FREE)
		p->n--;
}

static void conn_close(int ep, struct conn *c)
{
	epoll_ctl(ep, EPOLL_CTL_DEL, c->s.fd, NULL);
	close(c->s.fd);
	free(c);
}

static void conn_read(int ep, struct conn *c)
{
	static char buf[CHUNK];
	ssize_t n;

	for (;;) {
		if (c->hdr_got < sizeof(c->h)) {
			n = read(c->s.fd, (char *)&c->h + c->hdr_got,
				 sizeof(c->h) - c->hdr_got);
			if (n > 0) {
				c->hdr_got += n;
				if (c->hdr_got == sizeof(c->h) &&
				    c->h.magic != MAGIC)
					break;
				continue;
			}
		} else {
			n = read(c->s.fd, buf, sizeof(buf));
			if (n > 0) {
				c->got += n;
				if (c->h.size == UNTIL_CLOSE || c->got < c->h.size)
					continue;
				/* All here: tell the sender. */
				if (write(c->s.fd, "K", 1) != 1)
					perror("fcq-gen: reply");
				break;
			}
		}
		if (n < 0 && errno == EAGAIN)
			return;
		break;		/* EOF, error, bad header or done */
	}
	conn_close(ep, c);
}

static void udp_read(int fd, struct udp_flow *tab, struct psink *p)
{
	static char buf[65536];
	struct sockaddr_in6 from;
	socklen_t len = sizeof(from);
	struct hdr *h = (struct hdr *)buf;
	struct udp_flow *f, *free_slot;
	uint64_t now;
	ssize_t n;
	int i;

	while ((n = recvfrom(fd, buf, sizeof(buf), 0, (struct sockaddr *)&from,
			     &len)) >= (ssize_t)sizeof(*h)) {
		const struct phdr *ph = (const struct phdr *)buf;

		if (n >= (ssize_t)sizeof(*ph) &&
		    ph->magic == htonl(PACED_MAGIC)) {
			paced_rx(p, ph, n - sizeof(*ph), &from, now_ns());
			continue;
		}
		if (h->magic != MAGIC)
			continue;
		f = NULL;
		free_slot = NULL;
		now = now_ns();
		for (i = 0; i < MAX_UDP_FLOWS; i++) {
			/* A flow silent for a minute lost datagrams: reuse it. */
			if (!tab[i].used || now - tab[i].seen > UDP_IDLE_NS) {
				free_slot = free_slot ?: &tab[i];
			} else if (tab[i].flow == h->flow &&
				   tab[i].from.sin6_port == from.sin6_port &&
				   !memcmp(&tab[i].from.sin6_addr, &from.sin6_addr,
					   sizeof(from.sin6_addr))) {
				f = &tab[i];
				break;
			}
		}
		if (!f) {
			if (!free_slot)
				continue;
			f = free_slot;
			*f = (struct udp_flow){ .from = from, .flow = h->flow,
						.size = h->size, .used = true };
		}
		f->got += n - sizeof(*h);
		f->seen = now;
		if (n >= (ssize_t)(sizeof(*h) + sizeof(uint64_t))) {
			uint64_t off;

			memcpy(&off, h + 1, sizeof(off));
			off = be64toh(off);
			if (off < f->high)
				f->reorders++;
			else
				f->high = off;
		}
		if (f->got >= f->size) {
			char k[1 + sizeof(uint64_t)] = "K";
			uint64_t r = htobe64(f->reorders);

			memcpy(k + 1, &r, sizeof(r));
			sendto(fd, k, sizeof(k), 0, (struct sockaddr *)&from,
			       len);
			f->used = false;
		}
		len = sizeof(from);
	}
}

/* "PORT[,PORT...]" into ports[]; returns how many. */
static int parse_ports(const char *arg, int *ports)
{
	const char *p = arg;
	int n = 0;

	for (;;) {
		char *end;
		long v = strtol(p, &end, 10);

		if (end == p || v < 1 || v > 65535 || n == MAX_PORTS ||
		    (*end && *end != ','))
			fail("bad port list '%s' (at most %d ports)", arg,
			     MAX_PORTS);
		ports[n++] = v;
		if (!*end)
			return n;
		p = end + 1;
	}
}

/* One TCP listener and one UDP socket on @port, in epoll @ep. */
static void server_listen(int ep, int port, struct sock *l, struct sock *u,
			  const struct opts *o)
{
	struct sockaddr_in6 a = { .sin6_family = AF_INET6,
				  .sin6_port = htons(port) };
	struct epoll_event ev = { .events = EPOLLIN };
	int one = 1;

	*l = (struct sock){ SOCK_LISTEN, socket(AF_INET6, SOCK_STREAM, 0) };
	*u = (struct sock){ SOCK_UDP, socket(AF_INET6, SOCK_DGRAM, 0) };
	if (l->fd < 0 || u->fd < 0)
		die("socket");
	setsockopt(l->fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(l->fd, (struct sockaddr *)&a, sizeof(a)) ||
	    listen(l->fd, 1024) ||
	    bind(u->fd, (struct sockaddr *)&a, sizeof(a)))
		die("bind");
	set_opts(l->fd, o, o->tos, true);
	set_opts(u->fd, o, o->tos, false);
	/* A host's socket must not be where a lossless fabric loses data
	 * (FORCE: past rmem_max, when we are allowed to).
	 */
	one = 16 << 20;
	if (setsockopt(u->fd, SOL_SOCKET, SO_RCVBUFFORCE, &one, sizeof(one)))
		setsockopt(u->fd, SOL_SOCKET, SO_RCVBUF, &one, sizeof(one));
	nonblock(l->fd);
	nonblock(u->fd);
	ev.data.ptr = l;
	epoll_ctl(ep, EPOLL_CTL_ADD, l->fd, &ev);
	ev.data.ptr = u;
	epoll_ctl(ep, EPOLL_CTL_ADD, u->fd, &ev);
}

static void __attribute__((noreturn)) server(const struct opts *o,
					     const char *port_list)
{
	static struct sock socks[2 * MAX_PORTS];
	/* Shared by the ports: a UDP flow is keyed by its sender's socket. */
	static struct udp_flow tab[MAX_UDP_FLOWS];
	static struct psink paced;
	struct epoll_event ev, evs[64];
	int ports[MAX_PORTS], np, ep, i, n;
	uint64_t swept = 0;
	char dflt[8];

	if (!port_list) {
		snprintf(dflt, sizeof(dflt), "%d", o->port);
		port_list = dflt;
	}
	np = parse_ports(port_list, ports);
	ep = epoll_create1(0);
	for (i = 0; i < np; i++)
		server_listen(ep, ports[i], &socks[2 * i], &socks[2 * i + 1],
			      o);
	paced.bin = o->bin;
	paced.idle = o->timeout * 1e9;
	/* no SA_RESTART: the signal ends epoll_wait() */
	sigaction(SIGUSR1, &(struct sigaction){ .sa_handler = on_usr1 }, NULL);
	for (;;) {
		/* Ends come by time too, while some stream is followed. */
		n = epoll_wait(ep, evs, 64, paced.n ? SWEEP_MS : -1);
		if (paced_cut) {
			paced_cut = 0;
			paced_sweep(&paced, now_ns(), true);
			fflush(stdout);
		}
		if (n < 0)
			continue;	/* EINTR */
		if (paced.n && now_ns() - swept >= SWEEP_MS * 1000000ULL) {
			swept = now_ns();
			paced_sweep(&paced, swept, false);
		}
		for (i = 0; i < n; i++) {
			struct sock *sk = evs[i].data.ptr;
			int fd;

			if (sk->kind == SOCK_UDP) {
				udp_read(sk->fd, tab, &paced);
				continue;
			}
			if (sk->kind == SOCK_CONN) {
				conn_read(ep, (struct conn *)sk);
				continue;
			}
			while ((fd = accept(sk->fd, NULL, NULL)) >= 0) {
				struct conn *c = calloc(1, sizeof(*c));

				if (!c)
					die("calloc");
				c->s = (struct sock){ SOCK_CONN, fd };
				nonblock(fd);
				set_opts(fd, o, o->tos, true);
				ev.events = EPOLLIN;
				ev.data.ptr = c;
				epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev);
			}
		}
	}
}

/* ---- flows ----------------------------------------------------------- */

struct flow {
	struct sockaddr_in dst;
	uint32_t id;
	uint64_t size;		/* payload bytes */
	uint64_t start;		/* ns, CLOCK_MONOTONIC */
	uint64_t connected;
	uint64_t sent;		/* TCP: header + payload; UDP: payload */
	int dgram;		/* UDP payload per datagram */
	uint64_t reorders;	/* UDP: as the sink counted them */
	int tos;
	int fd;
	/* run only: what fct.txt says of it */
	int src_id, dst_id;
	uint32_t sip;		/* host order */
	uint64_t ideal;		/* standalone FCT, ns */
	uint64_t file_ns;	/* start on the flow file's clock */
};

/* Returns 0, or -1 with errno set (the caller tells whether it is fatal). */
static int flow_start(int ep, struct flow *f, const struct opts *o)
{
	struct epoll_event ev = { .events = EPOLLOUT, .data.ptr = f };

	f->fd = socket(AF_INET, (o->udp ? SOCK_DGRAM : SOCK_STREAM) |
				SOCK_NONBLOCK, 0);
	if (f->fd < 0)
		die("socket");
	set_opts(f->fd, o, f->tos, !o->udp);
	if (connect(f->fd, (struct sockaddr *)&f->dst, sizeof(f->dst)) &&
	    errno != EINPROGRESS)
		return -1;
	if (o->udp) {
		int mtu;
		socklen_t l = sizeof(mtu);

		if (getsockopt(f->fd, IPPROTO_IP, IP_MTU, &mtu, &l))
			die("IP_MTU");
		f->dgram = mtu - 20 - 8 - sizeof(struct hdr);
	}
	epoll_ctl(ep, EPOLL_CTL_ADD, f->fd, &ev);
	return 0;
}

static void flow_report(const struct flow *f, const struct opts *o,
			uint64_t end, bool timeout)
{
	const char *proto = o->udp ? "udp" : "tcp";
	struct sockaddr_in self;
	socklen_t len = sizeof(self);
	char dst[INET_ADDRSTRLEN];

	getsockname(f->fd, (struct sockaddr *)&self, &len);
	if (o->fct) {
		/* On the flow file's clock, as the simulator writes it. */
		if (timeout)
			fprintf(stderr, "incomplete %d %d %llu %llu\n",
				f->src_id, f->dst_id,
				(unsigned long long)f->size,
				(unsigned long long)f->file_ns);
		else if (o->udp && f->reorders)
			fprintf(stderr, "reordered %d %d %llu %llu %llu\n",
				f->src_id, f->dst_id,
				(unsigned long long)f->size,
				(unsigned long long)f->file_ns,
				(unsigned long long)f->reorders);
		if (!timeout)
			printf("%08x %08x %u %u %llu %llu %.0f %.0f\n", f->sip,
			       ntohl(f->dst.sin_addr.s_addr),
			       ntohs(self.sin_port), ntohs(f->dst.sin_port),
			       (unsigned long long)f->size,
			       (unsigned long long)f->file_ns,
			       (end - f->start) / o->scale,
			       f->ideal / o->scale);
		fflush(stdout);
		return;
	}
	inet_ntop(AF_INET, &f->dst.sin_addr, dst, sizeof(dst));
	printf("{\"proto\":\"%s\",\"dst\":\"%s\",\"sport\":%u,\"dport\":%u,"
	       "\"size\":%llu,\"start_ns\":%llu,", proto, dst,
	       ntohs(self.sin_port), ntohs(f->dst.sin_port),
	       (unsigned long long)f->size, (unsigned long long)f->start);
	if (timeout)
		printf("\"error\":\"not complete\",\"sent\":%llu}\n",
		       (unsigned long long)f->sent);
	else if (o->udp)
		printf("\"connect_ns\":%llu,\"fct_ns\":%llu,\"reorders\":%llu}\n",
		       (unsigned long long)(f->connected - f->start),
		       (unsigned long long)(end - f->start),
		       (unsigned long long)f->reorders);
	else
		printf("\"connect_ns\":%llu,\"fct_ns\":%llu}\n",
		       (unsigned long long)(f->connected - f->start),
		       (unsigned long long)(end - f->start));
	fflush(stdout);
}

/* Send what the socket takes: 1 when everything is out, 0 when the socket
 * is full, -1 on an error (errno).
 */
static int tcp_send(struct flow *f)
{
	uint64_t total = sizeof(struct hdr) + f->size;

	while (f->sent < total) {
		ssize_t n;

		if (f->sent < sizeof(struct hdr)) {
			struct hdr h = { MAGIC, f->id, f->size };

			n = write(f->fd, (char *)&h + f->sent,
				  sizeof(h) - f->sent);
		} else {
			uint64_t left = total - f->sent;

			n = write(f->fd, zeros, left < CHUNK ? left : CHUNK);
		}
		if (n < 0)
			return errno == EAGAIN ? 0 : -1;
		f->sent += n;
	}
	return 1;
}

static int udp_send(struct flow *f)
{
	static char buf[65536];
	struct hdr *h = (struct hdr *)buf;

	*h = (struct hdr){ MAGIC, f->id, f->size };
	while (f->sent < f->size) {
		uint64_t left = f->size - f->sent, off = htobe64(f->sent);
		size_t len = left < (uint64_t)f->dgram ? left : (uint64_t)f->dgram;

		/* the sink counts reorders by it (a shorter tail goes without) */
		memcpy(h + 1, &off, len < sizeof(off) ? len : sizeof(off));
		if (send(f->fd, buf, sizeof(*h) + len, 0) < 0)
			return errno == EAGAIN || errno == ENOBUFS ? 0 : -1;
		f->sent += len;
	}
	return 1;
}

/* A flow whose socket failed: fatal, except in run, where the others go on
 * and it counts as incomplete.
 */
static void flow_failed(int ep, struct flow *f, const struct opts *o,
			const char *what)
{
	if (!o->fct)
		die(what);
	fprintf(stderr, "fcq-gen: flow %d -> %d port %u: %s: %s\n", f->src_id,
		f->dst_id, ntohs(f->dst.sin_port), what, strerror(errno));
	flow_report(f, o, 0, true);
	epoll_ctl(ep, EPOLL_CTL_DEL, f->fd, NULL);
	close(f->fd);
	f->fd = -1;
}

/* epoll_wait until @until (CLOCK_MONOTONIC ns), to the ns: a flow's FCT
 * runs from its scheduled start, so starting it late (as a ms timeout
 * would) adds to it.
 */
static int wait_until(int ep, struct epoll_event *evs, int max,
		      uint64_t until)
{
	uint64_t now = now_ns(), d = until > now ? until - now : 0;
	struct timespec ts = { d / NSEC, d % NSEC };
	int n;

	n = epoll_pwait2(ep, evs, max, &ts, NULL);
	if (n < 0 && errno == ENOSYS)		/* before Linux 5.11 */
		n = epoll_wait(ep, evs, max, d / 1000000 + 1);
	return n;
}

static int run_flows(struct flow *fl, int nf, const struct opts *o)
{
	struct epoll_event ev, evs[64];
	int ep = epoll_create1(0), next = 0, left = nf, failed = 0, i, n;
	uint64_t deadline = 0;

	/* Timers to the ns, not rounded up by the default 50 us slack. */
	prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
	while (left) {
		uint64_t now = now_ns(), until;

		while (next < nf && fl[next].start <= now) {
			struct flow *f = &fl[next++];

			if (o->lag)
				fprintf(o->lag, "%d %d %llu %llu %llu %llu\n",
					f->src_id, f->dst_id,
					(unsigned long long)f->size,
					(unsigned long long)f->file_ns,
					(unsigned long long)(now - f->start),
					(unsigned long long)f->ideal);
			if (flow_start(ep, f, o)) {
				flow_failed(ep, f, o, "connect");
				left--;
				failed++;
			}
		}
		if (!left)
			break;
		if (next < nf) {
			until = fl[next].start;
		} else {
			if (!deadline)
				deadline = now + o->timeout * 1e9;
			if (now >= deadline)
				break;
			until = deadline;
		}
		n = wait_until(ep, evs, 64, until);
		for (i = 0; i < n; i++) {
			struct flow *f = evs[i].data.ptr;
			char k[1 + sizeof(uint64_t)];
			int r;

			if (evs[i].events & (EPOLLERR | EPOLLHUP) &&
			    !(evs[i].events & EPOLLIN)) {
				int err = 0;
				socklen_t l = sizeof(err);

				getsockopt(f->fd, SOL_SOCKET, SO_ERROR, &err, &l);
				errno = err;
				flow_failed(ep, f, o, "flow");
				left--;
				failed++;
				continue;
			}
			if (!f->connected)
				f->connected = now_ns();
			if (evs[i].events & EPOLLIN) {
				r = read(f->fd, k, sizeof(k));
				if (r == sizeof(k) && o->udp) {
					memcpy(&f->reorders, k + 1,
					       sizeof(f->reorders));
					f->reorders = be64toh(f->reorders);
				}
				if (r >= 1) {
					flow_report(f, o, now_ns(), false);
					epoll_ctl(ep, EPOLL_CTL_DEL, f->fd, NULL);
					close(f->fd);
					f->fd = -1;
					left--;
				} else if (!r || errno != EAGAIN) {
					/* The sink went away: do not spin on
					 * its EOF until the drain time.
					 */
					errno = r ? errno : ECONNRESET;
					flow_failed(ep, f, o, "reply");
					left--;
					failed++;
				}
				continue;
			}
			r = o->udp ? udp_send(f) : tcp_send(f);
			if (r < 0) {
				flow_failed(ep, f, o, o->udp ? "send" : "write");
				left--;
				failed++;
			} else if (r) {
				ev.events = EPOLLIN;
				ev.data.ptr = f;
				epoll_ctl(ep, EPOLL_CTL_MOD, f->fd, &ev);
			}
		}
	}
	for (i = 0; i < nf; i++)
		if (fl[i].fd >= 0)
			flow_report(&fl[i], o, 0, true);
	if (o->lag && fflush(o->lag))
		die("start lags");
	return left || failed ? 1 : 0;
}

/* ---- bulk ------------------------------------------------------------ */

static void sample(int fd, uint64_t t0)
{
	struct tcp_info ti;
	socklen_t l = sizeof(ti);
	uint64_t now;

	if (getsockopt(fd, IPPROTO_TCP, TCP_INFO, &ti, &l))
		die("TCP_INFO");
	now = now_ns();
	printf("{\"t\":%.6f,\"ns\":%llu,\"acked\":%llu}\n", (now - t0) / 1e9,
	       (unsigned long long)now, (unsigned long long)ti.tcpi_bytes_acked);
	fflush(stdout);
}

static int bulk(const char *host, double secs, const struct opts *o)
{
	struct hdr h = { MAGIC, 0, UNTIL_CLOSE };
	struct epoll_event ev = { .events = EPOLLOUT };
	uint64_t t0, next, end, now;
	struct sockaddr_in dst;
	int fd, ep;

	if (parse_dst(&dst, host, o->port))
		usage();
	fd = socket(AF_INET, SOCK_STREAM, 0);
	if (fd < 0)
		die("socket");
	set_opts(fd, o, o->tos, true);
	if (connect(fd, (struct sockaddr *)&dst, sizeof(dst)) ||
	    write(fd, &h, sizeof(h)) != sizeof(h))
		die("connect");
	nonblock(fd);
	ep = epoll_create1(0);
	epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev);

	t0 = now_ns();
	next = t0 + o->interval * 1e9;
	end = t0 + secs * 1e9;
	while ((now = now_ns()) < end) {
		if (now >= next) {
			sample(fd, t0);
			next += o->interval * 1e9;
			continue;
		}
		if (epoll_wait(ep, &ev, 1, (next - now) / 1000000 + 1) > 0 &&
		    write(fd, zeros, CHUNK) < 0 && errno != EAGAIN)
			die("write");
	}
	sample(fd, t0);
	close(fd);
	return 0;
}

static struct flow *parse_flows(char **spec, int nf, const struct opts *o)
{
	struct flow *fl = calloc(nf, sizeof(*fl));
	uint64_t epoch = o->epoch ? o->epoch : now_ns();
	int i;

	if (!fl)
		die("calloc");
	for (i = 0; i < nf; i++) {
		char *s = strdup(spec[i]), *colon, *at;

		colon = s ? strchr(s, ':') : NULL;
		if (!colon)
			usage();
		*colon = '\0';
		at = strchr(colon + 1, '@');
		if (at)
			*at = '\0';
		if (parse_dst(&fl[i].dst, s, o->port))
			usage();
		fl[i].id = i;
		fl[i].tos = o->tos;
		fl[i].size = strtoull(colon + 1, NULL, 0);
		fl[i].start = epoch + (at ? atof(at + 1) * 1e9 : 0);
		fl[i].fd = -1;
		/* Flows start in the order given. */
		if (i && fl[i].start < fl[i - 1].start)
			usage();
		free(s);
	}
	return fl;
}

/* ---- paced ----------------------------------------------------------- */

static void sleep_until(uint64_t t)
{
	struct timespec ts = { t / NSEC, t % NSEC };

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) ==
	       EINTR)
		;
}

/* @size payload bytes to @host at @bps bytes/s from @start (ns), until
 * @stop (ns; 0: none): see the header comment for the schedule.
 */
static int paced_send(const char *host, double bps, uint64_t start,
		      uint64_t stop, uint64_t size, const struct opts *o)
{
	static char buf[65536];
	struct phdr *h = (struct phdr *)buf;
	uint64_t nd, k, ival, late = 0, max_late = 0, first = 0, end = 0;
	uint64_t sent = size, prev = 0;
	char dst_s[INET_ADDRSTRLEN];
	struct sockaddr_in dst, self;
	uint32_t flow, seg;
	int fd, mtu;
	socklen_t l = sizeof(mtu);

	if (parse_dst(&dst, host, o->port))
		usage();
	fd = socket(AF_INET, SOCK_DGRAM, 0);
	if (fd < 0)
		die("socket");
	set_opts(fd, o, o->tos, false);
	if (o->sport) {
		self = (struct sockaddr_in){ .sin_family = AF_INET,
					     .sin_port = htons(o->sport) };
		if (bind(fd, (struct sockaddr *)&self, sizeof(self)))
			die("bind -s");
	}
	if (connect(fd, (struct sockaddr *)&dst, sizeof(dst)))
		die("connect");
	if (getsockopt(fd, IPPROTO_IP, IP_MTU, &mtu, &l))
		die("IP_MTU");
	if (mtu <= 20 + 8 + (int)sizeof(*h))
		fail("MTU %d: no room for a payload", mtu);
	seg = mtu - 20 - 8 - sizeof(*h);
	/* Random: a sink that saw this address and port before can tell. */
	if (getrandom(&flow, sizeof(flow), 0) != sizeof(flow))
		die("getrandom");
	nd = (size - 1) / seg + 1;
	if (nd > MAX_PACED_DGRAMS)
		fail("BYTES: %llu datagrams, a sink follows %d at most",
		     (unsigned long long)nd, MAX_PACED_DGRAMS);
	ival = seg / bps * NSEC;
	*h = (struct phdr){ .magic = htonl(PACED_MAGIC), .flow = htonl(flow),
			    .size = htobe64(size), .seg = htonl(seg) };
	/* Timers to the ns, not rounded up by the default 50 us slack. */
	prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
	for (k = 0; k < nd + PACED_MARKS; k++) {
		uint64_t off = k < nd ? k * seg : sent, now;
		uint64_t len = k < nd ? (size - off < seg ? size - off : seg) : 0;
		uint64_t due = start + (uint64_t)(k * (double)seg / bps * NSEC);

		/* Markers one interval apart, even behind their schedule. */
		if (k >= nd && prev && due < prev + ival)
			due = prev + ival;
		sleep_until(due);
		now = now_ns();
		if (k < nd && stop && now >= stop) {
			/* the markers now, at this datagram's schedule on */
			sent = off;
			nd = k--;
			continue;
		}
		if (k < nd) {
			late += now - due > ival;
			if (now - due > max_late)
				max_late = now - due;
			first = first ?: now;
			end = now;
		}
		h->off = htobe64(off);
		h->sent = htobe64(now);
		if (send(fd, buf, sizeof(*h) + len, 0) < 0)
			die("send");
		prev = now;
	}
	l = sizeof(self);
	getsockname(fd, (struct sockaddr *)&self, &l);
	inet_ntop(AF_INET, &dst.sin_addr, dst_s, sizeof(dst_s));
	printf("{\"proto\":\"paced\",\"dst\":\"%s\",\"sport\":%u,\"dport\":%u,",
	       dst_s, ntohs(self.sin_port), o->port);
	printf("\"flow\":%u,\"rate_bps\":%.0f,\"dgram\":%u,\"bytes\":%llu,",
	       flow, bps * 8, seg, (unsigned long long)size);
	printf("\"sent\":%llu,", (unsigned long long)sent);
	printf("\"dgrams\":%llu,\"start_ns\":%llu,\"first_ns\":%llu,",
	       (unsigned long long)nd, (unsigned long long)start,
	       (unsigned long long)first);
	printf("\"end_ns\":%llu,\"late\":%llu,\"max_late_ns\":%llu}\n",
	       (unsigned long long)end, (unsigned long long)late,
	       (unsigned long long)max_late);
	close(fd);
	return 0;
}

/* ---- input files: NET, CDF, flow.txt --------------------------------- */

#define MAX_TOK		8

struct reader {
	FILE *f;
	const char *name;
	int line;
	char *buf;
	size_t cap;
	char *tok[MAX_TOK];
	int ntok;		/* may exceed MAX_TOK: too many fields */
};

static void rd_open(struct reader *r, const char *name)
{
	*r = (struct reader){ .f = fopen(name, "r"), .name = name };
	if (!r->f)
		fail("%s: %s", name, strerror(errno));
}

static void rd_close(struct reader *r)
{
	fclose(r->f);
	free(r->buf);
}

static void __attribute__((noreturn, format(printf, 2, 3)))
rd_fail(const struct reader *r, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "fcq-gen: %s:%d: ", r->name, r->line);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

/* The next line with fields, split on blanks ('#' starts a comment). */
static bool rd_next(struct reader *r)
{
	while (getline(&r->buf, &r->cap, r->f) >= 0) {
		char *p, *save;

		r->line++;
		p = strchr(r->buf, '#');
		if (p)
			*p = '\0';
		r->ntok = 0;
		for (p = strtok_r(r->buf, " \t\r\n", &save); p;
		     p = strtok_r(NULL, " \t\r\n", &save)) {
			if (r->ntok < MAX_TOK)
				r->tok[r->ntok] = p;
			r->ntok++;
		}
		if (r->ntok)
			return true;
	}
	if (ferror(r->f))
		fail("%s: %s", r->name, strerror(errno));
	return false;
}

static double rd_num(const struct reader *r, int i, double min, double max,
		     const char *what)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(r->tok[i], &end);
	/* !(a && b): NaN fails too */
	if (end == r->tok[i] || *end || errno || !(v >= min && v <= max))
		rd_fail(r, "bad %s '%s'", what, r->tok[i]);
	return v;
}

static uint64_t rd_u64(const struct reader *r, int i, uint64_t min,
		       uint64_t max, const char *what)
{
	unsigned long long v;
	char *end;

	errno = 0;
	v = strtoull(r->tok[i], &end, 10);
	/* strtoull() takes "-1" as a huge number: digits only */
	if (*r->tok[i] < '0' || *r->tok[i] > '9' || *end || errno ||
	    v < min || v > max)
		rd_fail(r, "bad %s '%s'", what, r->tok[i]);
	return v;
}

static void rd_fields(const struct reader *r, int n, const char *form)
{
	if (r->ntok != n)
		rd_fail(r, "%d fields, expected %d: %s", r->ntok, n, form);
}

/* Room for element @n of an array grown by doubling. */
static void *grow(void *p, int n, size_t size)
{
	if (n & (n - 1))
		return p;
	p = realloc(p, (n ? 2 * (size_t)n : 1) * size);
	if (!p)
		die("realloc");
	return p;
}

struct host {
	int id;
	uint32_t ip;		/* host order */
	double rate;		/* bytes/s */
	int mtu;
};

struct rtt {
	int src, dst;
	uint64_t base;		/* ns */
	double bw;		/* bottleneck, bytes/s */
};

struct net {
	struct host *h;		/* by id */
	int nh;
	struct rtt *r;
	int nr;
};

static int host_cmp(const void *a, const void *b)
{
	return ((const struct host *)a)->id - ((const struct host *)b)->id;
}

static struct host *net_host(const struct net *n, int id)
{
	struct host key = { .id = id };

	return bsearch(&key, n->h, n->nh, sizeof(key), host_cmp);
}

#define MAX_ID		65535	/* HPCC's addresses hold 16 bits of it */

static void net_read(struct net *n, const char *name)
{
	struct reader r;
	int i;

	*n = (struct net){ 0 };
	rd_open(&r, name);
	while (rd_next(&r)) {
		const char *kw = r.tok[0];

		if (!strcmp(kw, "host")) {
			struct host *h;
			struct in_addr a;

			rd_fields(&r, 7, "host ID NETNS DEV IP RATE_BPS MTU");
			n->h = grow(n->h, n->nh, sizeof(*n->h));
			h = &n->h[n->nh++];
			h->id = rd_u64(&r, 1, 0, MAX_ID, "host id");
			if (inet_pton(AF_INET, r.tok[4], &a) != 1)
				rd_fail(&r, "bad address '%s'", r.tok[4]);
			h->ip = ntohl(a.s_addr);
			h->rate = rd_num(&r, 5, 1, 1e15, "rate");
			/* 68: IPv4's minimum, leaves every payload > 0 */
			h->mtu = rd_u64(&r, 6, 68, 65535, "mtu");
		} else if (!strcmp(kw, "switch")) {
			rd_fields(&r, 3, "switch ID NETNS");
			rd_u64(&r, 1, 0, MAX_ID, "switch id");
		} else if (!strcmp(kw, "port")) {
			rd_fields(&r, 6,
				  "port NETNS DEV RATE_BPS DELAY_NS PEER_ID");
		} else if (!strcmp(kw, "rtt")) {
			struct rtt *t;

			/* links on the path: for the runner, not us */
			if (r.ntok != 6)
				rd_fields(&r, 5,
					  "rtt SRC DST BASE_RTT_NS BOTTLENECK_BPS [LINKS]");
			n->r = grow(n->r, n->nr, sizeof(*n->r));
			t = &n->r[n->nr++];
			t->src = rd_u64(&r, 1, 0, MAX_ID, "src id");
			t->dst = rd_u64(&r, 2, 0, MAX_ID, "dst id");
			t->base = rd_u64(&r, 3, 0, UINT32_MAX * 1000ULL,
					 "base rtt");
			t->bw = rd_num(&r, 4, 1, 1e15, "bottleneck rate");
		} else {
			rd_fail(&r, "unknown line '%s'", kw);
		}
	}
	rd_close(&r);
	if (!n->nh)
		fail("%s: no host", name);
	qsort(n->h, n->nh, sizeof(*n->h), host_cmp);
	for (i = 1; i < n->nh; i++)
		if (n->h[i].id == n->h[i - 1].id)
			fail("%s: host %d twice", name, n->h[i].id);
}

/* HPCC's CDF: "size percent" points, percent 0 first and 100 last. */
struct cdf {
	double *x, *y;
	int n;
};

static void cdf_read(struct cdf *c, const char *name)
{
	struct reader r;
	int last = 0;

	*c = (struct cdf){ 0 };
	rd_open(&r, name);
	while (rd_next(&r)) {
		double x, y;

		rd_fields(&r, 2, "SIZE PERCENT");
		x = rd_num(&r, 0, 0, 1e15, "size");
		y = rd_num(&r, 1, 0, 100, "percent");
		if (!c->n && y != 0)
			rd_fail(&r, "starts at %g %%, not 0 %%", y);
		if (c->n && y < c->y[c->n - 1])
			rd_fail(&r, "percent %g below the %g before it", y,
				c->y[c->n - 1]);
		if (c->n && x < c->x[c->n - 1])
			rd_fail(&r, "size %g below the %g before it", x,
				c->x[c->n - 1]);
		c->x = grow(c->x, c->n, sizeof(*c->x));
		c->y = grow(c->y, c->n, sizeof(*c->y));
		c->x[c->n] = x;
		c->y[c->n++] = y;
		last = r.line;
	}
	if (!c->n)
		fail("%s: no point", name);
	r.line = last;
	if (c->y[c->n - 1] != 100)
		rd_fail(&r, "ends at %g %%, not 100 %%", c->y[c->n - 1]);
	rd_close(&r);
}

/* HPCC's getAvg: the mean of the piecewise-linear CDF (trapezoids). */
static double cdf_avg(const struct cdf *c)
{
	double s = 0;
	int i;

	for (i = 1; i < c->n; i++)
		s += (c->x[i] + c->x[i - 1]) / 2 * (c->y[i] - c->y[i - 1]);
	return s / 100;
}

/* HPCC's getValueFromPercentile: inverse CDF, linear between points. */
static double cdf_value(const struct cdf *c, double y)
{
	int i;

	for (i = 1; i < c->n; i++) {
		if (y > c->y[i])
			continue;
		if (c->y[i] == c->y[i - 1])	/* only when y is on both */
			return c->x[i - 1];
		return c->x[i - 1] + (c->x[i] - c->x[i - 1]) *
		       (y - c->y[i - 1]) / (c->y[i] - c->y[i - 1]);
	}
	return c->x[c->n - 1];
}

/* ---- workload -------------------------------------------------------- */

/* xoshiro256** seeded by splitmix64 (Blackman & Vigna): the same stream
 * for a seed on every libc, and one independent stream per host.
 */
struct rng {
	uint64_t s[4];
};

static uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static void rng_seed(struct rng *r, uint64_t seed, uint64_t stream)
{
	uint64_t x = seed, k;
	int i;

	/* an odd multiplier keeps the streams' starting points apart */
	k = splitmix64(&x) + stream * 0xd1b54a32d192ed03ULL;
	for (i = 0; i < 4; i++)
		r->s[i] = splitmix64(&k);
}

static uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

static uint64_t rng_next(struct rng *r)
{
	uint64_t *s = r->s, v = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return v;
}

/* [0, 1) */
static double rng_u01(struct rng *r)
{
	return (rng_next(r) >> 11) * 0x1.0p-53;
}

/* [0, n) */
static uint64_t rng_below(struct rng *r, uint64_t n)
{
	return ((unsigned __int128)rng_next(r) * n) >> 64;
}

/* Natural log of x > 0 (normal) without libm, which the Makefile does not
 * link: x = m * 2^e with m in [sqrt(1/2), sqrt(2)), ln m = 2 atanh(s),
 * s = (m - 1) / (m + 1), |s| < 0.172, whose series is exact to a double
 * in 15 terms.
 */
static double ln(double x)
{
	union { double d; uint64_t u; } v = { .d = x };
	int e = (int)((v.u >> 52) & 0x7ff) - 1023, k;
	double s, s2, t, sum = 0;

	v.u = (v.u & 0x000fffffffffffffULL) | 0x3ff0000000000000ULL;
	if (v.d > 1.4142135623730951) {
		v.d /= 2;
		e++;
	}
	s = (v.d - 1) / (v.d + 1);
	s2 = s * s;
	for (k = 1, t = s; k < 30; k += 2, t *= s2)
		sum += t / k;
	return 2 * sum + e * 0.6931471805599453;
}

/* An exponential gap of mean @mean ns, truncated to the ns as in HPCC. */
static uint64_t exp_ns(struct rng *r, double mean)
{
	return -ln(1 - rng_u01(r)) * mean;
}

struct wflow {
	uint64_t t;		/* start, ns */
	int seq;		/* made in this order: ties keep it */
	int src, dst, dport;
	uint64_t size;
};

static int wflow_cmp(const void *a, const void *b)
{
	const struct wflow *x = a, *y = b;

	if (x->t != y->t)
		return x->t < y->t ? -1 : 1;
	return x->seq - y->seq;
}

struct wlist {
	struct wflow *f;
	int n;
};

static void wadd(struct wlist *l, uint64_t t, int src, int dst, int dport,
		 uint64_t size)
{
	l->f = grow(l->f, l->n, sizeof(*l->f));
	l->f[l->n] = (struct wflow){ t, l->n, src, dst, dport, size };
	l->n++;
}

#define INCAST_STREAM	(1ULL << 32)	/* past every host id */
#define HPCC_BASE_NS	(2 * NSEC)	/* traffic_gen.py's base_t */
#define MAX_WFLOWS	100000000

/* -i FANIN:BYTES:PERIOD[:FLOWS[:MAX]]: every PERIOD s from PERIOD/2 on,
 * FANIN distinct random hosts send FLOWS flows each (default 1, each its
 * own connection) to one random other host, all at once, of BYTES each,
 * or of a size uniform in [BYTES, MAX] (FlowSail's incasts of many flows
 * per sender). Without MAX nothing more is drawn than without FLOWS: the
 * same seed gives the groups of the three-field form.
 */
static void incast(struct wlist *l, const struct net *n, const char *spec,
		   uint64_t seed, uint64_t dur)
{
	unsigned long long bytes, max;
	long fanin, per = 1;
	char *end, *p;
	int *other, i, j, k, f;
	double period;
	struct rng r;

	fanin = strtol(spec, &end, 10);
	if (*end != ':')
		goto bad;
	bytes = strtoull(p = end + 1, &end, 10);
	if (*p < '0' || *p > '9' || *end != ':')
		goto bad;
	period = strtod(p = end + 1, &end);
	if (end == p || !(period > 0) || !bytes || fanin < 1)
		goto bad;
	max = bytes;
	if (*end == ':') {
		per = strtol(p = end + 1, &end, 10);
		if (*p < '0' || *p > '9' || per < 1 || per > 10000)
			goto bad;
	}
	if (*end == ':') {
		max = strtoull(p = end + 1, &end, 10);
		if (*p < '0' || *p > '9' || max < bytes)
			goto bad;
	}
	if (*end)
		goto bad;
	if (fanin > n->nh - 1)
		fail("-i %s: fan-in %ld, but only %d other hosts", spec,
		     fanin, n->nh - 1);
	other = malloc(n->nh * sizeof(*other));
	if (!other)
		die("malloc");
	rng_seed(&r, seed, INCAST_STREAM);
	for (k = 0;; k++) {
		uint64_t t = (k + 0.5) * period * 1e9;
		int rcv;

		if (t >= dur)
			break;
		if (l->n + fanin * per > MAX_WFLOWS)
			fail("-i %s: more than %d flows", spec, MAX_WFLOWS);
		rcv = rng_below(&r, n->nh);
		for (i = 0, j = 0; i < n->nh; i++)
			if (i != rcv)
				other[j++] = i;
		/* the first FANIN of a Fisher-Yates shuffle */
		for (i = 0; i < fanin; i++) {
			int m = i + rng_below(&r, n->nh - 1 - i), s = other[m];

			other[m] = other[i];
			other[i] = s;
			for (f = 0; f < per; f++)
				wadd(l, t, n->h[s].id, n->h[rcv].id, 200,
				     max > bytes ? bytes +
				     rng_below(&r, max - bytes + 1) : bytes);
		}
	}
	free(other);
	return;
bad:
	fail("bad -i '%s': FANIN:BYTES:PERIOD[:FLOWS[:MAX]], e.g. 16:500000:0.01 or 4:50000:5:12:200000",
	     spec);
}

static int workload(const char *netf, const char *cdff, double load,
		    double secs, uint64_t seed, const char *inc, int pg)
{
	uint64_t dur = secs * 1e9;
	struct wlist l = { 0 };
	double avg, flows = 0;
	struct cdf c;
	struct net n;
	int i;

	net_read(&n, netf);
	cdf_read(&c, cdff);
	if (n.nh < 2)
		fail("%s: %d host, a workload needs 2", netf, n.nh);
	avg = cdf_avg(&c);
	if (!(avg > 0))
		fail("%s: mean size 0", cdff);
	for (i = 0; i < n.nh; i++)
		flows += secs * n.h[i].rate * load / avg;
	if (flows > MAX_WFLOWS)
		fail("about %.0f flows: more than %d", flows, MAX_WFLOWS);

	for (i = 0; i < n.nh; i++) {
		/* avg * 8 / (rate * 8 * load) s: NET's rates are bytes/s */
		double gap = avg / (n.h[i].rate * load) * 1e9;
		uint64_t t;
		struct rng r;

		rng_seed(&r, seed, n.h[i].id);
		for (t = exp_ns(&r, gap); t < dur; t += exp_ns(&r, gap)) {
			uint64_t size = cdf_value(&c, rng_u01(&r) * 100);
			int d = rng_below(&r, n.nh - 1);

			if (d >= i)		/* uniform over the others */
				d++;
			wadd(&l, t, n.h[i].id, n.h[d].id, 100, size ?: 1);
		}
	}
	if (inc)
		incast(&l, &n, inc, seed, dur);

	qsort(l.f, l.n, sizeof(*l.f), wflow_cmp);
	printf("%d\n", l.n);
	for (i = 0; i < l.n; i++) {
		const struct wflow *f = &l.f[i];
		uint64_t t = HPCC_BASE_NS + f->t;

		printf("%d %d %d %d %llu %llu.%09llu\n", f->src, f->dst, pg,
		       f->dport, (unsigned long long)f->size,
		       (unsigned long long)(t / NSEC),
		       (unsigned long long)(t % NSEC));
	}
	if (fflush(stdout))
		die("stdout");
	return 0;
}

/* ---- burst ----------------------------------------------------------- */

static int burst(const char *netf, uint64_t packets, int shift, uint64_t seed,
		 int pg)
{
	uint64_t places, i, bars = 0;
	struct net n;
	struct rng r;
	bool *bar;
	int h, nf = 0;
	uint64_t *share;

	net_read(&n, netf);
	if (n.nh < 2)
		fail("%s: %d host, a burst needs 2", netf, n.nh);
	if (shift % n.nh == 0)
		fail("-k %d: every host would send to itself (%d hosts)", shift,
		     n.nh);
	places = packets + n.nh - 1;
	bar = calloc(places, sizeof(*bar));
	share = calloc(n.nh, sizeof(*share));
	if (!bar || !share)
		die("calloc");
	rng_seed(&r, seed, 0);
	while (bars < (uint64_t)n.nh - 1) {
		i = rng_below(&r, places);
		if (!bar[i]) {
			bar[i] = true;
			bars++;
		}
	}
	/* the parts: the places between bars that are not bars */
	for (i = 0, h = 0; i < places; i++) {
		if (bar[i]) {
			h++;
			continue;
		}
		share[h]++;
	}
	for (h = 0; h < n.nh; h++)
		nf += share[h] > 0;
	printf("%d\n", nf);
	for (h = 0; h < n.nh; h++) {
		const struct host *d = &n.h[(h + shift % n.nh + n.nh) % n.nh];

		if (!share[h])
			continue;
		printf("%d %d %d 200 %llu %llu.%09llu\n", n.h[h].id, d->id, pg,
		       (unsigned long long)(share[h] * (n.h[h].mtu - 44)),
		       (unsigned long long)(HPCC_BASE_NS / NSEC),
		       (unsigned long long)(HPCC_BASE_NS % NSEC));
	}
	free(bar);
	free(share);
	if (fflush(stdout))
		die("stdout");
	return 0;
}

/* ---- run ------------------------------------------------------------- */

/* The standalone FCT: see the header comment. */
static uint64_t ideal_fct(uint64_t size, int mtu, bool udp,
			  const struct rtt *t)
{
	uint64_t hdr = udp ? 44 : 52, payload = mtu - hdr;
	uint64_t pkts = (size + payload - 1) / payload;
	uint64_t wire = size + pkts * (hdr + 14 + 24);
	uint64_t base = (udp ? 1 : 2) * t->base;

	/* exact, as HPCC's integer division, when the rate is a whole number */
	if (t->bw == (double)(uint64_t)t->bw)
		return base + (unsigned __int128)wire * NSEC / (uint64_t)t->bw;
	return base + (uint64_t)((long double)wire * NSEC / t->bw);
}

#define EPOCH_WAIT_S	600	/* a runner that never writes the epoch */

#define EPOCH_POLL_MS	20	/* without inotify: how often to look */

/*
 * -R DIR: say "ready" by appending our id to DIR/ready, then wait for the
 * runner to rename DIR/epoch into place. The watch is set up before the
 * announcement, so the epoch cannot slip in between unseen. Without an
 * inotify instance (fs.inotify.max_user_instances, 128 by default, is
 * short of a large fabric's generators) it looks every EPOCH_POLL_MS.
 */
static uint64_t rendezvous(const char *dir, int self)
{
	char path[PATH_MAX], buf[32], ev[4096];
	uint64_t deadline = now_ns() + EPOCH_WAIT_S * NSEC;
	int in, fd, n;

	in = inotify_init1(IN_CLOEXEC);
	if (in < 0 && errno != EMFILE && errno != ENOSPC)
		die("inotify_init1");
	if (in >= 0 &&
	    inotify_add_watch(in, dir, IN_MOVED_TO | IN_CLOSE_WRITE) < 0)
		fail("-R %s: %s", dir, strerror(errno));
	snprintf(path, sizeof(path), "%s/ready", dir);
	fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
	n = snprintf(buf, sizeof(buf), "%d\n", self);
	/* one short O_APPEND write: the other hosts' lines stay whole */
	if (fd < 0 || write(fd, buf, n) != n || close(fd))
		fail("%s: %s", path, strerror(errno));
	snprintf(path, sizeof(path), "%s/epoch", dir);
	for (;;) {
		struct pollfd p = { .fd = in, .events = POLLIN };
		uint64_t now = now_ns();
		unsigned long long e;
		char *end;

		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd >= 0) {
			n = read(fd, buf, sizeof(buf) - 1);
			close(fd);
			buf[n > 0 ? n : 0] = '\0';
			errno = 0;
			e = strtoull(buf, &end, 10);
			/* a file still being written: wait for its close */
			if (n > 0 && *end == '\n' && !errno && e)
				return e;
		} else if (errno != ENOENT) {
			fail("%s: %s", path, strerror(errno));
		}
		if (now >= deadline)
			fail("%s: not there after %d s", path, EPOCH_WAIT_S);
		if (in < 0) {
			poll(NULL, 0, EPOCH_POLL_MS);
			continue;
		}
		if (poll(&p, 1, (deadline - now) / 1000000 + 1) < 0 ||
		    (p.revents && read(in, ev, sizeof(ev)) < 0))
			die("inotify");
	}
}

/* Read FLOW_TXT as the simulator does; keep the flows of host @self. */
static struct flow *read_flows(const char *flowf, const struct net *n,
			       int self, const struct opts *o,
			       struct rtt **rtt, int *nfp, double *first)
{
	const struct host *me = net_host(n, self);
	unsigned long long count, k;
	struct flow *fl = NULL;
	double last = 0;
	struct reader r;
	int nf = 0;

	rd_open(&r, flowf);
	if (!rd_next(&r))
		fail("%s: empty", flowf);
	rd_fields(&r, 1, "the number of flows");
	count = rd_u64(&r, 0, 0, INT32_MAX, "number of flows");
	/* Exactly the declared count: the simulator reads no further. */
	for (k = 0; k < count; k++) {
		const struct host *d;
		struct flow *f;
		int src, dst;
		double start;

		if (!rd_next(&r))
			fail("%s: declares %llu flows, but has only %llu",
			     flowf, count, k);
		rd_fields(&r, 6, "SRC DST PG DPORT SIZE START_S");
		src = rd_u64(&r, 0, 0, MAX_ID, "src");
		dst = rd_u64(&r, 1, 0, MAX_ID, "dst");
		start = rd_num(&r, 5, 0, 1e6, "start time");
		if (!k)
			*first = start;
		else if (start < last)
			rd_fail(&r, "start time %.9f before the flow above's %.9f: the simulator needs them in ascending order",
				start, last);
		last = start;
		if (src != self)
			continue;
		d = net_host(n, dst);
		if (!d || dst == self)
			rd_fail(&r, "dst %d is not another host of the net", dst);
		if (!rtt[d - n->h])
			rd_fail(&r, "the net has no line 'rtt %d %d'", self,
				dst);
		fl = grow(fl, nf, sizeof(*fl));
		f = &fl[nf++];
		*f = (struct flow){ .fd = -1, .id = k,
				    .src_id = self, .dst_id = dst,
				    .sip = me->ip };
		f->tos = rd_u64(&r, 2, 0, 7, "pg") << 5;
		f->dst.sin_family = AF_INET;
		f->dst.sin_port = htons(rd_u64(&r, 3, 1, 65535, "dport"));
		f->dst.sin_addr.s_addr = htonl(d->ip);
		/* 0 bytes: the sink would never answer */
		f->size = rd_u64(&r, 4, 1, UINT64_MAX / 2, "size");
		f->file_ns = (uint64_t)(start * 1e9 + 0.5);
		f->ideal = ideal_fct(f->size, me->mtu, o->udp, rtt[d - n->h]);
	}
	rd_close(&r);
	*nfp = nf;
	return fl;
}

static int run(struct opts *o, const char *netf, const char *flowf,
	       int self, const char *rdv)
{
	struct rtt **rtt;	/* from self, by the index of dst in NET */
	struct flow *fl;
	struct rlimit rl;
	double first = 0;
	struct net n;
	int nf, i;

	net_read(&n, netf);
	if (!net_host(&n, self))
		fail("%s: host %d is not there", netf, self);
	rtt = calloc(n.nh, sizeof(*rtt));
	if (!rtt)
		die("calloc");
	for (i = 0; i < n.nr; i++) {
		const struct host *d = net_host(&n, n.r[i].dst);

		if (n.r[i].src == self && d)
			rtt[d - n.h] = &n.r[i];
	}
	fl = read_flows(flowf, &n, self, o, rtt, &nf, &first);
	/* A socket per flow in flight: as many as we may have. */
	if (!getrlimit(RLIMIT_NOFILE, &rl)) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
	/* Ready even without flows: the runner waits for every host. */
	if (rdv)
		o->epoch = rendezvous(rdv, self);
	if (!nf)
		return 0;
	/* The file's first flow starts at the epoch (HPCC files start at 2 s). */
	for (i = 0; i < nf; i++)
		fl[i].start = o->epoch + (uint64_t)((fl[i].file_ns / 1e9 -
						     first) * o->scale * 1e9 + 0.5);
	o->fct = true;
	return run_flows(fl, nf, o);
}

/* ---- options ------------------------------------------------------- */

/* @s, the argument @what, as a number in [@min, @max], or fail. */
static double parse_num(const char *what, const char *s, double min,
			double max)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (end == s || *end || errno || !(v >= min && v <= max))
		fail("bad %s '%s'", what, s);
	return v;
}

static uint64_t parse_u64(const char *what, const char *s, uint64_t min,
			  uint64_t max)
{
	unsigned long long v;
	char *end;

	errno = 0;
	v = strtoull(s, &end, 0);
	if (*s < '0' || *s > '9' || *end || errno || v < min || v > max)
		fail("bad %s '%s'", what, s);
	return v;
}

static double arg_num(int opt, const char *s, double min, double max)
{
	const char what[] = { '-', opt, '\0' };

	return parse_num(what, s, min, max);
}

static uint64_t arg_u64(int opt, const char *s, uint64_t max)
{
	const char what[] = { '-', opt, '\0' };

	return parse_u64(what, s, 0, max);
}

static int paced_main(int argc, char **argv)
{
	struct opts o = { .port = DEFAULT_PORT, .tos = -1 };
	double bps, start, dur = 0;
	uint64_t size, t0;
	int opt;

	while ((opt = getopt_long(argc, argv, "p:s:t:e:d:h", long_opts,
				  NULL)) != -1) {
		switch (opt) {
		case 'p':
			o.port = parse_u64("-p", optarg, 1, 65535);
			break;
		case 's':
			o.sport = parse_u64("-s", optarg, 1, 65535);
			break;
		case 't':
			o.tos = arg_u64(opt, optarg, 255);
			break;
		case 'e':
			o.epoch = arg_u64(opt, optarg, UINT64_MAX);
			break;
		case 'd':
			dur = parse_num("-d", optarg, 1e-3, 1e6);
			break;
		case 'h':
			usage_to(stdout, "paced", 0);
		default:
			usage();
		}
	}
	if (argc - optind != 4)
		usage();
	bps = parse_rate(argv[optind + 1]);
	if (bps <= 0)
		fail("bad RATE '%s' (like 45Mbps: bps, Kbps, Mbps or Gbps)",
		     argv[optind + 1]);
	start = parse_num("START", argv[optind + 2], 0, 1e6);
	size = parse_u64("BYTES", argv[optind + 3], 1, UINT64_MAX / 2);
	t0 = (o.epoch ?: now_ns()) + start * 1e9;
	return paced_send(argv[optind], bps, t0, dur ? t0 + dur * 1e9 : 0, size,
			  &o);
}

static int workload_main(int argc, char **argv)
{
	const char *netf = NULL, *cdff = NULL, *inc = NULL;
	double load = 0, secs = 0;
	uint64_t seed = 1;
	int opt, pg = 3;

	while ((opt = getopt_long(argc, argv, "n:w:l:d:s:i:g:h", long_opts,
				  NULL)) != -1) {
		switch (opt) {
		case 'n': netf = optarg; break;
		case 'w': cdff = optarg; break;
		case 'l': load = arg_num(opt, optarg, 1e-9, 1e3); break;
		case 'd': secs = arg_num(opt, optarg, 1e-9, 1e6); break;
		case 's': seed = arg_u64(opt, optarg, UINT64_MAX); break;
		case 'i': inc = optarg; break;
		case 'g': pg = arg_u64(opt, optarg, 7); break;
		case 'h': usage_to(stdout, "workload", 0);
		default: usage();
		}
	}
	if (!netf || !cdff || !load || !secs || optind != argc)
		usage();
	return workload(netf, cdff, load, secs, seed, inc, pg);
}

static int burst_main(int argc, char **argv)
{
	const char *netf = NULL;
	uint64_t packets = 0, seed = 1;
	int opt, pg = 3, shift = 0;
	bool have_shift = false;

	while ((opt = getopt_long(argc, argv, "n:m:k:s:g:h", long_opts,
				  NULL)) != -1) {
		switch (opt) {
		case 'n': netf = optarg; break;
		case 'm': packets = arg_u64(opt, optarg, 10000000); break;
		case 'k':
			shift = arg_u64(opt, optarg, MAX_ID);
			have_shift = true;
			break;
		case 's': seed = arg_u64(opt, optarg, UINT64_MAX); break;
		case 'g': pg = arg_u64(opt, optarg, 7); break;
		case 'h': usage_to(stdout, "burst", 0);
		default: usage();
		}
	}
	if (!netf || !packets || !have_shift || optind != argc)
		usage();
	return burst(netf, packets, shift, seed, pg);
}

static int run_main(int argc, char **argv)
{
	struct opts o = { .tos = -1, .timeout = 60, .scale = 1 };
	const char *netf = NULL, *flowf = NULL, *rdv = NULL, *lagf = NULL;
	int opt, self = -1;

	while ((opt = getopt_long(argc, argv, "n:f:s:e:R:k:uc:T:L:h",
				  long_opts, NULL)) != -1) {
		switch (opt) {
		case 'n': netf = optarg; break;
		case 'f': flowf = optarg; break;
		case 's': self = arg_u64(opt, optarg, MAX_ID); break;
		case 'e': o.epoch = arg_u64(opt, optarg, UINT64_MAX); break;
		case 'R': rdv = optarg; break;
		case 'k': o.scale = arg_num(opt, optarg, 1e-6, 1e6); break;
		case 'u': o.udp = true; break;
		case 'c': o.cc = optarg; break;
		case 'T': o.timeout = arg_num(opt, optarg, 0, 1e6); break;
		case 'L': lagf = optarg; break;
		case 'h': usage_to(stdout, "run", 0);
		default: usage();
		}
	}
	if (!netf || !flowf || self < 0 || !o.epoch == !rdv || optind != argc)
		usage();
	if (lagf) {
		o.lag = fopen(lagf, "w");
		if (!o.lag)
			fail("%s: %s", lagf, strerror(errno));
	}
	return run(&o, netf, flowf, self, rdv);
}

int main(int argc, char **argv)
{
	struct opts o = { .port = DEFAULT_PORT, .tos = -1, .interval = 0.1,
			  .timeout = 60, .bin = 10000000 };
	const char *mode, *ports = NULL;
	int opt;

	if (argc < 2)
		usage();
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))
		usage_to(stdout, NULL, 0);
	/* A sink that resets a flow fails that flow: report it, not SIGPIPE. */
	signal(SIGPIPE, SIG_IGN);
	mode = argv[1];
	optind = 2;
	if (!strcmp(mode, "workload"))
		return workload_main(argc, argv);
	if (!strcmp(mode, "run"))
		return run_main(argc, argv);
	if (!strcmp(mode, "paced"))
		return paced_main(argc, argv);
	if (!strcmp(mode, "burst"))
		return burst_main(argc, argv);
	while ((opt = getopt_long(argc, argv, "up:t:c:e:i:T:b:h", long_opts,
				  NULL)) != -1) {
		switch (opt) {
		case 'u': o.udp = true; break;
		case 'p': o.port = atoi(optarg); ports = optarg; break;
		case 't': o.tos = strtol(optarg, NULL, 0); break;
		case 'c': o.cc = optarg; break;
		case 'e': o.epoch = strtoull(optarg, NULL, 0); break;
		case 'i': o.interval = atof(optarg); break;
		case 'T': o.timeout = atof(optarg); break;
		case 'b':
			o.bin = arg_num(opt, optarg, 0.1, 1e6) * 1e6;
			break;
		case 'h': usage_to(stdout, mode, 0);
		default: usage();
		}
	}
	if (!strcmp(mode, "now")) {
		printf("%llu\n", (unsigned long long)now_ns());
		return 0;
	}
	if (!strcmp(mode, "server"))
		server(&o, ports);
	if (!strcmp(mode, "bulk")) {
		if (argc - optind != 2)
			usage();
		return bulk(argv[optind], atof(argv[optind + 1]), &o);
	}
	if (strcmp(mode, "flows") || optind >= argc)
		usage();
	return run_flows(parse_flows(argv + optind, argc - optind, &o),
			 argc - optind, &o);
}
