#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""
usage: pause_reaction.py TRACE SWITCH_DEV:HOST_DEV...
       pause_reaction.py -h | --help

From the fcq:pause_tx / fcq:pause_rx events in a tracefs `trace` file, the
time from a switch port starting to serialize an XOFF until the upstream
sender's serializer falls silent for the paused class (the `stop` of the
matching pause_rx on the host end of the link). Frames on a link are matched
in order. Only XOFFs that start a pause count (not refreshes).

Prints one JSON object: n, p50, p90, p99, max (ns) and the samples.
"""
import json
import re
import sys

EV = re.compile(r'(pause_tx|pause_rx): dev=(\S+) .*?enable=0x([0-9a-f]+) '
                r'quanta=([\d,]+) (start|now)=(\d+) (release|stop)=(\d+)')


def main():
    args = sys.argv[1:]
    if '-h' in args or '--help' in args:
        sys.stdout.write(__doc__.lstrip())
        return 0
    bad = [a for a in args if a.startswith('-')]
    if not args or bad:
        if bad:
            sys.stderr.write('pause_reaction.py: unknown option %s\n' % bad[0])
        sys.stderr.write(__doc__.lstrip().split('\n\n')[0] + '\n')
        return 2
    tx, rx = {}, {}
    with open(args[0]) as f:
        for line in f:
            m = EV.search(line)
            if not m:
                continue
            kind, dev, enable, quanta = m.group(1), m.group(2), int(m.group(3), 16), \
                [int(q) for q in m.group(4).split(',')]
            t1, t2 = int(m.group(6)), int(m.group(8))
            (tx if kind == 'pause_tx' else rx).setdefault(dev, []).append(
                (enable, quanta, t1, t2))
    samples = []
    for pair in args[1:]:
        sw, host = pair.split(':')
        paused = set()
        for (en, q, start, _), (ren, rq, now, stop) in zip(tx.get(sw, []), rx.get(host, [])):
            for p in range(8):
                if not en & (1 << p):
                    continue
                if q[p] and p not in paused:
                    samples.append(stop - start)
                if q[p]:
                    paused.add(p)
                else:
                    paused.discard(p)
    samples.sort()

    def pct(x):
        return samples[min(len(samples) - 1, int(x * len(samples)))] if samples else None

    print(json.dumps({'n': len(samples), 'p50': pct(0.5), 'p90': pct(0.9),
                      'p99': pct(0.99), 'max': samples[-1] if samples else None,
                      'samples': samples}))


if __name__ == '__main__':
    sys.exit(main())
