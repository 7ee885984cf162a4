#pragma once

namespace roofcast {

// A finite `number` in fmt's shortest form that reads back as `number` (fmt's "{}": "1", "-0",
// "0.001", "1e-05", "1e+16"), written at `out` (at most 24 bytes); returns its end. The one
// number writer of the JSON and CSV outputs.
char* write_shortest_number(double number, char* out);

}  // namespace roofcast
