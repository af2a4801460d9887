// French and English: the page's words come from the catalog in messages.js, looked up
// by key.  The language is the one chosen on the page (kept with the other choices),
// else the browser's first language we have, else English.
import { MESSAGES } from "./messages.js";
import { pref, setPref } from "./prefs.js";

export const LANGS = Object.keys(MESSAGES);

function detect() {
  const chosen = pref("lang");
  if (LANGS.includes(chosen)) return chosen;
  for (const l of navigator.languages || [navigator.language || "en"]) {
    const base = String(l).slice(0, 2).toLowerCase();
    if (LANGS.includes(base)) return base;
  }
  return "en";
}

export let lang = detect();

export function setLang(l) {
  if (!LANGS.includes(l)) return;
  setPref("lang", l);
  lang = l;
  document.documentElement.lang = l;
}

/** The message ``key`` with ``{name}`` replaced from ``vars``; the key itself when a
 * message is missing (a test checks that none is). */
export function t(key, vars = {}) {
  const text = MESSAGES[lang][key] ?? MESSAGES.en[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (all, k) => (k in vars ? String(vars[k]) : all));
}

const DEFAULT_BOT_NAME = /^Bot (\d+) \((easy|medium|hard)\)$/;

/** A seat's name as shown: the server's default bot name ("Bot 3 (medium)") in the
 * page's language ("Robot 3 (moyen)"); any other name as given. */
export function seatName(name) {
  const m = DEFAULT_BOT_NAME.exec(name);
  return m ? t("bot.named", { n: m[1], level: t(`bot.${m[2]}`) }) : name;
}

/** A message that depends on a count: ``key.one`` or ``key.other`` (French counts 0
 * and 1 as singular, English 1 only). */
export function tn(key, n, vars = {}) {
  const one = lang === "fr" ? Math.abs(n) < 2 : n === 1;
  return t(`${key}.${one ? "one" : "other"}`, { n, ...vars });
}

// A parameter of a family's status line as its name says to write it (see
// rummykit/variants/show.py): a card id as its face, a rank by its name.
function paramText(name, value, faceText) {
  if (typeof value !== "number") return String(value);
  if (name.endsWith("card")) return faceText(value);
  if (name === "rank" || name === "ranks") return t(`rank.${value % 13}`);
  return String(value);
}

/** A family's status line (the payload's ``status``) in the page's language: the
 * page's own words for its code (``show.<code>``) when the catalog has them, else the
 * server's text in the language (so a line no catalog here knows is still shown). */
export function lineText(line, faceText) {
  const key = `show.${line.code}`;
  if (!(key in MESSAGES[lang] || key in MESSAGES.en)) return lang === "fr" ? line.text_fr : line.text;
  const vars = Object.fromEntries(Object.entries(line.params).map(([k, v]) => [k, paramText(k, v, faceText)]));
  return t(key, vars);
}
