// SPDX-License-Identifier: GPL-2.0
/*
 * fcq-gen - open-loop traffic with exact flow completion times.
 *
 *   fcq-gen server [-p PORT] [-t TOS]
 *       sink on TCP and UDP PORT: a flow announces its size in a 16-byte
 *       header, sends that many bytes, and gets one byte back once they all
 *       arrived.
 *
 *   fcq-gen flows [-u] [-p PORT] [-t TOS] [-c CC] [-e EPOCH_NS] [-T SECONDS]
 *                 FLOW...
 *       FLOW = DST:BYTES[@SECONDS]: start each flow at EPOCH + SECONDS
 *       (CLOCK_MONOTONIC; default: now), all concurrently, over TCP or,
 *       with -u, as UDP sent as fast as the socket takes it (the host's
 *       qdisc paces it at the link rate and backpressures it when paused).
 *       Prints one JSON line per completed flow; the flow completion time
 *       runs from its start to the sink's reply (TCP connect included). A
 *       flow not done after -T seconds (default 60) is reported with
 *       "error" and makes the exit status 1: over UDP, that is a loss.
 *
 *   fcq-gen bulk [-p PORT] [-t TOS] [-c CC] [-i SECONDS] DST SECONDS
 *       one long TCP flow; every interval prints the bytes the receiver has
 *       acknowledged so far (TCP_INFO), i.e. its goodput over time.
 *
 *   fcq-gen now
 *       CLOCK_MONOTONIC in ns, to compute an epoch shared by the generators
 *       of several hosts on one machine.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/tcp.h>
#include <netinet/in.h>
#include <netinet/ip.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define MAGIC		0x46435147u	/* "FCQG" */
#define DEFAULT_PORT	5201
#define CHUNK		(64 << 10)
#define UNTIL_CLOSE	UINT64_MAX
#define MAX_UDP_FLOWS	4096

struct hdr {
	uint32_t magic;
	uint32_t flow;
	uint64_t size;		/* payload bytes after the header(s) */
} __attribute__((packed));

struct opts {
	int port;
	int tos;
	const char *cc;
	bool udp;
	uint64_t epoch;
	double interval;
	double timeout;
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

static void usage(void)
{
	fprintf(stderr,
		"usage: fcq-gen server [-p PORT] [-t TOS]\n"
		"       fcq-gen flows [-u] [-p PORT] [-t TOS] [-c CC] [-e EPOCH_NS] [-T SECONDS]\n"
		"                     DST:BYTES[@SECONDS]...\n"
		"       fcq-gen bulk [-p PORT] [-t TOS] [-c CC] [-i SECONDS] DST SECONDS\n"
		"       fcq-gen now\n");
	exit(2);
}

static void set_opts(int fd, const struct opts *o, bool tcp)
{
	int one = 1;

	if (o->tos >= 0 &&
	    setsockopt(fd, IPPROTO_IP, IP_TOS, &o->tos, sizeof(o->tos)))
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

struct conn {
	int fd;
	size_t hdr_got;
	struct hdr h;
	uint64_t got;
};

struct udp_flow {
	struct sockaddr_in6 from;
	uint32_t flow;
	uint64_t size;
	uint64_t got;
	bool used;
};

static void conn_close(int ep, struct conn *c)
{
	epoll_ctl(ep, EPOLL_CTL_DEL, c->fd, NULL);
	close(c->fd);
	free(c);
}

static void conn_read(int ep, struct conn *c)
{
	static char buf[CHUNK];
	ssize_t n;

	for (;;) {
		if (c->hdr_got < sizeof(c->h)) {
			n = read(c->fd, (char *)&c->h + c->hdr_got,
				 sizeof(c->h) - c->hdr_got);
			if (n > 0) {
				c->hdr_got += n;
				if (c->hdr_got == sizeof(c->h) &&
				    c->h.magic != MAGIC)
					break;
				continue;
			}
		} else {
			n = read(c->fd, buf, sizeof(buf));
			if (n > 0) {
				c->got += n;
				if (c->h.size == UNTIL_CLOSE || c->got < c->h.size)
					continue;
				/* All here: tell the sender. */
				if (write(c->fd, "K", 1) != 1)
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

static void udp_read(int fd, struct udp_flow *tab)
{
	static char buf[65536];
	struct sockaddr_in6 from;
	socklen_t len = sizeof(from);
	struct hdr *h = (struct hdr *)buf;
	struct udp_flow *f, *free_slot;
	ssize_t n;
	int i;

	while ((n = recvfrom(fd, buf, sizeof(buf), 0, (struct sockaddr *)&from,
			     &len)) >= (ssize_t)sizeof(*h)) {
		if (h->magic != MAGIC)
			continue;
		f = NULL;
		free_slot = NULL;
		for (i = 0; i < MAX_UDP_FLOWS; i++) {
			if (!tab[i].used) {
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
		if (f->got >= f->size) {
			sendto(fd, "K", 1, 0, (struct sockaddr *)&from, len);
			f->used = false;
		}
		len = sizeof(from);
	}
}

static void __attribute__((noreturn)) server(const struct opts *o)
{
	struct sockaddr_in6 a = { .sin6_family = AF_INET6,
				  .sin6_port = htons(o->port) };
	static struct udp_flow tab[MAX_UDP_FLOWS];
	struct epoll_event ev, evs[64];
	int lfd, ufd, ep, one = 1, i, n;

	lfd = socket(AF_INET6, SOCK_STREAM, 0);
	ufd = socket(AF_INET6, SOCK_DGRAM, 0);
	if (lfd < 0 || ufd < 0)
		die("socket");
	setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(lfd, (struct sockaddr *)&a, sizeof(a)) || listen(lfd, 1024) ||
	    bind(ufd, (struct sockaddr *)&a, sizeof(a)))
		die("bind");
	set_opts(lfd, o, true);
	set_opts(ufd, o, false);
	/* A host's socket must not be where a lossless fabric loses data
	 * (FORCE: past rmem_max, when we are allowed to).
	 */
	one = 16 << 20;
	if (setsockopt(ufd, SOL_SOCKET, SO_RCVBUFFORCE, &one, sizeof(one)))
		setsockopt(ufd, SOL_SOCKET, SO_RCVBUF, &one, sizeof(one));
	nonblock(lfd);
	nonblock(ufd);
	ep = epoll_create1(0);
	ev.events = EPOLLIN;
	ev.data.ptr = &lfd;
	epoll_ctl(ep, EPOLL_CTL_ADD, lfd, &ev);
	ev.data.ptr = &ufd;
	epoll_ctl(ep, EPOLL_CTL_ADD, ufd, &ev);
	for (;;) {
		n = epoll_wait(ep, evs, 64, -1);
		for (i = 0; i < n; i++) {
			int fd;

			if (evs[i].data.ptr == &ufd) {
				udp_read(ufd, tab);
				continue;
			}
			if (evs[i].data.ptr != &lfd) {
				conn_read(ep, evs[i].data.ptr);
				continue;
			}
			while ((fd = accept(lfd, NULL, NULL)) >= 0) {
				struct conn *c = calloc(1, sizeof(*c));

				if (!c)
					die("calloc");
				c->fd = fd;
				nonblock(fd);
				set_opts(fd, o, true);
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
	int fd;
};

static void flow_start(int ep, struct flow *f, const struct opts *o)
{
	struct epoll_event ev = { .events = EPOLLOUT, .data.ptr = f };

	f->fd = socket(AF_INET, (o->udp ? SOCK_DGRAM : SOCK_STREAM) |
				SOCK_NONBLOCK, 0);
	if (f->fd < 0)
		die("socket");
	set_opts(f->fd, o, !o->udp);
	if (connect(f->fd, (struct sockaddr *)&f->dst, sizeof(f->dst)) &&
	    errno != EINPROGRESS)
		die("connect");
	if (o->udp) {
		int mtu;
		socklen_t l = sizeof(mtu);

		if (getsockopt(f->fd, IPPROTO_IP, IP_MTU, &mtu, &l))
			die("IP_MTU");
		f->dgram = mtu - 20 - 8 - sizeof(struct hdr);
	}
	epoll_ctl(ep, EPOLL_CTL_ADD, f->fd, &ev);
}

static void flow_report(const struct flow *f, const char *proto,
			uint64_t end, bool timeout)
{
	struct sockaddr_in self;
	socklen_t len = sizeof(self);
	char dst[INET_ADDRSTRLEN];

	getsockname(f->fd, (struct sockaddr *)&self, &len);
	inet_ntop(AF_INET, &f->dst.sin_addr, dst, sizeof(dst));
	printf("{\"proto\":\"%s\",\"dst\":\"%s\",\"sport\":%u,\"dport\":%u,"
	       "\"size\":%llu,\"start_ns\":%llu,", proto, dst,
	       ntohs(self.sin_port), ntohs(f->dst.sin_port),
	       (unsigned long long)f->size, (unsigned long long)f->start);
	if (timeout)
		printf("\"error\":\"not complete\",\"sent\":%llu}\n",
		       (unsigned long long)f->sent);
	else
		printf("\"connect_ns\":%llu,\"fct_ns\":%llu}\n",
		       (unsigned long long)(f->connected - f->start),
		       (unsigned long long)(end - f->start));
	fflush(stdout);
}

/* Send what the socket takes; returns true when everything is out. */
static bool tcp_send(struct flow *f)
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
		if (n < 0) {
			if (errno == EAGAIN)
				return false;
			die("write");
		}
		f->sent += n;
	}
	return true;
}

static bool udp_send(struct flow *f)
{
	static char buf[65536];
	struct hdr *h = (struct hdr *)buf;

	*h = (struct hdr){ MAGIC, f->id, f->size };
	while (f->sent < f->size) {
		uint64_t left = f->size - f->sent;
		size_t len = left < (uint64_t)f->dgram ? left : (uint64_t)f->dgram;

		if (send(f->fd, buf, sizeof(*h) + len, 0) < 0) {
			if (errno == EAGAIN || errno == ENOBUFS)
				return false;
			die("send");
		}
		f->sent += len;
	}
	return true;
}

static int run_flows(struct flow *fl, int nf, const struct opts *o)
{
	const char *proto = o->udp ? "udp" : "tcp";
	struct epoll_event ev, evs[64];
	int ep = epoll_create1(0), next = 0, left = nf, i, n;
	uint64_t deadline = 0;

	while (left) {
		uint64_t now = now_ns();
		int timeout = -1;

		while (next < nf && fl[next].start <= now)
			flow_start(ep, &fl[next++], o);
		if (next < nf) {
			timeout = (fl[next].start - now) / 1000000 + 1;
		} else {
			if (!deadline)
				deadline = now + o->timeout * 1e9;
			if (now >= deadline)
				break;
			timeout = (deadline - now) / 1000000 + 1;
		}
		n = epoll_wait(ep, evs, 64, timeout);
		for (i = 0; i < n; i++) {
			struct flow *f = evs[i].data.ptr;
			char k;

			if (evs[i].events & (EPOLLERR | EPOLLHUP) &&
			    !(evs[i].events & EPOLLIN)) {
				int err = 0;
				socklen_t l = sizeof(err);

				getsockopt(f->fd, SOL_SOCKET, SO_ERROR, &err, &l);
				errno = err;
				die("flow");
			}
			if (!f->connected)
				f->connected = now_ns();
			if (evs[i].events & EPOLLIN) {
				if (read(f->fd, &k, 1) == 1) {
					flow_report(f, proto, now_ns(), false);
					epoll_ctl(ep, EPOLL_CTL_DEL, f->fd, NULL);
					close(f->fd);
					f->fd = -1;
					left--;
				}
				continue;
			}
			if (o->udp ? udp_send(f) : tcp_send(f)) {
				ev.events = EPOLLIN;
				ev.data.ptr = f;
				epoll_ctl(ep, EPOLL_CTL_MOD, f->fd, &ev);
			}
		}
	}
	for (i = 0; i < nf; i++)
		if (fl[i].fd >= 0)
			flow_report(&fl[i], proto, 0, true);
	return left ? 1 : 0;
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
	set_opts(fd, o, true);
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

int main(int argc, char **argv)
{
	struct opts o = { .port = DEFAULT_PORT, .tos = -1, .interval = 0.1,
			  .timeout = 60 };
	const char *mode;
	int opt;

	if (argc < 2)
		usage();
	mode = argv[1];
	optind = 2;
	while ((opt = getopt(argc, argv, "up:t:c:e:i:T:")) != -1) {
		switch (opt) {
		case 'u': o.udp = true; break;
		case 'p': o.port = atoi(optarg); break;
		case 't': o.tos = strtol(optarg, NULL, 0); break;
		case 'c': o.cc = optarg; break;
		case 'e': o.epoch = strtoull(optarg, NULL, 0); break;
		case 'i': o.interval = atof(optarg); break;
		case 'T': o.timeout = atof(optarg); break;
		default: usage();
		}
	}
	if (!strcmp(mode, "now")) {
		printf("%llu\n", (unsigned long long)now_ns());
		return 0;
	}
	if (!strcmp(mode, "server"))
		server(&o);
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
