"""`dfkit listen --html` driven in headless Chromium like a listener (clicks, slider moves from the
keyboard), its downloaded answers checked against what was clicked, and `dfkit report --votes`
of two listeners checked against preference rates and intervals computed here (SciPy's Wilson
interval and Student's t)."""
import json
import subprocess
from collections import Counter

import pytest
from scipy import stats
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from browser import Browser
from conftest import DFKIT, dfkit

# The corpus has four inputs with two playable outputs: three of its four pairs are drawn.
PAIRS, RATINGS, SEED = 3, 3, 20261201
# Rates and interval ends printed by dfkit (binary64) against SciPy's: a few units of rounding.
RATE_TOLERANCE = 1e-9


@pytest.fixture(scope="module")
def test_page(corpus, tmp_path_factory):
    folder = tmp_path_factory.mktemp("listen")
    dfkit("listen", *corpus.results, "--html", folder, "--pairs", PAIRS, "--mushra", RATINGS, "--seed", SEED)
    return folder


def drawn(folder):
    return (folder / "listen-data.js").read_text()


def test_the_same_seed_draws_the_same_trials(corpus, test_page, tmp_path):
    dfkit("listen", *corpus.results, "--html", tmp_path / "again", "--pairs", PAIRS, "--mushra", RATINGS, "--seed", SEED)
    dfkit("listen", *corpus.results, "--html", tmp_path / "other", "--pairs", PAIRS, "--mushra", RATINGS, "--seed", SEED + 1)
    assert drawn(tmp_path / "again") == drawn(test_page)
    assert drawn(tmp_path / "other") != drawn(test_page)


def listen(folder, answer_pair, score):
    """Opens the test as a listener, answers every pair with `answer_pair(trial)` ('a' or 'b')
    and moves every slider to `score(trial, index)` with the keyboard, downloads the answers,
    and returns (the page's data, the downloaded file's name and content)."""
    browser = Browser()
    try:
        browser.open(folder / "index.html")
        data = browser.run("return window.dfkitListen")
        browser.driver.find_element(By.ID, "listener").send_keys(f"listener {SEED}")
        for pair in browser.driver.find_elements(By.CSS_SELECTOR, "article.pair"):
            trial = int(pair.get_attribute("data-trial"))
            pair.find_element(By.CSS_SELECTOR, f'button.choose[data-choice="{answer_pair(trial)}"]').click()
        for rating in browser.driver.find_elements(By.CSS_SELECTOR, "article.rating"):
            trial = int(rating.get_attribute("data-trial"))
            for slider in rating.find_elements(By.CSS_SELECTOR, "input.score"):
                index = int(slider.get_attribute("data-index"))
                slider.send_keys(Keys.HOME)
                slider.send_keys(*[Keys.ARROW_RIGHT] * score(trial, index))
                assert int(slider.get_attribute("value")) == score(trial, index)
        # No label on the page names a system.
        text = browser.driver.find_element(By.TAG_NAME, "body").text
        assert "dfn3" not in text and "gtcrn" not in text
        browser.driver.find_element(By.ID, "download").click()
        name, answers = browser.downloaded()
        return data, name, answers
    finally:
        browser.close()


def test_the_downloaded_answers_are_what_was_clicked(test_page):
    def choose(trial):
        return "a" if trial % 3 else "b"

    def score(trial, index):
        return (17 * trial + 29 * index) % 101

    data, name, answers = listen(test_page, choose, score)
    assert len(data["pairs"]) == PAIRS and len(data["ratings"]) == RATINGS
    assert name == f"answers-listener_{SEED}-seed{SEED}.json"
    assert answers["listener"] == f"listener {SEED}" and answers["seed"] == SEED and answers["by"] == "model"
    assert [(answer["trial"], answer["id"], answer["a"], answer["b"], answer["choice"]) for answer in answers["pairs"]] == [
        (pair["trial"], pair["id"], pair["a"]["system"], pair["b"]["system"], choose(pair["trial"])) for pair in data["pairs"]]
    assert [[(score_["kind"], score_["system"], score_["score"]) for score_ in answer["scores"]] for answer in answers["ratings"]] == [
        [(condition["kind"], condition.get("system"), score(rating["trial"], index)) for index, condition in enumerate(rating["conditions"])]
        for rating in data["ratings"]]
    # Every trial is a real comparison: two different systems, drawn without repetition.
    assert all(pair["a"]["system"] != pair["b"]["system"] for pair in data["pairs"])
    assert len({(pair["id"], frozenset((pair["a"]["system"], pair["b"]["system"]))) for pair in data["pairs"]}) == PAIRS
    # Each rating trial hides the reference and the noisy input among the outputs.
    assert all(Counter(condition["kind"] for condition in rating["conditions"])["reference"] == 1 for rating in data["ratings"])


def test_votes_of_two_listeners_give_the_rates_counted_by_hand(test_page, tmp_path, corpus):
    first = listen(test_page, lambda trial: "a" if trial % 2 else "b", lambda trial, index: 10 * index + trial)
    data = first[0]
    # The second listener always prefers GTCRN.
    second = listen(test_page, lambda trial: "a" if data["pairs"][trial - 1]["a"]["system"] == "gtcrn" else "b",
                    lambda trial, index: 90 - 7 * index)
    files = []
    for index, (_, _, answers) in enumerate((first, second)):
        files.append(tmp_path / f"answers-{index}.json")
        files[-1].write_text(json.dumps(answers))
    report = json.loads(dfkit("report", "--votes", files[0], "--votes", files[1], "--json"))["listening"]
    wins, trials = Counter(), Counter()
    for answers in (first[2], second[2]):
        for pair in answers["pairs"]:
            trials[pair["a"]] += 1
            trials[pair["b"]] += 1
            wins[pair[pair["choice"]]] += 1
    assert report["listeners"] == 2 and report["answered_pairs"] == 2 * PAIRS
    assert [entry["key"] for entry in report["preferences"]] == sorted(trials)
    for entry in report["preferences"]:
        assert (entry["wins"], entry["trials"]) == (wins[entry["key"]], trials[entry["key"]])
        interval = stats.binomtest(wins[entry["key"]], trials[entry["key"]]).proportion_ci(confidence_level=0.95, method="wilson")
        assert entry["rate"] == pytest.approx(wins[entry["key"]] / trials[entry["key"]], abs=RATE_TOLERANCE)
        assert entry["ci95"] == pytest.approx([interval.low, interval.high], abs=RATE_TOLERANCE)
    scores = {}
    for answers in (first[2], second[2]):
        for rating in answers["ratings"]:
            for score in rating["scores"]:
                label = {"reference": "hidden reference", "noisy": "noisy input"}.get(score["kind"], score["system"])
                scores.setdefault(label, []).append(score["score"])
    assert {entry["condition"] for entry in report["ratings"]} == set(scores)
    for entry in report["ratings"]:
        values = scores[entry["condition"]]
        mean = sum(values) / len(values)
        half = stats.t.ppf(0.975, len(values) - 1) * stats.sem(values)
        assert entry["mean"] == pytest.approx(mean, abs=RATE_TOLERANCE)
        # dfkit's t quantile comes from the standard table (3 decimals) below 31 degrees of freedom.
        assert entry["ci95"] == pytest.approx(half, rel=1e-3)
    # The same answers in the page: the listening section lists each system's rate.
    dfkit("report", *corpus.results, "--votes", files[0], "--votes", files[1], "--html", tmp_path / "page")
    browser = Browser()
    try:
        browser.open(tmp_path / "page" / "index.html")
        rows = browser.run("return [...document.querySelectorAll('#listening table:first-of-type tbody tr')].map(tr => [...tr.cells].map(td => td.textContent))")
        assert [(row[0], int(row[1]), int(row[2])) for row in rows] == [(key, wins[key], trials[key]) for key in sorted(trials)]
    finally:
        browser.close()
    # The same file twice is one listener's answers counted twice: refused.
    result = subprocess.run([str(DFKIT), "report", "--votes", files[0], "--votes", files[0]], capture_output=True, text=True)
    assert result.returncode == 1 and "same listening session" in result.stderr
    # A cut-off answers file is refused, naming it.
    cut = tmp_path / "cut.json"
    cut.write_text(files[0].read_text()[:200])
    result = subprocess.run([str(DFKIT), "report", "--votes", cut], capture_output=True, text=True)
    assert result.returncode == 1 and str(cut) in result.stderr and "not a listening test's answers" in result.stderr, result.stderr
