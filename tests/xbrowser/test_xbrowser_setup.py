"""What the cross-browser tests run in: MUSTER_BROWSERS narrows the browsers, a browser named
and not installed is a failure that says what to install, and no driver is ever downloaded."""

from __future__ import annotations

import drivers
import pytest
from browsers import BROWSERS, wanted
from drivers import BrowserMissing, FirefoxDriver, WebKitDriver


def test_muster_browsers_narrows_the_set(monkeypatch):
    monkeypatch.delenv("MUSTER_BROWSERS", raising=False)
    assert wanted() == list(BROWSERS) == ["chromium", "webkit", "firefox"]
    monkeypatch.setenv("MUSTER_BROWSERS", " WebKit, firefox ")
    assert wanted() == ["webkit", "firefox"]
    for bad in ("safari", "webkit,,edge", ","):
        monkeypatch.setenv("MUSTER_BROWSERS", bad)
        with pytest.raises(ValueError, match="name some of chromium, webkit, firefox"):
            wanted()


def test_a_missing_browser_says_what_to_install(monkeypatch, tmp_path):
    monkeypatch.setattr(drivers.shutil, "which", lambda _name: None)
    monkeypatch.setattr(drivers, "FIREFOX", str(tmp_path / "firefox-esr"))
    with pytest.raises(BrowserMissing, match="Debian's package firefox-esr"):
        FirefoxDriver()
    monkeypatch.setattr(drivers, "WEBKIT_DRIVER", str(tmp_path / "WebKitWebDriver"))
    with pytest.raises(BrowserMissing, match="Debian's package webkit2gtk-driver"):
        WebKitDriver(":0")
    with pytest.raises(BrowserMissing, match="Debian's package xvfb"):
        drivers.XDisplay()


def test_selenium_manager_is_never_asked():
    from selenium.webdriver.common.selenium_manager import SeleniumManager

    drivers.no_selenium_manager()
    with pytest.raises(RuntimeError, match="Selenium Manager was asked"):
        SeleniumManager().binary_paths(["--browser", "MiniBrowser"])
