import { describe, expect, it } from 'vitest';
// biome-ignore lint/style/noRestrictedImports: the build's locale plug-in lives in the web app's config, beside src.
import { overEnglish } from '../../locales.config';

describe('the built files of a language', () => {
  it('are English with the translation laid over it: a key the translation lacks, or leaves empty, stays English', () => {
    const english = {
      title: 'Servers',
      list: { empty: 'No servers.', total_one: '{{count}} server' },
      extra: 'Only here',
    };
    const german = { title: 'Server', list: { empty: '' }, unknown: 'Nicht in Englisch' };
    expect(overEnglish(english, german)).toEqual({
      title: 'Server',
      list: { empty: 'No servers.', total_one: '{{count}} server' },
      extra: 'Only here',
    });
  });
});
