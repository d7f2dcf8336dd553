import os from 'node:os';
import { describe, expect, it } from 'vitest';
import { loadDaemonConfig } from '../config/env';
import { buildDaemonApp } from '../http/app';

describe('GET /api/system', () => {
  it('answers the version, kernel, architecture, OS and CPU count in Wings field names', async () => {
    const app = buildDaemonApp();
    const response = await app.inject({ method: 'GET', url: '/api/system' });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(Object.keys(body).sort()).toEqual([
      'architecture',
      'cpu_count',
      'kernel_version',
      'os',
      'version',
    ]);
    expect(body.version).toBe('0.1.0');
    expect(body.kernel_version).toBe(os.release());
    expect(body.os).toBe('linux');
    expect(body.architecture).toBe(process.arch === 'x64' ? 'amd64' : process.arch);
    expect(body.cpu_count).toBeGreaterThanOrEqual(1);
    await app.close();
  });

  it('answers 404 for routes it does not have', async () => {
    const app = buildDaemonApp();
    const response = await app.inject({ method: 'GET', url: '/api/servers' });
    expect(response.statusCode).toBe(404);
    await app.close();
  });
});

describe('daemon configuration', () => {
  it('defaults to port 8081 on loopback', () => {
    expect(loadDaemonConfig({})).toMatchObject({ host: '127.0.0.1', port: 8081 });
  });

  it('says which variable is wrong and why', () => {
    expect(() => loadDaemonConfig({ DAEMON_PORT: 'eighty' })).toThrow(
      'DAEMON_PORT: must be a whole number between 0 and 65535 (got "eighty")',
    );
    expect(() => loadDaemonConfig({ DAEMON_PORT: '70000' })).toThrow('DAEMON_PORT: must be a whole number');
  });
});
