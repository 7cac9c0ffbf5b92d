// SPDX-License-Identifier: GPL-2.0
/*
 * FAFC's state of one switch (one fcq switch:
 * the fafc ports of a network namespace with the same switch id).
 *
 * It holds the per (ingress, egress) statistics and per ingress time slots
 * of core/fafc.c under one spinlock, taken inside a port's root lock and
 * never the other way round, and runs:
 *
 *  - on every packet of the FAFC class, the books of Alg. 1 / Alg. 4, and
 *    at its departure CheckCong: ECN mark, or a trigger;
 *  - on a trigger, the pause LP of Alg. 2, solved here (the exact greedy
 *    of core/fafc.c) or by fafcd over generic netlink (`solver user`: one
 *    request outstanding per egress, an answer accepted within T_hop);
 *  - ApplyPauses: each paused ingress port is asked for a timed pause
 *    (fcq_port_pause_request(), sent by that port's own dequeue) and the
 *    pause is booked in its time slot;
 *  - UpdateRate every T_hop and TimeSlotExpire per ingress, on soft
 *    hrtimers.
 *
 * The state is the switch's fcq_switch_ext for fafc: it lives while a fafc
 * port of the switch does, and fafcd's answers find it by (network
 * namespace, switch id) under RCU. fafcd talks to the generic netlink
 * family "fafc" registered here.
 */
#include <linux/hrtimer.h>
#include <linux/rculist.h>
#include <linux/slab.h>
#include <net/genetlink.h>
#include <net/inet_ecn.h>
#include <net/net_namespace.h>

#include "../fcq/compat.h"
#include "fafc.h"
#include "../core/link.h"

#define CREATE_TRACE_POINTS
#include "fafc_trace.h"

#define FAFC_HOP_BYTES	3125	/* the paper's hop BDP: 25 Gbit/s x 1 us */
/* num/den in Q16, rounded (integers: no float in kernel code). */
#define FAFC_Q16(num, den)	((u32)(((num) * FAFC_ONE + (den) / 2) / (den)))

struct fafc_slot_timer {
	struct hrtimer timer;
	struct fafc_switch *fsw;
	int i;
};

/* The request to fafcd outstanding for an egress port. */
struct fafc_request {
	u64 seq;
	u64 sent;			/* ns */
	s64 demand;			/* bytes, for the trace */
	bool busy;
};

struct fafc_switch {
	struct fcq_switch_ext ext;	/* first */
	int users;			/* ports in the tables, 0 once the last left;
					 * RTNL + lock
					 */

	spinlock_t lock;		/* all below */
	bool ticking;			/* the tick is armed or running */
	struct fafc_params par;		/* as configured */
	struct fafc_cfg cfg;		/* in effect */
	u64 thop;			/* ns, in effect */
	u64 seq;
	/*
	 * By slot, sized to the switch: one block (mem) of @cap entries each
	 * and the (ingress, egress) matrix, moved to a larger one as ports
	 * join (fafc_switch_grow()); RTNL and the lock to change.
	 */
	struct_group_tagged(fafc_tables, tab,
		int cap;
		void *mem;
		struct fafc_sched **port;
		struct fafc_port_stats *pst;
		struct fafc_request *req;
		s64 *a;				/* the LP being solved */
		s64 *R;
		u64 *T;
		u32 *x;
		u16 *order;
		struct fafc_slot_timer **slot;	/* TimeSlotExpire */
		struct fafc_state st;
	);
	struct hrtimer tick;		/* UpdateRate */
};

static struct genl_family fafc_genl_family __ro_after_init;

enum fafc_genl_mcgrp {
	FAFC_GENL_LP,
};

static const struct nla_policy fafc_port_policy[FAFC_A_PORT_MAX + 1] = {
	[FAFC_A_PORT_IDX] = NLA_POLICY_MAX(NLA_U16, FAFC_PORTS_MAX - 1),
	[FAFC_A_PORT_IFINDEX] = { .type = NLA_U32 },
	[FAFC_A_PORT_A] = { .type = NLA_U64 },
	[FAFC_A_PORT_R] = { .type = NLA_U64 },
	[FAFC_A_PORT_T_NS] = { .type = NLA_U64 },
};

#define FAFC_CAP_MIN	8		/* slots of a new switch: doubles */

/* Each array in turn, 8-byte aligned ones first; NULL @t: only the size. */
static size_t tables_lay(struct fafc_tables *t, char *mem, int cap)
{
	size_t off = fafc_state_size(cap);

#define LAY(field)							\
	do {								\
		if (t)							\
			t->field = (void *)(mem + off);			\
		off += (size_t)cap * sizeof(*t->field);			\
	} while (0)
	LAY(port);
	LAY(slot);
	LAY(pst);
	LAY(req);
	LAY(a);
	LAY(R);
	LAY(T);
	LAY(x);
	LAY(order);
#undef LAY
	if (t) {
		t->cap = cap;
		t->mem = mem;
		fafc_state_init(&t->st, mem, cap);
	}
	return off;
}

static int tables_alloc(struct fafc_tables *t, int cap)
{
	char *mem = kvzalloc(tables_lay(NULL, NULL, cap), GFP_KERNEL);

	if (!mem)
		return -ENOMEM;
	tables_lay(t, mem, cap);
	return 0;
}

/* What @from holds, into the larger @to (the LP scratch is not kept). */
static void tables_move(struct fafc_tables *to, const struct fafc_tables *from)
{
	int n = from->cap;

	memcpy(to->port, from->port, n * sizeof(*to->port));
	memcpy(to->slot, from->slot, n * sizeof(*to->slot));
	memcpy(to->pst, from->pst, n * sizeof(*to->pst));
	memcpy(to->req, from->req, n * sizeof(*to->req));
	fafc_state_move(&to->st, &from->st);
}

/*
 * Room for slots 0..n-1 (RTNL). The data path reads the tables under the
 * lock: the larger block is allocated outside it, filled and swapped in
 * under it, and the old one freed after.
 */
static int fafc_switch_grow(struct fafc_switch *fsw, int n)
{
	struct fafc_tables nt, old;
	int cap = fsw->cap;

	if (n <= cap)
		return 0;
	while (cap < n)
		cap *= 2;
	if (tables_alloc(&nt, min(cap, FAFC_PORTS_MAX)))
		return -ENOMEM;
	spin_lock_bh(&fsw->lock);
	tables_move(&nt, &fsw->tab);
	old = fsw->tab;
	fsw->tab = nt;
	spin_unlock_bh(&fsw->lock);
	kvfree(old.mem);
	return 0;
}

void fafc_params_default(struct fafc_params *p)
{
	/* The paper's values; T_hop and th_c scale (fafc.rst, "Options"). */
	*p = (struct fafc_params){
		.prio = 3,
		.solver = FAFC_SOLVER_KERNEL,
		.frame = FAFC_FRAME_PFC,
		.th_p = 350000,
		.th_e = 200000,
		.alpha = FAFC_Q16(4, 5),
		.beta = FAFC_Q16(4, 5),
		.fdec = FAFC_Q16(4, 5),
		.dec_win = 4,
		.horizon = 2,
		.flags = FAFC_FL_ECN | FAFC_FL_ECNOF | FAFC_FL_PRED |
			 FAFC_FL_DEMAND_CAP,
	};
}

static void set_params(struct fafc_params *p, const struct fafc_change *c)
{
	const struct fafc_params *s = &c->set;

	/* fafc_switch_prio() reads prio without the lock. */
	if (c->named & FAFC_NAMED(TCA_FAFC_PRIO))
		WRITE_ONCE(p->prio, s->prio);
#define SET(field, attr)					\
	do {							\
		if (c->named & FAFC_NAMED(attr))		\
			p->field = s->field;			\
	} while (0)
	SET(thop, TCA_FAFC_THOP);
	SET(th_p, TCA_FAFC_TH_P);
	SET(th_e, TCA_FAFC_TH_E);
	SET(th_c, TCA_FAFC_TH_C);
	SET(alpha, TCA_FAFC_ALPHA);
	SET(beta, TCA_FAFC_BETA);
	SET(fdec, TCA_FAFC_FDEC);
	SET(dec_win, TCA_FAFC_DEC_WIN);
	SET(horizon, TCA_FAFC_HORIZON);
	SET(solver, TCA_FAFC_SOLVER);
	SET(frame, TCA_FAFC_FRAME);
#undef SET
	p->flags = (p->flags & ~c->flags_sel) | (s->flags & c->flags_sel);
}

/*
 * The values in effect (lock held). T_hop auto is the time the slowest
 * port takes for the paper's hop BDP, which keeps every byte value of the
 * paper valid at our rates (Documentation/fafc.rst, "Options", scaling);
 * th_c auto is one hop BDP [A3].
 */
static void derive(struct fafc_switch *fsw)
{
	const struct fafc_params *p = &fsw->par;
	struct fafc_cfg *c = &fsw->cfg;
	u64 rate = U64_MAX;
	int i;

	for (i = 0; i < fsw->st.n; i++) {
		if (!fsw->port[i])
			continue;
		rate = min(rate, READ_ONCE(fsw->port[i]->port.cfg.rate));
		WRITE_ONCE(fsw->port[i]->port.tp_frame,
			   p->frame == FAFC_FRAME_FCQ ? FCQ_TP_EXT : FCQ_TP_PFC);
	}
	if (rate == U64_MAX)
		return;
	fsw->thop = p->thop ?: clamp_t(u64, fcq_tx_ns(FAFC_HOP_BYTES, rate),
				       FAFC_THOP_MIN, FAFC_THOP_MAX);
	c->alpha = p->alpha;
	c->beta = p->beta;
	c->fdec = p->fdec;
	c->dec_win = p->dec_win;
	c->horizon = p->horizon;
	c->th_p = p->th_p;
	c->th_e = p->th_e;
	c->th_c = p->th_c ?: (s64)fcq_bytes_in(fsw->thop, rate);
	c->flags = p->flags;
}

static enum hrtimer_restart tick(struct hrtimer *timer)
{
	struct fafc_switch *fsw = container_of(timer, struct fafc_switch, tick);
	bool idle;
	u64 thop;

	spin_lock(&fsw->lock);
	thop = fsw->thop;
	fafc_update_rate(&fsw->st, &fsw->cfg, ktime_get_ns(), thop);
	/* A lone port (a host NIC) forwards nothing: nothing to predict. */
	idle = fsw->users < 2;
	if (idle)
		fsw->ticking = false;	/* a join may start it again */
	spin_unlock(&fsw->lock);
	if (idle)
		return HRTIMER_NORESTART;
	hrtimer_forward_now(timer, ns_to_ktime(thop));
	return HRTIMER_RESTART;
}

static enum hrtimer_restart slot_expire(struct hrtimer *timer)
{
	struct fafc_slot_timer *t = container_of(timer, struct fafc_slot_timer,
						 timer);
	struct fafc_switch *fsw = t->fsw;
	bool more;
	u64 end;

	spin_lock(&fsw->lock);
	more = fsw->users && fafc_slot_expire(&fsw->st, t->i, fsw->thop);
	end = fsw->st.in[t->i].slot_end;
	spin_unlock(&fsw->lock);
	if (!more)
		return HRTIMER_NORESTART;
	hrtimer_set_expires(timer, ns_to_ktime(end));
	return HRTIMER_RESTART;
}

static struct fcq_switch_ext *fafc_switch_create(struct fcq_port *port,
						 struct netlink_ext_ack *extack)
{
	struct fafc_switch *fsw;
	int cap = FAFC_CAP_MIN;

	fsw = kzalloc(sizeof(*fsw), GFP_KERNEL);
	if (!fsw)
		goto nomem;
	while (cap <= port->index)
		cap *= 2;
	if (tables_alloc(&fsw->tab, min(cap, FAFC_PORTS_MAX))) {
		kfree(fsw);
		goto nomem;
	}
	spin_lock_init(&fsw->lock);
	fafc_params_default(&fsw->par);
	hrtimer_setup(&fsw->tick, tick, CLOCK_MONOTONIC, HRTIMER_MODE_ABS_SOFT);
	return &fsw->ext;

nomem:
	NL_SET_ERR_MSG_MOD(extack, "no memory for the FAFC switch state");
	return ERR_PTR(-ENOMEM);
}

/* The last port left, or the first failed to join (RTNL). */
static void fafc_switch_destroy(struct fcq_switch_ext *ext)
{
	struct fafc_switch *fsw = container_of(ext, struct fafc_switch, ext);
	int k;

	hrtimer_cancel(&fsw->tick);
	for (k = 0; k < fsw->cap; k++) {
		if (!fsw->slot[k])
			continue;
		hrtimer_cancel(&fsw->slot[k]->timer);
		kfree(fsw->slot[k]);
	}
	synchronize_rcu();	/* fafc_genl_pause() may hold it */
	kvfree(fsw->mem);
	kfree(fsw);
}

static const struct fcq_switch_ext_ops fafc_switch_ops = {
	.create = fafc_switch_create,
	.destroy = fafc_switch_destroy,
};

/* Slot @i's TimeSlotExpire timer, made when a port first takes the slot. */
static int slot_timer(struct fafc_switch *fsw, int i)
{
	struct fafc_slot_timer *t;

	if (fsw->slot[i])
		return 0;
	t = kzalloc(sizeof(*t), GFP_KERNEL);
	if (!t)
		return -ENOMEM;
	hrtimer_setup(&t->timer, slot_expire, CLOCK_MONOTONIC,
		      HRTIMER_MODE_ABS_SOFT);
	t->fsw = fsw;
	t->i = i;
	spin_lock_bh(&fsw->lock);
	fsw->slot[i] = t;
	spin_unlock_bh(&fsw->lock);
	return 0;
}

int fafc_switch_join(struct fafc_sched *q, const struct fafc_change *c,
		     struct netlink_ext_ack *extack)
{
	struct fcq_port *port = &q->port;
	int i = port->index, err;
	struct fcq_switch_ext *ext;
	struct fafc_switch *fsw;
	bool start;

	ASSERT_RTNL();
	/* The slots of an fcq switch; the tables grow to hold them. */
	BUILD_BUG_ON(FCQ_MAX_PORTS > FAFC_PORTS_MAX);
	ext = fcq_switch_ext_get(port, &fafc_switch_ops, extack);
	if (IS_ERR(ext))
		return PTR_ERR(ext);
	fsw = container_of(ext, struct fafc_switch, ext);
	err = fafc_switch_grow(fsw, i + 1);
	if (!err)
		err = slot_timer(fsw, i);
	if (err) {
		NL_SET_ERR_MSG_MOD(extack, "no memory for FAFC's state of this many ports");
		fcq_switch_ext_put(ext);
		return err;
	}
	/* The slot's previous port may have left a time slot running. */
	hrtimer_cancel(&fsw->slot[i]->timer);

	spin_lock_bh(&fsw->lock);
	fafc_ingress_reset(&fsw->st, i);
	fafc_egress_reset(&fsw->st, i);
	memset(&fsw->pst[i], 0, sizeof(fsw->pst[i]));
	fsw->req[i].busy = false;
	fsw->port[i] = q;
	fsw->st.n = max(fsw->st.n, i + 1);
	set_params(&fsw->par, c);
	derive(fsw);
	/* Only a stopped tick is started: it re-arms itself otherwise. */
	start = ++fsw->users >= 2 && !fsw->ticking;
	fsw->ticking |= start;
	spin_unlock_bh(&fsw->lock);

	if (start)
		hrtimer_start(&fsw->tick, ns_to_ktime(ktime_get_ns() + fsw->thop),
			      HRTIMER_MODE_ABS_SOFT);
	WRITE_ONCE(q->fsw, fsw);
	return 0;
}

void fafc_switch_leave(struct fafc_sched *q)
{
	struct fafc_switch *fsw = q->fsw;
	int i = q->port.index, k, n = 0;

	ASSERT_RTNL();
	if (!fsw)
		return;
	spin_lock_bh(&fsw->lock);
	/* Unless its successor on the device took the slot (tc qdisc replace). */
	if (fsw->port[i] == q) {
		fsw->port[i] = NULL;
		/* Its queue goes with it; what it brought in may wait elsewhere. */
		fafc_egress_reset(&fsw->st, i);
		fsw->req[i].busy = false;
	}
	for (k = 0; k < fsw->st.n; k++)
		if (fsw->port[k])
			n = k + 1;
	fsw->st.n = n;
	fsw->users--;
	derive(fsw);
	spin_unlock_bh(&fsw->lock);
	WRITE_ONCE(q->fsw, NULL);
	fcq_switch_ext_put(&fsw->ext);
}

void fafc_switch_configure(struct fafc_sched *q, const struct fafc_change *c)
{
	struct fafc_switch *fsw = q->fsw;

	spin_lock_bh(&fsw->lock);
	set_params(&fsw->par, c);
	derive(fsw);
	spin_unlock_bh(&fsw->lock);
}

void fafc_switch_params(struct fafc_sched *q, struct fafc_params *p)
{
	struct fafc_switch *fsw = q->fsw;

	if (!fsw) {
		fafc_params_default(p);
		return;
	}
	spin_lock_bh(&fsw->lock);
	*p = fsw->par;
	spin_unlock_bh(&fsw->lock);
}

u8 fafc_switch_prio(struct fafc_sched *q)
{
	struct fafc_switch *fsw = READ_ONCE(q->fsw);

	return fsw ? READ_ONCE(fsw->par.prio) : 3;
}

/*
 * ApplyPauses (Alg. 2 l.15-29): ask each ingress i for a pause of T[i] ns
 * and book it in i's time slot. Returns how many were paused, and their
 * total in *total. Lock held.
 */
static u32 apply(struct fafc_switch *fsw, const u64 *T, u64 now, u64 *total)
{
	u8 prio = fsw->par.prio;
	u32 paused = 0;
	int i;

	*total = 0;
	for (i = 0; i < fsw->st.n; i++) {
		struct fafc_sched *in = fsw->port[i];
		u64 t = min(T[i], fsw->thop);	/* eq. (11) */

		if (!t || !in)
			continue;
		fcq_port_pause_request(&in->port, prio, t, now);
		if (fafc_paused(&fsw->st, i, t, now, fsw->thop))
			hrtimer_start(&fsw->slot[i]->timer,
				      ns_to_ktime(fsw->st.in[i].slot_end),
				      HRTIMER_MODE_ABS_SOFT);
		fsw->pst[i].pauses++;
		fsw->pst[i].pause_ns += t;
		fcq_port_kick(&in->port);
		paused++;
		*total += t;
	}
	return paused;
}

static void solved(struct fafc_switch *fsw, int e, u8 solver, s64 D,
		   u32 paused, u64 total, u64 latency)
{
	struct fafc_port_stats *ps = &fsw->pst[e];

	ps->lp_solves++;
	ps->solve_ns += latency;
	ps->solve_ns_max = max(ps->solve_ns_max, latency);
	trace_fafc_solve(fsw->port[e]->port.dev, solver, D, paused, total,
			 latency);
}

/* The size of lp_message() with @n ports. */
static size_t lp_message_size(int n)
{
	return 2 * nla_total_size(sizeof(u32)) + nla_total_size(sizeof(u16)) +
	       nla_total_size(0) +
	       4 * nla_total_size_64bit(sizeof(u64)) +
	       n * (nla_total_size(0) + nla_total_size(sizeof(u16)) +
		    nla_total_size(sizeof(u32)) +
		    2 * nla_total_size_64bit(sizeof(u64)));
}

/* Put the LP of egress @e in a message; ports that cannot help are left out. */
static int lp_message(struct fafc_switch *fsw, struct sk_buff *msg, int e,
		      s64 D, u64 seq, u64 sent)
{
	struct nlattr *nest;
	int i;

	if (nla_put_u32(msg, FAFC_A_SWITCH, fcq_switch_id(fsw->ext.sw)) ||
	    nla_put_u32(msg, FAFC_A_IFINDEX, fsw->port[e]->port.dev->ifindex) ||
	    nla_put_u16(msg, FAFC_A_EGRESS, e) ||
	    nla_put_u64_64bit(msg, FAFC_A_SEQ, seq, FAFC_A_PAD) ||
	    nla_put_u64_64bit(msg, FAFC_A_TIME, sent, FAFC_A_PAD) ||
	    nla_put_u64_64bit(msg, FAFC_A_THOP, fsw->thop, FAFC_A_PAD) ||
	    nla_put_s64(msg, FAFC_A_DEMAND, D, FAFC_A_PAD))
		return -EMSGSIZE;
	if ((fsw->cfg.flags & FAFC_F_TIE_VERTEX) &&
	    nla_put_flag(msg, FAFC_A_TIE_VERTEX))
		return -EMSGSIZE;
	for (i = 0; i < fsw->st.n; i++) {
		if (fsw->a[i] <= 0)
			continue;
		nest = nla_nest_start(msg, FAFC_A_PORT);
		if (!nest ||
		    nla_put_u16(msg, FAFC_A_PORT_IDX, i) ||
		    nla_put_u32(msg, FAFC_A_PORT_IFINDEX,
				fsw->port[i]->port.dev->ifindex) ||
		    nla_put_u64_64bit(msg, FAFC_A_PORT_A, fsw->a[i],
				      FAFC_A_PORT_PAD) ||
		    nla_put_u64_64bit(msg, FAFC_A_PORT_R, fsw->R[i],
				      FAFC_A_PORT_PAD))
			return -EMSGSIZE;
		nla_nest_end(msg, nest);
	}
	return 0;
}

/* solver user: send the LP to fafcd; its answer is fafc_genl_pause(). */
static void request(struct fafc_switch *fsw, int e, s64 D)
{
	struct net *net = fcq_switch_net(fsw->ext.sw);
	struct fafc_port_stats *ps = &fsw->pst[e];
	struct fafc_request *rq = &fsw->req[e];
	struct sk_buff *msg;
	int i, n = 0;
	u64 seq, sent;
	void *hdr;

	if (!genl_has_listeners(&fafc_genl_family, net, FAFC_GENL_LP))
		goto lost;
	for (i = 0; i < fsw->st.n; i++)
		n += fsw->a[i] > 0;
	msg = genlmsg_new(lp_message_size(n), GFP_ATOMIC);
	if (!msg)
		goto lost;
	hdr = genlmsg_put(msg, 0, 0, &fafc_genl_family, 0, FAFC_CMD_LP);
	seq = ++fsw->seq;
	sent = ktime_get_ns();
	if (!hdr || lp_message(fsw, msg, e, D, seq, sent)) {
		nlmsg_free(msg);
		goto lost;
	}
	genlmsg_end(msg, hdr);
	if (genlmsg_multicast_netns(&fafc_genl_family, net, msg, 0,
				    FAFC_GENL_LP, GFP_ATOMIC))
		goto lost;
	*rq = (struct fafc_request){
		.seq = seq, .sent = sent, .demand = D, .busy = true,
	};
	ps->user_sent++;
	return;

lost:
	/* Never waited on: the PFC safety net guards the buffer. */
	ps->user_lost++;
}

/* calculateAndSendPause(e) (Alg. 2). Lock held. */
static void trigger(struct fafc_switch *fsw, int e, u64 now)
{
	struct fafc_port_stats *ps = &fsw->pst[e];
	struct fafc_request *rq = &fsw->req[e];
	u64 t0 = ktime_get_ns(), total;
	s64 D, raw, sum = 0;
	u32 paused;
	int i;

	ps->triggers++;
	/* One request outstanding per egress, until answered or T_hop [A19]. */
	if (fsw->par.solver == FAFC_SOLVER_USER && rq->busy &&
	    t0 - rq->sent < fsw->thop) {
		ps->user_busy++;
		return;
	}
	D = fafc_lp_build(&fsw->st, &fsw->cfg, e, now, fsw->thop, fsw->a,
			  fsw->R, &raw);
	if (raw > D)
		ps->lp_capped++;	/* [A39] */
	if (D <= 0) {
		ps->lp_idle++;
		return;
	}
	for (i = 0; i < fsw->st.n; i++) {
		if (!fsw->port[i])	/* a slot whose port left */
			fsw->a[i] = fsw->R[i] = 0;
		sum += fsw->a[i];
	}
	if (sum < D)
		ps->lp_infeasible++;	/* [A15] */
	trace_fafc_lp(fsw->port[e]->port.dev, raw, D, sum);

	if (fsw->par.solver == FAFC_SOLVER_USER) {
		request(fsw, e, D);
		return;
	}
	fafc_lp_solve(fsw->st.n, fsw->a, fsw->R, D,
		      fsw->cfg.flags & FAFC_F_TIE_VERTEX, fsw->x, fsw->order);
	for (i = 0; i < fsw->st.n; i++)
		fsw->T[i] = mul_u64_u32_shr(fsw->thop, fsw->x[i], 30);
	paused = apply(fsw, fsw->T, now, &total);
	solved(fsw, e, FAFC_SOLVER_KERNEL, D, paused, total,
	       ktime_get_ns() - t0);
}

bool fafc_switch_enqueue(struct fafc_sched *q, struct sk_buff *skb, u64 now)
{
	struct fafc_switch *fsw = READ_ONCE(q->fsw);	/* RTNL writes it */
	struct fcq_skb_cb *cb = fcq_cb(skb);
	bool counted;

	if (!fsw || cb->ingress < 0)
		return false;	/* local traffic */
	spin_lock(&fsw->lock);
	counted = cb->prio == fsw->par.prio && cb->ingress < fsw->cap &&
		  fsw->port[cb->ingress];
	if (counted)
		fafc_enqueue(&fsw->st, &fsw->cfg, cb->ingress, q->port.index,
			     qdisc_pkt_len(skb),
			     fcq_port_paused(&q->port, cb->prio, now));
	spin_unlock(&fsw->lock);
	return counted;
}

void fafc_switch_dequeue(struct fafc_sched *q, struct sk_buff *skb, u64 now)
{
	struct fafc_switch *fsw = READ_ONCE(q->fsw);	/* RTNL writes it */
	struct fcq_skb_cb *cb = fcq_cb(skb);
	int e = q->port.index;
	unsigned int res;

	spin_lock(&fsw->lock);
	res = fafc_dequeue(&fsw->st, &fsw->cfg, cb->ingress, e,
			   qdisc_pkt_len(skb));
	if (res & FAFC_TRIGGER)
		trigger(fsw, e, now);
	spin_unlock(&fsw->lock);
	if ((res & FAFC_MARK) && INET_ECN_set_ce(skb))
		q->port.st.ecn_marked++;
}

void fafc_switch_release(struct fafc_sched *q, struct sk_buff *skb)
{
	struct fafc_switch *fsw = READ_ONCE(q->fsw);	/* RTNL writes it */
	struct fcq_skb_cb *cb = fcq_cb(skb);

	spin_lock_bh(&fsw->lock);
	fafc_drop(&fsw->st, cb->ingress, q->port.index, qdisc_pkt_len(skb));
	spin_unlock_bh(&fsw->lock);
}

void fafc_switch_view(struct fafc_sched *q, struct fafc_port_view *v)
{
	struct fafc_switch *fsw = q->fsw;
	int e = q->port.index;

	memset(v, 0, sizeof(*v));
	if (!fsw)
		return;
	spin_lock_bh(&fsw->lock);
	v->st = fsw->pst[e];
	v->thop = fsw->thop;
	v->th_c = fsw->cfg.th_c;
	v->qpred = fafc_predict(&fsw->st, &fsw->cfg, e);
	v->queue = fsw->st.eg[e].qr;
	v->ecnof = fsw->st.eg[e].ecnof;
	spin_unlock_bh(&fsw->lock);
}

/* The pauses of an answer, by slot; -EINVAL (with a message) if malformed. */
static int answer_pauses(struct genl_info *info, u64 *T)
{
	struct nlattr *tb[FAFC_A_PORT_MAX + 1], *a;
	int rem, err, i;

	nlmsg_for_each_attr(a, info->nlhdr, GENL_HDRLEN, rem) {
		if (nla_type(a) != FAFC_A_PORT)
			continue;
		err = nla_parse_nested(tb, FAFC_A_PORT_MAX, a,
				       fafc_port_policy, info->extack);
		if (err)
			return err;
		if (!tb[FAFC_A_PORT_IDX] || !tb[FAFC_A_PORT_T_NS]) {
			NL_SET_ERR_MSG_ATTR(info->extack, a,
					    "each port needs an index and a pause");
			return -EINVAL;
		}
		/* The policy bounds the index by FAFC_PORTS_MAX. */
		i = nla_get_u16(tb[FAFC_A_PORT_IDX]);
		T[i] = nla_get_u64(tb[FAFC_A_PORT_T_NS]);
	}
	return 0;
}

static struct fafc_switch *lookup_rcu(struct net *net, u32 id)
{
	struct fcq_switch_ext *ext;

	ext = fcq_switch_ext_find_rcu(net, id, &fafc_switch_ops);
	return ext ? container_of(ext, struct fafc_switch, ext) : NULL;
}

/*
 * FAFC_CMD_PAUSE: fafcd's answer to a request. Applied if it answers
 * the request outstanding for that egress within T_hop; otherwise counted
 * and discarded. The reply says which, and the latency.
 */
static int fafc_genl_pause(struct sk_buff *skb, struct genl_info *info)
{
	u64 *T, now, seq, latency = 0, total;
	enum fafc_status status = FAFC_STALE;
	struct fafc_switch *fsw;
	struct fafc_request *rq;
	struct sk_buff *msg;
	int e, err;
	u32 paused;
	void *hdr;

	if (!info->attrs[FAFC_A_SWITCH] || !info->attrs[FAFC_A_EGRESS] ||
	    !info->attrs[FAFC_A_SEQ]) {
		GENL_SET_ERR_MSG(info, "needs a switch, an egress and a seq");
		return -EINVAL;
	}
	e = nla_get_u16(info->attrs[FAFC_A_EGRESS]);	/* policy-bounded */
	/* 2 kB: not on the stack */
	T = kcalloc(FAFC_PORTS_MAX, sizeof(*T), GFP_KERNEL);
	if (!T)
		return -ENOMEM;
	err = answer_pauses(info, T);
	if (err)
		goto out;
	seq = nla_get_u64(info->attrs[FAFC_A_SEQ]);
	now = ktime_get_ns();

	rcu_read_lock();
	fsw = lookup_rcu(genl_info_net(info),
			 nla_get_u32(info->attrs[FAFC_A_SWITCH]));
	if (!fsw) {
		rcu_read_unlock();
		GENL_SET_ERR_MSG(info, "no fafc switch with that id here");
		err = -ENOENT;
		goto out;
	}
	spin_lock_bh(&fsw->lock);
	rq = e < fsw->cap ? &fsw->req[e] : NULL;
	if (!fsw->users || !rq || !fsw->port[e]) {
		err = -ENOENT;
	} else if (!rq->busy || rq->seq != seq) {
		status = FAFC_STALE;
		fsw->pst[e].user_stale++;
	} else {
		latency = now - rq->sent;
		rq->busy = false;
		if (latency > fsw->thop) {
			status = FAFC_LATE;
			fsw->pst[e].user_late++;
		} else {
			status = FAFC_APPLIED;
			paused = apply(fsw, T, now, &total);
			solved(fsw, e, FAFC_SOLVER_USER, rq->demand, paused,
			       total, latency);
		}
	}
	spin_unlock_bh(&fsw->lock);
	rcu_read_unlock();
	if (err) {
		GENL_SET_ERR_MSG(info, "no fafc port at that egress");
		goto out;
	}
	kfree(T);

	msg = genlmsg_new(NLMSG_DEFAULT_SIZE, GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	hdr = genlmsg_put_reply(msg, info, &fafc_genl_family, 0,
				FAFC_CMD_PAUSE);
	if (!hdr || nla_put_u8(msg, FAFC_A_STATUS, status) ||
	    (latency && nla_put_u64_64bit(msg, FAFC_A_LATENCY, latency,
					  FAFC_A_PAD))) {
		nlmsg_free(msg);
		return -EMSGSIZE;
	}
	genlmsg_end(msg, hdr);
	return genlmsg_reply(msg, info);

out:
	kfree(T);
	return err;
}

static const struct nla_policy fafc_genl_policy[FAFC_A_MAX + 1] = {
	[FAFC_A_SWITCH] = { .type = NLA_U32 },
	[FAFC_A_EGRESS] = NLA_POLICY_MAX(NLA_U16, FAFC_PORTS_MAX - 1),
	[FAFC_A_SEQ] = { .type = NLA_U64 },
	[FAFC_A_PORT] = NLA_POLICY_NESTED(fafc_port_policy),
};

static const struct genl_small_ops fafc_genl_ops[] = {
	{
		.cmd = FAFC_CMD_PAUSE,
		.doit = fafc_genl_pause,
		.flags = GENL_UNS_ADMIN_PERM,
	},
};

static const struct genl_multicast_group fafc_genl_mcgrps[] = {
	[FAFC_GENL_LP] = { .name = FAFC_GENL_MCGRP_LP },
};

static struct genl_family fafc_genl_family __ro_after_init = {
	.name = FAFC_GENL_NAME,
	.version = FAFC_GENL_VERSION,
	.maxattr = FAFC_A_MAX,
	.policy = fafc_genl_policy,
	.netnsok = true,
	.module = THIS_MODULE,
	.small_ops = fafc_genl_ops,
	.n_small_ops = ARRAY_SIZE(fafc_genl_ops),
	.resv_start_op = FAFC_CMD_LP,	/* all strictly validated */
	.mcgrps = fafc_genl_mcgrps,
	.n_mcgrps = ARRAY_SIZE(fafc_genl_mcgrps),
};

int fafc_genl_register(void)
{
	return genl_register_family(&fafc_genl_family);
}

void fafc_genl_unregister(void)
{
	genl_unregister_family(&fafc_genl_family);
}
