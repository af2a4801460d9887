// Card ids as the engine numbers them: id = copy * 54 + face, face = suit * 13 + rank,
// faces 52 and 53 are jokers (JOKER = 52 in moves).
import { t, tn } from "./i18n.js";

export const JOKER = 52;
const SUITS = ["♣", "♦", "♥", "♠"];
const SUIT_LETTERS = "CDHS";
const RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];
const JOKER_GLYPH = "★";

export function faceOf(card) {
  const f = card % 54;
  return f >= 52 ? JOKER : f;
}

/** A face in words for screen readers and tooltips: "seven of hearts", "joker". */
export function faceName(face) {
  if (face >= 52) return t("card.joker");
  return t("card.name", { rank: t(`rank.${face % 13}`), suit: t(`suit.${Math.floor(face / 13)}`) });
}

/** A rank as shown on a face: A 2-10, and the court cards in the page's language
 * (J Q K; V D R in French, as the terminal game writes them). */
function rankText(r) {
  return r >= 10 ? t(`court.${r}`) : RANKS[r];
}

/** A card element; text only (textContent), never HTML.  The suit is a class (s0..s3)
 * so the style sheet colours it, in two colours or, by choice, four. */
export function cardEl(card, opts = {}) {
  const el = document.createElement(opts.tag || "div");
  const f = faceOf(card);
  el.className = "card";
  let name;
  if (f === JOKER) {
    el.classList.add("joker");
    el.append(span("rank", JOKER_GLYPH), span("suit", opts.stands !== undefined ? faceText(opts.stands) : "JK"));
    name = opts.stands !== undefined ? t("card.joker_as", { card: faceName(opts.stands) }) : faceName(f);
  } else {
    const suit = Math.floor(f / 13);
    el.classList.add(`s${suit}`);
    if (suit === 1 || suit === 2) el.classList.add("red");
    el.append(span("rank", rankText(f % 13)), span("suit", SUITS[suit]));
    name = faceName(f);
    // Indian Rummy: a card of the wild rank is a joker this deal (marked so), and in a
    // meld may play as another card
    if (opts.wild) {
      el.classList.add("wild");
      el.append(span("wild-mark", JOKER_GLYPH));
      name = t("card.wild", { card: name });
    }
    if (opts.stands !== undefined && opts.stands !== f) {
      el.append(span("stands", "=" + faceText(opts.stands)));
      name = t("card.as", { card: name, as: faceName(opts.stands) });
    }
  }
  for (const s of el.children) s.setAttribute("aria-hidden", "true");
  el.title = name;
  el.setAttribute("aria-label", name);
  if (el.tagName !== "BUTTON") el.setAttribute("role", "img");
  el.dataset.face = String(f);
  return el;
}

/** Whether ``card`` is of the deal's wild rank (Indian Rummy; ``wildRank`` -1: none). */
export function isWild(card, wildRank) {
  const f = faceOf(card);
  return wildRank >= 0 && f !== JOKER && f % 13 === wildRank;
}

export function faceText(face) {
  if (face >= 52) return "JK";
  return rankText(face % 13) + SUITS[Math.floor(face / 13)];
}

export function backEl() {
  const el = document.createElement("div");
  el.className = "card back";
  el.setAttribute("aria-hidden", "true");
  return el;
}

function span(cls, text) {
  const s = document.createElement("span");
  s.className = cls;
  s.textContent = text;
  return s;
}

// A card in the engine's notation (docs/notation.md): rank A 2-9 T J Q K (or 10), suit
// C D H S; a joker is JK, or JK=7H where it stands for a card.
const CARD_TOKEN = /\b(JK=)?(10|[2-9TJQKA])([CDHS])\b|\bJK\b/g;

/** Text from the server (moves, hints, chat) as nodes, each card written as its face
 * ("KD" as K♦, red where the card is red): the move list and the hand then agree. */
export function richText(text) {
  text = text.replace(/\bT(?=[♣♦♥♠])/g, "10"); // the notation's ten in Unicode (a review's T♣) as 10♣
  const out = [];
  let last = 0;
  for (const m of text.matchAll(CARD_TOKEN)) {
    if (m.index > last) out.push(document.createTextNode(text.slice(last, m.index)));
    out.push(faceSpan(m));
    last = m.index + m[0].length;
  }
  if (last < text.length) out.push(document.createTextNode(text.slice(last)));
  return out;
}

function faceSpan(m) {
  const el = document.createElement("span");
  el.className = "cf";
  if (!m[2]) {
    el.textContent = JOKER_GLYPH;
    el.title = faceName(JOKER);
    return el;
  }
  const rank = m[2] === "T" ? 9 : RANKS.indexOf(m[2]);
  const suit = SUIT_LETTERS.indexOf(m[3]);
  const face = suit * 13 + rank;
  el.classList.add(`s${suit}`);
  el.textContent = (m[1] ? `${JOKER_GLYPH}=` : "") + faceText(face);
  el.title = m[1] ? t("card.joker_as", { card: faceName(face) }) : faceName(face);
  return el;
}

// The notation's words, in the page's language (docs/notation.md: "draw stock",
// "layoff 7H to 2", ...); the cards in them become faces.
const MOVE_WORDS = ["draw stock", "draw discard", "discard", "meld", "layoff", "take", "swap", "pass", "knock", "rematch", "to", "from", "in", "table"];
const MOVE_RE = MOVE_WORDS.map((w) => [new RegExp(`^${w}\\b|(?<= )${w}(?= )`, "g"), `mv.${w.replace(" ", "_")}`]);

// 500 Rum's deep draw as the log keeps it: "draw discard 3 JC" (the top 3 cards, the
// deepest JC), written as the terminal does, "took J♣ and the 2 cards above it"
const DEEP_DRAW = /^draw discard (\d+) ((?:10|[2-9TJQKA])[CDHS]|JK)$/;

/** A move as the server writes it, as nodes: translated words, card faces. */
export function moveNodes(text) {
  const deep = DEEP_DRAW.exec(text);
  // "le A♣" is written "l'A♣" in French, as the terminal does
  if (deep) return richText(tn("mv.deep", Number(deep[1]) - 1, { card: deep[2] }).replace(/\ble (?=A[CDHS]\b)/g, "l'"));
  let out = text;
  for (const [re, key] of MOVE_RE) out = out.replace(re, t(key));
  return richText(out);
}

/** The same conversion as plain text (the tab title, the status line). */
export function faceString(text) {
  return richText(text).map((n) => n.textContent).join("");
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

/** Card ids of ``hand`` for ``faces`` (52: any joker), each card used once. */
export function cardsFor(hand, faces) {
  const pool = [...hand];
  const out = [];
  for (const f of faces) {
    const i = pool.findIndex((c) => faceOf(c) === (f >= 52 ? JOKER : f));
    if (i >= 0) out.push(pool.splice(i, 1)[0]);
  }
  return out;
}
