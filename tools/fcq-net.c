// SPDX-License-Identifier: GPL-2.0
/*
 * fcq-net - emulated fabrics of network namespaces with fcq on every port.
 *
 *   fcq-net gen TOPO [-r RATE] [-R UPLINK_RATE] [-d DELAY]
 *       print a topology in the HPCC simulator's topology.txt format:
 *         star:N            one switch, N hosts (incast N-1:1 and victims)
 *         dumbbell:N:M      N hosts on one switch, M on another, one link
 *         leafspine:L:S:H   L leaves with H hosts each, S spines, every leaf
 *                           linked to every spine (uplinks at UPLINK_RATE)
 *         ring:N:H          N switches in a ring, H hosts on each
 *       RATE default 100Mbps, DELAY default 20us.
 *
 *   fcq-net up TOPOLOGY_TXT -o DIR -S SWITCH_QDISC -H HOST_QDISC
 *              [-p PREFIX] [-k SCALE] [-m MTU] [-b]
 *       build it: a namespace per node (PREFIX + "h" or "s" + node id,
 *       PREFIX default "fcq-"), a veth pair per link (switch ports p0..,
 *       host devices eth0..), and on each end the fcq qdisc given, with the
 *       link's rate and delay appended ("none": no qdisc, for debugging
 *       the plumbing on a kernel without fcq). Rates are divided and delays
 *       multiplied by SCALE (keeping each link's bandwidth-delay product),
 *       so 100Gbps/1us HPCC files run at 100Mbit/s/1ms with -k 1000.
 *       Switches route (ECMP over equal-cost shortest paths, L4 hash), or
 *       with -b bridge (the switch graph must then be a tree). Hosts get
 *       the HPCC simulator's addresses, 11.(id/256).(id%256).1, on their
 *       first link. A host with several links (routed only) reaches each
 *       host over those of its links on a shortest path, hashed per flow,
 *       as the simulator picks a NIC per QP; switches reach it over every
 *       link to it. Neighbor
 *       entries are static, so the first packets wait for no ARP. Writes
 *       DIR/net.txt for fcq-gen and the experiment runner:
 *         host <id> <netns> <dev> <ip> <rate_Bps> <mtu>
 *         switch <id> <netns>
 *         port <netns> <dev> <rate_Bps> <delay_ns> <peer_id>
 *         rtt <src> <dst> <base_rtt_ns> <bottleneck_Bps> <links>
 *       base_rtt is, on the cheapest shortest path, the sum over its links
 *       of 2 x delay + the serialization of a full frame and of an ACK;
 *       links is how many links a shortest path crosses.
 *       `up` first removes what a previous run with PREFIX left.
 *
 *   fcq-net down [-p PREFIX]
 *       delete every namespace whose name starts with PREFIX (idempotent).
 *
 *   fcq-net [COMMAND] -h | --help
 *       the usage of every command, or of COMMAND, on stdout.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <sched.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cmd_usage.h"
#include "rate.h"

#define MAX_NODES	4096
#define MAX_LINKS	16384
#define MAX_HOST_LINKS	63	/* a /30 each in the host's /24 */
#define ETH_OVERHEAD	(14 + 24)	/* header, then preamble+FCS+IFG */
#define ACK_WIRE	(60 + 24)

struct link {
	int a, b;		/* node ids */
	int pa, pb;		/* port index at a, at b */
	double rate;		/* bytes/s, scaled */
	double delay;		/* ns, scaled */
};

struct node {
	bool sw;
	int nlinks;
	int *links;		/* indexes into links[] */
};

static struct node nodes[MAX_NODES];
static struct link links[MAX_LINKS];
static int nnodes, nlinks;
static const char *prefix = "fcq-";

static void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fprintf(stderr, "fcq-net: ");
	vfprintf(stderr, fmt, ap);
	fprintf(stderr, "\n");
	va_end(ap);
	exit(1);
}

/* Each command's usage, after "usage: ", as its --help prints it. */
static const struct cmd_usage usages[] = {
	{ "gen",
	  "fcq-net gen star:N|dumbbell:N:M|leafspine:L:S:H|ring:N:H\n"
	  "                   [-r RATE] [-R UPLINK_RATE] [-d DELAY]\n"
	  "    a topology in the HPCC simulator's topology.txt format on stdout\n"
	  "    -r RATE         host links' rate (default 100Mbps)\n"
	  "    -R UPLINK_RATE  switch-to-switch links' rate (default RATE)\n"
	  "    -d DELAY        every link's delay (default 0.02ms)\n" },
	{ "up",
	  "fcq-net up TOPOLOGY_TXT -o DIR -S SWITCH_QDISC -H HOST_QDISC\n"
	  "                  [-p PREFIX] [-k SCALE] [-m MTU] [-b]\n"
	  "    build the fabric: a namespace per node, a veth pair per link, the\n"
	  "    qdiscs (\"none\": no qdisc) with each link's rate and delay appended;\n"
	  "    writes DIR/net.txt\n"
	  "    -p PREFIX  of the namespaces' names (default fcq-)\n"
	  "    -k SCALE   divide rates and multiply delays by SCALE (default 1)\n"
	  "    -m MTU     of every veth, 576 to 65000 (default 1500)\n"
	  "    -b         switches bridge (default: they route, ECMP)\n" },
	{ "down",
	  "fcq-net down [-p PREFIX]\n"
	  "    delete every namespace whose name starts with PREFIX (default fcq-)\n" },
};
#define NUSAGES	(sizeof(usages) / sizeof(usages[0]))

/* Every command's usage, or @cmd's only; exits with @status. */
static void __attribute__((noreturn))
usage_to(FILE *f, const char *cmd, int status)
{
	cmd_usage(f, "usage: fcq-net gen|up|down [OPTION...] [ARG...]\n"
		  "       fcq-net [COMMAND] -h | --help\n",
		  usages, NUSAGES, cmd, status);
}

static void __attribute__((noreturn)) usage(void)
{
	usage_to(stderr, NULL, 2);
}

static bool is_help(const char *arg)
{
	return !strcmp(arg, "-h") || !strcmp(arg, "--help");
}

static const struct option long_opts[] = {
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};


/* ---- topology.txt ---------------------------------------------------- */

/* "0.001ms", "1us", "500ns", "1s" -> ns */
static double parse_delay(const char *s)
{
	char *unit;
	double v = strtod(s, &unit);

	if (unit == s || v < 0)
		return -1;
	if (!strcmp(unit, "ms"))
		return v * 1e6;
	if (!strcmp(unit, "us"))
		return v * 1e3;
	if (!strcmp(unit, "ns"))
		return v;
	if (!strcmp(unit, "s"))
		return v * 1e9;
	return -1;
}

static void add_port(int n, int l)
{
	struct node *nd = &nodes[n];

	nd->links = realloc(nd->links, (nd->nlinks + 1) * sizeof(int));
	if (!nd->links)
		die("out of memory");
	nd->links[nd->nlinks++] = l;
}

static void read_topology(const char *path, double scale)
{
	FILE *f = fopen(path, "r");
	int nsw, nl, i, line = 1;
	char rate[64], delay[64];
	double err;

	if (!f)
		die("%s: %s", path, strerror(errno));
	if (fscanf(f, "%d %d %d", &nnodes, &nsw, &nl) != 3 || nnodes <= 0 ||
	    nnodes > MAX_NODES || nsw < 0 || nsw > nnodes || nl < 0 ||
	    nl > MAX_LINKS)
		die("%s:1: expected \"nodes switches links\" within limits", path);
	line++;
	for (i = 0; i < nsw; i++) {
		int id;

		if (fscanf(f, "%d", &id) != 1 || id < 0 || id >= nnodes)
			die("%s:2: bad switch id", path);
		nodes[id].sw = true;
	}
	for (i = 0; i < nl; i++) {
		struct link *l = &links[i];

		line++;
		if (fscanf(f, "%d %d %63s %63s %lf", &l->a, &l->b, rate, delay,
			   &err) != 5)
			die("%s:%d: expected \"src dst rate delay error_rate\"",
			    path, line);
		if (l->a < 0 || l->a >= nnodes || l->b < 0 || l->b >= nnodes ||
		    l->a == l->b)
			die("%s:%d: bad node id", path, line);
		l->rate = parse_rate(rate);
		l->delay = parse_delay(delay);
		if (l->rate <= 0 || l->delay < 0)
			die("%s:%d: bad rate \"%s\" or delay \"%s\"", path, line,
			    rate, delay);
		if (err != 0)
			fprintf(stderr, "fcq-net: %s:%d: error_rate %g ignored: fcq links lose nothing\n",
				path, line, err);
		l->rate /= scale;
		l->delay *= scale;
		l->pa = nodes[l->a].nlinks;
		l->pb = nodes[l->b].nlinks;
		add_port(l->a, i);
		add_port(l->b, i);
	}
	nlinks = nl;
	fclose(f);
	for (i = 0; i < nnodes; i++) {
		if (!nodes[i].sw && !nodes[i].nlinks)
			die("%s: host %d has no link", path, i);
		if (!nodes[i].sw && nodes[i].nlinks > MAX_HOST_LINKS)
			die("%s: host %d has %d links, at most %d", path, i,
			    nodes[i].nlinks, MAX_HOST_LINKS);
	}
}

static int peer(int l, int n)
{
	return links[l].a == n ? links[l].b : links[l].a;
}

/* ---- gen ------------------------------------------------------------- */

struct gen {
	int nodes, switches;
	int sw_ids[MAX_NODES];
	char lines[MAX_LINKS][96];
	int nl;
};

static void gen_link(struct gen *g, int a, int b, const char *rate,
		     const char *delay)
{
	if (g->nl >= MAX_LINKS)
		die("too many links");
	snprintf(g->lines[g->nl++], sizeof(g->lines[0]), "%d %d %s %s 0",
		 a, b, rate, delay);
}

static int gen(int argc, char **argv)
{
	const char *rate = "100Mbps", *up = NULL, *delay = "0.02ms";
	static struct gen g;
	int a = 0, b = 0, c = 0, opt, i, j, k, h;
	char *spec;

	if (argc < 3)
		usage();
	if (is_help(argv[2]))
		usage_to(stdout, "gen", 0);
	spec = argv[2];
	optind = 3;
	while ((opt = getopt_long(argc, argv, "r:R:d:h", long_opts,
				  NULL)) != -1) {
		switch (opt) {
		case 'r': rate = optarg; break;
		case 'R': up = optarg; break;
		case 'd': delay = optarg; break;
		case 'h': usage_to(stdout, "gen", 0);
		default: usage();
		}
	}
	if (parse_rate(rate) <= 0 || parse_delay(delay) < 0 ||
	    (up && parse_rate(up) <= 0))
		die("rate like 100Mbps, delay like 0.02ms (the HPCC syntax)");
	up = up ?: rate;

	if (sscanf(spec, "star:%d", &a) == 1 && a > 0 && a < MAX_NODES) {
		/* hosts 0..a-1, switch a */
		g.nodes = a + 1;
		g.sw_ids[g.switches++] = a;
		for (i = 0; i < a; i++)
			gen_link(&g, i, a, rate, delay);
	} else if (sscanf(spec, "dumbbell:%d:%d", &a, &b) == 2 && a > 0 &&
		   b > 0 && a + b + 2 <= MAX_NODES) {
		/* hosts 0..a+b-1, switches a+b and a+b+1 */
		g.nodes = a + b + 2;
		g.sw_ids[g.switches++] = a + b;
		g.sw_ids[g.switches++] = a + b + 1;
		for (i = 0; i < a + b; i++)
			gen_link(&g, i, i < a ? a + b : a + b + 1, rate, delay);
		gen_link(&g, a + b, a + b + 1, up, delay);
	} else if (sscanf(spec, "leafspine:%d:%d:%d", &a, &b, &c) == 3 &&
		   a > 0 && b > 0 && c > 0 && a * c + a + b <= MAX_NODES) {
		/* hosts 0..a*c-1, leaves a*c.., spines after */
		h = a * c;
		g.nodes = h + a + b;
		for (i = 0; i < a + b; i++)
			g.sw_ids[g.switches++] = h + i;
		for (i = 0; i < h; i++)
			gen_link(&g, i, h + i / c, rate, delay);
		for (i = 0; i < a; i++)
			for (j = 0; j < b; j++)
				gen_link(&g, h + i, h + a + j, up, delay);
	} else if (sscanf(spec, "ring:%d:%d", &a, &c) == 2 && a >= 3 &&
		   c >= 0 && a * c + a <= MAX_NODES) {
		h = a * c;
		g.nodes = h + a;
		for (i = 0; i < a; i++)
			g.sw_ids[g.switches++] = h + i;
		for (i = 0; i < h; i++)
			gen_link(&g, i, h + i / c, rate, delay);
		for (i = 0; i < a; i++)
			gen_link(&g, h + i, h + (i + 1) % a, up, delay);
	} else {
		usage();
	}

	printf("%d %d %d\n", g.nodes, g.switches, g.nl);
	for (k = 0; k < g.switches; k++)
		printf("%d%c", g.sw_ids[k], k + 1 < g.switches ? ' ' : '\n');
	for (k = 0; k < g.nl; k++)
		printf("%s\n", g.lines[k]);
	return 0;
}

/* ---- build ----------------------------------------------------------- */

static void ns_name(char *buf, size_t len, int n)
{
	snprintf(buf, len, "%s%c%d", prefix, nodes[n].sw ? 's' : 'h', n);
}

static void dev_name(char *buf, size_t len, int n, int port)
{
	snprintf(buf, len, nodes[n].sw ? "p%d" : "eth%d", port);
}

/* Deterministic MAC of node n's port: 02:fc:nn:nn:pp:pp. */
static void mac(char *buf, size_t len, int n, int port)
{
	snprintf(buf, len, "02:fc:%02x:%02x:%02x:%02x", n >> 8 & 0xff,
		 n & 0xff, port >> 8 & 0xff, port & 0xff);
}

/*
 * Address of node n on link l (routed mode), and its prefix length. A
 * host's link is in the host's 11.x.y.0/24: the host .1, the switch .2.
 * A host with several links has a /30 per link in it, link k's host end
 * at .4k+1: its address, 11.x.y.1, is that of its first link.
 */
static int addr(char *buf, size_t len, int l, int n)
{
	const struct link *k = &links[l];
	int h = !nodes[k->a].sw ? k->a : !nodes[k->b].sw ? k->b : -1;
	int base = 0;

	if (h < 0) {
		snprintf(buf, len, "10.%d.%d.%d", l >> 8 & 0xff, l & 0xff,
			 n == k->a ? 1 : 2);
		return 24;
	}
	if (nodes[h].nlinks > 1)
		base = 4 * (h == k->a ? k->pa : k->pb);
	snprintf(buf, len, "11.%d.%d.%d", h >> 8, h & 0xff,
		 base + (n == h ? 1 : 2));
	return nodes[h].nlinks > 1 ? 30 : 24;
}

static void host_ip(char *buf, size_t len, int h)
{
	snprintf(buf, len, "11.%d.%d.1", h >> 8, h & 0xff);
}

/* Run a command; fail loudly. */
static void run(char *const argv[])
{
	int status;
	pid_t pid = fork();

	if (pid < 0)
		die("fork: %s", strerror(errno));
	if (!pid) {
		execvp(argv[0], argv);
		fprintf(stderr, "fcq-net: %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) ||
	    WEXITSTATUS(status))
		die("%s %s %s ... failed", argv[0], argv[1], argv[2]);
}

static FILE *batch_open(const char *dir, const char *name, char *path,
			size_t len)
{
	FILE *f;

	snprintf(path, len, "%s/setup/%s", dir, name);
	f = fopen(path, "w");
	if (!f)
		die("%s: %s", path, strerror(errno));
	return f;
}

/* Hop counts from every node to host h, not routing through other hosts. */
static void bfs(int h, int *dist)
{
	static int queue[MAX_NODES];
	int head = 0, tail = 0, i;

	for (i = 0; i < nnodes; i++)
		dist[i] = -1;
	dist[h] = 0;
	queue[tail++] = h;
	while (head < tail) {
		int n = queue[head++];

		if (n != h && !nodes[n].sw)
			continue;
		for (i = 0; i < nodes[n].nlinks; i++) {
			int m = peer(nodes[n].links[i], n);

			if (dist[m] < 0) {
				dist[m] = dist[n] + 1;
				queue[tail++] = m;
			}
		}
	}
}

/* Hop counts to each host, computed once: hdist[h * nnodes + n]. */
static int *hdist;

static const int *dist_to(int h)
{
	int n;

	if (!hdist) {
		hdist = malloc(sizeof(int) * nnodes * nnodes);
		if (!hdist)
			die("out of memory");
		for (n = 0; n < nnodes; n++)
			if (!nodes[n].sw)
				bfs(n, hdist + n * nnodes);
	}
	return hdist + h * nnodes;
}

static double link_cost(const struct link *l, int mtu)
{
	return 2 * l->delay + (mtu + ETH_OVERHEAD) * 1e9 / l->rate +
	       ACK_WIRE * 1e9 / l->rate;
}

/*
 * Base RTT and bottleneck from every node to host h over shortest paths:
 * cost[n] = min over next hops m of link_cost + cost[m].
 */
static void path_costs(int h, const int *dist, int mtu, double *cost,
		       double *bneck)
{
	int d, n, i, maxd = 0;

	for (n = 0; n < nnodes; n++)
		if (dist[n] > maxd)
			maxd = dist[n];
	for (n = 0; n < nnodes; n++) {
		cost[n] = n == h ? 0 : 1e300;
		bneck[n] = 1e300;
	}
	for (d = 1; d <= maxd; d++) {
		for (n = 0; n < nnodes; n++) {
			if (dist[n] != d)
				continue;
			for (i = 0; i < nodes[n].nlinks; i++) {
				int l = nodes[n].links[i], m = peer(l, n);
				double c;

				if (dist[m] != d - 1 ||
				    (m != h && !nodes[m].sw))
					continue;
				c = cost[m] + link_cost(&links[l], mtu);
				if (c < cost[n]) {
					cost[n] = c;
					bneck[n] = bneck[m] < links[l].rate ?
						   bneck[m] : links[l].rate;
				}
			}
		}
	}
}

static bool switch_graph_is_forest(void)
{
	int sw_links = 0, n, comps = 0, i;
	static int seen[MAX_NODES], stack[MAX_NODES];

	for (i = 0; i < nlinks; i++)
		sw_links += nodes[links[i].a].sw && nodes[links[i].b].sw;
	memset(seen, 0, sizeof(seen));
	for (n = 0; n < nnodes; n++) {
		int top = 0;

		if (!nodes[n].sw || seen[n])
			continue;
		comps++;
		stack[top++] = n;
		seen[n] = 1;
		while (top) {
			int x = stack[--top];

			for (i = 0; i < nodes[x].nlinks; i++) {
				int m = peer(nodes[x].links[i], x);

				if (nodes[m].sw && !seen[m]) {
					seen[m] = 1;
					stack[top++] = m;
				}
			}
		}
	}
	/* A forest has switches - components links. */
	for (n = 0, i = 0; n < nnodes; n++)
		i += nodes[n].sw;
	return sw_links == i - comps;
}

static void qdisc_line(FILE *f, const char *dev, const char *qdisc,
		       const struct link *l)
{
	if (!strcmp(qdisc, "none"))
		return;
	fprintf(f, "qdisc replace dev %s root %s rate %.0fbit delay %.0fns\n",
		dev, qdisc, l->rate * 8, l->delay);
}

/*
 * Set sysctl @key (dotted) of network namespace @ns to @val. The net.*
 * entries of /proc/sys are the opener's namespace's, so enter @ns, write,
 * and come back: in the emulator's guest that costs a fraction of `ip
 * netns exec NS sysctl`, two programs started per value.
 */
static void write_sysctl(const char *ns, const char *key, const char *val)
{
	static int home = -1;
	char path[256], *p;
	size_t len = strlen(val);
	int fd;

	if (home < 0)
		home = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
	if (home < 0)
		die("/proc/self/ns/net: %s", strerror(errno));
	snprintf(path, sizeof(path), "/run/netns/%s", ns);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || setns(fd, CLONE_NEWNET))
		die("cannot enter %s: %s", path, strerror(errno));
	close(fd);
	snprintf(path, sizeof(path), "/proc/sys/%s", key);
	for (p = path + strlen("/proc/sys/"); *p; p++)
		if (*p == '.')
			*p = '/';
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0 || write(fd, val, len) != (ssize_t)len)
		die("%s in %s: %s", key, ns, strerror(errno));
	close(fd);
	if (setns(home, CLONE_NEWNET))
		die("cannot return to the first network namespace: %s",
		    strerror(errno));
}

static int down(void)
{
	DIR *d = opendir("/run/netns");
	struct dirent *e;
	char path[] = "/tmp/fcq-net-down.XXXXXX";
	int fd, n = 0;
	FILE *f;

	if (!d)
		return 0;
	fd = mkstemp(path);
	if (fd < 0)
		die("mkstemp: %s", strerror(errno));
	f = fdopen(fd, "w");
	while ((e = readdir(d))) {
		if (!strncmp(e->d_name, prefix, strlen(prefix))) {
			fprintf(f, "netns delete %s\n", e->d_name);
			n++;
		}
	}
	closedir(d);
	fclose(f);
	if (n) {
		char *argv[] = { "ip", "-force", "-batch", path, NULL };

		run(argv);
	}
	unlink(path);
	return 0;
}

static int up(int argc, char **argv)
{
	const char *topo, *dir = NULL, *swq = NULL, *hostq = NULL;
	char path[4096], ns[64], ns2[64], dev[32], dev2[32], m1[32], m2[32];
	char a1[32], a2[32];
	static double cost[MAX_NODES], bneck[MAX_NODES];
	const int *dist;
	double scale = 1;
	bool bridge = false;
	int mtu = 1500, opt, i, j, n, plen;
	bool multi;
	FILE *f, *net;

	if (argc < 3)
		usage();
	if (is_help(argv[2]))
		usage_to(stdout, "up", 0);
	topo = argv[2];
	optind = 3;
	while ((opt = getopt_long(argc, argv, "o:S:H:p:k:m:bh", long_opts,
				  NULL)) != -1) {
		switch (opt) {
		case 'o': dir = optarg; break;
		case 'S': swq = optarg; break;
		case 'H': hostq = optarg; break;
		case 'p': prefix = optarg; break;
		case 'k': scale = atof(optarg); break;
		case 'm': mtu = atoi(optarg); break;
		case 'b': bridge = true; break;
		case 'h': usage_to(stdout, "up", 0);
		default: usage();
		}
	}
	if (!dir || !swq || !hostq || scale <= 0 || mtu < 576 || mtu > 65000)
		usage();
	read_topology(topo, scale);
	if (bridge && !switch_graph_is_forest())
		die("-b needs a loop-free switch graph: bridges would loop");
	for (n = 0; bridge && n < nnodes; n++)
		if (!nodes[n].sw && nodes[n].nlinks > 1)
			die("-b: host %d has %d links: a bridged fabric needs one per host (bridges would loop)",
			    n, nodes[n].nlinks);

	down();
	snprintf(path, sizeof(path), "%s/setup", dir);
	mkdir(dir, 0755);
	mkdir(path, 0755);

	/* 1. Namespaces and veth pairs, from the initial namespace. */
	f = batch_open(dir, "links.ip", path, sizeof(path));
	for (n = 0; n < nnodes; n++) {
		ns_name(ns, sizeof(ns), n);
		fprintf(f, "netns add %s\n", ns);
	}
	for (i = 0; i < nlinks; i++) {
		const struct link *l = &links[i];

		ns_name(ns, sizeof(ns), l->a);
		ns_name(ns2, sizeof(ns2), l->b);
		dev_name(dev, sizeof(dev), l->a, l->pa);
		dev_name(dev2, sizeof(dev2), l->b, l->pb);
		mac(m1, sizeof(m1), l->a, l->pa);
		mac(m2, sizeof(m2), l->b, l->pb);
		fprintf(f, "link add %s netns %s address %s mtu %d type veth peer name %s netns %s address %s mtu %d\n",
			dev, ns, m1, mtu, dev2, ns2, m2, mtu);
	}
	fclose(f);
	{
		char *av[] = { "ip", "-batch", path, NULL };

		run(av);
	}

	/* 2. Per namespace: addresses, routes, neighbors, qdiscs. */
	for (n = 0; n < nnodes; n++) {
		char ipf[4096], tcf[4096], name[80];
		FILE *ip, *tc;

		ns_name(ns, sizeof(ns), n);
		snprintf(name, sizeof(name), "%s.ip", ns);
		ip = batch_open(dir, name, ipf, sizeof(ipf));
		snprintf(name, sizeof(name), "%s.tc", ns);
		tc = batch_open(dir, name, tcf, sizeof(tcf));
		fprintf(ip, "link set lo up\n");
		if (nodes[n].sw && bridge)
			fprintf(ip, "link add br0 type bridge stp_state 0 forward_delay 0\nlink set br0 up\n");

		for (i = 0; i < nodes[n].nlinks; i++) {
			int l = nodes[n].links[i], m = peer(l, n);
			int pm = links[l].a == m ? links[l].pa : links[l].pb;

			dev_name(dev, sizeof(dev), n, i);
			qdisc_line(tc, dev, nodes[n].sw ? swq : hostq, &links[l]);
			if (bridge && nodes[n].sw) {
				fprintf(ip, "link set %s master br0 up\n", dev);
				continue;
			}
			fprintf(ip, "link set %s up\n", dev);
			if (bridge) {	/* a host on the L2 fabric */
				host_ip(a1, sizeof(a1), n);
				fprintf(ip, "addr add %s/8 dev %s\n", a1, dev);
				continue;
			}
			plen = addr(a1, sizeof(a1), l, n);
			addr(a2, sizeof(a2), l, m);
			mac(m2, sizeof(m2), m, pm);
			fprintf(ip, "addr add %s/%d dev %s\n", a1, plen, dev);
			fprintf(ip, "neigh replace %s lladdr %s dev %s nud permanent\n",
				a2, m2, dev);
			if (!nodes[n].sw && nodes[n].nlinks == 1)
				fprintf(ip, "route add default via %s\n", a2);
		}

		if (bridge && !nodes[n].sw) {
			/* Every other host, so no ARP waits for a flood. */
			for (j = 0; j < nnodes; j++) {
				if (nodes[j].sw || j == n)
					continue;
				host_ip(a2, sizeof(a2), j);
				mac(m2, sizeof(m2), j, 0);
				fprintf(ip, "neigh replace %s lladdr %s dev eth0 nud permanent\n",
					a2, m2);
			}
		}

		multi = !bridge && (nodes[n].sw || nodes[n].nlinks > 1);
		if (multi) {
			/*
			 * ECMP routes to every other host over the links on a
			 * shortest path (as the simulator's routing table has
			 * them), hashed per flow: a switch's next hops, and a
			 * host's links to the switches on one (the simulator
			 * picks a host's NIC per flow by its QP's hash). A
			 * single link's subnet needs no route.
			 */
			host_ip(a1, sizeof(a1), n);
			for (j = 0; j < nnodes; j++) {
				int hops = 0;

				if (nodes[j].sw || j == n)
					continue;
				dist = dist_to(j);
				if (dist[n] == 1 && nodes[j].nlinks == 1)
					continue;
				if (dist[n] < 0)
					die("host %d unreachable from node %d", j, n);
				fprintf(ip, "route add 11.%d.%d.0/24", j >> 8, j & 0xff);
				if (!nodes[n].sw)	/* from its own address */
					fprintf(ip, " src %s", a1);
				for (i = 0; i < nodes[n].nlinks; i++) {
					int l = nodes[n].links[i], m = peer(l, n);

					if ((m != j && !nodes[m].sw) ||
					    dist[m] != dist[n] - 1)
						continue;
					dev_name(dev, sizeof(dev), n, i);
					addr(a2, sizeof(a2), l, m);
					fprintf(ip, " nexthop via %s dev %s", a2, dev);
					hops++;
				}
				fprintf(ip, "\n");
				if (!hops)
					die("no next hop from %d to %d", n, j);
			}
		}
		fclose(ip);
		fclose(tc);
		{
			char *av[] = { "ip", "-n", ns, "-batch", ipf, NULL };
			char *tv[] = { "tc", "-n", ns, "-batch", tcf, NULL };

			/*
			 * The fabric is IPv4, as the simulator's: IPv6's own
			 * frames (DAD, router solicitations, MLD reports) would
			 * cross it unasked and count among its drops.
			 */
			write_sysctl(ns, "net.ipv6.conf.all.disable_ipv6", "1");
			write_sysctl(ns, "net.ipv6.conf.default.disable_ipv6", "1");
			run(av);
			if (nodes[n].sw && !bridge)
				write_sysctl(ns, "net.ipv4.ip_forward", "1");
			if (multi)
				write_sysctl(ns, "net.ipv4.fib_multipath_hash_policy", "1");
			run(tv);
		}
	}

	/* 3. net.txt */
	snprintf(path, sizeof(path), "%s/net.txt", dir);
	net = fopen(path, "w");
	if (!net)
		die("%s: %s", path, strerror(errno));
	fprintf(net, "# fcq-net: %s, scale %g, mtu %d, %s\n", topo, scale, mtu,
		bridge ? "bridged" : "routed");
	for (n = 0; n < nnodes; n++) {
		ns_name(ns, sizeof(ns), n);
		if (nodes[n].sw) {
			fprintf(net, "switch %d %s\n", n, ns);
			continue;
		}
		host_ip(a1, sizeof(a1), n);
		fprintf(net, "host %d %s eth0 %s %.0f %d\n", n, ns, a1,
			links[nodes[n].links[0]].rate, mtu);
	}
	for (n = 0; n < nnodes; n++) {
		ns_name(ns, sizeof(ns), n);
		for (i = 0; i < nodes[n].nlinks; i++) {
			int l = nodes[n].links[i];

			dev_name(dev, sizeof(dev), n, i);
			fprintf(net, "port %s %s %.0f %.0f %d\n", ns, dev,
				links[l].rate, links[l].delay, peer(l, n));
		}
	}
	for (j = 0; j < nnodes; j++) {
		if (nodes[j].sw)
			continue;
		dist = dist_to(j);
		path_costs(j, dist, mtu, cost, bneck);
		for (n = 0; n < nnodes; n++)
			if (!nodes[n].sw && n != j)
				fprintf(net, "rtt %d %d %.0f %.0f %d\n", n, j,
					cost[n], bneck[n], dist[n]);
	}
	fclose(net);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc < 2)
		usage();
	if (is_help(argv[1]))
		usage_to(stdout, NULL, 0);
	if (!strcmp(argv[1], "gen"))
		return gen(argc, argv);
	if (!strcmp(argv[1], "up"))
		return up(argc, argv);
	if (!strcmp(argv[1], "down")) {
		int opt;

		optind = 2;
		while ((opt = getopt_long(argc, argv, "p:h", long_opts,
					  NULL)) != -1) {
			if (opt == 'h')
				usage_to(stdout, "down", 0);
			if (opt != 'p')
				usage();
			prefix = optarg;
		}
		return down();
	}
	usage();
	return 2;
}
