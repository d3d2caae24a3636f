/* Sumito: the translations of the page scripts.
 *
 * Django's JavaScript catalogue (/jsi18n/, a classic script loaded by base.html before every
 * module) defines gettext, ngettext, pgettext and interpolate on the window; this module is the
 * only place that reads them. Without the catalogue (it failed to load) the English text is
 * shown. Call these by their usual names, so that makemessages still finds the strings.
 */

const catalogue = (name) => (typeof globalThis[name] === "function" ? globalThis[name] : null);

export function gettext(text) {
  const translate = catalogue("gettext");
  return translate ? translate(text) : text;
}

export function ngettext(singular, plural, count) {
  const translate = catalogue("ngettext");
  if (translate) return translate(singular, plural, count);
  return count === 1 ? singular : plural;
}

export function pgettext(context, text) {
  const translate = catalogue("pgettext");
  return translate ? translate(context, text) : text;
}

/** "%(name)s" filled from `values` (named), or each "%s" in turn from a list. */
export function interpolate(text, values, named = false) {
  const fill = catalogue("interpolate");
  if (fill) return fill(text, values, named);
  if (named) return text.replace(/%\(\w+\)s/g, (match) => String(values[match.slice(2, -2)]));
  let index = 0;
  return text.replace(/%s/g, () => String(values[index++]));
}

/** The usual case: a translated text with named values. */
export const format = (text, values) => interpolate(text, values, true);
