// Message keys to words: static/i18n/<lang>.json, with {name} parameters filled in.
const LANGS = ["en", "pl", "fr", "ja"];
// Parameters of the core's messages whose values are words of the app: key prefix + value.
const WORD_PARAMS = { part: "save_part.", what: "what." };

export class I18n {
  constructor(baseUrl) {
    this.baseUrl = baseUrl;
    this.lang = "en";
    this.words = {};
  }

  preferred(languages) {
    for (let i = 0; i < languages.length; i++) {
      const code = String(languages[i] || "")
        .slice(0, 2)
        .toLowerCase();
      if (LANGS.indexOf(code) >= 0) return code;
    }
    return "en";
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
        return self;
      });
  }

  // The text for `key` with `params`; `fallback` (the core's English) if the key is unknown.
  t(key, params, fallback) {
    let text = this.words[key];
    if (text === undefined) {
      if (fallback !== undefined) return fallback;
      text = key;
    }
    const values = params || {};
    const self = this;
    return text.replace(/\{(\w+)\}/g, function (whole, name) {
      if (!Object.prototype.hasOwnProperty.call(values, name)) return whole;
      return self.word(name, values[name]);
    });
  }

  // A parameter's value in words: an error of the core's shape ({key, params}) worded in
  // turn, a word of the app for the parameters that name one (WORD_PARAMS), else as it is.
  word(name, value) {
    if (value && typeof value === "object" && typeof value.key === "string") {
      return this.t(value.key, value.params);
    }
    const prefix = WORD_PARAMS[name];
    if (prefix && typeof value === "string" && this.words[prefix + value] !== undefined) {
      return this.words[prefix + value];
    }
    return String(value);
  }

  // Translate every element marked data-i18n="key" under `root`.
  apply(root) {
    const self = this;
    root.querySelectorAll("[data-i18n]").forEach(function (node) {
      node.textContent = self.t(node.getAttribute("data-i18n"));
    });
  }
}
