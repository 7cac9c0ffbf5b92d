#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# dsm-trace.sh [FCQ_CNSIM]: draws dsm-trace.png, the queue over time in
# the DSM paper's model (fcq-cnsim, at its 10 Gbit/s, five sources, seed
# 1) under DSM, DSM without prediction and QCN, at a loop delay of 300 us
# and, for DSM, at 320 us (4 T exactly). Needs gnuplot.
set -eu
cd "$(dirname "$0")"
sim=${1:-../../build/tools/fcq-cnsim}
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
"$sim" -d 300us -t 50ms --trace "$t/dsm.dat" >/dev/null
"$sim" -d 320us -t 50ms --trace "$t/dsm320.dat" >/dev/null
"$sim" -d 300us -m 0 -t 50ms --trace "$t/m0.dat" >/dev/null
"$sim" -a qcn -d 300us -t 50ms --trace "$t/qcn.dat" >/dev/null
gnuplot <<GP
set terminal pngcairo size 900,420 noenhanced font 'sans,10'
set output 'dsm-trace.png'
set title 'fcq-cnsim: 10 Gbit/s, five sources starting at C, B 128 kB, q0 64 kB'
set xlabel 'time (ms)'
set ylabel 'queue (kB)'
set yrange [0:132]
set key outside right
plot '$t/dsm.dat' using (\$1/1e3):(\$2/1e3) with lines lw 1.5 lc rgb '#0072b2' title 'DSM, 300 us (m 4)', \
     '$t/dsm320.dat' using (\$1/1e3):(\$2/1e3) with lines lw 1.5 lc rgb '#56b4e9' title 'DSM, 320 us (m 4)', \
     '$t/m0.dat' using (\$1/1e3):(\$2/1e3) with lines lw 1.5 lc rgb '#d55e00' title 'DSM m 0, 300 us', \
     '$t/qcn.dat' using (\$1/1e3):(\$2/1e3) with lines lw 1.5 lc rgb '#009e73' title 'QCN, 300 us', \
     64 with lines dt 2 lc rgb '#999999' title 'q0'
GP
