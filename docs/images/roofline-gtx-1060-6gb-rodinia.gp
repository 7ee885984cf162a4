# Roofline of GTX-1060 6GB: kernels of thesis-rodinia
# Written by roofcast. Restyle it by editing this script, then rerun it from its folder:
#   gnuplot 'roofline-gtx-1060-6gb-rodinia.gp'      (or: gnuplot -e "output_file='other.svg'" ...)
set terminal pngcairo size 1250,650 noenhanced font 'Sans,10' background rgb 'white'
if (!exists('output_file')) output_file = 'roofline-gtx-1060-6gb-rodinia.png'
set output output_file
set encoding utf8

data = 'roofline-gtx-1060-6gb-rodinia.dat'
set title 'Roofline of GTX-1060 6GB: kernels of thesis-rodinia' font ',13'
set logscale xy 10
set xrange [0.01:10000]
set yrange [1:10000]
set xlabel 'Operational intensity (operations per DRAM byte)'
set ylabel 'Performance (GFLOP/s; GIOP/s for integer)'
set format x '%g'
set format y '%.0f'
set grid xtics ytics mxtics mytics lc rgb '#e4e4e4' lw 1, lc rgb '#f4f4f4' lw 1
set lmargin at screen 0.08
set rmargin at screen 0.64164
set bmargin at screen 0.1
set tmargin at screen 0.9
set datafile missing '?'

# Ceiling labels: value and unit of each roof.
set label 'DRAM 161.6 GB/s' at 0.0199526, 3.22514 left rotate by 48.0 offset -0.6,0.9 textcolor rgb '#000000' font ',11'
set label 'fp32 4610 GFLOP/s' at screen 0.6368, 0.8496 right textcolor rgb '#0072b2' font ',11'
set label 'int32 MAD 1534 GIOP/s' at screen 0.6368, 0.7540 right textcolor rgb '#009e73' font ',11'
set label 'fp64 145 GFLOP/s' at screen 0.6368, 0.5492 right textcolor rgb '#d55e00' font ',11'

set key at screen 0.657, 0.030 left bottom Left reverse box opaque samplen 2 spacing 1.1 font ',10'
# Numbered key of the kernels (right margin): number, name, type, bound, predicted time, share.
set label 'Kernels as the thesis model predicts them (size = share of time)' at screen 0.657, 0.930 left font ',10'
set label '  # kernel               type bound    pred. ms time' at screen 0.657, 0.887 left font 'Monospace,9'
set label '  1 3d-htsp              fp32 memory      7.825   5%' at screen 0.657, 0.862 left font 'Monospace,9' textcolor rgb '#0072b2'
set label '  2 btr-fnd              int  compute     0.265  <1%' at screen 0.657, 0.837 left font 'Monospace,9' textcolor rgb '#009e73'
set label '  3 btr-rng              int  compute     0.284  <1%' at screen 0.657, 0.812 left font 'Monospace,9' textcolor rgb '#009e73'
set label '  4 bp-adj               fp32 memory      0.120  <1%' at screen 0.657, 0.786 left font 'Monospace,9' textcolor rgb '#0072b2'
set label '  5 bp-fwd               fp32 compute     0.074  <1%' at screen 0.657, 0.761 left font 'Monospace,9' textcolor rgb '#0072b2'
set label '  6 bfs-k1               int  memory      2.593   2%' at screen 0.657, 0.736 left font 'Monospace,9' textcolor rgb '#009e73'
set label '  7 bfs-k2               int  compute     0.184  <1%' at screen 0.657, 0.711 left font 'Monospace,9' textcolor rgb '#009e73'
set label '  8 dwt-cpy              int  memory      0.098  <1%' at screen 0.657, 0.685 left font 'Monospace,9' textcolor rgb '#009e73'
set label '  9 dwt-krn              int  memory      0.162  <1%' at screen 0.657, 0.660 left font 'Monospace,9' textcolor rgb '#009e73'
set label ' 10 e3d-flux             fp32 memory      3.902   3%' at screen 0.657, 0.635 left font 'Monospace,9' textcolor rgb '#0072b2'
set label ' 11 e3d-sfac             fp32 memory      0.339  <1%' at screen 0.657, 0.609 left font 'Monospace,9' textcolor rgb '#0072b2'
set label ' 12 e3d-init             int  memory      0.036  <1%' at screen 0.657, 0.584 left font 'Monospace,9' textcolor rgb '#009e73'
set label ' 13 e3d-step             fp32 memory      2.283   2%' at screen 0.657, 0.559 left font 'Monospace,9' textcolor rgb '#0072b2'
set label ' 14 hspt-tmp             fp32 compute     0.060  <1%' at screen 0.657, 0.534 left font 'Monospace,9' textcolor rgb '#0072b2'
set label ' 15 hs-pack              int  memory      0.841   1%' at screen 0.657, 0.508 left font 'Monospace,9' textcolor rgb '#009e73'
set label ' 16 hs-srtf              fp32 memory      0.833   1%' at screen 0.657, 0.483 left font 'Monospace,9' textcolor rgb '#0072b2'
set label ' 17 km-map               int  memory      3.784   3%' at screen 0.657, 0.458 left font 'Monospace,9' textcolor rgb '#009e73'
set label ' 18 km-pt                fp32 memory      4.292   3%' at screen 0.657, 0.433 left font 'Monospace,9' textcolor rgb '#0072b2'
set label ' 19 lvmd-krn             fp64 compute     106.7  74%' at screen 0.657, 0.407 left font 'Monospace,9' textcolor rgb '#d55e00'
set label ' 20 lct-dil              fp32 compute     0.864   1%' at screen 0.657, 0.382 left font 'Monospace,9' textcolor rgb '#0072b2'
set label ' 21 lct-gic              fp32 compute     3.090   2%' at screen 0.657, 0.357 left font 'Monospace,9' textcolor rgb '#0072b2'
set label ' 22 mum-krn              int  memory      0.760   1%' at screen 0.657, 0.332 left font 'Monospace,9' textcolor rgb '#009e73'
set label ' 23 mum-prt              int  memory      0.640  <1%' at screen 0.657, 0.306 left font 'Monospace,9' textcolor rgb '#009e73'
set label ' 24 nn-euc               fp32 memory     0.0017  <1%' at screen 0.657, 0.281 left font 'Monospace,9' textcolor rgb '#0072b2'
set label ' 25 pfnd-krn             int  compute     0.425  <1%' at screen 0.657, 0.256 left font 'Monospace,9' textcolor rgb '#009e73'
set label ' 26 pvl-huff             int  compute     0.831   1%' at screen 0.657, 0.231 left font 'Monospace,9' textcolor rgb '#009e73'
set label ' 27 srad-c1              fp32 memory      1.266   1%' at screen 0.657, 0.205 left font 'Monospace,9' textcolor rgb '#0072b2'
set label ' 28 srad-c2              fp32 memory      1.465   1%' at screen 0.657, 0.180 left font 'Monospace,9' textcolor rgb '#0072b2'

# Roofs, then measured sweeps, then kernels.
plot data index 0 using 1:2:($3-$1):($4-$2):5 with vectors nohead lw 2.5 lc rgb variable notitle, \
     data index 1 using 1:2:($3-$1):($4-$2) with vectors nohead lw 2.5 lc rgb '#000000' notitle, \
     data index 2 using 2:3:4:5 with points pt 7 ps variable lc rgb variable notitle, \
     data index 2 using 2:3:(int($1) % 2 ? sprintf('%d', $1) : '') with labels offset char 1.1,0.7 font ',9' notitle, \
     data index 2 using 2:3:(int($1) % 2 ? '' : sprintf('%d', $1)) with labels offset char -1.1,-0.7 font ',9' notitle, \
     keyentry with points pt 7 ps 1.3 lc rgb '#d55e00' title 'fp64 kernel, predicted', \
     keyentry with points pt 7 ps 1.3 lc rgb '#0072b2' title 'fp32 kernel, predicted', \
     keyentry with points pt 7 ps 1.3 lc rgb '#009e73' title 'int kernel, predicted'
