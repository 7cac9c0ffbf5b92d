#!/usr/bin/awk -f
# SPDX-License-Identifier: GPL-2.0
#
# topo.awk: the DSM experiments' dumbbell in the HPCC topology.txt format:
# hosts 0..N-1 send to host N through switch N+2, the host N port the
# bottleneck; host N+1 only sends the flows that mark the run's window, to
# host 0 (its ACKs come back on a sender's NIC, but not toward host N,
# where that NIC's rate limiter would hold them). Each sender's link has
# its own delay, uniform in [LO, HI] ms with the seed (LO = HI: every link
# alike); the receiver's and the marker host's are 0.05 ms.
#
#   awk -v n=5 -v lo=25.2 -v hi=38 -v seed=1 -f topo.awk >topology-1.txt
BEGIN {
	if (n < 1 || hi < lo || seed == "") {
		print "usage: awk -v n=N -v lo=MS -v hi=MS -v seed=S [-v rate=20Mbps] -f topo.awk" >"/dev/stderr"
		exit 2
	}
	rate = rate ? rate : "20Mbps"
	srand(seed)
	printf "%d 1 %d\n%d\n", n + 3, n + 2, n + 2
	for (i = 0; i < n; i++)
		printf "%d %d %s %.3fms 0\n", i, n + 2, rate, lo + (hi - lo) * rand()
	printf "%d %d %s 0.05ms 0\n", n, n + 2, rate
	printf "%d %d %s 0.05ms 0\n", n + 1, n + 2, rate
}
