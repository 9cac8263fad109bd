// A module Worker that unpacks a VASSAL module's build file off the page's thread (vassal.js):
// a large module's build file is tens of MB to find, unpack and decode, which would hold the
// page still. It is given {file, native} (the .vmod, a File; whether the page unpacks with the
// browser's DecompressionStream, so that this unpacks the same way) and answers {progress: [have, size]} as
// the build file unpacks, then {text} or {error: {key, params}}; the page parses the text.
import { ZipReader, allowNativeDeflate } from "./zip.js";
import { buildText } from "./vassal_build.js";

self.onmessage = (event) => {
  const file = event.data && event.data.file;
  allowNativeDeflate(event.data && event.data.native);
  ZipReader.open(file, file && file.name)
    .then((zip) => buildText(zip, (have, size) => self.postMessage({ progress: [have, size] })))
    .then(
      (text) => self.postMessage({ text }),
      (error) =>
        self.postMessage({
          error: error && error.key ? { key: error.key, params: error.params || {} } : null,
          message: String((error && error.message) || error),
        }),
    );
};
