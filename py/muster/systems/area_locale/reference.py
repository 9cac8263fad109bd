"""The area-locale rules reference: no dice, so no results table of chances; the costs in
commands, the approaches (their widths and the map's terrain effects), the assault and its
result, retreats, bombardment, the settings the notes leave open and the sequence of play,
all read from what the rules read (``pieces.COMMANDS``, ``assault.ASSAULT``,
``areamap.LEADING``, ``sequence.json`` with the scenario's overrides, the scenario's map).
"""

from __future__ import annotations

from typing import Any

from ... import reference as R
from ...areamap import APPROACH_FLAGS, LEADING, AreaScenario
from ...reference import anchor, column, label, row, section
from . import pieces as P
from .assault import ASSAULT

State = dict[str, Any]
# Settings of sequence.json the settings chart lists: (row, path to the setting).
SETTINGS = (
    ("blocker_to", ("blocker_to", "value")),
    ("blocked_attack", ("blocked_attack", "attacker_to")),
    ("losses", ("losses", "overflow")),
    ("pursuit", ("pursuit", "by")),
    ("army_step", ("army_morale", "points_per_step")),
    ("army_demoralized", ("army_morale", "demoralized_at")),
    ("reveal", ("reveal", "until")),
)


def reference(scenario: AreaScenario, state: State | None) -> dict[str, Any]:
    """Every chart of area-locale for ``scenario`` (its overrides and its map)."""
    return R.reference(
        "area-locale",
        [
            _commands(scenario),
            _widths(),
            _approaches(scenario),
            _assault(scenario),
            _results(),
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
    for name, cost in P.COMMANDS.items():
        rows.append(
            row(anchor("command", name), {"move": label(f"ref.al_cmd.{name}"), "cost": cost})
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


def _widths() -> Any:
    """What an approach's width and its flags do."""
    cols = [
        column("kind", label("ref.col.approach"), "head"),
        column("effect", label("ref.col.effects"), "text"),
    ]
    rows = [
        row(
            anchor("width", width),
            {
                "kind": label(f"ref.al_width.{width}"),
                "effect": label("ref.al_leading", n=leading),
            },
        )
        for width, leading in LEADING.items()
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
    narrow, wide = LEADING["narrow"], LEADING["wide"]
    steps = [
        (
            "lead",
            label("ref.al_assault.lead", narrow=narrow, wide=wide, steps=ASSAULT["strong_steps"]),
            [],
        ),
        (
            "artillery",
            label("ref.al_assault.artillery", per_step=s["artillery_fire"]["per_step"]),
            _flags(scenario, "artillery_fire", "per_step"),
        ),
        ("defence", label("ref.al_assault.defence", narrow=narrow, wide=wide), []),
        ("result", label("ref.al_assault.result"), []),
        ("losses", label("ref.al_assault.losses"), []),
        (
            "pursuit",
            label(
                "ref.al_assault.pursuit",
                narrow=narrow,
                wide=wide,
                n=ASSAULT["pursuer_loss"],
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


def _results() -> Any:
    """The assault's result: who wins, and the steps each side loses."""
    cols = [
        column("result", label("ref.col.result"), "head"),
        column("winner", label("ref.col.winner"), "text"),
        column("winner_loss", label("ref.col.winner_loss"), "number"),
        column("loser_loss", label("ref.col.loser_loss"), "text"),
    ]
    loser = label("ref.al_loser_loss", n=ASSAULT["loser_loss"])
    wins = ASSAULT["wins_at"]
    rows = [
        row(
            "assault-result-attacker",
            {
                "result": label("ref.band.at_least", value=wins),
                "winner": label("ui.attacker"),
                "winner_loss": ASSAULT["winner_loss"],
                "loser_loss": loser,
            },
        ),
        row(
            "assault-result-defender",
            {
                "result": label("ref.band.at_most", value=wins - 1),
                "winner": label("ui.defender"),
                "winner_loss": ASSAULT["winner_loss"],
                "loser_loss": loser,
            },
        ),
    ]
    intro = [R.note("assault-result-formula", "", label("ref.al_assault.result"))]
    title = label("ref.section.al_results")
    return section("assault-results", title, cols, rows, intro=intro)


def _retreats(scenario: AreaScenario) -> Any:
    """Where the defenders of a lost locale go, and what each group loses."""
    s = P.settings(scenario)
    cols = [
        column("who", label("ref.col.who"), "head"),
        column("what", label("ref.col.happens"), "text"),
    ]
    rows = [
        row(anchor("retreat", who), {"who": label(f"ref.al_retreat.{who}"), "what": what}, flags)
        for who, what, flags in (
            ("artillery", label("ref.al_retreat_what.eliminated"), []),
            ("attacked_approach", label("ref.al_retreat_what.no_loss"), []),
            ("other_approach", label("ref.al_retreat_what.one_step"), []),
            ("reserve", label("ref.al_retreat_what.one_step_not_cavalry"), []),
            (
                "cannot",
                label(f"ref.al_retreat_what.{s['retreat']['cannot']}"),
                _flags(scenario, "retreat", "cannot"),
            ),
        )
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
        shown: Any = value if isinstance(value, int) else label(f"ref.setting.{value}")
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
