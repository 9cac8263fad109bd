// A reload resumes what was on screen. The app notes, in this browser, the game on screen (its
// slot in the saved games) and its scenario whenever either changes, and keeps the scenario in
// the address (?scenario=), so a reload, a closed tab or an installed app opened again comes
// back to the same game at the same position (README, "A reload resumes").
const ON_SCREEN = "muster.on-screen";

// Note what is on screen: {scenario: id, slot: the game's slot, or null when no game is}.
export function rememberScreen(scenario, slot) {
  try {
    localStorage.setItem(ON_SCREEN, JSON.stringify({ scenario: scenario, slot: slot || null }));
  } catch (error) {
    // No storage: a reload opens the newest game kept, or the scenario of the address.
  }
}

// What was on screen last, {scenario, slot}, or null (nothing noted, or no storage).
export function lastScreen() {
  try {
    const what = JSON.parse(localStorage.getItem(ON_SCREEN) || "null");
    if (!what || typeof what !== "object" || typeof what.scenario !== "string") return null;
    return { scenario: what.scenario, slot: typeof what.slot === "string" ? what.slot : null };
  } catch (error) {
    return null;
  }
}

// The scenario id of a kept game (its save names it), or null.
export function scenarioOf(record) {
  const scenario = record && record.save && record.save.scenario;
  return scenario && typeof scenario === "object" && typeof scenario.id === "string"
    ? scenario.id
    : null;
}

// Which kept game a start reopens (`records` newest first; `wanted` the address's scenario or
// null; `last` what lastScreen() says):
// - the game that was on screen, if it is of the scenario the address names (a reload), or if
//   the address names none (the app opened again);
// - nothing, if the start panel of that scenario was on screen with no game;
// - for an address naming another scenario (a link, a bookmark): that scenario's newest game
//   still in progress, else nothing (its start panel);
// - with nothing noted and no scenario named (a first start of this version): the newest game
//   kept.
export function gameToResume(records, wanted, last) {
  const list = (records || []).filter(scenarioOf); // a save without its scenario cannot open
  const find = function (slot) {
    return (
      list.find(function (r) {
        return r.id === slot;
      }) || null
    );
  };
  if (last && (!wanted || last.scenario === wanted)) {
    const record = last.slot ? find(last.slot) : null;
    if (record || !last.slot) return record;
  }
  const ofScenario = list.filter(function (r) {
    return !wanted || scenarioOf(r) === wanted;
  });
  if (last || wanted) {
    return (
      ofScenario.find(function (r) {
        return !(r.summary && r.summary.over);
      }) || null
    );
  }
  return ofScenario[0] || null;
}

// Keep the scenario on screen in the address (and nothing else of it changed), so a reload
// opens the same scenario.
export function showInAddress(scenario) {
  try {
    const url = new URL(location.href);
    if (url.searchParams.get("scenario") === scenario) return;
    url.searchParams.set("scenario", scenario);
    history.replaceState(history.state, "", url.href);
  } catch (error) {
    // An address that cannot change (a sandboxed frame): the notes above still resume.
  }
}
