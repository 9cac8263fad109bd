// The map's Fit control: a button in the map's corner that frames the pieces (every unit or
// block on the map) and, tapped again before the map is moved, shows the whole map. It says
// what its next tap does (an aria-label and a title, worded in the player's language).
// Plain ES2020 so it parses on older iPad Safari.

// A Fit button on `map` (a PanZoomMap); i18n words it, and i18n.apply relabels it on a
// change of language (data-i18n-label).
export function addFitControl(map, i18n) {
  const button = document.createElement("button");
  button.type = "button";
  button.className = "map-fit";
  // Four corners, a frame round what is shown (drawn by the style sheet: no second svg in
  // the map's box).
  const icon = document.createElement("span");
  icon.className = "map-fit-icon";
  icon.setAttribute("aria-hidden", "true");
  button.appendChild(icon);
  const label = function (framing) {
    const key = framing === "units" ? "ui.map_fit_whole" : "ui.map_fit_units";
    if (button.getAttribute("data-i18n-label") === key) return;
    button.setAttribute("data-i18n-label", key);
    button.setAttribute("aria-label", i18n.t(key));
    button.setAttribute("title", i18n.t(key));
  };
  label(map.framing);
  map.onView = label;
  // Pointer events on the button are its own: the map under it neither pans nor taps.
  button.addEventListener("pointerdown", function (event) {
    event.stopPropagation();
  });
  button.addEventListener("click", function () {
    label(map.toggleFit());
  });
  map.container.appendChild(button);
  return button;
}
