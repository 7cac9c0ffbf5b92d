#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""
usage: nl_fuzz.py [--sets N] [--seed S] DEV KIND...
       nl_fuzz.py -h | --help

Random netlink option sets for each fcq KIND on dummy device DEV, sent
straight to the kernel (no tc, no plugin): N per kind (default 5000), each
an add, change, replace or delete of the root qdisc whose TCA_OPTIONS
hold attributes of the uapi headers (port, scheme and nested ones) and
unknown ones, of wrong lengths, with boundary and random values, nested
where they should not be and not where they should, repeated. After every
accepted request the qdisc must dump. Every refusal must carry an extack
message. Then the qdisc must take a valid configuration and, deleted and
added again, pass packets.

TAP on stdout, a test per kind: its counts (accepted, refused by reason)
and any request refused without a message, which fails it. The kernel's
own log is the guest runner's to judge (no oops, WARNING or hang).
"""
import os
import random
import re
import socket
import struct
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tc_raw  # noqa: E402

RTM_NEWQDISC, RTM_DELQDISC, RTM_GETQDISC = 36, 37, 38
NLM_F_REQUEST, NLM_F_ACK, NLM_F_DUMP = 1, 4, 0x300
NLM_F_REPLACE, NLM_F_EXCL, NLM_F_CREATE = 0x100, 0x200, 0x400
NLMSG_ERROR, NLMSG_DONE = 2, 3
TCA_KIND, TCA_OPTIONS = 1, 2
NLA_F_NESTED = 0x8000

# The scheme's own attributes: prefix, and nests of theirs to leave out
# (statistics, or the elements of an array option, fuzzed as its children).
SCHEMES = {
    'pfc': ('TCA_PFC_', ('TCA_PFC_QUANTA_',)),
    'fafc': ('TCA_FAFC_', ('TCA_FAFC_STATS_',)),
    'ofc': ('TCA_OFC_', ('TCA_OFC_STATS_', 'TCA_OFC_QUANTA_')),
    'flowsail': ('TCA_FLOWSAIL_', ('TCA_FLOWSAIL_STATS_', 'TCA_FLOWSAIL_Q_')),
    'qcn': ('TCA_QCN_', ('TCA_QCN_STATS_',)),
    'qcnrp': ('TCA_QCNRP_', ('TCA_QCNRP_STATS_', 'TCA_QCNRP_RL_')),
}
PORT_SKIP = ('TCA_FCQ_STATS_', 'TCA_FCQ_PRIO_', 'TCA_FCQ_KP_',
             'TCA_FCQ_QHIST_', 'TCA_FCQ_DSCP_PRIO')
BOUNDS = [0, 1, 2, 3, 7, 8, 63, 64, 255, 256, 1000, 65535, 65536,
          1000000, 999999999, 1000000000, 2**31 - 1, 2**31, 2**32 - 1,
          2**32, 2**63 - 1, 2**63, 2**64 - 1]


def kinds_of(top):
    """NAME -> 'u8', 'u16', 'u32', 'u64', 'bitfield32' or 'nested', from
    the comment each attribute has in the uapi headers."""
    out = {}
    uapi = os.path.join(top, 'include/uapi/linux')
    for h in sorted(os.listdir(uapi)):
        with open(os.path.join(uapi, h)) as f:
            for m in re.finditer(r'\b(TCA_\w+),\s*/\*\s*(u8|u16|u32|u64|'
                                 r'bitfield32|nested)', f.read()):
                out[m.group(1)] = m.group(2)
    return out


SIZE = {'u8': 1, 'u16': 2, 'u32': 4, 'u64': 8, 'bitfield32': 8}


def attrs(names, prefix, skip):
    """The attribute numbers of @prefix, without the enums' bookkeeping."""
    out = []
    for n, v in names.items():
        if not n.startswith(prefix) or any(n.startswith(s) for s in skip):
            continue
        if n.endswith(('_UNSPEC', '_PAD', '_MAX')) or n.startswith('__'):
            continue
        out.append(v)
    return sorted(set(out))


def value(rng, size=None):
    """A payload: a boundary or random integer of @size bytes (most of
    the time, if given) or of 1, 2, 4 or 8, or random bytes of a random
    length."""
    r = rng.random()
    if size and r < 0.85:
        pass
    elif r < 0.75:
        size = rng.choice((1, 2, 4, 8, 4, 4))
    else:
        size = None
    if size:
        v = rng.choice(BOUNDS) if rng.random() < 0.7 else \
            rng.getrandbits(8 * size)
        return (v % (1 << (8 * size))).to_bytes(size, 'little')
    return bytes(rng.getrandbits(8) for _ in range(rng.choice((0, 3, 5, 12,
                                                               16, 40))))


def tree(rng, types, nests, sizes):
    """A random list of attributes of @types (and a few unknown), each a
    payload, of its size (@sizes) most of the time, or, where it is a nest
    (and by chance elsewhere), a nest of small types."""
    out = []
    # few attributes mostly, so that some sets pass the kernel's checks
    for _ in range(rng.choice((0, 1, 1, 2, 2, 3, 6))):
        t = rng.choice(types) if rng.random() < 0.9 else \
            max(types) + rng.randint(1, 5)
        nest = (t in nests) == (rng.random() < 0.9)
        if nest:
            # an array option's elements are u8 or u32 (fcq_u32s_take)
            out.append((t, [(rng.randint(0, 3), value(rng, rng.choice((1, 4))))
                            for _ in range(rng.randint(0, 10))]))
        else:
            out.append((t, value(rng, sizes.get(t))))
        if rng.random() < 0.05 and out:
            out.append(out[-1])        # a repeated attribute
    return out


class Nl:
    def __init__(self):
        self.s = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, 0)
        self.s.setsockopt(tc_raw.SOL_NETLINK, tc_raw.NETLINK_EXT_ACK, 1)
        self.s.setsockopt(tc_raw.SOL_NETLINK, tc_raw.NETLINK_CAP_ACK, 1)
        self.seq = 0

    def request(self, mtype, flags, body):
        """Send; returns (errno, extack message or None) of the ack, or
        the number of replies of a dump."""
        self.seq += 1
        self.s.send(struct.pack('IHHII', len(body) + 16, mtype,
                                flags | NLM_F_REQUEST | NLM_F_ACK,
                                self.seq, 0) + body)
        replies = 0
        while True:
            data = self.s.recv(1 << 20)
            off = 0
            while off + 16 <= len(data):
                mlen, t, _, seq, _ = struct.unpack_from('IHHII', data, off)
                if mlen < 16:
                    return (-1, 'bad reply')
                if seq == self.seq and t in (NLMSG_ERROR, NLMSG_DONE):
                    if t == NLMSG_DONE:
                        return (0, replies)
                    err = struct.unpack_from('i', data, off + 16)[0]
                    return (-err, self.extack(data[off:off + mlen]))
                replies += seq == self.seq
                off += (mlen + 3) & ~3

    @staticmethod
    def extack(msg):
        off = 16 + 4 + 16
        while off + 4 <= len(msg):
            alen, atype = struct.unpack_from('HH', msg, off)
            if alen < 4:
                break
            if atype & 0x3fff == tc_raw.NLMSGERR_ATTR_MSG:
                return msg[off + 4:off + alen].rstrip(b'\0').decode()
            off += (alen + 3) & ~3
        return None


def tcmsg(ifindex):
    return struct.pack('BxxxiIII', socket.AF_UNSPEC, ifindex, 0x10000,
                       tc_raw.TC_H_ROOT, 0)


def qdisc(ifindex, kind, opts):
    return tcmsg(ifindex) + tc_raw.attr(TCA_KIND, kind.encode() + b'\0') + \
        tc_raw.attr(TCA_OPTIONS | NLA_F_NESTED, tc_raw.build(opts))


def usable(dev, ifindex, kind, nl):
    """A valid request is taken, and the kind, added afresh, passes 200
    packets. A replace of the qdisc the fuzz left is a change, which keeps
    every option it does not name: a fuzzed limit of 3 packets dropped 197
    of them (seed 1796569749, fafc), which says nothing of the kernel."""
    err, msg = nl.request(RTM_NEWQDISC, NLM_F_CREATE | NLM_F_REPLACE,
                          qdisc(ifindex, kind, []))
    if err:
        return 'a valid replace failed: %d %s' % (err, msg)
    err, msg = nl.request(RTM_DELQDISC, 0, tcmsg(ifindex))
    if err:
        return 'a delete failed: %d %s' % (err, msg)
    err, msg = nl.request(RTM_NEWQDISC, NLM_F_CREATE | NLM_F_EXCL,
                          qdisc(ifindex, kind, []))
    if err:
        return 'an add with the defaults failed: %d %s' % (err, msg)
    before = sent(dev)
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_BINDTODEVICE, dev.encode())
    for _ in range(200):
        s.sendto(b'x' * 100, ('192.0.2.2', 9))
    s.close()
    for _ in range(50):
        if sent(dev) - before >= 200:
            return None
        time.sleep(0.1)
    return '%d of 200 packets passed' % (sent(dev) - before)


def sent(dev):
    with open('/sys/class/net/%s/statistics/tx_packets' % dev) as f:
        return int(f.read())


def fuzz(dev, kind, sets, rng, names, akind, nl):
    ifindex = socket.if_nametoindex(dev)
    port = attrs(names, 'TCA_FCQ_', PORT_SKIP)
    prefix, skip = SCHEMES[kind]
    own = attrs(names, prefix, skip)
    # Attribute sizes by number, apart for the port's and the scheme's.
    psize = {names[n]: SIZE[k] for n, k in akind.items()
             if n.startswith('TCA_FCQ_') and k in SIZE and
             not n.startswith(PORT_SKIP)}
    osize = {names[n]: SIZE[k] for n, k in akind.items()
             if n.startswith(prefix) and k in SIZE and
             not n.startswith(skip)}
    nests = {names[n] for n, k in akind.items()
             if n.startswith('TCA_FCQ_') and k == 'nested' and
             not n.startswith(PORT_SKIP)} - {names['TCA_FCQ_SCHEME']}
    own_nests = {names[n] for n, k in akind.items()
                 if n.startswith(prefix) and k == 'nested' and
                 not n.startswith(skip)}
    counts = {'accepted': 0}
    silent = []
    exists = False
    for i in range(sets):
        opts = tree(rng, port, nests, psize)
        if rng.random() < 0.8:
            opts.append((names['TCA_FCQ_SCHEME'],
                         tree(rng, own, own_nests, osize)))
        rng.shuffle(opts)
        op = rng.choice(('add', 'change', 'change', 'replace', 'replace',
                         'del') if exists else
                        ('add', 'add', 'add', 'replace', 'change', 'del'))
        if op == 'del':
            err, msg = nl.request(RTM_DELQDISC, 0, tcmsg(ifindex))
        else:
            flags = {'add': NLM_F_CREATE | NLM_F_EXCL, 'change': 0,
                     'replace': NLM_F_CREATE | NLM_F_REPLACE}[op]
            err, msg = nl.request(RTM_NEWQDISC, flags,
                                  qdisc(ifindex, kind, opts))
        if err == 0:
            exists = op != 'del'
            counts['accepted'] += 1
            derr, _ = nl.request(RTM_GETQDISC, NLM_F_DUMP, tcmsg(0))
            if derr:
                silent.append('%s: dump failed (%d) after %r' % (op, derr, opts))
            continue
        counts[os.strerror(err)] = counts.get(os.strerror(err), 0) + 1
        # Deleting what is not there is the qdisc layer's plain ENOENT.
        if msg is None and op != 'del':
            silent.append('%s refused (%s) without a message: %r'
                          % (op, os.strerror(err), opts))
    return counts, silent, usable(dev, ifindex, kind, nl)


def main(args):
    if not args or args[0] in ('-h', '--help'):
        sys.stdout.write(__doc__.lstrip())
        return 0 if args else 2
    sets, seed = 5000, int(time.time())
    while args and args[0].startswith('--'):
        if args[0] == '--sets':
            sets = int(args[1])
        elif args[0] == '--seed':
            seed = int(args[1])
        else:
            sys.stderr.write('nl_fuzz.py: unknown option %s\n' % args[0])
            return 2
        args = args[2:]
    if len(args) < 2 or any(k not in SCHEMES for k in args[1:]):
        sys.stderr.write(__doc__.lstrip().split('\n\n')[0] + '\n')
        return 2
    dev, kinds = args[0], args[1:]
    names = tc_raw.uapi_names()
    akind = kinds_of(os.path.dirname(os.path.dirname(
        os.path.dirname(os.path.abspath(__file__)))))
    nl = Nl()
    print('TAP version 13')
    print('1..%d' % len(kinds))
    print('# seed %d (--seed reruns the same sets)' % seed)
    rc = 0
    for i, kind in enumerate(kinds, 1):
        rng = random.Random('%d-%s' % (seed, kind))
        t0 = time.time()
        counts, silent, broken = fuzz(dev, kind, sets, rng, names, akind, nl)
        nl.request(RTM_DELQDISC, 0, tcmsg(socket.if_nametoindex(dev)))
        what = ', '.join('%s %d' % kv for kv in sorted(counts.items()))
        ok = not silent and not broken
        print('%s %d %s: %d option sets in %.0fs (%s)'
              % ('ok' if ok else 'not ok', i, kind, sets,
                 time.time() - t0, what))
        for s in silent[:5]:
            print('# ' + re.sub(r'\s+', ' ', s)[:400])
        if len(silent) > 5:
            print('# ... %d more' % (len(silent) - 5))
        if broken:
            print('# after the fuzz: ' + broken)
        rc |= not ok
        sys.stdout.flush()
    return rc


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
