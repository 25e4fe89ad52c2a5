// The operations and element types of the inter-node engine's atomics, independent of
// libfabric's enums.
#pragma once

#include <cstddef>
#include <cstdint>

namespace tandem::ofi {

// The operations and element types of atomics, independent of libfabric's enums.
enum class AtomicOp : uint8_t { Read, Write, Swap, CompareSwap, Sum, And, Or, Xor, Min, Max, Count };
enum class AtomicType : uint8_t { Int32, Int64, UInt32, UInt64, Float, Double, Count };

const char* atomic_op_name(AtomicOp op);
const char* atomic_type_name(AtomicType type);
inline size_t atomic_type_size(AtomicType type) {
  return type == AtomicType::Int64 || type == AtomicType::UInt64 || type == AtomicType::Double ? 8 : 4;
}

}  // namespace tandem::ofi
