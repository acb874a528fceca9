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
