"""The shaded view of the sphere scenes: orbit camera, material and light settings, the kernels'
parameter block, and the NumPy reference of ``shaders/sphere_shaded.cuh``.

A perspective camera orbits the origin (the scenes span -500..500 on each axis) at a distance; the
pan moves the point it looks at within the camera's plane. One directional light plus ambient;
Lambert diffuse plus a GGX microfacet lobe:

* D(h) = alpha^2 / (pi ((n.h)^2 (alpha^2 - 1) + 1)^2), alpha = roughness^2
* G2 = 1 / (1 + Lambda(wi) + Lambda(wo)), Lambda(w) = (sqrt(1 + alpha^2 tan^2 theta_w) - 1) / 2
* F = F0 + (1 - F0) (1 - wo.h)^5, F0 = 0.04 (1 - metalness) + albedo metalness
* radiance = ambient albedo + ((1 - metalness) albedo / pi + D G2 F / (4 n.wi n.wo)) E n.wi

The output byte is trunc(255 sqrt(clamp(radiance, 0, 1))) (gamma 2, so only exactly rounded
operations are involved). The camera and the material constants are computed here once, in
float64, and handed to both sides as float32; the per-pixel work is float32 +, -, *, / and sqrt in
the kernel's order, so the GPU bytes equal the reference's.
"""

from __future__ import annotations

import dataclasses
import math

import numpy as np

from render.core import progress
from render.core.limits import DISTANCE, ELEVATION, METALNESS, PAN, ROUGHNESS
from render.core.renderer import host_memory
from scenes.spheres import SphereScene

f32 = np.float32
PI = f32(3.14159265)  # SHADE_PI
SPHERE_INF = f32(2e10)
VIEWS = ("classic", "shaded")  # the book's exact image; the lit perspective one
MIN_ROUGHNESS = 0.05  # GGX's D is 0/0 at the highlight when alpha reaches 0
ORBIT_STEP_DEGREES = 1.0  # the camera's turn per animation frame
FOV_DEGREES = 45.0


@dataclasses.dataclass(frozen=True)
class ShadeSettings:
    """Camera (degrees, world units), material (0..1) and light of the shaded view."""

    azimuth: float = 30.0  # around the y axis; 0 looks down -z like the classic view
    elevation: float = 20.0  # within ELEVATION
    distance: float = 2000.0  # from the look-at point, within DISTANCE
    pan: tuple[float, float] = (0.0, 0.0)  # the look-at point along the camera's right and up, within PAN
    roughness: float = 0.35
    metalness: float = 0.0
    light_azimuth: float = 45.0
    light_elevation: float = 50.0
    light_radiance: float = 3.0
    ambient: float = 0.06
    background: tuple[float, float, float] = (0.015, 0.02, 0.03)

    def checked(self) -> ShadeSettings:
        """The same settings with every value clamped to its valid range."""
        return dataclasses.replace(
            self,
            elevation=ELEVATION.clamp(self.elevation),
            distance=DISTANCE.clamp(self.distance),
            pan=(PAN.clamp(self.pan[0]), PAN.clamp(self.pan[1])),
            roughness=min(max(self.roughness, MIN_ROUGHNESS), ROUGHNESS.high),
            metalness=METALNESS.clamp(self.metalness),
        )

    def orbited(self, degrees: float) -> ShadeSettings:
        return dataclasses.replace(self, azimuth=(self.azimuth + degrees) % 360.0)

    def world_per_pixel(self, pixels: float) -> float:
        """World units at the look-at point per pixel of the picture shown ``pixels`` high, so that
        a pan by that much per pixel of a drag keeps the look-at plane under the mouse."""
        return 2.0 * self.checked().distance * math.tan(math.radians(FOV_DEGREES) / 2) / pixels

    def params(self) -> np.ndarray:
        """float32 (22,): the kernels' ShadeParams (eye, forward, right, up, light, light radiance,
        ambient, alpha^2, metalness, background). The one camera computation: the CPU reference
        reads its rays from these values too."""
        s = self.checked()
        orbit = _direction(s.azimuth, s.elevation) * s.distance
        forward = -orbit / np.linalg.norm(orbit)
        right = np.cross(forward, (0.0, 1.0, 0.0))
        right /= np.linalg.norm(right)
        up = np.cross(right, forward)
        eye = orbit + right * s.pan[0] + up * s.pan[1]
        half = math.tan(math.radians(FOV_DEGREES) / 2)
        alpha = s.roughness * s.roughness
        values = [
            *eye,
            *forward,
            *(right * half),
            *(up * half),
            *_direction(s.light_azimuth, s.light_elevation),
            s.light_radiance,
            s.ambient,
            alpha * alpha,
            s.metalness,
            *s.background,
        ]
        return np.array(values, np.float32)


def _direction(azimuth: float, elevation: float) -> np.ndarray:
    """Unit vector float64 (3,) at ``azimuth`` around +y from +z, ``elevation`` above the xz plane."""
    a, e = math.radians(azimuth), math.radians(elevation)
    return np.array([math.cos(e) * math.sin(a), math.sin(e), math.cos(e) * math.cos(a)])


def _dot(a, b):
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]


def _smith_lambda(c: np.ndarray, alpha2: np.float32) -> np.ndarray:
    c2 = c * c
    tan2 = (f32(1) - c2) / c2
    return (np.sqrt(f32(1) + alpha2 * tan2) - f32(1)) * f32(0.5)


def _encode(v: np.ndarray) -> np.ndarray:
    return (np.sqrt(np.minimum(np.maximum(v, f32(0)), f32(1))) * f32(255)).astype(np.uint8)


def primary_rays(size: int, params: np.ndarray) -> list[np.ndarray]:
    """Unit ray directions [dx, dy, dz], each float32 (size, size), row = y (0 = bottom)."""
    forward, right, up = params[3:6], params[6:9], params[9:12]
    centre = (2 * np.arange(size) + 1 - size).astype(np.float32) / f32(size)
    px, py = centre[None, :], centre[:, None]
    ray = [forward[k] + px * right[k] + py * up[k] for k in range(3)]
    length = np.sqrt(_dot(ray, ray))
    return [component / length for component in ray]


def nearest_spheres(scene: SphereScene, d: list[np.ndarray], eye: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Distance float32 (size, size) to the first sphere in front of the eye (SPHERE_INF where
    none) and its index int64 (size, size) (-1 where none); ties keep the lower index."""
    t = np.full(d[0].shape, SPHERE_INF, np.float32)
    index = np.full(d[0].shape, -1, np.int64)
    tick = progress.ticker(scene.count)
    for i in range(scene.count):
        tick(i)
        oc = [eye[k] - scene.center[i, k] for k in range(3)]
        b = _dot(oc, d)
        c = _dot(oc, oc) - scene.radius[i] * scene.radius[i]
        disc = b * b - c
        with np.errstate(invalid="ignore"):
            root = np.sqrt(disc)
        near, far = -b - root, -b + root
        u = np.where(near > 0, near, np.where(far > 0, far, SPHERE_INF))
        u = np.where(disc > 0, u, SPHERE_INF)
        nearer = u < t
        t[nearer] = u[nearer]
        index[nearer] = i
    tick(scene.count)
    return t, index


def shade_reference(scene: SphereScene, size: int, settings: ShadeSettings) -> np.ndarray:
    """uint8 (size, size, 4) RGBA, alpha 255, row 0 = bottom: the shaded view, byte for byte the
    kernels' ``ShadedPixel``."""
    p = settings.params()
    eye, light = p[0:3], p[12:15]
    radiance, ambient, alpha2, metalness = p[15], p[16], p[17], p[18]
    d = primary_rays(size, p)
    t, index = nearest_spheres(scene, d, eye)
    out = np.empty((size, size, 4), np.uint8)
    out[..., :3] = _encode(p[19:22])
    out[..., 3] = 255
    hit = index >= 0
    which = index[hit]
    s_center, s_radius, albedo = scene.center[which], scene.radius[which], scene.color[which]
    th = t[hit]
    dh = [component[hit] for component in d]
    n = [(eye[k] + th * dh[k] - s_center[:, k]) / s_radius for k in range(3)]
    wo = [-component for component in dh]
    colour = [albedo[:, k] * ambient for k in range(3)]
    n_l, n_v = _dot(n, light), _dot(n, wo)
    lit = (n_l > 0) & (n_v > 0)
    h = [light[k] + wo[k][lit] for k in range(3)]
    h_length = np.sqrt(_dot(h, h))
    h = [component / h_length for component in h]
    nl, nv = n_l[lit], n_v[lit]
    n_h = _dot([component[lit] for component in n], h)
    q = n_h * n_h * (alpha2 - f32(1)) + f32(1)
    D = alpha2 / (PI * q * q)
    G2 = f32(1) / (f32(1) + _smith_lambda(nl, alpha2) + _smith_lambda(nv, alpha2))
    m = f32(1) - _dot([component[lit] for component in wo], h)
    m2 = m * m
    schlick = m2 * m2 * m
    specular = D * G2 / (f32(4) * nl * nv)
    diffuse = (f32(1) - metalness) / PI
    light_in = radiance * nl
    dielectric = f32(0.04) * (f32(1) - metalness)
    for k in range(3):
        a = albedo[lit, k]
        fresnel_0 = dielectric + a * metalness
        fresnel = fresnel_0 + (f32(1) - fresnel_0) * schlick
        colour[k][lit] = colour[k][lit] + (a * diffuse + fresnel * specular) * light_in
    for k in range(3):
        channel = out[..., k]
        channel[hit] = _encode(colour[k])
    return out


def reference_image(scene: SphereScene, size: int, view: str, shading: ShadeSettings) -> np.ndarray:
    """The NumPy reference of ``view`` (classic or shaded): uint8 (size, size, 4), row 0 = bottom."""
    from render.spheres.reference import trace_reference

    with host_memory(f"the {view} sphere view of {scene.count} spheres at {size}x{size}"):
        return trace_reference(scene, size) if view == "classic" else shade_reference(scene, size, shading)
