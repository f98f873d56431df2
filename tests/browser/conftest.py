from __future__ import annotations

from typing import Iterator, Tuple

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.service import Service

from stack import Daemon, Emulator


@pytest.fixture(scope="session")
def emulator() -> Iterator[Emulator]:
    running = Emulator()
    yield running
    running.stop()


@pytest.fixture(params=["firebase", "supabase"])
def daemon(request: pytest.FixtureRequest, emulator: Emulator) -> Iterator[Daemon]:
    running = Daemon(emulator, request.param)
    yield running
    running.stop()


@pytest.fixture(scope="session")
def browser() -> Iterator[webdriver.Chrome]:
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"):
        options.add_argument(argument)
    # Every URL the browser requests, for the tests to look at the redirects it followed.
    options.set_capability("goog:loggingPrefs", {"performance": "ALL"})
    driver = webdriver.Chrome(options=options, service=Service(executable_path="/usr/bin/chromedriver"))
    driver.set_page_load_timeout(60)
    yield driver
    driver.quit()
