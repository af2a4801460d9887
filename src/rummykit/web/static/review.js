// The round's review: asked for from the round-end screen, drawn in it.
import { reviewChart } from "./charts.js";
import { moveNodes, richText } from "./cards.js";
import { capital, h } from "./dom.js";
import { t } from "./i18n.js";

const REVIEW_ERRORS = new Set(["not_finished", "not_your_seat", "busy", "rate_limited", "review_failed", "spectator", "table_failed"]);

function lossText(loss) {
  return loss > 0.05 ? t("review.loss", { n: loss.toFixed(1) }) : t("review.no_loss");
}

/** The review panel; ``raw`` sends a message to the server. */
export function reviewPanel(raw) {
  const el = h("section", { class: "review", id: "review", "aria-label": t("review.aria") });
  let rv = null;

  function draw() {
    if (!rv) return el.replaceChildren();
    if (rv.error) return el.replaceChildren(h("p", { class: "error", id: "review-error", role: "alert", text: rv.error }));
    if (!rv.result) {
      const bar = h("progress", { id: "review-progress", max: rv.total || 1, "aria-label": t("review.progress") });
      if (rv.total) bar.value = rv.done;
      const words = rv.total ? t("review.working_n", { done: rv.done, total: rv.total }) : t("review.working");
      // role=status: read out as it changes, without moving the focus
      return el.replaceChildren(h("p", { class: "muted", role: "status", text: words }), bar);
    }
    const res = rv.result;
    const moves = res.decisions;
    el.replaceChildren(
      h("h3", { id: "review-title", tabindex: -1, text: t("review.title", { round: res.round }) }),
      h("p", { id: "review-accuracy" }, h("b", { text: t("review.accuracy", { n: res.accuracy.toFixed(1) }) }),
        " " + t("review.over", { n: moves.length }),
        ...(res.total > res.graded ? [" " + t("review.sampled", { graded: res.graded, total: res.total })] : [])),
      reviewChart(res),
      h("h4", { text: t("review.key_moments") }),
      res.key_moments.length
        ? h("ol", { id: "review-moments" }, res.key_moments.map((k) => h("li", {},
          h("span", { class: `label ${k.label}`, text: t(`label.${k.label}`) }),
          " " + t("review.moment", { turn: k.turn }) + " ", ...moveNodes(k.played), "; " + t("review.better") + " ",
          h("b", {}, ...moveNodes(k.better)), ` (${lossText(k.lost)}). `, ...richText(capital(k.reason)))))
        : h("p", { class: "muted", text: t("review.nothing_lost") }),
      h("details", { id: "review-all" }, h("summary", { text: t("review.every") }),
        h("ol", { class: "review-decisions", tabindex: 0 }, moves.map((d) => h("li", {},
          h("span", { class: `label ${d.label}`, text: t(`label.${d.label}`) }),
          " " + t("review.moment", { turn: d.turn }) + " ", ...moveNodes(d.played),
          ...(d.label === "best" ? [] : ["; " + t("review.best") + " ", ...moveNodes(d.best), ` (${lossText(d.lost)})`]))))),
    );
  }

  return {
    el,
    /** A new round's screen: a review of another round is put away. */
    show(round) {
      if (round === null || (rv && rv.round !== round)) rv = null;
      draw();
    },
    ask(round) {
      if (rv && rv.round === round && !rv.error) return draw();
      rv = { round, done: 0, total: 0, result: null, error: null };
      raw({ type: "review", round });
      draw();
    },
    onMessage(m) {
      if (!rv || rv.round !== m.round) return;
      if (m.type === "review_progress") Object.assign(rv, { done: m.done, total: m.total });
      else rv.result = m;
      window.rummy.review = { round: m.round, done: rv.done, total: rv.total, ready: !!rv.result };
      draw();
      if (m.type === "review") document.getElementById("review-title").focus();
    },
    onError(m) {
      if (rv && !rv.result && REVIEW_ERRORS.has(m.code)) {
        rv.error = m.message;
        draw();
      }
    },
    // the server withdraws a review when its connection closes: say so, allow a retry
    onClose() {
      if (rv && !rv.result && !rv.error) {
        rv.error = t("review.dropped");
        draw();
      }
    },
  };
}
