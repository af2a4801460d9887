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
const ANONYMOUS_NAME = /^Anonymous (\d+)$/; // a deleted account's seat (web/accounts.py)

/** A seat's name as shown: the server's default bot name ("Bot 3 (medium)") in the
 * page's language ("Robot 3 (moyen)"); any other name as given. */
export function seatName(name) {
  const m = DEFAULT_BOT_NAME.exec(name);
  if (m) return t("bot.named", { n: m[1], level: t(`bot.${m[2]}`) });
  const a = ANONYMOUS_NAME.exec(name);
  return a ? t("seat.anonymous", { n: a[1] }) : name;
}

/** A message that depends on a count: ``key.one`` or ``key.other`` (French counts 0
 * and 1 as singular, English 1 only). */
export function tn(key, n, vars = {}) {
  const one = lang === "fr" ? Math.abs(n) < 2 : n === 1;
  return t(`${key}.${one ? "one" : "other"}`, { n, ...vars });
}

// A parameter of a family's status line as its name says to write it (see
// rummykit/variants/show.py): its French words when the server gave them (a
// contract), a card id as its face, a rank by its name, a seat ("who") by its name.
function paramText(line, name, value, faceText, seatText) {
  if (lang === "fr" && line.params_fr && name in line.params_fr) return line.params_fr[name];
  if (typeof value !== "number") return String(value);
  if (name === "who") return seatText(value);
  if (name.endsWith("card")) return faceText(value);
  if (name === "rank" || name === "ranks") return t(`rank.${value % 13}`);
  return String(value);
}

/** Whether the page's catalog words ``key``. */
export const known = (key) => key in MESSAGES[lang] || key in MESSAGES.en;

/** A family's status line (the payload's ``status``) in the page's language: the
 * page's own words for its code (``show.<code>``) when the catalog has them, else the
 * server's text in the language (so a line no catalog here knows is still shown).
 * A turn's advice (the payload's ``advice``) is worded the same way under its code
 * itself (``key`` without a prefix), its seats by ``seatText``. */
export function lineText(line, faceText, key = `show.${line.code}`, seatText = String) {
  if (!known(key)) return lang === "fr" ? line.text_fr : line.text;
  const vars = Object.fromEntries(Object.entries(line.params).map(([k, v]) => [k, paramText(line, k, v, faceText, seatText)]));
  return t(key, vars);
}
