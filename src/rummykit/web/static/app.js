// rummykit browser client: plain ES modules, no build step.  The server is the
// authority: this file only sends intents and draws the state it is sent.
import { backEl, cardEl, cardLabel, faceOf, faceText, JOKER, sortByRank, sortBySuit } from "./cards.js";

const app = document.getElementById("app");
const connEl = document.getElementById("conn");

function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "class") el.className = v;
    else if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else if (k === "text") el.textContent = v;
    else el.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

async function api(path, body) {
  const res = await fetch(path, body === undefined ? {} : {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const data = await res.json().catch(() => ({}));
  if (!res.ok) {
    const d = data.detail;
    throw new Error(typeof d === "string" ? d : Array.isArray(d) ? d.map((e) => e.msg).join("; ") : res.statusText);
  }
  return data;
}

// -- lobby -------------------------------------------------------------------------------
async function lobby() {
  app.replaceChildren();
  const presets = await api("/api/presets").catch(() => [{ name: "basic", source: "" }]);
  const seatsBox = h("div", { class: "seats" });
  const nSeats = h("select", { id: "n-seats" }, [2, 3, 4, 5, 6].map((n) => h("option", { value: n, text: `${n} players` })));
  const preset = h("select", { id: "preset" }, presets.map((p) => h("option", { value: p.name, text: p.name, title: p.source })));
  const house = h("input", { id: "house", placeholder: "house rules, e.g. multiple_melds=true", maxlength: 300 });
  const myName = h("input", { id: "my-name", placeholder: "your name", maxlength: 24, value: localStorage.getItem("rummy:name") || "" });
  const endSel = h("select", { id: "end" }, h("option", { value: "default", text: "preset's target" }), h("option", { value: "deals", text: "number of deals" }), h("option", { value: "target", text: "target score" }));
  const endVal = h("input", { id: "end-value", type: "number", min: 1, value: 1, class: "short" });
  const timer = h("input", { id: "timer", type: "number", min: 0, placeholder: "off", class: "short" });
  const pub = h("input", { id: "public", type: "checkbox" });
  const specChat = h("input", { id: "spectator-chat", type: "checkbox" });
  const err = h("p", { class: "error", id: "lobby-error", role: "alert" });
  const result = h("div", { id: "created" });

  function drawSeats() {
    const n = Number(nSeats.value);
    seatsBox.replaceChildren(
      h("div", { class: "seat-row" }, h("b", { text: "Seat 1: you" })),
      ...Array.from({ length: n - 1 }, (_, i) =>
        h("div", { class: "seat-row" },
          h("span", { text: `Seat ${i + 2}` }),
          h("select", { class: "seat-kind", "data-seat": i + 1 },
            h("option", { value: "bot", text: "bot" }), h("option", { value: "human", text: "invite a person" }),
            h("option", { value: "open", text: "anyone (public)" })),
          h("select", { class: "seat-diff", "data-seat": i + 1 },
            ["easy", "medium", "hard"].map((d) => h("option", { value: d, text: d }))))),
    );
  }
  nSeats.addEventListener("change", drawSeats);
  // Offer only the seat counts the preset allows (Gin: 2), with a fitting example.
  function presetChanged() {
    const p = presets.find((x) => x.name === preset.value) || { players: [2, 6], example: "multiple_melds=true" };
    const [lo, hi] = p.players || [2, 6];
    for (const opt of nSeats.options) opt.disabled = Number(opt.value) < lo || Number(opt.value) > hi;
    const n = Number(nSeats.value);
    if (n < lo || n > hi) nSeats.value = String(Math.min(Math.max(n, lo), hi));
    house.placeholder = `house rules, e.g. ${p.example}`;
    drawSeats();
  }
  preset.addEventListener("change", presetChanged);
  presetChanged();

  async function create(ev) {
    ev.preventDefault();
    err.textContent = "";
    const name = myName.value.trim();
    localStorage.setItem("rummy:name", name);
    const seats = [{ kind: "human", name: name || null }];
    for (const row of seatsBox.querySelectorAll(".seat-kind")) {
      const diff = seatsBox.querySelector(`.seat-diff[data-seat="${row.dataset.seat}"]`).value;
      if (row.value === "bot") seats.push({ kind: "bot", difficulty: diff });
      else seats.push(row.value === "open" ? { kind: "human", open: true } : { kind: "human" });
    }
    const rules = house.value.trim() ? `${preset.value}(${house.value.trim()})` : preset.value;
    // A seat open to anyone needs the table listed in the lobby.
    const body = { rules, seats, public: pub.checked || seats.some((s) => s.open), spectator_chat: specChat.checked };
    if (endSel.value === "deals") body.deals = Number(endVal.value);
    if (endSel.value === "target") body.target = Number(endVal.value);
    if (Number(timer.value) > 0) body.timer = Number(timer.value);
    try {
      const t = await api("/api/tables", body);
      const mine = t.creator;
      const others = t.seats.filter((s) => s.link && s.seat !== mine.seat);
      result.replaceChildren(
        h("h3", { text: "Table created" }),
        others.length ? h("p", { text: "Send each friend their own invitation link:" }) : null,
        h("ul", { class: "links" }, others.map((s) => h("li", {},
          h("span", { text: `Seat ${s.seat + 1}: ` }),
          h("input", { class: "invite", readonly: true, value: location.origin + s.link, "data-seat": s.seat, onclick: (e) => e.target.select() })))),
        h("p", {}, h("a", { class: "button", id: "go", href: mine.link, text: "Go to my seat" }),
          " ", h("a", { href: t.watch, text: "spectator link" })),
      );
      if (!others.length) location.href = mine.link;
    } catch (e) {
      err.textContent = e.message;
    }
  }

  const list = h("div", { id: "public-tables" });
  async function refresh() {
    const tables = await api("/api/tables").catch(() => []);
    list.replaceChildren(
      tables.length ? h("ul", {}, tables.map((t) => h("li", {},
        h("span", { text: `${t.rules} · ${t.seats.map((s) => s.name).join(", ")} ` }),
        t.seats.some((s) => s.open)
          ? h("button", { class: "join", onclick: async () => {
            try {
              const j = await api(`/api/tables/${t.id}/join`, { name: myName.value.trim() || null });
              location.href = j.link;
            } catch (e) { err.textContent = e.message; }
          }, text: "Join" })
          : null,
        " ", h("a", { href: `/play/${t.id}`, text: "watch" })))) : h("p", { class: "muted", text: "No public tables right now." }),
    );
  }

  app.append(
    h("section", { class: "panel" },
      h("h2", { text: "New table" }),
      h("form", { id: "create", onsubmit: create },
        h("label", {}, "Your name ", myName),
        h("label", {}, "Rules ", preset, " ", house),
        h("label", {}, "Seats ", nSeats),
        seatsBox,
        h("label", {}, "Play to ", endSel, " ", endVal),
        h("label", {}, "Turn timer (seconds) ", timer),
        h("label", {}, pub, " list publicly so anyone can watch (and take the seats open to anyone)"),
        h("label", {}, specChat, " let spectators chat"),
        h("button", { type: "submit", id: "create-btn", text: "Create table" })),
      err, result),
    h("section", { class: "panel" }, h("h2", { text: "Public tables" }), list,
      h("button", { onclick: refresh, text: "Refresh" })),
  );
  refresh();
}

// -- the card table -------------------------------------------------------------------------
function tablePage(tableId) {
  const params = new URLSearchParams(location.hash.slice(1));
  const stored = JSON.parse(localStorage.getItem(`rummy:${tableId}`) || "null");
  let cred = null;
  if (params.get("key")) {
    cred = { seat: Number(params.get("seat")), secret: params.get("key") };
    localStorage.setItem(`rummy:${tableId}`, JSON.stringify(cred));
  } else if (stored) {
    cred = stored;
  }
  const ui = {
    ws: null, msg: null, selected: new Set(), target: null, takeAt: null, order: [],
    seenResults: -1, lastHand: new Set(), retry: 0, hint: null, chat: [], closed: false,
    review: null,
  };
  window.rummy = { state: null, version: -1, seat: cred ? cred.seat : -1, errors: [] };

  const els = {
    seats: h("div", { class: "opponents", id: "seats" }),
    stock: h("button", { class: "pile stock", id: "stock", title: "draw from the stock", onclick: () => send({ kind: "draw_stock" }) }),
    discard: h("button", { class: "pile discard", id: "discard", title: "draw from the discard pile", onclick: () => send({ kind: "draw_discard" }) }),
    melds: h("div", { class: "melds", id: "melds" }),
    hand: h("div", { class: "hand", id: "hand" }),
    status: h("p", { class: "status", id: "status", "aria-live": "polite" }),
    error: h("p", { class: "error", id: "error", role: "alert" }),
    hintBox: h("p", { class: "hint", id: "hint-text" }),
    actions: h("div", { class: "actions", id: "actions" }),
    log: h("ol", { class: "log", id: "log" }),
    chat: h("ul", { class: "chat", id: "chat" }),
    chatInput: h("input", { id: "chat-input", maxlength: 300, placeholder: "say something" }),
    scores: h("table", { class: "scores", id: "scores" }),
    rounds: h("div", { class: "rounds", id: "rounds" }),
    dialog: h("div", { class: "dialog hidden", id: "summary", role: "dialog", "aria-modal": "true", "aria-labelledby": "summary-title" }),
    review: h("section", { class: "review", id: "review", "aria-label": "review of the round" }),
  };
  // Escape closes the round's summary, as its Close button does.
  els.dialog.addEventListener("keydown", (e) => {
    if (e.key === "Escape") els.dialog.classList.add("hidden");
  });
  const btn = (id, text, fn) => h("button", { id, onclick: fn, text });
  const b = {
    meld: btn("btn-meld", "Meld", () => send({ kind: "meld", cards: [...ui.selected] })),
    layoff: btn("btn-layoff", "Lay off", () => sendOnMeld("layoff")),
    swap: btn("btn-swap", "Swap joker", () => sendOnMeld("swap")),
    take: btn("btn-take", "Take", () => {
      if (!ui.takeAt) return showError("choose a card in a table meld first");
      send({ kind: "take", meld: ui.takeAt[0], index: ui.takeAt[1] });
    }),
    discard: btn("btn-discard", "Discard", () => {
      if (ui.selected.size !== 1) return showError("select exactly one card to discard");
      send({ kind: "discard", card: [...ui.selected][0] });
    }),
    pass: btn("btn-pass", "Pass", () => send({ kind: "pass" })),
    knock: btn("btn-knock", "Knock", () => send({ kind: "knock" })),
    hint: btn("btn-hint", "Hint", () => {
      const s = window.rummy;
      els.hintBox.textContent = "thinking…";
      raw({ type: "hint", version: s.version });
    }),
    bySuit: btn("btn-sort-suit", "Sort by suit", () => { ui.order = sortBySuit(ui.order); render(); }),
    byRank: btn("btn-sort-rank", "Sort by rank", () => { ui.order = sortByRank(ui.order); render(); }),
  };
  els.actions.append(b.meld, b.layoff, b.swap, b.take, b.discard, b.pass, b.knock, b.hint);

  function sendOnMeld(kind) {
    if (ui.selected.size !== 1) return showError("select one card from your hand");
    if (ui.target === null) return showError("then choose a meld on the table");
    send({ kind, card: [...ui.selected][0], meld: ui.target });
  }

  app.replaceChildren(
    h("div", { class: "game" },
      h("section", { class: "board" },
        els.seats,
        h("div", { class: "center" }, h("div", { class: "piles" }, els.stock, els.discard), els.melds),
        h("div", { class: "mine" }, els.status, els.error, els.hintBox,
          h("div", { class: "sorts" }, b.bySuit, b.byRank), els.hand, els.actions)),
      h("aside", { class: "side" },
        h("h3", { text: "Scores" }), els.scores, els.rounds,
        h("h3", { text: "Moves" }), els.log,
        h("h3", { text: "Chat" }), els.chat,
        h("form", { class: "chat-form", onsubmit: (e) => {
          e.preventDefault();
          const text = els.chatInput.value.trim();
          if (text) raw({ type: "chat", text });
          els.chatInput.value = "";
        } }, els.chatInput, h("button", { id: "chat-send", text: "Send" })),
        h("p", {}, h("a", { href: "/", text: "Lobby" })))),
    els.dialog,
  );

  function raw(msg) {
    if (ui.ws && ui.ws.readyState === WebSocket.OPEN) ui.ws.send(JSON.stringify(msg));
  }
  function send(move) {
    els.error.textContent = "";
    raw({ type: "move", version: window.rummy.version, move });
  }
  function showError(text) {
    els.error.textContent = text;
    window.rummy.errors.push(text);
  }

  function connect() {
    const proto = location.protocol === "https:" ? "wss" : "ws";
    const ws = new WebSocket(`${proto}://${location.host}/ws/${encodeURIComponent(tableId)}`);
    ui.ws = ws;
    window.rummy.ws = ws;  // for the browser tests (a dropped connection)
    connEl.textContent = "connecting…";
    ws.onopen = () => {
      ui.retry = 0;
      connEl.textContent = "online";
      const hello = { type: "hello" };
      if (cred) Object.assign(hello, { seat: cred.seat, secret: cred.secret });
      const name = localStorage.getItem("rummy:name");
      if (cred && name) hello.name = name.slice(0, 24);
      ws.send(JSON.stringify(hello));
    };
    ws.onmessage = (ev) => onMessage(JSON.parse(ev.data));
    ws.onclose = (ev) => {
      // the server withdraws a review when its connection closes: say so, allow a retry
      if (ui.review && !ui.review.result && !ui.review.error) {
        ui.review.error = "The connection dropped during the review; press Review again.";
        drawReview();
      }
      // docs/protocol.md, the close codes: some are final, some say "later".
      if ([4003, 4403, 4404].includes(ev.code)) {
        connEl.textContent = "not allowed";
        return;
      }
      if (ev.code === 4409) {
        connEl.textContent = "open in another window";
        return;
      }
      const busy = ev.code === 4429 || ev.code === 4503;
      connEl.textContent = busy ? "busy, retrying soon…" : "reconnecting…";
      ui.retry = Math.min(ui.retry + 1, 5);
      setTimeout(connect, busy ? 15000 : 400 * ui.retry);
    };
  }

  function onMessage(m) {
    if (m.type === "state") {
      ui.msg = m;
      window.rummy.state = m;
      window.rummy.version = m.version;
      els.hintBox.textContent = "";
      render();
    } else if (m.type === "presence") {
      // who is connected changed: the table's facts only, the game is unchanged
      if (ui.msg) {
        ui.msg = { ...ui.msg, table: m.table };
        window.rummy.state = ui.msg;
        render();
      }
    } else if (m.type === "review_progress" || m.type === "review") {
      onReview(m);
    } else if (m.type === "error") {
      showError(m.message);
      if (ui.review && !ui.review.result && REVIEW_ERRORS.has(m.code)) {
        ui.review.error = m.message;
        drawReview();
      }
      if (m.code === "bad_secret") {
        localStorage.removeItem(`rummy:${tableId}`);
      }
    } else if (m.type === "chat") {
      ui.chat.push(m);
      els.chat.append(h("li", {}, h("b", { text: m.name + ": " }), h("span", { class: "chat-text", text: m.text })));
      els.chat.scrollTop = els.chat.scrollHeight;
    } else if (m.type === "hint") {
      els.hintBox.textContent = `Hint: ${m.move.text} — ${m.reason}`;
    } else if (m.type === "welcome") {
      window.rummy.seat = m.seat;
    }
  }

  function name(i) {
    return ui.msg.table.seats[i] ? ui.msg.table.seats[i].name : `Seat ${i + 1}`;
  }

  function render() {
    const m = ui.msg;
    const g = m.game;
    const me = g.seat;
    document.body.dataset.version = String(m.version);
    const myTurn = me >= 0 && g.current === me && g.phase !== "over";
    // hand order: keep the player's arrangement, new cards at the end
    const hand = new Set(g.hand);
    ui.order = ui.order.filter((c) => hand.has(c));
    for (const c of g.hand) if (!ui.order.includes(c)) ui.order.push(c);
    const handChanged = g.hand.length !== ui.lastHand.size || g.hand.some((c) => !ui.lastHand.has(c));
    if (handChanged) ui.selected.clear();
    if (ui.target !== null && (ui.target >= g.melds.length || ui.renderedVersion !== m.version)) ui.target = null;
    ui.renderedVersion = m.version;
    ui.takeAt = null;

    // opponents
    els.seats.replaceChildren(...m.table.seats.flatMap((s, i) => {
      if (i === me) return [];
      const known = g.known[i] || [];
      return h("div", { class: "opponent" + (g.current === i ? " active" : "") + (s.connected ? "" : " away"), "data-seat": i },
        h("div", { class: "who" }, h("span", { class: "name", text: s.name }),
          h("span", { class: "muted", text: ` ${s.kind === "bot" ? "(" + s.difficulty + " bot)" : s.connected ? "" : "(away)"} · ${g.hand_sizes[i]} cards` })),
        h("div", { class: "backs" }, Array.from({ length: Math.min(g.hand_sizes[i], 13) }, () => backEl())),
        known.length ? h("div", { class: "known" }, h("span", { class: "muted", text: "known: " }), known.map((c) => cardEl(c))) : null);
    }));

    // piles
    els.stock.replaceChildren(backEl(), h("span", { class: "count", text: `${g.stock_size}` }));
    const top = g.discard.length ? g.discard[g.discard.length - 1] : null;
    els.discard.replaceChildren(top === null ? h("div", { class: "card empty" }) : cardEl(top), h("span", { class: "count", text: `${g.discard.length}` }));
    els.stock.disabled = !myTurn || !g.legal.some((l) => l.kind === "draw_stock");
    els.discard.disabled = !myTurn || g.phase !== "draw" && g.phase !== "first_upcard";

    // table melds
    els.melds.replaceChildren(...g.melds.map((md, i) => h("div", {
      class: "meld" + (ui.target === i ? " target" : ""), "data-meld": i,
      onclick: () => { ui.target = i; render(); },
    }, h("span", { class: "meld-no", text: `${i + 1}` }), md.cards.map((c, j) => {
      const el = cardEl(c, { stands: md.jokers[j] ? md.faces[j] : undefined });
      el.dataset.meldCard = `${i}:${j}`;
      el.addEventListener("click", (e) => {
        e.stopPropagation();
        ui.target = i;
        render();
        ui.takeAt = [i, j];
        el.classList.add("picked");
      });
      return el;
    }), h("span", { class: "owner muted", text: name(md.owner) }))));
    if (!g.melds.length) els.melds.append(h("p", { class: "muted", text: "No melds on the table yet." }));

    // hand
    const fresh = ui.lastHand;
    els.hand.replaceChildren(...ui.order.map((c) => {
      const el = cardEl(c, { tag: "button" });
      el.dataset.card = String(c);
      el.draggable = true;
      if (ui.selected.has(c)) el.classList.add("selected");
      if (fresh.size && !fresh.has(c)) el.classList.add("fresh");
      if (c === g.taken || c === g.pending) el.classList.add("taken");
      el.addEventListener("click", () => {
        if (ui.selected.has(c)) ui.selected.delete(c); else ui.selected.add(c);
        el.classList.toggle("selected");
      });
      el.addEventListener("dragstart", (e) => { e.dataTransfer.setData("text/plain", String(c)); });
      el.addEventListener("dragover", (e) => e.preventDefault());
      el.addEventListener("drop", (e) => {
        e.preventDefault();
        const moved = Number(e.dataTransfer.getData("text/plain"));
        if (!ui.order.includes(moved) || moved === c) return;
        ui.order.splice(ui.order.indexOf(moved), 1);
        ui.order.splice(ui.order.indexOf(c), 0, moved);
        render();
      });
      return el;
    }));
    ui.lastHand = hand;
    if (me < 0) els.hand.append(h("p", { class: "muted", text: "You are watching this table." }));

    // actions
    const kinds = new Set(g.legal.map((l) => l.kind));
    const playing = myTurn && g.phase !== "draw";
    for (const [k, el] of Object.entries({ meld: b.meld, layoff: b.layoff, swap: b.swap, take: b.take, discard: b.discard })) {
      el.disabled = !playing;
      el.classList.toggle("possible", kinds.has(k));
    }
    b.pass.hidden = !kinds.has("pass");
    b.knock.hidden = !kinds.has("knock");
    b.hint.disabled = !myTurn;
    b.swap.hidden = !g.options.joker_swap;
    b.take.hidden = !g.options.take_from_meld;

    els.status.textContent = statusLine();
    document.body.classList.toggle("my-turn", myTurn);
    // animate what changed: a new discard, new or grown melds
    const topNow = top === null ? -1 : top;
    if (ui.lastTop !== undefined && topNow !== ui.lastTop && topNow >= 0) els.discard.firstChild.classList.add("fresh");
    ui.lastTop = topNow;
    const sizes = g.melds.map((md) => md.cards.length);
    els.melds.querySelectorAll(".meld").forEach((el, i) => {
      if (ui.lastMelds && (ui.lastMelds[i] === undefined || ui.lastMelds[i] !== sizes[i])) el.classList.add("fresh");
    });
    ui.lastMelds = sizes;

    // scores and log
    renderScores(g, me, m);
    // every finished round's summary (and its Review) stays a click away
    if (els.rounds.childElementCount !== g.results.length) {
      els.rounds.replaceChildren(...g.results.map((r) => h("button", {
        class: "round-link", "data-round": r.round_no, title: `round ${r.round_no}'s scoring and review`,
        text: `Round ${r.round_no}`,
        onclick: () => showSummary(ui.msg.game.results.find((x) => x.round_no === r.round_no)),
      })));
    }
    // round summary
    summaries(g);
  }

  // What to do in a knock game's phases (Gin), with the player's own deadwood.
  function knockAdvice(g) {
    const k = g.knock;
    const kinds = new Set(g.legal.map((l) => l.kind));
    const dw = k.deadwood === null ? "" : ` Your deadwood: ${k.deadwood}.`;
    switch (g.phase) {
      case "first_upcard":
        return kinds.has("pass") ? "take the upcard or pass." : "both passed: draw from the stock.";
      case "draw":
        return `draw from the stock or the discard pile.${dw}`;
      case "knock":
        return kinds.has("discard")
          ? `discard a card that leaves deadwood ${k.limit} or less.${dw}`
          : `lay your melds, then pass.${dw}`;
      case "layoff":
        return k.stage === 0
          ? `lay off on ${name(k.knocker)}'s melds, then pass.${dw}`
          : `lay your melds, then pass to score.${dw}`;
      case "wall":
        return kinds.has("knock")
          ? "two stock cards left: knock with the upcard, or pass (the hand is void)."
          : "two stock cards left: pass (the hand is void).";
      default:
        return kinds.has("knock")
          ? `discard, or knock (deadwood ${k.limit} or less).${dw}`
          : `discard; knock once your deadwood is ${k.limit} or less.${dw}`;
    }
  }

  function statusLine() {
    const m = ui.msg;
    const g = m.game;
    const me = g.seat;
    const myTurn = me >= 0 && g.current === me && g.phase !== "over";
    let status;
    if (g.phase === "over") status = "The match is over.";
    else if (myTurn && g.knock) status = "Your turn: " + knockAdvice(g);
    else if (myTurn) status = g.phase === "draw" ? "Your turn: draw from the stock or the discard pile." : "Your turn: meld, lay off, then discard.";
    else status = `${name(g.current)} is playing…`;
    if (m.table.time_left !== null && m.table.time_left !== undefined && g.phase !== "over") {
      status += ` (${Math.ceil(m.table.time_left)} s on the clock)`;
    }
    return status;
  }

  function renderScores(g, me, m) {
    els.scores.replaceChildren(
      h("tr", {}, h("th", { text: "Player" }), h("th", { text: g.low_wins ? "Points (low wins)" : "Points" })),
      ...g.standings.map((p) => h("tr", { class: p === me ? "me" : "" }, h("td", { text: name(p) }), h("td", { text: String(g.scores[p]) }))),
    );
    els.log.replaceChildren(...m.log.map((e) => h("li", { "data-seq": e.seq },
      h("b", { text: e.seat >= 0 ? name(e.seat) + ": " : "" }), e.text + (e.auto ? " (auto)" : ""))));
    els.log.scrollTop = els.log.scrollHeight;
  }

  function summaries(g) {
    if (ui.seenResults < 0) ui.seenResults = g.phase === "over" ? g.results.length - 1 : g.results.length;
    if (g.results.length > ui.seenResults) {
      ui.seenResults = g.results.length;
      showSummary(g.results[g.results.length - 1]);
    } else if (g.phase === "over" && !ui.overShown) {
      showSummary(g.results[g.results.length - 1]);
    }
    if (g.phase !== "over") ui.overShown = false;
  }

  function showSummary(r) {
    const m = ui.msg;
    const g = m.game;
    const over = g.phase === "over" && (!r || r.round_no === g.results[g.results.length - 1].round_no);
    const reason = r ? `${r.text.charAt(0).toUpperCase()}${r.text.slice(1)}.` : "";
    if (!r || (ui.review && ui.review.round !== r.round_no)) ui.review = null;
    drawReview();
    els.dialog.replaceChildren(h("div", { class: "dialog-box", tabindex: -1 },
      h("h2", { id: "summary-title", text: over ? "Match over" : `Round ${r.round_no} over` }),
      h("p", { text: reason }),
      r ? h("table", { class: "summary" },
        h("tr", {}, h("th", { text: "Player" }), h("th", { text: "Cards left" }), h("th", { text: "Points" }), h("th", { text: "Score" }), h("th", { text: "Notes" })),
        r.players.map((p, i) => h("tr", {},
          h("td", { text: name(i) }),
          h("td", {}, h("div", { class: "mini" }, p.cards.map((c) => cardEl(c)))),
          h("td", { text: String(p.hand_points) }),
          h("td", { text: (p.delta >= 0 ? "+" : "") + p.delta }),
          h("td", { text: p.notes.join("; ") })))) : null,
      h("h3", { text: "Standings" }),
      h("ol", { class: "standings" }, g.standings.map((p) => h("li", { text: `${name(p)}: ${g.scores[p]}${g.winners.includes(p) ? " 🏆" : ""}` }))),
      h("div", { class: "dialog-actions" },
        over && g.seat >= 0 ? h("button", { id: "btn-rematch", text: "Rematch", onclick: () => { raw({ type: "rematch", version: m.version }); els.dialog.classList.add("hidden"); ui.seenResults = 0; } }) : null,
        over ? h("a", { class: "button", id: "download", href: `/api/tables/${tableId}/record`, download: `rummy-${tableId}.txt`, text: "Download record" }) : null,
        r && g.seat >= 0 ? h("button", { id: "btn-review", text: "Review", title: "grade your decisions of this round against the hard bot", onclick: () => askReview(r.round_no) }) : null,
        h("button", { id: "btn-close", text: over ? "Close" : "Continue", onclick: () => els.dialog.classList.add("hidden") })),
      els.review));
    els.dialog.classList.remove("hidden");
    if (over) ui.overShown = true;
    // The keyboard starts in the summary (Tab reaches Review, Escape closes it), on no
    // button: a key pressed for the game must not start a rematch by accident.
    els.dialog.firstChild.focus();
  }

  // -- the round's review (issue 16): asked for from the summary, drawn in it --------------
  function askReview(round) {
    if (ui.review && ui.review.round === round && !ui.review.error) return drawReview();
    ui.review = { round, done: 0, total: 0, result: null, error: null };
    raw({ type: "review", round });
    drawReview();
  }

  function onReview(m) {
    if (!ui.review || ui.review.round !== m.round) return;
    if (m.type === "review_progress") Object.assign(ui.review, { done: m.done, total: m.total });
    else ui.review.result = m;
    window.rummy.review = { round: m.round, done: ui.review.done, total: ui.review.total, ready: !!ui.review.result };
    drawReview();
    if (m.type === "review") document.getElementById("review-title").focus();
  }

  function drawReview() {
    const rv = ui.review;
    if (!rv) return els.review.replaceChildren();
    if (rv.error) return els.review.replaceChildren(h("p", { class: "error", id: "review-error", role: "alert", text: rv.error }));
    if (!rv.result) {
      const bar = h("progress", { id: "review-progress", max: rv.total || 1, "aria-label": "review progress" });
      if (rv.total) bar.value = rv.done;
      const words = rv.total ? `Reviewing decision ${rv.done} of ${rv.total}…` : "Reviewing your decisions…";
      // role=status: read out as it changes, without moving the focus
      return els.review.replaceChildren(h("p", { class: "muted", role: "status", text: words }), bar);
    }
    const res = rv.result;
    const moves = res.decisions;
    els.review.replaceChildren(
      h("h3", { id: "review-title", tabindex: -1, text: `Your review of round ${res.round}` }),
      h("p", { id: "review-accuracy" }, h("b", { text: `Accuracy ${res.accuracy.toFixed(1)}%` }),
        ` over ${moves.length} decisions, against the hard bot.`),
      reviewChart(res),
      h("h4", { text: "Key moments" }),
      res.key_moments.length
        ? h("ol", { id: "review-moments" }, res.key_moments.map((k) => h("li", {},
          h("span", { class: `label ${k.label}`, text: k.label }),
          ` Turn ${k.turn}: you played ${k.played}; better: `, h("b", { text: k.better }),
          ` (${lossText(k.lost)}). ${capital(k.reason)}`)))
        : h("p", { class: "muted", text: "No decision cost you anything." }),
      h("details", { id: "review-all" }, h("summary", { text: "Every decision" }),
        h("ol", { class: "review-decisions" }, moves.map((d) => h("li", {},
          h("span", { class: `label ${d.label}`, text: d.label }),
          ` Turn ${d.turn}: ${d.played}`, d.label === "best" ? "" : `; best: ${d.best} (${lossText(d.lost)})`)))),
    );
  }

  // The player's expected score by decision (the round's points: their margin over the
  // others), as an SVG line with one dot per decision and the round's real result last.
  function reviewChart(res) {
    const series = res.series.map((p) => p[1]);
    const W = 640, H = 180, left = 40, right = 12, top = 12, bottom = 24;
    const lo = Math.min(0, ...series), hi = Math.max(0, ...series);
    const span = hi - lo || 1;
    const x = (i) => left + (series.length > 1 ? (i * (W - left - right)) / (series.length - 1) : (W - left - right) / 2);
    const y = (v) => top + ((hi - v) * (H - top - bottom)) / span;
    const points = series.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" ");
    const first = series[0], last = series[series.length - 1];
    const described = series.length ? `from ${first.toFixed(1)} to ${last.toFixed(1)} points` : "no decisions";
    const n = res.decisions.length;
    return svg("svg", { id: "review-chart", class: "review-chart", viewBox: `0 0 ${W} ${H}`, role: "img", tabindex: 0, "aria-labelledby": "review-chart-title" },
      svg("title", { id: "review-chart-title" }, `Your expected score over round ${res.round}, by decision: ${described}`),
      svg("line", { class: "axis", x1: left, x2: W - right, y1: y(0), y2: y(0) }),
      svg("text", { class: "tick", x: left - 4, y: y(hi) + 4, "text-anchor": "end" }, hi.toFixed(0)),
      svg("text", { class: "tick", x: left - 4, y: y(lo) + 4, "text-anchor": "end" }, lo.toFixed(0)),
      svg("text", { class: "tick", x: (left + W - right) / 2, y: H - 6, "text-anchor": "middle" }, "decision"),
      svg("polyline", { class: "series", points, fill: "none" }),
      series.map((v, i) => {
        const d = res.decisions[i];
        return svg("circle", { class: `point ${d ? d.label : "result"}`, cx: x(i).toFixed(1), cy: y(v).toFixed(1), r: 4 },
          svg("title", {}, i < n ? `Turn ${d.turn}: ${d.played} (${d.label}), expected ${v.toFixed(1)}` : `the round's result: ${v.toFixed(1)}`));
      }));
  }

  // the countdown shown in the status line
  setInterval(() => {
    if (ui.msg && ui.msg.table.time_left) {
      ui.msg.table.time_left = Math.max(0, ui.msg.table.time_left - 1);
      els.status.textContent = statusLine();
    }
  }, 1000);
  connect();
}

const SVG_NS = "http://www.w3.org/2000/svg";
const REVIEW_ERRORS = new Set(["not_finished", "not_your_seat", "busy", "rate_limited", "review_failed", "spectator", "table_failed"]);

function svg(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  for (const c of children.flat()) el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return el;
}

function lossText(loss) {
  return loss > 0.05 ? `−${loss.toFixed(1)} points` : "no loss";
}

function capital(text) {
  return text ? text.charAt(0).toUpperCase() + text.slice(1) + (/[.!?]$/.test(text) ? "" : ".") : "";
}

const match = location.pathname.match(/^\/play\/([A-Za-z0-9_-]+)$/);
if (match) tablePage(match[1]);
else lobby();
