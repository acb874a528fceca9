// Device helpers shared by every circle kernel: pixel centers, pixel and tile boxes, coverage,
// shading and "over" blending. The float operations follow render/circles/shading.py and
// render/circles/reference.py one for one; modules are built with --fmad=false so that no multiply-add is
// contracted and the results equal the NumPy reference bit for bit (expf may differ by an ulp).
#pragma once

#include "instrument.cuh"

struct Circle {
    float x, y, z, r;     // center (normalized, y up), depth, radius
    float red, green, blue;
};

struct Box {  // normalized units, left <= right, bottom <= top
    float left, right, bottom, top;
};

__device__ __forceinline__ Circle load_circle(const float* position, const float* radius,
                                              const float* color, int i) {
    Circle c;
    c.x = position[3 * i];
    c.y = position[3 * i + 1];
    c.z = position[3 * i + 2];
    c.r = radius[i];
    c.red = color[3 * i];
    c.green = color[3 * i + 1];
    c.blue = color[3 * i + 2];
    return c;
}

__device__ __forceinline__ float pixel_center(int i, float inv_size) {
    return inv_size * (static_cast<float>(i) + 0.5f);
}

// The reference's clamped pixel box [lo, hi) along one axis of `size` pixels.
__device__ __forceinline__ void pixel_span(float center, float r, int size, int& lo, int& hi) {
    const float n = static_cast<float>(size);
    // Clamping before the int conversion keeps it defined; truncation then clamping gives the same.
    lo = static_cast<int>(fminf(fmaxf((center - r) * n, 0.f), n));
    hi = min(max(static_cast<int>(fminf(fmaxf((center + r) * n, -1.f), n)) + 1, 0), size);
}

// The pixel a thread of a kTile x kTile block owns in a one-block-per-tile launch.
struct TilePixel {
    int thread;   // linear index in the block
    int x, y;     // pixel coordinates
    bool inside;  // false in the ragged last tiles of sizes that are not multiples of TILE
    float px, py; // normalized pixel center
};

template <int kTile>
__device__ __forceinline__ TilePixel tile_pixel(int width, int height) {
    TilePixel p;
    p.thread = threadIdx.y * kTile + threadIdx.x;
    p.x = blockIdx.x * kTile + threadIdx.x;
    p.y = blockIdx.y * kTile + threadIdx.y;
    p.inside = p.x < width && p.y < height;
    p.px = pixel_center(p.x, 1.f / static_cast<float>(width));
    p.py = pixel_center(p.y, 1.f / static_cast<float>(height));
    return p;
}

// The box of the pixels [x0, x0 + w) x [y0, y0 + h), cut at the image's edge, from its pixel
// edges (it holds every pixel center in it).
__device__ __forceinline__ Box pixel_box(int x0, int y0, int w, int h, int width, int height) {
    const float inv_w = 1.f / static_cast<float>(width);
    const float inv_h = 1.f / static_cast<float>(height);
    Box b;
    b.left = static_cast<float>(x0) * inv_w;
    b.right = static_cast<float>(min(x0 + w, width)) * inv_w;
    b.bottom = static_cast<float>(y0) * inv_h;
    b.top = static_cast<float>(min(y0 + h, height)) * inv_h;
    return b;
}

// The box of tile (tx, ty) of `tile` pixels.
__device__ __forceinline__ Box tile_box(int tx, int ty, int tile, int width, int height) {
    return pixel_box(tx * tile, ty * tile, tile, tile, width, height);
}

// May accept circles near a box corner that miss it; never rejects one that covers a pixel in it.
__device__ __forceinline__ bool circle_in_box_conservative(const Circle& c, const Box& b) {
    return c.x >= b.left - c.r && c.x <= b.right + c.r && c.y >= b.bottom - c.r &&
           c.y <= b.top + c.r;
}

// Distance from the center to the closest point of the box. The tolerance keeps it conservative
// where rounding of the squared distance could otherwise drop a pixel on the circle's boundary.
__device__ __forceinline__ bool disc_in_box_exact(float x, float y, float r, const Box& b) {
    const float dx = fminf(fmaxf(x, b.left), b.right) - x;
    const float dy = fminf(fmaxf(y, b.bottom), b.top) - y;
    return dx * dx + dy * dy <= r * r * 1.0001f;
}

__device__ __forceinline__ bool circle_in_box_exact(const Circle& c, const Box& b) {
    return disc_in_box_exact(c.x, c.y, c.r, b);
}

#ifndef EXACT_TILE_TEST
#define EXACT_TILE_TEST 0
#endif

__device__ __forceinline__ bool circle_touches_box(const Circle& c, const Box& b) {
#if EXACT_TILE_TEST
    return circle_in_box_exact(c, b);
#else
    return circle_in_box_conservative(c, b);
#endif
}

// The cleared pixel in row y: (red, green, blue, 1), or with snow != 0 the course's gray ramp.
__device__ __forceinline__ float4 background_pixel(int y, int height, int snow, float red,
                                                   float green, float blue) {
    if (snow) {
        const float shade = .4f + (.45f * static_cast<float>(height - y)) / static_cast<float>(height);
        return make_float4(shade, shade, shade, 1.f);
    }
    return make_float4(red, green, blue, 1.f);
}

// Where a pixel's blending starts: with clear != 0 the blending launch does the frame's clear
// itself (one launch and one pass over the image fewer), else from the image as it is.
__device__ __forceinline__ float4 start_pixel(const float4* image, int x, int y, int width,
                                              int height, int clear, int snow, float red,
                                              float green, float blue) {
    return clear ? background_pixel(y, height, snow, red, green, blue) : image[y * width + x];
}

// Row `row` (0..5) of the snowflake color ramp, T0..T4 padded with T4 so that t == 1 (row 4, weight 0)
// reads T4: render/circles/shading.py's SNOW_RAMP. Its rows come in equal pairs (T0 = T1, T2 = T3,
// T4 and the padding), so two selects find a row. A table would be read at a different row by each
// lane of a warp, and a warp's reads of constant memory at different addresses take turns.
__device__ __forceinline__ float3 snow_ramp(int row) {
    return row < 2 ? make_float3(1.f, 1.f, 1.f) : row < 4 ? make_float3(.8f, .9f, 1.f) : make_float3(.8f, .8f, 1.f);
}

// The snowflake's color and alpha at t = distance / radius (<= 1) from its center, with max_alpha
// from snowflake_max_alpha.
__device__ __forceinline__ void snowflake_paint_at(float t, float max_alpha, float& red, float& green, float& blue,
                                                   float& alpha) {
    const float s = t * 4.f;
    const int base = min(static_cast<int>(s), 4);
    const float w = s - static_cast<float>(base);
    const float w0 = 1.f - w;
    const float3 below = snow_ramp(base), above = snow_ramp(base + 1);
    red = w0 * below.x + w * above.x;
    green = w0 * below.y + w * above.y;
    blue = w0 * below.z + w * above.z;
    alpha = max_alpha * expf((-4.f * t) * t);
}

// The snowflake's color and alpha at squared distance dist2 (<= r^2) from its center.
__device__ __forceinline__ void snowflake_paint(float dist2, float r, float max_alpha, float& red,
                                                float& green, float& blue, float& alpha) {
    snowflake_paint_at(sqrtf(dist2) / r, max_alpha, red, green, blue, alpha);
}

// Radii whose reciprocal divides by two fused multiply-adds (divide_by_reciprocal): within them, a
// quotient a / r with 0 <= a <= r (a distance in the disc, so a = 0 or a >= 2^-63, the square
// root of the smallest normal float) and every intermediate of the division are normal floats.
#define RECIPROCAL_RADIUS_MIN 8.67361738e-19f  // 2^-60
#define RECIPROCAL_RADIUS_MAX 1.15292150e18f   // 2^60

// The reciprocal that divide_by_reciprocal divides by radius r with (1 / r rounded to nearest), or
// 0 where r is outside [RECIPROCAL_RADIUS_MIN, RECIPROCAL_RADIUS_MAX] (NaN among them): such a
// radius divides with the division itself.
__device__ __forceinline__ float radius_reciprocal(float r) {
    return r >= RECIPROCAL_RADIUS_MIN && r <= RECIPROCAL_RADIUS_MAX ? __frcp_rn(r) : 0.f;
}

// a / b rounded to nearest, as the division rounds it, for y = 1 / b rounded to nearest and a, b
// and a / b normal or a = 0 (radius_reciprocal's range): q = a * y is within an ulp of a / b,
// a - b * q is then exact in one fused multiply-add, and q + (a - b * q) * y rounds to a / b
// (Markstein, 1990). A GPU test compares it with the division bit for bit.
__device__ __forceinline__ float divide_by_reciprocal(float a, float b, float y) {
    const float q = __fmul_rn(a, y);
    return __fmaf_rn(__fmaf_rn(-b, q, a), y, q);
}

// A snowflake's peak alpha, from its depth z (nearer is more opaque).
__device__ __forceinline__ float snowflake_max_alpha(float z) {
    const float max_alpha = .6f + .4f * (1.f - z);
    return .5f * fminf(fmaxf(max_alpha, 0.f), 1.f);
}

// "Over" with the color already multiplied by alpha: pixel = alpha * color + (1 - alpha) * pixel,
// the reference's two products and one sum per channel.
__device__ __forceinline__ void over_premultiplied(float4& pixel, float alpha, float keep,
                                                   float alpha_red, float alpha_green,
                                                   float alpha_blue) {
    pixel.x = alpha_red + keep * pixel.x;
    pixel.y = alpha_green + keep * pixel.y;
    pixel.z = alpha_blue + keep * pixel.z;
    pixel.w = alpha + pixel.w;
}

__device__ __forceinline__ void over(float4& pixel, float alpha, float red, float green, float blue) {
    over_premultiplied(pixel, alpha, 1.f - alpha, alpha * red, alpha * green, alpha * blue);
}

// The alpha of every flat-shaded circle.
#define FLAT_ALPHA .5f

// over_premultiplied at alpha 1/2 with one fused multiply-add per channel, bit-identical to the
// product-then-sum when every premultiplied channel is 0 or of magnitude >= 2^-100 (checked on
// the host by render.circles.tile_warp.fused_blend_is_exact): (1/2) * p is exact for |p| >= 2^-125,
// so the single rounding of the fused form is the other's second rounding. Below that, (1/2) * p
// may round (IEEE) or flush to 0 (the -ftz build CuPy makes), changing it by less than 2^-126,
// which cannot move a sum with a channel of 0 (the same single rounding, the same flush) or of
// magnitude >= 2^-100 (whose half ulp is 2^-124).
__device__ __forceinline__ void over_half_fused(float4& pixel, float alpha_red, float alpha_green,
                                                float alpha_blue) {
    pixel.x = __fmaf_rn(.5f, pixel.x, alpha_red);
    pixel.y = __fmaf_rn(.5f, pixel.y, alpha_green);
    pixel.z = __fmaf_rn(.5f, pixel.z, alpha_blue);
    pixel.w = .5f + pixel.w;
}

// Blend circle c over the pixel whose center is (px, py), if it covers it (inclusive boundary).
__device__ __forceinline__ void blend_circle(float4& pixel, float px, float py, const Circle& c,
                                             bool snowflake) {
    const float dx = px - c.x;
    const float dy = py - c.y;
    const float dist2 = dx * dx + dy * dy;
    if (dist2 > c.r * c.r) return;
    if (snowflake) {
        float red, green, blue, alpha;
        snowflake_paint(dist2, c.r, snowflake_max_alpha(c.z), red, green, blue, alpha);
        over(pixel, alpha, red, green, blue);
    } else {
        over(pixel, FLAT_ALPHA, c.red, c.green, c.blue);
    }
}
