#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""dsm_check.py: replay a DSM congestion point's and its reaction points'
trace events (qcn:dsm_sample, qcn:cnm_rx) against the DSM paper's rules,
written here a second time, in exact integers, apart from core/dsm.c:
the prediction (eq. 25), the law (eq. 24, the boundaries as fcq decides
them, eq. 27's bound), F_b in kbit/s, what the CP counts as sent (the
step its CNM carried, back in bytes, or 0 when none went out), and each
reaction point's r <- r + F_b (eq. 26) between r_min and the line. With
room on (a sample's room r >= 0) the step that goes out is the law's
bounded to [-r, S - r].

Each CNM the CP sent (qcn:cnm_tx, sent=1) gets the F_b of the sample
before it: the F_b each source was sent, in order, is in "fb_to".

A trace marker MARK (--then-m) says the CP's horizon changed to M2 just
before it: the samples up to some point within 3 before the marker must
follow m, every one after it M2.

Prints one JSON object: what was checked, and the first mismatches.
"""
import argparse
import json
import re
import sys

SAMPLE = re.compile(r'dsm_sample: dev=(\S+) q=(\d+) qfh=(-?\d+) qvh=(-?\d+) '
                    r'u=(-?\d+) sent=(-?\d+) region=(\d+) room=(-?\d+)')
RX = re.compile(r'cnm_rx: dev=(\S+) da=(\S+) prio=\d+ qfb=\d+ cr=(\d+) '
                r'tr=\d+ now=\d+ fb=(-?\d+)')
MARK = re.compile(r'tracing_mark_write: (\S+)')
TX = re.compile(r'cnm_tx: dev=(\S+) flow=([0-9a-f:]+)>\S+ .* sent=1')
A, B, C, ORIGIN = 0, 1, 2, 3


def usage_args():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument('trace', help='a copy of /sys/kernel/tracing/trace')
    p.add_argument('--dev', required=True, help="the CP's port")
    p.add_argument('--q0', type=int, required=True)
    p.add_argument('--s', type=int, required=True, help='i_s, bytes')
    p.add_argument('--t-ns', type=int, required=True, help="the CP's T")
    p.add_argument('--h-mhz', type=int, required=True,
                   help='H_a = H_b = H_c, mHz')
    p.add_argument('--m', type=int, required=True)
    p.add_argument('--then-m', nargs=2, metavar=('MARK', 'M2'))
    p.add_argument('--rp-dev', action='append', default=[],
                   help='a reaction point to check (repeatable)')
    p.add_argument('--line', type=int, help="the RPs' rate, bit/s")
    p.add_argument('--r-min', type=int, help="the RPs' floor, bit/s")
    return p.parse_args()


def gains(h, t_ns, m):
    """G_a, G_b, G_c (Q20) and omega (Q16) as the qdisc derives them."""
    def g(div):
        return min((h << 20) * t_ns // (10**12 * div), 2**32 - 1)
    ga, gb, gc = g(m * m + 4 * m + 2), g(2 * m + 3), g(2)
    omega = max(1, (1 << 20) // gb) << 16 if gb else 0
    return ga, gb, gc, omega


def sgn(v):
    return (v > 0) - (v < 0)


def law(g, v):
    """-g v >> 20, rounded toward 0."""
    mag = (abs(v) * g) >> 20
    return mag if v < 0 else -mag


def decide(qfh, qvh, ga, gb, gc, omega):
    d = qfh * 65536 + omega * qvh
    if sgn(qfh) * sgn(qvh) > 0:
        return C, law(gc, qfh)
    if sgn(qvh) * sgn(d) < 0:
        return A, law(ga, qfh)
    if sgn(qfh) * sgn(d) < 0:
        return B, law(gb, qvh)
    if qfh:
        return A, law(ga, qfh)
    if qvh:
        return B, law(gb, qvh)
    return ORIGIN, 0


class CP:
    """The CP's state as eq. 25 defines it: its last m steps."""

    def __init__(self, a, m):
        self.a, self.m, self.q_old, self.u = a, m, 0, []

    def step(self, q, ev_sent):
        a = self.a
        ga, gb, gc, omega = gains(a.h_mhz, a.t_ns, self.m)
        qf, qv = q - a.q0, q - self.q_old
        self.q_old = q
        last = self.u[-self.m:] if self.m else []
        s1 = sum(last)
        s2 = sum(i * u for i, u in enumerate(reversed(last), 1))
        qfh, qvh = qf + self.m * qv + s2, qv + s1
        region, u = decide(qfh, qvh, ga, gb, gc, omega)
        u = max(-a.s, min(a.s, u))
        # the prediction goes on from what went out
        self.u.append(ev_sent)
        return qfh, qvh, u, region


def bounded(s, size):
    """The step that goes out: the law's, within the room if any."""
    u, room = s[3], s[6]
    return u if room < 0 else max(-room, min(size - room, u))


def sent_ok(s, a):
    """A sample's step counted as its CNM's F_b in bytes, or 0."""
    u = bounded(s, a.s)
    return s[4] in (0, kbps_bytes(fb_kbps(u, a.t_ns), a.t_ns))


def check_cp(a, samples, marks, out):
    """Every sample against eq. 25/24/27; the horizon's change located."""
    switch = None
    if a.then_m:
        at = marks.get(a.then_m[0])
        if at is None:
            out['errors'].append('no trace marker ' + a.then_m[0])
            return
        # the samples before the change follow m: find where that ends
        cp = CP(a, a.m)
        for i, s in enumerate(samples):
            if cp.step(s[0], s[4]) != (s[1], s[2], s[3], s[5]):
                switch = i
                break
        if switch is None or not at - 3 <= switch <= at:
            out['errors'].append('horizon changed at sample %s, marker at %d'
                                 % (switch, at))
            return
        out['switch_at'] = switch
    cp = CP(a, a.m)
    for i, s in enumerate(samples):
        if switch is not None and i == switch:
            q_old = cp.q_old
            cp = CP(a, int(a.then_m[1]))
            cp.q_old = q_old	# the change forgets the steps, not q
        got = cp.step(s[0], s[4])
        out['regions'][s[5]] += 1
        out['unsent'] += s[3] != 0 and s[4] == 0
        out['with_room'] += s[6] >= 0
        out['bounded'] += bounded(s, a.s) != s[3]
        if got != (s[1], s[2], s[3], s[5]) or not sent_ok(s, a):
            out['cp_mismatch'] += 1
            if len(out['errors']) < 5:
                out['errors'].append('sample %d: q %d: trace %s, rule %s' %
                                     (i, s[0], s[1:], got))


def fb_kbps(u, t_ns):
    """F_b in kbit/s of a step of u bytes per T, as the CP rounds it."""
    mag = min(abs(u) * 8 * 10**9 // t_ns, 1 << 62) // 1000
    mag = min(mag, 2**31 - 1 if u > 0 else 2**31)
    return mag if u >= 0 else -mag


def kbps_bytes(fb, t_ns):
    """The bytes per T of a step of fb kbit/s, rounded toward 0."""
    mag = abs(fb) * t_ns // 8000000
    return mag if fb >= 0 else -mag


def check_rp(a, dev, events, out):
    """r <- r + F_b within [r_min, line]; an RL starts at the line."""
    r = {}
    for da, cr, fb in events:
        want = max(a.r_min, min(a.line, r.get(da, a.line) + fb * 1000))
        out['rp_checked'] += 1
        if cr != want:
            out['rp_mismatch'] += 1
            if len(out['errors']) < 5:
                out['errors'].append('%s %s: cr %d after F_b %d, rule %d' %
                                     (dev, da, cr, fb, want))
        r[da] = cr if cr < a.line else a.line


def main():
    a = usage_args()
    samples, rx, marks, fb_to = [], {d: [] for d in a.rp_dev}, {}, {}
    with open(a.trace) as f:
        for line in f:
            m = SAMPLE.search(line)
            if m and m.group(1) == a.dev:
                samples.append(tuple(int(x) for x in m.groups()[1:]))
                continue
            m = TX.search(line)
            if m and m.group(1) == a.dev and samples:
                fb_to.setdefault(m.group(2), []).append(
                    fb_kbps(bounded(samples[-1], a.s), a.t_ns))
                continue
            m = RX.search(line)
            if m and m.group(1) in rx:
                rx[m.group(1)].append((m.group(2), int(m.group(3)),
                                       int(m.group(4))))
                continue
            m = MARK.search(line)
            if m:
                marks[m.group(1)] = len(samples)
    out = {'samples': len(samples), 'cp_mismatch': 0, 'regions': [0] * 4,
           'nonzero_u': sum(1 for s in samples if s[3]), 'unsent': 0,
           'with_room': 0, 'bounded': 0,
           'rp_checked': 0,
           'rp_mismatch': 0, 'fb_to': fb_to, 'errors': []}
    check_cp(a, samples, marks, out)
    for dev in a.rp_dev:
        check_rp(a, dev, rx[dev], out)
    json.dump(out, sys.stdout)
    print()


if __name__ == '__main__':
    main()
