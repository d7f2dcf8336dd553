import type { Infrastructure } from '@aerie/panel/infrastructure';
import { AuditLog } from './audit-log';

export function createAuditFeature({ clock }: Infrastructure) {
  return { audit: new AuditLog({ clock }) };
}
