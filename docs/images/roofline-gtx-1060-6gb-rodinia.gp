# Roofline of GTX-1060 6GB: kernels of thesis-rodinia
# Written by roofcast. Restyle it by editing this script, then rerun it from its folder:
#   gnuplot 'roofline-gtx-1060-6gb-rodinia.png'      (or: gnuplot -e "output_file='other.svg'" ...)
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
set rmargin at screen 0.62
set bmargin at screen 0.1
set tmargin at screen 0.9
set key top left box opaque samplen 2 spacing 1.1 font ',10'
set datafile missing '?'

# Ceiling labels: value and unit of each roof.
set label 'fp32 4610 GFLOP/s' at 10000, 4609.54 right offset -0.5,0.7 textcolor rgb '#0072b2' font ',11'
set label 'int32 MAD 1534 GIOP/s' at 10000, 1533.61 right offset -0.5,0.7 textcolor rgb '#009e73' font ',11'
set label 'fp64 145 GFLOP/s' at 10000, 145.02 right offset -0.5,0.7 textcolor rgb '#d55e00' font ',11'
set label 'DRAM 161.6 GB/s' at 0.0199526, 3.22514 left rotate by 49.1 offset -0.6,0.9 textcolor rgb '#000000' font ',11'

# Numbered key of the kernels (right margin): number, name, type, bound, predicted time, share.
set label 'Kernels as the thesis model predicts them (size = share of time)' at screen 0.635, 0.930 left font ',10'
set label ' 1 3d-htsp          fp32 memory     7.825 ms   5 %' at screen 0.635, 0.885 left font 'Monospace,9' textcolor rgb '#0072b2'
set label ' 2 btr-fnd          int  compute    0.265 ms  <1 %' at screen 0.635, 0.856 left font 'Monospace,9' textcolor rgb '#009e73'
set label ' 3 btr-rng          int  compute    0.284 ms  <1 %' at screen 0.635, 0.827 left font 'Monospace,9' textcolor rgb '#009e73'
set label ' 4 bp-adj           fp32 memory     0.120 ms  <1 %' at screen 0.635, 0.797 left font 'Monospace,9' textcolor rgb '#0072b2'
set label ' 5 bp-fwd           fp32 compute    0.074 ms  <1 %' at screen 0.635, 0.768 left font 'Monospace,9' textcolor rgb '#0072b2'
set label ' 6 bfs-k1           int  memory     2.593 ms   2 %' at screen 0.635, 0.739 left font 'Monospace,9' textcolor rgb '#009e73'
set label ' 7 bfs-k2           int  compute    0.184 ms  <1 %' at screen 0.635, 0.709 left font 'Monospace,9' textcolor rgb '#009e73'
set label ' 8 dwt-cpy          int  memory     0.098 ms  <1 %' at screen 0.635, 0.680 left font 'Monospace,9' textcolor rgb '#009e73'
set label ' 9 dwt-krn          int  memory     0.162 ms  <1 %' at screen 0.635, 0.651 left font 'Monospace,9' textcolor rgb '#009e73'
set label '10 e3d-flux         fp32 memory     3.902 ms   3 %' at screen 0.635, 0.622 left font 'Monospace,9' textcolor rgb '#0072b2'
set label '11 e3d-sfac         fp32 memory     0.339 ms  <1 %' at screen 0.635, 0.592 left font 'Monospace,9' textcolor rgb '#0072b2'
set label '12 e3d-init         int  memory     0.036 ms  <1 %' at screen 0.635, 0.563 left font 'Monospace,9' textcolor rgb '#009e73'
set label '13 e3d-step         fp32 memory     2.283 ms   2 %' at screen 0.635, 0.534 left font 'Monospace,9' textcolor rgb '#0072b2'
set label '14 hspt-tmp         fp32 compute    0.060 ms  <1 %' at screen 0.635, 0.504 left font 'Monospace,9' textcolor rgb '#0072b2'
set label '15 hs-pack          int  memory     0.841 ms   1 %' at screen 0.635, 0.475 left font 'Monospace,9' textcolor rgb '#009e73'
set label '16 hs-srtf          fp32 memory     0.833 ms   1 %' at screen 0.635, 0.446 left font 'Monospace,9' textcolor rgb '#0072b2'
set label '17 km-map           int  memory     3.784 ms   3 %' at screen 0.635, 0.416 left font 'Monospace,9' textcolor rgb '#009e73'
set label '18 km-pt            fp32 memory     4.292 ms   3 %' at screen 0.635, 0.387 left font 'Monospace,9' textcolor rgb '#0072b2'
set label '19 lvmd-krn         fp64 compute    106.7 ms  74 %' at screen 0.635, 0.358 left font 'Monospace,9' textcolor rgb '#d55e00'
set label '20 lct-dil          fp32 compute    0.864 ms   1 %' at screen 0.635, 0.328 left font 'Monospace,9' textcolor rgb '#0072b2'
set label '21 lct-gic          fp32 compute    3.090 ms   2 %' at screen 0.635, 0.299 left font 'Monospace,9' textcolor rgb '#0072b2'
set label '22 mum-krn          int  memory     0.760 ms   1 %' at screen 0.635, 0.270 left font 'Monospace,9' textcolor rgb '#009e73'
set label '23 mum-prt          int  memory     0.640 ms  <1 %' at screen 0.635, 0.241 left font 'Monospace,9' textcolor rgb '#009e73'
set label '24 nn-euc           fp32 memory    0.0017 ms  <1 %' at screen 0.635, 0.211 left font 'Monospace,9' textcolor rgb '#0072b2'
set label '25 pfnd-krn         int  compute    0.425 ms  <1 %' at screen 0.635, 0.182 left font 'Monospace,9' textcolor rgb '#009e73'
set label '26 pvl-huff         int  compute    0.831 ms   1 %' at screen 0.635, 0.153 left font 'Monospace,9' textcolor rgb '#009e73'
set label '27 srad-c1          fp32 memory     1.266 ms   1 %' at screen 0.635, 0.123 left font 'Monospace,9' textcolor rgb '#0072b2'
set label '28 srad-c2          fp32 memory     1.465 ms   1 %' at screen 0.635, 0.094 left font 'Monospace,9' textcolor rgb '#0072b2'

# Roofs, then measured sweeps, then kernels.
plot data index 0 using 1:2:($3-$1):($4-$2):5 with vectors nohead lw 2.5 lc rgb variable notitle, \
     data index 1 using 1:2:($3-$1):($4-$2) with vectors nohead lw 2.5 lc rgb '#000000' notitle, \
     data index 2 using 2:3:4:5 with points pt 7 ps variable lc rgb variable notitle, \
     data index 2 using 2:3:(int($1) % 2 ? sprintf('%d', $1) : '') with labels offset char 1.1,0.7 font ',9' notitle, \
     data index 2 using 2:3:(int($1) % 2 ? '' : sprintf('%d', $1)) with labels offset char -1.1,-0.7 font ',9' notitle, \
     keyentry with points pt 7 ps 1.3 lc rgb '#d55e00' title 'fp64 kernel, predicted', \
     keyentry with points pt 7 ps 1.3 lc rgb '#0072b2' title 'fp32 kernel, predicted', \
     keyentry with points pt 7 ps 1.3 lc rgb '#009e73' title 'int kernel, predicted'
