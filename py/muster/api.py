"""The JSON facade the UI calls: ``call(method, params) -> dict``, the same in CPython and Pyodide.

Every answer is ``{"ok": true, "result": ...}`` or ``{"ok": false, "error": {"key", "params",
"message"}}``; no exception crosses the bridge, whatever the request. Every method checks its
parameters before it changes anything, and a call that fails for any reason leaves the session
as it was (scenario, game, history, redo stack): ``call`` restores it.
"""

from __future__ import annotations

import gc
from collections.abc import Callable
from typing import Any

from . import __version__, limits, systems
from . import params as P
from .errors import IllegalActionError, InvalidActionError, RulesError
from .game import Game, Replay
from .hexgrid import HEX_DIRECTIONS, Hex, Hexside, hex_add
from .los import line_of_sight
from .movement import Board, Reach, path_to, step_json
from .movement import reachable as find_reachable
from .params import Params
from .resume import KeptCheck, resume_kept
from .ruleset import words_of
from .savefile import canonical, echo
from .scenario import (
    AnyScenario,
    Scenario,
    builtin_scenarios,
    load_builtin,
    parse_scenario,
)
from .standing import briefing
from .systems import game_rules, movement_rules, playable


class Session:
    """One table: the scenario in play and the methods the UI may call on it."""

    def __init__(self) -> None:
        self.scenario: AnyScenario | None = None
        self.game: Game | None = None
        self._board: Board | None = None
        self._board_key: Any = None
        self.check: KeptCheck | None = None  # of the game resumed from its checkpoint
        self.replaying: Replay | None = None  # a save opened in parts (load_save's steps)
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
            "look_back": self.look_back,
            "save": self.save,
            "load_save": self.load_save,
            "check_kept": self.check_kept,
            "kept_rest": self.kept_rest,
            "replay_step": self.replay_step,
            "check_crt": self.check_crt,
            "rules_reference": self.rules_reference,
            "briefing": self.briefing,
            "editor_catalog": self.editor_catalog,
            "scenario_template": self.scenario_template,
            "scenario_check": self.scenario_check,
            "advise": self.advise,
        }

    def call(self, method: Any, params: Any = None) -> dict[str, Any]:
        """Run ``method`` with ``params``; errors come back as data, never raised, and a call
        that fails leaves the session exactly as it was."""
        kept = self._keep()
        try:
            handler = self.methods.get(method) if isinstance(method, str) else None
            if handler is None:
                raise InvalidActionError(
                    "error.unknown_method", "unknown method {method}", method=echo(method)
                )
            if params is None:
                params = {}
            if not isinstance(params, dict):
                raise InvalidActionError(
                    "error.bad_params", "parameters of {method} must be an object", method=method
                )
            limits.check_plain(params, "params")
            return {"ok": True, "result": handler(params)}
        except RulesError as exc:
            self._restore(kept)
            return {"ok": False, "error": exc.to_json()}
        except Exception as exc:  # a bug in the core: report it, keep the table alive
            self._restore(kept)
            return _internal(exc)

    def call_json(self, request: Any) -> str:
        """The bridge entry: a JSON request ``{"method", "params"}`` in, a JSON answer out.

        Never raises, whatever the text: too long, too deep, not JSON, numbers that are not
        finite all come back as refusals.
        """
        try:
            try:
                req = limits.loads(request)
            except RulesError as exc:
                return limits.dumps({"ok": False, "error": exc.to_json()})
            if not isinstance(req, dict):
                req = {"method": None}
            return limits.dumps(self.call(req.get("method"), req.get("params")))
        except Exception as exc:  # an answer that is not JSON: a bug, said as such
            return limits.dumps(_internal(exc))

    def _keep(self) -> tuple[Any, ...]:
        """What a failed call puts back: the scenario, the game and the game's history."""
        game = self.game
        history = None
        if game is not None:
            history = (
                list(game.states),
                list(game.actions),
                list(game.redo_stack),
                list(game.log),
                list(game.log_marks),
                game.revision,
                dict(game.options),
            )
        return self.scenario, game, history

    def _restore(self, kept: tuple[Any, ...]) -> None:
        scenario, game, history = kept
        changed = scenario is not self.scenario or game is not self.game
        self.scenario, self.game = scenario, game
        if game is not None and history is not None:
            states, actions, redo, log, marks, revision, options = history
            if len(game.states) != len(states) or game.revision != revision:
                changed = True
            game.states, game.actions, game.redo_stack = states, actions, redo
            game.log, game.log_marks, game.options = log, marks, options
            game.revision = revision
            game._legal = None
        if changed:
            self._board = None

    # -- methods ---------------------------------------------------------------------------

    def version(self, params: Params) -> dict[str, Any]:
        """The core's version, the rule systems a scenario may have (each with its kind of map),
        and the limits of the files the UI reads for it (characters)."""
        return {
            "version": __version__,
            "systems": [{"id": s, "map_kind": systems.get(s).map_kind} for s in systems.ids()],
            "levels": _levels(),
            "limits": {
                "scenario": limits.MAX_SCENARIO_CHARS,
                "save": limits.MAX_SAVE_CHARS,
                "crt": limits.MAX_CRT_CHARS,
            },
        }

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
        return _summary(scenario)

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

    def _loaded(self) -> AnyScenario:
        if self.scenario is None:
            raise RulesError("error.no_scenario", "no scenario is loaded")
        return self.scenario

    def new_game(self, params: Params) -> dict[str, Any]:
        """Start play of the loaded scenario with a seed (the UI draws one) and options."""
        sc = self._loaded()
        seed = P.seed(params.get("seed", 1), "seed")
        options = params.get("options", {})
        rules = game_rules(sc.system)
        viewer = self._viewer_param(params, sc)
        game = Game.start(sc, rules, seed, options)
        view = self._view(game, viewer, P.log_count(params))
        self.game = game
        return view

    def game_view(self, params: Params) -> dict[str, Any]:
        """The game as the UI shows it: state, prompt, legal actions, chance point, log.

        In a game of hidden blocks the view is one side's (``viewer``, by default the side to
        act): that side's blocks, the other's as bare blocks, its own log lines, and the
        legal actions only when it is the side to act. ``log`` is how many of the newest log
        lines to hold (200 unless asked).
        """
        game = self._game()
        return self._view(game, self._viewer_param(params, game.scenario), P.log_count(params))

    def _viewer_param(self, params: Params, scenario: Any) -> Any:
        """The ``viewer`` parameter: none, or one of the scenario's sides.

        Raises:
            InvalidActionError: no such side.
        """
        viewer = params.get("viewer")
        sides = [s["id"] for s in scenario.data["sides"]]
        if viewer is not None and viewer not in sides:
            raise InvalidActionError("error.bad_viewer", "no side {side}", side=echo(viewer))
        return viewer

    def _view(self, game: Game, viewer: Any, log: int) -> dict[str, Any]:
        return game.view(viewer, log)

    def act(self, params: Params) -> dict[str, Any]:
        """Take an action; an illegal one is refused with the rule and changes nothing."""
        game = self._game()
        viewer = self._viewer_param(params, game.scenario)
        game.apply(params.get("action"))
        return self._view(game, viewer, P.log_count(params))

    def preview(self, params: Params) -> dict[str, Any]:
        """The modifiers and exact odds of a legal fire or melee, before it is taken."""
        game = self._game()
        action = params.get("action")
        legal = {canonical(a): a for a in game.legal_actions()}
        found = legal.get(canonical(action)) if isinstance(action, dict) else None
        if found is None and isinstance(action, dict) and isinstance(action.get("type"), str):
            raise game.refused(action)  # type: ignore[arg-type]  # a dict with a text type
        if found is None or found["type"] not in game.rules.previewable:
            raise IllegalActionError(
                "error.illegal_action", "not allowed now: {action}", action=echo(action)
            )
        return game.rules.preview(game.scenario, game.state, found)

    def undo(self, params: Params) -> dict[str, Any]:
        """Take back the last action."""
        game = self._game()
        viewer = self._viewer_param(params, game.scenario)
        log = P.log_count(params)
        if not game.can_take_back():
            raise IllegalActionError("error.cannot_undo", "there is nothing to undo")
        game.undo()
        return self._view(game, viewer, log)

    def redo(self, params: Params) -> dict[str, Any]:
        """Play again the last action taken back."""
        game = self._game()
        viewer = self._viewer_param(params, game.scenario)
        log = P.log_count(params)
        game.redo()
        return self._view(game, viewer, log)

    def look_back(self, params: Params) -> dict[str, Any]:
        """The position after the first ``at`` actions (0: the start), read only: state,
        markers and arrows as ``viewer`` may see them; the game in play is not changed."""
        game = self._game()
        if game.rules.hidden_information:
            # The count of actions would tell one side how often the other decided.
            raise IllegalActionError(
                "error.no_look_back", "looking back is not offered when a side hides its pieces"
            )
        at = params.get("at")
        count = len(game.actions)
        if isinstance(at, bool) or not isinstance(at, int) or not 0 <= at <= count:
            raise InvalidActionError(
                "error.bad_count",
                "{name} must be a whole number from 0 to {limit}",
                name="at",
                limit=count,
            )
        viewer = self._viewer_param(params, game.scenario)
        return game.view_at(at, viewer)

    def save(self, params: Params) -> dict[str, Any]:
        """The save of the game in progress (JSON a player can keep in a file); with
        ``{"checkpoint": true}`` the checkpoint to resume it at once (``Game.checkpoint``)."""
        return self._game().save(checkpoint=params.get("checkpoint") is True)

    def check_crt(self, params: Params) -> dict[str, Any]:
        """Check an owner's combat results table before it is used in a new game: by the
        loaded scenario's system if it reads one, else by the first system that does.

        Raises:
            RulesError: the table is malformed (``error.bad_crt``), or no system reads one.
        """
        loaded = self.scenario.system if self.scenario is not None else None
        tables = {s: systems.get(s).owner_table for s in systems.ids()}
        readers = [t for s, t in tables.items() if t is not None and s == loaded]
        readers += [t for t in tables.values() if t is not None]
        if not readers:
            raise InvalidActionError(
                "error.unknown_method", "unknown method {method}", method="check_crt"
            )
        return readers[0].info(params.get("crt"))

    def rules_reference(self, params: Params) -> dict[str, Any]:
        """The charts of the loaded scenario's rule system, read from the tables its rules read,
        with the scenario's overrides and the tables of the game in play (docs/rules-reference.md).

        Raises:
            InvalidActionError: a parameter (it takes none).
            RulesError: no scenario is loaded, or its system cannot be played.
        """
        for name in params:
            raise InvalidActionError(
                "error.unknown_param",
                "{method} takes no parameter {name}",
                method="rules_reference",
                name=echo(name),
            )
        sc = self._loaded()
        rules = game_rules(sc.system)
        game = self.game
        state = game.state if game is not None and game.scenario is sc else None
        found: dict[str, Any] = rules.reference(sc, state)
        return found

    def briefing(self, params: Params) -> dict[str, Any]:
        """What the loaded scenario says before and during a game: its description, sides,
        turns, objectives, victory conditions and the tables in use with the marks of Muster's
        assumptions (docs/play-view.md, "The briefing"; ``muster.standing.briefing``).

        Raises:
            InvalidActionError: a parameter (it takes none).
            RulesError: no scenario is loaded, or its system cannot be played.
        """
        P.only(params, "briefing")
        sc = self._loaded()
        rules = game_rules(sc.system)
        game = self.game
        state = game.state if game is not None and game.scenario is sc else None
        return briefing(rules, sc, state, rules.reference(sc, state))

    # -- the scenario editor (docs/scenario-format.md; muster/editor.py) ------------------------
    # The editor's module is imported on its first use: a game never needs it, so the memory
    # snapshot the app starts from does not hold it.

    def editor_catalog(self, params: Params) -> dict[str, Any]:
        """What a scenario of ``{"system"}`` may hold: map ids and bounds, unit types with their
        ratings and steps, every table value it may override (default and words), turns.

        Raises:
            InvalidActionError: an unknown parameter, or no such system.
        """
        P.only(params, "editor_catalog", "system")
        from . import editor

        return editor.catalog(editor.check_system(params.get("system")))

    def scenario_template(self, params: Params) -> dict[str, Any]:
        """A new scenario of ``{"system"}`` that loads: two sides, a small map, no units.

        Raises:
            InvalidActionError: an unknown parameter, or no such system.
        """
        P.only(params, "scenario_template", "system")
        from . import editor

        return editor.template(editor.check_system(params.get("system")))

    def scenario_check(self, params: Params) -> dict[str, Any]:
        """Check ``{"scenario"}`` exactly as ``load_scenario`` does, without loading it: the
        game in progress is not touched. ``{"ok": true, "summary"}`` (load_scenario's answer)
        or ``{"ok": false, "problem": {key, params, message, place}}``, the place parsed for
        the map (``editor.place_of``).

        Raises:
            InvalidActionError: an unknown parameter, or no scenario given.
        """
        P.only(params, "scenario_check", "scenario")
        if "scenario" not in params:
            raise InvalidActionError(
                "error.missing_param", "missing parameter {name}", name="scenario"
            )
        data = params["scenario"]
        try:
            scenario = parse_scenario(data)
        except RulesError as exc:
            from . import editor

            return {"ok": False, "problem": editor.problem(exc, data)}
        return {"ok": True, "summary": _summary(scenario)}

    # -- Muster plays a side (muster/opponent): imported on first use ------------------------

    def advise(self, params: Params) -> dict[str, Any]:
        """What Muster would do now for ``{"viewer"}``, the side to act, at ``{"level"}`` with
        ``{"seed"}`` (and ``{"budget_ms"}``, a time budget it stops deepening at): the action,
        ``why`` (labels), its ``value`` and how many actions it ``considered``. It reads only
        what the side's own screen shows, and never changes the game.

        Raises:
            InvalidActionError: an unknown parameter, no such side, level, seed or budget.
            IllegalActionError: the game is over, or the side does not decide now.
        """
        P.only(params, "advise", "viewer", "level", "seed", "budget_ms")
        from . import opponent

        game = self._game()
        viewer = self._viewer_param(params, game.scenario)
        level = params.get("level", opponent.DEFAULT_LEVEL)
        if not isinstance(level, int) or isinstance(level, bool) or level not in opponent.LEVELS:
            raise InvalidActionError(
                "error.bad_level", "level must be one of {options}", options="1, 2, 3"
            )
        seed = P.seed(params.get("seed", 1), "seed")
        budget = P.count(params, "budget_ms", None, 1, 60_000) if "budget_ms" in params else None
        if game.state.get("result"):
            raise IllegalActionError("error.advise_over", "the game is over: nothing to advise")
        decider = game.rules.decider(game.scenario, game.state)
        if viewer is None:
            viewer = decider
        if decider is None or viewer != decider or game.state.get("chance"):
            raise IllegalActionError(
                "error.advise_not_deciding",
                "{side} does not decide now: nothing to advise",
                side=echo(viewer),
            )
        kept = self._keep()
        try:
            return opponent.advise(game, viewer, level, seed, budget)
        finally:
            self._restore(kept)  # the search never touches the game; this keeps it so

    def load_save(self, params: Params) -> dict[str, Any]:
        """Replace the game with a saved one, once the whole save is checked and replays to
        its saved state; a refused save leaves the game in progress as it was.

        ``{"kept": true}`` (a game kept in this browser): a save with a checkpoint comes back
        at once from it, and ``"checking": true`` says ``check_kept`` should now replay it.
        With ``"held": {"actions", "log_marks"}`` the save is the head of the kept game (its
        first actions and marks left out, so what the game needs on screen comes first:
        ``Game.resume``); ``kept_rest`` gives the rest. A head that does not fit is refused
        (``error.bad_checkpoint``) and the page sends the whole save.

        ``{"steps": n}`` (a file, replayed in parts so the page shows its progress): the save
        is checked and its first ``n`` actions replayed; while some are left the answer is
        ``{"replaying": true, "done", "total"}`` (counts of the file's own actions) and
        ``replay_step`` goes on. The game in progress is replaced only once the whole save is
        checked; a refused save changes nothing.
        """
        log = P.log_count(params)
        save = params.get("save")
        self.replaying = None
        if "steps" in params and params.get("kept") is not True:
            steps = P.steps(params)
            replay = Replay(save, game_rules)
            return self._replay_part(replay, steps, params, log)
        if params.get("kept") is True:

            def show(game: Game) -> dict[str, Any]:
                return self._view(game, self._viewer_param(params, game.scenario), log)

            held = P.held(params)
            game, view, check = resume_kept(save, game_rules, show, held)
        else:
            game, check = Game.load(save, game_rules), None
            view = self._view(game, self._viewer_param(params, game.scenario), log)
        return self._in_play(game, view, check)

    def replay_step(self, params: Params) -> dict[str, Any]:
        """Replay ``steps`` more actions (50 unless asked) of the save ``load_save`` opened in
        parts: ``{"replaying": true, "done", "total"}`` while some are left, then, once the whole
        save is checked and ends in its saved state, ``load_save``'s answer with the game in
        play. A refused save drops the replay and leaves the game in progress as it was.

        Raises:
            RulesError: no save is being opened (``error.nothing_to_replay``), or the save
                is refused.
        """
        steps = P.steps(params)
        log = P.log_count(params)
        replay = self.replaying
        if replay is None:
            raise RulesError("error.nothing_to_replay", "no save is being opened")
        return self._replay_part(replay, steps, params, log)

    def _replay_part(self, replay: Replay, steps: int, params: Params, log: int) -> dict[str, Any]:
        """Replay ``steps`` more actions of a save opened in parts, and put it in play once
        all of them are replayed and checked."""
        self.replaying = None  # dropped if refused below
        replay.step(steps)
        if replay.done < replay.total:
            self.replaying = replay
            return {"replaying": True, "done": replay.done, "total": replay.total}
        game = replay.finish()
        view = self._view(game, self._viewer_param(params, game.scenario), log)
        return self._in_play(game, view, None)

    def _in_play(self, game: Game, view: dict[str, Any], check: KeptCheck | None) -> dict[str, Any]:
        """Put a loaded game in play: ``load_save``'s answer."""
        self.scenario = game.scenario
        self.game = game
        self.check = check
        self._board = None
        return {
            "replaying": False,
            "checking": check is not None,
            "scenario": game.scenario.data,
            "view": view,
            "options": sorted(game.rules.options),
            "words": words_of(game.rules),
            "markers": list(game.rules.markers),
        }

    def kept_rest(self, params: Params) -> dict[str, Any]:
        """The rest of a kept game resumed from its head (``load_save``'s ``held``): the save's
        first ``actions``, its checkpoint's ``log`` lines before the head's and the
        ``log_marks`` the head left out, put in their places (whatever was played since stays);
        ``check_kept`` can then replay the whole. ``{"taken": false}`` when no game in play
        waits for them (another game was opened since, or it has them already).

        Raises:
            RulesError: they do not fit the game (``error.bad_checkpoint``); nothing changes.
        """
        P.only(params, "kept_rest", "actions", "log", "log_marks")
        check = self.check
        if check is None or check.game is not self.game or not check.waiting:
            return {"taken": False}
        check.take_held(
            params.get("actions"), params.get("log", []), params.get("log_marks"), game_rules
        )
        return {"taken": True}

    def check_kept(self, params: Params) -> dict[str, Any]:
        """Replay ``steps`` more actions of the game resumed from its checkpoint (50 unless
        asked) and compare. ``{"done"}`` while it agrees; ``{"done": true, "differs": true,
        "view"}`` when it does not: the game is then the replay of its actions (with those
        played since the resume, as far as the rules allow them), in ``view``."""
        steps = P.steps(params)
        check = self.check
        if check is None or check.game is not self.game:  # nothing to check, or another game
            self.check = None
            return {"done": True, "differs": False}
        viewer = self._viewer_param(params, check.game.scenario)
        log = P.log_count(params)
        truth = check.step(steps)
        if truth is None:
            if check.finished:
                self.check = None
            return {"done": check.finished, "differs": False}
        self.check = None
        self.game = truth
        return {"done": True, "differs": True, "view": self._view(truth, viewer, log)}


def _summary(scenario: Any) -> dict[str, Any]:
    """What ``load_scenario`` answers about a scenario it loads (and ``scenario_check``)."""
    return {
        "id": scenario.id,
        "system": scenario.system,
        "title": scenario.data["title"],
        "hexes": len(getattr(scenario, "hexes", ())),
        "locales": len(getattr(scenario, "locales", ())),
        "units": len(scenario.units),
        "playable": playable(scenario.system),
        "options": _game_options(scenario.system),
        "words": words_of(game_rules(scenario.system)) if playable(scenario.system) else {},
        "markers": list(game_rules(scenario.system).markers) if playable(scenario.system) else [],
    }


def _game_options(system: str) -> list[str]:
    """The options a new game of ``system`` takes beyond every game's (an owner's combat
    results table for hex-hexside): the UI offers what the core names, never by system."""
    return sorted(game_rules(system).options) if playable(system) else []


def _internal(exc: BaseException) -> dict[str, Any]:
    """The answer for a bug in the core: what went wrong, for a report."""
    detail = echo(str(exc))
    return {
        "ok": False,
        "error": {
            "key": "error.internal",
            "params": {"kind": type(exc).__name__, "detail": detail},
            "message": f"internal error: {type(exc).__name__}: {detail}",
        },
    }


def _levels() -> list[dict[str, Any]]:
    """Muster's levels (``muster.opponent.levels``), for the New game screen and ``advise``."""
    from .opponent import levels

    return levels()


_default = Session()


def call(method: str, params: Params | None = None) -> dict[str, Any]:
    """Call ``method`` on the page's session (the worker has exactly one)."""
    return _default.call(method, params)


def call_json(request: str) -> str:
    """JSON-string bridge entry used by the web worker."""
    return _default.call_json(request)
