// The rows of `dfkit report --html`: drawn from window.dfkitReport (report-data.js), a page at a
// time, after the filters and the sort. Text goes into the page only as text nodes and attribute
// values (never as markup), so ids, paths and errors show as they are.
"use strict";
(function () {
  const data = window.dfkitReport;
  const byId = (id) => document.getElementById(id);
  const state = { page: 0, hidden: new Set(), drawing: 0 };

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

  function option(value, label) {
    return make("option", { value: value }, label);
  }

  // Sort and filter keys: "id", "failures", or "m\u0001<system index>\u0001<metric>".
  const metricKeys = [];
  data.systems.forEach((system, index) => {
    for (const metric of data.metrics) metricKeys.push({ key: "m\u0001" + index + "\u0001" + metric, system: system, metric: metric });
  });

  function metricValue(row, key) {
    const [, index, metric] = key.split("\u0001");
    const cell = row.cells[data.systems[Number(index)]];
    const value = cell ? cell.metrics[metric] : undefined;
    return typeof value === "number" ? value : undefined;
  }

  function failed(row, system) {
    const cells = system === undefined ? Object.values(row.cells) : [row.cells[system]].filter(Boolean);
    return cells.some((cell) => cell.status !== "ok");
  }

  function searchText(row) {
    if (row.searchText === undefined) {
      const parts = [row.id, row.input.path];
      for (const cell of Object.values(row.cells)) {
        if (cell.error) parts.push(cell.error);
        if (cell.output) parts.push(cell.output.path);
      }
      row.searchText = parts.join("\n").toLowerCase();
    }
    return row.searchText;
  }

  function selectedRows() {
    const text = byId("filter").value.trim().toLowerCase();
    const status = byId("status").value;
    const metric = byId("metric-filter").value;
    const low = byId("metric-min").value === "" ? -Infinity : Number(byId("metric-min").value);
    const high = byId("metric-max").value === "" ? Infinity : Number(byId("metric-max").value);
    const rows = data.rows.filter((row) => {
      if (text && !searchText(row).includes(text)) return false;
      if (status === "failed" && !failed(row)) return false;
      if (status === "ok" && failed(row)) return false;
      if (status.startsWith("failed\u0001") && !failed(row, data.systems[Number(status.split("\u0001")[1])])) return false;
      if (metric && (low !== -Infinity || high !== Infinity)) {
        const value = metricValue(row, metric);
        if (value === undefined || value < low || value > high) return false;
      }
      return true;
    });
    const key = byId("sort").value;
    const direction = byId("sort-order").value === "descending" ? -1 : 1;
    const value = key === "id" ? (row) => row.id
      : key === "failures" ? (row) => Object.values(row.cells).filter((cell) => cell.status !== "ok").length
      : (row) => metricValue(row, key);
    // Rows without the value go last in either direction; ties keep the order of ids.
    return rows.map((row, index) => ({ row, index, value: value(row) })).sort((a, b) => {
      if (a.value === undefined || b.value === undefined) {
        return (a.value === undefined) - (b.value === undefined) || a.index - b.index;
      }
      return (a.value < b.value ? -direction : a.value > b.value ? direction : 0) || a.index - b.index;
    }).map((entry) => entry.row);
  }

  function media(item, kind) {
    if (!item) return make("div", { class: "none" }, "—");
    if (item.problem) {
      return make("div", { class: "missing", "data-path": item.path }, item.problem + ": ", make("code", {}, item.path));
    }
    const name = item.path.split("/").pop();
    return make("figure", { class: "media " + kind },
      make("img", { class: "spectrogram", src: item.spectrogram, alt: "spectrogram of " + name, loading: "lazy" }),
      make("audio", { controls: "", preload: "none", src: item.src, "data-path": item.path }),
      make("figcaption", { title: item.path }, name));
  }

  function metricList(cell) {
    return make("ul", { class: "metrics" }, ...Object.keys(cell.metrics).sort().map((name) => {
      const value = cell.metrics[name];
      return make("li", {}, make("span", { class: "metric-name" }, name), " ",
        make("span", { class: "metric-value", "data-metric": name, "data-value": value }, Math.abs(value) >= 100 ? value.toFixed(1) : value.toPrecision(4)));
    }));
  }

  function systemCell(row, system) {
    const cell = row.cells[system];
    const td = make("td", { class: "system", "data-system": system });
    if (!cell) {
      td.append(make("div", { class: "none" }, "no record"));
    } else if (cell.status !== "ok") {
      td.classList.add("failed");
      td.append(make("div", { class: "failure" }, "failed: ", make("span", { class: "error" }, cell.error || "(no message)")));
    } else {
      td.append(media(cell.output, "output"), metricList(cell));
    }
    return td;
  }

  function drawHead() {
    const cells = [make("th", { scope: "col" }, "id"), make("th", { scope: "col" }, "noisy input")];
    data.systems.forEach((system) => {
      if (!state.hidden.has(system)) cells.push(make("th", { scope: "col", class: "system", "data-system": system }, system));
    });
    if (data.hasReference) cells.push(make("th", { scope: "col" }, "clean reference"));
    byId("items-head").replaceChildren(make("tr", {}, ...cells));
  }

  function draw() {
    const rows = selectedRows();
    const size = Number(byId("page-size").value);
    const pages = Math.max(1, Math.ceil(rows.length / size));
    state.page = Math.min(state.page, pages - 1);
    const first = state.page * size;
    const shown = rows.slice(first, first + size);
    drawHead();
    byId("items-body").replaceChildren(...shown.map((row) => {
      const cells = [
        make("th", { scope: "row", class: "id" }, make("span", { class: "id-text" }, row.id),
          row.scaleTop == null ? null : make("div", { class: "scale" }, "colours: " + row.scaleTop + " dB down " + data.spectrogramSpan + " dB")),
        make("td", { class: "noisy" }, media(row.input, "input")),
      ];
      data.systems.forEach((system) => {
        if (!state.hidden.has(system)) cells.push(systemCell(row, system));
      });
      if (data.hasReference) cells.push(make("td", { class: "reference" }, media(row.reference, "reference")));
      return make("tr", { class: "item", "data-id": row.id }, ...cells);
    }));
    byId("page-status").textContent = rows.length === 0 ? "no rows of " + data.rows.length
      : "rows " + (first + 1) + "–" + (first + shown.length) + " of " + rows.length + " (" + data.rows.length + " in all), page " + (state.page + 1) + " of " + pages;
    byId("previous").disabled = state.page === 0;
    byId("next").disabled = state.page >= pages - 1;
    loadPlayers(++state.drawing);
  }

  // Players are drawn without loading anything (making a hundred media players at once holds the
  // page for most of a second); afterwards they load their lengths a few at a time.
  function loadPlayers(drawing) {
    const waiting = [...document.querySelectorAll("#items-body audio[preload=none]")];
    (function next() {
      if (drawing !== state.drawing) return;
      for (const audio of waiting.splice(0, 4)) audio.preload = "metadata";
      if (waiting.length) setTimeout(next, 0);
    })();
  }

  function setUp() {
    byId("status").append(option("all", "all rows"), option("failed", "rows with a failure"), option("ok", "rows without failures"),
      ...data.systems.map((system, index) => option("failed\u0001" + index, "failed in " + system)));
    byId("metric-filter").append(option("", "(none)"), ...metricKeys.map((entry) => option(entry.key, entry.system + " · " + entry.metric)));
    byId("sort").append(option("id", "id"), option("failures", "failures"), ...metricKeys.map((entry) => option(entry.key, entry.system + " · " + entry.metric)));
    const systems = byId("systems");
    data.systems.forEach((system) => {
      const box = make("input", { type: "checkbox", class: "system-toggle", "data-system": system });
      box.checked = true;
      box.addEventListener("change", () => {
        if (box.checked) state.hidden.delete(system); else state.hidden.add(system);
        draw();
      });
      systems.append(make("label", {}, box, " ", system));
    });
    byId("spectrogram-note").textContent = data.spectrogram;
    const again = () => { state.page = 0; draw(); };
    for (const id of ["filter", "metric-min", "metric-max"]) byId(id).addEventListener("input", again);
    for (const id of ["status", "metric-filter", "sort", "sort-order", "page-size"]) byId(id).addEventListener("change", again);
    byId("previous").addEventListener("click", () => { state.page -= 1; draw(); });
    byId("next").addEventListener("click", () => { state.page += 1; draw(); });
    draw();
    document.body.dataset.ready = "true";
    performance.mark("dfkit-ready");
  }

  setUp();
})();
