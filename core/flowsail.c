// SPDX-License-Identifier: GPL-2.0
/*
 * FlowSail and its baselines for one queue group (see flowsail.h).
 *
 * Invariants the unit tests check: a lane's bytes are the sum of its
 * flows' bytes there (NFT or CFT half); fsail_q.flows counts the entries
 * with bytes in the lane; a lane's hold is the number of entries whose
 * pause holds it (rsvQ: PAUSED entries; orig) plus the whole-group
 * pauses; nbusy counts the lanes with bytes and no hold. An entry lives
 * while it has bytes, marked packets or CFT state.
 */
#include "flowsail.h"

#define FSAIL_NIL	0xffff	/* end of the DRR list */

enum fsail_cfg_err fsail_cfg_check(const struct fsail_cfg *c)
{
	u16 min = c->mode == FSAIL_M_FLOWSAIL ? 2 : 1;

	if (c->queues < min || c->queues > FSAIL_QUEUES_MAX)
		return FSAIL_CFG_QUEUES;
	if (c->mode != FSAIL_M_STATIC && !c->ql_bytes &&
	    (!c->ql_milli || !c->hbdp))
		return FSAIL_CFG_QL;
	if (c->ql_bytes && c->qh_bytes && c->qh_bytes < c->ql_bytes)
		return FSAIL_CFG_QH;
	if (!c->ql_bytes && !c->qh_bytes && c->qh_milli &&
	    c->qh_milli < c->ql_milli)
		return FSAIL_CFG_QH;
	return FSAIL_CFG_OK;
}

size_t fsail_size(u16 queues)
{
	return sizeof(struct fsail) + queues * sizeof(struct fsail_q);
}

void fsail_init(struct fsail *s, const struct fsail_cfg *c,
		struct fcq_iso *iso, struct fcq_ftab *tab, u16 tag, u32 seed)
{
	memset(s, 0, fsail_size(c->queues));
	s->cfg = c;
	s->iso = iso;
	s->tab = tab;
	s->tag = tag;
	s->nnormal = c->mode == FSAIL_M_FLOWSAIL ? c->queues - 1 : c->queues;
	s->rsv = s->nnormal;
	s->rhead = FSAIL_NIL;
	s->rtail = FSAIL_NIL;
	s->rnd = seed | 1;
}

/* The random queue of Alg. 1 line 13. */
static u32 rnd(struct fsail *s)
{
	return fcq_xorshift32(&s->rnd);
}

static struct fsail_flow *flow_at(struct fsail *s, u16 slot)
{
	return (struct fsail_flow *)fcq_ftab_at(s->tab, slot);
}

static bool held(const struct fsail *s, int lane)
{
	return s->iso->lane[lane].hold;
}

/* A pause (+1) or resume (-1) of @lane: the paper's cfNum. */
static void hold(struct fsail *s, int lane, int d)
{
	bool was = !held(s, lane);

	fcq_iso_hold(s->iso, lane, d);
	if (s->iso->lane[lane].bytes && was != !held(s, lane))
		s->nbusy += was ? -1 : 1;
}

static void hold_all(struct fsail *s, int d)
{
	int i;

	for (i = 0; i < s->cfg->queues; i++)
		hold(s, i, d);
}

/*
 * N_active, at least 1 [F9]: the queues that have bytes and may send, or
 * with FSAIL_F_NONPAUSED every queue not held. A queue whose order mark
 * waits is not counted as paused: the mark is not a pause of its own.
 */
static u32 nactive(const struct fsail *s)
{
	u32 n = 0;
	int i;

	if (!(s->cfg->flags & FSAIL_F_NONPAUSED))
		return s->nbusy ?: 1;
	for (i = 0; i < s->cfg->queues; i++)
		n += !held(s, i);
	return n ?: 1;
}

static u32 threshold(const struct fsail *s, u32 bytes, u32 milli)
{
	u64 t;

	if (bytes)
		return bytes;
	if (!milli)
		return FSAIL_INF;
	t = fcq_div64(s->cfg->hbdp * milli, 1000ULL * nactive(s));
	return t < FSAIL_INF ? (u32)t : FSAIL_INF;
}

u32 fsail_ql(const struct fsail *s)
{
	return threshold(s, s->cfg->ql_bytes, s->cfg->ql_milli);
}

u32 fsail_qh(const struct fsail *s)
{
	if (!s->cfg->qh_bytes && !s->cfg->qh_milli)
		return FSAIL_INF;
	return threshold(s, s->cfg->qh_bytes, s->cfg->qh_milli);
}

/*
 * A queue for a new active flow (Alg. 1 lines 10-13): an empty one if
 * any, else a random one among those not held [F8], else any.
 */
static u16 map_new(struct fsail *s)
{
	const struct fcq_iso_lane *l = s->iso->lane;
	u32 i, n = 0, pick;

	if (s->cfg->flags & FSAIL_F_MAP_SINGLE)
		return 0;
	for (i = 0; i < s->nnormal; i++) {
		if (!l[i].bytes && !s->q[i].flows && !l[i].hold)
			return i;
		n += !l[i].hold;
	}
	if (!n)
		return rnd(s) % s->nnormal;
	pick = rnd(s) % n;
	for (i = 0; i < s->nnormal; i++)
		if (!l[i].hold && !pick--)
			break;
	return i;
}

/* Let a resumed flow go once it is idle in rsvQ for T_rel (sec. IV-C). */
static void maybe_release(struct fsail *s, struct fsail_flow *e, u64 now)
{
	if (e->cft == FSAIL_RESUMED && !e->cbytes &&
	    now - e->ts > s->cfg->release_ns) {
		e->cft = FSAIL_NORMAL;
		s->nresumed--;
		s->st.cft_delete++;
	}
}

static void put_if_idle(struct fsail *s, struct fsail_flow *e)
{
	if (!e->nbytes && !e->cbytes && e->cft == FSAIL_NORMAL)
		fcq_ftab_put(s->tab, &e->f);
}

static u16 hash_lane(struct fsail *s, const struct fcq_fkey *k)
{
	if (!k || (s->cfg->flags & FSAIL_F_MAP_SINGLE))
		return 0;
	return fcq_key_hash(k, s->tab->seed) % s->nnormal;
}

/*
 * A flow with no bytes counted in a normal queue may still have packets
 * that went untracked (its bucket was full) in its hash lane: if that lane
 * holds any, treat them as the flow's, so it stays in order behind them.
 */
static bool untracked_in(struct fsail *s, struct fsail_flow *e)
{
	u16 h;

	if (e->nbytes)
		return false;
	h = hash_lane(s, &e->f.key);
	if (!s->q[h].ubytes)
		return false;
	e->nq = h;
	e->nlast = fcq_iso_tail(s->iso, h) - 1;
	return true;
}

void fsail_enqueue(struct fsail *s, const struct fcq_fkey *k, u32 len,
		   u64 now, struct fsail_pkt *p)
{
	struct fsail_flow *e = NULL;
	bool created;

	p->mark = 0;
	p->slot = 0;
	if (k && s->cfg->mode != FSAIL_M_STATIC)
		e = (struct fsail_flow *)fcq_ftab_get(s->tab, k, s->tag,
						      &created);
	if (!e) {
		if (k && s->cfg->mode != FSAIL_M_STATIC)
			s->st.untracked++;
		p->lane = hash_lane(s, k);
		return;
	}
	if (created)
		e->orig = -1;
	p->mark = FSAIL_PKT_TRACKED;
	p->slot = fcq_ftab_slot(s->tab, &e->f);
	maybe_release(s, e, now);
	if (e->cft == FSAIL_PAUSED || e->cft == FSAIL_RESUMED) {
		p->lane = s->rsv;
		p->mark |= FSAIL_PKT_CFT;
		e->ts = now;
		return;
	}
	/* A pinned flow keeps its held queue even when it has drained */
	if (!e->nbytes && e->cft != FSAIL_PINNED && !untracked_in(s, e))
		e->nq = map_new(s);
	p->lane = e->nq;
}

static void drr_add(struct fsail *s, u16 lane)
{
	struct fsail_q *q = &s->q[lane];

	q->listed = true;
	q->next = FSAIL_NIL;
	if (s->rtail == FSAIL_NIL)
		s->rhead = lane;
	else
		s->q[s->rtail].next = lane;
	s->rtail = lane;
	s->rn++;
}

static u16 drr_pop(struct fsail *s)
{
	u16 lane = s->rhead;

	s->rhead = s->q[lane].next;
	if (s->rhead == FSAIL_NIL)
		s->rtail = FSAIL_NIL;
	s->rn--;
	s->q[lane].listed = false;
	return lane;
}

/* Whether the packet just queued in @lane (its flow @e) is congested. */
static bool congested(struct fsail *s, int lane, const struct fsail_flow *e,
		      bool cft)
{
	u32 q = s->iso->lane[lane].bytes;	/* the packet included [F3] */
	u32 n;

	if (q <= fsail_ql(s))
		return false;
	if (s->cfg->mode == FSAIL_M_BFC) {
		s->st.marks_queue++;
		return true;
	}
	if (q > fsail_qh(s)) {
		s->st.marks_qh++;
		return true;
	}
	n = s->q[lane].flows;
	if (n <= 1) {
		s->st.marks_lone++;
		return true;
	}
	if ((cft ? e->cbytes : e->nbytes) > fsail_fair(q, n)) {
		s->st.marks_fair++;
		return true;
	}
	return false;
}

bool fsail_queued(struct fsail *s, struct fsail_pkt *p, u32 len,
		  bool detect)
{
	const struct fcq_iso_lane *l = &s->iso->lane[p->lane];
	bool cft = p->mark & FSAIL_PKT_CFT;
	struct fsail_flow *e;
	u32 before;

	if (l->bytes == len && !l->hold)
		s->nbusy++;
	if (!s->q[p->lane].listed)
		drr_add(s, p->lane);
	if (!(p->mark & FSAIL_PKT_TRACKED)) {
		s->q[p->lane].ubytes += len;
		return false;
	}
	e = flow_at(s, p->slot);
	if (cft) {
		if (!e->cbytes)
			s->q[p->lane].flows++;
		e->cbytes += len;
	} else {
		if (!e->nbytes)
			s->q[p->lane].flows++;
		e->nbytes += len;
		e->nlast = fcq_iso_tail(s->iso, p->lane) - 1;
	}
	if (!detect || !congested(s, p->lane, e, cft))
		return false;
	/* One edge detector over both halves [F2] */
	before = e->npause + e->cpause;
	if (cft)
		e->cpause++;
	else
		e->npause++;
	p->mark |= FSAIL_PKT_CONG;
	if (before)
		return false;
	s->st.pauses++;
	return true;
}

int fsail_pick(struct fsail *s, u32 (*head_len)(void *arg, int lane),
	       void *arg)
{
	u32 visits = 2 * s->rn + 1;
	struct fsail_q *q;
	u16 lane;
	u32 len;

	while (visits-- && s->rn) {
		lane = s->rhead;
		q = &s->q[lane];
		if (!fcq_iso_pkts(s->iso, lane)) {
			drr_pop(s);
			q->deficit = 0;
			continue;
		}
		if (!fcq_iso_servable(s->iso, lane)) {
			q->deficit = 0;		/* a paused queue loses it */
			drr_add(s, drr_pop(s));
			continue;
		}
		len = head_len(arg, lane);
		if (q->deficit < (s32)len) {
			q->deficit += s->cfg->quantum;
			drr_add(s, drr_pop(s));
			continue;
		}
		return lane;	/* at the head until fsail_charge() */
	}
	return -1;
}

void fsail_charge(struct fsail *s, int lane, u32 len)
{
	s->q[lane].deficit -= len;
}

bool fsail_dequeue(struct fsail *s, const struct fsail_pkt *p, u32 len,
		   u64 now)
{
	const struct fcq_iso_lane *l = &s->iso->lane[p->lane];
	struct fsail_flow *e;
	bool resume = false;

	if (!l->bytes && !l->hold)
		s->nbusy--;
	if (!(p->mark & FSAIL_PKT_TRACKED)) {
		s->q[p->lane].ubytes -= len;
		return false;
	}
	e = flow_at(s, p->slot);
	if (p->mark & FSAIL_PKT_CFT) {
		e->cbytes -= len;
		e->ts = now;
		if (!e->cbytes)
			s->q[p->lane].flows--;
		if (p->mark & FSAIL_PKT_CONG)
			e->cpause--;
	} else {
		e->nbytes -= len;
		if (!e->nbytes)
			s->q[p->lane].flows--;
		if (p->mark & FSAIL_PKT_CONG)
			e->npause--;
	}
	if ((p->mark & FSAIL_PKT_CONG) && !e->npause && !e->cpause) {
		s->st.resumes++;
		resume = true;
	}
	put_if_idle(s, e);
	return resume;
}

/* Hold the queue @e is in, pinning @e to it (bfc; flowsail without a mark). */
static void pin(struct fsail *s, struct fsail_flow *e)
{
	if (!e->nbytes && !untracked_in(s, e))
		e->nq = map_new(s);
	e->cft = FSAIL_PINNED;
	e->orig = e->nq;
	hold(s, e->nq, 1);
	s->st.pinned++;
}

static void pause_all(struct fsail *s)
{
	if (!s->all++)
		hold_all(s, 1);
}

static void resume_all(struct fsail *s)
{
	if (!--s->all)
		hold_all(s, -1);
}

void fsail_pause(struct fsail *s, const struct fcq_fkey *k, u64 now)
{
	struct fsail_flow *e = NULL;
	bool created, older;

	s->st.pause_rx++;
	if (k)
		e = (struct fsail_flow *)fcq_ftab_get(s->tab, k, s->tag,
						      &created);
	if (!e) {
		/* Nothing to name it by: the whole group waits [F10] */
		s->all_keys += !!k;
		s->st.all_rx++;
		pause_all(s);
		return;
	}
	if (created)
		e->orig = -1;
	if (e->cft == FSAIL_PAUSED || e->cft == FSAIL_PINNED)
		return;		/* the RX book passes no duplicates */
	if (s->cfg->mode != FSAIL_M_FLOWSAIL) {
		pin(s, e);
		return;
	}
	older = e->nbytes || untracked_in(s, e);
	if (e->cft == FSAIL_NORMAL) {
		/*
		 * Order Mark Matching [F6]: rsvQ's entries from now on wait
		 * for the flow's newest packet in its normal queue.
		 */
		if (older && (s->cfg->flags & FSAIL_F_OM)) {
			if (fcq_iso_order(s->iso, s->rsv,
					  fcq_iso_tail(s->iso, s->rsv), e->nq,
					  e->nlast + 1)) {
				pin(s, e);	/* no free mark [F7] */
				return;
			}
			s->st.om_pairs++;
		}
		s->st.cft_insert++;
	} else {
		s->nresumed--;		/* paused again */
	}
	e->cft = FSAIL_PAUSED;
	e->ts = now;
	hold(s, s->rsv, 1);
	/* [F5] also when paused again with old packets still there */
	if (older && (s->cfg->flags & FSAIL_F_PAUSE_ORIG)) {
		e->orig = e->nq;
		hold(s, e->nq, 1);
	}
}

void fsail_resume(struct fsail *s, const struct fcq_fkey *k, u64 now)
{
	struct fsail_flow *e = k ? fsail_flow(s, k) : NULL;

	s->st.resume_rx++;
	if (!e || (e->cft != FSAIL_PAUSED && e->cft != FSAIL_PINNED)) {
		/* the whole group, or a key paused without an entry */
		if (k && !s->all_keys)
			return;
		s->all_keys -= !!k;
		if (s->all)
			resume_all(s);
		return;
	}
	if (e->orig >= 0) {
		hold(s, e->orig, -1);
		e->orig = -1;
	}
	if (e->cft == FSAIL_PINNED) {
		e->cft = FSAIL_NORMAL;
		put_if_idle(s, e);
		return;
	}
	hold(s, s->rsv, -1);
	e->cft = FSAIL_RESUMED;
	e->ts = now;
	s->nresumed++;
}

void fsail_gc(struct fsail *s, u64 now)
{
	u32 cap = s->tab->nbuckets * FCQ_FTAB_WAYS;
	struct fsail_flow *e;
	int n;

	for (n = 0; s->nresumed && n < FSAIL_GC_SLOTS && n < (int)cap; n++) {
		e = flow_at(s, s->gc);
		s->gc = (s->gc + 1) & (cap - 1);
		if (!e->f.used || e->f.tag != s->tag)
			continue;
		maybe_release(s, e, now);
		put_if_idle(s, e);
	}
}

struct fsail_flow *fsail_flow(struct fsail *s, const struct fcq_fkey *k)
{
	return (struct fsail_flow *)fcq_ftab_find(s->tab, k, s->tag);
}

void fsail_stats_add(struct fsail_stats *sum, const struct fsail_stats *st)
{
	sum->marks_qh += st->marks_qh;
	sum->marks_fair += st->marks_fair;
	sum->marks_lone += st->marks_lone;
	sum->marks_queue += st->marks_queue;
	sum->pauses += st->pauses;
	sum->resumes += st->resumes;
	sum->pause_rx += st->pause_rx;
	sum->resume_rx += st->resume_rx;
	sum->cft_insert += st->cft_insert;
	sum->cft_delete += st->cft_delete;
	sum->om_pairs += st->om_pairs;
	sum->pinned += st->pinned;
	sum->untracked += st->untracked;
	sum->all_rx += st->all_rx;
}
