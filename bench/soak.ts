/**
 * Soak test (issue #7, on demand, never in CI): runs the extract task continuously for
 * SOAK_MINUTES (default 30) at concurrency 2 on a pool of 2, sampling the RSS/PSS of the
 * service + Chromium tree and its process count every 10 s. Writes bench/results/soak.json
 * and soak.svg.
 *
 *   pnpm soak                 # 30 minutes
 *   SOAK_MINUTES=2 pnpm soak  # a short look
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startDemoServer } from './lib/demo-server.ts';
import { makeBundleDir } from './lib/bundles.ts';
import { runTask, startService } from './lib/service.ts';
import { processTree } from './lib/procs.ts';
import { treePssMb, treeRssMb } from './lib/procs.ts';

const minutes = Number(process.env.SOAK_MINUTES ?? 30);
const resultsDir = fileURLToPath(new URL('./results/', import.meta.url));

interface Sample {
  readonly atSec: number;
  readonly runs: number;
  readonly failures: number;
  readonly rssMb: number;
  readonly pssMb: number;
  readonly processes: number;
}

function lineChart(samples: readonly Sample[]): string {
  const width = 760;
  const height = 360;
  const left = 60;
  const top = 40;
  const plotW = width - left - 60;
  const plotH = height - top - 60;
  const maxX = Math.max(1, ...samples.map((s) => s.atSec));
  const maxMb = Math.max(1, ...samples.map((s) => s.pssMb)) * 1.2;
  const maxProcs = Math.max(1, ...samples.map((s) => s.processes)) * 1.2;
  const x = (v: number) => left + (v / maxX) * plotW;
  const yMb = (v: number) => top + plotH - (v / maxMb) * plotH;
  const yP = (v: number) => top + plotH - (v / maxProcs) * plotH;
  const path = (f: (s: Sample) => number) =>
    samples
      .map((s, i) => `${i === 0 ? 'M' : 'L'}${x(s.atSec).toFixed(1)},${f(s).toFixed(1)}`)
      .join(' ');
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" font-family="sans-serif" font-size="12">`,
    '<rect width="100%" height="100%" fill="#fff"/>',
    `<text x="${width / 2}" y="22" text-anchor="middle" font-size="16" font-weight="bold">Soak: ${minutes} min, service + Chromium tree</text>`,
    `<line x1="${left}" y1="${top + plotH}" x2="${left + plotW}" y2="${top + plotH}" stroke="#333"/>`,
    `<text x="${left + plotW / 2}" y="${height - 20}" text-anchor="middle">seconds (${samples.at(-1)?.runs ?? 0} runs)</text>`,
    `<path d="${path((s) => yMb(s.pssMb))}" fill="none" stroke="#4e79a7" stroke-width="2"/>`,
    `<path d="${path((s) => yP(s.processes))}" fill="none" stroke="#f28e2b" stroke-width="2"/>`,
    `<text x="${left - 6}" y="${top}" text-anchor="end" fill="#4e79a7">${maxMb.toFixed(0)} MB</text>`,
    `<text x="${left + plotW + 6}" y="${top}" fill="#f28e2b">${maxProcs.toFixed(0)} procs</text>`,
    `<text x="${left + 10}" y="${height - 40}" fill="#4e79a7">PSS (MB)</text>`,
    `<text x="${left + 110}" y="${height - 40}" fill="#f28e2b">process count</text>`,
    '</svg>',
  ].join('\n');
}

const demo = await startDemoServer();
const svc = await startService(makeBundleDir({ poolSize: 2 }));
const samples: Sample[] = [];
let runs = 0;
let failures = 0;
const started = Date.now();
const endAt = started + minutes * 60_000;
const sample = () =>
  samples.push({
    atSec: Math.round((Date.now() - started) / 1000),
    runs,
    failures,
    rssMb: treeRssMb(svc.pid),
    pssMb: treePssMb(svc.pid),
    processes: processTree(svc.pid).length,
  });
sample();
const sampler = setInterval(sample, 10_000);
try {
  await Promise.all(
    [0, 1].map(async () => {
      while (Date.now() < endAt) {
        try {
          await runTask(svc.baseUrl, 'bench/extract', { url: demo.url });
          runs++;
        } catch {
          failures++;
        }
      }
    }),
  );
} finally {
  clearInterval(sampler);
  sample();
  await svc.stop();
  await demo.close();
}
mkdirSync(resultsDir, { recursive: true });
writeFileSync(join(resultsDir, 'soak.json'), `${JSON.stringify({ minutes, samples }, null, 2)}\n`);
writeFileSync(join(resultsDir, 'soak.svg'), lineChart(samples));
const first = samples[1] ?? samples[0]!;
const last = samples.at(-1)!;
console.log(
  `soak: ${runs} runs, ${failures} failures in ${minutes} min; PSS ${first.pssMb} → ${last.pssMb} MB, processes ${first.processes} → ${last.processes}`,
);
