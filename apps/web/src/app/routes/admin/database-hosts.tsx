import { DatabaseHostsList } from '@/features/admin-database-hosts/components/database-hosts-list';

export default function AdminDatabaseHostsRoute() {
  return <DatabaseHostsList />;
}
