// Rummikub's board: the table's sets and the rack, rearranged by the player during the
// turn and sent as the table's whole new arrangement in notation ("table 5H 6H 7H /
// 7C 7D 7S", docs/notation.md).  The page never names a play by its action number: an
// arrangement's number is far past what a JSON number holds.  Each set's mark is the
// page's own reading of the simple rules, for display; the server judges the play and
// its refusal is shown as it comes, in the page's language.
import { fly, reduced } from "./anim.js";
import { cardEl, faceOf, faceText, JOKER } from "./cards.js";
import { h } from "./dom.js";
import { t, tn } from "./i18n.js";

const RANK_LETTERS = "A23456789TJQK";
const SUIT_LETTERS = "CDHS";

/** A tile in notation: "5H", "TC", "JK". */
export function tileCode(face) {
  return face >= JOKER ? "JK" : RANK_LETTERS[face % 13] + SUIT_LETTERS[Math.floor(face / 13)];
}

/** How tiles (faces in order, JOKER for a joker) read as a set: ``valid`` for a group
 * of three or four colours of one number or a run of three or more numbers in a row of
 * one colour (ace low, no wrap), a joker standing where it lies; ``stands`` what each
 * joker of a run stands for (undefined in a group: either missing colour). */
export function readSet(faces) {
  const nat = faces.map((f, i) => [f, i]).filter(([f]) => f < JOKER);
  const out = { valid: false, stands: faces.map(() => undefined) };
  if (faces.length < 3 || !nat.length) return out;
  const suits = nat.map(([f]) => Math.floor(f / 13));
  const ranks = new Set(nat.map(([f]) => f % 13));
  if (ranks.size === 1 && new Set(suits).size === suits.length && faces.length <= 4) {
    out.valid = true;
    return out;
  }
  if (new Set(suits).size !== 1) return out;
  const lo = (nat[0][0] % 13) - nat[0][1];
  if (lo < 0 || lo + faces.length > 13 || !nat.every(([f, i]) => f % 13 === lo + i)) return out;
  out.valid = true;
  out.stands = faces.map((f, i) => (f >= JOKER ? suits[0] * 13 + lo + i : undefined));
  return out;
}

// Where a natural tile goes when it is put on a set rather than before one of its
// tiles: before the first natural tile it sorts below (by number in a run, by colour
// in a group), so that "6H 7H" + 5H reads "5H 6H 7H"; a joker goes at the end.
function placeIn(set, tile) {
  if (tile.face >= JOKER) return set.length;
  const nat = set.filter((x) => x.face < JOKER);
  const group = nat.length > 0 && nat.every((x) => x.face % 13 === tile.face % 13);
  const key = (f) => (group ? Math.floor(f / 13) : f % 13);
  const at = set.findIndex((x) => x.face < JOKER && key(x.face) > key(tile.face));
  return at < 0 ? set.length : at;
}

// A set named by its tiles (card ids, in any order): the same set after a move that
// left it as it was.
const setKey = (cards) => [...cards].sort((a, b) => a - b).join(",");

/** What a move did to the table (each set a list of card ids, before and after):
 * ``placed`` the tiles that came from the player's rack, ``moved`` the table's tiles
 * now in another set than the one they were in, ``sets`` the keys of the new or
 * changed sets.  A set after the move continues the set before it that gave it the
 * most tiles (each set before continued at most once, the biggest shares first): the
 * run 6H 7H 8H become 5H 6H 7H and 8H 9H TH continues as the first, and 8H moved. */
export function tableChange(before, after) {
  const was = new Map();
  before.forEach((set, i) => { for (const c of set) was.set(c, i); });
  const shares = [];
  after.forEach((set, j) => {
    const n = new Map();
    for (const c of set) if (was.has(c)) n.set(was.get(c), (n.get(was.get(c)) || 0) + 1);
    for (const [i, k] of n) shares.push([k, i, j]);
  });
  shares.sort((x, y) => y[0] - x[0] || x[1] - y[1] || x[2] - y[2]);
  const origin = new Map();
  const continued = new Set();
  for (const [, i, j] of shares) {
    if (origin.has(j) || continued.has(i)) continue;
    origin.set(j, i);
    continued.add(i);
  }
  const kept = new Set(before.map(setKey));
  const out = { placed: new Set(), moved: new Set(), sets: new Set() };
  after.forEach((set, j) => {
    for (const c of set) {
      if (!was.has(c)) out.placed.add(c);
      else if (was.get(c) !== origin.get(j)) out.moved.add(c);
    }
    if (!kept.has(setKey(set))) out.sets.add(setKey(set));
  });
  return out;
}

/** The board: ``board`` (the sets and the new-set target), ``rack`` and ``bar``
 * (the turn's buttons) to place in the page, and ``render`` for each state. */
export function tileBoard({ send, showError, clearError }) {
  // the turn's draft: sets and rack as tiles ({card, face, table}), from the state of
  // version ``version``; ``sel`` the selected tile {zone, at} (zone: "rack" or a set's
  // index) or whole set {set}
  const st = { version: -1, sets: [], rack: [], sel: null, g: null, myTurn: false, suppressClick: false };
  // the newest move's marks (tableChange), kept until the next move; and where each
  // table tile was drawn before the state that came last, for its slide to its new set
  let marks = { placed: new Set(), moved: new Set(), sets: new Set() };
  let before = new Map();
  const sets = h("div", { class: "rk-sets", id: "rk-sets", role: "group", "aria-label": t("rk.table") });
  const newSet = h("button", { class: "rk-new", id: "rk-new", "data-drop": "new", type: "button", text: t("rk.new_set"), onclick: () => target("new") });
  const board = h("div", { class: "rk-board", id: "rk-board", hidden: true }, sets, newSet);
  const rack = h("div", { class: "rk-rack", id: "rk-rack", "data-drop": "rack", role: "group", "aria-label": t("rk.rack"),
    onclick: (e) => { if (e.target === rack) target("rack"); } });
  const toRack = h("button", { class: "rk-to-rack", id: "rk-to-rack", type: "button", text: t("rk.to_rack"), onclick: () => target("rack") });
  const btn = (id, key, fn) => h("button", { id, type: "button", text: t(key), onclick: fn });
  const b = {
    play: btn("btn-play", "rk.play", play),
    reset: btn("btn-reset", "rk.reset", () => { st.version = -1; clearError(); draw(); }),
    split: btn("btn-split", "rk.split", split),
    draw: btn("btn-draw", "rk.draw", () => send({ kind: st.g.legal.some((l) => l.kind === "draw_stock") ? "draw_stock" : "pass" })),
  };
  const bar = h("div", { class: "actions rk-bar", id: "rk-bar", hidden: true }, b.play, b.draw, b.reset, b.split);

  const tile = (card, table) => ({ card, face: faceOf(card), table });
  const placed = () => st.rack.length < st.g.hand.length;

  function render(g, myTurn, version) {
    st.g = g;
    st.myTurn = myTurn;
    if (version !== st.version) {
      before = new Map([...sets.querySelectorAll(".tile")].map((el) => [Number(el.dataset.card), el.getBoundingClientRect()]));
      st.version = version;
      st.sets = g.melds.map((md) => md.cards.map((c) => tile(c, true)));
      st.rack = [...g.hand].sort((x, y) => faceOf(x) - faceOf(y) || x - y).map((c) => tile(c, false));
      st.sel = null;
    }
    draw();
  }

  function draw() {
    if (st.version === -1) return render(st.g, st.myTurn, window.rummy.version);
    const sel = st.sel;
    sets.replaceChildren(...st.sets.map((set, i) => {
      const read = readSet(set.map((x) => x.face));
      const whole = sel && sel.set === i;
      return h("div", {
        class: "rk-set" + (read.valid ? " valid" : " invalid") + (whole ? " selected" : "")
          + (marks.sets.has(setKey(set.map((x) => x.card))) ? " rk-changed" : ""),
        "data-drop": "set", "data-set": i, "data-valid": String(read.valid), role: "group",
        "aria-label": t(read.valid ? "rk.set_valid" : "rk.set_invalid", { n: i + 1, tiles: set.map((x) => faceText(x.face)).join(" ") }),
        onclick: (e) => { if (!e.target.closest("button")) target(i); },
      },
      h("button", { class: "rk-grip", type: "button", "data-set": i, "aria-pressed": String(!!whole),
        "aria-label": t("rk.grip", { n: i + 1 }), title: t("rk.grip", { n: i + 1 }), text: "⠿",
        onclick: (e) => { e.stopPropagation(); if (!st.suppressClick) pick({ set: i }); },
        onpointerdown: (e) => startDrag(e, { set: i }) }),
      set.map((x, j) => tileEl(x, i, j, read.stands[j])),
      // the mark is also the set's end: what is selected goes there (by click or key)
      h("button", { class: "rk-mark", type: "button", "data-set": i, text: read.valid ? "✓" : "✗",
        "aria-label": t("rk.put_here", { n: i + 1 }), title: t("rk.put_here", { n: i + 1 }),
        onclick: (e) => { e.stopPropagation(); target(i); } }));
    }));
    rack.replaceChildren(...st.rack.map((x, j) => tileEl(x, "rack", j)), toRack);
    toRack.disabled = !st.myTurn;
    board.classList.toggle("editing", st.myTurn);
    const kinds = new Set(st.g.legal.map((l) => l.kind));
    b.play.disabled = !st.myTurn || !placed();
    b.reset.disabled = !st.myTurn;
    b.split.disabled = !st.myTurn || !sel || sel.zone === undefined || sel.zone === "rack" || sel.at === 0;
    b.draw.disabled = !st.myTurn || placed() || !(kinds.has("draw_stock") || kinds.has("pass"));
    b.draw.textContent = kinds.has("pass") && !kinds.has("draw_stock") ? t("rk.pass") : t("rk.draw");
    newSet.disabled = !st.myTurn;
  }

  function tileEl(x, zone, at, stands) {
    const el = cardEl(x.card, { tag: "button", stands: x.face >= JOKER ? stands : undefined });
    const selected = st.sel && st.sel.zone === zone && st.sel.at === at;
    el.type = "button";
    el.classList.add("tile");
    if (x.table) el.classList.add("from-table");
    if (selected) el.classList.add("selected");
    if (marks.placed.has(x.card)) el.classList.add("rk-placed");
    if (marks.moved.has(x.card)) el.classList.add("rk-moved");
    el.setAttribute("aria-pressed", String(!!selected));
    el.dataset.card = String(x.card);
    el.dataset.zone = String(zone);
    el.dataset.at = String(at);
    el.addEventListener("pointerdown", (e) => startDrag(e, { zone, at }));
    el.addEventListener("click", (e) => {
      e.stopPropagation();
      if (!st.suppressClick) clicked(zone, at);
    });
    return el;
  }

  // -- moving tiles ----------------------------------------------------------------------
  function pick(what) {
    if (!st.myTurn) return;
    const same = st.sel && st.sel.zone === what.zone && st.sel.at === what.at && st.sel.set === what.set;
    st.sel = same ? null : what;
    draw();
  }

  // A tile clicked: selected, or (another tile being selected) the place the selected
  // one goes, before it; a rack tile clicked selects it instead.
  function clicked(zone, at) {
    if (!st.myTurn) return;
    if (!st.sel || zone === "rack" || (st.sel.zone === zone && st.sel.at === at)) return pick({ zone, at });
    moveTo(zone, at);
  }

  // The selection put on ``where``: "rack", "new" (a set of its own) or a set's index.
  function target(where) {
    if (!st.myTurn || !st.sel || (typeof where === "number" && !st.sets[where])) return;
    moveTo(where, undefined);
  }

  function take(sel) {
    const from = sel.zone === "rack" ? st.rack : st.sets[sel.zone];
    return from.splice(sel.at, 1)[0];
  }

  function moveTo(where, before) {
    const sel = st.sel;
    st.sel = null;
    if (sel.set !== undefined) { // a whole set: joined to another one
      if (typeof where === "number" && where !== sel.set) {
        const moving = st.sets[sel.set];
        const into = st.sets[where];
        for (const x of moving) into.splice(placeIn(into, x), 0, x);
        st.sets[sel.set] = [];
      }
      return settle();
    }
    const x = (sel.zone === "rack" ? st.rack : st.sets[sel.zone])[sel.at];
    if (where === "rack") {
      if (x.table) { showError(t("rk.table_stays")); return settle(); }
      take(sel);
      st.rack.push(x);
      st.rack.sort((p, q) => p.face - q.face || p.card - q.card);
    } else if (where === "new") {
      take(sel);
      st.sets.push([x]);
    } else {
      const into = st.sets[where];
      let at = before;
      if (at !== undefined && sel.zone === where && sel.at < at) at -= 1;
      take(sel);
      into.splice(at === undefined ? placeIn(into, x) : at, 0, x);
    }
    settle();
  }

  function settle() {
    st.sets = st.sets.filter((s) => s.length);
    draw();
  }

  // The selected tile's set split before it: the tile and those after it make a new set.
  function split() {
    const sel = st.sel;
    if (!sel || typeof sel.zone !== "number" || sel.at === 0) return;
    const set = st.sets[sel.zone];
    st.sets.splice(sel.zone + 1, 0, set.splice(sel.at));
    st.sel = null;
    draw();
  }

  function play() {
    send({ kind: "text", text: "table " + st.sets.map((s) => s.map((x) => tileCode(x.face)).join(" ")).join(" / ") });
  }

  // Dragging, with a mouse, a pen or a finger: the tile (or the whole set, by its grip)
  // follows the pointer and lands where it is let go; a press without a move is a click.
  function startDrag(e, what) {
    if (!st.myTurn || e.button > 0) return;
    const el = e.currentTarget;
    const x0 = e.clientX;
    const y0 = e.clientY;
    let ghost = null;
    el.setPointerCapture(e.pointerId);
    const move = (ev) => {
      if (!ghost && Math.hypot(ev.clientX - x0, ev.clientY - y0) < 6) return;
      if (!ghost) {
        ghost = (what.set !== undefined ? el.parentElement : el).cloneNode(true);
        ghost.classList.add("rk-ghost");
        ghost.removeAttribute("id");
        document.body.append(ghost);
      }
      ghost.style.left = `${ev.clientX + 4}px`;
      ghost.style.top = `${ev.clientY + 4}px`;
    };
    const up = (ev) => {
      el.removeEventListener("pointermove", move);
      el.removeEventListener("pointerup", up);
      el.removeEventListener("pointercancel", up);
      if (!ghost) return;
      ghost.remove();
      if (ev.type === "pointercancel") return;
      const under = document.elementFromPoint(ev.clientX, ev.clientY);
      // the click that follows this release is the drag's, not a click: it comes
      // before the drop redraws the board
      st.suppressClick = true;
      setTimeout(() => {
        st.suppressClick = false;
        const zone = under && under.closest("[data-drop]");
        if (!zone || !st.myTurn) return;
        st.sel = what;
        const onTile = under.closest(".rk-set .tile");
        if (onTile && what.set === undefined) moveTo(Number(onTile.dataset.zone), Number(onTile.dataset.at));
        else moveTo(zone.dataset.drop === "set" ? Number(zone.dataset.set) : zone.dataset.drop, undefined);
      }, 0);
    };
    el.addEventListener("pointermove", move);
    el.addEventListener("pointerup", up);
    el.addEventListener("pointercancel", up);
  }

  // -- a move seen -----------------------------------------------------------------------
  // The newest move against the table before it (``prevMelds``): its placed and moved
  // tiles and its new sets marked; when ``seatEl`` (another player's seat) is given and
  // motion is welcome, the placed tiles fly from it and the moved ones slide from their
  // old places.  ``animated`` says whether anything moved, ``said`` the move in words.
  function showMove(prevMelds, seatEl) {
    marks = tableChange(prevMelds.map((md) => md.cards), st.g.melds.map((md) => md.cards));
    draw();
    const said = [marks.placed.size && tn("rk.placed", marks.placed.size), marks.moved.size && tn("rk.moved", marks.moved.size)];
    let animated = false;
    if (seatEl && !reduced() && document.body.animate) {
      for (const el of sets.querySelectorAll(".tile")) {
        const c = Number(el.dataset.card);
        const was = before.get(c);
        if (marks.placed.has(c) && fly(seatEl, el, faceOf(c))) {
          // the tile shows where it lands once the flying one is there
          el.animate([{ opacity: 0 }, { opacity: 0, offset: 0.95 }, { opacity: 1 }], { duration: 450 });
          animated = true;
        } else if (marks.moved.has(c) && was && was.width) {
          const now = el.getBoundingClientRect();
          el.animate([{ transform: `translate(${was.left - now.left}px, ${was.top - now.top}px)` }, { transform: "none" }],
            { duration: 450, easing: "ease-out" });
          animated = true;
        }
      }
    }
    return { animated, said: said.filter(Boolean).join(", ") };
  }

  function clear() {
    st.sel = null;
    if (st.g) draw();
  }

  return { board, rack, bar, render, clear, target, showMove };
}
