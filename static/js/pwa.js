/* Sumito: the installable app. Every page registers the service worker (/sw.js, templates/pwa/):
 * the offline page when the network is gone, and Web Push's notifications (docs/notifications.md).
 * A browser without service workers (or a private window refusing them) simply goes without. */
if ("serviceWorker" in navigator) {
  navigator.serviceWorker.register("/sw.js").catch(() => {});
}
