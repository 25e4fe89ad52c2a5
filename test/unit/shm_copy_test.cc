#include "transport/shm.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

namespace {

// Copies `bytes` from `src + from_shift` to `dst + to_shift` and checks every byte of the
// destination buffer: the copied range equals the source, the rest is untouched.
void check_copy(size_t bytes, size_t to_shift, size_t from_shift) {
  std::vector<unsigned char> src(bytes + 128), dst(bytes + 256, 0xee);
  for (size_t i = 0; i < src.size(); ++i) src[i] = static_cast<unsigned char>(i * 131 + 7);
  tandem::shm::copy(dst.data() + to_shift, src.data() + from_shift, bytes);
  for (size_t i = 0; i < dst.size(); ++i) {
    const bool inside = i >= to_shift && i < to_shift + bytes;
    const unsigned char want = inside ? src[i - to_shift + from_shift] : 0xee;
    ASSERT_EQ(dst[i], want) << "bytes " << bytes << ", shifts " << to_shift << "/" << from_shift << ", byte " << i;
  }
}

}  // namespace

// Every size up to 1100 and around the edges of the forward-block range (512 and 8192 bytes
// of the copy before its last word), at aligned and unaligned places.
TEST(ShmCopy, EverySizeAndAlignment) {
  std::vector<size_t> sizes;
  for (size_t b = 0; b <= 1100; ++b) sizes.push_back(b);
  for (size_t b = 2040; b <= 2060; ++b) sizes.push_back(b);
  for (size_t b = 8180; b <= 8220; ++b) sizes.push_back(b);
  sizes.push_back(65536 + 13);
  for (size_t bytes : sizes)
    for (size_t to_shift : {0, 1, 8, 63})
      for (size_t from_shift : {0, 3, 64}) check_copy(bytes, to_shift, from_shift);
}
