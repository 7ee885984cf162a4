#pragma once

// Where gnuplot drew each text of a chart, as the box its glyphs cover, read from the chart's SVG
// (the PNG has the same geometry: the terminals draw text the same size, gnuplot_text.cpp), and
// the checks that no text covers another, a line of the plot or a point marker.

#include <array>
#include <string>
#include <vector>

#include "xml_tree.hpp"

namespace roofcast::testing {

struct Corner {
  double x = 0, y = 0;
};

// A text's box: the rectangle from its first glyph's left to its last glyph's right, from the
// font's ascender to its descender, turned as the text is.
struct DrawnText {
  std::string text;
  std::array<Corner, 4> corners;
  double left() const, right() const, top() const, bottom() const;
};

// Every non-empty text of the SVG. Widths come from the fonts' metrics (label_boxes.hpp),
// positions and turns from gnuplot's transforms.
std::vector<DrawnText> drawn_texts(const XmlElement& svg);

// A straight piece of a line drawn by a plot element (gnuplot_plot_N), in SVG pixels.
struct Segment {
  Corner from, to;
};
// The stroked lines of the plot elements (roofs, slopes, arrows, the kernel's line...); filled
// areas, the grid, the border and the tics are not among them.
std::vector<Segment> plotted_lines(const XmlElement& svg);

// A point marker of a plot element: its centre and radius in SVG pixels.
struct Marker {
  Corner centre;
  double radius = 0;
  std::string color;
};
std::vector<Marker> plotted_markers(const XmlElement& svg);

bool overlaps(const DrawnText& a, const DrawnText& b);
bool crosses(const DrawnText& text, const Segment& segment);
bool covers(const DrawnText& text, const Marker& marker);

// "text A" covers "text B" lines, one per pair of texts that overlap (empty when none does).
std::vector<std::string> overlapping_texts(const std::vector<DrawnText>& texts);

}  // namespace roofcast::testing
