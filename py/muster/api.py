"""The JSON facade the UI calls: ``call(method, params) -> dict``, the same in CPython and Pyodide.

Every answer is ``{"ok": true, "result": ...}`` or ``{"ok": false, "error": {"key", "params",
"message"}}``; no exception crosses the bridge, and a failed call leaves the game untouched.
"""

from __future__ import annotations

import gc
import json
from collections.abc import Callable
from typing import Any

from . import __version__
from .errors import IllegalActionError, InvalidActionError, RulesError
from .game import Game, canonical, chance_view, state_hash
from .hexgrid import HEX_DIRECTIONS, Hex, Hexside, hex_add
from .los import line_of_sight
from .movement import Board, Reach, path_to, step_json
from .movement import reachable as find_reachable
from .scenario import Scenario, builtin_scenarios, load_builtin, parse_scenario
from .systems import game_rules, movement_rules, playable

Params = dict[str, Any]


class Session:
    """One table: the scenario in play and the methods the UI may call on it."""

    def __init__(self) -> None:
        self.scenario: Scenario | None = None
        self.game: Game | None = None
        self._board: Board | None = None
        self._board_key: Any = None
        self.methods: dict[str, Callable[[Params], Any]] = {
            "version": self.version,
            "scenario_list": self.scenario_list,
            "load_scenario": self.load_scenario,
            "hex_info": self.hex_info,
            "reachable": self.reachable,
            "path": self.path,
            "los": self.los,
            "new_game": self.new_game,
            "game_view": self.game_view,
            "act": self.act,
            "preview": self.preview,
            "undo": self.undo,
            "redo": self.redo,
            "save": self.save,
            "load_save": self.load_save,
            "check_crt": self.check_crt,
        }

    def call(self, method: str, params: Params | None = None) -> dict[str, Any]:
        """Run ``method`` with ``params``; errors come back as data, never raised."""
        try:
            handler = self.methods.get(method) if isinstance(method, str) else None
            if handler is None:
                raise InvalidActionError(
                    "error.unknown_method", "unknown method {method}", method=str(method)
                )
            if params is None:
                params = {}
            if not isinstance(params, dict):
                raise InvalidActionError(
                    "error.bad_params", "parameters of {method} must be an object", method=method
                )
            return {"ok": True, "result": handler(params)}
        except RulesError as exc:
            return {"ok": False, "error": exc.to_json()}
        except Exception as exc:  # a bug in the core: report it, keep the table alive
            return {
                "ok": False,
                "error": {
                    "key": "error.internal",
                    "params": {"kind": type(exc).__name__, "detail": str(exc)},
                    "message": f"internal error: {type(exc).__name__}: {exc}",
                },
            }

    def call_json(self, request: str) -> str:
        """The bridge entry: a JSON request ``{"method", "params"}`` in, a JSON answer out."""
        try:
            req = json.loads(request)
        except (TypeError, ValueError) as exc:
            err = InvalidActionError(
                "error.bad_json", "request is not JSON: {detail}", detail=str(exc)
            )
            return json.dumps({"ok": False, "error": err.to_json()})
        if not isinstance(req, dict):
            req = {"method": None}
        return json.dumps(self.call(req.get("method"), req.get("params")))

    # -- methods ---------------------------------------------------------------------------

    def version(self, params: Params) -> dict[str, Any]:
        """The core's version."""
        return {"version": __version__}

    def scenario_list(self, params: Params) -> list[dict[str, Any]]:
        """The shipped scenarios."""
        return builtin_scenarios()

    def load_scenario(self, params: Params) -> dict[str, Any]:
        """Start a scenario: ``{"id"}`` for a shipped one or ``{"scenario"}`` for a file's JSON.

        The game in progress is replaced only when the new scenario is valid.
        """
        if "scenario" in params:
            scenario = parse_scenario(params["scenario"])
        elif isinstance(params.get("id"), str):
            scenario = load_builtin(params["id"])
        else:
            raise InvalidActionError(
                "error.missing_param", "missing parameter {name}", name="id or scenario"
            )
        self.scenario = scenario
        self.game = None
        self._board = None
        # The map's objects live as long as the game: keep them out of the cyclic
        # collector's sweeps, which otherwise pause a search now and then.
        gc.collect()
        gc.freeze()
        return {
            "id": scenario.id,
            "system": scenario.system,
            "title": scenario.data["title"],
            "hexes": len(getattr(scenario, "hexes", ())),
            "locales": len(getattr(scenario, "locales", ())),
            "units": len(scenario.units),
            "playable": playable(scenario.system),
        }

    def _scenario(self) -> Scenario:
        if self.scenario is None:
            raise RulesError("error.no_scenario", "no scenario is loaded")
        if not isinstance(self.scenario, Scenario):
            raise RulesError("error.not_hex_map", "this scenario's map has no hexes")
        return self.scenario

    def hex_info(self, params: Params) -> dict[str, Any]:
        """What is in a hex: printed number, terrain, level, hexsides, roads and units."""
        sc = self._scenario()
        label = params.get("hex")
        if not isinstance(label, str):
            raise InvalidActionError("error.missing_param", "missing parameter {name}", name="hex")
        try:
            h = sc.hex_at(label)
        except RulesError:
            raise RulesError("error.unknown_hex", "no hex {hex} on this map", hex=label) from None
        data = sc.hexes[h]
        sides = []
        roads = []
        for direction, d in enumerate(HEX_DIRECTIONS):
            n = hex_add(h, d)
            if n not in sc.hexes:
                continue
            side = Hexside.between(h, n)
            feature = sc.hexsides.get(side)
            if feature is not None:
                entry: dict[str, Any] = {
                    "direction": direction,
                    "to": sc.label(n),
                    "features": list(feature.features),
                }
                if feature.name:
                    entry["name"] = feature.name
                if feature.up is not None:
                    entry["up"] = sc.label(feature.up)
                sides.append(entry)
            for kind in sc.roads.get(side, ()):
                roads.append({"direction": direction, "to": sc.label(n), "kind": kind})
        units = [
            {"id": uid, "name": u["name"], "side": u["side"], "type": u["type"]}
            for uid, u in sc.units.items()
            if u["hex"] == label
        ]
        return {
            "hex": label,
            "terrain": list(data.terrain),
            "level": data.level,
            "hexsides": sides,
            "roads": roads,
            "units": units,
        }

    def _hex_param(self, params: Params, name: str) -> Hex:
        label = params.get(name)
        if not isinstance(label, str):
            raise InvalidActionError("error.missing_param", "missing parameter {name}", name=name)
        try:
            return self._scenario().hex_at(label)
        except RulesError:
            raise RulesError("error.unknown_hex", "no hex {hex} on this map", hex=label) from None

    def _reach(self, params: Params) -> tuple[Board, str, dict[Hex, Reach]]:
        sc = self._scenario()
        uid = params.get("unit")
        if not isinstance(uid, str):
            raise InvalidActionError("error.missing_param", "missing parameter {name}", name="unit")
        board = self._current_board()
        board.unit(uid)
        return board, uid, find_reachable(board, uid, movement_rules(sc.system))

    def _current_board(self) -> Board:
        """The map as it stands: the game's positions, or the scenario's before play starts.

        Kept while the position is unchanged: queries never change it.
        """
        sc = self._scenario()
        key = (id(sc), (id(self.game), self.game.revision) if self.game else None)
        if self._board is None or self._board_key != key:
            if self.game is not None:
                self._board = self.game.rules.board(sc, self.game.state)
            else:
                self._board = Board(sc)
            self._board_key = key
        return self._board

    def reachable(self, params: Params) -> dict[str, Any]:
        """Every hex a unit can reach this move, with its cheapest cost."""
        board, uid, reach = self._reach(params)
        unit = board.unit(uid)
        hexes = {}
        for h, r in reach.items():
            entry: dict[str, Any] = {"cost": r.cost}
            if r.step is not None and r.step.stop:
                entry["stop"] = r.step.stop
            hexes[board.label(h)] = entry
        return {
            "unit": uid,
            "from": board.label(unit.hex),
            "allowance": unit.allowance,
            "hexes": hexes,
        }

    def path(self, params: Params) -> dict[str, Any]:
        """The cheapest path of a unit to a hex, each step with its cost breakdown."""
        target = self._hex_param(params, "to")
        board, uid, reach = self._reach(params)
        if target not in reach:
            raise IllegalActionError(
                "error.unreachable",
                "unit {unit} cannot reach hex {hex} this move",
                unit=uid,
                hex=board.label(target),
            )
        steps = path_to(reach, target)
        return {
            "unit": uid,
            "to": board.label(target),
            "hexes": [board.label(board.unit(uid).hex)] + [board.label(s.to) for s in steps],
            "cost": reach[target].cost,
            "steps": [step_json(board, s) for s in steps],
        }

    def los(self, params: Params) -> dict[str, Any]:
        """Line of sight and range between two hexes, with what blocks it and where."""
        sc = self._scenario()
        a = self._hex_param(params, "from")
        b = self._hex_param(params, "to")
        result = line_of_sight(sc, a, b, sc.data.get("overrides", {}).get("los"))
        return {"from": sc.label(a), "to": sc.label(b), **result.to_json()}

    # -- play -------------------------------------------------------------------------------

    def _game(self) -> Game:
        if self.game is None:
            raise RulesError("error.no_game", "no game is in progress")
        return self.game

    def _loaded(self) -> Any:
        if self.scenario is None:
            raise RulesError("error.no_scenario", "no scenario is loaded")
        return self.scenario

    def new_game(self, params: Params) -> dict[str, Any]:
        """Start play of the loaded scenario with a seed (the UI draws one) and options."""
        sc = self._loaded()
        seed = params.get("seed", 1)
        options = params.get("options", {})
        if not isinstance(seed, int) or isinstance(seed, bool) or not isinstance(options, dict):
            raise InvalidActionError(
                "error.bad_params", "parameters of {method} must be an object", method="new_game"
            )
        self.game = Game.start(sc, game_rules(sc.system), seed, options)
        return self.game_view({"viewer": params.get("viewer")})

    def game_view(self, params: Params) -> dict[str, Any]:
        """The game as the UI shows it: state, prompt, legal actions, chance point, log.

        In a game of hidden blocks the view is one side's (``viewer``, by default the side to
        act): that side's blocks, the other's as bare blocks, its own log lines, and the
        legal actions only when it is the side to act.
        """
        game = self._game()
        if getattr(game.rules, "hidden_information", False):
            return self._side_view(game, params.get("viewer"))
        state = game.state
        legal = game.legal_actions()
        view: dict[str, Any] = {
            "state": {k: v for k, v in state.items() if k not in ("rng", "chance")},
            "legal": legal,
            "chance": chance_view(state["chance"]) if state.get("chance") else None,
            "log": game.log[-int(params.get("log", 200)) :],
            "log_size": len(game.log),
            "moves": len(game.actions),
            "can_undo": game.can_undo(),
            "can_redo": bool(game.redo_stack),
            "result": state.get("result"),
            "hash": state_hash(state),
        }
        extra = getattr(game.rules, "view_extra", None)
        if extra is not None:
            view.update(extra(game.scenario, state))
        return view

    def _side_view(self, game: Game, viewer: Any) -> dict[str, Any]:
        rules, sc, state = game.rules, game.scenario, game.state
        sides = [s["id"] for s in sc.data["sides"]]
        decider = rules.decider(sc, state)
        if viewer is None:
            viewer = decider
        if viewer not in sides:
            raise InvalidActionError("error.bad_viewer", "no side {side}", side=str(viewer))
        view = rules.view_for(sc, state, viewer)
        mine = viewer == decider and not state.get("result")
        return {
            "state": view,
            "viewer": viewer,
            "legal": game.legal_actions() if mine else [],
            "chance": None,
            "log": [e for e in game.log if e.get("to", viewer) == viewer][-200:],
            "moves": len(game.actions),
            "can_undo": mine and self._own_undo(game),
            "can_redo": mine and bool(game.redo_stack),
            "result": state.get("result"),
            "prompt": rules.prompt(sc, state),
        }

    def _own_undo(self, game: Game) -> bool:
        """With hidden blocks, a side takes back only its own last action (same side to act
        before and after it), so undo never shows one side what the other decided."""
        if not game.can_undo() or len(game.states) < 2:
            return False
        rules, sc = game.rules, game.scenario
        return rules.decider(sc, game.states[-2]) == rules.decider(sc, game.states[-1])

    def act(self, params: Params) -> dict[str, Any]:
        """Take an action; an illegal one is refused with the rule and changes nothing."""
        self._game().apply(params.get("action"))
        return self.game_view({"viewer": params.get("viewer")})

    def preview(self, params: Params) -> dict[str, Any]:
        """The modifiers and exact odds of a legal fire or melee, before it is taken."""
        game = self._game()
        action = params.get("action")
        legal = {canonical(a) for a in game.legal_actions()}
        fights = getattr(game.rules, "previewable", ("fire", "melee", "reaction_fire"))
        if canonical(action) not in legal or action.get("type") not in fights:
            raise IllegalActionError(
                "error.illegal_action", "not allowed now: {action}", action=canonical(action)
            )
        return game.rules.preview(game.scenario, game.state, action)

    def undo(self, params: Params) -> dict[str, Any]:
        """Take back the last action."""
        game = self._game()
        if getattr(game.rules, "hidden_information", False) and not self._own_undo(game):
            raise IllegalActionError("error.cannot_undo", "there is nothing to undo")
        game.undo()
        return self.game_view({"viewer": params.get("viewer")})

    def redo(self, params: Params) -> dict[str, Any]:
        """Play again the last action taken back."""
        self._game().redo()
        return self.game_view({"viewer": params.get("viewer")})

    def save(self, params: Params) -> dict[str, Any]:
        """The save of the game in progress (JSON a player can keep in a file)."""
        return self._game().save()

    def check_crt(self, params: Params) -> dict[str, Any]:
        """Check an owner's combat results table (hex-hexside) before it is used in a new game."""
        from .systems.hex_hexside.rules import crt_info

        return crt_info({"crt": params.get("crt")})

    def load_save(self, params: Params) -> dict[str, Any]:
        """Replace the game with a saved one, if it replays to its saved state."""
        game = Game.load(params.get("save"), game_rules)
        self.scenario = game.scenario
        self.game = game
        self._board = None
        return {"scenario": game.scenario.data, "view": self.game_view({})}


_default = Session()


def call(method: str, params: Params | None = None) -> dict[str, Any]:
    """Call ``method`` on the page's session (the worker has exactly one)."""
    return _default.call(method, params)


def call_json(request: str) -> str:
    """JSON-string bridge entry used by the web worker."""
    return _default.call_json(request)
