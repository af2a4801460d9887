// The player's choices, kept in this browser (localStorage) across tables and visits.
// Everything is off or plain by default; a bad stored value falls back to the default.
const DEFAULTS = { sort: "suit", sound: false, title: false, fourColour: false, lang: "" };
const KEY = "rummy:prefs";

function load() {
  try {
    const stored = JSON.parse(localStorage.getItem(KEY) || "{}");
    return typeof stored === "object" && stored ? stored : {};
  } catch {
    return {};
  }
}

export function pref(name) {
  const v = load()[name];
  return typeof v === typeof DEFAULTS[name] ? v : DEFAULTS[name];
}

export function setPref(name, value) {
  localStorage.setItem(KEY, JSON.stringify({ ...load(), [name]: value }));
}
