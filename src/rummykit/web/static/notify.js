// The player's turn starts: an optional sound and tab-title notice, both off unless
// chosen in the settings (kept in the browser), so nobody is startled by default.
import { t } from "./i18n.js";
import { pref } from "./prefs.js";

/** ``notify(myTurn)``, called on every drawing: the title says so while it is the
 * player's turn, and the sound plays once as the turn starts. */
export function turnNotice() {
  let was = false;
  let ctx = null;

  function beep() {
    try {
      ctx = ctx || new AudioContext();
      const osc = ctx.createOscillator();
      const gain = ctx.createGain();
      osc.frequency.value = 660;
      gain.gain.setValueAtTime(0.15, ctx.currentTime);
      gain.gain.exponentialRampToValueAtTime(0.001, ctx.currentTime + 0.3);
      osc.connect(gain).connect(ctx.destination);
      osc.start();
      osc.stop(ctx.currentTime + 0.3);
      window.rummy.beeps = (window.rummy.beeps || 0) + 1;
    } catch { /* no audio here: the title notice still works */ }
  }

  return (myTurn) => {
    const base = "rummykit";
    document.title = myTurn && pref("title") ? `● ${t("title.your_turn")} · ${base}` : base;
    if (myTurn && !was && pref("sound")) beep();
    was = myTurn;
  };
}
