// What the editor's shell (static/editor/editor.js) and its modules share: the rule systems, the
// kind of a scenario's map, a deep copy, a part of the editor loaded on demand, a button, an
// Error worded by an i18n key, a size in MiB.
import { el } from "../panels.js";

// The rule systems a scenario may have, as the core lists them ({id, map_kind}), in the order
// the New dialog offers them: known once the rules are ready.
export function systemsOf(engine) {
  return (engine && engine.info && engine.info.systems) || [];
}

// The kind of map ("hex" or "areas") of a system, as the core says; null if it is unknown.
export function kindOfSystem(engine, system) {
  const found = systemsOf(engine).find((x) => x.id === system);
  return found ? found.map_kind : null;
}

export function mapKind(scenario) {
  return scenario && scenario.map && scenario.map.kind === "areas" ? "areas" : "hex";
}

export function copy(value) {
  return JSON.parse(JSON.stringify(value));
}

// A module of the editor, or null when it is not there (yet).
export function load(path) {
  return import(path).catch(function (error) {
    console.warn("editor part " + path + " not loaded:", (error && error.message) || error);
    return null;
  });
}

export function button(text, attrs, onClick) {
  const node = el("button", Object.assign({ type: "button" }, attrs || {}));
  node.textContent = text;
  if (onClick) node.addEventListener("click", onClick);
  return node;
}

// An Error whose words are an i18n key and its params (.key, .params).
export function keyedError(key, params) {
  const error = new Error(key + (params ? " " + JSON.stringify(params) : ""));
  error.key = key;
  error.params = params || {};
  return error;
}

const MIB = 1024 * 1024;

// A size in MiB, rounded up, for a refusal's words.
export function mib(bytes) {
  return Math.ceil(bytes / MIB);
}
