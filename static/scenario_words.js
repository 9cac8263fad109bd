// A scenario as the screen shows it in the player's language: every text the file may give in
// several languages (docs/scenario-format.md, "Texts in several languages") picked for the
// language of `i18n` (I18n.pick). The file's own object is left as it is: the editor and the
// saves keep every language; a change of language words the file again.

function picked(list, field, i18n) {
  if (!Array.isArray(list)) return list;
  return list.map(function (item) {
    if (!item || typeof item !== "object" || !(field in item)) return item;
    const copy = Object.assign({}, item);
    copy[field] = i18n.pick(item[field]);
    return copy;
  });
}

export function wordScenario(scenario, i18n) {
  if (!scenario || typeof scenario !== "object") return scenario;
  const out = Object.assign({}, scenario);
  if ("title" in scenario) out.title = i18n.pick(scenario.title);
  if ("description" in scenario) out.description = i18n.pick(scenario.description);
  out.sides = picked(scenario.sides, "name", i18n);
  out.formations = picked(scenario.formations, "name", i18n);
  out.units = picked(scenario.units, "name", i18n);
  if (scenario.map && typeof scenario.map === "object") {
    const map = Object.assign({}, scenario.map);
    map.hexsides = picked(scenario.map.hexsides, "name", i18n);
    map.labels = picked(scenario.map.labels, "text", i18n);
    map.locales = picked(scenario.map.locales, "name", i18n);
    Object.keys(map).forEach(function (key) {
      if (map[key] === undefined) delete map[key];
    });
    out.map = map;
  }
  Object.keys(out).forEach(function (key) {
    if (out[key] === undefined) delete out[key];
  });
  return out;
}
