import type { BackendModule, ReadCallback, ResourceKey } from 'i18next';

/**
 * The English files as they were at build time, each its own chunk, fetched only when the panel's copy cannot be
 * had (spec §7: a 4xx or bad JSON is a final failure, a 5xx one after the retries). Last in the chain, so a page
 * never shows bare keys such as `login.title` or stays blank.
 */
const englishFiles = import.meta.glob<ResourceKey>('../../public/locales/en/*.json', {
  import: 'default',
});

const byNamespace = new Map(
  Object.entries(englishFiles).map(([path, load]) => [path.replace(/^.*\/(.+)\.json$/, '$1'), load]),
);

/** What this backend handed out: never cached in local storage (the panel's own files win at the next load). */
const handedOut = new WeakSet<object>();
export const isBundled = (data: unknown): boolean =>
  typeof data === 'object' && data !== null && handedOut.has(data);

export class BundledBackend implements BackendModule {
  static readonly type = 'backend';
  readonly type = 'backend';

  init(): void {}

  read(language: string, namespace: string, callback: ReadCallback): void {
    // Any language gets the English file: a German page whose file could not be had shows English, not keys.
    const load = byNamespace.get(namespace);
    if (!load) {
      callback(new Error(`no bundled ${language}/${namespace}`), false);
      return;
    }
    load().then(
      (data) => {
        if (typeof data === 'object' && data !== null) handedOut.add(data);
        callback(null, data);
      },
      (error: unknown) => callback(error instanceof Error ? error : new Error(String(error)), false),
    );
  }
}
