import { generateSecret, verify } from 'otplib';

const STEP_SECONDS = 30;

/** A new TOTP secret: 32 base32 characters (160 bits), as authenticator apps expect. */
export const newTotpSecret = (): string => generateSecret();

/** The RFC 6238 time step a moment falls in (30 s steps since the epoch). */
export const totpStepAt = (now: Date): number => Math.floor(now.getTime() / 1000 / STEP_SECONDS);

/**
 * Checks a 6-digit TOTP code (RFC 6238, SHA-1, 30 s steps) allowing `windowSteps` steps of clock drift each way.
 * @param afterStep steps up to and including this one are refused: a code seen once cannot be replayed
 * @returns the time step the code belongs to, or null when it is not valid (malformed codes included)
 */
export async function matchTotp(
  secret: string,
  code: string,
  options: { windowSteps: number; now: Date; afterStep?: number | null },
): Promise<number | null> {
  if (!/^\d{6}$/.test(code)) return null;
  try {
    const result = await verify({
      secret,
      token: code,
      epoch: Math.floor(options.now.getTime() / 1000),
      epochTolerance: options.windowSteps * STEP_SECONDS,
      ...(options.afterStep == null ? {} : { afterTimeStep: options.afterStep }),
    });
    // A TOTP result carries the step it matched (the HOTP variant of the union does not).
    return result.valid && 'timeStep' in result ? result.timeStep : null;
  } catch {
    return null;
  }
}
