import { z } from 'zod';
import { nullableText } from '../validation/laravel-fields';
import { requiredString, rule } from '../validation/rules';

export const serverSettingsLimits = {
  nameMax: 191,
  dockerImageMax: 191,
} as const;

/**
 * POST …/settings/rename: `name` required|string|min:1|max:191; `description` nullable|string (absent keeps the
 * stored one, null stores an empty one). The panel caps the description as the Application API does.
 */
export const renameServerBodySchema = z.object({
  name: requiredString().min(1, rule('required')).max(serverSettingsLimits.nameMax, rule('max')),
  description: nullableText(65_535),
});

/** PUT …/settings/docker-image: `docker_image` required|string|max:191, and one of the egg's images (`in`). */
export const dockerImageBodySchema = z.object({
  docker_image: requiredString().max(serverSettingsLimits.dockerImageMax, rule('max')),
});

/** Texts of the settings routes and page, word for word from the reference and the spec (§8). */
export const serverSettingsMessages = {
  /** 400 when the server's image is not one its egg offers (an administrator set it). */
  dockerImageManual:
    "This server's Docker image has been manually set by an administrator and cannot be updated.",
  /** The Settings page's flash after a reinstall starts (spec §8). */
  reinstallStarted: 'Your server has begun the reinstallation process.',
} as const;
