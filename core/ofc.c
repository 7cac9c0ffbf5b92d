// SPDX-License-Identifier: GPL-2.0
/*
 * OFC's pause decisions: see ofc.h for the equations. Pure functions of one
 * arrival's view, so every region of E2-E5 is tested in userspace.
 */
#include "ofc.h"

/* Would this packet's own flow be in the pause that @orig/@extra asks? */
static bool selects_own(bool orig, bool extra, const struct ofc_view *v)
{
	return orig || extra || v->in_cft;
}

enum ofc_act ofc_eval(const struct ofc_cfg *c, const struct ofc_view *v)
{
	bool orig, extra;

	if (c->mode == OFC_M_PFC)
		return OFC_NONE;	/* the port's 802.1Qbb path decides */
	/* E3: urgent, whole class; a list would not save the buffer [O8] */
	if (v->qin >= c->xoff)
		return v->pft_all ? OFC_NONE : OFC_PAUSE_ALL;
	/* Below X^c_OFF is the hysteresis band [O4]; all paused already */
	if (v->qin < c->xoff_c || v->pft_all)
		return OFC_NONE;
	if (c->mode == OFC_M_CAPFC)
		return v->qout >= (c->xegress ?: c->xoff_c) ?
		       OFC_PAUSE_ALL : OFC_NONE;

	/*
	 * E2: q_in in [X^c_OFF, X_OFF), and this egress is congested; a
	 * drain's backlog is not congestion of its own [O18].
	 */
	orig = v->cft_empty;
	if ((orig ? v->qout - v->qout_drain : v->qout) < c->xoff_c)
		return OFC_NONE;
	/*
	 * [O14] with strict_orig off, an egress whose bytes neither paused
	 * nor draining reach X^c_OFF is congested by itself, CFT or not.
	 */
	extra = !orig && !(c->flags & OFC_F_STRICT_ORIG) &&
		v->qout - v->qout_paused - v->qout_drain >= c->xoff_c;

	if (!v->tracked)
		return selects_own(orig, extra, v) ? OFC_PAUSE_ALL : OFC_NONE;
	/*
	 * At its onset an original point pauses every flow it holds from I
	 * at once; after that, and at a local point always, each flow is
	 * decided as its own packets arrive [O7] (a local point's scan
	 * could find nothing from I, again on every packet).
	 */
	if (!v->pft_any && (orig || extra))
		return orig ? OFC_SCAN_ORIG : OFC_SCAN_EXTRA;
	/* [O10] only what the upstream does not hold paused yet */
	if (v->pft_has || !selects_own(orig, extra, v))
		return OFC_NONE;
	return orig ? OFC_KEY_ORIG : extra ? OFC_KEY_EXTRA : OFC_KEY_LOCAL;
}

u32 ofc_xoff_c(u32 xoff)
{
	return fcq_div64((u64)xoff * 68, 75);
}

enum ofc_cfg_err ofc_cfg_check(const struct ofc_cfg *c)
{
	if (c->mode == OFC_M_PFC)
		return OFC_CFG_OK;
	if (!c->xoff)
		return OFC_CFG_NO_XOFF;
	if (c->xoff_c >= c->xoff)
		return OFC_CFG_XOFF_C;
	if (c->xon >= c->xoff_c)
		return OFC_CFG_XON;
	return OFC_CFG_OK;
}

void ofc_band_init(struct ofc_band *b, struct fcq_iso *iso)
{
	b->iso = iso;
	b->p = 1;
	b->d = 0;
	b->all = false;
	fcq_iso_hold(iso, b->p, 1);
}

void ofc_band_pause_all(struct ofc_band *b)
{
	if (b->all)
		return;
	b->all = true;
	fcq_iso_hold(b->iso, OFC_LANE_N, 1);
}

void ofc_band_resume_all(struct ofc_band *b)
{
	if (!b->all)
		return;
	b->all = false;
	fcq_iso_hold(b->iso, OFC_LANE_N, -1);
}

bool ofc_band_resumed(struct ofc_band *b)
{
	struct fcq_iso *s = b->iso;

	if (b->d || !fcq_iso_pkts(s, b->p))
		return false;
	b->d = b->p;
	b->p = 3 - b->p;
	fcq_iso_hold(s, b->p, 1);
	fcq_iso_hold(s, b->d, -1);
	/* Cannot fail: OFC_MARKS is 1 and no mark outlives a drain. */
	fcq_iso_order(s, OFC_LANE_N, fcq_iso_head(s, OFC_LANE_N), b->d,
		      fcq_iso_tail(s, b->d));
	return true;
}

int ofc_band_lane(struct ofc_band *b)
{
	if (b->d) {
		if (fcq_iso_pkts(b->iso, b->d))
			return b->d;
		b->d = 0;
		return OFC_LANE_DRAINED;
	}
	return fcq_iso_servable(b->iso, OFC_LANE_N) ? OFC_LANE_N :
	       OFC_LANE_NONE;
}
