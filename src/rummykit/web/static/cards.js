// Card ids as the engine numbers them: id = copy * 54 + face, face = suit * 13 + rank,
// faces 52 and 53 are jokers (JOKER = 52 in moves).
export const JOKER = 52;
const SUITS = ["♣", "♦", "♥", "♠"];
const SUIT_LETTERS = "CDHS";
const RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];

export function faceOf(card) {
  const f = card % 54;
  return f >= 52 ? JOKER : f;
}

export function cardLabel(card) {
  const f = faceOf(card);
  if (f === JOKER) return "JK";
  return RANKS[f % 13] + SUIT_LETTERS[Math.floor(f / 13)];
}

/** A card element; text only (textContent), never HTML. */
export function cardEl(card, opts = {}) {
  const el = document.createElement(opts.tag || "div");
  const f = faceOf(card);
  el.className = "card";
  if (f === JOKER) {
    el.classList.add("joker");
    el.append(span("rank", "★"), span("suit", opts.stands !== undefined ? faceText(opts.stands) : "JK"));
  } else {
    const suit = Math.floor(f / 13);
    if (suit === 1 || suit === 2) el.classList.add("red");
    el.append(span("rank", RANKS[f % 13]), span("suit", SUITS[suit]));
  }
  el.title = cardLabel(card);
  el.dataset.face = String(f);
  return el;
}

export function faceText(face) {
  if (face >= 52) return "JK";
  return RANKS[face % 13] + SUITS[Math.floor(face / 13)];
}

export function backEl() {
  const el = document.createElement("div");
  el.className = "card back";
  return el;
}

function span(cls, text) {
  const s = document.createElement("span");
  s.className = cls;
  s.textContent = text;
  return s;
}

export function sortBySuit(cards) {
  return [...cards].sort((a, b) => faceOf(a) - faceOf(b) || a - b);
}

export function sortByRank(cards) {
  const key = (c) => {
    const f = faceOf(c);
    return f === JOKER ? 99 : (f % 13) * 4 + Math.floor(f / 13);
  };
  return [...cards].sort((a, b) => key(a) - key(b) || a - b);
}
