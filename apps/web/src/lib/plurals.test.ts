import i18next from 'i18next';
import { describe, expect, it } from 'vitest';

const admin = (language: string) =>
  import(`../../public/locales/${language}/admin.json`).then(
    (module) => module.default as Record<string, unknown>,
  );

async function counted(language: string, counts: number[]): Promise<string[]> {
  const instance = i18next.createInstance();
  await instance.init({
    lng: language,
    resources: { [language]: { admin: await admin(language) } },
    ns: ['admin'],
  });
  return counts.map((count) => instance.t('servers.total', { ns: 'admin', count }));
}

describe("plurals by each language's own rules", () => {
  it('Polish: 1 server, 2–4 servers and 5 servers each have their own form', async () => {
    const [one, two, five, twentyTwo] = await counted('pl', [1, 2, 5, 22]);
    expect(one).toMatch(/^1 /);
    expect(two).toMatch(/^2 /);
    expect(five).toMatch(/^5 /);
    expect(new Set([one?.slice(2), two?.slice(2), five?.slice(2)]).size).toBe(3);
    expect(twentyTwo?.slice(3)).toBe(two?.slice(2));
  });

  it('Russian and Arabic too; Chinese has one form', async () => {
    const russian = await counted('ru', [1, 3, 11, 21]);
    expect(new Set(russian.map((text) => text.replace(/^\d+ /, ''))).size).toBe(3);
    // Arabic: zero, one, two, few (3–10), many (11–99) and other (100…); several read alike once the number is gone.
    const arabic = await counted('ar', [0, 1, 2, 3, 11, 100]);
    expect(new Set(arabic.map((text) => text.replace(/[\d٠-٩]+/g, '').trim())).size).toBeGreaterThanOrEqual(
      4,
    );
    const chinese = await counted('zh', [1, 5]);
    expect(chinese[0]?.replace('1', '5')).toBe(chinese[1]);
  });
});
