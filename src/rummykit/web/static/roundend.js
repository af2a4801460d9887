// The round-end screen: how the round ended, each hand's cards with what each counts,
// the score of every round so far with a chart of the running totals, the winner.
import { cardEl, faceOf, isWild, JOKER } from "./cards.js";
import { scoreChart } from "./charts.js";
import { h } from "./dom.js";
import { lang, t } from "./i18n.js";

// The winner's trophy, drawn (an emoji needs a font the device may lack).
const TROPHY = "data:image/svg+xml," + encodeURIComponent(
  "<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 24 24'><path fill='#f2b705' stroke='#8a6500' "
  + "d='M7 3h10v5a5 5 0 0 1-10 0zM7 5H4v2a3 3 0 0 0 3 3M17 5h3v2a3 3 0 0 1-3 3M11 13h2v4h-2zM8 17h8v3H8z'/></svg>");

/** The body of the round-end screen for result ``r`` (null: the match is over with no
 * round played).  ``names`` are the seats' names; ``over`` says the match ended here;
 * ``melds``, when known (a knock game's table at its end), the hand's melds. */
export function roundEnd(g, r, names, over, melds) {
  const parts = [];
  if (over && g.winners.length) {
    const who = g.winners.map((i) => names[i]).join(t("word.and"));
    parts.push(h("p", { class: "winner", id: "match-winner", text: t(g.winners.length > 1 ? "end.winners" : "end.winner", { who }) }));
  }
  if (r) {
    // the server sends how the round ended in English and in French ("fr")
    const words = lang === "fr" && r.fr ? r.fr : { text: r.text, notes: r.players.map((p) => p.notes) };
    parts.push(h("p", { id: "round-reason", text: words.text.charAt(0).toUpperCase() + words.text.slice(1) + "." }));
    parts.push(h("table", { class: "summary" },
      h("tr", {}, h("th", { text: t("end.player") }), h("th", { text: t(melds || r.players.some((p) => p.layout) ? "end.melds_deadwood" : "end.cards_left") }), h("th", { text: t("end.points") }),
        h("th", { text: t("end.score") }), h("th", { text: t("end.notes") })),
      r.players.map((p, i) => h("tr", { "data-seat": i, class: r.winner === i ? "round-winner" : "" },
        h("th", { scope: "row", text: names[i] }),
        h("td", {}, laid(melds, i), p.layout ? layout(p.layout, r.wild) : p.cards.length
          ? h("div", { class: "mini" }, p.cards.map((c, j) => h("div", { class: "counted" }, cardEl(c),
            h("span", { class: "card-points", text: String(p.points ? p.points[j] : "") }))))
          : h("span", { class: "muted", text: t("end.no_cards") })),
        h("td", { class: "hand-points", text: String(p.hand_points) }),
        h("td", { text: signed(p.delta - (p.bonus || 0)) + (p.bonus ? ` (${t("end.bonus")} ${signed(p.bonus)})` : "") }),
        h("td", { text: words.notes[i].join("; ") })))));
  }
  if (g.results.length) {
    parts.push(h("h3", { text: t("end.history") }), scoreTable(g, names), scoreChart(g.results, names));
  }
  parts.push(h("h3", { text: t("end.standings") }),
    h("ol", { class: "standings" }, g.standings.map((p) => h("li", {}, `${names[p]}: ${g.scores[p]}`,
      g.winners.includes(p) ? [" ", h("img", { class: "trophy", src: TROPHY, alt: t("end.trophy"), title: t("end.trophy") })] : null))));
  return parts;
}

// A player's melds of the hand, each apart, before the cards that counted.
function laid(melds, seat) {
  const own = (melds || []).filter((md) => md.owner === seat);
  if (!own.length) return null;
  return h("div", { class: "laid", role: "group", "aria-label": t("end.melds") }, own.map((md) => h("div", { class: "mini laid-meld" },
    md.cards.map((c, j) => cardEl(c, { stands: md.jokers[j] ? md.faces[j] : undefined })))));
}

// A hand laid out as the server arranged it: each meld apart (a joker or wild card with
// what it plays as), then the loose cards, every card over what it counts; in Indian
// Rummy (``wild``: the deal's cut) the wild cards are marked.
function layout(lay, wild) {
  const rank = wild === undefined || wild < 0 ? -1 : faceOf(wild) === JOKER ? 0 : faceOf(wild) % 13;
  let k = 0;
  const counted = (c, stands) => h("div", { class: "counted" }, cardEl(c, { wild: isWild(c, rank), stands }),
    h("span", { class: "card-points", text: String(lay.card_points[k++]) }));
  return h("div", { class: "hand-layout" },
    lay.melds.map((md) => h("div", { class: "mini laid-meld", role: "group", "aria-label": t("arrange.meld", { n: "" }).trim() },
      md.cards.map((c, j) => counted(c, md.faces[j])))),
    lay.loose.length ? h("div", { class: "mini loose" }, lay.loose.map((c) => counted(c))) : null,
    lay.valid ? null : h("p", { class: "muted", text: t("arrange.invalid") }));
}

// Round by round: what each player scored and the running total; a match-end bonus
// (the last result's "bonus") is a row of its own, so the rows add up to the standings.
function scoreTable(g, names) {
  const totals = names.map(() => 0);
  const bonus = names.map(() => 0);
  const cell = (d, i) => {
    totals[i] += d;
    return h("td", {}, h("span", { class: "muted", text: signed(d) + " → " }), String(totals[i]));
  };
  const rows = g.results.map((r) => h("tr", {}, h("th", { scope: "row", text: String(r.round_no) }),
    r.players.map((p, i) => {
      bonus[i] += p.bonus || 0;
      return cell(p.delta - (p.bonus || 0), i);
    })));
  if (bonus.some((b) => b)) {
    rows.push(h("tr", { class: "bonus" }, h("th", { scope: "row", text: t("end.bonus") }), bonus.map(cell)));
  }
  return h("table", { class: "summary history", id: "score-history" },
    h("tr", {}, h("th", { text: t("end.round") }), names.map((n) => h("th", { text: n }))), rows);
}

function signed(n) {
  return (n >= 0 ? "+" : "") + n;
}
