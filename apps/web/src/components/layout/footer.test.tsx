import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { Footer } from '@/components/layout/footer';
import { renderWithI18n } from '@/testing/render-app';

describe('footer', () => {
  it('runs the copyright from 2015 to the current year, with the product name', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2031-06-01T12:00:00Z'));
    window.SiteConfiguration = {
      name: 'Skyforge',
      locale: 'en',
      recaptcha: { enabled: false, siteKey: '' },
      analytics: null,
    };
    renderWithI18n(<Footer />);
    expect(screen.getByRole('contentinfo')).toHaveTextContent('Skyforge © 2015 - 2031');
  });
});
