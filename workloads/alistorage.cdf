# Alibaba storage 2019, HPCC's copy:
# alibaba-edu/High-Precision-Congestion-Control: traffic_gen/AliStorage2019.txt
# mean 40869.8 bytes (HPCC getAvg: trapezoids); lines: size_bytes percent
0 0
4000 22.93
8000 69.21
16000 80.61
32000 90.47
64000 93.53
128000 96.77
256000 97.53
2000000 100
