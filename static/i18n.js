// Message keys to words: static/i18n/<lang>.json, with {name} parameters filled in.
const LANGS = ["en", "pl", "fr", "ja"];

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
    return text.replace(/\{(\w+)\}/g, function (whole, name) {
      return Object.prototype.hasOwnProperty.call(values, name) ? String(values[name]) : whole;
    });
  }

  // Translate every element marked data-i18n="key" under `root`.
  apply(root) {
    const self = this;
    root.querySelectorAll("[data-i18n]").forEach(function (node) {
      node.textContent = self.t(node.getAttribute("data-i18n"));
    });
  }
}
