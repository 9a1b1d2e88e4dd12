"""A real browser for the web pages' tests: Debian's Chromium (``/usr/bin/chromium``, apt ``chromium``) driven by
Selenium through Debian's ``chromedriver`` (apt ``chromium-driver``), headless, at a phone's width; and the site
served on 127.0.0.1 from the test's own event loop."""

from __future__ import annotations

import asyncio
import contextlib
import shutil
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from aiohttp import web

from bot.web.app import make_app

CHROMIUM = ("/usr/bin/chromium", "/usr/bin/chromium-browser")
DRIVER = ("/usr/bin/chromedriver", "/usr/lib/chromium/chromedriver")
#: a phone's width in CSS pixels
PHONE = {"width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": True}


def _found(paths: tuple[str, ...], name: str) -> str | None:
    return next((path for path in paths if Path(path).is_file()), None) or shutil.which(name)


def chromium() -> Any:
    """A headless Chromium at a phone's width; the test is skipped, saying why, when there is none."""
    binary, driver = _found(CHROMIUM, "chromium"), _found(DRIVER, "chromedriver")
    if binary is None or driver is None:
        pytest.skip("no Chromium and chromedriver here (apt-get install chromium chromium-driver; .ci/run does)")
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = binary
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--lang=en-US", "--window-size=390,844"):
        options.add_argument(argument)
    browser = webdriver.Chrome(service=Service(driver), options=options)
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", PHONE)
    return browser


@contextlib.asynccontextmanager
async def served(db: Any, **options: Any) -> AsyncIterator[str]:
    """The site on ``db``, on a free port of 127.0.0.1: its base address."""
    runner = web.AppRunner(make_app(db, **options), access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = runner.addresses[0][1]
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        await runner.cleanup()


async def run(function: Any, *args: Any) -> Any:
    """A blocking browser call, off the event loop (the site and the bot keep serving meanwhile)."""
    return await asyncio.to_thread(function, *args)


def assert_fits_a_phone(browser: Any, screenshot: Path) -> None:
    """The page as a phone shows it: saved as a screenshot, 390 px wide, nothing wider than the screen, and every
    text readable (:func:`assert_readable`)."""
    browser.save_screenshot(str(screenshot))
    from PIL import Image

    with Image.open(screenshot) as shot:
        assert shot.width == PHONE["width"], shot.size
    widths = browser.execute_script(
        "return [document.documentElement.scrollWidth, document.body.scrollWidth, window.innerWidth]")
    assert widths[0] <= widths[2] and widths[1] <= widths[2], f"wider than the phone: {widths}"
    assert_readable(browser)


#: every text's contrast with the background behind it: (ratio, text) of the lowest ones under 4.5:1 (WCAG AA)
CONTRAST_SCRIPT = """
function rgb(text) { return text.match(/[\\d.]+/g).map(Number); }
function luminance(c) {
  const [r, g, b] = c.slice(0, 3).map(v => {
    v /= 255;
    return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}
function behind(element) {
  for (let at = element; at; at = at.parentElement) {
    const colour = rgb(getComputedStyle(at).backgroundColor);
    if (colour.length < 4 || colour[3] > 0) return colour;
  }
  return [255, 255, 255];
}
const low = [];
for (const element of document.querySelectorAll('h1, h2, h3, p, li, td, th, dt, dd, a, button, span, strong')) {
  if (!element.offsetParent || !element.textContent.trim()) continue;
  const [a, b] = [luminance(rgb(getComputedStyle(element).color)), luminance(behind(element))];
  const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
  if (ratio < 4.5) low.push([Math.round(ratio * 100) / 100, element.textContent.trim().slice(0, 40)]);
}
return low;
"""


def assert_readable(browser: Any) -> None:
    """Every text shown has a contrast of at least 4.5:1 with what is behind it (WCAG AA)."""
    low = browser.execute_script(CONTRAST_SCRIPT)
    assert low == [], f"text without enough contrast: {low[:5]}"
