import { describe, expect, it } from 'vitest';
import { loadRuntimeDriver } from './driver-loader';
import { ProcessDriver } from './process/process-driver';

describe('loadRuntimeDriver', () => {
  it('gives the process driver for RUNTIME=process and loads the docker driver only for RUNTIME=docker', async () => {
    expect(await loadRuntimeDriver('process', '/tmp/aerie-data')).toBeInstanceOf(ProcessDriver);
    const docker = await loadRuntimeDriver('docker', '/tmp/aerie-data');
    expect(docker.name).toBe('docker');
    expect(docker.constructor.name).toBe('DockerDriver');
  });
});
