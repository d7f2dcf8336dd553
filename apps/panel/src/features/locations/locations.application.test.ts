import { applicationRequest, createAdminWithKey, notFoundJson } from '@aerie/panel/test/application-api';
import { buildTestApp, type TestApp } from '@aerie/panel/test/build-test-app';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let t: TestApp;
let bearer: string;
let sequence = 0;

beforeAll(async () => {
  t = await buildTestApp();
  ({ bearer } = await createAdminWithKey(t.ctx));
});
afterAll(() => t.close());

const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, body?: unknown) =>
  applicationRequest(t.app, bearer, method, url, body);

const shortCode = () => `loc-${++sequence}`;

async function newLocation(short = shortCode(), long?: string) {
  const response = await call('POST', 'locations', { short, long });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().attributes as { id: number; short: string; long: string | null };
}

const stored = (id: number) =>
  t.db.selectFrom('locations').select(['short', 'long']).where('id', '=', id).executeTakeFirst();

const shortTaken = {
  errors: [
    {
      code: 'ValidationException',
      status: '422',
      detail: expect.any(String),
      meta: { source_field: 'short', rule: 'unique' },
    },
  ],
};

describe('POST /api/application/locations', () => {
  it('stores the location and refuses a short code already taken, with 422 on short', async () => {
    const location = await newLocation(shortCode(), 'First');
    expect(await stored(location.id)).toEqual({ short: location.short, long: 'First' });
    const again = await call('POST', 'locations', { short: location.short, long: 'Second' });
    expect(again.statusCode).toBe(422);
    expect(again.json()).toEqual(shortTaken);
    expect(
      await t.db.selectFrom('locations').select('id').where('short', '=', location.short).execute(),
    ).toHaveLength(1);
  });
});

describe('PATCH /api/application/locations/{id}', () => {
  it('saves both codes, clearing long when it is left out', async () => {
    const location = await newLocation(shortCode(), 'Before');
    const short = shortCode();
    const response = await call('PATCH', `locations/${location.id}`, { short });
    expect(response.statusCode).toBe(200);
    expect(response.json().attributes).toMatchObject({ id: location.id, short, long: null });
    expect(await stored(location.id)).toEqual({ short, long: null });
  });

  it("refuses another location's short code with 422 on short, changing nothing", async () => {
    const taken = await newLocation();
    const location = await newLocation(shortCode(), 'Kept');
    const response = await call('PATCH', `locations/${location.id}`, { short: taken.short, long: 'Lost' });
    expect(response.statusCode).toBe(422);
    expect(response.json()).toEqual(shortTaken);
    expect(await stored(location.id)).toEqual({ short: location.short, long: 'Kept' });
  });

  it('answers 404 for an unknown location', async () => {
    const response = await call('PATCH', 'locations/999999', { short: shortCode() });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual(notFoundJson);
  });
});

describe('DELETE /api/application/locations/{id}', () => {
  it('deletes a location without nodes, then answers 404 for it', async () => {
    const location = await newLocation();
    expect((await call('DELETE', `locations/${location.id}`)).statusCode).toBe(204);
    expect(await stored(location.id)).toBeUndefined();
    const again = await call('DELETE', `locations/${location.id}`);
    expect(again.statusCode).toBe(404);
    expect(again.json()).toEqual(notFoundJson);
  });
});
