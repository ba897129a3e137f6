// Words for a game proposed between people (a seek, a pool, a challenge): the game's name, the
// clock ("5 min + 3 s"), its class and whether it is rated.

/** The name of game `id` from the server's meta. */
export function gameName(meta, id) {
  const info = meta && meta.games.find((game) => game.id === id);
  return info ? info.name : String(id);
}

function amount(ms, unit) {
  const value = Number(ms) / unit;
  return Number.isInteger(value) ? String(value) : value.toFixed(1).replace(/\.0$/, "");
}

/** "5 min + 3 s", "1 day + 0 s", "3 days per move", or "no clock". */
export function clockLabel(clock) {
  if (!clock) return "no clock";
  if (clock.days_per_move) return `${clock.days_per_move} day${clock.days_per_move === 1 ? "" : "s"} per move`;
  const initial = Number(clock.initial_ms) || 0;
  const time = initial >= 86400000 && initial % 86400000 === 0 ? `${amount(initial, 86400000)} day${initial === 86400000 ? "" : "s"}`
    : initial < 60000 ? `${amount(initial, 1000)} s` : `${amount(initial, 60000)} min`;
  return `${time} + ${amount(Number(clock.increment_ms) || 0, 1000)} s`;
}

const CLASS_NAMES = { fast: "fast", slow: "slow", correspondence: "correspondence" };

/** "fast", "slow", "correspondence" (the rating's clock class). */
export function classLabel(cls) {
  return CLASS_NAMES[cls] || String(cls || "");
}

/** "rated" or "casual". */
export function ratedLabel(rated) {
  return rated ? "rated" : "casual";
}

/** "Qawale · 5 min + 3 s (fast) · rated". */
export function describeMatch(meta, match) {
  const cls = match.class ? ` (${classLabel(match.class)})` : "";
  return `${gameName(meta, match.game)} · ${clockLabel(match.clock)}${cls} · ${ratedLabel(match.rated)}`;
}
