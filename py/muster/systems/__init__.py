"""The rule systems: one folder each, and the registry the core asks about them.

Each folder's package (``systems/<folder>/__init__.py``) exports ``SYSTEM``, its
:class:`System`: its id, kind of map, rules, tables and what the editor and the rules reference
offer of it. The core never imports a system's package, nor names a system: it asks here
(``get(system).map_kind``, ``game_rules(system)``). ``FOLDERS`` is the one list of the systems
the core ships; a system of another package joins with :func:`register`.

>>> ids()
('hex-facing', 'hex-hexside', 'area-locale')
>>> get("area-locale").map_kind
'areas'
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from importlib import import_module
from pathlib import Path
from typing import Any

from ..errors import RulesError

HERE = Path(__file__).parent
# The one list of the systems the core ships: each id and its folder here (its data files and
# its code; its package exports its System as SYSTEM), in the order the lists show them.
FOLDERS = {"hex-facing": "hex_facing", "hex-hexside": "hex_hexside", "area-locale": "area_locale"}

Label = dict[str, Any]  # {"key": message key, "params": {...}} (muster.reference.label)
# What the rules cannot play of a scenario's sequence overrides: (dotted path, problem key, its
# params), or None.
Problem = tuple[str, str, dict[str, Any]]


@dataclass(frozen=True, slots=True)
class Setting:
    """One value of a system's own table that the editor offers: its path below the table,
    its default, its words, and the values it may take where they are a closed set."""

    path: tuple[str, ...]
    default: Any
    words: Label
    choices: tuple[Any, ...] | None = None


@dataclass(frozen=True, slots=True)
class Table:
    """A table of a system's own a scenario may override (``overrides.<name>``) beyond those
    the core reads (terrain, line of sight, movement, sequence): hex-facing's combat defaults.

    ``check`` refuses a bad override (``ScenarioError`` naming the place); ``settings`` lists
    its values for the editor."""

    check: Callable[[Any], None]
    settings: Callable[[], list[Setting]]


@dataclass(frozen=True, slots=True)
class OwnerTable:
    """A table the owner of the printed game enters, which the system does not ship (it ships
    a stand-in): hex-hexside's combat results table, ``overrides.crt`` of a scenario and
    option ``crt`` of a new game.

    ``check`` refuses a scenario's (``ScenarioError``, or ``InvalidActionError`` over a
    limit); ``info`` is ``check_crt``'s answer for the UI (``RulesError`` if malformed);
    ``stand_in`` the table shipped in its place, the editor's default."""

    check: Callable[[Any], None]
    info: Callable[[Any], dict[str, Any]]
    stand_in: Callable[[], Any]


@dataclass(frozen=True, slots=True)
class Editor:
    """What the scenario editor offers for a system beyond what its data files say: the unit
    types in the order it lists them, the facings a unit may take (none: units have no
    facing), formations, a unit's approach (area maps), the words of settings (``(table,
    *path)`` -> label, for settings the rules reference words) and the headings of its terrain
    chart's columns (hex maps)."""

    unit_types: tuple[str, ...]
    facing: tuple[int, int] | None = None
    formations: bool = False
    approach: bool = False
    words: Mapping[tuple[str, ...], Label] = field(default_factory=dict)
    headings: Callable[[], Mapping[str, Label]] | None = None


# The computer player's reading of a position: (scenario, state, side) -> how good the
# position is for ``side`` (higher is better; the scale is the system's own).
Evaluate = Callable[[Any, Any, str], float]


@dataclass(frozen=True, slots=True)
class System:
    """A rule system as the core sees it.

    - ``id``: its name in a scenario file (``"system"``); ``folder``: the name of its data
      folder, ``home``: where it is (``data_path``).
    - ``map_kind``: ``"hex"`` (``hexmap``) or ``"areas"`` (``areamap``).
    - ``rules``: its ``muster.ruleset.Ruleset`` (None: only its board tools work);
      ``movement``: its ``muster.movement.StepRules`` (hex maps; None on an area map).
    - ``army_morale``: how a side's army morale is written (``sides[].army_morale``):
      ``"levels"``, ``"number"`` or None.
    - ``pieces``, ``leading``: an area map's piece types with their most steps, and its
      leading pieces by the approach's width by default.
    - ``tables``: its own tables a scenario may override, by name (:class:`Table`);
      ``owner_table``: the owner's combat results table it reads (:class:`OwnerTable`);
      ``sequence_problem``: what its rules cannot play of a scenario's sequence overrides
      (the loader has checked their keys and kinds).
    - ``editor``: what the editor offers (:class:`Editor`).
    - ``terrain_chart``: the rule its combat lines name its terrain chart by, in the rules
      reference ("" without one).
    - ``evaluate``: the computer player's reading of a position (:data:`Evaluate`), None
      where the system has none yet; ``threat``: what each side could do to the other at its
      next turn (its fire, the objectives it could take), in the same units
      (:data:`Evaluate`), read by the levels that look at the other side's turn (None: the
      system has no such reading); ``assault``: the same for the close combats each side
      could make at its next turn; ``strikes``: ``(scenario, state, side) -> [place]``, the
      places that side could strike at its next turn, the worthiest first, for the advisor to
      say which an action guards or readies (None: it says neither).
    """

    id: str
    folder: str
    home: Path
    map_kind: str
    rules: Any
    movement: Any
    editor: Editor
    army_morale: str | None = None
    pieces: Mapping[str, int] = field(default_factory=dict)
    leading: Mapping[str, int] = field(default_factory=dict)
    tables: Mapping[str, Table] = field(default_factory=dict)
    owner_table: OwnerTable | None = None
    sequence_problem: Callable[[Any], Problem | None] | None = None
    terrain_chart: str = ""
    evaluate: Evaluate | None = None
    threat: Evaluate | None = None
    assault: Evaluate | None = None
    strikes: Callable[[Any, Any, str], list[str]] | None = None


# Systems of other packages, registered by id (the shipped ones are read from FOLDERS).
_REGISTERED: dict[str, System] = {}
# The shipped systems' descriptors, by id, once their packages are imported.
_SHIPPED: dict[str, System] = {}


def register(system: System) -> None:
    """Add ``system`` to the systems the core plays (after the shipped ones).

    Raises:
        ValueError: a system of that id, or with that folder's name, is there already.
    """
    if system.id in ids():
        raise ValueError(f"a system {system.id!r} is registered already")
    folders = [*FOLDERS.values(), *(s.folder for s in _REGISTERED.values())]
    if system.folder in folders:
        raise ValueError(f"a system's folder is named {system.folder!r} already")
    _REGISTERED[system.id] = system


def unregister(system: str) -> None:
    """Remove the registered ``system`` (a shipped one stays).

    Raises:
        KeyError: no such registered system.
    """
    del _REGISTERED[system]


def ids() -> tuple[str, ...]:
    """Every system's id: the shipped ones in ``FOLDERS``' order, then those registered."""
    return (*FOLDERS, *_REGISTERED)


def get(system: str) -> System:
    """The :class:`System` of id ``system`` (a shipped one's package is imported on first use).

    Raises:
        KeyError: no such system.
    """
    if system in _REGISTERED:
        return _REGISTERED[system]
    found = _SHIPPED.get(system)
    if found is None:
        found = _SHIPPED[system] = import_module(f"{__name__}.{FOLDERS[system]}").SYSTEM
    return found


def folder(system: str) -> str:
    """The name of ``system``'s data folder.

    >>> folder("hex-facing")
    'hex_facing'

    Raises:
        KeyError: no such system.
    """
    if system in _REGISTERED:
        return _REGISTERED[system].folder
    return FOLDERS[system]


def home(name: str) -> Path:
    """Where the data folder ``name`` is (a registered system's own; else ``systems/<name>``)."""
    for s in _REGISTERED.values():
        if s.folder == name:
            return s.home
    return HERE / name


def data_path(system: str, name: str) -> Path:
    """The data file ``name`` of ``system`` (in its folder; it may not exist).

    >>> data_path("area-locale", "sequence.json").relative_to(HERE).as_posix()
    'area_locale/sequence.json'

    Raises:
        KeyError: no such system.
    """
    return home(folder(system)) / name


def movement_rules(system: str) -> Any:
    """The ``StepRules`` of ``system``."""
    return get(system).movement


def game_rules(system: str) -> Any:
    """The ``Ruleset`` that plays ``system``.

    Raises:
        RulesError: the system cannot be played yet (its board tools still work).
        KeyError: no such system.
    """
    rules = get(system).rules
    if rules is None:
        raise RulesError("error.no_play", "play of {system} is not available yet", system=system)
    return rules


def playable(system: str) -> bool:
    """True if ``system`` has a ruleset to play (not only its board tools)."""
    try:
        return get(system).rules is not None
    except KeyError:
        return False
