// Telling a person that it is their turn while the page is not in front (another tab, another
// window): when a snapshot makes it the turn of a seat this browser plays and the page is hidden
// or not focused, the tab's title gets a "• Your turn — " prefix (gone once the page is seen
// again), a short sound plays if sounds are on (`window.ludusSound`, filled by the sounds
// module), and a browser notification appears if the person allowed them with the "Notify me
// when it's my turn" button (the page never asks unprompted).

import { h } from "./dom.js";
import { seatToken } from "./api.js";

export const PREFIX = "• Your turn — ";

const notifications = () => typeof window.Notification === "function";

/** Whether the person may not be looking at the page. */
function away() {
  return document.visibilityState === "hidden" || !document.hasFocus();
}

function strip(title) {
  return title.startsWith(PREFIX) ? title.slice(PREFIX.length) : title;
}

/**
 * The turn alert of game `id`: `note(before, snap)` with each snapshot taken, `title(base)` for
 * the tab's title, `button()` for the notification choice (null where there is none to make),
 * `stop()` when leaving the game.
 */
export function turnAlert(id) {
  let waiting = false;
  const mine = (snap) => Boolean(snap && !snap.outcome && snap.to_move && seatToken(id, snap.to_move));
  const clear = () => {
    waiting = false;
    document.title = strip(document.title);
  };
  const seen = (event) => {
    if (waiting && (event.type === "focus" || document.visibilityState === "visible")) clear();
  };
  document.addEventListener("visibilitychange", seen);
  window.addEventListener("focus", seen);
  return {
    note(before, snap) {
      if (!mine(snap)) {
        if (waiting) clear();
        return;
      }
      if (!before || mine(before) || !away()) return;
      waiting = true;
      document.title = PREFIX + strip(document.title);
      window.ludusSound?.("turn");
      if (notifications() && Notification.permission === "granted") {
        const shown = new Notification("Your turn", { body: `${snap.name}: it is your turn.`, tag: `ludus-${id}` });
        shown.onclick = () => { window.focus(); shown.close(); };
      }
    },
    title(base) {
      return waiting ? PREFIX + base : base;
    },
    button() {
      if (!notifications() || Notification.permission === "denied") return null;
      const box = h("p", { class: "notify-turn", id: "notify-turn" });
      const draw = () => {
        box.replaceChildren(Notification.permission === "granted"
          ? h("span", { class: "muted" }, "You will be notified when it's your turn.")
          : h("button", { type: "button", onclick: ask }, "Notify me when it's my turn"));
      };
      const ask = async () => {
        try { await Notification.requestPermission(); } catch (err) { /* an older browser's callback form */ }
        if (Notification.permission === "denied") box.replaceChildren();
        else draw();
      };
      draw();
      return box;
    },
    stop() {
      document.removeEventListener("visibilitychange", seen);
      window.removeEventListener("focus", seen);
      clear();
    },
  };
}
