{% load static %}/* Sumito's service worker (served at /sw.js so that it controls every page; docs/notifications.md).
 *
 * Offline: a page asked for while the network is gone gets the offline page, kept at install.
 * Web Push: each push is a notification of the site (JSON: title, body, url, tag) shown by the
 * system even when no tab is open; its tag is the notification's, so one pushed twice is shown
 * once; a click opens (or focuses) its page.
 */
const CACHE = "sumito-offline-{{ version }}";
const OFFLINE = "{% url 'offline' %}";
const KEPT = [OFFLINE, "{% static 'css/site.css' %}", "{% static 'img/favicon.svg' %}"];
const ICON = "{% static 'img/icon-192.png' %}";

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(KEPT)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((names) => Promise.all(names.filter((name) => name.startsWith("sumito-") && name !== CACHE).map((name) => caches.delete(name))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener("fetch", (event) => {
  if (event.request.mode !== "navigate") return; // only pages: the rest goes to the network as always
  event.respondWith(fetch(event.request).catch(() => caches.match(OFFLINE)));
});

self.addEventListener("push", (event) => {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch {
    data = { body: event.data ? event.data.text() : "" };
  }
  event.waitUntil(self.registration.showNotification(data.title || "Sumito", {
    body: data.body || "",
    tag: data.tag || undefined,
    icon: ICON,
    data: { url: data.url || "/" },
  }));
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = (event.notification.data && event.notification.data.url) || "/";
  event.waitUntil(self.clients.matchAll({ type: "window", includeUncontrolled: true }).then((open) => {
    const same = open.find((client) => client.url === url && "focus" in client);
    return same ? same.focus() : self.clients.openWindow(url);
  }));
});
