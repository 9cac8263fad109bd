// The app: draws the scenario at once from its JSON file, starts the rules worker, and
// shows what the rules core answers. It decides no rule.
import { Engine } from "./engine.js";
import { HexMap } from "./render/hex.js";
import { I18n } from "./i18n.js";

const html = document.documentElement;
const timing = { start: performance.now(), mapPainted: null, rulesReady: null };
window.musterTiming = timing;

const els = {
  status: document.getElementById("status"),
  title: document.getElementById("scenario-title"),
  panel: document.getElementById("hex-panel"),
  message: document.getElementById("message"),
  fatal: document.getElementById("fatal"),
  fatalDetail: document.getElementById("fatal-detail"),
  gotoForm: document.getElementById("goto-form"),
  gotoInput: document.getElementById("goto-input"),
  file: document.getElementById("scenario-file"),
  lang: document.getElementById("lang"),
};

const params = new URLSearchParams(location.search);
const i18n = new I18n(new URL("i18n/", import.meta.url));
const state = { scenario: null, scenarioId: null, selected: null, ready: false, lastInfo: null };
const map = new HexMap(document.getElementById("map"), { onHexTap: showHex });
const engine = new Engine();

function setStatus(kind) {
  els.status.dataset.state = kind;
  els.status.textContent = i18n.t("ui.status_" + kind);
}

function showMessage(text, kind) {
  els.message.textContent = text;
  els.message.dataset.kind = kind || "error";
  els.message.hidden = !text;
}

function errorText(error) {
  if (error && error.key) return i18n.t(error.key, error.params, error.message);
  return String((error && error.message) || error);
}

function el(tag, attrs, children) {
  const node = document.createElement(tag);
  Object.keys(attrs || {}).forEach(function (key) {
    if (key === "text") node.textContent = attrs[key];
    else node.setAttribute(key, attrs[key]);
  });
  (children || []).forEach(function (child) {
    node.appendChild(child);
  });
  return node;
}

function renderHexInfo(info) {
  const t = i18n.t.bind(i18n);
  const list = function (items) {
    if (!items.length) return el("p", { class: "none", text: t("ui.none") });
    return el(
      "ul",
      {},
      items.map(function (text) {
        return el("li", { text: text });
      }),
    );
  };
  const sides = info.hexsides.map(function (side) {
    let text = side.features
      .map(function (f) {
        return t("feature." + f);
      })
      .join(" + ");
    if (side.name) text += " (" + side.name + ")";
    text += ", " + t("ui.toward", { hex: side.to });
    if (side.up) text += ", " + t("ui.up_side", { hex: side.up });
    return text;
  });
  const roads = info.roads.map(function (road) {
    return t("connection." + road.kind) + ", " + t("ui.toward", { hex: road.to });
  });
  const units = info.units.map(function (unit) {
    return unit.name + " (" + t("unit_type." + unit.type) + ")";
  });
  const terrain = info.terrain
    .map(function (id) {
      return t("terrain." + id);
    })
    .join(" + ");
  els.panel.replaceChildren(
    el("h2", {
      class: "hex-number",
      "data-hex": info.hex,
      text: t("ui.hex_title", { hex: info.hex }),
    }),
    el("p", { class: "source", text: t("ui.from_python") }),
    el("dl", {}, [
      el("dt", { text: t("ui.terrain") }),
      el("dd", { class: "terrain", text: terrain }),
      el("dt", { text: t("ui.level") }),
      el("dd", { class: "level", text: String(info.level) }),
    ]),
    el("h3", { text: t("ui.hexsides") }),
    list(sides),
    el("h3", { text: t("ui.roads") }),
    list(roads),
    el("h3", { text: t("ui.units") }),
    list(units),
  );
}

function showHex(label) {
  state.selected = label;
  map.select(label);
  if (!state.ready) {
    els.panel.replaceChildren(
      el("h2", { class: "hex-number", text: i18n.t("ui.hex_title", { hex: label }) }),
      el("p", { class: "hint", text: i18n.t("ui.rules_loading") }),
    );
    return Promise.resolve();
  }
  return engine.call("hex_info", { hex: label }).then(
    function (info) {
      state.lastInfo = info;
      showMessage("");
      renderHexInfo(info);
    },
    function (error) {
      showMessage(errorText(error));
    },
  );
}

function fetchJson(url) {
  return fetch(url).then(function (response) {
    if (!response.ok) throw new Error(url + ": HTTP " + response.status);
    return response.json();
  });
}

function drawScenario(scenario) {
  state.scenario = scenario;
  els.title.textContent = scenario.title;
  map.setScenario(scenario);
  if (timing.mapPainted === null) {
    requestAnimationFrame(function () {
      timing.mapPainted = performance.now();
      html.dataset.mapPainted = "1";
    });
  }
}

function loadScenarioFile(file) {
  const reader = new FileReader();
  reader.onload = function () {
    let scenario;
    try {
      scenario = JSON.parse(String(reader.result));
    } catch (error) {
      showMessage(i18n.t("error.bad_file", { detail: error.message }));
      return;
    }
    if (!state.ready) {
      showMessage(i18n.t("ui.rules_loading"));
      return;
    }
    engine.call("load_scenario", { scenario: scenario }).then(
      function (summary) {
        drawScenario(scenario);
        state.scenarioId = summary.id;
        showMessage(i18n.t("ui.scenario_loaded", { title: summary.title }), "info");
      },
      function (error) {
        showMessage(errorText(error));
      },
    );
  };
  reader.onerror = function () {
    showMessage(i18n.t("error.bad_file", { detail: String(reader.error) }));
  };
  reader.readAsText(file);
}

function registerServiceWorker() {
  if (!("serviceWorker" in navigator) || params.has("nosw")) return;
  navigator.serviceWorker.register("sw.js").catch(function (error) {
    console.warn("offline cache unavailable:", error.message);
  });
}

function start() {
  setStatus("loading");
  const base = new URL("../scenarios/", import.meta.url);
  const wanted = params.get("scenario");
  const mapReady = fetchJson(new URL("index.json", base)).then(function (index) {
    const entry =
      index.find(function (item) {
        return item.id === wanted;
      }) || index[0];
    state.scenarioId = entry.id;
    return fetchJson(new URL(entry.file, base)).then(drawScenario);
  });
  mapReady.catch(function (error) {
    showMessage(String(error.message || error));
  });

  engine.on("fatal", function (error) {
    setStatus("failed");
    els.fatalDetail.textContent = errorText(error);
    els.fatal.hidden = false;
    html.dataset.failed = "1";
  });

  Promise.all([engine.ready, mapReady])
    .then(function () {
      return engine.call("load_scenario", { id: state.scenarioId });
    })
    .then(function () {
      state.ready = true;
      timing.rulesReady = performance.now();
      setStatus("ready");
      html.dataset.ready = "1";
      if (state.selected) showHex(state.selected);
      registerServiceWorker();
    })
    .catch(function (error) {
      if (!engine.failure) showMessage(errorText(error));
    });

  els.gotoForm.addEventListener("submit", function (event) {
    event.preventDefault();
    const label = els.gotoInput.value.trim();
    if (!label) return;
    if (!state.ready) {
      showMessage(i18n.t("ui.rules_loading"), "info");
      return;
    }
    engine.call("hex_info", { hex: label }).then(
      function (info) {
        state.selected = info.hex;
        map.select(info.hex);
        map.centerOn(info.hex);
        showMessage("");
        renderHexInfo(info);
      },
      function (error) {
        showMessage(errorText(error));
      },
    );
  });

  els.file.addEventListener("change", function () {
    if (els.file.files.length) loadScenarioFile(els.file.files[0]);
    els.file.value = "";
  });

  els.lang.addEventListener("change", function () {
    i18n.load(els.lang.value).then(refreshText);
  });
}

function refreshText() {
  html.lang = i18n.lang;
  els.lang.value = i18n.lang;
  i18n.apply(document);
  setStatus(els.status.dataset.state);
  if (state.lastInfo && state.selected === state.lastInfo.hex) renderHexInfo(state.lastInfo);
}

i18n
  .load(params.get("lang") || i18n.preferred(navigator.languages || [navigator.language]))
  .then(refreshText, function () {})
  .then(start);

window.muster = { engine: engine, map: map, i18n: i18n, state: state, showHex: showHex };
