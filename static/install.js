// Installing the app from Settings. Chromium-based browsers announce that the app can be
// installed (beforeinstallprompt): the button then asks the browser to install it. Where no
// such event comes (Safari, Firefox) the settings say how to add it from the browser's own
// menu, and an app already running installed says so.
export function offerInstall() {
  const button = document.getElementById("install-app");
  const hint = document.getElementById("install-hint");
  const done = document.getElementById("install-done");
  if (!button || !hint || !done) return;
  let offer = null;

  function installed() {
    const standalone =
      (window.matchMedia && window.matchMedia("(display-mode: standalone)").matches) ||
      window.navigator.standalone === true;
    return standalone;
  }

  function show(state) {
    button.hidden = state !== "offer";
    hint.hidden = state !== "hint";
    done.hidden = state !== "installed";
  }

  window.addEventListener("beforeinstallprompt", function (event) {
    event.preventDefault(); // the app offers it in Settings, at the players' choice
    offer = event;
    show("offer");
  });
  window.addEventListener("appinstalled", function () {
    offer = null;
    show("installed");
  });
  button.addEventListener("click", function () {
    if (!offer) return;
    const asked = offer;
    offer = null;
    Promise.resolve(asked.prompt())
      .then(function () {
        return asked.userChoice;
      })
      .then(
        function (choice) {
          show(choice && choice.outcome === "accepted" ? "installed" : "hint");
        },
        function () {
          show("hint");
        },
      );
  });
  show(installed() ? "installed" : "hint");
}
