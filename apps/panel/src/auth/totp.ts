import { verify } from 'otplib';

const STEP_SECONDS = 30;

/**
 * Checks a 6-digit TOTP code (RFC 6238, SHA-1, 30 s steps) allowing `windowSteps` steps of clock drift each way.
 * Malformed codes are simply invalid.
 */
export async function verifyTotp(
  secret: string,
  code: string,
  windowSteps: number,
  now: Date,
): Promise<boolean> {
  if (!/^\d{6}$/.test(code)) return false;
  try {
    const result = await verify({
      secret,
      token: code,
      epoch: Math.floor(now.getTime() / 1000),
      epochTolerance: windowSteps * STEP_SECONDS,
    });
    return result.valid;
  } catch {
    return false;
  }
}
