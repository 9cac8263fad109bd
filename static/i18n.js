// Message keys to words: static/i18n/<lang>.json, with {name} parameters filled in, each
// parameter worded by its kind (docs/play-view.md, "Parameter kinds"): the core names the kind
// of every parameter (load_scenario's `words`), the app names the scenario's things (setWords).
const LANGS = ["en", "pl", "fr", "ja"];
const STORAGE_KEY = "muster.lang";
// Parameters of the core's messages whose values are words of the app: their kinds, unless
// the table of the scenario in play says otherwise.
const WORD_PARAMS = { part: "word:save_part.", what: "word:what." };
// A rule reference that is a number of the rules ("8.7", "19.11.1").
const RULE_NUMBER = /^\d+(\.\d+)*$/;
const NO_NAMES = {};

// A rule reference's key: "Terrain Effects Chart" -> "rule_ref.terrain_effects_chart".
export function ruleSlug(text) {
  return String(text)
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "");
}

// The scenario's own words (docs/scenario-format.md, "Texts in several languages") in `lang`:
// a text as it is; texts by language code in `lang`, else English, else the first given.
export function pickText(value, lang) {
  if (value === null || value === undefined) return "";
  if (typeof value !== "object" || Array.isArray(value)) return String(value);
  if (typeof value[lang] === "string") return value[lang];
  if (typeof value.en === "string") return value.en;
  const codes = Object.keys(value);
  for (let i = 0; i < codes.length; i++) {
    if (typeof value[codes[i]] === "string") return value[codes[i]];
  }
  return "";
}

function isLabel(value) {
  return Boolean(value) && typeof value === "object" && typeof value.key === "string";
}

// Put before each parameter's words while a text is filled, so that French elision (elide())
// touches only "de"/"que" written just before them; never left in a text.
const ELIDE_MARK = "\u0001";
// "de " or "que " (a whole word) before a marked parameter's words that begin with a vowel.
const ELIDE_BEFORE =
  /(^|[\s(«\u00a0"'])(de|que|De|Que) \u0001([aeiouyàâæéèêëîïôœùûüAEIOUYÀÂÆÉÈÊËÎÏÔŒÙÛÜ])/g;

export class I18n {
  constructor(baseUrl) {
    this.baseUrl = baseUrl;
    this.lang = "en";
    this.words = {};
    this.kinds = {}; // parameter name -> kind, from setWords
    this.names = NO_NAMES; // the app's resolver of the scenario's names, from setWords
    this.formats = {}; // Intl objects of the language, made once
  }

  // The language to start in: the one remembered (remember), else the first of `languages`
  // (the browser's) this app has words for, else English.
  preferred(languages) {
    const kept = this.remembered();
    if (kept) return kept;
    const list = languages || [];
    for (let i = 0; i < list.length; i++) {
      const code = String(list[i] || "")
        .slice(0, 2)
        .toLowerCase();
      if (LANGS.indexOf(code) >= 0) return code;
    }
    return "en";
  }

  // The language the player chose last time, or null (no storage, or nothing kept).
  remembered() {
    try {
      const code = window.localStorage.getItem(STORAGE_KEY);
      return LANGS.indexOf(code) >= 0 ? code : null;
    } catch (error) {
      return null;
    }
  }

  // Keep the player's choice of language for the next visit (silently not, without storage).
  remember(lang) {
    if (LANGS.indexOf(lang) < 0) return;
    try {
      window.localStorage.setItem(STORAGE_KEY, lang);
    } catch (error) {
      // private browsing or storage off: the choice lasts this visit only
    }
  }

  load(lang) {
    const code = LANGS.indexOf(lang) >= 0 ? lang : "en";
    const self = this;
    return fetch(new URL(code + ".json", this.baseUrl))
      .then(function (response) {
        if (!response.ok) throw new Error("i18n " + code + ": HTTP " + response.status);
        return response.json();
      })
      .then(function (words) {
        self.lang = code;
        self.words = words;
        self.formats = {};
        return self;
      });
  }

  // A text of the scenario (its title, description, a name) in the player's language:
  // pickText in this language.
  pick(value) {
    return pickText(value, this.lang);
  }

  // How to word the parameters of the scenario in play: `table` is parameter name -> kind
  // (load_scenario's or load_save's `words`); `names` gives the scenario's names, each
  // returning null when it does not know the id: {unit(id), place(id), side(id),
  // formation(id), facing(n)}.
  setWords(table, names) {
    this.kinds = table && typeof table === "object" ? table : {};
    this.names = names && typeof names === "object" ? names : NO_NAMES;
  }

  // The text for `key` with `params`; `fallback` (the core's English) if the key is unknown.
  // A key whose words are plural forms ({one, few, many, other}) takes the form of
  // params.count (or params.n) in this language.
  t(key, params, fallback) {
    const values = params || {};
    // "ui.rule" words a rule reference: asked for directly, it is the reference in words
    // (not "rule: rule: 8.7" from its own {rule} parameter of kind rule).
    if (key === "ui.rule" && values.rule !== undefined) return this.rule(values.rule);
    let text = this.text(key, values.count !== undefined ? values.count : values.n);
    if (text === undefined) {
      if (fallback !== undefined) return fallback;
      text = key;
    }
    const self = this;
    return this.elide(
      text.replace(/\{(\w+)\}/g, function (whole, name) {
        if (!Object.prototype.hasOwnProperty.call(values, name)) return whole;
        return ELIDE_MARK + self.word(name, values[name]);
      }),
    );
  }

  // French elides "de" and "que" before a vowel: "l'étape de {formation}" with "Artillerie"
  // reads "d'Artillerie". Only before a parameter's words (marked where they were put in):
  // the texts' own words are written elided already. Other languages: the marks go.
  elide(text) {
    if (this.lang !== "fr") return text.split(ELIDE_MARK).join("");
    return text
      .replace(ELIDE_BEFORE, function (whole, start, word, first) {
        return start + (word.length === 3 ? word.slice(0, 2) : word.charAt(0)) + "'" + first;
      })
      .split(ELIDE_MARK)
      .join("");
  }

  // The words of `key` (the plural form for `count` when it has forms), or undefined.
  text(key, count) {
    const text = this.words[key];
    if (text === undefined || text === null) return undefined;
    if (typeof text === "string") return text;
    if (typeof text !== "object") return String(text);
    let form = "other";
    const n = Number(count);
    if (count !== undefined && count !== null && count !== "" && isFinite(n)) {
      form = this.format("plural").select(n);
    }
    const chosen = text[form] !== undefined ? text[form] : text.other;
    return chosen === undefined ? undefined : String(chosen);
  }

  // A parameter's value in words, by the kind of its name: a label ({key, params}) is
  // worded in turn whatever its name; a parameter without a kind is shown as it is.
  word(name, value) {
    if (isLabel(value)) return this.t(value.key, value.params);
    let kind = Object.prototype.hasOwnProperty.call(this.kinds, name) ? this.kinds[name] : null;
    if (typeof kind !== "string") kind = WORD_PARAMS[name] || "text";
    return this.byKind(kind, value);
  }

  // `value` worded as a parameter of kind `kind` (docs/play-view.md).
  byKind(kind, value) {
    const self = this;
    const many = function (one) {
      if (!Array.isArray(value)) return self.byKind(one, value);
      return self.list(
        value.map(function (v) {
          return self.byKind(one, v);
        }),
      );
    };
    if (kind.slice(0, 5) === "word:") return this.wordOf(kind.slice(5), value);
    if (kind.slice(0, 6) === "words:") return many("word:" + kind.slice(6));
    switch (kind) {
      case "unit":
        return this.named("unit", value);
      case "units":
        return many("unit");
      case "place":
        return this.place(value);
      case "places":
        return many("place");
      case "side":
        return value === null || value === undefined
          ? this.t("ui.nobody")
          : this.named("side", value);
      case "formation":
        return this.formation(value);
      case "label":
        return isLabel(value) ? this.t(value.key, value.params) : this.plain(value);
      case "labels":
        return many("label");
      case "rule":
        return this.rule(value);
      case "facing":
        return this.named("facing", value);
      case "points":
        return this.points(value);
      case "number":
      case "count":
        return typeof value === "number" ? this.num(value) : this.plain(value);
      default: // "text", or a kind this app does not know
        return this.plain(value);
    }
  }

  // A name the app gives (unit, place, side, formation, facing), else the value as it is.
  named(what, value) {
    const resolve = this.names[what];
    if (typeof resolve === "function" && value !== null && value !== undefined) {
      const name = resolve.call(this.names, value);
      if (name !== null && name !== undefined) return String(name);
    }
    return this.plain(value);
  }

  // A place: a hex number as it is, a locale by its name, an approach "a/b" as "A → B".
  place(value) {
    if (typeof value === "string" && value.indexOf("/") > 0) {
      const self = this;
      return value
        .split("/")
        .map(function (part) {
          return self.named("place", part);
        })
        .join(" → ");
    }
    return this.named("place", value);
  }

  formation(value) {
    const resolve = this.names.formation;
    if (typeof resolve === "function" && value !== null && value !== undefined) {
      const name = resolve.call(this.names, value);
      if (name !== null && name !== undefined) return String(name);
    }
    return this.wordOf("formation.", value);
  }

  // The text of key prefix + id, else the id as it is.
  wordOf(prefix, value) {
    if (value === null || value === undefined) return this.plain(value);
    const text = this.text(prefix + value);
    return text === undefined ? this.plain(value) : text;
  }

  // A rule reference of the aid: "rule 8.7", the engine's default, or a table's name.
  rule(value) {
    if (value === null || value === undefined) return this.plain(value);
    const ref = String(value);
    if (RULE_NUMBER.test(ref)) return this.fill("ui.rule", { rule: ref });
    if (ref === "default") return this.t("ui.default_rule");
    const text = this.text("rule_ref." + ruleSlug(ref));
    return text === undefined ? ref : text;
  }

  // {side: points} as "France 5, Austria 3".
  points(value) {
    if (!value || typeof value !== "object" || Array.isArray(value)) return this.plain(value);
    const self = this;
    return this.list(
      Object.keys(value).map(function (side) {
        const n = value[side];
        return self.named("side", side) + " " + (typeof n === "number" ? self.num(n) : n);
      }),
    );
  }

  // The words of `key` with `raw` put in as they are (a key whose parameter is already worded).
  fill(key, raw) {
    const text = this.text(key);
    if (text === undefined) return key;
    return this.elide(
      text.replace(/\{(\w+)\}/g, function (whole, name) {
        return Object.prototype.hasOwnProperty.call(raw, name) ? ELIDE_MARK + raw[name] : whole;
      }),
    );
  }

  list(parts) {
    return parts.join(this.lang === "ja" ? "、" : ", ");
  }

  plain(value) {
    return String(value);
  }

  // A number as this language writes it.
  num(x) {
    return typeof x === "number" ? this.format("number").format(x) : String(x);
  }

  // A probability (0..1) as a percentage, one decimal at most: 0.125 -> "12.5 %" in fr.
  pct(p) {
    return typeof p === "number" ? this.format("percent").format(p) : String(p);
  }

  format(what) {
    if (!this.formats[what]) {
      if (what === "plural") this.formats[what] = new Intl.PluralRules(this.lang);
      else if (what === "percent") {
        this.formats[what] = new Intl.NumberFormat(this.lang, {
          style: "percent",
          maximumFractionDigits: 1,
        });
      } else this.formats[what] = new Intl.NumberFormat(this.lang);
    }
    return this.formats[what];
  }

  // Translate every element marked data-i18n="key" under `root`.
  apply(root) {
    const self = this;
    root.querySelectorAll("[data-i18n]").forEach(function (node) {
      node.textContent = self.t(node.getAttribute("data-i18n"));
    });
    // Buttons that show a sign only are named for screen readers and tooltips alike.
    root.querySelectorAll("[data-i18n-label]").forEach(function (node) {
      const label = self.t(node.getAttribute("data-i18n-label"));
      node.setAttribute("aria-label", label);
      node.setAttribute("title", label);
    });
  }
}
