// The listening test of `dfkit listen --html`: the trials of window.dfkitListen (listen-data.js)
// as unlabelled players with a choice (A/B) or sliders (0–100, MUSHRA-style), and the answers
// downloaded as JSON for `dfkit report --votes`. No system name is ever put on the page.
"use strict";
(function () {
  const data = window.dfkitListen;
  const byId = (id) => document.getElementById(id);
  const session = Date.now().toString(36) + "-" + Math.random().toString(36).slice(2, 12);
  const choices = new Map();   // pair trial → "a" | "b"
  const scores = new Map();    // rating trial → Map(condition index → score)

  function make(tag, attributes, ...children) {
    const element = document.createElement(tag);
    for (const [name, value] of Object.entries(attributes || {})) {
      if (value !== null && value !== undefined) element.setAttribute(name, String(value));
    }
    for (const child of children) {
      if (child !== null && child !== undefined) element.append(child);
    }
    return element;
  }

  function player(src) {
    return make("audio", { controls: "", preload: "metadata", src: src });
  }

  function progress() {
    const rated = data.ratings.reduce((sum, rating) => sum + (scores.get(rating.trial) || new Map()).size, 0);
    const toRate = data.ratings.reduce((sum, rating) => sum + rating.conditions.length, 0);
    byId("progress").textContent = "answered " + choices.size + " of " + data.pairs.length + " pairs"
      + (toRate ? ", rated " + rated + " of " + toRate + " samples" : "");
  }

  function pairTrial(pair) {
    const article = make("article", { class: "trial pair", "data-trial": pair.trial }, make("h3", {}, "Pair " + pair.trial + " of " + data.pairs.length));
    const buttons = [];
    const sides = make("div", { class: "sides" });
    for (const side of ["a", "b"]) {
      const button = make("button", { type: "button", class: "choose", "data-choice": side, "aria-pressed": "false" }, side.toUpperCase() + " sounds better");
      button.addEventListener("click", () => {
        choices.set(pair.trial, side);
        for (const other of buttons) other.setAttribute("aria-pressed", String(other === button));
        article.classList.add("answered");
        progress();
      });
      buttons.push(button);
      sides.append(make("div", { class: "side" }, make("span", { class: "label" }, side.toUpperCase()), player(pair[side].src), button));
    }
    article.append(sides);
    return article;
  }

  function ratingTrial(rating) {
    const given = new Map();
    scores.set(rating.trial, given);
    const list = make("ol", { class: "conditions" });
    rating.conditions.forEach((condition, index) => {
      const slider = make("input", { type: "range", min: 0, max: 100, step: 1, value: 50, class: "score", "data-index": index, "aria-label": "score of sample " + (index + 1) });
      const shown = make("output", {}, "–");
      slider.addEventListener("input", () => {
        given.set(index, Number(slider.value));
        shown.textContent = slider.value;
        progress();
      });
      list.append(make("li", { class: "condition", "data-index": index }, make("span", { class: "label" }, String(index + 1)), player(condition.src), slider, shown));
    });
    return make("article", { class: "trial rating", "data-trial": rating.trial },
      make("h3", {}, "Rating " + rating.trial + " of " + data.ratings.length),
      make("div", { class: "reference" }, make("span", { class: "label" }, "Reference "), player(rating.reference)),
      list);
  }

  function answers() {
    return {
      format: data.format, seed: data.seed, by: data.by, listener: byId("listener").value.trim(), session: session,
      pairs: data.pairs.map((pair) => ({ trial: pair.trial, id: pair.id, a: pair.a.system, b: pair.b.system, choice: choices.get(pair.trial) || null })),
      ratings: data.ratings.map((rating) => ({
        trial: rating.trial, id: rating.id,
        scores: rating.conditions.map((condition, index) => ({
          kind: condition.kind, system: condition.system === undefined ? null : condition.system,
          score: scores.get(rating.trial).has(index) ? scores.get(rating.trial).get(index) : null,
        })),
      })),
    };
  }

  function download() {
    const text = JSON.stringify(answers(), null, 1) + "\n";
    const listener = byId("listener").value.trim().replace(/[^A-Za-z0-9_-]+/g, "_") || "anonymous";
    const link = make("a", { href: URL.createObjectURL(new Blob([text], { type: "application/json" })), download: "answers-" + listener + "-seed" + data.seed + ".json" });
    document.body.append(link);
    link.click();
    link.remove();
  }

  if (byId("pairs")) byId("pairs").append(...data.pairs.map(pairTrial));
  if (byId("ratings")) byId("ratings").append(...data.ratings.map(ratingTrial));
  byId("download").addEventListener("click", download);
  progress();
  document.body.dataset.ready = "true";
})();
