"""Fingers on the tablet for the e2e tests: real touch events through the DevTools protocol
(Playwright's touchscreen only taps), so a drag paints and two fingers pinch as on an iPad."""

from __future__ import annotations

from typing import Any

Point = tuple[float, float]


class Fingers:
    """Touches on one page, sent as Chromium's input (pointer events of type "touch")."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.cdp = page.context.new_cdp_session(page)

    def send(self, kind: str, points: list[Point]) -> None:
        """One touch event: ``kind`` is touchStart, touchMove or touchEnd; a point per finger."""
        touch = [{"x": x, "y": y, "id": i} for i, (x, y) in enumerate(points)]
        self.cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": touch})

    def tap(self, x: float, y: float) -> None:
        self.page.touchscreen.tap(x, y)

    def drag(self, points: list[Point], step: float = 6.0) -> None:
        """One finger down on the first point, along the others, up."""
        path = along(points, step)
        self.send("touchStart", [path[0]])
        for p in path[1:]:
            self.send("touchMove", [p])
        self.send("touchEnd", [])

    def detach(self) -> None:
        self.cdp.detach()


def along(points: list[Point], step: float = 6.0) -> list[Point]:
    """The points along a polyline, no more than ``step`` px apart."""
    out = [points[0]]
    for (x0, y0), (x1, y1) in zip(points, points[1:], strict=False):
        n = max(1, int(((x1 - x0) ** 2 + (y1 - y0) ** 2) ** 0.5 / step))
        out += [(x0 + (x1 - x0) * i / n, y0 + (y1 - y0) * i / n) for i in range(1, n + 1)]
    return out
