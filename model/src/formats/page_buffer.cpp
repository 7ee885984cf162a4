#include "roofcast/formats/page_buffer.hpp"

#include <new>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace roofcast {

namespace {

// Below this, huge pages would save little and waste most of a 2 MiB page.
constexpr size_t kHugePagesFrom = size_t{8} << 20;

}  // namespace

PageBuffer::PageBuffer(size_t size) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  if (size >= kHugePagesFrom) {
    void* mapped = ::mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (mapped == MAP_FAILED) throw std::bad_alloc();
    ::madvise(mapped, size, MADV_HUGEPAGE);  // a hint: refused (huge pages off), the pages are 4 KiB
    data_ = std::unique_ptr<char[], Release>(static_cast<char*>(mapped), Release{size});
    return;
  }
#endif
  data_ = std::unique_ptr<char[], Release>(new char[size], Release{0});
}

void PageBuffer::Release::operator()(char* data) const {
#if defined(__linux__)
  if (mapped_bytes != 0) {
    ::munmap(data, mapped_bytes);
    return;
  }
#endif
  delete[] data;
}

}  // namespace roofcast
