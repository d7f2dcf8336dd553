// `npx tsx bench/src/profile-top.ts FILE.cpuprofile [--last SECONDS] [--top N]`: where a CPU profile's time went,
// as text: the functions with the most self time, and the files and packages with the most, over the whole profile
// or only its last SECONDS (a soak's steady state rather than its start-up). For reading `node --cpu-prof` output
// (panel-profile.ts, bench:soak with SOAK_PROFILE_DIR) without a browser.
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const args = process.argv.slice(2);
const file = args.find((arg) => !arg.startsWith('--') && !/^\d+$/.test(arg));
const option = (name: string, fallback: number) => {
  const index = args.indexOf(name);
  return index >= 0 ? Number(args[index + 1]) : fallback;
};
if (!file) throw new Error('usage: profile-top.ts FILE.cpuprofile [--last SECONDS] [--top N]');
const lastSeconds = option('--last', 0);
const top = option('--top', 30);

const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const parentOf = new Map<number, number>();
for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);

// Sample i was taken at the sum of the deltas up to i; each stands for the time until the next one.
const times: number[] = [];
let clock = 0;
for (const delta of profile.timeDeltas) {
  clock += delta;
  times.push(clock);
}
const from = lastSeconds > 0 ? clock - lastSeconds * 1e6 : Number.NEGATIVE_INFINITY;

/** node_modules/<package> (scoped too), the project's own path from apps/ or packages/, or node's internals. */
function place(url: string): string {
  if (url === '') return '(native / VM)';
  const modules = url.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/);
  if (modules?.[1]) return modules[1];
  if (url.startsWith('node:')) return url;
  const own = url.match(/\/((?:apps|packages)\/.*)$/);
  return own?.[1] ?? url;
}

const functions = new Map<string, number>();
/** Time under each of the project's own functions (apps/, packages/), callees included. */
const inclusive = new Map<string, number>();
const places = new Map<string, number>();
let total = 0;
let idle = 0;
for (let index = 0; index < profile.samples.length; index++) {
  const at = times[index] ?? 0;
  if (at < from) continue;
  const duration = (times[index + 1] ?? at) - at;
  const node = byId.get(profile.samples[index] ?? -1);
  if (!node) continue;
  const { functionName, url, lineNumber } = node.callFrame;
  // Waiting is not work: shown apart, left out of the shares.
  if (functionName === '(idle)') {
    idle += duration;
    continue;
  }
  const where = place(url);
  const key = `${functionName || '(anonymous)'}  ${where}${url ? `:${lineNumber + 1}` : ''}`;
  functions.set(key, (functions.get(key) ?? 0) + duration);
  const seen = new Set<string>();
  for (let id: number | undefined = node.id; id !== undefined; id = parentOf.get(id)) {
    const frame = byId.get(id)?.callFrame;
    if (!frame || !/\/(apps|packages)\//.test(frame.url) || /node_modules/.test(frame.url)) continue;
    const own = `${frame.functionName || '(anonymous)'}  ${place(frame.url)}:${frame.lineNumber + 1}`;
    if (seen.has(own)) continue;
    seen.add(own);
    inclusive.set(own, (inclusive.get(own) ?? 0) + duration);
  }
  places.set(where, (places.get(where) ?? 0) + duration);
  total += duration;
}

const print = (title: string, entries: Map<string, number>) => {
  console.log(`\n${title}`);
  for (const [key, micros] of [...entries].sort((a, b) => b[1] - a[1]).slice(0, top)) {
    console.log(
      `${((micros / total) * 100).toFixed(1).padStart(5)} %  ${(micros / 1000).toFixed(0).padStart(7)} ms  ${key}`,
    );
  }
};
console.log(
  `${file}: ${(total / 1e6).toFixed(1)} s busy, ${(idle / 1e6).toFixed(1)} s idle${lastSeconds > 0 ? ` (last ${lastSeconds} s)` : ''}`,
);
print('self time by function', functions);
print('self time by package or file', places);
print("the project's own functions, callees included", inclusive);
