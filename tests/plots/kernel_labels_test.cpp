// Kernel names in charts: shortened, and never two different kernels with one label.
#include <catch2/catch.hpp>

#include <set>

#include "kernel_labels.hpp"
#include "label_boxes.hpp"

using namespace roofcast::gnuplot;

TEST_CASE("device names keep their parentheses") {
  const auto labels = distinct_short_names({"NVIDIA H100 80GB HBM3", "NVIDIA H100 80GB HBM3 (MPS 50%)"}, 32, false);
  CHECK(labels[0] == "NVIDIA H100 80GB HBM3");
  CHECK(labels[1] == "NVIDIA H100 80GB HBM3 (MPS 50%)");
}

TEST_CASE("short kernel labels drop the signature and keep head and tail") {
  const auto labels = distinct_short_names(
      {"sor_red", "void at::native::vectorized_elementwise_kernel<4, at::native::AddFunctor<float>>(int, float*)"}, 24);
  CHECK(labels[0] == "sor_red");
  CHECK(labels[1] == "vectori...Functor,float>");
  CHECK(labels[1].size() <= 24);
}

TEST_CASE("library kernels that differ only in the middle get distinct labels") {
  std::vector<std::string> names;
  for (const char* op : {"AddFunctor", "MulFunctor", "DivFunctor", "SubFunctor"})
    names.push_back("void at::native::elementwise_kernel<128, 2, at::native::" + std::string(op) +
                    "<float>, at::detail::Array<char*, 3>>(int, float*)");
  names.push_back(names[0]);  // the same kernel twice keeps one label
  const auto labels = distinct_short_names(names, 24);
  REQUIRE(labels.size() == names.size());
  CHECK(std::set<std::string>(labels.begin(), labels.begin() + 4).size() == 4);
  CHECK(labels[4] == labels[0]);
  for (const auto& label : labels) CHECK(label.size() <= 24);
  // The template argument that differs tells them apart, not a number.
  CHECK(labels[0] == "element...el<AddFunctor>");
  CHECK(labels[3] == "element...el<SubFunctor>");
}

TEST_CASE("PyTorch's kernels: compact names, and the template arguments that tell instances apart") {
  CHECK(compact_kernel_name("void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctorOnSelf_add<float>, "
                            "std::array<char*, 2ul> >(int, at::native::CUDAFunctorOnSelf_add<float>, std::array<char*, 2ul>)") ==
        "vectorized_elementwise_kernel<4,CUDAFunctorOnSelf_add<float>,array<char*,2ul>>");
  // A lambda is named after the function it is in.
  CHECK(compact_kernel_name("void at::native::vectorized_elementwise_kernel<4, at::native::GeluCUDAKernelImpl("
                            "at::TensorIteratorBase&, at::native::GeluType)::{lambda()#2}::operator()() const::"
                            "{lambda()#1}::operator()() const::{lambda(float)#1}, std::array<char*, 2ul> >(int, float)") ==
        "vectorized_elementwise_kernel<4,GeluCUDAKernelImpl,array<char*,2ul>>");
  CHECK(compact_kernel_name("void at::native::(anonymous namespace)::cunn_SoftMaxForwardReg<float, float, float, "
                            "at::native::(anonymous namespace)::SoftMaxForwardEpilogue, long, 8>(float*, float const*, long)") ==
        "cunn_SoftMaxForwardReg<float,float,float,SoftMaxForwardEpilogue,long,8>");
  CHECK(compact_kernel_name("sm80_xmma_gemm_f32f32_f32f32_f32_nn_n") == "sm80_xmma_gemm_f32f32_f32f32_f32_nn_n");
  CHECK(compact_kernel_name("(int)") == "(int)");

  const std::vector<std::string> reductions{
      "void at::native::reduce_kernel<512, 1, at::native::ReduceOp<double, at::native::NormTwoOps<double, double, "
      "double, true>, unsigned int, double, 4, 4> >(at::native::ReduceOp<double>)",
      "void at::native::reduce_kernel<512, 1, at::native::ReduceOp<double, at::native::func_wrapper_t<double, "
      "at::native::MaxNanFunctor<double> >, unsigned int, double, 4, 4> >(at::native::ReduceOp<double>)",
      "void at::native::reduce_kernel<512, 1, at::native::ReduceOp<float, at::native::func_wrapper_t<float, "
      "at::native::sum_functor<float, float, float>::operator()(at::TensorIterator&)::{lambda(float, float)#1}>, "
      "unsigned int, float, 4, 4> >(at::native::ReduceOp<float>)"};
  const auto labels = readable_kernel_names(reductions, 52);
  CHECK(labels[0] == "reduce_kernel<double,NormTwoOps,true>");
  CHECK(labels[1] == "reduce_kernel<double,func_wrapper_t,MaxNanFunctor>");
  CHECK(labels[2] == "reduce_kernel<float,func_wrapper_t,sum_functor>");
}

TEST_CASE("short labels never cut a UTF-8 character") {
  const auto labels = distinct_short_names({std::string(30, 'a') + "\xc3\xa9\xc3\xa9\xc3\xa9" + std::string(30, 'b')}, 11);
  CHECK(labels[0] == "aa...bbbbbb");
  const auto cut_in_name = distinct_short_names({"\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9"}, 9);
  for (const auto& label : cut_in_name) {
    INFO(label);
    CHECK(label.size() <= 9);
    CHECK((static_cast<unsigned char>(label.front()) & 0xC0) != 0x80);
  }
}

TEST_CASE("label boxes: a label goes to the first free candidate, none when all are taken") {
  LabelBoxes boxes({0, 100, 0, 100});
  REQUIRE(boxes.place({{10, 50, 10, 20}}));
  const auto second = boxes.place({{20, 60, 15, 25}, {20, 60, 30, 40}});
  REQUIRE(second);
  CHECK(second->top == 30);
  CHECK_FALSE(boxes.place({{0, 100, 0, 100}}));
  CHECK_FALSE(boxes.place({{90, 110, 50, 60}}));  // beyond the area
  CHECK(boxes.placed().size() == 2);
}
