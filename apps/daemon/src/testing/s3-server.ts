import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';

/**
 * A real S3-compatible server for tests: moto's server mode (`python3 -m moto.server`, pip's `moto[server]`) in its
 * own process on a free loopback port, speaking S3 over HTTP (path-style URLs; any access key is accepted, and
 * presigned URLs are checked for their expiry). `.ci/run` makes sure moto is importable.
 */
export interface S3TestServer {
  /** `http://127.0.0.1:<port>` */
  endpoint: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** Creates a bucket with a fresh name and returns it. */
  createBucket(prefix?: string): Promise<string>;
  stop(): Promise<void>;
}

const python = () => process.env.AERIE_TEST_PYTHON ?? 'python3';

/**
 * Why the S3 tests cannot run on this machine (moto's server is not importable), or undefined when they can. In CI
 * (`CI=true`) always undefined: there they run, and fail without moto, rather than skip.
 */
export const s3TestServerMissing: string | undefined = (() => {
  if (process.env.CI === 'true') return undefined;
  const probe = spawnSync(python(), ['-c', 'import moto.server'], { stdio: 'ignore', timeout: 20_000 });
  return probe.status === 0 ? undefined : "moto's S3 server is not installed (pip install 'moto[server]')";
})();
if (s3TestServerMissing) console.warn(`Skipping the S3 backup tests: ${s3TestServerMissing}`);

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });

/** Starts moto on a free port and waits until it answers (up to 30 s). */
export async function startS3TestServer(): Promise<S3TestServer> {
  const port = await freePort();
  const endpoint = `http://127.0.0.1:${port}`;
  const child: ChildProcess = spawn(python(), ['-m', 'moto.server', '-H', '127.0.0.1', '-p', String(port)], {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, PYTHONUNBUFFERED: '1' },
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) {
      throw new Error(`moto_server exited (${child.exitCode}); is moto[server] installed?\n${stderr}`);
    }
    try {
      const response = await fetch(`${endpoint}/`, { signal: AbortSignal.timeout(1000) });
      await response.arrayBuffer();
      break;
    } catch {
      if (Date.now() > deadline) {
        child.kill('SIGKILL');
        throw new Error(`moto_server did not answer on ${endpoint} within 30 s\n${stderr}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  return {
    endpoint,
    region: 'us-east-1',
    accessKeyId: 'aerie-test',
    secretAccessKey: 'aerie-test-secret',
    async createBucket(prefix = 'aerie-test') {
      const bucket = `${prefix}-${randomBytes(4).toString('hex')}`;
      const response = await fetch(`${endpoint}/${bucket}`, { method: 'PUT' });
      if (!response.ok)
        throw new Error(`Could not create bucket ${bucket}: ${response.status} ${await response.text()}`);
      return bucket;
    },
    async stop() {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    },
  };
}
