// The scenario editor's New dialog (methods of the editor in static/editor/editor.js): the
// system, the title and the map's size and numbering (hexes: columns, rows, orientation, first
// column and row, stagger, digits; areas: width and height), the core's template set as asked,
// or the scenario in play to edit.
import { el } from "../panels.js";
import { copy, button, kindOfSystem, systemsOf } from "./editor_common.js";

export const newMethods = {
  newDialog() {
    const n = {};
    this.newEls = n;
    const num = (id, min, max, value) =>
      el("input", {
        id: id,
        type: "number",
        inputmode: "numeric",
        min: String(min),
        max: String(max),
        step: "1",
        value: String(value),
      });
    const row = (key, input, wide) =>
      el("div", { class: "editor-field" + (wide ? " editor-wide" : "") }, [
        el("label", { for: input.id, "data-i18n": key, text: this.t(key) }),
        input,
      ]);
    const options = (id, values, prefix) =>
      el(
        "select",
        { id: id },
        values.map((v) =>
          el("option", {
            value: v,
            "data-i18n": prefix + v.replace(/-/g, "_"),
            text: this.t(prefix + v.replace(/-/g, "_")),
          }),
        ),
      );
    n.system = options("editor-new-system", [], "editor.system_");
    n.systemOption = (v) =>
      el("option", {
        value: v,
        "data-i18n": "editor.system_" + v.replace(/-/g, "_"),
        text: this.t("editor.system_" + v.replace(/-/g, "_")),
      });
    n.title = el("input", {
      id: "editor-new-title",
      type: "text",
      maxlength: "200",
      autocomplete: "off",
    });
    this.newMapFields(n, num, row, options);
    n.fromPlay = button("", { id: "editor-new-from-play", class: "editor-from-play" }, () => {
      n.dialog.close("play");
    });
    n.ok = el("button", {
      id: "editor-new-ok",
      value: "ok",
      class: "primary",
      "data-i18n": "editor.new_create",
      text: this.t("editor.new_create"),
    });
    n.cancel = button(
      this.t("ui.cancel"),
      { id: "editor-new-cancel", "data-i18n": "ui.cancel" },
      () => n.dialog.close("cancel"),
    );
    n.form = el("form", { method: "dialog" }, [
      el("h2", {
        id: "editor-new-head",
        "data-i18n": "editor.new_head",
        text: this.t("editor.new_head"),
      }),
      row("editor.new_system", n.system),
      row("editor.field_title", n.title),
      n.hex,
      n.areas,
      el("div", { class: "dialog-buttons" }, [n.cancel, n.ok]),
      el("p", { class: "hint", "data-i18n": "editor.new_or", text: this.t("editor.new_or") }),
      n.fromPlay,
    ]);
    n.dialog = el(
      "dialog",
      {
        id: "editor-new-dialog",
        class: "dialog editor-dialog",
        "aria-labelledby": "editor-new-head",
      },
      [n.form],
    );
    n.system.addEventListener("change", () => this.newShape());
    n.orientation.addEventListener("change", () => this.newShape());
    return n.dialog;
  },

  // The New dialog's map: a hex grid's size, orientation, numbering and stagger, or an area
  // map's size (in n); num, row and options make its inputs, rows and lists as newDialog does.
  newMapFields(n, num, row, options) {
    n.columns = num("editor-new-columns", 1, 200, 12);
    n.rows = num("editor-new-rows", 1, 200, 10);
    n.orientation = options("editor-new-orientation", ["flat", "pointy"], "editor.orientation_");
    n.firstColumn = num("editor-new-first-column", 0, 9999, 1);
    n.firstRow = num("editor-new-first-row", 0, 9999, 1);
    n.stagger = el("select", { id: "editor-new-stagger" }, [
      el("option", { value: "even" }),
      el("option", { value: "odd" }),
    ]);
    n.columnDigits = num("editor-new-column-digits", 1, 4, 2);
    n.rowDigits = num("editor-new-row-digits", 1, 4, 2);
    n.width = num("editor-new-width", 100, 100000, 1000);
    n.height = num("editor-new-height", 100, 100000, 700);
    n.hex = el("fieldset", { class: "editor-new-hex" }, [
      el("legend", { "data-i18n": "editor.new_hex", text: this.t("editor.new_hex") }),
      row("editor.new_columns", n.columns),
      row("editor.new_rows", n.rows),
      row("editor.new_orientation", n.orientation, true),
      row("editor.new_first_column", n.firstColumn),
      row("editor.new_first_row", n.firstRow),
      row("editor.new_stagger", n.stagger, true),
      row("editor.new_column_digits", n.columnDigits),
      row("editor.new_row_digits", n.rowDigits),
    ]);
    n.areas = el("fieldset", { class: "editor-new-areas", hidden: "" }, [
      el("legend", { "data-i18n": "editor.new_areas", text: this.t("editor.new_areas") }),
      row("editor.new_width", n.width),
      row("editor.new_height", n.height),
    ]);
  },

  // The New dialog's fields follow its system (hexes or areas) and orientation (the stagger's
  // words name columns or rows).
  newShape() {
    const n = this.newEls;
    const areas = kindOfSystem(this.engine, n.system.value) === "areas";
    n.hex.hidden = areas;
    n.areas.hidden = !areas;
    const pointy = n.orientation.value === "pointy";
    Array.prototype.forEach.call(n.stagger.options, (option) => {
      option.textContent = this.t(
        "editor.stagger_" + option.value + (pointy ? "_rows" : "_columns"),
      );
    });
  },

  template(system) {
    return this.engine.call("scenario_template", { system: system });
  },

  openNew() {
    const n = this.newEls;
    const s = this.draft ? this.draft.scenario : null;
    // The systems the core lists (known once the rules are ready).
    if (!n.system.options.length) {
      systemsOf(this.engine).forEach((x) => n.system.appendChild(n.systemOption(x.id)));
    }
    if (s && kindOfSystem(this.engine, s.system)) n.system.value = s.system;
    const m = s && s.map && s.map.kind !== "areas" ? s.map : null;
    if (m) {
      n.orientation.value = m.orientation === "pointy" ? "pointy" : "flat";
      n.stagger.value = m.stagger === "odd" ? "odd" : "even";
    }
    n.title.value = "";
    n.title.placeholder = this.t("editor.new_title");
    const playing = this.host.current ? this.host.current() : null;
    n.fromPlay.hidden = !playing;
    n.fromPlay.textContent = playing
      ? this.t("editor.new_from_play", { title: this.i18n.pick(playing.title) })
      : "";
    this.newShape();
    n.dialog.returnValue = "";
    n.dialog.showModal();
    n.dialog.addEventListener(
      "close",
      () => {
        if (n.dialog.returnValue === "ok") this.createNew(this.newValues());
        else if (n.dialog.returnValue === "play" && playing) this.editPlaying(playing);
      },
      { once: true },
    );
  },

  newValues() {
    const n = this.newEls;
    const int = (input, fallback) => {
      const v = parseInt(input.value, 10);
      return isFinite(v) ? v : fallback;
    };
    return {
      system: n.system.value,
      title: n.title.value.trim(),
      columns: int(n.columns, 12),
      rows: int(n.rows, 10),
      orientation: n.orientation.value,
      first_column: int(n.firstColumn, 1),
      first_row: int(n.firstRow, 1),
      stagger: n.stagger.value,
      column_digits: int(n.columnDigits, 2),
      row_digits: int(n.rowDigits, 2),
      width: int(n.width, 1000),
      height: int(n.height, 700),
    };
  },

  // The core's template of the system, its map set as asked.
  createNew(v) {
    return this.template(v.system)
      .then((scenario) => {
        const s = copy(scenario);
        if (v.title) s.title = v.title;
        if (s.map && s.map.kind === "areas") {
          // An empty drawing space: the player draws the printed map's locales (over its
          // picture), so the template's own squares would only be in the way.
          Object.assign(s.map, {
            width: v.width,
            height: v.height,
            locales: [],
            approaches: [],
            roads: [],
          });
          s.units = [];
        } else {
          s.map = Object.assign({}, s.map || {}, {
            orientation: v.orientation,
            stagger: v.stagger,
            first_column: v.first_column,
            columns: v.columns,
            first_row: v.first_row,
            rows: v.rows,
            column_digits: v.column_digits,
            row_digits: v.row_digits,
            hexes: {},
            hexsides: [],
            roads: [],
            labels: [],
          });
          if (Array.isArray(s.objectives)) s.objectives = [];
        }
        // The picture aligned under the old map stays under the new one when its printed
        // numbers lie where the old map's did: the same orientation and stagger.
        const keep = Boolean(this.picture.current) && samePlacement(this.draft.scenario.map, s.map);
        return this.askReplace(this.t("editor.ask_new")).then((yes) => {
          if (!yes) return;
          this.replaceWith(s, "editor.step_new", keep);
          this.sayKey(keep ? "editor.new_done_picture" : "editor.new_done", "info");
        });
      })
      .catch((error) => this.say(this.errorText(error), "error"));
  },

  editPlaying(scenario) {
    return this.askReplace(
      this.t("editor.ask_edit_play", { title: this.i18n.pick(scenario.title) }),
    ).then((yes) => {
      if (!yes) return;
      this.replaceWith(copy(scenario), "editor.step_edit_play");
    });
  },
};

// Whether two maps put each printed number at the same place (render/hexgrid.js places column C,
// row R by the orientation and stagger only): hex maps both.
function samePlacement(a, b) {
  return Boolean(
    a &&
    b &&
    a.kind !== "areas" &&
    b.kind !== "areas" &&
    (a.orientation === "pointy") === (b.orientation === "pointy") &&
    (a.stagger === "odd") === (b.stagger === "odd"),
  );
}
