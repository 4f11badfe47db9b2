"""Debian's headless Chromium driven by Selenium, for the page tests and the page benchmark: a
temporary profile and download folder per browser, nothing fetched (Selenium Manager stays
offline: the browser and driver paths are given)."""
import json
import os
import shutil
import tempfile
import time
from pathlib import Path

os.environ.setdefault("SE_OFFLINE", "true")

from selenium import webdriver  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"


class Browser:
    """A running headless Chromium; `close()` quits it and removes its profile."""

    def __init__(self, width=1600, height=1200):
        for path in (CHROMIUM, CHROMEDRIVER):
            if not Path(path).exists():
                raise RuntimeError(f"{path} is missing: Scripts/setup installs Debian's chromium and chromium-driver")
        self.profile = Path(tempfile.mkdtemp(prefix="dfkit-chromium-"))
        self.downloads = self.profile / "downloads"
        self.downloads.mkdir()
        options = webdriver.ChromeOptions()
        options.binary_location = CHROMIUM
        # A container has no user namespaces for Chromium's sandbox; media must load and play
        # without a user gesture; /dev/shm is small in containers.
        for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--autoplay-policy=no-user-gesture-required",
                         "--mute-audio", f"--user-data-dir={self.profile / 'profile'}", f"--window-size={width},{height}",
                         "--no-first-run", "--disable-background-networking", "--disable-component-update"):
            options.add_argument(argument)
        options.add_experimental_option("prefs", {
            "download.default_directory": str(self.downloads),
            "download.prompt_for_download": False,
            "download.directory_upgrade": True,
            "safebrowsing.enabled": False,
        })
        self.driver = webdriver.Chrome(options=options, service=Service(CHROMEDRIVER))

    def open(self, path, timeout=20):
        """Opens a page (a file, or an http:// address) and waits until its script has drawn it."""
        self.driver.get(path if str(path).startswith("http://") else Path(path).resolve().as_uri())
        self.wait(lambda: self.driver.execute_script("return document.body && document.body.dataset.ready === 'true'"), timeout,
                  f"{path} did not finish drawing")

    def wait(self, condition, timeout, message):
        deadline = time.monotonic() + timeout
        while True:
            value = condition()
            if value:
                return value
            if time.monotonic() > deadline:
                raise AssertionError(f"{message} within {timeout} s")
            time.sleep(0.05)

    def run(self, script, *arguments):
        return self.driver.execute_script(script, *arguments)

    def downloaded(self, timeout=20):
        """The JSON of the one finished download (Chromium writes a hidden .org.chromium.* file, then
        a .crdownload one, then renames it: only a visible name without that suffix is finished)."""
        def unfinished(path):
            return path.name.endswith(".crdownload") or path.name.startswith(".")

        def done():
            files = [path for path in self.downloads.iterdir() if not unfinished(path)]
            partial = [path for path in self.downloads.iterdir() if unfinished(path)]
            return files if files and not partial else None
        files = self.wait(done, timeout, "no download finished")
        assert len(files) == 1, f"downloads: {[path.name for path in files]}"
        return files[0].name, json.loads(files[0].read_text())

    def close(self):
        try:
            self.driver.quit()
        finally:
            shutil.rmtree(self.profile, ignore_errors=True)
