// Two tablets, one battle: each side on its own screen, paired once by a short code, with no
// server and no internet (a WebRTC data channel on the local network, pair_link.js). The host
// is the tablet whose game it is: it keeps the game in its own rules worker and answers the
// guest's calls as for the guest's side alone (pair_host.js). The guest's engine sends every
// call to the host once paired (remote_engine.js); its screen names its side. A chip in the
// header says who is connected. A link interrupted (a tablet asleep) is waited for and, when it
// comes back by itself, the guest asks its view from the last agreed one; a lost link is said
// plainly, the host's game goes on as pass-and-play, and "Pair again" resumes the same game on
// two tablets. The guest holds no game: it hides New game and the saves (the host's), and when
// the link is lost it says where the game is kept and how to carry on, or leaves it for the
// tablet's own games.
import { el } from "./panels.js";
import { PairLink } from "./pair_link.js";
import { PairHost } from "./pair_host.js";
import { RemoteEngine } from "./remote_engine.js";
import { qrImage, readQr } from "./pair_qr.js";
import { gameToResume, lastScreen } from "./resume.js";

// opts: engine (engine.js), plays (the hex and the area play panels), current() (the one on
// screen), loadSave(save, slot) (the app's: draws the scenario and opens the game), games (the
// tablet's kept games, games.js), i18n, showMessage(text, kind).
export function offerPairing(opts) {
  const pair = new Pairing(opts);
  pair.mount();
  return pair;
}

class Pairing {
  constructor(opts) {
    Object.assign(this, opts);
    this.link = null;
    this.host = null; // PairHost while this tablet hosts
    this.remote = null; // RemoteEngine while this tablet is a guest
    this.sides = null; // {host, guest}
    this.state = "none"; // "none", "waiting", "host", "guest", "paused", "lost"
    this.role = null; // "host" or "guest" once paired, kept when the link is lost
    this.before = null; // the host's PairHost of the link lost: a new pairing goes on from it
    this.agreed = null; // the guest's last agreed view ({seq, hash}) of the link lost
    this.plays.forEach((play) => {
      const shown = play.onShown;
      play.onShown = (view) => {
        if (shown) shown(view);
        if (this.host && play === this.current()) this.host.push();
      };
      // The host's privacy screen, once the link is lost, offers to pair again: the host's
      // players reach it without lifting the screen.
      const handOver = play.handOver;
      play.handOver = (side) => {
        const out = handOver.call(play, side);
        if (play.covered) this.curtainPart(play);
        return out;
      };
    });
  }

  // "Pair again" for the same side on the host's privacy screen, while the link is lost.
  curtainPart(play) {
    if (this.role !== "host" || this.state !== "lost" || !play.curtain) return;
    const sides = this.sides;
    play.curtain.appendChild(
      this.action("pair-again-curtain", this.t("ui.pair_again", { side: sides.guest }), () => {
        this.open();
        this.hostFor(sides.guest, [sides.host, sides.guest]);
      }),
    );
  }

  t(key, params) {
    return this.i18n.t(key, params || {});
  }

  mount() {
    const help = document.getElementById("help-button");
    this.button = el("button", {
      id: "pair-button",
      type: "button",
      class: "icon-button",
      "data-i18n-label": "ui.pair",
      text: "⇄",
    });
    this.button.addEventListener("click", () => this.open());
    this.chip = el("button", { id: "pair-chip", type: "button", class: "pair-chip", hidden: "" });
    this.chip.addEventListener("click", () => this.open());
    help.parentNode.insertBefore(this.chip, help);
    help.parentNode.insertBefore(this.button, help);
    this.dialog = el("dialog", {
      id: "pair-dialog",
      class: "dialog pair-dialog",
      "aria-labelledby": "pair-title",
    });
    document.body.appendChild(this.dialog);
    window.musterPair = this;
  }

  // ---- the dialog ------------------------------------------------------------------------

  open() {
    this.render();
    if (!this.dialog.open) this.dialog.showModal();
  }

  close() {
    if (this.dialog.open) this.dialog.close();
  }

  render(extra) {
    const head = el("div", { class: "dialog-head" }, [
      el("h2", { id: "pair-title", text: this.t("ui.pair_title") }),
      this.action("pair-close", this.t("ui.close"), () => this.close()),
    ]);
    const parts = [head, el("p", { id: "pair-state", class: "hint", text: this.stateText() })];
    if (extra) parts.push(extra);
    else if (this.state === "host" || this.state === "guest" || this.state === "paused") {
      parts.push(this.action("pair-end", this.t("ui.pair_end"), () => this.end()));
    } else if (this.state === "lost" && this.role === "guest") {
      // The guest holds no game: where it is kept, and how to carry on: pair again, or leave
      // it for this tablet's own games.
      parts.push(
        el("p", { id: "pair-alone", text: this.t("ui.pair_alone") }),
        this.action("pair-leave", this.t("ui.pair_leave"), () => this.leave()),
        this.guestPart(),
      );
    } else if (this.state === "lost" && this.role === "host" && this.current().view) {
      // The same game, on two tablets again: the same side for the other tablet.
      const guest = this.sides.guest;
      parts.push(
        this.action("pair-again", this.t("ui.pair_again", { side: guest }), () =>
          this.hostFor(guest, [this.sides.host, guest]),
        ),
        this.hostPart(),
      );
    } else {
      parts.push(this.hostPart(), this.guestPart());
    }
    this.dialog.replaceChildren.apply(this.dialog, parts);
  }

  action(id, text, go, attrs) {
    const button = el("button", Object.assign({ id: id, type: "button", text: text }, attrs));
    button.addEventListener("click", go);
    return button;
  }

  codeBox(id, label, value) {
    const box = el("textarea", { id: id, rows: "3", spellcheck: "false", autocapitalize: "off" });
    if (value !== undefined) {
      box.value = value;
      box.readOnly = true;
    }
    return el("label", { class: "pair-code" }, [el("span", { text: label }), box]);
  }

  // A code's QR code, drawn once the encoder has loaded.
  qrFigure(id, code) {
    const img = el("img", { id: id, class: "pair-qr", alt: this.t("ui.pair_qr_alt") });
    qrImage(code).then(
      (url) => (img.src = url),
      () => (img.hidden = true),
    );
    return img;
  }

  // A button that reads a QR code from a picture: on a tablet the file input opens the camera.
  photoButton(id, label, done) {
    const input = el("input", {
      id: id,
      type: "file",
      accept: "image/*",
      capture: "environment",
      hidden: "",
    });
    input.addEventListener("change", () => {
      const picture = input.files && input.files[0];
      input.value = "";
      if (!picture) return;
      readQr(picture).then(
        (text) => (text ? done(text) : this.fail(null, "ui.pair_no_qr")),
        (error) => this.fail(error, "ui.pair_no_qr"),
      );
    });
    return el("span", { class: "pair-photo" }, [
      this.action(id + "-button", label, () => input.click()),
      input,
    ]);
  }

  hostPart() {
    const play = this.current();
    const sides = ((play.getScenario() || {}).sides || []).map((s) => s.id);
    const part = el("section", { class: "pair-host" }, [
      el("h3", { text: this.t("ui.pair_host") }),
      el("p", { class: "hint", text: this.t("ui.pair_host_hint") }),
    ]);
    if (!play.view || play.engine.remote) {
      part.appendChild(el("p", { class: "hint", text: this.t("ui.pair_no_game") }));
      return part;
    }
    sides.forEach((side) => {
      part.appendChild(
        this.action("pair-host-" + side, this.t("ui.pair_host_side", { side: side }), () =>
          this.hostFor(side, sides),
        ),
      );
    });
    return part;
  }

  guestPart() {
    const box = this.codeBox("pair-offer-input", this.t("ui.pair_offer_input"));
    return el("section", { class: "pair-guest" }, [
      el("h3", { text: this.t("ui.pair_guest") }),
      box,
      this.action("pair-join", this.t("ui.pair_join"), () =>
        this.join(this.dialog.querySelector("#pair-offer-input").value),
      ),
      this.photoButton("pair-offer-photo", this.t("ui.pair_read_offer"), (text) => this.join(text)),
    ]);
  }

  stateText() {
    const sides = this.sides || {};
    if (this.state === "host") return this.t("ui.pair_chip_host", { side: sides.guest });
    if (this.state === "guest") return this.t("ui.pair_chip_guest", { side: sides.guest });
    if (this.state === "lost") return this.t("ui.pair_chip_lost");
    if (this.state === "paused") return this.t("ui.pair_chip_paused");
    if (this.state === "waiting") return this.t("ui.pair_waiting");
    return this.t("ui.pair_hint");
  }

  // The chip in the header: who is connected, always in sight once paired.
  showState(state) {
    this.state = state;
    const html = document.documentElement;
    html.dataset.pair = state;
    if (this.role) html.dataset.pairRole = this.role;
    else delete html.dataset.pairRole;
    this.chip.hidden = state === "none" || state === "waiting";
    this.chip.dataset.state = state;
    this.chip.textContent = this.stateText();
    if (this.dialog.open && state !== "waiting") this.render();
  }

  // Said in the dialog, under what it shows: the codes stay for another try.
  fail(error, key) {
    const said = el("p", {
      class: "error",
      id: "pair-error",
      text: this.t(key || "ui.pair_bad_code"),
    });
    const before = this.dialog.querySelector("#pair-error");
    if (before) before.replaceWith(said);
    else this.dialog.appendChild(said);
    if (!this.dialog.open) this.dialog.showModal();
    if (error && window.console) console.warn("pairing:", error);
  }

  // ---- the host --------------------------------------------------------------------------

  hostFor(guest, sides) {
    const play = this.current();
    this.drop();
    this.sides = { guest: guest, host: sides.find((s) => s !== guest) || guest };
    const link = new PairLink();
    this.link = link;
    this.showState("waiting");
    this.render(el("p", { class: "hint", text: this.t("ui.pair_making") }));
    link.onopen = () => this.hosting(link, play);
    this.watch(link);
    link.offer().then(
      (code) => {
        if (this.link !== link) return;
        this.render(
          el("div", {}, [
            this.qrFigure("pair-offer-qr", code),
            this.codeBox("pair-offer", this.t("ui.pair_offer"), code),
            this.codeBox("pair-answer-input", this.t("ui.pair_answer_input")),
            this.action("pair-connect", this.t("ui.pair_connect"), () =>
              this.accept(link, this.dialog.querySelector("#pair-answer-input").value),
            ),
            this.photoButton("pair-answer-photo", this.t("ui.pair_read_answer"), (text) =>
              this.accept(link, text),
            ),
          ]),
        );
      },
      (error) => this.fail(error),
    );
  }

  accept(link, code) {
    return link.accept(code).catch((error) => {
      if (this.link === link) this.fail(error);
    });
  }

  hosting(link, play) {
    const before = this.before && this.before.sides.guest === this.sides.guest ? this.before : null;
    this.host = new PairHost({
      engine: this.engine,
      send: (text) => link.send(text),
      sides: this.sides,
      onChanged: () => this.redraw(play),
      before: before,
    });
    this.role = "host";
    link.onmessage = (text) => this.host.receive(text);
    this.plays.forEach((p) => (p.ownSide = this.sides.host));
    this.showState("host");
    this.close();
    this.redraw(play);
  }

  // The host's own screen, its side's view (the guest changed the game, or the link is new).
  redraw(play) {
    if (!play.view) return null;
    return this.engine.call("game_view", { viewer: this.sides.host }).then(
      (view) => play.show(view),
      (error) => play.onError(error),
    );
  }

  // ---- the guest -------------------------------------------------------------------------

  join(code) {
    this.drop();
    const link = new PairLink();
    this.link = link;
    link.onopen = () => this.joined(link);
    this.watch(link);
    this.showState("waiting");
    link.answer(code).then(
      (answer) => {
        if (this.link !== link) return;
        this.render(
          el("div", {}, [
            this.qrFigure("pair-answer-qr", answer),
            this.codeBox("pair-answer", this.t("ui.pair_answer"), answer),
            el("p", { class: "hint", text: this.t("ui.pair_waiting") }),
          ]),
        );
      },
      (error) => {
        this.showState("none");
        this.fail(error);
      },
    );
  }

  joined(link) {
    const remote = new RemoteEngine(
      { send: (text) => link.send(text) },
      this.engine.info,
      this.agreed,
    );
    this.remote = remote;
    this.role = "guest";
    link.onmessage = (text) => remote.receive(text);
    this.engine.route(remote);
    remote.on("view", (view) => {
      const play = this.current();
      if (play.view) play.show(view);
    });
    // A view that arrived altered is healed by RemoteEngine (the whole view asked again and
    // shown): counted on the page, where it can be seen; said only when it could not heal.
    remote.on("healed", () => {
      const html = document.documentElement;
      html.dataset.pairHealed = String(Number(html.dataset.pairHealed || 0) + 1);
    });
    remote.on("unhealed", () => this.showMessage(this.t("ui.pair_desync"), "error"));
    return remote.call("load_save", {}).then(
      (answer) => {
        this.sides = { guest: answer.view.viewer, host: null };
        this.plays.forEach((p) => (p.ownSide = answer.view.viewer));
        this.showState("guest");
        this.close();
        // The chip is worded again once the scenario's words (its sides' names) are in.
        return this.loadSave({ scenario: answer.scenario }, null).then(() => {
          this.showState("guest");
          this.showMessage(this.stateText(), "info");
        });
      },
      (error) => this.showMessage(this.t(error.key || "ui.pair_lost")),
    );
  }

  // ---- the link lost, or ended -----------------------------------------------------------

  // The link's ends: interrupted and back, or lost.
  watch(link) {
    link.onclose = () => this.lostLink(link);
    link.onpause = () => this.paused(link);
    link.onback = () => this.back(link);
  }

  // Interrupted (a tablet asleep): said on the chip; the host holds its pushes, and both wait.
  paused(link) {
    if (this.link !== link || !(this.host || this.remote)) return;
    if (this.host) this.host.held = true;
    this.showState("paused");
  }

  // Back by itself: the guest asks its view from the last agreed one, and play goes on.
  back(link) {
    if (this.link !== link || !(this.host || this.remote)) return;
    if (this.host) {
      this.host.held = false;
      this.showState("host");
      this.host.push(); // what was held, if the guest has not asked for it already
      return;
    }
    const remote = this.remote;
    this.showState("guest");
    remote.resume().then(
      (changed) => (document.documentElement.dataset.pairResumed = changed ? "view" : "same"),
      (error) => this.showMessage(this.t(error.key || "ui.pair_lost"), "error"),
    );
  }

  lostLink(link) {
    if (this.link !== link) return;
    const wasHost = Boolean(this.host);
    if (this.host) this.before = this.host;
    if (this.remote) this.agreed = { seq: this.remote.seq, hash: this.remote.hash };
    this.link = null;
    this.host = null;
    // The host's panels go back to pass-and-play; the guest's keep its side's last view.
    if (wasHost) this.plays.forEach((p) => (p.ownSide = null));
    if (this.remote) this.remote.fail("the link is lost");
    this.remote = null;
    this.showState("lost");
    this.showMessage(this.t(wasHost ? "ui.pair_lost_host" : "ui.pair_lost"), "error");
    // The host's game goes on on this tablet alone: pass-and-play, behind the privacy screen.
    const play = this.current();
    if (wasHost && play.view) play.show(play.view);
  }

  // The guest leaves the paired game for good (its link lost): its engine is its own worker
  // again, its panels are nobody's side, and nothing of the host's game stays (it only ever
  // had its side's views, dropped here from the panels and both maps, and kept none). The
  // screen is then the tablet's own; New game and the saves are back.
  leave() {
    if (this.state !== "lost" || this.role !== "guest") return Promise.resolve(null);
    this.plays.forEach((play) => {
      play.ownSide = null;
      play.board.clear();
      play.reset();
    });
    this.engine.route(null);
    this.remote = null;
    this.role = null;
    this.sides = null;
    this.agreed = null;
    this.showState("none");
    this.close();
    return this.ownScreen().then(() => this.showMessage(this.t("ui.pair_left"), "info"));
  }

  // The tablet's own screen, as a reload opens it: its game last on screen, reopened from its
  // own saved games; else the scenario it last had (or the list's first), chosen in the
  // header's list as a player does, its start panel shown.
  ownScreen() {
    const last = lastScreen();
    const record = gameToResume(this.games.records, null, last);
    if (record) return this.loadSave(record.save, record.id);
    const list = document.getElementById("scenario-select");
    const ids = Array.prototype.map.call(list.options, (option) => option.value);
    list.value = last && ids.includes(last.scenario) ? last.scenario : ids[0];
    list.dispatchEvent(new Event("change"));
    return Promise.resolve(null);
  }

  drop() {
    const link = this.link;
    this.link = null;
    if (link) link.close();
  }

  end() {
    const link = this.link;
    if (!link) return;
    link.close();
  }
}
