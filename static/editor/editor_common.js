// What the editor's shell (static/editor/editor.js) and its modules share: the rule systems, the
// kind of a scenario's map, a deep copy, a part of the editor loaded on demand, a button, an
// Error worded by an i18n key, a size in MiB, a text of the file in one language of several.
import { el } from "../panels.js";
import { pickText } from "../i18n.js";

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

// A text of the file (a title, a name: one text, or texts by language code, docs/
// scenario-format.md "Texts in several languages") as a field of the editor shows it: in the
// editor's language, else English, else the first given.
export function shownText(value, i18n) {
  return pickText(value, i18n.lang);
}

// The file's text once its field was edited in `lang`: texts by language keep every other
// language (this one's replaced, added, or removed when the field is emptied); one text is
// replaced.
export function editedText(old, text, lang) {
  if (!old || typeof old !== "object" || Array.isArray(old)) return text;
  const out = Object.assign({}, old);
  if (text) out[lang] = text;
  else delete out[lang];
  return Object.keys(out).length ? out : text;
}

const MIB = 1024 * 1024;

// A size in MiB, rounded up, for a refusal's words.
export function mib(bytes) {
  return Math.ceil(bytes / MIB);
}
