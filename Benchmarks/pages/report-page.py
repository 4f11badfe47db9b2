#!/usr/bin/env python3
"""How fast `dfkit report --html` pages open and sort in headless Chromium: a page of 10,000 input
ids (two systems each, with references) against its peer of 100 ids, in interleaved rounds
(large, small, large, small, …), each round in a fresh browser.

Usage: Benchmarks/pages/report-page.py [--rows N] [--peer-rows N] [--rounds N] [--json FILE] [--markdown FILE]
(after Scripts/setup and `swift build -c release --product dfkit`)

The records are made here: each id's noisy input, outputs and reference are clips of the generated
test corpus (Tests/Fixtures/generated/corpus), metrics drawn from a seeded generator; the page is
written with `--link`. Timed, as the page's own clock sees it:
  load    navigation start to the end of the first draw (the page's `dfkit-ready` mark): the HTML,
          the data file (parsed), the script, the table's first page of 25 rows
  sort    changing "Sort by" to a metric and the redraw that follows (the change handler runs the
          filter, the sort of every row and the draw of the first page before it returns)
"""
import argparse
import json
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "Tests" / "Browser"))
from browser import Browser  # noqa: E402

DFKIT = ROOT / ".build" / "release" / "dfkit"
CORPUS = ROOT / "Tests" / "Fixtures" / "generated" / "corpus"
CLIPS = ["clip01-16000-1ch", "clip05-16000-1ch", "clip11-48000-1ch", "clip19-48000-1ch"]


def make_page(folder, rows):
    generator = random.Random(rows)
    results = folder / "results.jsonl"
    with results.open("w") as file:
        for index in range(rows):
            clip = CLIPS[index % len(CLIPS)]
            noisy = CORPUS / "noisy" / "group-a" / f"{clip}.wav"
            for system in ("dfn3", "gtcrn"):
                file.write(json.dumps({
                    "id": f"speaker{index % 97}/utterance-{index:05d}", "input": str(noisy), "reference": str(CORPUS / "clean" / f"{clip}.wav"),
                    # Any real clip stands for an output: the page's speed does not depend on what it sounds like.
                    "output": str(CORPUS / "clean" / f"{CLIPS[(index + 1) % len(CLIPS)]}.wav"),
                    "model": system, "settings": {}, "status": "ok", "error": None, "finished_at": 1.0, "duration_s": 1.2,
                    "processing_s": 0.02, "rtf": 0.02 + generator.random() / 100, "stoi": generator.uniform(0.6, 1.0),
                    "si_sdr_db": generator.uniform(0, 25)}) + "\n")
    started = time.monotonic()
    subprocess.run([str(DFKIT), "report", str(results), "--html", str(folder / "page"), "--link"], check=True, capture_output=True)
    return folder / "page" / "index.html", time.monotonic() - started


def measure(page):
    browser = Browser()
    try:
        browser.open(page, timeout=60)
        load = browser.run("return performance.getEntriesByName('dfkit-ready')[0].startTime")
        sort = browser.run("""
            const select = document.getElementById('sort');
            select.value = [...select.options].find(option => option.text === 'gtcrn · stoi').value;
            const start = performance.now();
            select.dispatchEvent(new Event('change'));
            return performance.now() - start;""")
        rows = browser.run("return document.querySelectorAll('#items-body tr.item').length")
        assert rows == 25, rows
        return load, sort
    finally:
        browser.close()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=10_000)
    parser.add_argument("--peer-rows", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--json")
    parser.add_argument("--markdown")
    options = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="dfkit-page-bench-") as temporary:
        pages, build = {}, {}
        for rows in (options.rows, options.peer_rows):
            (Path(temporary) / str(rows)).mkdir()
            pages[rows], build[rows] = make_page(Path(temporary) / str(rows), rows)
        times = {rows: {"load_ms": [], "sort_ms": []} for rows in pages}
        for _ in range(options.rounds):
            for rows in (options.rows, options.peer_rows):
                load, sort = measure(pages[rows])
                times[rows]["load_ms"].append(load)
                times[rows]["sort_ms"].append(sort)
    large, small = times[options.rows], times[options.peer_rows]
    summary = {
        "rows": options.rows, "peer_rows": options.peer_rows, "rounds": options.rounds, "chromium": chromium_version(),
        "page_write_s": {str(rows): round(seconds, 2) for rows, seconds in build.items()},
        "median_ms": {str(rows): {name: round(statistics.median(values), 1) for name, values in entry.items()} for rows, entry in times.items()},
        "median_ratio": {name: round(statistics.median(a / b for a, b in zip(large[name], small[name])), 2) for name in large},
        "rounds_ms": {str(rows): entry for rows, entry in times.items()},
    }
    text = json.dumps(summary, indent=1)
    print(text)
    if options.json:
        Path(options.json).write_text(text + "\n")
    if options.markdown:
        m = summary["median_ms"]
        Path(options.markdown).write_text(
            f"| page | load (ms, median of {options.rounds}) | sort by a metric (ms) | written by `dfkit report --html --link` (s) |\n"
            "|---|---|---|---|\n"
            + "".join(f"| {rows} ids × 2 systems | {m[str(rows)]['load_ms']} | {m[str(rows)]['sort_ms']} | {summary['page_write_s'][str(rows)]} |\n"
                      for rows in (options.rows, options.peer_rows))
            + f"| ratio (median of per-round ratios) | {summary['median_ratio']['load_ms']}× | {summary['median_ratio']['sort_ms']}× | |\n"
            + f"\n{summary['chromium']}, headless\n")


def chromium_version():
    return subprocess.run(["/usr/bin/chromium", "--version"], capture_output=True, text=True).stdout.strip()


if __name__ == "__main__":
    main()
