// The display's 8-bit conversion, the PNG writer's rule (render/core/image_io.py quantize_rgb8):
// each channel trunc(255 * clamp(v, 0, 1)), NaN -> 0, alpha 255. Rows keep their order (row 0 =
// bottom), which is also OpenGL's texture row order.

__device__ __forceinline__ unsigned char to_byte(float v) {
    // fmaxf returns the other operand for NaN, so NaN becomes 0 like the host's nan_to_num.
    return static_cast<unsigned char>(255.0f * fminf(fmaxf(v, 0.0f), 1.0f));
}

extern "C" __global__ void to_rgba8(const float4* __restrict__ image, uchar4* __restrict__ out, int pixels) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= pixels) return;
    float4 p = image[i];
    out[i] = make_uchar4(to_byte(p.x), to_byte(p.y), to_byte(p.z), 255);
}
