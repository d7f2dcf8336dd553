import { DatabaseHostPage } from '@/features/admin-database-hosts/components/database-host-pages';

export default function AdminDatabaseHostRoute() {
  return <DatabaseHostPage />;
}
