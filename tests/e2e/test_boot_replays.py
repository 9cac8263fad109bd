"""Same game either way: seeded games of the three demos, replayed in CPython, in the browser
after a normal start and in the browser after the memory snapshot's restore, give the same
state after every action and the same answers, byte for byte.

One driver, written once in Python and once in JavaScript, loads a demo, starts a game with a
fixed seed and takes up to STEPS actions, each picked from the view's legal list by a rule both
sides compute alike. After every action it asks for the save, whose hash is the state's (a
game of hidden blocks shows none in its views), and digests the core's answers as the core
wrote them (the JSON text ``call_json`` returns, read in the browser off the worker's reply).

The worker's WebAssembly memory is read after every action too: a phone or a tablet gives a
page little memory, and the core is to play a whole demo in the heap Python starts with.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

import pytest
from apppage import open_app

from muster.api import Session

pytestmark = pytest.mark.e2e

DEMOS = ("demo-hohenbrueck", "demo-valmont", "demo-fontanella")
SEED = 4099
STEPS = 300  # actions per demo, fewer if the game ends first
STRIDE = 7919  # the pick: legal[(step * STRIDE + SEED) % len(legal)]
HEAP = 30 * 1024 * 1024  # bytes of the worker's WebAssembly memory, at ready and throughout

# A step: the state's hash after it (step 0: the new game), and the digest of the step's answers.
Step = tuple[str, str]


def pick(step: int, count: int) -> int:
    """Which of ``count`` legal actions the driver takes at ``step``."""
    return (step * STRIDE + SEED) % count


def digest(texts: list[str]) -> str:
    """A short fingerprint of the core's answers, as JSON text."""
    return hashlib.sha256("\n".join(texts).encode()).hexdigest()[:16]


def replay_in_cpython(session: Session, demo: str) -> list[Step]:
    """The driver in CPython, through the JSON bridge the worker calls."""

    def call(method: str, params: dict[str, Any]) -> tuple[Any, str]:
        text = session.call_json(json.dumps({"method": method, "params": params}))
        answer = json.loads(text)
        assert answer["ok"], (demo, method, answer)
        return answer["result"], text

    _, loaded = call("load_scenario", {"id": demo})
    view, started = call("new_game", {"seed": SEED})
    save, saved = call("save", {})
    steps = [(save["hash"], digest([loaded, started, saved]))]
    for step in range(STEPS):
        legal = view["legal"]
        if view["result"] or not legal:
            break
        view, acted = call("act", {"action": legal[pick(step, len(legal))]})
        save, saved = call("save", {})
        steps.append((save["hash"], digest([acted, saved])))
    return steps


# The same driver in the page, on the app's own engine. The worker's reply to a call is
# '{"type":"reply","id":N,"response":' + the core's answer + '}': the engine's receive is
# wrapped for the replay to keep that answer's text. Returns the steps and the heap after each.
REPLAY_IN_PAGE = """async ({demo, seed, steps, stride}) => {
  const engine = window.muster.engine;
  const texts = new Map();
  const receive = engine.receive;
  engine.receive = function (text) {
    const head = /^\\{"type":"reply","id":(\\d+),"response":/.exec(text);
    if (head) texts.set(Number(head[1]), text.slice(head[0].length, -1));
    return receive.call(engine, text);
  };
  const call = async (method, params) => {
    const id = engine.nextId;
    const result = await engine.call(method, params);
    const text = texts.get(id);
    texts.delete(id);
    if (text === undefined) throw new Error(method + ": no reply text for call " + id);
    return [result, text];
  };
  const digest = async (parts) => {
    const data = new TextEncoder().encode(parts.join("\\n"));
    const bytes = new Uint8Array(await crypto.subtle.digest("SHA-256", data)).slice(0, 8);
    return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  };
  const record = [];
  const heaps = [];
  try {
    const [, loaded] = await call("load_scenario", {id: demo});
    let [view, started] = await call("new_game", {seed: seed});
    let [save, saved] = await call("save", {});
    record.push([save.hash, await digest([loaded, started, saved])]);
    heaps.push((await engine.stats()).heap);
    for (let step = 0; step < steps; step++) {
      const legal = view.legal;
      if (view.result || !legal.length) break;
      let acted;
      [view, acted] = await call("act", {action: legal[(step * stride + seed) % legal.length]});
      [save, saved] = await call("save", {});
      record.push([save.hash, await digest([acted, saved])]);
      heaps.push((await engine.stats()).heap);
    }
  } finally {
    delete engine.receive;
  }
  return {steps: record, heaps: heaps};
}"""


@pytest.fixture(scope="module")
def in_cpython() -> dict[str, list[Step]]:
    """Every demo's replay in CPython, in one session as the page has one."""
    session = Session()
    return {demo: replay_in_cpython(session, demo) for demo in DEMOS}


def first_difference(expected: list[Step], got: list[Step]) -> int | None:
    """The first step where two replays differ (a missing step counts), or None."""
    for step, (a, b) in enumerate(zip(expected, got, strict=False)):
        if a != b:
            return step
    return None if len(expected) == len(got) else min(len(expected), len(got))


@pytest.mark.parametrize("boot", ["normal", "snapshot"])
def test_seeded_games_replay_alike_in_cpython_and_either_boot(browser, site_url, in_cpython, boot):
    url = site_url + ("?boot=normal" if boot == "normal" else "")
    app = open_app(browser, url, viewport={"width": 1024, "height": 768})
    page = app.page
    try:
        booted = page.evaluate("window.musterTiming.boot")
        assert booted["boot"] == boot, booted
        assert "refused" not in booted, booted
        assert page.evaluate("window.muster.engine.stats()")["heap"] == HEAP
        args = {"seed": SEED, "steps": STEPS, "stride": STRIDE}
        for demo in DEMOS:
            replay = page.evaluate(REPLAY_IN_PAGE, {**args, "demo": demo})
            expected = in_cpython[demo]
            got = [tuple(step) for step in replay["steps"]]
            step = first_difference(expected, got)
            assert step is None, (
                f"{demo}, {boot} boot: first difference at step {step} of {len(expected) - 1}: "
                f"CPython {expected[step] if step < len(expected) else 'ended'}, "
                f"browser {got[step] if step < len(got) else 'ended'}"
            )
            grown = [(i, heap) for i, heap in enumerate(replay["heaps"]) if heap != HEAP]
            assert not grown, (
                f"{demo}, {boot} boot: heap of {grown[0][1]} bytes at step {grown[0][0]}"
            )
            print(f"{boot} boot, {demo}: {len(got) - 1} actions alike, heap {replay['heaps'][-1]}")
        app.assert_no_errors()
    finally:
        app.context.close()
