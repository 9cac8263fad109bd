// The rules reference: the charts of the scenario's rule system (terrain, modifiers, results,
// sequence of play), drawn as HTML tables from the core's own tables (`rules_reference`), in
// the chosen language. Every row is an anchor: a preview's modifier line opens the dialog at
// the row it comes from, and the row is highlighted. Defaults, stand-ins and the scenario's
// overrides carry a worded mark, explained in a legend. Nothing here decides a rule.
import { el } from "./panels.js";

// The marks a row, a cell or a note may carry (docs/rules-reference.md), in legend order.
const MARKS = ["default", "standin", "override"];
// The prefix of every anchor in the page: the core's ids stay apart from the app's.
const PREFIX = "ref-";
// A rule reference that is a number of the rules ("8.6", "19.11.1").
const RULE_NUMBER = /^\d+(\.\d+)*$/;

// The dialog's opener: `openRules(ref)` asks the core for the charts, draws them and opens the
// dialog (at the row `ref` when given). Escape or Close shut it; focus returns to the control
// that opened it.
export function rulesDialog(opts) {
  const engine = opts.engine;
  const i18n = opts.i18n;
  const onError = opts.onError || function () {};
  const dialog = document.getElementById("rules-dialog");
  const body = document.getElementById("rules-body");
  let opener = null;
  dialog.addEventListener("close", function () {
    const back = opener && document.contains(opener) ? opener : document.getElementById("rules");
    opener = null;
    if (back && typeof back.focus === "function") back.focus();
  });
  return function openRules(ref) {
    if (!dialog.open) opener = document.activeElement;
    return engine.call("rules_reference", {}).then(
      function (answer) {
        const words = new Words(i18n);
        body.replaceChildren.apply(body, words.reference(answer));
        i18n.apply(dialog);
        dialog.dataset.system = answer.system || "";
        if (!dialog.open) dialog.showModal();
        reachScrolls(body);
        if (ref) showRow(body, ref);
        else body.scrollTop = 0;
        return answer;
      },
      function (error) {
        onError(error);
        return null;
      },
    );
  };
}

// A chart wider than the dialog scrolls sideways: the keyboard reaches it (Tab, then the
// arrows), and it is named by its chart's title.
function reachScrolls(body) {
  body.querySelectorAll(".rules-scroll").forEach(function (node) {
    if (node.scrollWidth > node.clientWidth + 1) {
      node.setAttribute("tabindex", "0");
      node.setAttribute("role", "region");
      node.setAttribute("aria-labelledby", node.dataset.title);
    } else {
      node.removeAttribute("tabindex");
      node.removeAttribute("role");
      node.removeAttribute("aria-labelledby");
    }
  });
}

// Scroll to the row (or note, or chart) `ref` and highlight it; focus moves to it.
function showRow(body, ref) {
  body.querySelectorAll(".rules-hit").forEach(function (node) {
    node.classList.remove("rules-hit");
  });
  const target = document.getElementById(PREFIX + ref);
  if (!target) return;
  target.classList.add("rules-hit");
  target.setAttribute("tabindex", "-1");
  target.scrollIntoView({ block: "center" });
  target.focus({ preventScroll: true });
}

// The words of a reference: labels with their parameters, numbers as each column reads them.
class Words {
  constructor(i18n) {
    this.i18n = i18n;
  }

  t(key, params) {
    return this.i18n.t(key, params || {});
  }

  // A number as the language writes it; `signed` puts its sign (+1, −1) in front.
  num(value, signed) {
    const text = this.i18n.num ? this.i18n.num(Math.abs(value)) : String(Math.abs(value));
    if (!signed) return value < 0 ? "−" + text : text;
    return (value > 0 ? "+" : value < 0 ? "−" : "") + text;
  }

  // A label in words. Its numbers are written as the column reads them (a count for plural
  // forms is left to the words); a nested label is worded first; "ref.signed" has its sign.
  label(label, signed) {
    if (!label || typeof label !== "object") return "";
    const params = label.params || {};
    if (label.key === "ref.signed" && typeof params.value === "number") {
      return this.num(params.value, true);
    }
    if (label.key === "ref.rule") return this.rule(params.rule);
    const out = {};
    Object.keys(params).forEach((name) => {
      out[name] = this.param(name, params[name], signed);
    });
    return this.t(label.key, out);
  }

  // A rule reference in a chart of rules: a rule's number alone ("8.6"), else its words.
  rule(value) {
    const ref = String(value);
    return RULE_NUMBER.test(ref) ? ref : this.i18n.rule(ref);
  }

  param(name, value, signed) {
    if (Array.isArray(value)) return value.map((v) => this.param(name, v, signed));
    if (value && typeof value === "object" && typeof value.key === "string") {
      return this.label(value, signed);
    }
    if (typeof value === "number" && name !== "n" && name !== "count") {
      return this.num(value, signed);
    }
    return value;
  }

  cell(value, column) {
    const signed = column.kind === "signed";
    if (value === null || value === undefined) return "";
    if (typeof value === "number") return this.num(value, signed);
    return this.label(value, signed);
  }

  // The whole reference: the contents, the legend of marks, then each chart.
  reference(answer) {
    const sections = answer.sections || [];
    if (!sections.length) return [el("p", { class: "hint", text: this.t("ui.rules_none") })];
    const used = marksUsed(sections);
    const nodes = [this.contents(sections)];
    if (used.length) nodes.push(this.legend(used));
    sections.forEach((s) => nodes.push(this.section(s)));
    return nodes;
  }

  contents(sections) {
    const items = sections.map((s) => {
      const button = el("button", {
        type: "button",
        class: "rules-jump",
        "data-ref": s.id,
        text: this.label(s.title),
      });
      button.addEventListener("click", function () {
        const target = document.getElementById(PREFIX + s.id);
        if (target) target.scrollIntoView({ block: "start" });
      });
      return el("li", {}, [button]);
    });
    return el("nav", { class: "rules-contents", "aria-labelledby": "rules-contents-title" }, [
      el("h3", { id: "rules-contents-title", text: this.t("ui.rules_contents") }),
      el("ul", {}, items),
    ]);
  }

  legend(used) {
    const items = used.map((mark) =>
      el("div", { class: "rules-legend-item" }, [
        el("dt", {}, [this.badge(mark)]),
        el("dd", { text: this.t("ui.rules_mark_" + mark) }),
      ]),
    );
    return el("section", { class: "rules-legend", "aria-labelledby": "rules-legend-title" }, [
      el("h3", { id: "rules-legend-title", text: this.t("ui.rules_legend") }),
      el("dl", {}, items),
    ]);
  }

  // A mark in words, with its own border style: never told by colour alone.
  badge(mark) {
    return el("span", {
      class: "rules-badge rules-badge-" + mark,
      "data-mark": mark,
      title: this.t("ui.rules_mark_" + mark),
      text: this.t("ui.rules_badge_" + mark),
    });
  }

  badges(flags) {
    return (flags || []).filter((f) => MARKS.indexOf(f) >= 0).map((f) => this.badge(f));
  }

  section(s) {
    const head = PREFIX + s.id + "-title";
    const title = el("h3", { id: head, class: "rules-title" }, [
      document.createTextNode(this.label(s.title)),
    ]);
    this.badges(s.flags).forEach((b) => title.append(" ", b));
    const nodes = [title];
    if (s.rule) {
      nodes.push(
        el("p", {
          class: "rules-rule",
          text: this.t("ui.rules_source", { source: this.rule(s.rule) }),
        }),
      );
    }
    (s.intro || []).forEach((n) => nodes.push(this.remark(n)));
    nodes.push(el("div", { class: "rules-scroll", "data-title": head }, [this.table(s, head)]));
    if ((s.notes || []).length) nodes.push(this.notes(s));
    return el("section", { id: PREFIX + s.id, class: "rules-section" }, nodes);
  }

  remark(n) {
    const node = el("p", { id: PREFIX + n.id, class: "rules-remark" }, []);
    this.badges(n.flags).forEach((b) => node.append(b, " "));
    node.append(this.label(n.text));
    return node;
  }

  table(s, head) {
    const columns = s.columns || [];
    const heading = el(
      "tr",
      {},
      columns.map((c) => {
        const th = el("th", { scope: "col", "data-column": c.id }, [
          document.createTextNode(this.label(c.label)),
        ]);
        (c.marks || []).forEach((m) => th.append(sup(m)));
        return th;
      }),
    );
    const rows = (s.rows || []).map((r) => this.row(r, columns));
    return el("table", { class: "rules-table", "aria-labelledby": head }, [
      el("thead", {}, [heading]),
      el("tbody", {}, rows),
    ]);
  }

  row(r, columns) {
    const cells = columns.map((c, index) => {
      const rowHead = c.kind === "head" || index === 0;
      const node = el(rowHead ? "th" : "td", {
        "data-column": c.id,
        class: c.kind === "signed" || c.kind === "number" ? "rules-num" : "",
      });
      if (rowHead) node.setAttribute("scope", "row");
      node.append(this.cell((r.cells || {})[c.id], c));
      ((r.marks || {})[c.id] || []).forEach((m) => node.append(sup(m)));
      const flags = (r.cell_flags || {})[c.id] || [];
      this.badges(flags).forEach((b) => node.append(" ", b));
      if (flags.length) node.dataset.flags = flags.join(" ");
      if (rowHead) this.badges(r.flags).forEach((b) => node.append(" ", b));
      return node;
    });
    const tr = el("tr", { id: PREFIX + r.id }, cells);
    if ((r.flags || []).length) tr.dataset.flags = r.flags.join(" ");
    return tr;
  }

  notes(s) {
    const items = s.notes.map((n) => {
      const dd = el("dd", {}, []);
      this.badges(n.flags).forEach((b) => dd.append(b, " "));
      dd.append(this.label(n.text));
      return el("div", { id: PREFIX + n.id, class: "rules-note" }, [
        el("dt", { text: n.mark }),
        dd,
      ]);
    });
    return el("div", { class: "rules-notes" }, [
      el("h4", { text: this.t("ui.rules_notes") }),
      el("dl", {}, items),
    ]);
  }
}

// A footnote mark of a cell or a heading, as the chart prints it.
function sup(mark) {
  return el("sup", { class: "rules-mark", text: mark });
}

// The marks met anywhere in the reference, in legend order.
function marksUsed(sections) {
  const seen = {};
  const add = function (flags) {
    (flags || []).forEach(function (f) {
      seen[f] = true;
    });
  };
  sections.forEach(function (s) {
    add(s.flags);
    (s.intro || []).concat(s.notes || []).forEach(function (n) {
      add(n.flags);
    });
    (s.rows || []).forEach(function (r) {
      add(r.flags);
      Object.keys(r.cell_flags || {}).forEach(function (c) {
        add(r.cell_flags[c]);
      });
    });
  });
  return MARKS.filter(function (m) {
    return seen[m];
  });
}
