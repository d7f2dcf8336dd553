import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
// biome-ignore lint/style/noRestrictedImports: the catalogue's builder is a build script, beside src rather than in it.
import { buildMessagesCatalogue, messagesFile, serialiseCatalogue } from '../../scripts/messages-catalogue';

describe('public/locales/en/messages.json', () => {
  it('holds every message the shared packages define (npm run messages -w @aerie/web rewrites it)', async () => {
    const built = await buildMessagesCatalogue();
    expect(readFileSync(messagesFile, 'utf8')).toBe(serialiseCatalogue(built));
    expect(built.texts['A username or email must be provided.']).toBeDefined();
    expect(built.templates['The {{attribute}} must be at least {{min}} characters.']).toBeDefined();
    expect(built.attributes['first name']).toBe('first name');
  });
});
