# Roofline of GTX-1060 6GB: kernels of thesis-rodinia
# Written by roofcast. Restyle it by editing this script, then rerun it from its folder:
#   gnuplot 'roofline-gtx-1060-6gb-rodinia.gp'      (or: gnuplot -e "output_file='other.svg'" ...)
set terminal pngcairo size 1343,650 noenhanced font 'Sans,10' background rgb 'white'
if (!exists('output_file')) output_file = 'roofline-gtx-1060-6gb-rodinia.png'
set output output_file
set encoding utf8

data = 'roofline-gtx-1060-6gb-rodinia.dat'
set title 'Roofline of GTX-1060 6GB: kernels of thesis-rodinia' font ',13'
set logscale xy 10
set xrange [0.01:10000]
set yrange [1:10000]
set xtics ('10⁻²' 0.01000000001, '10⁻¹' 0.1, '10⁰' 1, '10¹' 10, '10²' 100, '10³' 1000, '10⁴' 10000)
set ytics ('10⁰' 1.000000001, '10¹' 10, '10²' 100, '10³' 1000, '10⁴' 10000)
set mxtics 10
set mytics 10
set xlabel 'Operational intensity (operations per DRAM byte)'
set ylabel 'Performance (GFLOP/s; GIOP/s for integer)'
set grid xtics ytics mxtics mytics lc rgb '#e4e4e4' lw 1, lc rgb '#f4f4f4' lw 1
set lmargin at screen 0.0745
set rmargin at screen 0.5361
set bmargin at screen 0.1000
set tmargin at screen 0.9000
set datafile missing '?'

# Roofs' labels, beside their ends; slopes' labels along them.
set label 'fp32 4610 GFLOP/s' at screen 0.5480, 0.8327 left textcolor rgb '#0072b2' font ',10'
set arrow from screen 0.5361, 0.8327 to screen 0.5458, 0.8327 nohead lw 1.5 lc rgb '#0072b2'
set label 'int32 MAD 1534 GIOP/s' at screen 0.5480, 0.7371 left textcolor rgb '#009e73' font ',10'
set arrow from screen 0.5361, 0.7371 to screen 0.5458, 0.7371 nohead lw 1.5 lc rgb '#009e73'
set label 'fp64 145 GFLOP/s' at screen 0.5480, 0.5323 left textcolor rgb '#d55e00' font ',10'
set arrow from screen 0.5361, 0.5323 to screen 0.5458, 0.5323 nohead lw 1.5 lc rgb '#d55e00'
set label 'DRAM 161.6 GB/s' at screen 0.0784, 0.1785 left rotate by 51.52 textcolor rgb '#000000' font ',10'

set key at screen 0.6732, 0.0300 left bottom Left reverse box opaque samplen 2 spacing 1.1 font ',10'
# Numbered key of the kernels (right margin): number, name, type, bound, predicted time, share.
set label 'Kernels as the thesis model predicts them (size = share of time)' at screen 0.6732, 0.9344 left font ',10'
set label '  # kernel   type bound    pred. ms time' at screen 0.6732, 0.9000 left font 'Monospace,9'
set label '  1 3d-htsp  fp32 memory      7.825   5%' at screen 0.6732, 0.8750 left font 'Monospace,9' textcolor rgb '#0072b2'
set label '  2 btr-fnd  int  compute     0.265  <1%' at screen 0.6732, 0.8499 left font 'Monospace,9' textcolor rgb '#009e73'
set label '  3 btr-rng  int  compute     0.284  <1%' at screen 0.6732, 0.8249 left font 'Monospace,9' textcolor rgb '#009e73'
set label '  4 bp-adj   fp32 memory      0.120  <1%' at screen 0.6732, 0.7998 left font 'Monospace,9' textcolor rgb '#0072b2'
set label '  5 bp-fwd   fp32 compute     0.074  <1%' at screen 0.6732, 0.7748 left font 'Monospace,9' textcolor rgb '#0072b2'
set label '  6 bfs-k1   int  memory      2.593   2%' at screen 0.6732, 0.7497 left font 'Monospace,9' textcolor rgb '#009e73'
set label '  7 bfs-k2   int  compute     0.184  <1%' at screen 0.6732, 0.7247 left font 'Monospace,9' textcolor rgb '#009e73'
set label '  8 dwt-cpy  int  memory      0.098  <1%' at screen 0.6732, 0.6997 left font 'Monospace,9' textcolor rgb '#009e73'
set label '  9 dwt-krn  int  memory      0.162  <1%' at screen 0.6732, 0.6746 left font 'Monospace,9' textcolor rgb '#009e73'
set label ' 10 e3d-flux fp32 memory      3.902   3%' at screen 0.6732, 0.6496 left font 'Monospace,9' textcolor rgb '#0072b2'
set label ' 11 e3d-sfac fp32 memory      0.339  <1%' at screen 0.6732, 0.6245 left font 'Monospace,9' textcolor rgb '#0072b2'
set label ' 12 e3d-init int  memory      0.036  <1%' at screen 0.6732, 0.5995 left font 'Monospace,9' textcolor rgb '#009e73'
set label ' 13 e3d-step fp32 memory      2.283   2%' at screen 0.6732, 0.5745 left font 'Monospace,9' textcolor rgb '#0072b2'
set label ' 14 hspt-tmp fp32 compute     0.060  <1%' at screen 0.6732, 0.5494 left font 'Monospace,9' textcolor rgb '#0072b2'
set label ' 15 hs-pack  int  memory      0.841   1%' at screen 0.6732, 0.5244 left font 'Monospace,9' textcolor rgb '#009e73'
set label ' 16 hs-srtf  fp32 memory      0.833   1%' at screen 0.6732, 0.4993 left font 'Monospace,9' textcolor rgb '#0072b2'
set label ' 17 km-map   int  memory      3.784   3%' at screen 0.6732, 0.4743 left font 'Monospace,9' textcolor rgb '#009e73'
set label ' 18 km-pt    fp32 memory      4.292   3%' at screen 0.6732, 0.4492 left font 'Monospace,9' textcolor rgb '#0072b2'
set label ' 19 lvmd-krn fp64 compute     106.7  74%' at screen 0.6732, 0.4242 left font 'Monospace,9' textcolor rgb '#d55e00'
set label ' 20 lct-dil  fp32 compute     0.864   1%' at screen 0.6732, 0.3992 left font 'Monospace,9' textcolor rgb '#0072b2'
set label ' 21 lct-gic  fp32 compute     3.090   2%' at screen 0.6732, 0.3741 left font 'Monospace,9' textcolor rgb '#0072b2'
set label ' 22 mum-krn  int  memory      0.760   1%' at screen 0.6732, 0.3491 left font 'Monospace,9' textcolor rgb '#009e73'
set label ' 23 mum-prt  int  memory      0.640  <1%' at screen 0.6732, 0.3240 left font 'Monospace,9' textcolor rgb '#009e73'
set label ' 24 nn-euc   fp32 memory     0.0017  <1%' at screen 0.6732, 0.2990 left font 'Monospace,9' textcolor rgb '#0072b2'
set label ' 25 pfnd-krn int  compute     0.425  <1%' at screen 0.6732, 0.2740 left font 'Monospace,9' textcolor rgb '#009e73'
set label ' 26 pvl-huff int  compute     0.831   1%' at screen 0.6732, 0.2489 left font 'Monospace,9' textcolor rgb '#009e73'
set label ' 27 srad-c1  fp32 memory      1.266   1%' at screen 0.6732, 0.2239 left font 'Monospace,9' textcolor rgb '#0072b2'
set label ' 28 srad-c2  fp32 memory      1.465   1%' at screen 0.6732, 0.1988 left font 'Monospace,9' textcolor rgb '#0072b2'

# Each kernel's number beside its point.
set label '19' at screen 0.3620, 0.5059 center front font ',9'
set label '1' at screen 0.2464, 0.5475 center front font ',9'
set label '18' at screen 0.2286, 0.4955 center front font ',9'
set label '10' at screen 0.3071, 0.6999 center front font ',9'
set label '17' at screen 0.1869, 0.3877 center front font ',9'
set label '21' at screen 0.4524, 0.7130 center front font ',9'
set label '6' at screen 0.2003, 0.4305 center front font ',9'
set label '13' at screen 0.2101, 0.4491 center front font ',9'
set label '28' at screen 0.1836, 0.4699 center front font ',9'
set label '27' at screen 0.2858, 0.6469 center front font ',9'
set label '20' at screen 0.3454, 0.5626 center front font ',9'
set label '15' at screen 0.2263, 0.5801 center front font ',9'
set label '16' at screen 0.1705, 0.4509 center front font ',9'
set label '26' at screen 0.3491, 0.6548 center front font ',9'
set label '22' at screen 0.1967, 0.5030 center front font ',9'
set label '23' at screen 0.1992, 0.3901 center front font ',9'
set label '25' at screen 0.2820, 0.6167 center front font ',9'
set label '11' at screen 0.2666, 0.6840 center front font ',9'
set label '3' at screen 0.3139, 0.6621 center front font ',9'
set label '2' at screen 0.3162, 0.6260 center front font ',9'
set label '7' at screen 0.2615, 0.6607 center front font ',9'
set label '9' at screen 0.2639, 0.5992 center front font ',9'
set label '4' at screen 0.2205, 0.4602 center front font ',9'
set label '8' at screen 0.2422, 0.6025 center front font ',9'
set label '5' at screen 0.1765, 0.3705 center front font ',9'
set label '14' at screen 0.3020, 0.6193 center front font ',9'
set label '12' at screen 0.2138, 0.5432 center front font ',9'
set label '24' at screen 0.2489, 0.6341 center front font ',9'

# Roofs, then measured sweeps, then kernels.
plot data index 0 using 1:2:($3-$1):($4-$2):5 with vectors nohead lw 2.5 lc rgb variable notitle, \
     data index 1 using 1:2:($3-$1):($4-$2) with vectors nohead lw 2.5 lc rgb '#000000' notitle, \
     data index 2 using 2:3:4:5 with points pt 7 ps variable lc rgb variable notitle, \
     data index 3 using 1:2:($3-$1):($4-$2) with vectors nohead lw 0.8 lc rgb '#888888' notitle, \
     keyentry with points pt 7 ps 1.3 lc rgb '#d55e00' title 'fp64 kernel, predicted', \
     keyentry with points pt 7 ps 1.3 lc rgb '#0072b2' title 'fp32 kernel, predicted', \
     keyentry with points pt 7 ps 1.3 lc rgb '#009e73' title 'int kernel, predicted'
