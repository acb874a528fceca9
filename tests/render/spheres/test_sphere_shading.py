"""The shaded sphere view's reference, settings and chart (no GPU needed)."""

import dataclasses
import math

import numpy as np
import pytest
from PIL import Image

from render.spheres.chart import COLOURS, sphere_bench_chart
from render.spheres.shading import ShadeSettings, primary_rays, shade_reference
from scenes.spheres import SphereScene, build_sphere_scene

FACING = ShadeSettings(azimuth=0.0, elevation=0.0, distance=1000.0)  # eye on +z, looking down -z


def spheres(*rows):
    """Hand-made spheres from (x, y, z, radius, r, g, b) rows."""
    data = np.array(rows, np.float32).reshape(-1, 7)
    return SphereScene("hand", data[:, 0:3].copy(), data[:, 3].copy(), data[:, 4:7].copy())


def expected_byte(albedo, settings, normal, view):
    """The spec's formula in float64, written independently of the reference's float32 code."""
    s = settings.checked()
    a2 = (s.roughness**2) ** 2
    n, wo = np.asarray(normal, float), np.asarray(view, float)
    e, az = math.radians(s.light_elevation), math.radians(s.light_azimuth)
    wi = np.array([math.cos(e) * math.sin(az), math.sin(e), math.cos(e) * math.cos(az)])
    h = (wi + wo) / np.linalg.norm(wi + wo)
    n_l, n_v, n_h = n @ wi, n @ wo, n @ h
    d = a2 / (math.pi * (n_h**2 * (a2 - 1) + 1) ** 2)

    def smith(c):
        return (math.sqrt(1 + a2 * (1 - c * c) / (c * c)) - 1) / 2

    g2 = 1 / (1 + smith(n_l) + smith(n_v))
    f0 = 0.04 * (1 - s.metalness) + albedo * s.metalness
    f = f0 + (1 - f0) * (1 - wo @ h) ** 5
    radiance = s.ambient * albedo + ((1 - s.metalness) * albedo / math.pi + d * g2 * f / (4 * n_l * n_v)) * (
        s.light_radiance * n_l
    )
    return int(255 * math.sqrt(min(max(radiance, 0.0), 1.0)))


@pytest.mark.parametrize("roughness, metalness", [(0.35, 0.0), (0.8, 0.0), (0.2, 1.0), (0.5, 0.5)])
def test_centre_pixel_follows_the_ggx_formula(roughness, metalness):
    # size 8 has no pixel centre on the axis; size 9's centre pixel x = y = 4 looks straight at the sphere.
    settings = dataclasses.replace(FACING, roughness=roughness, metalness=metalness)
    albedo = (0.8, 0.5, 0.2)
    image = shade_reference(spheres((0, 0, 0, 100, *albedo)), 9, settings)
    centre = image[4, 4]
    for k in range(3):
        assert abs(int(centre[k]) - expected_byte(albedo[k], settings, (0, 0, 1), (0, 0, 1))) <= 1
    assert centre[3] == 255


def test_miss_shows_the_background_and_rays_are_unit_vectors():
    settings = FACING
    image = shade_reference(spheres((0, 0, 0, 10, 1, 1, 1)), 16, settings)
    background = [int(255 * math.sqrt(c)) for c in settings.background]
    assert image[0, 0, :3].tolist() == background
    d = primary_rays(16, settings.params())
    assert np.allclose(d[0] ** 2 + d[1] ** 2 + d[2] ** 2, 1, atol=1e-6)
    assert d[0][0, 0] < 0 and d[0][0, -1] > 0 and d[1][0, 0] < 0 and d[1][-1, 0] > 0  # row 0 = bottom


def test_nearest_sphere_wins_and_ties_keep_the_first():
    red, green = (1, 0, 0), (0, 1, 0)
    near_alone = shade_reference(spheres((0, 0, 300, 50, *red)), 9, FACING)
    both = shade_reference(spheres((0, 0, 300, 50, *red), (0, 0, 0, 50, *green)), 9, FACING)
    assert np.array_equal(both[4, 4], near_alone[4, 4])  # z = 300 is nearer the eye at z = 1000
    assert np.array_equal(
        shade_reference(spheres((0, 0, 0, 50, *green), (0, 0, 300, 50, *red)), 9, FACING)[4, 4], near_alone[4, 4]
    )
    first_alone = shade_reference(spheres((0, 0, 0, 50, *red)), 9, FACING)
    tie = shade_reference(spheres((0, 0, 0, 50, *red), (0, 0, 0, 50, *green)), 9, FACING)
    assert np.array_equal(tie, first_alone) and tie[4, 4, 0] > tie[4, 4, 1]


def test_spheres_behind_the_eye_are_not_seen_and_inside_one_sees_its_far_side():
    behind = shade_reference(spheres((0, 0, 1500, 50, 1, 1, 1)), 9, FACING)
    assert (behind[..., :3] == behind[0, 0, :3]).all()
    inside = shade_reference(spheres((0, 0, 1000, 50, 0.9, 0.9, 0.9)), 9, FACING)
    assert (inside[..., :3] != behind[0, 0, :3]).any()


def test_settings_clamp_and_orbit():
    s = ShadeSettings(elevation=120, roughness=0.0, metalness=2.0).checked()
    assert (s.elevation, s.roughness, s.metalness) == (89.0, 0.05, 1.0)
    assert ShadeSettings(azimuth=350).orbited(20).azimuth == pytest.approx(10)
    p = FACING.params()
    assert p.dtype == np.float32 and p.shape == (22,)
    assert np.allclose(p[0:3], (0, 0, 1000), atol=1e-3) and np.allclose(p[3:6], (0, 0, -1))
    assert np.allclose(p[6:9], (math.tan(math.radians(22.5)), 0, 0), atol=1e-6)


def test_material_and_camera_change_the_picture():
    scene = build_sphere_scene("classic")
    base = shade_reference(scene, 64, ShadeSettings())
    assert not np.array_equal(base, shade_reference(scene, 64, ShadeSettings(roughness=0.9)))
    assert not np.array_equal(base, shade_reference(scene, 64, ShadeSettings(metalness=1.0)))
    assert not np.array_equal(base, shade_reference(scene, 64, ShadeSettings().orbited(30)))
    assert np.array_equal(base, shade_reference(scene, 64, ShadeSettings()))


def test_chart_draws_every_variant(tmp_path):
    rows = []
    for size in (512, 1024):
        for count in (20, 256, 2340, 16384):
            for factor, variant in ((1.0, "global"), (1.5, "constant"), (0.8, "shared-tiled")):
                row = {"variant": variant, "count": count, "size": size}
                if variant == "constant" and count > 2340:
                    row["unavailable"] = "too many"
                else:
                    row["kernel_ms"] = factor * count * size * 1e-6
                rows.append(row)
    path = sphere_bench_chart(rows, tmp_path / "chart.png", "test chart")
    image = np.asarray(Image.open(path))
    assert image.shape[1] == 2 * 420 and image.shape[0] > 600
    for variant in ("global", "constant", "shared-tiled"):
        assert (image == np.array(COLOURS[variant], np.uint8)).all(axis=2).sum() > 50, variant
    with pytest.raises(ValueError, match="no timed rows"):
        sphere_bench_chart([{"variant": "constant", "count": 3000, "size": 512, "unavailable": "x"}], path, "t")
