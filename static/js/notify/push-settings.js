/* Sumito: Web Push on this device, on the notification settings page (#push; docs/notifications.md).
 *
 * "Turn on" asks the browser's permission, registers the service worker (/sw.js), subscribes
 * with the site's VAPID public key and sends the subscription, with the kinds ticked and the
 * device's name, to the API (POST /api/v1/me/push-subscriptions/); a tick changed afterwards is
 * saved at once (PATCH); "Turn off" unsubscribes the browser and forgets the device (DELETE).
 * The list shows every device of the player; one may be removed from here.
 */
import { call } from "sumito/api.js";
import { gettext } from "sumito/i18n.js";

const $ = (id) => document.getElementById(id);

function keyBytes(base64url) {
  const text = atob(base64url.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (base64url.length % 4)) % 4));
  return Uint8Array.from(text, (char) => char.charCodeAt(0));
}

function deviceName() {
  const agent = navigator.userAgent;
  const browser = /Firefox\//.test(agent) ? "Firefox" : /Edg\//.test(agent) ? "Edge" : /Chrom(e|ium)\//.test(agent) ? "Chrome" : /Safari\//.test(agent) ? "Safari" : gettext("Browser");
  const system = /Android/.test(agent) ? "Android" : /iPhone|iPad/.test(agent) ? "iOS" : /Windows/.test(agent) ? "Windows" : /Mac OS/.test(agent) ? "macOS" : /Linux/.test(agent) ? "Linux" : "";
  return system ? `${browser} (${system})` : browser;
}

function start(section) {
  const doc = JSON.parse($("push-start").textContent);
  const api = section.dataset.api;
  const supported = "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;
  let mine = null; // this device's entry in the player's devices, once subscribed

  const status = (text, isError = false) => {
    $("push-status").textContent = text;
    $("push-status").classList.toggle("error", isError);
  };
  const kinds = () => [...section.querySelectorAll("input[name=push_kind]:checked")].map((box) => box.value);

  async function browserSubscription() {
    const registration = await navigator.serviceWorker.getRegistration("/");
    return registration ? registration.pushManager.getSubscription() : null;
  }

  function show() {
    $("push-on").hidden = Boolean(mine);
    $("push-off").hidden = !mine;
    $("push-on").disabled = !supported;
    $("push-no-devices").hidden = $("push-devices").children.length > 0;
    for (const item of $("push-devices").children) {
      item.classList.toggle("this-device", Boolean(mine) && Number(item.dataset.id) === mine.id);
    }
  }

  function listItem(device) {
    let item = $("push-devices").querySelector(`li[data-id="${device.id}"]`);
    if (!item) {
      item = document.createElement("li");
      item.dataset.id = String(device.id);
      item.innerHTML = '<span class="push-device-name"></span> <span class="muted"></span> <button type="button" class="small secondary push-remove"></button>';
      item.querySelector(".push-remove").textContent = gettext("Remove");
      $("push-devices").appendChild(item);
    }
    item.dataset.endpoint = device.endpoint;
    item.querySelector(".push-device-name").textContent = device.device || device.push_service;
    item.querySelector(".muted").textContent = gettext("this device");
    return item;
  }

  async function turnOn() {
    $("push-on").disabled = true;
    try {
      const permission = await Notification.requestPermission();
      if (permission !== "granted") {
        status(gettext("This browser blocks notifications from this site: allow them in its site settings, then turn them on again."), true);
        return;
      }
      const registration = await navigator.serviceWorker.register("/sw.js");
      await navigator.serviceWorker.ready;
      let subscription = await registration.pushManager.getSubscription();
      if (!subscription) {
        subscription = await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(doc.public_key) });
      }
      const json = subscription.toJSON();
      mine = await call("POST", api, { endpoint: json.endpoint, keys: json.keys, kinds: kinds(), device: $("push-device").value.trim() || deviceName() });
      listItem(mine);
      status(gettext("Push notifications are on for this device."));
    } catch (error) {
      status(error.message || gettext("This browser could not subscribe to push notifications."), true);
    } finally {
      show();
    }
  }

  async function turnOff() {
    $("push-off").disabled = true;
    try {
      const subscription = await browserSubscription();
      if (subscription) await subscription.unsubscribe();
      if (mine) {
        await call("DELETE", `${api}${mine.id}/`);
        const item = $("push-devices").querySelector(`li[data-id="${mine.id}"]`);
        if (item) item.remove();
      }
      mine = null;
      status(gettext("Push notifications are off for this device."));
    } catch (error) {
      status(error.message, true);
    } finally {
      $("push-off").disabled = false;
      show();
    }
  }

  async function saveKinds() {
    if (!mine) return;
    try {
      mine = await call("PATCH", `${api}${mine.id}/`, { kinds: kinds() });
      status(gettext("Saved for this device."));
    } catch (error) {
      status(error.message, true);
    }
  }

  async function remove(item) {
    try {
      await call("DELETE", `${api}${item.dataset.id}/`);
      if (mine && Number(item.dataset.id) === mine.id) {
        const subscription = await browserSubscription();
        if (subscription) await subscription.unsubscribe();
        mine = null;
      }
      item.remove();
      status(gettext("Device removed."));
    } catch (error) {
      status(error.message, true);
    } finally {
      show();
    }
  }

  async function begin() {
    if (!supported) {
      status(gettext("This browser cannot receive push notifications."), true);
      show();
      return;
    }
    $("push-device").value = deviceName();
    const subscription = await browserSubscription().catch(() => null);
    const found = subscription && doc.devices.find((device) => device.endpoint === subscription.endpoint);
    if (found) {
      mine = found;
      $("push-device").value = found.device;
      for (const box of section.querySelectorAll("input[name=push_kind]")) box.checked = found.kinds.includes(box.value);
      status(gettext("Push notifications are on for this device."));
    }
    show();
    section.dataset.ready = "true";
  }

  $("push-on").addEventListener("click", turnOn);
  $("push-off").addEventListener("click", turnOff);
  section.addEventListener("change", (event) => {
    if (event.target.name === "push_kind") saveKinds();
  });
  $("push-devices").addEventListener("click", (event) => {
    const button = event.target.closest(".push-remove");
    if (button) remove(button.closest("li"));
  });
  begin();
}

const section = document.getElementById("push");
if (section && document.getElementById("push-start")) start(section);
