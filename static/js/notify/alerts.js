/* Sumito, the bell: what tells of a new notification in a background tab (a flashing title,
 * a desktop notification). */

const originalTitle = document.title;
let flashTimer = null;
let flashLabel = "";

/** Flash the tab's title with the unread count (`count()`) and `label` until the tab is seen. */
export function flashTitle(label, count) {
  flashLabel = label;
  if (flashTimer !== null) return;
  let marked = false;
  const tick = () => {
    marked = !marked;
    document.title = marked ? `(${count()}) ${flashLabel}` : originalTitle;
  };
  tick();
  flashTimer = window.setInterval(tick, 1000);
}

export function stopFlashing() {
  if (flashTimer === null) return;
  window.clearInterval(flashTimer);
  flashTimer = null;
  document.title = originalTitle;
}

/** A desktop notification, if the player allowed them; `onOpen(doc)` when it is clicked. */
export function desktopAlert(doc, onOpen) {
  if (!("Notification" in window) || window.Notification.permission !== "granted") return;
  const icon = document.querySelector("link[rel=icon]");
  try {
    const shown = new window.Notification("Sumito", {
      body: doc.text,
      tag: `sumito-notification-${doc.id}`, // one per notification, however many tabs are open
      icon: icon ? icon.href : undefined,
    });
    shown.addEventListener("click", () => {
      window.focus();
      shown.close();
      onOpen(doc);
    });
  } catch (unsupported) {
    /* some mobile browsers show notifications only from a service worker */
  }
}

/** The offer to allow desktop alerts (`row`), while the browser has not been asked. */
export function showPermissionOffer(row) {
  if (!row) return;
  row.hidden = !("Notification" in window) || window.Notification.permission !== "default";
}
