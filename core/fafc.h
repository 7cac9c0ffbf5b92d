/* SPDX-License-Identifier: GPL-2.0 */
/*
 * FAFC (Lu, Chen, Zhang, Lu: "FAFC: Fast and Accurate Flow
 * Control in Data Center Networks"), the switch side: per (ingress i,
 * egress e) queue statistics, Holt prediction of the egress queue one hop
 * round trip ahead (eqs. 1-3, Alg. 1), egress triggering, pause-time
 * allocation by the LP of eqs. (9)-(11) (Alg. 2), time-slotted pause
 * accounting (pausNext/Old/Pending) and the ECN offset (Alg. 4), with the
 * corrections of Documentation/fafc.rst, "Differences from the paper"
 * (noted [Ax]).
 *
 * Units: one step is T_hop. Rates are bytes per T_hop, so r * T_hop is just
 * r; queues and demands are bytes; alpha, beta and f_dec are Q16; LP
 * solutions are fractions of T_hop in Q30. The caller owns the memory (one
 * block, fafc_state_size()) and the locking, and passes `now` (ns) where
 * time matters.
 */
#ifndef FCQ_CORE_FAFC_H
#define FCQ_CORE_FAFC_H

#include "core.h"

/* Ports of a switch: as many as an fcq switch has (FCQ_MAX_PORTS). */
#define FAFC_PORTS_MAX	256
#define FAFC_ONE	65536		/* Q16 */
#define FAFC_X_ONE	(1 << 30)	/* Q30: a pause of a whole T_hop */
#define FAFC_RATE_MAX	0x7fffffffLL	/* LP coefficients saturate here */

/* cfg.flags: the values of the uapi's FAFC_FL_* */
#define FAFC_F_ECN		0x01	/* ECN marking on the prediction */
#define FAFC_F_ECNOF		0x02	/* the ECN offset of Alg. 4 */
#define FAFC_F_PRED		0x04	/* trigger on the prediction, else raw */
#define FAFC_F_TREND_HOLT	0x08	/* eq. (3) literally [A7] */
#define FAFC_F_TIE_VERTEX	0x10	/* LP ties: a vertex, not spread */
#define FAFC_F_DEMAND_CAP	0x20	/* D <= arrivals - departures [A39] */

struct fafc_cfg {
	u32 alpha;		/* Holt level factor, Q16 (0.8) */
	u32 beta;		/* Holt trend / rate factor, Q16 (0.8) */
	u32 fdec;		/* rate decrease factor, Q16 (0.8) [A12] */
	u32 dec_win;		/* its window, in T_hop (4) */
	u32 horizon;		/* prediction horizon, in T_hop (2) */
	s64 th_p;		/* pause threshold, bytes */
	s64 th_e;		/* ECN threshold, bytes */
	s64 th_c;		/* congested (i, k) pair threshold, bytes [A3] */
	u32 flags;
};

/* One (ingress, egress) pair. */
struct fafc_pair {
	s64 qr;			/* q'_ie: raw bytes queued */
	s64 q;			/* q_ie: Holt level */
	s64 r;			/* r_ie: Holt trend, bytes/T */
	s64 qlast;		/* qr at the last update */
	u64 bin, binlast;	/* bytes in, and at the last update */
	u64 bout, boutlast;	/* bytes out [A11] */
	s64 rin, rout;		/* r^i_ie, r^o_ie: bytes/T */
	s64 pausof;		/* pausOf_ie, bytes */
};

/* One egress port: the aggregate q_*e, "collected separately" [A8]. */
struct fafc_egress {
	s64 qr, q, r, qlast;
	s64 ecnof;		/* ECNof_e (Alg. 4) */
	s64 pausof;		/* pausOf_*e = sum over i of pausOf_ie */
	u64 last_trig;		/* ns of the last pause computation [A13] */
	bool trig_valid;
};

/* One ingress port: its time slot (Alg. 1 TimeSlotExpire, Alg. 2). */
struct fafc_ingress {
	s64 rin;		/* r^i_i* = sum over e of rin, bytes/T */
	s64 qi;			/* q_i* = sum over e of q */
	s64 next;		/* pausNext_i, bytes */
	s64 old;		/* pausOld_i */
	s64 pending;		/* pausPending_i */
	bool slot;		/* a slot is running */
	u64 slot_end;		/* ns */
	/*
	 * When its arrivals stop: the pauses sent to it, accumulated as its
	 * sender does, one T_hop later [A38]. off_carry: paused ns of an
	 * earlier window inside the current step.
	 */
	u64 off_start, off_end, off_carry;
};

/*
 * A switch of up to @cap ports, in one block of memory the caller owns:
 * the pair matrix grows with the square of the ports, so it is sized to
 * the switch and moved to a larger block as ports join.
 */
struct fafc_state {
	int n;				/* ports 0..n-1 in use */
	int cap;			/* ports the arrays hold, n <= cap */
	int words;			/* u64 per bitmap row: cap / 64, rounded up */
	u64 step;			/* ns of the last fafc_update_rate() */
	struct fafc_pair *p;		/* [i * cap + e] */
	/* Row i, bit e: pair (i, e) may hold a non-zero value. A pair whose
	 * every value is 0 stays 0 until a packet enqueues, so the rate
	 * update skips it: its cost follows the active pairs, not n^2.
	 */
	u64 *active;			/* [i * words + e / 64] */
	u64 *eg_active;			/* bit e: the same for egress e */
	struct fafc_egress *eg;		/* [cap] */
	struct fafc_ingress *in;	/* [cap] */
};

static inline struct fafc_pair *fafc_pair(const struct fafc_state *s, int i,
					  int e)
{
	return &s->p[i * s->cap + e];
}

/* Bytes of the block for @cap ports. */
size_t fafc_state_size(int cap);

/* Lay @s out over @mem (fafc_state_size(cap) bytes, zeroed): no port. */
void fafc_state_init(struct fafc_state *s, void *mem, int cap);

/* Copy every value of @from into @to, laid out for @to->cap >= @from->cap. */
void fafc_state_move(struct fafc_state *to, const struct fafc_state *from);

/* What a departing packet asks for. */
#define FAFC_MARK	0x1	/* set CE */
#define FAFC_TRIGGER	0x2	/* call fafc_lp_build() and pause */

/* Alg. 1 onEnqueue, Alg. 4 onEnqueueECN (@e_paused: e is paused by its
 * downstream now).
 */
void fafc_enqueue(struct fafc_state *s, const struct fafc_cfg *c, int i,
		  int e, u32 len, bool e_paused);

/* Alg. 1 onDequeue + CheckCong, Alg. 4 onDequeueECN [A6, A16-A18]. */
unsigned int fafc_dequeue(struct fafc_state *s, const struct fafc_cfg *c,
			  int i, int e, u32 len);

/* A queued packet left without departing (the queue was reset). */
void fafc_drop(struct fafc_state *s, int i, int e, u32 len);

/* qPred of egress e: q_*e + horizon * r_*e + pausOf_*e (Alg. 1 l.15). */
s64 fafc_predict(const struct fafc_state *s, const struct fafc_cfg *c, int e);

/*
 * Alg. 1 UpdateRate: the Holt step of every pair and egress, every T_hop
 * (@thop ns), at @now. Growths are per T_hop even when the timer fires
 * late; an ingress's arrival rates are measured over the time it was not
 * paused by us, and held while it was paused for most of the step [A38].
 */
void fafc_update_rate(struct fafc_state *s, const struct fafc_cfg *c, u64 now,
		      u64 thop);

/*
 * Alg. 2 l.1-13: the LP of a trigger by egress e at @now (ns), T_hop
 * @thop. Fills a[i] (constraint coefficients, bytes/T, f_dec applied when e
 * triggered within dec_win) and R[i] (cost: bytes/T toward uncongested
 * pairs) for i < s->n, saturated at FAFC_RATE_MAX, and returns the demand
 * D in bytes; D <= 0 means no pause (the queue is not growing). *raw gets
 * the demand of l.13 before the cap of FAFC_F_DEMAND_CAP [A39].
 */
s64 fafc_lp_build(struct fafc_state *s, const struct fafc_cfg *c, int e,
		  u64 now, u64 thop, s64 *a, s64 *R, s64 *raw);

/*
 * Port i's cost ratio R_i / a_i against port j's (a > 0): -1, 0 (a tie) or
 * 1. Exact: R, a <= FAFC_RATE_MAX.
 */
int fafc_ratio_cmp(const s64 *a, const s64 *R, int i, int j);

/*
 * min sum R_i x_i  s.t.  sum a_i x_i >= D, 0 <= x_i <= 1  (eqs. 9-11 with
 * x_i = T_i / T_hop), a fractional knapsack: greedy by R_i / a_i is exact.
 * Ties are spread evenly (every member of the marginal tie group gets the
 * same fraction), or resolved as a vertex (by a_i descending, then index).
 * Writes x[i] in Q30. Returns 0, or -1 if infeasible (sum a_i < D: every
 * port with a_i > 0 gets x = 1) [A15]. @order: n entries of scratch.
 */
int fafc_lp_solve(int n, const s64 *a, const s64 *R, s64 D, bool vertex,
		  u32 *x, u16 *order);

/*
 * Alg. 2 l.15-29: a pause of @pause_ns sent to ingress i at @now. Books it
 * in i's time slot [A10, A14]. Returns true if a slot just started: the
 * caller arms fafc_slot_expire(i) at s->in[i].slot_end.
 */
bool fafc_paused(struct fafc_state *s, int i, u64 pause_ns, u64 now,
		 u64 thop);

/* Alg. 1 TimeSlotExpire [A9]. Returns true if the slot continues: re-arm
 * at s->in[i].slot_end.
 */
bool fafc_slot_expire(struct fafc_state *s, int i, u64 thop);

/*
 * Port e's queue is gone (its qdisc was deleted): forget it as an egress.
 * Bytes it brought in may still wait at other ports, so its ingress row
 * stays until a new port takes the slot: fafc_ingress_reset() then.
 */
void fafc_egress_reset(struct fafc_state *s, int e);
void fafc_ingress_reset(struct fafc_state *s, int i);

#endif /* FCQ_CORE_FAFC_H */
