import { readFileSync } from 'node:fs';

/** The parts of a V8 `.cpuprofile` (node --cpu-prof) read here. */
interface ProfileNode {
  readonly id: number;
  readonly callFrame: { functionName: string; url: string; lineNumber: number };
  readonly children?: number[];
}

interface CpuProfile {
  readonly nodes: ProfileNode[];
  readonly samples: number[];
  readonly timeDeltas: number[];
  readonly startTime: number;
  readonly endTime: number;
}

export interface Share {
  readonly name: string;
  readonly ms: number;
  /** Of all sampled time, idle included. */
  readonly share: number;
}

export interface ProfileSummary {
  readonly totalMs: number;
  readonly idleMs: number;
  /** Self time per bucket: a package, node's own modules, a directory of this repository, GC, V8. */
  readonly byBucket: Share[];
  /** Self time per function. */
  readonly topSelf: Share[];
  /** Inclusive time (once per sample however deep the recursion) of this repository's functions. */
  readonly topOwnInclusive: Share[];
  /**
   * Inclusive time per package (a sample counts for every package on its stack), with the GC and native frames
   * below a package's code charged to it: what calling into the package costs in all.
   */
  readonly packageInclusive: Share[];
}

const ROOT = new URL('../../', import.meta.url).href;

const isOwn = (url: string): boolean => url.startsWith(ROOT) && !url.includes('/node_modules/');

function bucketOf(frame: ProfileNode['callFrame']): string {
  const { url, functionName } = frame;
  if (url === '') {
    if (functionName.startsWith('(')) return functionName;
    return '(V8 builtins and native code)';
  }
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url);
  if (pkg) return pkg[1]!;
  if (url.startsWith('node:')) {
    const mod = /^node:(?:internal\/)?([a-z_]+)/.exec(url)?.[1] ?? 'other';
    return `node:${mod}`;
  }
  if (isOwn(url)) return `toolgate ${url.slice(ROOT.length).split('/')[0]}/`;
  return url;
}

function frameName(frame: ProfileNode['callFrame']): string {
  const where = isOwn(frame.url)
    ? frame.url.slice(ROOT.length)
    : (/node_modules\/(.+)$/.exec(frame.url)?.[1] ?? frame.url.replace(/^node:/, ''));
  const fn = frame.functionName || '(anonymous)';
  // Code loaded through tsx reports line 1 throughout: the line is left out where it says nothing.
  if (!where) return fn;
  return frame.lineNumber > 0 ? `${fn} ${where}:${frame.lineNumber + 1}` : `${fn} ${where}`;
}

const top = (m: Map<string, number>, total: number, n: number): Share[] =>
  [...m]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([name, us]) => ({ name, ms: us / 1000, share: us / total }));

export function summarizeProfile(file: string, n = 12): ProfileSummary {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);

  const buckets = new Map<string, number>();
  const self = new Map<string, number>();
  const inclusive = new Map<string, number>();
  const packages = new Map<string, number>();
  let total = 0;
  let idle = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    const us = profile.timeDeltas[i] ?? 0;
    const node = byId.get(profile.samples[i]!);
    if (!node) continue;
    total += us;
    if (node.callFrame.functionName === '(idle)') idle += us;
    const bucket = bucketOf(node.callFrame);
    buckets.set(bucket, (buckets.get(bucket) ?? 0) + us);
    const name = frameName(node.callFrame);
    self.set(name, (self.get(name) ?? 0) + us);
    const seen = new Set<string>();
    const seenPackages = new Set<string>();
    for (let id: number | undefined = node.id; id !== undefined; id = parent.get(id)) {
      const frame = byId.get(id)!.callFrame;
      const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(frame.url)?.[1];
      if (pkg && !seenPackages.has(pkg)) {
        seenPackages.add(pkg);
        packages.set(pkg, (packages.get(pkg) ?? 0) + us);
      }
      if (!isOwn(frame.url)) continue;
      const key = frameName(frame);
      if (seen.has(key)) continue;
      seen.add(key);
      inclusive.set(key, (inclusive.get(key) ?? 0) + us);
    }
  }
  return {
    totalMs: total / 1000,
    idleMs: idle / 1000,
    byBucket: top(buckets, total, n),
    topSelf: top(self, total, n),
    topOwnInclusive: top(inclusive, total, n),
    packageInclusive: top(packages, total, n),
  };
}
