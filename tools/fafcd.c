// SPDX-License-Identifier: GPL-2.0
/*
 * fafcd - FAFC's pause LP in user space, as the paper's switch CPU solves
 * it (see Documentation/man/fafcd.8).
 *
 *   fafcd [-f | -d] [-s glpk|greedy] [-l LOGFILE] [-p PIDFILE]
 *         [-S STATSFILE] [-v] [-h | --help]
 *
 * fafc qdiscs with `solver user` multicast each pause LP (FAFC_CMD_LP)
 * to the group "lp" of the generic netlink family "fafc". fafcd solves it
 * and answers with FAFC_CMD_PAUSE on a second socket; the kernel's
 * reply says whether the answer was applied, late or stale. One fafcd
 * serves every fcq switch of the network namespace it runs in, and waits
 * for the family while sch_fafc.ko is not loaded.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <net/if.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <syslog.h>
#include <time.h>
#include <unistd.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <netlink/genl/ctrl.h>
#include <netlink/genl/genl.h>

#include <uapi/linux/fafc.h>
#include "core/fafc.h"
#include "tools/fafc_glpk.h"

#define NS_PER_MS	1000000ULL
#define RETRY_NS	(500 * NS_PER_MS)	/* lookups while it is gone */
#define STATS_NS	(1000 * NS_PER_MS)	/* stats file refresh */
#define RING		65536		/* samples for percentiles */
#define MC_RCVBUF	(4 << 20)	/* room for bursts of requests */
#define LP_MSG_MAX	(32 << 10)	/* the largest request, and room */
#define REPLY_TIMEOUT_S	1

enum solver { SOLVER_GLPK, SOLVER_GREEDY };

static const char *const solver_name[] = {
	[SOLVER_GLPK] = "glpk",
	[SOLVER_GREEDY] = "greedy",
};

static struct {
	enum solver solver;
	bool verbose;
	bool daemonize;
	char *logfile, *pidfile, *statsfile;
} opt;

static volatile sig_atomic_t stop, dump;

/* ---- logging ------------------------------------------------------------ */

static FILE *logfp;		/* NULL: syslog */

static u64 mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (u64)ts.tv_sec * FCQ_NS_PER_SEC + ts.tv_nsec;
}

static void __attribute__((format(printf, 2, 3)))
logmsg(int prio, const char *fmt, ...)
{
	struct timespec ts;
	char stamp[32];
	struct tm tm;
	va_list ap;

	va_start(ap, fmt);
	if (!logfp) {
		vsyslog(prio, fmt, ap);
		va_end(ap);
		return;
	}
	clock_gettime(CLOCK_REALTIME, &ts);
	localtime_r(&ts.tv_sec, &tm);
	strftime(stamp, sizeof(stamp), "%Y-%m-%dT%H:%M:%S", &tm);
	fprintf(logfp, "%s.%06ld fafcd: ", stamp, ts.tv_nsec / 1000);
	vfprintf(logfp, fmt, ap);
	fputc('\n', logfp);
	va_end(ap);
}

/*
 * At most one line a second per call site: a flood of bad messages must
 * not turn into a flood of writes that makes every answer late.
 */
struct ratelimit {
	u64 last;
	unsigned int missed;
};

static bool ratelimit(struct ratelimit *rl)
{
	u64 now = mono_ns();

	if (rl->last && now - rl->last < FCQ_NS_PER_SEC) {
		rl->missed++;
		return false;
	}
	if (rl->missed)
		logmsg(LOG_WARNING, "(%u similar messages suppressed)",
		       rl->missed);
	rl->last = now;
	rl->missed = 0;
	return true;
}

/* ---- statistics --------------------------------------------------------- */

struct ring {
	u64 v[RING];
	u64 count;		/* samples ever */
	u64 max;		/* ever */
};

static struct {
	u64 requests, applied, late, stale, errors, malformed, overruns;
	u64 infeasible;
	struct ring solve, latency;
	bool dirty;
} st = { .dirty = true };

static u64 scratch[RING];

static void ring_add(struct ring *r, u64 v)
{
	r->v[r->count++ % RING] = v;
	if (v > r->max)
		r->max = v;
}

/* The k-th smallest of v[0..n) (quickselect: O(n), not a full sort). */
static u64 nth(u64 *v, int n, int k)
{
	int lo = 0, hi = n - 1;

	while (lo < hi) {
		u64 p = v[lo + (hi - lo) / 2], t;
		int i = lo, j = hi;

		while (i <= j) {
			while (v[i] < p)
				i++;
			while (v[j] > p)
				j--;
			if (i <= j) {
				t = v[i];
				v[i++] = v[j];
				v[j--] = t;
			}
		}
		if (k <= j)
			hi = j;
		else if (k >= i)
			lo = i;
		else
			break;		/* v[j + 1 .. i - 1] equal p */
	}
	return v[k];
}

/* Nearest-rank percentiles of the last RING samples. */
static void percentiles(const struct ring *r, u64 *p50, u64 *p99)
{
	int n = r->count < RING ? (int)r->count : RING;

	*p50 = *p99 = 0;
	if (!n)
		return;
	memcpy(scratch, r->v, n * sizeof(*scratch));
	*p50 = nth(scratch, n, (n * 50 + 99) / 100 - 1);
	*p99 = nth(scratch, n, (n * 99 + 99) / 100 - 1);
}

static void log_stats(void)
{
	logmsg(LOG_INFO, "stats: requests %llu applied %llu late %llu "
	       "stale %llu errors %llu malformed %llu overruns %llu "
	       "infeasible %llu", st.requests, st.applied, st.late, st.stale,
	       st.errors, st.malformed, st.overruns, st.infeasible);
}

/* The stats file, replaced atomically: readers never see half of it. */
static void write_stats(void)
{
	static struct ratelimit rl;
	u64 s50, s99, l50, l99;
	char tmp[PATH_MAX];
	FILE *f;
	int err;

	if (!opt.statsfile)
		return;
	percentiles(&st.solve, &s50, &s99);
	percentiles(&st.latency, &l50, &l99);
	snprintf(tmp, sizeof(tmp), "%s.tmp", opt.statsfile);
	f = fopen(tmp, "we");
	if (!f)
		goto fail;
	fprintf(f, "{\"solver\":\"%s\",\"requests\":%llu,\"applied\":%llu,"
		"\"late\":%llu,\"stale\":%llu,\"errors\":%llu,"
		"\"malformed\":%llu,\"overruns\":%llu,\"infeasible\":%llu,"
		"\"solve_ns\":{\"p50\":%llu,\"p99\":%llu,\"max\":%llu},"
		"\"latency_ns\":{\"p50\":%llu,\"p99\":%llu,\"max\":%llu,"
		"\"count\":%llu}}\n",
		solver_name[opt.solver], st.requests, st.applied, st.late,
		st.stale, st.errors, st.malformed, st.overruns, st.infeasible,
		s50, s99, st.solve.max, l50, l99, st.latency.max,
		st.latency.count);
	if (fclose(f) || rename(tmp, opt.statsfile))
		goto fail;
	st.dirty = false;
	return;
fail:
	err = errno;
	if (ratelimit(&rl))
		logmsg(LOG_ERR, "cannot write %s: %s", opt.statsfile,
		       strerror(err));
	unlink(tmp);
}

/* ---- generic netlink ---------------------------------------------------- */

static struct {
	struct nl_sock *mc;	/* requests, and nlctrl's notifications */
	struct nl_sock *rq;	/* answers and their replies */
	struct nl_cb *cb;	/* rq's callbacks */
	int family;
	bool up;
	bool gone;		/* nlctrl says the family left */
} nl;

/* One answer in flight on nl.rq: what its callbacks learnt. */
struct answer {
	u32 seq;
	bool done;		/* acked, or the kernel refused it */
	int error;		/* errno of a refusal */
	char msg[128];		/* the kernel's extack message */
	int status;		/* enum fafc_status, -1 if no reply */
	u64 latency;
	bool has_latency;
};

/* The request as the kernel sent it, ports in message order. */
struct lp {
	u32 sw, ifindex;
	u16 egress;
	u64 seq, sent, thop;
	s64 D;
	bool vertex;		/* the qdisc's tie rule */
	int n;
	u16 idx[FAFC_PORTS_MAX];
	s64 a[FAFC_PORTS_MAX], R[FAFC_PORTS_MAX];
	u64 T[FAFC_PORTS_MAX];	/* the answer, ns */
};

static struct nla_policy lp_policy[FAFC_A_MAX + 1] = {
	[FAFC_A_SWITCH] = { .type = NLA_U32 },
	[FAFC_A_IFINDEX] = { .type = NLA_U32 },
	[FAFC_A_TIME] = { .type = NLA_U64 },
	[FAFC_A_EGRESS] = { .type = NLA_U16 },
	[FAFC_A_SEQ] = { .type = NLA_U64 },
	[FAFC_A_THOP] = { .type = NLA_U64 },
	[FAFC_A_DEMAND] = { .type = NLA_U64 },	/* s64 */
	[FAFC_A_PORT] = { .type = NLA_NESTED },
	[FAFC_A_STATUS] = { .type = NLA_U8 },
	[FAFC_A_LATENCY] = { .type = NLA_U64 },
	[FAFC_A_TIE_VERTEX] = { .type = NLA_FLAG },
};

static struct nla_policy port_policy[FAFC_A_PORT_MAX + 1] = {
	[FAFC_A_PORT_IDX] = { .type = NLA_U16 },
	[FAFC_A_PORT_IFINDEX] = { .type = NLA_U32 },
	[FAFC_A_PORT_A] = { .type = NLA_U64 },
	[FAFC_A_PORT_R] = { .type = NLA_U64 },
	[FAFC_A_PORT_T_NS] = { .type = NLA_U64 },
};

static struct nla_policy ctrl_policy[CTRL_ATTR_MAX + 1] = {
	[CTRL_ATTR_FAMILY_NAME] = { .type = NLA_STRING },
};

static int reply_valid(struct nl_msg *msg, void *arg)
{
	struct nlattr *tb[FAFC_A_MAX + 1];
	struct answer *ans = arg;

	if (genlmsg_parse(nlmsg_hdr(msg), 0, tb, FAFC_A_MAX, lp_policy) ||
	    !tb[FAFC_A_STATUS])
		return NL_SKIP;
	ans->status = nla_get_u8(tb[FAFC_A_STATUS]);
	if (tb[FAFC_A_LATENCY]) {
		ans->latency = nla_get_u64(tb[FAFC_A_LATENCY]);
		ans->has_latency = true;
	}
	return NL_OK;
}

static int reply_ack(struct nl_msg *msg, void *arg)
{
	struct answer *ans = arg;

	ans->done = true;
	return NL_STOP;
}

/* A reply to an answer we gave up on (timeout) is no reply to this one. */
static int reply_seq(struct nl_msg *msg, void *arg)
{
	struct answer *ans = arg;

	return nlmsg_hdr(msg)->nlmsg_seq == ans->seq ? NL_OK : NL_SKIP;
}

static int reply_err(struct sockaddr_nl *nla, struct nlmsgerr *e, void *arg)
{
	struct nlmsghdr *h = (struct nlmsghdr *)((char *)e - NLMSG_HDRLEN);
	struct answer *ans = arg;
	struct nlattr *m;
	size_t off;

	if (e->msg.nlmsg_seq != ans->seq)
		return NL_SKIP;
	ans->done = true;
	ans->error = -e->error;
	/* the kernel's reason (NETLINK_EXT_ACK), after the echoed request */
	off = NLMSG_HDRLEN + sizeof(*e);
	if (!(h->nlmsg_flags & NLM_F_CAPPED))
		off += e->msg.nlmsg_len - NLMSG_HDRLEN;
	off = NLMSG_ALIGN(off);
	if (!(h->nlmsg_flags & NLM_F_ACK_TLVS) || off >= h->nlmsg_len)
		return NL_STOP;
	m = nla_find((struct nlattr *)((char *)h + off), h->nlmsg_len - off,
		     NLMSGERR_ATTR_MSG);
	if (m)
		snprintf(ans->msg, sizeof(ans->msg), "%.*s", nla_len(m),
			 (char *)nla_data(m));
	return NL_STOP;
}

/* The family's id and the groups we join; < 0 if it is not there. */
static int resolve(int *grp, int *notify)
{
	struct nl_sock *sk = nl_socket_alloc();
	int family = -NLE_NOMEM;

	if (!sk)
		return family;
	family = genl_connect(sk);
	if (!family)
		family = genl_ctrl_resolve(sk, FAFC_GENL_NAME);
	if (family >= 0 && grp) {
		*grp = genl_ctrl_resolve_grp(sk, FAFC_GENL_NAME,
					     FAFC_GENL_MCGRP_LP);
		if (*grp < 0)
			family = *grp;
		*notify = genl_ctrl_resolve_grp(sk, "nlctrl", "notify");
	}
	nl_socket_free(sk);
	return family;
}

static void nl_down(const char *why)
{
	if (nl.up && why)
		logmsg(LOG_WARNING, "%s; waiting for family \"%s\"", why,
		       FAFC_GENL_NAME);
	nl_socket_free(nl.mc);
	nl_socket_free(nl.rq);
	nl.mc = nl.rq = NULL;
	nl.up = nl.gone = false;
}

static int mc_valid(struct nl_msg *msg, void *arg);

/* A larger receive buffer than rmem_max allows, when we may. */
static void set_rcvbuf(struct nl_sock *sk, int size)
{
	if (setsockopt(nl_socket_get_fd(sk), SOL_SOCKET, SO_RCVBUFFORCE,
		       &size, sizeof(size)))
		nl_socket_set_buffer_size(sk, size, 0);
}

static int nl_up(void)
{
	int grp, notify = -1, one = 1, err;
	struct timeval tv = { .tv_sec = REPLY_TIMEOUT_S };

	err = resolve(&grp, &notify);
	if (err < 0)
		return err;
	nl.family = err;
	nl.mc = nl_socket_alloc();
	nl.rq = nl_socket_alloc();
	if (!nl.mc || !nl.rq) {
		err = -NLE_NOMEM;
		goto fail;
	}
	err = genl_connect(nl.mc);
	if (!err)
		err = genl_connect(nl.rq);
	if (err)
		goto fail;

	/* Requests: multicast, no sequence to check, never block. */
	nl_socket_disable_seq_check(nl.mc);
	nl_socket_modify_cb(nl.mc, NL_CB_VALID, NL_CB_CUSTOM, mc_valid, NULL);
	set_rcvbuf(nl.mc, MC_RCVBUF);
	/* A request for a 256-port switch is ~11 kB: more than a page. */
	err = nl_socket_set_msg_buf_size(nl.mc, LP_MSG_MAX);
	if (!err)
		err = nl_socket_set_nonblocking(nl.mc);
	/* Module unload: nlctrl's notification wakes us up. */
	if (!err && notify >= 0)
		err = nl_socket_add_membership(nl.mc, notify);
	if (!err)
		err = nl_socket_add_membership(nl.mc, grp);
	if (err)
		goto fail;
	/* It may have left before we listened to nlctrl. */
	if (resolve(NULL, NULL) != nl.family) {
		err = -NLE_OBJ_NOTFOUND;
		goto fail;
	}

	/* Answers: the kernel's reasons, and a bounded wait for them. */
	setsockopt(nl_socket_get_fd(nl.rq), SOL_NETLINK, NETLINK_EXT_ACK,
		   &one, sizeof(one));
	setsockopt(nl_socket_get_fd(nl.rq), SOL_NETLINK, NETLINK_CAP_ACK,
		   &one, sizeof(one));
	setsockopt(nl_socket_get_fd(nl.rq), SOL_SOCKET, SO_RCVTIMEO, &tv,
		   sizeof(tv));

	nl.up = true;
	logmsg(LOG_INFO, "family \"%s\" (id %d): serving group \"%s\" (%d)",
	       FAFC_GENL_NAME, nl.family, FAFC_GENL_MCGRP_LP, grp);
	return 0;
fail:
	nl_down(NULL);
	return err;
}

/* ---- the LP ------------------------------------------------------------- */

/* Fills @lp from a request; NULL, or what is wrong with it. */
static const char *parse_lp(struct nlmsghdr *h, struct lp *lp)
{
	struct nlattr *tb[FAFC_A_MAX + 1], *pt[FAFC_A_PORT_MAX + 1], *a;
	struct genlmsghdr *g = nlmsg_data(h);
	bool seen[FAFC_PORTS_MAX] = { false };
	int rem, i;

	if (genlmsg_parse(h, 0, tb, FAFC_A_MAX, lp_policy))
		return "unparsable";
	if (!tb[FAFC_A_SWITCH] || !tb[FAFC_A_EGRESS] ||
	    !tb[FAFC_A_SEQ] || !tb[FAFC_A_THOP] ||
	    !tb[FAFC_A_DEMAND])
		return "missing switch, egress, seq, thop or demand";
	lp->sw = nla_get_u32(tb[FAFC_A_SWITCH]);
	lp->egress = nla_get_u16(tb[FAFC_A_EGRESS]);
	lp->seq = nla_get_u64(tb[FAFC_A_SEQ]);
	lp->thop = nla_get_u64(tb[FAFC_A_THOP]);
	lp->D = (s64)nla_get_u64(tb[FAFC_A_DEMAND]);
	lp->ifindex = tb[FAFC_A_IFINDEX] ? nla_get_u32(tb[FAFC_A_IFINDEX]) : 0;
	lp->sent = tb[FAFC_A_TIME] ? nla_get_u64(tb[FAFC_A_TIME]) : 0;
	lp->vertex = nla_get_flag(tb[FAFC_A_TIE_VERTEX]);
	if (!lp->thop)
		return "T_hop 0";

	lp->n = 0;
	nla_for_each_attr(a, genlmsg_attrdata(g, 0), genlmsg_attrlen(g, 0),
			  rem) {
		if (nla_type(a) != FAFC_A_PORT)
			continue;
		if (lp->n == FAFC_PORTS_MAX)
			return "too many ports";
		if (nla_parse_nested(pt, FAFC_A_PORT_MAX, a, port_policy) ||
		    !pt[FAFC_A_PORT_IDX] || !pt[FAFC_A_PORT_A] ||
		    !pt[FAFC_A_PORT_R])
			return "port without index, a or R";
		i = nla_get_u16(pt[FAFC_A_PORT_IDX]);
		if (i >= FAFC_PORTS_MAX || seen[i])
			return "port index out of range or repeated";
		seen[i] = true;
		lp->idx[lp->n] = i;
		/* the kernel saturates there; the greedy relies on it */
		if (nla_get_u64(pt[FAFC_A_PORT_A]) > FAFC_RATE_MAX ||
		    nla_get_u64(pt[FAFC_A_PORT_R]) > FAFC_RATE_MAX)
			return "a or R over FAFC_RATE_MAX";
		lp->a[lp->n] = nla_get_u64(pt[FAFC_A_PORT_A]);
		lp->R[lp->n] = nla_get_u64(pt[FAFC_A_PORT_R]);
		lp->n++;
	}
	return NULL;
}

/* x_i * T_hop, rounded to the nearest ns. Returns the solver's verdict. */
static int solve(struct lp *lp)
{
	static struct ratelimit rl;
	double x[FAFC_PORTS_MAX];
	u16 order[FAFC_PORTS_MAX];
	u32 xq[FAFC_PORTS_MAX];
	int i, rc;

	if (opt.solver == SOLVER_GLPK) {
		rc = fafc_glpk_solve(lp->n, lp->a, lp->R, lp->D, lp->vertex, x);
		if (rc != -2) {
			for (i = 0; i < lp->n; i++)
				lp->T[i] = llround(x[i] * lp->thop);
			return rc;
		}
		/* The greedy is exact too: answer rather than time out. */
		if (ratelimit(&rl))
			logmsg(LOG_WARNING, "seq %llu: GLPK found no optimum, "
			       "answering the greedy's", lp->seq);
	}
	rc = fafc_lp_solve(lp->n, lp->a, lp->R, lp->D, lp->vertex, xq, order);
	for (i = 0; i < lp->n; i++)
		lp->T[i] = ((unsigned __int128)lp->thop * xq[i] +
			    (FAFC_X_ONE >> 1)) >> 30;
	return rc;
}

/* Sends the answer and waits for the kernel's verdict. */
static void answer(const struct lp *lp, struct answer *ans)
{
	struct nl_msg *msg = nlmsg_alloc_size(LP_MSG_MAX);
	struct nlattr *nest;
	int i, err = -NLE_NOMEM;

	*ans = (struct answer){ .status = -1 };
	if (!msg || !genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, nl.family, 0,
				 0, FAFC_CMD_PAUSE, FAFC_GENL_VERSION))
		goto out;
	/* nla_put_u64 pads nothing: on x86_64 the kernel would not either */
	if (nla_put_u32(msg, FAFC_A_SWITCH, lp->sw) ||
	    nla_put_u16(msg, FAFC_A_EGRESS, lp->egress) ||
	    nla_put_u64(msg, FAFC_A_SEQ, lp->seq))
		goto out;
	for (i = 0; i < lp->n; i++) {
		nest = nla_nest_start(msg, FAFC_A_PORT);
		if (!nest ||
		    nla_put_u16(msg, FAFC_A_PORT_IDX, lp->idx[i]) ||
		    nla_put_u64(msg, FAFC_A_PORT_T_NS, lp->T[i]))
			goto out;
		nla_nest_end(msg, nest);
	}
	err = nl_send_auto(nl.rq, msg);	/* NLM_F_REQUEST | NLM_F_ACK */
	if (err < 0)
		goto out;
	ans->seq = nlmsg_hdr(msg)->nlmsg_seq;

	nl_cb_set(nl.cb, NL_CB_VALID, NL_CB_CUSTOM, reply_valid, ans);
	nl_cb_set(nl.cb, NL_CB_ACK, NL_CB_CUSTOM, reply_ack, ans);
	nl_cb_set(nl.cb, NL_CB_SEQ_CHECK, NL_CB_CUSTOM, reply_seq, ans);
	nl_cb_err(nl.cb, NL_CB_CUSTOM, reply_err, ans);
	err = 0;
	while (!ans->done && err >= 0)
		err = nl_recvmsgs(nl.rq, nl.cb);
out:
	nlmsg_free(msg);
	if (!ans->error && err < 0)
		snprintf(ans->msg, sizeof(ans->msg), "%s",
			 err == -NLE_AGAIN ? "no reply" : nl_geterror(err));
}

static const char *status_name(int status)
{
	switch (status) {
	case FAFC_APPLIED:
		return "applied";
	case FAFC_LATE:
		return "late";
	case FAFC_STALE:
		return "stale";
	}
	return "error";
}

static void log_request(const struct lp *lp, const struct answer *ans,
			u64 age, u64 solve_ns)
{
	char dev[IF_NAMESIZE] = "?", sol[FAFC_PORTS_MAX * 32], *p = sol;
	int i;

	if (lp->ifindex && !if_indextoname(lp->ifindex, dev))
		snprintf(dev, sizeof(dev), "if%u", lp->ifindex);
	*p = 0;
	for (i = 0; i < lp->n; i++)
		p += sprintf(p, " %u:%llu", lp->idx[i], lp->T[i]);
	logmsg(LOG_INFO, "switch %u seq %llu egress %u (%s) age %llu ns "
	       "D %lld n %d T_hop %llu:%s -> %s latency %llu ns solve %llu ns",
	       lp->sw, lp->seq, lp->egress, dev, age, lp->D, lp->n, lp->thop,
	       sol, status_name(ans->status), ans->latency, solve_ns);
}

/* ENOENT or EINVAL: the kernel's reason, or the family went away. */
static void check_family(void)
{
	int family = resolve(NULL, NULL);

	if (family != nl.family)
		nl.gone = true;
}

static void lp_request(struct nlmsghdr *h)
{
	static struct ratelimit rl_bad, rl_err;
	u64 rx = mono_ns(), t0, solve_ns;
	struct answer ans;
	const char *bad;
	struct lp lp;

	st.requests++;
	st.dirty = true;
	bad = parse_lp(h, &lp);
	if (bad) {
		st.malformed++;
		if (ratelimit(&rl_bad))
			logmsg(LOG_WARNING, "malformed request ignored: %s",
			       bad);
		return;
	}
	t0 = mono_ns();
	if (solve(&lp) == -1)
		st.infeasible++;
	solve_ns = mono_ns() - t0;
	ring_add(&st.solve, solve_ns);

	answer(&lp, &ans);
	switch (ans.status) {
	case FAFC_APPLIED:
		st.applied++;
		break;
	case FAFC_LATE:
		st.late++;
		break;
	case FAFC_STALE:
		st.stale++;
		break;
	default:
		st.errors++;
		if (ratelimit(&rl_err))
			logmsg(LOG_ERR, "switch %u seq %llu: answer failed: "
			       "%s%s%s", lp.sw, lp.seq,
			       ans.error ? strerror(ans.error) : "",
			       ans.error && ans.msg[0] ? ": " : "", ans.msg);
		if (ans.error == ENOENT || ans.error == EINVAL)
			check_family();
		break;
	}
	if (ans.has_latency)
		ring_add(&st.latency, ans.latency);
	if (opt.verbose)
		log_request(&lp, &ans, lp.sent && rx > lp.sent ?
			    rx - lp.sent : 0, solve_ns);
}

/* nlctrl: the family left (sch_fafc.ko unloaded). */
static void ctrl_event(struct nlmsghdr *h)
{
	struct nlattr *tb[CTRL_ATTR_MAX + 1];

	if (genlmsg_hdr(h)->cmd != CTRL_CMD_DELFAMILY ||
	    genlmsg_parse(h, 0, tb, CTRL_ATTR_MAX, ctrl_policy) ||
	    !tb[CTRL_ATTR_FAMILY_NAME] ||
	    strcmp(nla_get_string(tb[CTRL_ATTR_FAMILY_NAME]), FAFC_GENL_NAME))
		return;
	nl.gone = true;
}

static int mc_valid(struct nl_msg *msg, void *arg)
{
	struct nlmsghdr *h = nlmsg_hdr(msg);

	if (!genlmsg_valid_hdr(h, 0))
		return NL_SKIP;
	if (h->nlmsg_type == GENL_ID_CTRL)
		ctrl_event(h);
	else if (h->nlmsg_type == nl.family &&
		 genlmsg_hdr(h)->cmd == FAFC_CMD_LP)
		lp_request(h);
	return NL_OK;
}

/*
 * What is queued on the multicast socket, a bounded batch at a time: under
 * a flood, signals and the stats file still get their turn.
 */
static void drain(void)
{
	static struct ratelimit rl;
	int err, budget = 64;

	while (nl.up && !nl.gone && budget--) {
		err = nl_recvmsgs_default(nl.mc);
		if (err > 0)
			continue;
		if (err == -NLE_NOMEM) {	/* ENOBUFS: requests lost */
			st.overruns++;
			st.dirty = true;
			if (ratelimit(&rl))
				logmsg(LOG_WARNING, "receive buffer overrun: "
				       "requests lost");
			continue;
		}
		if (err < 0 && err != -NLE_AGAIN)
			nl_down(nl_geterror(err));
		return;
	}
}

/* ---- the daemon --------------------------------------------------------- */

static void on_signal(int sig)
{
	if (sig == SIGUSR1)
		dump = 1;
	else
		stop = 1;
}

static void usage(FILE *f)
{
	fprintf(f,
		"usage: fafcd [-f | -d] [-s glpk|greedy] [-l LOGFILE] [-p PIDFILE]\n"
		"             [-S STATSFILE] [-v] [-h | --help]\n"
		"  -f          stay in the foreground (the default)\n"
		"  -d          run as a daemon\n"
		"  -s          LP solver: glpk (simplex, the default) or greedy (exact)\n"
		"  -l          log to LOGFILE (default: stderr, syslog with -d)\n"
		"  -p          write the pid to PIDFILE\n"
		"  -S          keep JSON statistics in STATSFILE\n"
		"  -v          log every request\n"
		"  -h, --help  print this help and exit\n");
}

static void __attribute__((noreturn, format(printf, 1, 2)))
bad_usage(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "fafcd: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n(fafcd -h for help)\n");
	exit(2);
}

/* daemon(3) changes to /: make a path survive it. */
static char *absolute(const char *path)
{
	char cwd[PATH_MAX], *abs;

	if (path[0] == '/' || !getcwd(cwd, sizeof(cwd)))
		return strdup(path);
	if (asprintf(&abs, "%s/%s", cwd, path) < 0)
		return NULL;
	return abs;
}

/* A locked pidfile: a second fafcd with the same one refuses to start. */
static int pidfile_fd = -1;

/* The pid in a pidfile another fafcd holds locked, or 0. */
static long pidfile_owner(int fd)
{
	char buf[32];
	ssize_t n;

	if (!lockf(fd, F_TEST, 0))
		return 0;
	n = pread(fd, buf, sizeof(buf) - 1, 0);
	buf[n > 0 ? n : 0] = 0;
	return strtol(buf, NULL, 10) ?: -1;
}

/* Before daemon(3), whose fork drops locks: say so on the terminal. */
static bool pidfile_busy(void)
{
	long pid = 0;
	int fd;

	if (opt.pidfile) {
		fd = open(opt.pidfile, O_RDWR | O_CLOEXEC);
		if (fd >= 0) {
			pid = pidfile_owner(fd);
			close(fd);
		}
	}
	if (pid)
		fprintf(stderr, "fafcd: %s: already running (pid %ld)\n",
			opt.pidfile, pid);
	return pid;
}

static int write_pidfile(void)
{
	char buf[32];
	int n;

	pidfile_fd = open(opt.pidfile, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (pidfile_fd < 0)
		goto fail;
	if (lockf(pidfile_fd, F_TLOCK, 0)) {
		logmsg(LOG_ERR, "%s: already running (pid %ld)", opt.pidfile,
		       pidfile_owner(pidfile_fd));
		return -1;
	}
	n = snprintf(buf, sizeof(buf), "%d\n", getpid());
	if (ftruncate(pidfile_fd, 0) || pwrite(pidfile_fd, buf, n, 0) != n)
		goto fail;
	return 0;
fail:
	logmsg(LOG_ERR, "%s: %s", opt.pidfile, strerror(errno));
	return -1;
}

static const struct option long_opts[] = {
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static void parse_args(int argc, char **argv)
{
	bool fg = false;
	int c;

	while ((c = getopt_long(argc, argv, ":fds:l:p:S:vh", long_opts,
				NULL)) != -1) {
		switch (c) {
		case 'f':
			fg = true;
			break;
		case 'd':
			opt.daemonize = true;
			break;
		case 's':
			if (!strcmp(optarg, "glpk"))
				opt.solver = SOLVER_GLPK;
			else if (!strcmp(optarg, "greedy"))
				opt.solver = SOLVER_GREEDY;
			else
				bad_usage("unknown solver \"%s\" "
					  "(glpk or greedy)", optarg);
			break;
		case 'l':
			opt.logfile = optarg;
			break;
		case 'p':
			opt.pidfile = optarg;
			break;
		case 'S':
			opt.statsfile = optarg;
			break;
		case 'v':
			opt.verbose = true;
			break;
		case 'h':
			usage(stdout);
			exit(0);
		case ':':
			bad_usage("-%c needs an argument", optopt);
		default:
			/* -h is valid: 'h' here is --help=ARG */
			if (optopt == 'h')
				bad_usage("--help takes no argument");
			if (!optopt)	/* an unknown long option */
				bad_usage("unknown option %s", argv[optind - 1]);
			bad_usage("unknown option -%c", optopt);
		}
	}
	if (optind < argc)
		bad_usage("unexpected argument \"%s\"", argv[optind]);
	if (fg && opt.daemonize)
		bad_usage("-f and -d exclude each other");
	if (opt.statsfile && strlen(opt.statsfile) + 5 > PATH_MAX)
		bad_usage("statistics file name too long");
}

int main(int argc, char **argv)
{
	u64 now, next_stats, next_retry = 0, deadline;
	unsigned int retries = 0;
	struct sigaction sa = { .sa_handler = on_signal };
	sigset_t block, run;
	struct timespec ts;
	struct pollfd pfd;
	int err;

	parse_args(argc, argv);
	if (opt.logfile) {
		logfp = fopen(opt.logfile, "ae");
		if (!logfp) {
			fprintf(stderr, "fafcd: %s: %s\n", opt.logfile,
				strerror(errno));
			return 1;
		}
		setvbuf(logfp, NULL, _IOLBF, 0);
	} else if (!opt.daemonize) {
		logfp = stderr;
		setvbuf(stderr, NULL, _IOLBF, 0);	/* a line, one write */
	} else {
		openlog("fafcd", LOG_PID, LOG_DAEMON);
	}
	if (opt.daemonize) {
		if (pidfile_busy())
			return 1;
		if ((opt.statsfile &&
		     !(opt.statsfile = absolute(opt.statsfile))) ||
		    (opt.pidfile && !(opt.pidfile = absolute(opt.pidfile))) ||
		    daemon(0, 0)) {
			fprintf(stderr, "fafcd: cannot daemonize: %s\n",
				strerror(errno));
			return 1;
		}
	}
	if (opt.pidfile && write_pidfile())
		return 1;
	nl.cb = nl_cb_alloc(NL_CB_DEFAULT);
	if (!nl.cb) {
		logmsg(LOG_ERR, "out of memory");
		return 1;
	}

	/* Signals only while waiting, so none interrupts an exchange. */
	sigemptyset(&block);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGUSR1);
	sigprocmask(SIG_BLOCK, &block, &run);
	sigdelset(&run, SIGTERM);
	sigdelset(&run, SIGINT);
	sigdelset(&run, SIGUSR1);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGUSR1, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);

	logmsg(LOG_INFO, "started (pid %d, solver %s)", getpid(),
	       solver_name[opt.solver]);
	next_stats = mono_ns();
	while (!stop) {
		now = mono_ns();
		if (dump) {
			dump = 0;
			write_stats();
			log_stats();
		}
		if (now >= next_stats) {
			if (st.dirty)
				write_stats();
			next_stats = now + STATS_NS;
		}
		if (nl.gone)
			nl_down("family \"" FAFC_GENL_NAME "\" unregistered");
		if (!nl.up && now >= next_retry) {
			err = nl_up();
			if (err < 0 && (!retries++ || opt.verbose ||
					!(retries % 120)))
				logmsg(retries == 1 ? LOG_WARNING : LOG_INFO,
				       "family \"%s\" not available (%s): is "
				       "sch_fafc.ko loaded? retrying every 0.5 s "
				       "(attempt %u)", FAFC_GENL_NAME,
				       nl_geterror(err), retries);
			if (!err)
				retries = 0;
			next_retry = now + RETRY_NS;
		}

		deadline = next_stats;
		if (!nl.up && next_retry < deadline)
			deadline = next_retry;
		now = mono_ns();
		deadline = deadline > now ? deadline - now : 0;
		ts.tv_sec = deadline / FCQ_NS_PER_SEC;
		ts.tv_nsec = deadline % FCQ_NS_PER_SEC;
		if (nl.up) {
			pfd = (struct pollfd){
				.fd = nl_socket_get_fd(nl.mc), .events = POLLIN,
			};
			if (ppoll(&pfd, 1, &ts, &run) > 0)
				drain();
		} else {
			ppoll(NULL, 0, &ts, &run);
		}
	}

	logmsg(LOG_INFO, "exiting on signal");
	log_stats();
	write_stats();
	nl_down(NULL);
	nl_cb_put(nl.cb);
	if (opt.pidfile)
		unlink(opt.pidfile);
	return 0;
}
