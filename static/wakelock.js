// Keeps the screen awake while a game is open and the page is in view (the Screen Wake Lock
// API), if the player wants it (Settings). The browser drops the lock when the page leaves the
// view; it is asked for again when the page comes back. A refusal (NotAllowedError: low
// battery, a policy, a page not in view) is noted with a warning and never disturbs play; it
// is not asked again until the page comes back into view or the setting changes.
export class ScreenLock {
  // wanted() -> true while there is a reason to keep the screen on (a game is open).
  constructor(wanted) {
    this.wanted = wanted;
    this.enabled = false;
    this.sentinel = null;
    this.asking = false;
    this.refused = false;
    document.addEventListener("visibilitychange", () => {
      this.refused = false;
      this.update();
    });
  }

  static supported() {
    return typeof navigator !== "undefined" && "wakeLock" in navigator;
  }

  setEnabled(on) {
    this.enabled = Boolean(on);
    this.refused = false;
    this.update();
  }

  // Whether the lock should be held now.
  due() {
    return (
      this.enabled &&
      ScreenLock.supported() &&
      document.visibilityState === "visible" &&
      Boolean(this.wanted())
    );
  }

  // Ask for the lock or let it go, as things stand now.
  update() {
    if (this.due()) {
      if (!this.sentinel && !this.asking && !this.refused) this.request();
    } else if (this.sentinel) {
      this.release();
    }
  }

  request() {
    this.asking = true;
    let asked;
    try {
      asked = navigator.wakeLock.request("screen");
    } catch (error) {
      asked = Promise.reject(error);
    }
    asked.then(
      (sentinel) => {
        this.asking = false;
        this.sentinel = sentinel;
        sentinel.addEventListener("release", () => {
          if (this.sentinel === sentinel) this.sentinel = null;
        });
        if (!this.due()) this.release(); // things changed while it was asked for
      },
      (error) => {
        this.asking = false;
        this.refused = true;
        console.warn("the screen may sleep:", (error && (error.name || error.message)) || error);
      },
    );
  }

  release() {
    const sentinel = this.sentinel;
    this.sentinel = null;
    if (!sentinel) return;
    sentinel.release().catch(function () {
      // Already released by the browser.
    });
  }
}
