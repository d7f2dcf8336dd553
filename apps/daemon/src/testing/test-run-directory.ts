import { tmpdir } from 'node:os';
import path from 'node:path';
import { ProcessRuntime } from '@aerie/daemon/runtime/process/process-runtime';
import { ProcessSandbox } from '@aerie/daemon/runtime/process/sandbox/process-sandbox';

/** Every test's holder sockets live under here; the daemon project's teardown removes it (see global-setup.ts). */
export const TEST_RUN_ROOT = path.join(tmpdir(), 'aerie-test-run');

let made = 0;

/**
 * A run directory of its own for one test runtime or driver: tests reuse server uuids, and a holder refuses to
 * run a second game for a uuid whose holder still answers. Once it is removed, its holders end their games.
 */
export function testRunDirectory(): string {
  made += 1;
  return path.join(TEST_RUN_ROOT, `${process.pid}-${made}`);
}

/** A process runtime as the tests use it: unsandboxed, in a run directory of its own. */
export function testProcessRuntime(sandbox: ProcessSandbox = ProcessSandbox.unsafe()): ProcessRuntime {
  return new ProcessRuntime({ sandbox, runDirectory: testRunDirectory() });
}
