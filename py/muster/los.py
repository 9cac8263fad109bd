"""Line of sight and range: exact segment-versus-hexside geometry with elevation.

The line joins the centres of two hexes. Every test is exact integer arithmetic in cube
coordinates, so a result never depends on which end the line is drawn from. Where the line
runs along a hexside or through a vertex, the ``vertex`` rule of the system's ``los.json``
decides (docs/line-of-sight.md).

>>> [c.hex for c in trace(Hex(0, 0, 0), Hex(0, 2, -2))]
[Hex(q=0, r=0, s=0), Hex(q=0, r=1, s=-1), Hex(q=0, r=2, s=-2)]
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from types import MappingProxyType
from typing import Any, Literal

from .errors import ScenarioError
from .hexgrid import HEX_DIRECTIONS, Hex, Hexside, hex_distance
from .hexmap import Scenario, hexside_features
from .parsing import brief
from .systems import data_path
from .terrain import charted, load_chart

VertexRule = Literal["both", "either"]
VERTEX_RULES = ("both", "either")
_SETTING_KEYS = {"value", "source", "default", "why"}
_FEATURE_KEYS = ("blocks_adjacent", "height")
# Direction k of HEX_DIRECTIONS as (axis, sign): its dot product with a cube vector v is
# sign * (v.q - v.r, 2 v.q + v.r, v.q + 2 v.r)[axis].
_AXES = ((0, 1), (1, 1), (2, 1), (0, -1), (1, -1), (2, -1))


class LosDataError(ValueError):
    """A malformed ``los.json`` or override; the message names the place. For a scenario's
    override: ``at``, the path below ``overrides.los`` (``.hex_obstacles.woods``), and
    ``problem``, the key of its words (``muster.problems``) with ``params``; a malformed
    ``los.json`` of the system is ``problem.los_data``."""

    def __init__(
        self, message: str, at: str = "", problem: str = "problem.los_data", **params: Any
    ) -> None:
        self.at, self.problem, self.params = at, problem, params
        super().__init__(message)


@dataclass(frozen=True, slots=True)
class LosConfig:
    """What blocks a line of sight in one system: obstacles, hexside rules, vertex rule."""

    system: str
    vertex: VertexRule
    eye_height: int
    hex_obstacles: Mapping[str, int] = field(hash=False)
    hexside_heights: Mapping[str, int] = field(hash=False)
    adjacent_blocking: frozenset[str] = frozenset()


@dataclass(frozen=True, slots=True)
class Crossing:
    """One step of a traced line: the hex entered, the hexside crossed into it, and where.

    ``ambiguous`` marks a step reached along a hexside or through a vertex. ``alternatives``
    are then the two hexes either side of the hexside the line runs along (``hex`` is the
    smaller of them, or the hex after them), or the one hex whose corner the line touches.
    """

    hex: Hex
    hexside: Hexside | None
    t: float
    ambiguous: bool = False
    alternatives: tuple[Hex, ...] = ()


@dataclass(frozen=True, slots=True)
class LosResult:
    """The answer to a line-of-sight question, with the first thing that blocks it."""

    clear: bool
    range: int
    blocked_by: Mapping[str, Any] | None
    path: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        """The result as plain JSON."""
        return {
            "clear": self.clear,
            "range": self.range,
            "blocked_by": json.loads(json.dumps(self.blocked_by)),
            "path": list(self.path),
        }


def hex_range(a: Hex, b: Hex) -> int:
    """The range in hexes from ``a`` to ``b`` (counting ``b``, not ``a``).

    >>> hex_range(Hex(0, 0, 0), Hex(2, -1, -1))
    2
    """
    return hex_distance(a, b)


def _setting(node: Any, place: str) -> Any:
    """The value of one annotated setting, after checking its source or default note."""
    if not isinstance(node, dict) or "value" not in node:
        raise LosDataError(f'{place}: expected {{"value": ...}}')
    unknown = set(node) - _SETTING_KEYS
    if unknown:
        raise LosDataError(f"{place}: unknown key {sorted(unknown)[0]!r}")
    if node.get("default") is True:
        if not isinstance(node.get("why"), str) or not node["why"]:
            raise LosDataError(f'{place}: a default needs a "why"')
    elif not isinstance(node.get("source"), str) or not node["source"]:
        raise LosDataError(f'{place}: needs a "source", or "default": true and a "why"')
    return node["value"]


def parse_los_data(data: Any) -> dict[str, Any]:
    """The plain values of a ``los.json`` object, each checked for its source or default.

    Raises:
        LosDataError: if a key is unknown or a value has no source and no "why".
    """
    if not isinstance(data, dict):
        raise LosDataError("los: expected a JSON object")
    unknown = set(data) - {"system", "source", "notes", "vertex", "eye_height"}
    unknown -= {"hex_obstacles", "hexside_features"}
    if unknown:
        raise LosDataError(f"los: unknown key {sorted(unknown)[0]!r}")
    obstacles = data.get("hex_obstacles", {})
    features = data.get("hexside_features", {})
    if not isinstance(obstacles, dict) or not isinstance(features, dict):
        raise LosDataError("los: hex_obstacles and hexside_features must be JSON objects")
    plain_features = {}
    for name, spec in features.items():
        if not isinstance(spec, dict):
            raise LosDataError(f"hexside_features.{name}: expected a JSON object")
        plain_features[name] = {
            k: _setting(v, f"hexside_features.{name}.{k}") for k, v in spec.items()
        }
    return {
        "vertex": _setting(data.get("vertex"), "vertex"),
        "eye_height": _setting(data.get("eye_height"), "eye_height"),
        "hex_obstacles": {k: _setting(v, f"hex_obstacles.{k}") for k, v in obstacles.items()},
        "hexside_features": plain_features,
    }


def _shown(value: Any, limit: int = 60) -> str:
    """``value`` as JSON for a message, cut short (an override may hold anything)."""
    text = json.dumps(value[:limit] if isinstance(value, str) else value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _options(options: Any) -> str:
    """The values a setting may take, for a message: each as JSON, with commas."""
    return ", ".join(_shown(o) for o in options)


def _whole(value: Any, place: str, allow_none: bool = False) -> int | None:
    """A whole number (or None where allowed)."""
    if value is None and allow_none:
        return None
    if not isinstance(value, int) or isinstance(value, bool):
        message = f"{place}: expected a whole number, got {_shown(value)}"
        raise LosDataError(message, f".{place}", "problem.whole", got=_shown(value))
    return value


def _build(system: str, plain: Mapping[str, Any]) -> LosConfig:
    """Check plain values against the system's chart and build the config."""
    vertex = plain["vertex"]
    if vertex not in VERTEX_RULES:
        message = f'vertex: expected "both" or "either", got {_shown(vertex)}'
        raise LosDataError(message, ".vertex", "problem.one_of", options=_options(VERTEX_RULES))
    eye = _whole(plain["eye_height"], "eye_height")
    terrains = load_chart(system).names("hex")
    obstacles = {}
    for name, height in plain["hex_obstacles"].items():
        place = f"hex_obstacles.{brief(name)}"
        if name not in terrains:
            message = f"{place}: unknown terrain {_shown(name)}"
            raise LosDataError(message, f".{place}", "problem.unknown_terrain", got=_shown(name))
        h = _whole(height, place, allow_none=True)
        if h is not None and h < 0:
            message = f"{place}: a height cannot be below 0"
            raise LosDataError(message, f".{place}", "problem.at_least", least=0)
        if h:
            obstacles[name] = h
    known = hexside_features(system)
    heights: dict[str, int] = {}
    adjacent = set()
    for name, spec in plain["hexside_features"].items():
        place = f"hexside_features.{brief(name)}"
        if name not in known:
            message = f"{place}: unknown hexside feature {_shown(name)}"
            raise LosDataError(message, f".{place}", "problem.unknown_feature", got=_shown(name))
        if not isinstance(spec, Mapping) or set(spec) - set(_FEATURE_KEYS):
            message = f"{place}: expected the keys {', '.join(_FEATURE_KEYS)}"
            keys = _options(_FEATURE_KEYS)
            raise LosDataError(message, f".{place}", "problem.keys_of", options=keys)
        blocks = spec.get("blocks_adjacent", False)
        if not isinstance(blocks, bool):
            message = f"{place}.blocks_adjacent: expected true or false"
            raise LosDataError(message, f".{place}.blocks_adjacent", "problem.bool")
        if blocks:
            adjacent.add(name)
        h = _whole(spec.get("height"), place + ".height", allow_none=True)
        if h is not None:
            heights[name] = h
    return LosConfig(
        system,
        vertex,
        eye or 0,
        MappingProxyType(obstacles),
        MappingProxyType(heights),
        frozenset(adjacent),
    )


@cache
def los_values(system: str) -> Mapping[str, Any]:
    """The plain values of a system's shipped ``los.json``, each checked for its source.

    Raises:
        LosDataError: if the file is malformed or a value has no source and no "why".
        ValueError: if the system is unknown.
    """
    if not charted(system):
        raise ValueError(f"unknown system {system!r}")
    path = data_path(system, "los.json")
    data = json.loads(path.read_text(encoding="utf-8"))
    if data.get("system") != system:
        raise LosDataError(f"los: file is for system {json.dumps(data.get('system'))}")
    return MappingProxyType(parse_los_data(data))


@cache
def _default_config(system: str) -> LosConfig:
    return _build(system, los_values(system))


def los_config(system: str, overrides: Mapping[str, Any] | None = None) -> LosConfig:
    """The line-of-sight rules of ``system``, with plain-value ``overrides`` on top.

    >>> los_config("hex-facing", {"vertex": "either"}).vertex
    'either'

    Raises:
        LosDataError: if the data or an override is malformed (names the place).
        ValueError: if the system is unknown.
    """
    if overrides is None:
        return _default_config(system)
    if not isinstance(overrides, Mapping):
        raise LosDataError("override: expected a JSON object", "", "problem.object")
    if not overrides:
        return _default_config(system)
    base = los_values(system)
    unknown = set(overrides) - {"vertex", "eye_height", "hex_obstacles", "hexside_features"}
    if unknown:
        first = sorted(unknown)[0]
        message = f"override: unknown key {first[:40]!r}"
        raise LosDataError(message, "", "problem.unknown_key", got=_shown(first))
    for key in ("hex_obstacles", "hexside_features"):
        if not isinstance(overrides.get(key, {}), Mapping):
            raise LosDataError(
                f"override {key}: expected a JSON object", f".{key}", "problem.object"
            )
    plain = dict(base)
    for key in ("vertex", "eye_height"):
        if key in overrides:
            plain[key] = overrides[key]
    plain["hex_obstacles"] = {**base["hex_obstacles"], **overrides.get("hex_obstacles", {})}
    features = {k: dict(v) for k, v in base["hexside_features"].items()}
    for name, spec in overrides.get("hexside_features", {}).items():
        if not isinstance(spec, Mapping):
            message = f"override hexside_features.{name}: expected a JSON object"
            at = f".hexside_features.{brief(name)}"
            raise LosDataError(message, at, "problem.object")
        features[name] = {**features.get(name, {}), **spec}
    plain["hexside_features"] = features
    return _build(system, plain)


# Walk events (exact parameters t = num / den along the segment):
#   ("x", h, n, num, den)                     crosses the side h|n into n's interior
#   ("v", h, n, c, num, den)                  passes a vertex from h into n, touching c
#   ("e", h, n1, n2, k, num, den, num2, den2) runs along the side n1|n2 (n1 < n2) from h,
#                                             reaching the far hex k at t = num2 / den2
_Event = tuple[Any, ...]


def _walk(a: Hex, b: Hex) -> list[_Event]:
    """The exact events of the segment from the centre of ``a`` to the centre of ``b``."""
    aq, ar = a.q, a.r
    dq, dr = b.q - aq, b.r - ar
    dv = (dq - dr, 2 * dq + dr, dq + 2 * dr)
    # The directions the line moves towards: their sides are the ones it can leave by.
    exits = [(k, axis, sign, sign * dv[axis]) for k, (axis, sign) in enumerate(_AXES)]
    exits = [e for e in exits if e[3] > 0]
    out: list[_Event] = []
    hq, hr, h = aq, ar, a
    bq, br = b.q, b.r
    while hq != bq or hr != br:
        oq, orr = aq - hq, ar - hr
        ov = (oq - orr, 2 * oq + orr, oq + 2 * orr)
        best_k = tie_k = -1
        best_num = best_den = tie_den = 0
        for k, axis, sign, den in exits:
            num = 1 - sign * ov[axis]  # leaves by side k at t = num / den
            if best_k < 0 or num * best_den < best_num * den:
                best_k, best_num, best_den, tie_k = k, num, den, -1
            elif num * best_den == best_num * den:
                tie_k, tie_den = k, den
        e1 = HEX_DIRECTIONS[best_k]
        n1 = Hex(hq + e1.q, hr + e1.r, -hq - hr + e1.s)
        if tie_k < 0:
            out.append(("x", h, n1, best_num, best_den))
            h = n1
        else:
            e2 = HEX_DIRECTIONS[tie_k]
            n2 = Hex(hq + e2.q, hr + e2.r, -hq - hr + e2.s)
            # A vertex of h, shared with n1 and n2: the line goes on into the one it moves
            # towards faster, or along the side n1|n2 when it moves towards both alike.
            if best_den > tie_den:
                out.append(("v", h, n1, n2, best_num, best_den))
                h = n1
            elif tie_den > best_den:
                out.append(("v", h, n2, n1, best_num, best_den))
                h = n2
            else:
                far = Hex(n1.q + e2.q, n1.r + e2.r, n1.s + e2.s)
                axis, sign = _AXES[tie_k]
                o1 = (aq - n1.q, ar - n1.r)
                num2 = 1 - sign * (o1[0] - o1[1], 2 * o1[0] + o1[1], o1[0] + 2 * o1[1])[axis]
                lo, hi = (n1, n2) if n1 < n2 else (n2, n1)
                out.append(("e", h, lo, hi, far, best_num, best_den, num2, tie_den))
                h = far
        hq, hr = h.q, h.r
    return out


def trace(a: Hex, b: Hex) -> list[Crossing]:
    """The hexes and hexsides a segment from the centre of ``a`` to that of ``b`` passes.

    The first step is ``a`` itself (no hexside, t 0) and the last is ``b``.

    >>> for c in trace(Hex(0, 0, 0), Hex(2, -1, -1)):  # along the side (1,-1)|(1,0)
    ...     print((c.hex.q, c.hex.r), round(c.t, 3), [(x.q, x.r) for x in c.alternatives])
    (0, 0) 0.0 []
    (1, -1) 0.333 [(1, -1), (1, 0)]
    (2, -1) 0.667 [(1, -1), (1, 0)]
    """
    steps = [Crossing(a, None, 0.0)]
    for ev in _walk(a, b):
        kind, h = ev[0], ev[1]
        if kind == "x":
            n, num, den = ev[2:]
            steps.append(Crossing(n, Hexside.between(h, n), num / den))
        elif kind == "v":
            n, c, num, den = ev[2:]
            steps.append(Crossing(n, Hexside.between(h, n), num / den, True, (c,)))
        else:
            n1, n2, k, num, den, num2, den2 = ev[2:]
            pair = (n1, n2)
            steps.append(Crossing(n1, Hexside.between(h, n1), num / den, True, pair))
            steps.append(Crossing(k, Hexside.between(n1, k), num2 / den2, True, pair))
    return steps


class _Sight:
    """One line-of-sight question: the line's heights and the tests of what it meets."""

    __slots__ = ("sc", "cfg", "a", "b", "la", "rise", "d", "dd", "adjacent", "sides")

    def __init__(self, sc: Scenario, cfg: LosConfig, a: Hex, b: Hex) -> None:
        self.sc, self.cfg, self.a, self.b = sc, cfg, a, b
        self.la = sc.hexes[a].level + cfg.eye_height
        self.rise = sc.hexes[b].level + cfg.eye_height - self.la
        self.d = (b.q - a.q, b.r - a.r, b.s - a.s)
        self.dd = self.d[0] ** 2 + self.d[1] ** 2 + self.d[2] ** 2
        self.adjacent = hex_distance(a, b) == 1
        self.sides = bool(sc.hexsides) and bool(cfg.adjacent_blocking or cfg.hexside_heights)

    def above(self, top: int, num: int, den: int) -> bool:
        """Whether level ``top`` is strictly higher than the line at t = num / den."""
        return (top - self.la) * den > self.rise * num

    def line(self, num: int, den: int) -> float:
        """The line's height at t = num / den."""
        return self.la + self.rise * num / den

    def hex(self, h: Hex, num: int, den: int) -> dict[str, Any] | None:
        """What blocks in hex ``h`` (entered at t = num / den), tested at its centre."""
        data = self.sc.hexes.get(h)
        if data is None or (h.q == self.b.q and h.r == self.b.r):
            return None
        a, d = self.a, self.d
        pn = (h.q - a.q) * d[0] + (h.r - a.r) * d[1] + (h.s - a.s) * d[2]
        pn, pd = min(max(pn, 0), self.dd), self.dd  # the centre projected on the line
        level, heights = data.level, self.cfg.hex_obstacles
        if self.above(level, pn, pd):
            reason = "los.blocked.higher_ground"
            extra: dict[str, Any] = {"kind": "elevation", "level": level, "reason": reason}
        else:
            # The highest obstacle of the hex; the first listed of equal ones.
            height, first = max((heights.get(t, 0), -i) for i, t in enumerate(data.terrain))
            if not height or not self.above(level + height, pn, pd):
                return None
            terrain = data.terrain[-first]
            extra = {"kind": "hex", "terrain": terrain, "top": level + height}
            extra["reason"] = "los.blocked.terrain"
        base = {"hex": self.sc.label(h), "t": num / den, "line": self.line(pn, pd)}
        return {"kind": extra.pop("kind"), **base, **extra}

    def side(self, h: Hex, n: Hex, num: int, den: int) -> dict[str, Any] | None:
        """What blocks on the hexside from ``h`` into ``n``, crossed at t = num / den."""
        if not self.sides:
            return None
        data = self.sc.hexsides.get(Hexside.between(h, n))
        if data is None:
            return None
        label = f"{self.sc.label(h)}/{self.sc.label(n)}"
        base = {"kind": "hexside", "hexside": label, "t": num / den}
        if self.adjacent:
            for f in data.features:
                if f in self.cfg.adjacent_blocking:
                    return {**base, "feature": f, "reason": f"los.blocked.{f}_adjacent"}
        for f in data.features:
            height = self.cfg.hexside_heights.get(f)
            if height is None:
                continue
            if data.up is not None:
                ground = self.sc.hexes[data.up].level
            else:
                ground = max(self.sc.hexes[h].level, self.sc.hexes[n].level)
            if self.above(ground + height, num, den):
                line = self.line(num, den)
                extra = {"top": ground + height, "line": line, "reason": f"los.blocked.{f}"}
                return {**base, "feature": f, **extra}
        return None

    def choose(self, one: dict[str, Any] | None, two: dict[str, Any] | None) -> Any:
        """The block of an ambiguous stretch from its two alternatives, by the vertex rule."""
        if one is None or two is None:
            if self.cfg.vertex == "both":
                return None
            only = one or two
            return None if only is None else {**only, "vertex": True}
        first, last = (one, two) if one["t"] <= two["t"] else (two, one)
        if self.cfg.vertex == "either":
            return {**first, "vertex": True}
        return {**last, "vertex": True, "other": first}


def _on_map(sc: Scenario, where: str | Hex) -> Hex:
    """The on-map hex named by a printed label or given as a Hex."""
    if isinstance(where, str):
        return sc.hex_at(where)
    if where not in sc.hexes:
        raise ScenarioError(f"hex {sc.label(where)}", "problem.off_map", id=sc.label(where))
    return where


def line_of_sight(
    scenario: Scenario,
    a: str | Hex,
    b: str | Hex,
    config: LosConfig | Mapping[str, Any] | None = None,
) -> LosResult:
    """Whether hex ``b`` can be seen from hex ``a``, the range, and what blocks the line.

    ``config`` is the system's rules (default: its ``los.json``) or plain-value overrides.

    Raises:
        ScenarioError: if ``a`` or ``b`` is malformed or off the map.
        LosDataError: if ``config`` is a malformed override or for another system.
    """
    ha, hb = _on_map(scenario, a), _on_map(scenario, b)
    if not isinstance(config, LosConfig):
        config = los_config(scenario.system, config)
    elif config.system != scenario.system:
        raise LosDataError(f"los config is for {config.system}, not {scenario.system}")
    sight = _Sight(scenario, config, ha, hb)
    hexes = scenario.hexes
    path = [ha]
    blocked = None
    for ev in _walk(ha, hb):
        kind, h = ev[0], ev[1]
        if kind == "x":
            n, num, den = ev[2:]
            path.append(n)
            if blocked is None:
                blocked = sight.side(h, n, num, den) or sight.hex(n, num, den)
        elif kind == "v":
            n, c, num, den = ev[2:]
            path.append(n)
            if blocked is None:
                corner = sight.side(h, c, num, den) or sight.hex(c, num, den)
                corner = corner or sight.side(c, n, num, den)
                blocked = sight.choose(sight.side(h, n, num, den), corner)
                blocked = blocked or sight.hex(n, num, den)
        else:
            n1, n2, k, num, den, num2, den2 = ev[2:]
            path += [n1 if n1 in hexes or n2 not in hexes else n2, k]
            if blocked is None:
                one = sight.side(h, n1, num, den) or sight.hex(n1, num, den)
                two = sight.side(h, n2, num, den) or sight.hex(n2, num, den)
                one = one or sight.side(n1, k, num2, den2)
                two = two or sight.side(n2, k, num2, den2)
                blocked = sight.choose(one, two) or sight.hex(k, num2, den2)
    labels = tuple(scenario.label(h) for h in path)
    return LosResult(blocked is None, hex_distance(ha, hb), blocked, labels)
