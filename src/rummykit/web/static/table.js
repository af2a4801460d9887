// The card table: sends intents, draws the state the server sends for this seat.
import { moveRoute, fly } from "./anim.js";
import { backEl, cardEl, cardsFor, faceOf, faceText, JOKER, moveNodes, richText } from "./cards.js";
import { handView } from "./hand.js";
import { turnNotice } from "./notify.js";
import { api, h } from "./dom.js";
import { known, lang, lineText, seatName, t, tn } from "./i18n.js";
import { bindKeys, KEYS } from "./keys.js";
import { pref, setPref } from "./prefs.js";
import { reviewPanel } from "./review.js";
import { account } from "./account.js";
import { roundEnd } from "./roundend.js";


export async function tablePage(app, connEl, tableId) {
  const params = new URLSearchParams(location.hash.slice(1));
  const stored = JSON.parse(localStorage.getItem(`rummy:${tableId}`) || "null");
  let cred = null;
  if (params.get("key")) {
    cred = { seat: Number(params.get("seat")), secret: params.get("key") };
    localStorage.setItem(`rummy:${tableId}`, JSON.stringify(cred));
  } else if (stored) {
    cred = stored;
  } else if (account && params.has("seat")) {
    // a signed-in player's own seat (their page's Review link): the account is the key
    cred = { seat: Number(params.get("seat")), secret: null };
  }
  // the player's page asks for the last round's review once the match is drawn
  let reviewAsked = params.get("review") !== "1";
  const ui = {
    ws: null, msg: null, selected: new Set(), target: null, takeAt: null, order: [], manual: false,
    seenResults: -1, lastHand: new Set(), retry: 0, lastSeq: undefined, lastMove: null,
    info: null, prevTop: null, roundMelds: {},
  };
  window.rummy = { state: null, version: -1, seat: cred ? cred.seat : -1, errors: [], animations: 0, lastMove: null };
  const info = await api(`/api/tables/${encodeURIComponent(tableId)}?lang=${lang}`).catch(() => null);
  ui.info = info;

  const els = {
    seats: h("div", { class: "opponents", id: "seats" }),
    stock: h("button", { class: "pile stock", id: "stock", "aria-label": t("table.stock"), title: t("table.stock_title"), onclick: () => send({ kind: "draw_stock" }) }),
    discard: h("button", { class: "pile discard", id: "discard", "aria-label": t("table.pile"), title: t("table.pile_title"), onclick: () => send({ kind: ui.msg && ui.msg.game.phase === "buy" ? "buy" : "draw_discard" }) }),
    melds: h("div", { class: "melds", id: "melds", "aria-label": t("table.melds") }),
    pile: h("div", { class: "spread-pile", id: "pile", title: t("table.deep_pile") }),
    hand: h("div", { class: "hand", id: "hand", role: "group", "aria-label": t("table.hand") }),
    arrangeInfo: h("p", { class: "arrange-info", id: "arrange-info" }),
    status: h("p", { class: "status", id: "status", "aria-live": "polite" }),
    // what the game's family shows (a contract, a wild cut), in view all deal long
    shows: h("div", { class: "shows", id: "shows" }),
    // the last move in words, read out by screen readers as it happens
    announce: h("p", { class: "visually-hidden", id: "announce", "aria-live": "polite" }),
    timer: h("div", { class: "turn-timer", id: "turn-timer", hidden: true }),
    error: h("p", { class: "error", id: "error", role: "alert" }),
    hintBox: h("p", { class: "hint", id: "hint-text", "aria-live": "polite" }),
    actions: h("div", { class: "actions", id: "actions" }),
    // why each greyed action button cannot be used now (the server's reasons)
    whyNot: h("ul", { class: "why-not", id: "why-not", "aria-live": "polite" }),
    // scrolling lists take the focus, so the keyboard can scroll them too
    log: h("ol", { class: "log", id: "log", "aria-label": t("side.moves"), tabindex: 0 }),
    chat: h("ul", { class: "chat", id: "chat", "aria-label": t("side.chat"), tabindex: 0 }),
    chatInput: h("input", { id: "chat-input", maxlength: 300, placeholder: t("side.say"), "aria-label": t("side.say") }),
    scores: h("table", { class: "scores", id: "scores" }),
    rounds: h("div", { class: "rounds", id: "rounds" }),
    dialog: h("div", { class: "dialog hidden", id: "summary", role: "dialog", "aria-modal": "true", "aria-labelledby": "summary-title" }),
    sheet: h("div", { class: "dialog hidden", id: "sheet", role: "dialog", "aria-modal": "true", "aria-labelledby": "sheet-title" }),
  };
  const review = reviewPanel((msg) => raw(msg));
  // Rummikub (a free table): the board of sets and the rack take the melds' and the
  // hand's places
  // hand's places.  Its module is fetched at the first state of such a table only:
  // until then three hidden stand-ins hold its places, and its hooks do nothing.
  const tiles = {
    board: h("div", { hidden: true }), rack: h("div", { hidden: true }), bar: h("div", { hidden: true }),
    render: () => {}, clear: () => {}, target: () => {}, showMove: () => ({ animated: false, said: "" }), loading: null,
  };
  const loadTiles = () => tiles.loading ||= import("./tiles.js").then(({ tileBoard }) => {
    const board = tileBoard({ send: (move) => send(move), showError: (text) => showError(text), clearError: () => { els.error.textContent = ""; } });
    for (const part of ["board", "rack", "bar"]) tiles[part].replaceWith(board[part]);
    Object.assign(tiles, board);
    render();
  });
  const { orderHand, renderHand } = handView(ui, els, tableId, () => render());
  const notifyTurn = turnNotice();
  // Escape closes a dialog, as its Close button does, and gives the keyboard back.
  for (const d of [els.dialog, els.sheet]) {
    d.addEventListener("keydown", (e) => {
      if (e.key === "Escape") { e.stopPropagation(); closeDialog(d); }
    });
  }
  const btn = (id, text, fn, key) => h("button", { id, onclick: fn, text, "aria-keyshortcuts": key, title: key ? t("table.key", { key }) : undefined });
  const b = {
    meld: btn("btn-meld", t("act.meld"), () => send({ kind: "meld", cards: [...ui.selected] }), "m"),
    layoff: btn("btn-layoff", t("act.layoff"), () => sendOnMeld("layoff"), "l"),
    swap: btn("btn-swap", t("act.swap"), () => sendOnMeld("swap"), "j"),
    take: btn("btn-take", t("act.take"), () => {
      if (!ui.takeAt) return showError(t("err.take_first"));
      send({ kind: "take", meld: ui.takeAt[0], index: ui.takeAt[1] });
    }, "t"),
    discard: btn("btn-discard", t("act.discard"), () => {
      if (ui.selected.size !== 1) return showError(t("err.one_discard"));
      const card = [...ui.selected][0];
      if (wrongShowOk("discard", faceOf(card))) send({ kind: "discard", card });
    }, "d"),
    pass: btn("btn-pass", t("act.pass"), () => send({ kind: "pass" }), "n"),
    buy: btn("btn-buy", t("act.buy"), () => send({ kind: "buy" }), "b"),
    knock: btn("btn-knock", t("act.knock"), () => { if (wrongShowOk("knock")) send({ kind: "knock" }); }, "k"),
    drop: btn("btn-drop", t("act.drop"), () => confirmDrop(), "x"),
    hint: btn("btn-hint", t("act.hint"), () => {
      els.hintBox.textContent = t("table.thinking");
      raw({ type: "hint", version: window.rummy.version });
    }, "h"),
    bySuit: btn("btn-sort-suit", t("sort.suit"), () => setSort("suit"), "r"),
    byRank: btn("btn-sort-rank", t("sort.rank"), () => setSort("rank"), "r"),
    arrange: btn("btn-arrange", t("sort.arrange"), () => setSort("arrange"), "a"),
  };
  els.sorts = h("div", { class: "sorts" }, b.bySuit, b.byRank, b.arrange);
  els.actions.append(b.meld, b.layoff, b.swap, b.take, b.discard, b.buy, b.pass, b.knock, b.drop, b.hint);

  function setSort(mode) {
    ui.manual = false;
    setPref("sort", mode);
    render();
  }

  function sendOnMeld(kind) {
    if (ui.selected.size !== 1) return showError(t("err.one_card"));
    if (ui.target === null) return showError(t("err.choose_meld"));
    send({ kind, card: [...ui.selected][0], meld: ui.target });
  }

  const check = (id, key, label, then) => h("label", { class: "pref" },
    h("input", { type: "checkbox", id, checked: pref(key), onchange: (e) => { setPref(key, e.target.checked); if (then) then(); } }), " " + label);
  const settings = h("details", { class: "settings", id: "settings" }, h("summary", { text: t("side.settings") }),
    check("pref-sound", "sound", t("pref.sound")),
    check("pref-title", "title", t("pref.title"), () => notifyTurn(document.body.classList.contains("my-turn"))),
    check("pref-four", "fourColour", t("pref.four"), applyLook));

  const game = h("div", { class: "game" },
      h("section", { class: "board", "aria-label": t("table.board") },
        els.seats,
        h("div", { class: "center" }, h("div", { class: "piles" }, els.stock, els.discard), els.pile, els.melds, tiles.board),
        h("div", { class: "mine" }, els.announce, els.shows, els.status, els.timer, els.error, els.hintBox,
          els.sorts, els.arrangeInfo, els.hand, tiles.rack, tiles.bar, els.actions, els.whyNot)),
      h("aside", { class: "side" },
        h("h2", { text: t("side.scores") }), els.scores, els.rounds,
        h("h2", { text: t("side.moves") }), els.log,
        h("h2", { text: t("side.chat") }), els.chat,
        h("form", { class: "chat-form", onsubmit: (e) => {
          e.preventDefault();
          const text = els.chatInput.value.trim();
          if (text) raw({ type: "chat", text });
          els.chatInput.value = "";
        } }, els.chatInput, h("button", { id: "chat-send", text: t("side.send") })),
        settings,
        h("p", { class: "links" }, h("button", { id: "btn-rules", text: t("side.rules"), onclick: showRules }), " ",
          h("button", { id: "btn-help", text: t("side.keys"), onclick: showHelp, "aria-keyshortcuts": "?" }), " ",
          h("a", { href: "/", text: t("side.lobby") }))));
  app.replaceChildren(game, els.dialog, els.sheet);
  applyLook();

  function applyLook() {
    document.body.classList.toggle("four-colour", pref("fourColour"));
  }

  function raw(msg) {
    if (ui.ws && ui.ws.readyState === WebSocket.OPEN) ui.ws.send(JSON.stringify(msg));
  }
  // Indian Rummy: a legal move the server marks as a wrong show (from this player's own
  // hand) is made only once the player confirms the warning, as the rummy apps ask.
  function wrongShowOk(kind, face) {
    const g = ui.msg && ui.msg.game;
    const e = g && g.legal.find((l) => l.kind === kind && l.wrong_show && (face === undefined || l.faces[0] === face));
    if (!e) return true;
    const text = kind === "knock"
      ? t("indian.wrong_declare", { n: e.wrong_show })
      : t("indian.wrong_out", { n: e.wrong_show, card: faceText(face) });
    return window.confirm(text);
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
    window.rummy.ws = ws; // for the browser tests (a dropped connection)
    connEl.textContent = t("conn.connecting");
    ws.onopen = () => {
      ui.retry = 0;
      connEl.textContent = t("conn.online");
      const hello = { type: "hello", lang }; // the server's errors and hints come in it
      if (cred) Object.assign(hello, cred.secret ? { seat: cred.seat, secret: cred.secret } : { seat: cred.seat });
      const name = localStorage.getItem("rummy:name");
      if (cred && name) hello.name = name.slice(0, 24);
      ws.send(JSON.stringify(hello));
    };
    ws.onmessage = (ev) => onMessage(JSON.parse(ev.data));
    ws.onclose = (ev) => {
      review.onClose();
      // docs/protocol.md, the close codes: some are final, some say "later".
      if ([4003, 4403, 4404].includes(ev.code)) {
        connEl.textContent = t("conn.refused");
        return;
      }
      if (ev.code === 4409) {
        connEl.textContent = t("conn.elsewhere");
        return;
      }
      const busy = ev.code === 4429 || ev.code === 4503;
      connEl.textContent = busy ? t("conn.busy") : t("conn.reconnecting");
      ui.retry = Math.min(ui.retry + 1, 5);
      setTimeout(connect, busy ? 15000 : 400 * ui.retry);
    };
  }

  function onMessage(m) {
    if (m.type === "state") {
      const prev = ui.msg;
      // A knock game's hand ends with a pass, so the table just before it holds every
      // meld of the hand: the round-end screen lays each hand out with them.
      if (prev && prev.game.knock && m.game.results.length > prev.game.results.length) {
        ui.roundMelds[m.game.results[m.game.results.length - 1].round_no] = prev.game.melds;
      }
      ui.prevTop = prev && prev.game.discard.length ? prev.game.discard[prev.game.discard.length - 1] : null;
      ui.msg = m;
      window.rummy.state = m;
      window.rummy.version = m.version;
      els.hintBox.textContent = "";
      render();
      afterMove(prev);
      // for the speed test: when the first state was drawn (the page is usable)
      if (window.rummy.readyAt === undefined) window.rummy.readyAt = performance.now();
    } else if (m.type === "presence") {
      // who is connected changed: the table's facts only, the game is unchanged
      if (ui.msg) {
        ui.msg = { ...ui.msg, table: m.table };
        window.rummy.state = ui.msg;
        render();
      }
    } else if (m.type === "review_progress" || m.type === "review") {
      review.onMessage(m);
    } else if (m.type === "error") {
      showError(m.message);
      review.onError(m);
      if (m.code === "bad_secret") localStorage.removeItem(`rummy:${tableId}`);
    } else if (m.type === "chat") {
      els.chat.append(h("li", {}, h("b", { text: m.name + ": " }), h("span", { class: "chat-text" }, ...richText(m.text))));
      els.chat.scrollTop = els.chat.scrollHeight;
    } else if (m.type === "hint") {
      els.hintBox.replaceChildren(t("table.hint") + " ", ...moveNodes(m.move.text), " — ", ...richText(m.reason));
    } else if (m.type === "welcome") {
      window.rummy.seat = m.seat;
    }
  }

  function name(i) {
    return ui.msg.table.seats[i] ? seatName(ui.msg.table.seats[i].name) : t("lobby.seat_n", { n: i + 1 });
  }

  // -- seeing what happened ------------------------------------------------------------
  // The newest logged move: animated when another player made it, marked until the next.
  function afterMove(prev) {
    const m = ui.msg;
    const last = m.log[m.log.length - 1];
    const first = ui.lastSeq === undefined;
    if (first && !last) ui.lastSeq = null; // nothing logged yet: the first entry is a move seen
    if (!last || last.seq === ui.lastSeq) return;
    ui.lastSeq = last.seq;
    const route = moveRoute(last.text, ui.prevTop);
    ui.lastMove = route ? { ...route, seat: last.seat, seq: last.seq, melds: m.game.melds.length } : null;
    window.rummy.lastMove = ui.lastMove && { seq: last.seq, seat: last.seat, text: last.text, from: route.from, to: route.to };
    markLastMove();
    // Rummikub: the table's change marked, and animated when another player made it
    const others = !first && !!prev && last.seat >= 0 && last.seat !== m.game.seat;
    const seen = m.game.options.free_table && !first && prev ? tiles.showMove(prev.game.melds, others ? spot("seat", last.seat) : null) : null;
    if (seen && seen.animated) window.rummy.animations += 1;
    if (!first) els.announce.textContent = `${last.seat >= 0 ? name(last.seat) + ": " : ""}${moveNodes(last.text).map((n) => n.title || n.textContent).join("")}${seen && seen.said ? ` (${seen.said})` : ""}`;
    if (first || !route || !prev || last.seat === m.game.seat || last.seat < 0) return;
    if (fly(spot(route.from, last.seat), spot(route.to, last.seat), route.face)) window.rummy.animations += 1;
  }

  function spot(where, seat) {
    if (where === "stock") return els.stock;
    if (where === "discard") return els.discard;
    if (where === "seat") return seat === ui.msg.game.seat ? els.hand : els.seats.querySelector(`[data-seat="${seat}"] .backs`);
    const i = where === "new-meld" ? ui.msg.game.melds.length - 1 : where;
    return els.melds.querySelector(`[data-meld="${i}"]`);
  }

  function markLastMove() {
    for (const el of document.querySelectorAll(".last-move")) el.classList.remove("last-move");
    const lm = ui.lastMove;
    if (!lm) return;
    const li = els.log.querySelector(`[data-seq="${lm.seq}"]`);
    if (li) li.classList.add("last-move");
    const target = lm.to === "seat" ? spot("seat", lm.seat) : spot(lm.to === "new-meld" && lm.melds ? lm.melds - 1 : lm.to, lm.seat);
    if (target) target.classList.add("last-move");
  }

  // -- drawing ---------------------------------------------------------------------------
  function render() {
    const m = ui.msg;
    const g = m.game;
    const me = g.seat;
    document.body.dataset.version = String(m.version);
    const myTurn = me >= 0 && g.current === me && g.phase !== "over";
    const hand = new Set(g.hand);
    const handChanged = g.hand.length !== ui.lastHand.size || g.hand.some((c) => !ui.lastHand.has(c));
    orderHand(g, hand);
    if (handChanged) ui.selected.clear();
    if (ui.target !== null && (ui.target >= g.melds.length || ui.renderedVersion !== m.version)) ui.target = null;
    ui.renderedVersion = m.version;
    ui.takeAt = null;

    renderSeats(m, g, me);
    els.sorts.hidden = me < 0 || !!g.options.free_table; // a spectator has no hand to sort
    els.actions.hidden = me < 0; // nor moves to make
    // piles
    els.stock.replaceChildren(backEl(), h("span", { class: "count", text: `${g.stock_size}` }));
    const top = g.discard.length ? g.discard[g.discard.length - 1] : null;
    els.discard.replaceChildren(top === null ? h("div", { class: "card empty" }) : cardEl(top), h("span", { class: "count", text: `${g.discard.length}` }));
    els.discard.setAttribute("aria-label", top === null ? t("table.pile_empty") : t("table.pile_top", { card: els.discard.firstChild.getAttribute("aria-label"), n: g.discard.length }));
    els.stock.setAttribute("aria-label", tn("table.stock_n", g.stock_size));
    const kinds = new Set(g.legal.map((l) => l.kind));
    els.stock.disabled = !myTurn || !kinds.has("draw_stock");
    // Contract Rummy's buy window: the pile's top card is bought out of turn
    els.discard.disabled = !myTurn || !(kinds.has("draw_discard") || kinds.has("buy"));
    // 500 Rum: the whole pile is open; a card below the top is drawn with every card above it
    // the takeable cards (the top one too) stand out, badged with how many come along
    const deep = new Map(g.legal.filter((l) => l.kind === "draw_deep").map((l) => [l.count, l]));
    if (kinds.has("draw_discard")) deep.set(1, { count: 1 });
    els.pile.classList.toggle("taking", myTurn && deep.size > 0);
    els.pile.replaceChildren(...(g.deep_discard ? g.discard.map((c, i) => {
      const count = g.discard.length - i;
      const el = cardEl(c);
      el.classList.add("pile-card");
      el.dataset.count = count;
      if (deep.has(count) && myTurn) {
        el.classList.add("playable");
        const above = g.discard.slice(i + 1).map((x) => faceText(faceOf(x))).join(" ");
        el.title = count > 1 ? t("deep.take_title", { card: faceText(faceOf(c)), cards: above }) : t("table.pile_title");
        if (count > 1) el.dataset.above = `+${count - 1}`;
        el.addEventListener("click", () => send(count > 1 ? { kind: "draw_deep", count } : { kind: "draw_discard" }));
      }
      return el;
    }) : []));
    const free = !!g.options.free_table;
    if (free && !tiles.loading) loadTiles();
    for (const el of [els.melds, els.hand, els.discard, els.arrangeInfo]) el.hidden = free;
    tiles.board.hidden = !free;
    tiles.rack.hidden = tiles.bar.hidden = !free || me < 0;
    if (free) {
      tiles.render(g, myTurn, m.version);
    } else {
      renderMelds(g);
      renderHand(g, me);
    }
    ui.lastHand = hand;

    // actions: a button is enabled only when the rules allow its move now
    // (Gin's upcard phase allows no meld, lay-off or discard)
    const cardButtons = { meld: b.meld, layoff: b.layoff, swap: b.swap, take: b.take, discard: b.discard };
    for (const [k, el] of Object.entries(cardButtons)) {
      el.disabled = !myTurn || !kinds.has(k);
      el.hidden = free; // a Rummikub turn is played on the board
      el.classList.toggle("possible", kinds.has(k));
    }
    b.buy.hidden = !kinds.has("buy");
    b.knock.hidden = !kinds.has("knock");
    // the button says what the family calls its knock, the legal move's text (act.knock,
    // act.declare: Indian Rummy's knock is a declaration)
    const knock = g.legal.find((l) => l.kind === "knock");
    if (knock) b.knock.textContent = t(`act.${knock.text}`);
    b.drop.hidden = !kinds.has("drop");
    b.hint.disabled = !myTurn;
    b.swap.hidden = free || !g.options.joker_swap;
    b.take.hidden = free || !g.options.take_from_meld;
    b.pass.hidden = free || !kinds.has("pass"); // the board's Draw button passes
    explainRefusals(cardButtons, myTurn ? g.refused || {} : {});
    const mode = ui.manual ? "manual" : pref("sort");
    for (const [k, el] of [["suit", b.bySuit], ["rank", b.byRank], ["arrange", b.arrange]]) el.setAttribute("aria-pressed", String(mode === k));

    renderShows(g);
    els.status.textContent = statusLine();
    drawTimer();
    document.body.classList.toggle("my-turn", myTurn);
    notifyTurn(myTurn);
    renderScores(g, me, m);
    markLastMove();
    // every finished round's screen (and its Review) stays a click away
    if (els.rounds.childElementCount !== g.results.length) {
      els.rounds.replaceChildren(...g.results.map((r) => h("button", {
        class: "round-link", "data-round": r.round_no, title: t("side.round_title", { n: r.round_no }),
        text: t("side.round", { n: r.round_no }),
        onclick: () => showSummary(ui.msg.game.results.find((x) => x.round_no === r.round_no)),
      })));
    }
    summaries(g);
    if (!reviewAsked && g.phase === "over" && g.seat >= 0 && g.results.length) {
      reviewAsked = true;
      const last = g.results[g.results.length - 1];
      showSummary(last);
      review.ask(last.round_no);
    }
  }

  // A greyed button says why, in its tooltip and in a line under the buttons (one line
  // per reason, naming the buttons it greys), in the page's language.
  function explainRefusals(buttons, refused) {
    const byReason = new Map();
    for (const [k, el] of Object.entries(buttons)) {
      const r = el.disabled && !el.hidden ? refused[k] : undefined;
      const reason = r ? (lang === "fr" ? r.fr : r.text) : "";
      el.title = reason || t("table.key", { key: el.getAttribute("aria-keyshortcuts") });
      el.dataset.rule = r ? r.rule : "";
      if (reason) {
        el.setAttribute("aria-describedby", "why-not");
        byReason.set(reason, [...(byReason.get(reason) || []), el.textContent]);
      } else {
        el.removeAttribute("aria-describedby");
      }
    }
    els.whyNot.replaceChildren(...[...byReason].map(([reason, labels]) =>
      h("li", {}, h("b", { text: labels.join(", ") + t("table.why_sep") }), reason)));
  }

  // The family's public status lines, each a paragraph named by its code (#contract,
  // #wild), with the card it names face up (a wild cut).
  function renderShows(g) {
    els.shows.replaceChildren(...g.status.filter((line) => !line.own).map((line) => h("p",
      { class: `show show-${line.code}`, id: line.code, "data-code": line.code },
      typeof line.params.card === "number" ? cardEl(line.params.card) : null,
      h("span", { text: showText(line) }))));
  }

  function renderSeats(m, g, me) {
    els.seats.replaceChildren(...m.table.seats.flatMap((s, i) => {
      if (i === me) return [];
      const known = g.known[i] || [];
      const n = g.hand_sizes[i];
      // the bot's level is said once: the server's default name already has it
      const level = s.kind === "bot" && !s.name.includes(`(${s.difficulty})`) ? ` (${t(`bot.${s.difficulty}`)})` : "";
      const dropped = g.declare ? g.declare.dropped[i] : 0;
      const tag = [s.kind === "bot" ? t("table.bot") : s.connected ? "" : t("table.away"),
        dropped > 0 ? t("indian.dropped", { n: dropped }) : dropped < 0 ? t("indian.out") : ""].filter(Boolean).join(" · ");
      const shown = Math.min(n, 14);
      return h("div", { class: "opponent" + (g.current === i ? " active" : "") + (s.connected ? "" : " away"), "data-seat": i,
        role: "group", "aria-label": `${seatName(s.name)}: ${tn("table.cards", n)}` },
      h("div", { class: "who" }, h("span", { class: "name", text: seatName(s.name) + level }),
        h("span", { class: "muted", text: `${tag ? " · " + tag : ""} · ` }),
        h("span", { class: "hand-count", text: tn("table.cards", n) })),
      // the backs fan out, so the count can be seen as well as read
      h("div", { class: "backs" }, Array.from({ length: shown }, (_, j) => {
        const back = backEl();
        back.style.setProperty("--i", String(j - (shown - 1) / 2));
        return back;
      })),
      known.length ? h("div", { class: "known" }, h("span", { class: "muted", text: t("table.known") + " " }), known.map((c) => cardEl(c))) : null);
    }));
  }

  function renderMelds(g) {
    els.melds.replaceChildren(...g.melds.map((md, i) => h("div", {
      class: "meld" + (ui.target === i ? " target" : ""), "data-meld": i, role: "button", tabindex: 0,
      "aria-label": t("table.meld_n", { n: i + 1, owner: name(md.owner) }), "aria-pressed": String(ui.target === i),
      onclick: () => { ui.target = i; render(); },
      onkeydown: (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); ui.target = i; render(); } },
    }, h("span", { class: "meld-no", text: `${i + 1}` }), md.cards.map((c, j) => {
      const el = cardEl(c, { stands: md.jokers[j] ? md.faces[j] : undefined });
      el.dataset.meldCard = `${i}:${j}`;
      el.addEventListener("click", (e) => {
        e.stopPropagation();
        ui.target = i;
        render();
        ui.takeAt = [i, j];
        els.melds.querySelector(`[data-meld-card="${i}:${j}"]`).classList.add("picked");
      });
      return el;
    }), h("span", { class: "owner", text: name(md.owner) }))));
    if (!g.melds.length) els.melds.append(h("p", { class: "muted", text: t("table.no_melds") }));
  }

  const showText = (line) => lineText(line, (c) => faceText(faceOf(c)));
  const comingLines = (g) => g.status.filter((line) => !line.own && known(`next.${line.code}`)).map((line) =>
    h("p", { class: `show next-${line.code}`, id: `next-${line.code}`, text: lineText(line, (c) => faceText(faceOf(c)), `next.${line.code}`) }));
  // the family's advice for the turn, under its own code in the page's catalog
  const adviceText = (line) => lineText(line, (c) => faceText(faceOf(c)), line.code, name);

  function statusLine() {
    const g = ui.msg.game;
    const me = g.seat;
    const myTurn = me >= 0 && g.current === me && g.phase !== "over";
    if (g.phase === "over") return t("status.over");
    const gone = ui.msg.table.abandoned;
    if (gone !== null && gone !== undefined) return t("status.abandoned", { who: name(gone) });
    // the discard offered out of turn (Contract Rummy's buying) to another seat
    if (g.phase === "buy" && !myTurn) return t("contract.offered", { who: name(g.current) });
    if (myTurn && g.phase === "draw") {
      // a whole pile open (500 Rum): which pile cards can be taken, and what comes with each
      const pile = (n) => faceText(faceOf(g.discard[g.discard.length - n]));
      const takes = g.legal.filter((l) => l.kind === "draw_deep").sort((x, y) => x.count - y.count)
        .map((l) => tn("deep.with", l.count - 1, { card: pile(l.count) }));
      if (takes.length) {
        if (g.legal.some((l) => l.kind === "draw_discard")) takes.push(t("deep.top", { card: pile(1) }));
        const cards = takes.length > 1 ? takes.slice(0, -1).join(", ") + t("word.and") + takes[takes.length - 1] : takes[0];
        return t("status.your_turn") + " " + t("deep.take", { cards });
      }
    }
    if (myTurn) {
      // the family's advice, else the draw-meld-discard turn's, then what the family
      // shows of the player's own hand (deadwood, count)
      const advice = g.advice ? adviceText(g.advice) : g.options.free_table ? t("rk.status") : g.phase === "draw" ? t("status.draw") : t("status.play");
      return [t("status.your_turn"), advice, ...g.status.filter((line) => line.own).map(showText)].join(" ");
    }
    return t("status.playing", { who: name(g.current) });
  }

  // A visible countdown when the table has a turn timer.
  function drawTimer() {
    const tb = ui.msg.table;
    const left = tb.time_left;
    const on = !!tb.timer && left !== null && left !== undefined && ui.msg.game.phase !== "over";
    els.timer.hidden = !on;
    if (!on) return;
    const secs = Math.ceil(left);
    els.timer.replaceChildren(
      h("span", { text: t("timer.left", { who: name(ui.msg.game.current), s: secs }) }),
      h("progress", { max: tb.timer, value: Math.max(0, left), "aria-label": t("timer.aria") }));
    els.timer.classList.toggle("urgent", secs <= 10);
  }

  function renderScores(g, me, m) {
    els.scores.replaceChildren(
      h("tr", {}, h("th", { text: t("side.player") }), h("th", { text: g.low_wins ? t("side.points_low") : t("side.points") })),
      ...g.standings.map((p) => h("tr", { class: p === me ? "me" : "" }, h("td", { text: name(p) }), h("td", { text: String(g.scores[p]) }))),
    );
    els.log.replaceChildren(...m.log.map((e) => h("li", { "data-seq": e.seq },
      h("b", { text: e.seat >= 0 ? name(e.seat) + ": " : "" }), ...moveNodes(e.text), e.auto ? " " + t("side.auto") : "")));
    els.log.scrollTop = els.log.scrollHeight;
  }

  // -- dialogs ---------------------------------------------------------------------------
  function openDialog(d, ...content) {
    ui.returnFocus = document.activeElement;
    d.replaceChildren(h("div", { class: "dialog-box", tabindex: -1 }, ...content));
    d.classList.remove("hidden");
    game.inert = true; // a modal dialog: the table behind it takes no focus or clicks
    // The keyboard starts in the box on no button: a key pressed for the game must not
    // start a rematch by accident.
    d.firstChild.focus();
  }
  function closeDialog(d) {
    d.classList.add("hidden");
    game.inert = dialogOpen();
    if (ui.returnFocus && ui.returnFocus.isConnected) ui.returnFocus.focus();
    const then = d === els.sheet && ui.onSheetClose;
    ui.onSheetClose = null;
    if (then) then();
  }
  const dialogOpen = () => !els.dialog.classList.contains("hidden") || !els.sheet.classList.contains("hidden");

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
    const names = m.table.seats.map((_, i) => name(i));
    review.show(r ? r.round_no : null);
    openDialog(els.dialog,
      h("h2", { id: "summary-title", text: over ? t("end.match_over") : t("end.round_over", { n: r.round_no }) }),
      ...roundEnd(g, r, names, over, r ? ui.roundMelds[r.round_no] : undefined),
      // what the family shows of the deal now starting that the catalog says ahead
      // (next.<code>: Contract Rummy's next contract)
      ...(!over && g.phase !== "over" && r && r.round_no === g.round - 1 ? comingLines(g) : []),
      h("div", { class: "dialog-actions" },
        over && g.seat >= 0 ? h("button", { id: "btn-rematch", text: t("end.rematch"), onclick: () => { raw({ type: "rematch", version: m.version }); closeDialog(els.dialog); ui.seenResults = 0; } }) : null,
        over ? h("a", { class: "button", id: "download", href: `/api/tables/${tableId}/record`, download: `rummy-${tableId}.txt`, text: t("end.download") }) : null,
        r && g.seat >= 0 ? h("button", { id: "btn-review", text: t("end.review"), title: t("end.review_title"), onclick: () => review.ask(r.round_no) }) : null,
        h("button", { id: "btn-close", text: over ? t("end.close") : t("end.continue"), onclick: () => closeDialog(els.dialog) })),
      review.el);
    if (over) ui.overShown = true;
  }

  // The rules of this table: the preset's in words, and the house rules set here.
  function showRules() {
    const spec = ui.msg ? ui.msg.game.rules : info ? info.rules : "";
    const inner = /\((.*)\)$/.exec(spec);
    const house = inner ? inner[1].split(",").map((s) => s.trim()).filter(Boolean) : [];
    openDialog(els.sheet,
      h("h2", { id: "sheet-title", text: t("rules.title", { spec: info && info.game ? info.game : spec.split("(")[0] }) }),
      h("h3", { text: t("rules.house") }),
      house.length ? h("ul", { id: "house-rules" }, house.map((x) => h("li", {}, h("code", { text: x })))) : h("p", { id: "house-rules", text: t("rules.no_house") }),
      h("h3", { text: t("rules.summary") }),
      h("ul", { id: "rules-text" }, (info && info.summary ? info.summary : []).map((line) => h("li", {}, ...richText(line)))),
      h("div", { class: "dialog-actions" }, h("button", { text: t("end.close"), onclick: () => closeDialog(els.sheet) })));
  }

  function showHelp() {
    openDialog(els.sheet,
      h("h2", { id: "sheet-title", text: t("keys.title") }),
      h("dl", { class: "keys", id: "key-list" }, KEYS.flatMap(([k, action]) => [h("dt", {}, h("kbd", { text: k === " " ? "Space" : k })), h("dd", { text: t(`key.${action}`) })])),
      h("div", { class: "dialog-actions" }, h("button", { text: t("end.close"), onclick: () => closeDialog(els.sheet) })));
  }

  // Indian Rummy: a drop ends the player's deal at once, for its points: asked first
  function confirmDrop() {
    const n = ui.msg.game.declare.drop_cost;
    openDialog(els.sheet,
      h("h2", { id: "sheet-title", text: t("drop.title", { n }) }),
      h("div", { class: "dialog-actions" },
        h("button", { id: "btn-drop-yes", text: t("drop.yes", { n }), onclick: () => { closeDialog(els.sheet); send({ kind: "drop" }); } }),
        h("button", { id: "btn-drop-no", text: t("drop.no"), onclick: () => closeDialog(els.sheet) })));
  }

  function showPile() {
    const g = ui.msg.game;
    openDialog(els.sheet,
      h("h2", { id: "sheet-title", text: tn("table.pile_n", g.discard.length) }),
      h("div", { class: "mini pile-list" }, g.discard.map((c) => cardEl(c))),
      h("div", { class: "dialog-actions" }, h("button", { text: t("end.close"), onclick: () => closeDialog(els.sheet) })));
  }

  // -- the keyboard: the terminal game's keys ---------------------------------------------
  function focusCard(step) {
    const cards = [...els.hand.querySelectorAll("[data-card]")];
    if (!cards.length) return;
    const at = cards.indexOf(document.activeElement);
    const next = at < 0 ? (step > 0 ? 0 : cards.length - 1) : (at + step + cards.length) % cards.length;
    cards[next].focus();
  }
  const click = (el) => () => { if (!el.disabled && !el.hidden) el.click(); };
  const buying = () => ui.msg.game.phase === "buy" && ui.msg.game.current === ui.msg.game.seat;
  // the terminal's "best melds": a meld of the solver's arrangement when the rules
  // allow it now, else the first meld they allow
  function best() {
    const g = ui.msg.game;
    const melds = g.legal.filter((l) => l.kind === "meld");
    const key = (faces) => [...faces].sort((x, y) => x - y).join();
    const wanted = new Set((g.arrangement ? g.arrangement.melds : []).map((md) => key(md.faces.map((f, i) => (md.jokers[i] ? JOKER : f)))));
    const meld = melds.find((l) => wanted.has(key(l.faces))) || melds[0];
    if (!meld) return showError(t("err.no_meld"));
    send({ kind: "meld", cards: cardsFor(g.hand, meld.faces) });
  }
  bindKeys({
    // Contract Rummy's buy window has its own keys (b, n): nobody draws then
    draw_stock: () => (buying() ? showError(t("contract.no_draw")) : click(els.stock)()),
    draw_pile: () => (buying() ? showError(t("contract.no_draw")) : click(els.discard)()),
    buy: () => (buying() ? click(b.buy)() : best()),
    meld: click(b.meld),
    layoff: click(b.layoff),
    swap: click(b.swap),
    take: () => {
      // with a meld chosen by number, take the selected card's twin from it
      if (ui.takeAt === null && ui.target !== null && ui.selected.size === 1) {
        const f = faceOf([...ui.selected][0]);
        const j = ui.msg.game.melds[ui.target].faces.indexOf(f);
        if (j >= 0) ui.takeAt = [ui.target, j];
      }
      click(b.take)();
    },
    discard: click(b.discard),
    knock: click(b.knock),
    drop: click(b.drop),
    pass: click(b.pass),
    hint: click(b.hint),
    best,
    arrange: () => setSort("arrange"),
    clear: () => { ui.selected.clear(); ui.target = null; els.error.textContent = ""; tiles.clear(); render(); },
    sort: () => setSort(pref("sort") === "suit" ? "rank" : "suit"),
    pile: showPile,
    help: showHelp,
    left: () => focusCard(-1),
    right: () => focusCard(1),
    target: (e) => {
      const i = Number(e.key) - 1;
      if (ui.msg.game.options.free_table) tiles.target(i); // the board's set i + 1
      else if (i < ui.msg.game.melds.length) { ui.target = i; render(); }
    },
  }, dialogOpen);

  // the countdown shown under the status line
  setInterval(() => {
    if (ui.msg && ui.msg.table.time_left) {
      ui.msg.table.time_left = Math.max(0, ui.msg.table.time_left - 1);
      drawTimer();
    }
  }, 1000);

  // An invited player names themself before taking the seat:
  // the first hello claims the seat with that name, for everyone to see.
  const seatInfo = cred && info && info.seats[cred.seat];
  if (params.get("key") && seatInfo && localStorage.getItem("rummy:name") === null && /^Player \d+$/.test(seatInfo.name)) {
    askName(connect);
  } else {
    connect();
  }

  function askName(then) {
    const input = h("input", { id: "invite-name", maxlength: 24, autocomplete: "nickname", required: true, "aria-label": t("name.label") });
    const go = (e) => {
      e.preventDefault();
      localStorage.setItem("rummy:name", input.value.trim());
      closeDialog(els.sheet);
    };
    openDialog(els.sheet,
      h("h2", { id: "sheet-title", text: t("name.title") }),
      h("p", { id: "invite-game", text: t("name.game", { game: info.title, players: info.seats.filter((_, i) => i !== cred.seat).map((s) => seatName(s.name)).join(", ") }) }),
      h("form", { id: "name-form", onsubmit: go },
        h("label", { for: "invite-name", text: t("name.label") }), " ", input, " ",
        h("button", { type: "submit", id: "name-go", text: t("name.go") })));
    ui.onSheetClose = then; // Escape joins too, as "Player N"
    input.focus();
  }
}
