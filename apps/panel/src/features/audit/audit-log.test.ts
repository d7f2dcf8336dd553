import { REDACTED } from '@aerie/shared/audit/audit-wire';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { auditSnapshot } from './audit-log';
import { requireAudit } from './audit-request';

describe('auditSnapshot', () => {
  it('keeps the fields, drops timestamps and relationships, and hides every secret, nested ones too', () => {
    expect(
      auditSnapshot({
        id: 4,
        name: 'db-1',
        password: 'hunter2',
        daemon_token: 'abc',
        empty_secret: '',
        created_at: '2026-01-01T00:00:00+00:00',
        updated_at: '2026-01-01T00:00:00+00:00',
        relationships: { node: {} },
        mail: { 'mail:mailers:smtp:password': 'p', host: 'smtp.example.com' },
        list: [{ api_key: 'k', id: 1 }],
      }),
    ).toEqual({
      id: 4,
      name: 'db-1',
      password: REDACTED,
      daemon_token: REDACTED,
      empty_secret: '',
      mail: { 'mail:mailers:smtp:password': REDACTED, host: 'smtp.example.com' },
      list: [{ api_key: REDACTED, id: 1 }],
    });
  });
});

describe('requireAudit', () => {
  it('refuses to start when a changing route does not say what it records', async () => {
    const app = Fastify();
    requireAudit(app);
    app.get('/read', async () => 'ok');
    app.post('/quiet', { config: { audit: false } }, async () => 'ok');
    expect(() => app.post('/forgotten', async () => 'ok')).toThrow(
      'POST /forgotten must declare config.audit',
    );
    await app.close();
  });
});
