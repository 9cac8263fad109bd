#!/usr/bin/env python3
"""The screenshots of docs/editor.md, "Entering a battle": the scenario editor on the tablet
(820x1180, touch) and on a desktop (1280x800), written to docs/editor/.

Builds the site, serves it on localhost and, in headless Chromium, enters a small hex battle
by touch as a player does (a new map, terrain, a river and a slope, a road, names, elevation,
two units a side, a table value, a problem the status line names, a picture of the printed
map underneath aligned by two hexes), plays it with Play this, draws an area map of four
locales, and imports a small VASSAL module (made by tests/e2e/vmod.py) on the desktop. The
picture of the printed map is drawn here (a parchment map with a hex grid, woods, a town and
a river) and written as a PNG by tests/e2e/pngfile.py. The PNGs are squeezed with pngquant when
it is installed, else kept as Chromium writes them.

    python bench/editor_screenshots.py [--out docs/editor]
"""

from __future__ import annotations

import argparse
import math
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "py"), str(ROOT / "tests" / "e2e")]

from apppage import settle, tablet  # noqa: E402
from editorpage import (  # noqa: E402
    area_point,
    chain,
    hex_point,
    set_approach,
    side_points,
    wait_checked,
    wait_editor,
)
from playwright.sync_api import sync_playwright  # noqa: E402
from pngfile import encode_png  # noqa: E402
from touch import Fingers  # noqa: E402
from vmod import Grid, vmod  # noqa: E402

import build  # noqa: E402
from tests.conftest import chromium_launch_args  # noqa: E402

TIMEOUT_MS = 120_000
DESKTOP = {"viewport": {"width": 1280, "height": 800}, "device_scale_factor": 1}
SQRT3 = math.sqrt(3)

# The hex battle: a 10x8 map of flat hexes, printed 0101 to 1008, even columns half a hex lower.
COLUMNS, ROWS = 10, 8
RIVER = [("0302", "0402"), ("0303", "0402"), ("0303", "0403"), ("0304", "0403"), ("0304", "0404")]
SLOPE = ("0706", "0705")  # up first
ROAD = ["0106", "0205", "0305", "0404", "0504", "0604", "0704", "0803"]
WOODS = "0806"  # painted with a brush of radius 1 around it
TOWN = "0604"
MARSH = ["0207", "0208"]
HILL = {"0706": 1, "0707": 1, "0806": 2}
NAMES = {"0604": "Lindenau", "0303": "Weisse Elster"}
UNITS = ["0203", "0503", "0804", "0905"]
# The order of battle, pasted as from a spreadsheet (the first row names the columns).
OOB = (
    "name\tside\ttype\tstrength\tmorale\tmovement\n"
    "1st Brigade\tBlue\tinfantry\t6\t4\t4\n"
    "Hussars\tBlue\tcavalry\t3\t4\t6\n"
    "Grenadiers\tRed\tinfantry\t7\t5\t4\n"
    "Foot battery\tRed\tartillery\t2\t3\t3\n"
)


# ---- a picture of a printed map, drawn here ------------------------------------------------

PARCHMENT = (236, 222, 188)
INK = (120, 96, 64)
WATER = (70, 120, 190)
WOOD = (96, 140, 80)
BRICK = (170, 70, 50)
HEX_PX = 36  # the picture's hex: centre to corner, pixels
MARGIN = 30


def picture_center(label: str) -> tuple[float, float]:
    """Centre of a printed hex on the picture (flat hexes, even columns lower)."""
    c, r = int(label[:2]), int(label[2:])
    x = MARGIN + HEX_PX + (c - 1) * 1.5 * HEX_PX
    y = (
        MARGIN
        + SQRT3 / 2 * HEX_PX
        + (r - 1) * SQRT3 * HEX_PX
        + (SQRT3 / 2 * HEX_PX if c % 2 == 0 else 0)
    )
    return x, y


def picture_corners(label: str) -> list[tuple[float, float]]:
    x, y = picture_center(label)
    return [
        (x + HEX_PX * math.cos(math.pi / 3 * i), y + HEX_PX * math.sin(math.pi / 3 * i))
        for i in range(6)
    ]


class Canvas:
    """An RGB picture drawn pixel by pixel."""

    def __init__(self, width: int, height: int, colour: tuple[int, int, int]) -> None:
        self.width, self.height = width, height
        self.rows = [bytearray(bytes(colour) * width) for _ in range(height)]

    def dot(self, x: float, y: float, radius: float, colour: tuple[int, int, int]) -> None:
        reach = math.ceil(radius)
        cx, cy = round(x), round(y)
        for py in range(cy - reach, cy + reach + 1):
            for px in range(cx - reach, cx + reach + 1):
                inside = (px - x) ** 2 + (py - y) ** 2 <= radius**2
                if inside and 0 <= px < self.width and 0 <= py < self.height:
                    self.rows[py][3 * px : 3 * px + 3] = bytes(colour)

    def line(self, a, b, width: float, colour) -> None:
        n = max(1, int(math.dist(a, b) / 0.7))
        for i in range(n + 1):
            self.dot(a[0] + (b[0] - a[0]) * i / n, a[1] + (b[1] - a[1]) * i / n, width / 2, colour)

    def png(self) -> bytes:
        return encode_png(self.width, self.height, self.rows)


def shared_side(a: str, b: str) -> tuple[tuple[float, float], tuple[float, float]]:
    """The two corners two neighbouring hexes of the picture share."""
    pa, pb = picture_corners(a), picture_corners(b)
    both = [p for p in pa if any(math.dist(p, q) < 1 for q in pb)]
    return both[0], both[1]


def printed_map() -> bytes:
    """A parchment map of the battle's 10x8 hexes: the grid, woods, a town, the river, a road."""
    width = round(MARGIN * 2 + HEX_PX * (1.5 * (COLUMNS - 1) + 2))
    height = round(MARGIN * 2 + SQRT3 * HEX_PX * (ROWS + 0.5))
    cv = Canvas(width, height, PARCHMENT)
    for h in ["0805", "0806", "0807", "0906", "0706"]:  # woods: green dots
        x, y = picture_center(h)
        for i in range(7):
            a = i * 2 * math.pi / 7
            cv.dot(x + 16 * math.cos(a), y + 16 * math.sin(a), 6, WOOD)
        cv.dot(x, y, 6, WOOD)
    x, y = picture_center(TOWN)  # a town: red blocks
    for dx, dy in [(-10, -8), (6, -10), (-4, 8), (12, 6)]:
        cv.dot(x + dx, y + dy, 5, BRICK)
    labels = [f"{c:02d}{r:02d}" for c in range(1, COLUMNS + 1) for r in range(1, ROWS + 1)]
    for h in labels:
        corners = picture_corners(h)
        for i in range(6):
            cv.line(corners[i], corners[(i + 1) % 6], 1.4, INK)
    for a, b in zip(ROAD, ROAD[1:], strict=False):  # the road, centre to centre
        cv.line(picture_center(a), picture_center(b), 3, (150, 110, 60))
    for a, b in RIVER:
        p, q = shared_side(a, b)
        cv.line(p, q, 6, WATER)
    return cv.png()


# ---- the page --------------------------------------------------------------------------------


def squeeze(path: Path) -> None:
    """Make a PNG smaller with pngquant (a palette of at most 256 colours), if installed."""
    if not shutil.which("pngquant"):
        return
    subprocess.run(
        ["pngquant", "--quality=65-90", "--speed=1", "--strip", "--force", "--output", path, path],
        check=True,
    )


class Walk:
    """A page of the app and where its screenshots go."""

    def __init__(self, page: Any, out: Path) -> None:
        self.page = page
        self.out = out
        self.fingers = Fingers(page) if page.viewport_size["width"] < 900 else None

    def shot(self, name: str, clip: dict[str, float] | None = None) -> None:
        """A PNG of the page as it is now (settled: no change for half a second)."""
        settle(self.page)
        target = self.out / name
        self.page.screenshot(path=str(target), clip=clip)
        squeeze(target)
        width, height = build.png_size(target.read_bytes())
        print(f"{target}: {width}x{height}, {target.stat().st_size} bytes")

    def tap(self, selector: str) -> None:
        self.page.locator(selector).first.tap()

    def tool(self, tool: str) -> None:
        self.tap(f"#editor-tools [data-tool='{tool}']")

    def hex_point(self, label: str) -> tuple[float, float]:
        return hex_point(self.page, label)

    def map_point(self, x: float, y: float) -> tuple[float, float]:
        p = self.page.evaluate(
            "(p) => window.musterEditor.parts.map.map._mapToClient(p)", {"x": x, "y": y}
        )
        return p["x"], p["y"]

    def side_points(self, pairs: list[tuple[str, str]]) -> list[dict[str, Any]]:
        return side_points(self.page, pairs)

    def checked(self) -> None:
        wait_checked(self.page)

    def tab(self, name: str) -> None:
        self.tap(f"#editor-tab-{name}")
        self.page.wait_for_selector(f"#editor-panel-{name}:not([hidden])")

    def top(self) -> None:
        """Scroll the page and the side panel back to their tops."""
        self.page.evaluate(
            "() => { window.scrollTo(0, 0); for (const e of document.querySelectorAll("
            "'.editor-side, .editor-panel')) e.scrollTop = 0; }"
        )


def open_editor(page: Any, url: str) -> None:
    page.goto(url + "?lang=en&nosw")
    page.wait_for_selector("html[data-ready='1']", state="attached", timeout=TIMEOUT_MS)
    if page.viewport_size["width"] < 900:
        page.locator("#open-editor").tap()
    else:
        page.locator("#open-editor").click()
    wait_editor(page)


def new_dialog(w: Walk, system: str, fields: dict[str, str], asked: bool, shot: str | None) -> None:
    page = w.page
    w.tap("#editor-new")
    page.wait_for_selector("#editor-new-dialog[open]")
    page.select_option("#editor-new-system", system)
    for selector, value in fields.items():
        page.fill(selector, value)
    if shot:
        page.locator("#editor-new-title").blur()
        w.shot(shot)
    w.tap("#editor-new-ok")
    if asked:
        page.wait_for_selector("#ask[open]")
        page.locator("#ask-ok").tap()
    page.wait_for_function(
        "t => window.musterEditor.draft.scenario.title === t", arg=fields["#editor-new-title"]
    )
    page.wait_for_selector("#editor-new-dialog:not([open])", state="attached")
    w.checked()


def hex_battle(w: Walk) -> None:
    """The hex battle, by touch on the tablet, up to Play this."""
    page, fingers = w.page, w.fingers
    w.shot("editor-open.png")
    new_dialog(
        w,
        "hex-hexside",
        {
            "#editor-new-title": "Lindenau, 1813",
            "#editor-new-columns": str(COLUMNS),
            "#editor-new-rows": str(ROWS),
        },
        asked=False,
        shot="new-dialog.png",
    )
    # Terrain: woods with a brush of radius 1, a town by a tap, a marsh by a drag.
    w.tool("tool-terrain")
    w.tool("brush-1")
    w.tool("terrain-woods")
    fingers.tap(*w.hex_point(WOODS))
    w.tool("brush-0")
    w.tool("terrain-town")
    fingers.tap(*w.hex_point(TOWN))
    w.tool("terrain-marsh")
    fingers.drag([w.hex_point(h) for h in MARSH])
    w.checked()
    w.shot("terrain.png")
    # A river along five hexsides, then a slope tapped from its up side.
    w.tool("tool-hexside")
    features = page.eval_on_selector_all(
        "#editor-tools [data-tool^='feature-']", "bs => bs.map(b => b.dataset.tool)"
    )
    rivers = [f for f in features if "river" in f]
    w.tool(rivers[0] if rivers else "feature-stream")
    fingers.drag(chain(w.side_points(RIVER)))
    w.tool("feature-slope")
    fingers.tap(*w.side_points([SLOPE])[0]["a"])
    w.checked()
    w.shot("hexsides.png")
    # A road dragged through the hexes.
    w.tool("tool-road")
    w.tool("road-road")
    fingers.drag([w.hex_point(h) for h in ROAD])
    w.checked()
    w.shot("road.png")
    # Names on the map: a tap on a hex, its name typed, Save.
    w.tool("tool-label")
    for hex_, text in NAMES.items():
        fingers.tap(*w.hex_point(hex_))
        page.wait_for_selector(".he-label-form input")
        page.fill(".he-label-form input", text)
        if hex_ == list(NAMES)[-1]:
            w.shot("names.png")
        page.locator(".he-label-form button[type='submit']").tap()
        page.wait_for_selector(".he-label-form", state="detached")
    # Elevation: the hill by taps, level 1 then 2.
    w.tool("tool-level")
    for hex_, level in HILL.items():
        w.tool(f"level-{level}")
        fingers.tap(*w.hex_point(hex_))
    w.checked()
    w.shot("elevation.png")

    # Units: two a side pasted from a spreadsheet; not placed yet, so the scenario does not
    # load: the status line says which unit, its row is marked.
    w.tab("units")
    page.locator("#editor-panel-units .oob-paste summary").tap()
    page.fill("#editor-panel-units .oob-paste-box", OOB)
    w.tap("#editor-panel-units .oob-paste-add")
    page.wait_for_function("window.musterEditor.draft.scenario.units.length === 4")
    w.checked()
    units = page.evaluate("window.musterEditor.draft.scenario.units")
    page.locator(f".oob-unit[data-unit='{units[0]['id']}']").scroll_into_view_if_needed()
    w.shot("problem.png")
    for unit, hex_ in zip(units, UNITS, strict=True):
        w.tap(f".oob-unit[data-unit='{unit['id']}'] .oob-place")
        if hex_ == UNITS[-1]:
            w.shot("units.png")
        fingers.tap(*w.hex_point(hex_))
        page.wait_for_function(
            "([u, h]) => window.musterEditor.draft.scenario.units.find(x => x.id === u).hex === h",
            arg=[unit["id"], hex_],
        )
    w.checked()

    # The game's tables: one value changed, its default beside it.
    w.tab("tables")
    page.fill("#editor-panel-tables .tables-filter", "woods")
    row = (
        page.locator("#editor-panel-tables .tables-row:visible")
        .filter(has_text="MP: Cavalry")
        .locator("input.tables-input")
        .first
    )
    row.fill("4")
    row.press("Enter")
    w.checked()
    page.locator("#editor-panel-tables").scroll_into_view_if_needed()
    w.shot("tables.png")


def picture_steps(w: Walk) -> None:
    """The picture of the printed map under the hex battle, aligned by two hexes."""
    page, fingers = w.page, w.fingers
    picture = {"name": "lindenau.png", "mimeType": "image/png", "buffer": printed_map()}
    page.set_input_files("#editor-picture-file", files=[picture])
    page.wait_for_function("window.musterEditor.picture.current")
    w.tab("scenario")
    page.locator("#editor-opacity").fill("70")
    page.locator("#editor-opacity").dispatch_event("input")
    w.tap("#editor-align")
    w.shot("align.png")
    for hex_ in ["0102", "0907"]:
        px, py = picture_center(hex_)
        point = page.evaluate(
            """([x, y]) => { const m = window.musterEditor.picture.current.transform;
              return {x: m[0] * x + m[2] * y + m[4], y: m[1] * x + m[3] * y + m[5]}; }""",
            [px, py],
        )
        fingers.tap(*w.map_point(point["x"], point["y"]))
        page.wait_for_selector("#editor-hex-dialog[open]")
        page.fill("#editor-hex-input", hex_)
        page.locator("#editor-hex-dialog button.primary").tap()
    page.wait_for_function("document.querySelector('#editor-say').textContent.includes('aligned')")
    page.locator("#editor-align").scroll_into_view_if_needed()
    w.shot("picture.png")


def play(w: Walk) -> None:
    page = w.page
    w.tap("#editor-play")
    page.wait_for_selector("#editor", state="hidden")
    page.wait_for_selector("#prompt")
    page.wait_for_selector("#map [data-unit]")
    w.shot("play.png")


SQUARES = [
    [(100, 100), (400, 100), (400, 300), (100, 300)],
    [(408, 96), (700, 100), (700, 300), (405, 305)],
    [(96, 305), (394, 296), (400, 500), (100, 500)],
    [(404, 306), (706, 298), (700, 500), (397, 505)],
]


def area_battle(w: Walk) -> None:
    """Four locales drawn corner by corner, one approach selected and made wide."""
    page, fingers = w.page, w.fingers
    page.locator("#open-editor").tap()
    wait_editor(page)
    new_dialog(
        w,
        "area-locale",
        {"#editor-new-title": "Spinetta", "#editor-new-width": "800", "#editor-new-height": "600"},
        asked=True,
        shot=None,
    )
    w.tab("map")
    names = ["Spinetta", "Cascina Bianca", "Li Poggi", "Stortigliona"]
    w.tap("#editor-tools [data-act='mode'][data-mode='draw']")
    for corners, name in zip(SQUARES, names, strict=True):
        for x, y in corners:
            fingers.tap(*area_point(page, x, y))
        fingers.tap(*area_point(page, *corners[0]))
        field = page.locator("#editor-tools [data-panel='locale'] input[data-field='name']")
        field.fill(name)
        field.press("Enter")
        w.tap("#editor-tools [data-act='mode'][data-mode='draw']")
    w.tap("#editor-tools [data-act='mode'][data-mode='select']")
    s = page.evaluate("window.musterEditor.draft.scenario")
    ids = {loc["name"]: loc["id"] for loc in s["map"]["locales"]}
    one, two = ids["Cascina Bianca"], ids["Spinetta"]
    set_approach(page, fingers, f"{one}/{two}", "wide", 1)
    w.checked()
    w.top()
    w.shot("area.png")


def vassal(w: Walk) -> None:
    """A VASSAL module's board under the map, on the desktop."""
    page = w.page
    data, _hexes = vmod(Grid(width=900, height=600, board="Lindenau"))
    files = [{"name": "lindenau.vmod", "mimeType": "application/zip", "buffer": data}]
    page.set_input_files("#editor-vassal-file", files=files)
    page.wait_for_selector("#ask[open]")
    w.shot("vassal-ask.png")
    page.locator("#ask-ok").click()
    page.wait_for_function("window.musterEditor.picture.current")
    page.wait_for_function("document.querySelector('#editor-say').textContent.includes('piece')")
    w.checked()
    w.shot("vassal.png")


def main() -> int:
    """Take the screenshots."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "editor")
    args = parser.parse_args()
    args.out = args.out.resolve()
    dist = Path(tempfile.mkdtemp()) / "dist"
    build.build(dist)
    server = build.make_server(dist, 0, "/")
    build.serve_in_thread(server)
    host, port = server.server_address[:2]
    url = f"http://{host}:{port}/"
    args.out.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as pw:
        browser = pw.chromium.launch(**chromium_launch_args())
        context = browser.new_context(**tablet(), accept_downloads=True)
        page = context.new_page()
        page.set_default_timeout(30_000)
        page.on("pageerror", lambda exc: print("page error:", exc))
        open_editor(page, url)
        w = Walk(page, args.out)
        hex_battle(w)
        picture_steps(w)
        play(w)
        area_battle(w)
        context.close()

        context = browser.new_context(**DESKTOP)
        page = context.new_page()
        page.set_default_timeout(30_000)
        open_editor(page, url)
        vassal(Walk(page, args.out))
        context.close()
        browser.close()
    server.shutdown()
    total = sum(p.stat().st_size for p in args.out.glob("*.png"))
    print(f"{len(list(args.out.glob('*.png')))} PNGs, {total} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
