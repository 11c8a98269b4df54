// One warp stages an 8x64 bf16 tile through a 128B-swizzled buffer: two stmatrix.x4 of
// the mma-style fragments (lane t: row t/4, columns 8m + 2(t%4), +1 of matrix m), then
// two ldmatrix.x4.trans give each lane rows 2(t%4), +1 of column 8m + t/4.
// harness: threads=32 smem_bytes=1024 src_slots=8 dst_slots=8
#include <cstdint>

constexpr unsigned kRowBytes = 128;                        // one row of 64 bf16
__device__ __forceinline__ unsigned swizzle128(unsigned row, unsigned chunk) {
  return row * kRowBytes + ((chunk ^ (row % 8)) * 16);      // 16-byte chunk XOR row
}

__device__ void stmatrix_ldmatrix(const uint32_t* src, uint32_t* dst, unsigned char* smem) {
  const unsigned lane = threadIdx.x % 32;
  const unsigned base = static_cast<unsigned>(__cvta_generic_to_shared(smem));
  // stage 1 (stmatrix.x4): lane l gives row l%8 of matrix 4q + l/8
#pragma unroll
  for (unsigned q = 0; q < 2; ++q) {
    const unsigned addr = base + swizzle128(lane % 8, 4 * q + lane / 8);
    asm volatile("stmatrix.sync.aligned.m8n8.x4.shared.b16 [%0], {%1, %2, %3, %4};\n"
                 :: "r"(addr), "r"(src[4 * q]), "r"(src[4 * q + 1]), "r"(src[4 * q + 2]),
                    "r"(src[4 * q + 3]) : "memory");
  }
  __syncwarp();
  // stage 2 (ldmatrix.x4.trans): the same rows, transposed into the registers
#pragma unroll
  for (unsigned q = 0; q < 2; ++q) {
    const unsigned addr = base + swizzle128(lane % 8, 4 * q + lane / 8);
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];\n"
                 : "=r"(dst[4 * q]), "=r"(dst[4 * q + 1]), "=r"(dst[4 * q + 2]),
                   "=r"(dst[4 * q + 3]) : "r"(addr) : "memory");
  }
}

extern "C" __global__ void stmatrix_ldmatrix_kernel(const uint32_t* in, uint32_t* out) {
  extern __shared__ __align__(1024) unsigned char smem[];
  const unsigned t = threadIdx.x;
  uint32_t src[8], dst[8];
#pragma unroll
  for (int i = 0; i < 8; ++i) src[i] = in[8 * t + i];
  stmatrix_ldmatrix(src, dst, smem);
#pragma unroll
  for (int j = 0; j < 8; ++j) out[8 * t + j] = dst[j];
}
