"""`dfkit report --html` opened in headless Chromium and checked through the DOM against the
records the corpus run wrote (parsed here with Python's json) and the audio files' own headers."""
import contextlib
import functools
import http.server
import json
import os
import struct
import threading
import zlib
from pathlib import Path

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from conftest import BROKEN_ID, DELETED, HOSTILE_ID, HOSTILE_SPEAKER, SYSTEMS, dfkit, wav_seconds

# <audio>'s duration against the file's own length: the issue's ±10 ms.
DURATION_TOLERANCE_S = 0.010


@pytest.fixture(scope="module")
def page(corpus, tmp_path_factory):
    folder = tmp_path_factory.mktemp("page")
    dfkit("report", *corpus.results, "--html", folder)
    return folder / "index.html"


def ids_in_order(browser):
    return browser.run("return [...document.querySelectorAll('#items-body tr.item')].map(row => row.querySelector('.id-text').textContent)")


def metric_values(browser, system, metric):
    return browser.run("""
        return [...document.querySelectorAll('#items-body tr.item')].map(row => {
            const value = row.querySelector(`td[data-system="${CSS.escape(arguments[0])}"] [data-metric="${arguments[1]}"]`);
            return value ? Number(value.dataset.value) : null;
        })""", system, metric)


def test_one_row_per_input_and_a_cell_per_record(corpus, page, browser):
    browser.open(page)
    ids = ids_in_order(browser)
    expected_ids = sorted({record["id"] for record in corpus.records})
    assert ids == expected_ids
    for record in corpus.records:
        cell = browser.driver.find_element(By.CSS_SELECTOR, f'tr.item[data-id="{css(record["id"])}"] td[data-system="{record["model"]}"]')
        if record["status"] == "error":
            assert record["error"] in cell.text.replace("\n", "")
        elif (record["id"], record["model"]) != DELETED:
            assert cell.find_elements(By.TAG_NAME, "audio"), f"no player for {record['id']} {record['model']}"


def test_rows_page_through_a_larger_run(corpus, tmp_path, browser):
    # 60 ids by two systems, each record naming one of the real outputs: the rows come 25 a page.
    template = [record for record in corpus.records if record["status"] == "ok" and record["id"] == "clip-a"]
    results = tmp_path / "results.jsonl"
    with results.open("w") as file:
        for index in range(60):
            for record in template:
                file.write(json.dumps({**record, "id": f"row-{index:03d}", "stoi": index / 100}) + "\n")
    dfkit("report", results, "--html", tmp_path / "page", "--link")
    browser.open(tmp_path / "page" / "index.html")
    seen = []
    while True:
        seen += ids_in_order(browser)
        button = browser.driver.find_element(By.ID, "next")
        if not button.is_enabled():
            break
        button.click()
    assert seen == [f"row-{index:03d}" for index in range(60)]


@contextlib.contextmanager
def static_server(folder):
    """Python's own static file server on a free local port, serving `folder`."""
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(folder))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


@pytest.mark.parametrize("link, served", [(False, False), (True, False), (True, True)], ids=["copied", "linked", "linked-served"])
def test_every_player_loads_its_files_duration(corpus, tmp_path, browser, link, served):
    folder = tmp_path / "page"
    dfkit("report", *corpus.results, "--html", folder, *(["--link"] if link else []))
    assert all((folder / "audio" / name).is_symlink() == link for name in os.listdir(folder / "audio"))
    with contextlib.ExitStack() as stack:
        browser.open(stack.enter_context(static_server(folder)) + "index.html" if served else folder / "index.html")
        check_players(corpus, browser)


def check_players(corpus, browser):
    states = browser.wait(lambda: (lambda found: found if found and all(state["ready"] >= 1 or state["error"] for state in found) else None)(
        browser.run("return [...document.querySelectorAll('audio')].map(a => ({ready: a.readyState, error: a.error && a.error.code,"
                    " duration: a.duration, path: a.dataset.path}))")), 20, "the players did not load their metadata")
    # Per id: the noisy input and reference, and each system's output that is there.
    ok_outputs = [record for record in corpus.records if record["status"] == "ok" and (record["id"], record["model"]) != DELETED]
    ok_ids = {record["id"] for record in corpus.records if record["status"] == "ok"}
    assert len(states) == len(ok_outputs) + 2 * len(ok_ids)
    for state in states:
        assert state["error"] is None, state
        assert abs(state["duration"] - wav_seconds(state["path"])) <= DURATION_TOLERANCE_S, state


def test_sorting_by_a_metric_orders_the_rows(corpus, page, browser):
    browser.open(page)
    for system in SYSTEMS:
        values = {record["id"]: record["stoi"] for record in corpus.records if record["model"] == system and "stoi" in record}
        Select(browser.driver.find_element(By.ID, "sort")).select_by_visible_text(f"{system} · stoi")
        for order in ("ascending", "descending"):
            Select(browser.driver.find_element(By.ID, "sort-order")).select_by_value(order)
            with_value = sorted(values, key=values.get, reverse=order == "descending")
            ids = ids_in_order(browser)
            # Rows without the metric (failed, or another system's) come last, in the order of ids.
            assert ids == with_value + sorted(set(ids) - set(values))
            shown = [value for value in metric_values(browser, system, "stoi") if value is not None]
            assert shown == sorted(shown, reverse=order == "descending")


def test_filters_hide_rows(corpus, page, browser):
    browser.open(page)
    all_ids = sorted({record["id"] for record in corpus.records})
    box = browser.driver.find_element(By.ID, "filter")
    box.send_keys("clip-c")
    assert ids_in_order(browser) == ["clip-c"]
    box.clear()
    box.send_keys("no 'data' chunk")   # the corrupt input's error message
    assert ids_in_order(browser) == [BROKEN_ID]
    box.clear()
    browser.run("document.getElementById('filter').dispatchEvent(new Event('input'))")
    assert ids_in_order(browser) == all_ids
    Select(browser.driver.find_element(By.ID, "status")).select_by_value("failed")
    assert ids_in_order(browser) == [BROKEN_ID]
    Select(browser.driver.find_element(By.ID, "status")).select_by_value("all")
    # A metric range: the rows whose GTCRN SI-SDR is at least the median of the run's values.
    values = {record["id"]: record["si_sdr_db"] for record in corpus.records if record["model"] == "gtcrn" and "si_sdr_db" in record}
    threshold = sorted(values.values())[len(values) // 2]
    Select(browser.driver.find_element(By.ID, "metric-filter")).select_by_visible_text("gtcrn · si_sdr_db")
    browser.driver.find_element(By.ID, "metric-min").send_keys(repr(threshold))
    assert ids_in_order(browser) == sorted(identifier for identifier, value in values.items() if value >= threshold)
    # Hiding a system hides its column.
    browser.driver.find_element(By.CSS_SELECTOR, 'input.system-toggle[data-system="gtcrn"]').click()
    assert not browser.driver.find_elements(By.CSS_SELECTOR, 'td[data-system="gtcrn"], th[data-system="gtcrn"]')


def test_a_missing_file_is_shown_missing_with_its_path(corpus, page, browser):
    browser.open(page)
    identifier, system = DELETED
    cell = browser.driver.find_element(By.CSS_SELECTOR, f'tr.item[data-id="{identifier}"] td[data-system="{system}"]')
    missing = cell.find_element(By.CLASS_NAME, "missing")
    assert missing.text.startswith("missing") and corpus.deleted in missing.text
    assert not cell.find_elements(By.TAG_NAME, "audio")
    # The corrupt input is there but cannot be decoded: shown as unreadable, not as a broken player.
    broken = browser.driver.find_element(By.CSS_SELECTOR, f'tr.item[data-id="{BROKEN_ID}"] td.noisy .missing')
    assert broken.text.startswith("unreadable") and "corrupt-truncated.wav" in broken.text


def test_hostile_names_are_shown_literally(corpus, tmp_path, browser):
    folder = tmp_path / "page"
    dfkit("report", *corpus.results, "--html", folder, "--by", "model,speaker")
    browser.open(folder / "index.html")
    assert HOSTILE_ID in ids_in_order(browser)
    hostile_path = str(corpus.folder / "noisy" / f"{HOSTILE_ID}.wav")
    assert browser.run("return [...document.querySelectorAll('audio')].some(a => a.dataset.path === arguments[0])", hostile_path)
    headers = browser.run("return [...document.querySelectorAll('#items-head th')].map(th => th.textContent)")
    assert f"dfn3 / {HOSTILE_SPEAKER}" in headers and f"gtcrn / {HOSTILE_SPEAKER}" in headers
    summary = browser.run("return [...document.querySelectorAll('#summary td')].map(td => td.textContent)")
    assert f"dfn3 / {HOSTILE_SPEAKER}" in summary
    # Nothing was interpreted as markup: no injected image or italics, the title untouched.
    assert browser.run("return document.querySelectorAll('img[src=x], i').length") == 0
    assert browser.driver.title == "Corpus report"


def test_a_screenshot_is_taken_and_is_not_blank(page, browser):
    browser.open(page)
    browser.run("document.getElementById('items').scrollIntoView()")
    browser.wait(lambda: browser.run("return [...document.images].every(image => image.complete && image.naturalWidth > 0)"), 20,
                 "the images did not load")
    png = browser.driver.get_screenshot_as_png()
    width, height, pixels = decode_png(png)
    assert (width, height) == tuple(browser.run("return [window.innerWidth, window.innerHeight]"))
    colours = {pixels[offset:offset + 3] for offset in range(0, len(pixels), 3 * 7)}
    # A blank page has one colour; spectrograms, text and players have thousands.
    assert len(colours) > 1000, f"{len(colours)} colours"
    if os.environ.get("DFKIT_SCREENSHOTS"):
        Path(os.environ["DFKIT_SCREENSHOTS"]).mkdir(parents=True, exist_ok=True)
        (Path(os.environ["DFKIT_SCREENSHOTS"]) / "report-page.png").write_bytes(png)


def css(text):
    return text.replace("\\", "\\\\").replace('"', '\\"')


def decode_png(data):
    """An 8-bit RGB or RGBA PNG's pixels as RGB bytes (the PNG specification's five row filters)."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    offset, chunks = 8, {}
    while offset < len(data):
        length, kind = struct.unpack(">I4s", data[offset:offset + 8])
        chunks.setdefault(kind, []).append(data[offset + 8:offset + 8 + length])
        offset += 12 + length
    width, height, depth, colour = struct.unpack(">IIBB", chunks[b"IHDR"][0][:10])
    assert depth == 8 and colour in (2, 6), (depth, colour)
    channels = 3 if colour == 2 else 4
    raw = zlib.decompress(b"".join(chunks[b"IDAT"]))
    stride = width * channels
    previous, rows = bytearray(stride), bytearray()
    for row in range(height):
        kind, line = raw[row * (stride + 1)], bytearray(raw[row * (stride + 1) + 1:(row + 1) * (stride + 1)])
        for index in range(stride):
            left = line[index - channels] if index >= channels else 0
            up, corner = previous[index], previous[index - channels] if index >= channels else 0
            if kind == 1:
                line[index] = (line[index] + left) & 255
            elif kind == 2:
                line[index] = (line[index] + up) & 255
            elif kind == 3:
                line[index] = (line[index] + (left + up) // 2) & 255
            elif kind == 4:
                estimate = left + up - corner
                a, b, c = abs(estimate - left), abs(estimate - up), abs(estimate - corner)
                line[index] = (line[index] + (left if a <= b and a <= c else up if b <= c else corner)) & 255
        rows += line
        previous = line
    pixels = bytes(rows) if channels == 3 else bytes(b for index in range(0, len(rows), 4) for b in rows[index:index + 3])
    return width, height, pixels


def test_spectrograms_are_made_once_and_reused(corpus, tmp_path):
    folder = tmp_path / "page"
    dfkit("report", *corpus.results, "--html", folder)
    images = {path.name: (path.stat().st_ino, path.stat().st_mtime_ns) for path in (folder / "spectrograms").glob("*.png")}
    # The inputs, references and outputs there are, each once.
    ok_ids = {record["id"] for record in corpus.records if record["status"] == "ok"}
    ok_outputs = [record for record in corpus.records if record["status"] == "ok" and (record["id"], record["model"]) != DELETED]
    assert len(images) == 2 * len(ok_ids) + len(ok_outputs)
    dfkit("report", *corpus.results, "--html", folder)
    assert {path.name: (path.stat().st_ino, path.stat().st_mtime_ns) for path in (folder / "spectrograms").glob("*.png")} == images
    # One system's results alone: its rows' scales may change, the other system's images go.
    dfkit("report", corpus.results[0], "--html", folder)
    assert len(list((folder / "spectrograms").glob("*.png"))) == 3 * len(ok_ids)
