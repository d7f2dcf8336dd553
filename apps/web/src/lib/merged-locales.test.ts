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

  it("keeps the plural forms of the translation's language that English has no key for", () => {
    const english = { servers: { total_one: '{{count}} server', total_other: '{{count}} servers' } };
    const polish = {
      servers: {
        total_one: '{{count}} serwer',
        total_few: '{{count}} serwery',
        total_many: '{{count}} serwerów',
        total_other: '{{count}} serwera',
        stray_few: 'no English plural',
      },
    };
    expect(overEnglish(english, polish)).toEqual({
      servers: {
        total_one: '{{count}} serwer',
        total_other: '{{count}} serwera',
        total_few: '{{count}} serwery',
        total_many: '{{count}} serwerów',
      },
    });
  });
});
