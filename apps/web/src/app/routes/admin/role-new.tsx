import { NewRolePage } from '@/features/admin-roles/components/role-pages';

export default function AdminRoleNewRoute() {
  return <NewRolePage />;
}
