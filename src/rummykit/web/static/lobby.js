// The front page: a tile per game with three ways to play it (the computer, a friend
// by link, quick pairing), the account, a custom table (every option of a table, folded
// away), and the public tables to join or watch.
import { account, accountPanel, errorText } from "./account.js";
import { api, h } from "./dom.js";
import { lang, seatName, t, tn } from "./i18n.js";
import { pairingPanel } from "./pairing.js";
import { gamePicker } from "./picker.js";

const DIFFICULTIES = ["easy", "medium", "hard"];
const DEFAULT_BOT = "easy"; // as in the terminal game: medium wins 66% of matches against easy, too many for a first game
// Gin means a game to 100 (gin_match, listed just before gin); one hand is its own
// entry.  Every game is shown by its title (the server's one table of names).
const PLAY_NOW_BOT = "medium"; // against the computer (a tile, or Play now): bots that put up a fight
// The table whose links are shown (a tile's box or the custom table's): one at a time.
let shown = null;

export async function lobby(app) {
  app.replaceChildren();
  const presets = await api(`/api/presets?lang=${lang}`).catch(() => [{ name: "basic", title: "basic", description: "", players: [2, 6], summary: [] }]);
  const seatsBox = h("div", { class: "seats" });
  const nSeats = h("select", { id: "n-seats" }, [2, 3, 4, 5, 6, 7, 8].map((n) => h("option", { value: n, text: tn("lobby.players", n) })));
  const listed = presets.filter((p) => p.name !== "gin_match");
  const ginMatch = presets.find((p) => p.name === "gin_match");
  if (ginMatch) listed.splice(Math.max(0, listed.findIndex((p) => p.name === "gin")), 0, ginMatch);
  const preset = h("select", { id: "preset" }, listed.map((p) => h("option", { value: p.name, text: p.title, title: p.description })));
  const house = h("input", { id: "house", "aria-label": t("lobby.house"), placeholder: t("lobby.house_eg", { example: "multiple_melds=true" }), maxlength: 300 });
  const myName = h("input", { id: "my-name", placeholder: t("lobby.name_ph"), maxlength: 24, autocomplete: "nickname", value: localStorage.getItem("rummy:name") || "" });
  const endSel = h("select", { id: "end" }, h("option", { value: "default", text: t("lobby.end_default") }),
    h("option", { value: "deals", text: t("lobby.end_deals") }), h("option", { value: "target", text: t("lobby.end_target") }));
  const endVal = h("input", { id: "end-value", type: "number", min: 1, class: "short", "aria-label": t("lobby.end_value") });
  const timer = h("input", { id: "timer", type: "number", min: 0, placeholder: t("lobby.off"), class: "short" });
  const pub = h("input", { id: "public", type: "checkbox" });
  const specChat = h("input", { id: "spectator-chat", type: "checkbox" });
  const rated = h("input", { id: "rated", type: "checkbox" });
  const ratedRow = h("label", {}, rated, " " + t("lobby.rated"));
  const err = h("p", { class: "error", id: "lobby-error", role: "alert" });
  // Play now's own error, beside its button (the form's is below the fold on a phone)
  const quickErr = h("p", { class: "error", id: "play-now-error", role: "alert" });
  const result = h("div", { id: "created" });
  // what a tile's way to play came to: its links or its error, shown in the tile
  const picked = h("div", { id: "picked", "aria-live": "polite" });
  const pickedErr = h("p", { class: "error", id: "picker-error", role: "alert" });
  const summary = h("div", { class: "rules-summary", id: "preset-summary", "aria-live": "polite" });
  const current = () => presets.find((x) => x.name === preset.value) || presets[0];

  function drawSeats() {
    const n = Number(nSeats.value);
    seatsBox.replaceChildren(
      h("div", { class: "seat-row" }, h("b", { text: t("lobby.seat_you") })),
      ...Array.from({ length: n - 1 }, (_, i) => {
        const diff = h("select", { class: "seat-diff", "data-seat": i + 1, "aria-label": t("lobby.difficulty", { n: i + 2 }) },
          DIFFICULTIES.map((d) => h("option", { value: d, text: t(`bot.${d}`), selected: d === DEFAULT_BOT })));
        // only a bot has a difficulty: a person's seat shows none
        const kind = h("select", { class: "seat-kind", "data-seat": i + 1, "aria-label": t("lobby.seat_kind", { n: i + 2 }),
          onchange: () => { diff.hidden = kind.value !== "bot"; } },
        h("option", { value: "bot", text: t("lobby.kind_bot") }), h("option", { value: "human", text: t("lobby.kind_invite") }),
        h("option", { value: "open", text: t("lobby.kind_open") }));
        return h("div", { class: "seat-row" }, h("span", { text: t("lobby.seat_n", { n: i + 2 }) }), kind, diff);
      }),
    );
  }
  nSeats.addEventListener("change", drawSeats);

  // The box beside "Play to" shows what the match really plays to: the preset's own
  // target (or number of deals) until the player picks another end.
  function drawEnd() {
    const p = current();
    endVal.disabled = endSel.value === "default";
    if (endSel.value === "default") endVal.value = String(p.deals ?? p.target ?? "");
    else if (endSel.value === "deals") endVal.value = String(p.deals ?? 1);
    else endVal.value = String(p.target ?? 100);
    endVal.title = endSel.value === "default" && p.deals ? t("lobby.deals_unit") : t("lobby.points_unit");
  }
  endSel.addEventListener("change", drawEnd);

  // Offer only the seat counts the preset allows (Gin: 2), with a fitting example and
  // a short summary of its rules.
  function presetChanged() {
    const p = current();
    const [lo, hi] = p.players || [2, 6];
    for (const opt of nSeats.options) opt.disabled = Number(opt.value) < lo || Number(opt.value) > hi;
    const n = Number(nSeats.value);
    if (n < lo || n > hi) nSeats.value = String(Math.min(Math.max(n, lo), hi));
    house.placeholder = t("lobby.house_eg", { example: p.example || "multiple_melds=true" });
    summary.replaceChildren(
      h("p", { class: "muted", id: "preset-description", text: p.description || "" }),
      h("ul", {}, (p.summary || []).slice(1, 4).map((line) => h("li", { text: line }))),
      (p.summary || []).length > 4 ? h("details", {}, h("summary", { text: t("lobby.all_rules") }),
        h("ul", {}, p.summary.slice(4).map((line) => h("li", { text: line })))) : null,
    );
    drawSeats();
    drawEnd();
  }
  preset.addEventListener("change", presetChanged);
  presetChanged();

  const pairing = pairingPanel(listed, myNameOrNull);

  // Signed in, the seats taken are the account's, under its username (the server's rule).
  function accountChanged() {
    pairing.accountChanged();
    ratedRow.hidden = !account;
    if (!account) rated.checked = false;
    myName.disabled = Boolean(account);
    myName.value = account ? account.username : localStorage.getItem("rummy:name") || "";
  }
  accountChanged();

  function myNameOrNull() {
    if (account) return null;
    const name = myName.value.trim();
    localStorage.setItem("rummy:name", name);
    return name || null;
  }

  // Creates the table; with invitations to hand out, shows their links in ``into``,
  // else goes to the player's seat.  An error shows in ``errEl``, scrolled into view.
  async function submit(body, errEl = err, into = result) {
    errEl.textContent = "";
    try {
      const tbl = await api(`/api/tables?lang=${lang}`, body);
      const mine = tbl.creator;
      const others = tbl.seats.filter((s) => s.link && s.seat !== mine.seat);
      if (shown && shown !== into) shown.replaceChildren();
      shown = into;
      into.replaceChildren(
        h("h3", { id: "created-title", tabindex: "-1", text: t("lobby.created", { game: titled(body.rules) }) }),
        others.length ? h("p", { text: t(others.length === 1 ? "lobby.send_link" : "lobby.send_links") }) : null,
        h("ul", { class: "links" }, others.map((s) => h("li", {},
          h("label", { for: `invite-${s.seat}`, text: t("lobby.seat_n", { n: s.seat + 1 }) + ": " }),
          h("input", { class: "invite", id: `invite-${s.seat}`, readonly: true, value: location.origin + s.link, "data-seat": s.seat, onclick: (e) => e.target.select() }),
          " ", copyButton(s.seat, location.origin + s.link)))),
        h("p", {}, h("a", { class: "button", id: "go", href: mine.link, text: t("lobby.go") }),
          " ", h("a", { href: tbl.watch, text: t("lobby.watch_link") })),
      );
      if (!others.length) location.href = mine.link;
      else into.querySelector("#created-title").focus();
    } catch (e) {
      errEl.textContent = errorText(e);
      errEl.scrollIntoView({ block: "nearest" });
    }
  }

  function create(ev) {
    ev.preventDefault();
    const seats = [{ kind: "human", name: myNameOrNull() }];
    for (const row of seatsBox.querySelectorAll(".seat-kind")) {
      const diff = seatsBox.querySelector(`.seat-diff[data-seat="${row.dataset.seat}"]`).value;
      if (row.value === "bot") seats.push({ kind: "bot", difficulty: diff });
      else seats.push(row.value === "open" ? { kind: "human", open: true } : { kind: "human" });
    }
    const rules = rulesSpec();
    // A seat open to anyone needs the table listed in the lobby.
    const body = { rules, seats, public: pub.checked || seats.some((s) => s.open), spectator_chat: specChat.checked };
    if (rated.checked) body.rated = true;
    if (endSel.value === "deals") body.deals = Number(endVal.value);
    if (endSel.value === "target") body.target = Number(endVal.value);
    if (Number(timer.value) > 0) body.timer = Number(timer.value);
    submit(body);
  }

  // a rules spec by the game's title, its house rules as written
  const titled = (spec) => {
    const base = spec.split("(")[0];
    const p = presets.find((x) => x.name === base);
    return p ? p.title + (spec.length > base.length ? " " + spec.slice(base.length) : "") : spec;
  };
  const rulesSpec = () => (house.value.trim() ? `${preset.value}(${house.value.trim()})` : preset.value);

  // The player, then ``others`` seats filled with medium bots up to as few players as
  // the rules allow (Gin: one bot; Contract Rummy: two).
  function fewest(p, others) {
    const bots = Math.max(0, ((p.players || [2])[0]) - 1 - others.length);
    return [{ kind: "human", name: myNameOrNull() }, ...others, ...Array.from({ length: bots }, () => ({ kind: "bot", difficulty: PLAY_NOW_BOT }))];
  }

  // One click: the chosen rules against medium bots, as few as the rules allow (one,
  // or two for a game of three or more), straight to the table.
  function playNow() {
    submit({ rules: rulesSpec(), seats: fewest(current(), [{ kind: "bot", difficulty: PLAY_NOW_BOT }]) }, quickErr);
  }

  // A tile's ways to play its game, as it is: the computer (Play now's table), a friend
  // (a seat for them, its link shown in the tile; bots fill a game of three or more),
  // or quick pairing (the pairing panel seeks, and shows how it goes).
  function inTile(item) {
    pickedErr.textContent = "";
    picked.replaceChildren();
    item.append(pickedErr, picked);
  }
  const ways = {
    bots: (p, item) => { inTile(item); submit({ rules: p.name, seats: fewest(p, [{ kind: "bot", difficulty: PLAY_NOW_BOT }]) }, pickedErr, picked); },
    friend: (p, item) => { inTile(item); submit({ rules: p.name, seats: fewest(p, [{ kind: "human" }]) }, pickedErr, picked); },
    pair: (p) => { pairing.panel.scrollIntoView({ block: "start" }); pairing.seek(p.name); },
  };

  const list = h("div", { id: "public-tables" });
  const joinErr = h("p", { class: "error", id: "join-error", role: "alert" });
  async function refresh() {
    const tables = await api(`/api/tables?lang=${lang}`).catch(() => []);
    list.replaceChildren(tables.length
      ? h("ul", { class: "table-list" }, tables.map((tb) => publicTable(tb, myNameOrNull, joinErr)))
      : h("p", { class: "muted", text: t("lobby.no_tables") }));
  }

  app.append(
    h("section", { class: "panel", id: "picker" },
      h("h2", { text: t("picker.title") }),
      h("label", {}, t("lobby.your_name") + " ", myName),
      gamePicker(presets, ways)),
    pairing.panel,
    accountPanel(accountChanged, (name) => (presets.find((p) => p.name === name) || { title: name }).title),
    h("details", { class: "panel", id: "custom" },
      h("summary", {}, h("h2", { text: t("picker.custom") }), " ", h("span", { class: "muted", text: t("picker.custom_what") })),
      h("form", { id: "create", onsubmit: create },
        h("div", { class: "preset-row" },
          h("div", {}, h("label", {}, t("lobby.rules") + " ", preset, " ", house)),
          summary),
        h("label", {}, t("lobby.seats") + " ", nSeats),
        seatsBox,
        h("label", {}, t("lobby.play_to") + " ", endSel, " ", endVal),
        h("label", {}, t("lobby.timer") + " ", timer),
        h("label", {}, pub, " " + t("lobby.public")),
        h("label", {}, specChat, " " + t("lobby.spectator_chat")),
        ratedRow,
        h("div", { class: "quick" }, h("button", { type: "submit", id: "create-btn", class: "primary", text: t("lobby.create") }),
          h("button", { type: "button", id: "play-now", onclick: playNow, text: t("lobby.play_now") }),
          h("span", { class: "muted", text: t("lobby.play_now_what") })), quickErr),
      err, result),
    h("section", { class: "panel", id: "tables" }, h("h2", { text: t("lobby.public_tables") }), list,
      h("button", { onclick: refresh, text: t("lobby.refresh") }), joinErr),
  );
  refresh();
}

// Copies an invitation link; says so on the button.
function copyButton(seat, link) {
  const btn = h("button", { type: "button", class: "copy", id: `copy-${seat}`, text: t("lobby.copy"), onclick: async () => {
    try {
      await navigator.clipboard.writeText(link);
      btn.textContent = t("lobby.copied");
    } catch {
      document.getElementById(`invite-${seat}`).select(); // copy by hand (Ctrl+C)
      btn.textContent = t("lobby.copy_select");
    }
  } });
  return btn;
}

// One public table: its rules, who sits there, and whether a game is under way.
function publicTable(tb, myNameOrNull, err) {
  const open = tb.seats.filter((s) => s.open).length;
  const status = tb.version > 0 ? t("lobby.in_progress", { round: tb.round }) : t("lobby.waiting");
  const who = tb.seats.map((s) => (s.open ? t("lobby.open_seat") : seatName(s.name))).join(", ");
  return h("li", { class: "table-entry", "data-table": tb.id },
    h("b", { text: tb.title || tb.rules }), " ",
    h("span", { class: "badge " + (tb.version > 0 ? "playing" : "waiting"), text: status }),
    tb.timer ? h("span", { class: "muted", text: " · " + t("lobby.timer_s", { s: tb.timer }) }) : null,
    h("div", { class: "muted", text: who + (open ? " · " + tn("lobby.open_seats", open) : "") }),
    open ? h("button", { class: "join", onclick: async () => {
      try {
        // the lobby's name box answers for the table (no question on arrival)
        const j = await api(`/api/tables/${tb.id}/join`, { name: myNameOrNull() });
        location.href = j.link;
      } catch (e) { err.textContent = errorText(e); }
    }, text: t("lobby.join") }) : null,
    " ", h("a", { href: `/play/${tb.id}`, text: t("lobby.watch") }));
}
