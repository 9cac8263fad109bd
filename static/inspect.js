// The hex map's inspection, outside a game's actions: what the rules know of a hex tapped,
// where a unit may move and by which path, and the line of sight between two hexes (the
// header's tool). Each is asked of the core, drawn on the map and in the hex panel; nothing
// here decides a rule.
import * as panels from "./panels.js";
import { el } from "./panels.js";

// app: {engine, map (the hex map), i18n, state and els (the app's), show(view) (the hex
// panel), showMessage(text, kind), errorText(error)}. Returns the functions below.
export function inspector(app) {
  const engine = app.engine;
  const map = app.map;
  const i18n = app.i18n;
  const state = app.state;
  const els = app.els;
  const show = app.show;
  const showMessage = app.showMessage;
  const errorText = app.errorText;

  function renderHexInfo(info) {
    state.lastInfo = info;
    show(function () {
      return panels.hexInfo(i18n, info);
    });
  }

  function scenarioUnit(id) {
    const units = (state.scenario && state.scenario.units) || [];
    return (
      units.find(function (u) {
        return u.id === id;
      }) || null
    );
  }

  function clearBoardMarks() {
    state.unit = null;
    state.reach = null;
    map.selectUnit(null);
    map.highlight(null);
    map.setLines(null);
  }

  function selectUnit(id) {
    return engine.call("reachable", { unit: id }).then(
      function (answer) {
        state.unit = id;
        state.reach = answer;
        state.selected = answer.from;
        map.select(answer.from);
        map.selectUnit(id);
        map.setLines(null);
        const marks = {};
        Object.keys(answer.hexes).forEach(function (label) {
          if (label === answer.from) return;
          const entry = answer.hexes[label];
          const cost = Math.round(entry.cost * 100) / 100;
          marks[label] = { cls: entry.stop ? "reach stop" : "reach", text: String(cost) };
        });
        map.highlight(marks);
        showMessage("");
        show(function () {
          return panels.reach(i18n, scenarioUnit(id), answer);
        });
      },
      function (error) {
        showMessage(errorText(error));
      },
    );
  }

  function showPath(label) {
    const unitId = state.unit;
    return engine.call("path", { unit: unitId, to: label }).then(
      function (answer) {
        map.setLines([{ hexes: answer.hexes, cls: "path" }]);
        map.select(label);
        state.selected = label;
        showMessage("");
        show(function () {
          return panels.path(i18n, scenarioUnit(unitId), answer);
        });
      },
      function (error) {
        showMessage(errorText(error));
      },
    );
  }

  // The line of sight's answer at the top of the panel, under the tool's prompt, where the
  // player looks; null takes it away.
  function showLos(answer) {
    state.los = answer;
    els.losResult.hidden = !answer;
    els.losResult.replaceChildren.apply(
      els.losResult,
      answer ? panels.lineOfSight(i18n, answer) : [],
    );
    if (answer) els.losResult.scrollIntoView({ block: "nearest" });
  }

  function setMode(mode) {
    state.mode = mode;
    state.losFrom = null;
    showLos(null);
    els.losTool.setAttribute("aria-pressed", mode === "los" ? "true" : "false");
    clearBoardMarks();
    if (mode === "los") showMessage(i18n.t("ui.los_pick_from"), "info");
    else showMessage("");
  }

  function losTap(label) {
    if (!state.losFrom) {
      state.losFrom = label;
      map.setLines(null);
      map.select(label);
      showMessage(i18n.t("ui.los_pick_to", { hex: label }), "info");
      return Promise.resolve();
    }
    const from = state.losFrom;
    state.losFrom = null;
    return engine.call("los", { from: from, to: label }).then(
      function (answer) {
        const lines = [];
        if (answer.clear) {
          lines.push({ from: from, to: label, cls: "los-clear" });
        } else {
          const t = answer.blocked_by.t;
          lines.push({ from: from, to: label, cls: "los-clear", t0: 0, t1: t });
          lines.push({ from: from, to: label, cls: "los-blocked", t0: t, t1: 1, mark: true });
        }
        map.setLines(lines);
        map.select(label);
        showMessage(i18n.t("ui.los_pick_from"), "info");
        showLos(answer);
      },
      function (error) {
        showMessage(errorText(error));
      },
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

  return {
    renderHexInfo: renderHexInfo,
    clearBoardMarks: clearBoardMarks,
    selectUnit: selectUnit,
    showPath: showPath,
    showLos: showLos,
    setMode: setMode,
    losTap: losTap,
    showHex: showHex,
  };
}
