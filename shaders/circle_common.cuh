// Device helpers shared by every circle kernel: pixel centers, pixel and tile boxes, coverage,
// shading and "over" blending. The float operations follow render/shading.py and
// render/reference.py one for one; modules are built with --fmad=false so that no multiply-add is
// contracted and the results equal the NumPy reference bit for bit (expf may differ by an ulp).
#pragma once

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

// The box of tile (tx, ty) of `tile` pixels, from its pixel edges (it holds every pixel center).
__device__ __forceinline__ Box tile_box(int tx, int ty, int tile, int width, int height) {
    const float inv_w = 1.f / static_cast<float>(width);
    const float inv_h = 1.f / static_cast<float>(height);
    Box b;
    b.left = static_cast<float>(tx * tile) * inv_w;
    b.right = static_cast<float>(min((tx + 1) * tile, width)) * inv_w;
    b.bottom = static_cast<float>(ty * tile) * inv_h;
    b.top = static_cast<float>(min((ty + 1) * tile, height)) * inv_h;
    return b;
}

// May accept circles near a box corner that miss it; never rejects one that covers a pixel in it.
__device__ __forceinline__ bool circle_in_box_conservative(const Circle& c, const Box& b) {
    return c.x >= b.left - c.r && c.x <= b.right + c.r && c.y >= b.bottom - c.r &&
           c.y <= b.top + c.r;
}

// Distance from the center to the closest point of the box. The tolerance keeps it conservative
// where rounding of the squared distance could otherwise drop a pixel on the circle's boundary.
__device__ __forceinline__ bool circle_in_box_exact(const Circle& c, const Box& b) {
    const float dx = fminf(fmaxf(c.x, b.left), b.right) - c.x;
    const float dy = fminf(fmaxf(c.y, b.bottom), b.top) - c.y;
    return dx * dx + dy * dy <= c.r * c.r * 1.0001f;
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

__constant__ float kSnowRamp[6][3] = {
    {1.f, 1.f, 1.f}, {1.f, 1.f, 1.f}, {.8f, .9f, 1.f}, {.8f, .9f, 1.f}, {.8f, .8f, 1.f}, {.8f, .8f, 1.f}};

// Blend circle c over the pixel whose center is (px, py), if it covers it (inclusive boundary).
__device__ __forceinline__ void blend_circle(float4& pixel, float px, float py, const Circle& c,
                                             bool snowflake) {
    const float dx = px - c.x;
    const float dy = py - c.y;
    const float dist2 = dx * dx + dy * dy;
    if (dist2 > c.r * c.r) return;
    float red, green, blue, alpha;
    if (snowflake) {
        const float t = sqrtf(dist2) / c.r;
        const float s = t * 4.f;
        const int base = min(static_cast<int>(s), 4);
        const float w = s - static_cast<float>(base);
        const float w0 = 1.f - w;
        red = w0 * kSnowRamp[base][0] + w * kSnowRamp[base + 1][0];
        green = w0 * kSnowRamp[base][1] + w * kSnowRamp[base + 1][1];
        blue = w0 * kSnowRamp[base][2] + w * kSnowRamp[base + 1][2];
        float max_alpha = .6f + .4f * (1.f - c.z);
        max_alpha = .5f * fminf(fmaxf(max_alpha, 0.f), 1.f);
        alpha = max_alpha * expf((-4.f * t) * t);
    } else {
        red = c.red;
        green = c.green;
        blue = c.blue;
        alpha = .5f;
    }
    const float keep = 1.f - alpha;
    pixel.x = alpha * red + keep * pixel.x;
    pixel.y = alpha * green + keep * pixel.y;
    pixel.z = alpha * blue + keep * pixel.z;
    pixel.w = alpha + pixel.w;
}
