import { describe, expect, it } from 'vitest';
import { translateMessage } from '@/lib/translate-message';

const german = {
  texts: { 'A username or email must be provided.': 'Gib einen Benutzernamen oder eine E-Mail-Adresse an.' },
  templates: {
    'The {{attribute}} field is required.': 'Das Feld {{attribute}} ist erforderlich.',
    'The {{attribute}} must be at least {{min}}.': '{{attribute}} muss mindestens {{min}} sein.',
    'The {{attribute}} must be at least {{min}} characters.':
      '{{attribute}} muss mindestens {{min}} Zeichen lang sein.',
  },
  attributes: { 'first name': 'Vorname' },
};

describe('translateMessage', () => {
  it('translates a fixed text as it is', () => {
    expect(translateMessage('A username or email must be provided.', german)).toBe(
      'Gib einen Benutzernamen oder eine E-Mail-Adresse an.',
    );
  });

  it('rebuilds a made message from its translated template, with the field name translated', () => {
    expect(translateMessage('The first name field is required.', german)).toBe(
      'Das Feld Vorname ist erforderlich.',
    );
    // A field the catalogue does not name keeps its English name inside the translated sentence.
    expect(translateMessage('The egg field is required.', german)).toBe('Das Feld egg ist erforderlich.');
  });

  it('prefers the most specific template', () => {
    expect(translateMessage('The password must be at least 8 characters.', german)).toBe(
      'password muss mindestens 8 Zeichen lang sein.',
    );
    expect(translateMessage('The memory must be at least 0.', german)).toBe('memory muss mindestens 0 sein.');
  });

  it('leaves anything else as it was: a daemon error, a huge text, no catalogue', () => {
    expect(translateMessage('Could not reach the node.', german)).toBe('Could not reach the node.');
    const huge = `The ${'x'.repeat(50_000)} field is required.`;
    const started = performance.now();
    expect(translateMessage(huge, german)).toBe(huge);
    expect(performance.now() - started).toBeLessThan(1000);
    expect(translateMessage('The first name field is required.', undefined)).toBe(
      'The first name field is required.',
    );
  });
});
