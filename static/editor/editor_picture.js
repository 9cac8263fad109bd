// The picture under the scenario editor's map (methods of the editor in
// static/editor/editor.js): a picture file, aligned by two points tapped on it (the dialog asking
// the printed number of a hex tapped), or a VASSAL module's board (the dialog listing its
// boards) with its pieces' names.
import { el } from "../panels.js";
import { similarity, point } from "./picture.js";
import { mapKind, load, button } from "./editor_common.js";

export const pictureMethods = {
  // A dialog asking the printed number of the hex just tapped (alignment).
  hexDialog() {
    const h = {};
    this.hexEls = h;
    h.input = el("input", {
      id: "editor-hex-input",
      inputmode: "numeric",
      autocomplete: "off",
      size: "6",
    });
    h.label = el("label", { id: "editor-hex-label", for: "editor-hex-input" });
    h.error = el("p", { id: "editor-hex-error", class: "editor-error", role: "alert", hidden: "" });
    h.dialog = el(
      "dialog",
      {
        id: "editor-hex-dialog",
        class: "dialog ask-dialog editor-dialog",
        "aria-labelledby": "editor-hex-label",
      },
      [
        el("form", { method: "dialog" }, [
          h.label,
          h.input,
          h.error,
          el("div", { class: "dialog-buttons" }, [
            button(this.t("ui.cancel"), { "data-i18n": "ui.cancel" }, () =>
              h.dialog.close("cancel"),
            ),
            el("button", {
              value: "ok",
              class: "primary",
              "data-i18n": "editor.align_ok",
              text: this.t("editor.align_ok"),
            }),
          ]),
        ]),
      ],
    );
    return h.dialog;
  },

  // A dialog listing a VASSAL module's boards.
  boardDialog() {
    const b = {};
    this.boardEls = b;
    b.list = el("div", { id: "editor-board-list", class: "editor-board-list" });
    b.dialog = el(
      "dialog",
      {
        id: "editor-board-dialog",
        class: "dialog editor-dialog",
        "aria-labelledby": "editor-board-head",
      },
      [
        el("div", { class: "dialog-head" }, [
          el("h2", {
            id: "editor-board-head",
            "data-i18n": "editor.vassal_pick",
            text: this.t("editor.vassal_pick"),
          }),
          button(this.t("ui.cancel"), { "data-i18n": "ui.cancel" }, () => b.dialog.close("")),
        ]),
        b.list,
      ],
    );
    return b.dialog;
  },

  // A dialog taking part of a VASSAL board: its first and last column and row, typed or from a
  // frame dragged on its picture.
  cropDialog() {
    const c = {};
    this.cropEls = c;
    const num = (id, key) => {
      const input = el("input", {
        id: id,
        type: "number",
        inputmode: "numeric",
        min: "0",
        max: "999",
        step: "1",
      });
      c[key] = input;
      return el("div", { class: "editor-field" }, [
        el("label", {
          for: id,
          "data-i18n": "editor.crop_" + key,
          text: this.t("editor.crop_" + key),
        }),
        input,
      ]);
    };
    c.head = el("h2", { id: "editor-crop-head" });
    c.whole = el("p", { id: "editor-crop-whole", class: "hint" });
    c.error = el("p", {
      id: "editor-crop-error",
      class: "editor-error",
      role: "alert",
      hidden: "",
    });
    c.image = el("img", { id: "editor-crop-image", alt: "", draggable: "false" });
    c.frame = el("div", { id: "editor-crop-frame", class: "editor-crop-frame", hidden: "" });
    c.picture = el("div", { id: "editor-crop-picture", class: "editor-crop-picture" }, [
      c.image,
      c.frame,
    ]);
    c.ok = el("button", {
      id: "editor-crop-ok",
      value: "ok",
      class: "primary",
      "data-i18n": "editor.crop_ok",
      text: this.t("editor.crop_ok"),
    });
    c.form = el("form", { method: "dialog" }, [
      c.head,
      c.whole,
      el("p", { class: "hint", "data-i18n": "editor.crop_drag", text: this.t("editor.crop_drag") }),
      c.picture,
      el("div", { class: "editor-crop-fields" }, [
        num("editor-crop-first-column", "first_column"),
        num("editor-crop-last-column", "last_column"),
        num("editor-crop-first-row", "first_row"),
        num("editor-crop-last-row", "last_row"),
      ]),
      c.error,
      el("div", { class: "dialog-buttons" }, [
        button(this.t("ui.cancel"), { id: "editor-crop-cancel", "data-i18n": "ui.cancel" }, () =>
          c.dialog.close("cancel"),
        ),
        c.ok,
      ]),
    ]);
    c.dialog = el(
      "dialog",
      {
        id: "editor-crop-dialog",
        class: "dialog editor-dialog",
        "aria-labelledby": "editor-crop-head",
      },
      [c.form],
    );
    // A frame dragged on the picture: its hexes' numbers fill the fields.
    let start = null;
    const at = (e) => {
      const r = c.image.getBoundingClientRect();
      const x = Math.min(Math.max(e.clientX - r.left, 0), r.width);
      const y = Math.min(Math.max(e.clientY - r.top, 0), r.height);
      return { x, y, sx: r.width ? c.image.naturalWidth / r.width : 1 };
    };
    const draw = (a, b) => {
      Object.assign(c.frame.style, {
        left: Math.min(a.x, b.x) + "px",
        top: Math.min(a.y, b.y) + "px",
        width: Math.abs(a.x - b.x) + "px",
        height: Math.abs(a.y - b.y) + "px",
      });
      c.frame.hidden = false;
    };
    c.picture.addEventListener("pointerdown", (e) => {
      e.preventDefault();
      start = at(e);
      c.picture.setPointerCapture(e.pointerId);
      draw(start, start);
    });
    c.picture.addEventListener("pointermove", (e) => {
      if (start) draw(start, at(e));
    });
    const end = (e) => {
      if (!start) return;
      const a = start;
      const b = at(e);
      start = null;
      draw(a, b);
      if (c.onFrame) c.onFrame([a.x * a.sx, a.y * a.sx, b.x * a.sx, b.y * a.sx]);
    };
    c.picture.addEventListener("pointerup", end);
    c.picture.addEventListener("pointercancel", () => {
      start = null;
    });
    return c.dialog;
  },

  // The part of a board to take, asked (its picture shown to drag a frame on): resolves
  // {first_column, last_column, first_row, last_row}, or null when cancelled. `check(crop)`
  // throws the refusal of a crop (too many hexes, none of the board), shown in the dialog.
  askCrop(vassal, board, blob, check) {
    const c = this.cropEls;
    const whole = board.numbers;
    const fields = ["first_column", "last_column", "first_row", "last_row"];
    c.head.textContent = this.t("editor.crop_head", { board: board.name || "" });
    c.whole.textContent = this.t("editor.crop_whole", whole);
    fields.forEach((f) => {
      c[f].value = String(whole[f]);
    });
    const shout = (text) => {
      c.error.textContent = text || "";
      c.error.hidden = !text;
    };
    shout(board.crop ? this.errorText(board.crop) : "");
    c.frame.hidden = true;
    const url = URL.createObjectURL(blob);
    c.image.src = url;
    c.onFrame = (frame) => {
      const got = vassal.numbersInFrame(board, frame);
      if (!got) return;
      fields.forEach((f) => {
        c[f].value = String(got[f]);
      });
      shout("");
    };
    const values = () => {
      const out = {};
      fields.forEach((f) => {
        const v = parseInt(c[f].value, 10);
        out[f] = isFinite(v) ? v : whole[f];
      });
      return out;
    };
    const submit = (e) => {
      try {
        check(values());
      } catch (error) {
        e.preventDefault();
        shout(this.errorText(error));
      }
    };
    c.form.addEventListener("submit", submit);
    c.dialog.returnValue = "";
    c.dialog.showModal();
    return new Promise((resolve) => {
      c.dialog.addEventListener(
        "close",
        () => {
          c.form.removeEventListener("submit", submit);
          c.onFrame = null;
          c.image.removeAttribute("src");
          URL.revokeObjectURL(url);
          resolve(c.dialog.returnValue === "ok" ? values() : null);
        },
        { once: true },
      );
    });
  },

  pictureFile(file) {
    return this.picture
      .add(file, file.name, null, this.draft.scenario)
      .then(() => {
        this.sayKey("editor.picture_added", "info", { name: file.name });
      })
      .catch((error) => this.say(this.errorText(error), "error"));
  },

  // Two points of the picture whose places on the map are known: the picture turned, scaled
  // and moved so that both lie on them.
  align() {
    const map = this.parts.map;
    if (!this.picture.current) {
      this.sayKey("editor.align_no_picture", "info");
      return Promise.resolve(false);
    }
    if (!map || typeof map.pickPoint !== "function" || typeof map.mapInfo !== "function") {
      this.sayKey("editor.align_unavailable", "error");
      return Promise.resolve(false);
    }
    const info = map.mapInfo();
    const pick = (key) => {
      this.sayKey(key, "info");
      return Promise.resolve(map.pickPoint(key)).then((p) => (p ? point(p) : null));
    };
    const pairs = [];
    const areas = info.kind === "areas";
    const one = (n) =>
      pick(areas ? "editor.align_corner_" + n : "editor.align_hex_" + n).then((tapped) => {
        if (!tapped) return false;
        if (areas) {
          pairs.push([tapped, n === 1 ? { x: 0, y: 0 } : { x: info.width, y: info.height }]);
          return true;
        }
        return this.askHex(n, info).then((target) => {
          if (!target) return false;
          pairs.push([tapped, target]);
          return true;
        });
      });
    return one(1)
      .then((ok) => ok && one(2))
      .then((ok) => {
        if (!ok) {
          this.say("");
          return false;
        }
        return this.alignPairs(pairs[0][0], pairs[1][0], pairs[0][1], pairs[1][1]);
      });
  },

  // The picture aligned from two map points tapped on it (map units, where the picture lies
  // now) and the map points they should be: true when done.
  alignPairs(tapped1, tapped2, target1, target2) {
    const p1 = this.picture.toPicture(tapped1);
    const p2 = this.picture.toPicture(tapped2);
    const m = p1 && p2 ? similarity(p1, p2, target1, target2) : null;
    if (!m) {
      this.sayKey("editor.align_same", "error");
      return false;
    }
    this.picture.setTransform(m);
    this.sayKey("editor.aligned", "info");
    return true;
  },

  // The printed number of the hex tapped, typed in: resolves its centre, or null.
  askHex(n, info) {
    const h = this.hexEls;
    h.label.textContent = this.t("editor.align_which_" + n);
    h.input.value = "";
    h.error.hidden = true;
    h.dialog.returnValue = "";
    h.dialog.showModal();
    h.input.focus();
    return new Promise((resolve) => {
      const submit = (e) => {
        const label = h.input.value.trim();
        const c = label ? info.center(label) : null;
        if (!c) {
          e.preventDefault();
          h.error.textContent = this.t("editor.align_no_hex", { hex: label });
          h.error.hidden = false;
        }
      };
      const form = h.dialog.querySelector("form");
      form.addEventListener("submit", submit);
      h.dialog.addEventListener(
        "close",
        () => {
          form.removeEventListener("submit", submit);
          if (h.dialog.returnValue !== "ok") return resolve(null);
          resolve(point(info.center(h.input.value.trim())));
        },
        { once: true },
      );
    });
  },

  // A VASSAL module: one of its boards becomes this map's size and numbering, its image the
  // picture underneath (aligned by the module's own grid), its pieces names for the order of
  // battle.
  vassalFile(file) {
    this.sayKey("editor.vassal_reading", "info", { name: file.name });
    return load("./vassal.js")
      .then((vassal) => {
        if (!vassal || typeof vassal.readModule !== "function") {
          this.sayKey("editor.vassal_unavailable", "error");
          return null;
        }
        // How far the build file is unpacked (off the page's thread), in whole percents.
        let shown = -1;
        const progress = (have, size) => {
          const percent = size > 0 ? Math.floor((100 * have) / size) : 100;
          if (percent === shown) return;
          shown = percent;
          this.sayKey("editor.vassal_reading_progress", "info", { name: file.name, percent });
        };
        return vassal.readModule(file, progress).then((module) => {
          const boards = (module && module.boards) || [];
          if (!boards.length) {
            this.sayKey("editor.vassal_no_board", "error", { name: file.name });
            return null;
          }
          const chosen = boards.length === 1 ? Promise.resolve(boards[0]) : this.pickBoard(boards);
          return chosen.then((board) => (board ? this.useBoard(vassal, module, board) : null));
        });
      })
      .catch((error) => this.say(this.errorText(error), "error"));
  },

  // The boards with a hex grid Muster can number, to pick from; the others below, each with
  // why it cannot be taken.
  pickBoard(boards) {
    const b = this.boardEls;
    return new Promise((resolve) => {
      let picked = null;
      const items = [];
      const refused = [];
      boards.forEach((board, i) => {
        if (board.problem) {
          refused.push(
            el("li", {
              class: "editor-board-refused",
              "data-board": String(i),
              text: this.errorText(board.problem),
            }),
          );
          return;
        }
        items.push(
          button(
            board.name || board.map || String(i + 1),
            { class: "editor-board", "data-board": String(i) },
            () => {
              picked = board;
              b.dialog.close("ok");
            },
          ),
        );
      });
      if (!items.length) {
        items.push(
          el("p", { "data-i18n": "editor.vassal_none", text: this.t("editor.vassal_none") }),
        );
      }
      if (refused.length) {
        items.push(
          el("p", {
            class: "hint",
            "data-i18n": "editor.vassal_refused",
            text: this.t("editor.vassal_refused"),
          }),
          el("ul", { id: "editor-board-refused", class: "editor-board-refused-list" }, refused),
        );
      }
      b.list.replaceChildren.apply(b.list, items);
      b.dialog.returnValue = "";
      b.dialog.showModal();
      b.dialog.addEventListener("close", () => resolve(picked), { once: true });
    });
  },

  // The board's map and picture: the picture is checked, decoded and kept before anything
  // changes; a refusal leaves the map, the picture and the draft as they were.
  useBoard(vassal, module, board) {
    if (mapKind(this.draft.scenario) === "areas") {
      this.sayKey("editor.vassal_areas", "error");
      return null;
    }
    // The picture unpacked first (a damaged one refused before anything is asked), then the
    // part of the board to take, then the map of that part.
    const cropOf = (blob) =>
      typeof vassal.numbersInFrame === "function" && board.numbers
        ? this.askCrop(vassal, board, blob, (crop) => vassal.calibrate(board, crop))
        : Promise.resolve(null);
    return vassal.boardImage(module, board).then((blob) =>
      cropOf(blob).then((crop) => {
        if (!crop && board.numbers) return null;
        const { map, transform } = vassal.calibrate(board, crop || undefined);
        return this.takeBoard(module, board, { blob, map, transform });
      }),
    );
  },

  // The board's map and picture once its part is chosen: asked, then taken (one step of undo).
  takeBoard(module, board, result) {
    return this.host
      .ask(this.t("editor.ask_vassal", { board: board.name || "" }), this.t("editor.vassal_go"), [
        this.t("editor.ask_vassal_note"),
      ])
      .then((yes) => {
        if (!yes) return null;
        return this.picture.prepare(result.blob, board.name || boardName(board)).then((record) => {
          this.draft.change(function (s) {
            Object.assign(s.map, result.map);
          }, "editor.step_vassal");
          const names = (module.pieces || []).slice();
          this.ctx.pieceNames = names;
          // By palette, markers apart: the order of battle offers them group by group.
          this.ctx.pieceGroups = module.pieceGroups || [];
          const oob = this.parts.oob;
          if (oob && typeof oob.setPieceNames === "function") oob.setPieceNames(names);
          this.picture.use(record, result.transform, this.draft.scenario);
          this.sayKey("editor.vassal_done", "info", {
            board: board.name || "",
            count: names.length,
          });
        });
      });
  },
};

function boardName(board) {
  return String(board.image || board.map || "board");
}
