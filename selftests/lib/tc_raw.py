#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""
usage: tc_raw.py [--change] DEV KIND ATTR=FMT:VALUES...
       tc_raw.py -h | --help

Send one RTM_NEWQDISC (root, handle 1:) whose TCA_OPTIONS holds exactly
the attributes given, bypassing tc and the plugin: what the kernel does with
values the plugin would refuse. Prints the kernel's extack message as tc
does ("Error: ...") and exits 2 if the kernel refused, 0 if it accepted.

  ATTR    attribute names from include/uapi/linux/*.h, outermost
          first, separated by "/": every name but the last is a nest
          (NLA_F_NESTED) inside TCA_OPTIONS; ATTRs that share a prefix share
          the nest. E.g. TCA_FCQ_SCHEME/TCA_FAFC_SOLVER.
  FMT     a Python struct format of the payload: B (u8), H (u16), I (u32),
          Q (u64), II (a bitfield32: value, selector).
  VALUES  comma-separated integers for FMT.
  --change  NLM_F_REPLACE-less change of an existing qdisc instead of create.
"""
import os
import re
import socket
import struct
import sys

NETLINK_ROUTE = 0
RTM_NEWQDISC = 36
NLM_F_REQUEST, NLM_F_ACK, NLM_F_EXCL, NLM_F_CREATE = 1, 4, 0x200, 0x400
NLA_F_NESTED = 0x8000
TCA_KIND, TCA_OPTIONS = 1, 2
SOL_NETLINK, NETLINK_CAP_ACK, NETLINK_EXT_ACK = 270, 10, 11
NLMSGERR_ATTR_MSG = 1
TC_H_ROOT = 0xFFFFFFFF


def uapi_names():
    """NAME -> value for every enum constant of fcq's uapi headers."""
    here = os.path.dirname(os.path.abspath(__file__))
    top = os.path.dirname(os.path.dirname(here))
    names = {}
    uapi = os.path.join(top, 'include/uapi/linux')
    for h in sorted(os.listdir(uapi)):
        with open(os.path.join(uapi, h)) as f:
            text = re.sub(r'/\*.*?\*/', '', f.read(), flags=re.S)
        for body in re.findall(r'enum\s*\w*\s*\{(.*?)\}', text, flags=re.S):
            val = -1
            for item in body.split(','):
                item = item.strip()
                if not item:
                    continue
                name, _, expr = item.partition('=')
                name, expr = name.strip(), expr.strip()
                val = (names[expr] if expr in names else int(expr, 0)) \
                    if expr else val + 1
                names[name] = val
    return names


def attr(atype, payload):
    return struct.pack('HH', len(payload) + 4, atype) + payload + \
        bytes(-len(payload) % 4)


def build(tree):
    """tree: list of (type, bytes) leaves or (type, subtree) nests, in order."""
    out = b''
    for atype, val in tree:
        if isinstance(val, list):
            out += attr(atype | NLA_F_NESTED, build(val))
        else:
            out += attr(atype, val)
    return out


def insert(tree, path, payload):
    for atype in path[:-1]:
        for t, sub in tree:
            if t == atype and isinstance(sub, list):
                tree = sub
                break
        else:
            sub = []
            tree.append((atype, sub))
            tree = sub
    tree.append((path[-1], payload))


def main(args):
    if not args or args[0] in ('-h', '--help'):
        sys.stdout.write(__doc__.lstrip())
        return 0 if args else 2
    change = args[0] == '--change'
    if change:
        args = args[1:]
    if len(args) < 3:
        sys.stderr.write(__doc__.lstrip().split('\n\n')[0] + '\n')
        return 2
    dev, kind, specs = args[0], args[1], args[2:]
    names = uapi_names()
    tree = []
    for spec in specs:
        m = re.fullmatch(r'([\w/]+)=(\w+):([-\d,]*)', spec)
        if not m:
            sys.stderr.write('tc_raw.py: bad ATTR=FMT:VALUES "%s"\n' % spec)
            return 2
        try:
            path = [names[n] for n in m.group(1).split('/')]
        except KeyError as e:
            sys.stderr.write('tc_raw.py: no attribute %s in the uapi\n' % e)
            return 2
        values = [int(v, 0) for v in m.group(3).split(',') if v]
        insert(tree, path, struct.pack(m.group(2), *values))
    tcm = struct.pack('BxxxiIII', socket.AF_UNSPEC, socket.if_nametoindex(dev),
                      0x10000, TC_H_ROOT, 0)
    body = tcm + attr(TCA_KIND, kind.encode() + b'\0') + \
        attr(TCA_OPTIONS | NLA_F_NESTED, build(tree))
    flags = NLM_F_REQUEST | NLM_F_ACK | \
        (0 if change else NLM_F_CREATE | NLM_F_EXCL)
    msg = struct.pack('IHHII', len(body) + 16, RTM_NEWQDISC, flags, 1, 0) + body
    s = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, NETLINK_ROUTE)
    s.setsockopt(SOL_NETLINK, NETLINK_EXT_ACK, 1)
    s.setsockopt(SOL_NETLINK, NETLINK_CAP_ACK, 1)
    s.send(msg)
    r = s.recv(65536)
    err = struct.unpack_from('i', r, 16)[0]
    # nlmsghdr, error, the request's nlmsghdr (capped), then the TLVs
    off = 16 + 4 + 16
    while off + 4 <= len(r):
        alen, atype = struct.unpack_from('HH', r, off)
        if alen < 4:
            break
        if atype == NLMSGERR_ATTR_MSG:
            print('Error:', r[off + 4:off + alen].rstrip(b'\0').decode())
        off += (alen + 3) & ~3
    return 2 if err else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
