#include "roofcast/model/prediction_grid.hpp"

#include <limits>

namespace roofcast {

namespace {
using Column = Eigen::ArrayXd;                   // one value per kernel
using Row = Eigen::Array<double, 1, Eigen::Dynamic>;  // one value per device
using Grid = Eigen::ArrayXXd;

template <typename Field>
Row device_row(std::span<const DeviceThroughput> devices, Field field) {
  Row row(static_cast<Eigen::Index>(devices.size()));
  for (Eigen::Index d = 0; d < row.size(); ++d) row(d) = field(devices[static_cast<size_t>(d)]);
  return row;
}

template <typename Field>
Column kernel_column(std::span<const KernelParameters> kernels, Field field) {
  Column column(static_cast<Eigen::Index>(kernels.size()));
  for (Eigen::Index k = 0; k < column.size(); ++k) column(k) = field(kernels[static_cast<size_t>(k)]);
  return column;
}

Grid outer(const Column& column, const Row& row) { return (column.matrix() * row.matrix()).array(); }
Grid repeat_column(const Column& column, Eigen::Index columns) { return column.replicate(1, columns); }
Grid repeat_row(const Row& row, Eigen::Index rows) { return row.replicate(rows, 1); }
}  // namespace

PredictionGrid predict_thesis_grid(std::span<const KernelParameters> kernels,
                                   std::span<const DeviceThroughput> devices) {
  const auto K = static_cast<Eigen::Index>(kernels.size());
  const auto D = static_cast<Eigen::Index>(devices.size());
  auto is = [](KernelType type) {
    return [type](const KernelParameters& k) { return k.type == type ? 1.0 : 0.0; };
  };
  const Row T_SP = device_row(devices, [](auto& d) { return d.fp32_gflops; });
  const Row B_mem = device_row(devices, [](auto& d) { return d.dram_gbps; });
  const Grid T_op = outer(kernel_column(kernels, is(KernelType::fp32)), T_SP) +
                    outer(kernel_column(kernels, is(KernelType::fp64)),
                          device_row(devices, [](auto& d) { return d.fp64_gflops; })) +
                    outer(kernel_column(kernels, is(KernelType::int32)),
                          device_row(devices, [](auto& d) { return d.int32_mad_giops; }));
  const Row W_ldst = (T_SP / 2) / device_row(devices, [](auto& d) { return d.shared_ldst_gops; });
  const Row W_other = (T_SP / 2) / device_row(devices, [](auto& d) { return d.int32_add_giops; });

  const Grid C_op = repeat_column(kernel_column(kernels, [](auto& k) { return k.D_ops; }), D) *
                    (repeat_row(T_SP, K) / T_op);
  const Grid C_ldst = outer(kernel_column(kernels, [](auto& k) { return k.D_ldst; }), W_ldst);
  const Grid C_other = outer(kernel_column(kernels, [](auto& k) { return k.D_other(); }), W_other);
  const Grid E_instr = C_op / (C_op + C_ldst + C_other);

  PredictionGrid grid;
  grid.T_op_adjusted = repeat_column(kernel_column(kernels, [](auto& k) { return k.E_mix; }), D) * E_instr * T_op;
  const Grid O_krn = repeat_column(kernel_column(kernels, [](auto& k) { return k.O_krn(); }), D);
  const Grid O_dev = grid.T_op_adjusted / repeat_row(B_mem, K);
  grid.compute_bound = O_krn > O_dev;
  const Grid compute_ms = repeat_column(kernel_column(kernels, [](auto& k) { return k.W_comp; }), D) /
                          grid.T_op_adjusted * 1e-6;
  const Grid memory_ms = repeat_column(kernel_column(kernels, [](auto& k) { return k.W_traf; }), D) /
                         repeat_row(B_mem, K) * 1e-6;
  grid.predicted_ms = grid.compute_bound.select(compute_ms, memory_ms);
  return grid;
}

}  // namespace roofcast
