// The optional account: sign up, in and out, change the password, delete it
// (docs/accounts.md).  The session cookie is HttpOnly: the page never sees it, only
// the account's name and the token its POSTs carry (dom.js setCsrf).
import { api, h, setCsrf } from "./dom.js";
import { known, t, tn } from "./i18n.js";

export let account = null;

/** Who is signed in (null: a guest), and their CSRF token for api(). */
export async function loadAccount() {
  const me = await api("/api/account").catch(() => ({ account: null }));
  account = me.account;
  setCsrf(me.csrf);
  return account;
}

/** A refusal in the page's language when its code is known, else the server's words. */
export function errorText(e) {
  return e.code && known(`account.err.${e.code}`) ? t(`account.err.${e.code}`) : e.message;
}

/** The lobby's account panel; ``changed`` is called after signing in or out,
 * ``title`` names a game (a preset's name) for the ratings. */
export function accountPanel(changed, title = (name) => name) {
  const panel = h("section", { class: "panel account", id: "account" });
  const err = h("p", { class: "error", id: "account-error", role: "alert" });
  const note = h("p", { class: "muted", id: "account-note", "aria-live": "polite" });

  async function act(path, body, after) {
    err.textContent = "";
    note.textContent = "";
    try {
      const got = await api(path, body);
      account = got.account;
      setCsrf(got.csrf);
      if (after) after();
      draw();
      changed();
    } catch (e) {
      err.textContent = errorText(e);
    }
  }

  function guest() {
    const user = h("input", { id: "account-username", autocomplete: "username", maxlength: 24, required: true });
    const pass = h("input", { id: "account-password", type: "password", autocomplete: "current-password", maxlength: 256, required: true });
    const creds = () => ({ username: user.value, password: pass.value });
    return h("form", { id: "account-form", onsubmit: (ev) => { ev.preventDefault(); act("/api/account/signin", creds()); } },
      h("label", {}, t("account.username") + " ", user),
      h("label", {}, t("account.password") + " ", pass),
      h("button", { type: "submit", id: "sign-in", text: t("account.sign_in") }), " ",
      h("button", { type: "button", id: "sign-up", text: t("account.sign_up"),
        onclick: () => { pass.autocomplete = "new-password"; act("/api/account/signup", creds()); } }),
      h("p", { class: "muted", text: t("account.guest_note") + " " + t("account.no_email") }),
      h("p", {}, h("a", { id: "leaderboards", href: "/leaderboard", text: t("board.title") })));
  }

  function ratings() {
    const games = Object.entries(account.ratings || {});
    if (!games.length) return null;
    return h("div", { id: "ratings" }, h("b", { text: t("account.ratings") }),
      h("ul", {}, games.map(([game, r]) => h("li", { "data-game": game,
        text: tn("account.rating_line", r.games, { game: title(game), rating: r.rating.toFixed(1) }) }))));
  }

  function signedIn() {
    const old = h("input", { id: "old-password", type: "password", autocomplete: "current-password", maxlength: 256 });
    const fresh = h("input", { id: "new-password", type: "password", autocomplete: "new-password", maxlength: 256 });
    const confirm = h("input", { id: "delete-password", type: "password", autocomplete: "current-password", maxlength: 256 });
    return h("div", {},
      h("p", {}, h("span", { id: "signed-in-as", text: t("account.signed_in", { name: account.username }) }), " ",
        h("button", { id: "sign-out", text: t("account.sign_out"), onclick: () => act("/api/account/signout") })),
      h("p", {}, h("a", { id: "my-page", href: `/players/${encodeURIComponent(account.username)}`, text: t("account.my_page") }), " · ",
        h("a", { id: "leaderboards", href: "/leaderboard", text: t("board.title") })),
      ratings(),
      h("details", {}, h("summary", { text: t("account.settings") }),
        h("form", { id: "password-form", onsubmit: (ev) => {
          ev.preventDefault();
          act("/api/account/password", { old: old.value, new: fresh.value }, () => { note.textContent = t("account.password_changed"); });
        } },
        h("label", {}, t("account.old_password") + " ", old),
        h("label", {}, t("account.new_password") + " ", fresh),
        h("button", { type: "submit", text: t("account.change_password") })),
        h("form", { id: "delete-form", onsubmit: (ev) => {
          ev.preventDefault();
          if (!window.confirm(t("account.delete_confirm", { name: account.username }))) return;
          act("/api/account/delete", { password: confirm.value }, () => { note.textContent = t("account.deleted"); });
        } },
        h("label", {}, t("account.password") + " ", confirm),
        h("button", { type: "submit", class: "danger", text: t("account.delete") }))));
  }

  function draw() {
    panel.replaceChildren(h("h2", { text: t("account.title") }), account ? signedIn() : guest(), err, note);
  }
  draw();
  return panel;
}
