# The flows of Experiment E2 (flowsail-e2.exp) for one seed, as an HPCC
# flow.txt ("src dst pg dport size start_s" by start time):
#
#   awk -v seed=S -f flows.awk >flow-S.txt
#
# Hosts 0-3 (H1-H4) hang off leaf 8, hosts 4-7 (H5-H8) off leaf 9.
# Incast: from 1 s on, every 5 s (the paper's 100 ms at 1 Gbit/s, scaled
# to 20 Mbit/s), 48 flows into H8 (7), 12 from each of H1-H4, each its
# own connection, of U[50 kB, 200 kB] (dport 200). RPCs: H3 (2) to H7 (6),
# Poisson at 10 % of 20 Mbit/s, of U[1 kB, 10 kB], from 0 to 15 s.
# awk's rand() is the awk's own: the flow-S.txt files in the tree are the
# experiment's flows; this says how they were drawn.
function add(t, s, d, port, size) {
	n++
	T[n] = t; L[n] = s " " d " 3 " port " " size
}
BEGIN {
	srand(seed)
	for (b = 0; b < 3; b++)
		for (h = 0; h < 4; h++)
			for (i = 0; i < 12; i++)
				add(1 + 5 * b, h, 7, 200, 50000 + int(rand() * 150001))
	mean = 5500 * 8 / (0.1 * 20e6)	# s between RPCs
	for (t = -log(1 - rand()) * mean; t < 15; t += -log(1 - rand()) * mean)
		add(t, 2, 6, 100, 1000 + int(rand() * 9001))
	for (i = 2; i <= n; i++)	# insertion sort by time, stable
		for (j = i; j > 1 && T[j - 1] > T[j]; j--) {
			x = T[j]; T[j] = T[j - 1]; T[j - 1] = x
			x = L[j]; L[j] = L[j - 1]; L[j - 1] = x
		}
	print n
	for (i = 1; i <= n; i++)
		printf "%s %.9f\n", L[i], T[i]
}
