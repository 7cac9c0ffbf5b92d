# WebSearch (DCTCP paper), HPCC's copy:
# alibaba-edu/High-Precision-Congestion-Control: traffic_gen/WebSearch_distribution.txt
# mean 1711250.0 bytes (HPCC getAvg: trapezoids); lines: size_bytes percent
0 0
10000 15
20000 20
30000 30
50000 40
80000 53
200000 60
1000000 70
2000000 80
5000000 90
10000000 97
30000000 100
