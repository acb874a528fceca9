import json

from app.settings import Settings, config_dir, load_settings, save_settings


def test_config_folder_is_per_user_not_the_working_directory(monkeypatch, tmp_path):
    monkeypatch.delenv("RASTERLAB_CONFIG_DIR", raising=False)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    assert config_dir() == tmp_path / "xdg" / "rasterlab"
    monkeypatch.delenv("XDG_CONFIG_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert config_dir() == tmp_path / "home" / ".config" / "rasterlab"


def test_round_trip(tmp_path):
    path = tmp_path / "settings.json"
    saved = Settings(scene="pattern", seed=3, variant="tile-scan:tile=32", size=512, vsync=False)
    assert save_settings(saved, path) is None
    assert load_settings(path) == (saved, None)
    assert [p.name for p in tmp_path.iterdir()] == ["settings.json"]


def test_missing_file_gives_defaults_quietly(tmp_path):
    assert load_settings(tmp_path / "none.json") == (Settings(), None)


def test_corrupt_files_fall_back_to_defaults_with_a_warning(tmp_path):
    path = tmp_path / "settings.json"
    for content, reason in (
        ("{not json", "Expecting property name"),
        ("[1, 2]", "expected a JSON object"),
        (json.dumps({"size": "big"}), "field 'size' should be int"),
        (json.dumps({"size": 99999}), "field 'size' must be 256..4096"),
        (json.dumps({"variant": "fastest"}), "unknown variant 'fastest'"),
        (json.dumps({"scene": "nowhere"}), "field 'scene'"),
        (json.dumps({"vsync": 1}), "field 'vsync' should be bool"),
        (json.dumps({"renderer": "cubes"}), "field 'renderer' must be one of circles, spheres"),
        (json.dumps({"sphere_scene": "rgb"}), "field 'sphere_scene' is not a built-in scene"),
        (json.dumps({"sphere_variant": "tile-sort"}), "field 'sphere_variant': unknown spheres variant"),
        (json.dumps({"sphere_view": "wire"}), "field 'sphere_view' must be one of classic, shaded"),
        (json.dumps({"sphere_count": 0}), "field 'sphere_count' must be 1..65536"),
        (json.dumps({"roughness": 1.5}), "field 'roughness' must be 0..1"),
        ('{"camera_azimuth": NaN}', "field 'camera_azimuth' should be a finite float"),
    ):
        path.write_text(content)
        settings, warning = load_settings(path)
        assert settings == Settings()
        assert str(path) in warning and reason in warning, warning


def test_unwritable_folder_gives_a_warning_not_an_exception(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("")
    warning = save_settings(Settings(), blocker / "settings.json")
    assert warning.startswith(f"could not save settings to {blocker / 'settings.json'}")


def test_sphere_settings_round_trip_and_whole_numbers_are_floats(tmp_path):
    path = tmp_path / "settings.json"
    wanted = Settings(renderer="spheres", sphere_scene="random", sphere_count=300, sphere_view="shaded", roughness=0.7)
    assert save_settings(wanted, path) is None
    assert load_settings(path) == (wanted, None)
    path.write_text(json.dumps({"metalness": 1, "camera_elevation": -30}))
    settings, warning = load_settings(path)
    assert warning is None and settings.metalness == 1.0 and type(settings.metalness) is float
