// The DOM and form helpers the editor's panels share (the order of battle, the tables): an
// element built in one call, words with {names} filled in, a number read against its range, an
// input marked out of range, and the fresh ids and look-ups of the scenario's lists.

let serial = 0;

// A number unique on the page, for the ids of elements made here.
export function nextSerial() {
  serial += 1;
  return serial;
}

export function el(tag, attrs, children) {
  const node = document.createElement(tag);
  Object.keys(attrs || {}).forEach(function (key) {
    const value = attrs[key];
    if (value === null || value === undefined || value === false) return;
    if (key === "text") node.textContent = value;
    else if (key.slice(0, 2) === "on") node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : value);
  });
  (children || []).forEach(function (child) {
    if (child) node.appendChild(child);
  });
  return node;
}

// Words with {names} filled in as they are (names, hex numbers: already words).
export function say(i18n, key, raw) {
  return i18n.fill(key, raw || {});
}

// A number typed in an input, checked against {min, max}: {ok, value, empty}.
export function readNumber(text, spec, whole) {
  const raw = String(text).trim();
  if (raw === "") return { ok: false, empty: true, value: null };
  const value = Number(raw.replace(",", "."));
  let ok = isFinite(value);
  if (ok && whole) ok = Math.floor(value) === value;
  if (ok && spec && typeof spec.min === "number") ok = value >= spec.min;
  if (ok && spec && typeof spec.max === "number") ok = value <= spec.max;
  return { ok: ok, empty: false, value: value };
}

// Mark an input as out of its range (aria-invalid and the allowed range worded beside it),
// or clear the mark.
export function markInput(input, message) {
  const hint = input.parentNode && input.parentNode.querySelector(".oob-bad");
  if (message) {
    input.setAttribute("aria-invalid", "true");
    let node = hint;
    if (!node) {
      node = el("span", { class: "oob-bad", id: "oob-bad-" + nextSerial(), role: "status" });
      input.parentNode.appendChild(node);
    }
    node.textContent = message;
    input.setAttribute("aria-describedby", node.id);
  } else {
    input.removeAttribute("aria-invalid");
    input.removeAttribute("aria-describedby");
    if (hint) hint.remove();
  }
}

// A fresh id, unused in `taken` (a Set, which gets it).
export function freshId(taken, prefix) {
  let n = taken.size + 1;
  while (taken.has(prefix + n)) n += 1;
  taken.add(prefix + n);
  return prefix + n;
}

// The item of `list` with this id, or null.
export function byId(list, id) {
  return (
    (list || []).find(function (x) {
      return x && x.id === id;
    }) || null
  );
}

// An id as it may stand in a selector's quoted attribute value.
export function cssId(id) {
  return String(id).replace(/["\\]/g, "\\$&");
}

// A panel's update: part.draw(scenario), where a change made while it draws (an input left as
// its row is redrawn) is drawn after it, not inside it.
export function drawInTurn(part, scenario, info) {
  if (part.drawing) {
    part.pending = [scenario, info];
    return;
  }
  part.drawing = true;
  try {
    part.draw(scenario);
  } finally {
    part.drawing = false;
  }
  if (part.pending) {
    const next = part.pending;
    part.pending = null;
    part.update(next[0], next[1]);
  }
}
