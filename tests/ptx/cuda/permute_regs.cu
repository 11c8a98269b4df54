// A register-only conversion: each thread's 8 float slots reversed and their pairs swapped
// (dst slot j = src slot 7 - (j ^ 1)); no thread exchanges data with another.
// harness: threads=32 smem_bytes=0 src_slots=8 dst_slots=8
#include <cstdint>

constexpr int kSlots = 8;

__device__ void permute_regs(const float* src, float* dst, unsigned char* smem) {
  // stage 1 (registers): slot j takes slot 7 - (j ^ 1)
#pragma unroll
  for (int j = 0; j < kSlots; ++j) dst[j] = src[kSlots - 1 - (j ^ 1)];
}

extern "C" __global__ void permute_regs_kernel(const float* in, float* out) {
  float src[kSlots], dst[kSlots];
  const unsigned t = threadIdx.x;
#pragma unroll
  for (int i = 0; i < kSlots; ++i) src[i] = in[t * kSlots + i];
  permute_regs(src, dst, nullptr);
#pragma unroll
  for (int j = 0; j < kSlots; ++j) out[t * kSlots + j] = dst[j];
}
