// Shared by every sphere-tracer variant: the book's record and the per-pixel work of the classic
// (orthographic, exact to the book) view. A variant only decides where the sphere array lives and
// in which order a warp reads it; it runs its loop once per pixel policy (ClassicPixel here,
// ShadedPixel in sphere_shaded.cuh), which is a template argument, so each policy inlines fully.
// Built with --fmad=false, so every product and sum rounds exactly as the NumPy reference does.
#pragma once

// SPHERE_FLOATS, MAX_CONSTANT_SPHERES and SHADE_PARAM_FLOATS are render/spheres/constants.py's.
#if !defined(SPHERE_FLOATS) || !defined(MAX_CONSTANT_SPHERES) || !defined(SHADE_PARAM_FLOATS) || !defined(BOOK_SIZE)
#error "build through render.spheres.constants.load_sphere_module, which defines the shared constants"
#endif

#define SPHERE_INF 2e10f

struct Sphere {  // the host's float32 (N, SPHERE_FLOATS) records
    float r, g, b, radius, x, y, z;
};
static_assert(sizeof(Sphere) == SPHERE_FLOATS * 4, "the host packs spheres as SPHERE_FLOATS floats");

struct ShadeParams;  // sphere_shaded.cuh; the classic view takes none

// The pixel of this thread in a 2D grid of 2D blocks; false outside the image.
__device__ __forceinline__ bool sphere_pixel(int size, int* x, int* y) {
    *x = blockIdx.x * blockDim.x + threadIdx.x;
    *y = blockIdx.y * blockDim.y + threadIdx.y;
    return *x < size && *y < size;
}

// The book's view: an orthographic ray along z through (x - DIM/2, y - DIM/2) at DIM = BOOK_SIZE,
// and through those offsets times BOOK_SIZE / size at other sizes, so every size shows the whole
// picture (times 1.0f, exactly the book's, at BOOK_SIZE). The largest depth dz + z wins and colours
// the pixel by its colour times the shading factor dz / radius.
struct ClassicPixel {
    int x, y;
    float ox, oy;
    float depth = -SPHERE_INF;
    float r = 0.0f, g = 0.0f, b = 0.0f;
    int index = 0x7fffffff;

    __device__ __forceinline__ bool start(int size, const ShadeParams*) {
        if (!sphere_pixel(size, &x, &y)) return false;
        const float scale = static_cast<float>(BOOK_SIZE) / static_cast<float>(size);
        ox = static_cast<float>(x - size / 2) * scale;
        oy = static_cast<float>(y - size / 2) * scale;
        return true;
    }

    // The depth of the hit, or -SPHERE_INF on a miss; *shade = dz / radius.
    __device__ __forceinline__ float hit(const Sphere& s, float* shade) const {
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

    // Spheres visited in index order: a strictly nearer hit wins, so ties keep the first sphere.
    __device__ __forceinline__ void consider_in_order(const Sphere& s, int i) {
        float shade;
        float t = hit(s, &shade);
        if (t > depth) take(s, t, shade, i);
    }

    // Spheres visited in any order: ties go to the lower index, which gives the in-order result.
    __device__ __forceinline__ void consider_any_order(const Sphere& s, int i) {
        float shade;
        float t = hit(s, &shade);
        if (t > -SPHERE_INF && (t > depth || (t == depth && i < index))) take(s, t, shade, i);
    }

    __device__ __forceinline__ void take(const Sphere& s, float t, float shade, int i) {
        depth = t;
        r = s.r * shade;
        g = s.g * shade;
        b = s.b * shade;
        index = i;
    }

    __device__ __forceinline__ void write(uchar4* image, int size) const {
        image[y * size + x] = make_uchar4(static_cast<int>(r * 255.0f), static_cast<int>(g * 255.0f),
                                          static_cast<int>(b * 255.0f), 255);
    }
};
