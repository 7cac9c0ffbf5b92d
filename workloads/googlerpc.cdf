# Google RPC 2008, selected points of HPCC's
# alibaba-edu/High-Precision-Congestion-Control: traffic_gen/GoogleRPC2008.txt:
# ONLY 18 of its 843 points, so the mean below is above that file's (2891.6 bytes).
# mean 4275.2 bytes (HPCC getAvg: trapezoids); lines: size_bytes percent
0 0
3 6.49
64 15.53
128 35.16
256 49.79
512 78.49
1024 86.32
2048 90.89
4096 93.5
8192 96.43
16384 98.47
32768 99.04
65536 99.33
131072 99.71
262144 99.85
524288 99.95
1047917 99.976
15158197 100
