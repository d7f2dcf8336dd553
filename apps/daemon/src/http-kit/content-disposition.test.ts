import { describe, expect, it } from 'vitest';
import { attachmentDisposition } from './content-disposition';

describe('attachmentDisposition', () => {
  it('keeps a plain name as it is', () => {
    expect(attachmentDisposition('server.jar')).toBe(
      `attachment; filename="server.jar"; filename*=UTF-8''server.jar`,
    );
  });

  it('lets no quote, backslash, CR or LF of a name into the header raw', () => {
    const header = attachmentDisposition('a"b\\c\r\nSet-Cookie: x=1.txt');
    expect(header).not.toMatch(/[\r\n]/);
    expect(header).toBe(
      `attachment; filename="a_b_c__Set-Cookie: x=1.txt"; filename*=UTF-8''a%22b%5Cc%0D%0ASet-Cookie%3A%20x%3D1.txt`,
    );
  });

  it('carries a non-ASCII name percent-encoded, with an ASCII fallback', () => {
    expect(attachmentDisposition("monde d'été.zip")).toBe(
      `attachment; filename="monde d'_t_.zip"; filename*=UTF-8''monde%20d%27%C3%A9t%C3%A9.zip`,
    );
  });
});
