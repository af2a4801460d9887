// A player's page and the leaderboards (docs/accounts.md, "Players' pages and
// leaderboards"): what the server's archive says of finished games, nothing of a game
// in play.  Names are the players' own: written with textContent only (dom.js h).
import { ratingChart } from "./charts.js";
import { api, h } from "./dom.js";
import { lang, seatName, t, tn } from "./i18n.js";
import { errorText } from "./account.js";

const when = (at) => new Date(at * 1000).toLocaleDateString(lang, { year: "numeric", month: "short", day: "numeric" });
const q = (s) => encodeURIComponent(s);

/** A player's name: a link to their page when an account holds the seat, a bot by
 * its level, else the seat's name as shown (a guest, a deleted account). */
function who(p) {
  if (p.username) return h("a", { class: "player-link", href: `/players/${q(p.username)}`, text: p.username });
  if (p.kind === "bot" && p.difficulty) return h("span", { text: seatName(p.name) });
  return h("span", { class: p.name.startsWith("Anonymous ") ? "anonymous" : null, text: seatName(p.name) });
}

function ratingsSection(page) {
  if (!page.ratings.length) return h("p", { class: "muted", id: "no-ratings", text: t("player.no_ratings") });
  return h("div", { id: "player-ratings" }, page.ratings.map((r) => h("section", { class: "panel rating", "data-game": r.game },
    h("h3", {}, h("a", { href: `/leaderboard/${q(r.game)}`, text: r.title }), " ",
      h("span", { class: "rating-now", text: tn("player.rating", r.games, { rating: r.rating.toFixed(1) }) })),
    r.history.length ? ratingChart(`chart-${r.game}`, t("player.chart_title", { game: r.title, rating: r.rating.toFixed(1) }), r.history, when) : null)));
}

function gameRow(g) {
  const links = g.links;
  const abandoned = g.abandoned === null || g.abandoned === undefined ? ""
    : " · " + (g.abandoned === g.seat ? t("player.abandoned_self") : t("player.abandoned_other"));
  const result = t(`player.result.${g.result}`) + abandoned;
  const change = g.rating_change === null || g.rating_change === undefined ? "" : ` (${g.rating_change >= 0 ? "+" : ""}${g.rating_change.toFixed(1)})`;
  return h("tr", { class: `game ${g.result}`, "data-table": g.table },
    h("td", { text: when(g.at) }),
    h("td", { text: g.title + (g.rated ? " · " + t("player.rated") : "") }),
    h("td", {}, g.players.map((p, i) => h("span", { class: i === g.seat ? "me" : null }, i ? ", " : "", who(p), ` ${p.score}`))),
    h("td", { class: "result", text: result + change }),
    h("td", { class: "links" },
      h("a", { class: "replay", href: links.replay, text: t("player.replay") }), " · ",
      links.review ? [h("a", { class: "review-link", href: links.review, text: t("player.review") }), " · "] : null,
      h("a", { class: "record", href: links.record, download: `rummy-${g.table}.txt`, text: t("player.record") })));
}

function gamesSection(page) {
  if (!page.games.length) return h("p", { class: "muted", id: "no-games", text: t("player.no_games") });
  return h("table", { class: "games", id: "player-games" },
    h("thead", {}, h("tr", {}, ["date", "game", "players", "result", "links"].map((c) => h("th", { text: t(`player.col.${c}`) })))),
    h("tbody", {}, page.games.map(gameRow)));
}

function opponentsSection(page) {
  if (!page.opponents.length) return h("p", { class: "muted", id: "no-opponents", text: t("player.no_opponents") });
  return h("table", { class: "opponents-table", id: "player-opponents" },
    h("thead", {}, h("tr", {}, ["opponent", "games", "wins", "draws", "losses"].map((c) => h("th", { text: t(`player.col.${c}`) })))),
    h("tbody", {}, page.opponents.map((o) => h("tr", { "data-opponent": o.username || `bot:${o.difficulty}` },
      h("td", {}, o.username ? who(o) : t("player.bot", { level: t(`bot.${o.difficulty}`) }),
        o.ratings && o.ratings.length ? h("span", { class: "bot-rating muted", text: " · " + t("player.bot_rating", { ratings: o.ratings.map((r) => `${r.title} ${r.rating.toFixed(1)}`).join(", ") }) }) : null),
      h("td", { text: o.games }), h("td", { class: "wins", text: o.wins }), h("td", { text: o.draws }), h("td", { class: "losses", text: o.losses })))));
}

export async function playerPage(app, username) {
  let page;
  try {
    page = await api(`/api/players/${q(username)}?lang=${lang}`);
  } catch (e) {
    app.replaceChildren(h("p", { class: "error", id: "player-error", role: "alert", text: e.code === "no_player" ? t("player.none") : errorText(e) }));
    return;
  }
  document.title = `${page.username} · rummykit`;
  app.replaceChildren(
    h("h1", { id: "player-name", text: page.username }),
    h("p", { class: "muted", text: t("player.since", { date: when(page.created) }) }, " · ", h("a", { href: "/leaderboard", text: t("board.title") })),
    h("h2", { text: t("player.ratings") }), ratingsSection(page),
    h("h2", { text: t("player.games") }), gamesSection(page),
    h("h2", { text: t("player.opponents") }), opponentsSection(page));
  window.rummy = { player: page };
}

/** The bots' fixed ratings at the game (measured from their games with each other,
 * docs/accounts.md "The bots' ratings"): what "easy", "medium" and "hard" mean here. */
function botsSection(board) {
  return h("section", { id: "board-bots" },
    h("h2", { text: t("board.bots") }),
    h("p", { class: "muted", text: t("board.bots_note") }),
    h("table", { class: "leaderboard bots" },
      h("thead", {}, h("tr", {}, ["level", "rating", "interval"].map((c) => h("th", { text: t(`board.col.${c}`) })))),
      h("tbody", {}, board.bots.map((b) => h("tr", { "data-bot": b.difficulty },
        h("td", { text: t("player.bot", { level: t(`bot.${b.difficulty}`) }) }),
        h("td", { class: "bot-rating", text: b.rating.toFixed(1) }),
        h("td", { text: t("board.interval", { low: b.low.toFixed(1), high: b.high.toFixed(1) }) }))))));
}

export async function leaderboardPage(app, game) {
  const games = await api(`/api/leaderboard?lang=${lang}`);
  const chosen = game || "gin";
  const select = h("select", { id: "board-game", "aria-label": t("board.game"), onchange: () => { location.href = `/leaderboard/${q(select.value)}`; } },
    games.map((g) => h("option", { value: g.game, text: g.title, selected: g.game === chosen })));
  const body = h("div", { id: "board-body" });
  app.replaceChildren(h("h1", { text: t("board.title") }), h("label", {}, t("board.game") + " ", select), body);
  try {
    const board = await api(`/api/leaderboard/${q(chosen)}?lang=${lang}`);
    document.title = `${board.title} · rummykit`;
    body.replaceChildren(board.players.length
      ? h("table", { class: "leaderboard", id: "leaderboard" },
        h("thead", {}, h("tr", {}, ["rank", "player", "rating", "games"].map((c) => h("th", { text: t(`board.col.${c}`) })))),
        h("tbody", {}, board.players.map((p) => h("tr", { "data-player": p.username },
          h("td", { text: p.rank }), h("td", {}, who({ username: p.username })), h("td", { text: p.rating.toFixed(1) }), h("td", { text: p.games })))))
      : h("p", { class: "muted", id: "board-empty", text: t("board.empty") }),
      board.bots.length ? botsSection(board) : null);
  } catch (e) {
    body.replaceChildren(h("p", { class: "error", role: "alert", text: e.code === "no_game" ? t("board.no_game") : errorText(e) }));
  }
  window.rummy = { board: true };
}
