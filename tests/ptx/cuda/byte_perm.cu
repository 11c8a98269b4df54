// An 8-bit transpose inside a thread: 4 words of 4 bytes (a 4x4 byte matrix) become its
// transpose with __byte_perm (prmt.b32): 8 permutes, no exchange between threads.
// harness: threads=32 smem_bytes=0 src_slots=4 dst_slots=4
#include <cstdint>

__device__ void byte_perm(const uint32_t* src, uint32_t* dst, unsigned char* smem) {
  // stage 1 (prmt): interleave bytes of rows 0/1 and 2/3
  const uint32_t a = __byte_perm(src[0], src[1], 0x5140);
  const uint32_t b = __byte_perm(src[0], src[1], 0x7362);
  const uint32_t c = __byte_perm(src[2], src[3], 0x5140);
  const uint32_t d = __byte_perm(src[2], src[3], 0x7362);
  // stage 2 (prmt): take 16-bit halves of the pairs
  dst[0] = __byte_perm(a, c, 0x5410);
  dst[1] = __byte_perm(a, c, 0x7632);
  dst[2] = __byte_perm(b, d, 0x5410);
  dst[3] = __byte_perm(b, d, 0x7632);
}

extern "C" __global__ void byte_perm_kernel(const uint32_t* in, uint32_t* out) {
  const unsigned t = threadIdx.x;
  uint32_t src[4], dst[4];
#pragma unroll
  for (int i = 0; i < 4; ++i) src[i] = in[4 * t + i];
  byte_perm(src, dst, nullptr);
#pragma unroll
  for (int j = 0; j < 4; ++j) out[4 * t + j] = dst[j];
}
