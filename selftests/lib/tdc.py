#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""
usage: tdc.py [-v] FILE.json...
       tdc.py -h | --help

Run tc-testing (tdc) JSON test cases and report TAP.

The case format is the kernel's tools/testing/selftests/tc-testing one
(id, name, category, setup, cmdUnderTest, expExitCode, verifyCmd,
matchPattern/matchCount or matchJSON, teardown). As the kernel's nsPlugin
does since 6.12, every case runs in a fresh network namespace holding a
veth pair $DEV0/$DEV1 and a dummy device $DUMMY. The runner moves into
it itself (unshare), so that its commands need no `ip netns exec` each:
in the guest that costs as much as the tc it would run (11 ms against
10 ms of guest time). $TC is Debian's tc, with TC_LIB_DIR pointing at
fcq's plugins; $FCQCTL is the tree's fcqctl; $TCRAW sends qdisc options
without tc (selftests/lib/tc_raw.py), for what the kernel does with values
the plugin refuses.

  -v  print every case's log, not only the failed ones

TESTS="ID..." in the environment runs only those cases, in the files'
order (as fcq's shell selftests take TESTS=).
"""
import ctypes
import json
import os
import re
import subprocess
import sys

TIMEOUT = 60
CLONE_NEWNET = 0x40000000
LIBC = ctypes.CDLL(None, use_errno=True)


def fresh_netns():
    """Move this process (and so every command it starts) into a new,
    empty network namespace; the previous one goes once its last
    process has."""
    if LIBC.unshare(CLONE_NEWNET):
        err = ctypes.get_errno()
        raise OSError(err, 'unshare(CLONE_NEWNET): ' + os.strerror(err))


def expand(text, names):
    # Whole names only: $TC must not eat the start of $TCRAW.
    return re.sub(r'\$([A-Z][A-Z0-9_]*)',
                  lambda m: names.get(m.group(1), m.group(0)), text)


# What only a shell can read: such a command goes to sh -c, any other
# is started directly. Under TCG a program's start is most of what a case
# costs, and the shell was one more per command.
SHELL_SYNTAX = re.compile(r'[|&;<>()$`\\"\'*?[\]{}~#=\n]')


def run(cmd, names):
    cmd = expand(cmd, names)
    argv = ['sh', '-c', cmd] if SHELL_SYNTAX.search(cmd) else cmd.split()
    try:
        proc = subprocess.run(argv, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, timeout=TIMEOUT,
                              text=True)
    except FileNotFoundError:
        return 127, '%s: not found\n' % argv[0]
    except PermissionError:
        return 126, '%s: permission denied\n' % argv[0]
    return proc.returncode, proc.stdout


def steps(case, key):
    for step in case.get(key, []):
        if isinstance(step, list):
            yield step[0], [int(c) for c in step[1:]] or [0]
        else:
            yield step, [0]


def json_match(want, got, path='$'):
    """Structural subset match, as tdc's matchJSON."""
    if isinstance(want, dict):
        if not isinstance(got, dict):
            return '%s: expected an object' % path
        for k, v in want.items():
            if k not in got:
                return '%s: missing key "%s"' % (path, k)
            err = json_match(v, got[k], '%s.%s' % (path, k))
            if err:
                return err
        return None
    if isinstance(want, list):
        if not isinstance(got, list) or len(got) < len(want):
            return '%s: expected a list of at least %d' % (path, len(want))
        for i, v in enumerate(want):
            err = json_match(v, got[i], '%s[%d]' % (path, i))
            if err:
                return err
        return None
    return None if want == got else '%s: expected %r, got %r' % (path, want, got)


def run_case(case, names):
    """Returns (ok, diagnostic lines)."""
    log = []
    fresh_netns()
    base = ('link add $DEV0 type veth peer name $DEV1\n'
            'link add $DUMMY type dummy\n'
            'link set $DEV0 up\nlink set $DEV1 up\nlink set $DUMMY up\n')
    proc = subprocess.run(['ip', '-batch', '-'], input=expand(base, names),
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          timeout=TIMEOUT, text=True)
    if proc.returncode:
        return False, ['namespace setup failed: ' + proc.stdout]
    for cmd, ok_rcs in steps(case, 'setup'):
        rc, out = run(cmd, names)
        if rc not in ok_rcs:
            return False, ['setup failed (rc %d): %s' % (rc, cmd), out]

    rc, out = run(case['cmdUnderTest'], names)
    log += ['cmdUnderTest: ' + case['cmdUnderTest'], 'rc %d' % rc, out]
    if str(rc) != str(case['expExitCode']):
        return False, log + ['expected exit code %s' % case['expExitCode']]

    out = ''
    if 'verifyCmd' in case:
        rc, out = run(case['verifyCmd'], names)
        log += ['verifyCmd: ' + case['verifyCmd'], out]
    if 'matchJSON' in case:
        try:
            err = json_match(case['matchJSON'], json.loads(out))
        except json.JSONDecodeError as e:
            err = 'output is not JSON: %s' % e
        if err:
            return False, log + [err]
    if 'matchPattern' in case:
        n = len(re.findall(case['matchPattern'], out))
        if n != int(case['matchCount']):
            return False, log + ['pattern %r matched %d times, expected %s'
                                 % (case['matchPattern'], n, case['matchCount'])]
    for cmd, ok_rcs in steps(case, 'teardown'):
        rc, out = run(cmd, names)
        if rc not in ok_rcs:
            return False, log + ['teardown failed (rc %d): %s' % (rc, cmd), out]
    return True, log


def main():
    args = sys.argv[1:]
    if '-h' in args or '--help' in args:
        sys.stdout.write(__doc__.lstrip())
        return 0
    bad = [a for a in args if a.startswith('-') and a != '-v']
    if bad:
        sys.stderr.write('tdc.py: unknown option %s\n' % bad[0])
        sys.stderr.write(__doc__.lstrip().split('\n\n')[0] + '\n')
        return 2
    verbose = '-v' in args
    files = [a for a in args if a != '-v']
    cases = []
    for f in files:
        with open(f) as fp:
            cases += json.load(fp)
    here = os.path.dirname(os.path.abspath(__file__))
    top = os.path.dirname(os.path.dirname(here))
    names = {
        'TC': '/sbin/tc',
        'IP': '/sbin/ip',
        'FCQCTL': '%s/build/tools/fcqctl' % top,
        'TCRAW': '%s/selftests/lib/tc_raw.py' % top,
        'DEV0': 'v0p0', 'DEV1': 'v0p1', 'DUMMY': 'dummy1',
    }
    os.environ['TC_LIB_DIR'] = '%s/build/tc' % top
    ids = [c['id'] for c in cases]
    dup = {i for i in ids if ids.count(i) > 1}
    chosen = os.environ.get('TESTS', '').split()
    unknown = [i for i in chosen if i not in ids]
    if unknown:
        sys.stderr.write('tdc.py: no case %s in %s\n'
                         % (unknown[0], ' '.join(files)))
        return 2
    if chosen:
        cases = [c for c in cases if c['id'] in chosen]
    print('TAP version 13')
    print('1..%d' % len(cases))
    failed = 0
    for n, case in enumerate(cases, 1):
        title = '%s - %s' % (case['id'], case['name'])
        if case['id'] in dup:
            print('not ok %d %s # duplicate id' % (n, title))
            failed += 1
            continue
        if case.get('skip') == 'yes':
            print('ok %d %s # SKIP marked skip' % (n, title))
            continue
        try:
            ok, log = run_case(case, names)
        except subprocess.TimeoutExpired as e:
            ok, log = False, ['timed out: %s' % e.cmd]
        print('%s %d %s' % ('ok' if ok else 'not ok', n, title))
        if not ok or verbose:
            for line in log:
                for sub in str(line).rstrip().splitlines():
                    print('# ' + sub)
        failed += not ok
        sys.stdout.flush()
    print('# Totals: pass:%d fail:%d' % (len(cases) - failed, failed))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
