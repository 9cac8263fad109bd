// A pairing code as a QR code, and read back from a picture of one. Drawn by lean-qr, read by
// the browser's BarcodeDetector where it has one, else by jsQR: both pinned in package.json
// and copied by the build into dist/vendor/, loaded the first time a code is shown or read.
// The picture comes from a file input that asks for the camera (capture), so no permission
// for a live camera is needed.
const VENDOR = new URL("../vendor/", import.meta.url);
// Dark modules on white, four modules of quiet zone, 6 pixels a module: a reader's camera (or
// jsQR) finds it at arm's length.
const LOOK = { on: [0, 0, 0, 255], off: [255, 255, 255, 255], pad: 4, scale: 6 };
// A photo is read at this many pixels on its longer side at most.
const READ_PX = 1024;

// A data: URL of the QR code of `text` (a PNG).
export function qrImage(text) {
  return import(new URL("lean-qr.mjs", VENDOR).href).then((qr) =>
    qr.generate(text).toDataURL(LOOK),
  );
}

// The text of the QR code in a picture (a File or Blob), or null when none is found.
export function readQr(picture) {
  return createImageBitmap(picture).then((bitmap) => {
    if (!("BarcodeDetector" in self)) return withJsQr(bitmap);
    let detector;
    try {
      detector = new self.BarcodeDetector({ formats: ["qr_code"] });
    } catch (error) {
      return withJsQr(bitmap);
    }
    return detector.detect(bitmap).then(
      (found) => (found.length ? found[0].rawValue : withJsQr(bitmap)),
      () => withJsQr(bitmap),
    );
  });
}

function withJsQr(bitmap) {
  // jsQR is published as a script that puts `jsQR` on the global object.
  return import(new URL("jsQR.js", VENDOR).href).then(() => {
    const scale = Math.min(1, READ_PX / Math.max(bitmap.width, bitmap.height));
    const width = Math.max(1, Math.round(bitmap.width * scale));
    const height = Math.max(1, Math.round(bitmap.height * scale));
    const canvas = document.createElement("canvas");
    canvas.width = width;
    canvas.height = height;
    const context = canvas.getContext("2d", { willReadFrequently: true });
    context.drawImage(bitmap, 0, 0, width, height);
    const pixels = context.getImageData(0, 0, width, height);
    const found = self.jsQR(pixels.data, width, height);
    return found ? found.data : null;
  });
}
