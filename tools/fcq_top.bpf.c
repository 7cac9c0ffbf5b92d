// SPDX-License-Identifier: GPL-2.0
/*
 * fcq_top.bpf.c - fcq-top's BPF programs: one per tracepoint of fcq:*,
 * qcn:* and flowsail:* that fcq-top counts, each putting a struct
 * fcq_top_event in the ring buffer "events". fcq-top (fcq-top.c) embeds
 * this object and counts the events per port and class in user space.
 * An event that finds the ring full is counted in "lost".
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#include "fcq_top.h"

char LICENSE[] SEC("license") = "GPL";

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 1 << 20);
} events SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} lost SEC(".maps");

static __always_inline int emit(const char *dev, __u32 netns, __u8 type,
				__u8 prio, __u8 mask, __u8 arg)
{
	struct fcq_top_event *e;
	__u32 zero = 0;
	__u64 *n;

	e = bpf_ringbuf_reserve(&events, sizeof(*e), 0);
	if (!e) {
		n = bpf_map_lookup_elem(&lost, &zero);
		if (n)
			__sync_fetch_and_add(n, 1);
		return 0;
	}
	__builtin_memcpy(e->dev, dev, FCQ_TOP_DEVSZ);
	e->netns = netns;
	e->type = type;
	e->prio = prio;
	e->mask = mask;
	e->arg = arg;
	bpf_ringbuf_submit(e, 0);
	return 0;
}

/* The classes of @q with a pause time: XOFF (the rest resume). */
static __always_inline __u8 xoff_of(const __u16 *q)
{
	__u8 m = 0;
	int p;

#pragma unroll
	for (p = 0; p < FCQ_TOP_NPRIO; p++)
		if (q[p])
			m |= 1 << p;
	return m;
}

SEC("tracepoint/fcq/pause_tx")
int pause_tx(struct fcq_top_tp_pause_tx *tp)
{
	return emit(tp->dev, tp->netns, FCQ_TOP_PAUSE_TX, 0, tp->enable,
		    xoff_of(tp->quanta) & tp->enable);
}

SEC("tracepoint/fcq/pause_rx")
int pause_rx(struct fcq_top_tp_pause_rx *tp)
{
	return emit(tp->dev, tp->netns, FCQ_TOP_PAUSE_RX, 0, tp->enable, 0);
}

/* An event that names its class and nothing else fcq-top counts. */
#define PRIO_EVENT(sys, ev, st, type)					\
SEC("tracepoint/" #sys "/" #ev)						\
int ev(struct fcq_top_tp_##st *tp)					\
{									\
	return emit(tp->dev, tp->netns, type, tp->prio, 0, 0);		\
}

PRIO_EVENT(fcq, pause_request, pause_request, FCQ_TOP_PAUSE_REQ)
PRIO_EVENT(fcq, isolate, lane, FCQ_TOP_ISOLATE)
PRIO_EVENT(fcq, resume, lane, FCQ_TOP_RESUME)
PRIO_EVENT(flowsail, flowsail_pause, flowsail, FCQ_TOP_FS_PAUSE)
PRIO_EVENT(flowsail, flowsail_resume, flowsail, FCQ_TOP_FS_RESUME)
PRIO_EVENT(flowsail, flowsail_isolate, flowsail, FCQ_TOP_FS_ISOLATE)

SEC("tracepoint/fcq/kp_tx")
int kp_tx(struct fcq_top_tp_kp *tp)
{
	return emit(tp->dev, tp->netns, FCQ_TOP_KP_TX, tp->prio, 0, tp->type);
}

SEC("tracepoint/fcq/kp_rx")
int kp_rx(struct fcq_top_tp_kp *tp)
{
	return emit(tp->dev, tp->netns, FCQ_TOP_KP_RX, tp->prio, 0, tp->type);
}

SEC("tracepoint/fcq/drop")
int drop(struct fcq_top_tp_drop *tp)
{
	return emit(tp->dev, tp->netns, FCQ_TOP_DROP, tp->prio, 0,
		    tp->reason);
}

SEC("tracepoint/fcq/pfcwd")
int pfcwd(struct fcq_top_tp_pfcwd *tp)
{
	return emit(tp->dev, tp->netns,
		    tp->storm ? FCQ_TOP_STORM : FCQ_TOP_RESTORE,
		    tp->prio, 0, 0);
}

SEC("tracepoint/qcn/cnm_tx")
int cnm_tx(struct fcq_top_tp_cnm_tx *tp)
{
	return emit(tp->dev, tp->netns,
		    tp->sent ? FCQ_TOP_CNM_TX : FCQ_TOP_CNM_REFUSED,
		    tp->prio, 0, 0);
}

SEC("tracepoint/qcn/cnm_rx")
int cnm_rx(struct fcq_top_tp_cnm_rx *tp)
{
	return emit(tp->dev, tp->netns, FCQ_TOP_CNM_RX, tp->prio, 0, 0);
}
