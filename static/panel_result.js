// The result card: after a die (rolled or typed in) or a resolved fight, what it did, docked
// under the prompt, with the units and places concerned marked on the map, until the player
// taps Continue. The core makes the card from its log (the view's `card`, docs/play-view.md);
// this draws it and remembers, per game and per side, which card was put away, so a reload
// does not bring it back. Methods of the play panel (panel.js).
import { el } from "./panels.js";

// Per game (its slot) and side on screen: the id of the last card put away.
const SEEN_KEY = "muster.cards-seen";
// At most this many games are remembered; the oldest are forgotten.
const SEEN_GAMES = 60;

// What tells one card from another: where it stands in the side's log, and a fingerprint of
// what it says (FNV-1a), so a card rolled again after an undo is a new one.
export function cardKey(card) {
  const text = JSON.stringify([card.die, card.head, card.lines]);
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return card.seq + ":" + h.toString(36);
}

function readSeen() {
  try {
    const kept = JSON.parse(localStorage.getItem(SEEN_KEY) || "{}");
    return kept && typeof kept === "object" && !Array.isArray(kept) ? kept : {};
  } catch (error) {
    return {};
  }
}

function writeSeen(kept) {
  const slots = Object.keys(kept);
  slots.slice(0, Math.max(0, slots.length - SEEN_GAMES)).forEach((s) => delete kept[s]);
  try {
    localStorage.setItem(SEEN_KEY, JSON.stringify(kept));
  } catch (error) {
    // No storage (private browsing): the card is put away for this page only.
  }
}

export const resultMethods = {
  // The card to show now: the view's, unless put away (or the map shows the past).
  openCard() {
    const card = this.view && this.view.card;
    if (!card || this.past) return null;
    const who = this.view.viewer || "";
    const key = cardKey(card);
    if ((this.cardsAway || {})[who] === key) return null;
    const slot = this.slot;
    if (slot && (readSeen()[slot] || {})[who] === key) return null;
    return card;
  },

  // Continue: the card is put away for this game and side, and its marks leave the map.
  putCardAway(card) {
    this.rememberAway(card);
    this.draw();
  },

  // The player goes on (an action of theirs is sent): the card on screen is put away as
  // Continue puts it, so it does not stand over the next choices; the action's view draws.
  cardPassed() {
    const card = this.openCard();
    if (card) this.rememberAway(card);
  },

  rememberAway(card) {
    const who = this.view.viewer || "";
    const key = cardKey(card);
    this.cardsAway = Object.assign({}, this.cardsAway, { [who]: key });
    if (this.slot) {
      const kept = readSeen();
      const mine = Object.assign({}, kept[this.slot], { [who]: key });
      delete kept[this.slot]; // newest last
      kept[this.slot] = mine;
      writeSeen(kept);
    }
  },

  // Mark on the map the units and places of the card on screen (none once it is put away).
  markCard() {
    if (!this.board.mark) return;
    const card = this.openCard();
    this.board.mark(
      this.view,
      card ? { units: card.units || [], places: card.places || [] } : null,
    );
  },

  // Whether the dock shows the card: one is open, and no fight is previewed (its Commit
  // stays in view; the card is back after Cancel).
  cardShows() {
    return !this.pending && Boolean(this.openCard());
  },

  // The card, as the dock shows it: the die and its face, the fight's line, each result.
  cardBox() {
    const card = this.cardShows() ? this.openCard() : null;
    if (!card) return null;
    const nodes = [];
    const top = [el("h3", { class: "card-title", text: this.t("ui.card_title") })];
    if (card.die) {
      top.unshift(
        el("span", {
          class: "card-die",
          "data-face": String(card.die.value),
          "aria-hidden": "true",
          text: String(card.die.value),
        }),
      );
    }
    // Continue heads the card, so that however long the card, it is in view under the prompt.
    top.push(
      this.button(this.t("ui.card_continue"), () => this.putCardAway(card), {
        id: "card-continue",
        class: "card-continue",
      }),
    );
    nodes.push(el("div", { class: "card-top" }, top));
    if (card.die) {
      // The die and its face, and what it was rolled for, as the log words it.
      nodes.push(
        el("p", { class: "card-roll", text: this.t("ui.card_die", card.die) }),
        el("p", { class: "card-purpose", text: this.t("log.roll", card.die) }),
      );
    }
    if (card.draw) {
      // A marker drawn from a cup: what was drawn, as the log words it.
      nodes.push(
        el("p", {
          class: "card-purpose card-draw",
          text: this.label({ key: "log.draw", params: card.draw }),
        }),
      );
    }
    if (card.head) nodes.push(el("p", { class: "card-head", text: this.label(card.head) }));
    nodes.push(
      el(
        "ul",
        { class: "card-lines" },
        (card.lines || []).map((line) =>
          el("li", { class: "card-line", "data-key": line.key, text: this.label(line) }),
        ),
      ),
    );
    return el(
      "section",
      { class: "result-card", id: "result-card", "data-card": cardKey(card) },
      nodes,
    );
  },
};
