// Encoding cost of a 10-step run captured at 1280×720, 5 fps: ms per frame and output size
// for GIF and MP4. Bounded: one capture (~5 s) and three encodes of each format.
// Run: pnpm --filter @browsertask/recorder bench
import { readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { encodeGif, encodeMp4, startScreencast, type Frame } from '../src/index.js';
import { launchChromium } from '../test/helpers/browser.js';
import { decodeGif, encode } from '../test/helpers/images.js';
import { serveSteps } from '../test/helpers/site.js';

const RUNS = 3;
const FPS = 5;
const outDir = join(tmpdir(), 'browsertask-recorder-bench');

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

async function capture(): Promise<{ frames: Frame[]; startMs: number; stopMs: number }> {
  const { url, server } = await serveSteps();
  const browser = await launchChromium();
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
    await page.goto(url);
    let t = performance.now();
    const cast = await startScreencast(page, { fps: FPS });
    const startMs = performance.now() - t;
    await new Promise((r) => setTimeout(r, 400));
    for (let n = 1; n <= 10; n++) {
      await page.evaluate(
        (step) => (window as unknown as { setStep(n: number): void }).setStep(step),
        n,
      );
      await new Promise((r) => setTimeout(r, 400));
    }
    t = performance.now();
    const frames = await cast.stop();
    return { frames, startMs, stopMs: performance.now() - t };
  } finally {
    await browser.close();
    server.close();
  }
}

/**
 * CPU time of this process plus its waited-for children (ffmpeg), in ms. On a shared,
 * overloaded machine wall time mostly measures the neighbours; CPU time measures the work.
 */
function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  let children = 0;
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // cutime and cstime are fields 16 and 17 of /proc/<pid>/stat, in clock ticks (100 Hz).
    children = (Number(fields[13]) + Number(fields[14])) * 10;
  } catch {
    // not Linux: children's CPU time is not counted
  }
  return (user + system) / 1000 + children;
}

async function time(fn: () => Promise<Buffer>): Promise<{ ms: number; cpu: number; out: Buffer }> {
  const times: number[] = [];
  const cpus: number[] = [];
  let out: Buffer = Buffer.alloc(0);
  for (let i = 0; i < RUNS; i++) {
    const c = cpuMs();
    const t = performance.now();
    out = await fn();
    times.push(performance.now() - t);
    cpus.push(cpuMs() - c);
  }
  return { ms: median(times), cpu: median(cpus), out };
}

const { frames, startMs, stopMs } = await capture();
const distinct = new Set(frames.map((f) => f.png.toString('base64'))).size;
const pngBytes = frames.reduce((n, f) => n + f.png.length, 0);
// Warm-up (JIT), not counted.
await encodeGif(frames.slice(0, 3), { fps: FPS });
const gif = await time(() => encodeGif(frames, { fps: FPS, quality: 80 }));
const mp4 = await time(() => encodeMp4(frames, { fps: FPS, quality: 80 }));

await mkdir(outDir, { recursive: true });
await writeFile(join(outDir, 'run.gif'), gif.out);
await writeFile(join(outDir, 'run.mp4'), mp4.out);
const decoded = decodeGif(gif.out);
const mid = decoded.frames[Math.floor(decoded.frames.length / 2)]!;
await writeFile(join(outDir, 'gif-frame.png'), encode(decoded.width, decoded.height, mid.rgba));

const kb = (n: number): string => `${(n / 1024).toFixed(1)} KB`;
const row = (name: string, r: { ms: number; cpu: number; out: Buffer }): string =>
  `| ${name} | ${r.ms.toFixed(0)} ms | ${(r.ms / frames.length).toFixed(1)} | ` +
  `${r.cpu.toFixed(0)} ms | ${(r.cpu / frames.length).toFixed(1)} | ${kb(r.out.length)} |`;
console.log(
  `10-step run, 1280×720, ${FPS} fps: ${frames.length} frames (${distinct} distinct), PNGs ${kb(pngBytes)}`,
);
console.log(`startScreencast ${startMs.toFixed(0)} ms, stop ${stopMs.toFixed(0)} ms`);
console.log('');
const loadavg = readFileSync('/proc/loadavg', 'utf8').split(' ')[0];
console.log(`load average ${loadavg} on this machine while measuring`);
console.log('');
console.log('| format | median wall | wall ms/frame | median CPU | CPU ms/frame | size |');
console.log('|---|---|---|---|---|---|');
console.log(row('GIF (quality 80)', gif));
console.log(row('MP4 (quality 80, CRF 25)', mp4));
console.log('');
console.log(`outputs in ${outDir} (run.gif, run.mp4, gif-frame.png)`);
