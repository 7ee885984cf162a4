# Quadrant split of kernel sor_red (fp64, O_krn = 0.3019 ops/byte)
# Written by roofcast. Restyle it by editing this script, then rerun it from its folder:
#   gnuplot 'quadrant-sor-red.gp'      (or: gnuplot -e "output_file='other.svg'" ...)
set terminal pngcairo size 1200,650 noenhanced font 'Sans,10' background rgb 'white'
if (!exists('output_file')) output_file = 'quadrant-sor-red.png'
set output output_file
set encoding utf8

data = 'quadrant-sor-red.dat'
set label 'Quadrant split of kernel sor_red (fp64, O_krn = 0.3019 ops/byte)' at screen 0.5, 0.95 center font ',14'
set logscale xy 10
set xtics ('70' 70, '80' 80, '90' 90, '100' 100, '200' 200)
set ytics ('20' 20, '50' 50, '100' 100, '200' 200, '500' 500, '1000' 1000)
set xrange [61.6786:228.704]
set yrange [16.291:1844.93]
set xlabel 'Memory bandwidth B_mem (GB/s)'
set ylabel 'Compute throughput T_op (fp64 GFLOP/s)'
set grid lc rgb '#e4e4e4'
set lmargin at screen 0.08
set rmargin at screen 0.6033444444444445
set bmargin at screen 0.1
set tmargin at screen 0.9
set key at screen 0.6233444444444445, 0.9 left top Left reverse box opaque samplen 1.2 spacing 1.3 font ',10'
set style fill solid 1.0 noborder

set label 'memory bound (above the line)' at screen 0.0867, 0.8776 left front textcolor rgb '#a0522d' font ',11'
set label 'compute bound (below the line)' at screen 0.4009, 0.1224 left front textcolor rgb '#1f5f8b' font ',11'

set label 'GTX-1060 6GB' at screen 0.4720, 0.4698 left front font ',10'
set label 'GTX-480' at screen 0.4763, 0.5102 left front font ',10'
set label 'GTX-660' at screen 0.3449, 0.3885 left front font ',10'
set label 'GTX-960' at screen 0.2217, 0.3885 left front font ',10'
set label 'Tesla K20c' at screen 0.4467, 0.8205 left front font ',10'
set label 'Tesla M2050' at screen 0.3089, 0.6822 left front font ',10'
set tics front
plot data index 0 using 1:2 with filledcurves closed lc rgb '#fbe3cf' title 'memory-bound region', \
     data index 1 using 1:2 with filledcurves closed lc rgb '#d6e8f5' title 'compute-bound region', \
     data index 2 using 1:2 with lines lw 2.5 lc rgb '#000000' title 'kernel: y = 0.3019 x (O_krn)', \
     data index 3 using 1:2:($3-$1):($4-$2):11 with vectors nohead dashtype 2 lw 1.3 lc rgb variable notitle, \
     data index 3 using 3:4:($5-$3):($6-$4):11 with vectors head size screen 0.010,25 filled lw 2 lc rgb variable notitle, \
     data index 3 using 3:4:13:11 with points pt 6 ps variable lw 1.5 lc rgb variable title 'T''_op = E_mix x E_instr x T_op', \
     data index 3 using 7:8:14:11 with points pt 13 ps variable lc rgb variable title 'predicted: on the kernel''s line', \
     keyentry with lines lw 0 lc rgb '#ffffff' title ' ', \
     keyentry with lines lw 0 lc rgb '#ffffff' title 'T_op -> T'' -> predicted (GFLOP/s), bound, time', \
     data index 3 every ::0::0 using 1:2:12 with points pt 7 ps variable lc rgb '#0072b2' title 'GTX-1060 6GB: 145 -> 60.8 -> 48.79, memory, 20.63 ms', \
     data index 3 every ::1::1 using 1:2:12 with points pt 7 ps variable lc rgb '#d55e00' title 'GTX-480: 184.1 -> 51.07 -> 49.31, memory, 20.41 ms', \
     data index 3 every ::2::2 using 1:2:12 with points pt 7 ps variable lc rgb '#009e73' title 'GTX-660: 89.7 -> 28.92 -> 28.92, compute, 34.80 ms', \
     data index 3 every ::3::3 using 1:2:12 with points pt 7 ps variable lc rgb '#cc79a7' title 'GTX-960: 89.67 -> 37.1 -> 26.07, memory, 38.62 ms', \
     data index 3 every ::4::4 using 1:2:12 with points pt 7 ps variable lc rgb '#e69f00' title 'Tesla K20c: 1153 -> 91.13 -> 45.8, memory, 21.98 ms', \
     data index 3 every ::5::5 using 1:2:12 with points pt 7 ps variable lc rgb '#56b4e9' title 'Tesla M2050: 508.9 -> 55.12 -> 32.43, memory, 31.04 ms'
