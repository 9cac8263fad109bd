// What play draws on each kind of map: the pieces of the view, the marks the core gives them,
// the attacks in progress, and what a tap may act on. One board per renderer; the panel
// (panel.js) never knows which it has. Nothing here decides a rule.

// Marker badges of a piece: the core's marker ids, worded in the player's language.
function badges(i18n, ids) {
  return (ids || []).map(function (id) {
    return {
      id: id,
      sign: i18n.t("marker_sign." + id),
      title: i18n.t("marker." + id),
    };
  });
}

// What every board does the same way over its renderer (both renderers share PanZoomMap's
// focus and keyboard cursor).
class Board {
  constructor(map, i18n) {
    this.map = map;
    this.i18n = i18n;
  }

  // The keyboard: give the map the focus (its cursor shows), and whether it has it.
  focusMap() {
    this.map.focus();
  }

  hasFocus() {
    return Boolean(this.map.keyboardActive);
  }

  // Bring the pieces that act next into view: the least pan that shows them all.
  focus(view, units) {
    if (units.length && this.map.showPieces) this.map.showPieces(units);
  }

  // What is lit, brought into view when it changes: a piece newly selected (from the
  // panel's list, a stack's picker, a prompt's item, or the map); else places newly lit
  // (what a prompt asks about) when none of them shows.
  reveal(marks) {
    const map = this.map;
    if (!map.showPieces) return;
    const selected = marks && marks.selected != null ? String(marks.selected) : null;
    const places = (marks && marks.places) || [];
    const units = (marks && marks.units) || [];
    const key = places.slice().sort().join(" ") + "|" + units.slice().sort().join(" ");
    if (selected && selected !== this.shownSelected) {
      map.showPieces([selected]);
    } else if (!selected && key !== this.shownKey && places.length) {
      if (!map.placesInView(places)) map.showPlaces(places);
      if (units.length && !map.piecesInView(units)) map.showPieces(units);
    }
    this.shownSelected = selected;
    this.shownKey = key;
  }
}

// A hex map: units stand in hexes, places are hex numbers.
export class HexBoard extends Board {
  // Every unit on the map where the view puts it, with its facing and markers.
  draw(view, scenario) {
    const units = (view.state && view.state.units) || {};
    const markers = view.markers || {};
    const i18n = this.i18n;
    this.map.setUnits(
      ((scenario && scenario.units) || [])
        .filter(function (u) {
          return units[u.id] && !units[u.id].out;
        })
        .map(function (u) {
          return Object.assign({}, u, {
            hex: units[u.id].hex,
            facing: units[u.id].facing,
            markers: badges(i18n, markers[u.id]),
          });
        }),
    );
    if (this.map.setObjectives && view.objectives) this.map.setObjectives(view.objectives);
    this.arrows(view.arrows);
  }

  arrows(list) {
    if (this.map.setArrows) this.map.setArrows(list && list.length ? list : null);
  }

  // Light the places a tap may act on (with a cost text each, if given) and the units.
  light(marks) {
    if (this.map.light) {
      this.map.light(marks);
      this.reveal(marks);
      return;
    }
    const shade = {};
    ((marks && marks.places) || []).forEach(function (p) {
      const text = marks.costs && marks.costs[p];
      shade[p] = text ? { cls: "reach", text: text } : "reach";
    });
    this.map.highlight(marks ? shade : null);
    this.map.selectUnit(marks ? marks.selected : null);
  }

  // Mark what a result card concerns: its places and the hexes of its units; null clears.
  mark(view, marks) {
    if (!this.map.mark) return;
    if (!marks) {
      this.map.mark(null);
      return;
    }
    const all = (view.state && view.state.units) || {};
    const places = marks.places.slice();
    marks.units.forEach(function (id) {
      if (all[id] && all[id].hex && !all[id].out) places.push(all[id].hex);
    });
    this.map.mark(places);
  }

  // What a tap reported, as the panel reads it: the place, the unit tapped, the units there.
  tap(label, info) {
    return {
      place: label,
      unit: (info && info.unit) || null,
      stack: (info && (info.stack || info.units)) || [],
    };
  }

  // The units standing at a place (a stack), in drawing order.
  unitsAt(view, place) {
    const units = (view.state && view.state.units) || {};
    return Object.keys(units).filter(function (id) {
      return units[id].hex === place && !units[id].out;
    });
  }

  clear() {
    this.map.setUnits([]);
    this.light(null);
    this.mark(null, null);
    this.arrows(null);
  }

  // Ids of what may be named in messages: the view's units are the scenario's.
  pieceName() {
    return null;
  }
}

// An area map: blocks stand in locales or on approaches ("a/b"), places are either.
export class AreaBoard extends Board {
  draw(view) {
    const s = view.state || {};
    const markers = view.markers || {};
    const i18n = this.i18n;
    // Who holds each objective (the core's view of them), else of every locale.
    const held = {};
    if (view.objectives) view.objectives.forEach((o) => (held[o.at] = o.holder));
    this.map.setHolders(view.objectives ? held : s.held || {});
    this.map.setPieces(
      (s.blocks || []).map(function (b) {
        const name = b.name === undefined ? {} : { name: i18n.pick(b.name) };
        return Object.assign({}, b, name, { markers: badges(i18n, markers[b.id]) });
      }),
    );
    this.map.select(s.selection || []);
    this.arrows(view.arrows);
  }

  arrows(list) {
    if (this.map.setArrows) this.map.setArrows(list && list.length ? list : null);
  }

  light(marks) {
    this.reveal(marks);
    if (!marks) {
      this.map.light(null);
      return;
    }
    // The renderer's light() takes places and units; locales, approaches and pieces are the
    // same split its older form read.
    const places = marks.places || [];
    this.map.light({
      places: places,
      locales: places.filter(function (p) {
        return p.indexOf("/") < 0;
      }),
      approaches: places.filter(function (p) {
        return p.indexOf("/") >= 0;
      }),
      pieces: marks.units || [],
      units: marks.units || [],
      selected: marks.selected || null,
    });
  }

  // Mark what a result card concerns: its places and where its blocks stand; null clears.
  mark(view, marks) {
    if (!this.map.mark) return;
    if (!marks) {
      this.map.mark(null);
      return;
    }
    const places = marks.places.slice();
    ((view.state && view.state.blocks) || []).forEach(function (b) {
      if (marks.units.indexOf(b.id) >= 0 && places.indexOf(b.locale) < 0) places.push(b.locale);
    });
    this.map.mark(places);
  }

  tap(target) {
    if (!target) return { place: null, unit: null, stack: [] };
    if (target.kind === "piece") {
      return { place: target.place || null, unit: target.id, stack: target.stack || [target.id] };
    }
    return { place: target.id, unit: null, stack: [] };
  }

  unitsAt(view, place) {
    return ((view.state && view.state.blocks) || [])
      .filter(function (b) {
        return (b.approach ? b.locale + "/" + b.approach : b.locale) === place;
      })
      .map(function (b) {
        return b.id;
      });
  }

  clear() {
    this.map.setPieces([]);
    this.light(null);
    this.mark(null, null);
    this.arrows(null);
  }

  // A block as its side's screen names it: its name, or a bare block by where it stands.
  pieceName(view, id) {
    const block = ((view && view.state && view.state.blocks) || []).find(function (b) {
      return b.id === id;
    });
    if (!block) return null;
    return block.hidden ? { hidden: true, locale: block.locale } : this.i18n.pick(block.name);
  }
}
