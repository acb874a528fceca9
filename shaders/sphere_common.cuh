// Shared by every sphere-tracer variant: the book's record, hit test, nearest-hit rule and output.
// Built with --fmad=false, so every product and sum rounds exactly as the NumPy reference does.
#pragma once

#define SPHERE_INF 2e10f

struct Sphere {  // 7 floats, 28 bytes: 2340 of them fill 64 KiB of constant memory
    float r, g, b, radius, x, y, z;
};

// The depth dz + z of the sphere under the ray through (ox, oy), or -SPHERE_INF on a miss;
// *shade = dz / radius, the book's shading factor.
__device__ __forceinline__ float sphere_hit(const Sphere& s, float ox, float oy, float* shade) {
    float dx = ox - s.x;
    float dy = oy - s.y;
    float r2 = s.radius * s.radius;
    if (dx * dx + dy * dy < r2) {
        float dz = sqrtf(r2 - dx * dx - dy * dy);
        *shade = dz / sqrtf(r2);
        return dz + s.z;
    }
    return -SPHERE_INF;
}

struct NearestHit {
    float depth = -SPHERE_INF;
    float r = 0.0f, g = 0.0f, b = 0.0f;
    int index = 0x7fffffff;

    // Spheres visited in index order: a strictly nearer hit wins, so ties keep the first sphere.
    __device__ __forceinline__ void consider_in_order(const Sphere& s, float ox, float oy) {
        float shade;
        float t = sphere_hit(s, ox, oy, &shade);
        if (t > depth) take(s, t, shade, 0);
    }

    // Spheres visited in any order: ties go to the lower index, which gives the in-order result.
    __device__ __forceinline__ void consider_any_order(const Sphere& s, int i, float ox, float oy) {
        float shade;
        float t = sphere_hit(s, ox, oy, &shade);
        if (t > -SPHERE_INF && (t > depth || (t == depth && i < index))) take(s, t, shade, i);
    }

    __device__ __forceinline__ void take(const Sphere& s, float t, float shade, int i) {
        depth = t;
        r = s.r * shade;
        g = s.g * shade;
        b = s.b * shade;
        index = i;
    }
};

// The pixel of this thread in a 2D grid of 2D blocks; false outside the image.
__device__ __forceinline__ bool sphere_pixel(int size, int* x, int* y, float* ox, float* oy) {
    *x = blockIdx.x * blockDim.x + threadIdx.x;
    *y = blockIdx.y * blockDim.y + threadIdx.y;
    *ox = static_cast<float>(*x - size / 2);
    *oy = static_cast<float>(*y - size / 2);
    return *x < size && *y < size;
}

__device__ __forceinline__ void write_hit(uchar4* image, int size, int x, int y, const NearestHit& hit) {
    image[y * size + x] = make_uchar4(static_cast<int>(hit.r * 255.0f), static_cast<int>(hit.g * 255.0f),
                                      static_cast<int>(hit.b * 255.0f), 255);
}
