/** One bar group of a chart: a label and one value per series. */
export interface BarGroup {
  readonly label: string;
  readonly values: readonly number[];
}

const COLOURS = ['#4e79a7', '#f28e2b', '#59a14f', '#e15759', '#76b7b2', '#edc948'];

function esc(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** A grouped bar chart as a standalone SVG document (hand-written: no chart dependency). */
export function barChart(options: {
  title: string;
  unit: string;
  series: readonly string[];
  groups: readonly BarGroup[];
  /** Optional horizontal goal line, in the chart's unit. */
  goal?: { value: number; label: string };
}): string {
  const { title, unit, series, groups, goal } = options;
  const width = 760;
  const height = 380;
  const left = 70;
  const right = 20;
  const top = 50;
  const bottom = 70;
  const plotW = width - left - right;
  const plotH = height - top - bottom;
  const max = Math.max(goal?.value ?? 0, ...groups.flatMap((g) => g.values)) * 1.15 || 1;
  const y = (v: number) => top + plotH - (v / max) * plotH;
  const groupW = plotW / Math.max(1, groups.length);
  const barW = Math.min(40, (groupW * 0.8) / Math.max(1, series.length));
  const parts: string[] = [];
  parts.push(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" font-family="sans-serif" font-size="12">`,
    `<rect width="100%" height="100%" fill="#fff"/>`,
    `<text x="${width / 2}" y="24" text-anchor="middle" font-size="16" font-weight="bold">${esc(title)}</text>`,
  );
  for (let i = 0; i <= 4; i++) {
    const v = (max / 4) * i;
    parts.push(
      `<line x1="${left}" x2="${width - right}" y1="${y(v)}" y2="${y(v)}" stroke="#ddd"/>`,
      `<text x="${left - 6}" y="${y(v) + 4}" text-anchor="end">${Number(v.toPrecision(3))}</text>`,
    );
  }
  parts.push(
    `<text x="16" y="${top + plotH / 2}" transform="rotate(-90 16 ${top + plotH / 2})" text-anchor="middle">${esc(unit)}</text>`,
  );
  groups.forEach((g, gi) => {
    const x0 = left + gi * groupW + (groupW - barW * series.length) / 2;
    g.values.forEach((v, si) => {
      const x = x0 + si * barW;
      parts.push(
        `<rect x="${x}" y="${y(v)}" width="${barW - 2}" height="${top + plotH - y(v)}" fill="${COLOURS[si % COLOURS.length]}"/>`,
        `<text x="${x + barW / 2 - 1}" y="${y(v) - 4}" text-anchor="middle" font-size="10">${Number(v.toPrecision(3))}</text>`,
      );
    });
    parts.push(
      `<text x="${left + gi * groupW + groupW / 2}" y="${top + plotH + 18}" text-anchor="middle">${esc(g.label)}</text>`,
    );
  });
  if (goal) {
    parts.push(
      `<line x1="${left}" x2="${width - right}" y1="${y(goal.value)}" y2="${y(goal.value)}" stroke="#c00" stroke-dasharray="6 4"/>`,
      `<text x="${width - right}" y="${y(goal.value) - 4}" text-anchor="end" fill="#c00">${esc(goal.label)}</text>`,
    );
  }
  series.forEach((s, si) => {
    const x = left + si * 170;
    parts.push(
      `<rect x="${x}" y="${height - 26}" width="12" height="12" fill="${COLOURS[si % COLOURS.length]}"/>`,
      `<text x="${x + 18}" y="${height - 16}">${esc(s)}</text>`,
    );
  });
  parts.push('</svg>');
  return parts.join('\n');
}
