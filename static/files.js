// Files the player picks (a scenario, a save, a combat results table): read as text, refused
// before parsing when longer than the core's limit for their kind, then parsed as JSON.
// Refusals are errors of the core's shape ({key, params}), worded by the UI.

// The key that says a file of each kind is not JSON.
const NOT_JSON = { scenario: "error.bad_file", save: "error.bad_file", crt: "error.bad_crt" };
// UTF-8 takes at most 4 bytes a character: a file over 4 times the limit is not even read.
const BYTES_PER_CHAR = 4;

// A reader for the limits `limits()` gives ({scenario, save, crt}: characters, from the core).
export function fileReader(limits) {
  return function readJsonFile(file, kind) {
    const limit = limits()[kind];
    const tooLarge = function (count) {
      return Promise.reject({
        key: "error.file_too_large",
        params: { name: file.name, count: count, limit: limit },
      });
    };
    if (limit && file.size > limit * BYTES_PER_CHAR) return tooLarge(file.size);
    return file.text().then(function (text) {
      if (limit && text.length > limit) return tooLarge(text.length);
      try {
        return JSON.parse(text);
      } catch (error) {
        return Promise.reject({
          key: NOT_JSON[kind],
          params: { detail: jsonProblem(error, text) },
        });
      }
    });
  };
}

// What is wrong with `text`, which JSON.parse refused with `error`, in words the UI has (a
// label, never the browser's own English): where the JSON stops, when the browser says (a line
// and column, or a position counted from the start), else that it is not JSON.
export function jsonProblem(error, text) {
  const message = String((error && error.message) || "");
  const at = /line (\d+) column (\d+)/.exec(message);
  if (at) return { key: "problem.json_at", params: { line: Number(at[1]), column: Number(at[2]) } };
  const position = /position (\d+)/.exec(message);
  if (position) {
    const lines = text.slice(0, Number(position[1])).split("\n");
    const column = lines[lines.length - 1].length + 1;
    return { key: "problem.json_at", params: { line: lines.length, column: column } };
  }
  return { key: "problem.json", params: {} };
}
