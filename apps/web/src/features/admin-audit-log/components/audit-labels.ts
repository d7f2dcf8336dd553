import { auditSubjectTypes, isAuditAction } from '@aerie/shared/audit/audit-actions';
import type { TFunction } from 'i18next';

type AdminT = TFunction<'admin'>;

/** An action by its name in the page's language; one this build does not know as the panel wrote it. */
export const actionLabel = (t: AdminT, action: string): string =>
  isAuditAction(action) ? t(`audit.actions.${action}`) : action;

const isSubjectType = (value: string): value is (typeof auditSubjectTypes)[number] =>
  (auditSubjectTypes as readonly string[]).includes(value);

/** A kind of object by its name in the page's language. */
export const subjectLabel = (t: AdminT, type: string): string =>
  isSubjectType(type) ? t(`audit.subjects.${type}`) : type;
