# VL2 data mining, from TritonNetworking/opera-sim: Figure1_traffic/datamining.csv
# (identical: inet-tub/ns3-datacenter: simulator/ns-3.39/examples/ABM/datamining.csv);
# its fractions converted to percent.
# mean 5036535.2 bytes (HPCC getAvg: trapezoids); lines: size_bytes percent
100 0
180 8.5
250 14
560 33
900 47
1100 55
1870 65
3160 70
10000 80
100001 87.4
400000 90
1850000 95
10000000 97
30000000 98
100000000 99
250000000 99.5
1000000000 100
