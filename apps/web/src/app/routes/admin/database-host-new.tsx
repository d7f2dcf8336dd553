import { NewDatabaseHostPage } from '@/features/admin-database-hosts/components/database-host-pages';

export default function AdminDatabaseHostNewRoute() {
  return <NewDatabaseHostPage />;
}
