"""The hex-facing rules reference: the terrain table, the melee and fire modifiers, the force
ratio, fire and melee results tables, the procedures the aid names, the readings of its open
points, movement, line of sight and the sequence of play, all read from the tables the rules
read (``combat.json``, ``terrain.json``, ``movement.json``, ``los.json``, ``sequence.json``),
with the scenario's overrides.

``line_ref`` names the row of the reference a modifier line of a preview comes from.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ... import play
from ... import reference as R
from ...hexmap import Scenario
from ...movement import movement_settings
from ...reference import anchor, column, label, row, section
from . import tables as T
from .state import HexFacingState
from .tables import ResultCell, ResultRow, level_row

State = HexFacingState  # the state's shape (state.py)
PREFIX = "hf"
FOLDER = "hex_facing"
TERRAIN_LINES = ("terrain", "hexside", "works", "works_from", "bridge_ignored")
# The melee and fire lines of note (b) of the terrain table.
NOTE_B_LINES = ("melee.six_front_attacker", "melee.six_front_cavalry")
# Rows of the DRM tables whose condition has words of its own in the reference (the preview's
# key for them takes the numbers of one fight).
OWN_WORDS = {"melee": ("force_ratio", "cohesion", "terrain"), "fire": ("terrain", "long_range")}
# The open points of combat.json the reference lists, each a dotted path to its setting.
SETTINGS = (
    "die",
    "cohesion_test.pass_if",
    "retreat_blocked.becomes",
    "disorder_again",
    "combining.not_combined",
    "combining.hex_terrains",
    "combining.approaches",
    "combining.works",
    "readings.routed_defender",
    "readings.cavalry_melee",
    "readings.square",
    "readings.six_front_cavalry",
    "readings.disordered_attack",
    "readings.italic",
    "fire_modifiers.firer_types",
    "fire_modifiers.combined_strength",
    "fire_modifiers.long_range_limit",
    "procedures.breakthrough.advance",
    "procedures.breakthrough.units",
    "procedures.pursuit.advance",
    "procedures.pursuit.units",
    "procedures.pursuit.failed",
    "procedures.counterattack.melee",
    "procedures.countercharge.reaction",
    "procedures.countercharge.against",
    "procedures.countercharge.by",
    "procedures.countercharge.states",
    "procedures.countercharge.facing",
    "procedures.countercharge.charge_bonus",
)
PROCEDURES = ("breakthrough", "pursuit", "counterattack", "countercharge")
# Settings worded by a key of their own for each value.
OWN_VALUES = ("procedures.countercharge.facing", "procedures.countercharge.charge_bonus")


def reference(scenario: Scenario, state: State | None) -> dict[str, Any]:
    """Every chart of hex-facing for ``scenario`` (its overrides applied)."""
    t = T.tables_for(scenario)
    raw = T.raw_for(scenario)
    return R.reference(
        "hex-facing",
        [
            R.terrain_section(scenario, PREFIX, HEADINGS, note_params=_note_params(t)),
            _drm_section("melee", t.melee, raw["melee_modifiers"]),
            _force_ratio(t, raw),
            _drm_section("fire", t.fire, raw["fire_modifiers"]),
            _fire_table(t),
            _melee_table(t),
            _procedures(scenario, raw),
            _settings(scenario, t, raw),
            _movement(scenario),
            R.los_section(scenario),
            _sequence(scenario),
            _turn(scenario),
        ],
    )


def _note_params(t: T.CombatTables) -> dict[str, dict[str, Any]]:
    """The numbers of note (b) of the terrain table, as the melee lines read them."""
    b = t.notes["b"]
    return {
        "b": {
            "attacking": R.signed(b["attacking_from"]),
            "cavalry": R.signed(b["cavalry_defender"]),
        }
    }


HEADINGS = {
    "gen": label("ref.col.mp", unit_types=["leader"]),
    "inf": label("ref.col.mp", unit_types=["infantry"]),
    "cav": label("ref.col.mp", unit_types=["cavalry"]),
    "art": label("ref.col.mp", unit_types=["artillery"]),
    "fire": label("ref.col.hf_fire"),
    "melee": label("ref.col.hf_melee"),
}


def _drm_section(kind: str, rows: Mapping[str, T.DrmRow], raw: Mapping[str, Any]) -> Any:
    """The melee or fire DRM table: condition, kind, value (or what computes it), rule."""
    cols = [
        column("condition", label("ref.col.condition"), "head"),
        column("kind", label("ref.col.kind"), "text"),
        column("value", label("ref.col.drm"), "signed"),
        column("rule", label("ref.col.rule"), "text"),
    ]
    out = []
    notes = []
    for r in rows.values():
        if r.id in OWN_WORDS[kind] or r.id == "reaction_or_counter_battery":
            head = label(f"ref.hf_{kind}.{r.id}")
        else:
            head = label(f"{kind}.{r.id}")
        if isinstance(r.value, str):
            value: Any = label(f"ref.hf_value.{r.value}")
        elif r.params.get("per_hex"):
            value = label("ref.per_hex", value=r.value)
        else:
            value = r.value
        cells = {
            "condition": head,
            "kind": label(f"ref.hf_kind.{r.params['kind']}"),
            "value": value,
            # the rule of the row, when it is not the table's own
            "rule": label("ref.rule", rule=r.rule) if r.rule != raw["rule"] else None,
        }
        marks = {}
        mark = r.params.get("footnote")
        if isinstance(mark, str):
            marks["condition"] = [mark]
            nid = anchor(kind, "note", R.mark_name(mark))
            params = (
                {
                    "value": R.signed(int(r.value)),
                    "rear": R.signed(int(rows["rear"].value)),
                }
                if r.id == "front_and_rear"
                else {}
            )
            key = f"ref.hf_{kind}_note.{R.mark_name(mark)}"
            notes.append(R.note(nid, mark, label(key, **params)))
        out.append(row(anchor(kind, r.id), cells, marks=marks))
    title = label(f"ref.section.hf_{kind}")
    return section(f"{kind}-modifiers", title, cols, out, rule=raw["rule"], notes=notes)


def _ratio_id(ratio: str) -> str:
    return anchor("force-ratio", ratio)


def _force_ratio(t: T.CombatTables, raw: Mapping[str, Any]) -> Any:
    """The force ratio table (8.6), rounded in the defender's favour (default)."""
    cols = [
        column("ratio", label("ref.col.ratio"), "head"),
        column("drm", label("ref.col.drm"), "signed"),
    ]
    rows = []
    last = len(t.force_ratio) - 1
    for i, r in enumerate(t.force_ratio):
        key = "ref.ratio_or_more" if i == 0 else "ref.ratio_or_worse" if i == last else "ref.ratio"
        rows.append(row(_ratio_id(r.ratio), {"ratio": label(key, ratio=r.ratio), "drm": r.drm}))
    rounding = raw["force_ratio"]["rounding"]
    intro = [
        R.setting_note(
            "force-ratio-rounding", label(f"ref.hf.rounding.{rounding['value']}"), rounding
        )
    ]
    title = label("ref.section.hf_force_ratio")
    return section("force-ratio", title, cols, rows, rule=raw["force_ratio"]["rule"], intro=intro)


def band(r: ResultRow) -> Any:
    """A row's span of totals in words: "15 or more", "9 to 12", "8 or less"."""
    if r.low is None:
        return label("ref.band.at_most", value=r.high)
    if r.high is None:
        return label("ref.band.at_least", value=r.low)
    if r.low == r.high:
        return r.low
    return label("ref.band.range", low=r.low, high=r.high)


def band_id(table: str, r: ResultRow) -> str:
    """The anchor of a results row: its table and span."""
    low = "min" if r.low is None else r.low
    high = "max" if r.high is None else r.high
    return anchor(table, low, high)


def result_cell(cell: ResultCell) -> Any:
    """A results cell in words: its codes, and the cavalry's (italic) codes and when."""
    codes = list(cell.codes) or ["none"]
    if cell.cavalry is None:
        return label("ref.codes", codes=codes)
    cavalry = list(cell.cavalry) or ["none"]
    if cell.when is not None:
        return label(f"ref.hf_cavalry_{cell.when}", codes=codes, cavalry_codes=cavalry)
    return label("ref.hf_cavalry_or", codes=codes, cavalry_codes=cavalry)


def _fire_table(t: T.CombatTables) -> Any:
    """The fire table: die + fire strength + DRM, and the result."""
    cols = [
        column("total", label("ref.col.hf_fire_total"), "head"),
        column("result", label("ref.col.result"), "text"),
    ]
    rows = [
        row(band_id("fire-table", r), {"total": band(r), "result": result_cell(r.cells["result"])})
        for r in t.fire_table
    ]
    return section("fire-table", label("ref.section.hf_fire_table"), cols, rows, rule="fire table")


def _melee_table(t: T.CombatTables) -> Any:
    """The melee and charge results table: modified roll, defender, attacker."""
    cols = [
        column("roll", label("ref.col.hf_melee_roll"), "head"),
        column("defender", label("ref.col.defender"), "text"),
        column("attacker", label("ref.col.attacker"), "text"),
    ]
    rows = []
    for r in t.melee_table:
        cells = {"roll": band(r)}
        cells |= {side: result_cell(r.cells[side]) for side in ("defender", "attacker")}
        rows.append(row(band_id("melee-table", r), cells))
    title = label("ref.section.hf_melee_table")
    return section("melee-table", title, cols, rows, rule="melee results table")


def _procedures(scenario: Scenario, raw: Mapping[str, Any]) -> Any:
    """The procedures the results name (8.7, 9.4, 9.5): not in the aid, so defaults here; one
    a scenario changes is said to be changed, its settings in the combat settings."""
    cols = [
        column("procedure", label("ref.col.procedure"), "head"),
        column("what", label("ref.col.happens"), "text"),
        column("rule", label("ref.col.rule"), "text"),
    ]
    rows = []
    for name in PROCEDURES:
        p = raw["procedures"][name]
        changed = R.overridden(scenario, "combat", "procedures", name)
        what = "ref.hf_procedure_changed" if changed else f"ref.hf_procedure_what.{name}"
        cells = {
            "procedure": label(f"ref.hf_procedure.{name}"),
            "what": label(what),
            "rule": label("ref.rule", rule=p["rule"]),
        }
        flags = (["default"] if p.get("default") else []) + (["override"] if changed else [])
        rows.append(row(anchor("procedure", name), cells, flags))
    return section("procedures", label("ref.section.hf_procedures"), cols, rows)


def _node(raw: Mapping[str, Any], path: str) -> tuple[Any, bool]:
    """A setting of combat.json at a dotted ``path``: its value, and whether a node on the way
    is marked default."""
    here: Any = raw
    default = False
    for key in path.split("."):
        default = default or (isinstance(here, Mapping) and here.get("default") is True)
        here = here[key]
    if isinstance(here, Mapping):
        default = default or here.get("default") is True
        if "value" in here:
            here = here["value"]
    return here, default


def _setting_value(path: str, value: Any, t: T.CombatTables) -> Any:
    """A setting of combat.json in words (or the die in numbers)."""
    if path == "die":
        faces = t.die.faces
        return label("ref.die", sides=len(faces), low=faces[0], high=faces[-1])
    if path == "retreat_blocked.becomes":
        return label("ref.hf.retreat_blocked", failed=list(value))
    if path == "fire_modifiers.firer_types":
        return label("ref.unit_types", unit_types=list(value))
    if path in ("fire_modifiers.long_range_limit", *(f"procedures.{n}.units" for n in PROCEDURES)):
        return int(value)
    if path == "procedures.pursuit.failed":
        return label("ref.joined", items=[label(f"effect.{e}") for e in value])
    if path == "procedures.countercharge.reaction":
        return R.yes_no(bool(value))
    if path == "procedures.countercharge.by":
        return label("ref.unit_types", unit_types=list(value))
    if path in ("procedures.countercharge.against", "procedures.countercharge.states"):
        word = "status" if path.endswith("states") else "ref.hf.against"
        items = [label(f"{word}.{v}") for v in value]
        return label("ref.joined", items=items) if items else label("ref.setting.none")
    if path in OWN_VALUES:
        return label(f"ref.hf_setting.{path.replace('.', '_')}_{value}")
    return label(f"ref.setting.{value}")


def _settings(scenario: Scenario, t: T.CombatTables, raw: Mapping[str, Any]) -> Any:
    """How the rules read what the aid leaves open (combat.json's marked defaults, with the
    scenario's own: ``overrides.combat``)."""
    rows = []
    for path in SETTINGS:
        value, default = _node(raw, path)
        head = label(f"ref.hf_setting.{path.replace('.', '_')}")
        flags = ["default"] if default else []
        if R.overridden(scenario, "combat", *path.split(".")):
            flags.append("override")
        rows.append(
            R.setting_row(
                anchor("setting", path.replace(".", "_")),
                head,
                _setting_value(path, value, t),
                flags,
            )
        )
    title = label("ref.section.combat_settings")
    return section("combat-settings", title, R.setting_columns(), rows)


def _movement(scenario: Scenario) -> Any:
    """The movement settings (movement.json with the scenario's overrides)."""
    m = movement_settings(scenario)
    f = R.movement_flags
    rows = [
        R.setting_row(
            "movement-combination",
            label("ref.move.combination"),
            label(f"ref.setting.{m['hex_terrain_combination']['rule']}"),
            f(scenario, "hex_terrain_combination"),
        ),
        R.setting_row(
            "movement-road-enemy",
            label("ref.move.road_next_to_enemy"),
            label("ref.cell.prohibited")
            if m["road"]["adjacent_enemy_forbids_road"]
            else label("ref.allowed"),
            f(scenario, "road", "adjacent_enemy_forbids_road", "adjacent_enemy_default"),
            rule=m["road"]["rule"],
        ),
        R.setting_row(
            "movement-road-crossing",
            label("ref.move.road_crossing"),
            m["road"]["prohibited_crossing_extra"],
            f(scenario, "road", "prohibited_crossing_extra", "prohibited_crossing_default"),
        ),
        R.setting_row(
            "movement-road-level",
            label("ref.move.road_level"),
            R.yes_no(m["level_prohibition_cancelled_by_road"]["value"]),
            f(scenario, "level_prohibition_cancelled_by_road", "value"),
        ),
        R.setting_row(
            "movement-steep-slope",
            label("ref.move.steep_slope_levels"),
            m["steep_slope_impassable_levels"],
            f(scenario, "steep_slope_impassable_levels"),
        ),
        *R.zoc_and_stacking_rows(scenario, m),
    ]
    cols = R.setting_columns(with_rule=True)
    return section("movement", label("ref.section.movement"), cols, rows)


def _sequence(scenario: Scenario) -> Any:
    """The sequence of play: each turn's phases, and the steps of a formation's activation."""
    data = scenario_sequence(scenario)
    phases = [p["phase"] for p in data["turn"]]
    steps = {"activation": ("formation_steps", list(data["formation_steps"]))}
    rows = R.sequence_rows(
        scenario, _sequence_file(), phases, "turn", "step.", "ref.hf_seq.", steps
    )
    title = label("ref.section.sequence")
    return section("sequence", title, R.sequence_columns(), rows)


def _sequence_file() -> Mapping[str, Any]:
    return play.sequence_data(FOLDER)


def scenario_sequence(scenario: Scenario) -> Mapping[str, Any]:
    """The sequence settings in force (sequence.json with the scenario's overrides)."""
    return play.settings(scenario, FOLDER)


def _turn(scenario: Scenario) -> Any:
    """The settings of the turn: its count, formations without orders, squares, rally, victory."""
    s = scenario_sequence(scenario)
    data = _sequence_file()

    def flags(*path: str) -> list[str]:
        return R.sequence_flags(scenario, data, *path)

    rows = [
        R.setting_row("turn-turns", label("ref.turns"), s["turns"], flags("turns")),
        R.setting_row(
            "turn-no-orders-move",
            label("ref.hf_turn.no_orders_move"),
            label("ref.factor", factor=s["no_orders"]["movement_factor"]),
            flags("no_orders", "movement_factor"),
        ),
        R.setting_row(
            "turn-no-orders-melee",
            label("ref.hf_turn.no_orders_melee"),
            label("ref.allowed") if s["no_orders"]["may_melee"] else label("ref.cell.prohibited"),
            flags("no_orders", "may_melee"),
        ),
        R.setting_row(
            "turn-square",
            label("ref.hf_turn.square"),
            R.label("ref.unit_types", unit_types=[s["square"]["who"]]),
            flags("square"),
        ),
        R.setting_row(
            "turn-rally-leader",
            label("ref.hf_turn.rally_leader"),
            s["rally"]["modifier_adjacent_leader"],
            flags("rally", "modifier_adjacent_leader"),
        ),
        R.setting_row(
            "turn-rally-leader-range",
            label("ref.hf_turn.rally_leader_range"),
            s["rally"]["leader_range"],
            flags("rally", "leader_range"),
        ),
        R.setting_row(
            "turn-rally-not-adjacent",
            label("ref.hf_turn.rally_not_adjacent"),
            R.yes_no(s["rally"]["not_adjacent_to_enemy"]),
            flags("rally", "not_adjacent_to_enemy"),
        ),
        R.setting_row(
            "turn-victory-objectives",
            label("ref.hf_turn.objective_points"),
            R.yes_no(s["victory"]["objective_points"]),
            flags("victory", "objective_points"),
        ),
        R.setting_row(
            "turn-victory-routed",
            label("ref.hf_turn.routed_points"),
            s["victory"]["routed_unit_points"],
            flags("victory", "routed_unit_points"),
        ),
    ]
    return section("turn", label("ref.section.turn"), R.setting_columns(), rows)


# -- where a preview's lines come from ----------------------------------------------------------


def line_ref(line: Mapping[str, Any]) -> str | None:
    """The reference row a modifier line of a fire or melee comes from."""
    key = str(line.get("key", ""))
    params = line.get("params", {})
    table, _, name = key.partition(".")
    if table not in ("melee", "fire"):
        return None
    chart = T.load_tables().chart
    if key in NOTE_B_LINES:
        return anchor("terrain-note", "b")
    if name == "force_ratio":
        return _ratio_id(str(params.get("ratio")))
    if name == "level":
        row = level_row(-int(params.get("level", 0)))
        return anchor("terrain", row) if row else None
    if name in TERRAIN_LINES:
        what = params.get("terrain", params.get("feature"))
        return anchor("terrain", chart.row(str(what)).id)
    if table == "fire" and name in ("reaction", "counter_battery"):
        return anchor("fire", "reaction_or_counter_battery")
    return anchor(table, name)


def with_refs(parts: Any) -> list[dict[str, Any]]:
    """Modifier lines as JSON, each naming its reference row (``ref``)."""
    return R.with_refs(parts, line_ref)
