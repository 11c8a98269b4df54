// A 32x32 fp32 transpose through shared memory on 4 warps: thread t holds row t/4,
// columns 8(t%4) .. +7 and receives column t/4, rows 8(t%4) .. +7. Rows are stored with
// two st.shared.v4 at a padded pitch of 36 words, read back with scalar ld.shared.
// harness: threads=128 smem_bytes=4608 src_slots=8 dst_slots=8
#include <cstdint>

constexpr int kPitch = 36;  // words per row: 32 + 4 of padding

__device__ void smem_transpose(const float* src, float* dst, unsigned char* smem) {
  float* tile = reinterpret_cast<float*>(smem);
  const unsigned t = threadIdx.x;
  const unsigned row = t / 4, col = 8 * (t % 4);
  // stage 1 (st.shared.v4): the row's 8 values, 16 bytes at a time
  float4* out = reinterpret_cast<float4*>(tile + row * kPitch + col);
  out[0] = make_float4(src[0], src[1], src[2], src[3]);
  out[1] = make_float4(src[4], src[5], src[6], src[7]);
  __syncthreads();
  // stage 2 (ld.shared): column t/4, rows 8(t%4) ..
#pragma unroll
  for (int j = 0; j < 8; ++j) dst[j] = tile[(col + j) * kPitch + row];
}

extern "C" __global__ void smem_transpose_kernel(const float* in, float* out) {
  extern __shared__ __align__(128) unsigned char smem[];
  const unsigned t = threadIdx.x;
  float src[8], dst[8];
#pragma unroll
  for (int i = 0; i < 8; ++i) src[i] = in[8 * t + i];
  smem_transpose(src, dst, smem);
#pragma unroll
  for (int j = 0; j < 8; ++j) out[8 * t + j] = dst[j];
}
