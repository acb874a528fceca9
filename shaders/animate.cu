// The course's four animation rules, one thread per circle; the same float32 operations in the
// same order as scenes/animation.py, so GPU and CPU scenes stay bit-identical frame after frame.

#define DT (1.f / 60.f)

extern "C" __global__ void advance_bouncing_balls(float* position, float* velocity, int count) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= count) return;
    float& y = position[3 * i + 1];
    float& vy = velocity[3 * i + 1];
    const float old_v = vy, old_p = y;
    if (old_v == 0.f && old_p == 0.f) return;  // at rest
    if (y < 0.f && old_v < 0.f) vy *= -0.8f;
    vy += -2.8f * DT;
    y += vy * DT;
    const float eps = 0.001f;
    if (fabsf(vy - old_v) < eps && old_p < 0.f && fabsf(y - old_p) < eps) {
        vy = 0.f;
        y = 0.f;
    }
}

extern "C" __global__ void advance_hypnosis(float* radius, int count) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= count) return;
    radius[i] = radius[i] > .5f ? .02f : radius[i] + .01f;
}

// Sparks follow centers: spark s (0-based) is circle `centers + s` and belongs to center s / sparks.
// A spark farther than .25 from its center restarts from start_position / start_velocity.
extern "C" __global__ void advance_fireworks(float* position, float* velocity,
                                             const float* start_position,
                                             const float* start_velocity, int centers, int sparks) {
    const int s = blockIdx.x * blockDim.x + threadIdx.x;
    if (s >= centers * sparks) return;
    float* p = position + 3 * (centers + s);
    float* v = velocity + 3 * (centers + s);
    const float* c = position + 3 * (s / sparks);
    p[0] += v[0] * DT;
    p[1] += v[1] * DT;
    const float dx = p[0] - c[0], dy = p[1] - c[1];
    if (sqrtf(dx * dx + dy * dy) > .25f) {
        for (int k = 0; k < 3; ++k) {
            p[k] = start_position[3 * s + k];
            v[k] = start_velocity[3 * s + k];
        }
    }
}

__device__ __forceinline__ float2 cell_noise(float a, float b, float c, int index,
                                             const int* perm_x, const int* perm_y,
                                             const float* values) {
    const int ia = static_cast<int>(a), ib = static_cast<int>(b), ic = static_cast<int>(c);
    int hx = perm_x[(ia * index) & 255];
    hx = perm_x[(hx + ib) & 255];
    hx = perm_x[(hx + ic) & 255];
    int hy = perm_y[ia & 255];
    hy = perm_y[(hy + ib) & 255];
    hy = perm_y[(hy + ic) & 255];
    return make_float2(values[hx], values[hy]);
}

extern "C" __global__ void advance_snow(float* position, float* velocity, const float* radius,
                                        int count, const int* perm_x, const int* perm_y,
                                        const float* values) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= count) return;
    float* p = position + 3 * i;
    float* v = velocity + 3 * i;
    const float r = radius[i];
    const float force_scale = fminf(fmaxf(1.f - p[2], .1f), 1.f);
    float2 noise = cell_noise(10.f * p[0], 10.f * p[1], 255.f * p[2], i, perm_x, perm_y, values);
    const float nx = noise.x * 7.5f, ny = noise.y * 5.f;
    const float drag_x = -2.f * v[0], drag_y = -2.f * v[1];
    p[0] += v[0] * DT;
    p[1] += v[1] * DT;
    p[2] += v[2] * DT;
    v[0] += force_scale * (nx + drag_x) * DT;
    v[1] += force_scale * ((-1.8f + ny) + drag_y) * DT;
    if (p[1] + r < 0.f || p[0] + r < 0.f || p[0] - r > 1.f) {
        noise = cell_noise(255.f * p[0], 255.f * p[1], 255.f * p[2], i, perm_x, perm_y, values);
        p[0] = .5f + .5f * noise.x;
        p[1] = 1.35f + r;
        v[0] = 2.f * noise.y;
        v[1] = 0.f;
    }
}
