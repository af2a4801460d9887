// The player's hand: its order (by suit, by rank, the solver's arrangement, or the
// player's own by dragging), its cards as buttons, the selection.
import { cardEl, cardsFor, faceText, isWild, JOKER, sortByRank, sortBySuit } from "./cards.js";
import { h } from "./dom.js";
import { t, tn } from "./i18n.js";
import { pref } from "./prefs.js";

const SORTS = { suit: sortBySuit, rank: sortByRank };

/** The hand's part of the table page: ``ui`` the page's state (order, selection,
 * manual), ``els`` its elements (hand, arrangeInfo), ``render`` draws it all again. */
export function handView(ui, els, tableId, render) {
  // The hand's order: sorted by suit unless the player chose rank or the solver's
  // arrangement (kept in this browser), or dragged cards about (kept for the deal).
  function orderHand(g, hand) {
    const key = `rummy:order:${tableId}`;
    const newDeal = g.hand.length && !g.hand.some((c) => ui.lastHand.has(c));
    if (newDeal) {
      // a hand dragged into an order of the player's own keeps it over a reload
      const saved = JSON.parse(localStorage.getItem(key) || "null");
      ui.manual = !!saved && saved.round === g.round && saved.order.some((c) => hand.has(c));
      if (ui.manual) ui.order = saved.order;
    }
    if (ui.manual) {
      ui.order = ui.order.filter((c) => hand.has(c));
      for (const c of g.hand) if (!ui.order.includes(c)) ui.order.push(c);
      localStorage.setItem(key, JSON.stringify({ round: g.round, order: ui.order }));
      return;
    }
    localStorage.removeItem(key);
    const mode = pref("sort");
    ui.order = (SORTS[mode] || sortBySuit)(g.hand);
  }

  function handCard(g, c, fresh, stands) {
    const wild = isWild(c, g.declare ? g.declare.wild_rank : -1);
    const el = cardEl(c, { tag: "button", wild, stands });
    el.dataset.card = String(c);
    el.setAttribute("aria-pressed", String(ui.selected.has(c)));
    if (ui.selected.has(c)) el.classList.add("selected");
    if (fresh.size && !fresh.has(c)) el.classList.add("fresh");
    if (c === g.taken || c === g.pending) el.classList.add("taken");
    el.addEventListener("click", () => {
      if (ui.dragged) { ui.dragged = false; return; }
      toggle(c);
    });
    el.addEventListener("pointerdown", (e) => dragStart(e, c, el));
    return el;
  }

  function toggle(c) {
    if (ui.selected.has(c)) ui.selected.delete(c); else ui.selected.add(c);
    const el = els.hand.querySelector(`[data-card="${c}"]`);
    if (el) {
      el.classList.toggle("selected", ui.selected.has(c));
      el.setAttribute("aria-pressed", String(ui.selected.has(c)));
    }
  }

  function renderHand(g, me) {
    const fresh = ui.lastHand;
    const focused = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.card : undefined;
    els.arrangeInfo.replaceChildren();
    const arr = g.arrangement;
    if (!ui.manual && pref("sort") === "arrange" && arr) {
      // the solver's melds, then the deadwood apart, each group selectable at once
      const pool = [...ui.order];
      const take = (faces) => {
        const got = cardsFor(pool, faces);
        for (const c of got) pool.splice(pool.indexOf(c), 1);
        return got;
      };
      // Indian Rummy's arrangement names its cards (a wild card may play as another)
      const own = (cards) => {
        for (const c of cards) if (pool.includes(c)) pool.splice(pool.indexOf(c), 1);
        return cards;
      };
      const groups = arr.melds.map((md) => (md.cards ? own(md.cards) : take(md.faces.map((f, i) => (md.jokers[i] ? JOKER : f)))));
      const stands = new Map(arr.melds.flatMap((md) => (md.cards || []).map((c, i) => [c, md.faces[i]])));
      const out = arr.out >= 0 ? own([arr.out]) : [];
      const dead = [...(arr.loose ? own(arr.loose) : take(arr.deadwood)), ...pool];
      ui.order = [...groups.flat(), ...dead, ...out];
      els.hand.replaceChildren(
        ...groups.map((cards, i) => h("div", { class: "group meld-group", "data-group": i },
          h("button", { class: "group-label", text: t("arrange.meld", { n: i + 1 }), title: t("arrange.select"),
            onclick: () => { ui.selected = new Set(cards); render(); } }),
          cards.map((c) => handCard(g, c, fresh, stands.get(c))))),
        h("div", { class: "group deadwood", "data-group": "deadwood" },
          h("span", { class: "group-label", text: tn("arrange.deadwood", arr.deadwood_points) }),
          dead.map((c) => handCard(g, c, fresh))),
        ...out.map((c) => h("div", { class: "group put-out", "data-group": "out" },
          h("span", { class: "group-label", text: t("arrange.put_out") }), handCard(g, c, fresh))));
      const parts = [arr.card_points ? t("arrange.count", { n: arr.deadwood_points }) : tn("arrange.summary", arr.melds.length, { points: arr.deadwood_points })];
      if (arr.out >= 0) parts.push(t("arrange.out", { card: faceText(arr.out % 54) }));
      if (arr.valid === false) parts.push(t("arrange.invalid"));
      if (arr.opening && !g.opened[me]) parts.push(t("arrange.opening", { points: arr.meld_points, min: arr.opening }));
      if (arr.partial) parts.push(t("arrange.partial"));
      els.arrangeInfo.textContent = parts.join(" ");
    } else {
      els.hand.replaceChildren(...ui.order.map((c) => handCard(g, c, fresh)));
    }
    if (me < 0) els.hand.append(h("p", { class: "muted", text: t("table.watching") }));
    if (focused !== undefined) {
      const again = els.hand.querySelector(`[data-card="${focused}"]`);
      if (again) again.focus();
    }
  }

  // Drag a hand card to another place, with a mouse or a finger (pointer events); a
  // short press stays a click that selects the card.
  function dragStart(e, c, el) {
    if (e.button !== 0) return;
    const x0 = e.clientX, y0 = e.clientY;
    let dragging = false;
    el.setPointerCapture(e.pointerId);
    const move = (ev) => {
      if (!dragging && Math.hypot(ev.clientX - x0, ev.clientY - y0) < 8) return;
      dragging = true;
      el.classList.add("dragging");
      el.style.transform = `translate(${ev.clientX - x0}px, ${ev.clientY - y0}px)`;
    };
    const end = (ev) => {
      el.removeEventListener("pointermove", move);
      el.removeEventListener("pointerup", end);
      el.removeEventListener("pointercancel", end);
      if (!dragging) return;
      // the click that ends a drag is not a selection; it may never come (the card is
      // drawn anew), so the flag lasts only until the events of this press are done
      ui.dragged = ev.type === "pointerup";
      setTimeout(() => { ui.dragged = false; }, 0);
      el.style.transform = "";
      el.classList.remove("dragging");
      const over = document.elementsFromPoint(ev.clientX, ev.clientY)
        .map((n) => n.closest && n.closest("#hand [data-card]")).find((n) => n && n !== el);
      if (!over || ev.type !== "pointerup") return;
      const to = Number(over.dataset.card);
      const box = over.getBoundingClientRect();
      ui.order.splice(ui.order.indexOf(c), 1);
      ui.order.splice(ui.order.indexOf(to) + (ev.clientX > box.left + box.width / 2 ? 1 : 0), 0, c);
      ui.manual = true;
      render();
    };
    el.addEventListener("pointermove", move);
    el.addEventListener("pointerup", end);
    el.addEventListener("pointercancel", end);
  }

  return { orderHand, renderHand };
}
