// The front page's game picker: a tile per game (the server's presets with a
// ``picker`` place) with its name, a small picture drawn here, its one plain line and
// the ways to play it.  What each way does is the lobby's (lobby.js).
import { h, svg } from "./dom.js";
import { t, tn } from "./i18n.js";

// Each game's picture: three cards (rank and suit letters, * a joker) or Rummikub's
// tiles (number and colour letter), and the number in the game's name as a badge.
const PICTURES = {
  basic: ["7S 7H 7D"], classic: ["4C 5C 6C"], cg101: ["9H TH JH", "150"],
  rami51: ["JH * KH", "51"], kalooki: ["QC * QD", "40"], gin_match: ["TD JD QD"],
  rum500: ["AS KS QS", "500"], indian: ["5D 6D *"], contract: ["3H 3S 3C"],
  rummikub: ["7r 7b 7k 7o"],
};
const RED = "#b00d1a";
const INK = "#1b1b1b";
const TILE_INK = { r: RED, b: "#1d3f91", k: INK, o: "#a64b00" };

function card(face, i) {
  const [rank, suit] = [face.slice(0, -1), face.slice(-1)];
  const joker = face === "*";
  const colour = joker || "HD".includes(suit) ? RED : INK;
  return svg("g", { transform: `translate(${(i - 1) * 9} 0) rotate(${(i - 1) * 12} 50 78)` },
    svg("rect", { x: 37, y: 14, width: 26, height: 38, rx: 3, fill: "#fff", stroke: "#555" }),
    svg("text", { x: 40, y: 25, "font-size": 10, "font-weight": 700, fill: colour }, joker ? "J" : rank === "T" ? "10" : rank),
    svg("text", { x: 50, y: 43, "font-size": 15, "text-anchor": "middle", fill: colour }, joker ? "★" : { S: "♠", H: "♥", D: "♦", C: "♣" }[suit]));
}

function tile(face, i) {
  const x = 9 + i * 21;
  return svg("g", {},
    svg("rect", { x, y: 14, width: 19, height: 30, rx: 3, fill: "#f7f1e1", stroke: "#555" }),
    svg("text", { x: x + 9.5, y: 34, "font-size": 13, "font-weight": 700, "text-anchor": "middle", fill: TILE_INK[face.slice(-1)] }, face.slice(0, -1)));
}

/** A game's picture, decorative (the tile's name says what it is). */
export function picture(name) {
  const [faces, badge] = PICTURES[name] || ["AS 2S 3S"];
  const drawn = faces.split(" ").map(name === "rummikub" ? tile : card);
  return svg("svg", { class: "game-pic", viewBox: "0 0 100 60", "aria-hidden": "true", focusable: "false" },
    drawn,
    badge ? svg("g", {}, svg("circle", { cx: 86, cy: 13, r: 12, fill: "#ffd34d", stroke: INK }),
      svg("text", { x: 86, y: 17, "font-size": badge.length > 2 ? 9 : 11, "font-weight": 700, "text-anchor": "middle", fill: INK }, badge)) : null);
}

function players([lo, hi]) {
  return lo === hi ? tn("lobby.players", lo) : t("picker.players", { lo, hi });
}

/** The picker's list: ``presets`` as the server sends them; ``ways`` maps each way to
 * play (``bots``, ``friend``, ``pair``) to what it does, called with the preset and
 * the tile, whose ``.picked`` box shows what came of it. */
export function gamePicker(presets, ways) {
  const labels = { bots: t("picker.bots"), friend: t("picker.friend"), pair: t("picker.pair") };
  const games = presets.filter((p) => p.picker !== null && p.picker !== undefined).sort((a, b) => a.picker - b.picker);
  return h("ul", { class: "game-tiles", id: "games" }, games.map((p) => {
    const nameId = `game-${p.name}`;
    const item = h("li", { class: "game-tile", "data-game": p.name },
      h("div", { class: "game-head" }, picture(p.name),
        h("div", {}, h("h3", { class: "game-name", id: nameId, text: p.title }),
          h("p", { class: "game-players muted", text: players(p.players || [2, 6]) }))),
      h("p", { class: "game-line", text: p.description }),
      h("div", { class: "game-ways", role: "group", "aria-labelledby": nameId },
        Object.entries(labels).map(([way, text]) => h("button", { type: "button", class: `way way-${way}`, "data-way": way,
          text, onclick: () => ways[way](p, item) }))));
    return item;
  }));
}
