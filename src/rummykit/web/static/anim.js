// Seeing what another player did: the card flies from where it came from to where it
// went, and the place it went stays marked until the next move.
import { backEl, cardEl, faceOf } from "./cards.js";

const CARD = /(10|[2-9TJQKA])([CDHS])/;
const RANKS = "A23456789TJQK";

/** Where a logged move (docs/notation.md's words) took a card: ``{from, to, face}``,
 * each end "stock", "discard", "seat" (the player's hand) or a table meld's index;
 * null for a move that moves no card (pass, knock, rematch, notes). */
export function moveRoute(text, prevTop) {
  const words = text.split(" ");
  const meldNo = Number(words[words.length - 1]) - 1;
  const card = CARD.exec(text);
  const face = card ? "CDHS".indexOf(card[2]) * 13 + (card[1] === "10" ? 9 : RANKS.indexOf(card[1])) : null;
  const joker = text.includes("JK=") || /\bJK\b/.test(text);
  switch (words[0]) {
    case "draw":
      return words[1] === "stock"
        ? { from: "stock", to: "seat", face: null }
        : { from: "discard", to: "seat", face: prevTop === null ? null : faceOf(prevTop) };
    case "discard":
      return { from: "seat", to: "discard", face: joker ? 52 : face };
    case "meld":
      return { from: "seat", to: "new-meld", face: joker && face === null ? 52 : face };
    case "layoff":
    case "swap":
      return { from: "seat", to: meldNo, face: joker && words[1].startsWith("JK") ? 52 : face };
    case "take":
      return { from: meldNo, to: "seat", face };
    default:
      return null;
  }
}

/** Whether the reader asked for no motion: moves are then marked, never animated. */
export const reduced = () => window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;

/** Fly a card (its face, or a back) from one element to another. */
export function fly(fromEl, toEl, face) {
  if (!fromEl || !toEl || reduced() || !document.body.animate) return false;
  const a = fromEl.getBoundingClientRect();
  const b = toEl.getBoundingClientRect();
  const card = face === null || face === undefined ? backEl() : cardEl(face);
  card.classList.add("flying");
  card.setAttribute("aria-hidden", "true");
  Object.assign(card.style, { left: `${b.left}px`, top: `${b.top}px` });
  document.body.append(card);
  const dx = a.left + a.width / 2 - (b.left + b.width / 2);
  const dy = a.top + a.height / 2 - (b.top + b.height / 2);
  const run = card.animate(
    [{ transform: `translate(${dx}px, ${dy}px) scale(0.9)`, opacity: 0.9 }, { transform: "none", opacity: 1 }],
    { duration: 450, easing: "ease-out" },
  );
  run.onfinish = run.oncancel = () => card.remove();
  return true;
}
