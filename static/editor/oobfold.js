// A side of many units in the order of battle (methods of OrderOfBattle, static/editor/oob.js):
// past FOLD_OVER units its list is folded into groups, one per formation (the units without
// one last), each of at most GROUP_SIZE units, and only the open groups' rows are on the page.
// A page of 2,000 rows of 56 elements each had every edit wait for the style and layout of
// 113,000 elements; folded, it holds the groups' headers and the rows opened. A selection, a
// delete or a move still acts on every unit, folded or not; a unit shown (highlight()), added
// or found by name opens its group. A side of FOLD_OVER units or fewer is one list, as always.

import { el } from "./forms.js";

export const FOLD_OVER = 150;
export const GROUP_SIZE = 100;

export const foldMethods = {
  // The side's units in groups: [{key, name, first, last, total, units}] in the order the
  // list shows them (the side's formations in their order, then the units without one).
  groupsOf(side, units) {
    const formations = this.units.formations
      ? (this.scenario.formations || []).filter((f) => f && f.side === side)
      : [];
    const by = new Map(formations.map((f) => [f.id, []]));
    const loose = [];
    units.forEach((u) => (by.has(u.formation) ? by.get(u.formation) : loose).push(u));
    const sideOf = (this.scenario.sides || []).find((s) => s && s.id === side);
    const parts = formations.map((f) => ({
      id: f.id,
      name: this.name(f.name),
      units: by.get(f.id),
    }));
    parts.push({
      id: "",
      name: formations.length
        ? this.t("editor.oob.no_formation")
        : this.name(sideOf && sideOf.name) || this.t("editor.oob.units"),
      units: loose,
    });
    const groups = [];
    parts.forEach((part) => {
      const total = part.units.length;
      for (let at = 0; at < total; at += GROUP_SIZE) {
        groups.push({
          key: side + "/" + part.id + "/" + at / GROUP_SIZE,
          name: part.name,
          first: at + 1,
          last: Math.min(at + GROUP_SIZE, total),
          total: total,
          units: part.units.slice(at, at + GROUP_SIZE),
        });
      }
    });
    return groups;
  },

  // The header of a group: its name and count, how many of its units are selected, and the
  // button that opens or folds it. Kept from one draw to the next (its button keeps the focus).
  groupHead(group) {
    if (!this.heads) this.heads = new Map();
    let head = this.heads.get(group.key);
    if (!head) {
      const toggle = el("button", {
        type: "button",
        class: "oob-fold-toggle",
        "data-group": group.key,
        onclick: () => this.toggleGroup(group.key),
      });
      const node = el("div", { class: "oob-fold-head", role: "listitem" }, [
        el("span", { class: "oob-fold-name" }),
        el("span", { class: "oob-fold-count" }),
        el("span", { class: "oob-fold-selected" }),
        toggle,
      ]);
      node.dataset.group = group.key;
      head = { node, toggle, sig: null };
      this.heads.set(group.key, head);
    }
    const open = this.open.has(group.key);
    const split = group.first > 1 || group.last < group.total;
    const lang = this.ctx.i18n.lang;
    const name = split
      ? this.say("editor.oob.fold_part", {
          name: group.name,
          first: group.first.toLocaleString(lang),
          last: group.last.toLocaleString(lang),
        })
      : group.name;
    const count = group.units.length;
    const sig = JSON.stringify([name, count, open]);
    if (sig !== head.sig) {
      head.sig = sig;
      const [nameEl, countEl] = head.node.children;
      nameEl.textContent = name;
      countEl.textContent = this.t("editor.oob.fold_count", { count });
      head.node.dataset.count = String(count);
      head.node.classList.toggle("is-open", open);
      head.toggle.textContent = this.t(open ? "editor.oob.fold_hide" : "editor.oob.fold_show");
      head.toggle.setAttribute("aria-expanded", String(open));
      head.toggle.setAttribute(
        "aria-label",
        this.say(open ? "editor.oob.fold_hide_named" : "editor.oob.fold_show_named", { name }),
      );
    }
    head.ids = group.units.map((u) => u.id);
    return head;
  },

  toggleGroup(key) {
    if (this.open.has(key)) this.open.delete(key);
    else this.open.add(key);
    this.drawUnits();
    this.showSelected();
  },

  // Open the groups of these units (ids): true when one was folded.
  openGroupsOf(ids) {
    let opened = false;
    ids.forEach((id) => {
      const key = this.groupOf && this.groupOf.get(id);
      if (key && !this.open.has(key)) {
        this.open.add(key);
        opened = true;
      }
    });
    return opened;
  },

  // After a draw: the units new since the last one (added, pasted, a copy; not a thousand
  // brought back by an undo, nor a file opened) have their groups opened.
  openNewUnits(ids) {
    const known = this.knownIds;
    this.knownIds = new Set(ids);
    if (!known) return false;
    const fresh = ids.filter((id) => !known.has(id));
    return fresh.length > 0 && fresh.length <= FOLD_OVER && this.openGroupsOf(fresh);
  },

  // The selected units each folded group holds, on its header.
  showSelectedInGroups() {
    (this.heads || new Map()).forEach((head) => {
      if (!head.node.parentNode || !head.ids) return;
      let count = 0;
      head.ids.forEach((id) => (count += this.selected.has(id) ? 1 : 0));
      const said = head.node.children[2];
      said.textContent = count ? this.t("editor.oob.bulk_count", { count }) : "";
      said.hidden = count === 0;
    });
  },

  // A side's hint when its list is folded.
  foldHint(list, count) {
    const hint = list.parentNode.querySelector(".oob-fold-hint");
    if (!hint) return;
    hint.hidden = count <= FOLD_OVER;
    if (!hint.hidden) hint.textContent = this.t("editor.oob.fold_hint", { count });
  },
};
