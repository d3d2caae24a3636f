/* Sumito: the colour theme switch in the footer (light, dark, or the device's choice).
 *
 * The choice is kept in localStorage and in the "theme" cookie for a year; the server reads the
 * cookie (core/theme.py) so the next page is drawn in the right theme from its first
 * paint. Switching here changes <html data-theme> and the media of the dark stylesheet
 * (#theme-dark-css) at once, without a reload. */
const THEMES = ["system", "light", "dark"];
const STORAGE_KEY = "sumito-theme";
const COOKIE = "theme";
const YEAR_SECONDS = 365 * 24 * 3600;
const DARK_MEDIA = {
  system: "screen and (prefers-color-scheme: dark)",
  light: "not all",
  dark: "screen",
};

const root = document.documentElement;
const darkSheet = document.getElementById("theme-dark-css");
const select = document.getElementById("theme-select");
const switcher = document.getElementById("theme-switch");

function stored() {
  try {
    const value = window.localStorage.getItem(STORAGE_KEY);
    return THEMES.includes(value) ? value : null;
  } catch (error) {
    return null; // storage refused (private mode, policy): the cookie alone remembers
  }
}

function remember(theme) {
  try {
    window.localStorage.setItem(STORAGE_KEY, theme);
  } catch (error) {
    /* the cookie still keeps it */
  }
  const secure = window.location.protocol === "https:" ? "; Secure" : "";
  document.cookie = `${COOKIE}=${theme}; Path=/; Max-Age=${YEAR_SECONDS}; SameSite=Lax${secure}`;
}

function apply(theme) {
  root.setAttribute("data-theme", theme);
  if (darkSheet) darkSheet.media = DARK_MEDIA[theme];
  if (select) select.value = theme;
}

// The server drew the page from the cookie. A choice kept only in localStorage (the cookie
// expired or was cleared) wins and is written back to the cookie.
const shown = THEMES.includes(root.getAttribute("data-theme")) ? root.getAttribute("data-theme") : "system";
const kept = stored();
if (kept && kept !== shown) {
  apply(kept);
  remember(kept);
} else if (!kept && shown !== "system") {
  remember(shown);
}

if (select) {
  select.addEventListener("change", () => {
    const theme = THEMES.includes(select.value) ? select.value : "system";
    apply(theme);
    remember(theme);
  });
}
if (switcher) switcher.hidden = false;
