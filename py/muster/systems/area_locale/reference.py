"""The area-locale rules reference: no dice, so no results table of chances; the costs in
commands, the approaches (their widths and the map's terrain effects), the assault and its
result, retreats, bombardment, the settings the notes leave open and the sequence of play,
all read from what the rules read: the settings of ``sequence.json`` with the scenario's
overrides (``position.settings``), and the scenario's map.
"""

from __future__ import annotations

from typing import Any

from ... import reference as R
from ...areamap import APPROACH_FLAGS, WIDTHS, AreaScenario
from ...reference import anchor, column, label, row, section
from . import position as P
from . import tables
from .state import AreaLocaleState

State = AreaLocaleState  # the state's shape (state.py)
# Settings of sequence.json the settings chart lists: (row, path to the setting). A value is
# worded ``ref.al_value.<key>.<value>`` (a number is shown as it is).
SETTINGS = (
    ("group", ("group", "from")),
    ("cavalry_follow", ("cavalry_follow", "group")),
    ("through_blocked", ("maneuver", "through_blocked_border")),
    ("blocked_attack", ("blocked_attack", "attacker_to")),
    ("artillery_from", ("artillery_fire", "from")),
    ("pursuit", ("pursuit", "by")),
    ("army_step", ("army_morale", "points_per_step")),
    ("army_demoralized", ("army_morale", "demoralized_at")),
    ("reveal", ("reveal", "until")),
    ("objectives", ("victory", "objectives")),
)


def reference(scenario: AreaScenario, state: State | None) -> dict[str, Any]:
    """Every chart of area-locale for ``scenario`` (its overrides and its map)."""
    return R.reference(
        "area-locale",
        [
            _commands(scenario),
            _widths(scenario),
            _approaches(scenario),
            _assault(scenario),
            _results(scenario),
            _retreats(scenario),
            _bombardment(scenario),
            _settings(scenario),
            _sequence(scenario),
        ],
    )


def _flags(scenario: AreaScenario, *path: str) -> list[str]:
    return R.sequence_flags(scenario, P.sequence_data(), *path)


def _commands(scenario: AreaScenario) -> Any:
    """What each move costs in commands, and how many a player turn has."""
    s = P.settings(scenario)
    cols = [
        column("move", label("ref.col.move"), "head"),
        column("cost", label("ref.col.commands"), "number"),
    ]
    rows = [
        row(
            "command-per-turn",
            {"move": label("ref.al_cmd.per_turn"), "cost": s["commands"]["per_turn"]},
            _flags(scenario, "commands", "per_turn"),
        )
    ]
    for name, cost in s["costs"].items():
        if name in tables.NOTES:
            continue
        rows.append(
            row(
                anchor("command", name),
                {"move": label(f"ref.al_cmd.{name}"), "cost": cost},
                _flags(scenario, "costs", name),
            )
        )
    road = s["road"]
    for kind in ("primary", "secondary"):
        rows.append(
            row(
                anchor("command-road", kind),
                {"move": label(f"ref.al_cmd.road_{kind}"), "cost": road[f"{kind}_cost"]},
                _flags(scenario, "road", f"{kind}_cost"),
            )
        )
    rows.append(
        row(
            "command-cavalry-follow",
            {"move": label("ref.al_cmd.cavalry_follow"), "cost": s["cavalry_follow"]["cost"]},
            _flags(scenario, "cavalry_follow", "cost"),
        )
    )
    intro = [
        R.note(
            "command-road-limits",
            "",
            label("ref.al_road", areas=road["areas"], pieces=road["pieces_per_turn"]),
            _flags(scenario, "road", "areas"),
        )
    ]
    title = label("ref.section.al_commands")
    return section("commands", title, cols, rows, intro=intro)


def _widths(scenario: AreaScenario) -> Any:
    """What an approach's width and its flags do."""
    leading = P.settings(scenario)["leading"]
    cols = [
        column("kind", label("ref.col.approach"), "head"),
        column("effect", label("ref.col.effects"), "text"),
    ]
    rows = [
        row(
            anchor("width", width),
            {
                "kind": label(f"ref.al_width.{width}"),
                "effect": label("ref.al_leading", n=leading[width]),
            },
            _flags(scenario, "leading", width),
        )
        for width in WIDTHS
    ]
    rows += [
        row(
            anchor("approach-flag", flag),
            {"kind": label(f"ref.al_flag.{flag}"), "effect": label(f"ref.al_flag_effect.{flag}")},
        )
        for flag in sorted(APPROACH_FLAGS)
    ]
    return section("approach-kinds", label("ref.section.al_widths"), cols, rows)


def _approaches(scenario: AreaScenario) -> Any:
    """The map's approaches: each border of a locale, its width, terrain effect and flags, by
    the names of the locales."""
    cols = [
        column("approach", label("ref.col.approach"), "head"),
        column("width", label("ref.col.width"), "text"),
        column("effect", label("ref.col.terrain_effect"), "number"),
        column("flags", label("ref.col.flags"), "text"),
    ]
    rows = []
    names = {lid: loc.name for lid, loc in scenario.locales.items()}
    # By the locales' names, as a player looks them up on the map.
    ordered = sorted(
        scenario.approaches.values(), key=lambda a: (names[a.locale], names[a.facing], a.id)
    )
    for a in ordered:
        flags = [label(f"ref.al_flag.{f}") for f in sorted(a.flags)]
        cells = {
            "approach": label("ref.approach", approach=a.id),
            "width": label(f"ref.al_width.{a.width}"),
            "effect": a.effect,
            "flags": label("ref.joined", items=flags) if flags else None,
        }
        rows.append(row(anchor("approach", a.locale, a.facing), cells))
    return section("approaches", label("ref.section.al_approaches"), cols, rows)


def _assault(scenario: AreaScenario) -> Any:
    """The steps of an assault, with the notes' numbers and the defaults read."""
    s = P.settings(scenario)
    lead = s["leading"]
    narrow, wide = lead["narrow"], lead["wide"]
    fire = s["artillery_fire"]

    def leading(role: str) -> dict[str, Any]:
        """The words of one side's leading pieces: how many, which types, mixed or not, and
        whether one needs 2 or more steps (the notes: the attacker's only)."""
        strong = (
            label("ref.al_strong.some", steps=lead["strong_steps"])
            if role in lead["strong_for"]
            else label("ref.al_strong.any")
        )
        mixed = label("ref.al_mixed.yes" if lead["mixed"] else "ref.al_mixed.no")
        return {
            "narrow": narrow,
            "wide": wide,
            "unit_types": lead["types"],
            "first": mixed,
            "second": strong,
        }

    steps = [
        ("lead", label("ref.al_assault.lead", **leading("attacker")), _flags(scenario, "leading")),
        (
            "artillery",
            label(
                "ref.al_assault.artillery",
                per_step=fire["per_step"],
                where=label(f"ref.al_value.artillery_fire.{fire['from']}"),
            ),
            _flags(scenario, "artillery_fire", "from"),
        ),
        (
            "defence",
            label("ref.al_assault.defence", **leading("defender")),
            _flags(scenario, "leading"),
        ),
        ("result", label("ref.al_assault.result"), []),
        ("losses", label("ref.al_assault.losses"), []),
        (
            "pursuit",
            label(
                "ref.al_assault.pursuit",
                narrow=narrow,
                wide=wide,
                n=s["losses"]["pursuer"],
                who=label(f"ref.al_value.pursuit.{s['pursuit']['by']}"),
            ),
            _flags(scenario, "pursuit", "by"),
        ),
        ("after", label("ref.al_assault.after"), []),
    ]
    cols = [
        column("step", label("ref.col.step"), "head"),
        column("what", label("ref.col.happens"), "text"),
    ]
    rows = [
        row(anchor("assault", name), {"step": i, "what": what}, flags)
        for i, (name, what, flags) in enumerate(steps, 1)
    ]
    intro = [R.note("assault-where", "", label("ref.al_assault.where"))]
    title = label("ref.section.al_assault")
    return section("assault", title, cols, rows, intro=intro)


def _results(scenario: AreaScenario) -> Any:
    """The assault's result: who wins, and the steps each side loses."""
    s = P.settings(scenario)
    losses = s["losses"]
    cols = [
        column("result", label("ref.col.result"), "head"),
        column("winner", label("ref.col.winner"), "text"),
        column("winner_loss", label("ref.col.winner_loss"), "number"),
        column("loser_loss", label("ref.col.loser_loss"), "text"),
    ]
    loser = label("ref.al_loser_loss", n=losses["loser"])
    wins = s["assault"]["wins_at"]
    flags = _flags(scenario, "assault") or _flags(scenario, "losses")
    rows = [
        row(
            "assault-result-attacker",
            {
                "result": label("ref.band.at_least", value=wins),
                "winner": label("ui.attacker"),
                "winner_loss": losses["winner"],
                "loser_loss": loser,
            },
            flags,
        ),
        row(
            "assault-result-defender",
            {
                "result": label("ref.band.at_most", value=wins - 1),
                "winner": label("ui.defender"),
                "winner_loss": losses["winner"],
                "loser_loss": loser,
            },
            flags,
        ),
    ]
    intro = [R.note("assault-result-formula", "", label("ref.al_assault.result"))]
    title = label("ref.section.al_results")
    return section("assault-results", title, cols, rows, intro=intro)


def _retreats(scenario: AreaScenario) -> Any:
    """Where the defenders of a lost locale go, and what each group loses."""
    rule = P.settings(scenario)["retreat"]
    cols = [
        column("who", label("ref.col.who"), "head"),
        column("what", label("ref.col.happens"), "text"),
    ]

    def loss(n: int, spared: list[str] | None = None) -> Any:
        if n == 0:
            return label("ref.al_retreat_what.no_loss")
        if spared:
            return label("ref.al_retreat_what.steps_but", n=n, unit_types=spared)
        return label("ref.al_retreat_what.steps", n=n)

    eliminated = label("ref.al_retreat.types", unit_types=rule["eliminated"])
    rows = [
        row(anchor("retreat", who), {"who": name, "what": what}, flags)
        for who, name, what, flags in (
            (
                "artillery",
                eliminated,
                label("ref.al_retreat_what.eliminated"),
                _flags(scenario, "retreat", "eliminated"),
            ),
            *(
                (
                    where,
                    label(f"ref.al_retreat.{where}"),
                    loss(rule[where], rule["reserve_spared"] if where == "reserve" else None),
                    _flags(scenario, "retreat", where),
                )
                for where in ("attacked_approach", "other_approach", "reserve")
            ),
            # A reading of the rules file ("A piece that cannot retreat is eliminated
            # (default)"), with no other choice: not a setting.
            (
                "cannot",
                label("ref.al_retreat.cannot"),
                label("ref.al_retreat_what.eliminated"),
                ["default"],
            ),
        )
        if who != "artillery" or rule["eliminated"]
    ]
    intro = [R.note("retreat-where", "", label("ref.al_retreat_where"))]
    title = label("ref.section.al_retreats")
    return section("retreats", title, cols, rows, intro=intro)


def _bombardment(scenario: AreaScenario) -> Any:
    """Artillery bombardment: declared, fired the next turn, its loss and its target."""
    s = P.settings(scenario)
    rows = [
        R.setting_row(
            "bombard-declare", label("ref.al_bombard.declare"), label("ref.al_bombard.declare_when")
        ),
        R.setting_row(
            "bombard-loss", label("ref.al_bombard.loss"), label("ref.al_bombard.loss_what")
        ),
        R.setting_row(
            "bombard-reserve",
            label("ref.al_bombard.reserve"),
            s["reserve_effect"]["value"],
            _flags(scenario, "reserve_effect", "value"),
        ),
        R.setting_row(
            "bombard-target", label("ref.al_bombard.target"), label("ref.al_bombard.target_order")
        ),
    ]
    title = label("ref.section.al_bombardment")
    return section("bombardment", title, R.setting_columns(), rows)


def _settings(scenario: AreaScenario) -> Any:
    """What the notes leave open, as the rules read it (sequence.json, defaults)."""
    s = P.settings(scenario)
    rows = []
    for name, (key, sub) in SETTINGS:
        value = s[key][sub]
        number = isinstance(value, int) and not isinstance(value, bool)
        shown: Any = value if number else label(f"ref.al_value.{key}.{str(value).lower()}")
        rows.append(
            R.setting_row(
                anchor("setting", name),
                label(f"ref.al_setting.{name}"),
                shown,
                _flags(scenario, key, sub),
            )
        )
    title = label("ref.section.al_settings")
    return section("settings", title, R.setting_columns(), rows)


def _sequence(scenario: AreaScenario) -> Any:
    """The player turn's phases in order, and the number of turns."""
    return R.player_turn_section(
        scenario, P.sequence_data(), P.settings(scenario), "al_phase.", "ref.al_seq."
    )
