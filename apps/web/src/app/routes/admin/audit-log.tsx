import { AuditLog } from '@/features/admin-audit-log/components/audit-log';

export default function AdminAuditLogRoute() {
  return <AuditLog />;
}
