// Quick pairing (docs/protocol.md "Quick pairing"): a button per game seeks strangers
// at it; the page then asks after its seek every second (HTTP polling) until the
// server has made the table, and goes to the seat's link.  The seek's token travels
// in a header, kept in this page only.
import { account, errorText } from "./account.js";
import { api, h } from "./dom.js";
import { t, tn } from "./i18n.js";

const POLL_MS = 1000;
const TIMERS = [0, 30, 60, 120];

async function seekCall(method, token) {
  const res = await fetch("/api/seek", { method, headers: { "x-seek-token": token } });
  const data = await res.json().catch(() => ({}));
  if (!res.ok) {
    const err = new Error(typeof data.detail === "string" ? data.detail : res.statusText);
    err.code = data.code;
    err.status = res.status;
    throw err;
  }
  return data;
}

/** The lobby's quick-pairing panel: ``games`` are the presets listed (name, title,
 * players), ``guestName`` the name box's value for a guest (or null).  Gives the
 * panel, ``seek(game)`` (a seek at that game, the panel's player count if the game
 * seats it, else its fewest) and ``accountChanged()`` (a guest is told what they get). */
export function pairingPanel(games, guestName) {
  const players = h("select", { id: "seek-players" }, [2, 3, 4].map((n) => h("option", { value: n, text: tn("lobby.players", n) })));
  const timer = h("select", { id: "seek-timer" }, TIMERS.map((s) => h("option", { value: s, text: s ? t("lobby.timer_s", { s }) : t("pair.no_timer") })));
  const bot = h("input", { type: "checkbox", id: "seek-bot" });
  const err = h("p", { class: "error", id: "seek-error", role: "alert" });
  const status = h("div", { id: "seek-status", class: "seek-status", "aria-live": "polite" });
  const buttons = games.map((g) => h("button", { type: "button", class: "seek", "data-game": g.name, text: g.title, title: g.description || "", onclick: () => start(g) }));
  let token = null;
  let timerId = null;

  function fits() {
    const n = Number(players.value);
    games.forEach((g, i) => { buttons[i].disabled = token !== null || n < g.players[0] || n > g.players[1]; });
  }

  function stop() {
    if (timerId) clearTimeout(timerId);
    timerId = null;
    token = null;
    status.replaceChildren();
    fits();
  }

  // The seek's line, its time renewed in place: the Cancel button stays, and keeps
  // the focus it may have.
  function waiting(g, seek) {
    const text = " " + t("pair.waiting", { game: g.title, s: Math.round(seek.waited) }) + " ";
    const line = status.querySelector("#seek-waiting");
    if (line) { line.textContent = text; return; }
    status.replaceChildren(
      h("span", { class: "spinner", "aria-hidden": "true" }),
      h("span", { id: "seek-waiting", text }),
      h("button", { type: "button", id: "seek-cancel", text: t("pair.cancel"), onclick: cancel }));
  }

  async function poll(g) {
    if (token === null) return;
    try {
      const seek = await seekCall("GET", token);
      if (seek.status === "paired" && seek.link) {
        status.replaceChildren(h("span", { id: "seek-paired", text: t("pair.found") }));
        location.href = seek.link;
        return;
      }
      waiting(g, seek);
    } catch (e) {
      if (e.status === 404) { stop(); err.textContent = t("pair.expired"); return; }
    }
    timerId = setTimeout(() => poll(g), POLL_MS);
  }

  async function start(g) {
    err.textContent = "";
    const body = { game: g.name, players: Number(players.value), bot: bot.checked };
    if (Number(timer.value) > 0) body.timer = Number(timer.value);
    if (!account) { const name = guestName(); if (name) body.name = name; }
    try {
      const seek = await api("/api/seek", body);
      token = seek.token;
      fits();
      waiting(g, seek);
      timerId = setTimeout(() => poll(g), POLL_MS);
    } catch (e) { err.textContent = errorText(e); }
  }

  async function cancel() {
    if (token === null) return;
    const held = token;
    try {
      await seekCall("DELETE", held);
      stop();
    } catch (e) {
      if (e.status === 404) stop();
      else err.textContent = errorText(e); // paired meanwhile: the next poll goes to the seat
    }
  }

  // A seek from elsewhere on the page (a game's tile): it shows here, its Cancel
  // button focused (or the panel's error, when it was refused).
  async function seek(name) {
    const g = games.find((x) => x.name === name);
    if (g && token === null) {
      const n = Number(players.value);
      if (n < g.players[0] || n > g.players[1]) players.value = String(g.players[0]);
      fits();
      await start(g);
    }
    const cancelBtn = status.querySelector("#seek-cancel");
    if (cancelBtn) cancelBtn.focus();
  }

  // What "medium" means: the medium bot's fixed rating at the games it was measured
  // at (docs/accounts.md, "The bots' ratings"), shown beside the bot box.
  const botRating = h("span", { class: "muted", id: "seek-bot-rating" });
  api("/api/bot-ratings").then((all) => {
    const known = games.map((g) => [g, (all[g.name] || []).find((b) => b.difficulty === "medium")]).filter(([, b]) => b);
    if (known.length) botRating.textContent = " " + t("pair.bot_rating", { ratings: known.map(([g, b]) => `${g.title} ${b.rating.toFixed(1)}`).join(", ") });
  }).catch(() => {});
  const guestNote = h("p", { class: "note", id: "pair-guest", text: t("pair.guest") });
  const accountChanged = () => { guestNote.hidden = Boolean(account); };
  players.addEventListener("change", fits);
  fits();
  accountChanged();
  const panel = h("section", { class: "panel", id: "pairing" },
    h("h2", { text: t("pair.title") }),
    h("p", { class: "muted", text: t("pair.what") }), guestNote,
    h("div", { class: "quick" }, h("label", {}, t("pair.players") + " ", players), h("label", {}, t("lobby.timer") + " ", timer),
      h("label", {}, bot, " " + t("pair.bot")), botRating),
    h("div", { class: "quick seek-games" }, buttons),
    status, err);
  return { panel, seek, accountChanged };
}
