"""The settings model: migration from version 1, typed values, and a round trip."""

from __future__ import annotations

import pytest

from app.settings import (
    CURRENT_VERSION,
    MAX_RECENT,
    MemoryStorage,
    Settings,
    load,
    migrate,
    save,
    stored_version,
)

# What Tensor Lab 0.1 wrote: no version key, the layout blobs and "recent".
V1 = {"window/geometry": b"\x01\xd9\xd0\xcb geometry", "window/state": b"\x00\xff state",
      "recent": ["/lessons/a.py", "/lessons/b.py"]}


def test_a_file_without_a_version_is_version_1_and_migrates_to_the_current_one():
    assert stored_version(V1) == 1
    migrated = migrate(dict(V1))
    assert migrated["version"] == CURRENT_VERSION
    assert "recent" not in migrated
    assert migrated["recipes/recent"] == ["/lessons/a.py", "/lessons/b.py"]
    assert migrated["window/geometry"] == V1["window/geometry"]
    assert migrated["appearance/theme"] == "system"


def test_version_1_loads_as_typed_settings_with_defaults_for_new_fields():
    settings = load(MemoryStorage(V1))
    assert settings == Settings(window_geometry=V1["window/geometry"],
                                window_state=V1["window/state"],
                                recent_recipes=["/lessons/a.py", "/lessons/b.py"])
    assert settings.version == CURRENT_VERSION


def test_a_single_recent_file_stored_as_a_string_becomes_a_list():
    assert load(MemoryStorage({"recent": "/only.py"})).recent_recipes == ["/only.py"]
    assert load(MemoryStorage({"recent": None})).recent_recipes == []


def test_ini_strings_are_typed_and_bad_values_fall_back_to_defaults():
    raw = {"version": "2", "appearance/theme": "dark", "appearance/high_contrast": "true",
           "presenter/scale": "2.25", "appearance/language": "zh_CN",
           "devices/default": "cuda:0"}
    s = load(MemoryStorage(raw))
    assert (s.theme, s.high_contrast, s.presenter_scale, s.language, s.default_device) == (
        "dark", True, 2.25, "zh_CN", "cuda:0")
    bad = {"version": "2", "appearance/theme": "purple", "appearance/high_contrast": "maybe",
           "presenter/scale": "huge", "window/geometry": 12}
    s = load(MemoryStorage(bad))
    assert (s.theme, s.high_contrast, s.presenter_scale, s.window_geometry) == (
        "system", False, 1.5, b"")
    assert load(MemoryStorage({"version": "2", "presenter/scale": "100"})).presenter_scale == 4.0


def test_round_trip_keeps_every_field_and_drops_obsolete_keys():
    original = Settings(window_geometry=b"g", window_state=b"s", theme="light",
                        high_contrast=True, language="zh_CN", recent_recipes=["/x.py"],
                        presenter_scale=1.75, default_device="cpu")
    storage = MemoryStorage({"recent": ["/old.py"], "training/lr": 0.1})
    save(original, storage)
    assert "recent" not in storage.values
    assert storage.values["training/lr"] == 0.1  # someone else's key is left alone
    assert storage.values["version"] == CURRENT_VERSION
    assert load(storage) == original


def test_recent_recipes_are_most_recent_first_without_duplicates():
    s = Settings()
    for i in range(MAX_RECENT + 3):
        s.add_recent(f"/r{i}.py")
    s.add_recent("/r5.py")
    assert s.recent_recipes[0] == "/r5.py"
    assert len(s.recent_recipes) == MAX_RECENT == len(set(s.recent_recipes))


def test_changes_emit_one_event_per_field():
    s = Settings()
    seen = []
    s.events.theme.connect(seen.append)
    s.theme = "dark"
    assert seen == ["dark"]


@pytest.mark.gui
def test_a_version_1_qsettings_file_migrates(qapp, tmp_path):
    """Write the INI Tensor Lab 0.1 wrote, with QSettings, and read it through the model."""
    from PySide6.QtCore import QByteArray, QSettings

    from widgets.shell.settings_store import QSettingsStore, load_settings, save_settings

    old = QSettings()
    old.setValue("window/geometry", QByteArray(V1["window/geometry"]))
    old.setValue("window/state", QByteArray(V1["window/state"]))
    old.setValue("recent", V1["recent"])
    old.sync()
    assert str(tmp_path) in old.fileName()  # the fixture keeps real settings out
    assert "version" not in old.allKeys()

    settings = load_settings(QSettingsStore())
    assert settings.window_geometry == V1["window/geometry"]
    assert settings.window_state == V1["window/state"]
    assert settings.recent_recipes == V1["recent"]
    assert (settings.theme, settings.language, settings.presenter_scale) == ("system", "", 1.5)

    save_settings(settings)
    stored = QSettings()
    assert int(stored.value("version")) == CURRENT_VERSION
    assert "recent" not in stored.allKeys()
    assert load_settings() == settings


@pytest.mark.gui
def test_the_window_reads_recent_files_and_layout_through_the_model(qtbot):
    from PySide6.QtCore import QSettings

    from app.recipe.document import Document
    from widgets.shell.main_window import MainWindow

    QSettings().setValue("recent", ["/lessons/a.py"])
    window = MainWindow(Document())
    qtbot.addWidget(window)
    assert window.recent_files() == ["/lessons/a.py"]
    assert [a.toolTip() for a in window.recent_menu.actions()] == ["/lessons/a.py"]
    window.save_settings()
    assert QSettings().value("window/state") is not None
    assert QSettings().value("recipes/recent") in (["/lessons/a.py"], "/lessons/a.py")
