"""The scenario editor in the app for the e2e tests: opening it, waiting for the core's check of
the draft, reading the draft, and the New dialog."""

from __future__ import annotations

from typing import Any

from pngfile import encode_png


def png(width: int, height: int) -> bytes:
    """A plain PNG of ``width`` × ``height`` pixels (a stand-in for a photo of a map)."""
    return encode_png(width, height, [bytes([200, 190, 160]) * width] * height)


def open_editor(page: Any) -> None:
    """Press the header's Editor button and wait until the editor holds a draft checked by the
    core."""
    page.locator("#open-editor").click()
    wait_editor(page)


def wait_editor(page: Any) -> None:
    page.wait_for_selector("#editor:not([hidden])")
    page.wait_for_function("window.musterEditor && window.musterEditor.draft")
    page.evaluate("window.musterEditor.ready")
    wait_checked(page)


def wait_checked(page: Any) -> None:
    """Wait until the core's check of the draft on screen has answered."""
    page.evaluate("window.musterEditor.checked()")
    page.wait_for_function("document.querySelector('#editor').dataset.checks")
    page.wait_for_function(
        "document.querySelector('#editor-status').dataset.kind !== undefined"
        " && !document.querySelector('#editor-say').textContent.includes('Checking')"
    )


def draft(page: Any) -> dict[str, Any]:
    return page.evaluate("window.musterEditor.draft.scenario")


def status(page: Any) -> str:
    return page.locator("#editor-status").inner_text()


def new_scenario(page: Any, fields: dict[str, str], selects: dict[str, str]) -> None:
    """The New dialog filled in and created."""
    page.locator("#editor-new").click()
    page.wait_for_selector("#editor-new-dialog[open]")
    for selector, value in selects.items():
        page.select_option(selector, value)
    for selector, value in fields.items():
        page.fill(selector, value)
    page.locator("#editor-new-ok").click()


# ---- points on the editor's map ------------------------------------------------------


def hex_point(page: Any, label: str) -> tuple[float, float]:
    p = page.evaluate("(l) => window.musterEditor.parts.map.map.hexToClient(l)", label)
    return p["x"], p["y"]


def side_points(page: Any, pairs: list[tuple[str, str]]) -> list[dict[str, Any]]:
    """Client points of each hexside: its ends, its middle, and a point inside each of its hexes
    near the middle (``a`` in the first hex, ``b`` in the second)."""
    return page.evaluate(
        """async (pairs) => {
          const { edgeBetween } = await import("./static/render/hexgrid.js");
          const m = window.musterEditor.parts.map.map;
          const c = (x, y) => { const p = m._mapToClient({ x, y }); return [p.x, p.y]; };
          return pairs.map(([a, b]) => {
            const e = edgeBetween(m.grid, a, b);
            return { p1: c(e.x1, e.y1), p2: c(e.x2, e.y2),
                     a: c(e.mx - e.nx * 12, e.my - e.ny * 12),
                     b: c(e.mx + e.nx * 12, e.my + e.ny * 12) };
          });
        }""",
        [list(p) for p in pairs],
    )


def chain(points: list[dict[str, Any]]) -> list[tuple[float, float]]:
    """The corners along a chain of hexsides, end to end."""
    out = []
    for i, e in enumerate(points):
        ends = [tuple(e["p1"]), tuple(e["p2"])]
        if i + 1 < len(points):
            nxt = {tuple(points[i + 1]["p1"]), tuple(points[i + 1]["p2"])}
            shared = [p for p in ends if _near(p, nxt)]
            first = [p for p in ends if not _near(p, nxt)]
            if i == 0:
                out += first
            out += shared
        else:
            out += [p for p in ends if not _near(p, {out[-1]})]
    return out


def _near(p: tuple[float, float], others: set[tuple[float, float]]) -> bool:
    return any(abs(p[0] - q[0]) < 1 and abs(p[1] - q[1]) < 1 for q in others)


def area_point(page: Any, x: float, y: float) -> tuple[float, float]:
    """The screen point of map point (x, y) of the area map."""
    return page.evaluate(
        """([x, y]) => {
          const svg = document.querySelector("#editor-map svg");
          const p = svg.createSVGPoint();
          p.x = x;
          p.y = y;
          const s = p.matrixTransform(svg.getScreenCTM());
          return [s.x, s.y];
        }""",
        [x, y],
    )


def set_approach(page: Any, fingers: Any, ap: str, width: str, effect: int) -> None:
    """Tap approach ``ap`` ("from/facing") on the area map, then set its width and effect."""
    bar = page.locator(f"#editor-map [data-approach='{ap}'] .am-bar").first
    box = bar.bounding_box()
    fingers.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    at = f"[data-ap='{ap}']"
    page.locator(f"#editor-tools select{at}[data-field='width']").select_option(width)
    field = page.locator(f"#editor-tools input{at}[data-field='effect']")
    field.fill(str(effect))
    field.press("Enter")
