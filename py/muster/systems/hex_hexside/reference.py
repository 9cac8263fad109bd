"""The hex-hexside rules reference: the terrain effects chart and its combining rule, leaving an
enemy ZOC, the combat results table in play (the stand-in or the owner's) and its codes, the
close combat DRM, the aid's 12 steps of close combat, rally, deep charges, morale and combat
results, the settings of combat, movement and line of sight, and the sequence of play, all
read from the tables the rules read (``terrain.json``, ``combat.json``, ``movement.json``,
``los.json``, ``sequence.json``), with the scenario's overrides.

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
from ...terrain import UnknownTerrainError, load_chart
from . import combat
from . import tables as T
from .state import HexHexsideState

State = HexHexsideState  # the state's shape (state.py)
PREFIX = "hh"
FOLDER = "hex_hexside"
COMBAT_COLUMNS = {"inf": "infantry", "cav": "cavalry"}
# The rows of the leaving-an-enemy-ZOC table, worded by the movement breakdown's keys.
ZOC_KEYS = {
    "support": "move.zoc_exit_support",
    "prussian_cavalry_engaged": "move.zoc_exit_engaged_prussian_cavalry",
    "other_fast_engaged": "move.zoc_exit_engaged_fast",
}
# The close combat DRM of sequence.json ("drm"), in the order the aid's step 5 lists them.
DRM_ROWS = (
    "lead_morale_difference",
    "disordered_lead",
    "routed_lead",
    "leader_with_lead",
    "winning_combat_marker",
    "shock",
)
# The DRM lines of a preview, by key, and the row of DRM_ROWS each comes from.
DRM_LINES = {
    "drm.morale": "lead_morale_difference",
    "drm.leader": "leader_with_lead",
    "drm.wcm": "winning_combat_marker",
    "drm.shock": "shock",
}
# Settings of sequence.json the combat settings chart lists: (row, path to the setting).
COMBAT_SETTINGS = (
    ("r", ("results", "r")),
    ("S", ("results", "S")),
    ("second_disorder", ("results", "second_disorder")),
    ("no_retreat", ("results", "no_retreat")),
    ("losses_to", ("results", "losses_to")),
    ("leader_loss", ("leader_loss", "lost_on")),
    ("extended_attack", ("extended_attack", "once_per_turn")),
    ("bombard_range", ("bombardment", "range")),
    ("bombard_adjacent", ("bombardment", "not_adjacent_to_enemy")),
    ("bombard_results", ("bombardment", "attacker_results")),
    ("bombard_hexside", ("bombardment", "hexside")),
    ("army_step", ("army_morale", "points_per_step")),
    ("army_leader", ("army_morale", "points_per_leader")),
    ("army_broken", ("army_morale", "broken_ends_game")),
)


def reference(scenario: Scenario, state: State | None) -> dict[str, Any]:
    """Every chart of hex-hexside for ``scenario`` (its overrides applied), with the combat
    results table of the game in play (the one chosen at New game, or the scenario's own;
    before a game, the scenario's own or the stand-in)."""
    # before a game: the scenario's own table, if it has one
    crt = combat.crt_info({}, scenario) if state is None else state.get("crt")
    t = combat.tables_of(scenario, {"crt": crt})
    raw = T.raw_tables()
    return R.reference(
        "hex-hexside",
        [
            _terrain(scenario),
            _zoc_exit(scenario),
            _crt(t, raw, crt or {}),
            _codes(t),
            _drm(scenario),
            _combat_sequence(t, raw),
            _rally(t, raw),
            _deep_charge(t, raw),
            _morale(t, raw),
            _combat_settings(scenario),
            _movement(scenario),
            R.los_section(scenario),
            _sequence(scenario),
        ],
    )


def _terrain(scenario: Scenario) -> Any:
    """The terrain effects chart, with its combining rule said first."""
    m = movement_settings(scenario)
    types: dict[str, list[str]] = {}
    for unit_type, col in m["unit_columns"].items():
        types.setdefault(col, []).append(unit_type)
    headings = {col: label("ref.col.mp", unit_types=names) for col, names in types.items()}
    headings |= {c: label("ref.col.attack", unit_type=u) for c, u in COMBAT_COLUMNS.items()}
    headings["bomb"] = label("ref.col.bombardment")
    found = R.terrain_section(scenario, PREFIX, headings)
    chart = R.chart_in_force(scenario)
    found["intro"] = [
        R.note(anchor("terrain-combining", what), "", label(f"ref.setting.{how}"))
        for what, how in chart.combining.items()
    ]
    return found


def _zoc_exit(scenario: Scenario) -> Any:
    """The aid's table of the cost of leaving an enemy ZOC."""
    chart = R.chart_in_force(scenario)
    cols = [
        column("who", label("ref.col.who"), "head"),
        column("mp", label("ref.col.extra_mp"), "number"),
    ]
    rows = []
    for z in chart.leaving_enemy_zoc:
        head: Any = label(ZOC_KEYS[z.id])
        if z.condition is not None:
            head = label("ref.with_condition", item=head, condition=label(f"ref.{z.condition}"))
        rows.append(row(anchor("zoc-exit", z.id), {"who": head, "mp": R.number(z.mp)}))
    m = movement_settings(scenario)
    intro = [
        R.note(
            "zoc-exit-unlisted",
            "",
            label(f"ref.setting.zoc_exit_{m['zoc_exit']['unlisted']}"),
            R.movement_flags(scenario, "zoc_exit", "unlisted"),
        )
    ]
    title = label("ref.section.hh_zoc_exit")
    return section("zoc-exit", title, cols, rows, rule="leaving an enemy ZOC", intro=intro)


def _crt(t: T.HexsideTables, raw: Mapping[str, Any], crt: Mapping[str, Any]) -> Any:
    """The combat results table in play: one row per die face, one column per odds."""
    cols = [column("roll", label("ref.col.roll"), "head")]
    cols += [column(anchor(c[0]), label("ref.column", column=c[0]), "text") for c in t.columns]
    flags = ["standin"] if t.stand_in else []
    rows = []
    for face in t.die.faces:
        cells: dict[str, Any] = {"roll": face}
        for name, _, _ in t.columns:
            codes = t.crt[face][name]
            cells[anchor(name)] = (
                label("ref.code", own_codes=" ".join(codes))
                if codes
                else label("ref.cell.no_effect")
            )
        rows.append(row(anchor("crt-roll", face), cells, flags))
    intro = []
    if crt.get("source") == "scenario":
        own = crt.get("name")
        words = (
            label("ref.hh_crt_scenario", name=own) if own else label("ref.hh_crt_scenario_unnamed")
        )
        intro.append(R.note("crt-own", "", words))
    elif crt.get("key"):
        intro.append(R.note("crt-own", "", label("ref.hh_crt_own", name=crt.get("name") or "")))
    if t.stand_in:
        intro.append(R.note("crt-stand-in", "", label("ui.crt_stand_in"), ["standin"]))
    limits = raw["crt"]["roll_limits"]
    intro.append(R.setting_note("crt-limits", label(f"ref.setting.roll_{limits['value']}"), limits))
    odds = raw["odds"]
    for what in ("strength", "rounding"):
        intro.append(
            R.setting_note(anchor("crt-odds", what), label(f"ref.setting.odds_{odds[what]}"), odds)
        )
    title = label("ref.section.hh_crt")
    return section("crt", title, cols, rows, rule="combat results table", flags=flags, intro=intro)


def _codes(t: T.HexsideTables) -> Any:
    """What each code of the table in play does, read from the table itself."""
    cols = [
        column("code", label("ref.col.code"), "head"),
        column("side", label("ref.col.who"), "text"),
        column("steps", label("ref.col.loss_points"), "number"),
        column("result", label("ref.col.result"), "text"),
    ]
    flags = ["standin"] if t.stand_in else []
    rows = []
    for code, entry in t.codes.items():
        side = entry["side"]
        result = entry.get("result")
        cells = {
            "code": label("ref.code", own_codes=code),
            "side": label(f"ref.side_role.{side}"),
            "steps": entry.get("steps", 0),
            "result": label(f"effect.hh_{result}") if result else None,
        }
        rows.append(row(anchor("crt-code", code), cells, flags))
    title = label("ref.section.hh_codes")
    return section("crt-codes", title, cols, rows, rule="combat results table", flags=flags)


def _sequence_file() -> Mapping[str, Any]:
    return play.sequence_data(FOLDER)


def _drm(scenario: Scenario) -> Any:
    """The close combat DRM beside the chart's terrain (sequence.json's "drm")."""
    s = combat.settings(scenario)["drm"]
    data = _sequence_file()
    cols = [
        column("condition", label("ref.col.condition"), "head"),
        column("value", label("ref.col.drm"), "signed"),
    ]
    rows = [
        row(
            "drm-terrain",
            {"condition": label("ref.hh_drm.terrain"), "value": label("ref.see_terrain")},
        )
    ]
    for name in DRM_ROWS:
        value = s[name]
        if name == "lead_morale_difference":
            value = label("ref.hh_drm_value.morale_difference") if value else label("ref.no")
        elif name == "shock":
            value = label(f"ref.hh_drm_value.{value}")
        cells = {"condition": label(f"ref.hh_drm.{name}"), "value": value}
        rows.append(row(anchor("drm", name), cells, R.sequence_flags(scenario, data, "drm", name)))
    return section("drm", label("ref.section.hh_drm"), cols, rows)


def _combat_sequence(t: T.HexsideTables, raw: Mapping[str, Any]) -> Any:
    """The aid's 12 steps of a close combat, in order."""
    cols = [column("step", label("ref.col.step"), "head")]
    rows = [
        row(
            anchor("combat-step", step),
            {"step": label("ref.numbered", n=i, item=label(f"hh_step.{step}"))},
        )
        for i, step in enumerate(t.sequence, 1)
    ]
    rule = raw["combat_sequence"]["rule"]
    return section("combat-sequence", label("ref.section.hh_steps"), cols, rows, rule=rule)


def _rally(t: T.HexsideTables, raw: Mapping[str, Any]) -> Any:
    """The rally modifiers, added to the unit's morale; the roll is a default."""
    cols = [
        column("condition", label("ref.col.condition"), "head"),
        column("value", label("ref.col.modifier"), "signed"),
    ]
    rows = []
    for r in t.rally:
        head = label("ref.hh_rally.leader") if r.value is None else label(f"rally.{r.id}")
        value = label("ref.hh_value.leader_mm") if r.value is None else r.value
        terrains = r.params.get("terrains")
        flags = ["default"] if isinstance(terrains, Mapping) and terrains.get("default") else []
        rows.append(row(anchor("rally", r.id), {"condition": head, "value": value}, flags))
    roll = raw["rally_roll"]
    intro = [R.setting_note("rally-roll", label(f"ref.hh_rally_roll.{roll['pass_if']}"), roll)]
    title = label("ref.section.hh_rally")
    return section("rally", title, cols, rows, rule=raw["rally_modifiers"]["rule"], intro=intro)


def _deep_charge(t: T.HexsideTables, raw: Mapping[str, Any]) -> Any:
    """Deep charges (19.11.1): the total a cavalry unit must reach to charge again."""
    cols = [
        column("total", label("ref.col.total"), "head"),
        column("need", label("ref.col.need"), "text"),
        column("result", label("ref.col.result"), "text"),
    ]
    cells = {
        "total": label("ref.hh_deep.total"),
        "need": label("ref.band.at_least", value=t.deep_charge_at_least),
        "result": label("effect.hh_must"),
    }
    rule = raw["deep_charges"]["rule"]
    rows = [row("deep-charge", cells)]
    return section("deep-charges", label("ref.section.hh_deep"), cols, rows, rule=rule)


def _morale(t: T.HexsideTables, raw: Mapping[str, Any]) -> Any:
    """The morale value's effects in combat, highest morale first."""
    cols = [
        column("morale", label("ref.col.morale"), "head"),
        column("effects", label("ref.col.effects"), "text"),
    ]
    rows = []
    for morale in sorted(t.morale, reverse=True):
        items = [label(f"ref.hh_morale.{f}") for f in sorted(t.morale[morale])]
        cells = {"morale": morale, "effects": label("ref.joined", items=items)}
        rows.append(row(anchor("morale", morale), cells))
    beyond = raw["morale_effects"]["beyond"]
    intro = [R.setting_note("morale-beyond", label("ref.hh_morale_beyond"), beyond)]
    rule = raw["morale_effects"]["rule"]
    title = label("ref.section.hh_morale")
    return section("morale", title, cols, rows, rule=rule, intro=intro)


def _setting(value: Any) -> Any:
    """A setting's value as the reference shows it: a number, yes or no, or its words."""
    if isinstance(value, bool):
        return R.yes_no(value)
    if isinstance(value, int | float):
        return R.number(value)
    if isinstance(value, list):
        return label("ref.numbers", items=[label("ref.number", value=v) for v in value])
    return label(f"ref.setting.{value}")


def _combat_settings(scenario: Scenario) -> Any:
    """How combat goes where the aid is silent (sequence.json, defaults)."""
    s = combat.settings(scenario)
    data = _sequence_file()
    rows = []
    for name, (key, sub) in COMBAT_SETTINGS:
        rows.append(
            R.setting_row(
                anchor("setting", name),
                label(f"ref.hh_setting.{name}"),
                _setting(s[key][sub]),
                R.sequence_flags(scenario, data, key, sub),
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
            "movement-road", label("ref.move.road_cost"), m["road"]["cost"], f(scenario, "road")
        ),
        *R.zoc_and_stacking_rows(scenario, m),
    ]
    return section("movement", label("ref.section.movement"), R.setting_columns(), rows)


def _sequence(scenario: Scenario) -> Any:
    """The player turn's phases in order, and the number of turns."""
    return R.player_turn_section(
        scenario, _sequence_file(), combat.settings(scenario), "hh_phase.", "ref.hh_seq."
    )


# -- where a preview's lines come from ----------------------------------------------------------


def line_ref(line: Mapping[str, Any]) -> str | None:
    """The reference row a DRM line of a close combat, bombardment, rally or deep charge comes
    from."""
    key = str(line.get("key", ""))
    params = line.get("params", {})
    if key in ("drm.terrain", "drm.hexside", "drm.prohibited"):
        what = str(params.get("terrain", params.get("feature")))
        try:
            return anchor("terrain", load_chart("hex-hexside").row(what).id)
        except UnknownTerrainError:
            return "terrain"
    if key == "drm.hh_morale" or (key == "drm.leader" and line.get("rule") != "default"):
        return "deep-charge"
    if key == "drm.lead_status":
        return anchor("drm", f"{params.get('status')}_lead")
    if key == "drm.no_shock":
        return anchor("terrain-note", "star") if params.get("cause") == "terrain" else "drm-shock"
    if key in DRM_LINES:
        return anchor("drm", DRM_LINES[key])
    if key.startswith("rally."):
        return anchor("rally", key.split(".", 1)[1])
    return None


def with_refs(parts: Any) -> list[dict[str, Any]]:
    """Modifier lines as JSON, each naming its reference row (``ref``)."""
    return R.with_refs(parts, line_ref)
