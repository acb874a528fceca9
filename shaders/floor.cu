// The kernels behind bench's floors (render/circles/floor.py).
//
// protocol_empty is launched where a frame's work would be, to time what the protocol itself costs:
// launches and synchronizations with no work.
//
// pair_flat and pair_snowflake are never launched. Each holds what one covered (pixel, circle) pair
// must compute at least, with the blend's own helpers, and everything the circle alone decides (its
// squared radius, its premultiplied color, a snowflake's peak alpha) passed in as already computed:
// a kernel can compute those once per circle, not once per pixel. The pixel is loaded and stored
// around it because it stays in a register across a real kernel's circles. CI compiles this file
// to PTX and counts the instructions between that load and store
// (render.circles.floor.PAIR_INSTRUCTIONS).
//
// A flat pair needs its color's three fused multiply-adds, no more: a kernel may decide the
// coverage of a whole region of pixels at once, for a circle that covers it, and every flat blend
// adds the same 1/2 to alpha, a step a kernel may take for many circles in one addition (tile-warp
// does both). A snowflake pair shades from its own distance, so its test's arithmetic is needed
// anyway, and its alpha differs from pixel to pixel.
#include "circle_common.cuh"

extern "C" __global__ void protocol_empty() {}

extern "C" __global__ void pair_flat(float4* image, float alpha_red, float alpha_green, float alpha_blue) {
    float4 pixel = image[threadIdx.x];
    const float alpha = pixel.w;
    over_half_fused(pixel, alpha_red, alpha_green, alpha_blue);
    pixel.w = alpha;
    image[threadIdx.x] = pixel;
}

extern "C" __global__ void pair_snowflake(float4* image, float px, float py, float cx, float cy,
                                          float r, float r2, float max_alpha) {
    float4 pixel = image[threadIdx.x];
    const float dx = px - cx;
    const float dy = py - cy;
    const float dist2 = dx * dx + dy * dy;
    if (dist2 <= r2) {
        float red, green, blue, alpha;
        snowflake_paint(dist2, r, max_alpha, red, green, blue, alpha);
        over(pixel, alpha, red, green, blue);
    }
    image[threadIdx.x] = pixel;
}
