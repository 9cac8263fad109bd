"""The editor's files are held to their limits before any work: zip bombs in a VASSAL module
(an entry that declares little and unpacks to gigabytes, one that declares gigabytes) and
pictures whose headers declare more pixels than a tablet can decode are refused with words
that name the limit, and leave the map, the picture and the draft as they were.

The bombs are made by ``bombs.py``, a few MB each. The module reader is tried in its harness
page with the browser's DecompressionStream, without it and with one that lacks deflate-raw
(the reader then unpacks with static/editor/inflate.js): both ways stop at the limit. Then the
editor in the app, as a player picks the files.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from apppage import AppPage, open_app, tablet
from bombs import (
    DEFLATED,
    MIB,
    STORED,
    bmp_declaring,
    gif_declaring,
    huge_directory,
    jpeg_declaring,
    module,
    png_declaring,
    png_head,
    webp_declaring,
    zeros_deflate,
)
from editorpage import open_editor, png
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from vassalpages import three_pages

pytestmark = pytest.mark.e2e

# --- the module reader in its harness page ----------------------------------------------------


# The module given to the harness's file input read, and its first board's picture: what each
# step refused ({key, params}), or the picture's size.
READ = """async () => {
  const { readModule, boardPicture } = window.harness;
  const file = document.querySelector("#vmod").files[0];
  let module;
  try {
    module = await readModule(file);
  } catch (error) {
    return { module: { key: error.key, params: error.params } };
  }
  const board = module.boards[0];
  const out = { problem: board.problem };
  try {
    const pic = await boardPicture(module, board);
    out.picture = { bytes: pic.blob.size, width: pic.width, height: pic.height };
  } catch (error) {
    out.board = { key: error.key, params: error.params };
  }
  return out;
}"""


@pytest.fixture(scope="module")
def pages(browser, site_url):
    """The harness with the browser's DecompressionStream, without it, and with one that lacks
    deflate-raw."""
    yield from three_pages(browser, site_url)


def read_everywhere(pages: dict[str, AppPage], data: bytes | Path) -> dict[str, dict]:
    """The module read in each page, as a player picks the file."""
    results = {}
    for kind, page in pages.items():
        if isinstance(data, Path):
            page.page.set_input_files("#vmod", files=[str(data)])
        else:
            file = {"name": "bomb.vmod", "mimeType": "application/zip", "buffer": data}
            page.page.set_input_files("#vmod", files=[file])
        results[kind] = page.page.evaluate(READ)
        page.assert_no_errors()
    return results


def test_an_honest_module_of_the_bombs_maker_reads(pages):
    """The bombs below differ from this module only by the entry they spoil."""
    for kind, result in read_everywhere(pages, module()).items():
        assert result["problem"] is None, kind
        assert result["picture"]["width"] == 600 and result["picture"]["height"] == 480, kind


def test_a_build_file_that_unpacks_past_its_declared_size_is_cut_there(pages):
    # 2 GiB of zeros packed in 2 MB, declared as 4 MiB (within the build file's limit).
    bomb = zeros_deflate(2048 * MIB)
    assert len(bomb) < 3 * MIB
    data = module(build=(bomb, 4 * MIB))
    for kind, result in read_everywhere(pages, data).items():
        assert result == {
            "module": {
                "key": "editor.limit.over_declared",
                "params": {"entry": "buildFile.xml", "size": 4 * MIB},
            }
        }, kind


def test_an_entry_packed_far_larger_than_it_declares_is_damaged(pages):
    """A deflated entry is at most a little larger packed than unpacked: 2 MB packed that
    declare 4 KB are refused before any of it is unpacked."""
    data = module(build=(zeros_deflate(2048 * MIB), 4096))
    for kind, result in read_everywhere(pages, data).items():
        assert result == {
            "module": {"key": "editor.vassal.damaged", "params": {"entry": "buildFile.xml"}}
        }, kind


def test_a_build_file_declaring_more_than_its_limit_is_refused_unpacked(pages):
    # 1.6 GB of zeros, declared as such: refused by its declared size.
    data = module(build=(zeros_deflate(1526 * MIB), 1_600_000_000))
    for kind, result in read_everywhere(pages, data).items():
        assert result == {
            "module": {
                "key": "editor.limit.entry",
                "params": {"entry": "buildFile.xml", "size": 1526, "max": 16},
            }
        }, kind


def test_a_picture_entry_that_unpacks_past_its_declared_size_is_cut_there(pages):
    """A PNG header of 600 × 480 then 2 GiB of zeros, declared as 60 MiB: the board is read
    (its size from the header), and its picture is cut at 60 MiB."""
    bomb = zeros_deflate(2048 * MIB, prefix=png_head(600, 480))
    data = module(image=(DEFLATED, bomb, 60 * MIB))
    for kind, result in read_everywhere(pages, data).items():
        assert result == {
            "problem": None,
            "board": {
                "key": "editor.limit.over_declared",
                "params": {"entry": "images/board.png", "size": 60 * MIB},
            },
        }, kind


def test_a_picture_entry_declaring_more_than_its_limit_is_refused_unpacked(pages):
    bomb = zeros_deflate(1526 * MIB, prefix=png_head(600, 480))
    data = module(image=(DEFLATED, bomb, 1_600_000_000))
    refusal = {
        "key": "editor.limit.entry",
        "params": {"entry": "images/board.png", "size": 1526, "max": 64},
    }
    for kind, result in read_everywhere(pages, data).items():
        assert result == {"problem": refusal, "board": refusal}, kind


def test_a_stored_picture_whose_sizes_differ_is_damaged(pages):
    picture = png_declaring(600, 480)
    data = module(image=(STORED, picture, len(picture) + 1))
    for kind, result in read_everywhere(pages, data).items():
        refusal = {"key": "editor.vassal.damaged", "params": {"entry": "images/board.png"}}
        assert result == {"problem": refusal, "board": refusal}, kind


PIXEL_BOMBS = {
    "png-40000": (png_declaring, 40000, 40000),
    "png-20000": (png_declaring, 20000, 20000),
    "jpeg-20000": (jpeg_declaring, 20000, 20000),
    "jpeg-wide": (jpeg_declaring, 12000, 100),
    "gif-frame": (gif_declaring, 5000, 5000),
    "bmp-25mp": (bmp_declaring, 5000, 5000),
    "webp-tall": (webp_declaring, 100, 16000),
}


@pytest.mark.parametrize("case", sorted(PIXEL_BOMBS))
def test_a_board_picture_declaring_too_many_pixels_is_refused_by_its_header(pages, case):
    make, width, height = PIXEL_BOMBS[case]
    data = module(picture=make(width, height))
    refusal = {
        "key": "editor.limit.board_pixels",
        "params": {
            "board": "Main board",
            "image": "board.png",
            "width": width,
            "height": height,
            "megapixels": 20,
            "max_side": 10000,
        },
    }
    for kind, result in read_everywhere(pages, data).items():
        assert result == {"problem": refusal, "board": refusal}, kind


def test_a_central_directory_past_its_limit_is_refused_unread(pages, tmp_path):
    path = tmp_path / "directory.vmod"
    path.write_bytes(huge_directory(17 * MIB))
    for kind, result in read_everywhere(pages, path).items():
        assert result == {
            "module": {
                "key": "editor.limit.directory",
                "params": {"name": "directory.vmod", "size": 17, "max": 16},
            }
        }, kind


# --- the editor in the app ---------------------------------------------------------------------

# What a refusal must leave as it was: the picture under the map, the draft and its undo, and
# what the device keeps (the draft's record, the pictures).
STATE = """async () => {
  const e = window.musterEditor;
  await e.saved();
  const p = e.picture.current;
  const records = await e.store.drafts();
  const record = records.find((r) => r.id === e.recordId) || null;
  return {
    picture: p && { id: p.id, name: p.name, width: p.width, height: p.height,
                    transform: p.transform, opacity: p.opacity },
    drawn: document.querySelectorAll("#editor-map image").length,
    scenario: e.draft.scenario,
    past: e.draft.past.length,
    record: record && { scenario: record.scenario, picture: record.picture },
    pictures: (await e.store.pictureIds()).sort(),
  };
}"""


@pytest.fixture(scope="module")
def editor(browser, site_url):
    """The editor in the app on the tablet, a picture under its map kept on the device."""
    app = open_app(browser, site_url, **tablet())
    page = app.page
    open_editor(page)
    picture = {"name": "kept.png", "mimeType": "image/png", "buffer": png(64, 48)}
    page.set_input_files("#editor-picture-file", files=[picture])
    says(page, "Picture kept.png is under the map. Align it: Align, then tap two known points.")
    page.evaluate("window.musterEditor.saved()")
    yield app
    app.context.close()


def said(page: Any) -> str:
    return page.locator("#editor-say").inner_text()


def says(page: Any, words: str) -> None:
    """Wait until the status line says `words`; fail showing what it says instead."""
    try:
        page.wait_for_function(
            "(w) => document.querySelector('#editor-say').textContent === w", arg=words
        )
    except PlaywrightTimeout:
        assert said(page) == words


def pick_picture(page: Any, file: dict[str, Any] | Path) -> None:
    page.set_input_files(
        "#editor-picture-file", files=[file if isinstance(file, dict) else str(file)]
    )


def pick_module(page: Any, data: bytes) -> None:
    files = [{"name": "bomb.vmod", "mimeType": "application/zip", "buffer": data}]
    page.set_input_files("#editor-vassal-file", files=files)


def take_whole_board(page: Any) -> None:
    """The part of the board to take: the whole board, as the crop dialog offers it."""
    page.wait_for_selector("#editor-crop-dialog[open]")
    page.locator("#editor-crop-ok").tap()


PICTURE_FILES = {
    "png-40000": (
        "huge.png",
        png_declaring(40000, 40000),
        "huge.png is 40000 × 40000 pixels: a picture under the map may have at most 20 million "
        "pixels and 10000 pixels a side. Save it smaller (a scan at 150 dpi is enough) and "
        "choose it again.",
    ),
    "png-20000": (
        "large.png",
        png_declaring(20000, 20000),
        "large.png is 20000 × 20000 pixels: a picture under the map may have at most 20 million "
        "pixels and 10000 pixels a side. Save it smaller (a scan at 150 dpi is enough) and "
        "choose it again.",
    ),
    "jpeg-20000": (
        "scan.jpg",
        jpeg_declaring(20000, 20000),
        "scan.jpg is 20000 × 20000 pixels: a picture under the map may have at most 20 million "
        "pixels and 10000 pixels a side. Save it smaller (a scan at 150 dpi is enough) and "
        "choose it again.",
    ),
    "not-a-picture": (
        "notes.png",
        b"These are notes, not a picture.\n" * 10,
        "notes.png is not a PNG, JPEG, GIF, WebP, BMP or SVG picture.",
    ),
}


@pytest.mark.parametrize("case", sorted(PICTURE_FILES))
def test_a_picture_file_past_the_limits_is_refused_and_nothing_changes(editor, case):
    page = editor.page
    before = page.evaluate(STATE)
    assert before["picture"]["name"] == "kept.png" and before["drawn"] == 1
    name, data, words = PICTURE_FILES[case]
    pick_picture(page, {"name": name, "mimeType": "image/png", "buffer": data})
    says(page, words)
    assert page.locator("#editor-status").get_attribute("data-kind") == "error"
    assert page.evaluate(STATE) == before
    editor.assert_no_errors()


def test_a_picture_file_of_more_bytes_than_the_limit_is_refused_unread(editor, tmp_path):
    page = editor.page
    before = page.evaluate(STATE)
    path = tmp_path / "photo.png"
    with path.open("wb") as f:
        f.truncate(65 * MIB)
    pick_picture(page, path)
    says(
        page,
        "photo.png is 65 MiB: a picture under the map may be at most 64 MiB. Save it smaller "
        "(a scan at 150 dpi is enough) and choose it again.",
    )
    assert page.evaluate(STATE) == before
    editor.assert_no_errors()


def test_a_picture_the_device_cannot_keep_is_refused_and_nothing_changes(editor):
    page = editor.page
    before = page.evaluate(STATE)
    page.evaluate(
        """() => {
          const store = window.musterEditor.store;
          store.keptPutPicture = store.putPicture;
          store.putPicture = () =>
            Promise.reject(new DOMException("The quota has been exceeded.", "QuotaExceededError"));
        }"""
    )
    try:
        pick_picture(page, {"name": "other.png", "mimeType": "image/png", "buffer": png(80, 60)})
        says(
            page,
            "The picture other.png could not be kept on this device (the storage is full); "
            "nothing was changed.",
        )
        assert page.evaluate(STATE) == before
        # A VASSAL board too: its map is not taken when its picture cannot be kept.
        pick_module(page, module())
        take_whole_board(page)
        page.wait_for_selector("#ask[open]")
        page.locator("#ask-ok").tap()
        says(
            page,
            "The picture Main board could not be kept on this device (the storage is full); "
            "nothing was changed.",
        )
        assert page.evaluate(STATE) == before
    finally:
        page.evaluate(
            "() => { const s = window.musterEditor.store; s.putPicture = s.keptPutPicture; }"
        )
    editor.assert_no_errors()


MODULE_BOMBS = {
    "build-declares-huge": (
        lambda: module(build=(zeros_deflate(1526 * MIB), 1_600_000_000)),
        "buildFile.xml in the module unpacks to 1526 MiB: the editor unpacks at most 16 MiB of it.",
    ),
    "build-unpacks-past": (
        lambda: module(build=(zeros_deflate(2048 * MIB), 4 * MIB)),
        "The module is damaged: buildFile.xml unpacks to more than the 4194304 bytes the module "
        "declares for it; the editor stopped there.",
    ),
    "picture-declares-huge": (
        lambda: module(
            image=(DEFLATED, zeros_deflate(1526 * MIB, png_head(600, 480)), 1_600_000_000)
        ),
        "images/board.png in the module unpacks to 1526 MiB: the editor unpacks at most 64 MiB "
        "of it.",
    ),
    "picture-unpacks-past": (
        lambda: module(image=(DEFLATED, zeros_deflate(2048 * MIB, png_head(600, 480)), 60 * MIB)),
        "The module is damaged: images/board.png unpacks to more than the 62914560 bytes the "
        "module declares for it; the editor stopped there.",
    ),
    "picture-40000": (
        lambda: module(picture=png_declaring(40000, 40000)),
        "The picture board.png of board Main board is 40000 × 40000 pixels: a picture under the "
        "map may have at most 20 million pixels and 10000 pixels a side.",
    ),
}


@pytest.mark.parametrize("case", sorted(MODULE_BOMBS))
def test_a_module_bomb_is_refused_and_nothing_changes(editor, case):
    page = editor.page
    before = page.evaluate(STATE)
    make, words = MODULE_BOMBS[case]
    pick_module(page, make())
    says(page, words)
    assert page.locator("#ask[open]").count() == 0
    assert page.evaluate(STATE) == before
    editor.assert_no_errors()


def test_after_the_refusals_a_good_module_still_takes_the_map(editor):
    page = editor.page
    before = page.evaluate(STATE)
    pick_module(page, module())
    take_whole_board(page)
    page.wait_for_selector("#ask[open]")
    page.locator("#ask-ok").tap()
    page.wait_for_function("document.querySelector('#editor-say').textContent.includes('piece')")
    after = page.evaluate(STATE)
    assert after["picture"]["name"] == "Main board"
    assert (after["picture"]["width"], after["picture"]["height"]) == (600, 480)
    assert after["past"] == before["past"] + 1
    assert after["scenario"]["map"] != before["scenario"]["map"]
    assert after["record"]["picture"]["pictureId"] == after["picture"]["id"]
    editor.assert_no_errors()


def test_a_kept_picture_past_the_limits_is_not_drawn_after_a_reload(editor):
    """A picture kept on the device before these limits (20000 × 20000 here) is named, not
    decoded, when its draft opens again."""
    page = editor.page
    page.evaluate(
        """async (bytes) => {
          const e = window.musterEditor;
          await e.saved();
          const blob = new Blob([new Uint8Array(bytes)], { type: "image/png" });
          await e.store.putPicture({ id: "old-scan", blob, name: "old-scan.png",
                                     width: 20000, height: 20000 });
          const record = (await e.store.drafts()).find((r) => r.id === e.recordId);
          record.picture = { pictureId: "old-scan", opacity: 0.6, transform: [1, 0, 0, 1, 0, 0] };
          record.updated = Date.now();
          await e.store.putDraft(record);
        }""",
        list(png_declaring(20000, 20000)),
    )
    page.reload()
    page.wait_for_function("window.musterEditor && window.musterEditor.draft")
    page.evaluate("window.musterEditor.ready")
    says(
        page,
        "old-scan.png is 20000 × 20000 pixels: a picture under the map may have at most 20 "
        "million pixels and 10000 pixels a side. Save it smaller (a scan at 150 dpi is enough) "
        "and choose it again.",
    )
    assert page.evaluate("window.musterEditor.picture.current") is None
    assert page.locator("#editor-map image").count() == 0
    editor.assert_no_errors()
