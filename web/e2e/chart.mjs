// What a chart says, read as a person reads it: the cursor swept across the plot, the legend's
// values noted at every point it stops at (uPlot's live legend: the label of each series and the
// value it shows). A chart of amounts must say what the table beside it says.

/** Every point of the chart `testId` the cursor reaches: the legend's values by series label. */
export async function readChart(page, testId) {
  const over = page.locator(`[data-testid=${testId}] .u-over`);
  await over.scrollIntoViewIfNeeded();
  const box = await over.boundingBox();
  const points = new Map();
  for (let x = 1; x < box.width; x += 3) {
    await page.mouse.move(box.x + x, box.y + box.height / 2);
    const legend = await page.locator(`[data-testid=${testId}] .u-legend .u-series`).evaluateAll((rows) =>
      rows.map((row) => [row.querySelector('.u-label')?.textContent ?? '', row.querySelector('.u-value')?.textContent ?? '']));
    const values = Object.fromEntries(legend);
    const at = legend[0]?.[1];
    if (at && at !== '—' && at !== '--') points.set(at, { ...values, [legend[0][0]]: at });
  }
  await page.mouse.move(0, 0);
  return [...points.values()];
}
