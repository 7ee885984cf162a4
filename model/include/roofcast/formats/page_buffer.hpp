#pragma once

#include <cstddef>
#include <memory>

namespace roofcast {

// Bytes that are not zeroed first, for a large file's text. A buffer of many megabytes is mapped
// with transparent huge pages asked for (Linux, madvise): filling 90 MB of 4 KiB pages costs a
// page fault and a TLB miss every 4 KiB, which on a virtual machine took 0.4 s, ten times the read
// itself (docs/scale/README.md). Smaller buffers, and other systems, come from operator new.
class PageBuffer {
 public:
  PageBuffer() = default;
  explicit PageBuffer(size_t size);

  char* data() const { return data_.get(); }
  explicit operator bool() const { return data_ != nullptr; }

 private:
  struct Release {
    size_t mapped_bytes;  // 0: from operator new
    void operator()(char* data) const;
  };
  std::unique_ptr<char[], Release> data_;
};

}  // namespace roofcast
