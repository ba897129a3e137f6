// Fits the board to the window's height. The rows of the board area down to the actions bar (the
// title, the status, notes, the players above and below the board, the actions) keep their own
// height and the board takes what is left, so that all of them are in sight without scrolling.
// Measured after each redraw and on resize: the rows' heights depend on the game (a line for a
// hand), the notes shown and the fonts, which a fixed allowance in the stylesheet cannot know.

// Below this the board is too small to play on: the page scrolls instead.
const SMALLEST = 240;
// Room kept under the actions bar, in CSS pixels.
const BELOW = 8;

/** The lowest box of `rows` that is drawn (a hidden or empty row has no box). */
function lastBottom(rows) {
  const drawn = rows.map((row) => row.getBoundingClientRect()).filter((box) => box.height > 0);
  return drawn.length ? Math.max(...drawn.map((box) => box.bottom)) : 0;
}

/**
 * Sets `--board-fit` on `area` (the widest the board may be) so that `rows` (the board's holder
 * first, then the rows under it that must stay in sight) end within the window.
 */
export function fitBoard(area, rows) {
  const svg = rows[0].querySelector("svg");
  if (!svg || !svg.viewBox || !svg.viewBox.baseVal || !svg.viewBox.baseVal.height) return;
  const aspect = svg.viewBox.baseVal.width / svg.viewBox.baseVal.height;
  // A change of width can wrap the rows around the board anew: settle in a few rounds.
  for (let round = 0; round < 3; round += 1) {
    const top = area.getBoundingClientRect().top + scrollY;
    const others = lastBottom(rows) - area.getBoundingClientRect().top - svg.getBoundingClientRect().height;
    const height = Math.max(innerHeight - top - others - BELOW, SMALLEST);
    const width = `${Math.floor(height * aspect)}px`;
    if (area.style.getPropertyValue("--board-fit") === width) return;
    area.style.setProperty("--board-fit", width);
  }
}
