// The side panel's contents, built from what the rules core answered. Words come from
// i18n keys; the core's rule references are shown as they are, engine defaults flagged.

export function el(tag, attrs, children) {
  const node = document.createElement(tag);
  Object.keys(attrs || {}).forEach(function (key) {
    if (key === "text") node.textContent = attrs[key];
    else node.setAttribute(key, attrs[key]);
  });
  (children || []).forEach(function (child) {
    if (child) node.appendChild(child);
  });
  return node;
}

function list(i18n, items) {
  if (!items.length) return el("p", { class: "none", text: i18n.t("ui.none") });
  return el(
    "ul",
    {},
    items.map(function (text) {
      return el("li", { text: text });
    }),
  );
}

function number(value) {
  return String(Math.round(value * 100) / 100);
}

// Message parameters that are ids of terrain, features or roads, put into words.
function wordParams(i18n, params) {
  const out = {};
  Object.keys(params || {}).forEach(function (key) {
    const value = params[key];
    if (key === "terrain") out[key] = i18n.t("terrain." + value);
    else if (key === "feature") out[key] = i18n.t("feature." + value);
    else if (key === "kind") out[key] = i18n.t("connection." + value);
    else if (key === "by") {
      const asRoad = i18n.t("connection." + value, null, "");
      out[key] = asRoad || i18n.t("feature." + value);
    } else if (key === "delta") out[key] = (value > 0 ? "+" : "") + value;
    else out[key] = value;
  });
  return out;
}

export function hexInfo(i18n, info) {
  const t = i18n.t.bind(i18n);
  const sides = info.hexsides.map(function (side) {
    let text = side.features
      .map(function (f) {
        return t("feature." + f);
      })
      .join(" + ");
    if (side.name) text += " (" + i18n.pick(side.name) + ")";
    text += ", " + t("ui.toward", { hex: side.to });
    if (side.up) text += ", " + t("ui.up_side", { hex: side.up });
    return text;
  });
  const roads = info.roads.map(function (road) {
    return t("connection." + road.kind) + ", " + t("ui.toward", { hex: road.to });
  });
  const units = info.units.map(function (unit) {
    return i18n.pick(unit.name) + " (" + t("unit_type." + unit.type) + ")";
  });
  const terrain = info.terrain
    .map(function (id) {
      return t("terrain." + id);
    })
    .join(" + ");
  return [
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
    list(i18n, sides),
    el("h3", { text: t("ui.roads") }),
    list(i18n, roads),
    el("h3", { text: t("ui.units") }),
    list(i18n, units),
  ];
}

export function reach(i18n, unit, answer) {
  const t = i18n.t.bind(i18n);
  const count = Object.keys(answer.hexes).length - 1;
  return [
    el("h2", {
      class: "unit-name",
      "data-unit": answer.unit,
      text: unit ? unit.name : answer.unit,
    }),
    el("p", {
      class: "source",
      text:
        (unit ? t("unit_type." + unit.type) + " · " : "") + t("ui.hex_title", { hex: answer.from }),
    }),
    el("p", { class: "allowance", text: t("ui.allowance", { mp: number(answer.allowance) }) }),
    el("p", { class: "reach-count", text: t("ui.reach_count", { count: count }) }),
  ];
}

function rule(i18n, ref) {
  if (ref === "default") {
    return el("span", { class: "rule default", text: i18n.t("ui.default_rule") });
  }
  if (ref === "scenario") {
    return el("span", { class: "rule override", text: i18n.t("ui.scenario_rule") });
  }
  return el("span", { class: "rule", text: i18n.t("ui.rule", { rule: ref }) });
}

export function path(i18n, unit, answer) {
  const t = i18n.t.bind(i18n);
  const steps = answer.steps.map(function (step) {
    const parts = step.parts.map(function (part) {
      return el("li", { class: "part" }, [
        el("span", { class: "part-value", text: t("ui.mp", { value: number(part.value) }) }),
        el("span", { class: "part-text", text: t(part.key, wordParams(i18n, part.params)) }),
        rule(i18n, part.rule),
      ]);
    });
    (step.flags || []).forEach(function (flag) {
      parts.push(el("li", { class: "part flag", text: t("move.flag." + flag) }));
    });
    if (step.stop) parts.push(el("li", { class: "part stop", text: t("move.stop." + step.stop) }));
    return el("li", { class: "step", "data-to": step.to }, [
      el("span", {
        class: "step-title",
        text: t("ui.step", { from: step.from, to: step.to, cost: number(step.cost) }),
      }),
      el("ul", { class: "parts" }, parts),
    ]);
  });
  return [
    el("h2", {
      class: "unit-name",
      "data-unit": answer.unit,
      text: unit ? unit.name : answer.unit,
    }),
    el("h3", {
      class: "path-title",
      "data-hex": answer.to,
      text: t("ui.path_title", { hex: answer.to, cost: number(answer.cost) }),
    }),
    el("ol", { class: "steps" }, steps),
  ];
}

export function lineOfSight(i18n, answer) {
  const t = i18n.t.bind(i18n);
  const nodes = [
    el("h2", { class: "los-title", text: t("ui.los_title", { from: answer.from, to: answer.to }) }),
    el("p", {
      class: "los-verdict " + (answer.clear ? "clear" : "blocked"),
      "data-clear": answer.clear ? "1" : "0",
      text: answer.clear ? t("ui.los_clear") : t("ui.los_blocked"),
    }),
    el("p", { class: "los-range", text: t("ui.range", { range: answer.range }) }),
  ];
  const block = answer.blocked_by;
  if (block) {
    nodes.push(el("p", { class: "los-reason", text: t(block.reason, wordParams(i18n, block)) }));
    if (block.vertex) nodes.push(el("p", { class: "hint", text: t("ui.los_vertex") }));
  }
  return nodes;
}

// What an area map says of one locale: capacity, objective, and its approaches.
export function localeInfo(i18n, locale, approaches, locales) {
  const t = i18n.t.bind(i18n);
  const nameOf = function (id) {
    const found = locales.find(function (l) {
      return l.id === id;
    });
    return found ? found.name : id;
  };
  const items = approaches.map(function (a) {
    let text = t("ui.al_approach", {
      to: nameOf(a.facing),
      width: t("ui.al_" + a.width),
      effect: a.effect || 0,
    });
    (a.flags || []).forEach(function (f) {
      text += ", " + t("ui.al_" + f);
    });
    return el("li", { text: text });
  });
  const facts = [t("ui.al_capacity", { capacity: locale.capacity })];
  if (locale.objective)
    facts.push(t("ui.al_objective", { points: locale.objective, count: locale.objective }));
  return [
    el("h2", { class: "locale-name", "data-locale": locale.id, text: locale.name }),
    el("p", { text: facts.join(" · ") }),
    el("ul", { class: "approaches" }, items),
  ];
}

// The items of a list, each once, in their order (the play panel's units and places).
export function unique(list) {
  const out = [];
  list.forEach((x) => {
    if (out.indexOf(x) < 0) out.push(x);
  });
  return out;
}
