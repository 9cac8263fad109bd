// The app: draws the scenario at once from its JSON file, starts the rules worker, and
// shows what the rules core answers. It decides no rule.
import { Engine } from "./engine.js";
import { MusterWorker } from "./muster.js";
import { HexMap } from "./render/hex.js";
import { I18n } from "./i18n.js";
import * as panels from "./panels.js";
import { el } from "./panels.js";
import { Play } from "./panel.js";
import { HexBoard, AreaBoard } from "./boards.js";
import { fileReader } from "./files.js";
import { AreaMap } from "./render/area.js";
import { addFitControl } from "./mapfit.js";
import { Games, storageDetail } from "./games.js";
import { SavedGames, ask } from "./saved.js";
import { editorShell } from "./app_editor.js";
import { Inspection } from "./inspect.js";
import { rulesDialog } from "./panel_rules.js";
import { setupKeys } from "./keys.js";
import { offerUpdates, afterUpdate } from "./update.js";
import { initSettings } from "./settings.js";
import { keepFocusInDialogs } from "./dialogs.js";
import { offerInstall } from "./install.js";
import { initBriefingSetting } from "./panel_scenario.js";
import { wordScenario } from "./scenario_words.js";
import { openLegend } from "./legend.js";
import { rememberScreen, lastScreen, gameToResume, scenarioOf, showInAddress } from "./resume.js";
import { offerPairing } from "./pair.js";

const html = document.documentElement;
// rulesUp: the worker's rules answer; resumed: a kept game reopened at the start is on screen;
// loaded: the core's answer to the last game loaded is in, its drawing begins.
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
  losTool: document.getElementById("los-tool"),
  losResult: document.getElementById("los-result"),
  scenarioSelect: document.getElementById("scenario-select"),
  playPanel: document.getElementById("play-panel"),
  logPanel: document.getElementById("log-panel"),
  saveFile: document.getElementById("save-file"),
  gotoInput: document.getElementById("goto-input"),
  file: document.getElementById("scenario-file"),
  hexMap: document.getElementById("map"),
  areaMap: document.getElementById("area-map"),
  lang: document.getElementById("lang"),
};

const params = new URLSearchParams(location.search);
keepFocusInDialogs(document);
offerInstall();
const i18n = new I18n(new URL("i18n/", import.meta.url));
const state = {
  scenario: null, // the scenario in play in the player's language (wordScenario)
  file: null, // the same as its file gives it, every language kept
  scenarioId: null,
  selected: null,
  ready: false,
  lastInfo: null,
  mode: "inspect",
  unit: null,
  reach: null,
  losFrom: null,
  view: null,
  los: null, // the last line of sight's answer, shown at the top of the panel
  passing: false, // the message shown goes at the next action (showMessage)
};
const map = new HexMap(document.getElementById("map"), { onHexTap: onTap });
const areaMap = new AreaMap(document.getElementById("area-map"), {
  onTap: onAreaTap,
  capacity: function (n) {
    return i18n.t("ui.map_capacity", { count: n });
  },
});
addFitControl(map, i18n);
addFitControl(areaMap, i18n);
// A new game, or a game loaded, opens with its units framed on either map.
function frameNextUnits() {
  map.frameNextPieces();
  areaMap.frameNextPieces();
}
// ?boot=normal starts the rules without the memory snapshot (to compare, or to rule it out).
const engine = new Engine(undefined, {
  mode: params.get("boot") === "normal" ? "normal" : "snapshot",
});
const games = new Games();
// Muster's own worker, booted the same way, started the first time a game needs it.
const musterWorker = new MusterWorker({
  mode: params.get("boot") === "normal" ? "normal" : "snapshot",
});
// The hex map's inspection: a hex's facts, a unit's reach and path, the line of sight.
const inspect = new Inspection({
  engine: engine,
  map: map,
  i18n: i18n,
  state: state,
  els: els,
  show: show,
  showMessage: showMessage,
  errorText: errorText,
});
const renderHexInfo = inspect.renderHexInfo.bind(inspect);
const clearBoardMarks = inspect.clearBoardMarks.bind(inspect);
const selectUnit = inspect.selectUnit.bind(inspect);
const showPath = inspect.showPath.bind(inspect);
const showLos = inspect.showLos.bind(inspect);
const setMode = inspect.setMode.bind(inspect);
const losTap = inspect.losTap.bind(inspect);
const showHex = inspect.showHex.bind(inspect);
const playOptions = {
  engine: engine,
  i18n: i18n,
  root: els.playPanel,
  logRoot: els.logPanel,
  getScenario: function () {
    return state.scenario;
  },
  onError: function (error) {
    showMessage(errorText(error));
  },
  onKeep: keepGame,
  musterWorker: musterWorker,
  onShown: onShown,
  confirmNew: function () {
    const title = state.scenario ? state.scenario.title : "";
    return askLeave(i18n.t("ui.ask_new_game", { title: title }), i18n.t("ui.new_game")).then(
      function (yes) {
        if (yes) frameNextUnits();
        return yes;
      },
    );
  },
  savedPanel: function () {
    return saved.panel();
  },
  openSaved: function () {
    saved.open();
  },
};
// Read a JSON file the player picked, within the core's limit for its kind.
const readJsonFile = fileReader(function () {
  return (engine.info && engine.info.limits) || {};
});
playOptions.readJsonFile = readJsonFile;
playOptions.openLegend = openLegend;
playOptions.openRules = rulesDialog({ engine: engine, i18n: i18n, onError: playOptions.onError });
// One play panel for every system; each draws on its own kind of map.
const play = new Play(Object.assign({}, playOptions, { board: new HexBoard(map, i18n) }));
const areaPlay = new Play(Object.assign({}, playOptions, { board: new AreaBoard(areaMap, i18n) }));

const saved = new SavedGames({
  games: games,
  i18n: i18n,
  onResume: resumeRecord,
  onError: playOptions.onError,
  currentSlot: function () {
    return current().view ? current().slot : null;
  },
  onChange: function () {
    if (state.ready && !current().view) current().render();
  },
});

// The play of the scenario shown: hex maps or area maps.
function current() {
  return state.area ? areaPlay : play;
}

// Keep a game in its slot after a change; if the browser's storage refuses, say so plainly
// (the game goes on, and can still be saved to a file).
function keepGame(slot, save, summary) {
  rememberScreen(scenarioOf({ save: save }) || state.scenarioId, slot);
  return games.keep(slot, save, summary).then(
    function () {
      if (saved.isOpen()) saved.refresh();
    },
    function (error) {
      showMessage(i18n.t("error.storage", { detail: storageDetail(error, i18n) }));
    },
  );
}

// Whether a game is in progress on screen (a game over is no longer in progress).
function inProgress() {
  const view = current().view;
  if (!view) return false;
  return view.summary ? !view.summary.over : !view.result;
}

// Before the game on screen gives way to another: ask, in a modal dialog, if a game is in
// progress (it stays in Saved games) or if `extra` has something to say. Resolves true to
// go ahead, false to keep everything as it is.
function askLeave(question, go, extra) {
  const lines = (extra || []).slice();
  if (inProgress()) lines.push(i18n.t("ui.ask_kept"));
  if (!lines.length) return Promise.resolve(true);
  return ask(question, lines, go);
}

// The lines naming both scenarios when a save is of another scenario than the one on screen.
function otherScenario(scenario) {
  if (!scenario || typeof scenario !== "object" || !state.scenario) return [];
  if (scenario.id === state.scenario.id) return [];
  const title = scenario.title ? i18n.pick(scenario.title) : i18n.t("ui.untitled");
  return [i18n.t("ui.ask_other_scenario", { save: title, current: state.scenario.title })];
}

// A saved game from a file: asked first if a game is in progress or the save is of another
// scenario; then the core replays it (or refuses it, and nothing changes).
function openSave(save) {
  const scenario = save && typeof save === "object" ? save.scenario : null;
  const title = scenario && typeof scenario === "object" && scenario.title;
  const question = title
    ? i18n.t("ui.ask_load", { title: i18n.pick(title) })
    : i18n.t("ui.ask_load_any");
  return askLeave(question, i18n.t("ui.ask_load_go"), otherScenario(scenario)).then(function (yes) {
    if (yes) return loadSave(save);
    return null;
  });
}

// Resume a game of the Saved games list, in its own slot.
function resumeRecord(record) {
  if (current().view && record.id === current().slot) {
    saved.close();
    return Promise.resolve(null);
  }
  const name = record.name || saved.title(record);
  const scenario = (record.save && record.save.scenario) || null;
  const extra = inProgress() ? otherScenario(scenario) : [];
  return askLeave(i18n.t("ui.ask_load", { title: name }), i18n.t("ui.resume_game"), extra).then(
    function (yes) {
      if (!yes) return null;
      saved.close();
      return loadSave(record.save, record.id);
    },
  );
}

// A new scenario in the core: both plays start afresh, the shown one says if it can play.
function setPlayable(summary) {
  play.reset();
  areaPlay.reset();
  current().setRules(summary);
  current().render();
}

// An area map (locales and approaches) is drawn by the area renderer, a hex map by the hex one.
function isAreaMap(scenario) {
  return Boolean(scenario && scenario.map && scenario.map.kind === "areas");
}

// A tap on an area map: play's, when it uses it; else what the map says of the locale.
function onAreaTap(target) {
  if (state.ready && areaPlay.onTap(areaPlay.board.tap(target))) {
    showMessage("");
    return;
  }
  if (target && target.kind === "locale") showLocale(target.id);
}

function showLocale(id) {
  const locale = ((state.scenario && state.scenario.map.locales) || []).find((l) => l.id === id);
  if (!locale) return;
  const approaches = state.scenario.map.approaches.filter((a) => a.from === id);
  show(function () {
    return panels.localeInfo(i18n, locale, approaches, state.scenario.map.locales);
  });
}

function setStatus(kind) {
  els.status.dataset.state = kind;
  els.status.textContent = i18n.t("ui.status_" + kind);
}

// A message above the panel. A passing one (a game loaded or resumed, a scenario opened) goes
// at the next action; the others stay until the next tap says something else.
function showMessage(text, kind, passing) {
  state.passing = Boolean(passing && text);
  els.message.textContent = text;
  els.message.dataset.kind = kind || "error";
  els.message.hidden = !text;
}

// A new view of the game (an action taken): a passing message has said its piece.
function onShown() {
  if (state.passing) showMessage("");
}

function errorText(error) {
  if (error && error.key) return i18n.t(error.key, error.params, error.message);
  return String((error && error.message) || error);
}

// Show a panel view and remember it, so a change of language can draw it again.
function show(view) {
  state.view = view;
  els.panel.replaceChildren.apply(els.panel, view());
}

function onTap(label, info) {
  if (!state.ready) return showHex(label);
  if (state.mode === "los") return losTap(label);
  if (play.onTap(play.board.tap(label, info))) {
    showMessage("");
    return Promise.resolve();
  }
  const tappedUnit = info && info.unit;
  if (tappedUnit && tappedUnit === state.unit) {
    clearBoardMarks();
    return showHex(label);
  }
  if (tappedUnit) return selectUnit(tappedUnit);
  if (state.unit && state.reach && state.reach.hexes[label] && label !== state.reach.from) {
    return showPath(label);
  }
  clearBoardMarks();
  return showHex(label);
}

function fetchJson(url) {
  return fetch(url).then(function (response) {
    if (!response.ok) throw new Error(url + ": HTTP " + response.status);
    return response.json();
  });
}

function drawScenario(file) {
  const scenario = wordScenario(file, i18n);
  state.file = file;
  state.scenario = scenario;
  showInAddress(scenario.id);
  els.title.textContent = scenario.title;
  if (!Array.prototype.some.call(els.scenarioSelect.options, (o) => o.value === scenario.id)) {
    els.scenarioSelect.appendChild(el("option", { value: scenario.id, text: scenario.title }));
  }
  els.scenarioSelect.value = scenario.id;
  state.area = isAreaMap(scenario);
  els.hexMap.hidden = state.area;
  els.areaMap.hidden = !state.area;
  els.gotoForm.hidden = state.area;
  els.losTool.hidden = state.area;
  if (state.area) {
    areaMap.setMap(areaMapOf(scenario), sidesOf(scenario));
    // Before play, every block is a bare block of its side's colour: nothing is revealed.
    areaMap.setPieces(
      (scenario.units || []).map(function (u, i) {
        return {
          id: "setup-" + i,
          side: u.side,
          locale: u.locale,
          approach: u.approach || null,
          hidden: true,
        };
      }),
    );
    requestAnimationFrame(function () {
      areaMap.fit();
    });
  } else {
    map.setScenario(scenario);
  }
  if (timing.mapPainted === null) {
    requestAnimationFrame(function () {
      timing.mapPainted = performance.now();
      html.dataset.mapPainted = "1";
    });
  }
}

// The scenario on screen in the language just chosen: its title in the header and the list,
// the names printed on the map, and the pieces with their marks worded again.
function rewordScenario() {
  const scenario = wordScenario(state.file, i18n);
  state.scenario = scenario;
  els.title.textContent = scenario.title;
  Array.prototype.forEach.call(els.scenarioSelect.options, function (option) {
    const entry = (state.index || []).find((item) => item.id === option.value);
    if (option.value === scenario.id) option.textContent = scenario.title;
    else if (entry) option.textContent = i18n.pick(entry.title);
  });
  if (state.area) areaMap.rename(areaMapOf(scenario), sidesOf(scenario));
  else map.rename(scenario);
  const shown = current();
  if (state.ready && shown.view && !shown.covered) shown.draw();
  else if (!state.area && !shown.view) map.setUnits(scenario.units || []);
}

// An area scenario's map as the renderer takes it: approaches with their "A/B" ids.
function areaMapOf(scenario) {
  const m = scenario.map;
  return Object.assign({}, m, {
    approaches: m.approaches.map(function (a) {
      return Object.assign({ id: a.from + "/" + a.facing, flags: [], effect: 0 }, a);
    }),
    roads: m.roads || [],
  });
}

function sidesOf(scenario) {
  const out = {};
  (scenario.sides || []).forEach(function (s) {
    out[s.id] = { name: s.name, color: s.color, text: s.text };
  });
  return out;
}

function loadScenarioFile(file) {
  readJsonFile(file, "scenario").then(function (scenario) {
    if (!state.ready) {
      showMessage(i18n.t("ui.rules_loading"));
      return;
    }
    const title = scenario && scenario.title ? i18n.pick(scenario.title) : file.name;
    askLeave(i18n.t("ui.ask_scenario", { title: title }), i18n.t("ui.ask_open")).then(
      function (yes) {
        if (!yes) return null;
        return engine.call("load_scenario", { scenario: scenario }).then(
          function (summary) {
            clearBoardMarks();
            setMode("inspect");
            drawScenario(scenario);
            setPlayable(summary);
            state.scenarioId = summary.id;
            rememberScreen(summary.id, null);
            showMessage(
              i18n.t("ui.scenario_loaded", { title: i18n.pick(summary.title) }),
              "info",
              true,
            );
          },
          function (error) {
            showMessage(errorText(error));
          },
        );
      },
    );
  }, showError);
}

function showError(error) {
  showMessage(errorText(error));
}

// Put a saved game in play: the core replays it (or refuses it, and the game is kept). In
// `slot` when resumed from the saved games, else in a new slot.
function loadSave(save, slot) {
  const target = isAreaMap(save && save.scenario) ? areaPlay : play;
  const other = target === play ? areaPlay : play;
  const progress = function (done, total) {
    showMessage(
      i18n.t("ui.save_replaying", { done: i18n.num(done), total: i18n.num(total) }),
      "info",
    );
  };
  return target.load(save, slot, progress).then(
    function (scenario) {
      timing.loaded = performance.now();
      if (other.view) other.reset();
      clearBoardMarks();
      setMode("inspect");
      state.scenarioId = scenario.id;
      drawScenario(scenario);
      frameNextUnits();
      target.opened();
      showMessage(i18n.t("ui.game_loaded", { title: i18n.pick(scenario.title) }), "info", true);
      return scenario;
    },
    function (error) {
      showMessage(errorText(error));
      return null;
    },
  );
}

// ---- the scenario editor (static/editor/), loaded when first opened ----------------------

const editor = editorShell({
  root: document.getElementById("editor"),
  engine: engine,
  i18n: i18n,
  play: playDraft,
  message: showMessage,
  errorText: errorText,
  current: function () {
    return state.file;
  },
});

// Play the editor's draft: asked first if a game is in progress (it stays in Saved games);
// the core loads it (or refuses it, and nothing changes), and a new game starts at once.
function playDraft(scenario) {
  if (!state.ready) return Promise.reject({ key: "ui.rules_loading" });
  const title = scenario && scenario.title ? i18n.pick(scenario.title) : i18n.t("ui.untitled");
  return askLeave(i18n.t("ui.ask_new_game", { title: title }), i18n.t("ui.new_game")).then(
    function (yes) {
      if (!yes) return false;
      return engine.call("load_scenario", { scenario: scenario }).then(function (summary) {
        editor.close();
        clearBoardMarks();
        setMode("inspect");
        drawScenario(scenario);
        setPlayable(summary);
        state.scenarioId = summary.id;
        if (summary.playable !== false) current().start();
        return true;
      });
    },
  );
}

function registerServiceWorker() {
  if (!("serviceWorker" in navigator) || params.has("nosw")) return;
  navigator.serviceWorker.register("sw.js").then(
    function (registration) {
      offerUpdates(registration, {
        i18n: i18n,
        onScreen: function () {
          return { slot: current().view ? current().slot : null, scenario: state.scenarioId };
        },
      });
    },
    function (error) {
      console.warn("offline cache unavailable:", error.message);
    },
  );
}

// The game to reopen at a start, its record in the saved games, or null: after an Update, the
// game that was on screen when it was pressed; else as resume.js decides (the game on screen
// before a reload, or the newest in progress of the scenario a link names).
function gameAtStart(updated) {
  if (updated) return updated.slot ? games.get(updated.slot) : null;
  return gameToResume(games.records, params.get("scenario"), lastScreen());
}

// Reopen `record` as the rules come up: the core replays it (a hidden-information game opens
// behind the privacy screen); resolves true, or false if it was refused (and said).
function resumeAtStart(record, updated) {
  return loadSave(record.save, record.id).then(function (scenario) {
    if (!scenario) return false;
    timing.resumed = performance.now();
    const title = record.name || saved.title(record);
    const key = updated ? "ui.updated_game" : "ui.game_resumed";
    showMessage(i18n.t(key, { title: title }), "info", true);
    return true;
  });
}

// The scenarios' index and files, beside the app.
const SCENARIOS = new URL("../scenarios/", import.meta.url);

// The scenario of the index a start opens: the one named, else the first.
function entryOf(index, id) {
  return (
    index.find(function (item) {
      return item.id === id;
    }) || index[0]
  );
}

// A start: the map drawn at once (the game to reopen, else the scenario named or the first),
// the rules started beside it, then the game reopened or the scenario's start panel shown.
function start() {
  setStatus("loading");
  const updated = afterUpdate();
  const start = { updated: updated, resume: null };
  const mapReady = drawAtStart(start);
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
      timing.rulesUp = performance.now();
      return start.resume ? resumeAtStart(start.resume, updated) : false;
    })
    .then(function (resumed) {
      return resumed ? null : openIndexScenario(start);
    })
    .then(function () {
      state.ready = true;
      timing.rulesReady = performance.now();
      // How the worker booted (snapshot or normal, and why a snapshot was refused): for the
      // startup benchmark and the tests.
      timing.boot = engine.info;
      setStatus("ready");
      html.dataset.ready = "1";
      if (state.selected) showHex(state.selected); // a hex tapped while the rules loaded
      registerServiceWorker();
    })
    .catch(function (error) {
      if (!engine.failure) showMessage(errorText(error));
    });
  listenToControls();
}

// The map of a start, drawn before the rules are up: the index read into the scenario list,
// then the game to reopen (start.resume, its own scenario drawn) or the scenario the address,
// an update or the last visit names.
function drawAtStart(start) {
  const updated = start.updated;
  const noted = lastScreen();
  const wanted =
    params.get("scenario") || (updated && updated.scenario) || (noted && noted.scenario);
  const kept = games.load().catch(function (error) {
    console.warn("saved games unavailable:", error.message || error);
  });
  return Promise.all([fetchJson(new URL("index.json", SCENARIOS)), kept]).then(function (found) {
    const index = found[0];
    state.index = index;
    index.forEach(function (item) {
      els.scenarioSelect.appendChild(el("option", { value: item.id, text: i18n.pick(item.title) }));
    });
    // A game to reopen draws its own scenario (the one its save holds) at once.
    start.resume = gameAtStart(updated);
    if (start.resume) {
      state.scenarioId = scenarioOf(start.resume);
      drawScenario(start.resume.save.scenario);
      return null;
    }
    const entry = entryOf(index, wanted);
    state.scenarioId = entry.id;
    return fetchJson(new URL(entry.file, SCENARIOS)).then(drawScenario);
  });
}

// The scenario of the index in the core, its start panel on screen (no game, or the game to
// reopen was refused).
function openIndexScenario(start) {
  const entry = entryOf(state.index, state.scenarioId);
  // Drawn already, unless the map shows the scenario of a game that could not be reopened.
  return (start.resume ? fetchJson(new URL(entry.file, SCENARIOS)) : Promise.resolve(null))
    .then(function (scenario) {
      if (scenario) drawScenario(scenario);
      state.scenarioId = entry.id;
      return engine.call("load_scenario", { id: entry.id });
    })
    .then(function (summary) {
      setPlayable(summary);
      if (start.updated) showMessage(i18n.t("ui.updated"), "info", true);
    });
}

// The header's controls, the settings, the editor and the language.
function listenToControls() {
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
        clearBoardMarks();
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

  els.scenarioSelect.addEventListener("change", scenarioChosen);

  els.saveFile.addEventListener("change", function () {
    const file = els.saveFile.files[0];
    els.saveFile.value = "";
    if (!file || !state.ready) return;
    readJsonFile(file, "save").then(openSave, showError);
  });

  els.losTool.addEventListener("click", function () {
    setMode(state.mode === "los" ? "inspect" : "los");
  });

  els.file.addEventListener("change", function () {
    if (els.file.files.length) loadScenarioFile(els.file.files[0]);
    els.file.value = "";
  });

  document.getElementById("settings-button").addEventListener("click", function () {
    document.getElementById("settings-dialog").showModal();
  });
  initSettings({
    gameOpen: function () {
      return Boolean(current().view);
    },
    playPanel: els.playPanel,
  });

  initBriefingSetting();
  document.getElementById("open-editor").addEventListener("click", editor.open);
  if (params.has("editor")) editor.open();

  els.lang.addEventListener("change", function () {
    i18n.remember(els.lang.value); // the language chosen is the next visit's too
    i18n.load(els.lang.value).then(refreshText);
  });
}

// Another scenario chosen in the header's list: asked first if a game is in progress, then
// loaded in the core, drawn, and its start panel shown.
function scenarioChosen() {
  const wanted = els.scenarioSelect.value;
  const entry = (state.index || []).find(function (item) {
    return item.id === wanted;
  });
  // The select shows the scenario on screen until another has taken its place.
  els.scenarioSelect.value = state.scenarioId;
  if (!entry || !state.ready) return;
  askLeave(i18n.t("ui.ask_scenario", { title: i18n.pick(entry.title) }), i18n.t("ui.ask_open"))
    .then(function (yes) {
      if (!yes) return null;
      return fetchJson(new URL(entry.file, SCENARIOS)).then(openScenario);
    })
    .catch(function (error) {
      showMessage(errorText(error));
    });

  function openScenario(scenario) {
    return engine.call("load_scenario", { id: entry.id }).then(function (summary) {
      clearBoardMarks();
      setMode("inspect");
      state.scenarioId = entry.id;
      drawScenario(scenario);
      setPlayable(summary);
      rememberScreen(entry.id, null);
      show(function () {
        return [el("p", { class: "hint", text: i18n.t("ui.tap_hint") })];
      });
    });
  }
}

function refreshText() {
  html.lang = i18n.lang;
  els.lang.value = i18n.lang;
  i18n.apply(document);
  setStatus(els.status.dataset.state);
  if (state.file) rewordScenario();
  if (state.view) show(state.view);
  if (state.los) showLos(state.los);
  if (state.ready) current().render();
  if (saved.isOpen()) saved.refresh();
  editor.refreshText();
}

i18n
  .load(params.get("lang") || i18n.preferred(navigator.languages || [navigator.language]))
  .then(refreshText, function () {})
  .then(start);

// The keyboard: the maps' cursors in words, the shortcuts, the keyboard dialog.
setupKeys({
  i18n: i18n,
  hexMap: map,
  areaMap: areaMap,
  hexPlay: play,
  areaPlay: areaPlay,
  current: current,
  scenario: function () {
    return state.scenario;
  },
  area: function () {
    return Boolean(state.area);
  },
});

// Two tablets, one battle: the pairing dialog and the chip of who is connected.
offerPairing({ engine, plays: [play, areaPlay], current, loadSave, games, i18n, showMessage });

window.muster = {
  engine: engine,
  map: map,
  i18n: i18n,
  state: state,
  showHex: showHex,
  play: play,
  games: games,
};
