// A VASSAL module's build file as text, from its zip (zip.js): shared by the page (vassal.js)
// and the Worker that unpacks it off the page's thread (vassal_worker.js). No DOM here.
import { keyedError } from "./editor_common.js";

// The most of a module's build file read (unpacked): it is parsed whole into a document, some
// ten times its size in memory. Large modules' build files are a few MB.
export const MAX_BUILD_FILE_BYTES = 16 * 1024 * 1024;

// The text of the module's build file; `progress(have, size)` hears how far it is unpacked.
export async function buildText(zip, progress) {
  const entry = zip.find("buildFile.xml") || zip.find("buildFile");
  if (!entry) throw keyedError("editor.vassal.no_buildfile", { name: zip.name });
  return zip.text(entry, MAX_BUILD_FILE_BYTES, progress);
}
