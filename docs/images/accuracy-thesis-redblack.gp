# Prediction accuracy (thesis model) of sor_red
# Written by roofcast. Restyle it by editing this script, then rerun it from its folder:
#   gnuplot 'accuracy-thesis-redblack.gp'      (or: gnuplot -e "output_file='other.svg'" ...)
set terminal pngcairo size 1200,820 noenhanced font 'Sans,10' background rgb 'white'
if (!exists('output_file')) output_file = 'accuracy-thesis-redblack.png'
set output output_file
set encoding utf8

data = 'accuracy-thesis-redblack.dat'
set datafile missing '?'
set multiplot title 'Prediction accuracy (thesis model) of sor_red' font ',14'
set label 1 '6 predictions on 6 devices. Measured times: stored in profile thesis-redblack (not a roofcast validate run)' at screen 0.5, 0.925 center font ',10' textcolor rgb '#555555'

# Left: predicted vs measured time, log-log.
set lmargin at screen 0.07
set rmargin at screen 0.47
set bmargin at screen 0.36
set tmargin at screen 0.89
set logscale xy 10
set xrange [10:100]
set yrange [10:100]
set xtics ('10' 10, '20' 20, '50' 50, '100' 100)
set ytics ('10' 10, '20' 20, '50' 50, '100' 100)
set format x '%g'
set format y '%g'
set xlabel 'Measured time (ms)'
set ylabel 'Predicted time (ms)'
set grid xtics ytics mxtics mytics lc rgb '#e4e4e4' lw 1, lc rgb '#f4f4f4' lw 1
set key at screen 0.27, screen 0.27 center top box font ',10' spacing 1.1 samplen 1.5
plot data index 0 using 1:2:3 with filledcurves lc rgb '#e8e8e8' title 'within 25 %', \
     data index 0 using 1:1 with lines lw 1.5 lc rgb '#444444' title 'predicted = measured', \
     data index 1 using 1:2 with points pt 7 ps 1.6 lc rgb '#0072b2' title 'GTX-1060 6GB', \
     data index 1 using 1:3 with points pt 6 ps 1.6 lw 1.5 lc rgb '#0072b2' notitle, \
     data index 3 using 1:2 with points pt 7 ps 1.6 lc rgb '#d55e00' title 'GTX-480', \
     data index 3 using 1:3 with points pt 6 ps 1.6 lw 1.5 lc rgb '#d55e00' notitle, \
     data index 5 using 1:2 with points pt 7 ps 1.6 lc rgb '#009e73' title 'GTX-660', \
     data index 5 using 1:3 with points pt 6 ps 1.6 lw 1.5 lc rgb '#009e73' notitle, \
     data index 7 using 1:2 with points pt 7 ps 1.6 lc rgb '#cc79a7' title 'GTX-960', \
     data index 7 using 1:3 with points pt 6 ps 1.6 lw 1.5 lc rgb '#cc79a7' notitle, \
     data index 9 using 1:2 with points pt 7 ps 1.6 lc rgb '#e69f00' title 'Tesla K20c', \
     data index 9 using 1:3 with points pt 6 ps 1.6 lw 1.5 lc rgb '#e69f00' notitle, \
     data index 11 using 1:2 with points pt 7 ps 1.6 lc rgb '#56b4e9' title 'Tesla M2050', \
     data index 11 using 1:3 with points pt 6 ps 1.6 lw 1.5 lc rgb '#56b4e9' notitle, \
     keyentry with points pt 6 ps 1.6 lc rgb '#444444' title 'corrected by E_util (hollow)'

# Right: cumulative distribution of the absolute percentage error.
unset label 1
set lmargin at screen 0.56
set rmargin at screen 0.97
set bmargin at screen 0.36
set tmargin at screen 0.89
unset logscale
set xtics auto
set ytics auto
set xrange [0:50]
set yrange [0:105]
set format x '%g'
set format y '%g'
set xlabel 'Absolute percentage error |predicted - measured| / measured (%)'
set ylabel 'Predictions with at most this error (%)'
set arrow 1 from 25, 0 to 25, 105 nohead dashtype 2 lc rgb '#888888'
set label 2 '25 %' at 25, 102 left offset 0.5,0 font ',9' textcolor rgb '#666666'
set key at screen 0.765, screen 0.27 center top box font ',10' spacing 1.1 samplen 1.5 title 'median APE | within 25 %'
plot data index 2 using 1:2 with steps lw 2 lc rgb '#0072b2' title 'GTX-1060 6GB: 1.7 % | 100 %', \
     data index 4 using 1:2 with steps lw 2 lc rgb '#d55e00' title 'GTX-480: 4.9 % | 100 %', \
     data index 6 using 1:2 with steps lw 2 lc rgb '#009e73' title 'GTX-660: 0.1 % | 100 %', \
     data index 8 using 1:2 with steps lw 2 lc rgb '#cc79a7' title 'GTX-960: 0.4 % | 100 %', \
     data index 10 using 1:2 with steps lw 2 lc rgb '#e69f00' title 'Tesla K20c: 6.4 % | 100 %', \
     data index 12 using 1:2 with steps lw 2 lc rgb '#56b4e9' title 'Tesla M2050: 7.0 % | 100 %', \
     data index 13 using 1:2 with steps lw 3.5 lc rgb '#000000' title 'all 6 predictions: 3.3 % | 100 %'
unset multiplot
