"""Fixtures of the page tests: the release dfkit, a small corpus enhanced by DFN3 and GTCRN (with
hostile names, a corrupt input and a deleted output), and headless Chromium, started and quit per
test module."""
import json
import shutil
import subprocess
import sys
import wave
from pathlib import Path
from types import SimpleNamespace

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from browser import Browser  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
DFKIT = ROOT / ".build" / "release" / "dfkit"
GENERATED = ROOT / "Tests" / "Fixtures" / "generated" / "corpus"

# Markup, entities, quotes and non-ASCII: the page must show these as they are.
HOSTILE_ID = "<img src=x onerror=\"document.title='pwned'\"> & 'Zoë' \"naïve\" &amp; →"
HOSTILE_SPEAKER = "<i>Zoë & \"Ann\"</i>"
# (id, noisy file, clean file) of the generated corpus (Scripts/gen-corpus.py), 16 and 48 kHz mono.
CLIPS = [
    ("clip-a", "group-a/clip01-16000-1ch.wav", "clip01-16000-1ch.wav"),
    (HOSTILE_ID, "group-a/clip11-48000-1ch.wav", "clip11-48000-1ch.wav"),
    ("clip-c", "group-a/clip05-16000-1ch.wav", "clip05-16000-1ch.wav"),
    ("clip-d", "group-a/clip19-48000-1ch.wav", "clip19-48000-1ch.wav"),
    ("clip-e", "group-a/clip13-16000-1ch.wav", "clip13-16000-1ch.wav"),
]
BROKEN_ID = "broken"
SYSTEMS = ["dfn3", "gtcrn"]
# The output deleted after the run: the page must show it as missing.
DELETED = ("clip-d", "gtcrn")


def dfkit(*arguments, allowed=(0,)):
    result = subprocess.run([str(DFKIT), *map(str, arguments)], capture_output=True, text=True)
    assert result.returncode in allowed, f"dfkit {' '.join(map(str, arguments))}: exit {result.returncode}\n{result.stderr}"
    return result.stdout


def wav_seconds(path):
    """A 16-bit PCM WAV's length from its header (Python's own reader, not ours)."""
    with wave.open(str(path), "rb") as file:
        return file.getnframes() / file.getframerate()


def read_records(paths):
    return [json.loads(line) for path in paths for line in Path(path).read_text().splitlines() if line.strip()]


@pytest.fixture(scope="session")
def corpus(tmp_path_factory):
    assert DFKIT.exists(), f"{DFKIT} is missing: Scripts/test-python builds it (swift build -c release --product dfkit)"
    assert GENERATED.exists(), f"{GENERATED} is missing: run Scripts/setup"
    folder = tmp_path_factory.mktemp("corpus")
    (folder / "noisy").mkdir()
    (folder / "clean").mkdir()
    lines = []
    for index, (identifier, noisy, clean) in enumerate(CLIPS):
        # The hostile clip's files carry hostile names too.
        name = f"{identifier}.wav" if identifier == HOSTILE_ID else Path(noisy).name
        shutil.copy(GENERATED / "noisy" / noisy, folder / "noisy" / name)
        shutil.copy(GENERATED / "clean" / clean, folder / "clean" / name)
        lines.append({"id": identifier, "audio": f"noisy/{name}", "reference": f"clean/{name}",
                      "speaker": HOSTILE_SPEAKER if index % 2 else "s1"})
    shutil.copy(GENERATED / "noisy" / "group-b" / "corrupt-truncated.wav", folder / "noisy" / "corrupt-truncated.wav")
    lines.append({"id": BROKEN_ID, "audio": "noisy/corrupt-truncated.wav", "speaker": "s1"})
    manifest = folder / "manifest.jsonl"
    manifest.write_text("".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines))
    results = []
    for system in SYSTEMS:
        # Exit status 1: the one corrupt input failed, as it should.
        dfkit("enhance", "--manifest", manifest, "--model", system, "--output-dir", folder / "out" / system, "--metrics", "stoi,si-sdr",
              allowed=(1,))
        results.append(folder / "out" / system / "results.jsonl")
    records = read_records(results)
    deleted = next(record for record in records if (record["id"], record["model"]) == DELETED)
    Path(deleted["output"]).unlink()
    return SimpleNamespace(folder=folder, manifest=manifest, results=results, records=records, deleted=deleted["output"])


@pytest.fixture(scope="module")
def browser():
    started = Browser()
    yield started
    started.close()
