"""The scenario editor in the app for the e2e tests: opening it, waiting for the core's check of
the draft, reading the draft, and the New dialog."""

from __future__ import annotations

import struct
import zlib
from typing import Any


def png(width: int, height: int) -> bytes:
    """A plain PNG of ``width`` × ``height`` pixels (a stand-in for a photo of a map)."""
    row = b"\x00" + bytes([200, 190, 160]) * width
    raw = row * height

    def chunk(tag: bytes, data: bytes) -> bytes:
        body = tag + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(raw))
        + chunk(b"IEND", b"")
    )


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
