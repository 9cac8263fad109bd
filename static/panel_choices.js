// The choices the core grouped, as the dock draws them (docs/play-view.md): the way on first,
// then each choice under its label, as buttons, as places lit on the map (a long list folds
// away: taps on the map do the same), or as facings drawn round a compass; the selected
// unit's bar and the picker of a stack's units. Methods of the play panel (panel.js): it
// reports the item touched; what an item does is the core's.
import { el, unique } from "./panels.js";
import { byBearing, facingArrowSvg } from "./facing.js";

// A choice of more buttons than this folds away (taps on the map do the same).
const FOLD_AT = 8;

export const choiceMethods = {
  // The choices the core grouped, each under its label.
  choicesBox() {
    const nodes = [];
    const unit = this.selected;
    if (unit) nodes.push(this.selectedBar(unit));
    const choices = (this.view.choices || []).map((choice, index) => ({ choice, index }));
    // The way on first, under the prompt: the natural next step (the core's primary item),
    // then what ends the step, phase or turn: going on is always in reach.
    const all = this.items();
    const way = all
      .filter((i) => i.primary && !choices[i.choice].choice.end)
      .concat(all.filter((i) => choices[i.choice].choice.end));
    if (way.length) nodes.push(this.wayOn(way));
    choices.forEach(({ choice, index }) => {
      if (choice.end) return;
      const items = choice.items
        .filter((i) => !i.primary)
        .map((i) => Object.assign({ choice: index }, i));
      if (!items.length) return; // its one item leads the way on
      if (choice.kind === "map") nodes.push(this.mapChoice(choice, items));
      else if (choice.kind === "facing") nodes.push(this.facingChoice(choice, items));
      else nodes.push(this.buttonChoice(choice, items));
    });
    return el("div", { class: "choices" }, nodes.filter(Boolean));
  },

  selectedBar(unit) {
    const extra = this.items().filter(
      (i) => i.unit === unit && !i.at && this.view.choices[i.choice].kind !== "facing",
    );
    return el("div", { class: "selected-bar", "data-unit": unit }, [
      el("p", {
        class: "selected-name",
        text: this.t(
          this.items().some((i) => i.unit === unit && i.at) ? "ui.selected" : "ui.selected_plain",
          { unit: unit },
        ),
      }),
      el(
        "div",
        { class: "actions" },
        extra
          .map((i) => this.itemButton(i))
          .concat([
            this.button(this.t("ui.cancel_selection"), () => this.unselect(), {
              id: "unselect",
            }),
          ]),
      ),
    ]);
  },

  itemButton(item) {
    return this.button(this.label(item), () => this.run(item), {
      class: "action" + (item.preview ? " fight" : ""),
      "data-action": item.action.type,
      "data-at": item.at || "",
      "data-unit": item.unit || "",
    });
  },

  buttonChoice(choice, items) {
    const heading = el("h3", { class: "choice-label", text: this.label(choice) });
    const box = el(
      "div",
      { class: "actions" },
      items.map((i) => this.itemButton(i)),
    );
    if (items.length <= FOLD_AT) {
      return el("div", { class: "choice", "data-kind": "buttons" }, [heading, box]);
    }
    const folded = el("details", { class: "choice folded", "data-kind": "buttons" }, [
      el("summary", {
        text: this.t("ui.choice_count", { label: this.label(choice), count: items.length }),
      }),
      box,
    ]);
    return folded;
  },

  // Moves: too many for buttons. Tap a lit unit, then a lit place; the units are listed too
  // (a unit in a stack, or for a player who prefers a list).
  mapChoice(choice, items) {
    const units = unique(items.filter((i) => i.unit).map((i) => i.unit));
    const list = units.map((u) =>
      this.button(this.t("ui.unit_name", { unit: u }), () => this.pickUnit(u), {
        class: "unit-pick" + (u === this.selected ? " on" : ""),
        "data-unit": u,
      }),
    );
    // The prompt says how to move; once a unit is picked, what to tap next.
    const hint = this.selected
      ? el("p", { class: "hint", text: this.t("ui.map_hint_selected", { unit: this.selected }) })
      : null;
    const box = el("div", { class: "actions units" }, list);
    const nodes = [el("h3", { class: "choice-label", text: this.label(choice) }), hint];
    if (units.length > FOLD_AT) {
      nodes.push(
        el("details", { class: "folded" }, [
          el("summary", { text: this.t("ui.units_to_pick", { count: units.length }) }),
          box,
        ]),
      );
    } else if (units.length) nodes.push(box);
    return el("div", { class: "choice", "data-kind": "map" }, nodes);
  },

  // Facings: an arrow for each, at its angle on this map, for the unit that faces.
  facingChoice(choice, items) {
    const units = unique(items.map((i) => i.unit).filter(Boolean));
    const unit = this.current() || (units.length === 1 ? units[0] : null);
    const shown = items.filter((i) => i.unit === unit || !i.unit);
    if (!shown.length) {
      // Turning in place: once a unit is picked, its arrows show here.
      return el("div", { class: "choice", "data-kind": "facing" }, [
        el("h3", { class: "choice-label", text: this.label(choice) }),
        el("p", { class: "hint", text: this.t("ui.facing_pick_unit") }),
      ]);
    }
    // Clockwise from north, each with its arrow at its angle on this map and in words.
    const facings = byBearing(
      this.orientation(),
      shown.map((i) => i.action.facing),
    );
    const ordered = facings.map((f) => shown.find((i) => i.action.facing === f));
    const arrows = ordered.map((i) => {
      const node = this.button("", () => this.run(i), {
        class: "facing",
        "data-action": i.action.type,
        "data-facing": String(i.action.facing),
        "aria-label": this.label(i),
      });
      node.innerHTML = facingArrowSvg(this.orientation(), i.action.facing, 26);
      node.appendChild(
        el("span", { class: "facing-word", text: this.facingWord(i.action.facing) }),
      );
      return node;
    });
    return el("div", { class: "choice", "data-kind": "facing" }, [
      el("h3", { class: "choice-label", text: this.label(choice) }),
      el("div", { class: "facings" }, arrows),
    ]);
  },

  // What one tap could mean, listed: the units of a stack, or the actions at a place.
  pickerBox(picker) {
    const rows = picker.units
      ? picker.units.map((u) =>
          this.button(this.t("ui.unit_name", { unit: u }), () => this.pickUnit(u), {
            class: "pick-row",
            "data-unit": u,
          }),
        )
      : picker.items.map((i) => {
          const node = this.itemButton(i);
          node.classList.add("pick-row");
          return node;
        });
    return el("div", { class: "picker", id: "picker" }, [
      el("h3", { text: picker.title }),
      el("div", { class: "pick-rows" }, rows),
      this.button(this.t("ui.cancel"), () => this.unselect(), { id: "picker-cancel" }),
    ]);
  },
};
