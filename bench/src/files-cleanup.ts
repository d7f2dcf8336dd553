import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * A temp directory removed on every way out: normal end, a thrown error (the caller's finally) and Ctrl-C,
 * which skips finally blocks, so a 200 MiB tree is never left behind.
 */
export function benchTempDirectory(prefix: string): { path: string; remove: () => void } {
  const directory = mkdtempSync(path.join(tmpdir(), prefix));
  const remove = () => rmSync(directory, { recursive: true, force: true });
  const onSignal = (signal: NodeJS.Signals) => {
    remove();
    process.kill(process.pid, signal);
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  return {
    path: directory,
    remove: () => {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      remove();
    },
  };
}
