import { describe, expect, it } from 'vitest';
import { pageLanguage } from '@/lib/page-language';

describe('pageLanguage', () => {
  it("is the signed-in user's own language, whatever the browser prefers", () => {
    expect(pageLanguage({ language: 'de' }, ['fr-FR', 'fr'], 'en')).toBe('de');
  });

  it("gives a guest the first shipped language the browser prefers, else the panel's default", () => {
    expect(pageLanguage(null, ['fr-CA', 'en'], 'en')).toBe('fr');
    expect(pageLanguage(null, ['ja-JP', 'pt-PT', 'en'], 'en')).toBe('pt');
    expect(pageLanguage(null, ['ja-JP'], 'de')).toBe('de');
  });

  it('falls back to the default, then English, for a language the panel does not ship', () => {
    expect(pageLanguage({ language: 'xx' }, ['fr'], 'ru')).toBe('ru');
    expect(pageLanguage({ language: 'xx' }, [], 'xx')).toBe('en');
  });
});
