// The way on through a game: the natural next step first and green (the core's primary item,
// never a give-up), and a question before an ending that leaves commands unused or units
// unmoved (the core's "unused" on the item), which a setting turns off. Nothing here knows a
// system: the core says which item is primary and what an ending leaves unused.
import { el } from "./panels.js";
import { SHORTCUTS } from "./keys.js";

// The setting (the settings dialog's "ask before ending"): "off" when the player turned the
// question off, remembered in this browser.
export const ASK_KEY = "muster.ask-unused";

export function asksFirst() {
  try {
    return localStorage.getItem(ASK_KEY) !== "off";
  } catch (error) {
    return true;
  }
}

export function setAsksFirst(on) {
  try {
    if (on) localStorage.removeItem(ASK_KEY);
    else localStorage.setItem(ASK_KEY, "off");
  } catch (error) {
    // Private browsing or storage off: the choice lasts this visit only.
  }
}

export const flowMethods = {
  // The way on, under the prompt: the primary item (green), then each item that ends the
  // step, the phase or the turn. items: the panel's items, each with its choice's index.
  wayOn(items) {
    return el(
      "div",
      { class: "choice end-choice", "data-kind": "end" },
      items.map((i) => {
        const node = this.itemButton(i);
        if (this.view.choices[i.choice].end) {
          node.classList.add("end");
          node.setAttribute("aria-keyshortcuts", SHORTCUTS.end);
        }
        if (i.primary) node.classList.add("next");
        return node;
      }),
    );
  },

  // An ending that leaves something unused asks first (unless the setting says not to).
  asksBefore(item) {
    if (!item.unused || !asksFirst()) return false;
    this.asking = item;
    this.picker = null;
    this.draw(); // a new view of the same game: the question in the dock
    return true;
  },

  askBox(item) {
    const attrs = {
      class: "ask-unused",
      id: "ask-unused",
      role: "group",
      "aria-labelledby": "ask-unused-text",
    };
    return el("div", attrs, [
      el("p", { class: "ask-what", text: this.label(item) }),
      el("p", {
        class: "ask-text",
        id: "ask-unused-text",
        text: this.t("ui.unused_question", { unused: this.label(item.unused) }),
      }),
      el("div", { class: "actions" }, [
        this.button(
          this.t("ui.unused_end"),
          () => {
            this.asking = null;
            this.act(item.action);
          },
          { id: "ask-unused-end", class: "end", "data-action": item.action.type },
        ),
        this.button(this.t("ui.unused_keep"), () => this.keepPlaying(), {
          id: "ask-unused-keep",
        }),
      ]),
    ]);
  },

  keepPlaying() {
    this.asking = null;
    this.draw();
  },
};
