/**
 * Runs `cleanup` once on SIGINT or SIGTERM, then exits. A second signal while cleaning up exits at once,
 * for the impatient Ctrl-C.
 */
export function onShutdown(cleanup: () => Promise<void>, print: (line: string) => void = console.log): void {
  let stopping = false;
  const handler = (signal: NodeJS.Signals) => {
    if (stopping) {
      print(`${signal} again: exiting without waiting.`);
      process.exit(1);
    }
    stopping = true;
    print(`${signal} received: shutting down…`);
    cleanup().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error('Shutdown failed:', error);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', handler);
  process.on('SIGTERM', handler);
}
