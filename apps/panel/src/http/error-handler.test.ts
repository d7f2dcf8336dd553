import { TestBrowser } from '@aerie/panel/test/browser';
import { buildTestApp, type TestApp } from '@aerie/panel/test/build-test-app';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpError } from './errors';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({
    beforeReady: (app) => {
      app.get('/api/test/boom', async () => {
        throw new Error('secret internals: connection string postgres://user:pw@db');
      });
      app.get('/api/test/display', async () => {
        throw new HttpError(400, 'DisplayException', 'A rule said no.');
      });
    },
  });
});
afterAll(() => t.close());

describe('the error envelope', () => {
  it('answers unknown API routes with the 404 envelope, whatever the method', async () => {
    const browser = new TestBrowser(t.app);
    const get = await browser.get('/api/client/does-not-exist');
    const post = await browser.post('/api/client/does-not-exist', { a: 1 });
    for (const response of [get, post]) {
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({
        errors: [
          {
            code: 'NotFoundHttpException',
            status: '404',
            detail: 'The requested resource could not be found on the server.',
          },
        ],
      });
    }
  });

  it('hides the details of unexpected errors behind the generic 500 message', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/test/boom' });
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({
      errors: [
        {
          code: 'HttpException',
          status: '500',
          detail: 'An unexpected error was encountered while processing this request, please try again.',
        },
      ],
    });
    expect(response.body).not.toContain('secret');
  });

  it('passes our own errors through with their code and status as a string', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/test/display' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      errors: [{ code: 'DisplayException', status: '400', detail: 'A rule said no.' }],
    });
  });

  it('answers malformed JSON with 400 BadRequestHttpException', async () => {
    const browser = new TestBrowser(t.app);
    const response = await browser.post('/auth/login', '{"user": "a", "password": ');
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      errors: [
        {
          code: 'BadRequestHttpException',
          status: '400',
          detail: 'The JSON data passed in the request appears to be malformed: Syntax error',
        },
      ],
    });
  });

  it('reads +json bodies and treats an empty JSON body as no body', async () => {
    const browser = new TestBrowser(t.app);
    const vendor = await browser.post(
      '/auth/login',
      { user: 'nobody', password: 'x' },
      {
        headers: { 'content-type': 'application/vnd.pterodactyl.v1+json' },
      },
    );
    expect(vendor.statusCode).toBe(400);
    expect(vendor.json().errors[0].detail).toBe('No account matching those credentials could be found.');
    const empty = await browser.post('/auth/login', '', { headers: { 'content-type': 'application/json' } });
    expect(empty.statusCode).toBe(422);
  });

  it('refuses bodies it cannot read with 415', async () => {
    const browser = new TestBrowser(t.app);
    const response = await browser.post('/auth/login', '<user>a</user>', {
      headers: { 'content-type': 'application/xml' },
    });
    expect(response.statusCode).toBe(415);
    expect(response.json().errors[0]).toMatchObject({
      code: 'UnsupportedMediaTypeHttpException',
      status: '415',
    });
  });
});
