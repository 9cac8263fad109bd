// Modal dialogs keep the focus. The browser makes the page behind a modal dialog inert, but
// Tab from its last control leaves for the browser's own toolbar; here Tab and Shift+Tab
// cycle through the controls of the topmost modal dialog instead, and a focus lost to the
// page's body comes back into it.
const FOCUSABLE =
  "button:not([disabled]), [href], input:not([disabled]):not([type='hidden']), " +
  "select:not([disabled]), textarea:not([disabled]), summary, [tabindex]:not([tabindex='-1'])";

function isModal(dialog) {
  try {
    return dialog.matches(":modal");
  } catch (error) {
    return dialog.open; // a browser without :modal
  }
}

// The modal dialog the focus is in, else the last one open.
function topModal() {
  const inside = document.activeElement && document.activeElement.closest("dialog[open]");
  if (inside && isModal(inside)) return inside;
  const open = document.querySelectorAll("dialog[open]");
  for (let i = open.length - 1; i >= 0; i--) {
    if (isModal(open[i])) return open[i];
  }
  return null;
}

function controls(dialog) {
  return Array.prototype.filter.call(dialog.querySelectorAll(FOCUSABLE), function (node) {
    return !node.hidden && node.getClientRects().length > 0;
  });
}

export function keepFocusInDialogs(doc) {
  doc.addEventListener("keydown", function (event) {
    if (event.key !== "Tab" || event.defaultPrevented) return;
    const dialog = topModal();
    if (!dialog) return;
    const list = controls(dialog);
    if (!list.length) return;
    const at = list.indexOf(doc.activeElement);
    let next = null;
    if (at < 0) next = event.shiftKey ? list[list.length - 1] : list[0];
    else if (event.shiftKey && at === 0) next = list[list.length - 1];
    else if (!event.shiftKey && at === list.length - 1) next = list[0];
    if (next) {
      event.preventDefault();
      next.focus();
    }
  });
}
