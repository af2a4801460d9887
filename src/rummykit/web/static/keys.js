// The keyboard: the terminal game's keys (src/rummykit/tui/app.py), so a player can
// go from one to the other without learning anything new.
export const KEYS = [
  ["s", "draw_stock"], ["p", "draw_pile"], ["m", "meld"], ["l", "layoff"], ["d", "discard"],
  ["j", "swap"], ["t", "take"], ["k", "knock"], ["x", "drop"], ["n", "pass"], ["b", "buy"], ["b", "best"], ["a", "arrange"],
  ["c", "clear"], ["Escape", "clear"], ["h", "hint"], ["r", "sort"], ["v", "pile"], ["?", "help"],
  ["ArrowLeft", "left"], ["ArrowRight", "right"], ["1-9", "target"],
];

const TYPING = new Set(["INPUT", "TEXTAREA", "SELECT"]);

/** Call ``actions[name](event)`` for the game's keys, except while the player types or
 * a dialog is open (its own keys apply there); digits 1-9 choose a table meld. */
export function bindKeys(actions, dialogOpen) {
  document.addEventListener("keydown", (e) => {
    if (e.ctrlKey || e.metaKey || e.altKey || TYPING.has(e.target.tagName) || dialogOpen()) return;
    let name = null;
    if (/^[1-9]$/.test(e.key)) name = "target";
    else {
      const hit = KEYS.find(([k]) => k === e.key || k === e.key.toLowerCase() && e.key.length === 1);
      if (hit) name = hit[1];
    }
    if (!name || !actions[name]) return;
    e.preventDefault();
    actions[name](e);
  });
}
