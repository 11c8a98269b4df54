// A lane exchange: lanes t and t^1 swap the slot the other needs (a 2x2 transpose across
// the pair): one __shfl_xor_sync of a selected slot, then selects.
// harness: threads=64 smem_bytes=0 src_slots=2 dst_slots=2
#include <cstdint>

__device__ void shfl_exchange(const float* src, float* dst, unsigned char* smem) {
  const bool odd = threadIdx.x & 1;
  // stage 1 (shuffle): send the slot the partner keeps, receive the one we need
  const float sent = odd ? src[0] : src[1];
  const float got = __shfl_xor_sync(0xffffffffu, sent, 1);
  // stage 2 (select): even lanes keep slot 0, odd lanes slot 1
  dst[0] = odd ? got : src[0];
  dst[1] = odd ? src[1] : got;
}

extern "C" __global__ void shfl_exchange_kernel(const float* in, float* out) {
  const unsigned t = threadIdx.x;
  float src[2] = {in[2 * t], in[2 * t + 1]}, dst[2];
  shfl_exchange(src, dst, nullptr);
  out[2 * t] = dst[0];
  out[2 * t + 1] = dst[1];
}
