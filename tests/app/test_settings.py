"""The app's settings file: where the config folder is, round trips, and how missing, corrupt, huge
or out-of-range files and unusable folders fall back to defaults with a warning, field by field."""

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
    ):
        path.write_text(content)
        settings, warning = load_settings(path)
        assert settings == Settings()
        assert str(path) in warning and "ignored, using defaults" in warning and reason in warning, warning


def test_a_bad_field_falls_back_alone_and_is_named(tmp_path):
    path = tmp_path / "settings.json"
    kept = {"scene": "pattern", "seed": 3, "vsync": False, "roughness": 0.5}
    for field, value, reason in (
        ("size", "big", "size must be an integer in 256..4096, got 'big'"),
        ("size", 99999, "size must be an integer in 256..4096, got 99999"),
        ("variant", "fastest", "unknown variant 'fastest'"),
        ("scene", "nowhere", "is not a built-in scene or scene file"),
        ("vsync", 1, "should be bool, got 1"),
        ("renderer", "cubes", "must be one of circles, spheres"),
        ("sphere_scene", "rgb", "is not a built-in scene or scene file"),
        ("sphere_variant", "tile-sort", "unknown spheres variant"),
        ("sphere_view", "wire", "must be one of classic, shaded"),
        ("sphere_count", 0, "sphere count must be an integer in 1..65536"),
        ("roughness", 1.5, "roughness must be a finite number in 0..1"),
        ("camera_azimuth", float("nan"), "azimuth must be a finite number in -360..360, got nan"),
        ("texture_filter", "bicubic", "must be one of nearest, linear"),
        ("ui_scale", 0.1, "UI scale must be a finite number in 0.5..3"),
        ("ui_scale_follows_monitor", "yes", "should be bool, got 'yes'"),
    ):
        path.write_text(json.dumps({**kept, field: value}))
        settings, warning = load_settings(path)
        default = getattr(Settings(), field)
        assert settings == Settings(**{**kept, field: default}), field
        assert warning.startswith(f"settings file {path}: field {field!r}: ") and reason in warning, warning
        assert f"(using the default {default!r})" in warning


def test_every_bad_field_is_named_in_one_warning(tmp_path):
    path = tmp_path / "settings.json"
    path.write_text(json.dumps({"seed": -1, "size": 512, "vsync": "yes", "window_width": 10}))
    settings, warning = load_settings(path)
    assert settings == Settings(size=512)
    assert warning.count("field ") == 3
    for field in ("'seed'", "'vsync'", "'window_width'"):
        assert f"field {field}: " in warning


def test_every_numeric_field_follows_the_limits_table(tmp_path):
    import dataclasses

    from app.settings import _LIMITS
    from render.core import limits

    path = tmp_path / "settings.json"
    numeric = {f.name for f in dataclasses.fields(Settings) if f.type in ("int", "float")}
    assert set(_LIMITS) == numeric and all(limit in vars(limits).values() for limit in _LIMITS.values())
    assert limits.SEED.high == 2**32 - 1
    for field, limit in _LIMITS.items():
        step = 1 if limit.integer else 0.5
        for value in (limit.low, limit.high):
            path.write_text(json.dumps({field: value}))
            settings, warning = load_settings(path)
            assert warning is None and getattr(settings, field) == value, (field, value, warning)
        huge = 10**400  # a whole number no float can hold
        for value in (limit.low - step, limit.high + step, huge, -huge, True, "1", None, [1]):
            path.write_text(json.dumps({field: value}))
            settings, warning = load_settings(path)
            assert settings == Settings(), (field, value)
            assert f"field {field!r}: {limit.name} must be" in warning, warning
        if not limit.integer:
            for text in ("NaN", "Infinity", "-Infinity"):
                path.write_text(f'{{"{field}": {text}}}')
                settings, warning = load_settings(path)
                assert settings == Settings() and f"field {field!r}" in warning, (field, text)
        else:
            path.write_text(json.dumps({field: limit.low + 0.5}))
            assert f"field {field!r}: {limit.name} must be an integer" in load_settings(path)[1]


def test_deeply_nested_and_huge_files_give_defaults_with_a_warning(tmp_path):
    from app.settings import MAX_SETTINGS_BYTES

    path = tmp_path / "settings.json"
    for content, reason in (
        ("[" * 100_000 + "]" * 100_000, "recursion"),
        ('{"scene": ' + "[" * 100_000 + "]" * 100_000 + "}", "recursion"),
        ('{"export_folder": "' + "x" * MAX_SETTINGS_BYTES + '"}', "larger than 1024 KiB"),
    ):
        path.write_text(content)
        settings, warning = load_settings(path)
        assert settings == Settings()
        assert warning.startswith(f"settings file {path} ignored, using defaults") and reason in warning, warning
        assert len(warning) < 500  # the warning quotes none of the content
    path.write_text(json.dumps({"export_folder": "x" * 5000, "size": 512}))
    settings, warning = load_settings(path)
    assert settings == Settings(size=512, export_folder="x" * 5000) and warning is None


def test_a_long_bad_value_is_quoted_short(tmp_path):
    path = tmp_path / "settings.json"
    path.write_text(json.dumps({"scene": "y" * 100_000, "seed": 10**4000}))
    settings, warning = load_settings(path)
    assert settings == Settings()
    assert "field 'scene'" in warning and "field 'seed'" in warning and len(warning) < 1000


def test_a_settings_path_that_is_no_file_gives_defaults(tmp_path):
    import os

    (tmp_path / "folder.json").mkdir()
    settings, warning = load_settings(tmp_path / "folder.json")
    assert settings == Settings() and "not a regular file" in warning
    os.mkfifo(tmp_path / "pipe.json")  # opening it would wait for a writer forever
    settings, warning = load_settings(tmp_path / "pipe.json")
    assert settings == Settings() and "not a regular file" in warning
    blocker = tmp_path / "config-is-a-file"
    blocker.write_text("")
    assert load_settings(blocker / "settings.json") == (Settings(), None)  # the app warns about the folder


def test_a_config_folder_that_cannot_be_used_gives_a_warning(tmp_path, monkeypatch):
    import os

    from app.settings import prepare_config_dir

    monkeypatch.setenv("RASTERLAB_CONFIG_DIR", str(tmp_path / "new" / "config"))
    assert prepare_config_dir() == (tmp_path / "new" / "config", None)
    blocker = tmp_path / "blocker"
    blocker.write_text("")
    monkeypatch.setenv("RASTERLAB_CONFIG_DIR", str(blocker))
    folder, warning = prepare_config_dir()
    assert folder is None and warning.startswith(f"the config folder {blocker} exists but is not a folder")
    assert "will not be saved" in warning
    monkeypatch.setenv("RASTERLAB_CONFIG_DIR", str(blocker / "config"))
    folder, warning = prepare_config_dir()
    assert folder is None and warning.startswith(f"cannot make the config folder {blocker / 'config'}")
    if os.geteuid() != 0:  # root writes whatever the mode says
        locked = tmp_path / "locked"
        locked.mkdir(mode=0o500)
        monkeypatch.setenv("RASTERLAB_CONFIG_DIR", str(locked))
        folder, warning = prepare_config_dir()
        assert folder is None and warning == f"the config folder {locked} is not writable; {warning.split('; ')[1]}"


def test_saving_never_raises(tmp_path, monkeypatch):
    import os

    def refuse(*args, **kwargs):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(os, "replace", refuse)
    warning = save_settings(Settings(), tmp_path / "settings.json")
    assert warning == f"could not save settings to {tmp_path / 'settings.json'}: Permission denied"
    assert list(tmp_path.iterdir()) == []  # the temporary file went too
    monkeypatch.undo()
    (tmp_path / "settings.json").mkdir()  # os.replace cannot put a file over a folder
    assert save_settings(Settings(), tmp_path / "settings.json").startswith("could not save settings")


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
