import { Worker } from 'node:worker_threads';

/**
 * A worker thread running a TypeScript module. A worker does not inherit tsx's loader, so its entry is a data URL
 * that registers tsx first, then imports the module.
 */
export function startTsWorker(module: URL, workerData: unknown): Worker {
  const tsx = import.meta.resolve('tsx/esm/api');
  const entry = `import { register } from ${JSON.stringify(tsx)}; register(); await import(${JSON.stringify(module.href)});`;
  return new Worker(new URL(`data:text/javascript,${encodeURIComponent(entry)}`), { workerData });
}
