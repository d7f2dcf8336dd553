import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { staysExternal } from '../../../../scripts/server-build.mjs';

const root = fileURLToPath(new URL('../../../../', import.meta.url));

describe('the compiled server (dist/server)', () => {
  it('imports at run time the packages Node finds from dist/server as from the source: the root node_modules', () => {
    expect(staysExternal('fastify', join(root, 'apps/panel/src'))).toBe(true);
    expect(staysExternal('better-sqlite3', join(root, 'apps/panel/src/db'))).toBe(true);
    expect(staysExternal('node:fs', join(root, 'apps/daemon/src/fs'))).toBe(true);
    expect(staysExternal('fs', join(root, 'apps/daemon/src/fs'))).toBe(true);
  });

  it('bundles a package the daemon keeps its own version of, which dist/server would otherwise miss', () => {
    // apps/daemon/node_modules/tar-stream is version 3; the root's is dockerode's version 2.
    expect(staysExternal('tar-stream', join(root, 'apps/daemon/src/fs'))).toBe(false);
    expect(staysExternal('mime/lite', join(root, 'apps/daemon/src/fs'))).toBe(false);
    // The root's copy stays the root's for the package that depends on it.
    expect(staysExternal('tar-stream', join(root, 'node_modules/tar-fs'))).toBe(true);
  });

  it('bundles the workspace itself', () => {
    expect(staysExternal('@aerie/shared/servers/server-messages', join(root, 'apps/daemon/src'))).toBe(false);
  });
});
