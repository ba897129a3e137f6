// The lobby's "Play someone" section: quick pairing, the open seeks (live), creating a seek and
// challenging a player. It keeps the lobby socket open while shown.

import { h } from "./dom.js";
import { account } from "./session.js";
import { want, listen } from "./lobby_socket.js";
import { poolsPart } from "./pools.js";
import { seeksPart } from "./seeks.js";
import { seekForm } from "./seek_form.js";
import { challengePart } from "./challenge_form.js";

function signInFirst() {
  const next = encodeURIComponent("/lobby");
  return h("p", { class: "notice", id: "pairing-sign-in" },
    h("a", { href: `/account?next=${next}`, "data-link": true }, "Sign in"), " or ",
    h("a", { href: `/account?mode=signup&next=${next}`, "data-link": true }, "sign up"),
    " to play someone: quick pairing, seeks and challenges need an account (ratings are kept per account).");
}

/** The section; answers `{element, leave}`. */
export function pairingSection(context) {
  want("lobby", true);
  const me = account();
  const pools = poolsPart(context);
  const seeks = seeksPart(context);
  const challenges = me ? challengePart(context) : null;
  const stop = listen((frame) => { if (frame.type === "started") pools.started(); });
  pools.refresh();
  const element = h("section", { class: "panel pairing", id: "pairing", "aria-labelledby": "pairing-title" },
    h("h2", { id: "pairing-title" }, "Play someone"),
    me ? null : signInFirst(),
    h("div", { class: "pairing-grid" },
      h("div", { class: "pairing-column" }, seeks.element, pools.element),
      me ? h("div", { class: "pairing-column" },
        h("section", { class: "pairing-part", "aria-labelledby": "seek-title" },
          h("h3", { id: "seek-title" }, "Create a seek"), seekForm(context)),
        challenges.element) : null));
  return {
    element,
    leave() {
      stop();
      seeks.leave();
      if (challenges) challenges.leave();
      want("lobby", false);
    },
  };
}
