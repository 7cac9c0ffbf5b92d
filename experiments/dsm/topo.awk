#!/usr/bin/awk -f
# SPDX-License-Identifier: GPL-2.0
#
# topo.awk: the DSM experiments' dumbbell in the HPCC topology.txt format:
# hosts 0..N-1 send to host N through switch N+1, the host N port the
# bottleneck. Each sender's link has its own delay, uniform in [LO, HI]
# ms with the seed (LO = HI: every link alike); the receiver's is 0.05 ms.
#
#   awk -v n=5 -v lo=25.2 -v hi=38 -v seed=1 -f topo.awk >topology-1.txt
BEGIN {
	if (n < 1 || hi < lo || seed == "") {
		print "usage: awk -v n=N -v lo=MS -v hi=MS -v seed=S [-v rate=20Mbps] -f topo.awk" >"/dev/stderr"
		exit 2
	}
	rate = rate ? rate : "20Mbps"
	srand(seed)
	printf "%d 1 %d\n%d\n", n + 2, n + 1, n + 1
	for (i = 0; i < n; i++)
		printf "%d %d %s %.3fms 0\n", i, n + 1, rate, lo + (hi - lo) * rand()
	printf "%d %d %s 0.05ms 0\n", n, n + 1, rate
}
