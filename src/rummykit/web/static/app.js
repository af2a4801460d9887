// rummykit browser client: plain ES modules, no build step.  The server is the
// authority: the page only sends intents and draws the state it is sent.
import { h } from "./dom.js";
import { lang, LANGS, setLang, t } from "./i18n.js";
import { loadAccount } from "./account.js";

const app = document.getElementById("app");
const connEl = document.getElementById("conn");
document.documentElement.lang = lang;

// The language switch: the choice is kept, and the page is drawn again in it.
const langSel = h("select", { id: "lang", "aria-label": t("lang.choose"), onchange: () => { setLang(langSel.value); location.reload(); } },
  LANGS.map((l) => h("option", { value: l, text: t(`lang.${l}`), selected: l === lang })));
document.querySelector(".top").append(langSel);

const match = location.pathname.match(/^\/play\/([A-Za-z0-9_-]+)$/);
const player = location.pathname.match(/^\/players\/([^/]+)$/);
const board = location.pathname.match(/^\/leaderboard(?:\/([^/]+))?$/);
// Each page loads only its own modules: a table page never fetches the lobby's.  Until
// the table's module has run, the page's test hook says there is no state yet.
if (match) window.rummy = { state: null, version: -1, errors: [] };
loadAccount().then(() => {
  if (match) return import("./table.js").then((m) => m.tablePage(app, connEl, match[1]));
  if (player) return import("./players.js").then((m) => m.playerPage(app, decodeURIComponent(player[1])));
  if (board) return import("./players.js").then((m) => m.leaderboardPage(app, board[1] ? decodeURIComponent(board[1]) : ""));
  return import("./lobby.js").then((m) => m.lobby(app));
});
