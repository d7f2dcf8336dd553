import { z } from 'zod';
import { laravelBoolean, nullableText } from '../validation/laravel-fields';
import { IGNORE_LIMITS, ignoreRulesOverLimits } from './ignore-limits';

/** Limits of the backup fields (spec §5, §9; reference §7.2). */
export const backupLimits = {
  nameMax: 191,
  /** The ignore list is a text column; rules beyond this many characters are refused (Aerie's bound). */
  ignoredMax: 65_535,
} as const;

/** The storage a backup lives on: the node's backup directory (`wings`, Wings' name for it) or the S3 store. */
export const backupAdapters = ['wings', 's3'] as const;
export type BackupAdapter = (typeof backupAdapters)[number];

/** The default name of a backup created without one: `Backup at YYYY-MM-DD HH:MM:SS` (UTC, upstream's format). */
export function defaultBackupName(now: Date): string {
  return `Backup at ${now.toISOString().slice(0, 19).replace('T', ' ')}`;
}

/** `ignored` as the daemon and the stored row want it: one rule per line, blank lines dropped. */
export function ignoreRules(ignored: string | null | undefined): string[] {
  return (ignored ?? '')
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line.length > 0);
}

/** The create modal's form (spec §2 Backups "Create server backup"), as the page validates it before sending. */
export const backupFormSchema = z.object({
  name: z.string().max(backupLimits.nameMax),
  ignored: z.string(),
  isLocked: z.boolean(),
});
export type BackupForm = z.infer<typeof backupFormSchema>;

/**
 * POST …/backups (reference §7.2 "Backups"): `name` nullable|string|max:191 (blank: {@link defaultBackupName}),
 * `is_locked` nullable|boolean (honoured only with `backup.delete`), `ignored` nullable|string (newline-separated
 * rules, blank lines dropped; Aerie bounds it at {@link backupLimits.ignoredMax} characters, and at the node's
 * {@link IGNORE_LIMITS}, so a backup the node would refuse is never started).
 */
export const createBackupBodySchema = z.object({
  name: nullableText(backupLimits.nameMax),
  is_locked: laravelBoolean().nullish(),
  ignored: nullableText(backupLimits.ignoredMax).superRefine((ignored, ctx) => {
    const problem =
      typeof ignored === 'string' ? ignoreRulesOverLimits(ignored, 'The ignored files') : undefined;
    // Not a rule name, so the sentence is the error's detail as it stands.
    if (problem !== undefined) ctx.addIssue({ code: 'custom', message: problem });
  }),
});
export type CreateBackupBody = z.output<typeof createBackupBodySchema>;

/** POST …/backups/{backup}/restore: `truncate` required|boolean (remove every file before extracting). */
export const restoreBackupBodySchema = z.object({
  truncate: laravelBoolean(),
});
export type RestoreBackupBody = z.output<typeof restoreBackupBodySchema>;
