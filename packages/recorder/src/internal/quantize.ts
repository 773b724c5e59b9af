// Median-cut colour quantiser over a 15-bit histogram, refined by one k-means pass, plus a
// cached nearest-colour mapper. Screen content has few colours (text, flat UI): when the
// histogram has no more bins than the palette, the palette is the bin means, i.e. exact.

const BINS = 1 << 15;

/** A 5-bit-per-channel colour histogram that keeps exact sums so palette colours are true means. */
export class ColorHistogram {
  readonly count = new Uint32Array(BINS);
  readonly sumR = new Float64Array(BINS);
  readonly sumG = new Float64Array(BINS);
  readonly sumB = new Float64Array(BINS);

  /** Empties the histogram for the next frame. */
  reset(): void {
    this.count.fill(0);
    this.sumR.fill(0);
    this.sumG.fill(0);
    this.sumB.fill(0);
  }

  /** Adds one pixel. */
  add(r: number, g: number, b: number): void {
    const k = ((r >> 3) << 10) | ((g >> 3) << 5) | (b >> 3);
    this.count[k]!++;
    this.sumR[k]! += r;
    this.sumG[k]! += g;
    this.sumB[k]! += b;
  }

  /** Builds a palette of at most `maxColors` colours as packed RGB triples. */
  palette(maxColors: number): Uint8Array {
    const bins: number[] = [];
    for (let k = 0; k < BINS; k++) if (this.count[k]! > 0) bins.push(k);
    const n = bins.length;
    const r = new Float64Array(n);
    const g = new Float64Array(n);
    const b = new Float64Array(n);
    const w = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      const k = bins[i]!;
      const c = this.count[k]!;
      w[i] = c;
      r[i] = this.sumR[k]! / c;
      g[i] = this.sumG[k]! / c;
      b[i] = this.sumB[k]! / c;
    }
    const channels = [r, g, b];
    let centres: number[][];
    if (n <= maxColors) {
      centres = Array.from({ length: n }, (_, i) => [r[i]!, g[i]!, b[i]!]);
    } else {
      centres = medianCut(channels, w, maxColors);
      refine(channels, w, centres);
    }
    const out = new Uint8Array(centres.length * 3);
    centres.forEach((c, i) => {
      out[i * 3] = Math.round(c[0]!);
      out[i * 3 + 1] = Math.round(c[1]!);
      out[i * 3 + 2] = Math.round(c[2]!);
    });
    return out;
  }
}

interface Box {
  start: number;
  end: number;
  score: number;
  axis: number;
}

/** Splits the colour space into `maxColors` boxes, always splitting the box with the largest error. */
function medianCut(channels: Float64Array[], w: Float64Array, maxColors: number): number[][] {
  const n = w.length;
  const order = new Uint32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  const boxes: Box[] = [measure(channels, w, order, 0, n)];
  while (boxes.length < maxColors) {
    let best = -1;
    for (let i = 0; i < boxes.length; i++) {
      const bx = boxes[i]!;
      if (bx.end - bx.start > 1 && (best < 0 || bx.score > boxes[best]!.score)) best = i;
    }
    if (best < 0 || boxes[best]!.score <= 0) break;
    const box = boxes[best]!;
    const axis = channels[box.axis]!;
    const slice = order.subarray(box.start, box.end);
    slice.sort((a, c) => axis[a]! - axis[c]!);
    let total = 0;
    for (const i of slice) total += w[i]!;
    let acc = 0;
    let cut = box.start + 1;
    for (let j = box.start; j < box.end - 1; j++) {
      acc += w[order[j]!]!;
      cut = j + 1;
      if (acc >= total / 2) break;
    }
    boxes.splice(
      best,
      1,
      measure(channels, w, order, box.start, cut),
      measure(channels, w, order, cut, box.end),
    );
  }
  return boxes.map((bx) => mean(channels, w, order, bx.start, bx.end));
}

/** Weighted squared error of a box and the axis with the largest variance. */
function measure(
  channels: Float64Array[],
  w: Float64Array,
  order: Uint32Array,
  start: number,
  end: number,
): Box {
  let score = 0;
  let axis = 0;
  let bestVar = -1;
  for (let c = 0; c < 3; c++) {
    const ch = channels[c]!;
    let sw = 0;
    let s = 0;
    let s2 = 0;
    for (let j = start; j < end; j++) {
      const i = order[j]!;
      const v = ch[i]!;
      sw += w[i]!;
      s += v * w[i]!;
      s2 += v * v * w[i]!;
    }
    const sse = s2 - (s * s) / sw;
    score += sse;
    if (sse > bestVar) {
      bestVar = sse;
      axis = c;
    }
  }
  return { start, end, score, axis };
}

function mean(
  channels: Float64Array[],
  w: Float64Array,
  order: Uint32Array,
  start: number,
  end: number,
): number[] {
  const out = [0, 0, 0];
  let sw = 0;
  for (let j = start; j < end; j++) {
    const i = order[j]!;
    sw += w[i]!;
    for (let c = 0; c < 3; c++) out[c]! += channels[c]![i]! * w[i]!;
  }
  return out.map((v) => v / sw);
}

/** One Lloyd (k-means) iteration: moves each centre to the mean of the bins nearest to it. */
function refine(channels: Float64Array[], w: Float64Array, centres: number[][]): void {
  const [r, g, b] = channels as [Float64Array, Float64Array, Float64Array];
  const k = centres.length;
  const sums = new Float64Array(k * 4);
  for (let i = 0; i < w.length; i++) {
    const best = nearest(centres, r[i]!, g[i]!, b[i]!);
    sums[best * 4]! += r[i]! * w[i]!;
    sums[best * 4 + 1]! += g[i]! * w[i]!;
    sums[best * 4 + 2]! += b[i]! * w[i]!;
    sums[best * 4 + 3]! += w[i]!;
  }
  for (let j = 0; j < k; j++) {
    const sw = sums[j * 4 + 3]!;
    if (sw > 0) centres[j] = [sums[j * 4]! / sw, sums[j * 4 + 1]! / sw, sums[j * 4 + 2]! / sw];
  }
}

function nearest(centres: number[][], r: number, g: number, b: number): number {
  let best = 0;
  let bestD = Infinity;
  for (let j = 0; j < centres.length; j++) {
    const c = centres[j]!;
    const dr = c[0]! - r;
    const dg = c[1]! - g;
    const db = c[2]! - b;
    const d = dr * dr + dg * dg + db * db;
    if (d < bestD) {
      bestD = d;
      best = j;
    }
  }
  return best;
}

/** Maps colours to their nearest palette index, cached on 6 bits per channel. */
export class PaletteMapper {
  private readonly cache = new Int16Array(1 << 18);
  private palette: Uint8Array = new Uint8Array(0);

  /** Switches to a new palette (packed RGB triples) and clears the cache. */
  use(palette: Uint8Array): void {
    this.palette = palette;
    this.cache.fill(-1);
  }

  /** Index of the palette colour nearest to (r, g, b). */
  index(r: number, g: number, b: number): number {
    const key = ((r >> 2) << 12) | ((g >> 2) << 6) | (b >> 2);
    const hit = this.cache[key]!;
    if (hit >= 0) return hit;
    const p = this.palette;
    let best = 0;
    let bestD = Infinity;
    for (let j = 0; j < p.length; j += 3) {
      const dr = p[j]! - r;
      const dg = p[j + 1]! - g;
      const db = p[j + 2]! - b;
      const d = dr * dr + dg * dg + db * db;
      if (d < bestD) {
        bestD = d;
        best = j / 3;
        if (d === 0) break;
      }
    }
    this.cache[key] = best;
    return best;
  }
}
