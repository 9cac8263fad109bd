"""The editor reads a VASSAL module in the browser: a board's picture lands under the Muster map
with every hex centre where the module's grid puts it, and its piece names come back.

The modules are made by ``vmod.py``, which draws a dot at every hex centre from VASSAL's
documented geometry; the app's reader (static/editor/vassal.js) never sees those centres.
"""

from __future__ import annotations

import io
import math
import zipfile
from typing import Any

import pytest
from apppage import AppPage, open_app
from vmod import Grid, vmod

pytestmark = pytest.mark.e2e

SQRT3 = math.sqrt(3)

# Read the module given to the harness's file input, lay out its first board (or `index`),
# and give back, for every hex of the Muster map, where the picture's pixel under its centre is
# (the inverse of the transform) and whether that pixel of the picture is dark.
READ = """async (arg) => {
  const { readModule, boardPicture, HexGrid } = window.harness;
  // A board's index, or {index, crop}: its part within the crop (first/last column and row).
  const index = typeof arg === "number" ? arg : arg.index;
  const crop = typeof arg === "number" ? undefined : arg.crop;
  const file = document.querySelector("#vmod").files[0];
  let module;
  try {
    module = await readModule(file);
  } catch (error) {
    return { error: { key: error.key, params: error.params, message: String(error) } };
  }
  const boards = module.boards.map((b) => ({
    map: b.map, name: b.name, image: b.image, width: b.width, height: b.height,
    problem: b.problem, grid: b.grid, numbers: b.numbers, crop: b.crop,
  }));
  const out = { name: module.name, pieces: module.pieces, boards };
  let pic;
  try {
    pic = await boardPicture(module, module.boards[index], crop);
  } catch (error) {
    out.error = { key: error.key, params: error.params, message: String(error) };
    return out;
  }
  const grid = new HexGrid(pic.map);
  const [a, b, c, d, e, f] = pic.transform;
  const det = a * d - b * c;
  const bitmap = await createImageBitmap(pic.blob);
  const canvas = document.createElement("canvas");
  canvas.width = bitmap.width;
  canvas.height = bitmap.height;
  const g = canvas.getContext("2d");
  g.drawImage(bitmap, 0, 0);
  const pixels = g.getImageData(0, 0, bitmap.width, bitmap.height).data;
  const centres = {};
  for (const cell of grid.cells()) {
    const m = grid.center(cell.label);
    const x = m[0] - e;
    const y = m[1] - f;
    const px = (d * x - c * y) / det;
    const py = (-b * x + a * y) / det;
    const ix = Math.round(px);
    const iy = Math.round(py);
    let dark = null;
    if (ix >= 0 && iy >= 0 && ix < bitmap.width && iy < bitmap.height) {
      dark = pixels[4 * (iy * bitmap.width + ix)] < 128;
    }
    centres[cell.label] = { x: px, y: py, dark };
  }
  Object.assign(out, {
    map: pic.map, transform: pic.transform, width: pic.width, height: pic.height,
    bitmap: [bitmap.width, bitmap.height], type: pic.blob.type, centres,
  });
  return out;
}"""


@pytest.fixture(scope="module")
def harness(browser, site_url):
    """The harness page (no rules engine needed), watched for console errors."""
    opened = open_app(
        browser,
        f"{site_url}__tests__/e2e/vassal_harness.html",
        viewport={"width": 1280, "height": 800},
    )
    yield opened
    opened.context.close()


def read(
    harness: AppPage,
    data: bytes,
    name: str = "test.vmod",
    index: int = 0,
    crop: dict[str, int] | None = None,
) -> dict:
    """Give the module to the page as a player picks a file, and read board `index` (its part
    within `crop`, when given)."""
    harness.page.set_input_files(
        "#vmod", files=[{"name": name, "mimeType": "application/zip", "buffer": data}]
    )
    return harness.page.evaluate(READ, index if crop is None else {"index": index, "crop": crop})


def check_board(result: dict[str, Any], grid: Grid, found: dict[str, dict]) -> None:
    """Every hex of the Muster map lands within 1 px of the centre the module's grid gives it,
    on the dot drawn there, and every whole hex of the picture is on the map."""
    assert "error" not in result, result.get("error")
    assert result["width"] == grid.width and result["height"] == grid.height
    assert result["bitmap"] == [grid.width, grid.height]
    assert result["type"] == "image/png"
    centres = result["centres"]
    whole = {label for label, h in found.items() if h["whole"]}
    assert whole, "the test module has whole hexes"
    assert whole <= set(centres), sorted(whole - set(centres))
    for label, got in centres.items():
        assert label in found, f"{label} is not a hex of the module"
        want = found[label]
        off = math.hypot(got["x"] - want["x"], got["y"] - want["y"])
        assert off <= 1.0, (label, got, want)
        if want["inside"]:
            assert got["dark"], f"no dot under hex {label}"
    m = result["map"]
    assert m["orientation"] == ("pointy" if grid.sideways else "flat")
    assert m["columns"] * m["rows"] == len(centres)
    # The map is the smallest block of printed numbers that holds every whole hex.
    digits = (grid.v_leading if grid.sideways else grid.h_leading) + 1
    columns = sorted(int(label[:digits]) for label in whole)
    rows = sorted(int(label[digits:]) for label in whole)
    assert (m["first_column"], m["columns"]) == (columns[0], columns[-1] - columns[0] + 1)
    assert (m["first_row"], m["rows"]) == (rows[0], rows[-1] - rows[0] + 1)


CASES = {
    # Flat hexes, origin inside the picture, dx:dy not a regular hexagon's.
    "flat-stagger": Grid(x0=37, y0=45, dx=48.0, dy=62.0, h_off=1, v_off=1, stagger=True),
    # Flat, columns from 0, rows from 3, no stagger, a regular hexagon, origin off the picture.
    "flat-offsets": Grid(x0=-20, y0=-7, dx=55.42562584220407, h_off=0, v_off=3, stagger=False),
    # Flat, odd first column, no stagger, wide hexes.
    "flat-odd-offset": Grid(x0=50, y0=40, dx=70.0, dy=50.0, h_off=3, v_off=0, stagger=False),
    # Pointy (sideways): the row number (across the board) first, as Muster's column.
    "pointy-stagger": Grid(
        sideways=True, first="V", x0=30, y0=50, dx=45.0, dy=58.0, h_off=2, v_off=1
    ),
    # Pointy, no stagger, three-digit columns, regular hexagons, a column 0.
    "pointy-offsets": Grid(
        width=520,
        height=600,
        sideways=True,
        first="V",
        x0=12,
        y0=33,
        dx=SQRT3 / 2 * 50,
        dy=50.0,
        h_off=1,
        v_off=0,
        v_leading=2,
        stagger=False,
    ),
    # The grid of a zone (a ZonedGrid on the board), in board coordinates, within its box.
    "zone": Grid(x0=20, y0=30, dx=50.0, dy=58.0, h_off=1, v_off=1, zone=(100, 90, 330, 260)),
}


@pytest.mark.parametrize("case", list(CASES))
def test_every_hex_centre_of_the_board_lands_on_the_muster_grid(harness, case):
    grid = CASES[case]
    data, found = vmod(grid)
    result = read(harness, data)
    check_board(result, grid, found)
    board = result["boards"][0]
    assert board["problem"] is None
    assert (board["map"], board["name"], board["image"]) == ("Main map", "Main board", "board.png")
    assert (board["width"], board["height"]) == (grid.width, grid.height)
    # Muster's digits are VASSAL's (leading zeros + 1).
    m = result["map"]
    column_leading, row_leading = (
        (grid.v_leading, grid.h_leading) if grid.sideways else (grid.h_leading, grid.v_leading)
    )
    assert (m["column_digits"], m["row_digits"]) == (column_leading + 1, row_leading + 1)
    harness.assert_no_errors()


def test_regular_hexes_keep_their_shape_and_odd_ones_are_stretched(harness):
    a, b, c, d, _, _ = read(harness, vmod(CASES["flat-offsets"])[0])["transform"]
    assert (b, c) == (0, 0) and a == pytest.approx(d)
    a, b, c, d, _, _ = read(harness, vmod(CASES["flat-stagger"])[0])["transform"]
    # 48 px between columns is 75 map units; 62 px between rows is 50 * sqrt(3).
    assert (a, d) == (pytest.approx(75 / 48), pytest.approx(50 * SQRT3 / 62))


def test_piece_names_come_back_once_each_in_file_order(harness):
    result = read(harness, vmod(CASES["flat-stagger"])[0])
    assert result["name"] == "Muster Test Module"
    assert result["pieces"] == ["1st Guards", "3rd Infantry", "Cossacks", "Horse Battery"]


@pytest.mark.parametrize(
    "compression", [zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED], ids=["stored", "deflated"]
)
def test_a_picture_stored_plain_or_deflated_reads(harness, compression):
    grid = CASES["pointy-stagger"]
    data, found = vmod(grid, image_compression=compression)
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        assert z.getinfo("images/board.png").compress_type == compression
    check_board(read(harness, data), grid, found)
    harness.assert_no_errors()


REFUSED = {
    "editor.vassal.separator": Grid(sep="-"),
    "editor.vassal.alphabetic_columns": Grid(h_type="A"),
    "editor.vassal.alphabetic_rows": Grid(v_type="A"),
    "editor.vassal.descending_columns": Grid(h_descend=True),
    "editor.vassal.descending_rows": Grid(v_descend=True),
    # A sideways grid numbered "Horizontal first" names the row (down the board) first.
    "editor.vassal.row_first": Grid(sideways=True, first="H"),
}


@pytest.mark.parametrize("key", list(REFUSED))
def test_numbering_muster_cannot_write_is_refused_by_name(harness, key):
    result = read(harness, vmod(REFUSED[key])[0])
    assert result["error"]["key"] == key
    assert result["error"]["params"]["board"] == "Main board"
    # The list of boards says so before the player picks it.
    assert result["boards"][0]["problem"]["key"] == key
    # And the words exist in every language.
    for lang in ("en", "pl", "fr", "ja"):
        words = harness.page.evaluate(
            "async ([lang, key]) => (await (await fetch(`../../static/i18n/${lang}.json`)).json())"
            "[key]",
            [lang, key],
        )
        assert words, (lang, key)


def test_a_file_that_is_not_a_zip_is_refused(harness):
    result = read(harness, b"<html>not a module</html>" * 10, name="notes.vmod")
    assert result["error"]["key"] == "editor.vassal.not_zip"
    assert result["error"]["params"] == {"name": "notes.vmod"}


def test_a_zip_without_a_build_file_is_refused(harness):
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as z:
        z.writestr("readme.txt", "hello")
    result = read(harness, buffer.getvalue(), name="other.zip")
    assert result["error"]["key"] == "editor.vassal.no_buildfile"


# A board of more hexes than a Muster map holds (20,000): 177 columns of 130 hexes, three-digit
# numbers, small hexes on a 2,400 x 2,100 picture.
BIG = Grid(
    width=2400,
    height=2100,
    x0=8,
    y0=10,
    dx=13.5,
    dy=16.0,
    h_off=1,
    v_off=1,
    h_leading=2,
    v_leading=2,
)
BIG_POINTY = Grid(
    width=2100,
    height=2400,
    sideways=True,
    first="V",
    x0=10,
    y0=8,
    dx=13.5,
    dy=16.0,
    h_off=1,
    v_off=1,
    h_leading=2,
    v_leading=2,
)


@pytest.mark.parametrize("grid", [BIG, BIG_POINTY], ids=["flat", "pointy"])
def test_a_big_board_is_cropped_at_import_keeping_its_printed_numbers(harness, grid):
    data, found = vmod(grid)
    whole = read(harness, data)
    # The whole board is more than a map holds: listed, but to be cropped, and said why.
    board = whole["boards"][0]
    assert board["problem"] is None
    assert board["crop"]["key"] == "editor.vassal.too_many_hexes"
    assert board["crop"]["params"]["count"] > 20000
    assert whole["error"]["key"] == "editor.vassal.too_many_hexes"
    numbers = board["numbers"]
    assert numbers["first_column"] >= 1 and numbers["last_column"] > 100
    # Columns 40-90, rows 25-70 of the printed board.
    crop = {"first_column": 40, "last_column": 90, "first_row": 25, "last_row": 70}
    result = read(harness, data, crop=crop)
    assert "error" not in result, result.get("error")
    m = result["map"]
    assert (m["first_column"], m["columns"]) == (40, 51)
    assert (m["first_row"], m["rows"]) == (25, 46)
    assert (m["column_digits"], m["row_digits"]) == (3, 3)
    centres = result["centres"]
    assert len(centres) == 51 * 46
    # Every hex of the cropped map is the module's hex of that printed number, on its dot.
    for label, got in centres.items():
        assert label in found, f"{label} is not a hex of the module"
        want = found[label]
        assert math.hypot(got["x"] - want["x"], got["y"] - want["y"]) <= 1.0, (label, got, want)
        assert got["dark"], f"no dot under hex {label}"
    assert "040025" in centres and "090070" in centres
    assert "039025" not in centres and "040071" not in centres
    harness.assert_no_errors()


def test_a_crop_outside_the_board_is_refused_naming_its_numbers(harness):
    data, _found = vmod(CASES["flat-stagger"])
    result = read(harness, data, crop={"first_column": 50, "last_column": 60})
    assert result["error"]["key"] == "editor.vassal.crop_outside"
    params = result["error"]["params"]
    assert params["board"] == "Main board"
    assert params["first_column"] == result["boards"][0]["numbers"]["first_column"]
    assert params["last_column"] == result["boards"][0]["numbers"]["last_column"]


# Read a module in the harness, counting the Workers the page starts and what the reader says
# of its progress.
READ_WITH_PROGRESS = """async () => {
  const made = [];
  const Native = window.Worker;
  window.Worker = class extends Native {
    constructor(url, options) {
      super(url, options);
      made.push(String(url));
    }
  };
  try {
    const file = document.querySelector("#vmod").files[0];
    const heard = [];
    const module = await window.harness.readModule(file, (have, size) => heard.push([have, size]));
    return { made, heard, pieces: module.pieces.length, boards: module.boards.length };
  } finally {
    window.Worker = Native;
  }
}"""


def test_a_big_build_file_is_unpacked_in_a_worker_with_progress(harness):
    # Some 40,000 piece slots: a build file of several MB.
    pieces = [(f"Unit {n}", f"+/null/piece;;;u{n}.png;Unit {n}/null;0;0;{n}") for n in range(40000)]
    data, _found = vmod(Grid(pieces=pieces))
    harness.page.set_input_files(
        "#vmod", files=[{"name": "big.vmod", "mimeType": "application/zip", "buffer": data}]
    )
    result = harness.page.evaluate(READ_WITH_PROGRESS)
    assert any(url.endswith("/static/editor/vassal_worker.js") for url in result["made"])
    assert result["pieces"] == 40000 and result["boards"] == 1
    heard = result["heard"]
    assert len(heard) > 1, heard
    size = heard[-1][1]
    assert size > 4_000_000
    assert heard[-1][0] == size
    haves = [have for have, _ in heard]
    assert haves == sorted(haves) and all(s == size for _, s in heard)
    harness.assert_no_errors()
