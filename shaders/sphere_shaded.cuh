// The shaded view of the sphere scenes: a perspective camera, one directional light plus ambient,
// Lambert diffuse plus a GGX microfacet specular lobe (Torrance-Sparrow) with height-correlated
// Smith masking-shadowing and Schlick's Fresnel. The host computes the camera and the material
// constants (render/spheres/shading.py); here every step is a float32 +, -, *, / or sqrtf, so the
// NumPy reference (the same operations in the same order) gives the same bytes.
#pragma once
#include "sphere_common.cuh"

#define SHADE_PI 3.14159265f

struct ShadeParams {  // the layout of render/spheres/shading.py's params()
    float3 eye;
    float3 forward;  // unit vector from the eye to the orbit's target
    float3 right;    // screen x, scaled by tan(fov / 2)
    float3 up;       // screen y, scaled by tan(fov / 2)
    float3 light;    // unit vector towards the light
    float light_radiance;
    float ambient;
    float alpha2;  // (roughness^2)^2
    float metalness;
    float3 background;  // linear colour of a pixel that hits nothing
};
static_assert(sizeof(ShadeParams) == SHADE_PARAM_FLOATS * 4, "the host uploads SHADE_PARAM_FLOATS floats");

__device__ __forceinline__ float dot3(float3 a, float3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }

// Smith's Lambda for GGX in direction w at cos(theta) = c > 0: (sqrt(1 + alpha^2 tan^2) - 1) / 2.
__device__ __forceinline__ float smith_lambda(float c, float alpha2) {
    float c2 = c * c;
    float tan2 = (1.0f - c2) / c2;
    return (sqrtf(1.0f + alpha2 * tan2) - 1.0f) * 0.5f;
}

// Linear [0, 1] to a byte: clamp, gamma 2 (sqrtf, exact in float32 unlike powf), truncate.
__device__ __forceinline__ unsigned char encode_byte(float v) {
    return static_cast<unsigned char>(sqrtf(fminf(fmaxf(v, 0.0f), 1.0f)) * 255.0f);
}

struct ShadedPixel {
    int x, y;
    const ShadeParams* params;
    float3 eye, d;  // the ray: eye + t * d, d a unit vector
    float t = SPHERE_INF;
    int index = 0x7fffffff;
    Sphere nearest;

    __device__ __forceinline__ bool start(int size, const ShadeParams* p) {
        if (!sphere_pixel(size, &x, &y)) return false;
        params = p;
        eye = p->eye;
        // The pixel centre in [-1, 1]: (2x + 1 - size) / size, exact in ints before the one division.
        float px = static_cast<float>(2 * x + 1 - size) / static_cast<float>(size);
        float py = static_cast<float>(2 * y + 1 - size) / static_cast<float>(size);
        float3 ray = make_float3(p->forward.x + px * p->right.x + py * p->up.x,
                                 p->forward.y + px * p->right.y + py * p->up.y,
                                 p->forward.z + px * p->right.z + py * p->up.z);
        float length = sqrtf(dot3(ray, ray));
        d = make_float3(ray.x / length, ray.y / length, ray.z / length);
        return true;
    }

    // The distance to the first crossing of the sphere in front of the eye, or SPHERE_INF.
    __device__ __forceinline__ float distance(const Sphere& s) const {
        float3 oc = make_float3(eye.x - s.x, eye.y - s.y, eye.z - s.z);
        float b = dot3(oc, d);
        float c = dot3(oc, oc) - s.radius * s.radius;
        float disc = b * b - c;
        if (!(disc > 0.0f)) return SPHERE_INF;
        float root = sqrtf(disc);
        float near = -b - root;
        if (near > 0.0f) return near;
        float far = -b + root;  // the eye is inside this sphere
        return far > 0.0f ? far : SPHERE_INF;
    }

    // In index order a strictly nearer hit wins, so ties keep the first sphere.
    __device__ __forceinline__ void consider_in_order(const Sphere& s, int i) {
        float u = distance(s);
        if (u < t) take(s, u, i);
    }

    // In any order ties go to the lower index, which gives the in-order result.
    __device__ __forceinline__ void consider_any_order(const Sphere& s, int i) {
        float u = distance(s);
        if (u < SPHERE_INF && (u < t || (u == t && i < index))) take(s, u, i);
    }

    __device__ __forceinline__ void take(const Sphere& s, float u, int i) {
        t = u;
        index = i;
        nearest = s;
    }

    __device__ __forceinline__ float3 radiance() const {
        const ShadeParams& p = *params;
        const Sphere& s = nearest;
        float3 n = make_float3((eye.x + t * d.x - s.x) / s.radius, (eye.y + t * d.y - s.y) / s.radius,
                               (eye.z + t * d.z - s.z) / s.radius);
        float3 wo = make_float3(-d.x, -d.y, -d.z);
        float3 c = make_float3(s.r * p.ambient, s.g * p.ambient, s.b * p.ambient);
        float n_l = dot3(n, p.light);
        float n_v = dot3(n, wo);
        if (!(n_l > 0.0f && n_v > 0.0f)) return c;
        float3 h = make_float3(p.light.x + wo.x, p.light.y + wo.y, p.light.z + wo.z);
        float h_length = sqrtf(dot3(h, h));
        h = make_float3(h.x / h_length, h.y / h_length, h.z / h_length);
        float n_h = dot3(n, h);
        float q = n_h * n_h * (p.alpha2 - 1.0f) + 1.0f;
        float D = p.alpha2 / (SHADE_PI * q * q);
        float G2 = 1.0f / (1.0f + smith_lambda(n_l, p.alpha2) + smith_lambda(n_v, p.alpha2));
        float m = 1.0f - dot3(wo, h);
        float m2 = m * m;
        float schlick = m2 * m2 * m;  // (1 - wo.h)^5
        float specular = D * G2 / (4.0f * n_l * n_v);
        float diffuse = (1.0f - p.metalness) / SHADE_PI;
        float light = p.light_radiance * n_l;
        float dielectric = 0.04f * (1.0f - p.metalness);
        float albedo[3] = {s.r, s.g, s.b};
        float out[3] = {c.x, c.y, c.z};
        for (int k = 0; k < 3; ++k) {
            float f0 = dielectric + albedo[k] * p.metalness;
            float fresnel = f0 + (1.0f - f0) * schlick;
            out[k] = out[k] + (albedo[k] * diffuse + fresnel * specular) * light;
        }
        return make_float3(out[0], out[1], out[2]);
    }

    __device__ __forceinline__ void write(uchar4* image, int size) const {
        float3 c = index == 0x7fffffff ? params->background : radiance();
        image[y * size + x] = make_uchar4(encode_byte(c.x), encode_byte(c.y), encode_byte(c.z), 255);
    }
};
