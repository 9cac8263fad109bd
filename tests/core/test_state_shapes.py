"""Each system's state is typed once, in its own ``TypedDict`` (``systems/<folder>/state.py``,
extending ``muster.shapes.State``): seeded random games of every demo prove that no key the
code writes is missing from it, and that the keys it calls required are always there, so the
shape cannot drift from the code."""

from __future__ import annotations

import inspect
import json
import typing
from typing import Any

import pytest
from playouts import random_playout

from muster.game import Game
from muster.scenario import SCENARIO_DIR, load_builtin
from muster.shapes import State
from muster.systems import FOLDERS, folder, game_rules
from muster.systems.area_locale.state import AreaLocaleState
from muster.systems.hex_facing.state import HexFacingState
from muster.systems.hex_hexside.state import HexHexsideState

# folder -> the system's state shape
SHAPES: dict[str, Any] = {
    "area_locale": AreaLocaleState,
    "hex_facing": HexFacingState,
    "hex_hexside": HexHexsideState,
}
SEEDS = (1, 2, 3)
DEMOS = sorted(
    (folder(json.loads(p.read_text(encoding="utf-8"))["system"]), p.stem)
    for p in SCENARIO_DIR.glob("*.json")
)


def declared(shape: Any) -> set[str]:
    """Every key ``shape`` declares, its bases' included (the annotations must evaluate)."""
    return set(typing.get_type_hints(shape))


def test_every_system_has_its_state_shape_extending_the_shared_one_named_by_its_rules():
    assert set(SHAPES) == set(FOLDERS.values())
    for system, name in FOLDERS.items():
        shape = SHAPES[name]
        assert declared(State) <= declared(shape), name
        assert shape.__required_keys__ <= declared(shape), name
        rules = type(game_rules(system))
        named = [typing.get_args(b)[0] for b in rules.__orig_bases__ if typing.get_args(b)]
        assert named == [shape], name  # class ...Rules(RulesBase[<its state>, ...])


def test_every_shape_key_has_a_comment_saying_what_it_holds():
    for name, shape in SHAPES.items():
        lines = inspect.getsource(shape).splitlines()
        own = set(shape.__annotations__) - declared(State)
        for key in own:
            at = next(i for i, line in enumerate(lines) if line.strip().startswith(f"{key}:"))
            assert lines[at - 1].strip().startswith("#"), (name, key)


@pytest.mark.parametrize(("name", "demo"), DEMOS, ids=[f"{f}-{d}" for f, d in DEMOS])
@pytest.mark.parametrize("seed", SEEDS)
def test_every_key_of_the_state_is_declared_after_every_action(name, demo, seed):
    shape = SHAPES[name]
    keys = declared(shape)
    required = set(shape.__required_keys__)

    def check(game: Game) -> None:
        state = game.state
        where = f"{demo} seed {seed} after {len(game.actions)} actions ({game.actions[-1]})"
        assert not set(state) - keys, f"{where}: keys not in {shape.__name__}"
        assert not required - set(state), f"{where}: required keys missing"

    scenario = load_builtin(demo)
    first = Game.start(scenario, game_rules(scenario.system), seed).state
    assert not set(first) - keys and not required - set(first), f"{demo}: at the start"
    random_playout(scenario, game_rules(scenario.system), seed, check=check)
