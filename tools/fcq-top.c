// SPDX-License-Identifier: GPL-2.0
/*
 * fcq-top - a live monitor of the fcq ports of a network namespace, as
 * top(1) shows processes: per port and priority the pause frames sent and
 * honoured, the share of time paused, the bytes queued, CNMs, isolations,
 * drops by reason and the PFC watchdog's state, redrawn every interval.
 *
 *   fcq-top [-d SECONDS] [-n N] [-j|--json] [--no-bpf] [-N|--netns NAME]
 *           [DEV...]
 *   fcq-top --layout
 *
 * Two sources. The qdiscs' own statistics (what `tc -s -j qdisc show`
 * prints; here read by an RTM_GETQDISC dump), each refresh: queue bytes,
 * counters, the watchdog's classes in storm. And the tracepoints fcq:*,
 * qcn:* and flowsail:*: BPF programs (fcq_top.bpf.c, embedded) put each
 * event in a ring buffer, which fcq-top counts per port and class: what
 * happened in each interval, the CNMs and isolations the counters do not
 * keep per class, drops by their reason. Where BPF cannot load (no
 * privilege, no tracepoints, a record laid out otherwise than fcq_top.h
 * says) it says why, once, on stderr, and shows the statistics alone
 * (--no-bpf: by choice).
 *
 * Tracepoints are global: each names a port by its device name and the
 * inode of its network namespace. fcq-top counts the events of its own
 * namespace (that of -N NAME) per device, leaves out those of other
 * namespaces, and reports those of its namespace's devices that are not
 * fcq ports shown as "foreign".
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <net/if.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <linux/gen_stats.h>
#include <linux/pkt_sched.h>
#include <linux/rtnetlink.h>
#include <bpf/libbpf.h>
#include <bpf/bpf.h>
#include <netlink/netlink.h>
#include <netlink/msg.h>
#include <netlink/attr.h>

#include <uapi/linux/fcq.h>
#include <uapi/linux/qcn.h>

#include "fcq_top.h"

/* The BPF object, built from fcq_top.bpf.c (Makefile: FCQ_TOP_BPF). */
__asm__(".pushsection .rodata\n"
	".global fcq_top_bpf\nfcq_top_bpf:\n"
	".incbin \"" FCQ_TOP_BPF "\"\n"
	".global fcq_top_bpf_end\nfcq_top_bpf_end:\n"
	".popsection\n");
extern const char fcq_top_bpf[], fcq_top_bpf_end[];

#define TRACEFS_DIR	"/sys/kernel/tracing"
#define TRACEFS		TRACEFS_DIR "/events"
#define MAX_PORTS	256
#define MAX_DEVS	1024

static const char *const ev_name[FCQ_TOP_NEV] = {
	[FCQ_TOP_PAUSE_TX] = "pause_tx",
	[FCQ_TOP_XOFF_TX] = "xoff_tx",
	[FCQ_TOP_PAUSE_RX] = "pause_rx",
	[FCQ_TOP_PAUSE_REQ] = "pause_request",
	[FCQ_TOP_KP_TX] = "kp_tx",
	[FCQ_TOP_KP_RX] = "kp_rx",
	[FCQ_TOP_ISOLATE] = "isolate",
	[FCQ_TOP_RESUME] = "resume",
	[FCQ_TOP_DROP] = "drop",
	[FCQ_TOP_STORM] = "pfcwd_storm",
	[FCQ_TOP_RESTORE] = "pfcwd_restore",
	[FCQ_TOP_CNM_TX] = "cnm_tx",
	[FCQ_TOP_CNM_REFUSED] = "cnm_refused",
	[FCQ_TOP_CNM_RX] = "cnm_rx",
	[FCQ_TOP_FS_PAUSE] = "flowsail_pause",
	[FCQ_TOP_FS_RESUME] = "flowsail_resume",
	[FCQ_TOP_FS_ISOLATE] = "flowsail_isolate",
};

static const char *const reason_name[FCQ_TOP_NREASON] = FCQ_TOP_DROP_REASONS;

/*
 * The fields the BPF programs read, where fcq_top.h puts them: checked
 * against the tracepoints' format files before loading, and printed by
 * --layout.
 */
#define F(sys, ev, st, field) { sys, ev, #field, \
	offsetof(struct fcq_top_tp_##st, field), \
	sizeof(((struct fcq_top_tp_##st *)0)->field) }
static const struct field {
	const char *sys, *ev, *name;
	size_t off, size;
} fields[] = {
	F("fcq", "pause_tx", pause_tx, dev),
	F("fcq", "pause_tx", pause_tx, enable),
	F("fcq", "pause_tx", pause_tx, quanta),
	F("fcq", "pause_tx", pause_tx, netns),
	F("fcq", "pause_rx", pause_rx, dev),
	F("fcq", "pause_rx", pause_rx, enable),
	F("fcq", "pause_rx", pause_rx, netns),
	F("fcq", "pause_request", pause_request, dev),
	F("fcq", "pause_request", pause_request, prio),
	F("fcq", "pause_request", pause_request, netns),
	F("fcq", "kp_tx", kp, dev),
	F("fcq", "kp_tx", kp, type),
	F("fcq", "kp_tx", kp, prio),
	F("fcq", "kp_tx", kp, netns),
	F("fcq", "kp_rx", kp, dev),
	F("fcq", "kp_rx", kp, type),
	F("fcq", "kp_rx", kp, prio),
	F("fcq", "kp_rx", kp, netns),
	F("fcq", "isolate", lane, dev),
	F("fcq", "isolate", lane, prio),
	F("fcq", "isolate", lane, netns),
	F("fcq", "resume", lane, dev),
	F("fcq", "resume", lane, prio),
	F("fcq", "resume", lane, netns),
	F("fcq", "drop", drop, dev),
	F("fcq", "drop", drop, prio),
	F("fcq", "drop", drop, reason),
	F("fcq", "drop", drop, netns),
	F("fcq", "pfcwd", pfcwd, dev),
	F("fcq", "pfcwd", pfcwd, prio),
	F("fcq", "pfcwd", pfcwd, storm),
	F("fcq", "pfcwd", pfcwd, netns),
	F("qcn", "cnm_tx", cnm_tx, dev),
	F("qcn", "cnm_tx", cnm_tx, prio),
	F("qcn", "cnm_tx", cnm_tx, sent),
	F("qcn", "cnm_tx", cnm_tx, netns),
	F("qcn", "cnm_rx", cnm_rx, dev),
	F("qcn", "cnm_rx", cnm_rx, prio),
	F("qcn", "cnm_rx", cnm_rx, netns),
	F("flowsail", "flowsail_pause", flowsail, dev),
	F("flowsail", "flowsail_pause", flowsail, prio),
	F("flowsail", "flowsail_pause", flowsail, netns),
	F("flowsail", "flowsail_resume", flowsail, dev),
	F("flowsail", "flowsail_resume", flowsail, prio),
	F("flowsail", "flowsail_resume", flowsail, netns),
	F("flowsail", "flowsail_isolate", flowsail, dev),
	F("flowsail", "flowsail_isolate", flowsail, prio),
	F("flowsail", "flowsail_isolate", flowsail, netns),
};
#undef F

/* Events counted for one device name (since fcq-top started). */
struct devev {
	char dev[FCQ_TOP_DEVSZ];
	__u64 n[FCQ_TOP_NEV][FCQ_TOP_NPRIO];
	__u64 reason[FCQ_TOP_NREASON];
};

/* One class of a port, from the qdisc's statistics. */
struct prio_st {
	__u64 tx_packets, backlog, drops, pfc_rx, paused_ns, pfc_tx, xoff, xon,
	      ingress, storms;
};

/* Port counters by name, in the order tc prints them. */
static const struct {
	int type;
	const char *key;
} port_ctr[] = {
	{ TCA_FCQ_STATS_DROP_LOSSLESS, "lossless" },
	{ TCA_FCQ_STATS_DROP_LOSSY, "lossy" },
	{ TCA_FCQ_STATS_DROP_LIMIT, "limit" },
	{ TCA_FCQ_STATS_DROP_GSO, "gso" },
	{ TCA_FCQ_STATS_DROP_PFCWD, "pfcwd" },
	{ TCA_FCQ_STATS_RX_MALFORMED, "rx_malformed" },
};
#define NPORT_CTR (sizeof(port_ctr) / sizeof(port_ctr[0]))

struct port {
	char dev[FCQ_TOP_DEVSZ];
	char kind[16];
	unsigned int ifindex;
	__u8 storm;			/* classes in storm now */
	__u64 drop[NPORT_CTR];
	__u64 cnm_tx;			/* qcn: CNMs its CP sent */
	bool has_cnm;
	struct prio_st p[FCQ_TOP_NPRIO];
};

static struct {
	double delay;
	long iterations;
	bool json, no_bpf;
	const char *netns;
	char **devs;
	int ndevs;
} opt = { .delay = 1.0, .iterations = -1 };

static struct devev devev[MAX_DEVS];
static int ndevev;
static __u64 nevents, prev_nevents;
static __u32 own_netns;		/* the inode of fcq-top's namespace */
static volatile sig_atomic_t stop;

/* Two snapshots of the ports: now and at the previous refresh. */
static struct port ports[2][MAX_PORTS];
static int nports[2];
static struct devev prev_ev[MAX_PORTS];

static void __attribute__((noreturn)) usage(FILE *f, int status)
{
	fputs("usage: fcq-top [-d SECONDS] [-n N] [-j | --json] [--no-bpf]\n"
	      "               [-N | --netns NAME] [DEV...]\n"
	      "       fcq-top --layout\n"
	      "       fcq-top -h | --help\n"
	      "\n"
	      "The fcq ports (pfc, fafc, ofc, flowsail, qcn, qcnrp qdiscs) of this network\n"
	      "namespace, or of NAME (/run/netns/NAME, as ip netns), or the devices DEV,\n"
	      "per port and priority, redrawn every interval as top does.\n"
	      "\n"
	      "  -d, --delay SECONDS   between refreshes (default 1; 0.1 to 3600)\n"
	      "  -n, --iterations N    stop after N refreshes (default: until a signal)\n"
	      "  -j, --json            one JSON object per refresh, a line each\n"
	      "      --no-bpf          the qdiscs' statistics alone: no tracepoint events\n"
	      "  -N, --netns NAME      the ports of network namespace NAME\n"
	      "      --layout          the tracepoint fields the BPF programs read, as\n"
	      "                        SYSTEM:EVENT FIELD OFFSET SIZE, then the drop\n"
	      "                        reasons as fcq:drop enum VALUE NAME; and exit\n"
	      "\n"
	      "Events (pause frames, CNMs, isolations, drops by reason, watchdog storms)\n"
	      "come from the fcq:*, qcn:* and flowsail:* tracepoints through BPF; queue\n"
	      "bytes, paused time and counters from the qdiscs' statistics. Without BPF\n"
	      "(no privilege, no tracepoints) fcq-top says why on stderr and shows the\n"
	      "statistics alone. See fcq-top(8).\n", f);
	exit(status);
}

static void on_signal(int sig)
{
	stop = 1;
}

static __u64 now_ns(clockid_t c)
{
	struct timespec ts;

	clock_gettime(c, &ts);
	return (__u64)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/* ---- tracepoint events ------------------------------------------------ */

static struct devev *devev_of(const char *dev)
{
	int i;

	for (i = 0; i < ndevev; i++)
		if (!strncmp(devev[i].dev, dev, FCQ_TOP_DEVSZ))
			return &devev[i];
	if (ndevev == MAX_DEVS)
		return NULL;
	memcpy(devev[ndevev].dev, dev, FCQ_TOP_DEVSZ);
	devev[ndevev].dev[FCQ_TOP_DEVSZ - 1] = 0;
	return &devev[ndevev++];
}

static int on_event(void *ctx, void *data, size_t size)
{
	const struct fcq_top_event *e = data;
	struct devev *d;
	int p;

	if (size < sizeof(*e) || e->type >= FCQ_TOP_NEV ||
	    e->netns != own_netns)
		return 0;
	nevents++;
	d = devev_of(e->dev);
	if (!d)
		return 0;
	switch (e->type) {
	case FCQ_TOP_PAUSE_TX:
	case FCQ_TOP_PAUSE_RX:
		for (p = 0; p < FCQ_TOP_NPRIO; p++) {
			if (e->mask & (1 << p))
				d->n[e->type][p]++;
			if (e->type == FCQ_TOP_PAUSE_TX && (e->arg & (1 << p)))
				d->n[FCQ_TOP_XOFF_TX][p]++;
		}
		break;
	case FCQ_TOP_DROP:
		if (e->arg < FCQ_TOP_NREASON)
			d->reason[e->arg]++;
		/* a frame refused on receive is no class's drop */
		if (e->arg == FCQ_TOP_RX_MALFORMED)
			break;
		/* fall through */
	default:
		d->n[e->type][e->prio & (FCQ_TOP_NPRIO - 1)]++;
	}
	return 0;
}

/*
 * Does the format file of @f's event put @f where fcq_top.h does? 1 yes,
 * 0 the event is absent (its module not loaded), -1 no (@why says).
 */
static int field_ok(const struct field *f, char *why, size_t n)
{
	char path[256], line[512], want[64];
	bool found = false;
	unsigned int off, size;
	FILE *fp;

	snprintf(path, sizeof(path), TRACEFS "/%s/%s/format", f->sys, f->ev);
	fp = fopen(path, "r");
	if (!fp && errno == ENOENT)
		return 0;
	if (!fp) {
		snprintf(why, n, "cannot read %s: %s", path, strerror(errno));
		return -1;
	}
	while (fgets(line, sizeof(line), fp)) {
		char *p = strstr(line, "field:"), *s;

		if (!p || !(s = strchr(p, ';')))
			continue;
		*s = 0;
		/* "field:TYPE NAME[N]": the name is the last word */
		p = strrchr(p, ' ');
		if (!p)
			continue;
		snprintf(want, sizeof(want), " %s", f->name);
		if (strncmp(p, want, strlen(want)) ||
		    (p[strlen(want)] && p[strlen(want)] != '['))
			continue;
		found = sscanf(s + 1, " offset:%u; size:%u;", &off, &size) == 2;
		break;
	}
	fclose(fp);
	if (!found) {
		snprintf(why, n, "%s:%s has no field %s", f->sys, f->ev,
			 f->name);
		return -1;
	}
	if (off != f->off || size != f->size) {
		snprintf(why, n,
			 "%s:%s's %s is at offset %u, size %u; fcq-top reads offset %zu, size %zu",
			 f->sys, f->ev, f->name, off, size, f->off, f->size);
		return -1;
	}
	return 1;
}

/*
 * `ip netns exec` mounts a sysfs of the namespace's own, without tracefs:
 * mount it, in a mount namespace of fcq-top's own.
 */
static int mount_tracefs(char *why, size_t n)
{
	int e = errno;

	if (e != ENOENT || unshare(CLONE_NEWNS) ||
	    mount(NULL, "/", NULL, MS_REC | MS_SLAVE, NULL) ||
	    mount("tracefs", TRACEFS_DIR, "tracefs", 0, NULL)) {
		snprintf(why, n, "cannot read " TRACEFS ": %s%s%s", strerror(e),
			 e == ENOENT ? "; mounting tracefs: " : "",
			 e == ENOENT ? strerror(errno) : "");
		return -1;
	}
	return 0;
}

static char bpf_log[256];

static int bpf_print(enum libbpf_print_level level, const char *fmt,
		     va_list ap)
{
	char line[256];

	if (level == LIBBPF_DEBUG)
		return 0;
	vsnprintf(line, sizeof(line), fmt, ap);
	/* the last warning is the reason */
	line[strcspn(line, "\n")] = 0;
	snprintf(bpf_log, sizeof(bpf_log), "%s", line);
	return 0;
}

static struct bpf_object *obj;
static struct ring_buffer *rb;
static int lost_fd = -1;
static struct bpf_link *links[32];
static int nlinks;

/* Detach what bpf_start attached and close the object. */
static void bpf_stop(void)
{
	ring_buffer__free(rb);
	rb = NULL;
	while (nlinks)
		bpf_link__destroy(links[--nlinks]);
	bpf_object__close(obj);
	obj = NULL;
	lost_fd = -1;
}

/*
 * Load and attach the programs of the events present; on failure say why
 * in @why and return -1. The programs of an absent event (its module not
 * loaded) are left out.
 */
static int bpf_try_start(char *why, size_t n)
{
	LIBBPF_OPTS(bpf_object_open_opts, oo, .object_name = "fcq_top");
	struct bpf_program *prog;
	struct bpf_link *link;
	size_t i;
	int err, any = 0, r;

	libbpf_set_print(bpf_print);
	if (access(TRACEFS, R_OK | X_OK) && mount_tracefs(why, n))
		return -1;
	for (i = 0; i < sizeof(fields) / sizeof(fields[0]); i++) {
		r = field_ok(&fields[i], why, n);
		if (r < 0)
			return -1;
	}
	obj = bpf_object__open_mem(fcq_top_bpf, fcq_top_bpf_end - fcq_top_bpf,
				   &oo);
	if (!obj) {
		snprintf(why, n, "cannot open its BPF object: %s",
			 strerror(errno));
		return -1;
	}
	bpf_object__for_each_program(prog, obj) {
		const char *sec = bpf_program__section_name(prog);
		char path[256];

		/* "tracepoint/SYS/EVENT" */
		snprintf(path, sizeof(path), TRACEFS "/%s",
			 sec + strlen("tracepoint/"));
		if (access(path, F_OK)) {
			bpf_program__set_autoload(prog, false);
			continue;
		}
		any++;
	}
	if (!any) {
		snprintf(why, n, "no fcq tracepoint in " TRACEFS
			 " (fcq.ko not loaded, or tracefs not mounted)");
		return -1;
	}
	err = bpf_object__load(obj);
	if (err) {
		snprintf(why, n, "cannot load its BPF programs: %s%s%s",
			 strerror(-err), *bpf_log ? ": " : "", bpf_log);
		return -1;
	}
	bpf_object__for_each_program(prog, obj) {
		if (!bpf_program__autoload(prog))
			continue;
		link = bpf_program__attach(prog);
		if (!link || nlinks == sizeof(links) / sizeof(links[0])) {
			bpf_link__destroy(link);
			snprintf(why, n, "cannot attach to %s: %s",
				 bpf_program__section_name(prog),
				 link ? "too many programs" : strerror(errno));
			return -1;
		}
		links[nlinks++] = link;
	}
	rb = ring_buffer__new(bpf_map__fd(bpf_object__find_map_by_name(obj,
								       "events")),
			      on_event, NULL, NULL);
	if (!rb) {
		snprintf(why, n, "cannot open the ring buffer: %s",
			 strerror(errno));
		return -1;
	}
	lost_fd = bpf_map__fd(bpf_object__find_map_by_name(obj, "lost"));
	return 0;
}

/* bpf_try_start, leaving nothing attached or open when it fails */
static int bpf_start(char *why, size_t n)
{
	if (!bpf_try_start(why, n))
		return 0;
	bpf_stop();
	return -1;
}

static __u64 bpf_lost(void)
{
	__u32 zero = 0;
	__u64 v = 0;

	if (lost_fd >= 0)
		bpf_map_lookup_elem(lost_fd, &zero, &v);
	return v;
}

/* ---- the qdiscs' statistics ------------------------------------------- */

static __u64 get_u(struct nlattr *a)
{
	if (!a)
		return 0;
	if (nla_len(a) >= 8)
		return nla_get_u64(a);
	if (nla_len(a) >= 4)
		return nla_get_u32(a);
	return nla_get_u8(a);
}

static bool is_fcq_kind(const char *k)
{
	static const char *const kinds[] = { "pfc", "fafc", "ofc", "flowsail",
					     "qcn", "qcnrp" };
	size_t i;

	for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (!strcmp(k, kinds[i]))
			return true;
	return false;
}

static bool wanted(const char *dev)
{
	int i;

	for (i = 0; i < opt.ndevs; i++)
		if (!strcmp(dev, opt.devs[i]))
			return true;
	return !opt.ndevs;
}

static void parse_xstats(struct port *pt, void *data, int len)
{
	struct nlattr *tb[TCA_FCQ_STATS_MAX + 1], *a, *s[TCA_QCN_STATS_MAX + 1];
	size_t i;
	int rem;

	if (nla_parse(tb, TCA_FCQ_STATS_MAX, data, len, NULL))
		return;
	for (i = 0; i < NPORT_CTR; i++)
		pt->drop[i] = get_u(tb[port_ctr[i].type]);
	pt->storm = get_u(tb[TCA_FCQ_STATS_PFCWD_STORM]);
	if (!strcmp(pt->kind, "qcn") && tb[TCA_FCQ_STATS_SCHEME] &&
	    !nla_parse_nested(s, TCA_QCN_STATS_MAX, tb[TCA_FCQ_STATS_SCHEME],
			      NULL)) {
		pt->cnm_tx = get_u(s[TCA_QCN_STATS_CNM_TX]) -
			     get_u(s[TCA_QCN_STATS_CNM_REFUSED]);
		pt->has_cnm = true;
	}
	nla_for_each_attr(a, data, len, rem) {
		struct nlattr *p[TCA_FCQ_PRIO_MAX + 1];
		struct prio_st *ps;

		if (nla_type(a) != TCA_FCQ_STATS_PRIO ||
		    nla_parse_nested(p, TCA_FCQ_PRIO_MAX, a, NULL) ||
		    !p[TCA_FCQ_PRIO_ID])
			continue;
		ps = &pt->p[nla_get_u8(p[TCA_FCQ_PRIO_ID]) & 7];
		ps->tx_packets = get_u(p[TCA_FCQ_PRIO_TX_PACKETS]);
		ps->backlog = get_u(p[TCA_FCQ_PRIO_BACKLOG]);
		ps->drops = get_u(p[TCA_FCQ_PRIO_DROPS]);
		ps->pfc_rx = get_u(p[TCA_FCQ_PRIO_PFC_RX]);
		ps->paused_ns = get_u(p[TCA_FCQ_PRIO_PAUSED_NS]);
		ps->pfc_tx = get_u(p[TCA_FCQ_PRIO_PFC_TX]);
		ps->xoff = get_u(p[TCA_FCQ_PRIO_XOFF]);
		ps->xon = get_u(p[TCA_FCQ_PRIO_XON]);
		ps->ingress = get_u(p[TCA_FCQ_PRIO_INGRESS]);
		ps->storms = get_u(p[TCA_FCQ_PRIO_PFCWD_STORMS]);
	}
}

/* One RTM_NEWQDISC of the dump: an fcq root qdisc becomes a port. */
static int on_qdisc(struct nl_msg *msg, void *arg)
{
	struct nlmsghdr *nlh = nlmsg_hdr(msg);
	struct tcmsg *tcm = nlmsg_data(nlh);
	struct nlattr *tb[TCA_MAX + 1], *st[TCA_STATS_MAX + 1];
	int *n = arg;
	struct port *pt;

	if (nlh->nlmsg_type != RTM_NEWQDISC || tcm->tcm_parent != TC_H_ROOT ||
	    *n == MAX_PORTS ||
	    nlmsg_parse(nlh, sizeof(*tcm), tb, TCA_MAX, NULL) ||
	    !tb[TCA_KIND] || !is_fcq_kind(nla_get_string(tb[TCA_KIND])))
		return NL_OK;
	pt = &ports[0][*n];
	memset(pt, 0, sizeof(*pt));
	pt->ifindex = tcm->tcm_ifindex;
	if (!if_indextoname(pt->ifindex, pt->dev))
		snprintf(pt->dev, sizeof(pt->dev), "if%u", pt->ifindex);
	if (!wanted(pt->dev))
		return NL_OK;
	snprintf(pt->kind, sizeof(pt->kind), "%s",
		 nla_get_string(tb[TCA_KIND]));
	if (tb[TCA_STATS2] &&
	    !nla_parse_nested(st, TCA_STATS_MAX, tb[TCA_STATS2], NULL) &&
	    st[TCA_STATS_APP])
		parse_xstats(pt, nla_data(st[TCA_STATS_APP]),
			     nla_len(st[TCA_STATS_APP]));
	(*n)++;
	return NL_OK;
}

static struct nl_sock *sk;

static int poll_stats(void)
{
	struct tcmsg tcm = { .tcm_family = AF_UNSPEC };
	int n = 0, err;

	nl_socket_modify_cb(sk, NL_CB_VALID, NL_CB_CUSTOM, on_qdisc, &n);
	err = nl_send_simple(sk, RTM_GETQDISC, NLM_F_DUMP, &tcm, sizeof(tcm));
	if (err >= 0)
		err = nl_recvmsgs_default(sk);
	if (err < 0) {
		fprintf(stderr, "fcq-top: dumping the qdiscs: %s\n",
			nl_geterror(err));
		return -1;
	}
	nports[0] = n;
	return 0;
}

/* ---- display ------------------------------------------------------------ */

static const struct port *prev_of(const struct port *pt, int *idx)
{
	int i;

	for (i = 0; i < nports[1]; i++)
		if (ports[1][i].ifindex == pt->ifindex &&
		    !strcmp(ports[1][i].dev, pt->dev)) {
			*idx = i;
			return &ports[1][i];
		}
	*idx = -1;
	return NULL;
}

static const struct devev none_ev;

static const struct devev *ev_of(const char *dev)
{
	int i;

	for (i = 0; i < ndevev; i++)
		if (!strcmp(devev[i].dev, dev))
			return &devev[i];
	return &none_ev;
}

/* Events of devices that are not ports shown here. */
static __u64 foreign_events(void)
{
	__u64 n = 0;
	int i, j, e, p;

	for (i = 0; i < ndevev; i++) {
		for (j = 0; j < nports[0]; j++)
			if (!strcmp(devev[i].dev, ports[0][j].dev))
				break;
		if (j < nports[0])
			continue;
		for (e = 0; e < FCQ_TOP_NEV; e++)
			for (p = 0; p < FCQ_TOP_NPRIO; p++)
				if (e != FCQ_TOP_XOFF_TX)
					n += devev[i].n[e][p];
	}
	return n;
}

/*
 * A device name as a JSON string: it may hold any byte but '/' and ':',
 * not always UTF-8: bytes from 0x80 on are escaped as \u0080 to \u00ff
 * (their Latin-1 reading), which keeps every line valid JSON.
 */
static void json_str(const char *v)
{
	putchar('"');
	for (; *v; v++)
		if (*v == '"' || *v == '\\')
			printf("\\%c", *v);
		else if ((unsigned char)*v < 0x20 || (unsigned char)*v >= 0x80)
			printf("\\u%04x", (unsigned char)*v);
		else
			putchar(*v);
	putchar('"');
}

static void json_arr(const char *key, const __u64 *v)
{
	int p;

	printf("\"%s\":[", key);
	for (p = 0; p < FCQ_TOP_NPRIO; p++)
		printf("%s%llu", p ? "," : "", (unsigned long long)v[p]);
	printf("]");
}

static void print_json(bool bpf, __u64 t, __u64 dt, __u64 lost, __u64 cpu)
{
	int i, p, e;
	size_t r;

	printf("{\"time_ns\":%llu,\"interval_ns\":%llu,\"source\":\"%s\",\"cpu_ns\":%llu",
	       (unsigned long long)t, (unsigned long long)dt,
	       bpf ? "bpf" : "stats", (unsigned long long)cpu);
	if (bpf)
		printf(",\"events\":%llu,\"lost\":%llu,\"foreign\":%llu",
		       (unsigned long long)nevents, (unsigned long long)lost,
		       (unsigned long long)foreign_events());
	printf(",\"ports\":[");
	for (i = 0; i < nports[0]; i++) {
		const struct port *pt = &ports[0][i], *pv;
		int pi;

		pv = prev_of(pt, &pi);
		printf("%s{\"dev\":", i ? "," : "");
		json_str(pt->dev);
		printf(",\"ifindex\":%u,\"kind\":\"%s\",\"pfcwd_storm\":%u,\"drops\":{",
		       pt->ifindex, pt->kind, pt->storm);
		for (r = 0; r < NPORT_CTR; r++)
			printf("%s\"%s\":%llu", r ? "," : "", port_ctr[r].key,
			       (unsigned long long)pt->drop[r]);
		printf("}");
		if (pt->has_cnm)
			printf(",\"cnm_tx\":%llu",
			       (unsigned long long)pt->cnm_tx);
		printf(",\"prio\":[");
		for (p = 0; p < FCQ_TOP_NPRIO; p++) {
			const struct prio_st *s = &pt->p[p];
			double pct = pv && dt ? 100.0 *
				(s->paused_ns - pv->p[p].paused_ns) / dt : 0;

			printf("%s{\"prio\":%d,\"backlog\":%llu,\"ingress\":%llu,\"tx_packets\":%llu,\"drops\":%llu,\"pfc_tx\":%llu,\"pfc_rx\":%llu,\"xoff\":%llu,\"xon\":%llu,\"paused_ns\":%llu,\"paused_pct\":%.1f,\"pfcwd_storms\":%llu,\"storm\":%s}",
			       p ? "," : "", p,
			       (unsigned long long)s->backlog,
			       (unsigned long long)s->ingress,
			       (unsigned long long)s->tx_packets,
			       (unsigned long long)s->drops,
			       (unsigned long long)s->pfc_tx,
			       (unsigned long long)s->pfc_rx,
			       (unsigned long long)s->xoff,
			       (unsigned long long)s->xon,
			       (unsigned long long)s->paused_ns, pct,
			       (unsigned long long)s->storms,
			       pt->storm & (1 << p) ? "true" : "false");
		}
		printf("]");
		if (bpf) {
			const struct devev *d = ev_of(pt->dev);

			printf(",\"events\":{");
			for (e = 0; e < FCQ_TOP_NEV; e++) {
				printf("%s", e ? "," : "");
				json_arr(ev_name[e], d->n[e]);
			}
			printf(",\"drop_reason\":{");
			for (r = 0; r < FCQ_TOP_NREASON; r++)
				printf("%s\"%s\":%llu", r ? "," : "",
				       reason_name[r],
				       (unsigned long long)d->reason[r]);
			printf("}}");
		}
		printf("}");
	}
	printf("]}\n");
	fflush(stdout);
}

/* What the interval added to counter @f of class @p: events, or stats. */
#define DELTA(now, before, f) ((before) ? (now)->f - (before)->f : 0)

static void print_screen(bool bpf, const char *why, __u64 dt, __u64 lost,
			 double cpu_pct)
{
	char tbuf[32];
	time_t now = time(NULL);
	double s = dt / 1e9;
	int i, p;
	size_t r;

	strftime(tbuf, sizeof(tbuf), "%H:%M:%S", localtime(&now));
	printf("\033[H\033[2J");
	printf("fcq-top - %s  netns %s  every %.1f s  %d ports  cpu %.1f %%\n",
	       tbuf, opt.netns ? opt.netns : "(own)", opt.delay, nports[0],
	       cpu_pct);
	if (bpf)
		printf("events: %.0f/s from the tracepoints (BPF ring buffer), %llu lost, %llu of other devices\n",
		       s > 0 ? (nevents - prev_nevents) / s : 0,
		       (unsigned long long)lost,
		       (unsigned long long)foreign_events());
	else
		printf("events: none (%s): counters of the qdiscs alone\n",
		       why);
	printf("\n%-12s %-8s %4s %10s %10s %7s %8s %8s %8s %7s %7s %7s %7s  %s\n",
	       "DEV", "KIND", "PRIO", "BACKLOG", "INGRESS", "PAUSED%", "PFC_TX/s",
	       "XOFF/s", "PFC_RX/s", "CNM/s", "ISOL/s", "DROP/s", "STORMS",
	       "WATCHDOG");
	for (i = 0; i < nports[0]; i++) {
		const struct port *pt = &ports[0][i], *pv;
		const struct devev *d = ev_of(pt->dev);
		const struct devev *dp;
		int pi;

		pv = prev_of(pt, &pi);
		dp = pi >= 0 ? &prev_ev[pi] : NULL;
		for (p = 0; p < FCQ_TOP_NPRIO; p++) {
			const struct prio_st *c = &pt->p[p];
			const struct prio_st *b = pv ? &pv->p[p] : NULL;
			double pfc_tx, xoff, pfc_rx, cnm, iso, drop;

			/* a class that never did anything has no row */
			if (!c->tx_packets && !c->backlog && !c->ingress &&
			    !c->pfc_tx && !c->pfc_rx && !c->drops &&
			    !d->n[FCQ_TOP_CNM_TX][p] && !d->n[FCQ_TOP_CNM_RX][p])
				continue;
			if (bpf) {
				pfc_tx = DELTA(d, dp, n[FCQ_TOP_PAUSE_TX][p]);
				xoff = DELTA(d, dp, n[FCQ_TOP_XOFF_TX][p]);
				pfc_rx = DELTA(d, dp, n[FCQ_TOP_PAUSE_RX][p]);
				cnm = DELTA(d, dp, n[FCQ_TOP_CNM_TX][p]) +
				      DELTA(d, dp, n[FCQ_TOP_CNM_RX][p]);
				iso = DELTA(d, dp, n[FCQ_TOP_ISOLATE][p]) +
				      DELTA(d, dp, n[FCQ_TOP_FS_ISOLATE][p]);
				drop = DELTA(d, dp, n[FCQ_TOP_DROP][p]);
			} else {
				pfc_tx = DELTA(c, b, pfc_tx);
				xoff = DELTA(c, b, xoff);
				pfc_rx = DELTA(c, b, pfc_rx);
				cnm = -1;
				iso = -1;
				drop = DELTA(c, b, drops);
			}
			printf("%-12s %-8s %4d %10llu %10llu %7.1f %8.0f %8.0f %8.0f ",
			       pt->dev, pt->kind, p,
			       (unsigned long long)c->backlog,
			       (unsigned long long)c->ingress,
			       b && dt ? 100.0 * (c->paused_ns - b->paused_ns) / dt : 0,
			       pfc_tx / s, xoff / s, pfc_rx / s);
			if (cnm < 0)
				printf("%7s %7s ", "-", "-");
			else
				printf("%7.0f %7.0f ", cnm / s, iso / s);
			printf("%7.0f %7llu  %s\n", drop / s,
			       (unsigned long long)c->storms,
			       pt->storm & (1 << p) ? "STORM" : "ok");
		}
	}
	/* drops by reason, per port, over fcq-top's run */
	for (i = 0; i < nports[0]; i++) {
		const struct port *pt = &ports[0][i];
		const struct devev *d = ev_of(pt->dev);
		bool any = false;

		for (r = 0; r < NPORT_CTR; r++)
			any |= pt->drop[r] != 0;
		if (!any)
			continue;
		printf("%s drops:", pt->dev);
		if (bpf) {
			for (r = 0; r < FCQ_TOP_NREASON; r++)
				if (d->reason[r])
					printf(" %s %llu", reason_name[r],
					       (unsigned long long)d->reason[r]);
			printf(" (since fcq-top began); counters:");
		}
		for (r = 0; r < NPORT_CTR; r++)
			if (pt->drop[r])
				printf(" %s %llu", port_ctr[r].key,
				       (unsigned long long)pt->drop[r]);
		printf("\n");
	}
	fflush(stdout);
}

/* Keep this refresh's snapshot for the next one's deltas. */
static void keep(void)
{
	int i;

	for (i = 0; i < nports[0]; i++)
		prev_ev[i] = *ev_of(ports[0][i].dev);
	memcpy(ports[1], ports[0], sizeof(ports[0][0]) * nports[0]);
	nports[1] = nports[0];
	prev_nevents = nevents;
}

static __u64 cpu_ns(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000000ULL +
	       (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1000ULL;
}

/* Is every DEV asked for an fcq port here? Else say which is not. */
static int check_devs(void)
{
	int i, j;

	for (i = 0; i < opt.ndevs; i++) {
		for (j = 0; j < nports[0]; j++)
			if (!strcmp(opt.devs[i], ports[0][j].dev))
				break;
		if (j == nports[0]) {
			fprintf(stderr, "fcq-top: '%s': no fcq port (pfc, fafc, ofc, flowsail, qcn or qcnrp root qdisc) of that name in network namespace %s\n",
				opt.devs[i], opt.netns ? opt.netns : "(own)");
			return -1;
		}
	}
	return 0;
}

static void print_layout(void)
{
	size_t i;

	for (i = 0; i < sizeof(fields) / sizeof(fields[0]); i++)
		printf("%s:%s %s %zu %zu\n", fields[i].sys, fields[i].ev,
		       fields[i].name, fields[i].off, fields[i].size);
	for (i = 0; i < FCQ_TOP_NREASON; i++)
		printf("fcq:drop enum %zu %s\n", i, reason_name[i]);
}

static void enter_netns(const char *name)
{
	char path[256];
	int fd;

	snprintf(path, sizeof(path), "/run/netns/%s", name);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || setns(fd, CLONE_NEWNET)) {
		fprintf(stderr, "fcq-top: network namespace '%s' (%s): %s\n",
			name, path, strerror(errno));
		exit(1);
	}
	close(fd);
}

int main(int argc, char **argv)
{
	enum { OPT_NO_BPF = 256, OPT_LAYOUT };
	static const struct option lo[] = {
		{ "delay", required_argument, NULL, 'd' },
		{ "iterations", required_argument, NULL, 'n' },
		{ "json", no_argument, NULL, 'j' },
		{ "netns", required_argument, NULL, 'N' },
		{ "no-bpf", no_argument, NULL, OPT_NO_BPF },
		{ "layout", no_argument, NULL, OPT_LAYOUT },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	__u64 t0, c0, last, t, cpu_last, lost = 0;
	char why[512] = "--no-bpf", *end;
	bool bpf = false;
	struct stat ns;
	long done = 0;
	int c, err;

	while ((c = getopt_long(argc, argv, "d:n:jN:h", lo, NULL)) != -1) {
		switch (c) {
		case 'd':
			opt.delay = strtod(optarg, &end);
			if (*end || end == optarg || !(opt.delay >= 0.1) ||
			    opt.delay > 3600) {
				fprintf(stderr, "fcq-top: -d '%s': a number of seconds from 0.1 to 3600\n",
					optarg);
				usage(stderr, 2);
			}
			break;
		case 'n':
			opt.iterations = strtol(optarg, &end, 10);
			if (*end || end == optarg || opt.iterations < 1) {
				fprintf(stderr, "fcq-top: -n '%s': a count of refreshes, at least 1\n",
					optarg);
				usage(stderr, 2);
			}
			break;
		case 'j':
			opt.json = true;
			break;
		case 'N':
			opt.netns = optarg;
			break;
		case OPT_NO_BPF:
			opt.no_bpf = true;
			break;
		case OPT_LAYOUT:
			print_layout();
			return 0;
		case 'h':
			usage(stdout, 0);
		default:
			usage(stderr, 2);
		}
	}
	opt.devs = argv + optind;
	opt.ndevs = argc - optind;

	if (opt.netns)
		enter_netns(opt.netns);
	if (stat("/proc/self/ns/net", &ns)) {
		fprintf(stderr, "fcq-top: /proc/self/ns/net: %s\n",
			strerror(errno));
		return 1;
	}
	own_netns = ns.st_ino;
	sk = nl_socket_alloc();
	if (!sk || (err = nl_connect(sk, NETLINK_ROUTE)) < 0) {
		fprintf(stderr, "fcq-top: rtnetlink: %s\n",
			sk ? nl_geterror(err) : "no memory");
		return 1;
	}
	if (!opt.no_bpf) {
		bpf = !bpf_start(why, sizeof(why));
		if (!bpf)
			fprintf(stderr, "fcq-top: no tracepoint events: %s; showing the qdiscs' counters alone\n",
				why);
	}
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	if (poll_stats() || check_devs())
		return 1;
	keep();
	t0 = last = now_ns(CLOCK_MONOTONIC);
	c0 = cpu_last = cpu_ns();
	while (!stop && (opt.iterations < 0 || done < opt.iterations)) {
		__u64 next = last + (__u64)(opt.delay * 1e9), cpu;

		while (!stop && (t = now_ns(CLOCK_MONOTONIC)) < next) {
			int ms = (next - t + 999999) / 1000000;

			if (bpf) {
				err = ring_buffer__poll(rb, ms);
				if (err < 0 && err != -EINTR) {
					fprintf(stderr, "fcq-top: ring buffer: %s\n",
						strerror(-err));
					return 1;
				}
			} else {
				usleep(ms * 1000);
			}
		}
		if (bpf) {
			ring_buffer__consume(rb);
			lost = bpf_lost();
		}
		if (poll_stats())
			return 1;
		t = now_ns(CLOCK_MONOTONIC);
		cpu = cpu_ns();
		if (opt.json)
			print_json(bpf, t - t0, t - last, lost, cpu - c0);
		else
			print_screen(bpf, why, t - last, lost,
				     t > last ? 100.0 * (cpu - cpu_last) /
						(t - last) : 0);
		keep();
		last = t;
		cpu_last = cpu;
		done++;
	}
	bpf_stop();
	nl_socket_free(sk);
	return 0;
}
