import { errorMessages } from '@aerie/shared/errors/error-envelope';
import { useCallback, useEffect, useRef } from 'react';
import { readSettings } from '@/lib/page-globals';

interface Grecaptcha {
  render(
    container: HTMLElement,
    parameters: {
      sitekey: string;
      size: 'invisible';
      callback: (token: string) => void;
      'error-callback': () => void;
      'expired-callback': () => void;
    },
  ): number;
  execute(widgetId: number): void;
  reset(widgetId: number): void;
}

declare global {
  interface Window {
    grecaptcha?: Grecaptcha;
    aerieRecaptchaLoaded?: () => void;
  }
}

export const recaptchaScriptUrl =
  'https://www.google.com/recaptcha/api.js?onload=aerieRecaptchaLoaded&render=explicit';

let script: Promise<Grecaptcha> | null = null;

/** Adds Google's script once per page; a failed load may be retried by the next call. */
function loadRecaptcha(): Promise<Grecaptcha> {
  script ??= new Promise<Grecaptcha>((resolve, reject) => {
    window.aerieRecaptchaLoaded = () => (window.grecaptcha ? resolve(window.grecaptcha) : reject());
    const element = document.createElement('script');
    element.src = recaptchaScriptUrl;
    element.async = true;
    element.onerror = () => {
      element.remove();
      script = null;
      reject(new Error(errorMessages.captchaFailed));
    };
    document.head.appendChild(element);
  });
  return script;
}

interface Widget {
  api: Grecaptcha;
  id: number;
}

/**
 * Google's invisible reCAPTCHA when the panel enables it. Attach `containerRef` to an empty element in the form;
 * `execute()` resolves with the token to send as `g-recaptcha-response` (null when captcha is off).
 */
export function useRecaptcha() {
  const { enabled, siteKey } = readSettings().recaptcha;
  const containerRef = useRef<HTMLDivElement>(null);
  const widget = useRef<Promise<Widget> | null>(null);
  const pending = useRef<{ resolve: (token: string) => void; reject: (error: Error) => void } | null>(null);

  useEffect(() => {
    // Render once per form: Google refuses a second widget in the same element (StrictMode runs effects twice).
    if (!enabled || widget.current) return;
    widget.current = loadRecaptcha().then((api) => {
      if (!containerRef.current) throw new Error(errorMessages.captchaFailed);
      const settle = (token: string | null) => {
        if (token) pending.current?.resolve(token);
        else pending.current?.reject(new Error(errorMessages.captchaFailed));
        pending.current = null;
      };
      const id = api.render(containerRef.current, {
        sitekey: siteKey,
        size: 'invisible',
        callback: settle,
        'error-callback': () => settle(null),
        'expired-callback': () => settle(null),
      });
      return { api, id };
    });
    // The form may never submit; an unhandled rejection here would only be noise.
    widget.current.catch(() => undefined);
  }, [enabled, siteKey]);

  const execute = useCallback(async (): Promise<string | null> => {
    if (!enabled) return null;
    const { api, id } = await (widget.current ?? Promise.reject(new Error(errorMessages.captchaFailed)));
    return await new Promise<string>((resolve, reject) => {
      pending.current = { resolve, reject };
      api.execute(id);
    });
  }, [enabled]);

  const reset = useCallback(() => {
    widget.current?.then(({ api, id }) => api.reset(id)).catch(() => undefined);
  }, []);

  return { enabled, containerRef, execute, reset };
}
