// Small SVG charts: the running scores of the match, and a review's expected score.
import { svg } from "./dom.js";
import { t } from "./i18n.js";

const W = 640;
const H = 180;
const PAD = { left: 40, right: 12, top: 12, bottom: 24 };

function scale(values, count) {
  const lo = Math.min(0, ...values);
  const hi = Math.max(0, ...values);
  const span = hi - lo || 1;
  const x = (i) => PAD.left + (count > 1 ? (i * (W - PAD.left - PAD.right)) / (count - 1) : (W - PAD.left - PAD.right) / 2);
  const y = (v) => PAD.top + ((hi - v) * (H - PAD.top - PAD.bottom)) / span;
  return { lo, hi, x, y };
}

function frame(id, title, s, xLabel) {
  return [
    svg("title", { id: `${id}-title` }, title),
    svg("line", { class: "axis", x1: PAD.left, x2: W - PAD.right, y1: s.y(0), y2: s.y(0) }),
    svg("text", { class: "tick", x: PAD.left - 4, y: s.y(s.hi) + 4, "text-anchor": "end" }, s.hi.toFixed(0)),
    svg("text", { class: "tick", x: PAD.left - 4, y: s.y(s.lo) + 4, "text-anchor": "end" }, s.lo.toFixed(0)),
    svg("text", { class: "tick", x: (PAD.left + W - PAD.right) / 2, y: H - 6, "text-anchor": "middle" }, xLabel),
  ];
}

/** Each player's running total after every round (from 0 before the first), one line
 * per player in the colours of the legend (top left: the totals usually climb to the
 * right, away from it). */
export function scoreChart(results, names) {
  const n = names.length;
  const totals = names.map(() => [0]);
  for (const r of results) r.players.forEach((p, i) => totals[i].push(totals[i][totals[i].length - 1] + p.delta));
  const s = scale(totals.flat(), results.length + 1);
  const last = totals.map((series) => series[series.length - 1]);
  const title = t("chart.scores", { scores: names.map((nm, i) => `${nm} ${last[i]}`).join(", ") });
  return svg("svg", { id: "score-chart", class: "chart", viewBox: `0 0 ${W} ${H}`, role: "img", "aria-labelledby": "score-chart-title" },
    frame("score-chart", title, s, t("chart.round")),
    totals.map((series, i) => svg("polyline", {
      class: `series p${i % 6}`, fill: "none", "data-seat": i,
      points: series.map((v, j) => `${s.x(j).toFixed(1)},${s.y(v).toFixed(1)}`).join(" "),
    }, svg("title", {}, `${names[i]}: ${series.join(", ")}`))),
    Array.from({ length: n }, (_, i) => svg("text", { class: `legend p${i % 6}`, x: PAD.left + 8, y: PAD.top + 12 * (i + 1), "text-anchor": "start" }, names[i])));
}

/** A review's expected score by decision, one dot per decision and the result last. */
export function reviewChart(res) {
  const series = res.series.map((p) => p[1]);
  const s = scale(series, series.length);
  const described = series.length
    ? t("review.chart_range", { from: series[0].toFixed(1), to: series[series.length - 1].toFixed(1) })
    : t("review.no_decisions");
  const n = res.decisions.length;
  return svg("svg", { id: "review-chart", class: "chart review-chart", viewBox: `0 0 ${W} ${H}`, role: "img", tabindex: 0, "aria-labelledby": "review-chart-title" },
    frame("review-chart", t("review.chart_title", { round: res.round, range: described }), s, t("chart.decision")),
    svg("polyline", { class: "series", fill: "none", points: series.map((v, i) => `${s.x(i).toFixed(1)},${s.y(v).toFixed(1)}`).join(" ") }),
    series.map((v, i) => {
      const d = res.decisions[i];
      return svg("circle", { class: `point ${d ? d.label : "result"}`, cx: s.x(i).toFixed(1), cy: s.y(v).toFixed(1), r: 4 },
        svg("title", {}, i < n ? `${d.turn}: ${d.played} (${d.label}), ${v.toFixed(1)}` : t("review.result_point", { v: v.toFixed(1) })));
    }));
}

/** A player's shown rating at one game after each rated result (players.js): one
 * line, one dot per game, its date and rating in the dot's tooltip. */
export function ratingChart(id, title, points, dateText) {
  const series = points.map((p) => p.rating);
  const s = scale(series, series.length);
  return svg("svg", { id, class: "chart rating-chart", viewBox: `0 0 ${W} ${H}`, role: "img", "aria-labelledby": `${id}-title` },
    frame(id, title, s, t("chart.game")),
    svg("polyline", { class: "series", fill: "none", points: series.map((v, i) => `${s.x(i).toFixed(1)},${s.y(v).toFixed(1)}`).join(" ") }),
    points.map((p, i) => svg("circle", { class: "point", cx: s.x(i).toFixed(1), cy: s.y(p.rating).toFixed(1), r: 3 },
      svg("title", {}, `${dateText(p.at)}: ${p.rating.toFixed(1)}`))));
}
